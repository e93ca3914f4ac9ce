"""Rulebooks: three editions quoting the game data, checked examples, stale translations."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from tests_support import embedded_fonts

from printgen.build import BuildOptions, Project, build

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny-game"
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def tiny(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(FIXTURE / "layouts" / "tiny-game", tmp_path / "layouts" / "tiny-game")
    shutil.copytree(FIXTURE / "components", tmp_path / "components")
    return tmp_path


def make(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "printgen",
            "--root",
            str(root),
            "build",
            "--no-png",
            "--paper",
            "a4",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )


def text_of(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_three_editions_with_bookmarks_embedded_fonts_and_real_text(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    result = make(root)
    assert result.returncode == 0, result.stderr
    folder = root / "out" / "tiny-game"
    for edition in ("ja", "en", "ja-en"):
        pdf = folder / f"rulebook-{edition}.pdf"
        reader = PdfReader(pdf)
        assert len(reader.pages) >= 3  # cover, contents, then sections that flow
        assert len(reader.outline) >= 5
        text = text_of(pdf)
        assert "{{" not in text and "{%" not in text and "}}" not in text
        cjk = len(CJK.findall(text))
        if edition == "en":
            assert "small game of 5 star cards and 12 coins" in text.replace("\n", " ")
            assert cjk < 0.02 * len(text)
        else:
            assert "星のカード" in text and cjk > 50
        found = embedded_fonts(reader)
        assert found and all(found.values()), found


def test_a_rule_change_changes_every_place_the_rulebook_states_it(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    edit(root / "components/tiny-game/game.yaml", "  target: 12", "  target: 17")
    edit(root / "components/tiny-game/pieces.yaml", "    count: 5", "    count: 7")
    result = make(root)
    assert result.returncode == 0, result.stderr
    for edition in ("ja", "en"):
        text = text_of(root / "out" / "tiny-game" / f"rulebook-{edition}.pdf").replace("\n", "")
        assert "17" in text and "12 点" not in text and "12 points" not in text
    en = text_of(root / "out" / "tiny-game" / "rulebook-en.pdf").replace("\n", " ")
    assert "The first to collect 17 points wins" in en and "7 star cards" in en


def test_editing_one_language_reports_the_other_as_stale(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    edit(root / "components/tiny-game/rulebook/play.yaml", "コインを1枚取る。", "コインを2枚取る。")
    result = make(root)
    assert result.returncode == 0, result.stderr
    assert "play.yaml" in result.stderr and "the en text is stale" in result.stderr
    strict = make(root, "--strict", "--force")
    assert strict.returncode == 1 and "the en text is stale" in strict.stderr
    sync = subprocess.run(
        [
            sys.executable,
            "-m",
            "printgen",
            "--root",
            str(root),
            "rulebook-sync",
            "tiny-game",
            "play",
        ],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
    assert sync.returncode == 0
    assert make(root, "--strict", "--force").returncode == 0


def test_the_rulebook_fetches_nothing_remote(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    edit(
        root / "components/tiny-game/rulebook/play.yaml",
        "    - コインを1枚取る。",
        "    - コインを1枚取る。\n\n    ![logo](https://example.com/logo.png)",
    )
    result = make(root)
    assert result.returncode == 1
    assert re.search(r"play.yaml:\d+:\d+: images in section text are not read", result.stderr)
    assert "Traceback" not in result.stderr


def test_a_template_typo_names_the_section_file(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    edit(
        root / "components/tiny-game/rulebook/play.yaml",
        "{{ rules.hand_size }}枚",
        "{{ rules.hand_sise }}枚",
    )
    result = make(root)
    assert result.returncode == 1
    assert re.search(
        r"play.yaml:\d+:\d+: rulebook text \(ja\): the game's rules .* no rule 'hand_sise'; "
        r"did you mean 'hand_size'\?",
        result.stderr,
    ), result.stderr


def test_rulebooks_rebuild_byte_identical(tmp_path: Path) -> None:
    root = tiny(tmp_path)
    opts = BuildOptions(papers=("a4",), png=False, jobs=1)
    build(Project(root), ["tiny-game"], root / "one", opts)
    build(Project(root), ["tiny-game"], root / "two", opts)
    for edition in ("ja", "en", "ja-en"):
        name = f"tiny-game/rulebook-{edition}.pdf"
        assert (root / "one" / name).read_bytes() == (root / "two" / name).read_bytes()


@pytest.fixture()
def submarine(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(
        ROOT / "components" / "submarine-attack", tmp_path / "components" / "submarine-attack"
    )
    return tmp_path


def test_a_failing_example_is_a_fork_naming_example_and_step(submarine: Path) -> None:
    """The components are built, the rulebooks are not (nothing stale is passed off as
    current), the message names the example, its step and key, and the ways forward."""
    edit(
        submarine / "components/submarine-attack/examples/07-seed-round-won-by-sinkings.yaml",
        "round_points: {red: 6, blue: 0}",
        "round_points: {red: 9, blue: 0}",
    )
    before = sorted(submarine.rglob("*"))
    result = make(submarine)
    assert result.returncode == 1
    assert "07-seed-round-won-by-sinkings.yaml" in result.stderr and "step 4" in result.stderr
    assert "round_points" in result.stderr and "Traceback" not in result.stderr
    assert "--draft" in result.stderr and "the rulebooks were not built" in result.stderr
    built = submarine / "out" / "submarine-attack"
    assert (built / "cards.pdf").is_file() and not list(built.glob("rulebook-*.pdf"))
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    [failed] = [e for e in manifest["examples"] if not e["ok"]]
    assert failed["file"] == "examples/07-seed-round-won-by-sinkings.yaml"
    assert sorted(p for p in submarine.rglob("*") if "out" not in p.parts) == [
        p for p in before if "out" not in p.parts
    ]
