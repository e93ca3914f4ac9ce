"""Laying out the cards (the rulebook's "Playing a round", steps 1 and 2; rules 2-1, 2-2).

At the start of a round every player at once (one joint action of `Place`s) lays out
`transports_placed` of their transports face down, one per column, and `actions_placed`
of their action cards face down, one per slot; the rest are set aside.  Once everyone
has placed, the attacks begin (`attacks.advance`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.submarine_attack.actions import PLACE, Place
from rules_engine.submarine_attack.attacks import advance

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState


def check_place(state: SubmarineAttackState, player: int, action: Place) -> None:
    """Raise `IllegalActionError` unless `player` may lay out `action` now."""
    g = state.g
    if state.phase != PLACE:
        raise IllegalActionError(
            "2-1", f"cards are placed at the start of a round ({state._now()})"
        )
    if action.player != player:
        raise IllegalActionError(
            "2-1",
            f"{g.player_name(player)} cannot place {g.player_name(action.player)}'s cards",
        )
    name = g.names[player]
    if len(action.ships) != g.transports_placed:
        raise IllegalActionError(
            "2-1",
            f"{g.transports_placed} of the {len(g.ships_hand)} transport cards must be placed "
            f"(columns 1-{g.columns}), {name} placed {len(action.ships)}",
        )
    _check_subset("2-1", name, "transport", action.ships, g.ships_hand, lambda s: f"{s} ship(s)")
    if len(action.cards) != g.actions_placed:
        raise IllegalActionError(
            "2-2",
            f"{g.actions_placed} of the {len(g.cards_hand)} action cards must be placed "
            f"(slots 1-{g.actions_placed}), {name} placed {len(action.cards)}",
        )
    for code in action.cards:
        if code not in g.cards:
            known = ", ".join(sorted(g.cards, key=g._card_order))
            raise IllegalActionError("2-2", f"unknown action card '{code}' (cards: {known})")
    _check_subset("2-2", name, "action", action.cards, g.cards_hand, str)


def place(state: SubmarineAttackState, place: Place) -> None:
    p = place.player
    g = state.g
    # Copy on write: clones share these lists.
    state.ships = [*state.ships]
    state.ships[p] = place.ships
    state.slots = [*state.slots]
    state.slots[p] = place.cards
    state.spare_ships = [*state.spare_ships]
    state.spare_ships[p] = _minus(g.ships_hand, place.ships)
    state.spare_cards = [*state.spare_cards]
    state.spare_cards[p] = _minus(g.cards_hand, place.cards)
    if EVENTS.on:
        name = g.names[p]
        EVENTS.emit(
            "2-1",
            "place_transports",
            player=name,
            ships=list(place.ships),
            left_out=list(state.spare_ships[p]),
            columns=g.columns,
        )
        EVENTS.emit(
            "2-2",
            "place_actions",
            player=name,
            cards=list(place.cards),
            left_out=list(state.spare_cards[p]),
            slots=g.actions_placed,
        )
    if all(state.slots):
        state.slot = 0
        state.turn = 0
        advance(state)


def _minus(hand: tuple[Any, ...], used: tuple[Any, ...]) -> tuple[Any, ...]:
    rest = list(hand)
    for x in used:
        rest.remove(x)
    return tuple(rest)


def _check_subset(
    rule: str, name: str, what: str, chosen: tuple[Any, ...], hand: tuple[Any, ...], show: Any
) -> None:
    for item in set(chosen):
        have = hand.count(item)
        if chosen.count(item) > have:
            listing = " ".join(str(h) for h in hand)
            if have == 0:
                raise IllegalActionError(
                    rule, f"{name} has no {what} card {show(item)} (cards: {listing})"
                )
            raise IllegalActionError(
                rule,
                f"{name} placed {chosen.count(item)} {what} cards {show(item)} "
                f"but has only {have} (cards: {listing})",
            )
