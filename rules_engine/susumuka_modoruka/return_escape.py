"""Return and escape (clauses return, return-move, escape, escape-items, trophy,
escape-heal): after an advance inside the dungeon a player may declare Return (their flag
marks the depth); back at depth 0 after Return is an escape: the trophy, healing (option
`escape_heal`) and items drawn from the deck the flag's depth earns (option `item_deck`).
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.phases import END_TURN, ITEM, MAIN, PICK
from rules_engine.susumuka_modoruka.turn import end_turn

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def eligible_decks(state: SusumukaState, p: int) -> list[str]:
    g = state.g
    flag = state.last_escape[1] if state.last_escape else 0
    return [
        d
        for k, d in enumerate(g.item_decks)
        if g.threshold[d] <= flag and (any(state.ipile[k]) or state.ibottom[k])
    ]


def escape(state: SusumukaState, p: int, cont: int) -> None:
    g = state.g
    flag = state.flag[p]
    state.flag[p] = -1
    state.depth[p] = 0
    state.escapes[p] += 1
    old = state.trophy[p]
    if flag > old:
        state.trophy[p] = flag
    before = state.hp[p]
    if g.escape_full:
        state.hp[p] = state.max_hp(p)
    if EVENTS.on:
        name = g.names[p]
        EVENTS.emit("escape", "escape", player=name, flag=flag)
        EVENTS.emit(
            "trophy",
            "trophy" if flag > old else "trophy_kept",
            player=name,
            flag=flag,
            old=old if old >= 0 else None,
        )
        if g.escape_full:
            EVENTS.emit("escape-heal", "escape_heal", player=name, hp=state.hp[p], start=before)
    state.last_escape = (p, flag, None, ())
    state.e_cont = cont
    state.e_got = []
    eligible = eligible_decks(state, p)
    if not g.choose_deck:
        best = [d for d in g.item_decks if g.threshold[d] <= flag]
        eligible = [best[-1]] if best and best[-1] in eligible else []
    if len(eligible) > 1:
        if EVENTS.on:
            EVENTS.emit("escape-items", "choose_deck", player=g.names[p], decks=list(eligible))
        state.phase = PICK
        return
    if eligible:
        start_item_draws(state, g.item_decks.index(eligible[0]))
        return
    if EVENTS.on:
        earned = [d for d in g.item_decks if g.threshold[d] <= flag]
        EVENTS.emit(
            "escape-items",
            "no_item",
            player=g.names[p],
            flag=flag,
            earned=bool(earned),
            first=g.threshold[g.item_decks[0]],
        )
    escape_done(state)


def start_item_draws(state: SusumukaState, k: int) -> None:
    state.e_deck = k
    state.e_left = state.g.item_draws
    p, flag, _, got = state.last_escape or (state.cur, 0, None, ())
    state.last_escape = (p, flag, state.g.item_decks[k], got)
    state.phase = ITEM


def item_drawn(state: SusumukaState, iid: str) -> None:
    g = state.g
    k = state.e_deck
    pile = state.ipile[k]
    slot = g.item_slot[iid]
    if pile[slot]:
        pile[slot] -= 1
    else:
        state.ibottom[k].pop(0)
    p = state.cur
    if EVENTS.on:
        EVENTS.emit("escape-items", "item", player=g.names[p], item=iid, deck=g.item_decks[k])
    insort(state.items[p], iid)
    state._restat(p)
    state.e_got.append(iid)
    if state.last_escape:
        q, flag, deck, _ = state.last_escape
        state.last_escape = (q, flag, deck, tuple(state.e_got))
    state.e_left -= 1
    if state.e_left > 0 and (any(pile) or state.ibottom[k]):
        return
    escape_done(state)


def escape_done(state: SusumukaState) -> None:
    if state.e_cont == END_TURN:
        end_turn(state)
    else:
        state.phase = MAIN
