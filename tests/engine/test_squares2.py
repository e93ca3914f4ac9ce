"""What the SQUARES II rules say, stated as behaviour."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.engines import game_data
from printgen.errors import PrintgenError
from printgen.examples import (
    Example,
    ExampleSpec,
    check_file,
    check_game,
    example_files,
    load_example,
    run_example,
)
from printgen.model import Game, load_game
from rules_engine.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    OptionError,
    parse_step,
    play_random,
    random_step,
)
from rules_engine.registry import engine_for
from rules_engine.squares2 import (
    RETURN,
    TURN,
    Action,
    ContinuousEffect,
    Face,
    Holder,
    Move,
    Pass,
    Place,
    Return,
    Squares2,
    Squares2State,
    Start,
    TileInPlay,
    Use,
    tile_specs_of_deck,
)

from .conftest import ROOT
from .test_examples import _expect_values, _passes, _set

FOLDER = ROOT / "components" / "squares2"
FILES = sorted((FOLDER / "examples").glob("*.yaml"))
ORANGE, PURPLE = 0, 1


@pytest.fixture(scope="module")
def sq() -> Game:
    return load_game(FOLDER)


def at(
    game: Game, board: dict[str, str], to_move: str = "orange", **options: Any
) -> tuple[Squares2, Squares2State]:
    engine = Squares2(game_data(game), options=options)
    return engine, engine.setup_state({"to_move": to_move, "board": board})


def do(engine: Squares2, state: Squares2State, *texts: str) -> None:
    for text in texts:
        state.apply(engine.parse_action(text))  # type: ignore[arg-type]


def board(engine: Squares2, state: Squares2State) -> dict[str, str]:
    result: dict[str, str] = engine.query(state, "board")
    return result


def legal(engine: Squares2, state: Squares2State) -> list[str]:
    (player,) = state.current_players()
    return [engine.format_action(a) for a in state.legal_actions(player)]


def refused(engine: Squares2, state: Squares2State, text: str, rule: str) -> str:
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        do(engine, state, text)
    assert info.value.rule == rule, str(info.value)
    assert state == before
    assert text not in legal(engine, state)
    return str(info.value)


# --- the data --------------------------------------------------------------------------------


def test_numbers_and_tiles_come_from_the_data(sq: Game) -> None:
    engine = Squares2(game_data(sq))
    assert (engine.columns, engine.rows, engine.centre_row + 1) == (5, 5, 3)
    assert engine.limit == 8 and engine.win_squares == 3 and engine.tiles_per_set == 10
    assert engine.camp == (0, 4)
    assert engine.names == ("orange", "purple")
    for p in (ORANGE, PURPLE):
        tiles = [engine.tile_text(p, t) for t in range(10)]
        assert tiles == [
            "S1/L5", "S2/L4", "S3/L3", "S4/L2", "S5/L1",
            "T1/D1", "T2/D2", "T3/D3", "T4/D4", "T5/D5",
        ]  # fmt: skip
    assert engine.abilities["tsunami"].params["distance"] == 2
    assert engine_for("squares2") is not None


def test_a_changed_limit_in_the_data_changes_the_rules(sq: Game) -> None:
    info = sq.info.model_copy(update={"rules": {**sq.info.rules, "row_limit": 9}})
    changed = type(sq)(sq.folder, info, sq.decks, sq.pieces)
    engine = Squares2(game_data(changed))
    state = engine.setup_state(
        {"to_move": "orange", "board": {"a1": "orange S2", "e1": "orange T4"}}
    )
    do(engine, state, "orange place T2 c1")  # 8 does not reach 9
    assert engine.query(state, "row_totals")["orange"][0] == 8


def test_a_set_must_hold_two_groups_of_1_to_5(sq: Game) -> None:
    specs = tile_specs_of_deck(game_data(sq), "orange")
    specs[0] = {**specs[0], "front": {"ability": "spin", "value": 2}}
    with pytest.raises(ValueError, match=r"rule 7-1: orange's front values must be 2 groups"):
        Squares2(
            game_data(sq),
            sets={"orange": specs, "purple": tile_specs_of_deck(game_data(sq), "purple")},
        )
    with pytest.raises(ValueError, match=r"orange has 9 tiles"):
        Squares2(
            game_data(sq),
            sets={"orange": specs[1:], "purple": tile_specs_of_deck(game_data(sq), "purple")},
        )


def test_unknown_options_are_refused(sq: Game) -> None:
    with pytest.raises(OptionError):
        Squares2(game_data(sq), options={"forward": "sideways"})
    with pytest.raises(OptionError):
        Squares2(game_data(sq), options={"stacking": True})


# --- notation --------------------------------------------------------------------------------


def test_notation_round_trips_on_every_legal_action(sq: Game) -> None:
    engine = Squares2(game_data(sq))
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(20):
        state = engine.new_initial_state()
        while not state.is_terminal() and len(state.history) < 200:
            for player in state.current_players():
                for action in state.legal_actions(player):
                    text = engine.format_action(action)
                    assert engine.parse_action(text) == action
                    seen.add(text.split()[1])
            random_step(state, rng)
    assert {"place", "move", "return", "spin", "leap", "tsunami", "diagonal"} <= seen


def test_bad_notation_names_the_problem(sq: Game) -> None:
    engine = Squares2(game_data(sq))
    with pytest.raises(NotationError, match="unknown square 'f1'"):
        engine.parse_action("orange move e1 f1")
    with pytest.raises(NotationError, match="orange has no tile face 'S6'"):
        engine.parse_action("orange place S6 a1")
    with pytest.raises(NotationError, match="unknown player 'green'"):
        engine.parse_action("green pass")
    with pytest.raises(NotationError, match="leap needs target square"):
        engine.parse_action("orange leap c3")
    with pytest.raises(NotationError, match="spin takes no target square"):
        engine.parse_action("orange spin c3 c4")
    with pytest.raises(NotationError, match="cannot read"):
        engine.parse_action("orange jump c3")


def test_a_repeated_face_in_a_combined_set_is_told_apart_by_k(sq: Game) -> None:
    specs = tile_specs_of_deck(game_data(sq), "orange")
    # Seed section 7: abilities may be combined freely; here two tiles show Spin 3.
    specs[7] = {
        "id": "extra",
        "front": {"ability": "spin", "value": 3},
        "back": {"ability": "diagonal", "value": 3},
    }
    engine = Squares2(
        game_data(sq), sets={"orange": specs, "purple": tile_specs_of_deck(game_data(sq), "purple")}
    )
    assert engine.format_action(Place(ORANGE, 2, 0, 0)) == "orange place S3.1 a1"
    assert engine.format_action(Place(ORANGE, 7, 0, 0)) == "orange place S3.2 a1"
    assert engine.parse_action("orange place S3.2 a1") == Place(ORANGE, 7, 0, 0)
    with pytest.raises(NotationError, match=r"orange has 2 tiles showing S3: write S3.1 to S3.2"):
        engine.parse_action("orange place S3 a1")
    state = engine.setup_state({"to_move": "orange"})
    do(engine, state, "orange place S3.2 a1")
    # Nobody's view (nor the log) tells which of the two Spin 3 tiles is on the board.
    assert state.player_view(PURPLE).log == ("orange place S3 a1",)
    assert state.player_view(PURPLE).board[0] == ("orange", "S3", "?")


# --- placing ---------------------------------------------------------------------------------


def test_placing_puts_a_hand_tile_either_side_up_on_the_camp(sq: Game) -> None:
    engine, state = at(sq, {})
    do(engine, state, "orange place L2 b1")
    assert board(engine, state) == {"b1": "orange L2"}
    assert "S4/L2" not in engine.query(state, "hands")["orange"]
    do(engine, state, "purple place T5 e5")
    assert board(engine, state)["e5"] == "purple T5"
    refused(engine, state, "orange place S4 c1", "3-1")  # spin-4 is on the board (as L2)
    refused(engine, state, "orange place S1 c2", "3-1")  # not the camp
    refused(engine, state, "orange place S1 b1", "4-3")  # own tile there
    places = [a for a in legal(engine, state) if " place " in a]
    assert len(places) == 9 * 2 * 4  # nine tiles, two sides, four free camp squares


def test_placing_may_not_make_the_camp_reach_the_limit(sq: Game) -> None:
    engine, state = at(sq, {"a1": "orange S2", "e1": "orange T4"})
    message = refused(engine, state, "orange place T2 c1", "3-3")
    assert message.endswith("placing T2 would make the camp total 8: it may not reach the limit 8")
    do(engine, state, "orange place T1 c1")  # 7
    engine, state = at(sq, {"a1": "orange S2", "e1": "orange T4"}, place_limit="exceed")
    do(engine, state, "orange place T2 c1")
    assert engine.query(state, "row_totals")["orange"][0] == 8


def test_placing_onto_an_opponent_tile_in_the_camp_is_a_battle(sq: Game) -> None:
    engine, state = at(sq, {"c1": "purple S3"})
    do(engine, state, "orange place T4 c1")
    assert board(engine, state) == {"c1": "orange T4"}
    assert engine.query(state, "returned") == ["purple S3"]


# --- moving ----------------------------------------------------------------------------------


def test_a_tile_moves_one_square_orthogonally(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange S1", "a5": "purple S1"})
    moves = sorted(a for a in legal(engine, state) if " move " in a)
    assert moves == [
        "orange move c3 b3",
        "orange move c3 c2",
        "orange move c3 c4",
        "orange move c3 d3",
    ]
    refused(engine, state, "orange move c3 d4", "4-2")
    refused(engine, state, "orange move c3 c5", "4-2")
    refused(engine, state, "orange move a5 a4", "2-1")  # not orange's tile


def test_own_tiles_never_stack(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange S1", "c4": "orange S2"})
    refused(engine, state, "orange move c3 c4", "4-3")
    engine, state = at(sq, {"b4": "orange D1", "c3": "orange S1"})
    refused(engine, state, "orange diagonal b4 c3", "4-3")
    engine, state = at(sq, {"c4": "orange L1", "b1": "orange S1"})
    refused(engine, state, "orange leap c4 b1", "4-3")


def test_a_move_may_not_make_a_row_exceed_the_limit_but_may_reach_it(sq: Game) -> None:
    engine, state = at(
        sq, {"a4": "orange T4", "e4": "orange S3", "c3": "orange T2", "b3": "orange S1"}
    )
    refused(engine, state, "orange move c3 c4", "4-4")  # 4 + 3 + 2 = 9
    do(engine, state, "orange move b3 b4")  # 4 + 3 + 1 = 8
    engine, state = at(
        sq, {"a4": "orange T4", "e4": "orange S3", "b3": "orange S1"}, move_limit="reach"
    )
    refused(engine, state, "orange move b3 b4", "4-4")


def test_a_move_along_a_row_keeps_its_total(sq: Game) -> None:
    engine, state = at(sq, {"a2": "orange T4", "c2": "orange S4"})
    do(engine, state, "orange move c2 d2")
    assert engine.query(state, "row_totals")["orange"] == [0, 8, 0, 0, 0]


# --- abilities -------------------------------------------------------------------------------


def test_spin_flips_the_tile(sq: Game) -> None:
    engine, state = at(sq, {"c2": "orange S4"})
    do(engine, state, "orange spin c2")
    assert board(engine, state) == {"c2": "orange L2"}
    engine, state = at(sq, {"c2": "orange L2"})
    refused(engine, state, "orange spin c2", "5-3")  # Leap has no Spin


def test_leap_goes_to_any_other_square_of_the_camp(sq: Game) -> None:
    engine, state = at(sq, {"c4": "orange L3", "a1": "orange S1", "e1": "purple T2"})
    leaps = [a for a in legal(engine, state) if " leap " in a]
    assert leaps == [
        "orange leap c4 b1",
        "orange leap c4 c1",
        "orange leap c4 d1",
        "orange leap c4 e1",
    ]
    do(engine, state, "orange leap c4 e1")  # a battle: 3 beats 2
    assert board(engine, state) == {"a1": "orange S1", "e1": "orange L3"}
    engine, state = at(sq, {"a1": "orange L3"})
    refused(engine, state, "orange leap a1 a1", "5-3")
    refused(engine, state, "orange leap a1 c2", "5-3")


def test_diagonal_moves_one_square_diagonally(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange D2", "a5": "purple S1"})
    diagonals = sorted(a for a in legal(engine, state) if " diagonal " in a)
    assert diagonals == [
        "orange diagonal c3 b2",
        "orange diagonal c3 b4",
        "orange diagonal c3 d2",
        "orange diagonal c3 d4",
    ]
    refused(engine, state, "orange diagonal c3 a5", "5-3")
    refused(engine, state, "orange move c3 d4", "4-2")


def test_tsunami_moves_the_tile_in_front_two_squares_forward_over_any_tile(sq: Game) -> None:
    engine, state = at(
        sq, {"b1": "orange T1", "b2": "orange S1", "b3": "purple S2", "c4": "purple S3"}
    )
    do(engine, state, "orange tsunami b1")
    assert board(engine, state) == {
        "b1": "orange T1",
        "b3": "purple S2",
        "b4": "orange S1",
        "c4": "purple S3",
    }
    # For purple, forward is towards orange's camp (row 1).
    engine, state = at(sq, {"b5": "purple T2", "b4": "orange S1"}, to_move="purple")
    do(engine, state, "purple tsunami b5")
    assert board(engine, state) == {"b5": "purple T2", "b2": "orange S1"}


def test_tsunami_forward_when_up_is_the_same_for_both(sq: Game) -> None:
    engine, state = at(
        sq, {"b4": "purple T2", "b5": "purple S1"}, to_move="purple", forward="board_up"
    )
    refused(engine, state, "purple tsunami b4", "5-3")  # b5 would go off the board
    engine, state = at(
        sq, {"b2": "purple T2", "b3": "purple S1"}, to_move="purple", forward="board_up"
    )
    do(engine, state, "purple tsunami b2")
    assert board(engine, state) == {"b2": "purple T2", "b5": "purple S1"}


def test_tsunami_needs_a_tile_in_front_and_may_not_stack_own_tiles(sq: Game) -> None:
    engine, state = at(sq, {"b1": "orange T1", "c2": "orange S1"})
    assert refused(engine, state, "orange tsunami b1", "5-3").endswith(
        "no tile is adjacent in front of it"
    )
    engine, state = at(sq, {"b1": "orange T1", "b2": "orange S1", "b4": "orange S2"})
    assert refused(engine, state, "orange tsunami b1", "5-3").endswith(
        "your own tiles may not be stacked"
    )
    engine, state = at(sq, {"b4": "orange T1", "b5": "orange S1"})
    assert refused(engine, state, "orange tsunami b4", "5-3").endswith(
        "the tile in front would leave the board"
    )


def test_tsunami_on_opponent_tiles_stacks_them_into_a_battle_of_their_own(sq: Game) -> None:
    # Rule 4-3's note: tiles stacked by the opponent's ability battle as one's own tiles.
    engine, state = at(sq, {"b2": "orange T1", "b3": "purple S2", "b5": "purple T4"})
    do(engine, state, "orange tsunami b2")
    assert engine.query(state, "battles") == ["b5: purple S2 loses to purple T4"]
    assert board(engine, state) == {"b2": "orange T1", "b5": "purple T4"}
    assert engine.query(state, "hand_sizes") == {"orange": 9, "purple": 9}
    engine, state = at(
        sq, {"b2": "orange T1", "b3": "purple S2", "b5": "purple T4"}, tsunami_target="own"
    )
    refused(engine, state, "orange tsunami b2", "5-3")


def test_abilities_are_not_limited_like_moves_unless_the_option_says_so(sq: Game) -> None:
    setup = {"a4": "orange T4", "e4": "orange S3", "c3": "orange D2", "a5": "purple S1"}
    engine, state = at(sq, setup)
    do(engine, state, "orange diagonal c3 d4")  # row 4 totals 9: the check returns a tile
    assert state.phase == RETURN
    assert legal(engine, state) == ["orange return a4", "orange return d4", "orange return e4"]
    engine, state = at(sq, setup, ability_move_limit="as_move")
    refused(engine, state, "orange diagonal c3 d4", "4-4")


def test_the_wrong_ability_or_a_tile_of_the_opponent_cannot_be_used(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange D2", "c4": "purple S2"})
    refused(engine, state, "orange spin c3", "5-3")
    refused(engine, state, "orange spin c4", "2-1")
    refused(engine, state, "purple spin c4", "2-1")  # not purple's turn


# --- battles ---------------------------------------------------------------------------------


def test_a_5_beats_a_3_and_stays(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange T5", "c4": "purple S3"})
    do(engine, state, "orange move c3 c4")
    assert board(engine, state) == {"c4": "orange T5"}
    assert engine.query(state, "returned") == ["purple S3"]
    assert state.hand[PURPLE] == state.g.full_hand


def test_a_lower_tile_that_arrives_goes_back_to_its_owner(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange T2", "c4": "purple S3"})
    do(engine, state, "orange move c3 c4")
    assert board(engine, state) == {"c4": "purple S3"}
    assert engine.query(state, "returned") == ["orange T2"]


def test_equal_values_both_return(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange T3", "c4": "purple D3"})
    do(engine, state, "orange move c3 c4")
    assert board(engine, state) == {}
    assert engine.query(state, "hand_sizes") == {"orange": 10, "purple": 10}


# --- row limits and victory ------------------------------------------------------------------


def test_the_owner_returns_tiles_of_their_choice_until_at_the_limit(sq: Game) -> None:
    engine, state = at(sq, {"a2": "orange T3", "c2": "orange S1", "e2": "orange T4"})
    do(engine, state, "orange spin c2")
    assert state.current_players() == (ORANGE,)
    assert engine.query(state, "to_move") == "orange"
    refused(engine, state, "orange move a2 a3", "2-2")
    refused(engine, state, "orange return c1", "2-2")
    do(engine, state, "orange return c2")  # one is enough: 3 + 4 = 7
    assert state.phase == TURN and state.to_move == PURPLE


def test_victory_is_checked_after_the_row_limits(sq: Game) -> None:
    # Orange moves into a battle on the centre row (limits ignored), wins it, and holds
    # three centre squares - but the row totals 9 and one centre tile must go back.
    engine, state = at(
        sq, {"b3": "orange T3", "c3": "orange S1", "d2": "orange T5", "d3": "purple S2"}
    )
    do(engine, state, "orange move d2 d3")
    assert engine.query(state, "centre") == {"orange": 3, "purple": 0}
    assert engine.query(state, "winner") is None and state.phase == RETURN
    assert engine.query(state, "row_totals")["orange"][2] == 9
    do(engine, state, "orange return c3")
    assert engine.query(state, "centre") == {"orange": 2, "purple": 0}
    assert not state.is_terminal() and state.to_move == PURPLE


def test_three_centre_squares_win_and_end_the_game(sq: Game) -> None:
    engine, state = at(sq, {"b3": "orange T1", "c3": "orange T2", "d2": "orange S1"})
    do(engine, state, "orange move d2 d3")
    assert state.is_terminal()
    assert state.returns() == (1.0, -1.0)
    assert state.current_players() == ()
    assert state.legal_actions(ORANGE) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        do(engine, state, "purple pass")


def test_the_opponent_can_win_on_your_turn(sq: Game) -> None:
    # With SQUARES II's Tsunami (two squares) no tile can be pushed onto the centre row of a
    # 5-row board; a made-up one-square Tsunami can, and the victory check sees both players.
    short = {**sq.info.rules["abilities"]["tsunami"], "distance": 1}
    engine = Squares2(game_data(sq), abilities={"tsunami": short})
    state = engine.setup_state(
        {
            "to_move": "orange",
            "board": {"c1": "orange T1", "c2": "purple S3", "a3": "purple S1", "e3": "purple S2"},
        }
    )
    do(engine, state, "orange tsunami c1")
    assert engine.query(state, "winner") == "purple"
    assert state.returns() == (-1.0, 1.0)


def test_pass_only_when_nothing_else_is_legal(sq: Game) -> None:
    engine, state = at(sq, {"c3": "orange S1"})
    refused(engine, state, "orange pass", "2-1")
    engine = Squares2(game_data(sq))
    state = engine.setup_state({"to_move": "orange"})
    state.hand[ORANGE] = 0  # nothing in hand, nothing on the board
    assert legal(engine, state) == ["orange pass"]
    do(engine, state, "orange pass")
    state.hand[PURPLE] = 0
    do(engine, state, "purple pass")  # nobody can ever act again: a draw
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    assert engine.query(state, "winner") == "draw"


def test_an_action_is_taken_as_checked_only_from_the_list_of_this_very_position(
    sq: Game,
) -> None:
    """`apply` takes a pick from the list `legal_actions` gave for this position as
    checked; an action of another kind equal to it as a tuple, or one of a list given out
    before the position changed, gets the full check and its error."""
    engine = Squares2(game_data(sq))
    state = engine.setup_state({"to_move": "orange"})
    state.hand[ORANGE] = 0  # nothing in hand, nothing on the board: orange must pass
    assert state.legal_actions(ORANGE) == [Pass(ORANGE)]
    assert Start(ORANGE) == Pass(ORANGE)  # named tuples: equal as tuples, not as actions
    with pytest.raises(IllegalActionError) as info:
        state.apply(Start(ORANGE))
    assert info.value.rule == "1-3"
    state.apply(Pass(ORANGE))
    assert state.to_move == PURPLE

    engine, state = at(sq, {"c3": "orange S1", "a5": "purple S1"})
    listed = state.legal_actions(ORANGE)
    move = Move(ORANGE, engine.square_index("c3"), engine.square_index("c4"))
    assert move in listed
    state.apply(move)
    for stale in listed:  # orange's turn is over
        with pytest.raises(IllegalActionError) as info:
            state.apply(stale)
        assert info.value.rule == "2-1"


# --- first player, several games, turn limit --------------------------------------------------


def test_the_first_game_starts_with_janken_and_the_winner_plays_second(sq: Game) -> None:
    engine = Squares2(game_data(sq), options={"games": 3})
    state = engine.new_initial_state()
    assert state.current_players() == (CHANCE,)
    assert state.legal_actions(CHANCE) == [Start(ORANGE), Start(PURPLE)]
    do(engine, state, "first purple")
    assert state.to_move == PURPLE
    refused(engine, state, "first orange", "1-3")
    state = engine.setup_state({"last_winner": "purple"})
    assert state.to_move == ORANGE and state.first == ORANGE
    state.play_random(random.Random(1))
    assert state.is_terminal()
    results = engine.query(state, "results")
    assert 2 <= len(results) <= 3
    assert max(results.count("orange"), results.count("purple")) == 2


def test_the_turn_limit_is_for_simulation_and_ends_in_a_draw(sq: Game) -> None:
    engine = Squares2(game_data(sq), options={"turn_limit": 100})
    endings = set()
    for seed in range(30):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        assert state.turn <= 100
        endings.add(engine.query(state, "winner"))
    assert "draw" in endings and endings - {"draw"}
    assert Squares2(game_data(sq)).options["turn_limit"] == 0  # the rulebook's rules: no limit


# --- hidden information ----------------------------------------------------------------------


def test_backs_on_the_board_are_hidden_from_both_and_hands_from_the_opponent(sq: Game) -> None:
    _, state = at(sq, {"c3": "orange S4", "c4": "purple T2"})
    view = state.player_view(ORANGE)
    assert view.board[12] == ("orange", "S4", "?")
    assert view.board[17] == ("purple", "T2", "?")
    assert "S1/L5" in view.hand
    assert dict(view.other_hands)["purple"] == (
        "S1",
        "S2",
        "S3",
        "S4",
        "S5",
        "T1",
        "T3",
        "T4",
        "T5",
    )
    _, state = at(sq, {"c3": "orange S4", "c4": "purple T2"}, owner_sees_board_backs=True)
    assert state.player_view(ORANGE).board[12] == ("orange", "S4", "L2")
    assert state.player_view(ORANGE).board[17] == ("purple", "T2", "?")
    assert state.player_view(PURPLE).board[12] == ("orange", "S4", "?")


def _with_backs(state: Squares2State, changes: dict[tuple[int, int], Face]) -> Squares2State:
    """A copy of the state whose tiles (player, tile) have other backs."""
    variant = state.clone()
    sets = [list(t) for t in variant.sets]
    for (p, t), back in changes.items():
        sets[p][t] = type(sets[p][t])(f"changed-{t}", sets[p][t].front, back)
    variant.sets = tuple(tuple(t) for t in sets)
    assert variant != state
    return variant


def test_a_view_does_not_change_when_hidden_backs_change(sq: Game) -> None:
    _, state = at(sq, {"c3": "orange S4", "c4": "purple T2"})
    # Orange's tile on the board (spin-4) and a tile in purple's hand (spin-1).
    variant = _with_backs(state, {(ORANGE, 3): Face("diagonal", 5), (PURPLE, 0): Face("leap", 2)})
    assert variant.view(ORANGE) == state.view(ORANGE)
    assert variant.view(PURPLE) != state.view(PURPLE)  # purple sees its own hand's backs
    # Purple's tile on the board (tsunami-2) and a tile in orange's hand (tsunami-5).
    variant = _with_backs(state, {(PURPLE, 6): Face("leap", 1), (ORANGE, 9): Face("spin", 1)})
    assert variant.view(PURPLE) == state.view(PURPLE)
    assert variant.view(ORANGE) != state.view(ORANGE)


# --- continuous abilities (none in SQUARES II: the hook, with made-up ones) -----------------


class Fortress(ContinuousEffect):
    """Made up: while face up, this tile fights `bonus` higher when it is attacked."""

    def battle_value(
        self, state: Squares2State, holder: Holder, tile: TileInPlay, arriving: bool
    ) -> int:
        if not arriving and tile.owner == holder.owner and tile.square == holder.square:
            return tile.value + int(holder.ability.params["bonus"])
        return tile.value


class Anchor(ContinuousEffect):
    """Made up: opponent tiles next to this one cannot move away."""

    def move_veto(
        self, state: Squares2State, holder: Holder, tile: TileInPlay, dst: int, how: str
    ) -> str | None:
        cols = state.g.columns
        near = abs(tile.square % cols - holder.square % cols) + abs(
            tile.square // cols - holder.square // cols
        )
        if tile.owner != holder.owner and near == 1:
            return f"anchored tiles do not {how}"
        return None


class Swell(ContinuousEffect):
    """Made up: opponent tiles in this tile's row count 1 more in their row total."""

    def row_value(self, state: Squares2State, holder: Holder, tile: TileInPlay) -> int:
        cols = state.g.columns
        if tile.owner != holder.owner and tile.square // cols == holder.square // cols:
            return tile.value + 1
        return tile.value


