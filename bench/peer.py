"""Peer benchmark: printgen against protograf and a bare reportlab script, on one deck.

    .venv/bin/python bench/peer.py            # the table, out/bench/peer.json, page pictures
    .venv/bin/python bench/peer.py --case en --rounds 1 --no-protograf   # a quick look

The same 200 poker cards (bench/peer/deck.py: colour to the bleed edge, a panel, a name, a
number, a sentence; in English, again in Japanese, and in English with backs, printed
duplex) on A4, 9 a page, with crop marks, by:

- printgen: a game folder (bench/peer/printgen_game.py) built as a user does,
  `python -m printgen --root DIR build GAME --paper a4 --no-png --no-rulebook --duplex off`
  (`--duplex long` with backs);
- protograf (PyPI): a script (bench/peer/protograf_deck.py) run by its own virtual
  environment, which this benchmark installs into out/bench/peer-venv/ and reuses;
- the floor: a bare reportlab script (bench/peer/floor.py) run by the project's Python.

Each run is a fresh process, timed whole; the three take turns (printgen, protograf, floor,
then again) for three rounds, and the best round of each counts.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pypdf import PdfReader

PEER = Path(__file__).resolve().parent / "peer"
sys.path.insert(0, str(PEER))  # deck.py and printgen_game.py, shared with the child scripts

from deck import COLS, FONT_BOLD, FONT_REGULAR, PAPER_MM, ROWS, cards  # noqa: E402
from printgen_game import write_project  # noqa: E402

REPO = PEER.parents[1]
OUT = REPO / "out" / "bench"
FONTS = REPO / "layouts" / "fonts"
PROTOGRAF_SPEC = "protograf==0.5.2"  # pinned: the figures compare like with like
AIM_PRINTGEN_FLOOR = 2.0  # printgen's sheets take at most twice the floor's time
AIM_PROTOGRAF_PRINTGEN = 20.0  # and protograf takes at least 20 times printgen's
PROGRAMS = ("printgen", "protograf", "floor")
CASES = {"en": ("en", False), "ja": ("ja", False), "en-duplex": ("en", True)}  # lang, duplex
MM_TO_PT = 72 / 25.4


@dataclass
class Run:
    """One whole process: wall and CPU seconds (its own and its reaped children's), peak
    RSS, and the CPU that other processes of the machine used meanwhile (% of one core)."""

    wall_s: float
    cpu_s: float
    peak_mb: float
    others_pct: float


class Spawner:
    """The small process that starts every timed run and measures it (bench/peer/spawn.py
    says why: so that no child's peak memory counts this process's)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(PEER / "spawn.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, cmd: list[str], env: dict[str, str] | None = None) -> Run:
        """Run `cmd` to its end as a fresh process (RuntimeError if it fails)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"cmd": cmd, "env": env}) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if answer["exit"] != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {answer['exit']}:\n{answer['output']}")
        return Run(answer["wall_s"], answer["cpu_s"], answer["peak_mb"], answer["others_pct"])

    def __enter__(self) -> Spawner:
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


# --- protograf in its own environment ------------------------------------------------------


class Protograf:
    """protograf's throw-away virtual environment (out/bench/peer-venv/, kept between runs)
    and the HOME its script runs with: BIZ UDPGothic in ~/.fonts, where fontconfig and so
    protograf find it, and protograf's font cache (~/.protograf), built once untimed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "venv" / "bin" / "python"
        self.home = root / "home"
        self.version = ""

    def ensure(self, spec: str) -> None:
        """Install `spec` unless the environment already has it (RuntimeError if it fails)."""
        stamp = self.root / "installed.txt"
        if not (self.python.exists() and stamp.is_file() and stamp.read_text() == spec):
            shutil.rmtree(self.root, ignore_errors=True)
            print(f"peer: installing {spec} into {self.root} ...", file=sys.stderr, flush=True)
            for cmd in (
                [sys.executable, "-m", "venv", str(self.root / "venv")],
                [
                    str(self.python),
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--disable-pip-version-check",
                    spec,
                ],
            ):
                done = subprocess.run(cmd, capture_output=True, text=True, check=False)
                if done.returncode != 0:
                    raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
            stamp.write_text(spec)
        fonts = self.home / ".fonts"
        fonts.mkdir(parents=True, exist_ok=True)
        for name in (FONT_REGULAR, FONT_BOLD):
            if not (fonts / name).is_file():
                shutil.copyfile(FONTS / name, fonts / name)
        versions = "import importlib.metadata as m, protograf; print(m.version('protograf'),"
        versions += " 'with PyMuPDF', m.version('pymupdf'))"
        done = subprocess.run(
            [str(self.python), "-c", versions],
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"protograf does not import:\n{done.stderr[-2000:]}")
        self.version = done.stdout.strip()

    def env(self) -> dict[str, str]:
        return {**os.environ, "HOME": str(self.home), "XDG_CACHE_HOME": str(self.home / ".cache")}

    def command(self, cards: int, lang: str, out: Path) -> list[str]:
        script = PEER / "protograf_deck.py"
        return [
            str(self.python),
            str(script),
            "--cards",
            str(cards),
            "--lang",
            lang,
            "--out",
            str(out),
        ]


# --- the three programs ---------------------------------------------------------------------


@dataclass
class Case:
    """One deck (English or Japanese; fronts only, or duplex with backs) and where each
    program's runs write."""

    name: str  # en, ja, en-duplex
    lang: str
    duplex: bool
    cards: int
    project: Path  # printgen's game folder
    game: str
    runs: Path  # one folder per run

    def command(self, program: str, out: Path, protograf: Protograf | None) -> list[str]:
        backs = ["--backs"] if self.duplex else []
        if program == "printgen":
            duplex = "long" if self.duplex else "off"
            return [
                *(sys.executable, "-m", "printgen", "--root", str(self.project), "build"),
                *(self.game, "--out", str(out), "--paper", "a4", "--no-png", "--no-rulebook"),
                *("--duplex", duplex, "--lang", self.lang),
            ]
        if program == "protograf":
            assert protograf is not None
            return protograf.command(self.cards, self.lang, out) + backs
        return [
            *(sys.executable, str(PEER / "floor.py"), "--cards", str(self.cards)),
            *("--lang", self.lang, "--fonts", str(FONTS), "--out", str(out), *backs),
        ]

    def pdf(self, program: str, out: Path) -> Path:
        if program == "printgen":
            sides = "duplex-long" if self.duplex else "fronts"
            return out / self.game / f"sheets-a4-{sides}.pdf"
        return out / f"peer-{program}.pdf"

    def check_pdf(self, path: Path) -> dict[str, Any]:
        """The sheets hold the right number of A4 pages of cards (a backs page after each
        fronts page when duplex).  printgen's open with a checklist (one row per card, and a
        blank back when duplex): the pages before the first page of cards count apart.
        Raises ValueError when they are wrong."""
        # pypdf warns of every glyph name it cannot map back to text (protograf's Japanese
        # pages); the page check needs only the cards' names, so its notes stay quiet
        logging.getLogger("pypdf").setLevel(logging.ERROR)
        reader = PdfReader(path)
        want = math.ceil(self.cards / (COLS * ROWS)) * (2 if self.duplex else 1)
        names = [card.name for card in cards(self.cards, self.lang)]

        def is_cards(text: str) -> bool:
            return "Checklist" not in text and any(name in text for name in names)

        extra = 0
        while extra < len(reader.pages) and not is_cards(reader.pages[extra].extract_text() or ""):
            extra += 1
        got = len(reader.pages) - extra
        if got != want:
            raise ValueError(f"{path}: {got} pages of cards, expected {want}")
        paper = (PAPER_MM[0] * MM_TO_PT, PAPER_MM[1] * MM_TO_PT)
        for number, page in enumerate(reader.pages, 1):
            size = (float(page.mediabox.width), float(page.mediabox.height))
            if any(abs(a - b) > 1.0 for a, b in zip(size, paper, strict=True)):
                raise ValueError(f"{path}: page {number} is {size[0]:.1f} x {size[1]:.1f} pt")
        return {
            "pages": len(reader.pages),
            "card_pages": got,
            "checklist_pages": extra,
            "bytes": path.stat().st_size,
        }


def picture(pdf: Path, page: int, dest: Path) -> None:
    """Page `page` of `pdf` at 60 dpi as `dest` (PNG), if pdftoppm is there."""
    if shutil.which("pdftoppm") is None:
        return
    prefix = dest.with_suffix("")
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "60",
            "-png",
            "-singlefile",
            "-f",
            str(page),
            "-l",
            str(page),
            str(pdf),
            str(prefix),
        ],
        check=False,
        capture_output=True,
    )


