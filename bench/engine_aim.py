"""The engine figure `make bench` sums up: actions applied per CPU second with legal-action
generation (`playout.actions_per_second`), printed next to its aim and written to
`out/bench/engine-<game>.json` for `bench/summary.py`.

Shared by the engine benchmarks of SQUARES II, Susumuka & Modoruka and KILL SHOT, so that
each prints the same line and writes the same keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playout import ROUNDS, actions_per_second, best_of

ROOT = Path(__file__).resolve().parents[1]
AIM_ACTIONS_PER_S = 300_000
"""Issue 18: a search player's playouts need at least this many actions per second per core."""


def verdict(value: float, aim: float) -> str:
    """`PASS`, or how far the figure is from its aim (`over x1.4`: the aim is 1.4 times it)."""
    return "PASS" if value >= aim else f"over x{aim / value:.1f}"


def kernel_status(engine: Any) -> str | None:
    """How `engine`'s kernel is played in this process (`rules_engine.native`: compiled, or
    Python and why), or None for an engine with no compiled kernel."""
    from rules_engine import native

    package = type(engine).__module__.rsplit(".", 1)[0] + "."
    sources = [source for source in native.KERNELS if source.startswith(package)]
    return native.status(sources[0]) if sources else None


def report_actions(
    engine: Any, game_id: str, seconds: float, aim: float = AIM_ACTIONS_PER_S
) -> float:
    """Measure `engine` for about `seconds` of CPU (`ROUNDS` rounds, the best counts:
    `playout.best_of`), print the figure against `aim`, write
    `out/bench/engine-<game_id>.json` (keys `actions_per_s`, `aim_actions_per_s`, and the
    games per second and actions per game of that playout) and return actions per second."""
    # A search player plays many playouts on one engine: its tables, filled as games need
    # them, are warmed first (as the games-per-second figures are), not timed.
    actions_per_second(engine, min(seconds, 0.3))
    (per_second, games, per_game), median = best_of(
        lambda each: actions_per_second(engine, each), seconds
    )
    seeded, _games, _per_game = actions_per_second(engine, seconds / 2, seed_each_game=True)
    through, _games, _per_game = actions_per_second(engine, seconds / 2, generic=True)
    kernel = kernel_status(engine)
    print(
        f"  actions applied per second per core (legal actions generated): "
        f"{per_second:,.0f}  aim {aim:,.0f}  {verdict(per_second, aim)}  "
        f"(best of {ROUNDS} rounds, median {median:,.0f}; "
        f"{games:,.1f} games/s, {per_game:,.0f} actions/game; "
        f"a generator seeded for each game: {seeded:,.0f}; "
        f"through the protocol's loop: {through:,.0f})"
        + (f"\n  kernel: {kernel}" if kernel else "")
    )
    out = ROOT / "out" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {
        "actions_per_s": round(per_second),
        "actions_per_s_median": round(median),
        "rounds": ROUNDS,
        "aim_actions_per_s": aim,
        "games_per_s": round(games, 2),
        "actions_per_game": round(per_game, 1),
        "seeded_each_game_actions_per_s": round(seeded),
        "protocol_actions_per_s": round(through),
        "cpu_seconds": seconds,
    }
    if kernel:
        figures["kernel"] = kernel
    path = out / f"engine-{game_id}.json"
    path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return per_second
