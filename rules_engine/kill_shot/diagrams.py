"""Diagrams for the rulebook: the hunt pile(s) and every hand of a state, drawn as grids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramCell, DiagramGrid
from rules_engine.kill_shot.state import KillShotState

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot


def diagram(g: KillShot, state: Any) -> Diagram:
    """The hunt pile(s) (the top card marked, Bad Intel's last removed cards struck out)
    and every hand (the players about to act marked)."""
    if not isinstance(state, KillShotState):
        raise TypeError("not a KILL SHOT state")
    s = state
    rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
    for k, pile in enumerate(s.piles):
        t = g.terrorists[s.pile_terr[k]]
        label = t.name.ja if len(s.piles) == 1 else f"{k + 1} {t.name.ja}"
        label_en = t.name.en if len(s.piles) == 1 else f"{k + 1} {t.name.en}"
        cells = tuple(
            DiagramCell(g.codes[c], "active" if i == len(pile) - 1 else "")
            for i, c in enumerate(pile)
        )
        rows.append(({"ja": label, "en": label_en}, cells))
    if s.removed:
        rows.append(
            (
                {"ja": "除去", "en": "removed"},
                tuple(DiagramCell(g.codes[c], "sunk") for c in s.removed),
            )
        )
    width = max([len(cells) for _, cells in rows] + [1])
    grids = [
        DiagramGrid(
            {"ja": "捜索パイル", "en": "Hunt pile"},
            tuple(str(i + 1) for i in range(width)),
            tuple(rows) if rows else (({"ja": "", "en": ""}, ()),),
        )
    ]
    acting = set(s.current_players())
    hand_rows = []
    for p in range(s.n):
        mark = "active" if p in acting else ""
        jam = " (J)" if s.jammed[p] else ""
        hand_rows.append(
            (
                {"ja": g.names[p] + jam, "en": g.names[p] + jam},
                tuple(DiagramCell(g.codes[c], mark) for c in s.hands[p]),
            )
        )
    width = max([len(h) for h in s.hands] + [1])
    grids.append(
        DiagramGrid(
            {"ja": "手札", "en": "Hands"},
            tuple(str(i + 1) for i in range(width)),
            tuple(hand_rows),
        )
    )
    return tuple(grids)
