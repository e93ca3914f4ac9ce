"""Thousands of seeded random games of S.U.B.Z.E.R.O. under several option sets.

Each game must end without an exception and with a winner (or a shared result); the same
seed must give the same history (the engine's fast driver and the generic checked driver
alike); replaying the history must give an equal state; a player's view must not change
when cards hidden from that player change; and every card, HIT token and snowball must
always be somewhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game, load_game
from rules_engine.core import (
    JointAction,
    Step,
    format_step,
    generic_playout,
    parse_step,
    play_random,
    recording,
    replay,
)
from rules_engine.subzero import (
    DEATHMATCH,
    PROGRAM,
    REVEAL,
    SURVIVAL,
    Action,
    Draw,
    Program,
    Reshuffle,
    Reveal,
    Subzero,
    SubzeroState,
)

from .conftest import ROOT
from .shortcuts import check_playout, play_against_checked

GAMES = 1000
# Every value of every option appears in at least one set; the default set is 4 players.
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},  # 4 players, deathmatch to 5 damage
    {"ending": "survival", "moving_target": "start_or_end", "move_order": "reveal_order"},
    {
        "ending": "all-out-attack",
        "moving_target": "reveal_order",
        "combined_cards": "one",
        "edge_turn": "left",
    },
    {
        "players": 2,
        "damage_limit": 1,
        "combined_cards": "both_shoot_first",
        "edge_turn": "right",
        "edge_reach": "arrive",
        "start_player_passes": "right",
        "ball_range": 3,
    },
    {"players": 3, "damage_limit": 2, "start_player_passes": "right", "edge_reach": "arrive"},
    {
        "players": 3,
        "ending": "survival",
        "damage_limit": 1,
        "move_order": "reveal_order",
        "ball_range": 1,
    },
)
CHECK_EVERY = 25  # the generic checked driver, replay and views: one game in 25


@pytest.fixture(scope="module")
def sz() -> Game:
    return load_game(ROOT / "components" / "subzero")


def conserved(engine: Subzero, state: SubzeroState) -> None:
    zones = state.zones()
    for k, count in enumerate(engine.deck_counts):
        assert zones["pile"][k] + zones["discards"][k] + zones["players"][k] == count
    assert sum(zones["pile"]) == state.pile_total
    assert sum(zones["discards"]) == state.discard_total
    for sh in range(state.num_players):
        placed = sum(state.boards[t][sh] for t in range(state.num_players))
        assert placed + state.supply[sh] == engine.hit_tokens
    for p in range(state.num_players):
        assert state.damage[p] == sum(state.boards[p])
        assert 0 <= state.balls[p] <= engine.max_snowballs
        if p in state.out:
            assert state.pos[p] == -1 and not state.hands[p] and not state.programs[p]
        elif state.phase not in (0, 1):  # pawns are on the board once placed
            assert state.at[state.pos[p]] == p
    assert sum(1 for o in state.at if o >= 0) == sum(1 for q in state.pos if q >= 0)


def _hidden_variant(
    state: SubzeroState, prefix: list[Step[Action]], viewer: int, rng: random.Random
) -> list[Step[Action]] | None:
    """The same history with something `viewer` cannot see changed: in a reveal phase,
    another player's face-down program card swapped for a card of their hand; in the
    programming phase, a card another player drew this refill swapped for one of the pile."""
    g = state.g
    others = [p for p in range(state.num_players) if p != viewer and p not in state.out]
    o = others[rng.randrange(len(others))]
    if state.phase == REVEAL:
        j = max(i for i, s in enumerate(prefix) if isinstance(s, JointAction))
        programs = list(prefix[j])
        place = next(a for a in programs if isinstance(a, Program) and a.player == o)
        done = len(state.revealed_cards(o))
        hidden = list(range(done, len(place.cards)))
        hand = [g.card_ids[k] for k in state.hands[o]]
        swaps = [(i, c) for i in hidden for c in hand if c != place.cards[i]]
        if not swaps:
            return None
        i, c = swaps[rng.randrange(len(swaps))]
        cards = list(place.cards)
        cards[i] = c
        programs[programs.index(place)] = Program(o, tuple(cards))
        return [*prefix[:j], JointAction(programs), *prefix[j + 1 :]]
    if state.phase == PROGRAM:
        last_shuffle = max(
            (i for i, s in enumerate(prefix) if isinstance(s, Reshuffle)), default=-1
        )
        draws = [
            i
            for i, s in enumerate(prefix)
            if i > last_shuffle and isinstance(s, Draw) and s.player == o
        ]
        if not draws:
            return None
        # only the draws of this refill: after the last reveal of the previous turn
        last_play = max((i for i, s in enumerate(prefix) if not isinstance(s, Draw | Reshuffle)))
        draws = [i for i in draws if i > last_play]
        pile = [g.card_ids[k] for k, c in enumerate(state.pile) for _ in range(c)]
        if not draws or not pile:
            return None
        i = draws[rng.randrange(len(draws))]
        draw = prefix[i]
        assert isinstance(draw, Draw)
        cards = list(draw.cards)
        swaps = [(x, c) for x in range(len(cards)) for c in pile if c != cards[x]]
        if not swaps:
            return None
        x, c = swaps[rng.randrange(len(swaps))]
        cards[x] = c
        new = Draw(o, tuple(sorted(cards, key=g.card_index.__getitem__)))
        return [*prefix[:i], new, *prefix[i + 1 :]]
    return None


def _replay(state: SubzeroState, history: list[Step[Action]], fresh: bool = True) -> SubzeroState:
    """Replay `history` from `state`'s start (fresh) or from `state` itself."""
    again = replay(state.initial() if fresh else state, history)
    assert isinstance(again, SubzeroState)
    return again


