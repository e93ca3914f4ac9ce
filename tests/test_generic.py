"""A game defined only in test fixtures builds through the same code as the shipped games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from printgen.build import BuildOptions, Project, build, load_all

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny-game"


def tiny_project(tmp_path: Path) -> Project:
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(FIXTURE / "layouts" / "tiny-game", tmp_path / "layouts" / "tiny-game")
    shutil.copytree(FIXTURE / "components", tmp_path / "components")
    return Project(tmp_path)


def test_layout_extends_overrides_and_removes_parent_elements(tmp_path: Path) -> None:
    lib, _games = load_all(tiny_project(tmp_path), ["tiny-game"])
    layout = lib.layout("tiny-game/mini-card")
    ids = [e.id for e in layout.elements]
    assert ids == ["background", "panel", "title", "points"]
    assert layout.size == "mini" and layout.bleed == 3.0
    panel = next(e for e in layout.elements if e.id == "panel")
    assert panel.box == ["3mm", "3mm", "38mm", "57mm"] and panel.fill == "paper"


def test_made_up_game_builds_cards_and_tokens(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    (result,) = build(project, ["tiny-game"], tmp_path / "out", BuildOptions(papers=("a4",), jobs=1))
    manifest = json.loads((result.folder / "manifest.json").read_text(encoding="utf-8"))
    kinds = {c["id"]: (c["kind"], c["count"], c["size_mm"]) for c in manifest["components"]}
    assert kinds == {"star-card": ("card", 5, [44.0, 63.0]), "coin": ("token", 12, [25.0, 25.0])}
    sheets = next(f for f in manifest["files"] if f["kind"] == "sheets")
    fronts = [i for p in sheets["pages"] for i in p["items"] if i["face"] == "front"]
    assert len(fronts) == 17
    backs = [i for p in sheets["pages"] for i in p["items"] if i["face"] == "back"]
    assert {i["component"] for i in backs} == {"star-card"}
    assert len(list((result.folder / "png").glob("*.png"))) == 17
