"""Moving a tile (コマを動かす, rule 4): one square up, down, left or right (4-2), never
onto an own tile (4-3), within the row limit (4-4), unless a continuous ability forbids it
(4-1); and lifting a tile off a square and putting one on, as every move, ability and
battle does (keeping the row totals).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import IllegalActionError
from rules_engine.squares2.actions import Move
from rules_engine.squares2.tiles import EMPTY

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State


def _check_move(self: Squares2State, p: int, action: Move) -> None:
    g = self.g
    self._own(p, action.src)
    if action.dst not in g.orthogonal[action.src]:
        raise IllegalActionError(
            "4-2",
            f"a tile moves {g.move_distance} square up, down, left or right: "
            f"{g.square_names[action.src]} to {g.square_names[action.dst]} is not one",
        )
    self._stack_error(p, action.dst)
    self._limit_error(p, action.src, action.dst, g.move_max, "4-4")
    self._veto_error(action.src, action.dst, "move")


def _limit_error(self: Squares2State, p: int, src: int, dst: int, limit: int, rule: str) -> None:
    g = self.g
    c = self.cell[dst]
    if c < 0 or g.battle_checked:
        row = dst // g.columns
        total = self._total_after(p, src, dst, self.cell[src])
        if total > limit:
            word = "reach" if limit < g.limit else "exceed"
            raise IllegalActionError(
                rule,
                f"row {row + 1} would total {total}: a move may not {word} the limit {g.limit}",
            )


def _stack_error(self: Squares2State, p: int, dst: int) -> None:
    g = self.g
    c = self.cell[dst]
    if c >= 0 and c >> 7 == p:
        raise IllegalActionError(
            "4-3", f"{g.square_names[dst]} holds {g.names[p]}'s own tile: no stacking"
        )


def _veto_error(self: Squares2State, src: int, dst: int, how: str) -> None:
    if self.g.continuous:
        reason = self._veto(src, dst, how)
        if reason:
            raise IllegalActionError("4-1", reason)


def _lift(self: Squares2State, square: int) -> int:
    """Take the tile off a square; return it."""
    c = self.cell[square]
    self.cell[square] = EMPTY
    self.tot[c >> 7][self.g.row_of[square]] -= self.g.fval[c >> 7][c & 127]
    return c


def _put(self: Squares2State, square: int, c: int) -> None:
    self.cell[square] = c
    self.tot[c >> 7][self.g.row_of[square]] += self.g.fval[c >> 7][c & 127]
