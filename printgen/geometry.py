"""What can be printed: sizes, bleed, elements on their card, text inside the safe zone.

A face is its trim box (the cut size) with `bleed` millimetres of overprint around it
and a `safe` margin inside it that the cut may wander into.  Checks here turn data
that nothing sensible can be printed from into errors with the place to fix, and text
that a wandering cut may clip into a warning (`--strict` makes it an error).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from printgen.errors import Location, PrintgenError

MAX_SIDE_MM = 2_000.0  # two metres: no printed piece is larger
EPSILON = 0.01  # mm: drawing arithmetic, not a real overflow


def check_size(w: float, h: float, where: Location | None, what: str) -> tuple[float, float]:
    """A piece or paper size: both sides positive and at most two metres."""
    for side, value in (("width", w), ("height", h)):
        if value <= 0:
            raise PrintgenError(
                f"{what} {side} is {value:g} mm: sizes must be more than zero", where
            )
        if value > MAX_SIDE_MM:
            raise PrintgenError(
                f"{what} {side} is {value:g} mm, more than {MAX_SIDE_MM:g} mm: check the unit "
                "(mm, cm, in, pt)",
                where,
            )
    return (w, h)


def check_margins(
    w: float, h: float, bleed: float, safe: float, where: Location | None, layout: str
) -> None:
    """Bleed at most a quarter of the smaller side; a safe margin that leaves room."""
    smaller = min(w, h)
    if bleed < 0 or safe < 0:
        raise PrintgenError(f"layout {layout}: bleed and safe margin must not be negative", where)
    if bleed > smaller / 4 + EPSILON:
        raise PrintgenError(
            f"layout {layout}: bleed {bleed:g} mm is more than a quarter of the piece's smaller "
            f"side ({smaller:g} mm): a bleed is a few millimetres (3 mm is usual)",
            where,
        )
    if safe * 2 >= smaller:
        raise PrintgenError(
            f"layout {layout}: a safe margin of {safe:g} mm leaves no room on a "
            f"{w:g} x {h:g} mm piece",
            where,
        )


def box_overhang(box: tuple[float, float, float, float], w: float, h: float, bleed: float) -> float:
    """How far a box reaches past the piece's bleed edge (mm; 0 or less: it does not)."""
    x, y, bw, bh = box
    return max(-bleed - x, -bleed - y, (x + bw) - (w + bleed), (y + bh) - (h + bleed))


def box_on_face(box: tuple[float, float, float, float], w: float, h: float, bleed: float) -> bool:
    """Whether `check_box_on_face` passes, without making its message (faces check every
    element of every piece; the message is worked out when it fails)."""
    return box[2] >= 0 and box[3] >= 0 and box_overhang(box, w, h, bleed) <= EPSILON


def check_box_on_face(
    box: tuple[float, float, float, float],
    w: float,
    h: float,
    bleed: float,
    where: Location | None,
    what: str,
) -> None:
    """An element must lie on its piece: inside the trim box and its bleed."""
    x, y, bw, bh = box
    if bw < 0 or bh < 0:
        raise PrintgenError(f"{what}: width and height must not be negative", where)
    over = box_overhang(box, w, h, bleed)
    if over > EPSILON:
        raise PrintgenError(
            f"{what}: the box [{x:g}, {y:g}, {bw:g}, {bh:g}] mm reaches {over:.1f} mm beyond "
            f"the piece's bleed edge ({w:g} x {h:g} mm with {bleed:g} mm bleed): move or "
            "shrink it",
            where,
        )


@dataclass
class TextPlacement:
    """Where one field's text lies, in face millimetres (from the trim's top-left)."""

    left: float
    top: float
    right: float
    bottom: float


@dataclass
class SafeZoneReport:
    """Text that reaches into the safe margin, one line per field (not one per piece)."""

    # (the field's place, its name, how deep it reaches in mm) -> the pieces it is on
    found: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    # raster images printed under 300 DPI: (the image element's place, the image, its DPI)
    # -> the pieces it is on
    low_dpi: dict[tuple[str, str, int], list[str]] = field(default_factory=dict)

    def add_dpi(self, where: Location | None, image: str, dpi: float, piece: str) -> None:
        key = (str(where) if where else "", image, round(dpi))
        self.low_dpi.setdefault(key, []).append(piece)

    def add(self, where: Location | None, field_name: str, depth: float, piece: str) -> None:
        key = (str(where) if where else "", field_name, f"{depth:.1f}")
        self.found.setdefault(key, []).append(piece)

    def lines(self) -> list[str]:
        out = []
        for (where, field_name, depth), pieces in sorted(self.found.items()):
            unique = list(dict.fromkeys(pieces))
            more = f" and {len(unique) - 1} more" if len(unique) > 1 else ""
            at = f"{where}: " if where else ""
            out.append(
                f"{at}text of {field_name} reaches {depth} mm into the safe margin "
                f"({unique[0]}{more}): a cut that wanders may clip it; move it inward"
            )
        for (where, image, dpi), pieces in sorted(self.low_dpi.items()):
            unique = list(dict.fromkeys(pieces))
            more = f" and {len(unique) - 1} more" if len(unique) > 1 else ""
            at = f"{where}: " if where else ""
            out.append(
                f"{at}image {image} prints at {dpi} DPI, under 300 ({unique[0]}{more}): it "
                "will look soft; use an image with more pixels (300 DPI at its printed size)"
            )
        return out


def text_extent(boxes: Iterable[TextPlacement]) -> TextPlacement | None:
    found = list(boxes)
    if not found:
        return None
    return TextPlacement(
        min(b.left for b in found),
        min(b.top for b in found),
        max(b.right for b in found),
        max(b.bottom for b in found),
    )


def text_margins(extent: TextPlacement, w: float, h: float, safe: float) -> tuple[float, float]:
    """How far text reaches beyond the trim (into the bleed) and into the safe margin (mm)."""
    beyond_trim = max(-extent.left, -extent.top, extent.right - w, extent.bottom - h)
    into_safe = max(
        safe - extent.left, safe - extent.top, extent.right - (w - safe), extent.bottom - (h - safe)
    )
    return beyond_trim, into_safe
