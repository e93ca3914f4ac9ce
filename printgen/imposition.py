"""Imposition: where each piece lands on which page. Pure geometry, millimetres, origin at
the page's bottom-left corner (as in the manifest and in PDF)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from printgen.layouts import SheetSettings

EPS = 1e-6
Segment = tuple[float, float, float, float]
Bleeds = tuple[float, float, float, float]  # left, bottom, right, top


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
    page: float, size: float, need_margin: float, max_gutter: float
) -> tuple[int, float, float]:
    """Count, gutter and first offset along one axis, or count 0 when nothing fits."""
    n = math.floor((page - 2 * need_margin + EPS) / size) if size > 0 else 0
    if n < 1:
        return (0, 0.0, 0.0)
    leftover = page - n * size - 2 * need_margin
    gutter = 0.0 if n == 1 else min(max_gutter, max(0.0, leftover / (n - 1)))
    start = (page - n * size - (n - 1) * gutter) / 2
    return (n, gutter, start)


def make_grid(
    paper: tuple[float, float], size: tuple[float, float], s: SheetSettings, bleed: float
) -> Grid:
    """The densest centred grid over both paper orientations.

    Trim boxes keep `margin` from the paper edge plus room for crop marks; one axis also
    keeps the band for print instructions and the scale bar. Gutters grow up to twice the
    bleed so each piece gets its bleed on every side when the paper allows it.
    """
    best: Grid | None = None
    for width, height in (paper, (paper[1], paper[0])):
        for band_axis in ("vertical", "horizontal"):
            band = s.margin + s.band + s.mark_length
            plain = s.margin + s.mark_length
            mx = band if band_axis == "horizontal" else plain
            my = band if band_axis == "vertical" else plain
            cols, gx, left = _axis(width, size[0], mx, 2 * bleed)
            rows, gy, bottom = _axis(height, size[1], my, 2 * bleed)
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
    than the printable area (the same on every cell, so backs mirror exactly)."""
    bx = min(bleed, max(0.0, grid.left - s.margin))
    by = min(bleed, max(0.0, grid.height - grid.top - s.margin))
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


def crop_marks(
    rects: list[tuple[float, float, float, float]],
    page_w: float,
    page_h: float,
    limit: tuple[float, float, float, float],
    gap: float = 0.5,
    reach: float = 8.0,
) -> list[Segment]:
    """Extend every trim edge outward across the gutter to the next piece, or `reach` mm
    into open paper, never past the limit box (left, bottom, right, top). Marks never
    enter any trim box."""
    lo_x, lo_y, hi_x, hi_y = limit
    marks: set[Segment] = set()

    def add(x1: float, y1: float, x2: float, y2: float) -> None:
        if (x2 - x1) + (y2 - y1) > 0.2:
            marks.add((round(x1, 4), round(y1, 4), round(x2, 4), round(y2, 4)))

    for x, y, w, h in rects:
        for vx in (x, x + w):
            column = [r for r in rects if r[0] - EPS <= vx <= r[0] + r[2] + EPS]
            above = [r[1] for r in column if r[1] >= y + h - EPS]
            below = [r[1] + r[3] for r in column if r[1] + r[3] <= y + EPS]
            add(vx, y + h + gap, vx, min(above) - gap if above else min(hi_y, y + h + reach))
            add(vx, max(below) + gap if below else max(lo_y, y - reach), vx, y - gap)
        for hy in (y, y + h):
            row = [r for r in rects if r[1] - EPS <= hy <= r[1] + r[3] + EPS]
            right = [r[0] for r in row if r[0] >= x + w - EPS]
            left = [r[0] + r[2] for r in row if r[0] + r[2] <= x + EPS]
            add(x + w + gap, hy, min(right) - gap if right else min(hi_x, x + w + reach), hy)
            add(max(left) + gap if left else max(lo_x, x - reach), hy, x - gap, hy)
    return sorted(m for m in marks if _outside_all(m, rects))


def _outside_all(seg: Segment, rects: list[tuple[float, float, float, float]]) -> bool:
    x1, y1, x2, y2 = seg
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    return not any(
        r[0] + EPS < mx < r[0] + r[2] - EPS and r[1] + EPS < my < r[1] + r[3] - EPS for r in rects
    )


def mark_limit(grid: Grid, s: SheetSettings) -> tuple[float, float, float, float]:
    """Marks reach the printable area's edge, stopping short of the instruction band."""
    m = s.margin
    bx = s.band if grid.band_axis == "horizontal" else 0.0
    by = s.band if grid.band_axis == "vertical" else 0.0
    return (m + bx, m + by, grid.width - m - bx, grid.height - m - by)


