"""SQUARES II's worked-example diagrams: each shows the state after its step, captioned
by the engine's own count of turns, in players' language (no notation anywhere)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from printgen.engines import game_data
from printgen.model import Game
from rules_engine.core import (
    DiagramGrid,
    IllegalActionError,
    apply_step,
    parse_step,
)
from rules_engine.squares2 import Move, Pass, Place, Return, Squares2, Squares2State, Use
from rules_engine.squares2.turn import OVER, RETURN

from . import example_texts as ex

FOLDER = ex.game_folder("squares2")
TURN_EN = re.compile(r"(?:^|, )([Tt]urn|[Bb]efore turn) (\d+)\b")
TURN_JA = re.compile(r"(\d+)手番目(の前)?")


sq = ex.game_fixture(FOLDER)


def _replayed(game: Game, name: str) -> Iterator[tuple[int, Squares2, Squares2State, int]]:
    """Each step with a `do` of a printed example: its number, the engine, the state after
    it, and the turns the example's setup says were played before."""
    data = ex.load_data(FOLDER / "examples" / f"{name}.yaml")
    engine = Squares2(game_data(game), data.get("version"), data.get("options"))
    setup = data.get("setup", {})
    state = engine.setup_state(setup)
    yield 0, engine, state, setup.get("turn", 0)
    for i, step in enumerate(data["steps"], 1):
        for text in ex.do_texts(step.get("do")):
            try:
                apply_step(state, parse_step(engine, text))
            except IllegalActionError:
                assert "error" in step["expect"], f"{name} step {i}: {text}"
        yield i, engine, state, setup.get("turn", 0)


def _turns_played(state: Squares2State) -> int:
    """Counted from the history, not from the state's counters: the turn actions."""
    return sum(isinstance(a, Place | Move | Use | Pass) for a in state.history)


@pytest.mark.parametrize("name", ex.printed_names(FOLDER))
def test_captions_name_the_turn_the_step_belongs_to(sq: Game, name: str) -> None:
    for i, engine, state, before in _replayed(sq, name):
        board = engine.diagram(state)[0]
        assert isinstance(board, DiagramGrid)
        en, ja = board.title["en"], board.title["ja"]
        (word, number), *_ = TURN_EN.findall(en) or [("", "0")]
        m = TURN_JA.search(ja)
        assert m, f"{name} step {i}: {ja}"
        played = _turns_played(state)
        where = f"{name} step {i}: {en} / {ja}"
        if played == 0:  # nothing done yet: the turn about to be played
            assert word.lower() == "before turn" and m.group(2), where
            assert int(number) == int(m.group(1)) == before + 1 == state.turn + 1, where
            continue
        # The turn of the step's action, as the state counts it: during the row-limit
        # check and at a win the turn is not over (`turn` not yet advanced).
        n = before + played
        assert word.lower() == "turn" and not m.group(2), where
        assert int(number) == int(m.group(1)) == n == state.acted, where
        finished = state.phase not in (RETURN, OVER)
        assert state.turn == (n if finished else n - 1), where
        last = state.history[-1]
        assert isinstance(last, Place | Move | Use | Pass | Return)  # one player at a time
        who = engine.display[last.player]
        if state.phase == OVER:
            assert "wins" in en and "勝利" in ja, where
        else:
            assert who.en in en and who.ja in ja, where
            assert isinstance(last, Return) == ("returns" in en), where


def test_no_diagram_holds_notation(sq: Game) -> None:
    seen = 0
    for path in ex.example_paths(FOLDER):
        for i, engine, state, _ in _replayed(sq, path.stem):
            found = engine.notation_pattern()
            for grid in engine.diagram(state):
                assert isinstance(grid, DiagramGrid)
                texts = [grid.title["ja"], grid.title["en"], *grid.columns]
                for label, cells in grid.rows:
                    texts += [label["ja"], label["en"], *(c.text for c in cells)]
                seen += len(texts)
                bad = [t for t in texts if found.search(t)]
                assert bad == [], f"{path.name} step {i}: {bad}"
    assert seen > 500


def test_a_step_highlights_what_it_did_and_draws_moves_as_arrows(sq: Game) -> None:
    steps = list(_replayed(sq, "01-seed-board-example-1"))
    _, engine, state, _ = steps[-1]  # Tsunami 1 (c1) pushes Diagonal 5 from c2 to c4
    grids = engine.diagram(state)
    board, back = grids
    assert isinstance(board, DiagramGrid) and isinstance(back, DiagramGrid)
    rows = {label["en"].split()[0]: cells for label, cells in board.rows}
    active = sorted(
        f"{'abcde'[c]}{r}"
        for r, cells in rows.items()
        for c, x in enumerate(cells[:5])
        if x.mark == "active"
    )
    assert active == ["c1", "c2", "c4"]
    c4 = rows["4"][2]
    assert (c4.piece, c4.back) == ("tsunami-5-orange", True)  # Diagonal 5: that tile's back
    (arrow,) = board.arrows
    assert (arrow.start, arrow.end, arrow.kind, arrow.colour) == ((3, 2), (1, 2), "move", "orange")
    assert [c.piece for _, cells in back.rows for c in cells] == ["tsunami-3-purple"]
    assert [cells[5].text for _, cells in board.rows] == ["0", "5", "5", "0", "1"]  # orange
    assert [cells[6].text for _, cells in board.rows] == ["0", "0", "0", "0", "0"]  # purple


def test_a_returned_tile_is_what_a_return_step_shows(sq: Game) -> None:
    *_, (_, engine, state, _) = _replayed(sq, "05-row-limit-owner-chooses")
    board, back = engine.diagram(state)
    assert isinstance(board, DiagramGrid) and isinstance(back, DiagramGrid)
    assert board.arrows == ()
    marked = [
        (r, c)
        for r, (_, cells) in enumerate(board.rows)
        for c, x in enumerate(cells)
        if x.mark == "active"
    ]
    assert marked == [(3, 4)]  # e2, where Tsunami 4 was
    assert [c.piece for _, cells in back.rows for c in cells] == ["tsunami-4-orange"]
