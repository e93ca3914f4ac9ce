"""The rules Submarine Attack's engine says it applies: its event log, its refusals' rule
ids, the clauses game.yaml declares, the worked examples that show each clause, and the
exact odds the examples claim, counted here over the dice directly."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.coverage import coverage
from printgen.engines import game_data
from printgen.examples import check_game
from printgen.model import Game
from printgen.narration import LANGS, sentence
from rules_engine.core import (
    CHANCE,
    Event,
    IllegalActionError,
    JointAction,
    apply_step,
    play_random,
    recording,
)
from rules_engine.submarine_attack import (
    OVER,
    PLACE,
    ROLL,
    START,
    TARGET,
    Place,
    Roll,
    Start,
    SubmarineAttack,
    SubmarineAttackState,
    Target,
)

from .test_submarine_attack_random import OPTION_SETS, VERSIONS

EXAMPLES = Path(__file__).resolve().parents[2] / "components" / "submarine-attack" / "examples"
RED_SHIPS = [5, 1, 2, 1, 2, 1]
BLUE_SHIPS = [4, 1, 1, 2, 5, 3]


def declared(game: Game) -> set[str]:
    return {c.id for c in game.info.clauses}


def placed(
    game: Game, red: list[str], blue: list[str], first: str = "red", **options: Any
) -> tuple[SubmarineAttack, SubmarineAttackState, list[Event]]:
    """A round 1 table laid out; the events of laying it out (and of what then follows by
    itself) are recorded."""
    engine = SubmarineAttack(game_data(game), "1.1", options)
    with recording() as log:
        state = engine.setup_state(
            {
                "first": first,
                "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS},
                "actions": {"red": red, "blue": blue},
            }
        )
    return engine, state, list(log.items)


def applied(state: SubmarineAttackState, action: Any) -> list[Event]:
    with recording() as log:
        state.apply(action)
    return list(log.items)


def kinds(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.rule, e.what) for e in events]


# --- characteristic transitions ----------------------------------------------------------------


def test_placing_reveals_slot_1_and_the_first_attack_begins(game: Game) -> None:
    _, _, events = placed(
        game,
        ["TB", "TA", "TC", "TS", "TA", "TB", "TC", "EA"],
        ["TC"] * 3 + ["TB", "TA", "TS", "TA", "TB"],
    )
    assert kinds(events) == [
        ("2-1", "place_transports"),
        ("2-2", "place_actions"),
        ("2-1", "place_transports"),
        ("2-2", "place_actions"),
        ("2-3", "reveal"),
        ("2-3-1", "attack"),
    ]
    assert events[0].data == {
        "player": "red",
        "ships": RED_SHIPS,
        "left_out": [3, 4],
        "columns": 6,
    }
    assert events[1].data["left_out"] == ["TC", "EB"]
    assert events[4].data == {
        "slot": 1,
        "players": ["red", "blue"],
        "kinds": ["torpedo", "torpedo"],
        "grades": ["B", "C"],
    }
    assert events[5].data == {
        "player": "red",
        "defender": "blue",
        "order": 1,
        "seats": 2,
        "grade": "B",
        "dice": 4,
    }


def test_a_pair_sinks_and_the_second_player_attacks(game: Game) -> None:
    _, state, _ = placed(
        game,
        ["TB", "TA", "TC", "TS", "TA", "TB", "TC", "EA"],
        ["TC", "TB", "TA", "TC", "EB", "TS", "TA", "TB"],
    )
    events = applied(state, Roll((3, 3, 5, 6)))
    assert kinds(events) == [
        ("2-3-1", "roll"),
        ("2-3-1(1)-pair", "sink"),
        ("2-3-2", "attack"),
    ]
    sink = events[1].data
    assert (sink["player"], sink["column"], sink["ships"], sink["total"]) == ("blue", 3, 1, 1)
    assert kinds(applied(state, Roll((1, 2, 4)))) == [
        ("2-3-1", "roll"),
        ("2-3-1(1)-miss", "miss"),
        ("2-4", "reveal"),
        ("2-3-1", "attack"),
    ]


def test_a_triple_waits_for_the_choice_and_a_sunk_column_fails(game: Game) -> None:
    _, state, _ = placed(
        game,
        ["TB", "TA", "TC", "TS", "TA", "TB", "TC", "EA"],
        ["TC", "TC", "TA", "TB", "EB", "TS", "TA", "TB"],
    )
    events = applied(state, Roll((5, 5, 2, 5)))
    assert kinds(events) == [("2-3-1", "roll"), ("2-3-1(1)-triple", "choose")]
    assert events[1].data["choices"] == [4, 5, 6]
    with pytest.raises(IllegalActionError) as info:
        state.apply(Target(0, 2))
    assert info.value.rule == "2-3-1(1)-triple"
    events = applied(state, Target(0, 5))
    assert kinds(events)[0] == ("2-3-1(1)-triple", "sink")
    assert events[0].data["chosen"] is True
    state.apply(Roll((1, 2, 3)))  # blue misses
    # Attack 2: red's torpedo A, two pairs, one on the column already sunk.
    events = applied(state, Roll((5, 5, 6, 6, 1)))
    assert kinds(events)[:3] == [
        ("2-3-1", "roll"),
        ("2-3-1(1)-sunk", "already_sunk"),
        ("2-3-1(1)-two-pairs", "sink"),
    ]


def test_evasion_takes_dice_and_makes_no_attack(game: Game) -> None:
    _, state, events = placed(
        game,
        ["TS", "EA", "TB", "TA", "TA", "TB", "TC", "TC"],
        ["EB", "TC", "EA", "TC", "TS", "TA", "TB", "TC"],
    )
    assert kinds(events)[4:] == [
        ("2-3", "reveal"),
        ("2-3-1", "attack"),
        ("2-3-1(2)", "evasion"),
        ("2-3-1(2)", "no_attack"),
        ("2-4", "reveal"),
        ("2-3-1(2)", "no_attack"),
        ("2-3-2", "attack"),
        ("2-3-1(2)", "evasion"),
        ("2-4", "reveal"),
        ("2-3-1", "attack"),
        ("2-3-1(2)", "evasion"),
    ]
    assert events[6].data == {
        "player": "blue",
        "grade": "B",
        "cancel": 7,
        "torpedo": "S",
        "left": 0,
    }
    assert events[-1].data["left"] == 1
    with pytest.raises(IllegalActionError) as info:
        state.apply(Roll((4, 4, 2)))
    assert info.value.rule == "2-3-1(2)"


def test_a_round_sunk_out_scores_and_the_next_round_begins(game: Game) -> None:
    _, state, _ = placed(
        game,
        ["TA", "TB", "TB", "TA", "TS", "TC", "TC", "TC"],
        ["TA", "TB", "TC", "TS", "TA", "TB", "TC", "EA"],
    )
    for dice in [
        (2, 2, 1, 5, 6),
        (3, 4, 3, 4, 1),
        (3, 3, 5, 6),
        (5, 1, 5, 2),
        (5, 5, 1, 6),
        (6, 6, 2),
    ]:
        state.apply(Roll(dice))
    events = applied(state, Roll((1, 1, 2, 3, 4)))
    assert kinds(events)[2:] == [
        ("2-5-1", "sunk_out"),
        ("2-5-1", "score"),
        ("2-5-1", "sunk_scores_zero"),
        ("2-5", "next_round"),
        ("2", "fewer_points"),
    ]
    assert events[2].data == {"player": "red", "defender": "blue", "ships": 11, "limit": 8}
    assert events[3].data == {"player": "red", "points": 6, "survivors": [5, 1], "total": 6}
    assert events[5].data == {"round": 2, "players": ["red", "blue"], "scores": [6, 0]}
    assert events[6].data["player"] == "blue"


def test_three_players_attack_to_the_left(game: Game) -> None:
    engine = SubmarineAttack(game_data(game), "1.1", {"players": 3})
    with recording() as log:
        engine.setup_state(
            {
                "first": "blue",
                "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS, "p3": RED_SHIPS},
                "actions": {
                    "red": ["EA", "TA", "TC", "TS", "TA", "TB", "TC", "TB"],
                    "blue": ["TA", "TB", "TC", "TC", "EB", "TS", "TA", "TB"],
                    "p3": ["TS", "TB", "TA", "TC", "EB", "TC", "TA", "TB"],
                },
            }
        )
    left = [e for e in log.items if e.rule == "5"]
    assert [(e.data["player"], e.data["defender"]) for e in left] == [("blue", "p3")]


# --- every rule the engine names is a declared clause -----------------------------------------


def _refusals(engine: SubmarineAttack, state: SubmarineAttackState) -> set[str]:
    """Try an action the rules refuse in the state's phase; the rule ids of the refusals."""
    tries: list[Any] = []
    phase = state.phase
    if phase == ROLL:
        tries = [Roll((1,) * (state.dice + 1)), Roll((0,) * state.dice)]
    elif phase == TARGET:
        other = (state.attacker + 1) % state.num_players
        tries = [Target(state.attacker, 0), Target(other, state.pending[0][2][0])]
    elif phase == PLACE:
        n = state.num_players
        ships = engine.ships_hand[: engine.transports_placed]
        cards = engine.cards_hand[: engine.actions_placed]
        bad = [Place(p, ships, cards) for p in range(n)]
        tries = [
            JointAction([bad[0]._replace(ships=ships[:-1]), *bad[1:]]),
            JointAction([bad[0]._replace(cards=cards[:-1]), *bad[1:]]),
            JointAction([bad[0]._replace(cards=("TZ",) * len(cards)), *bad[1:]]),
            bad[0],
        ]
    elif phase == START:
        tries = [Start(99)]
    elif phase == OVER:
        tries = [Roll((1, 1))]
    rules = set()
    for action in tries:
        try:
            state.clone().apply(action)
        except IllegalActionError as exc:
            rules.add(exc.rule)
        else:  # pragma: no cover - the tries above are all illegal
            raise AssertionError(f"{action!r} was accepted")
    return rules


