"""Print-shop presets (`printgen build --vendor NAME`): files made to a vendor's numbers.

Each vendor is a data file, `layouts/vendors/<name>.yaml`, stating per product (poker,
mini, tarot cards, square tiles...) its trim, bleed and safe zone (and, for image
vendors, its pixel size), the file type (one PNG per face, or one PDF per deck), the page
order and the colour (RGB, or CMYK with an ink limit and a PDF/X version). Before
anything is written, a preflight checks every face against the vendor's numbers: text
and icons in its safe margin, images under 300 DPI, text under its smallest size, bleed
too short; an error stops that vendor's files (the others are made), a warning is
reported. A piece no product of the vendor fits is left out, with a warning.

CMYK files are made by Ghostscript (converting to the CMYK profile that ships with it),
then finished with pikepdf: total ink held to the vendor's limit, TrimBox and BleedBox
on every page, an output intent and the PDF/X version keys.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from PIL import Image, ImageMath
from pydantic import Field

from printgen.errors import Location, PrintgenError
from printgen.geometry import EPSILON, SafeZoneReport
from printgen.layouts import LayoutLibrary
from printgen.model import Game, Piece, Strict
from printgen.ops import Ellipse, Face, Picture, Polygon, Vector
from printgen.pdfdraw import ensure_form
from printgen.raster import draw_face
from printgen.render import (
    FaceRequest,
    FieldText,
    face_layout,
    piece_size,
    render_face,
)
from printgen.sheets import new_canvas
from printgen.source import load_yaml, validate
from printgen.templating import reset_budget
from printgen.units import PT_PER_MM as mm

MM_PER_IN = 25.4
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
MATCH_TOLERANCE_MM = 1.5  # a 63 x 88 mm card is a 2.5 x 3.5 in (63.5 x 88.9 mm) poker card
BLEED_SLACK_MM = 0.25  # bleed this much short of the vendor's is made up from the edge pixels
EDGE_MM = 0.5  # shapes this close to the trim are frames and backgrounds, not content
FRAME_SHARE = 0.6  # shapes this big are frames (a token's ring), not content near the edge
ICC_FOLDERS = (Path("/usr/share/color/icc/ghostscript"), Path("/usr/share/ghostscript/iccprofiles"))
CMYK_PROFILE = "default_cmyk.icc"
FIXED_DATE = "D:20000101000000Z"  # PDF dates: the same bytes on every build
Severity = Literal["error", "warning", "off"]


class PreflightLevels(Strict):
    """How much each preflight finding matters to the vendor."""

    safe_zone: Severity = "warning"
    """Text, icons or pictures in the vendor's safe margin."""
    low_dpi: Severity = "warning"
    """A raster image printed under 300 DPI."""
    min_text: Severity = "warning"
    """Text smaller than `min_text_pt`."""
    bleed: Severity = "error"
    """A layout's bleed shorter than the vendor's."""


class Product(Strict):
    """One printed size the vendor makes."""

    id: str
    """The product's name (`poker`, `mini`, `tarot`); a piece within 1.5 mm of its trim is
    printed as this product."""
    trim_in: tuple[float, float] = Field(description="Trim size in inches (width, height).")
    bleed_in: float = Field(ge=0, le=1)
    """Bleed beyond the trim on every side, in inches."""
    safe_in: float = Field(ge=0, le=1)
    """Safe margin inside the trim that text and important art keep out of, in inches."""
    pixels: tuple[int, int] | None = None
    """Image vendors: the whole image with its bleed, in pixels (width, height)."""


