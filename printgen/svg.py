"""SVG icons and art: read safely, drawn as vectors in the PDF and rasterised for the PNGs.

An SVG file of a game folder is untrusted input.  It is read with lxml without entities,
DTDs or network, refused when it declares entities, names another file or address
(`href`, `url(...)`, `@import`), holds raster images, text (fonts differ between
machines) or scripts, is larger than 5 MB or has too many elements.  What is left is
turned by svglib into a reportlab drawing: the PDF draws it as vector paths
(`draw_pdf`), and the PNGs rasterise the same drawing with Pillow (`paint_svg`), at a
fixed supersampling, so the same file gives the same pixels on every machine.

`currentColor` in an icon takes the ink it is drawn with (the surrounding text's colour
inline, the element's `colour` as `type: icon`); other colours stay as the file says.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lxml import etree
from PIL import Image, ImageChops, ImageDraw
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Ellipse,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    mmult,
    transformPoint,
)
from reportlab.graphics.shapes import (
    Path as RlPath,
)
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas
from svglib.svglib import ClippingPath, NoStrokePath, SvgRenderer

from printgen.errors import Location, PrintgenError, display_path

MAX_SVG_BYTES = 5 * 1024 * 1024
MAX_SVG_ELEMENTS = 50_000
MAX_RASTER_PIXELS = 24_000_000  # supersampled layer of one SVG on one face
CURVE_STEPS = 16  # straight pieces per Bézier curve when rasterising
REFUSED_ELEMENTS = {
    "image": "an embedded or linked raster image: place raster art as its own PNG/JPEG image "
    "element, or trace it to vector paths",
    "text": "text: fonts differ between machines; convert the text to paths (Inkscape: Path > "
    "Object to Path)",
    "script": "a script",
    "foreignObject": "a foreignObject (HTML inside SVG)",
}
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)

# svglib reports what it skips through logging; printgen refuses what it cannot draw
logging.getLogger("svglib").setLevel(logging.CRITICAL)


class SvgRefused(Exception):
    """An SVG file printgen will not draw, and why."""


@dataclass(frozen=True)
class SvgFile:
    """An SVG file that passed the checks: its size (pt) and its drawing."""

    path: Path
    digest: str  # of the file's bytes (and the ink, when the file uses currentColor)
    width: float
    height: float
    drawing: Drawing
    uses_current: bool


def is_svg(name: str | Path) -> bool:
    return str(name).lower().endswith(".svg")


def load_svg(path: Path, where: Location | None, ink: str | None = None) -> SvgFile:
    """The checked drawing of an SVG file, `currentColor` drawn in `ink` (None: black or
    the file's own `color`). A file that is unsafe or that printgen cannot draw is an
    error at `where`."""
    stat = path.stat()
    try:
        return _load(path, stat.st_size, stat.st_mtime_ns, ink)
    except SvgRefused as exc:
        raise PrintgenError(f"SVG {display_path(path)}: {exc}", where) from None


@lru_cache(maxsize=256)
def _load(path: Path, size: int, _mtime: int, ink: str | None) -> SvgFile:
    if size > MAX_SVG_BYTES:
        raise SvgRefused(
            f"{size / 2**20:.1f} MB, more than {MAX_SVG_BYTES // 2**20} MB: simplify it "
            "(fewer nodes, no embedded images)"
        )
    data = path.read_bytes()
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SvgRefused(f"not well-formed XML ({exc}): export it again") from None
    if root is None or etree.QName(root).localname != "svg":
        raise SvgRefused("the file is not an SVG image (its root element is not <svg>)")
    tree = root.getroottree()
    dtd = tree.docinfo.internalDTD  # a public DOCTYPE line alone is harmless: never loaded
    if b"<!ENTITY" in data or (dtd is not None and (list(dtd.entities()) or list(dtd.elements()))):
        raise SvgRefused(
            "it declares a DTD or entities (<!DOCTYPE ... [ ... ]>), which could read other "
            "files: export it again without them"
        )
    uses_current = _check_tree(root)
    if uses_current and ink is not None:
        root.set("color", ink)
    try:
        drawing = SvgRenderer(str(path), external_reference_root=str(path.parent)).render(root)
    except Exception as exc:  # svglib on a file it cannot make sense of
        raise SvgRefused(f"svglib could not read it ({type(exc).__name__}: {exc})") from None
    _check_drawing(drawing)
    if not (drawing.width > 0 and drawing.height > 0):
        raise SvgRefused("it has no size: give the <svg> a viewBox (or width and height)")
    digest = hashlib.sha256(data).hexdigest()[:16]
    if uses_current and ink is not None:
        digest += ink
    return SvgFile(path, digest, float(drawing.width), float(drawing.height), drawing, uses_current)


def _check_tree(root: Any) -> bool:
    """Refuse what may reach outside the file or cannot be drawn alike everywhere; say
    whether the file uses currentColor."""
    uses_current = False
    count = 0
    for node in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise SvgRefused(f"more than {MAX_SVG_ELEMENTS:,} elements: simplify it")
        if not isinstance(node.tag, str):  # an entity reference left unresolved
            if isinstance(node, etree._Entity):
                raise SvgRefused("it uses an entity (&name;): export it again without them")
            continue
        name = etree.QName(node).localname
        if name in REFUSED_ELEMENTS:
            raise SvgRefused(f"it holds {REFUSED_ELEMENTS[name]} (<{name}>)")
        texts = [str(v) for v in node.attrib.values()]
        if name == "style" and node.text:
            texts.append(node.text)
            if "@import" in node.text:
                raise SvgRefused("its <style> imports another file (@import): inline the styles")
        for key, value in node.attrib.items():
            if etree.QName(key).localname == "href" and not str(value).startswith("#"):
                raise SvgRefused(
                    f"<{name}> refers to {str(value)[:60]!r}: an SVG may refer only to its own "
                    "parts (#id), not to other files or addresses"
                )
        for text in texts:
            for target in _URL.findall(text):
                if not target.startswith("#"):
                    raise SvgRefused(
                        f"<{name}> refers to url({target[:60]}): an SVG may refer only to its "
                        "own parts (url(#id))"
                    )
            if "currentcolor" in text.lower():
                uses_current = True
    return uses_current


_DRAWN = (Group, RlPath, Rect, Circle, Ellipse, Polygon, PolyLine, Line)


def _check_drawing(node: Any) -> None:
    """Everything svglib made is a shape both renderers draw (no gradients, patterns)."""
    if isinstance(node, Group):
        for child in node.contents:
            _check_drawing(child)
    elif not isinstance(node, _DRAWN):
        kind = type(node).__name__
        what = "a gradient" if "Gradient" in kind else f"a {kind}"
        raise SvgRefused(f"it uses {what}, which printgen does not draw: use solid fills")


def fit(svg: SvgFile, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """The drawing scaled to fit the box, its proportions kept, centred (SVG's `meet`)."""
    scale = min(w / svg.width, h / svg.height)
    dw, dh = svg.width * scale, svg.height * scale
    return (x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)


# --- PDF: vectors -------------------------------------------------------------------------


def draw_pdf(c: Canvas, svg: SvgFile, left: float, bottom: float, w: float, h: float) -> None:
    """Draw an SVG's drawing as vectors into a w x h box at (left, bottom), in points."""
    c.saveState()
    c.translate(left, bottom)
    c.scale(w / svg.width, h / svg.height)
    renderPDF.draw(svg.drawing, c, 0, 0, showBoundary=False)
    c.restoreState()


# --- PNG: Pillow ----------------------------------------------------------------------------


Matrix = tuple[float, float, float, float, float, float]


def paint_svg(image: Image.Image, svg: SvgFile, x: float, y: float, w: float, h: float) -> None:
    """Rasterise an SVG onto `image` into the box (x, y, w, h) in pixels (fractions allowed):
    drawn supersampled, then reduced with a box filter, then laid over with its alpha."""
    x0, y0 = math.floor(x), math.floor(y)
    layer = _raster(svg, x - x0, y - y0, w, h)
    image.paste(layer, (x0, y0), layer)


@lru_cache(maxsize=16)  # the same art on many cards is drawn once
def _raster(svg: SvgFile, fx: float, fy: float, w: float, h: float) -> Image.Image:
    pw, ph = max(1, math.ceil(fx + w)), max(1, math.ceil(fy + h))
    ss = 4
    while ss > 1 and pw * ph * ss * ss > MAX_RASTER_PIXELS:
        ss -= 1
    layer = Image.new("RGBA", (pw * ss, ph * ss), (0, 0, 0, 0))
    kx, ky = w * ss / svg.width, h * ss / svg.height
    base: Matrix = (kx, 0.0, 0.0, -ky, fx * ss, fy * ss + svg.height * ky)
    _walk(svg.drawing, base, layer, None)
    if ss > 1:
        layer = layer.resize((pw, ph), Image.Resampling.BOX)
    return layer


Area = tuple[Image.Image, int, int]  # a mask over part of the layer, and its corner there


def _walk(node: Any, matrix: Matrix, layer: Image.Image, clip: Image.Image | None) -> None:
    if isinstance(node, Group):
        m = mmult(matrix, tuple(node.transform))
        here: Matrix = (m[0], m[1], m[2], m[3], m[4], m[5])
        for child in node.contents:
            if isinstance(child, RlPath) and getattr(child, "isClipPath", False):
                # a clip path clips what follows it in its group
                clip_rings = [pts for pts, _closed in _subpaths(child, here)]
                area = _fill_mask(clip_rings, layer.size, _even_odd(child))
                mask = Image.new("L", layer.size, 0)
                if area is not None:
                    mask.paste(area[0], (area[1], area[2]))
                clip = mask if clip is None else ImageChops.multiply(clip, mask)
                continue
            _walk(child, here, layer, clip)
        return
    rings = _subpaths(node, matrix)
    if not rings:
        return
    fill = getattr(node, "fillColor", None)
    if fill is not None and not isinstance(node, ClippingPath | Line | PolyLine):
        area = _fill_mask([pts for pts, _closed in rings], layer.size, _even_odd(node))
        _composite(layer, area, fill, getattr(node, "fillOpacity", None), clip)
    stroke = getattr(node, "strokeColor", None)
    width = float(getattr(node, "strokeWidth", 0) or 0)
    if stroke is not None and width > 0 and not isinstance(node, NoStrokePath | ClippingPath):
        scale = math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
        px = max(1, round(width * scale))
        lines = [[*pts, pts[0]] if closed and len(pts) > 2 else pts for pts, closed in rings]
        region = _region(lines, px, layer.size)
        if region is not None:
            x0, y0, x1, y1 = region
            mask = Image.new("L", (x1 - x0, y1 - y0), 0)
            draw = ImageDraw.Draw(mask)
            for line in lines:
                if len(line) >= 2:
                    shifted = [(x - x0, y - y0) for x, y in line]
                    draw.line(shifted, fill=255, width=px, joint="curve")
            _composite(layer, (mask, x0, y0), stroke, getattr(node, "strokeOpacity", None), clip)


def _even_odd(node: Any) -> bool:
    return bool(getattr(node, "fillMode", FILL_EVEN_ODD) == FILL_EVEN_ODD)


def _region(
    rings: list[list[tuple[float, float]]], pad: float, size: tuple[int, int]
) -> tuple[int, int, int, int] | None:
    """The pixels the rings (and `pad` around them) cover on a layer of `size`."""
    xs = [x for ring in rings for x, _y in ring]
    ys = [y for ring in rings for _x, y in ring]
    if not xs:
        return None
    x0, y0 = max(0, math.floor(min(xs) - pad)), max(0, math.floor(min(ys) - pad))
    x1 = min(size[0], math.ceil(max(xs) + pad) + 1)
    y1 = min(size[1], math.ceil(max(ys) + pad) + 1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _composite(
    layer: Image.Image, area: Area | None, colour: Any, opacity: Any, clip: Image.Image | None
) -> None:
    if area is None:
        return
    mask, ox, oy = area
    # reportlab sets one alpha per fill (or stroke): the opacity, else the colour's alpha
    alpha = float(getattr(colour, "alpha", 1.0) or 0.0) if opacity is None else float(opacity)
    if alpha <= 0:
        return
    if alpha < 1:
        mask = mask.point(lambda v: round(v * alpha))
    if clip is not None:
        mask = ImageChops.multiply(mask, clip.crop((ox, oy, ox + mask.width, oy + mask.height)))
    box = mask.getbbox()
    if box is None:
        return
    rgb = tuple(round(255 * float(v)) for v in (colour.red, colour.green, colour.blue))
    src = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), (*rgb, 0))
    src.putalpha(mask.crop(box))
    layer.alpha_composite(src, dest=(ox + box[0], oy + box[1]))


def _fill_mask(
    rings: list[list[tuple[float, float]]], size: tuple[int, int], even_odd: bool
) -> Area | None:
    """A shape's filled area. Even-odd: the rings' exclusive or. Non-zero: their union when
    they all turn the same way, else their exclusive or (holes drawn the other way round)."""
    rings = [r for r in rings if len(r) >= 3]
    region = _region(rings, 1, size)
    if region is None:
        return None
    x0, y0, x1, y1 = region
    turns = {_area(r) > 0 for r in rings}
    xor = even_odd or len(turns) > 1
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    for ring in rings:
        one = Image.new("L", mask.size, 0)
        ImageDraw.Draw(one).polygon([(x - x0, y - y0) for x, y in ring], fill=255)
        mask = (
            ImageChops.logical_xor(mask.convert("1"), one.convert("1")).convert("L")
            if xor
            else ImageChops.lighter(mask, one)
        )
    return (mask, x0, y0)


def _area(ring: list[tuple[float, float]]) -> float:
    return sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True)
    )


