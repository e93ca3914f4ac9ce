"""The `printgen` command."""

from __future__ import annotations

import atexit
import contextlib
import gc
import math
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

import click

from printgen.errors import ErrorList, PrintgenError, display_path
from printgen.languages import LANG_CHOICES

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from printgen.build import BuildOptions, GameOutput, Project, Rendered

# Each command imports what it uses when it runs: `printgen --help` and `printgen list`
# start without the renderer, the rules engines, the rulebook or rich's progress bars.


class _Stderr:
    """rich's console on stderr, made on first use (rich takes a while to import)."""

    def __init__(self) -> None:
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False)
        return self._console

    @property
    def is_terminal(self) -> bool:
        return self.console.is_terminal

    def print(self, *objects: Any, **options: Any) -> None:
        self.console.print(*objects, **options)


err = _Stderr()


def _offset(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("give X,Y in millimetres, for example 0.5,-1") from None
    if not all(math.isfinite(v) and abs(v) <= 20 for v in (x, y)):
        raise click.BadParameter(
            "give X,Y in millimetres between -20 and 20, as read on the calibration page"
        )
    return (x, y)


OUT_OPTION = click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("out"),
    show_default=True,
    help="Output folder; each game goes to OUT/<game>/.",
)
PAPER_OPTION = click.option(
    "--paper",
    type=click.Choice(["a4", "letter", "a3", "b4"]),
    multiple=True,
    help="Paper size (repeatable). Default: a4 and letter.",
)
VERSION_OPTION = click.option(
    "--version", "version", metavar="ID", help="An older rule version of the game."
)


class _NoBar:
    """What a progress bar is asked where none is shown (stderr is no terminal): nothing."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def add_task(self, *_args: Any, **_kwargs: Any) -> int:
        return 0

    def update(self, *_args: Any, **_kwargs: Any) -> None:
        return None

    def advance(self, *_args: Any, **_kwargs: Any) -> None:
        return None


# rich shows a terminal's output on a pipe when one of these says so
_RICH_TERMINAL_SETTINGS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def progress_bar() -> Progress:
    """A progress bar on stderr, shown on a terminal only, gone when done (off a terminal,
    rich's progress bars are not even loaded)."""
    if not sys.stderr.isatty() and not any(os.environ.get(v) for v in _RICH_TERMINAL_SETTINGS):
        return cast("Progress", _NoBar())
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err.console,
        transient=True,
        disable=not err.is_terminal,
    )


def run(action: Callable[[], Any]) -> None:
    """Run a command: bad input is one message per problem and exit status 1."""
    try:
        action()
    except ErrorList as exc:
        for line in str(exc).splitlines():
            err.print(f"[red]error:[/red] {line}", markup=True, soft_wrap=True, highlight=False)
        sys.exit(1)
    except PrintgenError as exc:  # one problem; its further lines are its details
        first, *rest = str(exc).splitlines() or [""]
        err.print(f"[red]error:[/red] {first}", markup=True, soft_wrap=True, highlight=False)
        for line in rest:
            err.print(line, markup=False, soft_wrap=True, highlight=False)
        sys.exit(1)
    except OSError as exc:  # a read-only or full disk, a file where a folder should be
        name = f" {display_path(Path(exc.filename))}" if exc.filename else ""
        reason = exc.strerror or str(exc)
        err.print(
            f"[red]error:[/red] cannot write{name}: {reason}; nothing in the output folder "
            "was changed",
            markup=True,
            soft_wrap=True,
        )
        sys.exit(1)


_COMMAND = {"gc": "default"}  # the cycle collector: "tuned" by `command`, then "frozen"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Project folder holding components/ and layouts/.",
)
@click.version_option(package_name="printgen")
@click.pass_context
def cli(ctx: click.Context, root: Path) -> None:
    """Printable components and rulebooks for tabletop games, from one YAML description."""
    from printgen.build import Project

    if _COMMAND["gc"] == "tuned":
        # What the imports made (modules, classes, pydantic's validators) lives as long as
        # the process: the collector need not go through it again and again. Once, and
        # only in the `printgen` command's own process (`main`), not in a program or a
        # test session that calls the commands in its own process.
        gc.freeze()
        _COMMAND["gc"] = "frozen"
    ctx.obj = Project(root)


