"""Fonts for both renderers: reportlab (vector, embedded subsets) and Pillow (raster)."""

from __future__ import annotations

import hashlib
import io
import logging
import marshal
import sys
from array import array
from collections.abc import Callable
from fnmatch import fnmatch
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import (
    TTEncoding,
    TTFError,
    TTFNameBytes,
    TTFont,
    TTFontFace,
)

from printgen.cache import cache_dir, file_digest, keep_newest, read_entry, write_entry
from printgen.errors import PrintgenError

if TYPE_CHECKING:
    from PIL import ImageFont

_registered: dict[str, Path] = {}


def pdf_font_name(key: str, path: Path) -> str:
    """Register the TrueType file with reportlab once and return its font name."""
    name = f"pg-{key}"
    if _registered.get(name) != path:
        try:
            pdfmetrics.registerFont(_tt_font(name, path))
        except (TTFError, OSError) as exc:
            raise PrintgenError(
                f"cannot use font file {path.name}: {exc} (reportlab needs TrueType outlines)"
            ) from None
        _registered[name] = path
    return name


# --- reportlab's reading of a font file, kept between runs --------------------------------------
#
# reportlab reads a font's whole character map and metrics before it can measure or set a
# word: 35 ms for each of the Japanese fonts, a tenth of a small deck's build.  What it reads
# depends on the file's bytes and reportlab alone, so it is kept in printgen's cache folder
# (printgen/cache.py), one file per font, named by the font's sha256 and the versions that
# read it, checked by its own sha256 before use.  Without the folder (read-only, no HOME)
# fonts are read as before; either way the same TTFont comes out and the PDFs are the same
# bytes (a test checks).

_FACE_CACHE_FORMAT = 2


def _face_file(path: Path) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    versions = (
        f"{_FACE_CACHE_FORMAT}-{reportlab.Version}-{sys.version_info[0]}{sys.version_info[1]}"
    )
    return folder / "fonts" / f"{file_digest(path)}-{versions}.marshal"


def _face_state(face: TTFontFace) -> dict[str, Any]:
    """What reportlab read of the font, as plain values (names carry their text; the large
    tables of numbers, packed by `_pack`)."""
    state: dict[str, Any] = {}
    for attr, value in vars(face).items():
        if attr in ("_ttf_data", "_pdfScale", "filename", "table"):
            continue  # the file's bytes and name: this run's; the scale: from unitsPerEm;
            # the tables by tag: from the list of them
        state[attr] = ("name", value.ustr) if isinstance(value, TTFNameBytes) else _pack(value)
    return state


class _KeptFace(TTFontFace):  # type: ignore[misc]
    """A face read back from the cache folder. Its glyph-to-characters map, which reportlab
    reads only while it parses a font file, stays packed until something asks for it (a
    Japanese font's takes 2.5 ms to unpack, for nothing, in every build)."""

    _UNREAD = ("glyphToChar",)

    def get_table(self, tag: str) -> Any:
        """A table of the font, as reportlab's face gives it; the glyphs' table cut from the
        file's bytes only a glyph at a time, as a subset takes them (reportlab copies the
        whole of it, megabytes for a Japanese font, for every subset of every document)."""
        if tag != "glyf":
            return super().get_table(tag)
        start, length = self.get_table_pos(tag)
        return _Glyphs(self._ttf_data, start, length)

    def __getattr__(self, name: str) -> Any:
        packed = self.__dict__.get("_packed")
        if packed is None or name not in packed:
            raise AttributeError(name)
        kind, *parts = packed.pop(name)
        value = _UNPACK[kind](*parts)
        setattr(self, name, value)
        return value


class _Glyphs:
    """A font's glyph table, read where it lies in the font file's bytes: a slice of it is
    the slice of the table's bytes."""

    __slots__ = ("data", "length", "start")

    def __init__(self, data: bytes, start: int, length: int) -> None:
        self.data, self.start, self.length = data, start, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, part: slice) -> bytes:
        begin, end, step = part.indices(self.length)
        if step != 1:
            raise ValueError("a glyph table is read a run of bytes at a time")
        return self.data[self.start + begin : self.start + max(begin, end)]


def _face_from_state(state: dict[str, Any], data: bytes, path: Path) -> TTFontFace:
    face = _KeptFace.__new__(_KeptFace)
    face._packed = {}
    for attr, value in state.items():
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "name":
            value = TTFNameBytes(value[1].encode("utf-8"))
        elif isinstance(value, tuple) and value and value[0] in _UNPACK:
            if attr in _KeptFace._UNREAD:
                face._packed[attr] = value
                continue
            value = _UNPACK[value[0]](*value[1:])
        setattr(face, attr, value)
    face.table = {t["tag"]: t for t in face.tables}  # one table list, as reportlab's
    face._ttf_data = data
    face.filename = str(path)
    units = face.unitsPerEm
    face._pdfScale = (lambda x: x) if units == 1000 else (lambda x, k=1000 / units: x * k)
    return face


# A Japanese font's character map, widths and glyph offsets are tens of thousands of
# numbers: marshal reads them back one object at a time (25 ms a font), arrays' bytes at
# once (a few ms). Only tables whose numbers are all of one kind are packed, so the face
# comes back with the same values of the same types.
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def _ints(values: Any) -> bool:
    return all(type(v) is int and _INT_MIN <= v <= _INT_MAX for v in values)


