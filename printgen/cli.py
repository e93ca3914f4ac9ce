"""The `printgen` command."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from printgen.build import (
    BuildOptions,
    Project,
    Rendered,
    build,
    load_all,
    validate_games,
    work_units,
)
from printgen.errors import ErrorList, PrintgenError, display_path
from printgen.render import LANG_CHOICES

err = Console(stderr=True, highlight=False)


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


def run(action: Callable[[], Any]) -> None:
    """Run a command: bad input is one message per problem and exit status 1."""
    try:
        action()
    except PrintgenError as exc:
        for line in str(exc).splitlines():
            err.print(f"[red]error:[/red] {line}", markup=True, soft_wrap=True)
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
    ctx.obj = Project(root)


@cli.command(name="build")
@click.argument("games", nargs=-1)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("out"),
    show_default=True,
    help="Output folder; each game goes to OUT/<game>/.",
)
@click.option(
    "--paper",
    type=click.Choice(["a4", "letter", "a3", "b4"]),
    multiple=True,
    help="Paper size (repeatable). Default: a4 and letter.",
)
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
@click.option("--no-rulebook", is_flag=True, help="Skip the rulebooks.")
@click.option("--strict", is_flag=True, help="Fail when a rulebook translation is stale.")
@click.option(
    "--force", is_flag=True, help="Rebuild even when nothing changed since the last build."
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes for PNG export (default: 2).",
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
    no_rulebook: bool,
    strict: bool,
    force: bool,
    jobs: int | None,
) -> None:
    """Build print-and-play files for GAMES (default: every game)."""

    def action() -> None:
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
            rulebooks=not no_rulebook,
            strict=strict,
            **({"jobs": jobs} if jobs else {}),
        )
        names = project.select(games)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as bar:
            task = bar.add_task("loading and rendering", total=None)

            def started(rendered: list[Rendered]) -> None:
                bar.update(task, total=sum(work_units(r, opts) for r in rendered), completed=0)

            def step(description: str, n: int) -> None:
                bar.update(task, advance=n, description=description)

            results = build(project, names, out_dir, opts, step, started, force)
        for result in results:
            if result.up_to_date:
                click.echo(f"{result.game}: up to date -> {display_path(result.folder)}/")
                continue
            show_warnings(result.warnings, False)
            files = result.files
            size = sum((result.folder / str(f["path"])).stat().st_size for f in files)
            kinds: dict[str, int] = {}
            for f in files:
                kinds[str(f["kind"])] = kinds.get(str(f["kind"]), 0) + 1
            summary = ", ".join(f"{n} {k}" for k, n in kinds.items())
            click.echo(
                f"{result.game}: {len(files)} files ({summary}), {size / 1e6:.1f} MB "
                f"-> {display_path(result.folder)}/ (see manifest.json)"
            )

    run(action)


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--lang", type=click.Choice(LANG_CHOICES), default="both", show_default=True)
@click.option("--strict", is_flag=True, help="Fail on warnings (stale translations, safe zone).")
@click.pass_obj
def validate(project: Project, games: tuple[str, ...], lang: str, strict: bool) -> None:
    """Check GAMES' data, layouts, rulebooks and worked examples: everything `build` checks,
    without writing anything."""

    def action() -> None:
        for game_id, summary, warnings in validate_games(project, project.select(games), lang):
            show_warnings(warnings, strict)
            click.echo(f"ok {game_id}: {summary}")

    run(action)


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
        lib, loaded = load_all(project, project.select(()))
        del lib
        for game in loaded:
            info = game.info
            kinds: dict[str, int] = {}
            for piece in game.pieces:
                kinds[piece.kind] = kinds.get(piece.kind, 0) + piece.count
            pieces = ", ".join(f"{n} {k}" for k, n in kinds.items())
            players = (
                f"{info.players.min}-{info.players.max}"
                if info.players.max != info.players.min
                else str(info.players.min)
            )
            click.echo(
                f"{game.id:20} {info.title.en} / {info.title.ja}  ({players} players, "
                f"{info.play_time_min} min, rules {info.rule_version}): {pieces}"
            )

    run(action)


@cli.command()
@click.argument("games", nargs=-1)
@click.pass_obj
def check(project: Project, games: tuple[str, ...]) -> None:
    """Replay every worked example of GAMES under the rules engine (default: every game)."""

    def action() -> None:
        from printgen.engines import engine_entry
        from printgen.examples import check_game

        _lib, loaded = load_all(project, project.select(games))
        failed = 0
        for game in loaded:
            if engine_entry(game) is None:
                click.echo(f"--   {game.id}: no rules engine yet, examples not checked")
                continue
            results = check_game(game)
            if not results:
                click.echo(f"--   {game.id}: no worked examples")
            for result in results:
                click.echo(result.line())
                failed += not result.ok
        if failed:
            err.print(f"[red]{failed} example(s) failed[/red]")
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
