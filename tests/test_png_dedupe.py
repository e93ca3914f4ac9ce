"""One PNG per distinct face: copies and components drawn alike share one image, and the
manifest says which image shows which side of which component, and for how many copies."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from printgen.build import BuildOptions, Project, build, load_all, render_all
from printgen.exports import FaceUse, drawing_of, plan_pngs
from printgen.ops import Face
from printgen.raster import png_bytes

# One process builds the five games with their PNGs, once for every test here (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("png-dedupe")
ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
OPTS = BuildOptions(papers=("a4",), rulebooks=False)


def manifest_of(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return data


def pngs_in(folder: Path) -> dict[str, bytes]:
    """The game folder's PNG images (png/ and png/backs/), by path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted((folder / "png").rglob("*.png"))
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    build(Project(ROOT), GAMES, out, OPTS)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_two_pngs_are_alike_and_every_face_has_one(built: Path, game: str) -> None:
    folder = built / game
    manifest = manifest_of(folder)
    files = {f["path"]: f for f in manifest["files"]}
    on_disk = pngs_in(folder)
    # no two files with the same bytes, and every file on disk listed with its true hash
    digests = Counter(hashlib.sha256(data).hexdigest() for data in on_disk.values())
    assert [d for d, n in digests.items() if n > 1] == []
    images = {path for path, f in files.items() if f["kind"] == "card-image"}
    assert images == set(on_disk)
    for path, data in on_disk.items():
        assert files[path]["sha256"] == hashlib.sha256(data).hexdigest()
    # every face of every piece (read from the game itself, not the manifest) has its PNG,
    # and that PNG says it stands for the piece's copies of that face
    lib, (loaded,) = load_all(Project(ROOT), [game])
    (rendered,) = render_all(lib, [loaded], "both")
    components = {c["id"]: c for c in manifest["components"]}
    drawing_of_file: dict[str, str] = {}
    for piece in loaded.pieces:
        sides = ("front", "back") if piece.back_layout else ("front",)
        assert set(k for k, v in components[piece.id]["images"].items() if v) == set(sides)
        for side in sides:
            path = components[piece.id]["images"][side]
            assert path in on_disk, (piece.id, side)
            entry = files[path]
            assert {"component": piece.id, "face": side, "copies": piece.count} in entry["faces"]
            # one file, one drawing; the same drawing, the same file
            drawing = drawing_of(rendered.faces[f"{piece.id}.{side}.both"])
            assert drawing_of_file.setdefault(path, drawing) == drawing, path
    assert len(set(drawing_of_file.values())) == len(drawing_of_file) == len(on_disk)
    # and the file shows that face: the first piece's front, drawn again here
    piece = loaded.pieces[0]
    path = components[piece.id]["images"]["front"]
    assert on_disk[path] == png_bytes(rendered.faces[f"{piece.id}.front.both"], OPTS.dpi)


@pytest.mark.parametrize("game", GAMES)
def test_the_counts_add_up_to_each_components_count(built: Path, game: str) -> None:
    manifest = manifest_of(built / game)
    copies: Counter[tuple[str, str]] = Counter()
    for entry in manifest["files"]:
        if entry["kind"] != "card-image":
            continue
        assert entry["copies"] == sum(use["copies"] for use in entry["faces"]) > 0
        assert (entry["component"], entry["face"]) == (
            entry["faces"][0]["component"],
            entry["faces"][0]["face"],
        )
        for use in entry["faces"]:
            copies[(use["component"], use["face"])] += use["copies"]
    for component in manifest["components"]:
        for face, path in component["images"].items():
            if path is not None:
                assert copies[(component["id"], face)] == component["count"], component["id"]
    total = sum(
        c["count"] * sum(1 for p in c["images"].values() if p) for c in manifest["components"]
    )
    assert sum(copies.values()) == total


