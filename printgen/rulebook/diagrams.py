"""Pictures in the rulebook: pieces' faces and worked examples' diagrams drawn as images,
stored in a folder by their content (or inline) and reached through the PDF renderer's
fetcher, so no path enters the PDF."""

from __future__ import annotations

import atexit
import base64
import hashlib
import io
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import escape
from PIL import Image

from printgen import fonts
from printgen.cache import cache_dir, keep_newest, read_entry, write_entry
from printgen.layouts import Font
from printgen.ops import Ellipse, Face, Op, Polygon, Rect, TextRun
from printgen.raster import draw_face, paint
from printgen.units import MM_PER_POINT as MM_PER_PT

PICTURE_DPI = 110
PICTURE_SCHEME = "printgen-picture"


# --- pictures already drawn in this process ---------------------------------------------------
#
# Drawing and encoding the book's pictures is most of the time it takes to assemble a book.
# A long-running process (printgen watch) rebuilds the same pictures after each edit, so each
# is kept, by a digest of everything it is drawn from, and drawn again only when that changed.

MADE_LIMIT = 64 * 2**20  # bytes of encoded pictures kept (the least recently used go first)
_made: OrderedDict[str, bytes] = OrderedDict()
_made_size = [0]


def picture_key(*parts: Any) -> str:
    """A digest of what a picture is drawn from: faces and operations (their repr, which
    names fonts by key and pictures by their content) and the font files their texts use
    (path, size and time of change: a font saved anew draws anew)."""
    h = hashlib.sha256()
    fonts_used: set[str] = set()
    for part in parts:
        h.update(repr(part).encode("utf-8") + b"\0")
        _fonts_of(part, fonts_used)
    for path in sorted(fonts_used):
        try:
            st = Path(path).stat()
            h.update(f"{path}:{st.st_size}:{st.st_mtime_ns}\0".encode())
        except OSError:
            h.update(f"{path}:-\0".encode())
    return h.hexdigest()


def _fonts_of(part: Any, found: set[str]) -> None:
    """The font files the texts of a face or of operations are drawn with."""
    if isinstance(part, TextRun):
        found.add(str(part.font_path))
    elif isinstance(part, Face):
        _fonts_of(part.ops, found)
    elif isinstance(part, (list, tuple)):
        for item in part:
            _fonts_of(item, found)


def remembered(key: str, make: Callable[[], bytes]) -> bytes:
    """The bytes `make` gives for `key`, made once per process (a bounded cache) and kept
    in printgen's cache folder for the next run (a rebuild after an edit draws only the
    pictures the edit changed)."""
    data = _made.get(key)
    if data is not None:
        _made.move_to_end(key)
        return data
    where = _kept_file(key)
    data = read_entry(where)
    if data is None:
        data = make()
        if where is not None:
            write_entry(where, data)
            _written[0] += 1
            if _written[0] == 1:
                atexit.register(_trim, where.parent)
            elif _written[0] % TRIM_EVERY == 0:  # printgen watch: a session of many edits
                _trim(where.parent)
    _made[key] = data
    _made_size[0] += len(data)
    while _made_size[0] > MADE_LIMIT and len(_made) > 1:
        _old, dropped = _made.popitem(last=False)
        _made_size[0] -= len(dropped)
    return data


PICTURES_KEPT = 4_096  # pictures kept in the cache folder (the five games draw about 950)
PICTURES_KEPT_BYTES = 128 * 2**20  # and the bytes they may hold together
TRIM_EVERY = 512  # pictures written between two trims of the folder (and as the process ends)
_written = [0]  # pictures this process wrote to the cache folder


def _trim(folder: Path) -> None:
    keep_newest(folder, PICTURES_KEPT, PICTURES_KEPT_BYTES)


