"""The designer's loop: how long from saving a file to updated outputs, as `printgen watch`
rebuilds (a warm process, components first, then the rulebooks).

On a temporary copy of Submarine Attack: a first build, then three rounds of
- a one-card edit (torpedo A's dice) -> the components step (sheets, card pages, the PNGs of
  the changed faces): aim at most 1 s;
- a one-section edit (a sentence of the English overview) -> the rulebooks step (only the
  editions whose text changed): aim at most 5 s;
each edit undone the same way. Prints the best and the median of each, next to its aim;
writes out/bench/loop.json. As in watch, the process keeps what it drew and its PDF worker
processes between rebuilds (stopped at the end).
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from printgen.build import BuildOptions, Project  # noqa: E402
from printgen.rulebook.pdf import release_pdf_workers  # noqa: E402
from printgen.watch import rebuild  # noqa: E402

GAME = "submarine-attack"
AIM_CARD_S = 1.0
AIM_SECTION_S = 5.0
ROUNDS = 3
OUT = REPO / "out" / "bench" / "loop.json"


def timed_step(project: Project, out: Path, opts: BuildOptions, step: str) -> float:
    """Rebuild as watch does; the seconds of the named step (from its own line)."""
    lines: list[str] = []
    started = time.perf_counter()
    if not rebuild(project, [GAME], out, opts, lines.append):
        raise SystemExit("\n".join(lines))
    total = time.perf_counter() - started
    for line in lines:
        if f": {step}: " in line and " in " in line:
            return float(line.split(" in ", 1)[1].split(" s", 1)[0])
    return total


def swap(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"{path}: '{old}' not found")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def rounds() -> tuple[list[float], list[float]]:
    """The seconds of each one-card and each one-section edit's step."""
    with tempfile.TemporaryDirectory(prefix="printgen-loop-") as folder:
        root = Path(folder)
        shutil.copytree(REPO / "components" / GAME, root / "components" / GAME)
        shutil.copytree(REPO / "layouts", root / "layouts")
        project = Project(root)
        out = root / "out"
        opts = BuildOptions()
        rebuild(project, [GAME], out, opts, lambda _line: None)  # the first, cold build
        cards = root / "components" / GAME / "cards.yaml"
        section = root / "components" / GAME / "rulebook" / "overview.yaml"
        card_s: list[float] = []
        section_s: list[float] = []
        for _ in range(ROUNDS):
            for old, new in (("grade: A, dice: 5", "grade: A, dice: 6"),):
                swap(cards, old, new)
                card_s.append(timed_step(project, out, opts, "components"))
                swap(cards, new, old)
                card_s.append(timed_step(project, out, opts, "components"))
            swap(section, "The game ends when", "The game is over when")
            section_s.append(timed_step(project, out, opts, "rulebooks"))
            swap(section, "The game is over when", "The game ends when")
            section_s.append(timed_step(project, out, opts, "rulebooks"))
    return card_s, section_s


def main() -> None:
    try:
        card_s, section_s = rounds()
    finally:
        release_pdf_workers()  # the worker processes rebuild keeps, as watch does
    result = {
        "card_edit_to_sheets_s": {"best": min(card_s), "median": statistics.median(card_s)},
        "section_edit_to_rulebooks_s": {
            "best": min(section_s),
            "median": statistics.median(section_s),
        },
        "runs": {"card": card_s, "section": section_s},
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print("designer's loop (warm process, as printgen watch), Submarine Attack:")
    for name, aim, runs in (
        ("one-card edit -> updated sheets", AIM_CARD_S, card_s),
        ("one-section edit -> updated rulebooks", AIM_SECTION_S, section_s),
    ):
        median = statistics.median(runs)
        verdict = "PASS" if median <= aim else f"over x{median / aim:.1f}"
        print(
            f"  {name:40} median {median:5.2f} s, best {min(runs):5.2f} s "
            f"(aim <= {aim:.0f} s: {verdict})"
        )


if __name__ == "__main__":
    main()
