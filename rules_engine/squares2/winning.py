"""Winning (勝利, rule 2-3): holding enough centre squares wins the game; the end of a
game and of the match (the `games` and `turn_limit` options), and the next game's first
player (rule 1-3: the winner plays second).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
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
        if EVENTS.on:
            w = winners[0]
            EVENTS.emit("2-3", "win", player=g.names[w], squares=owners.count(w), needed=need)
        self._end_game(winners[0])
        return
    if winners or self.passes >= 2:  # both at once (not on this board) / nobody can act
        if EVENTS.on:
            if winners:
                EVENTS.emit("2-3", "both_hold_centre", needed=need)
            else:
                EVENTS.emit("2-1", "nobody_can_act")
        self._end_game(-1)
        return
    self.turn += 1
    self.to_move = 1 - self.to_move
    self.phase = TURN
    if g.turn_limit and self.turn >= g.turn_limit:
        if EVENTS.on:
            EVENTS.emit("turn-limit", "turn_limit", turns=self.turn)
        self._end_game(-1)
    elif EVENTS.on:
        EVENTS.emit("2-4", "next_turn", player=g.names[self.to_move])


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
        if EVENTS.on and g.games > 1:
            wins = [self.results.count(q) for q in (0, 1)]
            best = 0 if wins[0] > wins[1] else 1 if wins[1] > wins[0] else -1
            EVENTS.emit(
                "2-3",
                "match_over",
                player=g.names[best] if best >= 0 else "",
                wins=wins[best] if best >= 0 else wins[0],
                games=len(self.results),
            )
        return
    # Next game: the winner plays second (rule 1-3); after a draw, janken again.
    self.last_winner = winner
    battles, returned, touched = self.battles, self.returned, self.touched
    first = 1 - winner if winner >= 0 and g.winner_plays_second else -1
    self._new_game(first)
    self.battles, self.returned, self.touched = battles, returned, touched
    if EVENTS.on:
        EVENTS.emit("1-2", "new_board", game=len(self.results) + 1)
        EVENTS.emit("1-1", "new_hands", tiles=g.tiles_per_set)
        if first >= 0:
            EVENTS.emit("1-3", "winner_second", player=g.names[winner], first=g.names[first])
        else:
            EVENTS.emit("1-3", "janken_again")


def winner_name(self: Squares2State) -> str | None:
    """The winner of the game (or of the match, once it is over); 'draw'; or None."""
    if self.phase == OVER:
        r = self.returns()
        return "draw" if r[0] == r[1] else self.g.names[0 if r[0] > 0 else 1]
    return None
