"""S.U.B.Z.E.R.O.'s event log: the rules each transition applies, named as game.yaml declares
them (`clauses:`), told by its phrases (`narration:`), and shown by the worked examples."""

from __future__ import annotations

import random
from math import comb
from typing import Any

import pytest

from printgen.coverage import coverage
from printgen.engines import game_data
from printgen.examples import check_game
from printgen.model import Game, load_game
from printgen.narration import sentence
from rules_engine.core import (
    CHANCE,
    Event,
    IllegalActionError,
    apply_step,
    parse_step,
    random_step,
    recording,
)
from rules_engine.subzero import (
    DEAL,
    Draw,
    Place,
    Program,
    Reveal,
    Subzero,
    SubzeroState,
)

from .conftest import ROOT

FOLDER = ROOT / "components" / "subzero"

# The worked example of the seed (examples/01): Antony = red, Barbara = blue, Charles = green.
SEED_SETUP: dict[str, Any] = {
    "start": "blue",
    "positions": {"red": "C2", "blue": "D1", "green": "B4"},
    "snowballs": {"red": 0, "blue": 1, "green": 2},
    "programs": {
        "red": ["swish", "roll", "shoot"],
        "blue": ["shoot", "roll", "move-3"],
        "green": ["move-1", "shoot", "move-2"],
    },
    "hands": {"red": ["roll", "move-2"], "blue": ["swish", "roll"], "green": ["roll", "swish"]},
}


@pytest.fixture(scope="module")
def sz() -> Game:
    return load_game(FOLDER)


def engine_for(game: Game, **options: Any) -> Subzero:
    return Subzero(game_data(game), None, options)


def play(engine: Subzero, state: SubzeroState, *texts: str) -> list[Event]:
    """Apply the steps (notation) and return the events they reported."""
    with recording() as log:
        for text in texts:
            apply_step(state, parse_step(engine, text))
    return list(log.items)


def facts(events: list[Event], what: str) -> list[tuple[str, dict[str, Any]]]:
    return [(e.rule, dict(e.data)) for e in events if e.what == what]


def declared(game: Game) -> set[str]:
    return {c.id for c in game.info.clauses}


# --- characteristic transitions ----------------------------------------------------------


def test_the_seed_examples_first_step_tells_reveals_then_the_resolution(sz: Game) -> None:
    engine = engine_for(sz, players=3)
    state = engine.setup_state(SEED_SETUP)
    events = play(engine, state, "blue shoot NW", "green move-1 S", "red swish")
    assert [(e.rule, e.what) for e in events] == [
        ("reveal", "reveal"),
        ("shoot", "throw"),
        ("reveal", "reveal"),
        ("move", "aim"),
        ("reveal", "reveal"),
        ("swish", "duck"),
        ("resolve", "resolve"),
        ("move", "move"),
        ("swish", "dodge"),
        ("shoot", "hit"),
        ("move-target", "hit_moving"),
        ("hit", "hit_token"),
    ]
    assert events[0].data == {"player": "blue", "card": "shoot", "step": 1, "first": True}
    assert facts(events, "throw") == [
        ("shoot", {"player": "blue", "directions": ["NW"], "left": 0})
    ]
    assert facts(events, "move") == [
        ("move", {"player": "green", "path": ["B4", "B3"], "steps": 1})
    ]
    assert facts(events, "dodge") == [("swish", {"player": "red", "shooter": "blue"})]
    assert facts(events, "hit") == [
        (
            "shoot",
            {
                "shooter": "blue",
                "target": "green",
                "origin": "D1",
                "square": "B3",
                "ball": 1,
                "of": 1,
            },
        )
    ]
    assert facts(events, "hit_moving") == [
        ("move-target", {"player": "green", "square": "B3", "start": False})
    ]
    assert facts(events, "hit_token") == [
        ("hit", {"shooter": "blue", "target": "green", "damage": 1})
    ]


