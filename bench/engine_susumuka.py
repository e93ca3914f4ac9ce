"""Random full games of Susumuka & Modoruka per second, on one core.

    .venv/bin/python bench/engine_susumuka.py [--seconds 2] [--players 4 ...]

Two drivers: the engine's own `play_random` (draws only legal actions, so it skips the
legality check but still records the full history), and the generic protocol driver
`rules_engine.core.play_random` (`sample_action` + checked `apply`), which is what any
engine gets.  Both play the same game for the same seed.  The process runs on one core
(it is single-threaded), so games per second is games per second per core.

Last, the search player's measure (`bench/engine_aim.py`): actions applied per CPU second
with legal-action generation, next to its aim of 300,000, written to
`out/bench/engine-susumuka-modoruka.json`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine_aim import report_actions  # noqa: E402
from playout import games_per_second  # noqa: E402

from printgen.engines import game_data  # noqa: E402
from printgen.model import load_game  # noqa: E402
from rules_engine.susumuka_modoruka import SusumukaModoruka  # noqa: E402


def rate(engine: SusumukaModoruka, seconds: float, generic: bool) -> tuple[float, float]:
    """Games per second (CPU time of this process), and the mean number of steps per game."""
    per_second, (steps,) = games_per_second(engine, seconds, generic, lambda s: (len(s.history),))
    return per_second, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument(
        "--players", type=int, action="append", help="player counts (default: 2, 3 and 4)"
    )
    args = parser.parse_args()
    game = game_data(load_game(ROOT / "components" / "susumuka-modoruka"))
    counts = args.players or [2, 3, 4]
    print(
        "Susumuka & Modoruka, random full games per second per core "
        f"({args.seconds:g} s of CPU each)"
    )
    for players in counts:
        engine = SusumukaModoruka(game, None, {"players": players})
        fast, steps = rate(engine, args.seconds, generic=False)
        checked, _ = rate(engine, args.seconds, generic=True)
        print(
            f"  {players} players {fast:8,.0f} games/s (engine driver)  "
            f"{checked:8,.0f} games/s (generic checked driver)  {steps:.0f} steps/game"
        )
    print("Susumuka & Modoruka (default options), the search player's measure:")
    report_actions(SusumukaModoruka(game), "susumuka-modoruka", args.seconds)


if __name__ == "__main__":
    main()
