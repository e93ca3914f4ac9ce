"""Playing a hunt in real time (game types 1 and 2): there are no turns.

After the countdown's "go!" every player acts when their reaction time has passed (chance
draws it after each of their actions); players whose times are equal act in one
simultaneous step.  A hunt card lands on a hunt pile when its number may follow the top card
(`_allowed`); simultaneous plays land in an order chance decides, or all land (a reading);
the Kill Shot that ends a hunt claims its terrorist (`scoring.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.core import IllegalActionError
from rules_engine.kill_shot.actions import Action, Clear, Go, Look, Play, React, Reload
from rules_engine.kill_shot.phases import AFTER_GO, AFTER_PLAY, CLAIM, ORDER, OVER, PLAY, REVEAL
from rules_engine.kill_shot.special_cards import INTEL, JAM
from rules_engine.kill_shot.state_base import KillShotStateBase


class Hunt(KillShotStateBase):
    """The countdown, reaction times, and cards landing on the hunt piles."""

    __slots__ = ()

    def _go(self, a: Go) -> None:
        g = self.g
        self.clock += g.countdown_ms
        extra = 0 if (self.picked_up or g.briefing) else g.pick_up_ms
        self.picked_up = True
        clock = self.clock
        for p, d in enumerate(a.delays):
            self.ready[p] = clock + d + extra
        self.drill = [False] * self.n
        self.pending = []
        self.countdown = False
        self.phase = PLAY
        self._check_stuck()

    def _react(self, a: React) -> None:
        clock = self.clock
        drill = self.g.drill_ms
        for p, d in zip(a.players, a.delays, strict=True):
            if self.drill[p]:
                self.drill[p] = False
                self.ready[p] = clock + d + drill
            else:
                self.ready[p] = clock + d
        self.pending = []

    def _rt_joint(self, actions: Sequence[Action]) -> None:
        g = self.g
        self.clock = self.ready[actions[0].player]  # type: ignore[union-attr]
        plays: list[Play] = []
        for a in actions:
            if isinstance(a, Play):
                plays.append(a)
            else:
                self._rt_apply(a)
        if len(plays) == 1:
            self._rt_apply(plays[0])
        elif plays:
            if g.chance_orders:
                self.order_plays = plays
                self.phase = ORDER
                return
            self._all_land(plays)
            if self.claims:
                self.phase = CLAIM
                return
        self._settle()

    def _rt_apply(self, a: Action) -> None:
        g = self.g
        p = a.player  # type: ignore[union-attr]
        if isinstance(a, Play):
            c = a.cards[0]
            sp = g.special_of[c]
            self._take(p, c)
            if sp == JAM:
                self._discard_card(c)
                self.jammed[a.target] = True
                self._lotus(p)
                self.pending.append(p)
            elif sp == INTEL:
                self._discard_card(c)
                self._bad_intel(a.pile)
                self._lotus(p)
                self._cease_fire()
            else:
                self._land(p, c, a.pile)
                if not self.halt:
                    self.pending.append(p)
        elif isinstance(a, Reload):
            self._reload(p, a)
            self.pending.append(p)
        elif isinstance(a, Clear):
            self.jammed[p] = False
            self.drill[p] = True
            self.pending.append(p)
        elif isinstance(a, Look):
            self.looking[p] = a.slot
            self.known[p][a.slot] = True
            self.pending.append(p)
        else:
            self.pending.append(p)

    def _order(self, order: tuple[int, ...]) -> None:
        plays = {a.player: a for a in self.order_plays}
        self.order_plays = []
        for p in order:
            a = plays[p]
            if self.halt:
                self.voided.append(a)
                continue
            try:
                self._check_rt_play(p, a)
            except IllegalActionError:
                self.voided.append(a)
                self.pending.append(p)
                continue
            self._rt_apply(a)
        self._settle()

    def _all_land(self, plays: list[Play]) -> None:
        g = self.g
        hunt_of = g.hunt_of
        cards = [a for a in plays if not g.special_of[a.cards[0]]]
        specials = [a for a in plays if g.special_of[a.cards[0]]]
        cards.sort(key=lambda a: (a.pile, hunt_of[a.cards[0]], a.player))
        for k in sorted({a.pile for a in cards}):
            group = [a for a in cards if a.pile == k]
            before = self.pile_kills[k]
            nines: list[int] = []
            last = -1
            for a in group:
                p = a.player
                c = a.cards[0]
                self._take(p, c)
                self.piles[k].append(c)
                self.pile_by[k].append(p)
                self.out[c] += 1
                self.dirty = True
                self.pending.append(p)
                last = p
                if hunt_of[c] == g.kill_shot:
                    self.pile_kills[k] += 1
                    nines.append(p)
                    if self.pile_first9[k] < 0:
                        self.pile_first9[k] = p
            if self.pile_kills[k] < self.pile_need[k]:
                continue
            if g.points_claim:
                self._capture(k, last)
            else:
                ambiguous = len(nines) >= 2 and (
                    self.pile_need[k] == 1 or g.second_claims or before == 0
                )
                if not ambiguous:
                    first = self.pile_need[k] > 1 and not g.second_claims
                    self._capture(k, self.pile_first9[k] if first else nines[-1])
                elif g.tie_escapes:
                    self._close(k, -1, "escaped-tie", ())
                else:
                    self.claims.append((k, tuple(sorted(nines))))
            if self.halt:
                break
        for a in specials:
            if self.halt:
                self.voided.append(a)
                continue
            try:
                self._check_rt_play(a.player, a)
            except IllegalActionError:
                self.voided.append(a)
                self.pending.append(a.player)
                continue
            self._rt_apply(a)

    def _claim(self, player: int) -> None:
        k, _cands = self.claims.pop(0)
        winner = -1 if player == self.taliban else player
        self._close(k, winner, "chance" if winner >= 0 else "escaped-taliban", ())
        if self.halt:
            return
        if not self.claims:
            self._settle()

    def _settle(self) -> None:
        """After a real-time step: a stuck hunt ends; then discards owed, the countdown, or
        play goes on."""
        if self.phase in (REVEAL, OVER) and self.halt and not self.countdown:
            return
        if self._check_stuck():
            return
        self._next_round(AFTER_GO if self.countdown else AFTER_PLAY)

    def _allowed_on(self, cls: int, top: int, kills: int, need: int) -> frozenset[int]:
        g = self.g
        allowed = g.allowed_tab[cls][top]
        if top == g.kill_shot and kills < need and top not in allowed:
            allowed = allowed | {top}  # the second Kill Shot overrides the pile rules
        return allowed

    def _allowed(self, p: int, k: int) -> frozenset[int]:
        pile = self.piles[k]
        top = self.g.hunt_of[pile[-1]] if pile else 0
        return self._allowed_on(
            1 if p == self.taliban else 0, top, self.pile_kills[k], self.pile_need[k]
        )

    def _land(self, p: int, c: int, k: int) -> None:
        g = self.g
        self.piles[k].append(c)
        self.pile_by[k].append(p)
        self.out[c] += 1
        self.dirty = True
        if g.hunt_of[c] == g.kill_shot:
            self.pile_kills[k] += 1
            if self.pile_first9[k] < 0:
                self.pile_first9[k] = p
            if self.pile_kills[k] >= self.pile_need[k]:
                self._capture(k, p)