@cli.command(name="build")
@click.argument("games", nargs=-1)
@OUT_OPTION
@PAPER_OPTION
@click.option(
    "--lang",
    type=click.Choice(LANG_CHOICES),
    default="both",
    show_default=True,
    help="Language on the pieces: ja, en, or both on each piece.",
)
@click.option(
    "--duplex",
    type=click.Choice(["long", "short", "off"]),
    default="long",
    show_default=True,
    help="Flip edge of your duplex printer; 'off' prints fronts only.",
)
@click.option("--fold", is_flag=True, help="Fronts and backs side by side, to fold and glue.")
@click.option(
    "--duplex-offset",
    "offset",
    callback=_offset,
    metavar="X,Y",
    help="Front/back offset read on the calibration page (mm), cancelled on backs pages.",
)
@click.option("--no-png", is_flag=True, help="Skip the per-card PNG images.")
@click.option(
    "--tts",
    is_flag=True,
    help="Also write a Tabletop Simulator export in OUT/<game>/tts/ (deck sheets, saved object).",
)
@click.option(
    "--no-rulebook",
    is_flag=True,
    help="Skip the rulebooks (the last ones built are kept, and called stale if out of date).",
)
@click.option(
    "--draft",
    is_flag=True,
    help="Build the rulebooks even when worked examples fail, marked DRAFT.",
)
@click.option(
    "--version",
    "version",
    metavar="ID",
    help="Build an older rule version (into OUT/<game>@ID/).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on warnings (stale translations, undated rule changes, safe zone).",
)
@click.option(
    "--force", is_flag=True, help="Rebuild even when nothing changed since the last build."
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes for PNG export, and for writing a deck's PDF files side by side (default: 2).",
)
@click.option(
    "--vendor",
    "vendors",
    multiple=True,
    metavar="NAME",
    help="Also make a print shop's files, after its preflight, into OUT/<game>/NAME/ "
    "(layouts/vendors/NAME.yaml: thegamecrafter, makeplayingcards, drivethrucards, pdf-x); "
    "may be given more than once.",
)
@click.pass_obj
def build_cmd(
    project: Project,
    games: tuple[str, ...],
    out_dir: Path,
    paper: tuple[str, ...],
    lang: str,
    duplex: str,
    fold: bool,
    offset: tuple[float, float],
    no_png: bool,
    tts: bool,
    no_rulebook: bool,
    draft: bool,
    version: str | None,
    strict: bool,
    force: bool,
    jobs: int | None,
    vendors: tuple[str, ...],
) -> None:
    """Build print-and-play files for GAMES (default: every game)."""

    def action() -> None:
        from printgen.build import BuildOptions, build, work_units

        if out_dir.exists() and not out_dir.is_dir():
            raise PrintgenError(
                f"--out {display_path(out_dir)} is a file, not a folder: name a folder to build into"
            )
        opts = BuildOptions(
            papers=paper or ("a4", "letter"),
            lang=lang,
            duplex=duplex,
            fold=fold,
            offset=offset,
            png=not no_png,
            tts=tts,
            rulebooks=not no_rulebook,
            strict=strict,
            draft=draft,
            version=version,
            **({"jobs": jobs} if jobs else {}),
            vendors=tuple(dict.fromkeys(vendors)),
        )
        if opts.vendors:
            from printgen.vendors import load_vendor, vendor_failures

        for name in opts.vendors:  # an unknown vendor before the slow part
            load_vendor(project.layouts, name)
        names = project.select(games)
        with progress_bar() as bar:
            task = bar.add_task("loading and rendering", total=None)

            def started(rendered: list[Rendered]) -> None:  # the games drawn so far
                bar.update(task, total=sum(work_units(r, opts) for r in rendered))

            def step(description: str, n: int) -> None:
                bar.update(task, advance=n, description=description)

            results = build(project, names, out_dir, opts, step, started, force)
        report_builds(results, opts)
        if opts.vendors:
            failed = vendor_failures((r.game, r.folder) for r in results)
            if failed:
                raise ErrorList(failed)

    run(action)


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--lang", type=click.Choice(LANG_CHOICES), default="both", show_default=True)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on warnings (stale translations, undated rule changes, safe zone).",
)
@VERSION_OPTION
@click.pass_obj
def validate(
    project: Project, games: tuple[str, ...], lang: str, strict: bool, version: str | None
) -> None:
    """Check GAMES' data, layouts, rulebooks and worked examples: everything `build` checks,
    without writing anything."""

    def action() -> None:
        from printgen.build import validate_games

        names = project.select(games)
        problems: list[PrintgenError] = []
        for found in validate_games(project, names, lang, version, strict):
            if strict:
                problems.extend(PrintgenError(w) for w in found.warnings)
            else:
                show_warnings(found.warnings, False)
            problems.extend(found.errors)
            if not found.errors and not (strict and found.warnings):
                click.echo(f"ok {found.game}: {found.summary}")
        if problems:
            raise ErrorList(problems)

    run(action)


