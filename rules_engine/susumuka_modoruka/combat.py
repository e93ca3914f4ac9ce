"""Combat and fleeing (rules 5 and 6): the card's power at your depth (the deepest tier at or
above you, its coloured part nullified by your items), your dice and bonus, rerolls and
power items after the roll, and the result: a win moves you by the difficulty (down, or up
after Return), a loss costs HP (and may kill you), a flight moves you back by the
difficulty (half of it with a flee-half skill or item, not at all with a safe-flee item).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.susumuka_modoruka.actions import Action
from rules_engine.susumuka_modoruka.death import die, revive
from rules_engine.susumuka_modoruka.investigate_advance import to_discard
from rules_engine.susumuka_modoruka.items import discard_item
from rules_engine.susumuka_modoruka.phases import AFTER, END_TURN, ROLL
from rules_engine.susumuka_modoruka.pieces import ALL
from rules_engine.susumuka_modoruka.return_escape import escape
from rules_engine.susumuka_modoruka.turn import after_advance, end_turn

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def safe_flee_item(state: SusumukaState, p: int) -> str | None:
    smoke = state.g.smoke_items
    for iid in state.items[p]:
        if iid in smoke:
            return iid
    return None


def choose_actions(state: SusumukaState, p: int) -> list[Action]:
    g = state.g
    acts: list[Action] = []
    smoke = safe_flee_item(state, p) if state.items[p] else None
    one = g.one_acts[p]
    if state.top is not None:
        verbs = g.verb_acts[p]
        acts.append(verbs["fight"])
        acts.append(verbs["flee"])
        if smoke:
            acts.append(one["flee", smoke])
    if state.top is None or g.may_use_hand:
        last = ""
        for cid in state.hand[p]:
            if cid == last:
                continue
            last = cid
            acts.append(one["fight", cid])
            acts.append(one["flee", cid])
            if smoke:
                acts.append(g.flee_with[p][cid, smoke])
    return acts


def after_actions(state: SusumukaState, p: int) -> list[Action]:
    g = state.g
    acts: list[Action] = []
    one = g.one_acts[p]
    rerolls = state.stats[p].rerolls
    if rerolls:
        used = state.c_used
        last = ""
        for sid in rerolls:
            if sid != last and used.count(sid) < rerolls.count(sid):
                acts.append(one["reroll", sid])
            last = sid
    if state.items[p]:
        last = ""
        after_use = g.after_use
        for iid in state.items[p]:
            if iid != last:
                last = iid
                verb = after_use.get(iid)
                if verb is not None:
                    acts.append(one[verb, iid])
    verbs = g.verb_acts[p]
    if g.flee_after:
        acts.append(verbs["flee"])
        smoke = safe_flee_item(state, p)
        if smoke:
            acts.append(one["flee", smoke])
    acts.append(verbs["accept"])
    return acts


def choose(state: SusumukaState, p: int, verb: str, args: tuple[str, ...]) -> None:
    g = state.g
    card = state.top
    smoke = False
    for word in args:
        if word in g.items:
            smoke = True
            discard_item(state, p, word)
        else:
            if card is not None:
                to_discard(state, card)
            state.hand[p].remove(word)
            card = word
    state.top = None
    assert card is not None
    start_combat(state, p, card)
    if verb == "flee":
        flee(state, p, card, smoke)
    else:
        state.phase = ROLL


def start_combat(state: SusumukaState, p: int, cid: str) -> None:
    g = state.g
    idx = g.dungeon_index[cid]
    card = g.dungeon[idx]
    depth = state.depth[p]
    tier = card.tiers[g.tier_at[idx][depth]]
    null = state.stats[p].nullify
    nullified = tier.colour is not None and (tier.colour in null or ALL in null)
    state.c_card = cid
    state.c_player = p
    state.c_depth = depth
    state.c_nullified = nullified
    state.c_power = tier.base + (0 if nullified else tier.coloured)
    state.c_bonus = state.stats[p].bonus
    state.c_dice = ()
    state.c_used = ()
    state.c_result = None
    state.c_moved = 0
    state.c_damage = 0


def after_roll(state: SusumukaState, p: int) -> None:
    acts = after_actions(state, p)
    if len(acts) == 1:
        resolve(state, p)
    else:
        state.phase = AFTER


def reroll(state: SusumukaState, p: int, sid: str) -> None:
    item = state.g.items.get(sid)
    if item is not None and item.use == "once":
        discard_item(state, p, sid)
    else:
        state.c_used = (*state.c_used, sid)
    state.phase = ROLL


def use_power(state: SusumukaState, p: int, iid: str) -> None:
    state.c_bonus += state.g.items[iid].amount
    discard_item(state, p, iid)
    after_roll(state, p)


def move(state: SusumukaState, p: int, steps: int, down: bool) -> None:
    before = state.depth[p]
    depth = before + steps if down else before - steps
    depth = max(0, min(depth, state.g.depth_max))
    state.depth[p] = depth
    if depth > state.maxd[p]:
        state.maxd[p] = depth
    state.c_moved = depth - before


def resolve(state: SusumukaState, p: int) -> None:
    card = state.c_card
    assert card is not None
    to_discard(state, card)
    power = sum(state.c_dice) + state.c_bonus
    g = state.g
    if power > state.c_power:
        state.c_result = "win"
        difficulty = g.dungeon[g.dungeon_index[card]].difficulty
        returning = state.flag[p] >= 0
        move(state, p, difficulty + state.stats[p].bonus_move, not returning)
        if returning and state.depth[p] == 0:
            escape(state, p, END_TURN)
            return
        after_advance(state, p)
        return
    state.c_result = "lose"
    damage = max(state.c_power - state.stats[p].armour, 0)
    state.c_damage = damage
    state.hp[p] -= damage
    if state.hp[p] <= g.death_at and not revive(state, p):
        die(state, p)
        end_turn(state)
        return
    after_advance(state, p)


def flee(state: SusumukaState, p: int, card: str, smoke: bool) -> None:
    g = state.g
    to_discard(state, card)
    state.c_result = "flee"
    difficulty = g.dungeon[g.dungeon_index[card]].difficulty
    steps = 0 if smoke else difficulty // 2 if state.stats[p].flee_half else difficulty
    move(state, p, steps, state.flag[p] >= 0)
    after_advance(state, p)
