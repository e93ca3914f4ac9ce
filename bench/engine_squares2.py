"""Random full games of SQUARES II per second, on one core.

    .venv/bin/python bench/engine_squares2.py [--seconds 2] [--option turn_limit=200 ...]

Two drivers: the engine's own `play_random` (draws only legal actions, so it skips the
legality check but still records the full history), and the generic protocol driver
`rules_engine.core.play_random` (`sample_action` + checked `apply`), which is what any
engine gets.  Both play the same game for the same seed.  Time is the process's CPU time,
so the figure is per core even on a busy machine.

Last, the search player's measure (`bench/engine_aim.py`): actions applied per CPU second
with legal-action generation, next to its aim of 300,000, written to
`out/bench/engine-squares2.json`.
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
from rules_engine.core import options_from  # noqa: E402
from rules_engine.params import GameData  # noqa: E402
from rules_engine.squares2 import Squares2  # noqa: E402


def rate(engine: Squares2, seconds: float, generic: bool) -> tuple[float, float, float]:
    """Games per CPU second, and the mean actions and turns per game."""
    per_second, (actions, turns) = games_per_second(
        engine, seconds, generic, lambda s: (len(s.history), s.turn), batch=10
    )
    return per_second, actions, turns


def parse_option(game: GameData, text: str) -> tuple[str, object]:
    name, _, raw = text.partition("=")
    default = next((o.default for o in options_from(game) if o.name == name), None)
    if isinstance(default, bool):
        return name, raw.lower() in ("1", "true", "yes")
    if isinstance(default, int):
        return name, int(raw)
    return name, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    args = parser.parse_args()
    game = game_data(load_game(ROOT / "components" / "squares2"))
    options = dict(parse_option(game, o) for o in args.option)
    sets = [options] if options else [{}, {"turn_limit": 200}]
    print(f"SQUARES II, random full games per second on one core ({args.seconds:g} s CPU each)")
    for chosen in sets:
        engine = Squares2(game, options=chosen)
        fast, actions, turns = rate(engine, args.seconds, generic=False)
        checked, _, _ = rate(engine, args.seconds, generic=True)
        label = ", ".join(f"{k}={v}" for k, v in chosen.items()) or "default options"
        print(
            f"  {label:24} {fast:7,.0f} games/s (engine driver)  "
            f"{checked:7,.0f} games/s (generic checked driver)  "
            f"{actions:.0f} actions, {turns:.0f} turns per game"
        )
    print("SQUARES II (default options), the search player's measure:")
    report_actions(Squares2(game), "squares2", args.seconds)


if __name__ == "__main__":
    main()