def report_builds(results: list[GameOutput], opts: BuildOptions) -> None:
    """What each game's build made, kept and changed; failing examples end with the ways
    forward and exit status 1 (unless the books were built as drafts)."""
    failing: list[GameOutput] = []
    for result in results:
        where = display_path(result.folder)
        if result.up_to_date:
            click.echo(f"{result.game}: up to date -> {where}/")
            continue
        show_warnings(result.warnings, False)
        files = result.files
        kinds: dict[str, int] = {}
        for f in files:
            if str(f["path"]) in result.written:
                kinds[str(f["kind"])] = kinds.get(str(f["kind"]), 0) + 1
        made = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "nothing"
        size = sum((result.folder / str(f["path"])).stat().st_size for f in files)
        kept = len(files) - len(result.written)
        click.echo(
            f"{result.game}: {len(files)} files, {size / 1e6:.1f} MB -> {where}/ (see "
            f"manifest.json); made: {made}" + (f"; {kept} unchanged" if kept else "")
        )
        if result.changes:
            click.echo(f"  changed since {result.since} ({where}/changes.json):")
            for line in result.changes[:30]:
                click.echo(f"    {line}")
            if len(result.changes) > 30:
                click.echo(f"    ... and {len(result.changes) - 30} more")
        if result.stale:
            reason = result.stale[0]["reason"]
            pdfs = [s["path"] for s in result.stale if s["path"].endswith(".pdf")]
            err.print(
                f"[yellow]stale:[/yellow] {result.game}: {', '.join(pdfs) or 'the rulebooks'} "
                f"(and their HTML) in {where}/ are {reason}: they are the last ones built, for "
                "the rules as they were then",
                markup=True,
                soft_wrap=True,
            )
        bad = [e for e in result.examples if not e.get("ok")]
        if bad and result.draft:
            err.print(
                f"[yellow]warning:[/yellow] {result.game}: the rulebooks are marked DRAFT: "
                f"{len(bad)} worked example(s) do not hold (listed on their first page)",
                markup=True,
                soft_wrap=True,
            )
        elif bad:
            failing.append(result)
    if failing:
        lines = []
        for result in failing:
            bad = [e for e in result.examples if not e.get("ok")]
            lines.append(f"{result.game}: {len(bad)} worked example(s) do not hold:")
            source = result.source or Path("components") / result.game
            game_dir = display_path(source)
            for e in bad:
                place = f"{game_dir}/{e['file']}"
                if e.get("line"):
                    place += f":{e['line']}:{e['column']}"
                lines.append(f"  FAIL {place}: {e['detail']}")
            books = (
                "the rulebooks were not rebuilt (the last ones built are kept, and stale)"
                if result.stale
                else "the rulebooks were not built"
            )
            lines.append(f"  The components were built; {books}. Either:")
            lines.append("    - fix each example above (what it expects at that step), or")
            if result.changed_data:
                lines.append(
                    f"    - change back what changed since {result.since} ("
                    + "; ".join(result.changed_data[:4])
                    + "), or"
                )
            else:
                lines.append("    - change the rules or values back, or")
            lines.append(
                "    - build the rulebooks anyway, marked DRAFT with these examples listed: "
                f"printgen build {result.game} --draft"
            )
        raise PrintgenError("\n".join(lines))


