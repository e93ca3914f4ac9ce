"""Drawing faces with Pillow: per-card PNG images at print resolution, bleed included."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw

from printgen import fonts
from printgen.ops import Ellipse, Face, Op, Picture, Polygon, Rect, TextRun, Vector


def pixel_size(face: Face, dpi: int) -> tuple[int, int]:
    """(63 + 2*3) mm at 300 DPI is 815 px: sizes round to the nearest pixel."""
    scale = dpi / 25.4
    return (
        round((face.width + 2 * face.bleed) * scale),
        round((face.height + 2 * face.bleed) * scale),
    )


def _rgb(value: str | None) -> tuple[int, int, int] | None:
    if value is None:
        return None
    r, g, b = ImageColor.getrgb(value)[:3]
    return (r, g, b)


def dashed(
    points: list[tuple[float, float]], pattern: tuple[float, ...]
) -> list[list[tuple[float, float]]]:
    """A polyline cut into the 'on' pieces of a dash pattern (lengths in the points' unit)."""
    pieces: list[list[tuple[float, float]]] = []
    k, left, on = 0, pattern[0], True
    current: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        pos = 0.0
        while length - pos > left:
            pos += left
            t = pos / length
            point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(point)
                pieces.append(current)
            current = [point]
            on = not on
            k = (k + 1) % len(pattern)
            left = pattern[k]
        left -= length - pos
        if on:
            current.append((x1, y1))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def draw_face(face: Face, dpi: int) -> Image.Image:
    image = Image.new("RGB", pixel_size(face, dpi), "white")
    paint(image, face.ops, dpi, face.bleed)
    return image


def paint(image: Image.Image, ops: tuple[Op, ...] | list[Op], dpi: int, bleed: float = 0.0) -> None:
    """Draw operations onto an image (mm from the trim box's corner, `bleed` mm inside)."""
    scale = dpi / 25.4
    b = bleed
    draw = ImageDraw.Draw(image)

    def p(x: float, y: float) -> tuple[float, float]:
        return ((x + b) * scale, (y + b) * scale)

    for op in ops:
        if isinstance(op, TextRun):
            font = fonts.pillow_font(op.font_path, op.size_pt * dpi / 72.0)
            draw.text(p(op.x, op.baseline), op.text, font=font, fill=_rgb(op.colour), anchor="ls")
        elif isinstance(op, Picture):
            with Image.open(op.path) as src:
                w, h = round(op.w * scale), round(op.h * scale)
                pic = src.convert("RGBA").resize((w, h), Image.Resampling.LANCZOS)
                x0, y0 = p(op.x, op.y)
                image.paste(pic, (round(x0), round(y0)), pic)
        elif isinstance(op, Vector):
            x0, y0 = p(op.x, op.y)
            from printgen import svg  # svglib: for SVG art only

            drawing = svg.load_svg(op.path, None, op.ink)
            svg.paint_svg(image, drawing, x0, y0, op.w * scale, op.h * scale)
        elif isinstance(op, Rect) and op.dash and op.stroke:
            x0, y0 = p(op.x, op.y)
            x1, y1 = p(op.x + op.w, op.y + op.h)
            if op.fill:
                draw.rounded_rectangle(
                    (x0, y0, x1 - 1, y1 - 1), op.radius * scale, fill=_rgb(op.fill)
                )
            width = max(1, round(op.stroke_width * scale))
            corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
            for piece in dashed(corners, tuple(d * scale for d in op.dash)):
                draw.line(piece, fill=_rgb(op.stroke), width=width)
        elif isinstance(op, Rect):
            x0, y0 = p(op.x, op.y)
            x1, y1 = p(op.x + op.w, op.y + op.h)
            width = max(1, round(op.stroke_width * scale)) if op.stroke else 0
            box = (x0, y0, x1 - 1, y1 - 1)
            if op.radius > 0:
                draw.rounded_rectangle(
                    box, op.radius * scale, fill=_rgb(op.fill), outline=_rgb(op.stroke), width=width
                )
            else:
                draw.rectangle(box, fill=_rgb(op.fill), outline=_rgb(op.stroke), width=width)
        elif isinstance(op, Ellipse):
            x0, y0 = p(op.x, op.y)
            x1, y1 = p(op.x + op.w, op.y + op.h)
            width = max(1, round(op.stroke_width * scale)) if op.stroke else 0
            draw.ellipse(
                (x0, y0, x1 - 1, y1 - 1), fill=_rgb(op.fill), outline=_rgb(op.stroke), width=width
            )
        elif isinstance(op, Polygon):
            pts = [p(x, y) for x, y in op.points]
            width = max(1, round(op.stroke_width * scale)) if op.stroke else 0
            if op.dash and op.stroke:
                if op.closed and op.fill:
                    draw.polygon(pts, fill=_rgb(op.fill))
                ring = [*pts, pts[0]] if op.closed else pts
                for piece in dashed(ring, tuple(d * scale for d in op.dash)):
                    draw.line(piece, fill=_rgb(op.stroke), width=width)
            elif op.closed:
                draw.polygon(pts, fill=_rgb(op.fill), outline=_rgb(op.stroke), width=width)
            elif op.stroke:
                draw.line(pts, fill=_rgb(op.stroke), width=width, joint="curve")


def png_bytes(face: Face, dpi: int) -> bytes:
    """The PNG file of a face: deterministic bytes (no timestamps), with its DPI recorded."""
    out = io.BytesIO()
    draw_face(face, dpi).save(out, format="PNG", dpi=(dpi, dpi), compress_level=3)
    return out.getvalue()


def write_png(face: Face, dpi: int, path: Path) -> None:
    path.write_bytes(png_bytes(face, dpi))