@pytest.mark.parametrize(
    "options",
    OPTION_SETS,
    ids=["-".join(f"{k}={v}" for k, v in o.items()) or "default" for o in OPTION_SETS],
)
def test_random_games(sz: Game, options: dict[str, Any]) -> None:
    engine = Subzero(game_data(sz), None, options)
    changed_hidden = 0
    checked = 0
    for seed in range(GAMES):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        winners = state.winners
        assert winners
        returns = state.returns()
        assert sum(returns) <= 1.0
        alive = [p for p in range(state.num_players) if p not in state.out]
        if engine.ending == DEATHMATCH:
            assert len(alive) <= 1 or not any(state.supply[p] for p in alive)
        elif engine.ending == SURVIVAL:
            least = min(state.damage[p] for p in alive)
            assert all(state.damage[p] == least for p in winners)
        else:
            assert all(
                all(state.boards[t][p] >= engine.hits_needed for t in alive if t != p)
                for p in winners
            ) or not any(state.supply)
        conserved(engine, state)
        if seed % CHECK_EVERY:
            continue
        checked += 1
        history = list(state.history)
        assert [parse_step(engine, format_step(engine, s)) for s in history] == history

        # Same seed, generic protocol driver (every action checked): the same history.
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed))
        assert list(generic.history) == history
        assert generic == state

        # Replaying the history gives an equal state; cut somewhere in the middle.
        rng = random.Random(seed + 1_000_003)
        cut_at = rng.randrange(len(history))
        again = _replay(state, history[:cut_at])
        while again.phase not in (PROGRAM, REVEAL) and cut_at < len(history):
            again = _replay(again, [history[cut_at]], fresh=False)
            cut_at += 1
        conserved(engine, again)
        rest = _replay(again, history[cut_at:], fresh=False)
        assert rest == state

        # A view does not change when something hidden from that player changes.
        if again.is_terminal():
            continue
        viewer = rng.choice([p for p in range(state.num_players) if p not in again.out])
        variant_history = _hidden_variant(again, history[:cut_at], viewer, rng)
        if variant_history is None:
            continue
        variant = _replay(state, variant_history)
        assert variant.view(viewer) == again.view(viewer)
        if variant != again:
            changed_hidden += 1
    assert changed_hidden > checked // 2  # the hidden changes were real


def test_random_games_depend_on_the_seed(sz: Game) -> None:
    engine = Subzero(game_data(sz), None, {"ending": "survival"})
    histories = set()
    for seed in range(20):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        histories.add(tuple(state.history))
    assert len(histories) == 20


