"""The row limit (列の上限値, rule 2-2): each player's total of values in every row, and
tiles going back to hand when a row is over the limit after an action (the opponent's
rows first).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.squares2.tiles import EMPTY
from rules_engine.squares2.turn import RETURN

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State


def totals(self: Squares2State, player: int) -> list[int]:
    """The player's own total in every row (continuous abilities applied)."""
    g = self.g
    if not g.continuous:
        return list(self.tot[player])
    out = [0] * g.rows
    cols = g.columns
    for sq, c in enumerate(self.cell):
        if c >= 0 and c >> 7 == player:
            out[sq // cols] += self._value(sq, c, None)
    return out


def _retotal(self: Squares2State) -> None:
    """Recount `tot` from the board (after a setup)."""
    g = self.g
    self.tot = [[0] * g.rows, [0] * g.rows]
    for sq, c in enumerate(self.cell):
        if c >= 0:
            self.tot[c >> 7][sq // g.columns] += g.fval[c >> 7][c & 127]


def printed_totals(self: Squares2State) -> list[list[int]]:
    """`tot` recounted from the board (tests check the kept totals against it)."""
    g = self.g
    out = [[0] * g.rows, [0] * g.rows]
    for sq, c in enumerate(self.cell):
        if c >= 0:
            out[c >> 7][sq // g.columns] += g.fval[c >> 7][c & 127]
    return out


def row_total(self: Squares2State, player: int, row: int) -> int:
    return self.totals(player)[row]


def rows_over(self: Squares2State, player: int) -> list[int]:
    limit = self.g.limit
    return [r for r, total in enumerate(self.totals(player)) if total > limit]


def returnable(self: Squares2State, player: int) -> list[int]:
    """Squares of the player's tiles in rows over the limit (rule 2-2)."""
    g = self.g
    cell = self.cell
    out: list[int] = []
    for r in self.rows_over(player):
        out.extend(sq for sq in g.row_squares[r] if cell[sq] >= 0 and cell[sq] >> 7 == player)
    return out


def _total_after(self: Squares2State, player: int, src: int, dst: int, c: int) -> int:
    """The player's total in `dst`'s row if tile `c` came there from `src` (-1: hand)."""
    g = self.g
    row = dst // g.columns
    if not g.continuous:
        totals = self.totals(player)
        if src >= 0 and src // g.columns == row:
            return totals[row]  # a move along the row leaves its total as it was
        return totals[row] + g.fval[c >> 7][c & 127]
    cell = self.cell
    old_src = cell[src] if src >= 0 else EMPTY
    old_dst = cell[dst]
    if src >= 0:
        cell[src] = EMPTY
    cell[dst] = c
    try:
        return self.totals(player)[row]
    finally:
        cell[dst] = old_dst
        if src >= 0:
            cell[src] = old_src


def _over(self: Squares2State, player: int) -> bool:
    if self.g.continuous:
        return bool(self.rows_over(player))
    return max(self.tot[player]) > self.g.limit


def _after_action(self: Squares2State) -> None:
    """Rule 2-2: rows over the limit, the opponent first; then rule 2-3."""
    actor = self.to_move
    if self.g.continuous:
        over = self._over
        self.returners = [q for q in (1 - actor, actor) if over(q)]
    else:
        limit = self.g.limit
        tot = self.tot
        self.returners = [q for q in (1 - actor, actor) if max(tot[q]) > limit]
    if self.returners:
        self.phase = RETURN
        if EVENTS.on:
            g = self.g
            for q in self.returners:
                rows = self.rows_over(q)
                totals = self.totals(q)
                EVENTS.emit(
                    "2-2",
                    "over_limit",
                    player=g.names[q],
                    rows=[r + 1 for r in rows],
                    totals=[totals[r] for r in rows],
                    limit=g.limit,
                )
            if len(self.returners) == 2:
                EVENTS.emit(
                    "2-2-c",
                    "both_over",
                    first=g.names[self.returners[0]],
                    then=g.names[self.returners[1]],
                )
        return
    self._judge()


def _return(self: Squares2State, player: int, square: int) -> None:
    self.touched = (square,)
    if EVENTS.on:
        g = self.g
        c = self.cell[square]
        choices = len(self.returnable(player))
        EVENTS.emit(
            "2-2-b" if choices > 1 else "2-2-a",
            "return_chosen" if choices > 1 else "return_only",
            player=g.names[player],
            ability=g.fability[player][c & 127],
            value=g.fval[player][c & 127],
            square=g.square_names[square],
        )
    self._to_hand(self._lift(square))
    over = self._over(player)
    if EVENTS.on:
        row = self.g.row_of[square]
        EVENTS.emit(
            "2-2-a",
            "still_over" if row in self.rows_over(player) else "within_limit",
            player=self.g.names[player],
            row=row + 1,
            total=self.totals(player)[row],
            limit=self.g.limit,
        )
    if not over:
        self.returners.pop(0)
    if not self.returners:
        self._judge()