# --- the report -----------------------------------------------------------------------------


def best(runs: list[Run]) -> dict[str, float]:
    """Best wall time and best CPU time of the rounds (each its own minimum), the largest
    peak, and how busy the machine was during the fastest round."""
    fastest = min(runs, key=lambda r: r.wall_s)
    return {
        "wall_s": round(fastest.wall_s, 3),
        "cpu_s": round(min(r.cpu_s for r in runs), 3),
        "peak_mb": round(max(r.peak_mb for r in runs), 1),
        "others_pct": round(fastest.others_pct),
    }


def ratios(figures: dict[str, dict[str, float]]) -> dict[str, float | None]:
    pg, floor = figures["printgen"], figures["floor"]
    proto = figures.get("protograf")
    return {
        "ratio_printgen_floor": round(pg["wall_s"] / floor["wall_s"], 2),
        "ratio_printgen_floor_cpu": round(pg["cpu_s"] / floor["cpu_s"], 2),
        "ratio_protograf_printgen": round(proto["wall_s"] / pg["wall_s"], 2) if proto else None,
        "ratio_protograf_printgen_cpu": round(proto["cpu_s"] / pg["cpu_s"], 2) if proto else None,
    }


def verdict(value: float | None, aim: float, higher_is_better: bool) -> str:
    if value is None:
        return "not measured"
    if value >= aim if higher_is_better else value <= aim:
        return "PASS"
    return f"over x{(aim / value if higher_is_better else value / aim):.1f}"