MADE_UP = {
    "fortress": {"code": "F", "name": {"ja": "城塞", "en": "Fortress"}, "kind": "continuous",
                 "effect": "test-fortress", "bonus": 2},
    "anchor": {"code": "A", "name": {"ja": "錨", "en": "Anchor"}, "kind": "continuous",
               "effect": "test-anchor"},
    "swell": {"code": "W", "name": {"ja": "高潮", "en": "Swell"}, "kind": "continuous",
              "effect": "test-swell"},
}  # fmt: skip
EFFECTS = {"test-fortress": Fortress(), "test-anchor": Anchor(), "test-swell": Swell()}


def combined(sq: Game, ability: str, **options: Any) -> Squares2:
    """Orange's Tsunami 3 / Diagonal 3 tile becomes `ability` 3 / Diagonal 3 (section 7)."""
    specs = tile_specs_of_deck(game_data(sq), "orange")
    specs[7] = {
        "id": "made-up",
        "front": {"ability": ability, "value": 3},
        "back": {"ability": "diagonal", "value": 3},
    }
    return Squares2(
        game_data(sq),
        options=options,
        sets={"orange": specs, "purple": tile_specs_of_deck(game_data(sq), "purple")},
        abilities=MADE_UP,
        effects=EFFECTS,
    )


