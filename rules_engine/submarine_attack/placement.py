"""Laying out the cards (the rulebook's "Playing a round", steps 1 and 2; rules 2-1, 2-2).

At the start of a round every player at once (one joint action of `Place`s) lays out
`transports_placed` of their transports face down, one per column, and `actions_placed`
of their action cards face down, one per slot; the rest are set aside.  Once everyone
has placed, the attacks begin (`attacks.advance`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.core import EVENTS, Arrangements, IllegalActionError, LazySequence
from rules_engine.submarine_attack.actions import PLACE, Place
from rules_engine.submarine_attack.attacks import advance

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState


class Placements(LazySequence[Place]):
    """Every placement of one player, lazily (161 million with the usual hand: 1,920 ways
    to lay the transports times 84,000 to lay the action cards): each arrangement of
    transports in the columns with each arrangement of action cards in the slots, in that
    order (the transports vary slowest).  Made once per engine and player
    (`SubmarineAttack.placements`); a search player picks one by index."""

    def __init__(self, player: int, ships: Arrangements, cards: Arrangements) -> None:
        self._player = player
        self._ships = ships
        self._cards = cards
        self._per_ships = len(cards)
        self._len = len(ships) * self._per_ships

    def _item(self, index: int) -> Place:
        i, j = divmod(index, self._per_ships)
        return Place(self._player, self._ships[i], self._cards[j])

    def __getitem__(self, index: int | slice) -> Any:
        # The bounds check of `LazySequence.__getitem__`, inlined: `rng.choice` calls this.
        if index.__class__ is int and 0 <= index < self._len:
            i, j = divmod(index, self._per_ships)
            return Place(self._player, self._ships[i], self._cards[j])
        return super().__getitem__(index)

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, Place)
            and value.player == self._player
            and value.ships in self._ships
            and value.cards in self._cards
        )


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


def plain_places(
    state: SubmarineAttackState, places: Sequence[object]
) -> list[tuple[Place, tuple[int, ...], tuple[str, ...]]] | None:
    """The placements `places` (one per player, in seat order), each with what its player
    sets aside, if they are plainly legal: each a `Place` of its own player with the right
    numbers of transports and action cards, all from the player's hand.  None when any is
    not: `check_place` then says which rule it breaks."""
    g = state.g
    tp = g.transports_placed
    ap = g.actions_placed
    found = []
    for p, place in enumerate(places):
        if (
            place.__class__ is not Place
            or place.player != p
            or len(place.ships) != tp
            or len(place.cards) != ap
        ):
            return None
        try:
            found.append(
                (place, _minus(g.ships_hand, place.ships), _minus(g.cards_hand, place.cards))
            )
        except ValueError:  # a card the player does not have (or not that many)
            return None
    return found


def place(
    state: SubmarineAttackState,
    place: Place,
    spare_ships: tuple[int, ...] | None = None,
    spare_cards: tuple[str, ...] | None = None,
) -> None:
    """Lay out a checked placement; what the player sets aside may be given (as
    `plain_places` finds it)."""
    p = place.player
    g = state.g
    # Copy on write: clones share these lists.
    state.ships = [*state.ships]
    state.ships[p] = place.ships
    state.slots = [*state.slots]
    state.slots[p] = place.cards
    state.spare_ships = [*state.spare_ships]
    state.spare_ships[p] = _minus(g.ships_hand, place.ships) if spare_ships is None else spare_ships
    state.spare_cards = [*state.spare_cards]
    state.spare_cards[p] = _minus(g.cards_hand, place.cards) if spare_cards is None else spare_cards
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