def test_subzero_writes_each_drawing_once(built: Path) -> None:
    """142 identical-file copies before: now one file per drawing, the action deck's back
    once, named after its deck."""
    manifest = manifest_of(built / "subzero")
    on_disk = pngs_in(built / "subzero")
    faces = sum(
        c["count"] * sum(1 for p in c["images"].values() if p) for c in manifest["components"]
    )
    assert faces >= 142 and len(on_disk) < faces / 4
    backs = {c["images"]["back"] for c in manifest["components"] if c["deck"] == "action"}
    assert backs == {"png/backs/action.png"}
    with Image.open(built / "subzero" / "png" / "backs" / "action.png") as image:
        assert round(image.info["dpi"][0]) == 300


def copy_game(target: Path, game: str) -> Project:
    shutil.copytree(ROOT / "layouts", target / "layouts")
    shutil.copytree(ROOT / "components" / game, target / "components" / game)
    return Project(target)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


GAME = "submarine-attack"
TRANSPORT_5 = "    count: 1\n    values: {ships: 5}\n"


def test_editing_one_card_rewrites_only_its_pngs(tmp_path: Path) -> None:
    project = copy_game(tmp_path, GAME)
    out = tmp_path / "out"
    build(project, [GAME], out, OPTS)
    first = pngs_in(out / GAME)
    cards = project.components / GAME / "cards.yaml"

    # transport 5 (one card entry, one card in each of the two decks) shows 6 ships
    edit(cards, TRANSPORT_5, "    count: 1\n    values: {ships: 6}\n")
    [result] = build(project, [GAME], out, OPTS)
    made = {p for p in result.written if p.endswith(".png")}
    assert made == {"png/transport-5-red.png", "png/transport-5-blue.png"}
    second = pngs_in(out / GAME)
    assert second.keys() == first.keys()
    assert [p for p in first if first[p] != second[p]] == sorted(made)
    report = json.loads((out / GAME / "changes.json").read_text(encoding="utf-8"))
    pictures = {(i["before"], i["after"]) for i in report["images"]}
    assert ("changes/before/png/transport-5-red.png", "png/transport-5-red.png") in pictures
    assert (out / GAME / "changes/before/png/transport-5-red.png").read_bytes() == first[
        "png/transport-5-red.png"
    ]

    # one more transport 1, one fewer transport 2: no picture changes, only the counts
    edit(cards, "    count: 3\n    values: {ships: 1}\n", "    count: 4\n    values: {ships: 1}\n")
    edit(cards, "    count: 2\n    values: {ships: 2}\n", "    count: 1\n    values: {ships: 2}\n")
    [result] = build(project, [GAME], out, OPTS)
    assert [p for p in result.written if p.endswith(".png")] == []
    entries = {f["path"]: f for f in manifest_of(out / GAME)["files"]}
    assert entries["png/transport-1-red.png"]["copies"] == 4
    assert entries["png/transport-2-red.png"]["copies"] == 1
    assert entries["png/backs/red.png"]["copies"] == 18
    assert {"component": "transport-1-red", "face": "back", "copies": 4} in entries[
        "png/backs/red.png"
    ]["faces"]


def test_a_card_drawn_like_another_shares_its_png_and_the_change_is_shown(
    tmp_path: Path,
) -> None:
    project = copy_game(tmp_path, GAME)
    out = tmp_path / "out"
    build(project, [GAME], out, OPTS)
    first = pngs_in(out / GAME)
    # transport 5 becomes a second transport 4: the same drawing, so the same file
    cards = project.components / GAME / "cards.yaml"
    edit(cards, TRANSPORT_5, "    count: 1\n    values: {ships: 4}\n")
    [result] = build(project, [GAME], out, OPTS)
    assert [p for p in result.written if p.endswith(".png")] == []
    after = pngs_in(out / GAME)
    assert set(first) - set(after) == {"png/transport-5-red.png", "png/transport-5-blue.png"}
    components = {c["id"]: c for c in manifest_of(out / GAME)["components"]}
    assert components["transport-5-red"]["images"]["front"] == "png/transport-4-red.png"
    entries = {f["path"]: f for f in manifest_of(out / GAME)["files"]}
    assert entries["png/transport-4-red.png"]["copies"] == 2
    report = json.loads((out / GAME / "changes.json").read_text(encoding="utf-8"))
    [image] = [i for i in report["images"] if i["after"] == "png/transport-4-red.png"]
    assert image["before"] == "changes/before/png/transport-5-red.png"
    assert (out / GAME / image["before"]).read_bytes() == first["png/transport-5-red.png"]


