"""The sweep: many seeded games of one game under one or more settings.

Game `i` of a setting draws chance from `Random("<seed>:<i>:chance")` and player p's
choices from `Random("<seed>:<i>:<p>")`: every game is a function of its setting and index
alone, so the results are the same whether one process plays them, a process pool or a
Dask cluster (chunks come back in any order and are put in index order).  Different
settings with the same seed share their dice as far as their games run alike (common
random numbers), which sharpens a comparison between rule versions.

With several bots, seats rotate: in game `i` seat p is played by `bots[(p + i) % n]`, so
each bot sits in every seat equally often.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from rules_engine.bots import Bot, NoEnd, Outcome, RandomBot, play_counted
from rules_engine.core import Engine, OptionValue
from rules_engine.mcts import MCTSBot
from rules_engine.params import GameData
from rules_engine.registry import engine_for

MAX_GAMES = 1_000_000
"""At most this many games per setting (a bound on untrusted input)."""
MAX_ITERATIONS = 100_000
"""At most this many playouts per decision for a search player."""
MAX_STEPS = 20_000
"""A game still going after this many steps is stopped and counted as unfinished (a draw):
players who block each other for ever must not stall a sweep."""
DEFAULT_ITERATIONS = 200


class BalanceError(ValueError):
    """A setting that cannot be played: an unknown bot, a wrong number of bots..."""


@dataclass(frozen=True)
class Setting:
    """What one sweep plays: rule version and options, players, bots, games and seed."""

    version: str | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()
    players: int | None = None
    bots: tuple[str, ...] = ("heuristic",)
    games: int = 1000
    seed: int = 1

    def label(self, engine: Engine[Any]) -> str:
        """A short name: the rule version, then what differs from the defaults."""
        parts = [f"rules {engine.version}"]
        parts += [f"{k}={v}" for k, v in self.options if k != "players"]
        if "players" in engine.options:
            parts.append(f"{engine.options['players']} players")
        return ", ".join(parts)

    def engine_options(self) -> dict[str, OptionValue]:
        options: dict[str, OptionValue] = dict(self.options)
        if self.players is not None:
            options["players"] = self.players
        return options


@dataclass(frozen=True)
class GameRecord:
    """One game played: who sat where, how it ended, how long it ran."""

    index: int
    seats: tuple[str, ...]  # the bot of each seat
    returns: tuple[float, ...]
    actions: int  # players' actions (each of a joint step counted)
    outcome: Outcome
    unfinished: bool = False  # stopped after MAX_STEPS: counted as a draw

    @property
    def win_shares(self) -> tuple[float, ...]:
        """1 for a sole winner; winners who share split 1; when nobody wins, all do."""
        top = max(self.returns)
        winners = [p for p, r in enumerate(self.returns) if r == top]
        return tuple(1 / len(winners) if p in winners else 0.0 for p in range(len(self.returns)))

    @property
    def drawn(self) -> bool:
        """No sole winner."""
        top = max(self.returns)
        return sum(1 for r in self.returns if r == top) > 1


@dataclass
class Sweep:
    """A setting's engine and its games, in index order."""

    setting: Setting
    engine: Engine[Any]
    records: list[GameRecord] = field(default_factory=list)


def load_engine(data: GameData, setting: Setting) -> Engine[Any]:
    entry = engine_for(data.id)
    if entry is None:
        raise BalanceError(f"{data.id}: no rules engine plays this game yet")
    return entry.load(data, setting.version, setting.engine_options())


def heuristic_class(engine: Engine[Any]) -> type[Any] | None:
    """The game's rule-of-thumb player (`rules_engine/<game>/bots.py: Heuristic`), if any."""
    package = type(engine).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError:
        return None
    found: type[Any] | None = getattr(module, "Heuristic", None)
    return found


BOT_KINDS = ("random", "heuristic", "mcts")


def make_bot(engine: Engine[Any], spec: str) -> Bot:
    """A player from its name: `random`, `heuristic`, `mcts` or `mcts:N` (N playouts per
    decision; by default the game's own number, else 200), searching as the game's engine
    says (`SEARCH`)."""
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        return RandomBot(engine)
    if kind == "heuristic" and not arg:
        found = heuristic_class(engine)
        if found is None:
            raise BalanceError(f"{engine.game_id} has no heuristic player")
        bot: Bot = found(engine)
        return bot
    if kind == "mcts":
        # The game's own search settings (`SEARCH` on its engine: `iterations` by default,
        # playout `depth`, `exploration`, `heuristic_playouts` to play the playouts with its
        # rule-of-thumb player).
        settings = dict(getattr(engine, "SEARCH", {}))
        iterations = int(settings.pop("iterations", DEFAULT_ITERATIONS))
        if arg:
            if not arg.isdigit() or not 1 <= int(arg) <= MAX_ITERATIONS:
                raise BalanceError(
                    f"bot '{spec}': give the playouts per decision as a whole number from 1 "
                    f"to {MAX_ITERATIONS:,} (mcts:200)"
                )
            iterations = int(arg)
        found = heuristic_class(engine)
        prior = found(engine) if found is not None else None
        playout = prior if settings.pop("heuristic_playouts", False) else None
        return MCTSBot(engine, iterations, name=spec, prior=prior, playout=playout, **settings)
    raise BalanceError(
        f"unknown bot '{spec}': choose random, heuristic, mcts or mcts:N (N playouts per decision)"
    )