def test_a_continuous_ability_is_asked_before_a_battle(sq: Game) -> None:
    engine = combined(sq, "fortress")
    assert engine.continuous
    state = engine.setup_state(
        {"to_move": "purple", "board": {"c3": "orange F3", "c4": "purple D4"}}
    )
    do(engine, state, "purple move c4 c3")  # 4 against 3 + 2
    assert engine.query(state, "battles") == ["c3: purple D4 loses to orange F3"]
    assert board(engine, state) == {"c3": "orange F3"}
    # Face down (Diagonal 3), it is an ordinary 3 and loses.
    state = engine.setup_state(
        {"to_move": "purple", "board": {"c3": "orange D3", "c4": "purple D4"}}
    )
    do(engine, state, "purple move c4 c3")
    assert board(engine, state) == {"c3": "purple D4"}


def test_a_continuous_ability_is_asked_before_a_move_and_is_never_used(sq: Game) -> None:
    engine = combined(sq, "anchor")
    state = engine.setup_state(
        {"to_move": "purple", "board": {"c3": "orange A3", "c4": "purple D4", "e5": "purple S1"}}
    )
    moves = legal(engine, state)
    assert not [m for m in moves if m.startswith("purple move c4") or "diagonal c4" in m]
    assert "purple move e5 e4" in moves
    message = refused(engine, state, "purple move c4 b4", "4-1")
    assert message.endswith("Anchor at c3: anchored tiles do not move")
    state = engine.setup_state({"to_move": "orange", "board": {"c3": "orange A3"}})
    with pytest.raises(NotationError, match="continuous ability"):
        engine.parse_action("orange anchor c3")
    with pytest.raises(IllegalActionError, match="rule 5-1"):
        state.apply(Use(ORANGE, "anchor", 12, -1))