class VendorFile(Strict):
    """A vendor preset: `layouts/vendors/<name>.yaml`."""

    name: str
    """The vendor's name as people know it (`The Game Crafter`)."""
    output: Literal["png-per-face", "pdf-per-deck"]
    """What is uploaded: one PNG per distinct face, or one PDF per deck."""
    colour: Literal["rgb", "cmyk"] = "rgb"
    """The colour the files are in: `cmyk` converts with Ghostscript's CMYK profile."""
    page_order: Literal["front-back", "back-front"] = "front-back"
    """PDF vendors: each card's pages in this order."""
    pdfx: Literal["PDF/X-1a:2003"] | None = None
    """The PDF/X standard the PDFs declare (output intent, TrimBox and BleedBox)."""
    ink_limit_percent: float | None = Field(default=None, ge=100, le=400)
    """The most total ink (C + M + Y + K, in %) a spot may carry; more is lowered."""
    dpi: int = Field(default=300, ge=72, le=1200)
    """The resolution the vendor prints at: images, and art under it is warned about."""
    sources: dict[str, str] = Field(default_factory=dict)
    """Where the numbers come from: a name for each source and its address."""
    preflight: PreflightLevels = PreflightLevels()
    """Which preflight findings stop this vendor's files (`error`) or only warn."""
    min_text_pt: float = Field(default=6.0, ge=0, le=72)
    """The smallest text size the vendor prints legibly, in points."""
    any_size: bool = False
    """Every piece at its own size (a generic offset printer), with `bleed_mm`/`safe_mm`."""
    bleed_mm: float | None = Field(default=None, ge=0, le=20)
    """With `any_size`: the bleed every piece needs, in mm."""
    safe_mm: float | None = Field(default=None, ge=0, le=20)
    """With `any_size`: the safe margin every piece keeps, in mm."""
    products: list[Product] = Field(default_factory=list)
    """The sizes the vendor prints; pieces of no listed size are left out, with a warning."""


@dataclass(frozen=True)
class Vendor:
    id: str
    spec: VendorFile
    where: Location


@dataclass(frozen=True)
class Slot:
    """Where a piece goes at a vendor: the product's trim, bleed and safe margin (mm),
    its pixels (turned with the piece), and the scale from the piece to the product."""

    product: str
    trim: tuple[float, float]
    bleed: float
    safe: float
    pixels: tuple[int, int] | None
    scale: float

    def piece_bleed(self, w: float, h: float) -> float:
        """The bleed the piece's own drawing must have (in its mm) to fill the product's."""
        tw, th = self.trim
        s = self.scale
        return max((tw + 2 * self.bleed) / s - w, (th + 2 * self.bleed) / s - h) / 2

    def piece_safe(self, w: float, h: float) -> float:
        """The product's safe margin in the piece's mm (scaled up to cover the trim, the
        piece loses a little more at the cut)."""
        tw, th = self.trim
        s = self.scale
        return (self.safe + max(w * s - tw, h * s - th) / 2) / s


@dataclass(frozen=True, order=True)
class Finding:
    component: str
    severity: str
    where: str
    message: str

    def text(self) -> str:
        at = f"{self.where}: " if self.where else ""
        return f"{at}{self.component}: {self.message}"

    def line(self) -> str:
        return f"{self.severity}: {self.text()}"


@dataclass
class VendorResult:
    vendor: str
    findings: list[Finding] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # pieces no product fits
    files: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def record(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "files": self.files,
            "skipped": self.skipped,
            "errors": [f.text() for f in self.findings if f.severity == "error"],
            "warnings": [f.text() for f in self.findings if f.severity == "warning"],
        }


# --- the presets ---------------------------------------------------------------------------


def vendor_names(layouts: Path) -> list[str]:
    folder = layouts / "vendors"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def load_vendor(layouts: Path, name: str) -> Vendor:
    """A vendor preset by name; an unknown name lists the known ones."""
    known = vendor_names(layouts)
    if not NAME.match(name) or name not in known:
        raise PrintgenError(
            f"unknown vendor '{name}' (vendors: {', '.join(known) or 'none'}): add "
            f"layouts/vendors/{name}.yaml or use one of these"
        )
    path = layouts / "vendors" / f"{name}.yaml"
    doc = load_yaml(path, [layouts])
    spec = validate(VendorFile, doc)
    where = Location(path, 1, 1)
    if spec.any_size and (spec.bleed_mm is None or spec.safe_mm is None):
        raise PrintgenError(f"vendor {name}: any_size needs bleed_mm and safe_mm", where)
    if spec.output == "png-per-face" and any(p.pixels is None for p in spec.products):
        raise PrintgenError(f"vendor {name}: every product of an image vendor needs pixels", where)
    if spec.colour == "cmyk" and spec.output != "pdf-per-deck":
        raise PrintgenError(f"vendor {name}: CMYK is made for PDF output only", where)
    return Vendor(name, spec, where)


