"""Reloading and an empty deck: drawing cards (when the deck runs out the discards become the
deck), taking a card from the hand to play it, discarding, and Reload ("Reload!"): discard
any number of cards and refill to the hand limit.

With colour decks (Tactical Engagement, Deadline, Taliban) each player draws from and discards
to their own colour's deck (`_pool`).
"""

from __future__ import annotations

from rules_engine.kill_shot.actions import Draw, Reload
from rules_engine.kill_shot.phases import TURN_START
from rules_engine.kill_shot.state_base import KillShotStateBase


class Reloading(KillShotStateBase):
    """Hands, decks and discards."""

    __slots__ = ()

    def _pool(self, player: int) -> int:
        return player if self.g.per_colour else 0

    def _draw_count(self, entry: list[int]) -> int:
        pool = self._pool(entry[0])
        return min(entry[1], len(self.decks[pool]) + len(self.discards[pool]))

    def _drawable(self, p: int) -> int:
        pool = self._pool(p)
        return len(self.decks[pool]) + len(self.discards[pool])

    def _prune(self) -> None:
        draws = self.draws
        while draws and self._draw_count(draws[0]) <= 0:
            draws.pop(0)
        if not draws and self.phase == TURN_START:
            self._open_turn()

    def _do_draw(self, a: Draw) -> None:
        g = self.g
        p = a.player
        pool = self._pool(p)
        hand = self.hands[p]
        night = g.night
        seen = not g.blind
        for c in a.cards:
            deck = self.decks[pool]
            if not deck:
                deck = self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
            deck.remove(c)
            hand.append(c)
            if night:
                self.known[p].append(seen)
            if not deck and self.discards[pool]:
                self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
        self.draws.pop(0)
        self._prune()

    def _take(self, p: int, c: int) -> None:
        g = self.g
        if g.blind:
            self._remove_slot(p, self.looking[p])
        elif g.night:
            self._remove_slot(p, self.hands[p].index(c))
        else:
            self.hands[p].remove(c)

    def _remove_slot(self, p: int, s: int) -> int:
        c = self.hands[p].pop(s)
        if self.g.night:
            self.known[p].pop(s)
            look = self.looking[p]
            if look == s:
                self.looking[p] = -1
            elif look > s:
                self.looking[p] = look - 1
        return c

    def _discard_card(self, c: int) -> None:
        self.discards[self.g.pool_of_kind[c]].append(c)
        self.dirty = True

    def _reload(self, p: int, a: Reload) -> None:
        hand = self.hands[p]
        if a.slots:
            gone = [self._remove_slot(p, s) for s in sorted(a.slots, reverse=True)]
            for c in reversed(gone):
                self._discard_card(c)
        else:
            for c in a.cards:
                hand.remove(c)
                self._discard_card(c)
        want = self.limits[p] - len(hand)
        if want > 0:
            self.draws.append([p, want])
            self._prune()
