"""Thousands of seeded random games of every rule version under every option set.

Each game must end without an exception; the same seed must give the same history (with
both the generic driver and the engine's fast one); replaying the history must give an
equal state; a player's view must not change when the cards hidden from that player
change; and every card must always be somewhere.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game
from rules_engine.core import (
    JointAction,
    Product,
    Step,
    format_step,
    generic_playout,
    parse_step,
    play_random,
    playout_picks,
    random_step,
    recording,
    replay,
)
from rules_engine.submarine_attack import (
    ROLL,
    TARGET,
    Action,
    Place,
    Roll,
    Start,
    SubmarineAttack,
    SubmarineAttackState,
    Target,
)
from rules_engine.submarine_attack.kernel import Unranker, _round_result
from rules_engine.submarine_attack.placement import _minus
from rules_engine.submarine_attack.round_end import RoundResult

from .shortcuts import check_playout, play_against_checked

GAMES = 1000
VERSIONS = ("1.0", "1.0.1", "1.1")
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"five_or_more": "miss"},
    {"triple_and_pair": "choose_one"},
    {"tie_first_player": "alternate", "tie_winner": "play_on"},
    {"tie_first_player": "same"},
    {"players": 3},
    {"players": 4, "multiplayer_round_end": "only_sinker_scores"},
)
CASES = [(v, o) for v in VERSIONS for o in OPTION_SETS]


def _conserved(engine: SubmarineAttack, state: SubmarineAttackState) -> None:
    for p in range(state.num_players):
        zones = state.zones(p)
        assert sorted(zones["ships"] + zones["spare_ships"]) == sorted(engine.ships_hand)
        assert sorted(zones["cards"] + zones["spare_cards"]) == sorted(engine.cards_hand)
        assert len(zones["ships"]) in (0, engine.transports_placed)


def _hidden_variant(
    state: SubmarineAttackState, prefix: list[Step[Action]], viewer: int, rng: random.Random
) -> list[Step[Action]]:
    """The same history with everything `viewer` cannot see of this round's placements
    shuffled: other players' unsunk transports and unrevealed action cards, and the cards
    they set aside."""
    j = max(i for i, s in enumerate(prefix) if isinstance(s, JointAction))
    places = [a for a in prefix[j] if isinstance(a, Place)]
    upto = state.revealed_upto()
    for o in range(state.num_players):
        if o == viewer:
            continue
        place = places[o]
        ships = list(place.ships)
        hidden = [c for c in range(len(ships)) if not state.sunk[o] >> c & 1]
        ship_pool = [ships[c] for c in hidden] + list(state.spare_ships[o])
        rng.shuffle(ship_pool)
        for c in hidden:
            ships[c] = ship_pool.pop()
        cards = list(place.cards)
        card_pool = cards[upto:] + list(state.spare_cards[o])
        rng.shuffle(card_pool)
        cards[upto:] = card_pool[: len(cards) - upto]
        places[o] = Place(o, tuple(ships), tuple(cards))
    return [*prefix[:j], JointAction(places), *prefix[j + 1 :]]


@pytest.mark.parametrize(
    ("version", "options"),
    CASES,
    ids=[f"{v}-{'-'.join(map(str, o.values())) or 'default'}" for v, o in CASES],
)
def test_random_games(game: Game, version: str, options: dict[str, Any]) -> None:
    engine = SubmarineAttack(game_data(game), version, options)
    changed_hidden = 0
    for seed in range(GAMES):
        # Fast driver.
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        assert max(state.scores) >= engine.target_points
        top = max(state.scores)
        assert {p for p in range(state.num_players) if state.scores[p] == top} >= set(state.winners)
        assert sum(state.returns()) <= 1.0
        _conserved(engine, state)
        history = list(state.history)
        if seed % 10 == 0:  # the notation round-trips
            assert [parse_step(engine, format_step(engine, s)) for s in history] == history

        # Same seed, generic protocol driver (checked actions): the same history.
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed), max_steps=10_000)
        assert list(generic.history) == history
        assert generic == state

        # Replaying the history gives an equal state; pick a cut point mid-round.
        rng = random.Random(seed + 1_000_003)
        again = state.initial()
        cuts: list[tuple[int, SubmarineAttackState]] = []
        for i, step in enumerate(history):
            if isinstance(step, JointAction):
                again.apply_joint(step)
            else:
                assert not isinstance(step, tuple) or hasattr(step, "_fields")
                again.apply(step)  # type: ignore[arg-type]
            if again.phase in (ROLL, TARGET):
                cuts.append((i + 1, again))
                again = again.clone()
            if seed % 50 == 0:
                _conserved(engine, again)
        assert again == state
        if not cuts:
            continue

        # A view does not change when what that player cannot see changes.
        k, cut = cuts[rng.randrange(len(cuts))]
        _conserved(engine, cut)
        viewer = rng.randrange(state.num_players)
        variant_history = _hidden_variant(cut, history[:k], viewer, rng)
        variant = replay(state.initial(), variant_history)
        assert variant.view(viewer) == cut.view(viewer)
        if variant != cut:
            changed_hidden += 1
    assert changed_hidden > GAMES // 2  # the hidden changes were real


def test_random_games_depend_on_the_seed(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    histories = set()
    for seed in range(20):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        histories.add(tuple(state.history))
    assert len(histories) == 20


def test_a_view_hides_the_opponents_face_down_cards(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    state = engine.new_initial_state()
    rng = random.Random(7)
    while state.phase not in (ROLL, TARGET):
        random_step(state, rng)
    view = state.player_view(0)
    assert view.own_cards == state.slots[0]
    assert view.revealed[1] == state.slots[1][: state.slot + 1]
    assert len(view.revealed[1]) < len(state.slots[1])
    text = repr(view)
    assert " ".join(state.slots[1]) not in text
    assert "blue place ?" in view.log[1]


@pytest.mark.parametrize("options", [{}, {"triple_and_pair": "choose_one"}, {"players": 3}])
def test_the_playout_shortcuts_play_and_refuse_as_the_checked_way(
    game: Game, options: dict[str, Any]
) -> None:
    """`apply` and `apply_joint` take a shortcut for the actions of a search player's
    playout (rolls, targets, placements): see `shortcuts.play_against_checked`."""
    engine = SubmarineAttack(game_data(game), None, options)

    def off_the_legal(state: SubmarineAttackState, picked: list[Any]) -> list[Any]:
        first = picked[0]
        if state.phase == ROLL:
            return [Roll((*first.dice, 1)), Roll((7, *first.dice[1:])), Roll((0, *first.dice[1:]))]
        if state.phase == TARGET:
            return [Target(first.player, 99), Target((first.player + 1) % state.n, 1)]
        if len(picked) > 1:
            return [
                JointAction([Place(first.player, first.ships, ("TS",) * 8), *picked[1:]]),
                JointAction([Place(first.player, first.ships[:5], first.cards), *picked[1:]]),
                JointAction(reversed(picked)),
            ]
        return []

    for seed in range(40):
        play_against_checked(engine.new_initial_state(), random.Random(seed), off_the_legal)


def test_a_placement_list_indexes_like_the_product_of_arrangements(game: Game) -> None:
    engine = SubmarineAttack(game_data(game))
    state = engine.setup_state({"first": "red"})
    places = state.legal_actions(1)
    ships, cards = engine._ship_arrangements, engine._card_arrangements
    product = Product(ships, cards)
    assert len(places) == len(product) == len(ships) * len(cards)
    rng = random.Random(5)
    for i in [0, 1, len(places) - 1, *(rng.randrange(len(places)) for _ in range(200))]:
        assert places[i] == Place(1, *product[i])
        assert places[i] in places and places[i]._replace(player=0) not in places
    assert places[-1] == places[len(places) - 1]
    assert list(places[3:6]) == [places[3], places[4], places[5]]
    assert Place(1, (1,) * 6, cards[0]) not in places


# Every rule version and option set, and six players (the most the options allow).
PLAYOUT_CASES = [*CASES, ("1.1", {"players": 6, "tie_first_player": "same"})]


@pytest.mark.parametrize(
    ("version", "options"),
    PLAYOUT_CASES,
    ids=[f"{v}-{'-'.join(map(str, o.values())) or 'default'}" for v, o in PLAYOUT_CASES],
)
def test_the_playout_plays_the_protocols_game(
    game: Game, version: str, options: dict[str, Any]
) -> None:
    """The state's own `playout` (`kernel.playout`) plays the game of the protocol's loop:
    whole games, and games cut short by `max_steps` anywhere (a round's first placement,
    the middle of a round, rounds later)."""
    engine = SubmarineAttack(game_data(game), version, options)
    check_playout(engine, range(300))
    for max_steps in (0, 1, 2, 3, 7, 20, 45, 60, 80, 130):
        check_playout(engine, range(300, 330), max_steps)


@pytest.mark.parametrize("options", [{}, {"triple_and_pair": "choose_one"}, {"players": 3}])
def test_the_playout_plays_on_from_any_position(game: Game, options: dict[str, Any]) -> None:
    """From a position after any step of a game (who goes first, a placement, a roll, a
    target, a round's end), `playout` plays what `generic_playout` plays."""
    engine = SubmarineAttack(game_data(game), None, options)
    for seed in range(30):
        state = engine.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            picked = playout_picks(state, rng)
            if len(picked) > 1:
                state.apply_joint(JointAction(picked))
            else:
                state.apply(picked[0])
            for max_steps in (1, 4, 100_000):
                fast, slow = state.clone(), state.clone()
                fast_rng, slow_rng = random.Random(seed + 1), random.Random(seed + 1)
                made = fast.playout(fast_rng, max_steps)
                assert made == generic_playout(slow, slow_rng, max_steps)
                assert fast == slow
                assert fast_rng.random() == slow_rng.random()


@pytest.mark.parametrize("options", [{}, {"players": 3}])
def test_what_a_playout_leaves_packed_reads_and_plays_on_as_the_checked_way(
    game: Game, options: dict[str, Any]
) -> None:
    """A playout leaves its placements, its rolls of more than five dice, its rounds'
    results and the round's attacks packed, made when first read.  A state it cut short
    anywhere plays on by the checked way with nothing read first, and by another
    playout from a clone or a pickled copy; each then holds what the protocol's loop
    leaves: the same actions, `RoundResult`s and attacks."""
    engine = SubmarineAttack(game_data(game), "1.0", options)  # (torpedo S: seven dice)
    for seed in range(12):
        for max_steps in (1, 3, 9, 20, 45):
            fast, slow = engine.new_initial_state(), engine.new_initial_state()
            fast.playout(random.Random(seed), max_steps)
            generic_playout(slow, random.Random(seed), max_steps)
            copies = [fast.clone(), pickle.loads(pickle.dumps(fast))]
            # On by the checked way: the same steps applied to both, `fast` unread.
            on = slow.clone()
            rng = random.Random(seed + 100)
            while not on.is_terminal():
                picked = playout_picks(on, rng)
                step = JointAction(picked) if len(picked) > 1 else picked[0]
                for state in (on, fast):
                    if isinstance(step, JointAction):
                        state.apply_joint(step)
                    else:
                        state.apply(step)
            assert fast == on
            assert all(
                isinstance(step, JointAction | Roll | Target | Start) for step in fast.history
            )
            assert all(isinstance(result, RoundResult) for result in fast.results)
            for copy in copies:
                expected = slow.clone()
                copy.playout(random.Random(seed + 200))
                generic_playout(expected, random.Random(seed + 200))
                assert copy == expected
                assert copy.attacks == expected.attacks
                assert [type(step) for step in copy.history] == [
                    type(step) for step in expected.history
                ]


def test_the_playout_tells_its_events_when_recording(game: Game) -> None:
    """With the event log on, a playout tells every rule it applies, as the protocol's loop."""
    engine = SubmarineAttack(game_data(game))
    with recording() as fast_log:
        fast = engine.new_initial_state()
        fast.playout(random.Random(3))
    with recording() as slow_log:
        slow = engine.new_initial_state()
        generic_playout(slow, random.Random(3))
    assert fast == slow
    assert fast_log.items and fast_log.items == slow_log.items


@pytest.mark.parametrize("version", VERSIONS)
def test_the_playout_tables_list_the_arrangements(game: Game, version: str) -> None:
    """`kernel.Unranker` finds the arrangement `Arrangements` has at each index, and what it
    sets aside as `placement.place` finds it."""
    engine = SubmarineAttack(game_data(game), version)
    rng = random.Random(11)
    for hand, k, arrangements in (
        (engine.ships_hand, engine.transports_placed, engine._ship_arrangements),
        (engine.cards_hand, engine.actions_placed, engine._card_arrangements),
    ):
        table = Unranker(hand, k)
        assert table.length == len(arrangements)
        for i in [
            0,
            1,
            len(arrangements) - 1,
            *table.starts[:50],
            *rng.sample(range(len(arrangements)), 300),
        ]:
            assert table[i] == (arrangements[i], _minus(hand, arrangements[i]))
    ships = Unranker(engine.ships_hand, engine.transports_placed).listing()
    assert ships == tuple((a, _minus(engine.ships_hand, a)) for a in engine._ship_arrangements)


def test_a_playout_round_result_is_the_dataclass(game: Game) -> None:
    """`kernel._round_result` makes the `RoundResult` its fields make: equal, the same hash,
    the same text."""
    fields = (
        2,
        "sinkings",
        1,
        (12, 0),
        ((1, 2, 5), (1,)),
        (("TS", "TA"), ("EA", "TB")),
        ((1, 2, 3, 4, 5, 1), (1, 1, 2, 2, 3, 4)),
        (("TS", "TA", "TB"), ("EA", "TB", "TC")),
        (9, 62),
        ((0, 0, "TS", 7), (0, 1, "EA", 0)),
    )
    made, expected = _round_result(*fields), RoundResult(*fields)
    assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
    assert vars(made) == vars(expected)
