"""Shared by the engine benchmarks: seeded random full games, timed on CPU."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar

from rules_engine.core import play_random

ROUNDS = 5
"""Rounds of an aim's figure: the best counts (`best_of`)."""

Figures = TypeVar("Figures", bound=tuple[float, ...])


def best_of(
    measure: Callable[[float], Figures], seconds: float, rounds: int = ROUNDS
) -> tuple[Figures, float]:
    """`measure(seconds / rounds)` run `rounds` times (each round plays the same games from
    the same seeds): the figures of the round with the highest rate (its first figure), and
    the median rate of the rounds.  Other processes on a shared machine only ever slow a
    round down (they take its core's caches, or the core), so the best round is the nearest
    to what the code does on its own, as `timeit` reports its best repetition; the median
    shows how much the machine moved."""
    runs = [measure(seconds / rounds) for _ in range(max(1, rounds))]
    return max(runs, key=lambda figures: figures[0]), statistics.median(r[0] for r in runs)


class _Clock:
    """CPU seconds since it was made, read after each game while games are long (a round
    ends soon after its time) and after batches of up to `most` games while they are short
    (reading the clock costs about a microsecond, a twentieth of a game of Submarine
    Attack): `batch` games between two readings."""

    def __init__(self, most: int = 10) -> None:
        self.start = self.last = time.process_time()
        self.batch = 1
        self.most = most

    def elapsed(self) -> float:
        now = time.process_time()
        if now - self.last < 0.001:
            self.batch = min(self.most, self.batch * 2)
        self.last = now
        return now - self.start


def games_per_second(
    engine: Any,
    seconds: float,
    generic: bool,
    stats: Callable[[Any], tuple[float, ...]],
    batch: int = 20,
    max_steps: int = 100_000,
) -> tuple[float, tuple[float, ...]]:
    """Random full games per CPU second of this process, seeded 0, 1, 2, ..., and the mean
    of `stats(final state)` per game. `generic` plays through the protocol's checked
    driver (`rules_engine.core.play_random`), else through the engine's own fast driver.
    `batch`: at most this many games between two readings of the clock."""
    games = 0
    totals: list[float] = []
    clock = _Clock(batch)
    while True:
        for _ in range(clock.batch):
            state = engine.new_initial_state()
            rng = random.Random(games)
            if generic:
                play_random(state, rng, max_steps=max_steps)
            else:
                state.play_random(rng)
            games += 1
            values = stats(state)
            totals = (
                [a + b for a, b in zip(totals, values, strict=True)] if totals else list(values)
            )
        elapsed = clock.elapsed()
        if elapsed >= seconds:
            return games / elapsed, tuple(t / games for t in totals)


def actions_per_second(
    engine: Any,
    seconds: float,
    max_steps: int = 100_000,
    generic: bool = False,
    seed_each_game: bool = False,
) -> tuple[float, float, float]:
    """Actions applied per CPU second with legal-action generation, as a search player's
    playout does (`rules_engine.core.playout`): at each step every current player's legal
    actions are generated (`legal_actions`: a list, or a lazy sequence where there are too
    many to list, such as Submarine Attack's 161 million placements) and one is picked
    uniformly by index (chance picks by the outcomes' odds, `sample_action`), then the step
    is applied (each player's action of a simultaneous step counted).  The engine's own
    `playout` plays the same game from the same generator, faster; `generic` times the
    protocol's loop instead (`legal_actions`, `rng.choice`, checked `apply`).  The games draw
    from one generator, seeded 0, as a search player's playouts do (`rules_engine.mcts` hands
    every playout the generator it was given); `seed_each_game`: a generator seeded 0, 1,
    2, ... for each game, which also times seeding a Mersenne Twister per game (about 5 us,
    a fifth of a game of Submarine Attack with its compiled kernel).  Returns (actions per
    CPU second, games per CPU second, actions per game)."""
    from rules_engine.core import generic_playout, playout

    play = generic_playout if generic else playout
    actions = games = 0
    rng = random.Random(0)
    clock = _Clock()
    while True:
        for _ in range(clock.batch):
            state = engine.new_initial_state()
            if seed_each_game:
                rng = random.Random(games)
            actions += play(state, rng, max_steps)
            games += 1
        elapsed = clock.elapsed()
        if elapsed >= seconds:
            return actions / elapsed, games / elapsed, actions / games
