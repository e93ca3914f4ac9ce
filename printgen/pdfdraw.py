"""Drawing faces with reportlab: vector shapes and embedded TrueType text.

A face is compiled once into PDF operators (`FaceDrawing`) and replayed as a form XObject
into every document that shows it (the sheets, `cards.pdf`, a print shop's files): the
shapes' operators are text that any document can take as it is; only a text run waits to
be encoded per document, because reportlab numbers the glyphs of a TrueType subset per
document. The operators are the very ones reportlab's canvas would write (its own number
formatting and path helpers make them), so a face compiled here and a face drawn through
the canvas give the same bytes. Faces with pictures or SVG art are drawn through the canvas
in each document (their images and graphics states are resources of that document).
"""

from __future__ import annotations

import hashlib
import io
import re
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from printgen import fonts
from printgen.memo import ByIdentity
from printgen.ops import Ellipse, Face, Op, Picture, Polygon, Rect, TextRun, Vector
from printgen.units import PT_PER_MM as mm

# Path painting as reportlab's canvas writes it under its default even-odd fill rule:
# (stroke, fill) -> operator.
_PAINT = {(0, 0): "n", (1, 0): "S", (0, 1): "f*", (1, 1): "B*"}
NO_DASH = "[] 0 d"


def draw_ops(c: Canvas, ops: tuple[Op, ...], left: float, top: float) -> None:
    """Draw ops whose origin (trim top-left) sits at page point (left, top) in mm, y up,
    through the canvas: faces with pictures or SVG art (`FaceDrawing` compiles the rest)."""

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
            from printgen import svg  # svglib and reportlab.graphics: for SVG art only

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


@lru_cache(maxsize=4096)
def _colour(value: str, operator: str) -> str:
    """The operator setting a colour (a deck of a few colours asks for them on every face)."""
    colour = HexColor(value)
    return f"{fp_str(colour.red, colour.green, colour.blue)} {operator}"


def _shape_code(op: Rect | Ellipse | Polygon, left: float, top: float) -> list[str]:
    """A shape's operators (origin at page point (left, top) mm), as the canvas writes them:
    colours, line width, dash, the path and its painting."""
    code: list[str] = []
    fill, stroke = op.fill, op.stroke
    if fill:
        code.append(_colour(fill, "rg"))
    if stroke:
        code.append(_colour(stroke, "RG"))
        code.append(f"{fp_str(op.stroke_width * mm)} w")
    dash = op.dash if isinstance(op, Rect | Polygon) else None
    code.append(f"[{fp_str([d * mm for d in dash])}] 0 d" if dash else NO_DASH)
    paint = _PAINT[int(bool(stroke)), int(bool(fill))]
    if isinstance(op, Rect):
        x0, y0 = (left + op.x) * mm, (top - op.y - op.h) * mm
        if op.radius > 0:
            PDFPathObject(code=code).roundRect(x0, y0, op.w * mm, op.h * mm, op.radius * mm)
            code.append(paint)
        else:
            code.append(f"n {fp_str(x0, y0, op.w * mm, op.h * mm)} re {paint}")
    elif isinstance(op, Ellipse):
        # as the canvas's ellipse(x1, y1, x2, y2) takes it: a size from two corners
        x0, y0 = (left + op.x) * mm, (top - op.y - op.h) * mm
        x1, y1 = (left + op.x + op.w) * mm, (top - op.y) * mm
        PDFPathObject(code=code).ellipse(x0, y0, x1 - x0, y1 - y0)
        code.append(paint)
    else:
        path = PDFPathObject()
        (fx, fy), *rest = op.points
        path.moveTo((left + fx) * mm, (top - fy) * mm)
        for x, y in rest:
            path.lineTo((left + x) * mm, (top - y) * mm)
        if op.closed:
            path.close()
        code.append(path.getCode())
        code.append(_PAINT[int(bool(stroke)), int(bool(fill) and op.closed)])
    return code


@dataclass(frozen=True, slots=True)
class _Text:
    """A text run waiting for its document: where, in which font (of the face's `fonts`)
    and size, what."""

    font: int
    start: str  # "BT 1 0 0 1 x y Tm"
    size: str  # "10 Tf 12 TL"
    text: str