def print_report(cases: dict[str, dict[str, Any]], rounds: int, protograf: str, note: str) -> None:
    cards = next(iter(cases.values()))["cards"]
    print(
        f"peer benchmark: {cards} poker cards, A4 portrait, 9 a page, crop marks, 3 mm bleed,"
        f" best of {rounds} interleaved rounds, each a fresh process;"
        " en, ja: fronts only; en-duplex: each fronts page followed by its backs page"
    )
    if protograf:
        print(f"protograf {protograf}")
    head = (
        f"{'case':9} {'program':10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'others':>7}  pages"
    )
    print(head)
    print("-" * len(head))
    for name, case in cases.items():
        for program, fig in case["programs"].items():
            pages = case["pdfs"][program]
            extra = f" (+{pages['checklist_pages']} checklist)" if pages["checklist_pages"] else ""
            print(
                f"{name:9} {program:10} {fig['wall_s']:>8.3f} {fig['cpu_s']:>8.3f}"
                f" {fig['peak_mb']:>8.1f} {fig['others_pct']:>6.0f}%  {pages['card_pages']}{extra}"
            )
    print()
    print(f"{'case':9} {'ratio':20} {'wall':>7} {'cpu':>7}   aim")
    for name, case in cases.items():
        r = case["ratios"]
        rows: list[tuple[str, str, float, bool]] = [
            ("printgen:floor", "ratio_printgen_floor", AIM_PRINTGEN_FLOOR, False),
            ("protograf:printgen", "ratio_protograf_printgen", AIM_PROTOGRAF_PRINTGEN, True),
        ]
        for label, key, aim, higher in rows:
            wall, cpu = r[key], r[f"{key}_cpu"]
            sign = ">=" if higher else "<="
            shown = (
                f"{'x' + format(wall, '.2f'):>7} {'x' + format(cpu, '.2f'):>7}"
                if wall is not None
                else f"{'-':>7} {'-':>7}"
            )
            print(
                f"{name:9} {label:20} {shown}   {sign} {aim:g}: {verdict(wall, aim, higher)}"
                f" (cpu: {verdict(cpu, aim, higher)})"
            )
    print()
    print("wall = whole process, start to exit; cpu = its user + system time (robust to a busy")
    print("machine); peak MB = its ru_maxrss; others = CPU other processes used meanwhile, in %")
    print("of one core (well above 0%: the machine was busy, rerun when it is quiet).")
    print("printgen's process also writes cards.pdf (one page per card), a checklist at the head")
    print("of the sheets (and a blank back to it, duplex), a calibration page (duplex) and the")
    print("manifest; protograf and the floor write the sheets only.")
    if note:
        print(note)


