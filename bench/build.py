"""Whole-project build benchmark: every game, cold and again with nothing changed.

    .venv/bin/python bench/build.py [--rounds N]

Runs the `printgen build` command as a user would, in fresh output folders:
  - sheets only (A4 and Letter sheets, calibration, card pages; no PNG, no rulebooks),
  - sheets and the rulebooks (the rulebook step is the difference),
  - everything (sheets, PNGs, rulebooks), cold,
  - everything again with nothing changed (every game is up to date).
Wall times on this machine, both cores in use as the build uses them, and the CPU time of
the command and its worker processes (less disturbed by a busy machine than the wall time).

The rulebook figure is pages per second: the pages of the rulebook and player-aid PDFs the
second build made (counted with pypdf) over the rulebook step's time, next to the aim of
issue 18 (three times the 10.7 pages/s measured before it). With `--rounds N` the two builds
it is taken from run N times, interleaved, and the best of each is kept.

`--before [REV]` also builds the project as it was at REV (by default, and in `make bench`,
BEFORE_ISSUE_18: the last commit before the issue's work), the same two builds in the same
rounds, taking turns with this code's, and prints this code's rulebook pages per second
against that code's on the same machine in the same run: a figure that the machine's pace,
which moves from hour to hour on a shared machine, does not move. REV's files come out of
this clone's history (`git archive`); a clone without it says so and measures the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRINTGEN = [sys.executable, "-m", "printgen", "--root", str(ROOT), "build"]
AIM_RULEBOOKS_S = 30.0
AIM_SECOND_S = 1.0
BASELINE_PAGES_PER_S = 10.7  # issue 18's measure of the rulebook step before it
AIM_PAGES_PER_S = round(3 * BASELINE_PAGES_PER_S)
BOOK_PREFIXES = ("rulebook-", "player-aid-")
BEFORE_ISSUE_18 = "b149298"  # the last commit before issue 18's work
AIM_BEFORE_RATIO = 3.0  # issue 18: the rulebooks at least 3 times faster than before it


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # the command and every worker process it waited for

    def __sub__(self, other: Timing) -> Timing:
        return Timing(self.wall - other.wall, self.cpu - other.cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], cache: Path | None = None, code: Path = ROOT) -> Timing:
    """The command with `args`, printgen's cache folder (fonts as reportlab reads them, font
    subsets, the rulebooks' pictures, input digests) in `cache`, else the user's; `code`:
    the project whose printgen runs (another one's: its own modules first on the path)."""
    env = {**os.environ, "PRINTGEN_CACHE_DIR": str(cache)} if cache else dict(os.environ)
    command = PRINTGEN
    if code != ROOT:
        env["PYTHONPATH"] = str(code)
        command = [sys.executable, "-m", "printgen", "build"]
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run([*command, *args], check=True, capture_output=True, cwd=code, env=env)
    return Timing(time.perf_counter() - start, _children_cpu() - cpu)


def checkout(rev: str, into: Path) -> Path | None:
    """The project's files at `rev` (from this clone's history) in `into`, or None when the
    history does not hold it (a shallow clone)."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def best(timings: list[Timing]) -> Timing:
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def book_pages(out: Path) -> int:
    """The pages of every rulebook and player aid under `out` (one folder per game)."""
    from pypdf import PdfReader

    return sum(
        len(PdfReader(path).pages)
        for path in sorted(out.glob("*/*.pdf"))
        if path.name.startswith(BOOK_PREFIXES)
    )


def verdict_rate(rate: float, aim: float) -> str:
    """PASS, or how many times too slow."""
    return "PASS" if rate >= aim else f"over x{aim / rate:.1f}"


def main() -> None:
    # Programs are timed as a user runs them: with Python's bytecode caches (a shell that
    # sets PYTHONDONTWRITEBYTECODE would have every run compile every module again).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the rulebook figure")
    parser.add_argument(
        "--before",
        metavar="REV",
        nargs="?",
        const=BEFORE_ISSUE_18,
        help=f"also time the rulebooks of the project at REV (default {BEFORE_ISSUE_18})",
    )
    options = parser.parse_args()
    rounds = max(1, options.rounds)
    with tempfile.TemporaryDirectory(prefix="printgen-bench-build-") as tmp:
        out = Path(tmp)
        before = checkout(options.before, out / "before") if options.before else None
        if options.before and before is None:
            print(f"(--before {options.before}: not in this clone's history, not measured)")
        sheets_runs, books_runs, cold_sheets_runs, cold_books_runs = [], [], [], []
        before_sheets_runs: list[Timing] = []
        before_books_runs: list[Timing] = []
        no_books = ["--no-png", "--no-rulebook"]
        for i in range(rounds):
            if before is not None:  # as it ran then: no cache folder of its own
                cache = out / f"cache-before{i}"
                then_sheets = ["--out", str(out / f"before-a{i}"), *no_books]
                before_sheets_runs.append(run(then_sheets, cache, before))
                then_books = ["--out", str(out / f"before-b{i}"), "--no-png"]
                before_books_runs.append(run(then_books, cache, before))
            # each round's first two builds start with empty cache folders, the next two
            # find what those left (font subsets cut to the same characters, the pictures)
            caches = (out / f"cache-a{i}", out / f"cache-b{i}")
            cold_sheets_runs.append(run(["--out", str(out / f"a{i}"), *no_books], caches[0]))
            cold_books_runs.append(run(["--out", str(out / f"b{i}"), "--no-png"], caches[1]))
            sheets_runs.append(run(["--out", str(out / f"a{i}w"), *no_books], caches[0]))
            books_runs.append(run(["--out", str(out / f"b{i}w"), "--no-png"], caches[1]))
        pages = book_pages(out / "b0")
        before_pages = book_pages(out / "before-b0") if before is not None else 0
        full = run(["--out", str(out / "c")], out / "cache-c")
        again = run(["--out", str(out / "c")], out / "cache-c")
    sheets, with_books = best(sheets_runs), best(books_runs)
    books = with_books - sheets
    cold_books = best(cold_books_runs) - best(cold_sheets_runs)
    rows = [
        ("sheets only, 5 games", sheets, None),
        ("sheets + 15 rulebooks", with_books, None),
        ("rulebook step (difference)", books, AIM_RULEBOOKS_S),
        ("rulebook step, empty cache", cold_books, None),
        ("everything, cold", full, None),
        ("everything, nothing changed", again, AIM_SECOND_S),
    ]
    per_s = pages / books.wall if books.wall > 0 else 0.0
    per_cpu_s = pages / books.cpu if books.cpu > 0 else 0.0
    load = os.getloadavg()[0]
    best_of = f", best of {rounds}" if rounds > 1 else ""
    print(f"Whole build, {os.cpu_count()} cores, load average {load:.1f} at the end{best_of}")
    print(f"  {'':30} {'wall':>9} {'cpu':>9}")
    for name, t, aim in rows:
        verdict = (
            "" if aim is None else (f"  aim < {aim:g} s: " + ("PASS" if t.wall < aim else "over"))
        )
        print(f"  {name:30} {t.wall:7.2f} s {t.cpu:7.2f} s{verdict}")
    print(
        "  (the second build's time is the whole command, start-up included; its rulebook step does nothing)"
    )
    print(
        f"  rulebooks: {pages} pages in {books.wall:.2f} s = {per_s:.1f} pages/s"
        f"  aim >= {AIM_PAGES_PER_S} pages/s (3 x {BASELINE_PAGES_PER_S}):"
        f" {verdict_rate(per_s, AIM_PAGES_PER_S)}"
    )
    print(f"             {per_cpu_s:.1f} pages per CPU second (the command and its workers)")
    cold_per_s = pages / cold_books.wall if cold_books.wall > 0 else 0.0
    print(
        f"             {cold_per_s:.1f} pages/s with an empty cache folder (fonts read,"
        " subsets cut and pictures drawn anew: a first build)"
    )
    figures: dict[str, float | int | str] = {name: round(t.wall, 2) for name, t, _aim in rows}
    if before_books_runs:
        then = best(before_books_runs) - best(before_sheets_runs)
        then_per_s = before_pages / then.wall if then.wall > 0 else 0.0
        ratio = per_s / then_per_s if then_per_s > 0 else 0.0
        first_ratio = cold_per_s / then_per_s if then_per_s > 0 else 0.0
        print(
            f"  before issue 18 ({options.before}), same run: {before_pages} pages in "
            f"{then.wall:.2f} s = {then_per_s:.1f} pages/s; this code x{ratio:.2f} as fast"
            f"  aim >= x{AIM_BEFORE_RATIO:g}: {verdict_rate(ratio, AIM_BEFORE_RATIO)}"
        )
        print(
            f"             (that code kept nothing between builds; this code's first build,"
            f" with an empty cache folder: x{first_ratio:.2f})"
        )
        figures.update(
            {
                "before_rev": options.before,
                "before_rulebook_pages": before_pages,
                "before_rulebook_step_s": round(then.wall, 2),
                "before_rulebook_pages_per_s": round(then_per_s, 1),
                "rulebook_speed_against_before": round(ratio, 2),
                "rulebook_speed_against_before_empty_cache": round(first_ratio, 2),
                "aim_rulebook_speed_against_before": AIM_BEFORE_RATIO,
            }
        )
    figures.update({f"{name} (cpu)": round(t.cpu, 2) for name, t, _aim in rows})
    figures.update(
        {
            "rulebook_pages": pages,
            "rulebook_pages_per_s": round(per_s, 1),
            "rulebook_pages_per_cpu_s": round(per_cpu_s, 1),
            "rulebook_pages_per_s_empty_cache": round(cold_per_s, 1),
            "aim_rulebook_pages_per_s": AIM_PAGES_PER_S,
            "baseline_rulebook_pages_per_s": BASELINE_PAGES_PER_S,
        }
    )
    target = ROOT / "out" / "bench" / "build.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
