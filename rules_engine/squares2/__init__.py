"""SQUARES II (スクエアーズ2, ばろぬ / GOTTA2 2014): the complete rules engine.

Every number comes from the game's data (`components/squares2/`): the board (columns, rows,
centre row, camps), the row limit, the centre squares needed to win, the abilities (their
effect, distance, target, whether they jump) and each player's ten tiles (tiles.yaml, one
deck per player).  Rule numbers in error messages follow the seed's sections (1 setup,
2 turn, 3 placing, 4 moving, 5 abilities, 6 battles, 7 combined sets).

Squares are named by a column letter and a row number, `a1`..`e5`; rows are counted from
orange's side: row 1 is orange's camp, row 5 purple's (`rules.board.camp_rows`: `first` and
`second` are the two player sets in deck order).  "Left" and "right" are orange's.

The rooms, in the order a newcomer reads them (most follow a chapter of the rulebook,
`components/squares2/rulebook/`):

- `tiles`: the tiles (コマ): a face, a double-sided tile, a player's set read from the
  data, and how a tile sits on a square (`EMPTY`, `player << 7 | face`).
- `abilities`: the abilities (能力, rule 5): their effects, the hooks of continuous
  abilities (`ContinuousEffect`), and the rules of using one and of continuous ones in play.
- `actions`: the actions (`Start`, `Place`, `Move`, `Use`, `Return`, `Pass`) and their
  notation: formatting and parsing, square and face names.
- `engine`: `Squares2`, the game under one rule version and set of rule options: the rule
  parameters and options, the abilities and tile sets (combined sets, rule 7), the board's
  tables, a worked example's setup (`setup_state`) and its queries (`query`).
- `state`: `Squares2State`, a position: its data, cloning, the players' views
  (`Squares2View`) and the protocol (`rules_engine.core.State`); it binds the rules below
  as its methods.
- `turn`: playing a turn (手番の流れ, rule 2): the phases, the legal choices, checking an
  action and playing it.
- `placing`: placing a tile (コマを出す, rule 3).
- `moving`: moving a tile (コマを動かす, rule 4), and lifting and putting tiles.
- `battle`: battles (戦闘, rule 6).
- `row_limit`: the row limit (列の上限値, rule 2-2): row totals, tiles going back to hand.
- `winning`: winning (勝利, rule 2-3): the centre squares, the end of a game and of the
  match, the next game's first player.
- `playouts`: a search player's random playout played fast (`Squares2State.playout`):
  the legal actions counted on bitmasks of the board, the drawn one played directly.
- `diagrams`: a state drawn for the rulebook's worked examples.
"""

from __future__ import annotations

from rules_engine.squares2.abilities import (
    EFFECTS,
    Ability,
    ContinuousEffect,
    Holder,
    TileInPlay,
)
from rules_engine.squares2.actions import Action, Move, Pass, Place, Return, Start, Use
from rules_engine.squares2.battle import Battle
from rules_engine.squares2.engine import GAME_ID, OPTION_NAMES, Squares2
from rules_engine.squares2.state import Squares2State, Squares2View
from rules_engine.squares2.tiles import EMPTY, Face, Tile, tile_specs_of_deck
from rules_engine.squares2.turn import OVER, PHASE_NAMES, RETURN, START, TURN

__all__ = [
    "EFFECTS",
    "EMPTY",
    "GAME_ID",
    "OPTION_NAMES",
    "OVER",
    "PHASE_NAMES",
    "RETURN",
    "START",
    "TURN",
    "Ability",
    "Action",
    "Battle",
    "ContinuousEffect",
    "Face",
    "Holder",
    "Move",
    "Pass",
    "Place",
    "Return",
    "Squares2",
    "Squares2State",
    "Squares2View",
    "Start",
    "Tile",
    "TileInPlay",
    "Use",
    "tile_specs_of_deck",
]