def _pack(value: Any) -> Any:
    if isinstance(value, dict) and len(value) > 256 and _ints(value):
        values = list(value.values())
        if _ints(values):
            return ("int-map", array("q", value).tobytes(), array("q", values).tobytes())
        if all(type(v) is float for v in values):
            return ("float-map", array("q", value).tobytes(), array("d", values).tobytes())
        if all(type(v) is list for v in values) and _ints(c for v in values for c in v):
            lengths = array("q", map(len, values)).tobytes()
            flat = array("q", (c for v in values for c in v)).tobytes()
            return ("int-lists", array("q", value).tobytes(), lengths, flat)
    if isinstance(value, list) and len(value) > 256 and _ints(value):
        return ("int-list", array("q", value).tobytes())
    return value


def _int_lists(keys: bytes, lengths: bytes, flat: bytes) -> dict[int, list[int]]:
    items = array("q", flat).tolist()
    out: dict[int, list[int]] = {}
    at = 0
    for key, length in zip(array("q", keys).tolist(), array("q", lengths).tolist(), strict=True):
        out[key] = items[at : at + length]
        at += length
    return out


_UNPACK: dict[str, Callable[..., Any]] = {
    "int-map": lambda k, v: dict(zip(array("q", k).tolist(), array("q", v).tolist(), strict=True)),
    "float-map": lambda k, v: dict(
        zip(array("q", k).tolist(), array("d", v).tolist(), strict=True)
    ),
    "int-lists": _int_lists,
    "int-list": lambda v: array("q", v).tolist(),
}


def _cached_face(path: Path, data: bytes) -> TTFontFace | None:
    payload = read_entry(_face_file(path))
    if payload is None:
        return None
    try:
        return _face_from_state(marshal.loads(payload), data, path)
    except (ValueError, EOFError, TypeError, KeyError, AttributeError):
        return None


def _keep_face(face: TTFontFace, path: Path) -> None:
    where = _face_file(path)
    if where is None:
        return
    try:
        payload = marshal.dumps(_face_state(face))
    except ValueError:
        return  # a value marshal cannot keep: the next run reads the font again
    write_entry(where, payload)
    keep_newest(where.parent, FACES_KEPT)


FACES_KEPT = 64  # fonts whose reading is kept in the cache folder


def _tt_font(name: str, path: Path) -> TTFont:
    """reportlab's TTFont of the file, its reading taken from the cache when kept there."""
    data = path.read_bytes()
    face = _cached_face(path, data)
    if face is None:
        font = TTFont(name, str(path))
        _keep_face(font.face, path)
        return font
    font = TTFont.__new__(TTFont)  # what TTFont.__init__ does, with the face read already
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
    return font


def string_width_mm(text: str, font_name: str, size_pt: float) -> float:
    return float(pdfmetrics.stringWidth(text, font_name, size_pt)) * 25.4 / 72.0


@lru_cache(maxsize=256)
def ascent_ratio(font_name: str) -> float:
    face = pdfmetrics.getFont(font_name).face
    return float(face.ascent) / 1000.0


@lru_cache(maxsize=512)
def pillow_font(path: Path, size_px: float) -> ImageFont.FreeTypeFont:
    """The font as Pillow draws it (PNG exports). Pillow's FreeType module is imported
    here, when the first PNG draws text: a build without PNGs does without it."""
    from PIL import ImageFont

    return ImageFont.truetype(str(path), size=size_px, layout_engine=ImageFont.Layout.BASIC)


# Characters a rulebook may show that its HTML does not spell out: list markers,
# hyphens and ellipses the layout engine adds, and the digits of page counters.
LAYOUT_CHARACTERS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "\u00a0\u00ad\u2010\u2011\u2013\u2014\u2022\u2026\u25e6\u25aa\u30fb"
)


@lru_cache(maxsize=16)
def subset_font(path: Path, characters: str) -> bytes:
    """The font cut down to `characters`, by fontTools (pinned in constraints.txt), with
    its own timestamps kept: the same bytes on every machine, whatever the system's
    libraries. Rulebooks embed these subsets as they are.  A subset is kept in printgen's
    cache folder by the font's bytes, the characters and fontTools' version (a rebuild
    after a rule change mostly needs the subsets it cut last time)."""
    import fontTools

    key = hashlib.sha256(f"{SUBSET_FORMAT}\0{fontTools.version}\0{characters}".encode())
    folder = cache_dir()
    where = folder / "subsets" / f"{file_digest(path)}-{key.hexdigest()}.ttf" if folder else None
    stored = read_entry(where)
    if stored is not None:
        return stored
    data = _cut(path, characters)
    if where is not None:
        write_entry(where, data)
        keep_newest(where.parent, SUBSETS_KEPT)
    return data


SUBSETS_KEPT = 256  # font subsets kept in the cache folder (each rulebook edit may add one)


SUBSET_FORMAT = 1  # the options `_cut` gives fontTools: a new number when they change


def _cut(path: Path, characters: str) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTLibError

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # "meta NOT subset" notes
    options = subset.Options()
    # No glyph substitutions (ligatures, alternates): every glyph drawn is then one the
    # character map names, so the PDF's text can be copied and searched.
    options.drop_tables += ["GSUB"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.hinting = False
    try:
        font = subset.load_font(str(path), options, dontLoadGlyphNames=True)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=characters)
        subsetter.subset(font)
        out = io.BytesIO()
        subset.save_font(font, out, options)
    except (TTLibError, OSError, AssertionError, KeyError) as exc:
        raise PrintgenError(f"cannot subset font file {path.name}: {exc}") from None
    return out.getvalue()
