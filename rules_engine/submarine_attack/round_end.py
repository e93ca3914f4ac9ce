"""The end of a round and scoring (the rulebook's "End of a round and scoring"; rule 2-5).

A round ends when, at the end of an attack, a player has sunk `round_end_ships` or more
ships (`SINKINGS`, rule 2-5-1: only the sinker scores; with three or more players the
`multiplayer_round_end` option says whether the others score too), or when every slot
has been played (`ALL_SLOTS`, rule 2-5-2: everyone scores).  A player scores the ships of
their own transports still afloat.  Then the game ends (`game_end`) or the next round
begins (`first_player.next_round`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rules_engine.core import EVENTS
from rules_engine.submarine_attack.first_player import next_round
from rules_engine.submarine_attack.game_end import end_game

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState

SINKINGS: Final = "sinkings"
ALL_SLOTS: Final = "all_slots"


@dataclass(frozen=True)
class RoundResult:
    """How one round ended, and what each player scored (public once the round ends)."""

    round: int
    end: str  # SINKINGS | ALL_SLOTS
    sinker: int | None
    points: tuple[int, ...]
    survivors: tuple[tuple[int, ...], ...]  # surviving ships per player, by column
    cards: tuple[tuple[str, ...], ...]  # action cards revealed per player
    # The table as the round left it (public once the round ends): each player's ship
    # numbers by column, action cards by slot, sunk columns (bit c: column c + 1) and the
    # round's attacks as `SubmarineAttackState.attacks` holds them.
    ships: tuple[tuple[int, ...], ...] = ()
    slots: tuple[tuple[str, ...], ...] = ()
    sunk: tuple[int, ...] = ()
    attacks: tuple[tuple[int, int, str, int], ...] = ()


def afloat(ships: tuple[int, ...], sunk: int) -> tuple[int, ...]:
    """The ships of the columns still afloat, by column (`sunk`: bit c set = column c + 1
    sunk)."""
    return tuple([s for c, s in enumerate(ships) if not sunk >> c & 1])


def end_round(state: SubmarineAttackState, end: str, sinker: int | None) -> None:
    """End the round: score it, then end the game or start the next round."""
    g = state.g
    n = state.n
    victim = None if sinker is None else (sinker + 1) % n
    others_score = g.others_score
    survivors = tuple(state.survivors(p) for p in range(n))
    points = []
    for p in range(n):
        if end == ALL_SLOTS or p == sinker or (p != victim and others_score):
            points.append(sum(survivors[p]))
        else:
            points.append(0)
    for p in range(n):
        state.scores[p] += points[p]
    if EVENTS.on:
        round_events(state, end, sinker, victim, tuple(points), survivors)
    last = state.slot
    state.results = [*state.results]
    state.results.append(
        RoundResult(
            state.round,
            end,
            sinker,
            tuple(points),
            survivors,
            tuple(state.slots[p][: last + 1] for p in range(n)),
            tuple(state.ships),
            tuple(state.slots),
            tuple(state.sunk),
            tuple(state.attacks),
        )
    )
    state.pending = []
    state.pending_pairs = ()
    state.dice = 0
    if end_game(state):
        return
    next_round(state)


def round_events(
    state: SubmarineAttackState,
    end: str,
    sinker: int | None,
    victim: int | None,
    points: tuple[int, ...],
    survivors: tuple[tuple[int, ...], ...],
) -> None:
    """Rule 2-5-1 (sunk out) or 2-5-2 (attacks used up): why the round ends and what each
    player scores; rule 5: with three or more, what a player neither sinker nor sunk scores."""
    g = state.g
    names = g.names
    if end == SINKINGS and sinker is not None and victim is not None:
        EVENTS.emit(
            "2-5-1",
            "sunk_out",
            player=names[sinker],
            defender=names[victim],
            ships=state.sunk_ships[victim],
            limit=g.round_end_ships,
        )
        order = [sinker, *(p for p in state.order if p not in (sinker, victim)), victim]
        for p in order:
            if p == sinker:
                rule, what = "2-5-1", "score"
            elif p == victim:
                rule, what = "2-5-1", "sunk_scores_zero"
            else:
                rule, what = "5", "bystander"
            EVENTS.emit(
                rule,
                what,
                player=names[p],
                points=points[p],
                survivors=list(survivors[p]),
                total=state.scores[p],
            )
        return
    EVENTS.emit("2-5-2", "all_attacks", slots=g.actions_placed)
    for p in state.order:
        EVENTS.emit(
            "2-5-2",
            "score",
            player=names[p],
            points=points[p],
            survivors=list(survivors[p]),
            total=state.scores[p],
        )
