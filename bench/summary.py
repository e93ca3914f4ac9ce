"""The figures `make bench` measured, each next to its aim, in one table.

    .venv/bin/python bench/summary.py

Reads what the benchmarks of this run wrote to out/bench/*.json (`make bench` runs them all
first) and prints one line per figure: the measure, its aim and PASS, or how far it is from
the aim (`over x1.4`). A benchmark that did not run (or wrote no figure) is named as missing
rather than left out; the exit status is 0 either way (a benchmark is a measure, not a test).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "out" / "bench"


@dataclass(frozen=True)
class Figure:
    """One measured figure: where it is (file, key path), its aim's key (or a fixed aim),
    whether more is better, and how to print a value."""

    label: str
    file: str
    key: tuple[str, ...]
    aim: tuple[str, ...] | float
    higher_is_better: bool
    unit: Callable[[float], str]


def _seconds(x: float) -> str:
    return f"{x:.3g} s"


def _rate(unit: str) -> Callable[[float], str]:
    return lambda x: f"{x:,.0f} {unit}"


def _ratio(x: float) -> str:
    return f"x{x:.2f}"


ENGINES = (
    ("Submarine Attack", "submarine-attack"),
    ("SQUARES II", "squares2"),
    ("S.U.B.Z.E.R.O. (4 players)", "subzero"),
    ("Susumuka & Modoruka", "susumuka-modoruka"),
    ("KILL SHOT", "kill-shot"),
)

FIGURES = (
    Figure(
        "PDF sheets: printgen time / reportlab floor",
        "peer.json",
        ("ratio_printgen_floor",),
        ("aim_ratio_printgen_floor",),
        False,
        _ratio,
    ),
    Figure(
        "PDF sheets: protograf time / printgen",
        "peer.json",
        ("ratio_protograf_printgen",),
        ("aim_ratio_protograf_printgen",),
        True,
        _ratio,
    ),
    Figure(
        "start-up (printgen --help, whole process)",
        "print.json",
        ("startup_s",),
        ("aim_startup_s",),
        False,
        _seconds,
    ),
    Figure(
        "200 cards, whole printgen build process",
        "print.json",
        ("deck200_whole_process_s",),
        ("aim_deck200_whole_process_s",),
        False,
        _seconds,
    ),
    Figure(
        "peak memory, 2,000 cards against 200 (flat: x1)",
        "print.json",
        ("peak_mb_growth_200_to_2000",),
        ("aim_peak_mb_growth",),
        False,
        _ratio,
    ),
    Figure(
        "rulebooks, every game (its cache folder warm)",
        "build.json",
        ("rulebook_pages_per_s",),
        ("aim_rulebook_pages_per_s",),
        True,
        _rate("pages/s"),
    ),
    Figure(
        "rulebooks, pages/s against the code before issue 18 (same run)",
        "build.json",
        ("rulebook_speed_against_before",),
        ("aim_rulebook_speed_against_before",),
        True,
        _ratio,
    ),
    *(
        Figure(
            f"{title}: actions applied per second per core",
            f"engine-{game}.json",
            ("actions_per_s",),
            ("aim_actions_per_s",),
            True,
            _rate("actions/s"),
        )
        for title, game in ENGINES
    ),
    Figure(
        "S.U.B.Z.E.R.O. 4-player deathmatch: random games per second per core",
        "engine-subzero.json",
        ("deathmatch4_games_per_s",),
        ("aim_deathmatch4_games_per_s",),
        True,
        _rate("games/s"),
    ),
    Figure(
        "balance: 10,000 heuristic games of Submarine Attack, 2 processes",
        "balance.json",
        ("sweep", "wall_s"),
        60.0,
        False,
        _seconds,
    ),
)


def _lookup(data: dict[str, Any], key: tuple[str, ...]) -> float | None:
    value: Any = data
    for part in key:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, int | float) else None


def verdict(value: float, aim: float, higher_is_better: bool) -> str:
    """PASS, or how many times the value is off its aim."""
    if value <= 0:
        return "no figure"
    met = value >= aim if higher_is_better else value <= aim
    if met:
        return "PASS"
    return f"over x{(aim / value if higher_is_better else value / aim):.2f}"


def rows(out: Path = OUT) -> list[tuple[str, str, str, str]]:
    """(figure, value, aim, verdict) for every figure, from the JSON files under `out`."""
    loaded: dict[str, dict[str, Any] | None] = {}
    result = []
    for f in FIGURES:
        if f.file not in loaded:
            path = out / f.file
            loaded[f.file] = json.loads(path.read_text()) if path.is_file() else None
        data = loaded[f.file]
        value = _lookup(data, f.key) if data is not None else None
        aim = f.aim if isinstance(f.aim, float) else (_lookup(data or {}, f.aim))
        if value is None or aim is None:
            result.append((f.label, "—", "—", f"missing (out/bench/{f.file})"))
            continue
        sign = ">=" if f.higher_is_better else "<="
        result.append(
            (
                f.label,
                f.unit(value),
                f"{sign} {f.unit(aim)}",
                verdict(value, aim, f.higher_is_better),
            )
        )
    return result


def main() -> None:
    table = rows(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    width = max(len(r[0]) for r in table)
    print("Figures of this run against their aims (issue 18):")
    for label, value, aim, result in table:
        print(f"  {label:{width}}  {value:>18}  aim {aim:>18}  {result}")
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    floor = floor_note(out)
    if floor:
        print(f"  ({floor})")
    before = before_note(out)
    if before:
        print(f"  ({before})")
    kernels = kernel_notes(out)
    if kernels:
        print(f"  (engine kernels: {kernels})")
    pace = pace_note(out)
    if pace:
        print(f"  ({pace})")


def floor_note(out: Path) -> str:
    """What the whole-process aim compares with on this machine: the bare reportlab
    script's own process for 200 cards (bench/peer/floor.py, peer.json), in words."""
    path = out / "peer.json"
    data = json.loads(path.read_text()) if path.is_file() else {}
    floor, printgen, cards = data.get("floor_s"), data.get("printgen_s"), data.get("cards")
    if not (isinstance(floor, int | float) and isinstance(printgen, int | float) and cards):
        return ""
    return (
        f"for scale, on this machine: the bare reportlab script draws the peer deck's {cards} "
        f"cards in a whole process of {floor:.3g} s, printgen builds them in {printgen:.3g} s"
    )


