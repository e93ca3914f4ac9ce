"""The worked examples replay, and every value they expect is really checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.engines import game_data
from printgen.errors import PrintgenError
from printgen.examples import ExampleResult, check_file, check_game, example_files
from printgen.model import Game
from rules_engine.registry import engine_for, game_ids

from .conftest import GAME_FOLDER

FILES = sorted((GAME_FOLDER / "examples").glob("*.yaml"))


def test_there_are_examples_and_an_engine(game: Game) -> None:
    assert len(FILES) >= 6
    assert "submarine-attack" in game_ids()
    entry = engine_for("submarine-attack")
    assert entry is not None
    assert {o.name for o in entry.options_for(game_data(game))} >= {
        "five_or_more",
        "triple_and_pair",
        "tie_first_player",
        "tie_winner",
        "players",
        "multiplayer_round_end",
    }
    assert engine_for("no-such-game") is None


def test_every_example_of_the_game_replays(game: Game) -> None:
    results = check_game(game)
    assert [r.file for r in results] == example_files(game)
    failures = [r.line() for r in results if not r.ok]
    assert failures == []
    for result in results:
        assert result.line().startswith("ok   ")
        assert all(step.say.ja and step.say.en for step in result.steps)


def _leaves(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        yield (*path, "+"), None  # append an item
        for i, value in enumerate(node):
            yield from _leaves(value, (*path, i))
    else:
        yield path, node


def _expect_values(data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if "expect" in data:
        yield from _leaves(data["expect"], ("expect",))
    for i, step in enumerate(data.get("steps", [])):
        if "expect" in step:
            yield from _leaves(step["expect"], ("steps", i, "expect"))


def _mutated(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "x"
    raise AssertionError(f"cannot mutate {value!r}")


def _set(data: Any, path: tuple[Any, ...]) -> None:
    *head, last = path
    node = data
    for key in head:
        node = node[key]
    if last == "+":
        node.append(node[-1] if node else 1)
    else:
        node[last] = _mutated(node[last])


def _passes(game: Game, path: Path) -> bool:
    try:
        result: ExampleResult = check_file(game, path)
    except PrintgenError:
        return False
    return result.ok


@pytest.mark.parametrize("source", FILES, ids=[p.name for p in FILES])
def test_changing_any_expected_value_makes_the_check_fail(
    game: Game, source: Path, tmp_path: Path
) -> None:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    copy = tmp_path / source.name
    copy.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert _passes(game, copy), "the unchanged example must pass"
    paths = [p for p, _ in _expect_values(data)]
    assert paths, f"{source.name} expects nothing"
    survivors = []
    for path in paths:
        changed = yaml.safe_load(source.read_text(encoding="utf-8"))
        _set(changed, path)
        copy.write_text(yaml.safe_dump(changed, allow_unicode=True), encoding="utf-8")
        if _passes(game, copy):
            survivors.append(path)
    assert survivors == [], f"changing these expected values went unnoticed: {survivors}"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    return path


HEADER = """\
title: {ja: 例, en: Example}
setup:
  first: red
  transports: {red: [1, 1, 2, 2, 3, 4], blue: [1, 1, 2, 2, 3, 4]}
  actions:
    red: [TB, TA, TC, TS, TA, TB, TC, EA]
    blue: [TB, TA, TC, TS, TA, TB, TC, EA]
"""


def test_an_unknown_expect_key_is_reported_at_its_line(game: Game, tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        HEADER
        + "steps:\n  - do: roll 1 1 2 3\n    say: {ja: あ, en: a}\n    expect: {sunken: 1}\n",
    )
    with pytest.raises(PrintgenError) as info:
        check_file(game, path)
    assert "example.yaml:11:14: unknown expect key 'sunken' (known: attacker, " in str(info.value)


def test_bad_notation_and_options_are_reported_at_their_line(game: Game, tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER + "steps:\n  - do: roll one\n    say: {ja: あ, en: a}\n")
    with pytest.raises(PrintgenError, match=r"example.yaml:9:9: not a number in 'roll one'"):
        check_file(game, path)
    path = _write(tmp_path, "options: {fives: miss}\n" + HEADER + "steps: []\n")
    with pytest.raises(PrintgenError, match=r"example.yaml:1:11: unknown rule option 'fives'"):
        check_file(game, path)
    path = _write(tmp_path, "options: {five_or_more: twice}\n" + HEADER + "steps: []\n")
    with pytest.raises(PrintgenError, match=r"example.yaml:1:25: rule option 'five_or_more' must"):
        check_file(game, path)
    path = _write(tmp_path, HEADER.replace("first: red", "first: green") + "steps: []\n")
    with pytest.raises(PrintgenError, match=r"example.yaml:3:10: setup: unknown player 'green'"):
        check_file(game, path)


def test_a_failing_expectation_is_one_line_with_place_step_expected_and_actual(
    game: Game, tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        HEADER
        + "steps:\n  - do: roll 1 1 2 3\n    say: {ja: あ, en: a}\n"
        + "    expect: {sunk: {red: [], blue: [2]}}\n",
    )
    result = check_file(game, path)
    assert not result.ok
    assert result.step == 1
    assert result.line().endswith(
        'example.yaml:11:20: step 1: sunk: expected {"blue": [2], "red": []}, '
        'got {"blue": [1], "red": []}'
    )


def test_an_illegal_step_fails_the_example_naming_the_rule(game: Game, tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER + "steps:\n  - do: roll 1 1\n    say: {ja: あ, en: a}\n")
    result = check_file(game, path)
    assert not result.ok
    assert result.line().endswith(
        "example.yaml:9:9: step 1: roll 1 1: rule 2-3-1: torpedo B rolls 4 dice, got 2 dice"
    )


def test_a_broken_file_is_one_fail_result_in_check_game(game: Game, tmp_path: Path) -> None:
    folder = tmp_path / "submarine-attack"
    (folder / "examples").mkdir(parents=True)
    for name in ("game.yaml", "cards.yaml"):
        (folder / name).write_text((GAME_FOLDER / name).read_text(encoding="utf-8"))
    (folder / "examples" / "bad.yaml").write_text("title: [\n", encoding="utf-8")
    moved = type(game)(folder, game.info, game.decks, game.pieces)
    [result] = check_game(moved)
    assert not result.ok
    assert "bad.yaml:2:1: YAML syntax error" in result.line()
