"""Worked examples: YAML files that replay a piece of play and state what must be true.

An example lives in `components/<game>/examples/*.yaml`:

    title: {ja: ..., en: ...}
    version: "1.1"                 # rule version (default: the game's current one)
    options: {five_or_more: miss}  # rule options this reading needs (default: defaults)
    setup: {...}                   # the game's own setup keys (see its engine)
    steps:
      - do: roll 3 3 5 6           # a step in the game's notation (joint: ' ; '), or a
                                   # list of steps told as one
        say: {ja: ..., en: ...}    # the narrative the rulebook prints
        expect: {sunk: {blue: [3]}}
      - exhaust: chance            # every outcome of this chance step, and every
        say: {ja: ..., en: ...}    # choice that follows it, checked exhaustively
        expect: {outcomes: 279936, min: {last_attack_sinkings: 1}}
      - say: {ja: ..., en: ...}      # no action: tell what the rules do by themselves
        expect: {...}
    expect: {...}                  # after the last step

Every value under an `expect` key is compared exactly with what the engine computes.
Keys of `expect` after a `do` step are the engine's queries (`Engine.query_names()`) plus:
`error` (the step must be refused with exactly this message; the state stays as it was),
`legal` (the formatted legal actions of the one player to act), `to_act` and `terminal`.
After an `exhaust` step: `outcomes` (number of chance outcomes), `leaves` (end states after
every choice), `min` / `max` (a numeric query's extremes over the leaves) and `count`
(how many leaves give each value of a query).  An `exhaust` step leaves the state as it
was, so later steps can force one outcome.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from printgen.errors import ErrorList, Location, PrintgenError, display_path
from printgen.model import Game, Strict, Text
from printgen.source import Document, Key, load_yaml, validate
from rules_engine.core import (
    CHANCE,
    Diagram,
    Engine,
    IllegalActionError,
    NotationError,
    OptionError,
    SetupError,
    State,
    apply_step,
    format_step,
    parse_step,
)
from rules_engine.registry import engine_for

GENERIC_QUERIES = ("error", "legal", "to_act", "terminal")
EXHAUST_KEYS = ("outcomes", "leaves", "min", "max", "count")
MAX_LISTED = 1000  # `legal` and exhaustive choices refuse to list more actions than this


class StepSpec(Strict):
    do: str | list[str] | None = None
    exhaust: Literal["chance"] | None = None
    say: Text
    expect: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> StepSpec:
        if self.do is not None and self.exhaust is not None:
            raise ValueError("a step has 'do' (actions) or 'exhaust: chance', not both")
        return self


class ExampleSpec(Strict):
    title: Text
    about: Text | None = None
    version: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    setup: dict[str, Any] = Field(default_factory=dict)
    steps: list[StepSpec] = Field(default_factory=list)
    expect: dict[str, Any] | None = None


@dataclass(frozen=True)
class Example:
    """A loaded example file."""

    path: Path
    doc: Document
    spec: ExampleSpec

    def where(self, key: Key) -> Location:
        return self.doc.where(key)


@dataclass(frozen=True)
class StepTrace:
    """One replayed step, for the rulebook: its notation, narrative and the facts after it."""

    index: int  # 1-based
    notation: str
    say: Text
    facts: Mapping[str, Any]
    diagram: Diagram | None = None  # the state after the step, when the engine draws one


@dataclass(frozen=True)
class ExampleResult:
    """The outcome of checking one example file."""

    game_id: str
    file: Path
    ok: bool
    title: Text | None = None
    version: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    where: Location | None = None
    step: int | None = None  # 1-based; None: the final `expect` or the file itself
    key: str | None = None
    expected: Any = None
    actual: Any = None
    message: str = ""
    steps: tuple[StepTrace, ...] = ()

    @property
    def status(self) -> str:
        return "ok" if self.ok else "FAIL"

    def line(self) -> str:
        """One output line: `ok   path  title [reading]` or `FAIL file:line:col: ...`."""
        if self.ok:
            reading = f"rules {self.version}"
            if self.options:
                reading += ", " + ", ".join(f"{k}={v}" for k, v in self.options.items())
            title = self.title.en if self.title else ""
            return f"ok   {display_path(self.file)}  {title} [{reading}]"
        place = str(self.where) if self.where else display_path(self.file)
        at = f"step {self.step}: " if self.step else ""
        if self.key is not None:
            return (
                f"FAIL {place}: {at}{self.key}: expected {_show(self.expected)}, "
                f"got {_show(self.actual)}"
            )
        return f"FAIL {place}: {at}{self.message}"


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def example_files(game: Game) -> list[Path]:
    return sorted((game.folder / "examples").glob("*.yaml"))


def load_example(path: Path) -> Example:
    """Read and validate an example file (errors are `file:line:col: message`); the file
    must lie in its game's folder (a link that leads elsewhere is refused)."""
    doc = load_yaml(path, [path.parent.parent])
    spec = validate(ExampleSpec, doc)
    return Example(path, doc, spec)