@dataclass(frozen=True)
class FaceDrawing:
    """A face compiled once: its form's name and size, and its operators (None: drawn
    through the canvas in each document, for pictures and SVG art)."""

    name: str
    width_pt: float
    height_pt: float
    code: tuple[str | _Text, ...] | None
    fonts: tuple[tuple[str, Path], ...] = ()  # (key, file) of each font its text is set in
    coloured: bool = False  # it sets a colour (which makes the document PDF 1.4)

    def replay(self, c: Canvas) -> None:
        """Write the operators into the canvas's current stream (a form being defined)."""
        self.replay_into(c._code, c._doc, c._escape)

    def replay_into(self, out: list[str], doc: Any, escape: Any) -> None:
        """Append the operators to `out`, the text set in the fonts' subsets of `doc`."""
        assert self.code is not None
        # The fonts as registered now (another project's build may have registered another
        # file under the same name since this face was compiled).
        faces: list[TTFont] = [
            pdfmetrics.getFont(fonts.pdf_font_name(key, path)) for key, path in self.fonts
        ]
        for part in self.code:
            if isinstance(part, str):
                out.append(part)
                continue
            runs: list[str] = []
            current = -1
            font = faces[part.font]
            for subset, chars in font.splitString(part.text, doc):
                if subset != current:
                    runs.append(f"{font.getSubsetInternalName(subset, doc)} {part.size}")
                    current = subset
                runs.append(f"({escape(chars)}) Tj")
            out.append(f"{part.start} {' '.join(runs)} T* ET")


def compile_face(face: Face) -> FaceDrawing:
    """The face (with its full bleed) as form operators, trim top-left at (bleed, bleed)."""
    b = face.bleed
    left, top = b, face.height + b
    width, height = (face.width + 2 * b) * mm, (face.height + 2 * b) * mm
    name = face_form_name(face)
    if any(isinstance(op, Picture | Vector) for op in face.ops):
        return FaceDrawing(name, width, height, None)
    code: list[str | _Text] = []
    used: dict[tuple[str, Path], int] = {}
    for op in face.ops:
        if isinstance(op, TextRun):
            font = used.setdefault((op.font_key, op.font_path), len(used))
            code.append(_colour(op.colour, "rg"))
            x, y = (left + op.x) * mm, (top - op.baseline) * mm
            size = f"{fp_str(op.size_pt)} Tf {fp_str(op.size_pt * 1.2)} TL"
            code.append(_Text(font, f"BT 1 0 0 1 {fp_str(x, y)} Tm", size, op.text))
        elif isinstance(op, Rect | Ellipse | Polygon):
            code.extend(_shape_code(op, left, top))
    code.append(NO_DASH)
    coloured = any(
        isinstance(op, TextRun)
        or (not isinstance(op, TextRun | Picture | Vector) and (op.fill or op.stroke))
        for op in face.ops
    )
    return FaceDrawing(name, width, height, _joined(code), tuple(used), coloured)


def _joined(code: list[str | _Text]) -> tuple[str | _Text, ...]:
    """The operators with each run of strings between two texts joined into one, as the
    document joins them (by line): the same stream in a fraction of the memory, for compiled
    faces wait for every document that shows them (and the last 1,024 are kept)."""
    out: list[str | _Text] = []
    strings: list[str] = []
    for part in code:
        if isinstance(part, str):
            strings.append(part)
            continue
        if strings:
            out.append("\n".join(strings))
            strings = []
        out.append(part)
    if strings:
        out.append("\n".join(strings))
    return tuple(out)


# Compiled faces by name and font files (a face's name leaves out where its fonts lie): the
# last ones compiled, and those that documents written side by side will show again.
_DrawingKey = tuple[str, frozenset[Path]]
_drawings: OrderedDict[_DrawingKey, FaceDrawing] = OrderedDict()
NAMES_KEPT = 20_000  # faces whose name is remembered (a face is kept alive while it is)
DRAWINGS_KEPT = 1_024  # compiled faces kept


def _form_name(face: Face) -> str:
    return f"F{hashlib.sha1(repr(face.ops).encode('utf-8')).hexdigest()[:16]}"


# A stable name per distinct drawing, so identical faces share one form XObject (worked out
# once per face: a build asks for it for every placement).
face_form_name: ByIdentity[Face, str] = ByIdentity(_form_name, NAMES_KEPT)


