"""The end of the game (the rulebook's "End of the game"; rule 3).

After a round, once a player has `target_points` or more the game ends and the player
with the most points wins.  A tie for the most points is a draw under `tie_winner: draw`;
under `tie_winner: play_on` the players play more rounds until one leads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
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
            if EVENTS.on:
                EVENTS.emit(
                    "3",
                    "game_won" if len(leaders) == 1 else "game_drawn",
                    player=g.names[leaders[0]],
                    players=[g.names[p] for p in leaders],
                    points=top,
                    target=g.target_points,
                )
            return True
        if EVENTS.on:
            EVENTS.emit(
                "3",
                "tie_play_on",
                players=[g.names[p] for p in leaders],
                points=top,
                target=g.target_points,
            )
    return False
