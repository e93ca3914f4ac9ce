"""A game defined only in test fixtures builds through the same code as the shipped games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from printgen.build import BuildOptions, Project, build, impose, load_all, render_all

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
    (result,) = build(
        project, ["tiny-game"], tmp_path / "out", BuildOptions(papers=("a4",), jobs=1)
    )
    manifest = json.loads((result.folder / "manifest.json").read_text(encoding="utf-8"))
    kinds = {c["id"]: (c["kind"], c["count"], c["size_mm"]) for c in manifest["components"]}
    assert kinds["star-card"] == ("card", 5, [44.0, 63.0]) and kinds["coin"] == (
        "token",
        12,
        [25.0, 25.0],
    )
    assert kinds["map"] == ("board", 1, [400.0, 300.0])
    sheets = next(f for f in manifest["files"] if f["kind"] == "sheets")
    fronts = [
        i
        for p in sheets["pages"]
        for i in p["items"]
        if i["face"] == "front" and i["component"] != "map"
    ]
    assert len(fronts) == 17
    backs = [i for p in sheets["pages"] for i in p["items"] if i["face"] == "back"]
    assert {i["component"] for i in backs} == {"star-card"}
    # one PNG per distinct face: the 5 star cards share one (and their deck a back), the
    # 12 coins another
    pngs = sorted(p.relative_to(result.folder).as_posix() for p in result.folder.rglob("*.png"))
    assert pngs == ["png/backs/stars.png", "png/coin.png", "png/map.png", "png/star-card.png"]
    images = {f["path"]: f for f in manifest["files"] if f["kind"] == "card-image"}
    assert images["png/coin.png"]["copies"] == 12 and images["png/star-card.png"]["copies"] == 5


def test_a_board_larger_than_the_paper_is_tiled_with_overlap_and_targets(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    lib, games = load_all(project, ["tiny-game"])
    (rendered,) = render_all(lib, games, "en")
    pages = impose(lib, rendered, "a4", BuildOptions(papers=("a4",)))
    tiles = [p for p in pages if p.role == "tile"]
    assert 4 <= len(tiles) <= 9
    windows = []
    for page in tiles:
        (placed,) = page.placements
        assert placed.clip is not None and placed.tile is not None
        cx, cy, cw, ch = placed.clip
        assert cx >= 5 and cy >= 5 and cx + cw <= page.width - 5 and cy + ch <= page.height - 5
        # The window in board coordinates (bleed excluded).
        left, bottom = max(cx - placed.x, 0.0), max(cy - placed.y, 0.0)
        right, top = min(cx + cw - placed.x, 400.0), min(cy + ch - placed.y, 300.0)
        windows.append((left, bottom, right, top))
        board_targets = {(round(x - placed.x, 2), round(y - placed.y, 2)) for x, y in page.targets}
        assert board_targets
        for bx, by in board_targets:
            assert left <= bx <= right and bottom <= by <= top
    # Every point of the board is on some tile, and neighbours overlap by 10 mm.
    for gx in range(0, 401, 10):
        for gy in range(0, 301, 10):
            assert any(w[0] <= gx <= w[2] and w[1] <= gy <= w[3] for w in windows), (gx, gy)
    lefts = sorted({round(w[0], 2) for w in windows})
    rights = sorted({round(w[2], 2) for w in windows})
    assert all(abs(rights[k] - lefts[k + 1] - 10) < 0.01 for k in range(len(lefts) - 1))
    # A target printed on one tile is printed at the same board point on its neighbour.
    seen: dict[tuple[float, float], int] = {}
    for page in tiles:
        for x, y in page.targets:
            key = (round(x - page.placements[0].x, 2), round(y - page.placements[0].y, 2))
            seen[key] = seen.get(key, 0) + 1
    assert all(n >= 2 for n in seen.values())


def test_checklist_lists_every_component_with_its_pages(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    lib, games = load_all(project, ["tiny-game"])
    (rendered,) = render_all(lib, games, "en")
    pages = impose(lib, rendered, "a4", BuildOptions(papers=("a4",)))
    assert [p.role for p in pages[:2]] == ["checklist", "blank"]
    table = pages[0].table
    assert [row[2] for row in table] == ["12", "1", "5"]
    for row, piece_id in zip(table, ["coin", "map", "star-card"], strict=True):
        numbers = {
            p.number
            for p in pages
            for pl in p.placements
            if pl.piece_id == piece_id and pl.side == "front"
        }
        assert str(min(numbers)) in row[4]
    # Duplex parity: every fronts page sits on an odd page number (the front of a sheet);
    # single-sided pages (tokens, board tiles) come after, printed one-sided, no blanks.
    assert all(p.number % 2 == 1 for p in pages if p.role in ("fronts", "checklist"))
    last_backs = max(p.number for p in pages if p.role == "backs")
    assert all(p.number > last_backs for p in pages if p.role in ("single", "tile"))
    assert [p.role for p in pages].count("blank") == 1
    coins = [pl for p in pages for pl in p.placements if pl.piece_id == "coin"]
    assert all(pl.cut == "circle" for pl in coins)