def test_two_balls_an_edge_turn_and_the_end_of_the_turn(sz: Game) -> None:
    engine = engine_for(sz, players=3)
    state = engine.setup_state(SEED_SETUP)
    play(engine, state, "blue shoot NW", "green move-1 S", "red swish")
    events = play(engine, state, "blue roll", "green shoot SE SE", "red roll")
    assert facts(events, "throw") == [
        ("shoot-two", {"player": "green", "directions": ["SE", "SE"], "left": 0})
    ]
    assert facts(events, "roll") == [
        ("roll", {"player": "blue", "snowballs": 1}),
        ("roll", {"player": "red", "snowballs": 1}),
    ]
    assert [d["ball"] for _, d in facts(events, "hit")] == [1, 2]
    events = play(engine, state, "blue move-3 N", "green move-2 W turn S", "red shoot W")
    assert facts(events, "aim")[1] == (
        "move",
        {"player": "green", "direction": "W", "steps": 2, "turn": "S"},
    )
    assert facts(events, "edge_turn") == [
        ("move-edge", {"player": "green", "edge": "A3", "turn": "S", "square": "A2"})
    ]
    assert facts(events, "turn_end") == [("refill", {"turn": 1, "discarded": 9})]
    assert facts(events, "start_passes") == [("start-passes", {"player": "green", "side": "left"})]
    events = play(engine, state, "draw blue move-1 shoot roll")
    assert facts(events, "draw") == [
        (
            "refill",
            {
                "player": "blue",
                "cards": ["move-1", "shoot", "roll"],
                "hand": 5,
                "full": True,
                "deal": False,
            },
        )
    ]


def test_bumps_name_the_pawn_in_the_way_or_the_square_two_movers_want(sz: Game) -> None:
    engine = engine_for(sz, players=3)
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "B2", "blue": "F2", "green": "C5"},
            "programs": {
                "red": ["move-3", "roll", "roll"],
                "blue": ["move-2", "roll", "roll"],
                "green": ["move-1", "roll", "roll"],
            },
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll"], "green": ["roll", "roll"]},
        }
    )
    events = play(engine, state, "red move-3 E", "blue move-2 W", "green move-1 S")
    assert facts(events, "bump") == [
        ("move-bump", {"player": "red", "square": "C2", "blocked": "D2", "blocker": ""}),
        ("move-bump", {"player": "blue", "square": "E2", "blocked": "D2", "blocker": ""}),
    ]
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "B2", "blue": "E2", "green": "C5"},
            "programs": {
                "red": ["move-3", "roll", "roll"],
                "blue": ["swish", "roll", "roll"],
                "green": ["roll", "roll", "roll"],
            },
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll"], "green": ["roll", "roll"]},
        }
    )
    events = play(engine, state, "red move-3 E", "blue swish", "green roll")
    assert facts(events, "move") == [
        ("move", {"player": "red", "path": ["B2", "C2", "D2"], "steps": 3})
    ]
    assert facts(events, "bump") == [
        ("move-bump", {"player": "red", "square": "D2", "blocked": "E2", "blocker": "blue"})
    ]


def test_a_full_hand_of_snowballs_and_an_empty_shoot(sz: Game) -> None:
    engine = engine_for(sz, players=3)
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "B2", "blue": "F2", "green": "C5"},
            "snowballs": {"red": 2, "blue": 0, "green": 0},
            "programs": {
                "red": ["roll", "roll", "roll"],
                "blue": ["shoot-swish", "roll", "roll"],
                "green": ["roll", "roll", "roll"],
            },
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll"], "green": ["roll", "roll"]},
        }
    )
    events = play(engine, state, "red roll", "blue shoot-swish shoot swish", "green roll")
    assert facts(events, "roll_full") == [("roll-max", {"player": "red", "snowballs": 2})]
    assert facts(events, "combined") == [
        (
            "combined",
            {
                "player": "blue",
                "card": "shoot-swish",
                "actions": ["shoot", "swish"],
                "both": True,
                "shoot_first": False,
            },
        )
    ]
    assert facts(events, "shoot_empty") == [("shoot-empty", {"player": "blue"})]
    assert facts(events, "duck") == [("swish", {"player": "blue"})]


def test_a_deathmatch_drop_out_and_the_last_one_standing(sz: Game) -> None:
    engine = engine_for(sz, players=2)
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "A1", "blue": "A5"},
            "snowballs": {"red": 1, "blue": 0},
            "boards": {"blue": {"red": 4}},
            "programs": {"red": ["shoot", "roll", "roll"], "blue": ["roll", "roll", "roll"]},
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll"]},
        }
    )
    events = play(engine, state, "red shoot N", "blue roll")
    assert [(e.rule, e.what) for e in events][-4:] == [
        ("hit", "hit_token"),
        ("deathmatch", "drop_out"),
        ("deathmatch", "last_standing"),
        ("game-end", "game_over"),
    ]
    assert events[-3].data == {"player": "blue", "damage": 5, "limit": 5}
    assert events[-1].data == {"winners": ["red"]}


