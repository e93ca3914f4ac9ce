"""Attacking, slot by slot (the rulebook's "Playing a round", step 3, and "Evasion";
rules 2-3, 2-4).

Both players turn over the action card of the same slot together; the first player's
attack resolves, then the next player's, each against the player on their left.  A
torpedo rolls its dice less those the defender's evasion card takes away; an evasion card
attacks nobody, and a torpedo left with no dice cannot hit.  The dice themselves are
`torpedoes`; after each attack the round may end (`round_end`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.submarine_attack.actions import ROLL
from rules_engine.submarine_attack.round_end import ALL_SLOTS, SINKINGS, end_round

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState


def advance(state: SubmarineAttackState) -> None:
    """Go to the next attack that needs dice (rule 2-3, 2-4), or end the round (2-5-2)."""
    g = state.g
    n = state.n
    slots = state.slots
    dice_of = g.card_dice
    cancel_of = g.card_cancel
    order = state.order
    while True:
        if state.turn >= n:
            state.turn = 0
            state.slot += 1
            if state.slot >= g.actions_placed:
                end_round(state, ALL_SLOTS, None)
                return
        attacker = order[state.turn]
        slot = state.slot
        dice = dice_of[slots[attacker][slot]]
        if dice:
            dice -= cancel_of[slots[(attacker + 1) % n][slot]]
        state.attacker = attacker
        state.attacks.append((slot, attacker, slots[attacker][slot], max(dice, 0)))
        if dice > 0:
            state.dice = dice
            state.phase = ROLL
            return
        # An evasion card attacks nobody; a torpedo left with no dice cannot hit.
        state.last_roll = ()
        state.last_sunk = []
        state.turn += 1


def end_attack(state: SubmarineAttackState) -> None:
    """Rule 2-5-1: 8 or more ships sunk at the end of an attack ends the round."""
    attacker = state.attacker
    if state.last_sunk and state.sunk_ships[(attacker + 1) % state.n] >= state.g.round_end_ships:
        end_round(state, SINKINGS, attacker)
        return
    state.turn += 1
    advance(state)