def _kept_file(key: str) -> Path | None:
    """Where the picture drawn for `key` is kept between runs: by the key and the code
    that draws it (printgen's, the engines' and the libraries' versions: a picture drawn
    by other code is drawn anew)."""
    from printgen.build import code_fingerprint

    folder = cache_dir()
    if folder is None:
        return None
    name = hashlib.sha256(f"{code_fingerprint()}\0{key}".encode()).hexdigest()
    return folder / "pictures" / name


def forget_pictures() -> None:
    """Empty the cache of drawn pictures (tests: a picture drawn anew)."""
    _made.clear()
    _made_size[0] = 0


def picture_uri(face: Face, folder: Path | None = None) -> str:
    """A piece's picture for the rulebook, as JPEG (PDF embeds it as it is)."""

    def make() -> bytes:
        out = io.BytesIO()
        draw_face(face, PICTURE_DPI).save(out, format="JPEG", quality=88, optimize=False)
        return out.getvalue()

    data = remembered(picture_key("piece-jpeg", PICTURE_DPI, face), make)
    return stored(data, "jpg", folder)


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


PieceImage = Callable[[str, bool, str], "Image.Image"]
PieceKey = Callable[[str, bool, str], str]  # what a piece's picture is drawn from, as a digest
PieceSize = Callable[[str, bool, str], tuple[int, int]]


@dataclass(frozen=True)
class Drawing:
    """How example diagrams are drawn: where images go, deck colours (tints for cells, inks
    for arrows), the font, and the pictures of pieces (piece id, back?, lang -> the face's
    trim area as an image)."""

    pictures: Path | None
    palette: dict[str, str]
    font: Font
    inks: dict[str, str] = field(default_factory=dict)
    piece_image: PieceImage | None = None
    piece_key: PieceKey | None = None
    piece_size: PieceSize | None = None  # the picture's (width, height) without drawing it
    # pieces' pictures already scaled to a cell: (piece, back, lang, w, h) -> image
    fitted: dict[tuple[str, bool, str, int, int], Image.Image] = field(
        default_factory=dict, compare=False, repr=False
    )


def tint(colour: str, keep: float = 0.35) -> str:
    """A light version of a colour for a diagram cell's fill."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - v) * keep) for v in (r, g, b)))


def _title_lines(text: Any, lang: str) -> list[str]:
    """A caption: in the side-by-side edition Japanese above English (one line each)."""
    if lang == "ja-en" and text["ja"] != text["en"]:
        return [str(text["ja"]), str(text["en"])]
    return [_label(text, lang)]


def _label(text: Any, lang: str) -> str:
    if lang == "ja-en":
        return str(text["ja"]) if text["ja"] == text["en"] else f"{text['ja']} / {text['en']}"
    return str(text[lang])


DIAGRAM_CELL = 5.0  # mm
DIAGRAM_LABEL = 16.0  # mm for row labels
BIG_BOARD_CELL = 4.0  # mm: squares of a board of seven rows or more
PIECE_WIDTH = 6.0  # mm: a card drawn in a diagram cell
PIECE_MAX_HEIGHT = 11.0
MARK_FILL = {"sunk": "#b8322a", "active": "#ffe58a", "hit": "#b8322a", "empty": "#eeeeee"}
MARK_INK = {"sunk": "#ffffff", "hit": "#ffffff"}
FRAME = {"active": "#e8a800", "hit": "#b8322a", "sunk": "#b8322a"}
ARROW_DASH = {"move": None, "shot": (1.0, 0.7), "planned": (0.35, 0.6)}
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}

DIAGRAM_DPI = 300
# Diagrams are printed at 90% of the size they are drawn at (2.4 mm text -> 6 pt), so that
# a board and its players' grid fit side by side beside a step's text.
PRINT_SCALE = 0.9


@dataclass(frozen=True)
class Placed:
    """A piece's picture to paste into a drawn diagram (mm, from the top-left corner)."""

    x: float
    y: float
    w: float
    h: float
    piece: str
    back: bool


