"""Print-ready sheets: sizes, margins, crop marks, duplex alignment, fonts, exports."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from tests_support import embedded_fonts

from printgen.build import BuildOptions, Project, build, impose, load_all, render_all
from printgen.imposition import Page
from printgen.ops import Face, TextRun
from printgen.pdfdraw import compile_face, draw_ops

MM = 72 / 25.4


def sheets(manifest: dict[str, Any], paper: str) -> dict[str, Any]:
    return next(f for f in manifest["files"] if f["kind"] == "sheets" and f["paper"] == paper)


def fronts_and_backs(entry: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pages = entry["pages"]
    pairs = [
        (pages[i], pages[i + 1]) for i in range(len(pages) - 1) if pages[i]["role"] == "fronts"
    ]
    assert all(back["role"] == "backs" for _front, back in pairs)
    return pairs


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_is_63_by_88_mm_and_5_mm_inside_the_paper(
    sub_build: Path, sub_manifest: dict[str, Any], paper: str
) -> None:
    entry = sheets(sub_manifest, paper)
    reader = PdfReader(sub_build / entry["path"])
    assert len(reader.pages) == len(entry["pages"])
    cards = {c["id"] for c in sub_manifest["components"] if c["kind"] == "card"}
    fronts = 0
    for page, info in zip(reader.pages, entry["pages"], strict=True):
        width, height = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        assert [round(width, 1), round(height, 1)] == [round(v, 1) for v in info["size_mm"]]
        for item in info["items"]:
            if item["component"] not in cards:
                continue
            x, y, w, h = item["trim_mm"]
            assert abs(w - 63.0) < 0.1 and abs(h - 88.0) < 0.1
            assert x >= 5 and y >= 5 and width - (x + w) >= 5 and height - (y + h) >= 5
            fronts += item["face"] == "front"
    assert fronts == 36
    assert max(len(p["items"]) for p in entry["pages"]) == 9  # 9-up poker cards


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_lies_behind_its_own_front_for_a_long_edge_flip(
    sub_manifest: dict[str, Any], paper: str
) -> None:
    entry = sheets(sub_manifest, paper)
    for front, back in fronts_and_backs(entry):
        page_w = front["size_mm"][0]
        backs = {(b["component"], b["copy"]): b["trim_mm"] for b in back["items"]}
        assert len(backs) == len(front["items"])
        for item in front["items"]:
            x, y, w, h = item["trim_mm"]
            bx, by, bw, bh = backs[(item["component"], item["copy"])]
            assert abs(bx - (page_w - x - w)) < 0.01 and abs(by - y) < 0.01 and (bw, bh) == (w, h)


def _plan(project: Project, paper: str, **options: Any) -> list[Page]:
    lib, games = load_all(project, ["submarine-attack"])
    (rendered,) = render_all(lib, games, "en")
    return impose(lib, rendered, paper, BuildOptions(papers=(paper,), **options))


def test_short_edge_flip_reverses_rows_and_offset_moves_backs(project: Project) -> None:
    pages = _plan(project, "a4", duplex="short")
    front, back = pages[0], pages[1]
    for f, b in zip(front.placements, back.placements, strict=True):
        assert abs(b.x - f.x) < 0.01 and abs(b.y - (front.height - f.y - f.height)) < 0.01
        assert b.rotate180
    shifted = _plan(project, "a4", offset=(1.0, 0.5))
    plain = _plan(project, "a4")
    for f, b in zip(plain[1].placements, shifted[1].placements, strict=True):
        # A back seen 1 mm right and 0.5 mm up from the front is moved back (mirrored page).
        assert abs(b.x - f.x - 1.0) < 1e-6 and abs(b.y - f.y + 0.5) < 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_continue_every_trim_edge_and_stay_off_faces(
    project: Project, paper: str
) -> None:
    for page in _plan(project, paper):
        if page.role in ("backs", "blank", "checklist"):
            assert not page.marks
        if page.role != "fronts":
            continue
        rects = [(p.x, p.y, p.width, p.height) for p in page.placements]
        for x, y, w, h in rects:
            for vx in (x, x + w):
                assert any(abs(m[0] - vx) < 1e-3 and abs(m[2] - vx) < 1e-3 for m in page.marks), (
                    paper,
                    vx,
                )
            for hy in (y, y + h):
                assert any(abs(m[1] - hy) < 1e-3 and abs(m[3] - hy) < 1e-3 for m in page.marks), (
                    paper,
                    hy,
                )
        for x1, y1, x2, y2 in page.marks:
            assert min(x1, x2, y1, y2) >= 5 - 1e-6 and max(x1, x2) <= page.width - 5 + 1e-6
            assert max(y1, y2) <= page.height - 5 + 1e-6
            for x, y, w, h in rects:
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                assert not (x < mx < x + w and y < my < y + h)


def test_fold_mode_puts_each_back_beside_its_front(project: Project) -> None:
    pages = _plan(project, "a4", fold=True)
    cards = [
        pl for p in pages for pl in p.placements if pl.side == "front" and "mat" not in pl.piece_id
    ]
    assert len(cards) == 36
    for page in (p for p in pages if p.role == "fold"):
        fronts = {(p.piece_id, p.copy): p for p in page.placements if p.side == "front"}
        for back in (p for p in page.placements if p.side == "back"):
            front = fronts[(back.piece_id, back.copy)]
            assert abs(back.x - (front.x + front.width)) < 1e-6 and back.y == front.y
        assert len(page.folds) == len(fronts)


def test_every_font_is_embedded(sub_build: Path) -> None:
    for pdf in sorted(sub_build.glob("*.pdf")):
        found = embedded_fonts(PdfReader(pdf))
        assert found, pdf.name
        assert all(found.values()), (pdf.name, found)


def test_card_pdf_pages_carry_trim_and_bleed_boxes(sub_build: Path) -> None:
    reader = PdfReader(sub_build / "cards.pdf")
    assert len(reader.pages) == 72 + 2  # every card face, and the two single-sided mats
    for page in reader.pages[:4]:
        trim = [float(v) / MM for v in page.trimbox]
        bleed = [float(v) / MM for v in page.bleedbox]
        assert abs(trim[2] - trim[0] - 63) < 0.1 and abs(trim[3] - trim[1] - 88) < 0.1
        assert abs(bleed[2] - bleed[0] - 69) < 0.1 and abs(bleed[3] - bleed[1] - 94) < 0.1


def test_card_pngs_are_815_by_1110_at_300_dpi(
    sub_build: Path, sub_manifest: dict[str, Any]
) -> None:
    # one PNG per distinct card front (11 kinds of card in each of two decks; copies share it)
    fronts = sorted(p for p in (sub_build / "png").glob("*.png") if "placement-mat" not in p.name)
    assert len(fronts) == 22
    with Image.open(fronts[0]) as image:
        assert image.size == (815, 1110)
        assert round(image.info["dpi"][0]) == 300
    images = [
        f
        for f in sub_manifest["files"]
        if f["kind"] == "card-image"
        and f["face"] == "front"
        and "placement-mat" not in f["component"]
    ]
    assert len(images) == 22 and all(f["bleed_mm"] == 3.0 and f["dpi"] == 300 for f in images)
    assert sum(f["copies"] for f in images) == 36


def test_manifest_lists_components_and_true_hashes(
    sub_build: Path, sub_manifest: dict[str, Any]
) -> None:
    assert sub_manifest["game"] == "submarine-attack"
    assert sum(c["count"] for c in sub_manifest["components"] if c["kind"] == "card") == 36
    assert all(
        c["size_mm"] == [63.0, 88.0] for c in sub_manifest["components"] if c["kind"] == "card"
    )
    mats = [c for c in sub_manifest["components"] if c["kind"] == "mat"]
    assert [m["count"] for m in mats] == [1, 1]
    for f in sub_manifest["files"]:
        data = (sub_build / f["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == f["sha256"]
    modes = {f["mode"] for f in sub_manifest["files"] if f["kind"] == "sheets"}
    assert modes == {"duplex-long"}


def test_rebuilding_into_another_folder_gives_identical_bytes(
    project: Project, sub_build: Path, tmp_path: Path
) -> None:
    build(project, ["submarine-attack"], tmp_path, BuildOptions(jobs=2, rulebooks=False))
    again = tmp_path / "submarine-attack"
    names = sorted(str(p.relative_to(sub_build)) for p in sub_build.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(again)) for p in again.rglob("*") if p.is_file())
    for name in names:
        assert (sub_build / name).read_bytes() == (again / name).read_bytes(), name


def _form_bytes(faces: list[Face], compiled: bool) -> bytes:
    """A PDF holding each face as a form: compiled and replayed, or drawn by the canvas."""
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(200, 200), invariant=1, pageCompression=0)
    for i, face in enumerate(faces):
        drawing = compile_face(face)
        c.beginForm(f"F{i}", 0, 0, drawing.width_pt, drawing.height_pt)
        if compiled and drawing.code is not None:
            c._doc.ensureMinPdfVersion("transparency")
            drawing.replay(c)
        else:
            draw_ops(c, face.ops, face.bleed, face.height + face.bleed)
        c.endForm()
        c.doForm(f"F{i}")
        c.showPage()
    c.save()
    return buffer.getvalue()


@pytest.mark.parametrize("game", ["submarine-attack", "subzero", "susumuka-modoruka"])
def test_a_face_compiled_once_draws_the_same_bytes_as_the_canvas(
    project: Project, game: str
) -> None:
    # Sheets and cards.pdf replay each face's compiled operators instead of drawing it
    # again: what they write must be exactly what reportlab's canvas draws.
    lib, games = load_all(project, [game])
    faces = list(render_all(lib, games, "both")[0].faces.values())
    assert any(op for face in faces for op in face.ops if isinstance(op, TextRun))
    assert _form_bytes(faces, compiled=True) == _form_bytes(faces, compiled=False)


def test_cards_pdf_holds_one_form_per_distinct_face(
    sub_build: Path, sub_manifest: dict[str, Any]
) -> None:
    entry = next(f for f in sub_manifest["files"] if f["kind"] == "card-pdf")
    drawings = {page["sha256"] for page in entry["pages"]}
    assert len(drawings) < len(entry["pages"])  # copies and backs repeat a drawing
    data = (sub_build / "cards.pdf").read_bytes()
    assert data.count(b"/Subtype /Form") == len(drawings)


def test_template_renders_are_reused_only_for_the_same_stable_values() -> None:
    """A render reading only frozen objects, text and numbers is reused for the same
    objects; other objects, 1 against True, and the random filter render again."""
    from printgen.templating import _rendered, render, stable_type

    @stable_type
    class Frozen:
        def __init__(self, colour: str) -> None:
            self.colour = colour

    red, blue = Frozen("red"), Frozen("blue")
    source = "{{ deck.colour }}-{{ n }}"
    assert render(source, {"deck": red, "n": 1}) == "red-1"
    kept = len(_rendered)
    assert render(source, {"deck": red, "n": 1}) == "red-1"
    assert len(_rendered) == kept  # the same render, reused
    assert render(source, {"deck": blue, "n": 1}) == "blue-1"
    assert render(source, {"deck": red, "n": True}) == "red-True"
    assert render("{{ values.x }}", {"values": {"x": 1}}) == "1"
    assert render("{{ values.x }}", {"values": {"x": 2}}) == "2"  # a dict is not stable
    random_source = "{{ [n] | random }}"
    assert render(random_source, {"n": 3}) == "3"
    assert not any(key[0] == random_source for key in _rendered)