def ready_protograf(spec: str, tmp: Path, spawner: Spawner) -> tuple[Protograf | None, str]:
    """protograf's environment, installed and warmed up (its font index built, untimed), or
    None and why not."""
    protograf = Protograf(OUT / "peer-venv")
    try:
        protograf.ensure(spec)
        warm = tmp / "warm-up"
        warm.mkdir()
        spawner.run(protograf.command(COLS * ROWS, "ja", warm), env=protograf.env())
    except (RuntimeError, OSError) as err:
        note = f"protograf could not be installed or run, so it is left out: {err}"
        print(f"peer: {note}", file=sys.stderr)
        return None, note
    return protograf, ""


def measure(
    cases: list[Case],
    programs: list[str],
    rounds: int,
    protograf: Protograf | None,
    pictures: Path,
    spawner: Spawner,
    printgen_env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The rounds, interleaved; each case's best figures, ratios, pages and every run
    (printgen's with `printgen_env`)."""
    runs: dict[tuple[str, str], list[Run]] = {}
    pdfs: dict[tuple[str, str], dict[str, Any]] = {}
    for round_ in range(1, rounds + 1):
        for case in cases:
            for program in programs:
                print(f"peer: round {round_} {case.name} {program}", file=sys.stderr, flush=True)
                out = case.runs / f"{program}-{round_}"
                out.mkdir(parents=True)
                env = protograf.env() if program == "protograf" and protograf else None
                if program == "printgen":
                    env = printgen_env
                try:
                    runs.setdefault((case.name, program), []).append(
                        spawner.run(case.command(program, out, protograf), env=env)
                    )
                    pdf = case.pdf(program, out)
                    pdfs[case.name, program] = case.check_pdf(pdf)
                except (RuntimeError, ValueError) as err:
                    raise SystemExit(f"peer: {case.name} {program}: {err}") from None
                if round_ == rounds:  # the second page of cards: cards 10 to 18
                    page = pdfs[case.name, program]["checklist_pages"] + 2
                    pictures.mkdir(parents=True, exist_ok=True)
                    picture(pdf, page, pictures / f"{case.name}-{program}.png")
                shutil.rmtree(out)
    report: dict[str, Any] = {}
    for case in cases:
        figures = {p: best(runs[case.name, p]) for p in programs}
        report[case.name] = {
            "cards": case.cards,
            "programs": figures,
            "ratios": ratios(figures),
            "pdfs": {p: pdfs[case.name, p] for p in programs},
            "runs": {p: [asdict(r) for r in runs[case.name, p]] for p in programs},
        }
    return report


def headline(report: dict[str, Any], case: str) -> dict[str, Any]:
    """The top-level figures of peer.json (those bench/summary.py reads): one deck's."""
    figs = report[case]["programs"]
    proto = figs.get("protograf")
    return {
        "case": case,
        "cards": report[case]["cards"],
        "printgen_s": figs["printgen"]["wall_s"],
        "protograf_s": proto["wall_s"] if proto else None,
        "floor_s": figs["floor"]["wall_s"],
        **report[case]["ratios"],
        "aim_ratio_printgen_floor": AIM_PRINTGEN_FLOOR,
        "aim_ratio_protograf_printgen": AIM_PROTOGRAF_PRINTGEN,
        "printgen_cpu_s": figs["printgen"]["cpu_s"],
        "protograf_cpu_s": proto["cpu_s"] if proto else None,
        "floor_cpu_s": figs["floor"]["cpu_s"],
        "printgen_peak_mb": figs["printgen"]["peak_mb"],
        "protograf_peak_mb": proto["peak_mb"] if proto else None,
        "floor_peak_mb": figs["floor"]["peak_mb"],
    }


def main(argv: list[str] | None = None) -> int:
    # Programs are timed as a user runs them: with Python's bytecode caches (a shell that
    # sets PYTHONDONTWRITEBYTECODE would have every run compile every module again).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--case",
        choices=(*CASES, "all"),
        default="all",
        help="English or Japanese fronts, or English duplex with backs; default: all three",
    )
    parser.add_argument("--no-protograf", action="store_true", help="printgen and floor only")
    parser.add_argument("--protograf", default=PROTOGRAF_SPEC, help="pip requirement to install")
    parser.add_argument("--json", type=Path, default=OUT / "peer.json")
    parser.add_argument(
        "--pictures",
        type=Path,
        default=OUT / "peer",
        help="where the 60 dpi pictures of a page of each PDF go",
    )
    args = parser.parse_args(argv)

    names = list(CASES) if args.case == "all" else [args.case]
    # The spawner starts first, while this process is still small (see Spawner).
    with Spawner() as spawner, tempfile.TemporaryDirectory(prefix="printgen-peer-") as name:
        tmp = Path(name)
        protograf, note = (
            (None, "") if args.no_protograf else ready_protograf(args.protograf, tmp, spawner)
        )
        programs = [p for p in PROGRAMS if p != "protograf" or protograf is not None]
        cases = []
        for case in names:
            lang, duplex = CASES[case]
            project = tmp / f"project-{case}"
            game = write_project(project, args.cards, lang, backs=duplex)
            cases.append(Case(case, lang, duplex, args.cards, project, game, tmp / f"runs-{case}"))
        # printgen keeps reportlab's reading of each font and the digests of its inputs in
        # its cache folder, as protograf keeps its font index: one of the benchmark's own,
        # filled by a run per case that is not timed (a designer's second build onwards).
        printgen_env = {**os.environ, "PRINTGEN_CACHE_DIR": str(tmp / "printgen-cache")}
        for case in cases:
            warm = tmp / f"warm-up-{case.name}"
            spawner.run(case.command("printgen", warm, protograf), env=printgen_env)
            shutil.rmtree(warm)
        t0 = time.perf_counter()
        report = measure(
            cases, programs, args.rounds, protograf, args.pictures, spawner, printgen_env
        )
        bench_s = time.perf_counter() - t0

    version = protograf.version if protograf else ""
    print_report(report, args.rounds, version, note)
    data: dict[str, Any] = {
        **headline(report, names[0]),  # the English deck's fronts when they ran
        "protograf_version": version or None,
        "protograf_note": note or None,
        "rounds": args.rounds,
        "bench_s": round(bench_s, 1),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "cases": report,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(
        f"\nresults: {args.json}; pictures of each program's second page of cards:"
        f" {args.pictures}/ ({bench_s:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
