"""A compiled face's form XObject is written by printgen (pdfdraw._Form) as reportlab writes
the form a canvas makes of the same operators: the same bytes, so the PDFs are the same."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from printgen.build import Project, load_all, render_all
from printgen.pdfdraw import ensure_form, face_drawing
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
