"""SQUARES II's event log: the rules each transition applies, the clause ids the engine
names (in events and refusals) against the clauses game.yaml declares, the rule coverage
of the worked examples, and the setup's own tile sets (rule 7) reaching rule 2-2-c."""

from __future__ import annotations

import random
from typing import Any

import pytest

from printgen.coverage import coverage
from printgen.engines import game_data
from printgen.examples import check_game
from printgen.model import Game, load_game
from rules_engine.core import Event, IllegalActionError, SetupError, recording
from rules_engine.squares2 import Squares2, Squares2State

from .conftest import ROOT

FOLDER = ROOT / "components" / "squares2"


@pytest.fixture(scope="module")
def sq() -> Game:
    return load_game(FOLDER)


@pytest.fixture(scope="module")
def declared(sq: Game) -> set[str]:
    return {c.id for c in sq.info.clauses}


def setup(game: Game, spec: dict[str, Any], **options: Any) -> tuple[Squares2, Squares2State]:
    engine = Squares2(game_data(game), options=options)
    return engine, engine.setup_state(spec)


def events(engine: Squares2, state: Squares2State, text: str) -> list[Event]:
    with recording() as log:
        state.apply(engine.parse_action(text))
    return list(log.items)


def rules(found: list[Event]) -> list[tuple[str, str]]:
    return [(e.rule, e.what) for e in found]


def test_a_tsunami_push_into_a_battle(sq: Game) -> None:
    board = {"c1": "orange T1", "c2": "orange D5", "c3": "orange S4", "c4": "purple T3"}
    engine, state = setup(sq, {"to_move": "orange", "board": board})
    found = events(engine, state, "orange tsunami c1")
    assert rules(found) == [
        ("5-3", "use"),
        ("4-1", "continuous_checked"),
        ("5-3-c", "push"),
        ("6-1", "battle"),
        ("6-2", "continuous_checked"),
        ("6-3-b", "higher_stays"),
        ("2-4", "next_turn"),
    ]
    push = found[2].data
    assert (push["src"], push["dst"], push["distance"], push["jumped"]) == ("c2", "c4", 2, ["c3"])
    won = found[5].data
    assert (won["player"], won["value"], won["other"], won["other_value"]) == (
        "orange",
        5,
        "purple",
        3,
    )
    assert found[1].data == {"abilities": []}  # SQUARES II has no continuous ability


def test_a_tie_a_back_side_placing_and_the_row_limit(sq: Game) -> None:
    engine, state = setup(
        sq, {"to_move": "orange", "board": {"b3": "orange S3", "b4": "purple D3"}}
    )
    assert rules(events(engine, state, "orange move b3 b4"))[3:5] == [
        ("6-2", "continuous_checked"),
        ("6-3-a", "tie"),
    ]
    found = events(engine, state, "purple place L1 a5")
    assert rules(found) == [("3-1", "place"), ("3-2", "back_up"), ("2-4", "next_turn")]
    assert found[1].data == {"player": "purple", "ability": "spin", "value": 5}
    board = {"a2": "orange T3", "c2": "orange S1", "e2": "orange T4", "c5": "purple S2"}
    engine, state = setup(sq, {"to_move": "orange", "board": board})
    found = events(engine, state, "orange spin c2")
    assert rules(found)[-1] == ("2-2", "over_limit")
    assert found[-1].data == {"player": "orange", "rows": [2], "totals": [12], "limit": 8}
    found = events(engine, state, "orange return a2")
    assert rules(found) == [("2-2-b", "return_chosen"), ("2-2-a", "still_over")]
    assert found[1].data["total"] == 9


def test_winning_and_the_next_game(sq: Game) -> None:
    board = {"b3": "orange T1", "c3": "orange T2", "d2": "orange S1", "a5": "purple S3"}
    engine, state = setup(sq, {"first": "orange", "board": board}, games=3)
    found = events(engine, state, "orange move d2 d3")
    assert rules(found)[2:] == [
        ("2-3", "win"),
        ("1-2", "new_board"),
        ("1-1", "new_hands"),
        ("1-3", "winner_second"),
    ]
    assert found[-1].data == {"player": "orange", "first": "purple"}


