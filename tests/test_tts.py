"""Tabletop Simulator export (`build --tts`): the saved-object JSON and the images it names,
read back and checked against the components: grids, counts, every card's cell, the
hidden card's cell, boards and tokens."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from printgen.build import BuildOptions, Project, build, load_all, render_all
from printgen.model import Game
from printgen.ops import Face
from printgen.raster import draw_face
from printgen.render import piece_size
from printgen.tts import grid_for, write_tts

# One process builds the five games with their Tabletop Simulator files, once for every test
# here (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("tts")
ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
OPTS = BuildOptions(papers=("a4",), png=False, rulebooks=False, tts=True, jobs=1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, project: Project) -> Path:
    out = tmp_path_factory.mktemp("tts")
    build(project, GAMES, out, OPTS)
    return out


@pytest.fixture(scope="module")
def rendered(project: Project) -> dict[str, tuple[Game, dict[str, Face]]]:
    lib, games = load_all(project, GAMES)
    return {r.game.id: (r.game, r.faces) for r in render_all(lib, games, "both")}


def saved(built: Path, game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((built / game / "tts" / f"{game}.json").read_text("utf-8"))
    return data


def manifest(built: Path, game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((built / game / "manifest.json").read_text("utf-8"))
    return data


def sheet_entries(built: Path, game: str) -> dict[str, dict[str, Any]]:
    """The manifest's tts-sheet entries by file name."""
    return {
        Path(f["path"]).name: f
        for f in manifest(built, game)["files"]
        if f.get("kind") == "tts-sheet"
    }


def decks(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in data["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")]


def cards_of(deck: dict[str, Any]) -> list[dict[str, Any]]:
    return deck["ContainedObjects"] if deck["Name"] == "DeckCustom" else [deck]


