"""A rule-of-thumb S.U.B.Z.E.R.O. player: shoot on a line, roll when empty, duck when aimed at,
move to find a line.

It reads only what its player sees (`InfoSet.view()` and the legal actions):

- placing, it takes a free square on no other pawn's line, else any;
- programming, it plays each ordering of three of its cards in its head, from where it
  stands, and scores it: a SHOOT with snowballs counts most when an opponent is on a line
  (less otherwise, someone may walk into it), a ROLL when it has no snowball, a SWISH when an
  opponent with snowballs has a line on it (most in the first step), a MOVE when it has no
  line or is aimed at;
- revealing, it throws each ball along a line whose first pawn is an opponent that is not
  ducking (keeping the rest when no line has one), moves to the square that gives it the most
  lines and the fewest threats, rolls below the limit and ducks when aimed at.

Ties are broken with its random numbers, so it is deterministic given them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.bots import InfoSet
from rules_engine.subzero.actions import Place, Program, Reveal
from rules_engine.subzero.state import SubzeroView

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero


class Heuristic:
    """The rule-of-thumb player (see the module)."""

    name = "heuristic"

    def __init__(self, engine: Subzero) -> None:
        self.g = engine
        self.me = -1

    def choose(self, info: InfoSet, rng: random.Random) -> Any:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = info.view()
        assert isinstance(view, SubzeroView)
        self.me = me = info.player
        # Per decision: who stands where, and the lines from each square looked at.
        self.owner = {q: p for p, q in enumerate(view.positions) if q >= 0 and p != me}
        self.memo: dict[int, tuple[int, int]] = {}
        first = actions[0]
        if isinstance(first, Place):
            return self._place(view, actions, rng)
        if isinstance(first, Program):
            return self._best(actions, lambda a: self._program(view, a), rng)
        return self._best(actions, lambda a: self._reveal(view, a), rng)

    @staticmethod
    def _best(actions: Sequence[Any], score: Any, rng: random.Random) -> Any:
        best: list[Any] = []
        top = float("-inf")
        for a in actions:
            v = score(a)
            if v > top + 1e-9:
                top, best = v, [a]
            elif v > top - 1e-9:
                best.append(a)
        return best[int(rng.random() * len(best))]

    # --- what the board says ----------------------------------------------------------------

    def _lines(self, view: SubzeroView, square: int) -> tuple[int, int]:
        """From `square`: how many shot lines have an opponent as first pawn (not ducking),
        and how many opponents holding snowballs have `square` as first pawn on a line."""
        found = self.memo.get(square)
        if found is not None:
            return found
        lines = self.g.lines[square]
        owner = self.owner
        aims = threats = 0
        for d in self.g.shot_directions:
            for q in lines[d]:
                o = owner.get(q, -1)
                if o >= 0:
                    if not view.ducking[o]:
                        aims += 1
                    if view.snowballs[o]:
                        threats += 1
                    break
        found = self.memo[square] = (aims, threats)
        return found

    # --- placing ------------------------------------------------------------------------------

    def _place(self, view: SubzeroView, actions: Sequence[Any], rng: random.Random) -> Any:
        safe = [a for a in actions if self._lines(view, a.square) == (0, 0)]
        pool = safe or list(actions)
        return pool[int(rng.random() * len(pool))]

    # --- programming --------------------------------------------------------------------------

    def _program(self, view: SubzeroView, action: Program) -> float:
        g = self.g
        me = self.me
        aims, threats = self._lines(view, view.positions[me])
        balls = view.snowballs[me]
        score = 0.0
        for i, cid in enumerate(action.cards):
            k = g.card_index[cid]
            shoot, roll, swish, steps = (
                g.card_shoot[k],
                g.card_roll[k],
                g.card_swish[k],
                g.card_move[k],
            )
            value = 0.0
            if steps:
                value = 1.0 if not aims or threats else 0.3
                aims = max(aims, 1)  # a move can find a line
            if shoot:
                if balls:
                    value += 3.0 if aims else 1.2
                    balls -= min(balls, g.max_balls_per_shot)
                elif not steps:
                    value -= 1.0
            if roll:
                value = 2.0 if balls == 0 else (0.8 if balls < g.max_snowballs else -1.0)
                balls = min(balls + 1, g.max_snowballs)
            if swish:
                value = max(value, (1.6 if i == 0 else 0.7) if threats else 0.1)
            score += value
        return score

    # --- revealing ----------------------------------------------------------------------------

    def _reveal(self, view: SubzeroView, r: Reveal) -> float:
        g = self.g
        me = self.me
        square = view.positions[me]
        balls = view.snowballs[me]
        aims, threats = self._lines(view, square)
        score = 0.0
        if r.move >= 0:
            steps = g.card_move[g.card_index[r.card]]
            path = g.path(square, r.move, steps, r.turn)
            end = path[-1] if path else square
            if end in view.positions:
                end = square  # a bump: assume it stays
            to_aims, to_threats = self._lines(view, end)
            score += 0.8 * to_aims - 0.6 * to_threats - (0.8 * aims - 0.6 * threats)
            if end != square:
                score += 0.1
        if r.shots is not None:
            score += self._shots(view, square, r.shots)
        if r.roll:
            score += 1.5 if balls == 0 else (0.6 if balls < g.max_snowballs else -1.0)
        if r.swish:
            score += 1.2 if threats else 0.05
        return score

    def _shots(self, view: SubzeroView, square: int, shots: tuple[int, ...]) -> float:
        """Balls along lines with an opponent first score; a wasted ball costs a little."""
        lines = self.g.lines[square]
        owner = self.owner
        score = 0.0
        for d in shots:
            hit = False
            for q in lines[d]:
                o = owner.get(q, -1)
                if o >= 0:
                    hit = not view.ducking[o]
                    break
            score += 2.0 if hit else -0.3
        return score
