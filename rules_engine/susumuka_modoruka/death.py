"""Death and lost property (clauses death, lost-property, respawn): at the death HP or less
a player dies unless a revive skill or item saves them; the dead drop their items into the
lost-property area (their lost-property card goes into the dungeon deck), discard their
hand, lose their flag and come back at the respawn depth (or are out, option `death`).
Picking lost property up is in `investigate_advance.drawn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.investigate_advance import to_discard
from rules_engine.susumuka_modoruka.items import discard_item

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def revive(state: SusumukaState, p: int) -> bool:
    g = state.g
    hp = state.stats[p].revive_hp
    if hp and not state.undying[p]:
        state.undying[p] = True
        state.hp[p] = min(hp, state.max_hp(p))
        if EVENTS.on:
            skill = next(s for s in g.skills[p] if s.effect == "revive")
            EVENTS.emit(
                "skill-effects",
                "revive_skill",
                player=g.names[p],
                skill={"ja": skill.name.ja, "en": skill.name.en},
                hp=state.hp[p],
            )
        return True
    for iid in sorted(state.items[p]):
        item = g.items[iid]
        if item.effect == "revive":
            discard_item(state, p, iid)
            state.hp[p] = min(item.amount, state.max_hp(p))
            if EVENTS.on:
                EVENTS.emit("item-use", "revive_item", player=g.names[p], item=iid, hp=state.hp[p])
            return True
    return False


def die(state: SusumukaState, p: int) -> None:
    g = state.g
    state.deaths[p] += 1
    state.c_result = "dead"
    dropped = state.items[p]
    state.lost[p].extend(dropped)
    state.items[p] = []
    card_in = state.lp_home[p]
    if card_in:
        state.lp_home[p] = False
        state.pile[g.lp_index[p]] += 1
        state.pile_n += 1
    if EVENTS.on:
        name = g.names[p]
        EVENTS.emit("death", "death", player=name, hp=state.hp[p])
        EVENTS.emit(
            "lost-property",
            "drop",
            player=name,
            items=list(dropped),
            card=g.dungeon[g.lp_index[p]].id,
            shuffled=card_in,
            hand=list(state.hand[p]),
        )
    for cid in state.hand[p]:
        to_discard(state, cid)
    state.hand[p] = []
    state.flag[p] = -1
    if not g.keep_trophy:
        state.trophy[p] = -1
    if not g.keep_skills:
        state.skills[p] = [0] * len(state.skills[p])
    state._restat(p)
    if g.death_out:
        state.out[p] = True
        state.depth[p] = 0
        state.hp[p] = min(state.hp[p], 0)
        if EVENTS.on:
            EVENTS.emit("respawn", "out", player=g.names[p], trophy=max(state.trophy[p], 0))
        return
    state.depth[p] = g.respawn_depth
    state.hp[p] = state.max_hp(p) if g.respawn_full else min(g.respawn_hp, state.max_hp(p))
    if EVENTS.on:
        EVENTS.emit(
            "respawn",
            "respawn",
            player=g.names[p],
            depth=state.depth[p],
            hp=state.hp[p],
            trophy=state.trophy[p] if state.trophy[p] >= 0 else None,
        )
