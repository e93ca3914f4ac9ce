"""The game model: Submarine Attack as the seed states it, errors that point into the YAML, and
large YAML files read back from the cache folder as they were read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printgen.errors import PrintgenError
from printgen.model import load_game
from printgen.source import load_yaml

ROOT = Path(__file__).resolve().parent.parent
SUB = ROOT / "components" / "submarine-attack"


def test_submarine_attack_has_two_sets_of_8_transports_and_10_actions() -> None:
    game = load_game(SUB)
    assert game.info.title.ja == "サブマリン・アタック"
    assert game.info.rule_version == "1.1"
    assert sum(p.count for p in game.pieces if p.kind == "card") == 36
    for deck in ("red", "blue"):
        pieces = [p for p in game.pieces if p.deck and p.deck.id == deck]
        transports = sum(p.count for p in pieces if "ships" in p.component.values)
        actions = sum(p.count for p in pieces if "action" in p.component.values)
        assert (transports, actions) == (8, 10)
    assert len({game.decks[d].colour for d in ("red", "blue")}) == 2


def test_reconstructed_values_keep_the_stated_clues() -> None:
    game = load_game(SUB)
    red = [p for p in game.pieces if p.deck and p.deck.id == "red"]
    dice = {
        p.component.values["grade"]: p.component.values["dice"]
        for p in red
        if p.component.values.get("action") == "torpedo"
    }
    cancel = {
        p.component.values["grade"]: p.component.values["cancel_dice"]
        for p in red
        if p.component.values.get("action") == "evasion"
    }
    assert dice["B"] == 4  # stated
    assert dice["S"] >= 7  # 7 dice on 6 faces always show a pair: S in attack 1 always hits
    assert dice["S"] - cancel["B"] <= 0  # evasion B leaves torpedo S no die
    assert min(dice.values()) == dice["C"]  # C is the weak torpedo
    ships = sorted(
        p.component.values["ships"]
        for p in red
        if "ships" in p.component.values
        for _ in range(p.count)
    )
    assert ships.count(1) >= 2 and 5 in ships and 2 in ships  # 5+1 and 2+1+1 are possible
    assert all(p.component.source == "reconstructed" for p in red)


def test_rule_history_is_dated_and_versions_change_parameters() -> None:
    game = load_game(SUB)
    dates = [v.date for v in game.info.rule_versions]
    assert "2002-11-02" in dates and "2002-11-17" in dates
    assert game.rule_params()["target_points"] == 15
    assert game.rule_params("1.0.1")["transports_per_player"] == 8
    assert game.rule_params("1.0")["transports_per_player"] == 10


def _copy_with(tmp_path: Path, old: str, new: str, file: str = "cards.yaml") -> Path:
    folder = tmp_path / "submarine-attack"
    folder.mkdir()
    for path in SUB.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        if path.name == file:
            assert old in text
            text = text.replace(old, new, 1)
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder


def _line_of(folder: Path, needle: str, file: str = "cards.yaml") -> int:
    lines = (folder / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_negative_count_names_file_line_and_column(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, "count: 2", "count: -2")
    with pytest.raises(PrintgenError) as err:
        load_game(folder)
    line = _line_of(folder, "count: -2")
    assert str(err.value).endswith(
        f"cards.yaml:{line}:12: count must be a positive integer (or 0: no copies at the current rules), got -2"
    )


def test_unknown_key_suggests_the_right_one(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, "    values: {ships: 1}", "    valuse: {ships: 1}")
    with pytest.raises(PrintgenError) as err:
        load_game(folder)
    message = str(err.value)
    assert f"cards.yaml:{_line_of(folder, 'valuse')}:5: unknown key 'valuse'" in message
    assert "did you mean 'values'?" in message


def test_yaml_syntax_error_and_duplicate_keys(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\nb: 3\n", encoding="utf-8")
    with pytest.raises(PrintgenError, match=r"bad.yaml:\d+:\d+: YAML syntax error"):
        load_yaml(bad)
    dup = tmp_path / "dup.yaml"
    dup.write_text("a: 1\na: 2\n", encoding="utf-8")
    with pytest.raises(PrintgenError, match=r"dup.yaml:2:1: duplicate key 'a'"):
        load_yaml(dup)


def test_unknown_deck_and_wrong_kind(tmp_path: Path) -> None:
    folder = _copy_with(
        tmp_path, "decks: [red, blue]\n    count: 2", "decks: [red, green]\n    count: 2"
    )
    with pytest.raises(PrintgenError, match=r"unknown deck 'green' \(decks: blue, red\)"):
        load_game(folder)
    other = tmp_path / "other"
    other.mkdir()
    folder2 = _copy_with(other, "kind: card", "kind: cardd")
    with pytest.raises(PrintgenError, match=r"kind must be one of 'card', 'tile'"):
        load_game(folder2)


def _deep_equal(a: Any, b: Any) -> bool:
    """Equal values of equal types all the way down (1, 1.0 and True are told apart)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_deep_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_deep_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_a_large_yaml_file_read_again_comes_from_the_cache_as_it_was_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a large file was read as is kept in the cache folder by its bytes: read again,
    the same values of the same types, at the same lines and columns; an edit reads anew."""
    from printgen import yamlparse

    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    lines = ["cards:"]
    for i in range(200):
        lines += [
            f"  - id: c{i}",
            f"    n: {i}",
            f"    x: {i / 3}",
            f"    ok: {'true' if i % 2 else 'no'}",
            "    t: |",
            f"      line {i}",
            "      more",
            f"    when: 2002-11-{1 + i % 28:02}",
            "    none: ~",
            f"    big: {10**30 + i}",
            f'    text: "\\u3042 {i}"',
        ]
    path = tmp_path / "cards.yaml"
    path.write_bytes("\r\n".join(lines).encode())  # Windows line ends, as an editor may save
    first = load_yaml(path)
    assert len(list((tmp_path / "cache" / "yaml").iterdir())) == 1

    def parsed_again(*_a: Any) -> Any:
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlparse, "_Loader", parsed_again)
    again = load_yaml(path)
    assert _deep_equal(again.data, first.data)
    assert again.places == first.places and again.key_places == first.key_places
    assert again.where(("cards", 5, "n")) == first.where(("cards", 5, "n"))
    monkeypatch.undo()
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    path.write_text(path.read_text().replace("n: 5", "n: -5"))
    assert load_yaml(path).data["cards"][5]["n"] == -5


def test_a_game_whose_files_were_all_read_before_is_loaded_without_pyyaml(
    tmp_path: Path,
) -> None:
    """Every YAML file's reading is kept, small ones too: once a game and the layouts were
    read, loading them again needs no YAML parser (PyYAML is not even loaded), and gives
    the same data."""
    import subprocess
    import sys

    code = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from printgen.layouts import load_library\n"
        "from printgen.model import load_game\n"
        f"lib = load_library(Path({str(ROOT / 'layouts')!r}))\n"
        f"game = load_game(Path({str(ROOT / 'components' / 'subzero')!r}))\n"
        "print(json.dumps(['yaml' in sys.modules, len(game.pieces), sorted(lib.presets.sizes)]))\n"
    )
    env = {**__import__("os").environ, "PRINTGEN_CACHE_DIR": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        ).stdout.splitlines()[-1]
        for _ in range(2)
    ]
    first, again = (json.loads(r) for r in runs)
    assert first[0] is True and again[0] is False
    assert first[1:] == again[1:] and again[1] > 0


def test_a_large_yaml_file_with_an_error_reports_it_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "cards.yaml"
    path.write_text(
        "cards:\n"
        + "".join(f"  - id: c{i}\n    n: {i}\n" for i in range(900))
        + "  - id: c1\n    id: c2\n"
    )
    for _ in range(2):
        with pytest.raises(PrintgenError, match="duplicate key 'id'"):
            load_yaml(path)
    assert not (tmp_path / "cache" / "yaml").exists()


# --- reading YAML from libyaml's events -------------------------------------------------------

# What a game folder may hold and the errors it may make, each read both ways below.
YAML_CASES = {
    "values": (
        "a: 'x'\nb: \"y\\n\"\nc: |\n  block\n  text\nd: >\n  folded\nn: [1, 0x10, 0o17, 1_000]\n"
        "f: 2.5\nt: [true, no, ~, null, '']\nwhen: 2002-11-02\nat: 2002-11-02 10:00:00\n"
        "tags: [!!str 12, ! 12, !!int '7', !!float 3]\nkeys: {3: x, true: y}\nja: {日本: 語}\n"
    ),
    "nesting": "- {a: [1, {b: c}], d: e}\n- x\n- [[], {}]\n",
    "scalar-root": "hello\n",
    "empty": "",
    "comment-only": "# nothing here\n",
    "duplicate-key": "a: 1\nb: [1, {c: 1, c: 2}]\n",
    "list-as-key": "[1]: 2\n",
    "mapping-as-key": "? {a: 1}\n: 2\n",
    "null-key": "~: 1\n",
    "float-key": "1.5: 2\n",
    "python-tag": "a: !!python/object:os.system x\n",
    "binary-tag-key": "!!binary aGk=: 1\n",
    "own-tag": "a: !foo {b: 1}\n",
    "set": "!!set {a, b}\n",
    "huge-integer": "a: " + "9" * 5000 + "\n",
    "infinite": "a: [1, .inf]\n",
    "two-documents": "a: 1\n---\nb: 2\n",
    "nested-too-deep": "[" * 70 + "]" * 70 + "\n",
    "too-many-values": "[" + ",".join(["1"] * 1_001) + "]\n",  # with a bound of 1,000
    "syntax": "a: [1, 2\nb: 3\n",
    "tab": "a:\n\t- 1\n",
}


def _read_both_ways(path: Path, text: str) -> list[tuple[Any, ...]]:
    from printgen import yamlparse

    results: list[tuple[Any, ...]] = []
    for build in (yamlparse._from_events, yamlparse._from_nodes):
        try:
            doc = yamlparse._parse(path, text, build)
            results.append(("read", repr(doc.data), doc.places, doc.key_places))
        except yamlparse._NeedsNodes:  # anchors, aliases or merge keys: `parse` reads nodes
            results.append(("graph",))
        except PrintgenError as exc:
            results.append(("error", str(exc)))
    return results


@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_yaml_read_from_events_is_what_the_node_graph_reads(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """libyaml's events give the same values at the same places, and the same first error,
    as PyYAML's graph of nodes (the way printgen read every file before)."""
    from printgen import yamlparse

    monkeypatch.setattr(yamlparse, "MAX_NODES", 1_000)
    events, nodes = _read_both_ways(tmp_path / f"{case}.yaml", YAML_CASES[case])
    assert events == nodes
    expected_error = case not in ("values", "nesting", "scalar-root", "empty", "comment-only")
    assert (events[0] == "error") == expected_error