def slot_for(vendor: Vendor, w: float, h: float) -> Slot | None:
    """The vendor's product a w x h mm piece is printed as (turned to match), or None."""
    spec = vendor.spec
    if spec.any_size:
        assert spec.bleed_mm is not None and spec.safe_mm is not None
        return Slot("own-size", (w, h), spec.bleed_mm, spec.safe_mm, None, 1.0)
    for product in spec.products:
        tw, th = (v * MM_PER_IN for v in product.trim_in)
        pixels = product.pixels
        if (w > h) != (tw > th) and abs(tw - th) > EPSILON:
            tw, th = th, tw
            pixels = (pixels[1], pixels[0]) if pixels else None
        if abs(tw - w) <= MATCH_TOLERANCE_MM and abs(th - h) <= MATCH_TOLERANCE_MM:
            scale = max(tw / w, th / h)
            bleed, safe = product.bleed_in * MM_PER_IN, product.safe_in * MM_PER_IN
            return Slot(product.id, (tw, th), bleed, safe, pixels, scale)
    return None


# --- preflight -----------------------------------------------------------------------------


def _sides(piece: Piece) -> list[str]:
    return ["front"] + (["back"] if piece.back_layout else [])


def preflight(
    lib: LayoutLibrary, game: Game, lang: str, vendor: Vendor
) -> tuple[VendorResult, dict[str, Slot]]:
    """Every face of every piece the vendor prints, checked against its numbers."""
    result = VendorResult(vendor.id)
    levels = vendor.spec.preflight
    slots: dict[str, Slot] = {}
    found: set[Finding] = set()

    def note(kind: str, piece: Piece, where: Location | None, message: str) -> None:
        severity = str(getattr(levels, kind))
        if severity != "off":
            found.add(Finding(piece.id, severity, str(where) if where else "", message))

    reset_budget()
    for piece in game.pieces:
        if piece.count < 1:
            continue
        w, h = piece_size(lib, piece)
        slot = slot_for(vendor, w, h)
        if slot is None:
            result.skipped.append(piece.id)
            continue
        slots[piece.id] = slot
        safe = slot.piece_safe(w, h)
        need = slot.piece_bleed(w, h)
        for side in _sides(piece):
            req = FaceRequest(piece, side, lang)
            name, where = face_layout(lib, req)
            layout = lib.layout(name, where)
            if layout.bleed + BLEED_SLACK_MM < need:
                note(
                    "bleed",
                    piece,
                    layout.bleed_where or layout.where,
                    f"{side}: layout {layout.name} has {layout.bleed:g} mm of bleed; "
                    f"{vendor.spec.name} needs {need:.2f} mm on a {w:g} x {h:g} mm piece "
                    f"({slot.product}): set `bleed: {math.ceil(need * 10) / 10:g}mm` in the "
                    "layout and draw the background to the bleed box",
                )
            # the layout's faces again, with the vendor's safe margin
            checked = dataclasses.replace(layout, safe=max(safe, 0.0))
            vlib = dataclasses.replace(lib, _resolved={**lib._resolved, name: checked})
            report = SafeZoneReport()
            fields: list[FieldText] = []
            face = render_face(vlib, game, req, report, fields)
            for (at, field_name, depth), _pieces in sorted(report.found.items()):
                note(
                    "safe_zone",
                    piece,
                    None,
                    f"{side}: {at}: text of {field_name} reaches {depth} mm into "
                    f"{vendor.spec.name}'s {slot.safe:.2f} mm safe margin: move it inward",
                )
            for (at, image, dpi), _pieces in sorted(report.low_dpi.items()):
                note(
                    "low_dpi",
                    piece,
                    None,
                    f"{side}: {at}: image {image} prints at {dpi} DPI, under 300: use one "
                    "with more pixels",
                )
            for f in fields:
                if f.fitted.size_pt < vendor.spec.min_text_pt - 0.05:
                    note(
                        "min_text",
                        piece,
                        f.where,
                        f"{side}: text of field '{f.id or f.role}' is {f.fitted.size_pt:.1f} pt, "
                        f"under {vendor.spec.name}'s {vendor.spec.min_text_pt:g} pt: shorten "
                        "it or give it more room",
                    )
            for reach, what in _elements_in_margin(face, safe):
                note(
                    "safe_zone",
                    piece,
                    layout.where,
                    f"{side}: {what} in layout {layout.name} reaches {reach:.1f} mm into "
                    f"{vendor.spec.name}'s safe margin: move it inward",
                )
    result.findings = sorted(found)
    return result, slots