def _key_of(face: Face) -> _DrawingKey:
    fonts_of = frozenset(op.font_path for op in face.ops if isinstance(op, TextRun))
    return face_form_name(face), fonts_of


# A face's compiled drawing's key, worked out once per face (asked for at every showing).
_drawing_key: ByIdentity[Face, _DrawingKey] = ByIdentity(_key_of, NAMES_KEPT)


class FacesInUse:
    """The faces documents written side by side show (each showing, in any of them): a
    face compiled for the first is kept until the last has shown it, then let go. The
    documents of a deck of thousands of cards, each compiling every face once, then hold
    the faces between the first and the last document's place, not the whole deck."""

    def __init__(self, showings: Iterable[Face]) -> None:
        self.left = Counter(_drawing_key(face) for face in showings)
        self.kept: dict[_DrawingKey, FaceDrawing] = {}

    def __enter__(self) -> FacesInUse:
        _in_use.append(self)
        return self

    def __exit__(self, *_exc: object) -> None:
        _in_use.remove(self)

    def shown(self, key: _DrawingKey, drawing: FaceDrawing) -> None:
        left = self.left.get(key, 0) - 1
        if left > 0:
            self.left[key] = left
            self.kept[key] = drawing
        else:
            self.left.pop(key, None)
            self.kept.pop(key, None)


_in_use: list[FacesInUse] = []


def face_drawing(face: Face) -> FaceDrawing:
    """The face compiled, from the faces in use or the last faces compiled when it is among
    them."""
    key = _drawing_key(face)
    drawing = next((u.kept[key] for u in _in_use if key in u.kept), None)
    if drawing is None:
        drawing = _drawings.get(key)
        if drawing is None:
            drawing = _drawings[key] = compile_face(face)
            while len(_drawings) > DRAWINGS_KEPT:
                _drawings.popitem(last=False)
        else:
            _drawings.move_to_end(key)
    for in_use in _in_use:
        in_use.shown(key, drawing)
    return drawing


def ensure_form(c: Canvas, face: Face, made: set[str]) -> str:
    """Define the face (with its full bleed) as a form XObject once per document."""
    drawing = face_drawing(face)
    name = drawing.name
    if name not in made:
        if drawing.code is not None and not rl_config.useA85:
            if drawing.coloured:  # what the canvas's colour setting does besides
                c._doc.ensureMinPdfVersion("transparency")
            code = [c._preamble]
            drawing.replay_into(code, c._doc, c._escape)
            stream = pdfdoc_bytes("\n".join(code))
            form = _Form(drawing.width_pt, drawing.height_pt, stream, bool(c._pageCompression))
            c._doc.addForm(name, form)
        else:
            c.beginForm(name, 0, 0, drawing.width_pt, drawing.height_pt)
            if drawing.code is None:
                draw_ops(c, face.ops, face.bleed, face.height + face.bleed)
            else:
                drawing.replay(c)
            c.endForm()
            _keep_transparency(c, name)
        made.add(name)
    return name


_NOT_PDFDOC = re.compile("[\x18-\x1f]")  # the ASCII characters PDFDocEncoding has not


_reportlab_encoding = pdfdoc.pdfdocEnc
_reportlab_name = pdfdoc.PDFName


def pdfdoc_bytes(text: str) -> bytes:
    """`pdfdoc.pdfdocEnc(text)` as reportlab has it: a form's operators are ASCII, which
    PDFDocEncoding keeps as they are but for eight control characters, and reportlab's codec
    (Python, a character at a time) took a twentieth of a deck's build to say so."""
    if text.isascii() and not _NOT_PDFDOC.search(text):
        return text.encode("ascii")
    encoded: bytes = _reportlab_encoding(text)
    return encoded


def _pdfdoc_encoding(x: Any) -> Any:
    """reportlab's `pdfdoc.pdfdocEnc`, through which it writes every PDF object of a
    document (names, numbers, keys): text the short way (`pdfdoc_bytes`), the same bytes."""
    return pdfdoc_bytes(x) if isinstance(x, str) else x


_pdf_names: dict[str, str] = {}


