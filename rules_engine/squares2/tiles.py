"""The tiles (コマ): a tile's two faces, and a player's set as the game's data states it.

On the board (`Squares2State.cell`) a tile is one number, `player << 7 | face` with
face = tile * 2 + side up (0 front, 1 back); an empty square is `EMPTY`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rules_engine.params import GameData

EMPTY: Final = -1


@dataclass(frozen=True)
class Face:
    ability: str
    value: int


@dataclass(frozen=True)
class Tile:
    """One double-sided tile: front (表) and back (裏)."""

    id: str
    front: Face
    back: Face

    def face(self, side: int) -> Face:
        return self.back if side else self.front


def tile_specs_of_deck(game: GameData, deck_id: str) -> list[dict[str, Any]]:
    """A player's set from a game's data: `{id, front: {ability, value}, back: {...}}`.

    Sets of other SQUARES games (seed section 7) are read the same way and may be mixed.
    """
    specs: list[dict[str, Any]] = []
    for piece in game.pieces:
        if piece.deck is None or piece.deck.id != deck_id:
            continue
        values = piece.component.values
        if "front" in values and "back" in values:
            specs.append({"id": piece.component.id, **values})
    return specs
