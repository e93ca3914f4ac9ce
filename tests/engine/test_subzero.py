"""What the S.U.B.Z.E.R.O. rules say, stated as behaviour."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.engines import game_data
from printgen.errors import PrintgenError
from printgen.examples import Example, ExampleSpec, check_game, example_files, run_example
from printgen.model import Game, load_game
from printgen.source import Document, validate
from rules_engine.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    OptionError,
    format_step,
    options_from,
    parse_step,
    replay,
)
from rules_engine.registry import engine_for
from rules_engine.subzero import (
    DEATHMATCH,
    Draw,
    MultisetDraws,
    Reveal,
    Subzero,
    SubzeroState,
)

from .conftest import ROOT
from .test_examples import _expect_values, _set

FOLDER = ROOT / "components" / "subzero"
EXAMPLES = sorted((FOLDER / "examples").glob("*.yaml"))


@pytest.fixture(scope="module")
def sz() -> Game:
    return load_game(FOLDER)


FILLER = {"red": ["roll", "roll"], "blue": ["roll", "roll"], "green": ["roll", "roll"]}


def start(
    game: Game,
    positions: dict[str, str],
    programs: dict[str, list[str]],
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> tuple[Subzero, SubzeroState]:
    """A game in progress: the first reveal of a turn is next."""
    opts = {"players": len(positions) + len(setup.get("out", [])), **(options or {})}
    engine = Subzero(game_data(game), None, opts)
    hands = setup.pop("hands", None) or {name: ["swish", "swish"] for name in programs}
    full = {"start": setup.pop("start", next(iter(positions))), "positions": positions}
    full.update(programs=programs, hands=hands, **setup)
    return engine, engine.setup_state(full)


def do(engine: Subzero, state: SubzeroState, *texts: str) -> None:
    for text in texts:
        step = parse_step(engine, text)
        if isinstance(step, tuple) and not hasattr(step, "_fields"):
            state.apply_joint(step)
        else:
            state.apply(step)  # type: ignore[arg-type]


def q(engine: Subzero, state: SubzeroState, name: str) -> Any:
    return engine.query(state, name)


# --- the data -------------------------------------------------------------------------------


def test_numbers_come_from_the_data(sz: Game) -> None:
    engine = Subzero(game_data(sz))
    assert (engine.width, engine.height) == (8, 8)
    assert engine.square_names[0] == "A1" and engine.square_names[-1] == "H8"
    assert (engine.hand_size, engine.slots, engine.max_snowballs) == (5, 3, 2)
    assert engine.max_balls_per_shot == 2 and engine.hit_tokens == 15
    assert engine.deck_size == 56
    by_actions: dict[tuple[str, ...], int] = {}
    for card in engine.cards:
        by_actions[card.actions] = by_actions.get(card.actions, 0) + card.count
    assert by_actions == {
        ("move",): 12,
        ("shoot",): 8,
        ("roll",): 16,
        ("swish",): 8,
        ("move", "shoot"): 8,
        ("shoot", "swish"): 4,
    }
    assert {c.steps for c in engine.cards if "move" in c.actions} == {1, 2, 3, 4}
    assert engine.names == ("red", "blue", "green", "yellow")
    assert engine.damage_limit == 5 and engine.ending == DEATHMATCH
    assert Subzero(game_data(sz), None, {"players": 2}).names == ("red", "blue")


def _changed(game: Game, **rules: Any) -> Game:
    info = game.info.model_copy(update={"rules": {**game.info.rules, **rules}})
    return dataclasses.replace(game, info=info)


def test_a_changed_parameter_in_the_data_changes_the_rules(sz: Game) -> None:
    game = _changed(
        sz,
        max_snowballs=3,
        board={
            "columns": 6,
            "rows": 5,
            "column_labels": list("abcdef"),
            "row_labels": ["1", "2", "3", "4", "5"],
        },
        endings={"deathmatch": {"damage_limit": 3}},
    )
    engine = Subzero(game_data(game), None, {"players": 2})
    assert engine.square_names[-1] == "f5" and engine.damage_limit == 3
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "a1", "blue": "f5"},
            "snowballs": {"red": 2},
            "programs": {"red": ["roll", "roll", "roll"], "blue": ["roll", "roll", "roll"]},
            "hands": {"red": ["swish", "swish"], "blue": ["swish", "swish"]},
        }
    )
    do(engine, state, "red roll", "blue roll")
    assert state.balls == [3, 1]
    with pytest.raises(ValueError, match=r"rules\.ending is 'survival'"):
        Subzero(game_data(_changed(sz, ending="survival")))
    with pytest.raises(ValueError, match="HIT tokens in the data"):
        Subzero(game_data(_changed(sz, hit_tokens_per_player=10)))


def test_options_are_named_and_checked(sz: Game) -> None:
    entry = engine_for("subzero")
    assert entry is not None
    assert {o.name for o in entry.options_for(game_data(sz))} == {
        "players",
        "ending",
        "damage_limit",
        "start_player_passes",
        "moving_target",
        "move_order",
        "combined_cards",
        "edge_turn",
        "edge_reach",
        "ball_range",
    }
    for option in options_from(game_data(sz)):
        assert option.explain.ja and option.explain.en
        for text in option.choices.values():
            assert text.ja and text.en
    with pytest.raises(OptionError, match="unknown rule option 'turn'"):
        Subzero(game_data(sz), None, {"turn": "left"})
    with pytest.raises(OptionError, match="must be one of"):
        Subzero(game_data(sz), None, {"edge_turn": "up"})
    with pytest.raises(OptionError):
        Subzero(game_data(sz), None, {"players": 5})


# --- notation -------------------------------------------------------------------------------


def test_notation_round_trips_on_every_legal_action(sz: Game) -> None:
    for options in ({}, {"combined_cards": "one"}, {"edge_turn": "right"}):
        engine = Subzero(game_data(sz), None, options)
        rng = random.Random(5)
        state = engine.new_initial_state()
        seen = 0
        while not state.is_terminal() and seen < 400:
            for p in state.current_players():
                actions = state.legal_actions(p)
                pick = actions if len(actions) <= 60 else [actions[rng.randrange(len(actions))]]
                for action in pick:
                    assert engine.parse_action(engine.format_action(action)) == action
                    assert action in actions
                    seen += 1
            step = state.sample_action(state.current_players()[0], rng)
            if len(state.current_players()) > 1:
                state.apply_joint([state.sample_action(p, rng) for p in state.current_players()])
            else:
                state.apply(step)
        for s in state.history:
            assert parse_step(engine, format_step(engine, s)) == s


def test_bad_notation_names_the_problem(sz: Game) -> None:
    engine = Subzero(game_data(sz))
    for text, message in (
        ("", "empty action"),
        ("red shoot UP", "unknown direction 'UP'"),
        ("red place Z9", "unknown square 'Z9'"),
        ("red program roll bazooka roll", "unknown card 'bazooka'"),
        ("purple roll", "cannot read"),
        ("red move-2 N turn", "a move is 'DIRECTION'"),
        ("red roll N", "'roll' takes no choices"),
        ("red move-shoot-1 N", "card move-shoot-1 has move and shoot"),
        ("red move-shoot-1 move N move S", "'move' twice"),
        ("red place", "a placement is"),
    ):
        with pytest.raises(NotationError, match=message):
            engine.parse_action(text)


# --- MOVE -------------------------------------------------------------------------------------

MOVES = {"red": ["move-3", "roll", "roll"], "blue": ["move-2", "roll", "roll"]}


def test_a_move_takes_exactly_its_steps_up_down_left_or_right(sz: Game) -> None:
    engine, state = start(sz, {"red": "C3", "blue": "G7"}, MOVES)
    with pytest.raises(IllegalActionError, match="rule move: a MOVE goes up, down, left or right"):
        state.apply(Reveal(0, "move-3", 1, -1, None, False, False))
    do(engine, state, "red move-3 E", "blue move-2 S")
    assert q(engine, state, "positions") == {"red": "F3", "blue": "G5"}


def test_a_mover_stops_just_before_a_pawn(sz: Game) -> None:
    engine, state = start(sz, {"red": "C3", "blue": "E3"}, MOVES)
    do(engine, state, "red move-3 E", "blue move-2 N")
    # blue leaves E3 as red arrives next to it: red follows into E3 and on to F3.
    assert q(engine, state, "positions") == {"red": "F3", "blue": "E5"}
    engine, state = start(
        sz, {"red": "C3", "blue": "E3"}, {"red": MOVES["red"], "blue": ["roll"] * 3}
    )
    do(engine, state, "red move-3 E", "blue roll")
    assert q(engine, state, "last_moves") == {"red": "C3-D3"}


def test_at_the_edge_a_mover_turns_moves_one_square_and_stops(sz: Game) -> None:
    engine, state = start(sz, {"red": "C3", "blue": "G7"}, MOVES)
    texts = [engine.format_action(a) for a in state.legal_actions(0)]
    assert texts == [
        "red move-3 N",
        "red move-3 E",
        "red move-3 S turn E",
        "red move-3 S turn W",
        "red move-3 W turn S",
        "red move-3 W turn N",
    ]
    with pytest.raises(IllegalActionError, match="say where it turns"):
        do(engine, state, "red move-3 W")
    with pytest.raises(IllegalActionError, match="no turn to choose: a 3-step move N"):
        do(engine, state, "red move-3 N turn E")
    do(engine, state, "red move-3 W turn N", "blue move-2 S")
    # C3 -> B3 -> A3, the next step would leave the board: turn north, A4, stop.
    assert q(engine, state, "last_moves") == {"red": "C3-B3-A3-A4", "blue": "G7-G6-G5"}


@pytest.mark.parametrize(("turn", "end"), [("left", "A2"), ("right", "A4")])
def test_a_fixed_turn_is_not_chosen(sz: Game, turn: str, end: str) -> None:
    engine, state = start(sz, {"red": "C3", "blue": "G7"}, MOVES, {"edge_turn": turn})
    with pytest.raises(IllegalActionError, match="the edge turn is fixed"):
        do(engine, state, "red move-3 W turn N")
    do(engine, state, "red move-3 W", "blue move-2 N")
    assert q(engine, state, "positions")["red"] == end


def test_in_a_corner_a_fixed_turn_off_the_board_stops_the_mover(sz: Game) -> None:
    engine, state = start(sz, {"red": "B1", "blue": "G7"}, MOVES, {"edge_turn": "left"})
    do(engine, state, "red move-3 W", "blue move-2 N")  # heading west, left is south: off
    assert q(engine, state, "last_moves")["red"] == "B1-A1"
    engine, state = start(sz, {"red": "B1", "blue": "G7"}, MOVES)
    assert [engine.format_action(a) for a in state.legal_actions(0)][-1] == "red move-3 W turn N"


def test_simultaneous_movers_bump_into_each_other(sz: Game) -> None:
    progs = {"red": ["move-2", "roll", "roll"], "blue": ["move-2", "roll", "roll"]}
    # Head on: both want the middle square, both stop before it.
    engine, state = start(sz, {"red": "B4", "blue": "D4"}, progs)
    do(engine, state, "red move-2 E", "blue move-2 W")
    assert q(engine, state, "positions") == {"red": "B4", "blue": "D4"}
    # A follower may enter the square the leader leaves.
    engine, state = start(sz, {"red": "B4", "blue": "C4"}, progs)
    do(engine, state, "red move-2 E", "blue move-2 E")
    assert q(engine, state, "positions") == {"red": "D4", "blue": "E4"}
    # In reveal order the leader has not moved yet when... red moves first and bumps.
    engine, state = start(sz, {"red": "B4", "blue": "C4"}, progs, {"move_order": "reveal_order"})
    do(engine, state, "red move-2 E", "blue move-2 E")
    assert q(engine, state, "positions") == {"red": "B4", "blue": "E4"}
    # A chain that ends at a standing pawn stops as a whole.
    engine, state = start(
        sz,
        {"red": "B4", "blue": "C4", "green": "D4"},
        {**progs, "green": ["roll", "roll", "roll"]},
        hands=FILLER,
    )
    do(engine, state, "red move-2 E", "blue move-2 E", "green roll")
    assert q(engine, state, "positions") == {"red": "B4", "blue": "C4", "green": "D4"}


# --- SHOOT, ROLL, SWISH ---------------------------------------------------------------------


def test_a_ball_hits_the_first_pawn_on_its_line_that_is_not_ducking(sz: Game) -> None:
    progs = {
        "red": ["shoot", "shoot", "roll"],
        "blue": ["swish", "roll", "roll"],
        "green": ["roll", "roll", "roll"],
    }
    engine, state = start(
        sz, {"red": "A1", "blue": "C3", "green": "E5"}, progs, snowballs={"red": 2}, hands=FILLER
    )
    do(engine, state, "red shoot NE", "blue swish", "green roll")
    assert q(engine, state, "last_hits") == ["red>green"]
    do(engine, state, "red shoot NE", "blue roll", "green roll")
    assert q(engine, state, "last_hits") == ["red>blue"]
    assert q(engine, state, "boards") == {"red": {}, "blue": {"red": 1}, "green": {"red": 1}}


def test_no_snowball_no_effect_and_one_ball_per_snowball(sz: Game) -> None:
    progs = {"red": ["shoot", "shoot", "shoot"], "blue": ["roll", "roll", "roll"]}
    engine, state = start(sz, {"red": "A1", "blue": "A5"}, progs, snowballs={"red": 1})
    assert len(state.legal_actions(0)) == 8
    with pytest.raises(IllegalActionError, match="rule shoot-two: red holds 1 snowball"):
        do(engine, state, "red shoot N N")
    do(engine, state, "red shoot N", "blue roll")
    assert q(engine, state, "damage") == {"red": 0, "blue": 1}
    assert [engine.format_action(a) for a in state.legal_actions(0)] == ["red shoot"]
    do(engine, state, "red shoot", "blue roll")
    assert q(engine, state, "last_hits") == []
    state.balls[0] = 2
    assert len(state.legal_actions(0)) == 8 + 36  # one ball, or two in any two directions


def test_roll_makes_a_snowball_up_to_two(sz: Game) -> None:
    progs = {"red": ["roll", "roll", "roll"], "blue": ["roll", "roll", "roll"]}
    engine, state = start(sz, {"red": "A1", "blue": "A5"}, progs, snowballs={"blue": 1})
    for _ in range(3):
        do(engine, state, "red roll", "blue roll")
    assert q(engine, state, "snowballs") == {"red": 2, "blue": 2}


def test_swish_protects_for_its_step_only(sz: Game) -> None:
    progs = {"red": ["shoot", "shoot", "roll"], "blue": ["swish", "roll", "roll"]}
    engine, state = start(sz, {"red": "A1", "blue": "A5"}, progs, snowballs={"red": 2})
    do(engine, state, "red shoot N", "blue swish")
    assert q(engine, state, "last_hits") == [] and q(engine, state, "ducking") == []
    do(engine, state, "red shoot N", "blue roll")
    assert q(engine, state, "last_hits") == ["red>blue"]


def test_a_mover_can_be_hit_on_its_start_square_by_option(sz: Game) -> None:
    progs = {"red": ["shoot", "roll", "roll"], "blue": ["move-1", "roll", "roll"]}
    for reading, hit in (("end_square", []), ("start_or_end", ["red>blue"])):
        engine, state = start(
            sz, {"red": "A1", "blue": "A5"}, progs, {"moving_target": reading}, snowballs={"red": 1}
        )
        do(engine, state, "red shoot N", "blue move-1 E")
        assert q(engine, state, "last_hits") == hit
    engine, state = start(
        sz,
        {"red": "A1", "blue": "B5"},
        progs,
        {"moving_target": "reveal_order"},
        snowballs={"red": 1},
    )
    do(engine, state, "red shoot N", "blue move-1 W")  # blue revealed after red: still on B5
    assert q(engine, state, "last_hits") == []


# --- HIT tokens -------------------------------------------------------------------------------


def test_a_shooter_without_hit_tokens_records_no_damage(sz: Game) -> None:
    progs = {
        "red": ["shoot", "roll", "roll"],
        "blue": ["roll", "roll", "roll"],
        "green": ["roll", "roll", "roll"],
    }
    engine, state = start(
        sz,
        {"red": "A1", "blue": "H8", "green": "A5"},
        progs,
        {"ending": "all-out-attack"},
        snowballs={"red": 1},
        boards={"blue": {"red": 15}},
        hands=FILLER,
    )
    assert q(engine, state, "hit_tokens_left") == {"red": 0, "blue": 15, "green": 15}
    do(engine, state, "red shoot N", "blue roll", "green roll")
    assert q(engine, state, "last_hits") == ["red>green (no HIT token left)"]
    assert q(engine, state, "damage") == {"red": 0, "blue": 15, "green": 0}
    assert not state.is_terminal()


def test_when_nobody_can_win_any_more_the_game_is_drawn(sz: Game) -> None:
    progs = {
        "red": ["shoot", "roll", "roll"],
        "blue": ["roll", "roll", "roll"],
        "green": ["roll", "roll", "roll"],
    }
    engine, state = start(
        sz,
        {"red": "A1", "blue": "H8", "green": "A5"},
        progs,
        {"ending": "all-out-attack"},
        snowballs={"red": 1},
        boards={"blue": {"red": 15}, "red": {"blue": 15, "green": 15}},
        hands=FILLER,
    )
    do(engine, state, "red shoot N", "blue roll", "green roll")
    assert state.is_terminal() and q(engine, state, "winners") == ["red", "blue", "green"]
    assert state.returns() == (0.0, 0.0, 0.0)


# --- endings ----------------------------------------------------------------------------------


def test_deathmatch_players_dropping_out_together_share_the_result(sz: Game) -> None:
    progs = {"red": ["shoot", "roll", "roll"], "blue": ["shoot", "roll", "roll"]}
    engine, state = start(
        sz,
        {"red": "A1", "blue": "A5"},
        progs,
        snowballs={"red": 1, "blue": 1},
        boards={"red": {"blue": 4}, "blue": {"red": 4}},
    )
    do(engine, state, "red shoot N", "blue shoot S")
    assert q(engine, state, "out") == ["red", "blue"]
    assert q(engine, state, "winners") == ["red", "blue"]
    assert state.returns() == (0.0, 0.0)


def test_survival_least_damage_wins_and_ties_share(sz: Game) -> None:
    progs = {
        "red": ["shoot", "roll", "roll"],
        "blue": ["roll", "roll", "roll"],
        "green": ["roll"] * 3,
    }
    engine, state = start(
        sz,
        {"red": "A1", "blue": "A5", "green": "H8"},
        progs,
        {"ending": "survival"},
        snowballs={"red": 1},
        boards={"blue": {"green": 4}, "green": {"blue": 1}, "red": {"blue": 1}},
        hands=FILLER,
    )
    do(engine, state, "red shoot N", "blue roll", "green roll")
    assert q(engine, state, "winners") == ["red", "green"]
    assert state.returns() == (0.0, -1.0, 0.0)


def test_all_out_attack_winners_at_once_share(sz: Game) -> None:
    progs = {
        "red": ["shoot", "roll", "roll"],
        "blue": ["shoot", "roll", "roll"],
        "green": ["roll"] * 3,
    }
    engine, state = start(
        sz,
        {"red": "A1", "blue": "A5", "green": "E5"},
        progs,
        {"ending": "all-out-attack"},
        snowballs={"red": 1, "blue": 1},
        boards={"green": {"red": 1}, "red": {"blue": 1}},
        hands=FILLER,
    )
    do(engine, state, "red shoot N", "blue shoot E", "green roll")
    assert q(engine, state, "winners") == ["red", "blue"]


def test_a_dropped_out_player_is_skipped_and_the_start_passes_on(sz: Game) -> None:
    progs = {
        "red": ["shoot", "roll", "roll"],
        "blue": ["roll", "roll", "roll"],
        "green": ["roll", "roll", "roll"],
    }
    engine, state = start(
        sz,
        {"red": "A1", "blue": "A5", "green": "H8"},
        progs,
        snowballs={"red": 1},
        boards={"blue": {"red": 4}},
        hands=FILLER,
    )
    do(engine, state, "red shoot N", "blue roll", "green roll")
    assert q(engine, state, "out") == ["blue"] and state.current_players() == (0,)
    do(engine, state, "red roll", "green roll", "red roll", "green roll")
    assert q(engine, state, "phase") == "deal"
    assert q(engine, state, "start") == "green"  # blue, next to the left, is out
    first_draw = state.legal_actions(CHANCE)[0]
    assert isinstance(first_draw, Draw) and first_draw.player == 0  # red refills first


@pytest.mark.parametrize(("passes", "next_start"), [("left", "blue"), ("right", "green")])
def test_the_start_player_passes(sz: Game, passes: str, next_start: str) -> None:
    progs = {name: ["roll", "roll", "roll"] for name in ("red", "blue", "green")}
    engine, state = start(
        sz,
        {"red": "A1", "blue": "A5", "green": "H8"},
        progs,
        {"start_player_passes": passes},
        hands=FILLER,
    )
    assert state.current_players() == (0,)
    do(engine, state, *["red roll", "blue roll", "green roll"] * 3)
    assert q(engine, state, "start") == next_start and q(engine, state, "turn") == 2


# --- cards ------------------------------------------------------------------------------------


def test_multiset_draws_are_the_distinct_hands(sz: Game) -> None:
    counts = (2, 0, 3, 1)
    draws = MultisetDraws(counts, 3)
    pool = [k for k, c in enumerate(counts) for _ in range(c)]
    expected = sorted(set(tuple(sorted(c)) for c in itertools.combinations(pool, 3)))
    assert sorted(draws) == expected and len(draws) == len(expected)
    assert all(e in draws for e in expected)
    assert (1, 1, 2) not in draws and (2, 0, 0) not in draws


def test_drawing_from_an_empty_pile_needs_a_reshuffle_first(sz: Game) -> None:
    engine = Subzero(game_data(sz), None, {"players": 2})
    state = engine.setup_state(
        {
            "start": "red",
            "positions": {"red": "A1", "blue": "H8"},
            "hands": {"red": ["roll", "roll"], "blue": ["roll", "roll", "roll", "roll"]},
            "draw_pile": ["shoot"],
        }
    )
    assert state.current_players() == (CHANCE,)
    assert [engine.format_action(a) for a in state.legal_actions(CHANCE)] == ["draw red shoot"]
    with pytest.raises(IllegalActionError, match="rule reshuffle: the draw pile still holds 1"):
        do(engine, state, "reshuffle")
    do(engine, state, "draw red shoot")
    with pytest.raises(IllegalActionError, match="reshuffle the discards first"):
        do(engine, state, "draw red roll roll")
    do(engine, state, "reshuffle")
    assert q(engine, state, "draw_pile") == 56 - 7
    do(engine, state, "draw red roll swish", "draw blue roll")
    assert q(engine, state, "phase") == "program"


def test_a_player_sees_no_hidden_cards(sz: Game) -> None:
    engine = Subzero(game_data(sz), None, {"players": 2})
    state = engine.new_initial_state()
    do(engine, state, "youngest red", "red place A1", "blue place H8")
    do(
        engine,
        state,
        "draw red roll roll shoot swish move-1",
        "draw blue roll roll roll swish swish",
    )
    view = state.player_view(0)
    assert view.hand == ("move-1", "shoot", "roll", "roll", "swish")
    assert view.log[-1] == "draw blue ? ? ? ? ?" and view.hand_sizes == (5, 5)
    do(engine, state, "red program shoot roll roll ; blue program swish roll roll")
    assert state.player_view(0).log[-1] == "red program shoot roll roll ; blue program ? ? ?"
    do(engine, state, "red shoot")
    assert state.player_view(1).revealed == (("shoot",), ())
    other = replay(
        state.initial(),
        [
            *state.history[:4],
            parse_step(engine, "draw blue roll roll roll swish move-2"),
            parse_step(engine, "red program shoot roll roll ; blue program move-2 roll roll"),
            parse_step(engine, "red shoot"),
        ],
    )
    assert isinstance(other, SubzeroState)
    assert other.player_view(0) == state.player_view(0)
    assert other.player_view(1) != state.player_view(1)


# --- setup and diagrams -----------------------------------------------------------------------


def test_bad_setups_are_refused(sz: Game) -> None:
    from rules_engine.core import SetupError

    engine = Subzero(game_data(sz), None, {"players": 2})
    base = {"start": "red", "positions": {"red": "A1", "blue": "H8"}}
    for setup, message in (
        ({"colour": 1}, "unknown setup key"),
        ({"positions": {"red": "A1", "blue": "A1"}, "start": "red"}, "two pawns on A1"),
        ({"positions": {"red": "A1"}, "start": "red"}, "blue has no square"),
        ({**base, "snowballs": {"red": 3}}, "snowballs in hand are 0 to 2"),
        ({**base, "hands": {"red": ["roll"] * 6, "blue": ["roll"] * 5}}, "more than 5 cards"),
        ({**base, "hands": {"red": ["move-4"] * 3, "blue": ["roll"] * 5}}, "the deck has 2"),
        ({**base, "boards": {"red": {"blue": 5}}}, "reached the damage limit"),
        ({"positions": {"red": "A1", "blue": "H8"}}, "needs 'start'"),
    ):
        with pytest.raises(SetupError, match=message):
            engine.setup_state(setup)


def test_a_diagram_draws_the_board_and_the_player_boards(sz: Game) -> None:
    from rules_engine.core import DiagramArrow, DiagramCell, DiagramGrid

    engine, state = start(
        sz,
        {"red": "C2", "blue": "D1"},
        {"red": ["swish", "roll", "roll"], "blue": ["shoot", "roll", "roll"]},
        snowballs={"blue": 1},
        start="blue",
    )
    do(engine, state, "blue shoot NW")
    board, boards = engine.diagram(state)
    assert isinstance(board, DiagramGrid) and isinstance(boards, DiagramGrid)
    assert board.columns == tuple("ABCDEFGH")
    assert [label["en"] for label, _ in board.rows] == [str(r) for r in range(8, 0, -1)]
    assert board.title == {
        "ja": "ターン1・ステップ1の途中",
        "en": "Turn 1, step 1, under way",
    }
    # pawns: their colour's symbol on their colour; nobody is highlighted for revealing next
    assert board.rows[6][1][2] == DiagramCell("●", "red")
    assert board.rows[7][1][3] == DiagramCell("■", "blue")
    # mid-step: blue's ball is revealed, not thrown yet: a dotted arrow from D1 to red on C2
    assert board.arrows == (DiagramArrow((7, 3), (6, 2), "planned", (), "blue"),)
    assert boards.columns == ("●", "■")  # a column per player, headed by its symbol
    assert [label["en"] for label, _ in boards.rows] == ["Card", "Snowballs", "HIT tokens"]
    (red_card, blue_card), balls, _tokens = (cells for _, cells in boards.rows)
    assert blue_card == DiagramCell("", "active", piece="shoot")  # the card just revealed
    assert red_card == DiagramCell(piece="swish", back=True)  # not revealed yet
    assert [c.text for c in balls] == ["0", "0"]  # blue threw his only snowball
    do(engine, state, "red swish")
    board, boards = engine.diagram(state)
    assert isinstance(board, DiagramGrid) and isinstance(boards, DiagramGrid)
    assert board.title == {"ja": "ターン1・ステップ1の解決後", "en": "Turn 1, step 1, resolved"}
    # the ball flew past the ducking red and off the board at A4
    assert board.arrows == (DiagramArrow((7, 3), (4, 0), "shot", (), "blue"),)
    assert board.rows[6][1][2] == DiagramCell("●", "red")
    (red_card, blue_card), _balls, _tokens = (cells for _, cells in boards.rows)
    assert red_card == DiagramCell("", "active", piece="swish")
    assert blue_card == DiagramCell("", "active", piece="shoot")


# --- worked examples --------------------------------------------------------------------------


def test_every_example_replays(sz: Game) -> None:
    results = check_game(sz)
    assert [r.file for r in results] == example_files(sz)
    assert len(results) >= 2
    assert [r.line() for r in results if not r.ok] == []
    for result in results:
        assert all(step.say.ja and step.say.en for step in result.steps)
        assert all(step.diagram for step in result.steps)


def _passes(game: Game, path: Path, data: Any) -> bool:
    """Check an example given as data (the YAML already read: mutations need no file)."""
    try:
        doc = Document(path, data)
        result = run_example(game, Example(path, doc, validate(ExampleSpec, doc)))
    except PrintgenError:
        return False
    return result.ok


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_changing_any_expected_value_makes_the_check_fail(sz: Game, source: Path) -> None:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    assert _passes(sz, source, copy.deepcopy(data)), "the unchanged example must pass"
    paths = [p for p, _ in _expect_values(data)]
    assert paths, f"{source.name} expects nothing"
    survivors = []
    for path in paths:
        changed = copy.deepcopy(data)
        _set(changed, path)
        if _passes(sz, source, changed):
            survivors.append(path)
    assert survivors == [], f"changing these expected values went unnoticed: {survivors}"
