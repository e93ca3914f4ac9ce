"""Random full games of S.U.B.Z.E.R.O. per second, on one core.

    .venv/bin/python bench/engine_subzero.py [--seconds 2] [--players 4] [--ending survival ...]

Two drivers: the engine's own `play_random` (draws only legal actions, so it skips the
legality check but still records the full history), and the generic protocol driver
`rules_engine.core.play_random` (`sample_action` + checked `apply`/`apply_joint`).  Both
play the same game for the same seed.  Rates are games per CPU second of this process
(`time.process_time`), so other work on the machine does not lower them much; the engine
driver's are the best of 5 rounds (`playout.best_of`), the median printed beside the aim's.

Every game ends by its ending mode (default options otherwise): deathmatch and survival
end at the damage limit of game.yaml (5), all-out attack when one player has hit every
other player; a game where nobody can record a hit any more (HIT tokens used up) is a
draw.  Random players throw in random directions, so deathmatch games are long.

Last, the figures `make bench` sums up (issue 18), each next to its aim: actions applied per
CPU second with legal-action generation, 4 players (`bench/engine_aim.py`, aim 300,000), and
random full games of 4-player deathmatch per CPU second through the engine's own driver
(aim 500), written to `out/bench/engine-subzero.json`.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine_aim import report_actions, verdict  # noqa: E402
from playout import ROUNDS, best_of, games_per_second  # noqa: E402

from printgen.engines import game_data  # noqa: E402
from printgen.model import load_game  # noqa: E402
from rules_engine.subzero import ALL_OUT, DEATHMATCH, SURVIVAL, Subzero  # noqa: E402

AIM_ACTIONS_PER_S = 300_000
"""Issue 18: actions applied per second per core, 4 players."""
AIM_DEATHMATCH4_GAMES_PER_S = 500
"""Issue 18: random full games of 4-player deathmatch per second per core (engine driver)."""


def rate(engine: Subzero, seconds: float, generic: bool) -> tuple[float, float, float]:
    """Games per CPU second, mean turns per game and mean history entries per game."""
    per_second, (turns, entries) = games_per_second(
        engine, seconds, generic, lambda s: (s.turn, len(s.history))
    )
    return per_second, turns, entries


def engine_rate(engine: Subzero, seconds: float) -> tuple[tuple[float, float, float], float]:
    """`rate` through the engine's own driver, its caches warmed first (not timed): the best
    of `ROUNDS` rounds, and their median games per second (`playout.best_of`)."""
    rate(engine, min(seconds, 0.3), generic=False)
    return best_of(functools.partial(rate, engine, generic=False), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, action="append", help="default: 4")
    parser.add_argument(
        "--ending", action="append", choices=(DEATHMATCH, SURVIVAL, ALL_OUT), help="default: all"
    )
    parser.add_argument("--no-generic", action="store_true", help="skip the checked driver")
    args = parser.parse_args()
    game = game_data(load_game(ROOT / "components" / "subzero"))
    print(f"S.U.B.Z.E.R.O., random full games per CPU second on one core ({args.seconds:g} s each)")
    deathmatch4: tuple[float, float] | None = None  # the best round's figure, the median
    for players in args.players or [4]:
        for ending in args.ending or [DEATHMATCH, SURVIVAL, ALL_OUT]:
            engine = Subzero(game, None, {"players": players, "ending": ending})
            (fast, turns, entries), median = engine_rate(engine, args.seconds)
            line = (
                f"  {players} players {ending:15} {fast:8,.0f} games/s (engine driver)  "
                f"{turns:6.1f} turns/game  {entries:7.0f} actions/game  "
                f"{fast * entries:9,.0f} actions/s"
            )
            if not args.no_generic:
                checked, _, _ = rate(engine, args.seconds, generic=True)
                line += f"  {checked:7,.0f} games/s (generic checked driver)"
            print(line)
            if players == 4 and ending == DEATHMATCH:
                deathmatch4 = fast, median
    report_actions(Subzero(game, None, {"players": 4}), "subzero", args.seconds, AIM_ACTIONS_PER_S)
    if deathmatch4 is None:
        engine = Subzero(game, None, {"players": 4, "ending": DEATHMATCH})
        (fast, _, _), median = engine_rate(engine, args.seconds)
        deathmatch4 = fast, median
    games, median = deathmatch4
    print(
        f"  4-player deathmatch, random games per second per core (engine driver): "
        f"{games:,.0f}  aim {AIM_DEATHMATCH4_GAMES_PER_S:,}  "
        f"{verdict(games, AIM_DEATHMATCH4_GAMES_PER_S)}  (best of {ROUNDS} rounds, median "
        f"{median:,.0f})"
    )
    path = ROOT / "out" / "bench" / "engine-subzero.json"
    figures = json.loads(path.read_text(encoding="utf-8"))
    figures["deathmatch4_games_per_s"] = round(games, 1)
    figures["deathmatch4_games_per_s_median"] = round(median, 1)
    figures["aim_deathmatch4_games_per_s"] = AIM_DEATHMATCH4_GAMES_PER_S
    path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
