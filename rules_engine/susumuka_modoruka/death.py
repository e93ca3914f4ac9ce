"""Death and lost property (rule 9): at the death HP or less a player dies unless a revive
skill or item saves them; the dead drop their items into the lost-property area (their
lost-property card goes into the dungeon deck), discard their hand, lose their flag and come
back at the respawn depth (or are out, option `death`).  Picking lost property up is in
`investigate_advance.drawn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        return True
    for iid in sorted(state.items[p]):
        item = g.items[iid]
        if item.effect == "revive":
            discard_item(state, p, iid)
            state.hp[p] = min(item.amount, state.max_hp(p))
            return True
    return False


def die(state: SusumukaState, p: int) -> None:
    g = state.g
    state.deaths[p] += 1
    state.c_result = "dead"
    state.lost[p].extend(state.items[p])
    state.items[p] = []
    if state.lp_home[p]:
        state.lp_home[p] = False
        state.pile[g.lp_index[p]] += 1
        state.pile_n += 1
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
        return
    state.depth[p] = g.respawn_depth
    state.hp[p] = state.max_hp(p) if g.respawn_full else min(g.respawn_hp, state.max_hp(p))
