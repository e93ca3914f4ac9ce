"""KILL SHOT's event log: the rules each transition applies, named by the clauses game.yaml
declares; the odds of chance's draws (`chance_classes`); and rule coverage by the worked
examples.

Characteristic transitions are checked fact by fact (a card landing and a Kill Shot, Bad
Intel's removal, a new hunt's deal, a Situation Room turn cut short); seeded random games of
every game type and optional rule check that every rule id the engine emits, or refuses an
action with, is a declared clause and that every event is told by a phrase in both
languages; the worked examples must show every clause.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from printgen.coverage import coverage
from printgen.engines import game_data
from printgen.examples import check_game
from printgen.model import Game, load_game
from printgen.narration import missing_phrases, sentence
from rules_engine.core import (
    CHANCE,
    Event,
    IllegalActionError,
    JointAction,
    parse_step,
    recording,
)
from rules_engine.kill_shot import (
    Clear,
    Draw,
    KillShot,
    KillShotState,
    Look,
    Pass,
    Play,
    Reload,
)

FOLDER = Path(__file__).resolve().parents[2] / "components" / "kill-shot"

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"game_type": "tactical-engagement", "players": 3},
    {"game_type": "situation-room", "players": 3},
    {"game_type": "situation-room", "situation_room_decks": "per_colour", "night_mission": True},
    {"briefing": True, "one_shot_one_kill": True, "simultaneous_plays": "all_land"},
    {"deadline": True, "players": 3},
    {"taliban": True, "players": 4},
    {"night_mission": True, "players": 3},
    {"terror_threat": True, "players": 5},
)
GAMES_PER_SET = 25
PROBED_PER_SET = 2


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(FOLDER)


def engine_for(game: Game, **options: Any) -> KillShot:
    return KillShot(game_data(game), None, options)


def play(engine: KillShot, state: KillShotState, text: str) -> list[Event]:
    """Apply one step (notation) and return the events it emitted."""
    step = parse_step(engine, text)
    with recording() as log:
        if isinstance(step, JointAction):
            state.apply_joint(step)
        else:
            state.apply(step)  # type: ignore[arg-type]
    return list(log.items)


def declared(game: Game) -> set[str]:
    return {c.id for c in game.info.clauses}


# --- characteristic transitions ------------------------------------------------------------


def test_a_kill_shot_lands_and_captures(game: Game) -> None:
    engine = engine_for(game, players=3)
    state = engine.setup_state(
        {
            "terrorists": ["broker"],
            "pile": ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"],
            "hands": {"alpha": ["r9"], "bravo": ["b3"], "charlie": ["g5"]},
            "clock": 8000,
            "ready": {"alpha": 8100, "bravo": 8300, "charlie": 8600},
        }
    )
    events = play(engine, state, "alpha plays r9")
    assert [(e.rule, e.what) for e in events] == [
        ("hunt-pile", "land"),
        ("kill-shot", "capture"),
        ("extra-cards", "extra-cards"),
    ]
    land, capture, extra = (e.data for e in events)
    assert (land["player"], land["colour"], land["number"], land["top"]) == ("alpha", "red", 9, 8)
    assert land["at"] == "8.10"
    assert capture == {
        "terrorist": "broker",
        "points": engine.terrorists[engine.terrorist("broker")].points,
        "pile": 1,
        "piles": 1,
        "player": "alpha",
    }
    assert extra == {"player": "alpha", "extra": 2}


def test_bad_intel_removes_the_top_two_levels(game: Game) -> None:
    engine = engine_for(game)
    state = engine.setup_state(
        {
            "terrorists": ["viper"],
            "pile": ["r1", "b2", "g2", "y3", "r4", "b4", "g5", "p5"],
            "hands": {"alpha": ["rB"], "bravo": ["b5"], "charlie": ["g6"], "delta": ["p4"]},
            "clock": 4200,
            "ready": {"alpha": 4350, "bravo": 4600, "charlie": 4480, "delta": 4720},
        }
    )
    events = play(engine, state, "alpha plays rB")
    assert [(e.rule, e.what) for e in events] == [
        ("bad-intel", "bad-intel"),
        ("bad-intel", "cease-fire"),
    ]
    facts = events[0].data
    assert (facts["top"], facts["below"], facts["left"]) == (5, 4, 3)
    assert facts["removed_numbers"] == [4, 4, 5, 5]
    go = play(engine, state, "go alpha 600 bravo 450 charlie 700 delta 520")
    assert [(e.rule, e.what) for e in go] == [("countdown", "go")]
    assert go[0].data["first"] == ["bravo"] and go[0].data["first_at"] == "7.80"


def test_a_new_hunt_is_set_up_and_dealt(game: Game) -> None:
    engine = engine_for(game, players=3)
    state = engine.setup_state(
        {
            "terrorists": ["broker"],
            "remaining": ["sandstorm"],
            "pile": ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"],
            "hands": {"alpha": ["r9"], "bravo": ["b3"], "charlie": ["g5"]},
            "clock": 8000,
            "ready": {"alpha": 8100, "bravo": 8300, "charlie": 8600},
        }
    )
    play(engine, state, "alpha plays r9")
    reveal = play(engine, state, "reveal sandstorm")
    assert [e.rule for e in reveal] == ["new-hunt", "setup", "short-hand", "extra-cards"]
    assert reveal[2].data["limit"] == 4 and reveal[2].data["fewer"] == 2
    deal = play(engine, state, "draw alpha r1 b1 g1 y1 p1 r2")
    assert [(e.rule, e.what, e.data["count"]) for e in deal] == [("deal", "deal", 6)]
    refill_rules = {e.rule for e in deal}
    assert "reload" not in refill_rules


def _situation_room(game: Game, turn: str) -> tuple[Any, Any]:
    """A three-player Situation Room hunt whose turn is `turn`'s."""
    engine = engine_for(game, game_type="situation-room", players=3)
    state = engine.setup_state(
        {
            "terrorists": ["cobalt"],
            "pile": ["r1", "b2", "g3", "y4"],
            "hands": {
                "alpha": ["r4", "b5", "g4", "y3", "p6", "r9", "g1", "b7", "y8"],
                "bravo": ["b1", "r2", "y5", "p5", "g7", "g8", "b9", "r6", "y2"],
                "charlie": ["gJ", "p2", "y6", "r5", "g6", "b6", "p7", "p8", "y9"],
            },
            "turn": turn,
        }
    )
    return engine, state


