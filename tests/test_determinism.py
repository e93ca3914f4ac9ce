"""Same inputs, same bytes: wherever the project lies, with or without optional libraries."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printgen.build import BuildOptions, Project, build

ROOT = Path(__file__).resolve().parent.parent
GAME = "submarine-attack"


def copy_project(target: Path) -> Path:
    target.mkdir(parents=True)
    shutil.copytree(ROOT / "layouts", target / "layouts")
    shutil.copytree(ROOT / "components" / GAME, target / "components" / GAME)
    return target


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_two_project_folders_build_the_same_bytes(tmp_path: Path) -> None:
    """Sheets, card pages, PNGs, rulebooks and manifest: nothing depends on the folder."""
    opts = BuildOptions(papers=("a4",), jobs=1)
    one = copy_project(tmp_path / "one")
    two = copy_project(tmp_path / "somewhere" / "else" / "two")
    build(Project(one), [GAME], one / "out", opts)
    build(Project(two), [GAME], two / "out", opts)
    first, second = files_of(one / "out"), files_of(two / "out")
    assert any(name.endswith("rulebook-ja.pdf") for name in first)
    assert any(name.endswith(".png") for name in first)
    assert first.keys() == second.keys()
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, differ


def test_rulebooks_do_not_depend_on_the_system_font_subsetter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WeasyPrint subsets fonts with HarfBuzz when the system has it, else with fontTools
    (which stamps the time into each font). printgen embeds its own subsets, so both
    machines make the same bytes: build once as this machine is, once with the system
    subsetter hidden."""
    import weasyprint.pdf.fonts as weasy_fonts

    opts = BuildOptions(papers=("a4",), png=False, jobs=1)
    root = copy_project(tmp_path / "project")
    build(Project(root), [GAME], root / "as-is", opts)
    monkeypatch.setattr(weasy_fonts, "harfbuzz_subset", None)
    build(Project(root), [GAME], root / "without", opts)
    for edition in ("ja", "en", "ja-en"):
        name = f"{GAME}/rulebook-{edition}.pdf"
        assert (root / "as-is" / name).read_bytes() == (root / "without" / name).read_bytes()


def test_a_folders_fingerprint_reads_its_files_by_name_and_bytes_only(tmp_path: Path) -> None:
    """Every file below the folder, by its path and bytes, in the order of its path's parts;
    not Python's caches nor an office program's lock file beside an open spreadsheet."""
    from printgen.build import files_digest

    folder = tmp_path / "game"
    for rel, text in {
        "a/b.yaml": "1",
        "a-b.yaml": "2",
        "a/c/d.csv": "3",
        ".hidden": "4",
    }.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    first = files_digest(folder)
    for noise in ("__pycache__/x.pyc", "a/__pycache__/y.pyc", "~$cards.xlsx", "a/.~lock.t.csv#"):
        (folder / noise).parent.mkdir(parents=True, exist_ok=True)
        (folder / noise).write_text("noise")
    (folder / "empty").mkdir()
    assert files_digest(folder) == first
    assert files_digest(folder, lambda rel: rel.parts[0] == "a") != first
    (folder / "a" / "b.yaml").write_text("5")
    assert files_digest(folder) != first
    (folder / "a" / "b.yaml").write_text("1")
    (folder / "a" / "b.yaml").rename(folder / "a" / "e.yaml")
    assert files_digest(folder) != first
    assert files_digest(tmp_path / "missing") == files_digest(folder / "empty")