def test_when_both_players_exceed_the_opponent_returns_first(sq: Game) -> None:
    # Only possible with combined sets: Swell makes purple's row 4 count more while
    # orange's own push takes orange's row 4 over the limit in the same action.
    engine = combined(sq, "swell")
    state = engine.setup_state(
        {
            "to_move": "orange",
            "board": {
                "c1": "orange T2",
                "c2": "orange W3",
                "d4": "orange S5",
                "e4": "orange T1",
                "a4": "purple S4",
                "b4": "purple T4",
            },
        }
    )
    assert engine.query(state, "row_totals")["purple"][3] == 8
    do(engine, state, "orange tsunami c1")  # Swell 3 to c4
    assert engine.query(state, "row_totals") == {
        "orange": [2, 0, 0, 9, 0],
        "purple": [0, 0, 0, 10, 0],
    }
    assert engine.query(state, "over_limit") == {"orange": [4], "purple": [4]}
    assert state.current_players() == (PURPLE,)
    assert legal(engine, state) == ["purple return a4", "purple return b4"]
    do(engine, state, "purple return a4")
    assert state.current_players() == (ORANGE,)
    assert legal(engine, state) == ["orange return c4", "orange return d4", "orange return e4"]
    do(engine, state, "orange return e4")
    assert state.phase == TURN and state.to_move == PURPLE
    assert engine.query(state, "returned") == ["purple S4", "orange T1"]