def _subpaths(node: Any, m: Matrix) -> list[tuple[list[tuple[float, float]], bool]]:
    """A shape as polylines in pixels (curves flattened), each with whether it is closed."""

    def t(px: float, py: float) -> tuple[float, float]:
        x, y = transformPoint(m, (px, py))
        return (float(x), float(y))

    if isinstance(node, RlPath):
        out: list[tuple[list[tuple[float, float]], bool]] = []
        current: list[tuple[float, float]] = []
        pts, i = node.points, 0
        last = (0.0, 0.0)
        for op in node.operators:
            if op == 0:  # moveTo
                if len(current) > 1:
                    out.append((current, False))
                last = (pts[i], pts[i + 1])
                current = [t(*last)]
                i += 2
            elif op == 1:  # lineTo
                last = (pts[i], pts[i + 1])
                current.append(t(*last))
                i += 2
            elif op == 2:  # curveTo
                p0, (c1x, c1y, c2x, c2y, ex, ey) = last, pts[i : i + 6]
                for k in range(1, CURVE_STEPS + 1):
                    s = k / CURVE_STEPS
                    a, b, c, d = (1 - s) ** 3, 3 * (1 - s) ** 2 * s, 3 * (1 - s) * s * s, s**3
                    current.append(
                        t(
                            a * p0[0] + b * c1x + c * c2x + d * ex,
                            a * p0[1] + b * c1y + c * c2y + d * ey,
                        )
                    )
                last = (ex, ey)
                i += 6
            elif op == 3:  # closePath
                if len(current) > 1:
                    out.append((current, True))
                current = [current[0]] if current else []
        if len(current) > 1:
            out.append((current, False))
        return out
    if isinstance(node, Rect):
        x, y, w, h = float(node.x), float(node.y), float(node.width), float(node.height)
        rx = min(float(node.rx or 0), w / 2)
        ry = min(float(node.ry or node.rx or 0), h / 2)
        if rx <= 0 or ry <= 0:
            return [([t(x, y), t(x + w, y), t(x + w, y + h), t(x, y + h)], True)]
        ring: list[tuple[float, float]] = []
        for cx, cy, start in (
            (x + w - rx, y + ry, -90),
            (x + w - rx, y + h - ry, 0),
            (x + rx, y + h - ry, 90),
            (x + rx, y + ry, 180),
        ):
            for k in range(CURVE_STEPS + 1):
                a = math.radians(start + 90 * k / CURVE_STEPS)
                ring.append(t(cx + rx * math.cos(a), cy + ry * math.sin(a)))
        return [(ring, True)]
    if isinstance(node, Circle | Ellipse):
        rx = float(node.r if isinstance(node, Circle) else node.rx)
        ry = float(node.r if isinstance(node, Circle) else node.ry)
        steps = 4 * CURVE_STEPS
        return [
            (
                [
                    t(
                        node.cx + rx * math.cos(2 * math.pi * k / steps),
                        node.cy + ry * math.sin(2 * math.pi * k / steps),
                    )
                    for k in range(steps)
                ],
                True,
            )
        ]
    if isinstance(node, Polygon | PolyLine):
        flat = list(node.points)
        pts = [t(flat[k], flat[k + 1]) for k in range(0, len(flat) - 1, 2)]
        return [(pts, isinstance(node, Polygon))]
    if isinstance(node, Line):
        return [([t(node.x1, node.y1), t(node.x2, node.y2)], False)]
    return []
