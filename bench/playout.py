"""Shared by the engine benchmarks: seeded random full games, timed on CPU."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rules_engine.core import play_random


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
    driver (`rules_engine.core.play_random`), else through the engine's own fast driver."""
    games = 0
    totals: list[float] = []
    start = time.process_time()
    while True:
        for _ in range(batch):
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
        elapsed = time.process_time() - start
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
    start = time.process_time()
    while True:
        for _ in range(10):
            state = engine.new_initial_state()
            if seed_each_game:
                rng = random.Random(games)
            actions += play(state, rng, max_steps)
            games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions / elapsed, games / elapsed, actions / games