class _Pen:
    """Text in the diagram font, measured."""

    def __init__(self, drawing: Drawing) -> None:
        self.font = drawing.font
        self.name = fonts.pdf_font_name(drawing.font.key, drawing.font.path)

    def width(self, text: str, size_mm: float) -> float:
        return float(fonts.string_width_mm(text, self.name, size_mm / MM_PER_PT))

    def text(
        self, x: float, baseline: float, value: str, size_mm: float, ink: str, anchor: str = "start"
    ) -> TextRun:
        w = self.width(value, size_mm)
        shift = {"start": 0.0, "middle": w / 2, "end": w}[anchor]
        return TextRun(
            x - shift, baseline, value, self.font.key, self.font.path, size_mm / MM_PER_PT, ink
        )


def _die(x: float, y: float, size: float, face: int, fill: str) -> list[Op]:
    ops: list[Op] = [Rect(x, y, size, size, fill, "#333333", 0.2, radius=size * 0.18)]
    r = size * 0.09
    for px, py in PIPS.get(face, ()):
        ops.append(Ellipse(x + px * size - r, y + py * size - r, 2 * r, 2 * r, "#111111", None, 0))
    return ops


def _arrow(points: list[tuple[float, float]], kind: str, ink: str) -> list[Op]:
    """A polyline with a head at its end, shortened at both ends to leave the cells' text
    readable."""
    import math

    if len(points) < 2:
        return []
    (x0, y0), (x1, y1) = points[0], points[1]
    # Leave the cells' text readable at both ends, but never eat a short (one square)
    # arrow: at most a fifth of the first and the last segment goes at each end.
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    cut = min(1.4, d * 0.2)
    points[0] = (x0 + (x1 - x0) / d * cut, y0 + (y1 - y0) / d * cut)
    (xa, ya), (xb, yb) = points[-2], points[-1]
    d = math.hypot(xb - xa, yb - ya) or 1.0
    ux, uy = (xb - xa) / d, (yb - ya) / d
    cut = min(1.3, d * 0.2)
    tip = (xb - ux * cut, yb - uy * cut)
    points[-1] = (tip[0] - ux * min(1.2, d * 0.3), tip[1] - uy * min(1.2, d * 0.3))
    width = 0.35 if kind == "planned" else 0.45
    ops: list[Op] = [Polygon(tuple(points), None, ink, width, False, ARROW_DASH.get(kind))]
    head = (
        tip,
        (tip[0] - ux * 1.5 - uy * 0.75, tip[1] - uy * 1.5 + ux * 0.75),
        (tip[0] - ux * 1.5 + uy * 0.75, tip[1] - uy * 1.5 - ux * 0.75),
    )
    ops.append(Polygon(head, ink if kind != "planned" else "#ffffff", ink, 0.2, True))
    return ops


def _piece_size(drawing: Drawing, piece: str, back: bool, lang: str) -> tuple[int, int]:
    """A piece's picture's size in pixels (drawn only if there is no other way to know)."""
    if drawing.piece_size is not None:
        return drawing.piece_size(piece, back, lang)
    assert drawing.piece_image is not None
    image = drawing.piece_image(piece, back, lang)
    return image.width, image.height


