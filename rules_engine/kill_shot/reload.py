"""Reloading and an empty deck: drawing cards (when the deck runs out the discards become the
deck), taking a card from the hand to play it, discarding, and Reload ("Reload!"): discard
any number of cards and refill to the hand limit.

With colour decks (Tactical Engagement, Deadline, Taliban) each player draws from and discards
to their own colour's deck (`_pool`).
"""

from __future__ import annotations

from rules_engine.core import EVENTS
from rules_engine.kill_shot.actions import Draw, Reload
from rules_engine.kill_shot.events import cards, deal_rule, seconds
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
            if self.deals:
                self.deals -= 1
        if not draws and self.phase == TURN_START:
            self._open_turn()

    def _do_draw(self, a: Draw) -> None:
        g = self.g
        p = a.player
        pool = self._pool(p)
        hand = self.hands[p]
        night = g.night
        seen = not g.blind
        if EVENTS.on:
            self._tell_draw(a)
        for c in a.cards:
            deck = self.decks[pool]
            if not deck:
                deck = self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
                if EVENTS.on:
                    self._tell_deck_turned(p)
            deck.remove(c)
            hand.append(c)
            if night:
                self.known[p].append(seen)
            if not deck and self.discards[pool]:
                self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
                if EVENTS.on:
                    self._tell_deck_turned(p)
        self.draws.pop(0)
        if self.deals:
            self.deals -= 1
        self._prune()

    def _tell_draw(self, a: Draw) -> None:
        g = self.g
        facts = {"player": g.names[a.player], "count": len(a.cards), "cards": cards(g, a.cards)}
        if self.deals:
            rule = deal_rule(g)
            EVENTS.emit(rule, "deal-extra" if rule == "deadline" else "deal", **facts)
        else:
            EVENTS.emit("sr-reload" if g.turn_based else "reload", "refill", **facts)

    def _tell_deck_turned(self, p: int) -> None:
        g = self.g
        own = g.per_colour and g.game_type == "tactical-engagement"
        EVENTS.emit(
            "tactical-engagement" if own else "deck",
            "deck-turned-own" if g.per_colour else "deck-turned",
            player=g.names[p],
            colour=g.colours[p] if g.per_colour else "",
        )

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
        if EVENTS.on:
            g = self.g
            gone = [hand[s] for s in a.slots] if a.slots else list(a.cards)
            EVENTS.emit(
                "sr-reload" if g.turn_based else "reload",
                "reload",
                player=g.names[p],
                count=len(gone),
                cards=[] if g.night else cards(g, gone),
                limit=self.limits[p],
                at=seconds(self.clock),
                timed=not g.turn_based,
            )
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
