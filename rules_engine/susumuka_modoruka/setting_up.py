"""Setting up (clause setup): a new game starts from `SusumukaState(engine)` (every pawn
outside the dungeon at full HP, the dungeon cards shuffled into the deck, the lost-property
cards with their owners, the item decks sorted; chance then picks the first player). A
worked example starts from any position instead: `setup_state` builds it from the example's
`setup:` mapping, taking every card it names from where the setup finds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import SetupError
from rules_engine.susumuka_modoruka.phases import MAIN
from rules_engine.susumuka_modoruka.state import SusumukaState

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka


SETUP_KEYS: Final = (
    "round",
    "first",
    "current",
    "depth",
    "hp",
    "items",
    "skills",
    "hand",
    "flag",
    "trophy",
    "max_depth",
    "lost_property",
    "discard",
    "deck",
)


def setup_state(g: SusumukaModoruka, setup: Mapping[str, Any]) -> SusumukaState:
    """A state from an example's setup (see SETUP_KEYS): the player `current` (default
    `first`) is about to act in round `round` (default 1); without `first`, the first
    player is still to be drawn."""
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupError((key,), f"unknown setup key '{key}' (known: {', '.join(SETUP_KEYS)})")
    state = SusumukaState(g)
    rnd = setup.get("round", 1)
    if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= g.turns:
        raise SetupError(("round",), f"round must be 1 to {g.turns}, got {rnd!r}")
    s = state
    s.round = rnd

    def per_player(key: str) -> dict[int, Any]:
        value = setup.get(key, {})
        if not isinstance(value, Mapping):
            raise SetupError((key,), f"'{key}' maps player names to values")
        return {g._setup_player(name, (key, name)): v for name, v in value.items()}

    def number(key: str, p: int, v: Any, low: int, high: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise SetupError((key, g.names[p]), f"{key} must be {low} to {high}, got {v!r}")
        return v

    for p, v in per_player("skills").items():
        if not isinstance(v, list):
            raise SetupError(("skills", g.names[p]), "skills is a list of skill ids")
        for sid in v:
            k = g.skill_index[p].get(str(sid))
            if k is None:
                raise SetupError(("skills", g.names[p]), f"unknown skill {sid!r}")
            s.skills[p][k] += 1
            if s.skills[p][k] > g.skills[p][k].max:
                raise SetupError(
                    ("skills", g.names[p]), f"{sid} taken more than {g.skills[p][k].max}"
                )
            s.spent[p] += g.skills[p][k].cost
        if s.spent[p] > rnd - 1:
            raise SetupError(
                ("skills", g.names[p]),
                f"skills cost {s.spent[p]}, more than the {rnd - 1} turns passed",
            )
    for p in range(g.num_players):
        s.hp[p] = g.start_hp + s._restat(p).hp_extra
    for p, v in per_player("depth").items():
        s.depth[p] = number("depth", p, v, 0, g.depth_max)
        s.maxd[p] = s.depth[p]
    for p, v in per_player("max_depth").items():
        s.maxd[p] = number("max_depth", p, v, s.depth[p], g.depth_max)
    for p, v in per_player("hp").items():
        s.hp[p] = number("hp", p, v, g.death_at + 1, s.max_hp(p))
    for p, v in per_player("flag").items():
        if s.depth[p] == 0:
            raise SetupError(("flag", g.names[p]), "a flag needs the player inside")
        s.flag[p] = number("flag", p, v, 1, g.depth_max)
    for p, v in per_player("trophy").items():
        s.trophy[p] = number("trophy", p, v, 1, g.depth_max)
    item_pool = {d: list(s.ipile[k]) for k, d in enumerate(g.item_decks)}

    def take_items(key: tuple[str | int, ...], ids: Any) -> list[str]:
        if not isinstance(ids, list):
            raise SetupError(key, "a list of item ids")
        out = []
        for iid in ids:
            item = g.items.get(str(iid))
            if item is None:
                raise SetupError(key, f"unknown item {iid!r}")
            pool = item_pool[item.deck]
            slot = g.item_slot[item.id]
            if pool[slot] == 0:
                raise SetupError(key, f"no {iid} left in the {item.deck} deck")
            pool[slot] -= 1
            out.append(item.id)
        return out

    for p, v in per_player("items").items():
        s.items[p] = sorted(take_items(("items", g.names[p]), v))
        s._restat(p)
    for p, v in per_player("lost_property").items():
        s.lost[p] = sorted(take_items(("lost_property", g.names[p]), v))
        s.lp_home[p] = False
        s.pile[g.lp_index[p]] += 1
    for k, d in enumerate(g.item_decks):
        s.ipile[k] = item_pool[d]
    dungeon_pool = list(s.pile)

    def take_cards(key: tuple[str | int, ...], ids: Any) -> list[str]:
        if not isinstance(ids, list):
            raise SetupError(key, "a list of dungeon card ids")
        out = []
        for cid in ids:
            idx = g.dungeon_index.get(str(cid))
            if idx is None or g.dungeon[idx].type == "lost_property":
                raise SetupError(key, f"unknown dungeon card {cid!r}")
            if dungeon_pool[idx] == 0:
                raise SetupError(key, f"no {cid} left in the dungeon deck")
            dungeon_pool[idx] -= 1
            out.append(str(cid))
        return out

    for p, v in per_player("hand").items():
        s.hand[p] = sorted(take_cards(("hand", g.names[p]), v))
    if "discard" in setup:
        for cid in take_cards(("discard",), setup["discard"]):
            s.discard[g.dungeon_index[cid]] += 1
    if "deck" in setup:
        if "discard" in setup:
            raise SetupError(("deck",), "give 'deck' or 'discard', not both")
        # The deck holds exactly these cards; every other card not in a hand (and not a
        # lost-property card) is in the discard pile.
        before = list(dungeon_pool)
        take_cards(("deck",), setup["deck"])
        lost_cards = set(g.lp_index)
        for i, had in enumerate(before):
            if i not in lost_cards:
                left = dungeon_pool[i]
                s.discard[i] += left
                dungeon_pool[i] = had - left
    s.pile = dungeon_pool
    s.pile_n = sum(dungeon_pool)
    s.discard_n = sum(s.discard)
    if "first" in setup:
        first = g._setup_player(setup["first"], ("first",))
        current = g._setup_player(setup.get("current", setup["first"]), ("current",))
        s.first = first
        s.cur = current
        s.phase = MAIN
    elif "current" in setup:
        raise SetupError(("current",), "'current' needs 'first'")
    state.init = state._snapshot()
    return state
