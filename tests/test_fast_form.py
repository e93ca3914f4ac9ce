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


def _pdfs(folder: Path) -> dict[str, bytes]:
    """The PDF files a build wrote into `folder`, by name."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


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
    """A game with more distinct faces than the compiled faces kept (`DRAWINGS_KEPT`, here
    made 24), whose sheets show its pieces in another order than its card pages (boards,
    mats and tokens on sheets of their own): its sheets of two papers and its card pages,
    written side by side, compile each face once and hold only the faces between their
    places; the files are those the documents make one after another."""
    from printgen import build, pdfdraw
    from printgen.build import BuildOptions, write_game

    lib, games = load_all(Project(ROOT), ["susumuka-modoruka"])
    (r,) = render_all(lib, games, "both")
    distinct = {face_form_name(f) for f in r.faces.values()}
    assert len(distinct) > 3 * 24
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    compiled: list[str] = []
    real_compile = pdfdraw.compile_face

    def counting(face: Face) -> pdfdraw.FaceDrawing:
        compiled.append(face_form_name(face))
        return real_compile(face)

    in_use: list[pdfdraw.FacesInUse] = []

    class Watched(pdfdraw.FacesInUse):
        most = 0  # the most faces held at once

        def __enter__(self) -> pdfdraw.FacesInUse:
            in_use.append(self)
            return super().__enter__()

        def shown(self, key: tuple[str, frozenset[Path]], drawing: pdfdraw.FaceDrawing) -> None:
            super().shown(key, drawing)
            self.most = max(self.most, len(self.kept))

    monkeypatch.setattr(pdfdraw, "compile_face", counting)
    monkeypatch.setattr(pdfdraw, "DRAWINGS_KEPT", 24)
    monkeypatch.setattr(build, "FacesInUse", Watched)
    pdfdraw._drawings.clear()  # none compiled yet (earlier tests compiled these faces)
    write_game(lib, r, opts, tmp_path / "side-by-side", lambda *_: None)
    assert sorted(compiled) == sorted(distinct)
    assert len(pdfdraw._drawings) == 24
    # every showing was counted: each face was let go after its last, none is held now
    (faces,) = in_use
    assert not faces.left and not faces.kept and not pdfdraw._in_use

    def one_after_another(self: build.Staging, jobs: list[build.Written]) -> None:
        for job in jobs:
            real_side_by_side(self, [job])

    real_side_by_side = build.Staging._side_by_side
    compiled.clear()
    pdfdraw._drawings.clear()
    monkeypatch.setattr(build.Staging, "_side_by_side", one_after_another)
    write_game(lib, r, opts, tmp_path / "one-after-another", lambda *_: None)
    # one document after another holds every face until the last document; side by side,
    # those between the documents' places (here, where the orders differ: about half)
    assert sorted(compiled) == sorted(distinct)
    assert in_use[1].most == len(distinct) and in_use[0].most <= len(distinct) // 2
    assert _pdfs(tmp_path / "side-by-side") == _pdfs(tmp_path / "one-after-another")
    monkeypatch.undo()
    pdfdraw._drawings.clear()


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


def test_a_decks_files_written_by_two_processes_are_those_one_writes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With two processes allowed (`--jobs 2`), a deck's sheets of two papers and its card
    pages are shared out between this process and a forked copy of it, which writes the
    same bytes; a copy that fails has its files written again by this process, and a
    thread at work keeps the files in one process."""
    import os
    import threading

    from printgen import build
    from printgen.build import BuildOptions, write_game

    lib, games = load_all(Project(ROOT), ["susumuka-modoruka"])
    (r,) = render_all(lib, games, "both")

    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        pid = real_fork()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(build, "can_fork", lambda: True)
    monkeypatch.setattr(os, "fork", counted_fork)
    one = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    two = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=2)
    write_game(lib, r, one, tmp_path / "one", lambda *_: None)
    assert not forks
    write_game(lib, r, two, tmp_path / "two", lambda *_: None)
    assert len(forks) == 1
    expected = _pdfs(tmp_path / "one")
    assert len(expected) == 5 and _pdfs(tmp_path / "two") == expected  # (with 2 calibrations)

    # the copy fails (here: whatever it writes raises): this process writes its files
    parent = os.getpid()
    real_side_by_side = build.Staging._side_by_side

    def failing_in_the_copy(self: build.Staging, jobs: list[build.Written]) -> None:
        if os.getpid() != parent:
            raise RuntimeError("the copy fails")
        real_side_by_side(self, jobs)

    monkeypatch.setattr(build.Staging, "_side_by_side", failing_in_the_copy)
    write_game(lib, r, two, tmp_path / "again", lambda *_: None)
    assert len(forks) == 2 and _pdfs(tmp_path / "again") == expected
    monkeypatch.undo()

    # a thread at work (not a daemon) keeps this process from being copied
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        assert not build.can_fork()
    finally:
        release.set()
        worker.join()