def diagram_face(grid: Any, lang: str, drawing: Drawing) -> tuple[Face, list[Placed], list[Op]]:
    """A diagram grid as drawing operations (mm, y down): labels, marked cells, die faces,
    grid lines, the cells' text; where pieces' pictures go; and what is drawn over the
    pictures (highlight frames, arrows). Columns widen to fit their heading and contents;
    rows holding pieces grow to the pieces' shape, and a board's squares stay one size."""
    pen = _Pen(drawing)
    cols = max((len(cells) for _row, cells in grid.rows), default=0)
    # A big board is drawn with smaller squares (the text keeps its size).
    cell_size = DIAGRAM_CELL if len(grid.rows) < 7 else BIG_BOARD_CELL
    widths = [cell_size] * cols
    for c in range(cols):
        contents = [grid.columns[c]] if c < len(grid.columns) else []
        column = [cells[c] for _row, cells in grid.rows if c < len(cells)]
        contents += [cell.text for cell in column if not cell.die and not cell.piece]
        widths[c] = max([cell_size, *(pen.width(t, 2.4) + 0.6 for t in contents)])
        if any(cell.piece for cell in column):
            widths[c] = max(widths[c], PIECE_WIDTH + 0.8)
    if cell_size == BIG_BOARD_CELL and widths:  # a board's squares are all one size
        widths = [max(widths)] * cols
    has_pieces = any(cell.piece for _row, cells in grid.rows for cell in cells)
    if has_pieces:  # squares that hold pieces (or nothing) share one size
        squares = [
            c
            for c in range(cols)
            if all(
                not cells[c].text or cells[c].piece for _row, cells in grid.rows if c < len(cells)
            )
        ]
        side = max((widths[c] for c in squares), default=cell_size)
        for c in squares:
            widths[c] = side
    heights = []
    for _row, cells in grid.rows:
        h = cell_size
        for c, cell in enumerate(cells):
            if cell.piece and drawing.piece_image is not None:
                pw, ph = _piece_size(drawing, cell.piece, cell.back, _piece_lang(lang))
                w = widths[c] - 0.8
                h = max(h, min(PIECE_MAX_HEIGHT, w * ph / pw) + 0.8)
        heights.append(h)
    if has_pieces:  # rows of a board (pieces or empty squares) share one height
        board_rows = [
            r
            for r, (_row, cells) in enumerate(grid.rows)
            if not any(cell.die for cell in cells)
            and (
                any(cell.piece for cell in cells)
                or all(not cells[c].text for c in squares if c < len(cells))
            )
        ]
        tallest = max((heights[r] for r in board_rows), default=cell_size)
        for r in board_rows:
            heights[r] = tallest
    starts = [sum(widths[:c]) for c in range(cols)]
    tops = [sum(heights[:r]) for r in range(len(heights))]
    labels = [_label(label, lang) for label, _cells in grid.rows]
    titles = _title_lines(grid.title, lang)
    title = max(titles, key=lambda t: pen.width(t, 2.6))
    extra = 3.2 * (len(titles) - 1)
    top = (8.0 if any(grid.columns) else 5.0) + extra
    left = max([DIAGRAM_LABEL / 2, *(pen.width(t, 2.2) + 2 for t in labels)])
    total_w = max(left + sum(widths) + 1, pen.width(title, 2.6) + 1)
    total_h = top + sum(heights) + 1
    ops: list[Op] = [pen.text(0, 3 + 3.2 * k, t, 2.6, "#333333") for k, t in enumerate(titles)]
    ops += [
        pen.text(left + starts[c] + widths[c] / 2, top - 1, label, 2.2, "#888888", "middle")
        for c, label in enumerate(grid.columns[:cols])
    ]
    lines: list[Op] = []
    texts: list[Op] = []
    placed: list[Placed] = []
    over: list[Op] = []
    for r, (_row, cells) in enumerate(grid.rows):
        y, cell_h = top + tops[r], heights[r]
        texts.append(pen.text(left - 1, y + cell_h / 2 + 0.85, labels[r], 2.2, "#666666", "end"))
        span = sum(widths[: len(cells)])
        if cells:
            lines.append(Polygon(((left, y), (left + span, y)), None, "#888888", 0.15, False))
            lines.append(
                Polygon(
                    ((left, y + cell_h), (left + span, y + cell_h)), None, "#888888", 0.15, False
                )
            )
            for c in range(len(cells) + 1):
                x = left + (starts[c] if c < len(cells) else span)
                lines.append(Polygon(((x, y), (x, y + cell_h)), None, "#888888", 0.15, False))
        for c, item in enumerate(cells):
            x, w = left + starts[c], widths[c]
            fill = MARK_FILL.get(item.mark) or drawing.palette.get(item.mark)
            if fill:
                ops.append(Rect(x, y, w, cell_h, fill, None, 0.0))
            if item.die:
                size = min(w, cell_h) - 1.0
                ops += _die(x + (w - size) / 2, y + (cell_h - size) / 2, size, item.die, "#ffffff")
                continue
            if item.piece and drawing.piece_image is not None:
                placed.append(
                    Placed(x + 0.4, y + 0.4, w - 0.8, cell_h - 0.8, item.piece, item.back)
                )
                frame = FRAME.get(item.mark) or drawing.inks.get(item.mark)
                if frame:  # a piece the step touched: a strong frame over its picture
                    over.append(Rect(x + 0.3, y + 0.3, w - 0.6, cell_h - 0.6, None, frame, 0.7))
                if item.mark in ("sunk", "hit"):  # and struck through when it is lost
                    over.append(
                        Polygon(
                            ((x + 0.8, y + cell_h - 0.8), (x + w - 0.8, y + 0.8)),
                            None,
                            FRAME[item.mark],
                            0.6,
                            False,
                        )
                    )
                continue
            if item.mark in ("sunk", "hit"):
                ops.append(
                    Polygon(
                        ((x + 0.6, y + cell_h - 0.6), (x + w - 0.6, y + 0.6)),
                        None,
                        "#ffffff",
                        0.3,
                        False,
                    )
                )
            if item.text:
                ink = MARK_INK.get(item.mark, "#111111")
                texts.append(
                    pen.text(x + w / 2, y + cell_h / 2 + 0.85, item.text, 2.4, ink, "middle")
                )
    arrows: list[Op] = []
    for arrow in getattr(grid, "arrows", ()):

        def centre(rc: tuple[int, int]) -> tuple[float, float]:
            r, c = rc
            return (left + starts[c] + widths[c] / 2, top + tops[r] + heights[r] / 2)

        pts = [centre(arrow.start), *(centre(v) for v in arrow.via), centre(arrow.end)]
        ink = drawing.inks.get(arrow.colour, "#333333")
        arrows += _arrow(pts, arrow.kind, ink)
    face = Face("diagram", total_w, total_h, 0.0, tuple(ops + lines + texts))
    return face, placed, over + arrows


