"""Turns and your turn (clauses turn-order, outside, inside): a turn of the game is a round
in which every player takes one turn in seat order from the first player. Your turn: the
start of the turn (regaining HP), the preparation (skills outside the dungeon, healing and
climbing items) and the action (investigate or advance, or pass when no dungeon card is
left), then, inside the dungeon after an advance, the chance to declare Return; then the
next player's turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.actions import Action
from rules_engine.susumuka_modoruka.endings import finish
from rules_engine.susumuka_modoruka.phases import MAIN, RETURN

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def begin_turn(state: SusumukaState) -> None:
    p = state.cur
    regen = state.stats[p].regen
    if regen:
        before = state.hp[p]
        state.hp[p] = min(before + regen, state.max_hp(p))
        if EVENTS.on:
            g = state.g
            skill = any(
                k and s.effect == "regen" for s, k in zip(g.skills[p], state.skills[p], strict=True)
            )
            EVENTS.emit(
                "skill-effects" if skill else "item-use",
                "regen",
                player=g.names[p],
                healed=state.hp[p] - before,
                hp=state.hp[p],
            )
    state.purpose = 0
    state.top = None
    state.phase = MAIN


def main_actions(state: SusumukaState, p: int) -> list[Action]:
    g = state.g
    acts: list[Action] = []
    inside = state.depth[p] > 0
    if not inside:
        budget = state.turns_passed() - state.spent[p]
        if budget > 0:
            taken = state.skills[p]
            for k, skill in enumerate(g.skills[p]):
                if taken[k] < skill.max and skill.cost <= budget:
                    acts.append(g.skill_acts[p][k])
    if state.items[p]:
        last = ""
        one = g.one_acts[p]
        main_use = g.main_use
        for iid in state.items[p]:
            if iid != last:
                last = iid
                use = main_use.get(iid)
                if use is not None and (inside or not use):
                    acts.append(one["use", iid])
    verbs = g.verb_acts[p]
    can_draw = state.pile_n + state.discard_n > 0
    if not inside and can_draw and room(state, p) > 0:
        acts.append(verbs["investigate"])
    if can_draw or state.hand[p]:
        acts.append(verbs["advance"])
    else:
        acts.append(verbs["pass"])
    return acts


def room(state: SusumukaState, p: int) -> int:
    limit = state.g.hand_limit
    return 1_000_000 if limit is None else limit - len(state.hand[p])


def after_advance(state: SusumukaState, p: int) -> None:
    if state.depth[p] > 0 and state.flag[p] < 0:
        state.phase = RETURN
    else:
        end_turn(state)


def end_turn(state: SusumukaState) -> None:
    n = state.n
    out = state.out
    state.purpose = 0
    state.top = None
    if all(out):
        finish(state)
        return
    p = state.cur
    while True:
        p = (p + 1) % n
        if p == state.first:
            if state.round >= state.g.turns:
                finish(state)
                return
            state.round += 1
            if EVENTS.on:
                EVENTS.emit("turn-order", "round", ended=state.round - 1, round=state.round)
        if not out[p]:
            break
    state.cur = p
    begin_turn(state)
