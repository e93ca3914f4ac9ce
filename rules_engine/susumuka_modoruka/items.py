"""Items (clause item-use): a kept item works while held (`SusumukaState._restat` adds it
up); a one-shot item is used once and goes to the bottom of its deck or out of the game
(option `used_items`). Healing and climbing items are used before your action (here); power
items and rerolls after the roll (`combat.py`), a safe-flee item as you flee, revival when
you would die (`death.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.susumuka_modoruka.phases import BACK_TO_MAIN
from rules_engine.susumuka_modoruka.return_escape import escape

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def discard_item(state: SusumukaState, p: int, iid: str) -> None:
    state.items[p].remove(iid)
    if state.g.used_to_bottom:
        item = state.g.items[iid]
        state.ibottom[state.g.item_decks.index(item.deck)].append(iid)
    else:
        state.removed.append(iid)


def use_main(state: SusumukaState, p: int, iid: str) -> None:
    item = state.g.items[iid]
    discard_item(state, p, iid)
    if item.effect == "heal":
        before = state.hp[p]
        state.hp[p] = min(before + item.amount, state.max_hp(p))
        if EVENTS.on:
            EVENTS.emit(
                "item-use",
                "heal",
                player=state.g.names[p],
                item=iid,
                healed=state.hp[p] - before,
                hp=state.hp[p],
            )
        return
    # climb
    before = state.depth[p]
    depth = max(before - item.amount, 0)
    state.depth[p] = depth
    if EVENTS.on:
        EVENTS.emit(
            "item-use", "climb", player=state.g.names[p], item=iid, start=before, depth=depth
        )
    if depth == 0 and state.flag[p] >= 0:
        escape(state, p, BACK_TO_MAIN)
