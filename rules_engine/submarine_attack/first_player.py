"""Setting up (the rulebook's "Setting up", rule 2): who goes first.

Round 1's first player is decided by chance (a `Start` action: rock-paper-scissors or any
way you like); from round 2 on the player with fewer victory points goes first, and a tie
is settled by the `tie_first_player` option (`janken`: chance again; `same`: the previous
first player, or the next tied player after them; `alternate`: the next tied player after
the previous first player).  The first player fixes the order of attacks for the round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.submarine_attack.actions import PLACE, START, Start

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState


def check_start(state: SubmarineAttackState, action: Start) -> None:
    """Raise `IllegalActionError` unless chance may name `action.player` first now."""
    g = state.g
    if state.phase != START:
        raise IllegalActionError("2", f"the first player is already decided ({state._now()})")
    if action.player not in state.start_candidates:
        names = ", ".join(g.names[p] for p in state.start_candidates)
        raise IllegalActionError("2", f"the first player is one of {names}")


def start(state: SubmarineAttackState, first: int) -> None:
    """Chance names the first player (rock-paper-scissors), then play goes on."""
    if EVENTS.on:
        EVENTS.emit("2", "janken", player=state.g.names[first], round=state.round)
    set_first(state, first)


def set_first(state: SubmarineAttackState, first: int) -> None:
    n = state.n
    state.first = first
    state.order = tuple((first + i) % n for i in range(n))
    state.start_candidates = ()
    state.phase = PLACE


def next_round(state: SubmarineAttackState) -> None:
    """Start the next round: a fresh table, and who goes first."""
    g = state.g
    n = state.n
    scores = state.scores
    # Next round: fewer points goes first (rule 2).
    previous = state.first
    state.round += 1
    if EVENTS.on:
        EVENTS.emit(
            "2-5",
            "next_round",
            round=state.round,
            players=list(g.names),
            scores=list(scores),
        )
    state._clear_round()
    state.slot = 0
    state.turn = 0
    low = min(scores)
    tied = tuple(p for p in range(n) if scores[p] == low)
    if len(tied) == 1:
        if EVENTS.on:
            EVENTS.emit("2", "fewer_points", player=g.names[tied[0]], points=low, round=state.round)
        set_first(state, tied[0])
        return
    rule = g.tie_first
    if rule == "janken":
        if EVENTS.on:
            EVENTS.emit(
                "2", "tie_janken", players=[g.names[p] for p in tied], points=low, round=state.round
            )
        state.first = -1
        state.order = ()
        state.start_candidates = tied
        state.phase = START
        return
    start = previous if rule == "same" else previous + 1
    for i in range(n):
        p = (start + i) % n
        if p in tied:
            if EVENTS.on:
                EVENTS.emit(
                    "2",
                    "tie_" + rule,
                    player=g.names[p],
                    previous=g.names[previous],
                    points=low,
                    round=state.round,
                )
            set_first(state, p)
            return