def test_every_shipped_yaml_file_reads_the_same_from_events() -> None:
    files = sorted((ROOT / "components").rglob("*.yaml")) + sorted(
        (ROOT / "layouts").rglob("*.yaml")
    )
    assert len(files) > 40
    graphs = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        events, nodes = _read_both_ways(path, text)
        assert nodes[0] == "read", nodes
        if events == ("graph",):
            assert "&" in text or "<<" in text, path
            graphs += 1
        else:
            assert events == nodes, path
    assert graphs < len(files) / 4


def test_a_file_without_anchors_is_read_without_the_node_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain file never has its graph of nodes built (a 2,000-card file's is ~20 MB); one
    with anchors, aliases or merge keys is read through it, which expands them."""
    from printgen import yamlparse

    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path / "cache"))
    graphs: list[int] = []
    original = yamlparse._from_nodes

    def counted(loader: Any, doc: Any) -> Any:
        graphs.append(1)
        return original(loader, doc)

    monkeypatch.setattr(yamlparse, "_from_nodes", counted)
    plain = tmp_path / "plain.yaml"
    plain.write_text("cards:\n" + "".join(f"  - {{id: c{i}, n: {i}}}\n" for i in range(300)))
    assert load_yaml(plain).data["cards"][299] == {"id": "c299", "n": 299}
    assert graphs == []
    shared = tmp_path / "shared.yaml"
    shared.write_text(
        "base: &b {colour: red, n: 1}\n"
        "cards:\n  - <<: *b\n    id: a\n  - {id: b, n: 2}\n  - &c {id: c}\n  - *c\n"
    )
    doc = load_yaml(shared)
    assert graphs == [1]
    assert doc.data["cards"] == [
        {"colour": "red", "n": 1, "id": "a"},
        {"id": "b", "n": 2},
        {"id": "c"},
        {"id": "c"},
    ]
    assert doc.where(("cards", 0, "colour")).line == 1  # where the merged value is written
    assert doc.where(("cards", 3, "id")).line == 6  # an alias: where its anchor's value is
    assert doc.where(("cards", 1, "n")).line == 5


PUNCTUATION = [":", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "<<: ", "!!", "? ", "'", '"', "#",
               "|", ">", "\t", "\n", "  ", "---\n", "~", "=", "%", "@"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_yaml_reads_the_same_from_events_as_from_the_node_graph(data: Any) -> None:
    """A shipped file with its text broken at random (YAML punctuation inserted, a span cut,
    a line doubled): the events give what the graph gives, values and places, or the same
    error, or (anchors, aliases, merge keys) hand the file to the graph."""
    files = sorted((ROOT / "components").rglob("*.yaml"))
    path = data.draw(st.sampled_from(files))
    text = path.read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["insert", "cut", "double"]))
        if kind == "insert":
            text = text[:at] + data.draw(st.sampled_from(PUNCTUATION)) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 40)) :]
        else:
            lines = text.splitlines(keepends=True) or [""]
            i = at % len(lines)
            text = "".join(lines[: i + 1] + lines[i:])
    events, nodes = _read_both_ways(path, text)
    assert events in (nodes, ("graph",))
