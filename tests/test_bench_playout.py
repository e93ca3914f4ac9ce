"""The engine benchmarks' rounds (bench/playout.py): the best round counts, the median is
kept beside it, and each round is given its share of the time."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from playout import _Clock, best_of


def test_the_best_round_counts_and_the_median_is_kept() -> None:
    rates = iter([(300.0, 1.0), (520.0, 2.0), (480.0, 3.0), (100.0, 4.0), (510.0, 5.0)])
    given: list[float] = []

    def measure(seconds: float) -> tuple[float, float]:
        given.append(seconds)
        return next(rates)

    (rate, other), median = best_of(measure, 2.0, rounds=5)
    assert (rate, other) == (520.0, 2.0)  # the whole round's figures, not the rate alone
    assert median == 480.0
    assert given == [0.4] * 5


def test_short_games_are_timed_in_batches_long_ones_one_by_one() -> None:
    clock = _Clock(most=8)
    for _ in range(5):  # readings microseconds apart: the batch doubles up to its most
        clock.elapsed()
    assert clock.batch == 8
    slow = _Clock(most=8)
    slow.last -= 1.0  # a game of a second since the last reading
    slow.elapsed()
    assert slow.batch == 1
