"""The end of the game (the rulebook's "End of the game"; rule 3).

After a round, once a player has `target_points` or more the game ends and the player
with the most points wins.  A tie for the most points is a draw under `tie_winner: draw`;
under `tie_winner: play_on` the players play more rounds until one leads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.submarine_attack.actions import OVER

if TYPE_CHECKING:
    from rules_engine.submarine_attack.state import SubmarineAttackState


def end_game(state: SubmarineAttackState) -> bool:
    """End the game if a round just scored is its last (rule 3); say whether it did."""
    g = state.g
    n = state.n
    scores = state.scores
    top = max(scores)
    if top >= g.target_points:
        leaders = tuple(p for p in range(n) if scores[p] == top)
        if len(leaders) == 1 or g.tie_winner == "draw":
            state.winners = leaders
            state.phase = OVER
            return True
    return False
