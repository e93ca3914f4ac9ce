"""`printgen examples suggest`: worked examples the engine writes.

For each rule clause no example shows (or the ones asked for), the engine searches for a
short play that applies it (`rules_engine.search`): from the setup of every example that
holds, from the positions its steps reach, and from the game's own start. The best play
becomes a draft example in the project's format: the setup (and the source example's steps
before the new ones, as they were written), one step per action in the game's notation,
every `expect` filled with the facts the step changed, as the engine computes them, and the
narration (`say`) in Japanese and English told from the step's event log with the game's
phrase templates (`narration:` in game.yaml). The draft is replayed before it is written:
it passes `printgen check` as written; the designer edits its prose.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from printgen.errors import PrintgenError, display_path
from printgen.examples import (
    Example,
    ExampleResult,
    build_engine,
    example_files,
    load_example,
    run_example,
)
from printgen.model import Game
from printgen.narration import missing_phrases, narrate
from printgen.rulebook.worked import clause_title
from printgen.templating import suggestion
from rules_engine.core import Engine, Event, State, apply_step, format_step, parse_step
from rules_engine.examples import facts
from rules_engine.search import Budget, Found, Start, pieces_in, search, states_along

MAX_FACT = 400  # characters: a fact longer than this is left out of a draft's `expect`


@dataclass(frozen=True)
class Draft:
    """A drafted example for one rule: its file, its text, and where it comes from."""

    rule: str
    path: Path
    text: str
    source: str  # "example 03-..." or "the game's start"
    steps: int
    unphrased: tuple[str, ...]  # kinds of event the game has no phrase for


def _source_of(start: Start, sources: Mapping[str, Example]) -> Example | None:
    return sources.get(start.label.split("@", 1)[0])


def starts_for(
    game: Game, examples: Sequence[tuple[Example, ExampleResult]], with_game_start: bool
) -> tuple[list[Start], dict[str, Example]]:
    """Where to search from: each example's setup and the positions its steps reach (the
    current rules first), and the game's own start."""
    starts: list[Start] = []
    sources: dict[str, Example] = {}
    current = game.info.rule_version
    for example, _result in examples:
        engine = build_engine(game, example)
        spec = example.spec
        state = engine.setup_state(dict(spec.setup))
        rank = 0 if spec.version in (None, current) else 1  # the current rules first
        label = example.path.stem
        sources[label] = example
        pieces = pieces_in(spec.setup)
        starts.append(Start(label, engine, state, 0, pieces, rank))
        parsed = [
            None
            if step.do is None
            else [
                parse_step(engine, t) for t in ([step.do] if isinstance(step.do, str) else step.do)
            ]
            for step in spec.steps
        ]
        for k, after in enumerate(states_along(engine, state, parsed), start=1):
            if not after.is_terminal():
                starts.append(Start(f"{label}@{k}", engine, after, k, pieces, rank))
    if with_game_start:
        from printgen.engines import game_data
        from rules_engine.registry import engine_for

        entry = engine_for(game.id)
        if entry is not None:
            engine = entry.load(game_data(game), None, {})
            with contextlib.suppress(ValueError):  # an engine may have no default start
                starts.append(Start("", engine, engine.setup_state({}), 0, 0, 0))
    return starts, sources


def suggest(
    game: Game,
    rules: Sequence[str] = (),
    source: str | None = None,
    seed: int = 0,
    budget: Budget | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Draft], list[str]]:
    """Drafts for `rules` (default: every clause no example shows), searched from the
    example `source` (file name, stem or number) or from every example and the game's
    start. Returns the drafts and the rules no play was found for."""
    from printgen.coverage import coverage
    from rules_engine.registry import engine_for

    if engine_for(game.id) is None:
        raise PrintgenError(
            f"no rules engine plays {game.id}: only a game with an engine can play, search and "
            "check examples"
        )
    if not game.info.clauses:
        raise PrintgenError(
            f"{game.id} declares no rule clauses: list them under clauses: (id, title, "
            "section) in game.yaml",
            game.where(),
        )
    declared = [c.id for c in game.info.clauses]
    for rule in rules:
        if rule not in declared:
            raise PrintgenError(
                f"{game.id} has no rule '{rule}'{suggestion(rule, declared)} "
                f"(rules: {', '.join(declared)})"
            )
    loaded: list[tuple[Example, ExampleResult]] = []
    files = example_files(game)
    if source is not None:
        chosen = [p for p in files if source in (p.name, p.stem) or p.stem.split("-")[0] == source]
        if len(chosen) != 1:
            known = ", ".join(p.stem for p in files)
            raise PrintgenError(f"{game.id} has no example '{source}' (examples: {known})")
    for path in files:
        example = load_example(path)
        result = run_example(game, example)
        loaded.append((example, result))
        if source is not None and path == chosen[0] and not result.ok:
            raise PrintgenError(
                f"example {path.stem} does not hold ({result.detail()}): fix it before "
                "drafting from it",
                result.where,
            )
    targets = list(rules) or [c.clause.id for c in coverage(game, [r for _, r in loaded]).uncovered]
    if not targets:
        return [], []
    usable = [(e, r) for e, r in loaded if r.ok and (source is None or e.path == chosen[0])]
    starts, sources = starts_for(game, usable, with_game_start=source is None)
    found = search(starts, targets, seed, budget, progress)
    drafts: list[Draft] = []
    taken = {p.name for p in files}
    for rule in targets:
        if rule not in found:
            continue
        draft = _draft(game, found[rule], _source_of(found[rule].start, sources), taken)
        taken.add(draft.path.name)
        drafts.append(draft)
    return drafts, [r for r in targets if r not in found]


