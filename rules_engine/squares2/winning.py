"""Winning (勝利, rule 2-3): holding enough centre squares wins the game; the end of a
game and of the match (the `games` and `turn_limit` options), and the next game's first
player (rule 1-3: the winner plays second).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.squares2.turn import OVER, TURN

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State


def centre_count(self: Squares2State, player: int) -> int:
    cell = self.cell
    return [cell[sq] >> 7 for sq in self.g.centre_squares].count(player)


def _judge(self: Squares2State) -> None:
    """Rule 2-3: three of the centre squares win; else the opponent's turn (2-4)."""
    g = self.g
    cell = self.cell
    owners = [cell[sq] >> 7 for sq in g.centre_squares]
    need = g.win_squares
    winners = [q for q in (0, 1) if owners.count(q) >= need]
    if len(winners) == 1:
        self._end_game(winners[0])
        return
    if winners or self.passes >= 2:  # both at once (not on this board) / nobody can act
        self._end_game(-1)
        return
    self.turn += 1
    self.to_move = 1 - self.to_move
    self.phase = TURN
    if g.turn_limit and self.turn >= g.turn_limit:
        self._end_game(-1)


def _end_game(self: Squares2State, winner: int) -> None:
    g = self.g
    self.results.append(winner)
    self.winner = winner
    self.returners = []
    need = g.games // 2 + 1
    if (
        len(self.results) >= g.games
        or self.results.count(0) >= need
        or self.results.count(1) >= need
    ):
        self.phase = OVER
        self.to_move = -1
        return
    # Next game: the winner plays second (rule 1-3); after a draw, janken again.
    self.last_winner = winner
    battles, returned, touched = self.battles, self.returned, self.touched
    first = 1 - winner if winner >= 0 and g.winner_plays_second else -1
    self._new_game(first)
    self.battles, self.returned, self.touched = battles, returned, touched


def winner_name(self: Squares2State) -> str | None:
    """The winner of the game (or of the match, once it is over); 'draw'; or None."""
    if self.phase == OVER:
        r = self.returns()
        return "draw" if r[0] == r[1] else self.g.names[0 if r[0] > 0 else 1]
    return None
