"""Thousands of seeded random KILL SHOT games: every game type, every optional rule, and every
reading of the rules' ambiguities, in a few option sets of 1,000 full games each.

Each game must end without an exception (ten hunts, or four with Terror Threat); the same
seed must give the same history; on a sample of the games, the generic protocol driver
(checked actions) must play the very same game, replaying the history must give an equal
state, the notation must round-trip, and a player's view must not change when a card
hidden from that player changes.  Every card must always be somewhere.

The search player's playout (`KillShotState.playout`) must play the game of the protocol's
loop (`generic_playout`) in every option set, from a new game and from any position.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.examples import example_files, load_example
from printgen.model import Game, load_game
from rules_engine.core import (
    IllegalActionError,
    JointAction,
    Step,
    format_step,
    generic_playout,
    parse_step,
    play_random,
    random_step,
    recording,
    replay,
)
from rules_engine.kill_shot import (
    REVEAL,
    Action,
    Draw,
    KillShot,
    KillShotState,
    Pick,
)

from .shortcuts import check_playout

GAMES = 1000
SAMPLE = 40  # one game in SAMPLE gets the slow checks
FOLDER = Path(__file__).resolve().parents[2] / "components" / "kill-shot"

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"game_type": "tactical-engagement", "players": 3},
    {"game_type": "situation-room"},
    {
        # real time with the optional rules that keep refills, and other readings
        "briefing": True,
        "night_mission": True,
        "one_shot_one_kill": True,
        "terror_threat": True,
        "simultaneous_plays": "all_land",
        "kill_shot_tie": "escapes",
        "second_kill_shot_claimer": "first",
        "extra_cards_limit": "limit_too",
        "jam_blocks": "hunt_cards",
        "final_tie": "most_captures",
        "claimed_pile": "stays",
        "players": 5,
    },
    {
        "game_type": "tactical-engagement",
        "deadline": True,
        "night_mission": True,
        "deadline_extras": "dealt",
        "points_tie": "escapes",
        "players": 2,
    },
    {
        "game_type": "situation-room",
        "briefing": True,
        "taliban": True,
        "night_mission": True,
        "one_shot_one_kill": True,
        "terror_threat": True,
        "situation_room_decks": "per_colour",
        "situation_room_cease_fire": True,
        "next_hunt_first": "random",
        "taliban_scoring": "none",
        "players": 3,
    },
    {"game_type": "situation-room", "deadline": True, "next_hunt_first": "claimer"},
    {
        "game_type": "tactical-engagement",
        "taliban": True,
        "one_shot_one_kill": True,
        "terror_threat": True,
        "deadline": True,
        "bad_intel_levels": "runs",
        "bad_intel_removed": "set_aside",
        "players": 4,
    },
)


def _ids(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "default"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(FOLDER)


def _conserved(engine: KillShot, state: KillShotState) -> None:
    everything = itertools.chain(
        *state.hands, *state.decks, *state.discards, *state.piles, state.set_aside
    )
    assert sorted(everything) == sorted(itertools.chain(*engine.pool_cards))
    out = [0] * len(engine.codes)
    for c in itertools.chain(*state.piles, state.set_aside):
        out[c] += 1
    assert out == state.out


def _scores_add_up(engine: KillShot, state: KillShotState) -> None:
    for p in range(state.num_players):
        points = sum(engine.terrorists[t].points for t in state.captured[p])
        if p == state.taliban and engine.taliban_scores:
            points += sum(engine.terrorists[t].points for t in state.escaped)
        assert state.scores[p] == points
    taken = sorted(itertools.chain(*state.captured, state.escaped))
    assert taken == list(range(len(engine.terrorists)))
    assert len(state.results) == len(engine.terrorists)
    top = max(state.scores)
    assert set(state.winners) <= {p for p in range(state.num_players) if state.scores[p] == top}


def _actions(step: Step[Action]) -> tuple[Action, ...]:
    return tuple(step) if isinstance(step, JointAction) else (step,)  # type: ignore[arg-type]


def _swapped(step: Step[Action], o: int, c: int, x: int) -> Step[Action]:
    """The step with player o's drawn or picked card c replaced by x."""
    out: list[Action] = []
    for a in _actions(step):
        if isinstance(a, Draw | Pick) and a.player == o and c in a.cards:
            cards = list(a.cards)
            cards[cards.index(c)] = x
            a = Draw(o, tuple(cards)) if isinstance(a, Draw) else Pick(o, tuple(sorted(cards)))
        out.append(a)
    return JointAction(out) if isinstance(step, JointAction) else out[0]


