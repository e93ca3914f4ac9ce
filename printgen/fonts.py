"""Fonts for both renderers: reportlab (vector, embedded subsets) and Pillow (raster)."""

from __future__ import annotations

import io
import logging
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


# Characters a rulebook may show that its HTML does not spell out: list markers,
# hyphens and ellipses the layout engine adds, and the digits of page counters.
LAYOUT_CHARACTERS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "\u00a0\u00ad\u2010\u2011\u2013\u2014\u2022\u2026\u25e6\u25aa\u30fb"
)


@lru_cache(maxsize=16)
def subset_font(path: Path, characters: str) -> bytes:
    """The font cut down to `characters`, by fontTools (pinned in constraints.txt), with
    its own timestamps kept: the same bytes on every machine, whatever the system's
    libraries. Rulebooks embed these subsets as they are."""
    from fontTools import subset
    from fontTools.ttLib import TTLibError

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # "meta NOT subset" notes
    options = subset.Options()
    # No glyph substitutions (ligatures, alternates): every glyph drawn is then one the
    # character map names, so the PDF's text can be copied and searched.
    options.drop_tables += ["GSUB"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.hinting = False
    try:
        font = subset.load_font(str(path), options, dontLoadGlyphNames=True)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=characters)
        subsetter.subset(font)
        out = io.BytesIO()
        subset.save_font(font, out, options)
    except (TTLibError, OSError, AssertionError, KeyError) as exc:
        raise PrintgenError(f"cannot subset font file {path.name}: {exc}") from None
    return out.getvalue()
