"""Drawing operations: what a face looks like, independent of PDF or PNG.

Coordinates are millimetres from the top-left corner of the trim box, y pointing
down; the bleed area has negative coordinates.  Colours are `#rrggbb`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    stroke_width: float
    radius: float = 0.0
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    stroke_width: float


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None
    stroke: str | None
    stroke_width: float
    closed: bool = True
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class TextRun:
    x: float
    baseline: float
    text: str
    font_key: str
    # not in the repr: a drawing's name (a hash of its repr) must not depend on where the
    # project lies; the font key names the font
    font_path: Path = field(repr=False)
    size_pt: float
    colour: str


@dataclass(frozen=True, slots=True)
class Picture:
    x: float
    y: float
    w: float
    h: float
    path: Path = field(repr=False)  # a checked image (see printgen.files)
    digest: str = ""  # the image's content: what the drawing's name depends on


@dataclass(frozen=True, slots=True)
class Vector:
    """An SVG file drawn into the box (already fitted to its proportions): vectors in the
    PDF, rasterised in PNGs (see printgen.svg)."""

    x: float
    y: float
    w: float
    h: float
    path: Path = field(repr=False)  # a checked SVG file
    digest: str = ""  # the file's content (and the ink of its currentColor)
    ink: str | None = None  # what currentColor is drawn in (None: the file's own colour)


Op = Rect | Ellipse | Polygon | TextRun | Picture | Vector


@dataclass(frozen=True, slots=True)
class Face:
    """One drawn side of a piece: its trim size, bleed and operations."""

    key: str
    width: float
    height: float
    bleed: float
    ops: tuple[Op, ...]