def check_game(game: Game) -> list[ExampleResult]:
    """Check every example of a game; a file that cannot be read is one FAIL result."""
    results = []
    for path in example_files(game):
        try:
            results.append(run_example(game, load_example(path)))
        except PrintgenError as exc:
            where = exc.where
            message = exc.message
            if isinstance(exc, ErrorList) and exc.errors:
                where = exc.errors[0].where
                message = "; ".join(e.message for e in exc.errors)
            results.append(ExampleResult(game.id, path, False, where=where, message=message))
    return results


def check_file(game: Game, path: Path) -> ExampleResult:
    """Check one example file (a file that cannot be read raises PrintgenError)."""
    return run_example(game, load_example(path))


def build_engine(game: Game, example: Example) -> Engine[Any]:
    entry = engine_for(game.id)
    if entry is None:
        raise PrintgenError(f"no rules engine plays {game.id}", example.where(()))
    spec = example.spec
    versions = [v.id for v in game.info.rule_versions]
    if spec.version is not None and versions and spec.version not in versions:
        raise PrintgenError(
            f"unknown rule version '{spec.version}' (versions: {', '.join(versions)})",
            example.where(("version",)),
        )
    try:
        return entry.load(game, spec.version, spec.options)
    except OptionError as exc:
        key = ("options", exc.name)
        known = exc.name in entry.option_names
        where = example.where(key) if known else example.doc.where_key(key)
        raise PrintgenError(str(exc), where) from None
    except ValueError as exc:  # the game's data does not fit its engine
        raise PrintgenError(f"{game.id} data: {exc}", example.where(())) from None


def run_example(game: Game, example: Example) -> ExampleResult:
    """Replay an example through the game's engine and compare every `expect` value."""
    spec = example.spec
    engine = build_engine(game, example)
    names = set(engine.query_names())
    _check_keys(example, engine, names)
    base = ExampleResult(
        game.id,
        example.path,
        True,
        title=spec.title,
        version=engine.version,
        options={k: v for k, v in engine.options.items() if k in spec.options},
    )
    try:
        state = engine.setup_state(spec.setup)
    except SetupError as exc:
        raise PrintgenError(f"setup: {exc}", example.where(("setup", *exc.key))) from None
    traces: list[StepTrace] = []

    def fail(
        step: int | None, key: Key, name: str | None, expected: Any, actual: Any, msg: str = ""
    ) -> ExampleResult:
        return _replace(
            base,
            ok=False,
            where=example.where(key),
            step=step,
            key=name,
            expected=expected,
            actual=actual,
            message=msg,
            steps=tuple(traces),
        )

    for i, step in enumerate(spec.steps):
        number = i + 1
        expect = step.expect or {}
        if step.exhaust is None:
            texts = [] if step.do is None else [step.do] if isinstance(step.do, str) else step.do
            keys: list[Key] = (
                [("steps", i, "do")]
                if isinstance(step.do, str)
                else [("steps", i, "do", j) for j in range(len(texts))]
            )
            error = None
            for text, key in zip(texts, keys, strict=True):
                try:
                    parsed = parse_step(engine, text)
                except NotationError as exc:
                    raise PrintgenError(str(exc), example.where(key)) from None
                try:
                    apply_step(state, parsed)
                except IllegalActionError as exc:
                    error = str(exc)
                    if "error" not in expect or key != keys[-1]:
                        return fail(number, key, None, None, None, f"{text}: {error}")
            if "error" in expect and not _same(expect["error"], error):
                return fail(
                    number, ("steps", i, "expect", "error"), "error", expect["error"], error
                )
            for name, expected in expect.items():
                if name == "error":
                    continue
                actual = _fact(engine, state, name)
                if not _same(expected, actual):
                    return fail(number, ("steps", i, "expect", name), name, expected, actual)
            notation = "\n".join(texts)
            drawn = engine.diagram(state) if hasattr(engine, "diagram") else None
            traces.append(
                StepTrace(number, notation, step.say, _facts(engine, state, names), drawn)
            )
        else:
            found = _exhaust(engine, state, expect, spec)
            if isinstance(found, str):
                return fail(number, ("steps", i, "exhaust"), None, None, None, found)
            for name, expected in expect.items():
                actual = found[name]
                if not _same(expected, actual):
                    return fail(number, ("steps", i, "expect", name), name, expected, actual)
            traces.append(StepTrace(number, "exhaust chance", step.say, found))
    for name, expected in (spec.expect or {}).items():
        actual = _fact(engine, state, name)
        if not _same(expected, actual):
            return fail(None, ("expect", name), name, expected, actual)
    return _replace(base, steps=tuple(traces))


def _replace(result: ExampleResult, **changes: Any) -> ExampleResult:
    from dataclasses import replace

    return replace(result, **changes)