def plural(n: int, kind: str) -> str:
    """'1 card', '110 cards'."""
    return f"{n} {kind}" if n == 1 else f"{n} {kind}s"


def show_warnings(warnings: list[str], strict: bool) -> None:
    if warnings and strict:
        raise ErrorList([PrintgenError(w) for w in warnings])
    for warning in warnings:
        err.print(f"[yellow]warning:[/yellow] {warning}", markup=True, soft_wrap=True)


@cli.command(name="list")
@click.pass_obj
def list_cmd(project: Project) -> None:
    """List the games in components/."""

    def action() -> None:
        from printgen.build import load_all

        lib, loaded = load_all(project, project.select(()))
        del lib
        for game in loaded:
            info = game.info
            kinds: dict[str, int] = {}
            for piece in game.pieces:
                kinds[piece.kind] = kinds.get(piece.kind, 0) + piece.count
            pieces = ", ".join(plural(n, k) for k, n in kinds.items())
            players = (
                f"{info.players.min}-{info.players.max}"
                if info.players.max != info.players.min
                else str(info.players.min)
            )
            title = info.title.en
            if info.title.ja != info.title.en:
                title += f" / {info.title.ja}"
            click.echo(
                f"{game.id:20} {title}  ({players} players, {info.play_time_min} min, "
                f"rules {info.rule_version}): {pieces}"
            )

    run(action)


@cli.command()
@click.argument("games", nargs=-1)
@VERSION_OPTION
@click.option(
    "--coverage",
    is_flag=True,
    help="Also list each rule clause of each game with the worked examples that show it.",
)
@click.option(
    "--strict", is_flag=True, help="With --coverage: a rule no example shows is an error."
)
@click.option(
    "--claims/--no-claims",
    default=True,
    show_default=True,
    help="Also check the designer's claims (claims: in game.yaml) by simulation or exact count.",
)
@click.pass_obj
def check(
    project: Project,
    games: tuple[str, ...],
    version: str | None,
    coverage: bool,
    strict: bool,
    claims: bool,
) -> None:
    """Replay every worked example of GAMES under the rules engine (default: every game) and
    check each game's claims."""

    def action() -> None:
        from printgen import coverage as cov
        from printgen.build import load_all
        from printgen.engines import engine_entry
        from printgen.examples import check_game

        _lib, loaded = load_all(project, project.select(games), version)
        failed = passed = 0
        claims_failed = claims_held = claims_refuted = 0
        claim_problems: list[PrintgenError] = []
        per_game = []
        tables: list[cov.Coverage] = []
        for game in loaded:
            if engine_entry(game) is None:
                click.echo(f"--   {game.id}: no rules engine yet, examples not checked")
                continue
            results = check_game(game)
            if not results:
                click.echo(f"--   {game.id}: no worked examples")
            said: set[str] = set()
            for result in results:
                line = result.line()
                if line not in said:  # a card value no example can be played with: once
                    click.echo(line)
                said.add(line)
                failed += not result.ok
                passed += result.ok
            if results:
                per_game.append(f"{game.id} {sum(r.ok for r in results)}/{len(results)}")
            if coverage:
                tables.append(cov.coverage(game, results))
            if claims and game.info.claims:
                from printgen.balance.claims import check_claims

                try:
                    for claim in check_claims(game):
                        click.echo(claim.line())
                        claims_failed += not claim.ok
                        claims_held += claim.ok and claim.holds
                        claims_refuted += claim.ok and not claim.holds
                except PrintgenError as exc:
                    claim_problems.append(exc)
        for table in tables:
            click.echo("")
            for line in table.lines():
                click.echo(line)
        problems = [e for t in tables for e in cov.drift_errors(t)] + claim_problems
        if strict:
            problems += [e for t in tables for e in cov.uncovered_errors(t)]
        if failed:
            err.print(
                f"[red]{failed} of {failed + passed} example(s) failed[/red] "
                f"({', '.join(per_game)} hold)",
                markup=True,
                soft_wrap=True,
            )
        elif passed:
            click.echo(f"all {passed} worked examples hold under the rules ({', '.join(per_game)})")
        refuted = f", {claims_refuted} refuted as noted under refuted:" if claims_refuted else ""
        if claims_failed:
            err.print(
                f"[red]{claims_failed} of {claims_failed + claims_held + claims_refuted} "
                f"claim(s) failed[/red] ({claims_held} hold{refuted})",
                markup=True,
                soft_wrap=True,
            )
        elif claims_held or claims_refuted:
            click.echo(f"{claims_held} claim(s) hold{refuted}")
        if problems:
            raise ErrorList(problems)
        if failed or claims_failed:
            sys.exit(1)
        if tables:
            shown = sum(len(t.clauses) - len(t.uncovered) for t in tables)
            total = sum(len(t.clauses) for t in tables)
            click.echo(f"{shown} of {total} rules shown by a worked example")

    run(action)


