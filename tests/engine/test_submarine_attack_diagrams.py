"""Submarine Attack's example diagrams show the table after each step, by the engine's count.

Each example is replayed action by action here, noting the engine's own counters (round and
attack number) when each action is taken; every step's diagram is then checked against
them: the caption names the round and the attack of the step's last action (not the next
attack the engine has already turned over), the dice drawn are that attack's roll, the
highlighted cards are that attack's and the next attack's cards stay face down, and no
cell, label or caption holds notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from printgen.examples import build_engine, load_example, run_example
from printgen.model import Game
from rules_engine.core import DiagramCell, DiagramGrid, JointAction, apply_step, parse_step
from rules_engine.submarine_attack import Roll, Start, SubmarineAttackState, Target

from . import example_texts as ex
from .conftest import GAME_FOLDER

EXAMPLES = ex.example_paths(GAME_FOLDER)
PRINTED = ex.printed_names(GAME_FOLDER)

EN = re.compile(r"^Round (\d+)(?:, attacks? (\d+)(?:–(\d+))?)?(?:[ :]|$)")
JA = re.compile(r"^(\d+)ラウンド目(?:・(\d+)(?:〜(\d+))?回目)?")


@dataclass(frozen=True)
class Taken:
    """The last action taken, with the engine's counters just before it and its dice."""

    action: Any
    round: int
    attack: int  # the engine's attack number (slot + 1) when the action was taken
    roll: tuple[int, ...]


def caption_numbers(title: dict[str, str]) -> tuple[int, int | None, int | None]:
    """(round, first attack, last attack) as both languages of a caption name them."""
    en, ja = EN.match(title["en"]), JA.match(title["ja"])
    assert en is not None, title["en"]
    assert ja is not None, title["ja"]
    numbers = tuple(int(x) if x else None for x in en.groups())
    assert numbers == tuple(int(x) if x else None for x in ja.groups()), title
    return numbers  # type: ignore[return-value]


def test_the_printed_examples_exist() -> None:
    names = {path.stem for path in EXAMPLES}
    assert PRINTED and set(PRINTED) <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_caption_names_the_engines_round_and_attack(game: Game, path: Path) -> None:
    example = load_example(path)
    engine: Any = build_engine(game, example)
    pattern = engine.notation_pattern()
    result = run_example(game, example)
    assert result.ok, result.line()
    state: SubmarineAttackState = engine.setup_state(dict(example.spec.setup))
    taken = Taken(state.history[-1], state.round, state.slot + 1, ()) if state.history else None
    traces = iter(result.steps)
    for step in example.spec.steps:
        trace = next(traces)
        if step.exhaust is not None:
            continue
        for text in ex.do_texts(step.do):
            action = parse_step(engine, text)
            before = (state.round, state.slot + 1, len(state.results))
            try:
                apply_step(state, action)
            except ValueError:
                continue  # a refused action leaves the table as it was
            roll = action.dice if isinstance(action, Roll) else ()
            if isinstance(action, Target) and taken is not None:
                roll = taken.roll
            taken = Taken(action, before[0], before[1], roll)
        where = f"{path.name} step {trace.index}"
        drawn = trace.diagram
        assert drawn, where
        assert drawn == engine.diagram(state), where
        table = drawn[0]
        assert isinstance(table, DiagramGrid)
        _no_notation(pattern, drawn, where)
        r, first, last = caption_numbers(dict(table.title))
        if taken is None or isinstance(taken.action, Start):
            assert (r, first) == (state.round, None), where
            continue
        _face_down_after(table, engine, last or first or 0, where)
        if isinstance(taken.action, JointAction):  # cards laid out
            # Only the attacks the rules played by themselves are drawn, not the one the
            # engine has turned over to wait for its dice.
            assert r == taken.round, where
            assert (last or first or 0) == state.slot, where
            continue
        # A roll or a pick: the attack it belonged to, as the engine counted it then.
        assert (r, first) == (taken.round, taken.attack), where
        ended = len(state.results) > 0 and state.results[-1].round == taken.round
        ended = ended and (state.round != taken.round or state.phase == 4)
        if ended:  # the round ended: the caption runs to its last attack
            assert (last or first) == len(state.results[-1].cards[0]), where
        elif state.slot + 1 > taken.attack:  # the next attack is already turned over
            assert (last or first) == state.slot, where
        else:
            assert last is None, where
        _check_attack(table, engine, state, taken, where)


def _check_attack(
    table: DiagramGrid, engine: Any, state: SubmarineAttackState, taken: Taken, where: str
) -> None:
    rows = {label["en"]: cells for label, cells in table.rows}
    names = [d["en"] for d in engine.display]
    attacker = (
        state.attacker
        if isinstance(taken.action, Target) and state.phase == 3
        else _attacker_of(engine, state, taken)
    )
    cards = rows[f"{names[attacker]} cards"]
    # The card of the attack just made is highlighted ...
    assert cards[taken.attack - 1].mark == "active", where
    assert not cards[taken.attack - 1].back, where
    # The dice drawn last are the roll of this attack, as die faces.
    dice = [cells for label, cells in table.rows if label["en"].endswith("'s dice")]
    assert dice, where
    assert tuple(cell.die for cell in dice[-1]) == taken.roll, where
    assert all(not cell.text for cells in dice for cell in cells), where


def _face_down_after(table: DiagramGrid, engine: Any, shown: int, where: str) -> None:
    """No action card after the attacks the caption names is face up or highlighted."""
    rows = {label["en"]: cells for label, cells in table.rows}
    for name in (d["en"] for d in engine.display):
        for k, cell in enumerate(rows[f"{name} cards"]):
            if k >= shown:
                assert cell.mark == "" and (cell.back or cell.text == "?"), (where, name, k)
            else:
                assert not cell.back and cell.text != "?", (where, name, k)


def _attacker_of(engine: Any, state: SubmarineAttackState, taken: Taken) -> int:
    """Who made the attack of the last roll or pick: replayed up to it."""
    replay = state.initial()
    last = -1
    for step in state.history:
        if isinstance(step, Roll | Target):
            last = replay.attacker
        apply_step(replay, step)
    return last


def _no_notation(pattern: re.Pattern[str], drawn: Any, where: str) -> None:
    for grid in drawn:
        texts = [grid.title["ja"], grid.title["en"], *grid.columns]
        for label, cells in grid.rows:
            texts += [label["ja"], label["en"]]
            for cell in cells:
                assert isinstance(cell, DiagramCell)
                texts.append(cell.text)
                assert not cell.piece or cell.text == "", where
                assert 0 <= cell.die <= 6, where
        for text in texts:
            found = pattern.search(text)
            assert found is None, f"{where}: notation {found.group(0)!r} in {text!r}"
