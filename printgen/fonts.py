"""Fonts for both renderers: reportlab (vector, embedded subsets) and Pillow (raster)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from printgen.errors import PrintgenError

_registered: dict[str, Path] = {}


def pdf_font_name(key: str, path: Path) -> str:
    """Register the TrueType file with reportlab once and return its font name."""
    name = f"pg-{key}"
    if _registered.get(name) != path:
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (TTFError, OSError) as exc:
            raise PrintgenError(
                f"cannot use font file {path.name}: {exc} (reportlab needs TrueType outlines)"
            ) from None
        _registered[name] = path
    return name


def string_width_mm(text: str, font_name: str, size_pt: float) -> float:
    return float(pdfmetrics.stringWidth(text, font_name, size_pt)) * 25.4 / 72.0


@lru_cache(maxsize=256)
def ascent_ratio(font_name: str) -> float:
    face = pdfmetrics.getFont(font_name).face
    return float(face.ascent) / 1000.0


@lru_cache(maxsize=512)
def pillow_font(path: Path, size_px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size=size_px, layout_engine=ImageFont.Layout.BASIC)