def _generated(name: str, default: str, what: str, summary: str) -> None:
    """A command that writes files generated from printgen's models into a folder."""

    @cli.command(name=name, help=summary)
    @click.option(
        "--out",
        "out_dir",
        type=click.Path(file_okay=False, path_type=Path),
        help=f"Folder for {what} (default: {default}/ of the project).",
    )
    @click.pass_obj
    def command(project: Project, out_dir: Path | None) -> None:
        def action() -> None:
            from printgen import reference

            files = reference.doc_files(project.layouts) if name == "docs" else None
            out = out_dir or project.root / default
            reference.write_generated(out, files or reference.schema_files(), default)

        run(action)


_generated(
    "docs",
    "docs",
    "the reference",
    "Write the authoring reference (Markdown and pictures), generated from the models.",
)
_generated(
    "schema",
    "schemas",
    "the JSON Schemas",
    "Write a JSON Schema for every kind of YAML file (editor completion and checks).",
)


def loop_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options of `watch` and `preview` (a subset of `build`'s)."""
    for option in reversed(
        [
            click.argument("games", nargs=-1),
            OUT_OPTION,
            PAPER_OPTION,
            click.option("--lang", type=click.Choice(LANG_CHOICES), default="both"),
            click.option("--no-rulebook", is_flag=True, help="Components only."),
            click.option("--draft", is_flag=True, help="Rulebooks even when examples fail."),
        ]
    ):
        command = option(command)
    return command


def loop_setup(
    project: Project,
    games: tuple[str, ...],
    paper: tuple[str, ...],
    lang: str,
    no_rulebook: bool,
    draft: bool,
) -> tuple[list[str], BuildOptions]:
    from printgen.build import BuildOptions

    names = project.select(games)
    opts = BuildOptions(
        papers=paper or ("a4", "letter"), lang=lang, rulebooks=not no_rulebook, draft=draft
    )
    return names, opts


@cli.command(name="watch")
@loop_options
@click.pass_obj
def watch_cmd(
    project: Project,
    games: tuple[str, ...],
    out_dir: Path,
    paper: tuple[str, ...],
    lang: str,
    no_rulebook: bool,
    draft: bool,
) -> None:
    """Build GAMES, then rebuild on every save: the sheets and images of what changed
    first, then the rulebook editions whose text changed; one line per rebuild."""

    def action() -> None:
        from printgen.watch import watch

        names, opts = loop_setup(project, games, paper, lang, no_rulebook, draft)
        try:
            watch(project, names, out_dir, opts, click.echo)
        except KeyboardInterrupt:
            click.echo("stopped watching")

    run(action)


@cli.command()
@loop_options
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free."
)
@click.pass_obj
def preview(
    project: Project,
    games: tuple[str, ...],
    out_dir: Path,
    paper: tuple[str, ...],
    lang: str,
    no_rulebook: bool,
    draft: bool,
    port: int,
) -> None:
    """Show GAMES in a local web page (on 127.0.0.1 only) that reloads itself after each
    rebuild: every face and back with its count and values, the sheets, the rulebook
    editions, the examples' results and what changed, before and after. Rebuilds on save."""

    def action() -> None:
        from printgen.preview import serve
        from printgen.watch import watch

        names, opts = loop_setup(project, games, paper, lang, no_rulebook, draft)
        out_dir.mkdir(parents=True, exist_ok=True)
        try:
            server = serve(out_dir, port, project.root / "docs")
        except OSError as exc:
            raise PrintgenError(
                f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}; "
                "choose another with --port"
            ) from None
        server.start()
        click.echo(f"preview: {server.url} (Ctrl-C stops)")
        try:
            watch(project, names, out_dir, opts, click.echo)
        except KeyboardInterrupt:
            click.echo("stopped")
        finally:
            server.shutdown()

    run(action)


