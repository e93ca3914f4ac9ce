"""Random full games of Submarine Attack per second, on one core.

    .venv/bin/python bench/engine.py [--seconds 2] [--version 1.1 ...]

Two drivers: the engine's own `play_random` (draws only legal actions, so it skips the
legality check but still records the full history), and the generic protocol driver
`rules_engine.core.play_random` (`sample_action` + checked `apply`/`apply_joint`), which
is what any engine gets.  Both play the same game for the same seed.

Last, the search player's measure (`bench/engine_aim.py`): actions applied per CPU second
with legal-action generation (rules of the current version, 2 players), next to its aim of
1,000,000 (issue 18), written to `out/bench/engine-submarine-attack.json`.
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
from rules_engine.submarine_attack import SubmarineAttack  # noqa: E402

AIM_ACTIONS_PER_S = 1_000_000
"""Issue 18: Submarine Attack's aim, actions applied per second per core."""


def rate(engine: SubmarineAttack, seconds: float, generic: bool) -> tuple[float, float]:
    """Games per CPU second, and the mean number of rounds per game."""
    per_second, (rounds,) = games_per_second(
        engine, seconds, generic, lambda s: (len(s.results),), batch=100
    )
    return per_second, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--version", action="append", help="rule version (default: all)")
    args = parser.parse_args()
    game = game_data(load_game(ROOT / "components" / "submarine-attack"))
    versions = args.version or [v.id for v in game.info.rule_versions]
    print(f"Submarine Attack, random full games per second on one core ({args.seconds:g} s each)")
    for version in versions:
        engine = SubmarineAttack(game, version)
        fast, rounds = rate(engine, args.seconds, generic=False)
        checked, _ = rate(engine, args.seconds, generic=True)
        print(
            f"  rules {version:6} {fast:9,.0f} games/s (engine driver)  "
            f"{checked:9,.0f} games/s (generic checked driver)  {rounds:.2f} rounds/game"
        )
    report_actions(SubmarineAttack(game), "submarine-attack", args.seconds, AIM_ACTIONS_PER_S)


if __name__ == "__main__":
    main()