def duplex_pages(
    items: list[Item],
    grid: Grid,
    bleed: float,
    s: SheetSettings,
    duplex: str,
    offset: tuple[float, float],
    first: int = 1,
) -> list[Page]:
    """Fronts pages, each followed by its backs page ('long'/'short'), or fronts only ('off')."""
    pages: list[Page] = []
    bleeds = bleeds_for(grid, bleed, s)
    axis = mirror_axis(grid.width, grid.height, duplex) if duplex != "off" else "x"
    shift = back_offset(axis, offset)
    for start in range(0, len(items), grid.per_page):
        chunk = items[start : start + grid.per_page]
        front = Page(
            len(pages) + first, grid.width, grid.height, "fronts", band_axis=grid.band_axis
        )
        for i, item in enumerate(chunk):
            x, y = grid.cell(i)
            front.placements.append(
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
        rects = [(p.x, p.y, p.width, p.height) for p in front.placements]
        front.marks = crop_marks(rects, grid.width, grid.height, mark_limit(grid, s))
        pages.append(front)
        if duplex == "off":
            continue
        # Single-sided pieces still get their (blank) reverse page, so every later fronts
        # page stays on the front of a sheet.
        back = Page(
            len(pages) + first,
            grid.width,
            grid.height,
            "backs" if any(item.back for item in chunk) else "blank",
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


def fold_pages(
    items: list[Item], paper: tuple[float, float], bleed: float, s: SheetSettings, first: int = 1
) -> list[Page]:
    """Front and back side by side, sharing the fold edge, for printers without duplex."""
    if not items:
        return []
    w, h = items[0].width, items[0].height
    across = make_grid(paper, (2 * w, h), s, bleed)
    down = make_grid(paper, (w, 2 * h), s, bleed)
    horizontal = across.per_page >= down.per_page
    grid = across if horizontal else down
    bl, bb, br, bt = bleeds_for(grid, bleed, s)
    pages: list[Page] = []
    for start in range(0, len(items), grid.per_page):
        page = Page(len(pages) + first, grid.width, grid.height, "fold", band_axis=grid.band_axis)
        units: list[tuple[float, float, float, float]] = []
        for i, item in enumerate(items[start : start + grid.per_page]):
            x, y = grid.cell(i)
            units.append((x, y, grid.cell_w, grid.cell_h))
            if horizontal:
                page.placements.append(
                    Placement(
                        item.piece_id, item.copy, "front", item.front, x, y, w, h, (bl, bb, 0.0, bt)
                    )
                )
                if item.back:
                    page.placements.append(
                        Placement(
                            item.piece_id,
                            item.copy,
                            "back",
                            item.back,
                            x + w,
                            y,
                            w,
                            h,
                            (0.0, bb, br, bt),
                        )
                    )
                    page.folds.append((x + w, y, x + w, y + h))
            else:
                page.placements.append(
                    Placement(
                        item.piece_id,
                        item.copy,
                        "front",
                        item.front,
                        x,
                        y + h,
                        w,
                        h,
                        (bl, 0.0, br, bt),
                    )
                )
                if item.back:
                    page.placements.append(
                        Placement(
                            item.piece_id,
                            item.copy,
                            "back",
                            item.back,
                            x,
                            y,
                            w,
                            h,
                            (bl, bb, br, 0.0),
                            True,
                        )
                    )
                    page.folds.append((x, y + h, x + w, y + h))
        page.marks = crop_marks(units, grid.width, grid.height, mark_limit(grid, s))
        pages.append(page)
    return pages


def tiled_pages(
    item: Item,
    paper: tuple[float, float],
    bleed: float,
    s: SheetSettings,
    duplex: str,
    overlap: float = 10.0,
    first: int = 1,
) -> list[Page]:
    """A piece larger than the printable area, split into overlapping windows, one per page.

    Neighbouring windows share `overlap` mm of the piece; alignment targets printed in
    every shared strip land on the same spot of the piece on both pages, so the user
    trims one page at its window edge, lays it over the other and matches the targets.
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
                [(px, py, win_w, win_h)],
                width,
                height,
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
            if duplex in ("long", "short"):
                pages.append(Page(len(pages) + first, width, height, "blank", band_axis="vertical"))
    return pages


def _spread(start: float, length: float, every: float = 60.0) -> list[float]:
    """Positions along a window edge for alignment targets: about every `every` mm."""
    n = max(2, math.ceil(length / every))
    return [start + length * (k + 0.5) / n for k in range(n)]