def test_every_rule_applied_or_refused_in_random_games_is_declared(game: Game) -> None:
    data = game_data(game)
    used: Counter[str] = Counter()
    refused: set[str] = set()
    for i, (version, options) in enumerate(itertools.product(VERSIONS, OPTION_SETS)):
        engine = SubmarineAttack(data, version, options)
        for seed in range(15):
            rng = random.Random(1000 * i + seed)
            state = engine.new_initial_state()
            with recording(count_only=True) as log:
                if seed % 2:
                    state.play_random(rng)
                else:
                    play_random(state, rng)
            assert log.counts is not None
            used.update(log.counts)
            # Refusals, at a few positions along a replay of the same game.
            replayed = engine.new_initial_state()
            for k, step in enumerate(state.history):
                if k % 7 == 0:
                    refused |= _refusals(engine, replayed)
                apply_step(replayed, step)
            refused |= _refusals(engine, replayed)
    ids = declared(game)
    assert set(used) <= ids, sorted(set(used) - ids)
    assert refused <= ids, sorted(refused - ids)
    assert set(used) == ids, sorted(ids - set(used))  # random play reaches every clause


def test_every_event_is_told_in_both_languages(game: Game) -> None:
    """Every kind of event has a phrase, and every phrase renders over real events."""
    data = game_data(game)
    seen: dict[tuple[str, str], Event] = {}
    for i, (version, options) in enumerate(itertools.product(VERSIONS, OPTION_SETS)):
        engine = SubmarineAttack(data, version, options)
        for seed in range(4):
            state = engine.new_initial_state()
            with recording() as log:
                state.play_random(random.Random(7 * i + seed))
            for event in log.items:
                seen.setdefault((event.what, repr(sorted(event.data))), event)
    phrases = game.info.narration.events
    kinds_seen = {what for what, _ in seen}
    assert kinds_seen <= set(phrases), sorted(kinds_seen - set(phrases))
    for event in seen.values():
        for lang in LANGS:
            told = sentence(game, event, lang)
            assert told and "{" not in told, (event, lang, told)
            assert told.endswith("。" if lang == "ja" else "."), (event, lang, told)