def test_a_situation_room_turn_ended_by_a_jam(game: Game) -> None:
    engine, state = _situation_room(game, "bravo")
    events = play(engine, state, "alpha pass ; bravo plays y5 ; charlie plays gJ at bravo")
    assert [(e.rule, e.what) for e in events] == [
        ("sr-specials", "turn-ended"),
        ("situation-room", "turn"),
    ]
    assert events[0].data["target"] == "bravo" and events[1].data["player"] == "charlie"
    events = play(engine, state, "alpha pass ; bravo pass ; charlie plays r5 g6 p7")
    assert [e.rule for e in events] == ["sr-play", "sr-play", "sr-play", "situation-room"]
    assert [e.data["number"] for e in events[:3]] == [5, 6, 7]


def test_refusals_name_declared_clauses(game: Game) -> None:
    engine, state = _situation_room(game, "charlie")
    try:
        play(engine, state, "alpha pass ; bravo pass ; charlie plays r5 y9")
    except IllegalActionError as exc:
        assert exc.rule == "sr-play"
    else:
        raise AssertionError("a 9 may not follow a 5")


# --- the odds of a draw ----------------------------------------------------------------------


def test_draw_odds_count_the_copies_left(game: Game) -> None:
    engine = engine_for(game, players=2)
    state = engine.setup_state(
        {
            "terrorists": ["nightjar"],
            "pile": ["b1", "b2", "b3", "b4"],
            "hands": {
                "alpha": ["y1", "g9", "p9", "g8", "p8", "y9"],
                "bravo": ["g1", "g2", "g3", "p1", "p2", "p3"],
            },
            "deck": ["r5", "r5", "y7"],
            "clock": 2500,
            "ready": {"alpha": 2600, "bravo": 2900},
        }
    )
    assert engine.chance_classes(state) is None  # a player acts, not chance
    play(engine, state, "alpha reload y1 g9")
    classes = engine.chance_classes(state)
    assert classes is not None
    weights = {engine.format_action(a): w for a, w in classes}
    # two cards from {r5, r5, y7}: 3 * 2 = 6 ordered draws of the physical cards
    assert weights == {"draw alpha r5 r5": 2, "draw alpha r5 y7": 2, "draw alpha y7 r5": 2}
    assert sum(weights.values()) == 6
    # past the deck's last card the draw goes on from the discards turned over
    play(engine, state, "draw alpha r5 y7")
    play(engine, state, "react alpha 500")
    play(engine, state, "bravo wait")
    play(engine, state, "react bravo 500")
    play(engine, state, "alpha reload y7 p9")
    classes = engine.chance_classes(state)
    assert classes is not None and all(isinstance(a, Draw) for a, _ in classes[:5])
    first, weight = classes[0]
    assert weight >= 1 and len(first.cards) == 2  # type: ignore[union-attr]