def test_both_over_the_limit_the_opponent_returns_first(sq: Game) -> None:
    # A setup's own tile set (rule 7) with a continuous ability: one flip takes both
    # players over the limit at once (rule 2-2-c).
    swell = {"code": "W", "kind": "continuous", "effect": "value-bonus", "scope": "board"}
    own = [f"spin-{v}" for v in (1, 2)] + [f"spin-{v}" for v in (4, 5)]
    tile = {"front": {"ability": "spin", "value": 3}, "back": {"ability": "swell", "value": 3}}
    tiles = [*own[:2], tile, *own[2:], *(f"tsunami-{v}" for v in range(1, 6))]
    engine, state = setup(sq, {"abilities": {"swell": swell}, "tiles": {"orange": tiles}})
    found = events(engine, state, "first orange")
    assert [r for r, _ in rules(found)] == ["7-1", "7-2", "7-3", "1-3"]
    for text in ("orange place S3 a1", "purple place T2 a5", "orange place T1 b1"):
        state.apply(engine.parse_action(text))
    for text in ("purple place S4 b5", "orange place T3 c1", "purple place T1 c5"):
        state.apply(engine.parse_action(text))
    found = events(engine, state, "orange spin a1")
    assert ("5-1", "continuous_face_up") in rules(found)
    assert rules(found)[-1] == ("2-2-c", "both_over")
    assert found[-1].data == {"first": "purple", "then": "orange"}
    assert engine.query(state, "board")["a1"] == "orange W3"
    assert engine.format_action(state.legal_actions(1)[0]) == "purple return a5"
    # The sets are checked, naming the setup key.
    extra = {"swell": swell}
    with pytest.raises(SetupError) as info:
        engine.setup_state({"abilities": extra, "tiles": {"orange": tiles[:9]}})
    assert info.value.key == ("tiles",)
    with pytest.raises(SetupError) as info:
        engine.setup_state({"abilities": extra, "tiles": {"orange": [*tiles[:9], "spin-9"]}})
    assert info.value.key == ("tiles", "orange", 9)
    with pytest.raises(SetupError) as info:  # rule 7-1: two 1s and no 5 on the fronts
        engine.setup_state({"abilities": extra, "tiles": {"orange": [*tiles[:9], "spin-1"]}})
    assert info.value.key == ("tiles",) and "rule 7-1" in str(info.value)
    with pytest.raises(SetupError) as info:
        engine.setup_state({"tiles": {"orange": tiles}})  # swell is not stated
    assert info.value.key == ("tiles",)
    # A setup without the keys speaks the game's own notation again.
    engine.setup_state({"to_move": "orange"})
    assert engine.format_action(engine.parse_action("orange place L3 c1")) == "orange place L3 c1"


def test_every_rule_id_the_engine_names_is_declared(sq: Game, declared: set[str]) -> None:
    seen: set[str] = set()
    for options in ({}, {"turn_limit": 100, "games": 3}, {"tsunami_target": "own"}):
        engine = Squares2(game_data(sq), options=options)
        rng = random.Random(7)
        for _ in range(60 if not options else 30):
            state = engine.new_initial_state()
            with recording() as log:
                while not state.is_terminal():
                    (player,) = state.current_players()
                    if rng.random() < 0.1 and player >= 0:  # a refused action now and then
                        other = state.clone()
                        wrong = engine.new_initial_state().legal_actions(-1)[0]
                        try:
                            other.apply(wrong)
                        except IllegalActionError as exc:
                            seen.add(exc.rule)
                    state.apply(state.sample_action(player, rng))
            seen |= {e.rule for e in log.items}
    assert seen <= declared, sorted(seen - declared)
    assert {"2-2", "2-3", "2-4", "3-1", "4-2", "5-3", "6-1"} <= seen


def test_every_declared_clause_is_shown_by_an_example(sq: Game) -> None:
    results = check_game(sq)
    assert all(r.ok for r in results)
    found = coverage(sq, results)
    assert not found.uncovered, [c.clause.id for c in found.uncovered]
    assert not found.undeclared, sorted(found.undeclared)


def test_every_event_has_a_phrase(sq: Game) -> None:
    phrases = sq.info.narration.events
    results = check_game(sq)
    kinds = {e.what for r in results for step in r.steps for e in step.events}
    assert kinds - {"refused", "exhausted"} <= set(phrases)
