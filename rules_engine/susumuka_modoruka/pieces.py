"""The pieces of Susumuka & Modoruka as the engine plays them: the dungeon cards (monsters,
traps and the players' lost-property cards, with their depth tiers), the items of the four
item decks, and the skills of the skill sheets; and which item and skill effects it plays.
`SusumukaModoruka` reads them from the game's data (`dungeon.yaml`, `items.yaml`,
`players.yaml`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules_engine.core import Bilingual

ALL: Final = "all"

PASSIVE_EFFECTS: Final = frozenset(
    {
        "power",
        "power_dice",
        "armour",
        "nullify",
        "regen",
        "bonus_move",
        "flee_half",
        "investigate_draws",
        "reroll",
        "hp_max",
    }
)
ONCE_EFFECTS: Final = frozenset({"power", "heal", "reroll", "safe_flee", "climb", "revive"})


@dataclass(frozen=True)
class Tier:
    depth: int
    base: int
    colour: str | None
    coloured: int


@dataclass(frozen=True)
class DungeonCard:
    """A kind of dungeon card (monster, trap) or a player's lost-property card."""

    id: str
    name: Bilingual
    type: str  # "monster" | "trap" | "lost_property"
    difficulty: int
    tiers: tuple[Tier, ...]
    count: int
    owner: int  # the player of a lost-property card, else -1

    def tier(self, depth: int) -> Tier:
        """The tier with the greatest depth at or above which you stand."""
        found = self.tiers[0]
        for t in self.tiers:
            if t.depth <= depth:
                found = t
        return found


@dataclass(frozen=True)
class Item:
    id: str
    name: Bilingual
    deck: str
    effect: str
    amount: int  # amount / dice / hp, as the effect needs
    colour: str | None
    use: str  # "keep" | "once"
    count: int


@dataclass(frozen=True)
class Skill:
    id: str
    name: Bilingual
    cost: int
    max: int
    effect: str
    amount: int
    per: str | None
