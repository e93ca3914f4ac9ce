"""Skills (clause skills): outside the dungeon, before the action of your turn, a player
takes skills from their skill sheet, each at most as many times as it has boxes, while the
costs of all the skills taken add up to no more than the turns passed. What the skills add
up to is `SusumukaState._restat`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def buy(state: SusumukaState, p: int, sid: str) -> None:
    g = state.g
    k = g.skill_index[p][sid]
    skill = g.skills[p][k]
    state.skills[p][k] += 1
    state.spent[p] += skill.cost
    state._restat(p)
    if skill.effect == "hp_max":
        state.hp[p] = min(state.hp[p] + skill.amount, state.max_hp(p))
    if EVENTS.on:
        EVENTS.emit(
            "skills",
            "skill",
            player=g.names[p],
            skill={"ja": skill.name.ja, "en": skill.name.en},
            cost=skill.cost,
            spent=state.spent[p],
            passed=state.turns_passed(),
        )