def before_note(out: Path) -> str:
    """The rulebooks of the code before issue 18 in this run (bench/build.py --before), in
    words: the issue's figure (`baseline_rulebook_pages_per_s`, bench/build.py) was that code
    on the machine it was measured on."""
    path = out / "build.json"
    data = json.loads(path.read_text()) if path.is_file() else {}
    then, now = data.get("before_rulebook_pages_per_s"), data.get("rulebook_pages_per_s")
    issue = data.get("baseline_rulebook_pages_per_s")
    if not all(isinstance(x, int | float) for x in (then, now, issue)) or not then:
        return ""
    return (
        f"rulebooks, for scale: the code before issue 18 ({data.get('before_rev', '?')}) made "
        f"{then:.1f} pages/s in this run, this code {now:.1f}; the issue measured that code at "
        f"{issue:g} pages/s on the machine it was filed from"
    )


def pace_note(out: Path) -> str:
    """The machine's pace during the run (bench/pace.py: a fixed loop's CPU time at points of
    it), in words: every absolute figure moves with it."""
    path = out / "pace.json"
    data = json.loads(path.read_text()) if path.is_file() else {}
    points = [p for p in data.get("points", []) if isinstance(p, dict) and "cpu_s" in p]
    if not points:
        return ""
    times = ", ".join(f"{p['label']} {p['cpu_s']:.2f} s" for p in points)
    return (
        f"machine pace during the run, CPU time of `{data.get('loop', 'the loop')}`: {times} "
        "(lower is faster; the absolute figures above move with it)"
    )


def kernel_notes(out: Path) -> str:
    """How the benchmarks played each engine's kernel (compiled or Python), in words."""
    notes = []
    for _title, game in ENGINES:
        path = out / f"engine-{game}.json"
        data = json.loads(path.read_text()) if path.is_file() else {}
        if data.get("kernel"):
            notes.append(f"{game} {data['kernel']}")
    return "; ".join(notes)


if __name__ == "__main__":
    main()