def test_without_continuous_tiles_in_play_the_engine_takes_the_fast_path(sq: Game) -> None:
    assert not Squares2(game_data(sq)).continuous
    with pytest.raises(ValueError, match="no rules given for its effect 'test-swell'"):
        specs = tile_specs_of_deck(game_data(sq), "orange")
        specs[7] = {
            "front": {"ability": "swell", "value": 3},
            "back": {"ability": "diagonal", "value": 3},
        }
        Squares2(
            game_data(sq),
            sets={"orange": specs, "purple": tile_specs_of_deck(game_data(sq), "purple")},
            abilities=MADE_UP,
        )


# --- the legal list, the checks and the two drivers agree --------------------------------------


def _candidates(engine: Squares2, state: Squares2State) -> list[Action]:
    """Every action worth asking about now: all returns, all placements on the camps and
    one other row, and every move and ability use of the player's tiles to any square."""
    (p,) = state.current_players()
    n = engine.squares
    if state.phase == RETURN:
        return [Return(p, s) for s in range(n)]
    rows = {*engine.camp, engine.centre_row}
    squares = [s for s in range(n) if engine.row_of[s] in rows]
    out: list[Action] = [
        Place(p, t, f, s) for t in range(engine.tiles_per_set) for f in (0, 1) for s in squares
    ]
    own = [s for s, c in enumerate(state.cell) if c >= 0 and c >> 7 == p]
    out += [Move(p, a, b) for a in own for b in range(n)]
    for a in own:
        up = engine.fability[p][state.cell[a] & 127]
        other = "leap" if up != "leap" else "spin"
        out += [Use(p, ab, a, b) for ab in (up, other) for b in range(-1, n)]
    out.append(Pass(p))
    return out


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"place_limit": "exceed", "move_limit": "reach", "battle_entry_limit": "checked"},
        {"ability_move_limit": "as_move", "forward": "board_up", "tsunami_target": "own"},
    ],
)
def test_legal_actions_are_exactly_the_actions_the_checks_allow(
    sq: Game, options: dict[str, Any]
) -> None:
    engine = Squares2(game_data(sq), options=options)
    rng = random.Random(11)
    checked = 0
    kinds: set[str] = set()
    for _ in range(8):
        state = engine.new_initial_state()
        for step in range(160):
            if state.is_terminal():
                break
            players = state.current_players()
            if players != (CHANCE,) and (step % 6 == 0 or state.phase == RETURN):
                listed = set(state.legal_actions(players[0]))
                allowed = {a for a in _candidates(engine, state) if state.is_legal(players[0], a)}
                assert listed == allowed
                kinds.update(type(a).__name__ for a in listed)
                if state.phase == TURN:
                    assert state._choices() == state._choices_general()
                checked += 1
            random_step(state, rng)
    assert checked > 100
    assert kinds >= {"Place", "Move", "Use"}