def _elements_in_margin(face: Face, safe: float) -> list[tuple[float, str]]:
    """Icons, pictures and shapes inside the trim that reach into the safe margin (frames
    and backgrounds that run to the trim edge are left alone)."""
    out = []
    for op in face.ops:
        if isinstance(op, Vector | Picture | Ellipse):
            x0, y0, x1, y1 = op.x, op.y, op.x + op.w, op.y + op.h
            what = {Vector: "an icon", Picture: "a picture", Ellipse: "an ellipse"}[type(op)]
        elif isinstance(op, Polygon) and op.points:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            what = "a shape"
        else:
            continue
        edge = min(x0, y0, face.width - x1, face.height - y1)
        if edge < EDGE_MM:  # at or past the trim: a frame or background
            continue
        if x1 - x0 >= FRAME_SHARE * face.width or y1 - y0 >= FRAME_SHARE * face.height:
            continue  # as wide or tall as most of the piece: a frame or a token's ring
        depth = safe - edge
        if depth > 0.05:
            out.append((depth, f"{what} at [{x0:.1f}, {y0:.1f}, {x1 - x0:.1f}, {y1 - y0:.1f}] mm"))
    return sorted(set(out))


# --- files ---------------------------------------------------------------------------------

Put = Callable[[str, bytes, dict[str, Any]], None]


def vendor_png(face: Face, slot: Slot, dpi: int) -> bytes:
    """The face at the vendor's pixel size: scaled to cover its trim, centred, the bleed
    made up from the edge pixels where the layout's is a little short."""
    assert slot.pixels is not None
    pw, ph = slot.pixels
    image = draw_face(face, dpi)  # at the piece's size; scaled below
    scale = slot.scale
    size = (round(image.width * scale), round(image.height * scale))
    if size != image.size:
        image = image.resize(size, Image.Resampling.LANCZOS)
    pad_x = max(0, math.ceil((pw - image.width) / 2)) + 1
    pad_y = max(0, math.ceil((ph - image.height) / 2)) + 1
    image = _extend(image, pad_x, pad_y)
    left, top = (image.width - pw) // 2, (image.height - ph) // 2
    image = image.crop((left, top, left + pw, top + ph))
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=6)
    return out.getvalue()


def _extend(image: Image.Image, px: int, py: int) -> Image.Image:
    """The image with px/py pixels more on each side, copied from its outermost pixels."""
    w, h = image.size
    out = Image.new(image.mode, (w + 2 * px, h + 2 * py), "white")
    out.paste(image, (px, py))
    out.paste(image.crop((0, 0, 1, h)).resize((px, h)), (0, py))
    out.paste(image.crop((w - 1, 0, w, h)).resize((px, h)), (px + w, py))
    full = out.width
    out.paste(out.crop((0, py, full, py + 1)).resize((full, py)), (0, 0))
    out.paste(out.crop((0, py + h - 1, full, py + h)).resize((full, py)), (0, py + h))
    return out


