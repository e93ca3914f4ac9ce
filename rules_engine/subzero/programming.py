"""Programming (rule `program`): each player lays some cards in hand face down, left to right.

As many cards as the board has program slots (`program_slots`).  Everyone programs at the
same time: one joint action of a `Program` per player still in the game, in seat order.
When every program is laid down, the first step's reveals begin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.subzero.actions import PROGRAM, REVEAL, Program

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState


def check_program(s: SubzeroState, player: int, action: Program) -> None:
    g = s.g
    phase = s.phase
    names = g.names
    if phase != PROGRAM:
        raise IllegalActionError(
            "program", f"cards are programmed at the start of a turn ({s._now()})"
        )
    if action.player != player or player in s.out:
        raise IllegalActionError(
            "program",
            f"{g.player_name(player)} cannot program {g.player_name(action.player)}'s cards",
        )
    if len(action.cards) != g.slots:
        raise IllegalActionError(
            "program",
            f"{g.slots} of the {len(s.hands[player])} cards in hand are placed face "
            f"down, {names[player]} placed {len(action.cards)}",
        )
    hand = [g.card_ids[k] for k in s.hands[player]]
    for c in set(action.cards):
        have = hand.count(c)
        if action.cards.count(c) > have:
            raise IllegalActionError(
                "program",
                f"{names[player]} has {have} card(s) {c} in hand (hand: {' '.join(hand)})",
            )


def program_cards(s: SubzeroState, program: Program) -> None:
    index = s.g.card_index
    program_kinds(s, program.player, tuple([index[c] for c in program.cards]))


def program_kinds(s: SubzeroState, p: int, kinds: tuple[int, ...]) -> None:
    hand = s.hands[p]
    for k in kinds:
        hand.remove(k)
    s.programs[p] = kinds
    if EVENTS.on:
        g = s.g
        EVENTS.emit("program", "program", player=g.names[p], cards=[g.card_ids[k] for k in kinds])
    if all(s.programs[q] for q in s.order):
        s.phase = REVEAL
        s.slot = 0
        s.rpos = 0
        s.step_reveals = []
