"""Battles (戦闘, rule 6): a tile that arrives on an opponent's tile fights it; the higher
value stays, the lower goes back to its owner's hand, and equal values both go back.

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.squares2.abilities import continuous_in_play

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State


@dataclass(frozen=True)
class Battle:
    """One battle: where, the tile that came and the one that was there, the outcome."""

    square: int
    arriving: tuple[int, int]  # (owner, face index)
    there: tuple[int, int]
    values: tuple[int, int]  # the values they fought with (arriving, there)


def _arrive(self: Squares2State, square: int, c: int) -> None:
    """A tile comes onto a square; an occupied square is a battle (rule 6)."""
    there = self.cell[square]
    if there < 0:
        self._put(square, c)
        return
    g = self.g
    if g.continuous:
        va = self._value(square, c, True)
        vt = self._value(square, there, False)
    else:
        va = g.fval[c >> 7][c & 127]
        vt = g.fval[there >> 7][there & 127]
    self.battles.append(Battle(square, (c >> 7, c & 127), (there >> 7, there & 127), (va, vt)))
    if EVENTS.on:
        _battle_events(self, square, c, there, va, vt)
    if va > vt:
        self._to_hand(self._lift(square))
        self._put(square, c)
    elif va < vt:
        self._to_hand(c)
    else:
        self._to_hand(self._lift(square))
        self._to_hand(c)


def _battle_events(self: Squares2State, square: int, c: int, there: int, va: int, vt: int) -> None:
    g = self.g
    names = g.names
    p, f, q, h = c >> 7, c & 127, there >> 7, there & 127
    where = g.square_names[square]
    if p == q:  # the opponent's ability put two of one player's tiles together
        EVENTS.emit("4-3", "own_tiles_meet", player=names[p], square=where)
    EVENTS.emit(
        "6-1",
        "battle",
        square=where,
        player=names[p],
        ability=g.fability[p][f],
        value=g.fval[p][f],
        other=names[q],
        other_ability=g.fability[q][h],
        other_value=g.fval[q][h],
    )
    EVENTS.emit("6-2", "continuous_checked", abilities=continuous_in_play(self))
    if va == vt:
        EVENTS.emit(
            "6-3-a",
            "tie",
            square=where,
            value=va,
            player=names[p],
            ability=g.fability[p][f],
            other=names[q],
            other_ability=g.fability[q][h],
        )
        return
    (w, wf, wv), (lo, lf, lv) = ((p, f, va), (q, h, vt)) if va > vt else ((q, h, vt), (p, f, va))
    EVENTS.emit(
        "6-3-b",
        "higher_stays",
        square=where,
        player=names[w],
        ability=g.fability[w][wf],
        value=wv,
        other=names[lo],
        other_ability=g.fability[lo][lf],
        other_value=lv,
    )


def _to_hand(self: Squares2State, c: int) -> None:
    p, face = c >> 7, c & 127
    self.hand[p] |= 1 << (face >> 1)
    self.returned.append((p, face))
