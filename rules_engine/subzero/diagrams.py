"""Diagrams for the rulebook: a state drawn as the battle zone and the player boards.

The grids are plain data (`rules_engine.core.DiagramGrid`); printgen draws them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramCell, DiagramGrid
from rules_engine.subzero.actions import REVEAL
from rules_engine.subzero.state import SubzeroState

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero

# --- diagrams for the rulebook -------------------------------------------------------------


def diagram(g: Subzero, state: Any) -> Diagram:
    """The battle zone and the player boards (snowballs, damage, HIT tokens by shooter).

    On the board: pawns (colour symbol and initial); after a step, who was hit
    (mark `hit`), who ducked (`duck`) and the squares movers left (`·`, mark `trail`);
    during a step, the balls in flight on the first square of their line (`o`, mark
    `ball`), who ducks and who is moving (`moving`); the next to reveal is `active`."""
    if not isinstance(state, SubzeroState):
        raise TypeError("not a S.U.B.Z.E.R.O. state")
    s = state
    names = g.names
    w = g.width
    mid_step = s.phase == REVEAL and bool(s.step_reveals)
    # After a step: who was hit and where movers came from.  During one: the balls
    # in flight (on the first square of their line) and who is moving.
    hit = set() if mid_step else {b for _, b, _ in s.last_hits}
    starts = {} if mid_step else {walk[0]: p for p, walk in s.last_moves if len(walk) > 1}
    moving = {r.player for r in s.step_reveals if r.move >= 0}
    shown = s.step_reveals if mid_step else s.last_reveals
    ducked = {r.player for r in shown if r.swish}
    flying: dict[int, str] = {}
    if mid_step:
        for r in s.step_reveals:
            for d in r.shots or ():
                ray = g.rays[s.pos[r.player]][d]
                if ray:
                    flying[ray[0]] = flying.get(ray[0], "") + "o"
    rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
    for row in range(g.height - 1, -1, -1):
        cells = []
        for c in range(w):
            q = c + row * w
            p = s.at[q]
            if p >= 0:
                mark = (
                    "hit"
                    if p in hit
                    else "duck"
                    if p in ducked
                    else "moving"
                    if p in moving
                    else ""
                )
                if s.phase == REVEAL and s.order and s.rpos < len(s.order) and s.order[s.rpos] == p:
                    mark = mark or "active"
                text = g.symbols[p] + names[p][0].upper() + flying.get(q, "")
                cells.append(DiagramCell(text, mark))
            elif q in flying:
                cells.append(DiagramCell(flying[q], "ball"))
            elif q in starts:
                cells.append(DiagramCell("·", "trail"))
            else:
                cells.append(DiagramCell())
        label = g.row_labels[row]
        rows.append(({"ja": label, "en": label}, tuple(cells)))
    board = DiagramGrid(
        {"ja": f"雪合戦場 ターン{s.turn}", "en": f"Battle zone, turn {s.turn}"},
        g.column_labels,
        tuple(rows),
    )
    status_rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
    for p in range(s.n):
        tokens = " ".join(f"{names[sh][0].upper()}×{k}" for sh, k in enumerate(s.boards[p]) if k)
        status_rows.append(
            (
                {"ja": names[p], "en": names[p]},
                (
                    DiagramCell(str(s.balls[p])),
                    DiagramCell(str(s.damage[p]), "hit" if p in hit else ""),
                    DiagramCell(tokens),
                    DiagramCell("out" if p in s.out else ""),
                ),
            )
        )
    status = DiagramGrid(
        {"ja": "プレイヤー用ボード", "en": "Player boards"},
        ("snowballs", "damage", "HIT tokens", ""),
        tuple(status_rows),
    )
    return (board, status)