def _deck_of(piece: Piece) -> str:
    return piece.deck.id if piece.deck is not None else piece.id


def write_png_vendor(
    vendor: Vendor,
    game: Game,
    faces: dict[str, Face],
    lang: str,
    slots: dict[str, Slot],
    put: Put,
) -> list[str]:
    """One PNG per distinct face at the vendor's pixel size; the manifest counts copies."""
    written = []
    for piece in game.pieces:
        slot = slots.get(piece.id)
        if slot is None:
            continue
        for side in _sides(piece):
            face = faces[f"{piece.id}.{side}.{lang}"]
            rel = f"{vendor.id}/{piece.id}-{side}.png"
            entry = {
                "kind": "vendor-image",
                "vendor": vendor.id,
                "component": piece.id,
                "face": side,
                "copies": piece.count,
                "product": slot.product,
                "pixels": list(slot.pixels or ()),
            }
            put(rel, vendor_png(face, slot, vendor.spec.dpi), entry)
            written.append(rel)
    return written


def _deck_pages(
    vendor: Vendor, pieces: list[Piece], faces: dict[str, Face], lang: str
) -> list[Face | None]:
    """Each copy's faces in the vendor's order (None: a blank back the vendor asks for)."""
    back_first = vendor.spec.page_order == "back-front"
    pages: list[Face | None] = []
    for piece in pieces:
        front = faces[f"{piece.id}.front.{lang}"]
        back = faces.get(f"{piece.id}.back.{lang}") if piece.back_layout else None
        for _copy in range(piece.count):
            if back_first:
                pages.extend([back, front])
            else:
                pages.extend([front, back] if back is not None else [front])
    return pages


def rgb_deck_pdf(pages: list[Face | None], slot: Slot, title: str, lib: LayoutLibrary) -> bytes:
    """The deck's pages at the product's size: each face scaled to cover the trim,
    centred; the page is the bleed box, with TrimBox and BleedBox."""
    tw, th = slot.trim
    pw, ph = tw + 2 * slot.bleed, th + 2 * slot.bleed
    buffer = io.BytesIO()
    c = new_canvas(buffer, title, (pw, ph), lib.fonts["gothic"])
    made: set[str] = set()
    for face in pages:
        c.setPageSize((pw * mm, ph * mm))
        c.setBleedBox((0, 0, pw * mm, ph * mm))
        b = slot.bleed
        c.setTrimBox((b * mm, b * mm, (b + tw) * mm, (b + th) * mm))
        if face is not None:
            name = ensure_form(c, face, made)
            s = slot.scale
            fw, fh = face.width + 2 * face.bleed, face.height + 2 * face.bleed
            c.saveState()
            c.translate((pw - fw * s) / 2 * mm, (ph - fh * s) / 2 * mm)
            c.scale(s, s)
            c.doForm(name)
            c.restoreState()
        c.showPage()
    return c.pdf()


def write_pdf_vendor(
    lib: LayoutLibrary,
    vendor: Vendor,
    game: Game,
    faces: dict[str, Face],
    lang: str,
    slots: dict[str, Slot],
    put: Put,
) -> list[str]:
    """One PDF per deck (and product size), in the vendor's page order and colour."""
    groups: dict[tuple[str, Slot], list[Piece]] = {}
    for piece in game.pieces:
        slot = slots.get(piece.id)
        if slot is not None:
            groups.setdefault((_deck_of(piece), slot), []).append(piece)
    names: dict[str, int] = {}
    for deck, _slot in groups:
        names[deck] = names.get(deck, 0) + 1
    written = []
    for (deck, slot), pieces in groups.items():
        suffix = "" if names[deck] == 1 else f"-{slot.trim[0]:g}x{slot.trim[1]:g}mm"
        rel = f"{vendor.id}/{deck}{suffix}.pdf"
        pages = _deck_pages(vendor, pieces, faces, lang)
        title = f"{game.info.title.en} — {deck}"
        data = rgb_deck_pdf(pages, slot, title, lib)
        if vendor.spec.colour == "cmyk":
            data = to_cmyk_pdfx(data, vendor, slot, title)
        entry = {
            "kind": "vendor-pdf",
            "vendor": vendor.id,
            "deck": deck,
            "product": slot.product,
            "pages": len(pages),
            "page_order": vendor.spec.page_order,
            "colour": vendor.spec.colour,
            "trim_mm": [round(v, 3) for v in slot.trim],
            "bleed_mm": round(slot.bleed, 3),
            "components": [p.id for p in pieces],
        }
        put(rel, data, entry)
        written.append(rel)
    return written


