"""Worked examples, replayed: a piece of play and the facts that must hold after it.

The engine side of worked examples (printgen reads the files, see `printgen.examples`):
`replay(engine, example)` plays an in-memory `WorkedExample` and reports the first step
and key that differ, as a path of keys into the example (`("steps", 3, "expect", "sunk")`)
that printgen turns into file:line:col. The file format, for reference:

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
(how many leaves give each value of a query) and `probability` (a true/false query's exact
chance over the outcomes' odds, `{sinks_any: 35/36}`: the share of outcomes after which it
holds whatever the players choose).  An `exhaust` step leaves the state as it was, so later
steps can force one outcome.  Chance outcomes count by their odds: an engine whose chance
actions are not equally likely (or that groups alike ones) gives `chance_classes(state)`,
each outcome with its weight.

Every step records the rules it applied (the engine's event log, `StepTrace.events`): a
refused action counts for the rule that refused it, an `exhaust` step for every rule applied
anywhere in its enumeration.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rules_engine.core import (
    CHANCE,
    Bilingual,
    Diagram,
    Engine,
    Event,
    IllegalActionError,
    NotationError,
    SetupError,
    State,
    apply_step,
    format_step,
    parse_step,
    recording,
)

GENERIC_QUERIES = ("error", "legal", "to_act", "terminal")
EXHAUST_KEYS = ("outcomes", "leaves", "min", "max", "count", "probability")
AGGREGATES = ("min", "max", "count", "probability")
MAX_LISTED = 1000  # `legal` and exhaustive choices refuse to list more actions than this

Key = tuple[str | int, ...]


@dataclass(frozen=True)
class ExampleStep:
    """One step: actions in notation (`do`, one text or a list told as one), or every
    outcome of a chance step (`exhaust`), or neither; and what must hold after it."""

    say: Bilingual
    do: str | tuple[str, ...] | None = None
    exhaust: bool = False
    expect: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class WorkedExample:
    """An example in memory: the setup, the steps and the final facts."""

    title: Bilingual
    steps: tuple[ExampleStep, ...] = ()
    version: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] = field(default_factory=dict)
    expect: Mapping[str, Any] | None = None


class ExampleError(ValueError):
    """The example cannot be replayed as written (unknown notation, an unknown expect key,
    a bad setup); `key` leads to the value at fault, or to the key itself (`at_key`)."""

    def __init__(self, key: Key, message: str, at_key: bool = False) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.at_key = at_key


@dataclass(frozen=True)
class StepTrace:
    """One replayed step, for the rulebook: its notation, narrative and the facts after it."""

    index: int  # 1-based
    notation: str
    say: Bilingual
    facts: Mapping[str, Any]
    diagram: Diagram | None = None  # the state after the step, when the engine draws one
    # The rules the step applied, in order (a refused action: its rule, `refused`); an
    # `exhaust` step: one event per rule applied anywhere in the enumeration.
    events: tuple[Event, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The ids of the rules the step applied, each once, in order."""
        return tuple(dict.fromkeys(e.rule for e in self.events))


@dataclass(frozen=True)
class Replay:
    """How a replay went: ok, or the first difference (its step, the key path to the
    expectation, the expected and actual values or a message)."""

    ok: bool
    version: str
    options: Mapping[str, Any] = field(default_factory=dict)
    key: Key = ()
    step: int | None = None  # 1-based; None: the final `expect`
    name: str | None = None
    expected: Any = None
    actual: Any = None
    message: str = ""
    steps: tuple[StepTrace, ...] = ()
    setup_diagram: Diagram | None = None  # the state the setup makes, drawn

    @property
    def rules(self) -> tuple[str, ...]:
        """The ids of the rules the replayed steps applied, each once, in order."""
        return tuple(dict.fromkeys(r for step in self.steps for r in step.rules))


