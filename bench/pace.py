"""The machine's pace at a point of a `make bench` run: a fixed loop's CPU time.

    .venv/bin/python bench/pace.py LABEL [--first]

On a shared machine the same code runs faster or slower from hour to hour (the loop below
has taken from 0.8 s to 2.1 s of CPU on the same machine), which moves every absolute
figure of a run alike. `make bench` times this loop at the start of the run, before the
engine benchmarks and at the end, and `bench/summary.py` prints the three times beside the
figures, so that a reader can tell a slow hour from slower code. `--first` starts a new
list (the run's first point). The times go to out/bench/pace.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACE = ROOT / "out" / "bench" / "pace.json"

LOOP = "for i in range(10_000_000): s += i * i"
"""The loop timed, as the summary names it."""


def loop_seconds() -> float:
    """CPU seconds of `LOOP` in this process, run at a module's top level (its variables
    global, as `python -c` runs it: the figures of earlier runs were taken so)."""
    code = compile(f"s = 0\n{LOOP}\n", "<pace>", "exec")
    start = time.process_time()
    exec(code, {})  # the fixed loop above, nothing read from outside
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("label", help="where in the run (start, engines, end)")
    parser.add_argument("--first", action="store_true", help="start a new list")
    args = parser.parse_args()
    points: list[dict[str, object]] = []
    if not args.first and PACE.is_file():
        points = json.loads(PACE.read_text(encoding="utf-8")).get("points", [])
    seconds = loop_seconds()
    points.append({"label": args.label, "cpu_s": round(seconds, 3)})
    PACE.parent.mkdir(parents=True, exist_ok=True)
    PACE.write_text(json.dumps({"loop": LOOP, "points": points}, indent=2) + "\n", "utf-8")
    print(f"machine pace, {args.label}: {seconds:.2f} s of CPU for `{LOOP}` (lower is faster)")


if __name__ == "__main__":
    main()
