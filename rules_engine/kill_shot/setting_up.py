"""Setting up a hunt: every tactics card back into its deck, the next terrorist(s) turned up
(three under Terror Threat), the cards dealt (a terrorist may change how many; Deadline: one
of each number and the extra cards, drawn or chosen), then the countdown (real time) or the
first turn (Situation Room).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.core import EVENTS
from rules_engine.kill_shot.actions import Action, Pick
from rules_engine.kill_shot.events import cards
from rules_engine.kill_shot.phases import FIRST, GO, PICK
from rules_engine.kill_shot.state_base import KillShotStateBase


class HuntSetup(KillShotStateBase):
    """A new hunt: its terrorist(s), the deal, and who plays first."""

    __slots__ = ()

    def _begin_hunt(self) -> None:
        """A new hunt: every tactics card back into its deck (shuffled: draws are random),
        when the next terrorist is turned up (until then the last hunt's table stays)."""
        g = self.g
        n = self.n
        self.hunt += 1
        self.clock = -g.countdown_ms
        self.decks = [list(c) for c in g.pool_cards]
        self.discards = [[] for _ in range(g.pools)]
        self.hands = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.looking = [-1] * n
        self.set_aside = []
        self.out = [0] * len(g.codes)
        self.jammed = [False] * n
        self.drill = [False] * n
        self.ready = [0] * n
        self.pending = []
        self.picked_up = False
        self.removed = []
        self.countdown = False

    def _reveal(self, ts: tuple[int, ...]) -> None:
        g = self.g
        n = self.n
        self._begin_hunt()
        if EVENTS.on:
            self._tell_reveal(ts)
        for t in ts:
            self.terr_left.remove(t)
        k = len(ts)
        self.pile_terr = list(ts)
        self.piles = [[] for _ in range(k)]
        self.pile_by = [[] for _ in range(k)]
        self.pile_open = [True] * k
        self.pile_kills = [0] * k
        self.pile_need = [g.terrorists[t].kills for t in ts]
        self.pile_first9 = [-1] * k
        hand_change = sum(g.terrorists[t].hand_change for t in ts)
        limit_change = sum(g.terrorists[t].limit_change for t in ts)
        for p in range(n):
            self.limits[p] = g.hand_limit + limit_change + (self.bonus[p] if g.limit_too else 0)
        self.pickers = []
        if g.deadline:
            for p in range(n):
                deck = self.decks[p]
                hand = [g.kind(p, number) for number in g.deadline_numbers]
                for c in hand:
                    deck.remove(c)
                self.hands[p] = hand
                self.known[p] = [True] * len(hand)
                size = max(0, g.deadline_extra + hand_change + self.bonus[p])
                self.pick_sizes[p] = min(size, len(deck))
            if g.picks_chosen:
                self.pickers = [p for p in range(n) if self.pick_sizes[p] > 0]
            else:
                self.draws = [[p, self.pick_sizes[p]] for p in range(n)]
        else:
            size = g.hand_size + hand_change
            self.draws = [[p, max(0, size + self.bonus[p])] for p in range(n)]
        self.deals = len(self.draws)
        self.bonus = [0] * n
        if self.pickers:
            self.phase = PICK
        else:
            self._after_deal()
        self._prune()

    def _tell_reveal(self, ts: tuple[int, ...]) -> None:
        """The events of a new hunt: the hunt set up again, its terrorist(s) turned up, the
        abilities that change the deal, and Deadline's starting hands."""
        g = self.g
        names = g.names
        if self.hunt > 1:
            EVENTS.emit("new-hunt", "new-hunt", hunt=self.hunt)
        terrorists = [g.terrorists[t] for t in ts]
        if len(ts) > 1:
            EVENTS.emit(
                "terror-threat",
                "reveal-several",
                terrorists=[t.id for t in terrorists],
                points=[t.points for t in terrorists],
            )
        else:
            t = terrorists[0]
            EVENTS.emit("setup", "reveal", terrorist=t.id, points=t.points, hunt=self.hunt)
        for t in terrorists:
            if t.ability == "short-hand":
                EVENTS.emit(
                    "short-hand",
                    "short-hand",
                    terrorist=t.id,
                    fewer=-t.hand_change,
                    limit=g.hand_limit + t.limit_change,
                )
        for p in range(self.n):
            if self.bonus[p]:
                EVENTS.emit(
                    "extra-cards", "extra-cards-dealt", player=names[p], extra=self.bonus[p]
                )
        if g.deadline:
            EVENTS.emit(
                "deadline",
                "deadline-hand",
                first=g.deadline_numbers[0],
                last=g.deadline_numbers[-1],
                extra=g.deadline_extra,
                chosen=g.picks_chosen,
            )

    def _after_deal(self) -> None:
        g = self.g
        if g.turn_based:
            if self.hunt == 1 or g.next_first == "random":
                self.phase = FIRST
            else:
                self._goto_turn(self.next_start)
        else:
            self.phase = GO
        self.dirty = True

    def _picks(self, actions: Sequence[Action]) -> None:
        for a in actions:
            assert isinstance(a, Pick)
            deck = self.decks[a.player]
            if EVENTS.on:
                EVENTS.emit(
                    "deadline", "pick", player=self.g.names[a.player], cards=cards(self.g, a.cards)
                )
            for c in a.cards:
                deck.remove(c)
            self.hands[a.player].extend(a.cards)
            self.known[a.player].extend([True] * len(a.cards))
        self.pickers = []
        self._after_deal()
