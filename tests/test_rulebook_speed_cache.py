"""What a long-running process (printgen watch) keeps between rebuilds is drawn anew when
what it is drawn from changes: diagrams, pieces' pictures, fonts, the worked examples'
replays, the PDF workers' picture streams."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

from printgen.build import BuildOptions, Project, books_due, game_folder, rulebook_sources
from printgen.model import load_game
from printgen.ops import Face, Rect, TextRun
from printgen.rulebook.assemble import replayed_examples
from printgen.rulebook.diagrams import (
    PICTURE_SCHEME,
    Drawing,
    default_font,
    diagram_html,
    forget_pictures,
    picture_key,
)
from printgen.rulebook.pdf import KeptPool, keep_pdf_workers, pdf_pool, release_pdf_workers
from rules_engine.core import DiagramCell, DiagramGrid

ROOT = Path(__file__).resolve().parent.parent


def grid(text: str, piece: str = "") -> DiagramGrid:
    cells = (
        DiagramCell(text=text, mark="active"),
        DiagramCell(piece=piece) if piece else DiagramCell(),
    )
    return DiagramGrid(
        {"ja": "盤", "en": "Board"}, ("1", "2"), (({"ja": "行", "en": "Row"}, cells),)
    )


def picture(html: str, folder: Path) -> bytes:
    name = html.split(f'src="{PICTURE_SCHEME}:', 1)[1].split('"', 1)[0]
    return (folder / name).read_bytes()


def test_a_changed_diagram_is_drawn_anew_and_a_kept_one_is_the_same_bytes(tmp_path: Path) -> None:
    drawing = Drawing(tmp_path, {}, default_font())
    forget_pictures()
    first = diagram_html(grid("A"), "en", drawing)
    kept = diagram_html(grid("A"), "en", drawing)
    other = diagram_html(grid("B"), "en", drawing)
    assert kept == first
    assert other != first
    forget_pictures()  # drawn from nothing kept: the same file
    assert diagram_html(grid("A"), "en", Drawing(tmp_path, {}, default_font())) == first
    assert picture(first, tmp_path) != picture(other, tmp_path)


def test_a_diagram_is_drawn_anew_when_a_piece_in_it_changes(tmp_path: Path) -> None:
    colour = {"c": "#cc0000"}

    def image(_piece: str, _back: bool, _lang: str) -> Image.Image:
        return Image.new("RGB", (60, 90), colour["c"])

    def key(piece: str, back: bool, lang: str) -> str:
        return f"{piece}:{back}:{lang}:{colour['c']}"

    forget_pictures()
    red = diagram_html(
        grid("A", "card"), "en", Drawing(tmp_path, {}, default_font(), {}, image, key)
    )
    colour["c"] = "#0000cc"
    blue = diagram_html(
        grid("A", "card"), "en", Drawing(tmp_path, {}, default_font(), {}, image, key)
    )
    assert red != blue
    assert picture(red, tmp_path) != picture(blue, tmp_path)


def test_a_font_saved_anew_changes_what_its_texts_are_drawn_from(tmp_path: Path) -> None:
    font = tmp_path / "font.ttf"
    shutil.copyfile(default_font().path, font)
    face = Face(
        "x",
        10,
        10,
        0,
        (Rect(0, 0, 5, 5, "#000000", None, 0), TextRun(1, 5, "A", "gothic", font, 8, "#000000")),
    )
    before = picture_key(face)
    assert picture_key(face) == before
    stat = font.stat()
    os.utime(font, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert picture_key(face) != before


def test_examples_are_replayed_when_the_game_changes_not_when_its_rulebook_does(
    tmp_path: Path,
) -> None:
    from printgen.model import load_game

    folder = tmp_path / "submarine-attack"
    shutil.copytree(ROOT / "components" / "submarine-attack", folder)
    first = replayed_examples(load_game(folder))
    section = next((folder / "rulebook").glob("*.yaml"))
    section.write_text(section.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert replayed_examples(load_game(folder)) is first
    example = sorted((folder / "examples").glob("*.yaml"))[0]
    example.write_text(example.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    again = replayed_examples(load_game(folder))
    assert again is not first
    assert [r.ok for r in again] == [r.ok for r in first]


def test_the_png_streams_kept_by_a_pdf_worker_are_those_weasyprint_makes() -> None:
    from weasyprint.images import RasterImage

    from printgen.rulebook.pdf import _keep_image_streams

    _keep_image_streams()
    kept = RasterImage._get_png_data
    encode = kept.__wrapped__
    one, two = Image.new("RGB", (40, 30), "#123456"), Image.new("RGB", (40, 30), "#654321")
    assert kept(one) == encode(one)
    assert kept(one) == encode(one)  # from the cache
    assert kept(two) == encode(two) != encode(one)


def test_kept_pdf_workers_outlive_a_build_until_released() -> None:
    keep_pdf_workers(2)
    try:
        pool = pdf_pool(2)
        assert isinstance(pool, KeptPool)
        first = pool.submit(os.getpid).result()
        pool.shutdown(cancel_futures=True)  # what a build does when it ends
        assert pdf_pool(2) is pool
        assert pool.submit(os.getpid).result() > 0 and first > 0
    finally:
        release_pdf_workers()
    fresh = pdf_pool(2)
    try:
        assert not isinstance(fresh, KeptPool)
    finally:
        fresh.shutdown()


def test_a_build_starts_its_pdf_workers_early_only_for_books_it_will_lay_out(
    tmp_path: Path,
) -> None:
    """The workers load WeasyPrint while the build reads and draws the games, when a book's
    sources changed since the last build; not for books made from what they were."""
    project = Project(ROOT)
    game = load_game(project.components / "squares2")
    opts = BuildOptions()
    assert books_due(project, game, opts, tmp_path, force=False)  # never built
    assert not books_due(project, game, BuildOptions(rulebooks=False), tmp_path, force=True)
    folder = game_folder(tmp_path, game, opts)
    folder.mkdir(parents=True)
    sources = rulebook_sources(project, game, opts)
    entries = [
        {"path": "rulebook-ja.pdf", "kind": "rulebook", "sources_sha256": sources},
        {"path": "player-aid-en.pdf", "kind": "player-aid", "sources_sha256": sources},
        {"path": "sheets-a4.pdf", "kind": "sheets", "sources_sha256": "other"},
    ]
    (folder / "manifest.json").write_text(json.dumps({"files": entries}))
    assert not books_due(project, game, opts, tmp_path, force=False)
    assert books_due(project, game, opts, tmp_path, force=True)
    entries[1]["sources_sha256"] = "the rules before an edit"
    (folder / "manifest.json").write_text(json.dumps({"files": entries}))
    assert books_due(project, game, opts, tmp_path, force=False)


def test_pdf_workers_started_early_have_weasyprint_loaded() -> None:
    pool = pdf_pool(2, started=True)
    try:
        assert all(pool.submit(_weasyprint_loaded).result() for _ in range(4))
    finally:
        pool.shutdown()


def _weasyprint_loaded() -> bool:
    import sys

    return "weasyprint" in sys.modules and "weasyprint.layout" in sys.modules


def _slow_warm_up() -> None:
    time.sleep(60)


def test_a_failing_build_stops_its_early_pdf_workers_at_once(
    project_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card's error ends the build as soon as it is found: the workers started to load
    WeasyPrint (here: a minute) are stopped, not waited for, and none is left running."""
    import multiprocessing

    from printgen.build import build
    from printgen.errors import ErrorList, PrintgenError
    from printgen.rulebook import pdf

    monkeypatch.setattr(pdf, "_worker_warm", _slow_warm_up)
    marker = project_copy / "layouts" / "squares2" / "marker.yaml"
    marker.write_text(marker.read_text().replace("{{ values.label }}", "{{ values.labell }}"))
    start = time.monotonic()
    with pytest.raises((PrintgenError, ErrorList), match="labell"):
        build(Project(project_copy), ["squares2"], project_copy / "out", BuildOptions(jobs=2))
    assert time.monotonic() - start < 30
    assert multiprocessing.active_children() == []
    assert not (project_copy / "out" / "squares2").exists()


@pytest.mark.parametrize(
    "game_id", ["subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot"]
)
def test_a_pieces_picture_size_is_known_without_drawing_it(game_id: str) -> None:
    """A diagram's rows are sized by its pieces' pictures: the size is worked out from the
    face (a diagram kept in the cache draws no piece), the same as the drawn picture's."""
    from printgen.layouts import load_library
    from printgen.rulebook.book import load_rulebook
    from printgen.rulebook.pictures import piece_images

    lib = load_library(ROOT / "layouts")
    pieces = piece_images(lib, load_rulebook(load_game(ROOT / "components" / game_id)))
    kinds = {}
    for piece_id, piece in pieces.by_id.items():  # one piece of each kind and layout
        kinds.setdefault((piece.kind, piece.component.layout, piece.back_layout), piece_id)
    for piece_id in kinds.values():
        for back in (False, True):
            for lang in ("ja", "en"):
                assert pieces.size(piece_id, back, lang) == pieces(piece_id, back, lang).size
