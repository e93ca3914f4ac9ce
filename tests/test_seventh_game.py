"""A made-up seventh game built only from the authoring features (issue 14): one layout in %
for two card sizes, SVG icons and art, a deck from a spreadsheet, a board larger than the
paper, a rulebook without a rules engine. Its files carry the YAML language server's
schema line, and every one of them validates against its schema."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pypdf import PdfReader

from printgen.build import BuildOptions, Project, build, validate_games
from printgen.reference import kind_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "lantern-market"
GAME = "lantern-market"
MM = 72 / 25.4
pytestmark = pytest.mark.xdist_group("seventh")


def project(root: Path) -> Project:
    shutil.copytree(ROOT / "layouts", root / "layouts")
    shutil.copytree(FIXTURE / "layouts" / GAME, root / "layouts" / GAME)
    shutil.copytree(FIXTURE / "components", root / "components")
    return Project(root)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("seventh")
    proj = project(root)
    [result] = build(proj, [GAME], root / "out", BuildOptions(papers=("a4",)))
    manifest = json.loads((result.folder / "manifest.json").read_text("utf-8"))
    return proj, result.folder, manifest


def test_it_validates_without_a_warning(tmp_path: Path) -> None:
    [found] = validate_games(project(tmp_path), [GAME], "both")
    assert found.warnings == [] and found.errors == []


def test_one_layout_draws_two_card_sizes_and_the_spreadsheet_deck(
    built: tuple[Project, Path, dict[str, Any]],
) -> None:
    _proj, _folder, manifest = built
    comps = {c["id"]: c for c in manifest["components"]}
    # the stalls come from stalls.csv, with numbers as numbers
    assert comps["tea-stall"]["count"] == 3 and comps["lantern-stall"]["count"] == 1
    assert comps["silk-stall"]["values"] == {"cost": 4, "lanterns": 2, "art": "silk"}
    assert comps["spice-stall"]["name"] == {"ja": "香辛料屋", "en": "Spice stall"}
    # stalls at the layout's size, coins at one of the sizes it is made for
    assert comps["tea-stall"]["size_mm"] == [63.0, 88.0]
    assert comps["coin"]["size_mm"] == [44.0, 63.0]
    assert comps["board"]["size_mm"] == [480.0, 330.0]


def test_cards_are_cut_at_their_own_size_with_vector_art(
    built: tuple[Project, Path, dict[str, Any]],
) -> None:
    _proj, folder, _manifest = built
    reader = PdfReader(folder / "cards.pdf")
    sizes = set()
    for page in reader.pages:
        trim = page.trimbox
        sizes.add((round(float(trim.width) / MM, 1), round(float(trim.height) / MM, 1)))
    assert {(63.0, 88.0), (44.0, 63.0), (480.0, 330.0)} <= sizes

    def images(obj: Any) -> int:
        resources = obj.get("/Resources") or {}
        found = 0
        for x in (resources.get("/XObject") or {}).values():
            x = x.get_object()
            found += 1 if x.get("/Subtype") == "/Image" else images(x)
        return found

    # SVG icons and art are drawn as paths: no picture anywhere in the card pages
    assert sum(images(page) for page in reader.pages) == 0


def test_the_board_is_tiled_over_several_pages(
    built: tuple[Project, Path, dict[str, Any]],
) -> None:
    _proj, _folder, manifest = built
    sheets = next(f for f in manifest["files"] if f["kind"] == "sheets")
    board_pages = {
        n for n, p in enumerate(sheets["pages"]) for i in p["items"] if i["component"] == "board"
    }
    assert len(board_pages) >= 4


def test_the_rulebook_quotes_the_data_without_an_engine(
    built: tuple[Project, Path, dict[str, Any]],
) -> None:
    _proj, folder, _manifest = built
    for edition in ("ja", "en", "ja-en"):
        assert (folder / f"rulebook-{edition}.pdf").is_file()
    en = PdfReader(folder / "rulebook-en.pdf")
    assert round(float(en.pages[0].mediabox.width) / MM) == 148  # A5
    text = " ".join(" ".join(p.extract_text() or "" for p in en.pages).split())
    assert "8 stall cards and 12 silver coins" in text
    assert "The first to collect 12" in text and "a hand of 4 cards" in text


def test_every_file_of_the_game_validates_against_its_schema() -> None:
    checked = 0
    for path in sorted(FIXTURE.rglob("*.yaml")):
        rel = path.relative_to(FIXTURE).as_posix()
        kind = kind_of(rel)
        assert kind is not None, rel
        first = path.read_text("utf-8").splitlines()[0]
        found = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert found, f"{rel}: no schema line"
        schema_file = (path.parent / found[1]).resolve()
        assert schema_file == ROOT / "schemas" / kind.schema_name, rel
        schema = json.loads(schema_file.read_text("utf-8"))
        errors = list(
            jsonschema.Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text()))
        )
        assert errors == [], f"{rel}: {errors[0].message}"
        checked += 1
    assert checked == 10
