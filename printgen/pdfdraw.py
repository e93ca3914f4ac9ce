"""Drawing faces with reportlab: vector shapes and embedded TrueType text."""

from __future__ import annotations

import hashlib

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from printgen import fonts, svg
from printgen.ops import Ellipse, Face, Op, Picture, Polygon, Rect, TextRun, Vector
from printgen.units import PT_PER_MM as mm


def draw_ops(c: Canvas, ops: tuple[Op, ...], left: float, top: float) -> None:
    """Draw ops whose origin (trim top-left) sits at page point (left, top) in mm, y up."""

    def px(x: float) -> float:
        return (left + x) * mm

    def py(y: float) -> float:
        return (top - y) * mm

    for op in ops:
        if isinstance(op, TextRun):
            c.setFillColor(HexColor(op.colour))
            c.setFont(fonts.pdf_font_name(op.font_key, op.font_path), op.size_pt)
            c.drawString(px(op.x), py(op.baseline), op.text)
            continue
        if isinstance(op, Picture):
            c.drawImage(str(op.path), px(op.x), py(op.y + op.h), op.w * mm, op.h * mm, mask="auto")
            continue
        if isinstance(op, Vector):
            drawing = svg.load_svg(op.path, None, op.ink)
            svg.draw_pdf(c, drawing, px(op.x), py(op.y + op.h), op.w * mm, op.h * mm)
            continue
        fill, stroke = op.fill, op.stroke
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(op.stroke_width * mm)
        dash = getattr(op, "dash", None)
        c.setDash([d * mm for d in dash] if dash else [])
        if isinstance(op, Rect):
            if op.radius > 0:
                c.roundRect(
                    px(op.x),
                    py(op.y + op.h),
                    op.w * mm,
                    op.h * mm,
                    op.radius * mm,
                    stroke=int(bool(stroke)),
                    fill=int(bool(fill)),
                )
            else:
                c.rect(
                    px(op.x),
                    py(op.y + op.h),
                    op.w * mm,
                    op.h * mm,
                    stroke=int(bool(stroke)),
                    fill=int(bool(fill)),
                )
        elif isinstance(op, Ellipse):
            c.ellipse(
                px(op.x),
                py(op.y + op.h),
                px(op.x + op.w),
                py(op.y),
                stroke=int(bool(stroke)),
                fill=int(bool(fill)),
            )
        elif isinstance(op, Polygon):
            path = c.beginPath()
            first, *rest = op.points
            path.moveTo(px(first[0]), py(first[1]))
            for x, y in rest:
                path.lineTo(px(x), py(y))
            if op.closed:
                path.close()
            c.drawPath(path, stroke=int(bool(stroke)), fill=int(bool(fill) and op.closed))
    c.setDash([])


def face_form_name(face: Face) -> str:
    """A stable name per distinct drawing, so identical faces share one form XObject."""
    digest = hashlib.sha1(repr(face.ops).encode("utf-8")).hexdigest()[:16]
    return f"F{digest}"


def ensure_form(c: Canvas, face: Face, made: set[str]) -> str:
    """Define the face (with its full bleed) as a form XObject once per document."""
    name = face_form_name(face)
    if name not in made:
        b = face.bleed
        c.beginForm(name, 0, 0, (face.width + 2 * b) * mm, (face.height + 2 * b) * mm)
        draw_ops(c, face.ops, b, face.height + b)
        c.endForm()
        _keep_transparency(c, name)
        made.add(name)
    return name


def _keep_transparency(c: Canvas, name: str) -> None:
    """reportlab gives a form XObject no ExtGState resources, so transparency drawn in a
    form (an SVG's fill-opacity) would name graphics states the form does not have: give
    the form its resources, with them. Forms without transparency are left as they are."""
    form = c._doc.idToObject.get(pdfdoc.xObjectName(name))
    if form is None or not getattr(form, "ExtGState", None) or form.Resources:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    if form.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


def place_form(
    c: Canvas,
    name: str,
    face: Face,
    left: float,
    bottom: float,
    bleeds: tuple[float, float, float, float],
    rotate180: bool = False,
    window: tuple[float, float, float, float] | None = None,
) -> None:
    """Place a face's form with its trim at (left, bottom) mm, clipped to the given
    bleed on each side (left, bottom, right, top), or to a page window (x, y, w, h)."""
    bl, bb, br, bt = bleeds
    c.saveState()
    clip = c.beginPath()
    if window is not None:
        clip.rect(window[0] * mm, window[1] * mm, window[2] * mm, window[3] * mm)
    else:
        clip.rect(
            (left - bl) * mm,
            (bottom - bb) * mm,
            (face.width + bl + br) * mm,
            (face.height + bb + bt) * mm,
        )
    c.clipPath(clip, stroke=0, fill=0)
    if rotate180:
        c.translate((left + face.width) * mm, (bottom + face.height) * mm)
        c.rotate(180)
        c.translate(-face.bleed * mm, -face.bleed * mm)
    else:
        c.translate((left - face.bleed) * mm, (bottom - face.bleed) * mm)
    c.doForm(name)
    c.restoreState()
