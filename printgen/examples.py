"""Worked examples as files: `components/<game>/examples/*.yaml`, read and checked.

printgen reads and validates an example file (every value keeps its file:line:col),
hands the engine an in-memory `rules_engine.examples.WorkedExample`, and turns the
engine's report (the step and the key path that differ) back into a place in the file.
The file format is described in `rules_engine.examples`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from printgen.engines import game_data
from printgen.errors import ErrorList, Location, PrintgenError, display_path
from printgen.model import Game, Strict, Text
from printgen.source import Document, Key, load_yaml, validate
from rules_engine.core import Bilingual, Diagram, Engine, OptionError
from rules_engine.examples import (
    ExampleError,
    ExampleStep,
    StepTrace,
    WorkedExample,
    replay,
)
from rules_engine.params import DataError
from rules_engine.registry import engine_for


class StepSpec(Strict):
    do: str | list[str] | None = None
    """The move(s) played, in the game's notation (`roll 3 3 5 6`); a list is told as one step."""
    exhaust: Literal["chance"] | None = None
    """`chance`: check every outcome of this chance step (and every choice after it) instead of
    playing one."""
    say: Text
    """The narrative the rulebook prints for this step, in both languages."""
    expect: dict[str, Any] | None = None
    """Facts that must hold after the step (the engine's query names: `{sunk: {blue: [3]}}`);
    compared exactly. After `exhaust: chance`: `outcomes`, `leaves`, `min`/`max`/`count` of a
    query over the end states, and `probability` of a true/false query as an exact fraction
    (`{sinks_any: 35/36}`) over the chance outcomes' odds."""

    @model_validator(mode="after")
    def _one_kind(self) -> StepSpec:
        if self.do is not None and self.exhaust is not None:
            raise ValueError("a step has 'do' (actions) or 'exhaust: chance', not both")
        return self


class ExampleSpec(Strict):
    title: Text
    """The example's title in both languages."""
    about: Text | None = None
    """An introduction printed before the steps, in both languages (optional)."""
    version: str | None = None
    """The rule version the example is played at (`"1.1"`); default: the current one."""
    options: dict[str, Any] = Field(default_factory=dict)
    """Rule options this reading needs (`{five_or_more: miss}`); default: each option's default."""
    setup: dict[str, Any] = Field(default_factory=dict)
    """The starting position, in the game engine's own setup keys."""
    steps: list[StepSpec] = Field(default_factory=list)
    """The moves, in order, each with its narrative and the facts after it."""
    expect: dict[str, Any] | None = None
    """Facts that must hold after the last step."""


@dataclass(frozen=True)
class Example:
    """A loaded example file."""

    path: Path
    doc: Document
    spec: ExampleSpec

    def where(self, key: Key) -> Location:
        return self.doc.where(key)


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
    setup_diagram: Diagram | None = None  # the state the setup makes, drawn
    about: Text | None = None  # the example's introduction, for the rulebook

    @property
    def rules(self) -> tuple[str, ...]:
        """The ids of the rules its replayed steps applied (its event log), each once."""
        return tuple(dict.fromkeys(r for step in self.steps for r in step.rules))

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
        return f"FAIL {place}: {self.detail()}"

    def detail(self) -> str:
        """What does not hold: the step, the first differing key, expected and found."""
        at = f"step {self.step}: " if self.step else ""
        if self.key is not None:
            return f"{at}{self.key}: expected {_show(self.expected)}, got {_show(self.actual)}"
        return f"{at}{self.message}"

    def record(self, folder: Path) -> dict[str, Any]:
        """The result for the build's manifest: paths relative to the game's folder."""
        where = self.where if self.where and self.where.file == self.file else None
        return {
            "file": self.file.relative_to(folder).as_posix(),
            "line": where.line if where else 0,
            "column": where.column if where else 0,
            "title": {"ja": self.title.ja, "en": self.title.en} if self.title else None,
            "version": self.version,
            "ok": self.ok,
            "detail": "" if self.ok else self.detail(),
        }


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


def check_game(game: Game, bad_input_raises: bool = False) -> list[ExampleResult]:
    """Check every example of a game. A file that cannot be read (or names an option or a
    version the game does not have) is one FAIL result, or, with `bad_input_raises`, an
    error (all such files together): bad input, not an example the rules refute."""
    results = []
    errors: list[PrintgenError] = []
    for path in example_files(game):
        try:
            example = load_example(path)
            build_engine(game, example)
        except PrintgenError as exc:
            if bad_input_raises:
                errors.extend(exc.errors if isinstance(exc, ErrorList) else [exc])
            else:
                results.append(_failed(game, path, exc))
            continue
        try:
            results.append(run_example(game, example))
        except PrintgenError as exc:  # a step the rules do not allow
            results.append(_failed(game, path, exc))
    if errors:
        raise ErrorList(errors)
    return results


def _failed(game: Game, path: Path, exc: PrintgenError) -> ExampleResult:
    where = exc.where
    message = exc.message
    if isinstance(exc, ErrorList) and exc.errors:
        where = exc.errors[0].where
        message = "; ".join(e.message for e in exc.errors)
    return ExampleResult(game.id, path, False, where=where, message=message)


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
        return entry.load(game_data(game), spec.version, spec.options)
    except DataError as exc:  # a printed value the engine cannot play: where it is written
        found = [p for p in game.defined or game.pieces if p.component.id == exc.component]
        where = found[0].place(f"values.{exc.key}") if found else example.where(())
        raise PrintgenError(f"{exc}: the rules engine cannot play it", where) from None
    except OptionError as exc:
        key = ("options", exc.name)
        known = exc.name in entry.option_names
        where = example.where(key) if known else example.doc.where_key(key)
        raise PrintgenError(str(exc), where) from None
    except ValueError as exc:  # the game's data does not fit its engine
        raise PrintgenError(f"{game.id} data: {exc}", example.where(())) from None


def worked(example: Example) -> WorkedExample:
    """The example as the engine replays it."""
    spec = example.spec
    return WorkedExample(
        title=Bilingual(spec.title.ja, spec.title.en),
        steps=tuple(
            ExampleStep(
                Bilingual(step.say.ja, step.say.en),
                tuple(step.do) if isinstance(step.do, list) else step.do,
                step.exhaust is not None,
                step.expect,
            )
            for step in spec.steps
        ),
        version=spec.version,
        options=spec.options,
        setup=spec.setup,
        expect=spec.expect,
    )


def run_example(game: Game, example: Example) -> ExampleResult:
    """Replay an example through the game's engine and compare every `expect` value."""
    engine = build_engine(game, example)
    try:
        found = replay(engine, worked(example))
    except ExampleError as exc:
        where = example.doc.where_key(exc.key) if exc.at_key else example.where(exc.key)
        raise PrintgenError(exc.message, where) from None
    return ExampleResult(
        game.id,
        example.path,
        found.ok,
        title=example.spec.title,
        version=found.version,
        options=found.options,
        where=None if found.ok else example.where(found.key),
        step=found.step,
        key=found.name,
        expected=found.expected,
        actual=found.actual,
        message=found.message,
        steps=found.steps,
        setup_diagram=found.setup_diagram,
        about=example.spec.about,
    )
