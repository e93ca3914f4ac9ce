"""Random full games of KILL SHOT per second, on one core.

    .venv/bin/python bench/engine_killshot.py [--seconds 2] [--generic]

Every game type, then every optional rule on its own (under game type 1), played by the
simulated players to the end (ten hunts; four with Terror Threat).  The engine's own
`play_random` draws only legal actions, so it skips the legality check but records the
full history; `--generic` also times the protocol driver `rules_engine.core.play_random`
(`sample_action` + checked `apply`), which plays the same game for the same seed.
Times are CPU time of this process (other work on the machine does not count).

Last, the search player's measure (`bench/engine_aim.py`): actions applied per CPU second
with legal-action generation, next to its aim of 300,000, written to
`out/bench/engine-kill-shot.json`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine_aim import report_actions  # noqa: E402
from playout import games_per_second  # noqa: E402

from printgen.engines import game_data  # noqa: E402
from printgen.model import load_game  # noqa: E402
from rules_engine.kill_shot import OPTIONAL_RULES, KillShot  # noqa: E402

CASES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("1 real time", {}),
    ("2 tactical engagement", {"game_type": "tactical-engagement"}),
    ("3 situation room", {"game_type": "situation-room"}),
    *((f"1 + {name.replace('_', ' ')}", {name: True}) for name in OPTIONAL_RULES),
)


def rate(engine: KillShot, seconds: float, generic: bool) -> tuple[float, float]:
    """Games per CPU second, and the mean number of steps per game."""
    per_second, (steps,) = games_per_second(
        engine, seconds, generic, lambda s: (len(s.history),), max_steps=1_000_000
    )
    return per_second, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--generic", action="store_true", help="also time the generic driver")
    args = parser.parse_args()
    game = game_data(load_game(ROOT / "components" / "kill-shot"))
    print(f"KILL SHOT, random full games per second on one core ({args.seconds:g} s CPU each)")
    for label, options in CASES:
        engine = KillShot(game, None, options)
        fast, steps = rate(engine, args.seconds, generic=False)
        line = f"  {label:28} {fast:8,.0f} games/s (engine driver)"
        if args.generic:
            checked, _ = rate(engine, args.seconds, generic=True)
            line += f"  {checked:8,.0f} games/s (generic checked driver)"
        print(f"{line}  {steps:6,.0f} steps/game")
    print("KILL SHOT (game type 1, default options), the search player's measure:")
    report_actions(KillShot(game), "kill-shot", args.seconds)


if __name__ == "__main__":
    main()
