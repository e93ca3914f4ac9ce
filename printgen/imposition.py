"""Imposition: where each piece lands on which page. Pure geometry, millimetres, origin at
the page's bottom-left corner (as in the manifest and in PDF)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from printgen.layouts import SheetSettings

EPS = 1e-6
Segment = tuple[float, float, float, float]
Bleeds = tuple[float, float, float, float]  # left, bottom, right, top
Rect = tuple[float, float, float, float]  # x, y, width, height (or an interval's two ends)


@dataclass(frozen=True)
class Item:
    """One physical copy of a piece."""

    piece_id: str
    copy: int
    front: str
    back: str | None
    width: float
    height: float
    cut: str = "rect"


@dataclass(frozen=True)
class Placement:
    piece_id: str
    copy: int
    side: str
    face: str
    x: float
    y: float
    width: float
    height: float
    bleeds: Bleeds
    rotate180: bool = False
    clip: tuple[float, float, float, float] | None = None  # page window of a tiled piece
    tile: tuple[int, int, int, int] | None = None  # row, column, rows, columns
    cut: str = "rect"


@dataclass
class Page:
    number: int
    width: float
    height: float
    role: str  # fronts, backs, fold, calibration-front, calibration-back, checklist
    placements: list[Placement] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)
    folds: list[Segment] = field(default_factory=list)
    band_axis: str = "vertical"
    label: str = ""
    offset: tuple[float, float] = (0.0, 0.0)
    targets: list[tuple[float, float]] = field(default_factory=list)
    table: list[tuple[str, ...]] = field(default_factory=list)  # checklist rows
    notes: list[str] = field(default_factory=list)  # checklist: how to print these pages


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    width: float  # page
    height: float
    cell_w: float
    cell_h: float
    gutter_x: float
    gutter_y: float
    left: float  # trim x of column 0
    top: float  # trim top of row 0
    band_axis: str

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cell(self, index: int) -> tuple[float, float]:
        """Bottom-left of the trim of cell `index` (row-major from the top-left)."""
        row, col = divmod(index, self.cols)
        x = self.left + col * (self.cell_w + self.gutter_x)
        y = self.top - self.cell_h - row * (self.cell_h + self.gutter_y)
        return (x, y)


def _axis(
    page: float, size: float, need_margin: float, max_gutter: float, mark_room: float
) -> tuple[int, float, float]:
    """Count, gutter and first offset along one axis, or count 0 when nothing fits.

    The gutter grows up to `max_gutter` (twice the bleed), but never so far that the outer
    pieces' bleed (half a gutter) leaves less than `mark_room` for crop marks before the
    edge of the printable area: with n pieces and a free span S inside that edge, the
    outer room (S - (n - 1) g) / 2 stays >= g / 2 + mark_room, so g <= (S - 2 room) / n.
    """
    n = math.floor((page - 2 * need_margin + EPS) / size) if size > 0 else 0
    if n < 1:
        return (0, 0.0, 0.0)
    span = page - n * size - 2 * (need_margin - mark_room)
    gutter = 0.0 if n == 1 else min(max_gutter, max(0.0, (span - 2 * mark_room) / n))
    start = (page - n * size - (n - 1) * gutter) / 2
    return (n, gutter, start)


def make_grid(
    paper: tuple[float, float], size: tuple[float, float], s: SheetSettings, bleed: float
) -> Grid:
    """The densest centred grid over both paper orientations.

    Trim boxes keep `margin` from the paper edge plus room for crop marks; one axis also
    keeps the band for print instructions and the scale bar. Gutters grow up to twice the
    bleed so each piece gets its bleed on every side when the paper allows it, keeping room
    for crop marks outside the outer pieces' bleed.
    """
    best: Grid | None = None
    for width, height in (paper, (paper[1], paper[0])):
        for band_axis in ("vertical", "horizontal"):
            band = s.margin + s.band + s.mark_length
            plain = s.margin + s.mark_length
            mx = band if band_axis == "horizontal" else plain
            my = band if band_axis == "vertical" else plain
            cols, gx, left = _axis(width, size[0], mx, 2 * bleed, s.mark_length)
            rows, gy, bottom = _axis(height, size[1], my, 2 * bleed, s.mark_length)
            if cols == 0 or rows == 0:
                continue
            grid = Grid(
                cols,
                rows,
                width,
                height,
                size[0],
                size[1],
                gx,
                gy,
                left,
                height - bottom,
                band_axis,
            )
            if best is None or grid.per_page > best.per_page:
                best = grid
    if best is None:
        raise ValueError(
            f"a {size[0]:g} x {size[1]:g} mm piece does not fit on {paper[0]:g} x {paper[1]:g} mm paper"
        )
    return best


def bleeds_for(grid: Grid, bleed: float, s: SheetSettings) -> Bleeds:
    """Bleed on each side of a cell: half the gutter between pieces, and no further out
    than leaves `mark_length` of room for crop marks before the printable area's edge
    (the same on every cell, so backs mirror exactly)."""
    lo_x, lo_y, hi_x, hi_y = mark_limit(grid, s)
    right = grid.left + grid.cols * grid.cell_w + (grid.cols - 1) * grid.gutter_x
    bottom = grid.top - grid.rows * grid.cell_h - (grid.rows - 1) * grid.gutter_y
    room_x = min(grid.left - lo_x, hi_x - right) - s.mark_length
    room_y = min(bottom - lo_y, hi_y - grid.top) - s.mark_length
    bx = min(bleed, max(0.0, room_x))
    by = min(bleed, max(0.0, room_y))
    if grid.cols > 1:
        bx = min(bx, grid.gutter_x / 2)
    if grid.rows > 1:
        by = min(by, grid.gutter_y / 2)
    return (bx, by, bx, by)


def mirror_axis(width: float, height: float, duplex: str) -> str:
    """Which page axis the backs are mirrored across: the paper's long edge for a long-edge
    flip (columns reversed on a portrait page), the short edge otherwise."""
    portrait = height >= width
    long_edge = duplex == "long"
    return "x" if portrait == long_edge else "y"


def back_offset(axis: str, offset: tuple[float, float]) -> tuple[float, float]:
    """The shift of a backs page that cancels an offset read on the calibration page
    (where the back's cross appears, seen from the front)."""
    ex, ey = offset
    return (ex, -ey) if axis == "x" else (-ex, ey)


def mirrored(
    p: Placement, face: str, page_w: float, page_h: float, axis: str, shift: tuple[float, float]
) -> Placement:
    bl, bb, br, bt = p.bleeds
    if axis == "x":
        x, y, bleeds, rot = page_w - p.x - p.width, p.y, (br, bb, bl, bt), False
    else:
        x, y, bleeds, rot = p.x, page_h - p.y - p.height, (bl, bt, br, bb), True
    return Placement(
        p.piece_id, p.copy, "back", face, x + shift[0], y + shift[1], p.width, p.height, bleeds, rot
    )


def bleed_box(p: Placement) -> Rect:
    """The printed area of a placed face: its trim grown by its bleed on each side (or
    the page window of a tiled piece)."""
    if p.clip is not None:
        return p.clip
    bl, bb, br, bt = p.bleeds
    return (p.x - bl, p.y - bb, p.width + bl + br, p.height + bb + bt)


def crop_marks(
    pieces: list[tuple[Rect, Rect]],
    limit: tuple[float, float, float, float],
    gap: float = 0.5,
    reach: float = 8.0,
    shortest: float = 1.0,
) -> list[Segment]:
    """Crop marks for pieces given as (trim box, bleed box), each (x, y, w, h).

    Every trim edge is continued outward from its own piece's bleed box, `gap` mm clear of
    it, up to `reach` mm, never past the limit box (left, bottom, right, top) and never into
    any piece's bleed box. Where pieces' bleeds touch, the marks fall in the gutters no more:
    they are drawn only outside the grid, in the sheet's margin, as print-and-play sheets do.
    """
    lo_x, lo_y, hi_x, hi_y = limit
    boxes = [box for _trim, box in pieces]
    marks: set[Segment] = set()

    def run(
        start: float, direction: int, low: float, high: float, blocks: list[tuple[float, float]]
    ) -> list[tuple[float, float]]:
        """From `start` outward (+1 up/right, -1 down/left) until a block or the limit."""
        end = start + direction * reach
        end = min(end, high) if direction > 0 else max(end, low)
        for b_lo, b_hi in blocks:
            if b_lo < start - EPS and b_hi > start + EPS:
                return []  # `start` already lies in another piece's bleed
            if direction > 0 and b_lo >= start - EPS:
                end = min(end, b_lo)
            if direction < 0 and b_hi <= start + EPS:
                end = max(end, b_hi)
        if (end - start) * direction < shortest:
            return []
        return [(min(start, end), max(start, end))]

    for trim, bleed in pieces:
        # axis 0: the vertical marks at the piece's left and right trim lines; axis 1: the
        # horizontal ones at its top and bottom. A box is (x, y, width, height).
        for axis in (0, 1):
            lo, hi = (lo_x, hi_x) if axis == 0 else (lo_y, hi_y)
            other_lo, other_hi = (lo_y, hi_y) if axis == 0 else (lo_x, hi_x)
            start, size = bleed[1 - axis], bleed[3 - axis]
            for v in (trim[axis], trim[axis] + trim[2 + axis]):
                if not lo - EPS <= v <= hi + EPS:
                    continue
                blocks = [
                    (b[1 - axis] - gap, b[1 - axis] + b[3 - axis] + gap)
                    for b in boxes
                    if b[axis] - EPS <= v <= b[axis] + b[2 + axis] + EPS
                ]
                spans = run(start + size + gap, 1, other_lo, other_hi, blocks) + run(
                    start - gap, -1, other_lo, other_hi, blocks
                )
                at = round(v, 4)
                marks.update(
                    (at, round(a, 4), at, round(z, 4))
                    if axis == 0
                    else (round(a, 4), at, round(z, 4), at)
                    for a, z in spans
                )
    return sorted(marks)


def mark_limit(grid: Grid, s: SheetSettings) -> tuple[float, float, float, float]:
    """Marks reach the printable area's edge, stopping short of the instruction band."""
    m = s.margin
    bx = s.band if grid.band_axis == "horizontal" else 0.0
    by = s.band if grid.band_axis == "vertical" else 0.0
    return (m + bx, m + by, grid.width - m - bx, grid.height - m - by)


def marks_for(page: Page, limit: tuple[float, float, float, float]) -> list[Segment]:
    """Crop marks for every front placed on a page (backs pages carry none)."""
    pieces = [((p.x, p.y, p.width, p.height), bleed_box(p)) for p in page.placements]
    return crop_marks(pieces, limit)


def _fronts_page(items: list[Item], grid: Grid, bleeds: Bleeds, role: str, first: int) -> Page:
    page = Page(first, grid.width, grid.height, role, band_axis=grid.band_axis)
    for i, item in enumerate(items):
        x, y = grid.cell(i)
        page.placements.append(
            Placement(
                item.piece_id,
                item.copy,
                "front",
                item.front,
                x,
                y,
                item.width,
                item.height,
                bleeds,
                cut=item.cut,
            )
        )
    return page


def duplex_pages(
    items: list[Item],
    grid: Grid,
    bleed: float,
    s: SheetSettings,
    duplex: str,
    offset: tuple[float, float],
    first: int = 1,
) -> list[Page]:
    """Fronts pages, each followed by its backs page ('long'/'short'), or fronts only ('off').

    With backs, double-sided pieces come first; single-sided ones of the same size fill the
    room left on the last fronts page, and the rest go on pages of their own (role
    'single') with no backs page: the caller prints those one-sided, at the end.
    """
    pages: list[Page] = []
    bleeds = bleeds_for(grid, bleed, s)
    axis = mirror_axis(grid.width, grid.height, duplex) if duplex != "off" else "x"
    shift = back_offset(axis, offset)
    limit = mark_limit(grid, s)
    if duplex != "off":
        items = [i for i in items if i.back] + [i for i in items if not i.back]
    for start in range(0, len(items), grid.per_page):
        chunk = items[start : start + grid.per_page]
        two_sided = duplex != "off" and any(item.back for item in chunk)
        role = "single" if duplex != "off" and not two_sided else "fronts"
        front = _fronts_page(chunk, grid, bleeds, role, len(pages) + first)
        front.marks = marks_for(front, limit)
        pages.append(front)
        if not two_sided:
            continue
        back = Page(
            len(pages) + first,
            grid.width,
            grid.height,
            "backs",
            band_axis=grid.band_axis,
            offset=shift,
        )
        for item, placed in zip(chunk, front.placements, strict=True):
            if item.back:
                back.placements.append(
                    mirrored(placed, item.back, grid.width, grid.height, axis, shift)
                )
        pages.append(back)
    return pages


def fold_grid(
    item: Item, paper: tuple[float, float], bleed: float, s: SheetSettings
) -> tuple[Grid, bool] | None:
    """The densest grid of front-and-back pairs (side by side, or one above the other),
    on the paper either way round, or None when a pair fits no way (rotating a pair is
    the same as turning the paper, which is tried)."""
    grids: list[tuple[Grid, bool]] = []
    for size, horizontal in (
        ((2 * item.width, item.height), True),
        ((item.width, 2 * item.height), False),
    ):
        try:
            grids.append((make_grid(paper, size, s, bleed), horizontal))
        except ValueError:
            continue
    if not grids:
        return None
    return max(grids, key=lambda g: (g[0].per_page, g[1]))


def fold_pages(
    items: list[Item], paper: tuple[float, float], bleed: float, s: SheetSettings, first: int = 1
) -> list[Page]:
    """Front and back side by side, sharing the fold edge, for printers without duplex.

    Single-sided pieces fill the pairs' room left on the last fold page, then pages of
    their own (role 'single'). A double-sided piece whose pair fits the paper no way
    round prints its fronts on one page and its backs, mirrored, on the next ('fronts'
    then 'backs'): the user glues the two pages back to back, then cuts.
    """
    if not items:
        return []
    doubles = [i for i in items if i.back]
    singles = [i for i in items if not i.back]
    pages: list[Page] = []
    w, h = items[0].width, items[0].height
    found = fold_grid(doubles[0], paper, bleed, s) if doubles else None
    if doubles and found is None:
        grid = make_grid(paper, (w, h), s, bleed)
        pages.extend(duplex_pages(doubles, grid, bleed, s, "long", (0.0, 0.0), first))
    elif doubles and found is not None:
        grid, horizontal = found
        limit = mark_limit(grid, s)
        bl, bb, br, bt = bleeds_for(grid, bleed, s)
        pending = doubles + singles
        for start in range(0, len(pending), grid.per_page):
            chunk = pending[start : start + grid.per_page]
            if not any(item.back for item in chunk):
                break
            page = Page(
                len(pages) + first, grid.width, grid.height, "fold", band_axis=grid.band_axis
            )
            for i, item in enumerate(chunk):
                x, y = grid.cell(i)
                if horizontal:
                    front = (x, y, (bl, bb, 0.0 if item.back else br, bt))
                    back = (x + w, y, (0.0, bb, br, bt), False)
                    fold = (x + w, y, x + w, y + h)
                else:
                    front = (x, y + h, (bl, 0.0 if item.back else bb, br, bt))
                    back = (x, y, (bl, bb, br, 0.0), True)
                    fold = (x, y + h, x + w, y + h)
                fx, fy, fb = front
                page.placements.append(
                    Placement(
                        item.piece_id,
                        item.copy,
                        "front",
                        item.front,
                        fx,
                        fy,
                        w,
                        h,
                        fb,
                        cut=item.cut,
                    )
                )
                if item.back:
                    bx, by, bb2, rot = back
                    page.placements.append(
                        Placement(
                            item.piece_id, item.copy, "back", item.back, bx, by, w, h, bb2, rot
                        )
                    )
                    page.folds.append(fold)
            page.marks = _fold_marks(page, limit)
            pages.append(page)
            singles = [i for i in pending[start + grid.per_page :] if not i.back]
    if singles:
        grid = make_grid(paper, (w, h), s, bleed)
        bleeds = bleeds_for(grid, bleed, s)
        limit = mark_limit(grid, s)
        for start in range(0, len(singles), grid.per_page):
            page = _fronts_page(
                singles[start : start + grid.per_page], grid, bleeds, "single", len(pages) + first
            )
            page.marks = marks_for(page, limit)
            pages.append(page)
    return pages


def _fold_marks(page: Page, limit: tuple[float, float, float, float]) -> list[Segment]:
    """Marks for each folded pair as one piece: its outer trim and its outer bleed (no mark
    on the fold itself, which is drawn as a dashed line)."""
    by_copy: dict[tuple[str, int], list[Placement]] = {}
    for p in page.placements:
        by_copy.setdefault((p.piece_id, p.copy), []).append(p)
    pieces: list[tuple[Rect, Rect]] = []
    for parts in by_copy.values():
        trims = [(p.x, p.y, p.x + p.width, p.y + p.height) for p in parts]
        boxes = [bleed_box(p) for p in parts]
        x0, y0 = min(r[0] for r in trims), min(r[1] for r in trims)
        x1, y1 = max(r[2] for r in trims), max(r[3] for r in trims)
        b0, c0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        b1, c1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
        pieces.append(((x0, y0, x1 - x0, y1 - y0), (b0, c0, b1 - b0, c1 - c0)))
    return crop_marks(pieces, limit)


def tiled_pages(
    item: Item,
    paper: tuple[float, float],
    bleed: float,
    s: SheetSettings,
    overlap: float = 10.0,
    first: int = 1,
) -> list[Page]:
    """A piece larger than the printable area, split into overlapping windows, one per page.

    Neighbouring windows share `overlap` mm of the piece; alignment targets printed in
    every shared strip land on the same spot of the piece on both pages, so the user
    trims one page at its window edge, lays it over the other and matches the targets.
    Tiles are printed one-sided: no reverse page follows them (the caller puts them with
    the other single-sided pages).
    """
    best: tuple[int, float, float, int, int, float, float] | None = None
    for width, height in (paper, (paper[1], paper[0])):
        avail_w = width - 2 * (s.margin + s.mark_length)
        avail_h = height - 2 * (s.margin + s.band + s.mark_length)
        cols = (
            1 if item.width <= avail_w else math.ceil((item.width - overlap) / (avail_w - overlap))
        )
        rows = (
            1
            if item.height <= avail_h
            else math.ceil((item.height - overlap) / (avail_h - overlap))
        )
        win_w = item.width if cols == 1 else (item.width + (cols - 1) * overlap) / cols
        win_h = item.height if rows == 1 else (item.height + (rows - 1) * overlap) / rows
        if best is None or cols * rows < best[0]:
            best = (cols * rows, width, height, cols, rows, win_w, win_h)
    assert best is not None
    _n, width, height, cols, rows, win_w, win_h = best
    pages: list[Page] = []
    for row in range(rows):
        for col in range(cols):
            # Window in piece coordinates: x from the left edge, y from the bottom edge.
            wx = col * (win_w - overlap)
            wy = item.height - win_h - row * (win_h - overlap)
            px, py = (width - win_w) / 2, (height - win_h) / 2
            outer = (
                bleed if col == 0 else 0.0,
                bleed if row == rows - 1 else 0.0,
                bleed if col == cols - 1 else 0.0,
                bleed if row == 0 else 0.0,
            )
            clip = (
                px - outer[0],
                py - outer[1],
                win_w + outer[0] + outer[2],
                win_h + outer[1] + outer[3],
            )
            page = Page(len(pages) + first, width, height, "tile", band_axis="vertical")
            page.label = f"tile row {row + 1}/{rows}, column {col + 1}/{cols}"
            page.placements.append(
                Placement(
                    item.piece_id,
                    item.copy,
                    "front",
                    item.front,
                    px - wx,
                    py - wy,
                    item.width,
                    item.height,
                    outer,
                    clip=clip,
                    tile=(row + 1, col + 1, rows, cols),
                )
            )
            page.marks = crop_marks(
                [((px, py, win_w, win_h), clip)],
                (s.margin, s.margin + s.band, width - s.margin, height - s.margin - s.band),
            )
            # Targets in the strips shared with each neighbour, at fixed piece coordinates.
            for seam in range(1, cols):
                sx = seam * (win_w - overlap) + overlap / 2  # centre of the shared strip
                if wx <= sx <= wx + win_w:
                    for ty in _spread(wy, win_h):
                        page.targets.append((px - wx + sx, py - wy + ty))
            for seam in range(1, rows):
                sy = item.height - seam * (win_h - overlap) - overlap / 2
                if wy <= sy <= wy + win_h:
                    for tx in _spread(wx, win_w):
                        page.targets.append((px - wx + tx, py - wy + sy))
            pages.append(page)
    return pages


def _spread(start: float, length: float, every: float = 60.0) -> list[float]:
    """Positions along a window edge for alignment targets: about every `every` mm."""
    n = max(2, math.ceil(length / every))
    return [start + length * (k + 0.5) / n for k in range(n)]
