"""Combat and fleeing (clauses card-power, nullify, combat-roll, win, lose, flee): the
card's power at your depth (the deepest tier at or above you, its coloured part nullified by
your items), your dice and bonus, rerolls and power items after the roll, and the result: a
win moves you by the difficulty (down, or up after Return), a loss costs HP (and may kill
you), a flight moves you back by the difficulty (half of it with a flee-half skill or item,
not at all with a safe-flee item).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
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
            if EVENTS.on:
                EVENTS.emit("item-use", "safe_flee", player=g.names[p], item=word)
            discard_item(state, p, word)
        else:
            if EVENTS.on:
                EVENTS.emit(
                    "advance-hand",
                    "from_hand",
                    player=g.names[p],
                    card=word,
                    discarded=card,
                    fight=verb == "fight",
                )
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
        if EVENTS.on:
            tell_power(state, p, bool(args))
        state.phase = ROLL


def tell_power(state: SusumukaState, p: int, from_hand: bool) -> None:
    """The events of the card's power at the player's depth (and of its nullified part)."""
    g = state.g
    cid = state.c_card
    assert cid is not None
    idx = g.dungeon_index[cid]
    card = g.dungeon[idx]
    tier = card.tiers[g.tier_at[idx][state.c_depth]]
    colour = g.colours.get(tier.colour or "", {"ja": "", "en": ""})
    EVENTS.emit(
        "card-power",
        "card_power",
        player=g.names[p],
        card=cid,
        depth=state.c_depth,
        tier=tier.depth,
        base=tier.base,
        coloured=tier.coloured,
        colour=dict(colour),
        power=tier.base + tier.coloured,
        nullified=state.c_nullified,
        difficulty=card.difficulty,
        from_hand=from_hand,
    )
    if state.c_nullified:
        null = [
            iid
            for iid in state.items[p]
            if g.items[iid].effect == "nullify" and g.items[iid].colour in (tier.colour, ALL)
        ]
        EVENTS.emit(
            "nullify",
            "nullify",
            player=g.names[p],
            card=cid,
            item=null[0] if null else "",
            coloured=tier.coloured,
            colour=dict(colour),
            power=state.c_power,
        )


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
    if EVENTS.on:
        g = state.g
        if item is not None:
            EVENTS.emit(
                "item-use", "reroll_item", player=g.names[p], item=sid, dice=list(state.c_dice)
            )
        else:
            skill = g.skills[p][g.skill_index[p][sid]]
            EVENTS.emit(
                "skill-effects",
                "reroll_skill",
                player=g.names[p],
                skill={"ja": skill.name.ja, "en": skill.name.en},
                dice=list(state.c_dice),
            )
    if item is not None and item.use == "once":
        discard_item(state, p, sid)
    else:
        state.c_used = (*state.c_used, sid)
    state.phase = ROLL


def use_power(state: SusumukaState, p: int, iid: str) -> None:
    amount = state.g.items[iid].amount
    state.c_bonus += amount
    if EVENTS.on:
        EVENTS.emit(
            "item-use",
            "power_item",
            player=state.g.names[p],
            item=iid,
            amount=amount,
            power=sum(state.c_dice) + state.c_bonus,
        )
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
        before = state.depth[p]
        extra = state.stats[p].bonus_move
        move(state, p, difficulty + extra, not returning)
        if EVENTS.on:
            name = g.names[p]
            EVENTS.emit("win", "win", player=name, card=card, power=power, card_power=state.c_power)
            EVENTS.emit(
                "return-move" if returning else "win",
                "win_up" if returning else "win_down",
                player=name,
                difficulty=difficulty,
                extra=extra,
                steps=abs(state.c_moved),
                start=before,
                depth=state.depth[p],
            )
        if returning and state.depth[p] == 0:
            escape(state, p, END_TURN)
            return
        after_advance(state, p)
        return
    state.c_result = "lose"
    damage = max(state.c_power - state.stats[p].armour, 0)
    state.c_damage = damage
    state.hp[p] -= damage
    if EVENTS.on:
        EVENTS.emit(
            "lose",
            "lose",
            player=g.names[p],
            card=card,
            power=power,
            card_power=state.c_power,
            damage=damage,
            armour=state.c_power - damage,
            hp=state.hp[p],
            depth=state.depth[p],
        )
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
    half = state.stats[p].flee_half
    steps = 0 if smoke else difficulty // 2 if half else difficulty
    before = state.depth[p]
    returning = state.flag[p] >= 0
    move(state, p, steps, returning)
    if EVENTS.on:
        EVENTS.emit(
            "return-move" if returning else "flee",
            "flee_down" if returning else "flee_up",
            player=g.names[p],
            card=card,
            difficulty=difficulty,
            steps=abs(state.c_moved),
            start=before,
            depth=state.depth[p],
            half=half and not smoke,
            smoke=smoke,
        )
    after_advance(state, p)
