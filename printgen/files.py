"""Files a game folder names: found only inside the project, and checked before use.

A game folder is untrusted input.  Every file it leads printgen to read (component and
layout files, images, fonts, rulebook sections, examples) must lie inside the project:
the game's own folder or `layouts/`.  A `..` that climbs out, an absolute path or a
symbolic link that points elsewhere is refused with the place that named it.  Images are
opened and verified before any renderer sees them.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from PIL import Image, UnidentifiedImageError

from printgen.errors import Location, PrintgenError, display_path

IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg"}
MAX_IMAGE_PIXELS = 64_000_000  # an A2 board at 300 DPI is 35 million
MAX_IMAGE_SIDE = 20_000
MAX_IMAGE_BYTES = 64 * 1024 * 1024

# Pillow refuses bigger images outright (its decompression-bomb guard), before decoding.
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS


@lru_cache(maxsize=1)
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def give_usual_mode(path: Path) -> None:
    """Give a file or folder made by `tempfile` (mode 0600 or 0700, then renamed into place)
    the mode any other new file or folder gets: 0666 or 0777 less the umask."""
    path.chmod((0o777 if path.is_dir() else 0o666) & ~_umask())


def is_inside(path: Path, roots: Sequence[Path]) -> bool:
    """`path`, with every symbolic link followed, lies in one of `roots`."""
    real = path.resolve()
    return any(real.is_relative_to(root.resolve()) for root in roots)


def check_inside(path: Path, roots: Sequence[Path], where: Location | None, what: str) -> Path:
    """`path` itself, when it lies inside `roots`; else a clear error at `where`."""
    if not is_inside(path, roots):
        places = " or ".join(f"{display_path(r)}/" for r in roots)
        raise PrintgenError(
            f"this {what} is a link (or a '..' path) that leads outside the project: keep "
            f"the file itself inside {places}",
            where or Location(path, 1, 1),
        )
    return path


def project_file(
    name: str, roots: Sequence[Path], where: Location | None, what: str
) -> Path | None:
    """The file a game's data names by a relative path, searched in `roots` in order;
    None when it is in none of them. Absolute paths and paths that lead out are errors."""
    pure = PurePosixPath(name.replace("\\", "/"))
    if not name.strip() or pure.is_absolute() or (len(name) > 1 and name[1] == ":"):
        raise PrintgenError(
            f"{what} '{name}' must be a path relative to the game's folder or layouts/, "
            "not an absolute path",
            where,
        )
    for root in roots:
        candidate = root / pure
        if not is_inside(candidate, [root]):
            raise PrintgenError(
                f"{what} '{name}' leads outside {display_path(root)}/ ('..' or a link that "
                "points elsewhere): keep the file inside the project",
                where,
            )
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class CheckedImage:
    """An image that opened, decoded in full and has sane dimensions."""

    path: Path
    digest: str  # of the file's bytes: drawings name the image by content, not by place
    width: int
    height: int


def check_image(path: Path, where: Location | None) -> CheckedImage:
    stat = path.stat()
    return _check_image(path, stat.st_size, stat.st_mtime_ns, where)


@lru_cache(maxsize=256)
def _check_image(path: Path, size: int, _mtime: int, where: Location | None) -> CheckedImage:
    name = display_path(path)
    if size > MAX_IMAGE_BYTES:
        raise PrintgenError(
            f"image {name} is {size / 2**20:.0f} MiB, more than {MAX_IMAGE_BYTES // 2**20} MiB: "
            "save it at the printed size (300 to 600 DPI)",
            where,
        )
    data = path.read_bytes()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as probe:
                kind = probe.format or "?"
                width, height = probe.size
                if kind not in IMAGE_FORMATS:
                    raise PrintgenError(
                        f"image {name} is {kind}, not PNG or JPEG: convert it to PNG or JPEG",
                        where,
                    )
                _check_dimensions(name, width, height, where)
                probe.verify()
            with Image.open(path) as full:
                full.load()
    except PrintgenError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PrintgenError(
            f"image {name} is larger than {MAX_IMAGE_PIXELS:,} pixels: save it at the printed "
            "size (300 to 600 DPI)",
            where,
        ) from None
    except UnidentifiedImageError:
        raise PrintgenError(
            f"{name} is not an image printgen can read: use a PNG or JPEG file", where
        ) from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise PrintgenError(
            f"image {name} is damaged or truncated ({exc}): export it again", where
        ) from None
    return CheckedImage(path, hashlib.sha256(data).hexdigest()[:16], width, height)


def _check_dimensions(name: str, width: int, height: int, where: Location | None) -> None:
    if width <= 0 or height <= 0 or max(width, height) > MAX_IMAGE_SIDE:
        raise PrintgenError(
            f"image {name} is {width} x {height} pixels: each side must be 1 to "
            f"{MAX_IMAGE_SIDE:,} pixels",
            where,
        )
    if width * height > MAX_IMAGE_PIXELS:
        raise PrintgenError(
            f"image {name} is {width} x {height} pixels, more than {MAX_IMAGE_PIXELS:,}: "
            "save it at the printed size (300 to 600 DPI)",
            where,
        )
