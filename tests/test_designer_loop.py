"""The designer's loop (issue 13): one meaning for the rules, a failing example as a fork,
outputs rebuilt only when what they read changed, and a report of what changed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from printgen.build import BuildOptions, Project, build
from printgen.changes import compare
from printgen.cli import main, report_builds
from printgen.errors import ErrorList, PrintgenError
from printgen.model import load_game
from printgen.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parent.parent
GAME = "submarine-attack"
pytestmark = pytest.mark.xdist_group("loop")


def copy_game(root: Path, game: str = GAME) -> Path:
    shutil.copytree(ROOT / "components" / game, root / "components" / game)
    if not (root / "layouts").exists():
        shutil.copytree(ROOT / "layouts", root / "layouts")
    return root / "components" / game


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def manifest(out: Path, game: str = GAME) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / game / "manifest.json").read_text("utf-8"))
    return data


def pdf_text(path: Path, pages: slice = slice(None)) -> str:
    return "\n".join(p.extract_text() or "" for p in PdfReader(path).pages[pages])


# --- one meaning for the rules --------------------------------------------------------------


def test_rules_are_the_rules_now_and_versions_their_history(tmp_path: Path) -> None:
    folder = copy_game(tmp_path)
    game = load_game(folder)
    assert game.rule_params()["target_points"] == 15
    assert game.undated_changes() == [] and game.undated_warning() is None
    edit(
        folder / "game.yaml",
        "  target_points: 15\n  dice_faces",
        "  target_points: 20\n  dice_faces",
    )
    game = load_game(folder)
    assert game.rule_params()["target_points"] == 20  # the build uses rules: as they are
    assert game.rule_params("1.0")["target_points"] == 10  # older versions as they stated
    assert game.rule_params("1.0")["actions_placed"] == 10
    assert game.rule_params("1.0.1")["transports_per_player"] == 8
    [change] = game.undated_changes()
    assert (change.key, change.stated, change.now, change.version.id) == (
        "target_points",
        15,
        20,
        "1.1",
    )
    warning = game.undated_warning()
    assert warning is not None
    lines = (folder / "game.yaml").read_text("utf-8").splitlines()
    now_line = next(i for i, line in enumerate(lines, 1) if "target_points: 20" in line)
    stated_line = next(i for i, line in enumerate(lines, 1) if "    target_points: 15" in line)
    assert f"game.yaml:{now_line}:" in warning and f"game.yaml:{stated_line}:" in warning
    assert 'id: "1.2"' in warning and "params: {target_points: 20}" in warning
    older = game.at_version("1.0")
    assert older.rule_params()["target_points"] == 10 and older.undated_changes() == []
    assert [v.id for v in older.history()] == ["1.0"]
    with pytest.raises(PrintgenError, match=r"no rule version '9\.9'"):
        game.at_version("9.9")


def test_recording_the_change_as_a_dated_version_silences_the_warning(tmp_path: Path) -> None:
    folder = copy_game(tmp_path)
    edit(
        folder / "game.yaml",
        "  target_points: 15\n  dice_faces",
        "  target_points: 20\n  dice_faces",
    )
    edit(folder / "game.yaml", 'rule_version: "1.1"', 'rule_version: "1.2"')
    text = (folder / "game.yaml").read_text("utf-8")
    anchor = "\n# Rule options"
    dated = (
        '  - id: "1.2"\n    date: "2026-11-25"\n    changes: {ja: 勝利点を20点に。, en: '
        "The game ends at 20 points.}\n    params:\n      target_points: 20\n"
    )
    (folder / "game.yaml").write_text(text.replace(anchor, dated + anchor, 1), "utf-8")
    game = load_game(folder)
    assert game.undated_warning() is None
    assert game.rule_params("1.1")["target_points"] == 15
    assert game.rule_params()["target_points"] == 20


def test_a_version_states_its_cards_and_an_undated_card_change_warns(tmp_path: Path) -> None:
    folder = copy_game(tmp_path)
    game = load_game(folder)
    old = game.at_version("1.0")
    assert {p.id: p.count for p in old.pieces if "torpedo-d" in p.id} == {
        "torpedo-d-red": 3,
        "torpedo-d-blue": 3,
    }
    assert not [p for p in old.pieces if p.component.id == "torpedo-c"]
    assert not [p for p in game.pieces if p.component.id == "torpedo-d"]  # 0 copies now
    assert old.at_version("1.1").pieces == game.pieces  # and back again
    # torpedo C's copies are stated by 1.1: a change in cards.yaml is a change not yet dated
    edit(
        folder / "cards.yaml",
        "    count: 3\n    values: {action: torpedo, grade: C",
        "    count: 2\n    values: {action: torpedo, grade: C",
    )
    game = load_game(folder)
    [change] = game.undated_changes()
    assert change.key == "components.torpedo-c.count" and (change.stated, change.now) == (3, 2)
    warning = game.undated_warning()
    assert warning is not None
    assert re.search(
        r"torpedo-c count is 2 \(.*cards\.yaml:\d+:12\) but version 1\.1 states 3", warning
    )
    assert "components: {torpedo-c: {count: 2}}" in warning
    assert "--strict" not in warning  # the build adds the hint when it only warns


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('rule_version: "1.1"', 'rule_version: "1.0"', "is not the newest of rule_versions"),
        (
            "      torpedo-c: {count: 0}\n",
            "      torpedo-c: {count: 0}\n      torpedo-x: {count: 1}\n",
            "states component 'torpedo-x', which no component file defines",
        ),
        (
            "      torpedo-c: {count: 3}\n",
            "      torpedo-c: {count: 3, values: {dice: 4}}\n",
            r"changes torpedo-c\.values\.dice, but no earlier version states its value before: "
            r"add torpedo-c: \{values: \{dice: \.\.\.\}\}",
        ),
        (
            "      target_points: 15\n",
            "      target_points: 15\n      columns: 7\n",
            "changes columns, but no earlier version states its value before",
        ),
    ],
)
def test_rule_versions_must_tell_a_history(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    folder = copy_game(tmp_path)
    edit(folder / "game.yaml", old, new)
    with pytest.raises(PrintgenError, match=message):
        load_game(folder)


def test_a_new_section_is_not_stale_before_it_was_ever_synced(tmp_path: Path) -> None:
    folder = copy_game(tmp_path)
    (folder / "rulebook" / "variant.yaml").write_text(
        "title: {ja: ヴァリアント, en: Variant}\nja:\n  text: 新しい遊び方。\n"
        "en:\n  text: A new way to play.\n",
        encoding="utf-8",
    )
    edit(folder / "rulebook" / "book.yaml", "contents:\n", "contents:\n  - section: variant\n")
    assert load_rulebook(load_game(folder)).stale_report() == []
    edit(folder / "rulebook" / "variant.yaml", "A new way to play.", "Another way to play.")
    # never synced: still not stale; once synced, an edit of one side makes the other stale
    assert load_rulebook(load_game(folder)).stale_report() == []
    main(["--root", str(tmp_path), "rulebook-sync", GAME, "variant"])
    edit(folder / "rulebook" / "variant.yaml", "Another way to play.", "A third way to play.")
    [stale] = load_rulebook(load_game(folder)).stale_report()
    assert "variant" in stale and "the ja text is stale" in stale


# --- the build: incremental, the fork, what changed ----------------------------------------


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path, Path]:
    """A copy of Submarine Attack built once (A4 only, no PNG, with rulebooks)."""
    root = tmp_path_factory.mktemp("loop")
    folder = copy_game(root)
    out = root / "out"
    build(Project(root), [GAME], out, OPTS)
    return Project(root), folder, out


OPTS = BuildOptions(papers=("a4",), png=False)


def test_a_section_edit_rebuilds_only_the_editions_it_changes(
    loop: tuple[Project, Path, Path],
) -> None:
    project, folder, out = loop
    before = manifest(out)
    overview = folder / "rulebook" / "overview.yaml"
    edit(overview, "The game ends when a player has", "The game is over when a player has")
    try:
        [result] = build(project, [GAME], out, OPTS)
        written = set(result.written)
        assert {"rulebook-en.pdf", "rulebook-ja-en.pdf"} <= written
        assert not written & {"rulebook-ja.pdf", "player-aid-ja.pdf", "player-aid-en.pdf"}
        assert not written & {"sheets-a4-duplex-long.pdf", "cards.pdf", "calibration-a4.pdf"}
        report = json.loads((out / GAME / "changes.json").read_text("utf-8"))
        changed = {f["path"]: f for f in report["files"]}
        assert set(changed) == {"rulebook-en.pdf", "rulebook-ja-en.pdf"}
        assert changed["rulebook-en.pdf"]["pages_changed"] == [2]  # the overview's page
        assert "The game is over when" in pdf_text(out / GAME / "rulebook-en.pdf", slice(1, 2))
        unchanged = {f["path"]: f["sha256"] for f in before["files"]}
        after = {f["path"]: f["sha256"] for f in manifest(out)["files"]}
        assert after["rulebook-ja.pdf"] == unchanged["rulebook-ja.pdf"]
    finally:
        edit(overview, "The game is over when a player has", "The game ends when a player has")
        build(project, [GAME], out, OPTS)


def test_failing_examples_fork_and_never_delete_the_rulebooks(
    loop: tuple[Project, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, folder, out = loop
    books = {p.name: p.read_bytes() for p in (out / GAME).glob("rulebook-*.pdf")}
    assert len(books) == 3
    cards = folder / "cards.yaml"
    edit(cards, "grade: A, dice: 5", "grade: A, dice: 6")
    try:
        args = ["--root", str(project.root), "build", GAME, "--out", str(out), "--paper", "a4"]
        with pytest.raises(SystemExit) as stopped:
            main([*args, "--no-png"])
        assert stopped.value.code == 1
        said = capsys.readouterr()
        assert "torpedo-a-red: dice 5 -> 6" in said.out  # what changed, with old and new
        assert "sheets-a4-duplex-long.pdf: pages" in said.out
        fails = [line for line in said.err.splitlines() if line.strip().startswith("FAIL ")]
        assert len(fails) == 14
        assert all(
            re.search(r"examples/\d\d-[a-z0-9-]+\.yaml:\d+:\d+: step \d+: ", f) for f in fails
        )
        assert "step 2: dice: expected 5, got 6" in said.err
        for way in ("fix each example", "change back what changed", "--draft"):
            assert way in said.err
        assert "stale" in said.err
        # the components were built; the rulebooks are kept, as they were, and called stale
        for name, data in books.items():
            assert (out / GAME / name).read_bytes() == data
        m = manifest(out)
        assert {s["path"] for s in m["stale"]} >= set(books)
        assert sum(not e["ok"] for e in m["examples"]) == 14
        report = json.loads((out / GAME / "changes.json").read_text("utf-8"))
        [image] = [i for i in report["images"] if "torpedo-a-red" in i["after"]] or [None]
        assert image is None  # no PNGs in this build: no pictures to compare
        assert {c["id"] for c in report["components"]} == {"torpedo-a-red", "torpedo-a-blue"}
        # the same build again is not "up to date": the fork is still there, and said again
        with pytest.raises(SystemExit) as again:
            main([*args, "--no-png"])
        assert again.value.code == 1
        said = capsys.readouterr()
        assert "up to date" not in said.out
        assert "changed since the last complete build" in said.out
        assert "torpedo-a-red: dice 5 -> 6" in said.out and "14 worked example(s)" in said.err
        # --no-rulebook keeps them too (it used to delete them)
        build(project, [GAME], out, BuildOptions(papers=("a4",), png=False, rulebooks=False))
        for name, data in books.items():
            assert (out / GAME / name).read_bytes() == data
        # --draft: rebuilt, marked DRAFT, failing examples listed on the first page
        [result] = build(project, [GAME], out, BuildOptions(papers=("a4",), png=False, draft=True))
        assert result.draft
        first = pdf_text(out / GAME / "rulebook-en.pdf", slice(0, 1))
        assert "DRAFT" in first and "01-pair-sinks-its-column.yaml" in first
        assert "DRAFT" in pdf_text(out / GAME / "player-aid-en.pdf")
        assert manifest(out)["stale"] == []
    finally:
        edit(cards, "grade: A, dice: 6", "grade: A, dice: 5")
        [result] = build(project, [GAME], out, OPTS)
    assert not result.draft and "DRAFT" not in pdf_text(out / GAME / "rulebook-en.pdf", slice(0, 1))


def test_changing_target_points_changes_every_rulebook(
    loop: tuple[Project, Path, Path],
) -> None:
    project, folder, out = loop
    game_yaml = folder / "game.yaml"
    edit(game_yaml, "  target_points: 15\n  dice_faces", "  target_points: 20\n  dice_faces")
    try:
        with pytest.raises(ErrorList, match=r"rules\.target_points is 20"):
            build(project, [GAME], out, BuildOptions(papers=("a4",), png=False, strict=True))
        [result] = build(project, [GAME], out, BuildOptions(papers=("a4",), png=False, draft=True))
        assert sum("rules.target_points is 20" in w for w in result.warnings) == 1
        assert "rules.target_points: 15 -> 20" in result.changes
        for edition in ("en", "ja", "ja-en"):
            text = pdf_text(out / GAME / f"rulebook-{edition}.pdf")
            assert "20" in text
        en = pdf_text(out / GAME / "rulebook-en.pdf")
        assert "20 or more" in en and "15 or more" not in en
        assert "Not yet dated" in en and "target points: 15 → 20" in en
        assert re.search(r"20\s?点以上", pdf_text(out / GAME / "rulebook-ja.pdf"))
        # the three examples the new target breaks are listed (built as a draft)
        failing = [e["file"] for e in manifest(out)["examples"] if not e["ok"]]
        assert failing == [
            "examples/11-triple-and-pair.yaml",
            "examples/14-tied-game-is-a-draw.yaml",
            "examples/16-three-players.yaml",
        ]
    finally:
        edit(game_yaml, "  target_points: 20\n  dice_faces", "  target_points: 15\n  dice_faces")
        build(project, [GAME], out, OPTS)


def test_an_older_rule_version_builds_into_its_own_folder(
    loop: tuple[Project, Path, Path],
) -> None:
    project, _folder, out = loop
    opts = BuildOptions(papers=("a4",), png=False, version="1.0", draft=True)
    [result] = build(project, [GAME], out, opts)
    assert result.folder == out / f"{GAME}@1.0"
    m = manifest(out, f"{GAME}@1.0")
    assert m["rule_version"] == "1.0" and m["rules"]["target_points"] == 10
    en = pdf_text(out / f"{GAME}@1.0" / "rulebook-en.pdf")
    assert "10 or more" in en and "Rules ver 1.0" in en
    assert "Choose 8 of the 10 action cards" not in en  # the history ends at 1.0
    assert manifest(out)["rule_version"] == "1.1"  # the current build is untouched
    # the cards of 1.0: ten transports (four "1", three "2") and torpedo D instead of C
    counts = {c["id"]: c["count"] for c in m["components"]}
    assert counts["transport-1-red"] == 4 and counts["transport-2-red"] == 3
    assert counts["torpedo-d-red"] == 3 and "torpedo-c-red" not in counts
    assert "torpedo-d-red" not in {c["id"] for c in manifest(out)["components"]}
    words = " ".join(en.split())
    assert "40 cards" in words and "10 transport cards and 10 action cards" in words
    assert "B 4, D 2)" in words and "Torpedo dice: S 7, A 5, B 4, D 2." in words
    assert all(e["ok"] for e in m["examples"])  # its examples are played with its cards


# --- the report and the command line ---------------------------------------------------------


def test_changes_count_from_the_last_complete_build(loop: tuple[Project, Path, Path]) -> None:
    """A fork, then the value put back: nothing changed since the last complete build,
    though each build changed something."""
    project, folder, out = loop
    cards = folder / "cards.yaml"
    edit(cards, "grade: A, dice: 5", "grade: A, dice: 6")
    try:
        with pytest.raises(PrintgenError, match="14 worked example"):
            report_builds(build(project, [GAME], out, OPTS), OPTS)
        assert (out / GAME / "changes" / "base-manifest.json").is_file()
    finally:
        edit(cards, "grade: A, dice: 6", "grade: A, dice: 5")
    [result] = build(project, [GAME], out, OPTS)
    assert result.changes == [] and not (out / GAME / "changes" / "base-manifest.json").exists()
    assert "torpedo-a-red: dice 6 -> 5" in result.changes_since_last
    report = json.loads((out / GAME / "changes.json").read_text("utf-8"))
    assert report["components"] == [] and report["examples"] == [] and report["files"] == []


def test_page_changes_are_insertions_not_a_shift() -> None:
    old = {"files": [{"path": "b.pdf", "kind": "rulebook", "page_signatures": list("abcde")}]}
    new = {"files": [{"path": "b.pdf", "kind": "rulebook", "page_signatures": list("abXcdE")}]}
    [entry] = compare(old, new)["files"]
    assert entry["pages_added"] == [3] and entry["pages_changed"] == [6]


def test_check_ends_with_a_summary_and_list_counts_in_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    main(["--root", str(ROOT), "check", GAME])
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == f"all 19 worked examples hold under the rules ({GAME} 19/19)"
    assert out[-1] == "8 claim(s) hold, 2 refuted as noted under refuted:"
    main(["--root", str(ROOT), "list"])
    listed = capsys.readouterr().out
    assert "110 cards" in listed and "KILL SHOT / KILL SHOT" not in listed
    assert "1 board," in listed and "36 cards, 2 mats" in listed
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["list"])
    err = capsys.readouterr().err
    assert "--root" in err and "Traceback" not in err


def test_a_card_value_the_engine_cannot_play_is_blamed_on_the_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = copy_game(tmp_path)
    cards = folder / "cards.yaml"
    line = next(
        i
        for i, text in enumerate(cards.read_text("utf-8").splitlines(), 1)
        if "grade: A, dice: 5}" in text
    )
    for bad, shown in (("five", "'five'"), ("-5", "-5"), ("0", "0")):
        edit(cards, "grade: A, dice: 5}", f"grade: A, dice: {bad}}}")
        try:
            for command in (["build", "--paper", "a4", "--no-png"], ["validate"]):
                with pytest.raises(SystemExit):
                    main(["--root", str(tmp_path), command[0], GAME, *command[1:]])
                [err] = capsys.readouterr().err.strip().splitlines()
                assert err.startswith("error: ") and err.endswith(
                    f"{GAME}/cards.yaml:{line}:47: torpedo-a: dice must be a positive whole "
                    f"number, got {shown}: the rules engine cannot play it"
                ), (command, err)
            assert not (tmp_path / "out" / GAME / "manifest.json").exists()
        finally:
            edit(cards, f"grade: A, dice: {bad}}}", "grade: A, dice: 5}")


def test_validate_shows_the_undated_change_and_the_failing_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = copy_game(tmp_path)
    edit(
        folder / "game.yaml",
        "  target_points: 15\n  dice_faces",
        "  target_points: 20\n  dice_faces",
    )
    with pytest.raises(SystemExit):
        main(["--root", str(tmp_path), "validate", GAME])
    err = capsys.readouterr().err
    assert re.search(r"warning: rules\.target_points is 20 .*\(--strict makes this an error\)", err)
    assert "examples/11-triple-and-pair.yaml" in err and "error:" in err
    with pytest.raises(SystemExit):
        main(["--root", str(tmp_path), "validate", GAME, "--strict"])
    err = capsys.readouterr().err
    assert re.search(r"error: rules\.target_points is 20 ", err) and "--strict makes" not in err
    with pytest.raises(SystemExit):
        main(["--root", str(tmp_path), "build", GAME, "--strict", "--paper", "a4", "--no-png"])
    err = capsys.readouterr().err
    assert "error: rules.target_points is 20" in err and "--strict makes" not in err