def _pdf_name(data: Any, lo: str = "!", hi: str = "~") -> Any:
    """reportlab's `pdfdoc.PDFName`, made for every key of every PDF dictionary it writes
    (a Python loop a character at a time): each name made once."""
    if not isinstance(data, str) or lo != "!" or hi != "~":
        return _reportlab_name(data, lo, hi)
    found = _pdf_names.get(data)
    if found is None:
        found = _reportlab_name(data)
        if len(_pdf_names) < 4096:
            _pdf_names[data] = found
    return found


# A card's page in cards.pdf and a sheet are mostly such objects: 400 pages of a deck with
# backs spent 0.1 ms each in them.
pdfdoc.pdfdocEnc = _pdfdoc_encoding
pdfdoc.PDFName = _pdf_name


class _Form(pdfdoc.PDFObject):  # type: ignore[misc]
    """A compiled face's form XObject: the bytes reportlab writes for the form a canvas makes
    of the same operators (`beginForm` ... `endForm`: a test compares them), written without
    the canvas's and the general PDF dictionary's work, which a deck of cards does hundreds
    of times."""

    __RefOnly__ = 1

    def __init__(self, width: float, height: float, stream: bytes, compress: bool) -> None:
        # Compressed now, not when the document is written: a deck's forms wait in memory
        # until then, a third of the size this way.
        self.width, self.height, self.compress = width, height, compress
        self.stream = zlib.compress(stream) if compress else stream

    def format(self, document: Any) -> bytes:
        content: bytes = document.encrypt.encode(self.stream)
        resources = getattr(document, "_printgen_form_resources", None)
        if resources is None:  # what PDFFormXObject gives a form: the fonts, every ProcSet
            dictionary = pdfdoc.PDFResourceDictionary()
            dictionary.basicFonts()
            dictionary.allProcs()
            resources = document._printgen_form_resources = pdfdoc.format(dictionary, document)
        box = pdfdoc.PDFArray([0, 0, self.width, self.height])
        entries = [
            b"/BBox " + pdfdoc.format(box, document),
            *([b"/Filter [ /FlateDecode ]"] if self.compress else []),
            b"/FormType 1",
            b"/Length %d" % len(content),
            b"/Matrix [ 1 0 0 1 0 0 ]",
            b"/Resources " + resources,
            b"/Subtype /Form",
            b"/Type /XObject",
        ]
        for i in reversed(range(6, len(entries), 6)):  # PDFDictionary's line every 6 entries
            entries.insert(i, b"\n ")
        return b"<<\n" + b" ".join(entries) + b"\n>>\nstream\n" + content + b"endstream\n"


class _Written(pdfdoc.PDFObject):  # type: ignore[misc]
    """An object already in the file: only its name stays, by which references to it find
    its number (the page tree's kids, a form shown again), and an image's size, which the
    canvas reads to draw the image again."""

    __RefOnly__ = 1
    __slots__ = ("__InternalName__", "height", "width")

    def __init__(self, name: str, written: Any) -> None:
        self.__InternalName__ = name
        self.width = getattr(written, "width", None)
        self.height = getattr(written, "height", None)

    def format(self, document: Any) -> bytes:
        raise AssertionError(f"{self.__InternalName__} is in the file already")