def test_reaction_times_and_choices_have_no_weights(game: Game) -> None:
    engine = engine_for(game, players=2)
    state = engine.new_initial_state()
    reveal = engine.chance_classes(state)
    assert reveal is not None and {w for _, w in reveal} == {1}
    assert len(reveal) == len(engine.terrorists)


# --- random games ----------------------------------------------------------------------------


def _probes(state: KillShotState, player: int) -> Iterable[Any]:
    """A few actions the player might try now, legal or not (to collect refusals)."""
    hand = state.hands[player]
    for c in sorted(set(hand))[:4]:
        yield Play(player, (c,), 0, -1)
        yield Play(player, (c,), 0, (player + 1) % state.n)
        yield Play(player, (c,), 5, -1)
    yield Play(player, (0,), 0, -1)
    yield Reload(player, (), ())
    yield Reload(player, (), (0,))
    yield Clear(player)
    yield Look(player, 0)
    yield Pass(player)


def test_random_games_apply_and_refuse_only_declared_rules(game: Game) -> None:
    ids = declared(game)
    applied: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    kinds: dict[str, Event] = {}

    def note(events: list[Event]) -> None:
        for event in events:
            applied[event.rule] += 1
            kinds.setdefault(event.what, event)
        events.clear()

    for options in OPTION_SETS:
        engine = KillShot(game_data(game), None, options)
        for seed in range(GAMES_PER_SET):
            rng = random.Random(seed)
            state = engine.new_initial_state()
            with recording() as log:
                state.play_random(rng)
                note(log.items)
            assert state.is_terminal()
        # a few games by the checked driver, trying illegal actions on the way
        for seed in range(PROBED_PER_SET):
            rng = random.Random(1000 + seed)
            state = engine.new_initial_state()
            steps = 0
            with recording() as log:
                while not state.is_terminal():
                    steps += 1
                    assert steps < 100_000
                    players = state.current_players()
                    if len(players) == 1 and players[0] != CHANCE and steps % 3 == 0:
                        legal = state.legal_actions(players[0])
                        for action in _probes(state, players[0]):
                            if action in legal:
                                continue
                            try:
                                state.clone().apply(action)
                            except IllegalActionError as exc:
                                refused[exc.rule] += 1
                    if len(players) == 1:
                        state.apply(state.sample_action(players[0], rng))
                    else:
                        state.apply_joint([state.sample_action(p, rng) for p in players])
                    if len(log.items) > 2000:
                        note(log.items)
                note(log.items)
    assert set(applied) <= ids, sorted(set(applied) - ids)
    assert set(refused) <= ids, sorted(set(refused) - ids)
    # the rules every game applies
    assert {"setup", "deal", "countdown", "hunt-pile", "game-end"} <= set(applied)
    # every kind of event has a phrase, and each renders in both languages
    assert missing_phrases(game, kinds.values()) == []
    for event in kinds.values():
        for lang in ("ja", "en"):
            said = sentence(game, event, lang)
            assert said and "{" not in said, (event, lang, said)


def test_every_clause_is_shown_by_a_worked_example(game: Game) -> None:
    results = check_game(game)
    assert results and all(r.ok for r in results)
    found = coverage(game, results)
    assert [c.clause.id for c in found.uncovered] == []
    assert found.undeclared == {}
