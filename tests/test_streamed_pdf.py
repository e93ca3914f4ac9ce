"""printgen's PDFs are written as they are drawn (pdfdraw.StreamedDocument): each finished
page goes into the file and leaves memory, the fonts and the page tree come last. The pages
are reportlab's own, object for object; only their order in the file differs."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from printgen import sheets
from printgen.build import BuildOptions, Project, load_all, render_all, write_game
from printgen.pdfdraw import PagedCanvas

ROOT = Path(__file__).resolve().parent.parent


def _pages(c: Canvas) -> None:
    """A page of each kind: plain, boxed, rotated, with forms, an image, transparency, a
    link, a transition, a different size; then one more plain page."""
    c.drawString(20, 20, "plain")
    c.showPage()
    c.setPageSize((200, 300))
    c.setBleedBox((0, 0, 200, 300))
    c.setTrimBox((9, 9, 191, 291))
    c.setCropBox((0, 0, 200, 300))
    c.setArtBox((5, 5, 195, 295))
    c.rect(10, 10, 50, 50, fill=1)
    c.showPage()
    c.setPageRotation(90)
    c.beginForm("box", 0, 0, 40, 40)
    c.circle(20, 20, 10, fill=1)
    c.endForm()
    c.doForm("box")
    c.showPage()
    c.setPageRotation(0)
    c.doForm("box")
    c.translate(50, 50)
    c.doForm("box")
    c.showPage()
    picture = Image.new("RGB", (4, 4), (200, 30, 30))
    c.drawImage(ImageReader(picture), 10, 10, 40, 40)
    c.showPage()
    c.setFillAlpha(0.5)
    c.rect(10, 10, 80, 80, fill=1)
    c.drawImage(ImageReader(picture), 50, 50, 20, 20)  # the image again, written already
    c.showPage()
    c.linkURL("https://example.org/", (10, 10, 90, 30))
    c.drawString(10, 15, "a link")
    c.showPage()
    c.setPageTransition("Dissolve", duration=2)
    c.drawString(10, 15, "a transition")
    c.showPage()
    c.setPageTransition(None)
    c.setPageSize((612, 792))
    c.drawString(30, 30, "letter")
    c.showPage()


def _value(obj: Any) -> Any:
    """A PDF object as plain values, indirect objects followed (but a page's parent)."""
    if isinstance(obj, pikepdf.Stream):
        entries = {str(k): _value(v) for k, v in obj.items() if k not in ("/Length",)}
        return ("stream", entries, obj.read_bytes())
    if isinstance(obj, pikepdf.Dictionary):
        return {str(k): _value(v) for k, v in obj.items() if k != "/Parent"}
    if isinstance(obj, pikepdf.Array):
        return [_value(v) for v in obj]
    return repr(obj)


def _xref_holds(data: bytes) -> int:
    """Check that every offset of the cross-reference table is where its object begins;
    the number of objects."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))  # type: ignore[union-attr]
    table = data[start:].split(b"trailer", 1)[0].split(b"\n")
    assert table[0] == b"xref"
    first, count = map(int, table[1].split())
    assert first == 0
    for number, row in enumerate(table[3 : 2 + count], start=1):
        offset = int(row.split()[0])
        assert data[offset:].startswith(b"%d 0 obj\n" % number), number
    return count - 1


def same_document(streamed: bytes, plain: bytes) -> None:
    """The two files hold the same document: its version, every page (with its resources,
    contents, forms, images, annotations), the catalogue and the information."""
    assert _xref_holds(streamed) == _xref_holds(plain)
    a, b = pikepdf.open(io.BytesIO(streamed)), pikepdf.open(io.BytesIO(plain))
    assert a.check_pdf_syntax() == []
    assert a.pdf_version == b.pdf_version
    assert streamed[:15] == plain[:15]  # the header, with the version
    assert len(a.pages) == len(b.pages)
    for mine, theirs in zip(a.pages, b.pages, strict=True):
        assert _value(mine.obj) == _value(theirs.obj)
    assert _value(a.Root) == _value(b.Root)
    assert _value(a.docinfo) == _value(b.docinfo)
    assert a.trailer.ID == b.trailer.ID


@pytest.mark.parametrize("compress", [0, 1])
def test_a_streamed_document_has_reportlabs_pages(compress: int) -> None:
    streamed, plain = io.BytesIO(), io.BytesIO()
    c = PagedCanvas(streamed, invariant=1, pageCompression=compress)
    _pages(c)
    c.save()
    c = Canvas(plain, invariant=1, pageCompression=compress)
    _pages(c)
    c.save()
    same_document(streamed.getvalue(), plain.getvalue())


def test_each_page_is_in_the_file_when_it_is_finished() -> None:
    out = io.BytesIO()
    c = PagedCanvas(out, invariant=1, pageCompression=1)
    sizes = []
    for i in range(5):
        c.beginForm(f"f{i}", 0, 0, 40, 40)
        c.circle(20, 20, 10, fill=1)
        c.endForm()
        c.doForm(f"f{i}")
        c.drawString(10, 10, f"page {i}")
        c.showPage()
        sizes.append(out.tell())
        # nothing of the page, its contents or its form waits in memory: only the font
        # dictionary and the page tree, written at the end
        waiting = [o for o in c._doc.idToObject.values() if type(o).__name__ != "_Written"]
        assert all(o is c._doc.Pages or isinstance(o, pdfdoc.PDFDictionary) for o in waiting)
    assert sizes == sorted(sizes) and sizes[0] > 0 and len(set(sizes)) == 5
    assert c.pdf() == out.getvalue()
    assert out.getvalue().count(b"/Type /Page\n") == 5


def test_the_version_rises_after_the_header_is_written() -> None:
    """Transparency on a later page makes a PDF 1.4: the header already written says so."""
    streamed, plain = io.BytesIO(), io.BytesIO()
    for out, kind in ((streamed, PagedCanvas), (plain, Canvas)):
        c = kind(out, invariant=1)
        c.drawString(10, 10, "opaque")
        c.showPage()
        c.setFillAlpha(0.3)
        c._doc.ensureMinPdfVersion("transparency")
        c.rect(10, 10, 20, 20, fill=1)
        c.showPage()
        c.save()
    assert streamed.getvalue().startswith(b"%PDF-1.4\n")
    same_document(streamed.getvalue(), plain.getvalue())


class _PlainCanvas(Canvas):  # type: ignore[misc]
    """reportlab's canvas, whole documents in memory, with PagedCanvas's two endings."""

    def finish(self) -> None:
        self.save()

    def pdf(self) -> bytes:
        data: bytes = self.getpdfdata()
        return data


def test_a_games_files_are_reportlabs_documents(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game's sheets (duplex, two papers), card pages and calibration pages, streamed,
    hold the documents reportlab's own canvas makes of them."""
    lib, games = load_all(Project(ROOT), ["kill-shot"])
    (r,) = render_all(lib, games, "both")
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    write_game(lib, r, opts, tmp_path / "streamed", lambda *_: None)
    monkeypatch.setattr(sheets, "PagedCanvas", _PlainCanvas)
    write_game(lib, r, opts, tmp_path / "plain", lambda *_: None)
    streamed = sorted((tmp_path / "streamed").glob("*.pdf"))
    assert len(streamed) == 5
    for path in streamed:
        same_document(path.read_bytes(), (tmp_path / "plain" / path.name).read_bytes())
