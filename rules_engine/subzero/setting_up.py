"""Setting up (rules `youngest`, `place`): the youngest player places first; the pawns
go on free squares.

Chance names the youngest player (`Youngest`), who places first and starts turn 1; then each
player, clockwise, places their pawn on a free square of the battle zone (`Place`).  The deal
that follows is drawn like the refill at the end of a turn (`end_of_turn`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.subzero.actions import DEAL, PLACE, YOUNGEST, Place, Youngest

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState


def check_youngest(s: SubzeroState, action: Youngest) -> None:
    phase = s.phase
    if phase != YOUNGEST:
        raise IllegalActionError("youngest", f"the youngest player is known ({s._now()})")
    if not 0 <= action.player < s.n:
        raise IllegalActionError("youngest", "the youngest is one of the players")


def check_place(s: SubzeroState, player: int, action: Place) -> None:
    g = s.g
    phase = s.phase
    names = g.names
    if phase != PLACE:
        raise IllegalActionError("place", f"pawns are placed at the start ({s._now()})")
    p = s.queue[0]
    if action.player != p or player != p:
        raise IllegalActionError(
            "place", f"{names[p]} places next (clockwise from the youngest player)"
        )
    if not 0 <= action.square < g.squares:
        raise IllegalActionError("place", "a pawn goes on a square of the battle zone")
    if s.at[action.square] >= 0:
        raise IllegalActionError(
            "place",
            f"{g.square_names[action.square]} already holds {names[s.at[action.square]]}'s pawn",
        )


def choose_youngest(s: SubzeroState, player: int) -> None:
    s.youngest = player
    s.start = player
    s._set_order()
    s.queue = list(s.order)
    s.phase = PLACE
    if EVENTS.on:
        EVENTS.emit("youngest", "youngest", player=s.g.names[player])


def place_pawn(s: SubzeroState, place: Place) -> None:
    s.pos[place.player] = place.square
    s.at[place.square] = place.player
    s.queue.pop(0)
    if EVENTS.on:
        g = s.g
        EVENTS.emit(
            "place", "place", player=g.names[place.player], square=g.square_names[place.square]
        )
    if not s.queue:
        s.queue = list(s.order)
        s.phase = DEAL
