"""Diagrams: a state drawn for the rulebook's worked examples (the board as a grid seen
from orange's side, and both hands).

A `Squares2` method, written here as a function of the engine (`self`) and bound in its
class body (`engine.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramCell, DiagramGrid
from rules_engine.squares2.state import Squares2State

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2


def diagram(self: Squares2, state: Any) -> Diagram:
    """The board seen from orange's side (row 1 at the bottom), and both hands.

    Tiles read ▲ (orange) or ▼ (purple) and their face up; squares the last action
    touched are marked `active`, other tiles carry their owner's name as the mark."""
    if not isinstance(state, Squares2State):
        raise TypeError("not a SQUARES II state")
    s = state
    arrows = ("▲", "▼")
    ja, en = [d.ja for d in self.display], [d.en for d in self.display]
    legend_ja = " ".join(f"{a.code}={a.name.ja}" for a in self.abilities.values())
    legend_en = ", ".join(f"{a.code} {a.name.en}" for a in self.abilities.values())
    touched = s.touched
    rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
    for r in reversed(range(self.rows)):
        cells = []
        for sq in self.row_squares[r]:
            c = s.cell[sq]
            mark = "active" if sq in touched else ""
            if c < 0:
                cells.append(DiagramCell("", mark))
            else:
                p = c >> 7
                cells.append(DiagramCell(arrows[p] + self.fcode[p][c & 127], mark or self.names[p]))
        role_ja, role_en = "", ""
        if r == self.centre_row:
            role_ja, role_en = " 中央", " centre"
        for p in range(2):
            if r == self.camp[p]:
                role_ja, role_en = f" {ja[p]}の陣", f" {en[p]}'s camp"
        rows.append(({"ja": f"{r + 1}{role_ja}", "en": f"{r + 1}{role_en}"}, tuple(cells)))
    board = DiagramGrid(
        {
            "ja": f"盤面(▲{ja[0]} ▼{ja[1]}、{legend_ja})",
            "en": f"Board (▲ {en[0]}, ▼ {en[1]}; {legend_en})",
        },
        tuple(chr(ord("a") + c) for c in range(self.columns)),
        tuple(rows),
    )
    hands = DiagramGrid(
        {"ja": "手元のコマ(表/裏)", "en": "Tiles in hand (front/back)"},
        tuple(str(i + 1) for i in range(self.tiles_per_set)),
        tuple(
            (
                {"ja": ja[p], "en": en[p]},
                tuple(DiagramCell(self.tile_text(p, t), self.names[p]) for t in s.hand_tiles(p)),
            )
            for p in range(2)
        ),
    )
    return (board, hands)