@cli.command(name="new")
@click.argument("game")
@click.option("--players", default="2-4", show_default=True, help="N, or MIN-MAX.")
@click.option(
    "--card-size",
    default="poker",
    show_default=True,
    help="A size of layouts/presets.yaml (poker, bridge, mini, tarot).",
)
@click.option("--date", default="", metavar="YYYY-MM-DD", help="Of rule version 1 (today).")
@click.pass_obj
def new_cmd(project: Project, game: str, players: str, card_size: str, date: str) -> None:
    """Start GAME: a deck with a back, a board, tokens, their layouts, a bilingual rulebook
    and a README, which build at once. Never overwrites."""

    def action() -> None:
        from printgen.skeleton import NewGame, new_game, parse_players

        request = NewGame(game, parse_players(players), card_size, date)
        for path in new_game(project.root, request):
            click.echo(f"wrote {display_path(path)}")
        root = "" if project.root.resolve() == Path.cwd().resolve() else f"--root {project.root} "
        click.echo(f"next: printgen {root}build {game}    # then printgen {root}preview {game}")

    run(action)


@cli.group(name="examples")
def examples_group() -> None:
    """Worked examples: the engine's event log of each, and drafts the engine writes."""


@examples_group.command(name="log")
@click.argument("game")
@click.argument("examples", nargs=-1)
@click.pass_obj
def examples_log(project: Project, game: str, examples: tuple[str, ...]) -> None:
    """Replay EXAMPLES of GAME (file names in examples/, default: all) and print each step's
    event log: every rule the engine applied, in words."""

    def action() -> None:
        from printgen.build import load_all
        from printgen.engines import engine_entry
        from printgen.examples import check_file, example_files
        from printgen.narration import log_line

        _lib, (loaded,) = load_all(project, project.select((game,)))
        if engine_entry(loaded) is None:
            raise PrintgenError(f"no rules engine plays {game}: its examples cannot be replayed")
        files = example_files(loaded)
        if not files:
            click.echo(f"--   {game}: no worked examples")
        chosen = [_example_path(loaded, files, name) for name in examples] or files
        for path in chosen:
            result = check_file(loaded, path)
            click.echo(f"{result.status:<4} {display_path(path)}")
            for step in result.steps:
                click.echo(f"  step {step.index}: {step.notation.replace(chr(10), ' / ')}")
                for event in step.events:
                    click.echo(f"    {log_line(loaded, event)}")
            if not result.ok:
                click.echo(f"  {result.line()}")

    run(action)