def replay(engine: Engine[Any], example: WorkedExample) -> Replay:
    """Replay an example on `engine` (built for its version and options) and compare every
    `expect` value; an example that cannot be replayed as written raises ExampleError."""
    spec = example
    names = set(engine.query_names())
    _check_keys(example, names)
    base = Replay(
        True,
        engine.version,
        options={k: v for k, v in engine.options.items() if k in spec.options},
    )
    try:
        state = engine.setup_state(dict(spec.setup))
    except SetupError as exc:
        raise ExampleError(("setup", *exc.key), f"setup: {exc}") from None
    if hasattr(engine, "diagram"):
        base = replace(base, setup_diagram=engine.diagram(state))
    traces: list[StepTrace] = []

    def fail(
        step: int | None, key: Key, name: str | None, expected: Any, actual: Any, msg: str = ""
    ) -> Replay:
        return replace(
            base,
            ok=False,
            key=key,
            step=step,
            name=name,
            expected=expected,
            actual=actual,
            message=msg,
            steps=tuple(traces),
        )

    for i, step in enumerate(spec.steps):
        number = i + 1
        expect = step.expect or {}
        if not step.exhaust:
            texts = [] if step.do is None else [step.do] if isinstance(step.do, str) else step.do
            keys: list[Key] = (
                [("steps", i, "do")]
                if isinstance(step.do, str)
                else [("steps", i, "do", j) for j in range(len(texts))]
            )
            error = None
            events: list[Event] = []
            for text, key in zip(texts, keys, strict=True):
                try:
                    parsed = parse_step(engine, text)
                except NotationError as exc:
                    raise ExampleError(key, str(exc)) from None
                try:
                    with recording() as log:
                        apply_step(state, parsed)
                except IllegalActionError as exc:
                    error = str(exc)
                    if "error" not in expect or key != keys[-1]:
                        return fail(number, key, None, None, None, f"{text}: {error}")
                    events.append(
                        Event(exc.rule, "refused", {"action": text, "message": exc.message})
                    )
                else:
                    events.extend(log.items)
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
                StepTrace(
                    number,
                    notation,
                    step.say,
                    _facts(engine, state, names),
                    drawn,
                    tuple(events),
                )
            )
        else:
            found = _exhaust(engine, state, expect, spec.setup)
            if isinstance(found, str):
                return fail(number, ("steps", i, "exhaust"), None, None, None, found)
            for name, expected in expect.items():
                actual = found[name]
                if name == "probability":
                    for query, wanted in expected.items():
                        if probability_of(wanted) != probability_of(actual[query]):
                            return fail(
                                number,
                                ("steps", i, "expect", name, query),
                                f"probability of {query}",
                                wanted,
                                actual[query],
                            )
                elif not _same(expected, actual):
                    return fail(number, ("steps", i, "expect", name), name, expected, actual)
            applied = found.pop("rules")
            counted = tuple(Event(rule, "exhausted", {"times": n}) for rule, n in applied.items())
            traces.append(StepTrace(number, "exhaust chance", step.say, found, None, counted))
    for name, expected in (spec.expect or {}).items():
        actual = _fact(engine, state, name)
        if not _same(expected, actual):
            return fail(None, ("expect", name), name, expected, actual)
    return replace(base, steps=tuple(traces))


def _check_keys(example: WorkedExample, names: set[str]) -> None:
    """Unknown `expect` keys are errors in the file, not silent passes."""
    known = sorted(names | set(GENERIC_QUERIES))

    def check(expect: Mapping[str, Any] | None, key: Key, allowed: set[str], numeric: bool) -> None:
        for name, value in (expect or {}).items():
            if name not in allowed:
                listing = ", ".join(sorted(allowed))
                raise ExampleError(
                    (*key, name), f"unknown expect key '{name}' (known: {listing})", True
                )
            if numeric and name in AGGREGATES:
                if not isinstance(value, Mapping) or not value:
                    raise ExampleError((*key, name), f"'{name}' maps queries to values")
                for query, wanted in value.items():
                    if query not in names:
                        raise ExampleError(
                            (*key, name, query),
                            f"unknown query '{query}' (known: {', '.join(sorted(names))})",
                            True,
                        )
                    if name == "probability" and probability_of(wanted) is None:
                        raise ExampleError(
                            (*key, name, query),
                            f"a probability is exact: a fraction like 35/36, or 0 or 1 "
                            f"(got {wanted!r})",
                        )

    for i, step in enumerate(example.steps):
        if not step.exhaust:
            check(step.expect, ("steps", i, "expect"), set(known), False)
        else:
            check(step.expect, ("steps", i, "expect"), set(EXHAUST_KEYS), True)
    final = set(known) - {"error"}
    check(example.expect, ("expect",), final, False)


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


def facts(engine: Engine[Any], state: State[Any], names: set[str]) -> dict[str, Any]:
    """Every named query's value now, as plain data (what a step's trace keeps)."""
    return {name: _plain(engine.query(state, name)) for name in sorted(names)}


_facts = facts


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

_EXHAUST_CACHE: dict[str, _Enumerated] = {}