def _next_name(game: Game, rule: str, taken: set[str]) -> str:
    numbers = [int(m.group(1)) for n in taken if (m := re.match(r"(\d+)-", n))]
    number = max(numbers, default=0) + 1
    slug = re.sub(r"[^a-z0-9]+", "-", rule.lower()).strip("-") or "rule"
    return f"{number:02d}-rule-{slug}.yaml"


def _changed(
    before: Mapping[str, Any], after: Mapping[str, Any], state: State[Any]
) -> dict[str, Any]:
    expect = {
        k: v
        for k, v in after.items()
        if before.get(k) != v and len(json.dumps(v, default=str, ensure_ascii=False)) <= MAX_FACT
    }
    if state.is_terminal():
        expect["terminal"] = True
    return expect


def _draft(game: Game, found: Found, source: Example | None, taken: set[str]) -> Draft:
    start = found.start
    engine: Engine[Any] = start.engine
    names = set(engine.query_names())
    clause = next(c for c in game.info.clauses if c.id == found.rule)
    state = start.state.clone()
    before = facts(engine, state, names)
    steps: list[dict[str, Any]] = []
    if source is not None:
        for written in source.spec.steps[: start.prefix]:
            steps.append(written.model_dump(exclude_none=True))
    all_events: list[Event] = []

    for step, events in zip(found.steps, found.events, strict=True):
        apply_step(state, step)
        after = facts(engine, state, names)
        entry: dict[str, Any] = {"do": format_step(engine, step)}
        entry["say"] = {lang: narrate(game, events, lang) for lang in ("ja", "en")}
        entry["expect"] = _changed(before, after, state) or {"to_act": _to_act(engine, state)}
        steps.append(entry)
        before = after
        all_events.extend(events)
    data: dict[str, Any] = {
        "title": {lang: clause_title(game, clause, lang) for lang in ("ja", "en")}
    }
    spec = source.spec if source is not None else None
    if spec is not None:
        # The source's own introduction tells its story, not this one: say where it starts.
        after = (
            {"ja": f"の{start.prefix}手目のあと", "en": f" after its step {start.prefix}"}
            if start.prefix
            else {"ja": "", "en": ""}
        )
        data["about"] = {
            "ja": f"プレイ例「{spec.title.ja}」と同じ配置{after['ja']}から始めます。",
            "en": f"This starts from the same setup as the example “{spec.title.en}”{after['en']}.",
        }
    if spec is not None and spec.version is not None:
        data["version"] = spec.version
    if spec is not None and spec.options:
        data["options"] = dict(spec.options)
    if spec is not None and spec.setup:
        data["setup"] = dict(spec.setup)
    data["steps"] = steps
    origin = f"example {source.path.stem}" if source is not None else "the game's start"
    header = (
        f"# A draft written by `printgen examples suggest {game.id} --rule {found.rule}`: the\n"
        f"# engine found this play from the setup of {origin}"
        + (f" (after its first {start.prefix} step(s))" if start.prefix else "")
        + ".\n# Every expect is the engine's; the narration comes from narration: in game.yaml."
        "\n# Edit the prose (and the title) as you like: printgen check replays it.\n"
    )
    text = header + dump_yaml(data)
    path = game.folder / "examples" / _next_name(game, found.rule, taken)
    return Draft(
        found.rule,
        path,
        text,
        origin,
        len(steps),
        tuple(missing_phrases(game, all_events)),
    )


def _to_act(engine: Engine[Any], state: State[Any]) -> list[str]:
    return [engine.player_name(p) for p in state.current_players()]


def write_draft(game: Game, draft: Draft, path: Path | None = None) -> ExampleResult:
    """Write the draft atomically after replaying it: a draft that would not hold is not
    written (that would be a bug of the search, reported as such)."""
    target = path or draft.path
    if target.exists():
        raise PrintgenError(f"{display_path(target)} exists: printgen never overwrites a file")
    folder = game.folder / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    trial = folder / f".{draft.path.stem}.suggest.tmp"
    trial.write_text(draft.text, encoding="utf-8")
    try:
        result = run_example(game, load_example(trial))
        if not result.ok:
            raise PrintgenError(
                f"the draft for rule {draft.rule} does not replay ({result.detail()}); "
                "nothing was written (please report this)"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(trial, target)
    finally:
        trial.unlink(missing_ok=True)
    return result


# --- YAML as the project writes it ------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # `  - do:` under `steps:`, as the project writes


def _short(value: Any) -> bool:
    return len(json.dumps(value, ensure_ascii=False, default=str)) <= 90


def _flat(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(v, dict | list) or (_flat(v) and _short(v)) for v in items)


def _dict(dumper: _Dumper, value: dict[Any, Any]) -> yaml.Node:
    flow = _flat(value) and _short(value)
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _list(dumper: _Dumper, value: list[Any]) -> yaml.Node:
    flow = _flat(value) and _short(value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(dict, _dict)
_Dumper.add_representer(list, _list)
_Dumper.add_representer(tuple, _list)  # type: ignore[arg-type]


def dump_yaml(data: Any) -> str:
    """YAML in the project's style: short mappings and lists inline, the rest in blocks."""
    text: str = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10_000)
    return text
