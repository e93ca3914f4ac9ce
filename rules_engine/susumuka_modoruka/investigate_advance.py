"""Investigate and Advance (clauses investigate, advance, advance-hand, empty-deck):
investigating draws dungeon cards into your hand (outside the dungeon only, up to the hand
limit); advancing turns over the top card of the dungeon deck to fight or flee from (or a
card of your hand instead). When the deck is empty the discard pile becomes the deck; a
lost-property card drawn gives its items to the player who drew it (clause
lost-property-draw).
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.phases import CHOOSE, DRAW, INVESTIGATE, REVEAL
from rules_engine.susumuka_modoruka.turn import after_advance, end_turn, room

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def investigate(state: SusumukaState, p: int) -> None:
    """Start investigating: draw dungeon cards into the hand of player `p`."""
    state.purpose = INVESTIGATE
    state.draws_left = min(state.g.investigate_draws + state.stats[p].extra_draws, room(state, p))
    if EVENTS.on:
        EVENTS.emit("investigate", "investigate", player=state.g.names[p], draws=state.draws_left)
    next_draw(state)


def advance(state: SusumukaState) -> None:
    """Start an advance: the top card of the dungeon deck is turned over."""
    start_advance(state)
    if EVENTS.on:
        p = state.cur
        depth = state.depth[p]
        EVENTS.emit(
            "inside" if depth > 0 else "outside", "advance", player=state.g.names[p], depth=depth
        )
    next_draw(state)


def start_advance(state: SusumukaState) -> None:
    """An advance's purpose set and the last combat's traces cleared (shared with the
    playout kernel)."""
    state.purpose = REVEAL
    state.top = None
    state.c_card = None
    state.c_dice = ()
    state.c_result = None
    state.c_moved = 0
    state.c_damage = 0


def reshuffle(state: SusumukaState) -> None:
    """The empty dungeon deck takes the discard pile (shared with the playout kernel)."""
    state.pile = state.discard
    state.pile_n = state.discard_n
    state.discard = [0] * len(state.pile)
    state.discard_n = 0


def next_draw(state: SusumukaState) -> None:
    """Draw the next dungeon card for the purpose at hand (reshuffling the discard pile
    into the deck when the deck is empty), or go on when no card is left."""
    if state.pile_n == 0 and state.discard_n:
        reshuffle(state)
        if EVENTS.on:
            EVENTS.emit("empty-deck", "reshuffle", cards=state.pile_n)
    if state.purpose == INVESTIGATE:
        if state.draws_left > 0 and state.pile_n:
            state.phase = DRAW
        else:
            if state.draws_left > 0 and EVENTS.on:
                EVENTS.emit(
                    "empty-deck",
                    "no_more_cards",
                    player=state.g.names[state.cur],
                    short=state.draws_left,
                )
            end_turn(state)
    elif state.pile_n:
        state.phase = DRAW
    else:
        to_choose(state)


def drawn(state: SusumukaState, cid: str) -> None:
    g = state.g
    idx = g.dungeon_index[cid]
    state.pile[idx] -= 1
    state.pile_n -= 1
    p = state.cur
    card = g.dungeon[idx]
    if card.type == "lost_property":
        owner = card.owner
        got = tuple(sorted(state.lost[owner]))
        state.items[p].extend(got)
        state.items[p].sort()
        state.lost[owner] = []
        state.lp_home[owner] = True
        state.last_pickup = (p, owner, got)
        state._restat(p)
        if EVENTS.on:
            EVENTS.emit(
                "lost-property-draw",
                "pickup",
                player=g.names[p],
                owner=g.names[owner],
                items=list(got),
                again=g.draw_again,
            )
        if not g.draw_again:
            if state.purpose == INVESTIGATE:
                state.draws_left -= 1
                next_draw(state)
            else:
                to_choose(state)
            return
        next_draw(state)
        return
    if state.purpose == INVESTIGATE:
        if EVENTS.on:
            EVENTS.emit("investigate", "draw_hand", player=g.names[p], card=cid)
        insort(state.hand[p], cid)
        state.draws_left -= 1
        next_draw(state)
    else:
        if EVENTS.on:
            EVENTS.emit(
                "advance", "reveal", player=g.names[p], card=cid, difficulty=card.difficulty
            )
        state.top = cid
        to_choose(state)


def to_choose(state: SusumukaState) -> None:
    p = state.cur
    if state.top is None and not state.hand[p]:
        # Nothing to fight: the advance ends.
        if EVENTS.on:
            EVENTS.emit("empty-deck", "nothing_to_fight", player=state.g.names[p])
        after_advance(state, p)
        return
    state.phase = CHOOSE


def to_discard(state: SusumukaState, cid: str) -> None:
    idx = state.g.dungeon_index[cid]
    state.discard[idx] += 1
    state.discard_n += 1