@examples_group.command(name="suggest")
@click.argument("game")
@click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="ID",
    help="A rule clause to show (repeatable). Default: every rule no example shows.",
)
@click.option(
    "--from",
    "source",
    metavar="EXAMPLE",
    help="Search from this example's setup and the positions its steps reach.",
)
@click.option("--seed", default=0, show_default=True, help="The search's seed.")
@click.option(
    "--print", "to_stdout", is_flag=True, help="Print the drafts instead of writing them."
)
@click.pass_obj
def examples_suggest(
    project: Project,
    game: str,
    rules: tuple[str, ...],
    source: str | None,
    seed: int,
    to_stdout: bool,
) -> None:
    """Let the engine write a draft worked example for each rule of GAME no example shows
    (or each --rule): a short play found by search, every expect filled from the engine,
    the narration told from its event log. Writes examples/NN-rule-ID.yaml (never over a
    file), replayed first: it passes printgen check as written."""

    def action() -> None:
        from printgen.build import load_all
        from printgen.suggest import suggest, write_draft

        _lib, (loaded,) = load_all(project, project.select((game,)))
        drafts, missed = suggest(loaded, rules, source, seed)
        if not drafts and not missed:
            click.echo(
                f"{game}: every rule is shown by a worked example; name one with --rule to "
                "draft another"
            )
            return
        for draft in drafts:
            if to_stdout:
                click.echo(draft.text)
            else:
                write_draft(loaded, draft)
                click.echo(
                    f"wrote {display_path(draft.path)}: rule {draft.rule} in {draft.steps} "
                    f"step(s) from {draft.source}; it holds (printgen check replays it)"
                )
            if draft.unphrased:
                err.print(
                    f"note: no phrase for {', '.join(draft.unphrased)} under narration.events "
                    f"in game.yaml: the draft names the rule instead",
                    soft_wrap=True,
                )
        if missed:
            raise PrintgenError(
                f"no play found that applies rule{'s' if len(missed) > 1 else ''} "
                f"{', '.join(missed)} within the search's bounds: a rule that only forbids is "
                "shown by a refused step (expect: {error: ...}); or search from an example "
                "that comes close (--from EXAMPLE)"
            )

    run(action)


def _example_path(game: Any, files: list[Path], name: str) -> Path:
    """An example named by file name, stem or number prefix (`07`)."""
    found = [p for p in files if name in (p.name, p.stem) or p.stem.split("-", 1)[0] == name]
    if len(found) != 1:
        known = ", ".join(p.stem for p in files)
        raise PrintgenError(f"{game.id} has no example '{name}' (examples: {known})")
    return found[0]


@cli.command()
@click.argument("game")
@click.option("--games", default=1000, show_default=True, help="Games per setting.")
@click.option(
    "--version",
    "versions",
    multiple=True,
    metavar="ID",
    help="A rule version (repeatable: compared with the first). Default: the current one.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A rule option (repeatable; one given with several values is compared).",
)
@click.option(
    "--players",
    multiple=True,
    type=click.IntRange(1, 100),
    help="Number of players (repeatable: compared).",
)
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    metavar="BOT[,BOT...]",
    help="One bot for every seat, or one per seat (seats rotate): random, heuristic, mcts, "
    "mcts:N (N playouts per decision).",
)
@click.option("--seed", default=1, show_default=True, help="The same seed plays the same games.")
@click.option(
    "--search",
    default="mcts",
    show_default=True,
    metavar="BOT",
    help="The search player whose strength against random players is measured.",
)
@click.option(
    "--strength-games",
    default=40,
    show_default=True,
    type=click.IntRange(0, 100_000),
    help="Games of the search player against random players (0: skip).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 512),
    help="Worker processes (default: every core).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run the games on a Dask distributed cluster (tcp://host:8786) instead.",
)
@click.option("--no-claims", is_flag=True, help="Skip the game's claims.")
@OUT_OPTION
@click.pass_obj
def balance(
    project: Project,
    game: str,
    games: int,
    versions: tuple[str, ...],
    options: tuple[str, ...],
    players: tuple[int, ...],
    bots: str,
    seed: int,
    search: str,
    strength_games: int,
    workers: int | None,
    scheduler: str | None,
    no_claims: bool,
    out_dir: Path,
) -> None:
    """Play GAME thousands of times with players that try to win: seat advantage, length,
    scores and each card's impact, with 95% intervals; several --version/--option/--players
    are compared. Writes OUT/<game>/balance/report.html and report.pdf."""

    def action() -> None:
        from printgen.balance.lab import Request, run_balance
        from printgen.balance.report import write_report
        from printgen.balance.show import show

        pairs = []
        for text in options:
            name, eq, value = text.partition("=")
            if not eq or not name or not value:
                raise PrintgenError(f"--option {text}: write NAME=VALUE (five_or_more=miss)")
            pairs.append((name.strip(), value.strip()))
        request = Request(
            versions=versions,
            options=tuple(pairs),
            players=players,
            bots=tuple(b.strip() for b in bots.split(",") if b.strip()),
            games=games,
            seed=seed,
            search=search,
            strength_games=strength_games,
            claims=not no_claims,
        )
        from printgen.build import load_all

        _lib, (loaded,) = load_all(project, project.select((game,)))
        command = request.command(loaded.id)
        with progress_bar() as bar:

            def progress(what: str, total: int) -> Callable[[int], None]:
                task = bar.add_task(what, total=total)
                return lambda n: bar.advance(task, n)

            report = run_balance(loaded, request, command, workers, scheduler, progress)
        from rich.console import Console

        out = Console(highlight=False)
        show(report, out if out.is_terminal else Console(highlight=False, width=120))
        html, pdf = write_report(report, out_dir / loaded.id / "balance")
        click.echo(f"wrote {display_path(html)} and {display_path(pdf)}")
        if any(not c.ok for c in report.claims):
            sys.exit(1)

    run(action)


