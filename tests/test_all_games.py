"""Every shipped game prints as the foundation promises: stated counts, sizes, margins,
backs behind fronts, crop marks and embedded fonts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from tests_support import embedded_fonts

from printgen.build import BuildOptions, Project, build

ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
GAMES = ("subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot")
STATED = {
    "subzero": {"card": 56, "token": 76, "pawn": 4, "board": 1, "mat": 4},
    "squares2": {"tile": 20, "marker": 7},
    "submarine-attack": {"card": 36},
    "kill-shot": {"card": 110},
    "susumuka-modoruka": {"board": 1},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("all")
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    build(Project(ROOT), list(GAMES), out, opts)
    return out


def manifest(built: Path, game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((built / game / "manifest.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", GAMES)
def test_stated_counts(built: Path, game: str) -> None:
    kinds: dict[str, int] = {}
    for component in manifest(built, game)["components"]:
        kinds[component["kind"]] = kinds.get(component["kind"], 0) + component["count"]
    for kind, count in STATED[game].items():
        assert kinds.get(kind) == count, (game, kind, kinds)


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_is_true_size_inside_the_margins_with_its_back_behind_it(
    built: Path, game: str
) -> None:
    m = manifest(built, game)
    sizes = {c["id"]: c["size_mm"] for c in m["components"]}
    for entry in (f for f in m["files"] if f["kind"] == "sheets"):
        reader = PdfReader(built / game / entry["path"])
        pages = entry["pages"]
        assert len(reader.pages) == len(pages)
        for index, (page, info) in enumerate(zip(reader.pages, pages, strict=True)):
            width, height = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
            assert abs(width - info["size_mm"][0]) < 0.1 and abs(height - info["size_mm"][1]) < 0.1
            for item in info["items"]:
                x, y, w, h = item["trim_mm"]
                assert [round(w, 1), round(h, 1)] == [round(v, 1) for v in sizes[item["component"]]]
                if "window_mm" in item:  # a tile of a piece larger than the paper
                    x, y, w, h = item["window_mm"]
                assert x >= 5 - 1e-6 and y >= 5 - 1e-6, (game, item)
                assert x + w <= width - 5 + 1e-6 and y + h <= height - 5 + 1e-6, (game, item)
            if info["role"] == "backs":
                front = pages[index - 1]
                assert front["role"] == "fronts"
                where = {(i["component"], i["copy"]): i["trim_mm"] for i in front["items"]}
                for item in info["items"]:
                    fx, fy, fw, fh = where[(item["component"], item["copy"])]
                    bx, by, _bw, _bh = item["trim_mm"]
                    long_edge_portrait = height >= width
                    if long_edge_portrait:
                        assert abs(bx - (width - fx - fw)) < 0.01 and abs(by - fy) < 0.01
                    else:
                        assert abs(by - (height - fy - fh)) < 0.01 and abs(bx - fx) < 0.01
        fonts = embedded_fonts(reader)
        assert fonts and all(fonts.values()), (game, fonts)


@pytest.mark.parametrize("game", GAMES)
def test_every_sheets_file_starts_with_its_checklist(built: Path, game: str) -> None:
    for entry in (f for f in manifest(built, game)["files"] if f["kind"] == "sheets"):
        assert entry["pages"][0]["role"] == "checklist"
        text = PdfReader(built / game / entry["path"]).pages[0].extract_text()
        assert "Checklist" in text
