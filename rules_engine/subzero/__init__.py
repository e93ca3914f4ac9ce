"""S.U.B.Z.E.R.O. (Snowball Ultimate Battle Zone Enemy Rage Operation): the rules engine.

A snowball fight on a square grid, programmed three cards at a time.  Every number comes
from the game's data (`components/subzero/`): the board size and labels, hand size,
program slots, snowball and HIT-token limits and the ending parameters from game.yaml
`rules:`; the action cards (their actions and steps, and how many of each) from cards.yaml;
the player colours (decks with a pawn) and their HIT tokens from players.yaml.

The rooms, in the order a newcomer reads them (with the ids of the rule clauses each plays,
as `clauses:` in game.yaml declares them; error messages and the event log name them):

- `actions`: the actions (`Youngest`, `Place`, `Draw`, `Reshuffle`, `Program`, `Reveal`), the
  directions, the action cards (`Card`), the phases, and the notation (`format_action`,
  `parse_action`; the notation is listed there).
- `engine`: `Subzero`, the engine built from the game's data: rule parameters, options,
  players, cards, the board's geometry and the tables every state shares.
- `state`: `SubzeroState`, the position and the protocol (who acts, legal actions, checking
  and playing an action, cloning, equality) and what a player can know (`SubzeroView`).
- `setting_up`: `youngest`, `place`: the youngest player and placing the pawns.
- `programming`: `program`, the cards laid face down in the program slots.
- `reveal`: `reveal`, `combined`, turning up a card and its choices (MOVE, SHOOT, ROLL, SWISH, combined
  cards).
- `movement`: `move`, `move-bump`, `move-edge`, where a MOVE goes (edge turns, bumps) and a step's moves carried out.
- `resolution`: `resolve`, `hit`, a step resolved at once: the moves, the balls in flight
  (`shoot`) past the ducking (`swish`), the hits and HIT tokens; who a ball would hit now.
- `end_of_turn`: `deal`, `refill`, `reshuffle`, `start-passes`, the next step, the discards, refilling the hands, reshuffling,
  passing the start.
- `endings`: `game-end` and the endings, deathmatch, survival and all-out attack; dropping out; the winners.
- `random_play`: random legal actions, and whole random games (and a search player's
  playouts) played fast, by the loop and tables of `kernel`.
- `worked_examples`: a state from an example's `setup:`, and the facts its `expect:` names.
- `diagrams`: a state drawn for the rulebook (the battle zone and the player boards).

Every transition reports the rules it applies (`rules_engine.core.EVENTS`, while recording):
a reveal its card and actions, a resolution the moves, bumps, edge turns, balls, dodges, hits
and HIT tokens, the end of a turn the discards, the passing start and the draws, and the
ending its outcome; `Subzero.chance_classes` weighs the draws by their odds.

The seed's ambiguities are rule options (`options:` in game.yaml).  Where the text is silent and no
option was asked for, the engine plays these reconstructions:

- the youngest player (chance: `youngest`) places first and starts turn 1;
- a SHOOT with snowballs throws 1 or 2 of them (never none); a ROLL at 2 snowballs is lost;
- SWISH protects for the whole step, whatever the reveal order; a ball flies past its own
  thrower; a ball hits at most one pawn;
- a hit counts only with a HIT token to place: a shooter whose 15 tokens are all placed
  scores nothing more, and when nobody can change the result any more (no tokens left to
  drop anyone out, or to hit everyone) the game ends as a draw among those still in;
- players who drop out (deathmatch) in the same step as the last others, tie for least
  damage (survival), or complete an all-out attack in the same step, share the result;
- a player who drops out discards their hand and program; their pawn leaves the board;
- the discards are reshuffled when a card must be drawn and the draw pile is empty;
- with fixed edge turns, a turn that would leave the board (a corner) stops the mover.
"""

from __future__ import annotations

from rules_engine.subzero.actions import (
    DEAL,
    DIRECTIONS,
    KNOWN_ACTIONS,
    MOVE,
    OVER,
    PHASE_NAMES,
    PLACE,
    PROGRAM,
    REVEAL,
    ROLL_,
    SHOOT,
    SWISH,
    YOUNGEST,
    Action,
    Card,
    Choices,
    Draw,
    Place,
    Program,
    Reshuffle,
    Reveal,
    Youngest,
)
from rules_engine.subzero.end_of_turn import MultisetDraws
from rules_engine.subzero.endings import ALL_OUT, DEATHMATCH, SURVIVAL
from rules_engine.subzero.engine import GAME_ID, OPTION_NAMES, Subzero
from rules_engine.subzero.state import SubzeroState, SubzeroView

__all__ = [
    "ALL_OUT",
    "DEAL",
    "DEATHMATCH",
    "DIRECTIONS",
    "GAME_ID",
    "KNOWN_ACTIONS",
    "MOVE",
    "OPTION_NAMES",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "PROGRAM",
    "REVEAL",
    "ROLL_",
    "SHOOT",
    "SURVIVAL",
    "SWISH",
    "YOUNGEST",
    "Action",
    "Card",
    "Choices",
    "Draw",
    "MultisetDraws",
    "Place",
    "Program",
    "Reshuffle",
    "Reveal",
    "Subzero",
    "SubzeroState",
    "SubzeroView",
    "Youngest",
]
