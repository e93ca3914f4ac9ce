"""Whole-project build benchmark: every game, cold and again with nothing changed.

    .venv/bin/python bench/build.py

Runs the `printgen build` command as a user would, in fresh output folders:
  - sheets only (A4 and Letter sheets, calibration, card pages; no PNG, no rulebooks),
  - sheets and the fifteen rulebooks (the rulebook step is the difference),
  - everything (sheets, PNGs, rulebooks), cold,
  - everything again with nothing changed (every game is up to date).
Wall times on this machine, both cores in use as the build uses them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRINTGEN = [sys.executable, "-m", "printgen", "--root", str(ROOT), "build"]
AIM_RULEBOOKS_S = 30.0
AIM_SECOND_S = 1.0


def run(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([*PRINTGEN, *args], check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="printgen-bench-build-") as tmp:
        out = Path(tmp)
        sheets = run(["--out", str(out / "a"), "--no-png", "--no-rulebook"])
        with_books = run(["--out", str(out / "b"), "--no-png"])
        full = run(["--out", str(out / "c")])
        again = run(["--out", str(out / "c")])
    books = with_books - sheets
    rows = [
        ("sheets only, 5 games", sheets, None),
        ("sheets + 15 rulebooks", with_books, None),
        ("rulebook step (difference)", books, AIM_RULEBOOKS_S),
        ("everything, cold", full, None),
        ("everything, nothing changed", again, AIM_SECOND_S),
    ]
    print(f"Whole build, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    for name, seconds, aim in rows:
        verdict = (
            "" if aim is None else (f"  aim < {aim:g} s: " + ("PASS" if seconds < aim else "over"))
        )
        print(f"  {name:30} {seconds:7.2f} s{verdict}")
    print(
        "  (the second build's time is the whole command, start-up included; its rulebook step does nothing)"
    )
    target = ROOT / "out" / "bench" / "build.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({name: round(s, 2) for name, s, _aim in rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
