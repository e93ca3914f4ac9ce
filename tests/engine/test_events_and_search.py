"""The event log, exact probabilities and the search for a play that applies a rule, on a
small made-up game (each real game's events are tested beside its engine)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules_engine.core import CHANCE, EVENTS, IllegalActionError, recording
from rules_engine.examples import probability_of
from rules_engine.search import Budget, Start, pieces_in, search


class Race:
    """Roll a die and add it; a six is 'big' (rule 2), reaching ten ends the game (rule 3);
    a player may 'stop' instead of rolling only after 5 (rule 4 refuses it before)."""

    def __init__(self, total: int = 0) -> None:
        self.total = total
        self.history: list[Any] = []
        self.rolling = True

    def current_players(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return (CHANCE,) if self.rolling else (0,)

    def legal_actions(self, player: int) -> list[Any]:
        return [1, 2, 3, 4, 5, 6] if player == CHANCE else ["roll", "stop"]

    def apply(self, action: Any) -> None:
        if action == "stop" and self.total < 5:
            raise IllegalActionError("4", "stop only after 5")
        if isinstance(action, int) != self.rolling:
            raise IllegalActionError("1", "the die is rolled after 'roll' only")
        self.history.append(action)
        if action == "roll":
            self.rolling = True
            return
        if action == "stop":
            self.total = 99
            if EVENTS.on:
                EVENTS.emit("4", "stop")
            return
        self.total += action
        self.rolling = False
        if EVENTS.on:
            EVENTS.emit("1", "roll", face=action)
            if action == 6:
                EVENTS.emit("2", "big")
            if self.total >= 10:
                EVENTS.emit("3", "end", total=self.total)

    def is_terminal(self) -> bool:
        return self.total >= 10

    def clone(self) -> Race:
        other = Race(self.total)
        other.history = list(self.history)
        other.rolling = self.rolling
        return other


def test_events_are_recorded_only_inside_recording() -> None:
    state = Race()
    state.apply(1)
    assert not EVENTS.on
    with recording() as log:
        state.apply("roll")
        state.apply(6)
    assert [str(e) for e in log.items] == ["rule 1: roll (face=6)", "rule 2: big"]
    assert not EVENTS.on
    with recording(count_only=True) as counted:
        state.apply("roll")
        state.apply(1)
        with recording() as inner:
            state.apply("roll")
            state.apply(6)
        assert [e.rule for e in inner.items] == ["1", "2", "3"]
    assert counted.counts == {"1": 1}
    assert not EVENTS.on


def test_probabilities_are_exact_fractions() -> None:
    assert probability_of("35/36") == Fraction(35, 36)
    assert probability_of(" 2 / 4 ") == Fraction(1, 2)
    assert probability_of(1) == 1 and probability_of(0) == 0
    for bad in (0.5, True, 2, "3/2", "1/0", "half", "0.5"):
        assert probability_of(bad) is None


def test_the_search_finds_the_shortest_play_for_each_rule() -> None:
    start = Start("start", Race.__new__(Race), Race(), 0, 1, 0)  # type: ignore[arg-type]
    found = search([start], ["2", "3", "4"], seed=1, budget=Budget(max_depth=4, width=6))
    assert found["2"].steps == (6,)
    assert len(found["3"].steps) == 3  # two rolls reach ten at the fewest (4 + 6, 5 + 5...)
    assert sum(s for s in found["3"].steps if isinstance(s, int)) >= 10
    assert found["4"].steps[-1] == "stop" and len(found["4"].steps) == 2
    again = search([start], ["2", "3", "4"], seed=1, budget=Budget(max_depth=4, width=6))
    assert {r: f.steps for r, f in again.items()} == {r: f.steps for r, f in found.items()}


def test_a_start_with_fewer_pieces_wins_a_tie() -> None:
    many = Start("many", Race.__new__(Race), Race(), 0, 9, 0)  # type: ignore[arg-type]
    few = Start("few", Race.__new__(Race), Race(), 0, 2, 0)  # type: ignore[arg-type]
    found = search([many, few], ["2"], budget=Budget(max_depth=2, width=6))
    assert found["2"].start.label == "few"


@pytest.mark.parametrize(
    ("setup", "n"),
    [({}, 0), ({"first": "red"}, 1), ({"t": {"red": [1, 2, 3], "blue": []}}, 4)],
)
def test_pieces_count_what_a_setup_names(setup: dict[str, Any], n: int) -> None:
    assert pieces_in(setup) == n
