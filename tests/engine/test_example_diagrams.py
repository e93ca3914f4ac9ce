"""Every printed diagram of every worked example shows the state after its step: the
replay's diagram of each step is compared with the engine's drawing of a state reached
independently, by applying that example's actions one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from printgen.examples import build_engine, example_files, load_example, run_example
from printgen.model import load_game
from rules_engine.core import DiagramGrid, DiagramTimeline, apply_step, parse_step

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot")
CASES = [
    (game, path.name)
    for game in GAMES
    for path in example_files(load_game(ROOT / "components" / game))
]


@pytest.mark.parametrize(("game_id", "name"), CASES)
def test_each_step_is_drawn_from_the_state_after_it(game_id: str, name: str) -> None:
    game = load_game(ROOT / "components" / game_id)
    example = load_example(game.folder / "examples" / name)
    result = run_example(game, example)
    assert result.ok, result.line()
    engine = build_engine(game, example)
    state = engine.setup_state(dict(example.spec.setup))
    assert result.setup_diagram == engine.diagram(state)  # type: ignore[attr-defined]
    traces = iter(result.steps)
    for step in example.spec.steps:
        if step.exhaust is not None:  # leaves the state as it was; draws nothing
            trace = next(traces)
            assert trace.diagram is None
            continue
        texts = [] if step.do is None else [step.do] if isinstance(step.do, str) else step.do
        refused = step.expect is not None and "error" in step.expect
        for text in texts:
            try:
                apply_step(state, parse_step(engine, text))
            except ValueError:
                assert refused, f"{name}: {text} was refused"
        trace = next(traces)
        drawn = engine.diagram(state)  # type: ignore[attr-defined]
        assert trace.diagram == drawn, f"{name} step {trace.index}: not the state after it"
        for item in drawn:
            assert isinstance(item, DiagramGrid | DiagramTimeline)
            assert item.title["ja"] and item.title["en"]
