"""End of the game and the winner (clauses game-end, winner, tie-break): the game ends after
the last player's turn of the last turn (or when every player is out); the winner is
measured by the option `winner` (the deepest trophy, the depth you end on, or the deepest
you went) and ties are broken by the option `tie_break` (winners who stay tied share the
win).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.phases import OVER

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def measure(state: SusumukaState, p: int) -> int:
    m = state.g.winner_measure
    if m == "trophy_depth":
        return max(state.trophy[p], 0)
    if m == "current_depth":
        return state.depth[p]
    return state.maxd[p]


def rank_key(state: SusumukaState, p: int) -> tuple[int, ...]:
    tb = state.g.tie_break
    if tb == "current_depth_then_hp":
        return (measure(state, p), state.depth[p], state.hp[p])
    if tb == "hp":
        return (measure(state, p), state.hp[p])
    return (measure(state, p),)


def finish(state: SusumukaState) -> None:
    state.phase = OVER
    keys = [rank_key(state, p) for p in range(state.n)]
    best = max(keys)
    state.winners = tuple(p for p in range(state.n) if keys[p] == best)
    if EVENTS.on:
        _tell(state)


def _tell(state: SusumukaState) -> None:
    """The events of the end: the game ends, the deepest player(s), the tie-break."""
    g = state.g
    names = g.names
    EVENTS.emit(
        "game-end",
        "game_end",
        turns=state.round,
        all_out=all(state.out),
        last=state.round >= g.turns,
    )
    depths = [measure(state, p) for p in range(state.n)]
    deepest = max(depths)
    tied = [p for p in range(state.n) if depths[p] == deepest]
    EVENTS.emit(
        "winner",
        "deepest",
        players=[names[p] for p in tied],
        depth=deepest,
        measure=g.winner_measure,
    )
    if len(tied) > 1:
        EVENTS.emit(
            "tie-break",
            "tie_break",
            tied=[names[p] for p in tied],
            winners=[names[p] for p in state.winners],
            by=g.tie_break,
            depths=[state.depth[p] for p in tied],
            hp=[state.hp[p] for p in tied],
        )