@cli.command(name="rulebook-sync")
@click.argument("game")
@click.argument("sections", nargs=-1, required=True)
@click.pass_obj
def rulebook_sync(project: Project, game: str, sections: tuple[str, ...]) -> None:
    """Mark SECTIONS of GAME's rulebook as translated: both languages match now."""

    def action() -> None:
        from printgen.model import load_game
        from printgen.rulebook import sync_section

        loaded = load_game(project.components / project.select((game,))[0])
        for section in sections:
            sync_section(loaded, section)
            click.echo(f"{game}: section '{section}' marked as translated (ja and en match)")

    run(action)


def main(args: list[str] | None = None) -> None:
    """The `printgen` command: a usage mistake is one line naming the argument, status 2."""
    # printgen's data models are its own: no pydantic plugin observes them, so pydantic need
    # not look through every installed package's entry points for one (a tenth of start-up)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        cli.main(args=args, prog_name="printgen", standalone_mode=False)
    except click.exceptions.Abort:
        err.print("[red]error:[/red] stopped", markup=True)
        sys.exit(1)
    except click.UsageError as exc:
        hint = (
            f" (see: printgen {exc.ctx.command_path.split(' ', 1)[1]} --help)"
            if exc.ctx and " " in exc.ctx.command_path
            else " (see: printgen --help)"
        )
        err.print(f"[red]error:[/red] {exc.format_message()}{hint}", markup=True, soft_wrap=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        err.print(f"[red]error:[/red] {exc.format_message()}", markup=True, soft_wrap=True)
        sys.exit(exc.exit_code)


def command() -> None:
    """The `printgen` command's own process (the console script, `python -m printgen`):
    `main` with the cycle collector set for a build, which a program or a test session
    calling `main` in its own process keeps as it was."""
    # A build makes many small objects that live to its end (the game's data, each face's
    # drawing, the PDF's objects): with Python's default of a collection every 700 new
    # objects, the cycle collector took a tenth of a 200-card build and went through the
    # same living objects again and again. Collect the young objects every 200,000 and the
    # older ones 30 times less often, as mypy does for its own long build (every 50,000
    # and 10 times less often still took 12-15 ms of a 200-card build, 3%); garbage cycles
    # are still collected, a little later, and the peak memory of a 2,000-card build
    # stayed within 1%.
    if _COMMAND["gc"] == "default":
        gc.set_threshold(200_000, 30, 30)
        _COMMAND["gc"] = "tuned"
    status: object = 0
    try:
        main()
    except SystemExit as exc:
        status = exc.code
    _leave(status)


def _leave(status: object) -> NoReturn:
    """End the command's process without taking the interpreter apart object by object,
    which took 30 ms after a 200-card build (as mypy ends its own process): the exit
    handlers run (printgen's caches are saved then), the output is flushed, and the
    process ends with `status` as `sys.exit` would. While another thread or a child
    process still runs, the usual exit waits for them instead."""
    if threading.active_count() > 1 or _children_running():
        raise SystemExit(status)
    atexit._run_exitfuncs()
    if status is None:
        code = 0
    elif isinstance(status, int):
        code = status
    else:  # sys.exit("message"): the message on stderr, status 1
        with contextlib.suppress(OSError, ValueError):
            print(status, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(code)


def _children_running() -> bool:
    processes = sys.modules.get("multiprocessing")
    return processes is not None and bool(processes.active_children())