def probability_of(value: Any) -> Fraction | None:
    """An exact probability as written in an example: 0, 1 or a fraction `35/36` (a
    string); None for anything else (a float is not exact)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value) if value in (0, 1) else None
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*/\s*\d+\s*|\s*[01]\s*", value):
        try:
            found = Fraction(value.replace(" ", ""))
        except ZeroDivisionError:
            return None
        return found if 0 <= found <= 1 else None
    return None


def _fraction_text(value: Fraction) -> str | int:
    """A probability as an example writes it: 0, 1 or `35/36`."""
    if value.denominator == 1:
        return int(value)
    return f"{value.numerator}/{value.denominator}"


def _exhaust(
    engine: Engine[Any], state: State[Any], expect: Mapping[str, Any], setup: Mapping[str, Any]
) -> dict[str, Any] | str:
    """Every outcome of the chance step now, then every choice until the next chance step,
    simultaneous step or the end; aggregate the requested queries over those end states.

    `probability` is over the chance outcomes, weighted by their odds: the share of
    outcomes after which the (true/false) query holds whatever the players then choose;
    when the choices decide it, the answer says so instead of a number.

    Results are cached per (game, version, options, setup, history, queries): the same
    enumeration is not run twice in one process.
    """
    if state.current_players() != (CHANCE,):
        return "'exhaust: chance' needs a chance step now (dice, a shuffle or a draw)"
    wanted: set[str] = set()
    for name in ("min", "max", "count"):
        wanted.update(expect.get(name, {}))
    chances = set(expect.get("probability", {}))
    key = json.dumps(
        [
            engine.game_id,
            engine.version,
            sorted((k, str(v)) for k, v in engine.options.items()),
            setup,
            [format_step(engine, s) for s in state.history],
            sorted(wanted),
            sorted(chances),
        ],
        sort_keys=True,
        default=str,
    )
    raw = _EXHAUST_CACHE.get(key)
    if raw is None:
        try:
            raw = _enumerate(engine, state, wanted, chances)
        except _TooMany as exc:
            return str(exc)
        _EXHAUST_CACHE[key] = raw
    found: dict[str, Any] = {"outcomes": raw.outcomes, "leaves": raw.leaves}
    for name in ("min", "max"):
        if name in expect:
            pick = min if name == "min" else max
            found[name] = {q: pick(raw.counts[q]) for q in expect[name]}
    if "count" in expect:
        found["count"] = {q: dict(sorted(raw.counts[q].items())) for q in expect["count"]}
    if chances:
        answers: dict[str, Any] = {}
        for q in sorted(chances):
            if raw.not_bool.get(q) is not None:
                return (
                    f"probability of '{q}': the query is not true/false "
                    f"(it gave {raw.not_bool[q]!r}); ask for a query that is"
                )
            if raw.mixed[q]:
                low = Fraction(raw.sure[q], raw.outcomes)
                high = Fraction(raw.sure[q] + raw.mixed[q], raw.outcomes)
                return (
                    f"probability of '{q}': the players' choices after the chance step decide "
                    f"it in {raw.mixed[q]:,} of {raw.outcomes:,} outcomes (between "
                    f"{_fraction_text(low)} and {_fraction_text(high)}); ask about a fact the "
                    f"chance step alone decides"
                )
            answers[q] = _fraction_text(Fraction(raw.sure[q], raw.outcomes))
        found["probability"] = answers
    found["rules"] = dict(raw.rules)
    return found


def chance_probabilities(
    engine: Engine[Any], state: State[Any], queries: list[str], setup: Mapping[str, Any]
) -> dict[str, Fraction]:
    """The exact probability of each true/false query over every outcome of the chance step
    now, by the outcomes' odds (as `probability` after `exhaust: chance`); a ValueError says
    why it cannot be counted (no chance step now, a query the choices decide...)."""
    found = _exhaust(engine, state, {"probability": dict.fromkeys(queries)}, setup)
    if isinstance(found, str):
        raise ValueError(found)
    return {q: Fraction(str(v)) for q, v in found["probability"].items()}


@dataclass
class _Enumerated:
    outcomes: int
    leaves: int
    counts: dict[str, Counter[Any]]
    sure: Counter[str]  # weight of outcomes after which a probability query always holds
    mixed: Counter[str]  # weight of outcomes after which it holds for some choices only
    not_bool: dict[str, Any]  # a value that is not true/false, per probability query
    rules: Mapping[str, int]  # rule id -> times applied in the whole enumeration


class _TooMany(Exception):
    pass


def _enumerate(
    engine: Engine[Any], state: State[Any], wanted: set[str], chances: set[str] | None = None
) -> _Enumerated:
    outcomes = 0
    leaves = 0
    counts: dict[str, Counter[Any]] = {name: Counter() for name in wanted}
    sure: Counter[str] = Counter()
    mixed: Counter[str] = Counter()
    not_bool: dict[str, Any] = {}
    chances = chances or set()
    query = engine.query
    # An engine may group chance outcomes the rules cannot tell apart (dice in another
    # order) and give each class its weight; every count below is weighted alike.
    classes = getattr(engine, "chance_classes", None)
    grouped = classes(state) if classes else None
    weighted = grouped if grouped is not None else [(o, 1) for o in state.legal_actions(CHANCE)]
    with recording(count_only=True) as log:
        for outcome, weight in weighted:
            outcomes += weight
            child = state.clone()
            child.apply(outcome)
            stack = [child]
            seen: dict[str, set[bool]] = {q: set() for q in chances}
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
                for name in chances:
                    value = query(node, name)
                    if not isinstance(value, bool):
                        not_bool.setdefault(name, value)
                    seen[name].add(bool(value))
            for name, values in seen.items():
                if values == {True}:
                    sure[name] += weight
                elif len(values) > 1:
                    mixed[name] += weight
    assert log.counts is not None
    rules = dict(sorted(log.counts.items()))
    return _Enumerated(outcomes, leaves, counts, sure, mixed, not_bool, rules)