@pytest.mark.parametrize("options", [{}, {"players": 2, "combined_cards": "one"}])
def test_the_playout_shortcuts_play_and_refuse_as_the_checked_way(
    sz: Game, options: dict[str, Any]
) -> None:
    """`apply` and `apply_joint` take a shortcut for the actions of a search player's
    playout (reveals, draws, programs): see `shortcuts.play_against_checked`."""
    engine = Subzero(game_data(sz), None, options)

    def off_the_legal(state: SubzeroState, picked: list[Any]) -> list[Any]:
        first = picked[0]
        if isinstance(first, Reveal):
            return [
                first._replace(player=(first.player + 1) % state.n),
                first._replace(move=1, turn=-1),
                first._replace(shots=(0, 0, 0, 0)),
                first._replace(roll=not first.roll),
                first._replace(card="swish" if first.card != "swish" else "roll"),
            ]
        if isinstance(first, Draw):
            return [
                first._replace(cards=first.cards[:-1]),
                first._replace(cards=tuple(reversed(first.cards))),
                first._replace(cards=("nothing", *first.cards[1:])),
                first._replace(player=(first.player + 1) % state.n),
            ]
        if isinstance(first, Program) and len(picked) > 1:
            return [
                JointAction([first._replace(cards=("move-4",) * 3), *picked[1:]]),
                JointAction([first._replace(cards=first.cards[:2]), *picked[1:]]),
                JointAction(reversed(picked)),
            ]
        return []

    for seed in range(3):
        play_against_checked(engine.new_initial_state(), random.Random(seed), off_the_legal)


# Every player count and ending, and every value of every option (`OPTION_SETS`), for the
# engine's own playout.
PLAYOUT_SETS: tuple[dict[str, Any], ...] = (
    *OPTION_SETS,
    {"players": 2, "ending": "all-out-attack", "combined_cards": "both_shoot_first"},
    {"players": 3, "ending": "all-out-attack", "move_order": "reveal_order"},
)


@pytest.mark.parametrize(
    "options",
    PLAYOUT_SETS,
    ids=["-".join(f"{k}={v}" for k, v in o.items()) or "default" for o in PLAYOUT_SETS],
)
def test_the_playout_plays_the_protocols_game(sz: Game, options: dict[str, Any]) -> None:
    """`SubzeroState.playout` (a search player's playout, `random_play.playout`) plays the
    game `core.generic_playout` plays from the same generator: to the end, and cut short
    after a few steps (in the middle of a step, a refill or a programming) and played on
    from there, time and again."""
    engine = Subzero(game_data(sz), None, options)
    check_playout(engine, range(25))
    for seed in range(6):
        for cut in (1, 5, 12, 37):
            fast, slow = engine.new_initial_state(), engine.new_initial_state()
            fast_rng, slow_rng = random.Random(seed), random.Random(seed)
            while not slow.is_terminal():
                made = fast.playout(fast_rng, cut)
                assert made == generic_playout(slow, slow_rng, cut)
                assert fast == slow, f"seed {seed}, {cut} steps at a time"
            assert fast_rng.random() == slow_rng.random()


def test_random_games_told_play_the_same_game(sz: Game) -> None:
    """While the events are recorded, `play_random` plays every action by `_do` and
    `playout` is `core.generic_playout` (both tell the events): the same games as without
    recording."""
    engine = Subzero(game_data(sz), None, {"players": 3})
    for seed in range(4):
        quiet = engine.new_initial_state()
        quiet.play_random(random.Random(seed))
        told = engine.new_initial_state()
        with recording(count_only=True) as log:
            told.play_random(random.Random(seed))
        assert told == quiet
        assert log.counts is not None and log.counts["reveal"] > 0
        quiet = engine.new_initial_state()
        made = quiet.playout(random.Random(seed))
        told = engine.new_initial_state()
        with recording(count_only=True) as log:
            assert told.playout(random.Random(seed)) == made
        assert told == quiet
        assert log.counts is not None and log.counts["reveal"] > 0