def _hidden_variant(
    state: KillShotState, history: list[Step[Action]], viewer: int, rng: random.Random
) -> KillShotState | None:
    """The same history with one card that `viewer` cannot see swapped for another: a card
    another player drew (or picked, under Deadline) and still holds becomes another card of
    that player's deck."""
    engine = state.g
    others = [o for o in range(state.num_players) if o != viewer and state.hands[o]]
    rng.shuffle(others)
    start = max(i for i, s in enumerate(history) if getattr(s, "tag", "") == "reveal")
    for o in others:
        for c in sorted(set(state.hands[o])):
            found = [
                i
                for i in range(start, len(history))
                for a in _actions(history[i])
                if isinstance(a, Draw | Pick) and a.player == o and c in a.cards
            ]
            if not found:
                continue
            i = found[-1]
            pool = o if engine.per_colour else 0
            swaps = sorted(set(state.decks[pool]) - {c})
            rng.shuffle(swaps)
            for x in swaps[:3]:
                changed = [*history[:i], _swapped(history[i], o, c, x), *history[i + 1 :]]
                try:
                    return replay(state.initial(), changed)  # type: ignore[return-value]
                except IllegalActionError:
                    continue
    return None


@pytest.mark.parametrize("options", OPTION_SETS, ids=[_ids(o) for o in OPTION_SETS])
def test_random_games(game: Game, options: dict[str, Any]) -> None:
    engine = KillShot(game_data(game), None, options)
    hunts = engine.hunts
    changed_hidden = 0
    for seed in range(GAMES):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed), max_steps=200_000)
        assert state.is_terminal()
        assert state.hunt == hunts
        _conserved(engine, state)
        _scores_add_up(engine, state)
        returns = state.returns()
        assert sum(returns) <= 1.0
        if seed % SAMPLE:
            continue
        history = list(state.history)

        again = engine.new_initial_state()
        again.play_random(random.Random(seed))
        assert list(again.history) == history

        # The generic protocol driver (sample_action + checked apply) plays the same game.
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed), max_steps=200_000)
        assert list(generic.history) == history
        assert generic == state

        assert [parse_step(engine, format_step(engine, s)) for s in history] == history

        # Replaying the history gives an equal state; cut it somewhere in a hunt.
        rng = random.Random(seed + 7)
        cut = rng.randrange(len(history) // 2, len(history))
        mid = replay(state.initial(), history[:cut])
        assert isinstance(mid, KillShotState)
        _conserved(engine, mid)
        assert replay(mid, history[cut:]) == state
        if mid.phase == REVEAL:
            continue

        # A view does not change when a card hidden from that player changes.
        viewer = rng.randrange(state.num_players)
        variant = _hidden_variant(mid, history[:cut], viewer, rng)
        if variant is None:
            continue
        assert variant.view(viewer) == mid.view(viewer)
        if variant != mid:
            changed_hidden += 1
    assert changed_hidden > GAMES // SAMPLE // 4  # the hidden changes were real


def test_random_games_depend_on_the_seed(game: Game) -> None:
    engine = KillShot(game_data(game))
    histories = set()
    for seed in range(10):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        histories.add(tuple(state.history))
    assert len(histories) == 10


# The search player's playout: per option set, seeds and a step limit that reach every phase
# it plays (a uniformly random player mostly reloads, so a real-time game takes about 100,000
# steps and often meets the limit; Deadline, which has no refills, ends within a thousand).
PLAYOUT_CASES: tuple[tuple[dict[str, Any], range, int], ...] = (
    (OPTION_SETS[0], range(3), 2_000),  # deal, countdown, reaction times, reloads, plays
    (OPTION_SETS[0], range(2, 3), 100_000),  # ten hunts: discards, chance's order, game end
    (OPTION_SETS[1], range(2), 20_000),
    ({"game_type": "tactical-engagement"}, range(1), 100_000),  # to the end: points claims
    (OPTION_SETS[2], range(2, 3), 100_000),  # Situation Room to the end: turns, refills
    (OPTION_SETS[3], range(2), 20_000),  # Night Mission's looks, three piles, five players
    (OPTION_SETS[4], range(1), 100_000),  # Deadline's dealt extras, two players
    (OPTION_SETS[5], range(2, 3), 100_000),  # the Taliban player, own colours, cease-fires
    (OPTION_SETS[6], range(4), 100_000),  # Deadline's chosen extras and passes
    (OPTION_SETS[7], range(4), 100_000),
    ({"simultaneous_plays": "all_land", "players": 5, "deadline": True}, range(3), 100_000),
)


@pytest.mark.parametrize(
    ("options", "seeds", "max_steps"),
    PLAYOUT_CASES,
    ids=[f"{_ids(o)}-{s.start}-{m}" for o, s, m in PLAYOUT_CASES],
)
def test_the_playout_plays_the_protocols_game(
    game: Game, options: dict[str, Any], seeds: range, max_steps: int
) -> None:
    """`playout` (reloads, refills and reaction times played directly, legal actions
    counted) plays the game of the protocol's loop: the same final state, the same number
    of actions, the generator left in the same place."""
    check_playout(KillShot(game_data(game), None, options), seeds, max_steps)


def _same_playout(start: KillShotState, rng: random.Random, other: random.Random, n: int) -> None:
    fast, slow = start.clone(), start.clone()
    made = fast.playout(rng, n)
    assert made == generic_playout(slow, other, n)
    assert fast == slow
    assert rng.random() == other.random()


@pytest.mark.parametrize("options", OPTION_SETS, ids=[_ids(o) for o in OPTION_SETS])
def test_the_playout_plays_on_from_any_position(game: Game, options: dict[str, Any]) -> None:
    """From positions the simulated players reach (cards played, Jams, Bad Intel, claims,
    discards...), `playout` plays what `generic_playout` plays, cut short anywhere."""
    engine = KillShot(game_data(game), None, options)
    for seed in range(2):
        state = engine.new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            random_step(state, rng)
            steps += 1
            if steps % 40 == 0:
                for n in (2, 60):
                    _same_playout(state, random.Random(n + seed), random.Random(n + seed), n)


def test_the_playout_plays_on_from_the_worked_examples(game: Game) -> None:
    """From every worked example's setup (positions made by hand, in the middle of a hunt),
    `playout` plays what `generic_playout` plays."""
    data = game_data(game)
    for path in example_files(game):
        spec = load_example(path).spec
        engine = KillShot(data, spec.version, spec.options)
        start = engine.setup_state(spec.setup) if spec.setup else engine.new_initial_state()
        for seed in range(2):
            for n in (1, 3, 10, 300):
                _same_playout(start, random.Random(seed), random.Random(seed), n)


class _FloatDraws(random.Random):
    """A generator with its own `random`: `choice` then draws indexes from it, not from
    `getrandbits`."""

    def random(self) -> float:
        return super().random()


def test_the_playout_while_recording_and_with_another_generator(game: Game) -> None:
    """While events are recorded `playout` plays the protocol's loop (every rule applied is
    told); with a generator whose `random` is its own, it draws indexes as `choice` does."""
    engine = KillShot(game_data(game))
    start = engine.new_initial_state()
    with recording(count_only=True) as fast_log:
        fast = start.clone()
        made = fast.playout(random.Random(5), 3_000)
    with recording(count_only=True) as slow_log:
        slow = start.clone()
        assert made == generic_playout(slow, random.Random(5), 3_000)
    assert fast == slow
    assert fast_log.counts == slow_log.counts
    assert fast_log.counts
    for seed in range(2):
        _same_playout(start, _FloatDraws(seed), _FloatDraws(seed), 5_000)
