"""Submarine Attack (サブマリン・アタック, のーべー 2002): the complete rules engine.

Every number comes from the game's data (`components/submarine-attack/`): dice per
torpedo (`dice`), dice an evasion cancels (`cancel_dice`), ships per transport
(`ships`), and the rule parameters of the chosen rule version (`game.rule_params`).
Rule ids follow the seed's rule text (2 who goes first, 2-1 transports, 2-2 action cards,
2-3 to 2-4 attacks, 2-3-1(1)-pair and the other results of a roll, 2-3-1(2) evasion, 2-5
round end, 3 game end, 5 more players), as game.yaml declares them under `clauses:`:
refusals name them, and every transition reports the rules it applies to the event log
(`rules_engine.core.EVENTS`, told in words by game.yaml's `narration:`).

The rooms, in the order a newcomer reads them (the rulebook's chapters in brackets):

- `actions`: the actions (`Start`, `Place`, `Roll`, `Target`), the action cards, the
  phases of a round, and the notation (`first red`, `red place 5 1 2 3 1 2 / TS ...`,
  `roll 3 3 5 6`, `red target 4`).
- `engine`: `SubmarineAttack`, the game under one rule version and set of rule options:
  the rule parameters and each player's cards read from the data, the rule options it
  plays (`OPTION_NAMES`), states from a worked example's setup, chance classes of dice
  rolls, and the worked examples' queries.
- `state`: `SubmarineAttackState`, the position's data, the protocol of
  `rules_engine.core.State` (who acts, legal actions, clone, equality, fast random
  play), and each player's view; it hands every action to the rules of its phase:
- `first_player` [Setting up]: who goes first, in round 1 and in every later round.
- `placement` [Playing a round, steps 1-2]: laying out transports and action cards.
- `attacks` [Playing a round, step 3; Evasion]: the attacks slot by slot, and the dice an
  evasion takes away.
- `torpedoes` [Torpedoes and dice]: the roll, what its groups sink, the attacker's pick.
- `round_end` [End of a round and scoring]: how a round ends and what each player scores.
- `game_end` [End of the game]: the winner, or a draw.
- `diagrams`: a state drawn as grids for the rulebook's worked examples.
- `clues`: the seed's stated facts, checked against the reconstructed card data.
- `kernel`: a search player's playout, fast (`SubmarineAttackState.playout`): the game the
  protocol's loop plays from the same generator, without its dispatch.
"""

from __future__ import annotations

from rules_engine.submarine_attack.actions import (
    OVER,
    PHASE_NAMES,
    PLACE,
    ROLL,
    START,
    TARGET,
    Action,
    ActionCard,
    Place,
    Roll,
    Start,
    Target,
)
from rules_engine.submarine_attack.clues import Clue, check_clues, scorable_survivors
from rules_engine.submarine_attack.engine import GAME_ID, OPTION_NAMES, SubmarineAttack
from rules_engine.submarine_attack.round_end import ALL_SLOTS, SINKINGS, RoundResult
from rules_engine.submarine_attack.state import SubmarineAttackState, SubmarineView

__all__ = [
    "ALL_SLOTS",
    "GAME_ID",
    "OPTION_NAMES",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "ROLL",
    "SINKINGS",
    "START",
    "TARGET",
    "Action",
    "ActionCard",
    "Clue",
    "Place",
    "Roll",
    "RoundResult",
    "Start",
    "SubmarineAttack",
    "SubmarineAttackState",
    "SubmarineView",
    "Target",
    "check_clues",
    "scorable_survivors",
]
