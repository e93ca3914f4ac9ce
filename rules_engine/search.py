"""Finding a short play that applies a rule: the search behind `printgen examples suggest`.

Given starting positions (an example's setup, or the position after some of its steps), the
search looks for the shortest sequence of steps whose event log names a target rule:

1. breadth-first over short sequences: every step of every player and of chance is a
   branch; where there are more than `width` choices, `width` of them are picked with a
   seeded generator (chance outcomes the rules cannot tell apart count once, through the
   engine's `chance_classes`, so that a rare roll is as likely to be tried as a common
   one); the frontier is thinned to `beam` positions per depth, again by the seed;
2. then seeded random play (`playouts` games of at most `max_steps` steps) from each start,
   for rules that only come up late (a round's end, the game's end).

Among the plays found for a rule, the one with the fewest steps wins, then the start with
the fewest pieces, then the earlier start. Everything is driven by `seed`: the same
inputs find the same plays, on every machine.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine.core import (
    CHANCE,
    Engine,
    Event,
    IllegalActionError,
    State,
    Step,
    apply_step,
    joint,
    recording,
)


@dataclass(frozen=True)
class Start:
    """A position to search from: the engine (its version and options), the state, and how
    it was reached (`prefix`: the number of the source example's steps played first)."""

    label: str
    engine: Engine[Any]
    state: State[Any]
    prefix: int = 0
    pieces: int = 0
    rank: int = 0  # a smaller rank is preferred on equal steps and pieces (the current rules)


@dataclass(frozen=True)
class Found:
    """A play from `start` whose last step applied `rule`: the new steps and their events."""

    rule: str
    start: Start
    steps: tuple[Step[Any], ...]
    events: tuple[tuple[Event, ...], ...] = field(default=(), compare=False)

    @property
    def cost(self) -> tuple[int, int, int]:
        return (self.start.rank, self.start.prefix + len(self.steps), self.start.pieces)


@dataclass(frozen=True)
class Budget:
    """How hard to look (bounded, so that a search always ends)."""

    max_depth: int = 4
    width: int = 10
    beam: int = 150
    playouts: int = 120
    max_steps: int = 400


def pieces_in(setup: Any) -> int:
    """How many things a setup names (the leaves of its lists and mappings)."""
    if isinstance(setup, Mapping):
        return sum(pieces_in(v) for v in setup.values())
    if isinstance(setup, list | tuple):
        return sum(pieces_in(v) for v in setup) or 1
    return 1


def _choices(state: State[Any], engine: Engine[Any], rng: random.Random, width: int) -> list[Any]:
    """Up to `width` steps to try from `state` (all of them when there are few)."""
    players = state.current_players()
    if not players:
        return []
    if len(players) == 1:
        player = players[0]
        if player == CHANCE:
            classes = getattr(engine, "chance_classes", None)
            grouped = classes(state) if classes else None
            if grouped is not None:  # (outcome, weight) pairs, possibly a lazy sequence
                n = len(grouped)
                if n <= width:
                    return [o for o, _ in grouped]
                return [grouped[i][0] for i in sorted(rng.sample(range(n), width))]
        outcomes: Sequence[Any] = state.legal_actions(player)
        n = len(outcomes)
        if n <= width:
            return list(outcomes)
        return [outcomes[i] for i in sorted(rng.sample(range(n), width))]
    per_player = [state.legal_actions(p) for p in players]
    if any(len(a) == 0 for a in per_player):
        return []
    total = 1
    for actions in per_player:
        total *= len(actions)
    picks: list[Any] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(min(width, total) * 3):
        index = tuple(rng.randrange(len(a)) for a in per_player)
        if index in seen:
            continue
        seen.add(index)
        picks.append(joint([a[i] for a, i in zip(per_player, index, strict=True)]))
        if len(picks) >= width:
            break
    return picks


def _play(state: State[Any], step: Any) -> tuple[Event, ...] | None:
    """Apply a step, recording its events; None when the rules refuse it."""
    try:
        with recording() as log:
            apply_step(state, step)
    except IllegalActionError:
        return None
    return tuple(log.items)


def search(
    starts: Iterable[Start],
    targets: Iterable[str],
    seed: int = 0,
    budget: Budget | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Found]:
    """The best play found for each target rule (a rule no play applies is absent)."""
    budget = budget or Budget()
    wanted = set(targets)
    best: dict[str, Found] = {}

    def consider(start: Start, path: list[Any], logs: list[tuple[Event, ...]]) -> None:
        rules = {e.rule for e in logs[-1]} & wanted
        for rule in rules:
            found = Found(rule, start, tuple(path), tuple(logs))
            if rule not in best or found.cost < best[rule].cost:
                best[rule] = found

    ordered = sorted(starts, key=lambda s: (s.rank, s.prefix, s.pieces))
    for number, start in enumerate(ordered):
        if progress:
            progress(start.label)
        rng = random.Random(f"{seed}:{number}:{start.label}")
        # 1. breadth-first over short sequences
        frontier: list[tuple[State[Any], list[Any], list[tuple[Event, ...]]]] = [
            (start.state, [], [])
        ]
        for depth in range(1, budget.max_depth + 1):
            here = (start.rank, start.prefix + depth, start.pieces)
            if wanted <= best.keys() and max(best[r].cost for r in wanted) <= here:
                break  # nothing deeper from here can beat what was found
            nxt: list[tuple[State[Any], list[Any], list[tuple[Event, ...]]]] = []
            for state, path, logs in frontier:
                for step in _choices(state, start.engine, rng, budget.width):
                    child = state.clone()
                    events = _play(child, step)
                    if events is None:
                        continue
                    new_path, new_logs = [*path, step], [*logs, events]
                    consider(start, new_path, new_logs)
                    if not child.is_terminal():
                        nxt.append((child, new_path, new_logs))
            if len(nxt) > budget.beam:
                keep = sorted(rng.sample(range(len(nxt)), budget.beam))
                nxt = [nxt[i] for i in keep]
            frontier = nxt
            if not frontier:
                break
        # 2. seeded random play, for what only comes late
        missing = wanted - best.keys()
        if not missing or start.prefix:
            continue
        for _ in range(budget.playouts):
            game = start.state.clone()
            played: list[Any] = []
            told: list[tuple[Event, ...]] = []
            while not game.is_terminal() and len(played) < budget.max_steps:
                options = _choices(game, start.engine, rng, 1)
                if not options:
                    break
                events = _play(game, options[0])
                if events is None:
                    break
                played.append(options[0])
                told.append(events)
                consider(start, played, told)
            missing = wanted - best.keys()
            if not missing:
                break
    return {rule: shorten(found) for rule, found in best.items()}


def shorten(found: Found, rounds: int = 3) -> Found:
    """The play with every step left out that it can do without: a step is dropped when the
    rest still plays (every step legal) and still applies the rule at its last step.
    Random play wanders; this keeps what the rule needs."""
    steps = list(found.steps)
    for _ in range(rounds):
        dropped = False
        i = 0
        while i < len(steps) - 1:
            trial = steps[:i] + steps[i + 1 :]
            logs = _replayed(found.start, trial, found.rule)
            if logs is not None:
                steps = trial
                dropped = True
            else:
                i += 1
        if not dropped:
            break
    if len(steps) == len(found.steps):
        return found
    logs = _replayed(found.start, steps, found.rule)
    assert logs is not None
    return Found(found.rule, found.start, tuple(steps), tuple(logs))


def _replayed(start: Start, steps: Sequence[Any], rule: str) -> list[tuple[Event, ...]] | None:
    """The events of each step, when all of them play and the last one applies `rule`."""
    state = start.state.clone()
    logs: list[tuple[Event, ...]] = []
    for step in steps:
        if state.is_terminal():
            return None
        events = _play(state, step)
        if events is None:
            return None
        logs.append(events)
    if not logs or all(e.rule != rule for e in logs[-1]):
        return None
    return logs


def states_along(
    engine: Engine[Any], initial: State[Any], steps: Sequence[Any]
) -> list[State[Any]]:
    """The state after each of `steps` (a step is a list of parsed steps told as one, or
    None for one that plays nothing); a refused action leaves the state as it was, as in a
    worked example that expects the refusal."""
    states = []
    state = initial.clone()
    for group in steps:
        for step in group or ():
            with contextlib.suppress(IllegalActionError):
                apply_step(state, step)
        states.append(state.clone())
    return states
