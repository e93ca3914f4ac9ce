"""A compiled face's form XObject is written by printgen (pdfdraw._Form) as reportlab writes
the form a canvas makes of the same operators: the same bytes, so the PDFs are the same."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.build import Project, load_all, render_all
from printgen.ops import Face
from printgen.pdfdraw import ensure_form, face_drawing, face_form_name
from printgen.sheets import new_canvas

ROOT = Path(__file__).resolve().parent.parent


def _document(faces: list, font: object, fast: bool, compress: bool) -> bytes:
    buffer = io.BytesIO()
    c = new_canvas(buffer, "forms", (100.0, 100.0), font)  # type: ignore[arg-type]
    c.setPageCompression(int(compress))
    made: set[str] = set()
    for face in faces:
        if fast:
            name = ensure_form(c, face, made)
        else:  # the canvas's own way, as printgen drew forms before
            drawing = face_drawing(face)
            name = drawing.name
            if name not in made:
                c.beginForm(name, 0, 0, drawing.width_pt, drawing.height_pt)
                if drawing.coloured:
                    c._doc.ensureMinPdfVersion("transparency")
                drawing.replay(c)
                c.endForm()
                made.add(name)
        c.doForm(name)
        c.showPage()
    c.save()
    return buffer.getvalue()


@pytest.mark.parametrize("game", ["submarine-attack", "squares2", "kill-shot"])
@pytest.mark.parametrize("compress", [True, False])
def test_a_form_is_the_bytes_the_canvas_writes(game: str, compress: bool) -> None:
    lib, games = load_all(Project(ROOT), [game])
    (r,) = render_all(lib, games, "both")
    faces = [f for f in r.faces.values() if face_drawing(f).code is not None][:24]
    assert faces, "faces drawn by compiled operators"
    font = lib.fonts["gothic"]
    fast = _document(faces, font, True, compress)
    slow = _document(faces, font, False, compress)
    assert fast == slow
    assert fast.count(b"/Subtype /Form") == len({face_drawing(f).name for f in faces})


def test_a_deck_of_more_faces_than_kept_is_compiled_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game with more distinct faces than the compiled faces kept between documents
    (`DRAWINGS_KEPT`, here made 4): its sheets of two papers and its card pages compile each
    face once, where each document compiled them all again; the files are the same."""
    from printgen import build, pdfdraw
    from printgen.build import BuildOptions, write_game

    lib, games = load_all(Project(ROOT), ["subzero"])
    (r,) = render_all(lib, games, "both")
    distinct = {face_form_name(f) for f in r.faces.values()}
    assert len(distinct) > 4
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    compiled: list[str] = []
    real_compile = pdfdraw.compile_face

    def counting(face: Face) -> pdfdraw.FaceDrawing:
        compiled.append(face_form_name(face))
        return real_compile(face)

    def files(folder: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}

    monkeypatch.setattr(pdfdraw, "compile_face", counting)
    monkeypatch.setattr(pdfdraw, "DRAWINGS_KEPT", 4)
    pdfdraw._drawings.clear()  # none compiled yet (earlier tests compiled these faces)
    write_game(lib, r, opts, tmp_path / "kept", lambda *_: None)
    assert sorted(compiled) == sorted(distinct)
    assert {name for name, _fonts in pdfdraw._drawings} == distinct

    compiled.clear()
    pdfdraw.keep_drawings(4)  # the next game's write trims them (here: 4 again)
    assert len(pdfdraw._drawings) == 4
    monkeypatch.setattr(build, "keep_drawings", lambda count: None)  # as before: 4 kept
    write_game(lib, r, opts, tmp_path / "before", lambda *_: None)
    assert len(compiled) >= 3 * len(distinct) - 12  # each document compiled nearly all
    assert files(tmp_path / "kept") == files(tmp_path / "before")
    monkeypatch.undo()
    pdfdraw.keep_drawings(0)  # back to the usual bound for the tests after this one


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=30))
def test_pdfdoc_bytes_are_reportlabs(text: str) -> None:
    """A form's operators encoded the short way (and every text reportlab writes into a PDF,
    `pdfdoc.pdfdocEnc`) give reportlab's bytes (its codec), or its error; a name made once
    is reportlab's name."""
    from reportlab.pdfbase import pdfdoc

    from printgen import pdfdraw

    try:
        expected: bytes | type[Exception] = text.encode("extpdfdoc")
    except UnicodeEncodeError:
        expected = UnicodeEncodeError
    for encode in (pdfdraw.pdfdoc_bytes, pdfdoc.pdfdocEnc):
        try:
            got: bytes | type[Exception] = encode(text)
        except UnicodeEncodeError:
            got = UnicodeEncodeError
        assert got == expected
    if text:
        assert pdfdoc.PDFName(text) == pdfdoc.PDFName(text) == pdfdraw._reportlab_name(text)
