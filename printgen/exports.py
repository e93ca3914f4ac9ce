"""Per-card exports: PDF pages with TrimBox and BleedBox, and PNG images with bleed."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

from printgen.layouts import Font
from printgen.ops import Face
from printgen.pdfdraw import ensure_form
from printgen.raster import png_bytes
from printgen.sheets import new_canvas
from printgen.units import PT_PER_MM as mm


def write_card_pdf(entries: list[tuple[str, Face]], title: str, font: Font) -> bytes:
    """One page per card face: the page is the bleed box, the TrimBox the cut line."""
    buffer = io.BytesIO()
    first = entries[0][1]
    c = new_canvas(buffer, f"{title} — card pages", _bleed_size(first), font)
    made: set[str] = set()
    for _label, face in entries:
        w, h = _bleed_size(face)
        b = face.bleed
        c.setPageSize((w * mm, h * mm))
        c.setBleedBox((0, 0, w * mm, h * mm))
        c.setTrimBox((b * mm, b * mm, (b + face.width) * mm, (b + face.height) * mm))
        name = ensure_form(c, face, made)
        c.doForm(name)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _bleed_size(face: Face) -> tuple[float, float]:
    return (face.width + 2 * face.bleed, face.height + 2 * face.bleed)


def _png_job(args: tuple[Face, int]) -> bytes:
    return png_bytes(*args)


def render_pngs(faces: Iterable[Face], dpi: int, jobs: int) -> Iterator[tuple[str, bytes]]:
    """(face key, PNG bytes) for each distinct face, drawn on `jobs` processes and handed
    over one at a time, so a thousand images never sit in memory together."""
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
