"""`printgen new GAME`: a skeleton that validates with no warning and builds at once, and
refusals that write nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from printgen.cli import main
from printgen.model import load_game
from printgen.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4


def project(root: Path) -> Path:
    shutil.copytree(ROOT / "layouts", root / "layouts")
    (root / "components").mkdir()
    return root


def run(root: Path, *args: str) -> None:
    main(["--root", str(root), *args])


def tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def test_new_game_validates_and_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    run(root, "new", "mygame", "--players", "3", "--card-size", "mini", "--date", "2026-01-01")
    out = capsys.readouterr().out.splitlines()
    game = root / "components" / "mygame"
    for name in ("game.yaml", "cards.yaml", "board.yaml", "README.md", "rulebook/book.yaml"):
        assert f"wrote {game / name}" in out or any(line.endswith(name) for line in out)
    assert out[-1].startswith("next: printgen") and "build mygame" in out[-1]
    assert "preview mygame" in out[-1]
    written = [line.removeprefix("wrote ") for line in out if line.startswith("wrote ")]
    assert all(Path(p).is_file() for p in written)
    # every YAML file names its schema, relative to itself, and the schema exists
    for path in [*game.rglob("*.yaml"), *(root / "layouts" / "mygame").glob("*.yaml")]:
        first = path.read_text("utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema.is_file() and schema.parent == (root / "schemas").resolve(), path
        jsonschema = pytest.importorskip("jsonschema")
        jsonschema.validate(yaml.safe_load(path.read_text("utf-8")), json.loads(schema.read_text()))

    loaded = load_game(game)
    assert (loaded.info.players.min, loaded.info.players.max) == (3, 3)
    assert loaded.info.rule_versions[0].date == "2026-01-01"
    assert [p.id for p in loaded.pieces if p.kind == "token"] == [
        "marker-1",
        "marker-2",
        "marker-3",
    ]
    rb = load_rulebook(loaded)
    assert set(rb.sections) == {"overview", "how-to-play"}
    assert all(not s.stale() and s.section.ja.translates for s in rb.sections.values())

    run(root, "validate", "mygame")
    captured = capsys.readouterr()
    assert captured.out.startswith("ok mygame:") and "warning" not in captured.err
    run(root, "build", "mygame", "--out", str(root / "out"), "--no-png")
    captured = capsys.readouterr()
    assert "warning" not in captured.err and "error" not in captured.err
    built = root / "out" / "mygame"

    def sizes(name: str) -> set[tuple[int, int]]:
        pages = PdfReader(built / name).pages
        return {
            (round(float(p.mediabox.width) / MM), round(float(p.mediabox.height) / MM))
            for p in pages
        }

    assert sizes("rulebook-ja.pdf") == sizes("rulebook-en.pdf") == {(148, 210)}
    assert sizes("rulebook-ja-en.pdf") == {(210, 297)}
    # the 420 x 297 mm board does not fit A4: it is tiled, on pages turned as fits best
    manifest = json.loads((built / "manifest.json").read_text("utf-8"))
    text = json.dumps(manifest)
    assert "board" in text
    assert sizes("sheets-a4-duplex-long.pdf") <= {(210, 297), (297, 210)}
    cards = PdfReader(built / "cards.pdf").pages
    widths = {round(float(p.trimbox.width) / MM) for p in cards}
    assert {44, 420, 20} <= widths  # the mini cards, the board, the markers
    sheets = PdfReader(built / "sheets-a4-duplex-long.pdf")
    checklist = sheets.pages[0].extract_text()
    assert "Game board" in checklist and "Small star" in checklist
    # the board's pieces: more than one page of the sheets shows part of it
    board_pages = [
        i for i, page in enumerate(sheets.pages) if "Score track" in (page.extract_text() or "")
    ]
    assert len(board_pages) >= 2


def test_same_arguments_same_files(tmp_path: Path) -> None:
    a, b = project(tmp_path / "a"), project(tmp_path / "b")
    for root in (a, b):
        run(root, "new", "twin", "--date", "2026-02-03")
    files = [p for p in tree(a) if (a / p).is_file() and not p.startswith("layouts/base")]
    assert files and all((a / p).read_bytes() == (b / p).read_bytes() for p in files)
    game = load_game(a / "components" / "twin")
    assert (game.info.players.min, game.info.players.max) == (2, 4)
    assert "size: poker" in (a / "layouts" / "twin" / "card.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "existing"], "components/existing already exists"),
        (["new", "Bad_Id"], "'Bad_Id' is not a game id"),
        (["new", "ok-game", "--card-size", "huge"], "unknown card size 'huge': use one of poker"),
        (["new", "ok-game", "--card-size", "token-20"], "too small"),
        (["new", "ok-game", "--players", "5-2"], "--players '5-2'"),
        (["new", "ok-game", "--players", "two"], "--players 'two'"),
        (["new", "ok-game", "--date", "tomorrow"], "--date 'tomorrow'"),
        (["new", "base"], "layouts/base already exists"),
    ],
)
def test_refusals_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    root = project(tmp_path)
    (root / "components" / "existing").mkdir()
    (root / "components" / "existing" / "notes.txt").write_text("mine", "utf-8")
    before = tree(root)
    with pytest.raises(SystemExit) as exit_:
        run(root, *args)
    assert exit_.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], err
    assert "Traceback" not in err[0]
    assert tree(root) == before
    assert (root / "components" / "existing" / "notes.txt").read_text("utf-8") == "mine"