def trimmed(face: Face, size: tuple[int, int]) -> Image.Image:
    """The face drawn by the raster code at the cell's size: drawn at twice that resolution,
    cut to the trim line, scaled down."""
    dpi = round(size[0] / face.width * 25.4 * 2)
    image = draw_face(face, dpi)
    s = dpi / 25.4
    b = face.bleed
    box = (round(b * s), round(b * s), round((b + face.width) * s), round((b + face.height) * s))
    return image.crop(box).resize(size, Image.Resampling.LANCZOS)


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0 to 255."""
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / len(stat.mean)


def cell(sheet: Image.Image, index: int, columns: int, size: tuple[int, int]) -> Image.Image:
    w, h = size
    x, y = (index % columns) * w, (index // columns) * h
    return sheet.crop((x, y, x + w, y + h))


@pytest.mark.parametrize("game", GAMES)
def test_files_are_listed_and_named_images_exist(built: Path, game: str) -> None:
    folder = built / game
    files = {f["path"]: f for f in manifest(built, game)["files"]}
    on_disk = {str(p.relative_to(folder)) for p in (folder / "tts").iterdir()}
    assert f"tts/{game}.json" in on_disk
    assert files[f"tts/{game}.json"]["kind"] == "tts-json"
    for rel in on_disk - {f"tts/{game}.json"}:
        assert files[rel]["kind"] == "tts-sheet", rel
    named: set[str] = set()

    def walk(obj: dict[str, Any]) -> None:
        for entry in obj.get("CustomDeck", {}).values():
            named.update([entry["FaceURL"], entry["BackURL"]])
        image = obj.get("CustomImage")
        if image:
            named.update(u for u in (image["ImageURL"], image["ImageSecondaryURL"]) if u)
        for child in obj.get("ContainedObjects", []):
            walk(child)

    for obj in saved(built, game)["ObjectStates"]:
        walk(obj)
    # relative names (no file:/// path, no folder), each a file of tts/, and every image used
    assert all("/" not in name and name.startswith(f"{game}-") for name in named)
    assert {f"tts/{name}" for name in named} == on_disk - {f"tts/{game}.json"}


@pytest.mark.parametrize("game", GAMES)
def test_decks_grids_counts_and_cells(
    built: Path, game: str, rendered: dict[str, tuple[Game, dict[str, Face]]]
) -> None:
    the_game, faces = rendered[game]
    entries = sheet_entries(built, game)
    pieces = {p.id: p for p in the_game.pieces}
    seen: Counter[str] = Counter()
    for deck in decks(saved(built, game)):
        cards = cards_of(deck)
        custom = deck["CustomDeck"]
        if deck["Name"] == "DeckCustom":
            assert deck["DeckIDs"] == [c["CardID"] for c in cards]  # in deck order
        for number, entry in custom.items():
            assert 2 <= entry["NumWidth"] <= 10 and 2 <= entry["NumHeight"] <= 7
            assert entry["Type"] == 0 and entry["BackIsHidden"] is True
            columns, rows = entry["NumWidth"], entry["NumHeight"]
            sheet_file = built / game / "tts" / entry["FaceURL"]
            sheet = Image.open(sheet_file)
            sheet.load()
            assert sheet.width <= 4096 and sheet.height <= 4096
            assert sheet.width % columns == 0 and sheet.height % rows == 0
            size = (sheet.width // columns, sheet.height // rows)
            listed = entries[entry["FaceURL"]]["cards"]
            assert len(listed) <= columns * rows - 1  # the last cell is the hidden card's
            ids = [c["CardID"] for c in cards if str(c["CardID"] // 100) == number]
            # each card's copies: as many as the component's count
            counts = Counter(listed[i % 100] for i in ids)
            for piece_id, n in counts.items():
                assert n == pieces[piece_id].count, piece_id
                seen[piece_id] += n
            for card in cards:
                if str(card["CardID"] // 100) == number:
                    assert card["Description"] == listed[card["CardID"] % 100]
            # every cell holds its card: closest to its own face of all the sheet's faces
            drawn = {pid: trimmed(faces[f"{pid}.front.both"], size) for pid in listed}
            for index, piece_id in enumerate(listed):
                got = cell(sheet, index, columns, size)
                own = difference(got, drawn[piece_id])
                assert own < 4.0, (entry["FaceURL"], index, piece_id, own)
                for other_id, other in drawn.items():
                    if (
                        other_id != piece_id
                        and faces[f"{other_id}.front.both"].ops
                        != faces[f"{piece_id}.front.both"].ops
                    ):
                        assert own < difference(got, other), (piece_id, other_id)
            # cells between the last card and the hidden one are blank
            for index in range(len(listed), columns * rows - 1):
                blank = cell(sheet, index, columns, size)
                assert blank.getextrema() == ((255, 255), (255, 255), (255, 255))
            # the hidden card's cell, the grid's last: the deck's back, or plain grey when
            # every card has its own back
            hidden = cell(sheet, columns * rows - 1, columns, size)
            backs = Image.open(built / game / "tts" / entry["BackURL"])
            backs.load()
            if entry["UniqueBack"]:
                assert backs.size == sheet.size
                assert hidden.getextrema() == ((128, 128), (128, 128), (128, 128))
                for index, piece_id in enumerate(listed):
                    back = trimmed(faces[f"{piece_id}.back.both"], size)
                    assert difference(cell(backs, index, columns, size), back) < 4.0
            else:
                assert backs.size == size
                assert difference(hidden, backs) < 1.0
                back_key = f"{listed[0]}.back.both"
                if back_key in faces:
                    assert difference(backs, trimmed(faces[back_key], size)) < 4.0
    wanted = {p.id: p.count for p in the_game.pieces if p.kind in ("card", "tile") and p.count}
    assert dict(seen) == wanted


@pytest.mark.parametrize("game", GAMES)
def test_boards_and_tokens(built: Path, game: str, project: Project) -> None:
    lib, (the_game,) = load_all(project, [game])
    objects = saved(built, game)["ObjectStates"]
    boards = {o["Description"]: o for o in objects if o["Name"] == "Custom_Board"}
    tokens: Counter[str] = Counter()
    for o in objects:
        for t in [o] if o["Name"] == "Custom_Token" else o.get("ContainedObjects", []):
            if t["Name"] == "Custom_Token":
                tokens[t["Description"]] += 1
                assert t["CustomImage"]["CustomToken"]["StandUp"] == (
                    the_game.piece(t["Description"]).kind == "pawn"
                )
    want_boards = [p for p in the_game.pieces if p.kind in ("board", "mat") and p.count]
    assert sorted(boards) == sorted(p.id for p in want_boards)
    for piece in want_boards:
        image = Image.open(built / game / "tts" / boards[piece.id]["CustomImage"]["ImageURL"])
        w, h = piece_size(lib, piece)
        assert max(image.size) <= 4096
        assert abs(image.width / image.height - w / h) < 0.01
    want_tokens = {
        p.id: p.count for p in the_game.pieces if p.kind in ("token", "marker", "pawn") and p.count
    }
    assert dict(tokens) == want_tokens
    for piece in the_game.pieces:
        if piece.id in want_tokens and piece.component.cut == "circle":
            image = Image.open(built / game / "tts" / f"{game}-{piece.id}.png")
            assert image.mode == "RGBA"
            assert image.getpixel((0, 0))[3] == 0  # a round token's corner is see-through
            assert image.getpixel((image.width // 2, image.height // 2))[3] == 255


def test_same_inputs_same_bytes(built: Path, project: Project, tmp_path: Path) -> None:
    build(project, ["squares2"], tmp_path, OPTS)
    for path in sorted((built / "squares2" / "tts").iterdir()):
        assert (tmp_path / "squares2" / "tts" / path.name).read_bytes() == path.read_bytes()


def test_only_what_changed_is_made_again(project_copy: Path) -> None:
    project = Project(project_copy)
    out = project_copy / "out"
    build(project, ["subzero"], out, OPTS)
    cards = project_copy / "components" / "subzero" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "count: 16" in text
    cards.write_text(text.replace("count: 16", "count: 15", 1), encoding="utf-8")
    (result,) = build(project, ["subzero"], out, OPTS)
    tts = [p for p in result.written if p.startswith("tts/")]
    assert tts == ["tts/subzero.json"]  # a count: the sheets are kept, the JSON made again
    deck = decks(saved(out, "subzero"))[0]
    assert len(deck["DeckIDs"]) == 55


def test_command_line_flag(project_copy: Path) -> None:
    shutil.rmtree(project_copy / "out", ignore_errors=True)
    result = subprocess.run(
        [
            *(sys.executable, "-m", "printgen", "--root", str(project_copy), "build"),
            *("squares2", "--paper", "a4", "--no-png", "--no-rulebook", "--tts"),
        ],
        capture_output=True,
        text=True,
        cwd=project_copy,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "tts-json" in result.stdout
    assert (project_copy / "out" / "squares2" / "tts" / "squares2.json").is_file()


def test_grid_bounds() -> None:
    for n in range(1, 70):
        grid = grid_for(n)
        assert 2 <= grid.columns <= 10 and 2 <= grid.rows <= 7
        assert n <= grid.hidden == grid.columns * grid.rows - 1
    with pytest.raises(ValueError):
        grid_for(70)


class FakeStaging:
    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, dict[str, Any]]] = {}

    def reuse(self, rel: str, inputs: str) -> bool:
        return False

    def put(self, rel: str, data: bytes, entry: dict[str, Any], inputs: str = "") -> None:
        self.files[rel] = (data, entry)


def test_a_deck_of_more_than_69_cards_takes_several_sheets(
    project: Project, rendered: dict[str, tuple[Game, dict[str, Face]]]
) -> None:
    """75 different cards (two copies each): one DeckCustom over two sheets, 69 and 6."""
    game, faces = rendered["kill-shot"]
    lib, _games = load_all(project, ["kill-shot"])
    model = game.piece("hunt-1-red")
    pieces = [dataclasses.replace(model, id=f"card-{i:02d}") for i in range(75)]
    many = {
        f"{p.id}.{side}.both": faces[f"hunt-1-red.{side}.both"]
        for p in pieces
        for side in ("front", "back")
    }
    staging = FakeStaging()
    write_tts(
        staging,
        "big",
        "Big",
        pieces,
        many,
        "both",
        lambda p: piece_size(lib, p),
        100,
        "",
        lambda _s, _n: None,
    )
    data = json.loads(staging.files["tts/big.json"][0])
    (deck,) = data["ObjectStates"]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert [(e["NumWidth"], e["NumHeight"]) for e in deck["CustomDeck"].values()] == [
        (10, 7),
        (4, 2),
    ]
    assert Counter(i // 100 for i in deck["DeckIDs"]) == {1: 138, 2: 12}
    assert deck["DeckIDs"] == sorted(deck["DeckIDs"])  # in the game's order
    assert max(i % 100 for i in deck["DeckIDs"] if i // 100 == 1) == 68  # 69: the hidden card's
    assert staging.files["tts/big-red.deck-faces-1.png"][1]["cards"][0] == "card-00"
    assert staging.files["tts/big-red.deck-faces-2.png"][1]["cards"] == [
        f"card-{i}" for i in range(69, 75)
    ]
