"""Diagrams: a state drawn for the rulebook's worked examples.

Each player's grid shows the transport columns (ship numbers, sunk ones marked) and the
action slots (revealed ones shown, the current one marked); no paper knowledge here, the
printer styles the marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramCell, DiagramGrid
from rules_engine.submarine_attack.actions import OVER, ROLL, TARGET
from rules_engine.submarine_attack.state import SubmarineAttackState

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack


def diagram(g: SubmarineAttack, state: Any) -> Diagram:
    """Each player's columns (ship numbers, sunk ones marked) and action slots (revealed
    ones shown, the current one marked)."""
    if not isinstance(state, SubmarineAttackState):
        raise TypeError("not a Submarine Attack state")
    s = state
    placed = s.phase in (ROLL, TARGET)
    grids: list[DiagramGrid] = []
    for p in range(s.n):
        ships = s.ships[p]
        fleet = tuple(
            DiagramCell(str(ships[c]) if ships else "", "sunk" if s.sunk[p] >> c & 1 else "")
            for c in range(g.columns)
        )
        shown = s.slot + 1 if placed else (len(s.slots[p]) if s.phase == OVER else 0)
        slots = tuple(
            DiagramCell(
                s.slots[p][k] if k < shown and k < len(s.slots[p]) else ("?" if s.slots[p] else ""),
                "active" if placed and k == s.slot else "",
            )
            for k in range(g.actions_placed)
        )
        grids.append(
            DiagramGrid(
                {
                    "ja": f"{g.display[p]['ja']} ({s.scores[p]}点)",
                    "en": f"{g.display[p]['en']} ({s.scores[p]} points)",
                },
                tuple(str(k + 1) for k in range(max(g.columns, g.actions_placed))),
                (
                    ({"ja": "輸送船", "en": "transports"}, fleet),
                    ({"ja": "アクション", "en": "actions"}, slots),
                ),
            )
        )
    return tuple(grids)
