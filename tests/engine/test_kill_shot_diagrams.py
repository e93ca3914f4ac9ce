"""KILL SHOT's rulebook side: the notation stays in the example files (the engine's
`notation_pattern` finds it, and no players' text holds any), and every printed example's
diagrams are captioned by the engine's own count and speak players' language only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.errors import Location
from printgen.examples import build_engine, load_example
from printgen.model import Game
from printgen.rulebook.book import load_rulebook
from printgen.rulebook.text import TextContext, render_text
from rules_engine.core import (
    DiagramGrid,
    DiagramTimeline,
    IllegalActionError,
    JointAction,
    apply_step,
    parse_step,
)
from rules_engine.kill_shot import (
    TURN,
    Discard,
    Draw,
    Go,
    KillShot,
    KillShotState,
    Look,
    Play,
    React,
    Reload,
)
from rules_engine.kill_shot.happenings import PLAYER_WORDS

from . import example_texts as ex

FOLDER = ex.game_folder("kill-shot")
FILES = ex.example_paths(FOLDER)
PRINTED = ex.printed_paths(FOLDER)

game = ex.game_fixture(FOLDER)
pattern = ex.pattern_fixture("game", lambda game: KillShot(game_data(game)))


# --- the notation ----------------------------------------------------------------------------


def test_the_pattern_finds_notation_and_not_players_words(pattern: re.Pattern[str]) -> None:
    for notation in (
        "alpha plays rB",
        "bravo plays b4 on 1",
        "charlie plays gJ at bravo",
        "alpha reload #1 #3",
        "alpha reload",
        "bravo clear",
        "charlie wait",
        "go alpha 450 bravo 600",
        "react bravo 400",
        "draw alpha r1 b1",
        "order alpha bravo",
        "reveal red-mirage",
        "1.40 bravo plays b1",
        "bad_intel_levels = runs",
        "hunt 1: viper -> escaped (escaped-stuck)",
        "赤の4(r4)",
    ):
        assert pattern.search(notation), notation
    for words in (
        'Alpha plays Bad Intel and calls "Cease fire!"',
        "Bravo plays the blue 4 (City) on pile 1",
        "3, 2, 1, go!",
        "Kill Shot",
        "Bravo passes; Charlie waits",
        "the Red Mirage",
        "4.35秒、アルファが不正確な情報を出します。",
    ):
        assert not pattern.search(words), words


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_action_of_an_example_is_notation(pattern: re.Pattern[str], path: Path) -> None:
    for text in ex.dos(ex.load_data(path), record=True):
        for part in text.split(";"):
            assert pattern.search(part.strip()), f"{path.name}: {part!r} not seen as notation"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_notation_in_an_examples_prose(pattern: re.Pattern[str], path: Path) -> None:
    found = [
        f"{where}: {m.group(0)!r}"
        for where, text in ex.prose(ex.load_data(path))
        for m in [pattern.search(text)]
        if m
    ]
    assert found == [], f"{path.name}: notation in players' text: {found}"


def _strings(node: Any, key: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        for k, value in node.items():
            if k not in ("translates", "piece", "section", "block", "examples", "shows"):
                yield from _strings(value, str(k))
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value, key)
    elif isinstance(node, str):
        yield node


def test_no_notation_in_the_rulebooks_sections(game: Game, pattern: re.Pattern[str]) -> None:
    load_rulebook(game)  # the sections load
    found = []
    for path in sorted((FOLDER / "rulebook").glob("*.yaml")):
        data = ex.load_data(path)
        for lang in ("ja", "en"):
            ctx = TextContext(game, lang)
            for text in _strings(data):
                shown = render_text(text, ctx, Location(path)) if "{" in text else text
                for m in pattern.finditer(shown):
                    found.append(f"{path.name} ({lang}): {m.group(0)!r}")
    assert found == []


# --- the diagrams of the printed examples ----------------------------------------------------


def _texts(item: DiagramGrid | DiagramTimeline) -> Iterator[str]:
    yield from item.title.values()
    if isinstance(item, DiagramGrid):
        yield from item.columns
        for label, cells in item.rows:
            yield from label.values()
            for cell in cells:
                yield cell.text
    else:
        yield from item.lanes
        for event in item.events:
            yield from event.label.values()
            yield event.lane


def _caption_says(engine: KillShot, s: KillShotState, played: int) -> tuple[str, str]:
    """What the caption of `s` must say, from the state's own counters: the hunt, and the
    clock (real time) or the turn just played / about to be played (Situation Room)."""
    h = s.hunt
    if engine.turn_based:
        who = PLAYER_WORDS[engine.names[played if played >= 0 else s.turn]]
        if played >= 0:
            return f"{h}回目の捜索・{who.ja}の手番の後", f"Hunt {h}, after {who.en}'s turn"
        return f"{h}回目の捜索・{who.ja}の手番", f"Hunt {h}, {who.en}'s turn"
    if s.clock < 0:
        return f"{h}回目の捜索", f"Hunt {h}"
    t = f"{s.clock / 1000:.2f}"
    return f"{h}回目の捜索・{t}秒", f"Hunt {h} at {t} s"


@pytest.mark.parametrize("path", PRINTED, ids=[p.name for p in PRINTED])
def test_printed_diagrams_show_the_step_by_the_engines_count(
    game: Game, pattern: re.Pattern[str], path: Path
) -> None:
    example = load_example(path)
    engine = build_engine(game, example)
    assert isinstance(engine, KillShot)
    state = engine.setup_state(example.spec.setup)
    engine.diagram(state)
    for number, step in enumerate(example.spec.steps, start=1):
        texts = ex.do_texts(step.do)
        before = len(state.history)
        played = -1
        refused = False
        for text in texts:
            turn, phase = state.turn, state.phase
            parsed = parse_step(engine, text)
            try:
                apply_step(state, parsed)
            except IllegalActionError:
                refused = True
                continue
            if phase == TURN and isinstance(parsed, JointAction):
                played = turn
        drawn = engine.diagram(state)
        where = f"{path.name} step {number}"
        table = drawn[0]
        assert isinstance(table, DiagramGrid), where
        ja, en = _caption_says(engine, state, played)
        assert table.title["ja"].startswith(ja), f"{where}: {table.title['ja']!r} is not {ja!r}"
        assert table.title["en"].startswith(en), f"{where}: {table.title['en']!r} is not {en!r}"
        for item in drawn:
            for text in _texts(item):
                assert not pattern.search(text), f"{where}: notation in the diagram: {text!r}"
        cells = [c for _label, row in table.rows for c in row]
        assert all(c.piece and not c.text for c in cells if c.mark != "empty"), where
        marked = any(c.mark in ("active", "sunk") for c in cells) or bool(table.arrows)
        if refused or len(state.history) == before:
            assert not marked and len(drawn) <= 2, f"{where}: nothing happened, yet marked"
        else:
            done = [
                a
                for entry in state.history[before:]
                for a in (entry if isinstance(entry, JointAction) else (entry,))
            ]
            if any(isinstance(a, Play | Reload | Discard | Draw | Look) for a in done):
                assert marked, f"{where}: what the step did is not highlighted"
            if any(isinstance(a, Go | React) for a in done):
                assert isinstance(drawn[-1], DiagramTimeline), f"{where}: no timeline"
