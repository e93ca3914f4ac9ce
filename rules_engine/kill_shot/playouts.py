"""A search player's playout, fast: `KillShotState.playout` plays the very game
`rules_engine.core.generic_playout` plays from the same generator (every current player's
legal actions, one taken by `rng.choice`; chance by `sample_action`), without checking the
actions it draws legal.

Most of a real-time game is one cycle: a player's reload (the n-card hand's sub-multisets,
up to 2^n, are most of the legal actions), chance's refill, chance's next reaction time.
Those three steps are played directly (`kernel.playout`, the loop, compiled by mypyc when
the project is set up: `rules_engine.native`): a real-time player's legal actions are
counted, not listed (the wait, the clear or the plays, the special cards, then the
reloads, whose number is a product over the hand's kinds, and the looks) and only the one
picked is made; the draw and the reaction time are drawn and applied at once.  A Situation
Room turn lists the plays but takes a reload by its index (`_turn_step`).  Every other
step goes through the legal actions and the rooms' own `_do` (`_playout_step`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from rules_engine.core import CHANCE, EVENTS, JointAction, collector_paused, generic_playout
from rules_engine.kill_shot import kernel
from rules_engine.kill_shot.actions import Action, Clear, Pass, Play, Wait
from rules_engine.kill_shot.special_cards import JAM
from rules_engine.kill_shot.state_base import KillShotStateBase


class Playouts(KillShotStateBase):
    """The search player's fast playout."""

    __slots__ = ()

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> int:
        """Play to the end (or `max_steps` steps) as `rules_engine.core.generic_playout`
        does from the same generator: the same game, the same number of actions returned.
        While events are recorded the protocol's loop plays (the shortcuts emit no events)."""
        if EVENTS.on:
            state: Any = self  # a `KillShotState`: the protocol's `State`
            return generic_playout(state, rng, max_steps)
        with collector_paused():  # (a fifth of the time, else)
            return kernel.playout(self, rng, max_steps)  # type: ignore[arg-type]

    def _turn_step(self, rng: random.Random) -> int:
        """A Situation Room turn as the protocol's loop plays it: everyone's legal action
        picked in seat order (`legal_actions`), the player to act's plays listed but their
        reloads (most of the list: up to 2^9) taken by index alone; then the turn played."""
        refill = self.g.refill
        t = self.turn
        picks: list[Action] = []
        for q in self.g.everyone:
            if q == t:
                plays = self._turn_plays(q)
                rest: Sequence[Action] = self._reloads(q, False) if refill else (Pass(q),)
                i = rng._randbelow(len(plays) + len(rest))  # type: ignore[attr-defined]
                picks.append(plays[i] if i < len(plays) else rest[i - len(plays)])
            else:
                window: list[Action] = [Pass(q), *self._window_specials(q)]
                picks.append(rng.choice(window))
        self._history.append(JointAction(picks))
        self.voided = []
        self.halt = False
        self._turn_joint(picks)
        return len(picks)

    def _playout_step(self, rng: random.Random) -> int:
        """One step as the protocol's loop plays it, the actions drawn from the legal ones
        (so not checked again); returns the number of actions applied."""
        players = self.current_players()
        picks: list[Action] = [
            self._sample_chance(rng) if p == CHANCE else rng.choice(self.legal_actions(p))
            for p in players
        ]
        if len(picks) == 1:
            a = picks[0]
            self._record(a)
            self._do(a)
        else:
            self._history.append(JointAction(picks))
            self._do_joint(picks)
        return len(picks)

    def _fitting(
        self, p: int, kinds_of: dict[frozenset[int], frozenset[int]]
    ) -> tuple[frozenset[int], ...]:
        """For each open hunt pile, the card kinds `p` may play on it now (their numbers
        `_allowed`); `kinds_of` keeps the kinds of each set of numbers met."""
        hunt_of = self.g.hunt_of
        out = []
        for k in range(len(self.piles)):
            if self.pile_open[k]:
                allowed = self._allowed(p, k)
                fit = kinds_of.get(allowed)
                if fit is None:
                    fit = kinds_of[allowed] = frozenset(
                        c for c in range(len(hunt_of)) if hunt_of[c] in allowed
                    )
                out.append(fit)
        return tuple(out)

    def _special_count(self, p: int, held: AbstractSet[int]) -> int:
        """How many special-card plays (`_special_plays`) the player has, holding the
        special cards `held` (kinds): a Jam at everyone else not jammed yet, Bad Intel on
        every open hunt pile that has cards."""
        count = 0
        for c in held:
            if self.g.special_of[c] == JAM:
                jammed = self.jammed
                count += self.n - jammed.count(True) - (0 if jammed[p] else 1)
            else:
                pile_open = self.pile_open
                piles = self.piles
                for k in range(len(piles)):
                    if pile_open[k] and piles[k]:
                        count += 1
        return count

    def _rt_head(self, p: int, i: int, plays: int) -> Action:
        """The real-time legal action at `i` before the reloads (`_rt_legal`): the wait, the
        clear (jammed) or one of the `plays` hunt plays, then the special cards."""
        if i == 0:
            return Wait(p)
        i -= 1
        if self.jammed[p]:
            if i == 0:
                return Clear(p)
            i -= 1
        elif i < plays:
            c, k = self._hunt_plays(p)[i]
            return Play(p, (c,), k)
        else:
            i -= plays
        return self._special_plays(p)[i]