def test_every_declared_clause_is_shown_by_an_example(game: Game) -> None:
    results = check_game(game)
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]
    found = coverage(game, results)
    assert not found.undeclared, found.undeclared
    assert not found.uncovered, [c.clause.id for c in found.uncovered]


# --- the odds the examples claim, counted over the dice ---------------------------------------


def _hits(dice: int, five_any: bool = True) -> Fraction:
    """The share of ordered rolls of `dice` six-sided dice in which some group takes
    effect on an untouched fleet: two to four of a face (or more, if five count as four)."""
    good = 0
    total = 0
    for roll in itertools.product(range(1, 7), repeat=dice):
        total += 1
        counts = Counter(roll).values()
        if any(2 <= c <= 4 or (c > 4 and five_any) for c in counts):
            good += 1
    return Fraction(good, total)


def _claimed(example: str, step: int) -> Fraction:
    spec = yaml.safe_load((EXAMPLES / example).read_text(encoding="utf-8"))
    return Fraction(str(spec["steps"][step]["expect"]["probability"]["sinks_any"]))


def test_the_claimed_odds_match_a_direct_count() -> None:
    # Torpedo S (7 dice) against evasion A (3 fewer): 4 dice; all different in 6*5*4*3 rolls.
    assert _hits(4) == 1 - Fraction(6 * 5 * 4 * 3, 6**4) == Fraction(13, 18)
    assert _claimed("17-torpedo-odds.yaml", 0) == Fraction(13, 18)
    # Torpedo C (3 dice): all different in 6*5*4 of 216 rolls.
    assert _hits(3) == 1 - Fraction(6 * 5 * 4, 6**3) == Fraction(4, 9)
    assert _claimed("17-torpedo-odds.yaml", 2) == Fraction(4, 9)
    # Torpedo S (7 dice) alone: seven dice on six faces always repeat one (pigeonhole).
    assert _claimed("09-torpedo-s-always-sinks.yaml", 0) == 1
    # Five of a kind doing nothing: 5+1+1 (6 faces * C(7,5) * 5 * 4), 6+1 (6 * 7 * 5), 7 (6).
    misses = 6 * 21 * 5 * 4 + 6 * 7 * 5 + 6
    assert misses == 2736
    assert _claimed("10-five-of-a-kind-reading.yaml", 0) == 1 - Fraction(misses, 6**7)


def test_sinks_any_is_the_last_attack(game: Game) -> None:
    engine, state, _ = placed(
        game,
        ["TB", "TA", "TC", "TS", "TA", "TB", "TC", "EA"],
        ["TC", "TB", "TA", "TC", "EB", "TS", "TA", "TB"],
    )
    assert engine.query(state, "sinks_any") is False
    state.apply(Roll((3, 3, 5, 6)))
    assert engine.query(state, "sinks_any") is True
    state.apply(Roll((1, 2, 4)))
    assert engine.query(state, "sinks_any") is False
    assert state.current_players() == (CHANCE,)
