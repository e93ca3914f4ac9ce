"""The balance lab's speed: games per second per core for each bot and game, and the aim
of 10,000 heuristic games of Submarine Attack in under 60 s on 2 cores.

    .venv/bin/python bench/balance.py [--seconds 3] [--game submarine-attack ...]
                                      [--sweep-games 10000] [--workers 2]

Per core: one process plays seeded games (`printgen.balance.run.play_one`, the sweep's
own code) with every seat taken by the same bot, for about `--seconds` of CPU time each
(at least one game), and prints games per CPU second.  The search player plays with its
default budget (`mcts`, 200 playouts per decision).  Then the sweep: `--sweep-games`
heuristic games of Submarine Attack on `--workers` processes, wall time, against the aim.
Results also go to out/bench/balance.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printgen.balance.run import (  # noqa: E402
    Setting,
    check_setting,
    make_bot,
    play_one,
    sweep,
)
from printgen.engines import game_data  # noqa: E402
from printgen.model import load_game  # noqa: E402

GAMES = ("submarine-attack", "squares2", "subzero", "susumuka-modoruka", "kill-shot")
BOTS = ("random", "heuristic", "mcts")
SWEEP_AIM_S = 60.0


def per_core(game_id: str, bot: str, seconds: float) -> tuple[float, int]:
    """Games per CPU second of one process with `bot` in every seat, and games played."""
    data = game_data(load_game(ROOT / "components" / game_id))
    setting = Setting(bots=(bot,), games=1, seed=7)
    engine = check_setting(data, setting)
    bots = {bot: make_bot(engine, bot)}
    start = time.process_time()
    games = 0
    while True:
        play_one(engine, bots, setting, games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--bot", action="append", choices=BOTS)
    parser.add_argument("--sweep-games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, object] = {}
    print(f"Balance lab: games per CPU second on one core (about {args.seconds:g} s each)")
    print(f"  {'game':20} " + " ".join(f"{b:>12}" for b in args.bot or BOTS))
    rates: dict[str, dict[str, float]] = {}
    for game_id in args.game or GAMES:
        row = {}
        for bot in args.bot or BOTS:
            rate, _n = per_core(game_id, bot, args.seconds)
            row[bot] = rate
        rates[game_id] = row
        print(f"  {game_id:20} " + " ".join(f"{row[b]:12,.2f}" for b in args.bot or BOTS))
    results["per_core"] = rates
    if args.sweep_games:
        data = game_data(load_game(ROOT / "components" / "submarine-attack"))
        setting = Setting(bots=("heuristic",), games=args.sweep_games, seed=1)
        start = time.perf_counter()
        sweep(data, [setting], workers=args.workers)
        wall = time.perf_counter() - start
        verdict = "PASS" if wall < SWEEP_AIM_S else f"over x{wall / SWEEP_AIM_S:.1f}"
        print(
            f"Submarine Attack, {args.sweep_games:,} heuristic games on {args.workers} "
            f"processes: {wall:.1f} s wall (aim: under {SWEEP_AIM_S:.0f} s) {verdict}"
        )
        results["sweep"] = {"games": args.sweep_games, "workers": args.workers, "wall_s": wall}
    out = ROOT / "out" / "bench"
    os.makedirs(out, exist_ok=True)
    (out / "balance.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
