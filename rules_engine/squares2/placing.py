"""Placing a tile (コマを出す, rule 3): a tile from hand, either face up, onto a square of
the player's camp (3-1), never onto an own tile (4-3), within the row limit (3-3).

A `Squares2State` method, written here as a function of the state (`self`) and bound in
its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import IllegalActionError
from rules_engine.squares2.actions import Place

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State


def _check_place(self: Squares2State, p: int, action: Place) -> None:
    g = self.g
    if not 0 <= action.tile < g.tiles_per_set or action.face not in (0, 1):
        raise IllegalActionError("3-1", f"no such tile: {action!r}")
    face = 2 * action.tile + action.face
    token = g.fcode[p][face]
    if not self.hand[p] >> action.tile & 1:
        raise IllegalActionError(
            "3-1", f"{g.names[p]}'s tile {g.tile_text(p, action.tile)} is not in hand"
        )
    sq = action.square
    if sq not in g.camp_squares[p]:
        raise IllegalActionError(
            "3-1",
            f"a tile is placed on the camp (row {g.camp[p] + 1}), not on {g.square_names[sq]}",
        )
    c = self.cell[sq]
    if c >= 0 and c >> 7 == p:
        raise IllegalActionError("4-3", f"{g.square_names[sq]} holds {g.names[p]}'s own tile")
    if c < 0 or g.battle_checked:
        total = self._total_after(p, -1, sq, p << 7 | face)
        if total > g.place_max:
            word = "reach" if g.place_max < g.limit else "exceed"
            raise IllegalActionError(
                "3-3",
                f"placing {token} would make the camp total {total}: "
                f"it may not {word} the limit {g.limit}",
            )