def test_setup_tells_the_youngest_the_placements_and_the_deal(sz: Game) -> None:
    engine = engine_for(sz, players=2)
    state = engine.new_initial_state()
    events = play(engine, state, "youngest blue", "blue place D1", "red place C2")
    assert [(e.rule, e.what, dict(e.data)) for e in events] == [
        ("youngest", "youngest", {"player": "blue"}),
        ("place", "place", {"player": "blue", "square": "D1"}),
        ("place", "place", {"player": "red", "square": "C2"}),
    ]
    events = play(engine, state, "draw blue move-2 shoot roll roll swish")
    assert [(e.rule, e.what) for e in events] == [("deal", "draw")]
    assert events[0].data["deal"] is True


def test_a_hit_without_a_hit_token_and_a_draw_when_tokens_run_out(sz: Game) -> None:
    engine = engine_for(sz, players=4, damage_limit=15)
    common: dict[str, Any] = {
        "start": "red",
        "snowballs": {"red": 1},
        "programs": {
            "red": ["shoot", "roll", "roll"],
            "blue": ["swish", "swish", "roll"],
            "green": ["roll", "swish", "swish"],
            "yellow": ["swish", "swish", "roll"],
        },
        "hands": {
            "red": ["move-1", "move-2"],
            "blue": ["move-3", "shoot"],
            "green": ["shoot", "shoot"],
            "yellow": ["shoot", "shoot-swish"],
        },
    }
    # Red has placed all 15 HIT tokens: a hit of red's counts for nothing.
    state = engine.setup_state(
        {
            **common,
            "positions": {"red": "A1", "blue": "H8", "green": "A5", "yellow": "H1"},
            "boards": {"blue": {"red": 14}, "yellow": {"red": 1}},
        }
    )
    events = play(engine, state, "red shoot N", "blue swish", "green roll", "yellow swish")
    assert facts(events, "no_token") == [("hit", {"shooter": "red", "target": "green"})]
    assert state.damage == [0, 14, 0, 1]
    told = next(e for e in events if e.what == "no_token")
    assert (
        sentence(sz, told, "en") == "Red has no HIT token left, so the hit on Green does not count."
    )
    assert sentence(sz, told, "ja")
    # Blue and yellow are out; red places its last token, green has none: a draw.
    state = engine.setup_state(
        {
            **common,
            "positions": {"red": "A1", "green": "A5"},
            "out": ["blue", "yellow"],
            "boards": {"blue": {"red": 14, "green": 1}, "yellow": {"green": 14, "red": 1}},
            "programs": {k: v for k, v in common["programs"].items() if k in ("red", "green")},
            "hands": {"red": ["move-1", "move-2"], "green": ["shoot", "shoot"]},
        }
    )
    events = play(engine, state, "red shoot N", "green roll")
    assert [(e.rule, e.what, dict(e.data)) for e in events][-2:] == [
        ("game-end", "no_tokens", {"players": ["red", "green"], "draw": True}),
        ("game-end", "game_over", {"winners": ["red", "green"]}),
    ]
    for event in events[-2:]:
        assert sentence(sz, event, "en").startswith(("Nobody has", "The game is over"))
        assert sentence(sz, event, "ja")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("red roll", "reveal"),
        ("blue shoot N", "shoot-empty"),
        ("blue roll", "reveal"),
    ],
)
def test_refusals_name_declared_clauses(sz: Game, text: str, rule: str) -> None:
    engine = engine_for(sz, players=3)
    state = engine.setup_state(
        {
            "start": "blue",
            "positions": {"red": "C2", "blue": "D1", "green": "B4"},
            "programs": {
                "red": ["roll", "roll", "roll"],
                "blue": ["shoot", "roll", "roll"],
                "green": ["move-2", "roll", "roll"],
            },
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll"], "green": ["roll", "roll"]},
        }
    )
    with pytest.raises(IllegalActionError) as refused:
        apply_step(state, parse_step(engine, text))
    assert refused.value.rule == rule
    assert rule in declared(sz)


