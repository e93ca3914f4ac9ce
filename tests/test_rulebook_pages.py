"""Page references in a rulebook (the contents, "(p. 17)" after a cross-reference) name the
page their target is printed on, backward, forward and on the same page, however the text
around them flows."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader

from printgen.rulebook.pdf import render_pdf_pages

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = 9

STYLE = """
@page { size: A6; margin: 12mm; }
body { font-size: 9pt; }
.toc a::after { content: leader(".") target-counter(attr(href), page); }
a.ref::after { content: " [p" target-counter(attr(href), page) "]"; }
.long { page-break-before: always; }
"""


def book() -> str:
    """Sections of different lengths, the odd ones starting a page, each referring to every
    other section: references to earlier and later pages and to its own."""
    toc = "".join(f'<li><a href="#s{i}">Section {i}</a></li>' for i in range(SECTIONS))
    parts = []
    for i in range(SECTIONS):
        refs = " ".join(f'see <a class="ref" href="#s{j}">S{j}</a>.' for j in range(SECTIONS))
        filler = " ".join(["Words that fill the page."] * (8 + 45 * (i % 4)))
        parts.append(
            f'<section id="s{i}" class="{"long" if i % 2 else ""}">'
            f"<h2>Heading {i}</h2><p>{filler}</p><p>{refs}</p></section>"
        )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
        f"<style>{STYLE}</style></head><body><ul class=toc>{toc}</ul>{''.join(parts)}</body></html>"
    )


def test_every_page_reference_names_the_page_its_target_is_on() -> None:
    pdf, signatures = render_pdf_pages(book(), ROOT / "layouts", "references")
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
    assert len(signatures) == len(pages) > SECTIONS
    where = {}
    for number, text in enumerate(pages, start=1):
        for i in re.findall(r"Heading (\d+)", text):
            where[int(i)] = number
    assert sorted(where) == list(range(SECTIONS))
    contents = re.findall(r"Section (\d+)\s*\.+\s*(\d+)", pages[0])
    assert {int(i): int(p) for i, p in contents} == where
    seen = 0
    for text in pages:
        for i, p in re.findall(r"S(\d+) \[p(\d+)\]", text.replace("\n", " ")):
            assert int(p) == where[int(i)], f"S{i} says p{p}, printed on p{where[int(i)]}"
            seen += 1
    assert seen == SECTIONS * SECTIONS
