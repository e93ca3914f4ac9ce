"""Print benchmark: build time (PDF, PNG) per card and peak memory, on a real game and on a
generated 1,000-card deck.

    .venv/bin/python bench/print.py              # the table, and out/bench/print.json
    .venv/bin/python bench/print.py --profile pdf --cards 1000   # cProfile of one phase

Every phase runs in a fresh process (this script with --phase), so its peak memory is not
polluted by earlier phases.  Each such process loads and renders the game first (the faces
are what PDF and PNG export draw), then times only its phase.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import yaml

from printgen.build import (
    BuildOptions,
    Project,
    Rendered,
    items_of,
    load_all,
    render_all,
    write_game,
)
from printgen.exports import render_pngs
from printgen.layouts import LayoutLibrary

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "out" / "bench" / "print.json"
REAL_GAME = "submarine-attack"
DECK_GAME = "bench-deck"
PHASES = ("render", "pdf", "png-1", "png-2")
# Aims: ms per card for PDF and single-core PNG, peak MB for the 1,000-card deck.
AIM_PDF_MS = 2.0
AIM_PNG_MS = 30.0
AIM_PEAK_MB = 150.0
AIM_MEM_CARDS = 1000
# Whole processes, as a user runs them: start-up (`printgen --help`, `printgen list`) and a
# 200-card build (A4, 9-up, crop marks, duplex backs; no PNG, no rulebook), best of a few
# runs; peak memory of the same build for 200 and 2,000 cards (flat: within 1.25x).
AIM_STARTUP_S = 0.15
AIM_DECK200_S = 0.25
AIM_MEMORY_GROWTH = 1.25
STARTUP_RUNS = 10
DECK_RUNS = 5
BUSY_PCT = 10  # other processes' CPU (% of one core) above which a phase is flagged


# --- the generated deck -------------------------------------------------------------------

DECK_COLOURS = [
    ("navy", "紺", "#1f3a66"),
    ("crimson", "紅", "#a3262a"),
    ("forest", "緑", "#2e6b3a"),
    ("amber", "琥珀", "#a86b12"),
]


def deck_card(i: int, deck: str) -> dict[str, Any]:
    """Card i: one of four layouts, its own name, numbers and a Japanese+English sentence."""
    n = i + 1
    k = 1 + i % 9
    text = {
        "ja": f"第{n}号の指令。相手の魚雷はダイスを{k}個減らして振る。",
        "en": f"Order no. {n}: the torpedo facing this card rolls {k} fewer dice.",
    }
    kind = i % 10
    values: dict[str, Any] = {"n": n}
    if kind < 3:
        layout, name = "submarine-attack/torpedo", ("魚雷", "Torpedo")
        values.update(grade="SABC"[i % 4], dice=k)
    elif kind < 6:
        layout, name = "submarine-attack/transport", ("輸送船", "Transport")
        values.update(ships=1 + i % 5)
    elif kind < 9:
        layout, name = "submarine-attack/evasion", ("回避", "Evasion")
        values.update(grade="AB"[i % 2], cancel_dice=k)
    else:
        layout, name = "base/card", ("指令", "Order")
    return {
        "id": f"card-{n:04d}",
        "kind": "card",
        "name": {"ja": f"{name[0]}{n:04d}", "en": f"{name[1]} #{n:04d}"},
        "layout": layout,
        "deck": deck,
        "count": 1,
        "values": values,
        "text": text,
    }


def make_deck_project(root: Path, cards: int) -> None:
    """A project with components/bench-deck/ (`cards` distinct cards) and the real layouts."""
    game = root / "components" / DECK_GAME
    game.mkdir(parents=True)
    (root / "layouts").symlink_to(REPO / "layouts", target_is_directory=True)
    info = {
        "id": DECK_GAME,
        "title": {"ja": "ベンチマーク・デッキ", "en": "Benchmark Deck"},
        "designer": {"ja": "printgen", "en": "printgen"},
        "players": {"min": 2, "max": 4},
        "play_time_min": 30,
        "rule_version": "1.0",
    }
    decks: list[dict[str, Any]] = [
        {
            "id": key,
            "name": {"ja": f"{ja}の艦隊", "en": f"{key.title()} fleet"},
            "colour": colour,
            "back": "submarine-attack/back",
        }
        for key, ja, colour in DECK_COLOURS
    ]
    per_deck = -(-cards // len(decks))
    components = [deck_card(i, decks[i // per_deck]["id"]) for i in range(cards)]

    def dump(data: Any, name: str) -> None:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
        (game / name).write_text(text, encoding="utf-8")

    dump(info, "game.yaml")
    dump({"decks": decks, "components": components}, "cards.yaml")


def make_cards_only_project(root: Path) -> None:
    """A copy of the real game keeping only its cards (no mats or boards), real layouts."""
    src = REPO / "components" / REAL_GAME
    game = root / "components" / REAL_GAME
    game.mkdir(parents=True)
    (root / "layouts").symlink_to(REPO / "layouts", target_is_directory=True)
    shutil.copyfile(src / "game.yaml", game / "game.yaml")
    for path in sorted(src.glob("*.yaml")):
        if path.name == "game.yaml":
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        data["components"] = [c for c in data.get("components", []) if c.get("kind") == "card"]
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
        (game / path.name).write_text(text, encoding="utf-8")


# --- one phase, in its own process ----------------------------------------------------------


def ms_since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def maxrss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0  # kB on Linux


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class TreeSampler:
    """Peak PSS of this process plus its worker processes (shared pages counted once).

    A cross-check for forked PNG workers, whose ru_maxrss counts pages shared with the
    parent again.  Sampled coarsely: reading smaps_rollup often slows the workers down.
    """

    def __init__(self, interval: float = 0.25) -> None:
        self.interval, self.peak_kb = interval, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = os.getpid()
        while not self._stop.is_set():
            total = _pss_kb(me) + sum(_pss_kb(c) for c in _children(me))
            self.peak_kb = max(self.peak_kb, total)
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()


def cpu_s() -> float:
    """CPU seconds of this process and of its finished (reaped) worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def system_busy_s() -> float:
    """CPU seconds used by every process on the machine so far (from /proc/stat)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    busy = sum(fields[:8]) - fields[3] - fields[4]  # all but idle and iowait
    return busy / os.sysconf("SC_CLK_TCK")


def others_ms(busy0: float, cpu0: float) -> float:
    """CPU ms that other processes used since (busy0, cpu0): the machine was not quiet."""
    if not busy0:
        return 0.0
    return max(0.0, (system_busy_s() - busy0 - (cpu_s() - cpu0)) * 1000.0)


def load_and_render(root: Path, game: str) -> tuple[LayoutLibrary, Rendered, dict[str, float]]:
    t0, c0 = time.perf_counter(), cpu_s()
    lib, games = load_all(Project(root), [game])
    load_ms = ms_since(t0)
    t1 = time.perf_counter()
    rendered = render_all(lib, games, "both")[0]
    times = {"load_ms": load_ms, "render_ms": ms_since(t1), "cpu_ms": (cpu_s() - c0) * 1000.0}
    return lib, rendered, times


def export_once(lib: LayoutLibrary, r: Rendered, opts: BuildOptions) -> dict[str, float]:
    """write_game as the build runs it, split at its progress reports."""
    marks: list[tuple[str, float, float]] = []

    rendered_pngs = 0

    def progress(step: str, _n: int) -> None:
        nonlocal rendered_pngs
        if step.endswith(": PNG"):
            rendered_pngs += 1  # one report per image drawn (faces drawn alike may share one)
        else:
            marks.append((step, time.perf_counter(), cpu_s()))

    staging = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        t0, c0 = time.perf_counter(), cpu_s()
        write_game(lib, r, opts, staging, progress)
        t_end, c_end = time.perf_counter(), cpu_s()
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    sheets_end = next((t for step, t, _c in marks if step.endswith("sheets")), t0)
    cards_end, cards_cpu = next((t, c) for step, t, c in marks if step.endswith("card pages"))
    return {
        "write_game_cpu_ms": (c_end - c0) * 1000.0,
        "after_card_pdf_cpu_ms": (c_end - cards_cpu) * 1000.0,  # workers included
        "sheets_ms": (sheets_end - t0) * 1000.0,  # sheets and calibration PDFs, if any
        "card_pdf_ms": (cards_end - sheets_end) * 1000.0,
        "after_card_pdf_ms": (t_end - cards_end) * 1000.0,  # PNG files (if any) and manifest
        "write_game_ms": (t_end - t0) * 1000.0,
        "pngs_drawn": float(rendered_pngs),
    }


def phase_options(phase: str) -> tuple[BuildOptions, str]:
    """Options of a phase and the write_game timing it reports (its CPU time: key_cpu)."""
    if phase == "pdf":  # A4 sheets, calibration, cards.pdf and the manifest; no PNG
        return BuildOptions(papers=("a4",), lang="both", png=False, jobs=1), "write_game_ms"
    jobs = int(phase.split("-")[1])  # png-N: no sheets; cards.pdf is written but not counted
    return BuildOptions(papers=(), lang="both", png=True, jobs=jobs), "after_card_pdf_ms"


def run_phase(root: Path, game: str, phase: str, repeats: int) -> dict[str, Any]:
    b0, c0 = system_busy_s(), cpu_s()
    lib, r, first = load_and_render(root, game)
    first["others_cpu_ms"] = others_ms(b0, c0)
    cards = sum(len(group) for group in items_of(lib, r))  # physical pieces, not just cards
    kinds: dict[str, int] = {}
    for piece in r.game.pieces:
        kinds[piece.kind] = kinds.get(piece.kind, 0) + piece.count
    result: dict[str, Any] = {"cards": cards, "kinds": kinds, "faces": len(r.faces)}
    runs: list[dict[str, float]] = []
    sampler: TreeSampler | None = None
    if phase == "render":
        runs.append(first)
        for _ in range(repeats - 1):
            b0, c0 = system_busy_s(), cpu_s()
            runs.append(load_and_render(root, game)[2])
            runs[-1]["others_cpu_ms"] = others_ms(b0, c0)
        key, cpu_key = "total", "cpu_ms"
        for run in runs:
            run["total"] = run["load_ms"] + run["render_ms"]
    else:
        opts, key = phase_options(phase)
        cpu_key = key.replace("_ms", "_cpu_ms")
        before_mb = maxrss_mb(resource.RUSAGE_SELF)
        with TreeSampler() as sampler:
            for _ in range(repeats):
                b0, c0 = system_busy_s(), cpu_s()
                runs.append(export_once(lib, r, opts))
                runs[-1]["others_cpu_ms"] = others_ms(b0, c0)
        result["rss_before_phase_mb"] = round(before_mb, 1)
        if opts.png:
            result["png_files"] = sum(
                1 for g in items_of(lib, r) for i in g for k in (i.front, i.back) if k
            )
            result["pngs_drawn"] = int(runs[0].pop("pngs_drawn"))
        for run in runs:
            run.pop("pngs_drawn", None)
    best = min(runs, key=lambda run: run[key])
    self_mb = maxrss_mb(resource.RUSAGE_SELF)
    children_mb = maxrss_mb(resource.RUSAGE_CHILDREN)
    result.update(
        {
            "total_ms": round(best[key], 1),
            "ms_per_card": round(best[key] / cards, 3),
            "cpu_ms": round(best[cpu_key], 1),
            "cpu_ms_per_card": round(best[cpu_key] / cards, 3),
            # Other processes' CPU during the reported run, in % of one core.
            "others_pct": round(100.0 * best["others_cpu_ms"] / max(best[key], 1e-9)),
            "detail_ms": {k: round(v, 1) for k, v in best.items()},
            "runs_ms": [round(run[key], 1) for run in runs],
            "self_peak_mb": round(self_mb, 1),
            "worker_peak_mb": round(children_mb, 1),
            "peak_mb": round(self_mb + children_mb, 1),
        }
    )
    if sampler is not None and sampler.peak_kb:
        result["tree_pss_peak_mb"] = round(sampler.peak_kb / 1024.0, 1)
    return result


def profile_phase(root: Path, game: str, phase: str, top: int) -> None:
    """cProfile of one phase in this process (PNG: render_pngs on one core, no cards.pdf)."""
    lib, r, _times = load_and_render(root, game)
    profiler = cProfile.Profile()
    if phase == "render":
        profiler.runcall(load_and_render, root, game)
    elif phase == "pdf":
        profiler.runcall(export_once, lib, r, phase_options(phase)[0])
    else:
        items = [item for group in items_of(lib, r) for item in group]
        wanted = [r.faces[k] for item in items for k in (item.front, item.back) if k]
        profiler.runcall(lambda: list(render_pngs(wanted, BuildOptions().dpi, 1)))
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


# --- whole processes -----------------------------------------------------------------------


def run_process(cmd: list[str], cwd: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one run of a command in a process of its own."""
    with tempfile.TemporaryFile() as errors:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            sys.stderr.write(errors.read().decode("utf-8", "replace"))
            raise SystemExit(f"bench: {' '.join(cmd)} failed (exit {proc.returncode})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def best_of(runs: int, cmd: list[str], cwd: Path) -> dict[str, float]:
    """The quickest wall and CPU time over `runs` runs (each figure its own best), and the
    largest peak memory."""
    results = [run_process(cmd, cwd) for _ in range(runs)]
    return {
        "wall_s": round(min(r[0] for r in results), 3),
        "cpu_s": round(min(r[1] for r in results), 3),
        "peak_mb": round(max(r[2] for r in results), 1),
    }


def whole_process(tmp: Path) -> dict[str, Any]:
    """Start-up and the 200-card build as whole `printgen` processes, and the peak memory
    of that build for 200 and 2,000 cards."""
    printgen = str(Path(sys.executable).with_name("printgen"))
    run_process([printgen, "--help"], REPO)  # a first run writes the bytecode caches
    startup = {
        "help": best_of(STARTUP_RUNS, [printgen, "--help"], REPO),
        "list": best_of(STARTUP_RUNS, [printgen, "list"], REPO),
    }
    builds: dict[int, dict[str, float]] = {}
    for cards, runs in ((200, DECK_RUNS), (2000, 1)):
        root = tmp / f"whole-{cards}"
        make_deck_project(root, cards)
        print(f"bench: whole process, {cards} cards...", file=sys.stderr, flush=True)
        cmd = [printgen, "build", DECK_GAME, "--paper", "a4", "--no-png", "--no-rulebook"]
        cmd += ["--force", "--out", str(root / "out")]
        builds[cards] = best_of(runs, cmd, root)
    growth = builds[2000]["peak_mb"] / builds[200]["peak_mb"]
    return {
        # start-up: the command itself (`--help`); `list` also loads every game (its work)
        "startup_s": startup["help"]["wall_s"],
        "aim_startup_s": AIM_STARTUP_S,
        "startup": startup,
        "deck200_whole_process_s": builds[200]["wall_s"],
        "aim_deck200_whole_process_s": AIM_DECK200_S,
        "deck200_whole_process": builds[200],
        "deck2000_whole_process": builds[2000],
        "peak_mb_growth_200_to_2000": round(growth, 2),
        "aim_peak_mb_growth": AIM_MEMORY_GROWTH,
    }


def print_whole_process(figures: dict[str, Any]) -> None:
    print("whole process (wall best of runs; cpu = user+sys of the process):")
    for name, row in figures["startup"].items():
        cmd = f"printgen {'--help' if name == 'help' else name}"
        print(
            f"  start-up {cmd:16} {row['wall_s']:6.3f} s (cpu {row['cpu_s']:.3f} s): "
            f"{AIM_STARTUP_S:g} s {verdict(row['wall_s'], AIM_STARTUP_S)}"
        )
    for cards in (200, 2000):
        row = figures[f"deck{cards}_whole_process"]
        aim = (
            f"{AIM_DECK200_S:g} s {verdict(row['wall_s'], AIM_DECK200_S)}"
            if cards == 200
            else f"peak x{figures['peak_mb_growth_200_to_2000']:.2f} of 200 cards': "
            f"x{AIM_MEMORY_GROWTH:g} "
            + verdict(figures["peak_mb_growth_200_to_2000"], AIM_MEMORY_GROWTH)
        )
        print(
            f"  build {cards:>5} cards (A4, no PNG, no rulebook) {row['wall_s']:6.3f} s "
            f"(cpu {row['cpu_s']:.3f} s), peak {row['peak_mb']:.0f} MB: {aim}"
        )


# --- the driver ----------------------------------------------------------------------------


def child(case_root: Path, game: str, phase: str, repeats: int) -> dict[str, Any]:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--phase",
        phase,
        "--root",
        str(case_root),
        "--game",
        game,
        "--repeats",
        str(repeats),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"bench: phase {phase} of {game} failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def build_row(phases: list[dict[str, Any]]) -> dict[str, Any]:
    """A whole build (A4 only): render + PDF + PNG on two processes, summed."""
    parts = [row for row in phases if row["phase"] in ("render", "pdf", "png-2")]
    total = sum(row["total_ms"] for row in parts)
    cpu = sum(row["cpu_ms"] for row in parts)
    others = sum(row["others_pct"] * row["total_ms"] / 100.0 for row in parts)
    cards = parts[0]["cards"]
    return {
        "case": parts[0]["case"],
        "phase": "build-2",
        "cards": cards,
        "total_ms": round(total, 1),
        "ms_per_card": round(total / cards, 3),
        "cpu_ms": round(cpu, 1),
        "cpu_ms_per_card": round(cpu / cards, 3),
        "others_pct": round(100.0 * others / max(total, 1e-9)),
        "peak_mb": max(row["peak_mb"] for row in parts),
        "derived": True,
    }


def verdict(value: float, aim: float) -> str:
    return "PASS" if value < aim else f"over x{value / aim:.1f}"


def aims_of(row: dict[str, Any]) -> str:
    checks: list[str] = []
    if row["phase"] == "pdf":
        # The aim is for the print sheets; cards.pdf (one page per face) comes on top.
        sheets = row.get("detail_ms", {}).get("sheets_ms", row["total_ms"]) / row["cards"]
        cards = row.get("detail_ms", {}).get("card_pdf_ms", 0.0) / row["cards"]
        checks.append(
            f"sheets {sheets:.2f} ms/card: {AIM_PDF_MS:g} ms/card {verdict(sheets, AIM_PDF_MS)}"
            f" (+ cards.pdf {cards:.2f})"
        )
    if row["phase"] == "png-1":
        checks.append(f"{AIM_PNG_MS:g} ms/card {verdict(row['ms_per_card'], AIM_PNG_MS)}")
    if row["cards"] >= AIM_MEM_CARDS and row["phase"] != "build-2":
        checks.append(f"{AIM_PEAK_MB:g} MB {verdict(row['peak_mb'], AIM_PEAK_MB)}")
    return "; ".join(checks) or "-"


def print_table(rows: list[dict[str, Any]]) -> None:
    head = (
        f"{'case':22} {'pieces':>6}  {'phase':8} {'total ms':>9} {'ms/piece':>8} {'cpu/piece':>9}"
        f" {'others':>6} {'peak MB':>8}  aims"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        print(
            f"{row['case']:22} {row['cards']:>6}  {row['phase']:8} {row['total_ms']:>9.1f} "
            f"{row['ms_per_card']:>8.2f} {row['cpu_ms_per_card']:>9.2f} {row['others_pct']:>5}%"
            f" {row['peak_mb']:>8.1f}"
            f"  {aims_of(row)}"
        )
    print()
    print("pieces = physical copies: all cards, except any mats of the real game (JSON: kinds).")
    print("render = load + layout/text fitting; pdf = A4 sheets, calibration, cards.pdf (1 core);")
    print("png-N = per-piece PNGs at 300 DPI on N processes (wall time), front and back counted;")
    print("build-2 = render + pdf + png-2 (sum; peak = the largest of them).")
    print("ms = wall time; cpu = CPU time of the process and its PNG workers (robust to load);")
    print("others = CPU that other processes used meanwhile, in % of one core: if it is not")
    print("near 0%, the machine was busy and wall times (png-2 above all) are inflated.")
    print("peak MB = the phase's process (ru_maxrss) + its largest PNG worker (RUSAGE_CHILDREN).")


def main(argv: list[str] | None = None) -> int:
    # Programs are timed as a user runs them: with Python's bytecode caches (a shell that
    # sets PYTHONDONTWRITEBYTECODE would have every run compile every module again).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cards", type=int, default=1000, help="cards in the generated deck")
    parser.add_argument("--json", type=Path, default=OUT, help="where to write the results")
    parser.add_argument(
        "--profile", choices=PHASES, help="cProfile one phase of the generated deck"
    )
    parser.add_argument("--top", type=int, default=25, help="functions listed by --profile")
    parser.add_argument(
        "--whole-process",
        action="store_true",
        help="only the whole-process figures (start-up, 200-card build, memory)",
    )
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.phase:  # a child: one phase, results as one JSON line
        print(json.dumps(run_phase(args.root, args.game, args.phase, args.repeats)))
        return 0

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="printgen-bench-") as tmp:
        deck_root, cards_root = Path(tmp) / "deck", Path(tmp) / "cards-only"
        make_deck_project(deck_root, args.cards)
        make_cards_only_project(cards_root)
        if args.profile:
            profile_phase(deck_root, DECK_GAME, args.profile, args.top)
            return 0
        if args.whole_process:
            print_whole_process(whole_process(Path(tmp)))
            return 0
        # Repeats per phase (best run reported): the 36-card game is quick, so best of 3;
        # the big deck's PNG phases run once to keep `make bench` near a minute.
        cases: list[tuple[str, Path, str, dict[str, int]]] = [
            (REAL_GAME, REPO, REAL_GAME, dict.fromkeys(PHASES, 3)),  # as `make build` sees it
            (f"{REAL_GAME}-cards", cards_root, REAL_GAME, dict.fromkeys(PHASES, 3)),
            (
                f"{DECK_GAME}-{args.cards}",
                deck_root,
                DECK_GAME,
                {"render": 1, "pdf": 2, "png-1": 1, "png-2": 1},
            ),
        ]
        rows: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for case, root, game, repeats in cases:
            for phase in PHASES:
                print(f"bench: {case} {phase}...", file=sys.stderr, flush=True)
                rows.append(
                    {"case": case, "phase": phase, **child(root, game, phase, repeats[phase])}
                )
            rows.append(build_row(rows[-len(PHASES) :]))
        whole = whole_process(Path(tmp))
        wall_s = time.perf_counter() - t0

    print_table(rows)
    print()
    print_whole_process(whole)
    report: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "aims": {
            "pdf_ms_per_card": AIM_PDF_MS,
            "png_ms_per_card_1_core": AIM_PNG_MS,
            "peak_mb_1000_cards": AIM_PEAK_MB,
        },
        "bench_wall_s": round(wall_s, 1),
        "loadavg_before": round(load_before, 2),
        "results": [{**row, "aims": aims_of(row)} for row in rows],
        **whole,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    busy = [f"{row['case']} {row['phase']}" for row in rows if row["others_pct"] > BUSY_PCT]
    if busy:
        print(f"\nwarning: other processes were busy during: {', '.join(busy)}")
    print(f"\nresults: {args.json} ({wall_s:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
