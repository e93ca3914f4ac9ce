"""`printgen balance GAME`: the settings a designer asks for, swept, summarised, compared,
with the game's claims, the search player's strength and the engine's exact odds."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from printgen.balance.claims import check_claims
from printgen.balance.report import BalanceReport, ExactTable, Strength
from printgen.balance.run import BalanceError, Setting, check_setting, load_engine, sweep
from printgen.balance.stats import compare, summarise
from printgen.engines import engine_entry, game_data, rule_options
from printgen.errors import PrintgenError
from printgen.model import Game
from rules_engine.core import OptionValue
from rules_engine.params import GameData

STRENGTH_OPPONENT = "random"


@dataclass(frozen=True)
class Request:
    """What the designer asked for on the command line."""

    versions: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()  # as written: name, value text
    players: tuple[int, ...] = ()
    bots: tuple[str, ...] = ("heuristic",)
    games: int = 1000
    seed: int = 1
    search: str = "mcts"
    strength_games: int = 40
    claims: bool = True

    def command(self, game_id: str) -> str:
        """The command line that asks for this (what decides the results, nothing else)."""
        parts = ["printgen balance", game_id, f"--games {self.games}"]
        parts += [f"--version {v}" for v in self.versions]
        parts += [f"--option {k}={v}" for k, v in self.options]
        parts += [f"--players {n}" for n in self.players]
        parts += [f"--bots {','.join(self.bots)}", f"--seed {self.seed}"]
        if self.strength_games:
            parts += [f"--search {self.search}", f"--strength-games {self.strength_games}"]
        else:
            parts.append("--strength-games 0")
        if not self.claims:
            parts.append("--no-claims")
        return " ".join(parts)


def option_value(game: Game, name: str, text: str) -> OptionValue:
    """A rule option's value from its text (`true`, `2`, `miss`), as the game declares it."""
    for option in rule_options(game):
        if option.name == name:
            for value in option.allowed:
                if text in (str(value), str(value).lower()):
                    return value
            allowed = ", ".join(
                str(v).lower() if isinstance(v, bool) else str(v) for v in option.allowed
            )
            raise PrintgenError(f"--option {name}={text}: {name} is one of {allowed}")
    known = ", ".join(o.name for o in rule_options(game)) or "none"
    raise PrintgenError(
        f"--option {name}: {game.id} has no rule option '{name}' (options: {known})"
    )


def settings_for(game: Game, request: Request) -> list[Setting]:
    """Every combination of the versions, option values and player counts asked for (an
    option given several times is swept over its values)."""
    versions: Sequence[str | None] = request.versions or (None,)
    known = [v.id for v in game.info.rule_versions]
    for v in request.versions:
        if known and v not in known:
            raise PrintgenError(f"--version {v}: {game.id} has rule versions {', '.join(known)}")
    by_name: dict[str, list[OptionValue]] = {}
    for name, text in request.options:
        by_name.setdefault(name, []).append(option_value(game, name, text))
    names = list(by_name)
    combos = list(itertools.product(*(dict.fromkeys(by_name[n]) for n in names))) or [()]
    players: Sequence[int | None] = request.players or (None,)
    out = []
    for version, combo, count in itertools.product(versions, combos, players):
        out.append(
            Setting(
                version=version,
                options=tuple(sorted(zip(names, combo, strict=True))),
                players=count,
                bots=request.bots,
                games=request.games,
                seed=request.seed,
            )
        )
    return out


def run_balance(
    game: Game,
    request: Request,
    command: str,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
) -> BalanceReport:
    """Sweep every setting, compare each with the first, check the claims, measure the
    search player against random players and count the engine's exact odds.

    `progress(what, total)` gives a function to call with the number of games done."""
    if engine_entry(game) is None:
        raise PrintgenError(f"{game.id}: no rules engine plays this game yet")
    data = game_data(game)
    settings = settings_for(game, request)
    engines = []
    for setting in settings:
        try:
            engines.append(check_setting(data, setting))
        except (BalanceError, ValueError) as exc:
            raise PrintgenError(str(exc)) from None

    def bar(what: str, total: int) -> Callable[[int], None] | None:
        return progress(what, total) if progress else None

    total = sum(s.games for s in settings)
    sweeps = sweep(data, settings, workers, scheduler, bar("games", total))
    summaries = [summarise(s) for s in sweeps]
    changes = [
        (summaries[0].label, later.label, compare(summaries[0], later)) for later in summaries[1:]
    ]
    strength: list[Strength] = []
    if request.strength_games:
        # under the current rules when they are among the settings, else the first setting
        now = game.info.rule_version
        base = next((s for s in settings if (s.version or now) == now), settings[0])
        strength = measure_strength(data, base, request, workers, scheduler, bar)
    claims = []
    if request.claims and game.info.claims:
        claims = check_claims(game, workers, scheduler, bar("claims", _claim_games(game)))
    exact = list(dict.fromkeys(t for e in engines for t in exact_tables(e)))
    return BalanceReport(
        game_id=game.id,
        title=game.info.title.en,
        title_ja=game.info.title.ja,
        command=command,
        summaries=summaries,
        settings=settings,
        changes=changes,
        claims=claims,
        strength=strength,
        exact=exact,
    )


def _claim_games(game: Game) -> int:
    total = 0
    for claim in game.info.claims:
        if not claim.exact:
            total += claim.games * (2 if claim.baseline else 1)
    return total


def measure_strength(
    data: GameData,
    base: Setting,
    request: Request,
    workers: int | None,
    scheduler: str | None,
    bar: Callable[[str, int], Callable[[int], None] | None],
) -> list[Strength]:
    """The heuristic and the search player, each against random players (one of them in an
    N-player game against N-1 random ones), seats rotated."""
    engine = load_engine(data, base)
    players = engine.new_initial_state().num_players
    out = []
    for bot, games in (
        ("heuristic", max(request.strength_games, 400)),
        (request.search, request.strength_games),
    ):
        setting = Setting(
            version=base.version,
            options=base.options,
            players=base.players,
            bots=(bot,) + (STRENGTH_OPPONENT,) * (players - 1),
            games=games - games % players or players,
            seed=base.seed,
        )
        try:
            check_setting(data, setting)
        except BalanceError:
            continue  # no heuristic player for this game
        advance = bar(f"{bot} vs random", setting.games)
        (result,) = sweep(data, [setting], workers, scheduler, advance)
        summary = summarise(result)
        out.append(Strength(bot, players, summary.games, summary.bot_win[bot], summary.label))
    return out


def exact_tables(engine: object) -> list[ExactTable]:
    """The engine's exact odds, as tables (an engine gives them with `exact_tables()`)."""
    make = getattr(engine, "exact_tables", None)
    if make is None:
        return []
    return [ExactTable(*t) if not isinstance(t, ExactTable) else t for t in make()]