def test_the_generic_driver_plays_the_same_game_as_the_fast_one(sq: Game) -> None:
    engine = Squares2(game_data(sq))
    for seed in range(5):
        fast = engine.new_initial_state()
        fast.play_random(random.Random(seed))
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed))
        assert generic == fast


def test_a_continuous_engine_plays_random_games_to_the_end(sq: Game) -> None:
    for ability in ("fortress", "anchor", "swell"):
        engine = combined(sq, ability, turn_limit=100)
        for seed in range(3):
            state = engine.new_initial_state()
            play_random(state, random.Random(seed))
            assert state.is_terminal()


# --- the worked examples -----------------------------------------------------------------------


def test_every_example_replays(sq: Game) -> None:
    results = check_game(sq)
    assert [r.file for r in results] == example_files(sq) == FILES
    assert len(FILES) >= 4
    assert [r.line() for r in results if not r.ok] == []
    for result in results:
        assert all(step.say.ja and step.say.en for step in result.steps)
        assert all(step.diagram for step in result.steps)


def test_the_seed_examples_follow_each_other(sq: Game) -> None:
    one = yaml.safe_load((FOLDER / "examples" / "01-seed-board-example-1.yaml").read_text("utf-8"))
    two = yaml.safe_load((FOLDER / "examples" / "02-seed-board-example-2.yaml").read_text("utf-8"))
    assert one["setup"] == two["setup"]
    assert one["steps"][-1]["do"] == two["steps"][0]["do"]
    assert one["steps"][-1]["expect"]["board"] == two["steps"][0]["expect"]["board"]


