"""Situation Room (game type 3), turn by turn: a turn is one simultaneous step.  The player to
act chooses a play (several cards, each following the one before) or a discard-and-refill,
while every other player may end that turn with a Jam or Bad Intel (the first clockwise
does, and the turn's action is void).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.core import EVENTS
from rules_engine.kill_shot.actions import Action, Play, Reload
from rules_engine.kill_shot.events import card
from rules_engine.kill_shot.phases import AFTER_TURN, TURN, TURN_START
from rules_engine.kill_shot.special_cards import INTEL
from rules_engine.kill_shot.state_base import KillShotStateBase


class SituationRoom(KillShotStateBase):
    """Turns, and the Jam or Bad Intel that ends one."""

    __slots__ = ()

    def _goto_turn(self, player: int) -> None:
        self.turn = player % self.n
        if EVENTS.on:
            EVENTS.emit("situation-room", "turn", player=self.g.names[self.turn])
        if self.draws:
            self.phase = TURN_START
        else:
            self._open_turn()

    def _open_turn(self) -> None:
        # Every other player may end the turn with a Jam or Bad Intel: all the players
        # decide at once (most can only pass), so the step does not tell who holds one.
        self.phase = TURN

    def _window_specials(self, q: int) -> list[Play]:
        g = self.g
        special_of = g.special_of
        cards = [c for c in self.hands[q] if special_of[c]]
        if not cards:
            return []
        if len(cards) > 1:
            cards = list(dict.fromkeys(cards))
        return [Play(q, (c,), 0, self.turn) for c in cards]

    def _turn_joint(self, actions: Sequence[Action]) -> None:
        """A Situation Room turn: the player to act and, at the same time, everyone who may
        end that turn at once with a Jam or Bad Intel (the first clockwise does)."""
        g = self.g
        n = self.n
        t = self.turn
        self.last_actor = t
        interrupts = sorted(
            (a for a in actions if isinstance(a, Play) and a.player != t),
            key=lambda a: (a.player - t) % n,
        )
        if interrupts:
            first = interrupts[0]
            self.voided = [
                x for x in actions if getattr(x, "player", -1) == t or x in interrupts[1:]
            ]
            q = first.player
            c = first.cards[0]
            if EVENTS.on:
                EVENTS.emit(
                    "sr-specials",
                    "turn-ended",
                    player=g.names[q],
                    target=g.names[t],
                    **card(g, c),
                )
            self._take(q, c)
            self._discard_card(c)
            self._lotus(q)
            if g.special_of[c] == INTEL and g.sr_cease_fire:
                for _ in range(self._active("cease-fire-discard")):
                    self.discard_rounds.append(self.g.everyone)
                    self.discard_why.append("cease-fire-discard")
            if self._check_stuck():
                return
            self._next_round(AFTER_TURN)
            return
        a = next(x for x in actions if getattr(x, "player", -1) == t)
        if isinstance(a, Play):
            k = a.pile
            for c in a.cards:
                self._take(t, c)
                self._land(t, c, k)
                if self.halt or not self.pile_open[k]:
                    break
            if self.halt or self._check_stuck():
                return
            self._goto_turn(t + 1)
        elif isinstance(a, Reload):
            self._reload(t, a)
            self._goto_turn(t + 1)
        else:
            if EVENTS.on:
                EVENTS.emit("situation-room", "pass", player=g.names[t])
            self._goto_turn(t + 1)
