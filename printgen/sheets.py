"""Print-and-play sheets as PDF: imposed faces, crop marks, fold lines, print instructions,
a scale bar, and the duplex calibration page."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from reportlab import rl_config
from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfgen.canvas import Canvas

from printgen import fonts
from printgen.imposition import Page, back_offset, mirror_axis
from printgen.layouts import Font, SheetSettings
from printgen.ops import Face
from printgen.pdfdraw import PagedCanvas, ensure_form, place_form
from printgen.units import PT_PER_MM as mm

# Binary (Flate only) streams: ASCII85 on top makes files bigger and slower to write.
rl_config.useA85 = 0

FLIP_TEXT = {
    "long": ("flip on long edge", "長辺とじ"),
    "short": ("flip on short edge", "短辺とじ"),
    "off": ("single-sided", "片面印刷"),
    "fold": ("single-sided, fold and glue", "片面印刷・折って貼る"),
}


@dataclass(frozen=True)
class SheetInfo:
    title: str
    paper: str
    duplex: str  # long, short, off, fold


def new_canvas(
    out: BinaryIO, title: str, first_page: tuple[float, float], font: Font
) -> PagedCanvas:
    """A reproducible canvas (no dates, no random ids) whose default font is embedded too,
    written into `out` page by page (`finish` ends it; `pdf` for a buffer's bytes)."""
    c = PagedCanvas(
        out,
        pagesize=(first_page[0] * mm, first_page[1] * mm),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.pdf_font_name(font.key, font.path),
    )
    c.setTitle(title)
    c.setAuthor("printgen")
    c.setCreator("printgen")
    c.setSubject(title)
    return c


def sheet_pages(
    pages: list[Page],
    faces: dict[str, Face],
    info: SheetInfo,
    s: SheetSettings,
    font: Font,
    out: BinaryIO,
) -> Iterator[float]:
    """The sheets, written into `out` a page at a time: each step writes a page and yields
    the share of the faces shown so far, so that other documents can be written beside it
    (`build.Staging.write`)."""
    c = new_canvas(
        out,
        f"{info.title} — print sheets ({info.paper})",
        (pages[0].width, pages[0].height),
        font,
    )
    made: set[str] = set()
    total = len(pages)
    shown, showings = 0, sum(len(page.placements) for page in pages) or 1
    for page in pages:
        c.setPageSize((page.width * mm, page.height * mm))
        for p in page.placements:
            face = faces[p.face]
            name = ensure_form(c, face, made)
            place_form(c, name, face, p.x, p.y, p.bleeds, p.rotate180, p.clip)
        if page.table:
            _checklist(c, page, info, s, font)
        _marks(c, page, s)
        _cut_guides(c, page)
        _targets(c, page)
        _band(c, page, info, s, font, total)
        c.showPage()
        shown += len(page.placements)
        yield shown / showings
    c.finish()


def _marks(c: Canvas, page: Page, s: SheetSettings) -> None:
    # A thin black line on a white halo: visible over light and dark bleed alike.
    for width, ink in ((s.mark_width_pt * 3, white), (s.mark_width_pt, black)):
        c.setStrokeColor(ink)
        c.setLineWidth(width)
        for x1, y1, x2, y2 in page.marks:
            c.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    if page.folds:
        c.setStrokeColor(HexColor("#555555"))
        c.setLineWidth(0.4)
        c.setDash([1.5 * mm, 1.0 * mm])
        for x1, y1, x2, y2 in page.folds:
            c.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
        c.setDash([])


CHECKLIST_HEAD = (
    "部品 / Component",
    "種類 / Kind",
    "数 / Count",
    "寸法 / Size (mm)",
    "ページ / Pages",
)
CHECKLIST_COLUMNS = (0.0, 92.0, 118.0, 136.0, 164.0)  # mm from the left margin, on a 190 mm line
CHECKLIST_ROW = 5.2


NOTE_SIZE = 7.0  # pt
NOTE_LINE = 3.6  # mm
NOTE_LINES = 3  # room kept per note (they wrap on a 190 mm line)


def checklist_rows_per_page(height: float, s: SheetSettings) -> int:
    return int((height - 2 * (s.margin + s.band) - 30) // CHECKLIST_ROW)


def note_rows(notes: int) -> int:
    """Table rows kept free on the last checklist page for its notes."""
    return math.ceil((notes * NOTE_LINES * NOTE_LINE + 3) / CHECKLIST_ROW) if notes else 0


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def sheet_notes(
    two_sided: list[Page], one_sided: list[Page], paper: str, mode: str, names: dict[str, str]
) -> list[str]:
    """How to print these pages, for the checklist: which pages are double-sided and which
    one-sided (single-sided pieces get no blank reverse pages), and which pieces too big
    to fold print on facing pages. English, then Japanese."""
    notes: list[str] = []
    if mode in ("long", "short") and one_sided:
        en, ja = FLIP_TEXT[mode]
        span = _span(one_sided[0].number, one_sided[-1].number)
        if two_sided:
            k = two_sided[-1].number
            notes.append(
                f"Print pages 1–{k} double-sided ({en}). Pages {span} hold pieces with nothing "
                "on their back: print them one-sided, as a second print job (so no page is "
                "left blank)."
            )
            notes.append(
                f"1–{k}ページは両面印刷({ja})。{span}ページは裏面のない部品だけなので、"
                "別に片面印刷してください(白紙ページを省いています)。"
            )
        else:
            notes.append("No piece has a back: print every page one-sided.")
            notes.append("裏面のある部品はありません。すべて片面印刷してください。")
    if mode == "fold":
        facing: dict[str, list[int]] = {}
        for page in two_sided:
            if page.role in ("fronts", "backs"):
                for placed in page.placements:
                    facing.setdefault(placed.piece_id, []).append(page.number)
        if facing:
            listed = ", ".join(
                f"{names.get(pid, pid)} (pages {_span(min(ns), max(ns))})"
                for pid, ns in facing.items()
            )
            notes.append(
                f"Too big to fold on {paper.upper()}: {listed}. Their fronts and backs print "
                "on facing pages (fronts, then backs): glue each backs page behind the fronts "
                "page before it, printed sides out and edges aligned, then cut."
            )
            notes.append(
                f"{paper.upper()}では折れない大きさの部品は、表と裏を続けて別のページに印刷します。"
                "裏のページを前のページの裏に、印刷面を外にして端をそろえて貼ってから切ってください。"
            )
    return notes


def _notes(c: Canvas, page: Page, left: float, y: float, font_name: str) -> None:
    """The checklist's notes, wrapped to the table's 190 mm width."""
    c.setFillColor(black)
    c.setFont(font_name, NOTE_SIZE)
    for note in page.notes:
        for line in _wrap(note, font_name, NOTE_SIZE, 190.0):
            c.drawString(left * mm, y * mm, line)
            y -= NOTE_LINE
        y -= 0.8


def _wrap(text: str, font_name: str, size: float, width_mm: float) -> list[str]:
    """Greedy wrapping at spaces, or between any two characters of a word too long (CJK)."""
    lines: list[str] = []
    line = ""
    for ch in text:
        trial = line + ch
        if line and fonts.string_width_mm(trial, font_name, size) > width_mm:
            cut = line.rfind(" ")
            if cut > 0 and ch != " ":
                lines.append(line[:cut])
                line = line[cut + 1 :] + ch
            else:
                lines.append(line.rstrip())
                line = ch.lstrip()
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


RULE_GREY = HexColor("#bbbbbb")  # the checklist's rules between rows


def _checklist(c: Canvas, page: Page, info: SheetInfo, s: SheetSettings, font: Font) -> None:
    """Every component, how many, on which pages: tick them off as you cut."""
    name = fonts.pdf_font_name(font.key, font.path)
    left = (page.width - 190) / 2
    top = page.height - s.margin - s.band - 8
    c.setFillColor(black)
    c.setFont(name, 13)
    c.drawString(left * mm, top * mm, f"{info.title} — チェックリスト / Checklist")
    c.setFont(name, 7)
    c.drawString(
        left * mm,
        (top - 5) * mm,
        "* = reconstructed value (the original picture is missing) / 再構成した値",
    )
    y = top - 13
    # The cells' text in one text object, the boxes and rules drawn after it: a page of a
    # big deck's checklist holds hundreds of cells.
    cells = c.beginText()
    edges = [*CHECKLIST_COLUMNS[1:], 190.0]
    rows = [CHECKLIST_HEAD, *page.table]
    for r, row in enumerate(rows):
        for text, x, end in zip(row, CHECKLIST_COLUMNS, edges, strict=True):
            start = x + (4 if x == 0 else 0)
            size, shown = _fit_cell(text, name, 7.5 if r else 7, end - start - 1.5)
            cells.setFont(name, size)
            cells.setTextOrigin((left + start) * mm, (y - r * CHECKLIST_ROW) * mm)
            cells.textOut(shown)
    c.drawText(cells)
    c.setLineWidth(0.3)
    for r in range(1, len(rows)):
        at = y - r * CHECKLIST_ROW
        c.rect(left * mm, (at - 0.6) * mm, 2.8 * mm, 2.8 * mm, stroke=1, fill=0)
    c.setStrokeColor(RULE_GREY)
    c.lines(
        [
            (
                left * mm,
                (y - r * CHECKLIST_ROW - 1.6) * mm,
                (left + 190) * mm,
                (y - r * CHECKLIST_ROW - 1.6) * mm,
            )
            for r in range(len(rows))
        ]
    )
    c.setStrokeColor(black)
    y -= len(rows) * CHECKLIST_ROW
    if page.notes:
        _notes(c, page, left, y - 1, name)


def _fit_cell(text: str, font_name: str, size: float, width_mm: float) -> tuple[float, str]:
    """Shrink a table cell's text down to 5 pt to fit its column, then shorten it with '…'."""
    while size > 5 and fonts.string_width_mm(text, font_name, size) > width_mm:
        size -= 0.25
    while len(text) > 1 and fonts.string_width_mm(text, font_name, size) > width_mm:
        text = text[:-2] + "…"
    return size, text


def _cut_guides(c: Canvas, page: Page) -> None:
    """Round pieces get a circle on their trim line to cut along."""
    circles = [p for p in page.placements if p.cut == "circle" and p.side == "front"]
    if not circles:
        return
    c.setStrokeColor(HexColor("#666666"))
    c.setLineWidth(0.3)
    for p in circles:
        c.ellipse(p.x * mm, p.y * mm, (p.x + p.width) * mm, (p.y + p.height) * mm, stroke=1, fill=0)


def _targets(c: Canvas, page: Page) -> None:
    """Alignment targets where tiles of a large piece overlap: match them when gluing."""
    for width, ink in ((1.2, white), (0.4, black)):
        c.setStrokeColor(ink)
        c.setLineWidth(width)
        for x, y in page.targets:
            c.line((x - 3) * mm, y * mm, (x + 3) * mm, y * mm)
            c.line(x * mm, (y - 3) * mm, x * mm, (y + 3) * mm)
            c.circle(x * mm, y * mm, 1.8 * mm, stroke=1, fill=0)


ROLE_TEXT = {
    "fronts": "fronts",
    "backs": "backs (reverse side)",
    "blank": "reverse side, intentionally blank",
    "single": "single-sided pieces, print one-sided",
    "fold": "fold sheet",
    "tile": "board tile",
    "checklist": "checklist",
}


FACING_TEXT = {
    "fronts": "fronts: glue the next page behind this one",
    "backs": "backs: glue behind the previous page",
}


def instruction_text(info: SheetInfo, page: Page, total: int) -> str:
    en, ja = FLIP_TEXT[info.duplex]
    if info.duplex in ("long", "short") and page.role in ("single", "tile"):
        en, ja = FLIP_TEXT["off"]  # printed as a second, one-sided job (see the checklist)
    role = ROLE_TEXT.get(page.role, page.role)
    if info.duplex == "fold" and page.role in FACING_TEXT:
        role = FACING_TEXT[page.role]
    if page.label:
        role = f"{role}, {page.label}"
    return (
        f"Print at 100% / Actual size — do not scale · 実寸(100%)で印刷 · {info.paper.upper()} · "
        f"{en} / {ja} · {info.title} · page {page.number}/{total} {role}"
    )


def _band(c: Canvas, page: Page, info: SheetInfo, s: SheetSettings, font: Font, total: int) -> None:
    font_name = fonts.pdf_font_name(font.key, font.path)
    text = instruction_text(info, page, total)
    size = 6.5
    c.setFillColor(black)
    c.setFont(font_name, size)
    band_mid = s.margin + s.band / 2
    if page.band_axis == "vertical":
        c.drawCentredString(page.width / 2 * mm, (page.height - band_mid - 1.0) * mm, text)
        _scale_bar(
            c, page.width / 2 - s.scale_bar / 2, band_mid - 1.2, s, font_name, vertical=False
        )
    else:
        c.saveState()
        c.translate((band_mid + 1.0) * mm, page.height / 2 * mm)
        c.rotate(90)
        c.drawCentredString(0, 0, text)
        c.restoreState()
        _scale_bar(
            c,
            page.width - band_mid + 1.2,
            page.height / 2 - s.scale_bar / 2,
            s,
            font_name,
            vertical=True,
        )


def _scale_bar(
    c: Canvas, x: float, y: float, s: SheetSettings, font_name: str, vertical: bool
) -> None:
    """A bar exactly `scale_bar` mm long with 10 mm ticks, to check the print scale."""
    c.saveState()
    c.translate(x * mm, y * mm)
    if vertical:
        c.rotate(90)
    length = s.scale_bar
    c.setStrokeColor(black)
    c.setLineWidth(0.5)
    c.line(0, 0, length * mm, 0)
    for tick in range(0, int(length) + 1, 10):
        c.line(tick * mm, 0, tick * mm, 1.5 * mm)
    c.setFont(font_name, 5.5)
    c.drawString((length + 1.5) * mm, 0.2 * mm, f"{length:g} mm: check with a ruler / 定規で確認")
    c.restoreState()


CALIBRATION_INSET = 35.0  # mm from the paper edges to the corner targets' centres
RULER = 20  # mm of scale on each side of a target's zero
LABEL_SIZE = 5.5  # pt


def calibration_targets(w: float, h: float) -> list[tuple[float, float]]:
    """Target centres: the four corners (inset) and the centre of the paper."""
    i = CALIBRATION_INSET
    return [(i, h - i), (w - i, h - i), (w / 2, h / 2), (i, i), (w - i, i)]


def write_calibration(
    paper: tuple[float, float],
    paper_name: str,
    duplex: str,
    offset: tuple[float, float],
    font: Font,
    title: str,
) -> bytes:
    """Two pages: five targets with rulers on the front (four corners and the centre), and
    a cross exactly behind each target's zero on the back.

    Held against a light, each back cross shows the printer's front/back offset at that
    place (+X to the right and +Y upwards, seen from the front); build with
    `--duplex-offset X,Y` (the values read on the centre target) to cancel it.
    """
    w, h = paper
    font_name = fonts.pdf_font_name(font.key, font.path)
    buffer = io.BytesIO()
    c = new_canvas(buffer, f"{title} — duplex calibration ({paper_name})", paper, font)
    c.setFillColor(black)
    c.setFont(font_name, 8)
    lines = [
        f"Duplex calibration · 両面印刷の位置合わせ · {paper_name.upper()} · {FLIP_TEXT[duplex][0]}",
        "1. Print both pages double-sided at 100% (actual size). 両面・実寸(100%)で印刷します。",
        "2. Hold the sheet against a light; read where each back cross falls on its target's",
        "   scales (mm, +X to the right, +Y upwards, seen from this side).",
        "   光にかざし、裏面の十字が各目盛りのどこに重なるかを読みます(mm、表から見て右が+X、上が+Y)。",
        "3. Build with the centre target's values: printgen build --duplex-offset X,Y",
        "   (0,0: the printer is aligned; corners that differ mean the back is turned or scaled)",
    ]
    top = h - CALIBRATION_INSET - RULER - 10
    for i, line in enumerate(lines):
        c.drawString(20 * mm, (top - i * 4.6) * mm, line)
    for cx, cy in calibration_targets(w, h):
        _calibration_target(c, cx, cy, font_name)
    c.showPage()
    axis = mirror_axis(w, h, "long" if duplex not in ("long", "short") else duplex)
    sx, sy = back_offset(axis, offset)
    c.setStrokeColor(black)
    for tx, ty in calibration_targets(w, h):
        # The point behind (tx, ty) once the sheet is turned over its flip edge.
        bx, by = (w - tx, ty) if axis == "x" else (tx, h - ty)
        bx, by = bx + sx, by + sy
        c.setLineWidth(0.6)
        c.line((bx - RULER) * mm, by * mm, (bx + RULER) * mm, by * mm)
        c.line(bx * mm, (by - RULER) * mm, bx * mm, (by + RULER) * mm)
        c.circle(bx * mm, by * mm, 3 * mm)
    c.setFont(font_name, 9)
    c.drawCentredString(
        w / 2 * mm,
        (h / 2 - RULER - 10) * mm,
        "Back of the calibration sheet · 位置合わせ用紙の裏面",
    )
    c.showPage()
    return c.pdf()


def _calibration_target(c: Canvas, cx: float, cy: float, font_name: str) -> None:
    """Rulers from -20 to +20 mm on both axes through (cx, cy): a tick every mm, longer
    every 5 and 10; labels every 10 mm (X below its ruler, Y right of its ruler, so no two
    labels meet), one 0 at the origin, and the + and - directions at the ends."""
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    for k in range(-RULER, RULER + 1):
        tick = 3.0 if k % 10 == 0 else 2.0 if k % 5 == 0 else 1.0
        c.line((cx + k) * mm, (cy - tick) * mm, (cx + k) * mm, (cy + tick) * mm)
        c.line((cx - tick) * mm, (cy + k) * mm, (cx + tick) * mm, (cy + k) * mm)
    c.line((cx - RULER) * mm, cy * mm, (cx + RULER) * mm, cy * mm)
    c.line(cx * mm, (cy - RULER) * mm, cx * mm, (cy + RULER) * mm)
    c.setFillColor(black)
    c.setFont(font_name, LABEL_SIZE)
    for k in range(-RULER, RULER + 1, 10):
        if k == 0:
            continue
        c.drawCentredString((cx + k) * mm, (cy - 5.5) * mm, f"{k:+d}")
        c.drawString((cx + 4.0) * mm, (cy + k - 0.7) * mm, f"{k:+d}")
    c.drawRightString((cx - 1.8) * mm, (cy - 3.6) * mm, "0")
    c.setFont(font_name, 6.5)
    c.drawString((cx + RULER + 1.5) * mm, (cy - 0.8) * mm, "+X")
    c.drawRightString((cx - RULER - 1.5) * mm, (cy - 0.8) * mm, "−X")
    c.drawCentredString(cx * mm, (cy + RULER + 1.5) * mm, "+Y")
    c.drawCentredString(cx * mm, (cy - RULER - 3.5) * mm, "−Y")
