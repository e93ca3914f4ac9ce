"""Pictures in the rulebook: pieces' faces and worked examples' diagrams drawn as images,
stored in a folder by their content (or inline) and reached through the PDF renderer's
fetcher, so no path enters the PDF."""

from __future__ import annotations

import base64
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import escape

from printgen import fonts
from printgen.layouts import Font
from printgen.ops import Face, Op, Polygon, Rect, TextRun
from printgen.raster import draw_face
from printgen.units import MM_PER_POINT as MM_PER_PT

PICTURE_DPI = 110
PICTURE_SCHEME = "printgen-picture"


def picture_uri(face: Face, folder: Path | None = None) -> str:
    """A piece's picture for the rulebook, as JPEG (PDF embeds it as it is)."""
    out = io.BytesIO()
    draw_face(face, PICTURE_DPI).save(out, format="JPEG", quality=88, optimize=False)
    return stored(out.getvalue(), "jpg", folder)


def stored(data: bytes, ext: str, folder: Path | None) -> str:
    """An image for the rulebook: a file in `folder` (quick for WeasyPrint to parse), named
    by its content and reached through the fetcher so no path enters the PDF; without a
    folder, a data: URI."""
    if folder is None:
        kind = {"jpg": "image/jpeg", "ttf": "font/ttf"}.get(ext, f"image/{ext}")
        return f"data:{kind};base64," + base64.b64encode(data).decode("ascii")
    name = f"{hashlib.sha256(data).hexdigest()[:24]}.{ext}"
    path = folder / name
    if not path.exists():
        path.write_bytes(data)
    return f"{PICTURE_SCHEME}:{name}"


@dataclass(frozen=True)
class Drawing:
    """How example diagrams are drawn: where images go, deck colours, the font."""

    pictures: Path | None
    palette: dict[str, str]
    font: Font


def tint(colour: str, keep: float = 0.35) -> str:
    """A light version of a colour for a diagram cell's fill."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - v) * keep) for v in (r, g, b)))


def _label(text: Any, lang: str) -> str:
    if lang == "ja-en":
        return str(text["ja"]) if text["ja"] == text["en"] else f"{text['ja']} / {text['en']}"
    return str(text[lang])


DIAGRAM_CELL = 5.0  # mm
DIAGRAM_LABEL = 16.0  # mm for row labels
MARK_FILL = {"sunk": "#b8322a", "active": "#ffe58a", "hit": "#b8322a", "empty": "#eeeeee"}
MARK_INK = {"sunk": "#ffffff", "hit": "#ffffff"}


DIAGRAM_DPI = 300


def diagram_face(grid: Any, lang: str, drawing: Drawing) -> Face:
    """A diagram grid as drawing operations (mm, y down): labels, marked cells, grid lines,
    the cells' text. Columns widen to fit their heading and contents."""
    font_name = fonts.pdf_font_name(drawing.font.key, drawing.font.path)

    def width(text: str, size_mm: float) -> float:
        return fonts.string_width_mm(text, font_name, size_mm / MM_PER_PT)

    def text(
        x: float, baseline: float, value: str, size_mm: float, ink: str, anchor: str = "start"
    ) -> TextRun:
        shift = {"start": 0.0, "middle": width(value, size_mm) / 2, "end": width(value, size_mm)}[
            anchor
        ]
        return TextRun(
            x - shift,
            baseline,
            value,
            drawing.font.key,
            drawing.font.path,
            size_mm / MM_PER_PT,
            ink,
        )

    cols = max(len(cells) for _label, cells in grid.rows)
    widths = [DIAGRAM_CELL] * cols
    for c in range(cols):
        contents = [grid.columns[c]] if c < len(grid.columns) else []
        contents += [cells[c].text for _label, cells in grid.rows if c < len(cells)]
        widths[c] = max(DIAGRAM_CELL, *(width(t, 2.4) + 1.2 for t in contents))
    starts = [sum(widths[:c]) for c in range(cols)]
    labels = [_label(label, lang) for label, _cells in grid.rows]
    title = _label(grid.title, lang)
    cell, top = DIAGRAM_CELL, 8.0
    left = max(DIAGRAM_LABEL / 2, *(width(t, 2.2) + 2 for t in labels))
    total_w = max(left + sum(widths) + 1, width(title, 2.6) + 1)
    total_h = top + len(grid.rows) * cell + 1
    ops: list[Op] = [text(0, 3, title, 2.6, "#333333")]
    ops += [
        text(left + starts[c] + widths[c] / 2, top - 1, label, 2.2, "#888888", "middle")
        for c, label in enumerate(grid.columns[:cols])
    ]
    lines: list[Op] = []
    texts: list[Op] = []
    for r, (_row, cells) in enumerate(grid.rows):
        y = top + r * cell
        texts.append(text(left - 1, y + cell * 0.68, labels[r], 2.2, "#666666", "end"))
        span = sum(widths[: len(cells)])
        if cells:
            lines.append(Polygon(((left, y), (left + span, y)), None, "#888888", 0.15, False))
            lines.append(
                Polygon(((left, y + cell), (left + span, y + cell)), None, "#888888", 0.15, False)
            )
            for c in range(len(cells) + 1):
                x = left + (starts[c] if c < len(cells) else span)
                lines.append(Polygon(((x, y), (x, y + cell)), None, "#888888", 0.15, False))
        for c, item in enumerate(cells):
            x, w = left + starts[c], widths[c]
            fill = MARK_FILL.get(item.mark) or drawing.palette.get(item.mark)
            if fill:
                ops.append(Rect(x, y, w, cell, fill, None, 0.0))
            if item.mark in ("sunk", "hit"):
                ops.append(
                    Polygon(
                        ((x + 0.6, y + cell - 0.6), (x + w - 0.6, y + 0.6)),
                        None,
                        "#ffffff",
                        0.3,
                        False,
                    )
                )
            if item.text:
                ink = MARK_INK.get(item.mark, "#111111")
                texts.append(text(x + w / 2, y + cell * 0.68, item.text, 2.4, ink, "middle"))
    return Face("diagram", total_w, total_h, 0.0, tuple(ops + lines + texts))


def diagram_html(grid: Any, lang: str, drawing: Drawing) -> str:
    """A diagram as a 300 DPI image (many small vector shapes and texts made the rulebook
    slow to lay out; a picture is one box)."""
    face = diagram_face(grid, lang, drawing)
    out = io.BytesIO()
    draw_face(face, DIAGRAM_DPI).save(
        out, format="PNG", dpi=(DIAGRAM_DPI, DIAGRAM_DPI), compress_level=1
    )
    alt = escape(_label(grid.title, lang))
    return (
        f'<img class="diagram" src="{stored(out.getvalue(), "png", drawing.pictures)}" alt="{alt}" '
        f'style="width:{face.width:.2f}mm"/>'
    )


def default_font() -> Font:
    root = Path(__file__).resolve().parents[2] / "layouts" / "fonts"
    return Font("gothic", root / "BIZUDPGothic-Regular.ttf", root / "OFL-BIZUDPGothic.txt")