# --- CMYK and PDF/X ------------------------------------------------------------------------


def ghostscript() -> str | None:
    return shutil.which("gs")


def cmyk_profile() -> Path | None:
    """Ghostscript's own CMYK profile (shipped with it: the same on every machine that
    has the same Ghostscript)."""
    for folder in ICC_FOLDERS:
        path = folder / CMYK_PROFILE
        if path.is_file():
            return path
    return None


def to_cmyk_pdfx(data: bytes, vendor: Vendor, slot: Slot, title: str) -> bytes:
    """RGB PDF -> CMYK PDF/X: Ghostscript converts the colours to its CMYK profile;
    pikepdf then holds total ink to the vendor's limit, sets TrimBox and BleedBox on every
    page, the output intent (the profile) and the PDF/X keys."""
    gs, profile = ghostscript(), cmyk_profile()
    if gs is None or profile is None:
        raise PrintgenError(
            f"vendor {vendor.id}: CMYK files need Ghostscript and its ICC profiles "
            "(Debian: apt-get install ghostscript)",
            vendor.where,
        )
    with tempfile.TemporaryDirectory(prefix="printgen-cmyk-") as tmp:
        src, dst = Path(tmp) / "rgb.pdf", Path(tmp) / "cmyk.pdf"
        src.write_bytes(data)
        env = {**os.environ, "SOURCE_DATE_EPOCH": "946684800"}
        cmd = [
            gs,
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-dSAFER",
            "-sDEVICE=pdfwrite",
            "-dPDFX=true",
            "-dCompatibilityLevel=1.4",
            "-sColorConversionStrategy=CMYK",
            "-sProcessColorModel=DeviceCMYK",
            f"-sOutputICCProfile={profile}",
            "-dAutoRotatePages=/None",
            "-dEmbedAllFonts=true",
            "-dSubsetFonts=true",
            "-dDownsampleColorImages=false",
            "-dAutoFilterColorImages=false",
            "-dColorImageFilter=/FlateEncode",
            f"-sOutputFile={dst}",
            str(src),
        ]
        done = subprocess.run(cmd, capture_output=True, env=env, timeout=600, check=False)
        if done.returncode != 0 or not dst.is_file():
            message = done.stderr.decode("utf-8", "replace").strip()[-500:]
            raise PrintgenError(f"vendor {vendor.id}: Ghostscript failed: {message}")
        converted = dst.read_bytes()
    return finish_pdfx(converted, vendor, slot, profile, title)


