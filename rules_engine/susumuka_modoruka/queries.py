"""Named facts about a state, for the `expect:` of worked examples (`QUERIES`, and
`query` for one of them by name).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from rules_engine.susumuka_modoruka.phases import FIRST, OVER, PHASE_NAMES
from rules_engine.susumuka_modoruka.state import SusumukaState

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka


QUERIES: Final = (
    "round",
    "turns_passed",
    "phase",
    "current",
    "depth",
    "hp",
    "max_hp",
    "flag",
    "trophy",
    "max_depth",
    "items",
    "skills",
    "skill_points",
    "hand",
    "hand_size",
    "lost_property",
    "lost_property_card",
    "deck_size",
    "discard",
    "discard_size",
    "item_decks",
    "item_bottom",
    "top",
    "card",
    "card_tier",
    "card_base",
    "card_colour",
    "card_coloured",
    "nullified",
    "card_power",
    "dice",
    "bonus",
    "power",
    "result",
    "moved",
    "damage",
    "last_escape",
    "last_pickup",
    "escapes",
    "deaths",
    "out",
    "scores",
    "winners",
)


def query(g: SusumukaModoruka, state: Any, name: str) -> Any:
    if not isinstance(state, SusumukaState):
        raise TypeError("not a Susumuka & Modoruka state")
    s = state
    names = g.names
    players = range(s.n)

    def each(values: Sequence[Any]) -> dict[str, Any]:
        return {names[p]: values[p] for p in players}

    card = g.dungeon[g.dungeon_index[s.c_card]] if s.c_card else None
    tier = card.tier(s.c_depth) if card else None
    if name == "round":
        return s.round
    if name == "turns_passed":
        return s.turns_passed()
    if name == "phase":
        return PHASE_NAMES[s.phase]
    if name == "current":
        return names[s.cur] if s.phase not in (FIRST, OVER) else None
    if name == "depth":
        return each(s.depth)
    if name == "hp":
        return each(s.hp)
    if name == "max_hp":
        return each([s.max_hp(p) for p in players])
    if name == "flag":
        return each([f if f >= 0 else None for f in s.flag])
    if name == "trophy":
        return each([t if t >= 0 else None for t in s.trophy])
    if name == "max_depth":
        return each(s.maxd)
    if name == "items":
        return each([sorted(i) for i in s.items])
    if name == "skills":
        return each([s.skill_ids(p) for p in players])
    if name == "skill_points":
        return each(s.spent)
    if name == "hand":
        return each([sorted(h) for h in s.hand])
    if name == "hand_size":
        return each([len(h) for h in s.hand])
    if name == "lost_property":
        return each([sorted(i) for i in s.lost])
    if name == "lost_property_card":
        return each(["owner" if h else "deck" for h in s.lp_home])
    if name == "deck_size":
        return s.pile_n
    if name == "discard":
        return s.discard_list()
    if name == "discard_size":
        return s.discard_n
    if name == "item_decks":
        return {d: s.ipile_n(k) + len(s.ibottom[k]) for k, d in enumerate(g.item_decks)}
    if name == "item_bottom":
        return {d: list(s.ibottom[k]) for k, d in enumerate(g.item_decks)}
    if name == "top":
        return s.top
    if name == "card":
        return s.c_card
    if name == "card_tier":
        return tier.depth if tier else None
    if name == "card_base":
        return tier.base if tier else None
    if name == "card_colour":
        return tier.colour if tier else None
    if name == "card_coloured":
        return tier.coloured if tier else None
    if name == "nullified":
        return s.c_nullified if card else None
    if name == "card_power":
        return s.c_power if card else None
    if name == "dice":
        return list(s.c_dice)
    if name == "bonus":
        return s.c_bonus if card else None
    if name == "power":
        return sum(s.c_dice) + s.c_bonus if s.c_dice else None
    if name == "result":
        return s.c_result
    if name == "moved":
        return s.c_moved
    if name == "damage":
        return s.c_damage
    if name == "last_escape":
        if s.last_escape is None:
            return None
        p, flag, deck, got = s.last_escape
        return {"player": names[p], "flag": flag, "deck": deck, "items": list(got)}
    if name == "last_pickup":
        if s.last_pickup is None:
            return None
        q, owner, got = s.last_pickup
        return {"player": names[q], "owner": names[owner], "items": list(got)}
    if name == "escapes":
        return each(s.escapes)
    if name == "deaths":
        return each(s.deaths)
    if name == "out":
        return each(s.out)
    if name == "scores":
        return each([s.measure(p) for p in players])
    if name == "winners":
        return [names[p] for p in s.winners] if s.phase == OVER else None
    raise KeyError(name)