def _piece_lang(lang: str) -> str:
    return "ja" if lang == "ja-en" else lang


TIMELINE_WIDTH = 80.0  # mm
TIMELINE_LANE = 6.0


def timeline_face(line: Any, lang: str, drawing: Drawing) -> Face:
    """Timed events on one lane per player: a time axis in seconds, each event a dot with
    its words beside it."""
    pen = _Pen(drawing)
    lanes = list(line.lanes) or list(dict.fromkeys(e.lane for e in line.events))
    names = getattr(line, "lane_names", {}) or {}

    def lane_name(lane: str) -> str:
        return _label(names[lane], lang) if lane in names else lane

    left = max([12.0, *(pen.width(lane_name(name), 2.2) + 2 for name in lanes)])
    first = min([e.at_ms for e in line.events], default=0)
    last = max([first + 1000, *(e.at_ms for e in line.events)])
    step = 500 if last - first <= 4000 else 1000
    # The axis starts at 0 unless the events come late (7 s to 8 s: start at 7 s).
    start = (first // step) * step if first >= 2 * step else 0
    span_ms = -(-(last - start) // step) * step
    axis_w = TIMELINE_WIDTH - left - 2
    top = 6.0
    ops: list[Op] = [pen.text(0, 3, _label(line.title, lang), 2.6, "#333333")]

    def x_of(ms: int) -> float:
        return float(left + axis_w * (ms - start) / span_ms)

    lane_y = {name: top + (k + 0.5) * TIMELINE_LANE for k, name in enumerate(lanes)}
    bottom = top + len(lanes) * TIMELINE_LANE
    for name, y in lane_y.items():
        ops.append(pen.text(left - 1.5, y + 0.8, lane_name(name), 2.2, "#666666", "end"))
        ops.append(Polygon(((left, y), (left + axis_w, y)), None, "#cccccc", 0.2, False))
    for ms in range(start, start + span_ms + 1, step):
        x = x_of(ms)
        ops.append(Polygon(((x, top), (x, bottom)), None, "#dddddd", 0.15, False, (0.4, 0.4)))
        secs = f"{ms / 1000:g}"
        ops.append(
            pen.text(
                x, bottom + 3, secs + ("秒" if lang == "ja" else " s"), 2.0, "#888888", "middle"
            )
        )
    for k, event in enumerate(sorted(line.events, key=lambda e: (e.at_ms, e.lane))):
        y = lane_y.get(event.lane, top + TIMELINE_LANE / 2)
        x = x_of(event.at_ms)
        ink = drawing.inks.get(event.mark, "#1f5a96")
        ops.append(Ellipse(x - 0.9, y - 0.9, 1.8, 1.8, ink, "#ffffff", 0.2))
        text = _label(event.label, lang)
        anchor = "end" if x + pen.width(text, 2.1) > TIMELINE_WIDTH else "start"
        dx = -1.3 if anchor == "end" else 1.3
        dy = -1.2 if k % 2 == 0 else 2.6
        ops.append(pen.text(x + dx, y + dy, text, 2.1, "#111111", anchor))
    return Face("timeline", TIMELINE_WIDTH, bottom + 4.5, 0.0, tuple(ops))


def _fitted(drawing: Drawing, piece: str, back: bool, lang: str, w: int, h: int) -> Image.Image:
    """A piece's picture scaled into a w x h pixel cell (kept: the same card appears in
    many diagrams)."""
    assert drawing.piece_image is not None
    key = (piece, back, lang, w, h)
    if key not in drawing.fitted:
        pic = drawing.piece_image(piece, back, lang)
        fit = min(w / pic.width, h / pic.height)
        size = (max(1, round(pic.width * fit)), max(1, round(pic.height * fit)))
        drawing.fitted[key] = pic.resize(size, Image.Resampling.LANCZOS)
    return drawing.fitted[key]


def diagram_html(item: Any, lang: str, drawing: Drawing) -> str:
    """A diagram (grid or timeline) as a 300 DPI image (many small vector shapes and texts
    made the rulebook slow to lay out; a picture is one box), pieces' pictures pasted in."""
    placed: list[Placed] = []
    over: list[Op] = []
    if hasattr(item, "events"):
        face = timeline_face(item, lang, drawing)
    else:
        face, placed, over = diagram_face(item, lang, drawing)
    scale = DIAGRAM_DPI / 25.4

    def make() -> bytes:
        image = draw_face(face, DIAGRAM_DPI)
        for p in placed:
            w, h = round(p.w * scale), round(p.h * scale)
            pic = _fitted(drawing, p.piece, p.back, _piece_lang(lang), w, h)
            x = round(p.x * scale + (w - pic.width) / 2)
            y = round(p.y * scale + (h - pic.height) / 2)
            image.paste(pic, (x, y))
        paint(image, over, DIAGRAM_DPI)  # frames and arrows over the pictures
        out = io.BytesIO()
        image.save(out, format="PNG", dpi=(DIAGRAM_DPI, DIAGRAM_DPI), compress_level=1)
        return out.getvalue()

    if placed and drawing.piece_key is None:  # pieces whose drawing is not known: no cache
        data = make()
    else:
        pieces = [
            drawing.piece_key(p.piece, p.back, _piece_lang(lang))
            for p in placed
            if drawing.piece_key is not None
        ]
        data = remembered(picture_key("diagram", DIAGRAM_DPI, face, placed, pieces, over), make)
    alt = escape(_label(item.title, lang))
    return (
        f'<img class="diagram" src="{stored(data, "png", drawing.pictures)}" alt="{alt}" '
        f'style="width:{face.width * PRINT_SCALE:.2f}mm"/>'
    )


def default_font() -> Font:
    root = Path(__file__).resolve().parents[2] / "layouts" / "fonts"
    return Font("gothic", root / "BIZUDPGothic-Regular.ttf", root / "OFL-BIZUDPGothic.txt")