def test_draws_are_weighed_by_their_odds(sz: Game) -> None:
    engine = engine_for(sz, players=2)
    state = engine.new_initial_state()
    for text in ("youngest red", "red place A1", "blue place H8"):
        apply_step(state, parse_step(engine, text))
    assert state.phase == DEAL
    classes = engine.chance_classes(state)
    assert classes is not None
    assert [a for a, _ in classes] == list(state.legal_actions(CHANCE))
    assert sum(w for _, w in classes) == comb(engine.deck_size, engine.hand_size)
    draw = Draw(0, ("roll",) * 5)
    weight = dict(classes)[draw]
    assert weight == comb(engine.deck_counts[engine.card_index["roll"]], 5)
    assert engine.chance_classes(engine.new_initial_state()) is None


# --- random games: every rule id the engine uses is declared ------------------------------

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"players": 3, "ending": "survival", "damage_limit": 2},
    {"players": 4, "ending": "all-out-attack", "combined_cards": "one"},
    {"players": 2, "damage_limit": 2, "move_order": "reveal_order", "edge_reach": "arrive"},
    {"players": 3, "moving_target": "start_or_end", "damage_limit": 2, "edge_turn": "left"},
    {"players": 3, "moving_target": "reveal_order", "combined_cards": "both_shoot_first"},
)
GAMES = 240


def _wrong(state: SubzeroState, rng: random.Random) -> list[Any]:
    """A few actions the rules refuse now (or may refuse): another player's turn, cards
    not in hand, an occupied square, a bad direction, a wrong draw."""
    g = state.g
    tries: list[Any] = [
        Reveal(0, g.card_ids[0], 1, -1, None, False, False),
        Program(0, ("swish",) * g.slots),
        Place(0, state.pos[0] if state.pos[0] >= 0 else 0),
        Draw(rng.randrange(state.n), ("roll",)),
    ]
    players = state.current_players()
    if len(players) == 1 and players[0] != CHANCE:
        legal = state.legal_actions(players[0])
        action = legal[rng.randrange(len(legal))]
        if isinstance(action, Reveal):
            tries += [
                action._replace(shots=(0, 0, 0)),
                action._replace(move=3, turn=-1),
                action._replace(turn=4),
                action._replace(roll=not action.roll),
            ]
    return tries


def test_random_games_use_only_declared_rule_ids(sz: Game) -> None:
    known = declared(sz)
    used: set[str] = set()
    refused: set[str] = set()
    rng = random.Random(2005)
    engines = [engine_for(sz, **opts) for opts in OPTION_SETS]
    with recording(count_only=True) as log:
        for i in range(GAMES):
            engine = engines[i % len(engines)]
            state = engine.new_initial_state()
            steps = 0
            while not state.is_terminal():
                if steps % 7 == 0:
                    for action in _wrong(state, rng):
                        try:
                            state.clone().apply(action)
                        except IllegalActionError as exc:
                            refused.add(exc.rule)
                random_step(state, rng)
                steps += 1
            try:
                state.apply(Draw(0, ()))
            except IllegalActionError as exc:
                refused.add(exc.rule)
    assert log.counts is not None
    used = set(log.counts)
    assert used - known == set()
    assert refused - known == set()
    # the random games reach nearly every clause (a draw by lack of HIT tokens is rare)
    assert len(used) >= len(known) - 2
    assert {"reveal", "move", "move-edge", "game-end"} <= refused


def test_every_event_kind_has_a_phrase_in_both_languages(sz: Game) -> None:
    phrases = sz.info.narration.events
    rng = random.Random(21)
    seen: dict[str, Event] = {}
    for opts in OPTION_SETS:
        engine = engine_for(sz, **opts)
        for _ in range(6):
            state = engine.new_initial_state()
            with recording() as log:
                while not state.is_terminal():
                    random_step(state, rng)
            for event in log.items:
                seen.setdefault(event.what, event)
    assert set(seen) - set(phrases) == set()
    for event in seen.values():
        for lang in ("ja", "en"):
            told = sentence(sz, event, lang)
            assert told and "{" not in told, (event, lang, told)


# --- coverage: every declared clause is shown by a worked example -------------------------


def test_every_clause_is_shown_by_a_worked_example(sz: Game) -> None:
    found = coverage(sz, check_game(sz))
    assert found.undeclared == {}
    assert [c.clause.id for c in found.uncovered] == []
    sections = {p.stem for p in (FOLDER / "rulebook").glob("*.yaml")}
    assert {c.section for c in sz.info.clauses} <= sections
