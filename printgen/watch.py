"""`printgen watch`: rebuild on save, the fast outputs first.

Each save rebuilds in two steps: the components (sheets, card pages, the PNG of each face
that changed) and the worked examples first, so a card edit is on the sheets in about a
second; then the rulebooks, only the editions whose text changed. Each step prints one
line: what was made, how long it took, what changed. A mistake is printed and the
watching goes on; `out/` keeps the last good build.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from pathlib import Path

from printgen.build import BuildOptions, GameOutput, Project, build
from printgen.errors import PrintgenError
from printgen.rulebook.pdf import keep_pdf_workers, release_pdf_workers

Echo = Callable[[str], None]


def one_line(result: GameOutput, seconds: float, step: str) -> str:
    """`submarine-attack: components: 3 made (2 sheets, 1 card-pdf) in 0.6 s; ...`"""
    if result.up_to_date:
        return f"{result.game}: {step}: up to date"
    kinds: dict[str, int] = {}
    written = set(result.written)
    for f in result.files:
        if f["path"] in written and f["kind"] not in ("rulebook-asset", "rulebook-html"):
            kinds[str(f["kind"])] = kinds.get(str(f["kind"]), 0) + 1
    made = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "nothing new"
    line = f"{result.game}: {step}: {made} in {seconds:.1f} s"
    changes = result.changes_since_last  # this step's own, not those the report adds up
    if changes:
        shown = "; ".join(changes[:4])
        more = f" (+{len(changes) - 4} more)" if len(changes) > 4 else ""
        line += f"; changed: {shown}{more}"
    bad = [e for e in result.examples if not e.get("ok")]
    if bad:
        line += f"; {len(bad)} example(s) fail"
        if step == "rulebooks":
            line += " (books marked DRAFT)" if result.draft else " (books stale; --draft)"
    return line


def rebuild(
    project: Project, names: list[str], out_root: Path, opts: BuildOptions, echo: Echo
) -> bool:
    """One rebuild in two steps; False when the input has a mistake (reported). The PDF
    worker processes are kept for the next rebuild (WeasyPrint loaded, its pictures'
    streams remembered)."""
    if opts.rulebooks:
        keep_pdf_workers(opts.jobs)
    steps = [("components", dataclasses.replace(opts, rulebooks=False))]
    if opts.rulebooks:
        steps.append(("rulebooks", opts))
    for step, step_opts in steps:
        started = time.perf_counter()
        try:
            results = build(project, names, out_root, step_opts)
        except PrintgenError as exc:
            for line in str(exc).splitlines():
                echo(f"error: {line}")
            return False
        seconds = time.perf_counter() - started
        for result in results:
            echo(f"{time.strftime('%H:%M:%S')} {one_line(result, seconds, step)}")
    return True


def watch(
    project: Project,
    names: list[str],
    out_root: Path,
    opts: BuildOptions,
    echo: Echo,
    stop: threading.Event | None = None,
) -> None:
    """Build, then rebuild whenever a file of the games or the layouts is saved, until
    `stop` is set (or Ctrl-C)."""
    import watchfiles

    folders = [project.components / name for name in names] + [project.layouts]
    out = out_root.resolve()

    def ours(_change: watchfiles.Change, path: str) -> bool:
        """Saved sources only: not the build's own output, editors' swap files or caches."""
        p = Path(path)
        name = p.name
        if p.resolve().is_relative_to(out) or "__pycache__" in p.parts:
            return False
        return not (name.startswith((".", "#", "~$")) or name.endswith(("~", ".swp", ".tmp")))

    try:
        rebuild(project, names, out_root, opts, echo)
        echo(f"watching {', '.join(str(f) for f in folders)} (Ctrl-C stops)")
        for _changes in watchfiles.watch(
            *folders,
            watch_filter=ours,
            stop_event=stop,
            debounce=200,
            step=50,
            yield_on_timeout=False,
        ):
            rebuild(project, names, out_root, opts, echo)
    finally:
        release_pdf_workers()  # the worker processes kept between rebuilds