def face(key: str, width: float) -> Face:
    return Face(key, width, 88.0, 3.0, ())


def use(component: str, deck: str | None, side: str, copies: int = 1) -> FaceUse:
    return FaceUse(component, deck, side, copies)


def test_names_follow_the_component_or_its_deck() -> None:
    plan = plan_pngs(
        [
            (use("a", "red", "front", 2), face("a.front", 60)),
            (use("a", "red", "back", 2), face("a.back", 1)),
            (use("b", "red", "front"), face("b.front", 61)),
            (use("b", "red", "back"), face("b.back", 1)),
            # a deck whose cards have two different backs: the deck's name once
            (use("c", "blue", "front"), face("c.front", 62)),
            (use("c", "blue", "back"), face("c.back", 2)),
            (use("d", "blue", "front"), face("d.front", 63)),
            (use("d", "blue", "back"), face("d.back", 3)),
            # drawn like a's front: shares its file
            (use("e", None, "front", 3), face("e.front", 60)),
            # a token whose back is drawn like its front
            (use("f", None, "front"), face("f.front", 64)),
            (use("f", None, "back"), face("f.back", 64)),
            # a back drawn like another deck's back, in no deck
            (use("g", None, "front"), face("g.front", 65)),
            (use("g", None, "back"), face("g.back", 1)),
        ]
    )
    by_path = {p.path: p for p in plan}
    assert set(by_path) == {
        "png/a.png",
        "png/b.png",
        "png/c.png",
        "png/d.png",
        "png/f.png",
        "png/g.png",
        "png/backs/red.png",
        "png/backs/blue.png",
        "png/backs/d.png",
    }
    assert by_path["png/a.png"].copies == 5
    assert by_path["png/backs/red.png"].stands_for() == [
        {"component": "a", "face": "back", "copies": 2},
        {"component": "b", "face": "back", "copies": 1},
        {"component": "g", "face": "back", "copies": 1},
    ]
    assert [u.face for u in by_path["png/f.png"].uses] == ["front", "back"]
    # a name taken by another drawing gets a number
    clash = plan_pngs(
        [
            (use("x", "x", "back"), face("x.back", 1)),
            (use("y", "x", "back"), face("y.back", 2)),
            (use("x", None, "back"), face("z.back", 3)),
        ]
    )
    assert [p.path for p in clash] == ["png/backs/x.png", "png/backs/y.png", "png/backs/x-2.png"]


def test_drawings_that_make_the_same_pixels_share_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Operations may differ where nothing shows: the bytes decide, the first name stays."""
    import printgen.build

    def same_pixels(faces: list[Face], dpi: int, jobs: int) -> Any:
        for f in faces:
            yield f.key, b"\x89PNG\r\n\x1a\n the same picture"

    monkeypatch.setattr(printgen.build, "render_pngs", same_pixels)
    project = copy_game(tmp_path, GAME)
    [result] = build(project, [GAME], tmp_path / "out", OPTS)
    folder = tmp_path / "out" / GAME
    manifest = manifest_of(folder)
    [entry] = [f for f in manifest["files"] if f["kind"] == "card-image"]
    assert list(pngs_in(folder)) == [entry["path"]] == ["png/transport-1-red.png"]
    faces = sum(
        c["count"] * len([p for p in c["images"].values() if p]) for c in manifest["components"]
    )
    assert entry["copies"] == sum(u["copies"] for u in entry["faces"]) == faces
    assert {p for c in manifest["components"] for p in c["images"].values() if p} == {entry["path"]}
    assert [p for p in result.written if p.endswith(".png")] == [entry["path"]]
