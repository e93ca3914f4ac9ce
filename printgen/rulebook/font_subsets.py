"""The rulebook's fonts in the PDF: each edition's @font-face rules point at subsets of
the fonts of layouts/fonts/ cut to that edition's characters."""

from __future__ import annotations

import re
from pathlib import Path

from printgen import fonts
from printgen.errors import PrintgenError
from printgen.rulebook.diagrams import stored

FONT_SCHEME = "printgen-font"  # a font of layouts/fonts/, replaced by its subset before PDF


def embed_fonts(pages: dict[str, str], layouts: Path, pictures: Path | None) -> dict[str, str]:
    """Point each edition's @font-face rules at subsets of the fonts cut to the characters
    of the game's editions: WeasyPrint embeds them unchanged, so the PDFs are the same bytes on
    every machine (its own subsetting differs with the system's HarfBuzz)."""
    folder = (layouts / "fonts").resolve()
    pattern = re.compile(rf"{FONT_SCHEME}:([^\s\"')]+)")
    out = {}
    # One character set for all the editions of a game: each font is cut once and the
    # same subset embedded in every edition.
    characters = "".join(sorted(set("".join(pages.values())) | set(fonts.LAYOUT_CHARACTERS)))
    for edition, page in pages.items():
        uris: dict[str, str] = {}
        for name in sorted(set(pattern.findall(page))):
            path = (folder / name).resolve()
            if not path.is_relative_to(folder) or not path.is_file():
                raise PrintgenError(f"rulebook font '{name}' is not a file in layouts/fonts/")
            uris[name] = stored(fonts.subset_font(path, characters), "ttf", pictures)
        out[edition] = pattern.sub(lambda m, found=uris: found[m.group(1)], page)  # type: ignore[misc]
    return out
