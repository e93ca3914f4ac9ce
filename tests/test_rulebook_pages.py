"""Page references in a rulebook (the contents, "(p. 17)" after a cross-reference) name the
page their target is printed on, backward, forward and on the same page, however the text
around them flows; the page numbers a book's last layout ended with, kept in the cache
folder, spare the second layout of the pages pointing forward and change no byte."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from printgen.cache import read_entry, write_entry
from printgen.rulebook.pagination import resolve_page_references
from printgen.rulebook.pdf import PAGES_FOLDER, render_pdf_pages

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


def _laid_out_pages(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the number of every page WeasyPrint lays out (again and again)."""
    from weasyprint.layout import page

    resolve_page_references()
    made: list[int] = []
    make_page = page.make_page

    def counted(
        context: Any, root: Any, page_type: Any, resume_at: Any, number: int, *a: Any
    ) -> Any:
        made.append(number)
        return make_page(context, root, page_type, resume_at, number, *a)

    monkeypatch.setattr(page, "make_page", counted)
    return made


def test_page_numbers_from_the_last_build_spare_a_second_layout_and_change_no_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    made = _laid_out_pages(monkeypatch)
    first, signatures = render_pdf_pages(book(), ROOT / "layouts", "references")
    pages = len(signatures)
    assert len(made) > pages  # the contents and the pages pointing forward, twice
    kept = list((tmp_path / "cache" / PAGES_FOLDER).iterdir())
    assert len(kept) == 1
    made.clear()
    again, _ = render_pdf_pages(book(), ROOT / "layouts", "references")
    assert again == first
    assert sorted(made) == list(range(1, pages + 1))  # each page laid out once


@pytest.mark.parametrize("guess", ["one later", "all on page 1", "far off", "another book's"])
def test_a_wrong_page_number_guess_changes_no_byte(
    guess: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page numbers kept from the last build are a guess: a book that moved, or one
    kept under the same title by another project, is laid out as with no guess."""
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    right, _ = render_pdf_pages(book(), ROOT / "layouts", "no guess")
    render_pdf_pages(book(), ROOT / "layouts", "guessed")
    entry = next((tmp_path / "cache" / PAGES_FOLDER).iterdir())
    pages = json.loads(read_entry(entry) or b"{}")
    assert set(pages) == {f"s{i}" for i in range(SECTIONS)}
    changed = {
        "one later": {n: {**c, "page": [c["page"][0] + 1]} for n, c in pages.items()},
        "all on page 1": {n: {**c, "page": [1]} for n, c in pages.items()},
        "far off": {n: {**c, "page": [987654321]} for n, c in pages.items()},
        "another book's": {"s1": {"page": [40]}, "elsewhere": {"page": [2]}},
    }[guess]
    write_entry(entry, json.dumps(changed).encode())
    made = _laid_out_pages(monkeypatch)
    assert render_pdf_pages(book(), ROOT / "layouts", "guessed")[0] == right
    assert made


def test_a_damaged_page_number_file_is_no_guess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    right, _ = render_pdf_pages(book(), ROOT / "layouts", "damaged")
    entry = next((tmp_path / "cache" / PAGES_FOLDER).iterdir())
    for bad in (b'{"s1": {"page": ["2"]}}', b"[1, 2]", b'{"s1": 3}', b"not json"):
        write_entry(entry, bad)
        assert render_pdf_pages(book(), ROOT / "layouts", "damaged")[0] == right
    entry.write_bytes(b"garbage")  # not even checked by its digest
    assert render_pdf_pages(book(), ROOT / "layouts", "damaged")[0] == right
