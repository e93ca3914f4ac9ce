"""S.U.B.Z.E.R.O. in the player's rulebook: the notation stays in the example files, and
every example diagram shows the state its step describes, captioned by the engine's own
turn and step."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.errors import Location
from printgen.examples import build_engine, load_example, worked
from printgen.model import Game
from printgen.rulebook.text import TextContext, render_text
from rules_engine.core import DiagramCell, DiagramGrid, DiagramTimeline, JointAction, parse_step
from rules_engine.examples import replay
from rules_engine.subzero import REVEAL, Reveal, Subzero, SubzeroState

from . import example_texts as ex

FOLDER = ex.game_folder("subzero")
EXAMPLES = ex.example_paths(FOLDER)
PRINTED = ex.printed_paths(FOLDER)

sz = ex.game_fixture(FOLDER)
pattern = ex.pattern_fixture("sz", lambda sz: Subzero(game_data(sz), None, {"players": 4}))


# --- the notation ---------------------------------------------------------------------------


def test_the_notation_pattern_finds_every_action_of_the_examples(
    pattern: re.Pattern[str],
) -> None:
    actions = [
        part.strip()
        for path in EXAMPLES
        for text in ex.dos(ex.load_data(path))
        for part in text.split(";")
    ]
    assert len(actions) > 100
    missed = [a for a in actions if not any(m.group(0) == a for m in pattern.finditer(a))]
    assert missed == []
    for text in (
        "green move-2 W turn S",
        "red move-shoot-1 move N shoot W",
        "red shoot-swish shoot swish",
        "red place C2",
        "youngest red",
        "draw red roll shoot swish",
        "blue program swish roll shoot",
        "the card move-3",
        "last_hits: blue>green",
        "B4-B3",
        "reading end_square",
    ):
        assert pattern.search(text), text


def test_players_words_are_not_notation(pattern: re.Pattern[str]) -> None:
    for text in (
        "Red reveals MOVE 3 and walks north from D1 to D4.",
        "Barbara's SHOOT / SWISH: she ducks. Green rolls. Blue moves 2 west.",
        "Shuffle the discards: reshuffle them into a new draw pile.",
        "赤はMOVE 2／SHOOTで北へ2マス、D4からD6へ。",
    ):
        assert not pattern.search(text), text


def test_the_examples_texts_are_in_players_words(pattern: re.Pattern[str]) -> None:
    found = [
        f"{path.name}: {where}: {m.group(0)!r}"
        for path in EXAMPLES
        for where, text in ex.prose(ex.load_data(path))
        for m in pattern.finditer(text)
    ]
    assert found == []


JAPANESE = r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]"


def test_japanese_example_texts_have_no_spaces_between_japanese_words() -> None:
    found = [
        f"{path.name}: {m.group(0)!r}"
        for path in EXAMPLES
        for _where, text in ex.prose(ex.load_data(path), langs=("ja",))
        for m in re.finditer(f"{JAPANESE} {JAPANESE}", text)
    ]
    assert found == []


def _strings(value: Any, key: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*key, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*key, i))
    elif isinstance(value, str):
        yield key, value


def test_the_rulebook_sections_are_in_players_words(sz: Game, pattern: re.Pattern[str]) -> None:
    found = []
    files = sorted((FOLDER / "rulebook").glob("*.yaml"))
    assert len(files) > 5
    for path in files:
        for key, text in _strings(ex.load_data(path)):
            if key and key[-1] == "translates":
                continue
            lang = "ja" if "ja" in key else "en"
            if "{{" in text or "{%" in text:
                text = render_text(text, TextContext(sz, lang), Location(path))
            for m in pattern.finditer(text):
                found.append(f"{path.name} {key}: {m.group(0)!r}")
    assert found == []


# --- the diagrams -----------------------------------------------------------------------------


def _numbers(title: dict[str, str] | Any) -> dict[str, tuple[int | None, int | None]]:
    """The turn and step a caption names, in each language."""
    found: dict[str, tuple[int | None, int | None]] = {}
    for lang, turn_word, step_word in (
        ("en", r"[Tt]urn (\d+)", r"[Ss]tep (\d+)"),
        ("ja", r"ターン(\d+)", r"ステップ(\d+)"),
    ):
        turn = re.search(turn_word, title[lang])
        step = re.search(step_word, title[lang])
        found[lang] = (int(turn.group(1)) if turn else None, int(step.group(1)) if step else None)
    return found


def _expected_moments(sz: Game, path: Path) -> list[tuple[int, int | None, SubzeroState]]:
    """Replayed here, action by action: for each step of the example, the turn and step it
    shows by the state's counters: the step its last reveal belonged to (read before the
    reveal, so a turn that ends with it is still that turn), the step about to be revealed
    after programming, or the turn alone between turns."""
    example = load_example(path)
    engine = build_engine(sz, example)
    state = engine.setup_state(dict(example.spec.setup))
    assert isinstance(state, SubzeroState)
    out: list[tuple[int, int | None, SubzeroState]] = []
    for step in example.spec.steps:
        assert step.exhaust is None
        texts = ex.do_texts(step.do)
        moment: tuple[int, int | None] | None = None
        for text in texts:
            action = parse_step(engine, text)
            if isinstance(action, Reveal):
                moment = (state.turn, state.slot + 1)
                state.apply(action)
            elif isinstance(action, JointAction):
                moment = None
                state.apply_joint(action)
            else:
                moment = None
                state.apply(action)  # type: ignore[arg-type]
        if moment is None:
            moment = (state.turn, state.slot + 1 if state.phase == REVEAL else None)
        out.append((*moment, state.clone()))
    return out


def _replayed(sz: Game, path: Path) -> Any:
    example = load_example(path)
    result = replay(build_engine(sz, example), worked(example))
    assert result.ok, result.message
    return result


@pytest.mark.parametrize("path", PRINTED, ids=[p.stem for p in PRINTED])
def test_captions_name_the_engines_turn_and_step(sz: Game, path: Path) -> None:
    result = _replayed(sz, path)
    expected = _expected_moments(sz, path)
    assert len(result.steps) == len(expected)
    for trace, (turn, step, state) in zip(result.steps, expected, strict=True):
        assert trace.diagram, f"step {trace.index} draws nothing"
        first = trace.diagram[0]
        for lang, named in _numbers(first.title).items():
            assert named == (turn, step), (
                f"{path.stem} step {trace.index} ({lang}): caption {first.title[lang]!r}, "
                f"the engine is at turn {turn}, step {step}"
            )
        for grid in trace.diagram[1:]:
            for other_turn, other_step in _numbers(grid.title).values():
                assert other_turn in (None, turn) and other_step in (None, step)
        if state.phase == REVEAL and state.step_reveals:
            # mid-step: the cards revealed so far are highlighted, nobody else's slot
            assert isinstance(first, DiagramGrid)
            assert {a.kind for a in first.arrows} <= {"planned"}
            boards = trace.diagram[1]
            assert isinstance(boards, DiagramGrid)
            cards = boards.rows[0][1]  # one column per player
            lit = {p for p, cell in enumerate(cards) if cell.mark == "active"}
            assert lit == {r.player for r in state.step_reveals}


def _cells(grid: DiagramGrid | DiagramTimeline) -> Iterator[DiagramCell]:
    if isinstance(grid, DiagramGrid):
        for _, cells in grid.rows:
            yield from cells


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_diagrams_hold_no_notation(sz: Game, path: Path, pattern: re.Pattern[str]) -> None:
    result = _replayed(sz, path)
    diagrams = [d for d in (result.setup_diagram, *(s.diagram for s in result.steps)) if d]
    assert diagrams
    pieces = {p.id for p in sz.pieces}
    for diagram in diagrams:
        for grid in diagram:
            words = [grid.title["ja"], grid.title["en"]]
            if isinstance(grid, DiagramGrid):
                words += list(grid.columns)
                words += [label[lang] for label, _ in grid.rows for lang in ("ja", "en")]
            for cell in _cells(grid):
                words.append(cell.text)
                assert not cell.piece or cell.piece in pieces, cell.piece
            hits = [w for w in words if pattern.search(w)]
            assert hits == [], f"notation in a diagram of {path.name}: {hits}"
            assert not any(re.search(r"[a-z]{2,}", c) for c in getattr(grid, "columns", ()))
