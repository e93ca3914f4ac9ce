"""A rule-of-thumb player of SQUARES II for the balance lab (`rules_engine.bots`).

`Heuristic` looks one action ahead: it tries every legal action on a position drawn from
what it may know (`InfoSet.sample`), takes a win at once, and otherwise keeps the action
after which the centre row looks best for it (`balance.prospects`: the centre squares
held and within a step, and whether the opponent, acting next, can complete three),
give or take a little noise.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Final

from rules_engine.bots import InfoSet
from rules_engine.squares2.actions import Action, Place
from rules_engine.squares2.balance import prospects
from rules_engine.squares2.engine import Squares2
from rules_engine.squares2.state import Squares2State
from rules_engine.squares2.turn import OVER

JITTER: Final = 0.2
"""Noise added to each try's value: two careful players otherwise block each other's
centre for ever (without it half of heuristic games passed 200 turns, with it 15%)."""


class Heuristic:
    """One action ahead, scored by the centre row with a little noise (`JITTER`, from its
    rng), so that it is deterministic given its rng."""

    name = "heuristic"

    def __init__(self, engine: Squares2 | Any) -> None:
        self.engine = engine

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions: Sequence[Action] = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        state = info.sample(rng)
        assert isinstance(state, Squares2State)
        state._history = []  # a copy of our own: the tries need no history to copy
        p = info.player
        sign = 1.0 if p == 0 else -1.0
        games = len(state.results)
        best: list[Action] = []
        best_value = -2.0
        for action in state.legal_actions(p):
            child = state.clone()
            child._do(action)
            if len(child.results) > games:  # this action ends the game
                winner = child.results[-1]
                value = 2.0 if winner == p else -2.0 if winner >= 0 else 0.0
            elif child.phase == OVER:
                value = 0.0
            else:
                value = sign * prospects(child) + JITTER * rng.random()
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        chosen = best[int(rng.random() * len(best))]
        # The sample may hold same-faced tiles (combined sets) in other places: play the
        # true legal action that reads the same.
        if chosen in actions:
            return chosen
        key = _seen(state.g, chosen)
        return next(a for a in actions if _seen(state.g, a) == key)


def _seen(g: Squares2, action: Action) -> Hashable:
    """An action as the opponent sees it: a placement by its face, not its tile."""
    if isinstance(action, Place):
        return (
            "place",
            action.player,
            g.fcode[action.player][2 * action.tile + action.face],
            action.square,
        )
    return action