def finish_pdfx(data: bytes, vendor: Vendor, slot: Slot, profile: Path, title: str) -> bytes:
    import pikepdf

    limit = vendor.spec.ink_limit_percent
    with pikepdf.open(io.BytesIO(data)) as pdf:
        tw, th = slot.trim
        b = slot.bleed
        bleed_box = [0, 0, (tw + 2 * b) * mm, (th + 2 * b) * mm]
        trim_box = [b * mm, b * mm, (b + tw) * mm, (b + th) * mm]
        seen: set[tuple[int, int]] = set()
        for page in pdf.pages:
            page.obj.MediaBox = pikepdf.Array([round(v, 4) for v in bleed_box])
            page.obj.BleedBox = pikepdf.Array([round(v, 4) for v in bleed_box])
            page.obj.TrimBox = pikepdf.Array([round(v, 4) for v in trim_box])
            if "/CropBox" in page.obj:
                del page.obj["/CropBox"]
            if limit is not None:
                _limit_ink(pdf, page.obj, limit / 100.0, seen)
        icc = pdf.make_stream(profile.read_bytes())
        icc.N = 4
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"),
            OutputCondition=pikepdf.String(f"Ghostscript {CMYK_PROFILE}"),
            Info=pikepdf.String(f"Ghostscript {CMYK_PROFILE}"),
            RegistryName=pikepdf.String("http://www.color.org"),
            DestOutputProfile=icc,
        )
        pdf.Root.OutputIntents = pikepdf.Array([intent])
        if "/Metadata" in pdf.Root:
            del pdf.Root["/Metadata"]
        info = pdf.make_indirect(
            pikepdf.Dictionary(
                Title=pikepdf.String(title),
                Creator=pikepdf.String("printgen"),
                Producer=pikepdf.String("printgen (Ghostscript, pikepdf)"),
                CreationDate=pikepdf.String(FIXED_DATE),
                ModDate=pikepdf.String(FIXED_DATE),
                Trapped=pikepdf.Name.False_,
                GTS_PDFXVersion=pikepdf.String(vendor.spec.pdfx or "PDF/X-1a:2003"),
                GTS_PDFXConformance=pikepdf.String(vendor.spec.pdfx or "PDF/X-1a:2003"),
            )
        )
        pdf.trailer.Info = info
        if "/ID" in pdf.trailer:  # Ghostscript's, made of the time: one from the content
            del pdf.trailer["/ID"]
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True)
    return out.getvalue()


CMYK_OPS = {"k", "K", "sc", "SC", "scn", "SCN"}


def limit_cmyk(c: float, m: float, y: float, k: float, limit: float) -> tuple[float, ...]:
    """Total ink at most `limit` (1.0 = 100%): cyan, magenta and yellow are reduced
    together, black is kept (it carries the detail)."""
    total = c + m + y + k
    if total <= limit + 1e-6:
        return (c, m, y, k)
    cmy = c + m + y
    k = min(k, limit)
    f = max(0.0, (limit - k) / cmy) if cmy > 0 else 0.0
    return (c * f, m * f, y * f, k)


def _limit_ink(pdf: Any, holder: Any, limit: float, seen: set[tuple[int, int]]) -> None:
    """Colour operators and CMYK images of a page or form (and the forms it draws)."""
    import pikepdf

    ops = pikepdf.parse_content_stream(holder)
    changed = False
    out: list[Any] = []
    for instruction in ops:
        if not isinstance(instruction, pikepdf.ContentStreamInstruction):
            out.append(instruction)
            continue
        operands, operator = list(instruction.operands), instruction.operator
        name = str(operator)
        if name in CMYK_OPS and len(operands) == 4:
            values = [float(v) for v in operands]
            c, m, y, k = values
            limited = limit_cmyk(c, m, y, k, limit)
            if list(limited) != values:
                operands = [pikepdf.objects.Object.parse(f"{v:.4f}".encode()) for v in limited]
                changed = True
        out.append(pikepdf.ContentStreamInstruction(operands, operator))
    if changed:
        data = pikepdf.unparse_content_stream(out)
        if isinstance(holder, pikepdf.Stream):
            holder.write(zlib.compress(data), filter=pikepdf.Name.FlateDecode)
        else:
            pikepdf.Page(holder).obj.Contents = pdf.make_stream(data)
    resources = holder.get("/Resources")
    xobjects = resources.get("/XObject") if resources is not None else None
    if xobjects is None:
        return
    for _key, xobject in xobjects.items():
        ident = xobject.objgen
        if ident in seen:
            continue
        seen.add(ident)
        if xobject.get("/Subtype") == pikepdf.Name.Form:
            _limit_ink(pdf, xobject, limit, seen)
        elif xobject.get("/Subtype") == pikepdf.Name.Image:
            _limit_image(xobject, limit)