def seat_bots(setting: Setting, players: int, index: int) -> tuple[str, ...]:
    """The bot of each seat in game `index` (rotated when there are several)."""
    bots = setting.bots
    if len(bots) == 1:
        return bots * players
    return tuple(bots[(p + index) % len(bots)] for p in range(players))


def check_setting(data: GameData, setting: Setting) -> Engine[Any]:
    """The setting's engine, its bots made once (a clear error before any game is played)."""
    if not 1 <= setting.games <= MAX_GAMES:
        raise BalanceError(f"--games must be between 1 and {MAX_GAMES:,}, got {setting.games}")
    engine = load_engine(data, setting)
    players = engine.new_initial_state().num_players
    if len(setting.bots) not in (1, players):
        raise BalanceError(
            f"{len(setting.bots)} bots for {players} players: give one bot for every seat, or "
            "one per seat (seats rotate from game to game)"
        )
    for spec in dict.fromkeys(setting.bots):
        make_bot(engine, spec)
    return engine


def play_one(
    engine: Engine[Any], bots: Mapping[str, Bot], setting: Setting, index: int
) -> GameRecord:
    """Game `index` of a setting (a function of the setting and the index alone)."""
    state = engine.new_initial_state()
    seats = seat_bots(setting, state.num_players, index)
    chance = random.Random(f"{setting.seed}:{index}:chance")
    choices = [random.Random(f"{setting.seed}:{index}:{p}") for p in range(len(seats))]
    try:
        state, actions = play_counted(
            engine, [bots[s] for s in seats], chance, choices, state, MAX_STEPS
        )
    except NoEnd as stopped:
        n = stopped.state.num_players
        try:
            outcome = engine.outcome(stopped.state)  # type: ignore[attr-defined]
        except Exception:  # an engine's figures may need a finished game
            outcome = Outcome(scores=(0.0,) * n)
        return GameRecord(index, seats, (0.0,) * n, stopped.actions, outcome, unfinished=True)
    outcome = engine.outcome(state)  # type: ignore[attr-defined]
    return GameRecord(index, seats, tuple(state.returns()), actions, outcome)


# --- workers ----------------------------------------------------------------------------------

_WORKER_CACHE: dict[tuple[str, Setting], tuple[Engine[Any], dict[str, Bot]]] = {}


def play_chunk(data: GameData, setting: Setting, start: int, stop: int) -> list[GameRecord]:
    """Games `start` to `stop - 1` of a setting (what a worker process runs)."""
    key = (data.id, setting)
    found = _WORKER_CACHE.get(key)
    if found is None or found[0].game_id != data.id:
        engine = load_engine(data, setting)
        bots = {spec: make_bot(engine, spec) for spec in dict.fromkeys(setting.bots)}
        found = _WORKER_CACHE[key] = (engine, bots)
    engine, bots = found
    return [play_one(engine, bots, setting, i) for i in range(start, stop)]


def chunks(games: int, workers: int) -> Iterator[tuple[int, int]]:
    """Index ranges small enough to spread over the workers and show progress."""
    size = max(1, min(500, games // (workers * 8) or 1))
    for start in range(0, games, size):
        yield start, min(games, start + size)


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


Progress = Callable[[int], None]


def sweep(
    data: GameData,
    settings: Sequence[Setting],
    workers: int | None = None,
    scheduler: str | None = None,
    advance: Progress | None = None,
) -> list[Sweep]:
    """Play every setting's games; the same records whatever `workers` or `scheduler`."""
    sweeps = [Sweep(s, check_setting(data, s)) for s in settings]
    workers = workers or default_workers()
    jobs = [
        (k, start, stop) for k, s in enumerate(settings) for start, stop in chunks(s.games, workers)
    ]
    found: dict[tuple[int, int], list[GameRecord]] = {}

    def done(job: tuple[int, int, int], records: list[GameRecord]) -> None:
        found[(job[0], job[1])] = records
        if advance is not None:
            advance(len(records))

    if scheduler:
        _on_dask(data, settings, jobs, scheduler, done)
    elif workers == 1:
        for job in jobs:
            k, start, stop = job
            done(job, play_chunk(data, settings[k], start, stop))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: dict[Future[list[GameRecord]], tuple[int, int, int]] = {
                pool.submit(play_chunk, data, settings[k], start, stop): (k, start, stop)
                for k, start, stop in jobs
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(pending.pop(future), future.result())
    for k, start, _stop in sorted(jobs):
        sweeps[k].records.extend(found[(k, start)])
    return sweeps


def _on_dask(
    data: GameData,
    settings: Sequence[Setting],
    jobs: list[tuple[int, int, int]],
    scheduler: str,
    done: Callable[[tuple[int, int, int], list[GameRecord]], None],
) -> None:
    """The same jobs on a Dask distributed cluster (`--scheduler tcp://host:8786`)."""
    from distributed import Client, as_completed

    with Client(scheduler, timeout="20s") as client:  # type: ignore[no-untyped-call]
        shared = client.scatter(data, broadcast=True)
        futures = {
            client.submit(play_chunk, shared, settings[k], start, stop, pure=False): (
                k,
                start,
                stop,
            )
            for k, start, stop in jobs
        }
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            done(futures[future], future.result())