class StreamedDocument(pdfdoc.PDFDocument):  # type: ignore[misc]
    """reportlab's document, written into its file as it is drawn: each page, with its
    content stream and the forms and images it shows first, goes into the file when the
    page is finished and leaves memory; what grows until the end (the fonts, whose subsets
    take every page's glyphs, the page tree, the catalogue and the document's information)
    is written last, then the cross-reference table. Every object is formatted by
    reportlab, as `PDFDocument.format` does it; only their order in the file differs (and
    the page tree comes after the pages). Of a page written, the document keeps its
    object numbers and where they lie in the file."""

    def __init__(self, out: BinaryIO, **options: Any) -> None:
        super().__init__(**options)
        self._out = out
        self._offset = 0
        self._header = b""
        self._origin = 0
        self._next = 1  # the next object number to write
        self._later: list[int] = []  # objects that grow until the end

    def _write(self, data: bytes) -> int:
        at = self._offset
        self._out.write(data)
        self._offset += len(data)
        return at

    def _start(self) -> None:
        # the header reportlab writes (PDFFile); its version may still rise (transparency
        # drawn later): `finish` writes it again then, the same length
        self.encrypt.prepare(self)
        if self.encrypt.info():
            raise ValueError("a streamed document is not encrypted")
        self._header = pdfdoc.PDFFile(self._pdfVersion).strings[0]
        self._origin = self._out.tell()
        self._write(self._header)

    def addPage(self, page: Any) -> None:
        super().addPage(page)
        self._drain(final=False)
        pages = self.Pages.pages
        pages[-1] = self.idToObject.get(page.__InternalName__, page)

    def _grows(self, obj: Any, name: str) -> bool:
        return name == pdfdoc.BasicFonts or obj is self.Pages

    def _drain(self, final: bool) -> None:
        """Write the objects numbered so far (and those their writing numbers), in order;
        until `final`, those that grow are put off."""
        if not self._header:
            self._start()
        numbers, objects = self.numberToId, self.idToObject
        while True:
            if self._next in numbers:
                number = self._next
                name = numbers[number]
                if not final and self._grows(objects[name], name):
                    self._later.append(number)
                    self._next += 1
                    continue
            elif final and self._later:
                number = self._later.pop(0)
                name = numbers[number]
            else:
                return
            try:
                formatted = pdfdoc.PDFIndirectObject(name, objects[name]).format(self)
            except KeyError:
                if final:
                    raise
                return  # a reference to what is not made yet: written at the next page
            if number == self._next:
                self._next += 1
            if not rl_config.invariant and rl_config.pdfComments:
                kind = objects[name].__class__.__name__
                self._write(pdfdoc.pdfdocEnc(f"% {name!a}: class {kind[:50]} \n"))
            self.idToOffset[name] = self._write(formatted)
            objects[name] = _Written(name, objects[name])

    def finish(self, canvas: Canvas) -> None:
        """Write the rest (as `GetPDFData` prepares it): the fonts, the page tree, the
        catalogue, the information, the cross-reference table and the trailer."""
        for font in self.delayedFonts:
            font.addObjects(self)
        self.info.invariant = self.invariant
        self.info.digest(self.signature)
        self.Reference(self.Catalog)
        self.Reference(self.info)
        self.Outlines.prepare(self, canvas)
        if self.Outlines.ready < 0:
            self.Catalog.Outlines = None
        self._drain(final=True)
        count = len(self.numberToId)
        ids = [self.numberToId[n] for n in range(1, count + 1)]
        xref = pdfdoc.PDFCrossReferenceTable()
        xref.addsection(0, ids)
        at = self._write(xref.format(self))
        trailer = pdfdoc.PDFTrailer(
            startxref=at,
            Size=count + 1,
            Root=self.Reference(self.Catalog),
            Info=self.Reference(self.info),
            ID=self.ID(),
        )
        self._write(trailer.format(self))
        header = pdfdoc.PDFFile(self._pdfVersion).strings[0]
        if header != self._header:
            if len(header) != len(self._header):
                raise ValueError(f"PDF version {self._pdfVersion} cannot be written in place")
            end = self._out.tell()
            self._out.seek(self._origin)
            self._out.write(header)
            self._out.seek(end)


class PagedCanvas(Canvas):  # type: ignore[misc]
    """A canvas whose document is written into `out` as it is drawn (`StreamedDocument`):
    each finished page goes into the file, `finish` writes the end."""

    def __init__(self, out: BinaryIO, **options: Any) -> None:
        super().__init__(out, **options)
        # the canvas's own document, made anew as a streamed one (reportlab makes it in
        # its constructor); the preamble registers the initial font with it again
        self._doc = StreamedDocument(
            out,
            compression=self._pageCompression,
            invariant=options.get("invariant"),
            pdfVersion=options.get("pdfVersion") or pdfdoc.PDF_VERSION_DEFAULT,
            lang=options.get("lang"),
        )
        self._make_preamble()

    def finish(self) -> None:
        """End the document (a page begun is finished first, as `save` does)."""
        if len(self._code):
            self.showPage()
        self._doc.finish(self)

    def save(self) -> None:
        """reportlab's `save`: the document is in its file once it is finished."""
        self.finish()

    def pdf(self) -> bytes:
        """The document's bytes, when it is written into a buffer."""
        out = self._doc._out
        if not isinstance(out, io.BytesIO):
            raise TypeError("pdf() is for a document written into a buffer")
        self.finish()
        return out.getvalue()


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
