"""What the Submarine Attack rules say, stated as behaviour."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game
from rules_engine.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    OptionError,
    format_step,
    parse_step,
    replay,
)
from rules_engine.submarine_attack import (
    Place,
    Roll,
    Start,
    SubmarineAttack,
    SubmarineAttackState,
    Target,
    check_clues,
)
from rules_engine.submarine_attack.actions import dice_per_draw, roll_dice

RED, BLUE = 0, 1
RED_SHIPS = [2, 1, 3, 1, 2, 4]  # 13 ships: one round cannot end the game
BLUE_SHIPS = [1, 4, 3, 2, 5, 1]


def placed(
    game: Game,
    red_cards: list[str],
    blue_cards: list[str],
    *,
    version: str = "1.1",
    first: str = "red",
    red_ships: list[int] = RED_SHIPS,
    blue_ships: list[int] = BLUE_SHIPS,
    scores: dict[str, int] | None = None,
    **options: Any,
) -> tuple[SubmarineAttack, SubmarineAttackState]:
    engine = SubmarineAttack(game_data(game), version, options)
    setup: dict[str, Any] = {
        "first": first,
        "transports": {"red": red_ships, "blue": blue_ships},
        "actions": {"red": red_cards, "blue": blue_cards},
    }
    if scores:
        setup["scores"] = scores
    return engine, engine.setup_state(setup)


CARDS = ["TB", "TA", "TC", "TS", "TA", "TB", "TC", "EA"]
OTHER = ["TC", "TB", "TA", "TC", "EB", "TS", "TA", "TB"]


def lead(card: str, cards: list[str] = CARDS) -> list[str]:
    """The card list with `card` moved into slot 1."""
    out = list(cards)
    if card in out:
        i = out.index(card)
        out[0], out[i] = out[i], out[0]
    else:
        out[0] = card
    return out


def sunk(state: SubmarineAttackState, player: int) -> list[int]:
    return [c + 1 for c in range(6) if state.sunk[player] >> c & 1]


# --- the cards and versions come from the data ----------------------------------------------


def test_current_rules_use_eight_transports_and_choose_eight_of_ten_actions(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    assert engine.version == "1.1"
    assert engine.ships_hand == (1, 1, 1, 2, 2, 3, 4, 5)
    assert engine.cards_hand == ("TS", "TA", "TA", "TB", "TB", "TC", "TC", "TC", "EA", "EB")
    assert engine.actions_placed == 8
    assert engine.target_points == 15
    assert {c: engine.cards[c].dice for c in ("TS", "TA", "TB", "TC")} == {
        "TS": 7,
        "TA": 5,
        "TB": 4,
        "TC": 3,
    }
    assert engine.cards["EA"].cancel == 3
    assert engine.cards["EB"].cancel == 7


def test_rules_1_0_have_ten_transports_torpedo_d_all_actions_and_ten_points(game: Game) -> None:
    engine = SubmarineAttack(game_data(game), "1.0")
    assert engine.ships_hand == (1, 1, 1, 1, 2, 2, 2, 3, 4, 5)
    assert "TC" not in engine.cards_hand
    assert engine.cards_hand.count("TD") == 3
    assert engine.cards["TD"].dice == 2
    assert engine.actions_placed == 10
    assert engine.target_points == 10


def test_rules_1_0_1_cut_the_fleet_but_keep_torpedo_d(game: Game) -> None:
    engine = SubmarineAttack(game_data(game), "1.0.1")
    assert engine.ships_hand == (1, 1, 1, 2, 2, 3, 4, 5)
    assert engine.cards_hand.count("TD") == 3
    assert engine.actions_placed == 10


def test_torpedo_dice_are_read_from_the_card_data(game: Game) -> None:
    pieces = []
    for piece in game.pieces:
        if piece.component.id == "torpedo-b":
            values = {**piece.component.values, "dice": 6}
            piece = type(piece)(
                piece.id,
                piece.component.model_copy(update={"values": values}),
                piece.deck,
                piece.where,
            )
        pieces.append(piece)
    changed = type(game)(game.folder, game.info, game.decks, pieces)
    engine = SubmarineAttack(game_data(changed))
    state = engine.setup_state(
        {
            "first": "red",
            "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS},
            "actions": {"red": CARDS, "blue": OTHER},
        }
    )
    assert state.dice == 6  # red's torpedo B in slot 1


def test_one_draw_rolls_a_torpedos_dice_first_die_first() -> None:
    """Chance rolls a torpedo's dice with one draw of the generator, read as the digits of
    one of the `faces ** dice` rolls (first die first), not one draw per die; more dice
    than one draw holds (12 of six faces) take a draw per 12."""
    assert dice_per_draw(6) == 12 and dice_per_draw(2) == 32 and dice_per_draw(100) == 4
    # 51 = 1*36 + 2*6 + 3: the dice less one are 1, 2, 3.
    assert roll_dice(lambda: 51.5 / 216, 6, 3, 12) == (2, 3, 4)
    assert roll_dice(lambda: 0.0, 6, 7, 12) == (1,) * 7
    assert roll_dice(lambda: 1 - 2**-53, 6, 7, 12) == (6,) * 7
    draws = iter([0.0, 1 - 2**-53])
    assert roll_dice(lambda: next(draws), 6, 14, 12) == (1,) * 12 + (6, 6)
    assert roll_dice(lambda: 0.5, 6, 0, 12) == ()


def test_the_dice_come_up_with_even_odds_and_apart() -> None:
    """Every face of every die as often (within 3% of a sixth over 60,000 rolls), and the
    dice of a roll apart from each other: a pair (two given dice equal) a sixth of the
    time."""
    rng = random.Random(7)
    rolls = [roll_dice(rng.random, 6, 3, dice_per_draw(6)) for _ in range(60_000)]
    for die in range(3):
        counts = Counter(roll[die] for roll in rolls)
        assert set(counts) == set(range(1, 7))
        assert all(abs(k / 10_000 - 1) < 0.03 for k in counts.values()), counts
    pairs = sum(roll[0] == roll[2] for roll in rolls)
    assert abs(pairs / 10_000 - 1) < 0.03


# --- dice groups ----------------------------------------------------------------------------


def test_a_pair_of_3s_sinks_column_3(game: Game) -> None:
    _, state = placed(game, CARDS, OTHER)
    state.apply(Roll((3, 3, 5, 6)))
    assert sunk(state, BLUE) == [3]
    assert state.sunk_ships[BLUE] == BLUE_SHIPS[2]


def test_no_group_misses(game: Game) -> None:
    _, state = placed(game, CARDS, OTHER)
    state.apply(Roll((1, 2, 5, 6)))
    assert sunk(state, BLUE) == []
    assert state.attacker == BLUE


def test_two_pairs_sink_both_columns(game: Game) -> None:
    _, state = placed(game, lead("TA"), OTHER)
    state.apply(Roll((3, 6, 3, 1, 6)))
    assert sunk(state, BLUE) == [3, 6]


@pytest.mark.parametrize(
    ("face", "choices"), [(1, (1, 2)), (2, (1, 2, 3)), (5, (4, 5, 6)), (6, (5, 6))]
)
def test_a_triple_lets_the_attacker_pick_that_column_or_a_neighbour(
    game: Game, face: int, choices: tuple[int, ...]
) -> None:
    _, state = placed(game, CARDS, OTHER)
    other = 1 if face != 1 else 2
    state.apply(Roll((face, face, other, face)))
    assert state.current_players() == (RED,)
    assert list(state.legal_actions(RED)) == [Target(RED, c) for c in choices]
    state.apply(Target(RED, choices[-1]))
    assert sunk(state, BLUE) == [choices[-1]]


def test_four_of_a_kind_sinks_any_column(game: Game) -> None:
    _, state = placed(game, CARDS, OTHER)
    state.apply(Roll((2, 2, 2, 2)))
    assert [a.column for a in state.legal_actions(RED) if isinstance(a, Target)] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    state.apply(Target(RED, 6))
    assert sunk(state, BLUE) == [6]


def test_five_of_a_kind_sinks_any_column_by_default_and_nothing_under_miss(game: Game) -> None:
    _, state = placed(game, lead("TS"), OTHER)
    state.apply(Roll((4, 4, 4, 4, 4, 1, 2)))
    assert len(state.legal_actions(RED)) == 6
    _, state = placed(game, lead("TS"), OTHER, five_or_more="miss")
    state.apply(Roll((4, 4, 4, 4, 4, 1, 2)))
    assert sunk(state, BLUE) == []
    assert state.attacker == BLUE


def test_triple_and_pair_both_by_default_or_one_group_by_option(game: Game) -> None:
    cards = lead("TA")
    _, state = placed(game, cards, OTHER)
    state.apply(Roll((3, 5, 3, 3, 5)))
    assert sunk(state, BLUE) == [5]
    state.apply(Target(RED, 2))
    assert state.last_sunk == [5, 2]  # 5 + 4 ships: the round ended
    assert state.results[-1].survivors[BLUE] == (1, 3, 2, 1)
    _, state = placed(game, cards, OTHER, triple_and_pair="choose_one")
    state.apply(Roll((3, 5, 3, 3, 5)))
    assert [a.column for a in state.legal_actions(RED) if isinstance(a, Target)] == [2, 3, 4, 5]
    state.apply(Target(RED, 5))
    assert sunk(state, BLUE) == [5]


def test_an_attack_on_a_sunk_column_fails(game: Game) -> None:
    _, state = placed(game, CARDS, ["TC", "TC", "TA", "TB", "EB", "TS", "TA", "TB"])
    state.apply(Roll((3, 3, 1, 2)))
    state.apply(Roll((1, 2, 4)))
    before = state.sunk_ships[BLUE]
    state.apply(Roll((3, 1, 3, 5, 6)))  # red's torpedo A in slot 2: two 3s again
    assert state.last_sunk == []
    assert state.sunk_ships[BLUE] == before


# --- evasion --------------------------------------------------------------------------------


def test_evasion_b_against_torpedo_s_leaves_no_die(game: Game) -> None:
    _, state = placed(game, lead("TS"), lead("EB", OTHER))
    # Red rolls nothing, blue's evasion attacks nobody: the next roll is red's in slot 2.
    assert state.slot == 1 and state.attacker == RED
    assert [a[3] for a in state.attacks[:1]] == [0]


def test_evasion_a_against_torpedo_b_leaves_one_die(game: Game) -> None:
    _, state = placed(game, CARDS, lead("EA", OTHER))
    assert state.dice == 1
    with pytest.raises(IllegalActionError, match=r"^rule 2-3-1\(2\): torpedo B against evasion A"):
        state.apply(Roll((1, 1)))


def test_evasion_a_cancels_torpedo_c_entirely(game: Game) -> None:
    _, state = placed(game, lead("EA"), lead("TC", OTHER))
    assert (state.slot, state.attacker) == (1, RED)


# --- round ends and scoring -----------------------------------------------------------------


def test_sinking_8_ships_ends_the_round_at_once_sinker_scores_survivors_other_zero(
    game: Game,
) -> None:
    _, state = placed(game, lead("TS"), lead("TA", OTHER))
    state.apply(Roll((2, 2, 5, 5, 1, 3, 4)))  # blue's columns 2 (4) and 5 (5): 9 ships
    result = state.results[-1]
    assert result.end == "sinkings" and result.sinker == RED
    assert result.points == (sum(RED_SHIPS), 0)
    assert state.scores == [sum(RED_SHIPS), 0]
    assert state.round == 2
    assert state.first == BLUE  # fewer points goes first


def test_after_all_slots_both_score_their_survivors(game: Game) -> None:
    cards = ["EA", "EB", "EA", "EB"]
    engine = SubmarineAttack(game_data(game), "1.1")
    state = engine.setup_state(
        {
            "first": "red",
            "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS},
            "actions": {
                "red": ["TA", "TB", "TC", "TC", "TC", "TB", "TA", "EA"],
                "blue": ["TA", "TB", "TC", "TC", "TC", "TB", "TA", "EA"],
            },
        }
    )
    del cards
    state.apply(Roll((1, 1, 2, 3, 4)))  # red sinks blue's column 1 (1 ship)
    while state.phase == 2 and state.round == 1:
        state.apply(Roll(tuple(range(1, state.dice + 1))))  # never a group
    result = state.results[-1]
    assert result.end == "all_slots"
    assert result.points == (sum(RED_SHIPS), sum(BLUE_SHIPS) - 1)


def test_the_game_ends_at_the_versions_target_and_most_points_win(game: Game) -> None:
    for version, target in (("1.1", 15), ("1.0", 10)):
        engine = SubmarineAttack(game_data(game), version)
        state = engine.setup_state({"scores": {"red": target - 1, "blue": 0}, "first": "blue"})
        hand = list(engine.cards_hand)
        red_cards = ["TS", *[c for i, c in enumerate(hand) if i != hand.index("TS")]]
        blue_cards = ["TA", *[c for i, c in enumerate(hand) if i != hand.index("TA")]]
        n = engine.actions_placed
        state.apply_joint(
            [
                Place(RED, tuple(RED_SHIPS), tuple(red_cards[:n])),
                Place(BLUE, tuple(BLUE_SHIPS), tuple(blue_cards[:n])),
            ]
        )
        state.apply(Roll((1, 2, 3, 4, 6)))  # blue first: no group
        assert not state.is_terminal()
        state.apply(Roll((2, 2, 5, 5, 1, 3, 4)))  # red sinks 4 + 5 ships: the round ends
        assert state.is_terminal()
        assert state.scores == [target - 1 + sum(RED_SHIPS), 0]
        assert state.winners == (RED,)
        assert state.returns() == (1.0, -1.0)


def test_equal_points_after_a_round_use_the_tie_first_player_option(game: Game) -> None:
    for rule, expected in (("janken", None), ("alternate", BLUE), ("same", RED)):
        engine = SubmarineAttack(game_data(game), "1.1", {"tie_first_player": rule})
        state = engine.setup_state(
            {
                "first": "red",
                "scores": {"red": 0, "blue": sum(RED_SHIPS)},  # 13: below 15
                "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS},
                "actions": {"red": lead("TS"), "blue": lead("TA", OTHER)},
            }
        )
        state.apply(Roll((2, 2, 5, 5, 1, 3, 4)))  # red ends the round: 13 to 13
        assert state.scores == [sum(RED_SHIPS), sum(RED_SHIPS)]
        if expected is None:
            assert state.current_players() == (CHANCE,)
            assert list(state.legal_actions(CHANCE)) == [Start(RED), Start(BLUE)]
        else:
            assert state.first == expected


# --- three or more players ------------------------------------------------------------------


def test_three_players_attack_to_the_left_and_the_victim_scores_zero(game: Game) -> None:
    for rule, third in (("victim_scores_zero", sum(RED_SHIPS)), ("only_sinker_scores", 0)):
        engine = SubmarineAttack(
            game_data(game), "1.1", {"players": 3, "multiplayer_round_end": rule}
        )
        assert engine.names == ("red", "blue", "p3")
        state = engine.setup_state(
            {
                "first": "red",
                "transports": {"red": RED_SHIPS, "blue": BLUE_SHIPS, "p3": RED_SHIPS},
                "actions": {"red": lead("TS"), "blue": OTHER, "p3": CARDS},
            }
        )
        state.apply(Roll((2, 2, 5, 5, 1, 3, 4)))  # red attacks blue (its left): 9 ships
        assert state.results[-1].points == (sum(RED_SHIPS), 0, third)


# --- notation and errors --------------------------------------------------------------------


def test_notation_round_trips(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    for action in (
        Start(BLUE),
        Place(RED, (5, 1, 2, 3, 1, 2), ("TS", "TA", "TB", "TC", "EA", "TB", "TA", "TC")),
        Roll((3, 3, 5, 6)),
        Target(BLUE, 4),
    ):
        text = engine.format_action(action)
        assert engine.parse_action(text) == action
    assert engine.format_action(Roll((3, 3, 5, 6))) == "roll 3 3 5 6"
    assert engine.format_action(Target(RED, 4)) == "red target 4"


@pytest.mark.parametrize(
    "text", ["", "roll", "roll x", "green target 3", "red place 1 2 3", "jump"]
)
def test_unreadable_notation_is_a_notation_error(game: Game, text: str) -> None:
    with pytest.raises(NotationError):
        parse_step(SubmarineAttack(game_data(game)), text)


def test_placement_errors_name_the_rule(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    state = engine.setup_state({"first": "red"})
    ok = Place(BLUE, (1, 1, 2, 2, 3, 5), ("TS", "TA", "TA", "TB", "TB", "TC", "TC", "EA"))
    with pytest.raises(IllegalActionError) as info:
        state.apply_joint([Place(RED, (1, 2, 3, 4, 5, 1), ok.cards[:7]), ok])
    assert str(info.value) == (
        "rule 2-2: 8 of the 10 action cards must be placed (slots 1-8), red placed 7"
    )
    with pytest.raises(IllegalActionError, match=r"^rule 2-1: 6 of the 8 transport cards"):
        state.apply_joint([Place(RED, (1, 2, 3, 4, 5), ok.cards), ok])
    with pytest.raises(IllegalActionError, match="give a joint action"):
        state.apply(ok)
    assert state.history == []


def test_a_target_outside_the_choices_is_refused(game: Game) -> None:
    _, state = placed(game, CARDS, OTHER)
    state.apply(Roll((5, 5, 2, 5)))
    with pytest.raises(IllegalActionError) as info:
        state.apply(Target(RED, 2))
    assert str(info.value) == (
        "rule 2-3-1(1)-triple: a triple of 5s sinks column 4, 5 or 6 (the attacker's choice), not 2"
    )
    with pytest.raises(IllegalActionError, match="the attacker"):
        state.apply(Target(BLUE, 4))


def test_unknown_and_disallowed_options_are_errors(game: Game) -> None:
    with pytest.raises(OptionError, match="unknown rule option 'fives'"):
        SubmarineAttack(game_data(game), options={"fives": "miss"})
    with pytest.raises(OptionError, match="must be one of any_column, miss"):
        SubmarineAttack(game_data(game), options={"five_or_more": "twice"})


def test_legal_placements_are_listed_lazily_with_membership(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    state = engine.setup_state({"first": "red"})
    legal = state.legal_actions(RED)
    # distinct ordered choices: 6 of the transports x 8 of (S A A B B C C C EA EB)
    fleets = len(set(itertools.permutations(engine.ships_hand, 6)))
    actions = len(
        set(itertools.permutations(("S", "A", "A", "B", "B", "C", "C", "C", "EA", "EB"), 8))
    )
    assert len(legal) == fleets * actions
    place = legal[123_456_789]
    assert isinstance(place, Place)
    assert place in legal and state.is_legal(RED, place)
    assert Place(RED, (5, 5, 1, 1, 2, 2), place.cards) not in legal


def test_history_replays_to_an_equal_state(game: Game) -> None:
    engine, state = placed(game, CARDS, OTHER)
    for step in ("roll 5 5 2 5", "red target 4", "roll 1 1 1", "blue target 2"):
        state.apply(engine.parse_action(step))
    again = replay(state.initial(), state.history)
    assert again == state
    assert [format_step(engine, s) for s in again.history][1:] == [
        "roll 5 5 2 5",
        "red target 4",
        "roll 1 1 1",
        "blue target 2",
    ]


# --- the seed's round examples against the reconstructed fleet -------------------------------


def test_every_stated_clue_holds_under_every_rule_version(game: Game) -> None:
    """The reconstructed cards keep the seed's clues true: B rolls 4, S always hits in
    attack 1, evasion B leaves S no die, C is the weak torpedo, survivors 5 + 1 and
    2 + 1 + 1 can score (rule 2-5), and the old fleet 1 1 1 2 2 3 could be placed."""
    for version in ("1.0", "1.0.1", "1.1"):
        clues = {c.id: c.holds for c in check_clues(game_data(game), version)}
        assert {"torpedo-s-attack-1", "survivors-5-1", "survivors-2-1-1"} <= set(clues)
        assert all(clues.values()), (version, clues)