def _limit_image(xobject: Any, limit: float) -> None:
    import pikepdf

    try:
        image = pikepdf.PdfImage(xobject).as_pil_image()
    except Exception:  # a kind of image Pillow cannot read: left as it is
        return
    if image.mode != "CMYK":
        return
    bands = image.split()
    scale = 255 * limit
    env = {"c": bands[0], "m": bands[1], "y": bands[2], "k": bands[3]}
    k = ImageMath.lambda_eval(lambda a: a["min"](a["float"](a["k"]), scale), **env)
    cmy = ImageMath.lambda_eval(
        lambda a: a["float"](a["c"]) + a["float"](a["m"]) + a["float"](a["y"]), **env
    )
    # f = min(1, (limit - k) / cmy) where cmy > 0
    f = ImageMath.lambda_eval(
        lambda a: a["min"](a["max"]((scale - a["k2"]) / a["max"](a["cmy"], 0.001), 0.0), 1.0),
        k2=k,
        cmy=cmy,
    )
    limited = [
        ImageMath.lambda_eval(lambda a: a["convert"](a["b"] * a["f"], "L"), b=band, f=f)
        for band in bands[:3]
    ]
    limited.append(ImageMath.lambda_eval(lambda a: a["convert"](a["k2"], "L"), k2=k))
    out = Image.merge("CMYK", limited)
    if out.tobytes() == image.tobytes():
        return
    xobject.write(zlib.compress(out.tobytes()), filter=pikepdf.Name.FlateDecode)
    xobject.ColorSpace = pikepdf.Name.DeviceCMYK
    xobject.BitsPerComponent = 8
    if "/DecodeParms" in xobject:
        del xobject["/DecodeParms"]
    if "/Decode" in xobject:
        del xobject["/Decode"]


# --- the hook ------------------------------------------------------------------------------


def write_vendors(
    lib: LayoutLibrary,
    game: Game,
    faces: dict[str, Face],
    lang: str,
    names: Iterable[str],
    put: Put,
) -> tuple[dict[str, Any], list[str]]:
    """Each named vendor's preflight, then (when it has no errors) its files under
    `<vendor>/`. Returns the manifest's `vendors` record and warnings to show."""
    record: dict[str, Any] = {}
    warnings: list[str] = []
    for name in names:
        vendor = load_vendor(lib.root, name)
        result, slots = preflight(lib, game, lang, vendor)
        if result.skipped:
            warnings.append(
                f"{vendor.id}: {len(result.skipped)} component(s) fit no {vendor.spec.name} "
                f"product and are left out: {', '.join(result.skipped)}"
            )
        warnings.extend(
            f"{vendor.id}: {f.text()}" for f in result.findings if f.severity == "warning"
        )
        if result.ok and slots:
            if vendor.spec.output == "png-per-face":
                result.files = write_png_vendor(vendor, game, faces, lang, slots, put)
            else:
                result.files = write_pdf_vendor(lib, vendor, game, faces, lang, slots, put)
        report = "\n".join(f.line() for f in result.findings) + "\n"
        put(f"{vendor.id}/preflight.txt", report.encode("utf-8"), {"kind": "vendor-preflight"})
        record[vendor.id] = result.record()
    return record, warnings


def vendor_failures(folders: Iterable[tuple[str, Path]]) -> list[PrintgenError]:
    """An error per vendor whose preflight stopped its files (in each game's built
    manifest, also when the build was up to date), listing what to fix."""
    errors = []
    for game, folder in folders:
        try:
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for vendor, rec in sorted((manifest.get("vendors") or {}).items()):
            if not rec.get("ok", True):
                lines = "\n  ".join(rec.get("errors", []))
                errors.append(
                    PrintgenError(
                        f"{game}: {vendor}: preflight failed, its files were not written:\n  {lines}"
                    )
                )
    return errors