def _check_keys(example: Example, engine: Engine[Any], names: set[str]) -> None:
    """Unknown `expect` keys are errors in the file, not silent passes."""
    known = sorted(names | set(GENERIC_QUERIES))

    def check(expect: Mapping[str, Any] | None, key: Key, allowed: set[str], numeric: bool) -> None:
        for name, value in (expect or {}).items():
            if name not in allowed:
                listing = ", ".join(sorted(allowed))
                raise PrintgenError(
                    f"unknown expect key '{name}' (known: {listing})",
                    example.doc.where_key((*key, name)),
                )
            if numeric and name in ("min", "max", "count"):
                if not isinstance(value, Mapping) or not value:
                    raise PrintgenError(
                        f"'{name}' maps queries to values", example.where((*key, name))
                    )
                for query in value:
                    if query not in names:
                        raise PrintgenError(
                            f"unknown query '{query}' (known: {', '.join(sorted(names))})",
                            example.doc.where_key((*key, name, query)),
                        )

    for i, step in enumerate(example.spec.steps):
        if step.exhaust is None:
            check(step.expect, ("steps", i, "expect"), set(known), False)
        else:
            check(step.expect, ("steps", i, "expect"), set(EXHAUST_KEYS), True)
    final = set(known) - {"error"}
    check(example.spec.expect, ("expect",), final, False)


def _fact(engine: Engine[Any], state: State[Any], name: str) -> Any:
    if name == "terminal":
        return state.is_terminal()
    if name == "to_act":
        return [engine.player_name(p) for p in state.current_players()]
    if name == "legal":
        players = state.current_players()
        if len(players) != 1:
            return f"{len(players)} players act at once"
        actions = state.legal_actions(players[0])
        if len(actions) > MAX_LISTED:
            return f"{len(actions)} legal actions (too many to list)"
        return [engine.format_action(a) for a in actions]
    return _plain(engine.query(state, name))


def _facts(engine: Engine[Any], state: State[Any], names: set[str]) -> dict[str, Any]:
    return {name: _plain(engine.query(state, name)) for name in sorted(names)}


def _plain(value: Any) -> Any:
    """Tuples become lists, so values compare with what YAML gives."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _same(expected: Any, actual: Any) -> bool:
    """Exact equality that does not let True pass for 1 (or 1.0 for 1)."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(
            _same(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(
            _same(expected[k], actual[k]) for k in expected
        )
    return bool(expected == actual)


# --- exhaustive steps ---------------------------------------------------------------------

_EXHAUST_CACHE: dict[str, tuple[int, int, dict[str, Counter[Any]]]] = {}


def _exhaust(
    engine: Engine[Any], state: State[Any], expect: Mapping[str, Any], spec: ExampleSpec
) -> dict[str, Any] | str:
    """Every outcome of the chance step now, then every choice until the next chance step,
    simultaneous step or the end; aggregate the requested queries over those end states.

    Results are cached per (game, version, options, setup, history, queries): the same
    enumeration is not run twice in one process.
    """
    if state.current_players() != (CHANCE,):
        return "'exhaust: chance' needs a chance step now (dice, a shuffle or a draw)"
    wanted: set[str] = set()
    for name in ("min", "max", "count"):
        wanted.update(expect.get(name, {}))
    key = json.dumps(
        [
            engine.game_id,
            engine.version,
            sorted((k, str(v)) for k, v in engine.options.items()),
            spec.setup,
            [format_step(engine, s) for s in state.history],
            sorted(wanted),
        ],
        sort_keys=True,
        default=str,
    )
    raw = _EXHAUST_CACHE.get(key)
    if raw is None:
        try:
            raw = _enumerate(engine, state, wanted)
        except _TooMany as exc:
            return str(exc)
        _EXHAUST_CACHE[key] = raw
    outcomes, leaves, counts = raw
    found: dict[str, Any] = {"outcomes": outcomes, "leaves": leaves}
    for name in ("min", "max"):
        if name in expect:
            pick = min if name == "min" else max
            found[name] = {q: pick(counts[q]) for q in expect[name]}
    if "count" in expect:
        found["count"] = {q: dict(sorted(counts[q].items())) for q in expect["count"]}
    return found


class _TooMany(Exception):
    pass


def _enumerate(
    engine: Engine[Any], state: State[Any], wanted: set[str]
) -> tuple[int, int, dict[str, Counter[Any]]]:
    outcomes = 0
    leaves = 0
    counts: dict[str, Counter[Any]] = {name: Counter() for name in wanted}
    query = engine.query
    # An engine may group chance outcomes the rules cannot tell apart (dice in another
    # order) and give each class its weight; every count below is weighted alike.
    classes = getattr(engine, "chance_classes", None)
    grouped = classes(state) if classes else None
    weighted = grouped if grouped is not None else [(o, 1) for o in state.legal_actions(CHANCE)]
    for outcome, weight in weighted:
        outcomes += weight
        child = state.clone()
        child.apply(outcome)
        stack = [child]
        while stack:
            node = stack.pop()
            players = node.current_players()
            if len(players) == 1 and players[0] != CHANCE:
                actions = node.legal_actions(players[0])
                if len(actions) > MAX_LISTED:
                    raise _TooMany(
                        f"{len(actions)} choices after a chance outcome: too many to enumerate"
                    )
                for action in actions[:-1]:
                    nxt = node.clone()
                    nxt.apply(action)
                    stack.append(nxt)
                node.apply(actions[-1])
                stack.append(node)
                continue
            leaves += weight
            for name in wanted:
                counts[name][query(node, name)] += weight
    return outcomes, leaves, counts
