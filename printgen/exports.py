"""Per-card exports: PDF pages with TrimBox and BleedBox, and PNG images with bleed (one
per distinct face: copies, and cards drawn alike, share one image)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from printgen.layouts import Font
from printgen.ops import Face
from printgen.pdfdraw import ensure_form
from printgen.sheets import new_canvas
from printgen.units import PT_PER_MM as mm


def card_pages(
    entries: list[tuple[str, Face]], title: str, font: Font, out: BinaryIO
) -> Iterator[float]:
    """One page per card face, written into `out` a page at a time: the page is the bleed
    box, the TrimBox the cut line. Each step writes a page and yields the share of the pages
    written, which is the share of the faces shown (a face a page), so that other documents
    can be written beside it (`build.Staging.write`)."""
    first = entries[0][1]
    c = new_canvas(out, f"{title} — card pages", _bleed_size(first), font)
    made: set[str] = set()
    for number, (_label, face) in enumerate(entries, 1):
        w, h = _bleed_size(face)
        b = face.bleed
        c.setPageSize((w * mm, h * mm))
        c.setBleedBox((0, 0, w * mm, h * mm))
        c.setTrimBox((b * mm, b * mm, (b + face.width) * mm, (b + face.height) * mm))
        name = ensure_form(c, face, made)
        c.doForm(name)
        c.showPage()
        yield number / len(entries)
    c.finish()


def _bleed_size(face: Face) -> tuple[float, float]:
    return (face.width + 2 * face.bleed, face.height + 2 * face.bleed)


def _png_job(args: tuple[Face, int]) -> bytes:
    from printgen.raster import png_bytes

    return png_bytes(*args)


def render_pngs(faces: Iterable[Face], dpi: int, jobs: int) -> Iterator[tuple[str, bytes]]:
    """(face key, PNG bytes) for each distinct face, drawn on `jobs` processes and handed
    over one at a time, so a thousand images never sit in memory together."""
    from concurrent.futures import ProcessPoolExecutor

    from printgen.raster import png_bytes

    todo = list({f.key: f for f in faces}.values())
    # Largest first, one at a time: a board's image takes as long as dozens of cards'.
    todo.sort(key=lambda f: -(f.width + 2 * f.bleed) * (f.height + 2 * f.bleed))
    if jobs <= 1 or len(todo) < 8:
        for face in todo:
            yield face.key, png_bytes(face, dpi)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(_png_job, [(f, dpi) for f in todo], chunksize=1)
        for face, data in zip(todo, results, strict=True):
            yield face.key, data


# --- one PNG per distinct face ---------------------------------------------------------------


@dataclass(frozen=True)
class FaceUse:
    """One side of one component and how many copies of it are printed."""

    component: str
    deck: str | None
    face: str  # "front" or "back"
    copies: int


@dataclass
class PngFile:
    """One PNG image: a distinct drawing, the face to draw it from, and every side of every
    component it stands for."""

    path: str
    drawing: str
    face: Face
    uses: list[FaceUse] = field(default_factory=list)

    @property
    def copies(self) -> int:
        return sum(use.copies for use in self.uses)

    def stands_for(self) -> list[dict[str, Any]]:
        return [
            {"component": use.component, "face": use.face, "copies": use.copies}
            for use in self.uses
        ]


def drawing_of(face: Face) -> str:
    """What a face's picture is made from: its size, bleed and operations (two faces alike
    here make the same pixels)."""
    data = repr((face.width, face.height, face.bleed, face.ops)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def plan_pngs(sides: list[tuple[FaceUse, Face]]) -> list[PngFile]:
    """One PNG per distinct drawing among `sides` (in the game's order), named after who
    shows it: `png/<component>.png` for a drawing some component has as its front (the
    first such component), else `png/backs/<deck>.png` (a deck's back, shared by all its
    cards; `png/backs/<component>.png` for a component in no deck, or when the deck's name
    is taken by another of its backs)."""
    files: dict[str, PngFile] = {}
    for use, face in sides:
        drawing = drawing_of(face)
        if drawing not in files:
            files[drawing] = PngFile("", drawing, face)
        files[drawing].uses.append(use)
    taken: set[str] = set()
    # Fronts first: a component's own front always has its own name.
    ordered = sorted(files.values(), key=lambda f: all(u.face != "front" for u in f.uses))
    for png in ordered:
        fronts = [u for u in png.uses if u.face == "front"]
        if fronts:
            wanted = [f"png/{fronts[0].component}.png"]
        else:
            first = png.uses[0]
            wanted = [f"png/backs/{name}.png" for name in (first.deck, first.component) if name]
        path = next((w for w in wanted if w not in taken), "")
        n = 2
        while not path:
            candidate = wanted[-1].removesuffix(".png") + f"-{n}.png"
            path = candidate if candidate not in taken else ""
            n += 1
        taken.add(path)
        png.path = path
    return [png for png in ordered]
