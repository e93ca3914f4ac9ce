"""Attacking, slot by slot (the rulebook's "Playing a round", step 3, and "Evasion";
rules 2-3, 2-3-1, 2-3-1(2), 2-3-2, 2-4).

Both players turn over the action card of the same slot together; the first player's
attack resolves, then the next player's, each against the player on their left.  A
torpedo rolls its dice less those the defender's evasion card takes away; an evasion card
attacks nobody, and a torpedo left with no dice cannot hit.  The dice themselves are
`torpedoes`; after each attack the round may end (`round_end`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.submarine_attack.actions import ROLL
from rules_engine.submarine_attack.round_end import ALL_SLOTS, SINKINGS, end_round

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack
    from rules_engine.submarine_attack.state import SubmarineAttackState


def advance(state: SubmarineAttackState) -> None:
    """Go to the next attack that needs dice (rule 2-3, 2-4), or end the round (2-5-2)."""
    g = state.g
    n = state.n
    slots = state.slots
    dice_of = g.card_dice
    cancel_of = g.card_cancel
    order = state.order
    on = EVENTS.on
    while True:
        if state.turn >= n:
            state.turn = 0
            state.slot += 1
            if state.slot >= g.actions_placed:
                end_round(state, ALL_SLOTS, None)
                return
        attacker = order[state.turn]
        slot = state.slot
        if on and state.turn == 0:
            reveal_events(state)
        made = attack(dice_of, cancel_of, slots, n, slot, attacker)
        if on:
            attack_events(state, attacker)
        state.attacker = attacker
        state.attacks.append(made)
        dice = made[3]
        if dice:
            state.dice = dice
            state.phase = ROLL
            return
        # An evasion card attacks nobody; a torpedo left with no dice cannot hit.
        state.last_roll = ()
        state.last_sunk = []
        state.turn += 1


def attack(
    dice_of: Mapping[str, int],
    cancel_of: Mapping[str, int],
    slots: Sequence[tuple[str, ...]],
    n: int,
    slot: int,
    attacker: int,
) -> tuple[int, int, str, int]:
    """The attack of `attacker`'s card in `slot` as `state.attacks` records it: the slot,
    the attacker, the card and the dice it rolls, its own less those the defender's
    evasion card takes (rule 2-3-1(2)); 0 for an evasion, or a torpedo left none."""
    code = slots[attacker][slot]
    dice = dice_of[code]
    if dice:
        dice -= cancel_of[slots[(attacker + 1) % n][slot]]
    return (slot, attacker, code, dice if dice > 0 else 0)


def made_attacks(
    g: SubmarineAttack, slots: Sequence[tuple[str, ...]], order: tuple[int, ...], count: int
) -> list[tuple[int, int, str, int]]:
    """The first `count` attacks of a round whose cards are `slots` and whose first player
    begins `order`, as `advance` records them: slot by slot, each player in turn.  A
    round's attacks follow from its cards alone; the playout kernel counts them and makes
    them only when they are read."""
    n = len(order)
    return [
        attack(g.card_dice, g.card_cancel, slots, n, k // n, order[k % n]) for k in range(count)
    ]


def reveal_events(state: SubmarineAttackState) -> None:
    """Rule 2-3 (attack 1) or 2-4 (later attacks): every player turns over the slot's card."""
    g = state.g
    slot = state.slot
    players = [g.names[p] for p in state.order]
    codes = [state.slots[p][slot] for p in state.order]
    EVENTS.emit(
        "2-3" if slot == 0 else "2-4",
        "reveal",
        slot=slot + 1,
        players=players,
        kinds=[g.cards[c].kind for c in codes],
        grades=[g.cards[c].grade for c in codes],
    )


def attack_events(state: SubmarineAttackState, attacker: int) -> None:
    """Rule 2-3-1 (the first player) or 2-3-2 (the next): one player's attack begins; rule
    2-3-1(2): an evasion card attacks nobody, and takes dice from the torpedo it meets;
    rule 5: with three or more players, the attack goes to the player on the left."""
    g = state.g
    n = state.n
    slot = state.slot
    defender = (attacker + 1) % n
    card = g.cards[state.slots[attacker][slot]]
    other = g.cards[state.slots[defender][slot]]
    player = g.names[attacker]
    if card.kind == "evasion":
        EVENTS.emit("2-3-1(2)", "no_attack", player=player, grade=card.grade)
        return
    if n > 2:
        EVENTS.emit("5", "left", player=player, defender=g.names[defender])
    EVENTS.emit(
        "2-3-1" if state.turn == 0 else "2-3-2",
        "attack",
        player=player,
        defender=g.names[defender],
        order=state.turn + 1,
        seats=n,
        grade=card.grade,
        dice=card.dice,
    )
    if other.cancel:
        EVENTS.emit(
            "2-3-1(2)",
            "evasion",
            player=g.names[defender],
            grade=other.grade,
            cancel=other.cancel,
            torpedo=card.grade,
            left=max(card.dice - other.cancel, 0),
        )


def end_attack(state: SubmarineAttackState) -> None:
    """Rule 2-5-1: 8 or more ships sunk at the end of an attack ends the round."""
    attacker = state.attacker
    if state.last_sunk and state.sunk_ships[(attacker + 1) % state.n] >= state.g.round_end_ships:
        end_round(state, SINKINGS, attacker)
        return
    state.turn += 1
    advance(state)
