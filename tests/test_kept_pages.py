"""Finished pages wait for the document's end as small records (pdfdraw._KeptPage), written
as reportlab writes its own page objects: the same bytes, for every kind of page a canvas
makes; pages with what a record does not hold are kept as reportlab made them."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from printgen import pdfdraw
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


def _document(cls: type[Canvas], compress: int) -> tuple[bytes, list[object]]:
    buffer = io.BytesIO()
    c = cls(buffer, invariant=1, pageCompression=compress)
    _pages(c)
    pages = list(c._doc.Pages.pages)
    c.save()
    return buffer.getvalue(), pages


@pytest.mark.parametrize("compress", [0, 1])
def test_kept_pages_are_the_bytes_reportlab_writes(compress: int) -> None:
    kept, pages = _document(PagedCanvas, compress)
    plain, _ = _document(Canvas, compress)
    assert kept == plain
    kinds = [type(p).__name__ for p in pages]
    # plain, boxed, rotated, forms and the image's page are records; transparency
    # (graphics states), the link (an annotation) and the transition (a duration) are not
    assert kinds == ["_KeptPage"] * 5 + ["PDFPage"] * 3 + ["_KeptPage"]


def test_a_games_files_are_the_same_with_kept_pages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game's sheets (duplex, two papers), card pages and calibration pages: the same bytes
    whether its pages wait as records or as reportlab's page objects."""
    lib, games = load_all(Project(ROOT), ["kill-shot"])
    (r,) = render_all(lib, games, "both")
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)

    def files(folder: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}

    made: list[object] = []
    real_of = pdfdraw._KeptPage.of

    def counting(page: object) -> pdfdraw._KeptPage | None:
        kept = real_of(page)
        made.append(kept)
        return kept

    monkeypatch.setattr(pdfdraw._KeptPage, "of", counting)
    write_game(lib, r, opts, tmp_path / "kept", lambda *_: None)
    assert made and all(k is not None for k in made)  # every page of these files is kept small
    monkeypatch.setattr(pdfdraw._KeptPage, "of", lambda page: None)  # reportlab's pages
    write_game(lib, r, opts, tmp_path / "plain", lambda *_: None)
    kept, plain = files(tmp_path / "kept"), files(tmp_path / "plain")
    assert len(kept) == 5 and kept == plain