def _passes_spec(game: Game, example: Example, data: dict[str, Any]) -> bool:
    """`check_file` on changed data, without writing and re-reading the YAML."""
    try:
        spec = ExampleSpec.model_validate(data)
        return run_example(game, Example(example.path, example.doc, spec)).ok
    except (PrintgenError, ValueError):
        return False


@pytest.mark.parametrize("source", FILES, ids=[p.name for p in FILES])
def test_changing_any_expected_value_makes_the_check_fail(sq: Game, source: Path) -> None:
    # As tests/engine/test_examples.py does for Submarine Attack (every value under every
    # `expect` changed, or a list item added, must fail the check).
    example = load_example(source)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    assert _passes_spec(sq, example, copy.deepcopy(data)), "the unchanged example must pass"
    assert _passes(sq, source)
    paths = [p for p, _ in _expect_values(data)]
    assert paths, f"{source.name} expects nothing"
    survivors = []
    for path in paths:
        changed = copy.deepcopy(data)
        _set(changed, path)
        if _passes_spec(sq, example, changed):
            survivors.append(path)
    assert survivors == [], f"changing these expected values went unnoticed: {survivors}"


def test_a_step_of_an_example_is_checked_like_any_action(sq: Game, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "title: {ja: 例, en: Example}\nsetup: {to_move: orange, board: {c3: orange S1}}\n"
        "steps:\n  - do: orange move c3 c5\n    say: {ja: あ, en: a}\n",
        encoding="utf-8",
    )
    result = check_file(sq, path)
    assert not result.ok
    assert "rule 4-2: a tile moves 1 square up, down, left or right" in result.line()
    assert parse_step(Squares2(game_data(sq)), "orange move c3 c4") == Move(ORANGE, 12, 17)
