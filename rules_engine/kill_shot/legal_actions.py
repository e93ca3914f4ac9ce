"""Every legal action of a player now: in real time (wait, play, a special card, reload, clear,
look), and on a Situation Room turn (every play of several cards, each legal on the one
before, and every reload).

A hand's reloads are every sub-multiset of it: 2^n of them for n distinct cards, most of a
player's legal actions, and a search player's playout looks at one.  So they are a lazy
sequence (`Reloads`: their number, random access and membership, in the order a listing
would give) and a real-time player's actions are the few others followed by it
(`RealTimeActions`); under Night Mission the reloads by hand position depend only on the
hand's size, so each list is made once (`_night_reloads`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from rules_engine.core import LazySequence
from rules_engine.kill_shot.actions import Action, Clear, Look, Pass, Play, Reload, Wait
from rules_engine.kill_shot.state_base import KillShotStateBase


class Reloads(LazySequence[Reload]):
    """A player's reloads of a hand (kinds of card), lazily, in `itertools.product` order:
    for each kind in sorted order how many of it to discard, 0 up to all, the last kind
    counting fastest; without the empty reload (discard nothing, refill) when it is not
    allowed."""

    __slots__ = ("_kinds", "_player", "_radix", "_skip")

    def __init__(self, player: int, hand: Sequence[int], with_empty: bool) -> None:
        kinds = sorted(set(hand))
        radix = [hand.count(c) + 1 for c in kinds]
        total = 1
        for r in radix:
            total *= r
        self._player = player
        self._kinds = kinds
        self._radix = radix
        self._skip = 0 if with_empty else 1
        self._len = total - self._skip

    def _item(self, index: int) -> Reload:
        index += self._skip
        counts: list[int] = []
        for r in reversed(self._radix):
            index, m = divmod(index, r)
            counts.append(m)
        cards: list[int] = []
        for c, m in zip(self._kinds, reversed(counts), strict=True):
            cards.extend([c] * m)
        return Reload(self._player, tuple(cards))

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, Reload) or value.player != self._player or value.slots:
            return False
        cards = value.cards
        if list(cards) != sorted(cards) or (self._skip and not cards):
            return False
        have = dict(zip(self._kinds, self._radix, strict=True))
        return all(cards.count(c) < have.get(c, 0) for c in set(cards))


class RealTimeActions(LazySequence[Action]):
    """A real-time player's actions: the listed ones (wait, plays, special cards), then the
    reloads (lazy), then the looks."""

    __slots__ = ("_head", "_reloads", "_tail")

    def __init__(self, head: list[Action], reloads: Sequence[Reload], tail: list[Action]) -> None:
        self._head = head
        self._reloads = reloads
        self._tail = tail
        self._len = len(head) + len(reloads) + len(tail)

    def _item(self, index: int) -> Action:
        head = self._head
        if index < len(head):
            return head[index]
        index -= len(head)
        reloads = self._reloads
        if index < len(reloads):
            return reloads[index]
        return self._tail[index - len(reloads)]

    def __contains__(self, value: object) -> bool:
        return value in self._head or value in self._reloads or value in self._tail


@lru_cache(maxsize=256)
def _night_reloads(player: int, size: int, with_empty: bool) -> tuple[Reload, ...]:
    """Night Mission: every reload of a hand of `size` cards by position, fewest first."""
    return tuple(
        Reload(player, (), slots)
        for r in range(size + 1)
        for slots in itertools.combinations(range(size), r)
        if slots or with_empty
    )


class LegalActions(KillShotStateBase):
    """The lists of legal actions."""

    __slots__ = ()

    def _reloads(self, p: int, real_time: bool) -> Sequence[Reload]:
        g = self.g
        if not g.refill:
            return ()
        hand = self.hands[p]
        # Discarding nothing is a reload only when it draws (or, on a turn, always).
        with_empty = not real_time or (len(hand) < self.limits[p] and self._drawable(p) > 0)
        if g.night:
            return _night_reloads(p, len(hand), with_empty)
        return Reloads(p, hand, with_empty)

    def _rt_legal(self, p: int) -> Sequence[Action]:
        g = self.g
        head: list[Action] = [Wait(p)]
        jammed = self.jammed[p]
        if jammed:
            head.append(Clear(p))
        else:
            head.extend([Play(p, (c,), k) for c, k in self._hunt_plays(p)])
        if not (jammed and g.jam_all):
            head.extend(self._special_plays(p))
        looks: list[Action] = [Look(p, s) for s in range(len(self.hands[p]))] if g.blind else []
        return RealTimeActions(head, self._reloads(p, True), looks)

    def _turn_legal(self, p: int) -> list[Action]:
        out = self._turn_plays(p)
        if self.g.refill:
            out.extend(self._reloads(p, False))
        else:
            out.append(Pass(p))
        return out

    def _turn_plays(self, p: int) -> list[Action]:
        """The plays of the Situation Room player to act: on each open pile, every run of
        cards each legal on the one before (one card under Night Mission)."""
        g = self.g
        hunt_of = g.hunt_of
        out: list[Action] = []
        cls = 1 if p == self.taliban else 0
        for k in range(len(self.piles)):
            if not self.pile_open[k]:
                continue
            need = self.pile_need[k]
            pile = self.piles[k]
            top0 = hunt_of[pile[-1]] if pile else 0
            if g.night:
                out.extend(Play(p, (c,), k) for c, kk in self._hunt_plays(p) if kk == k)
                continue

            self._grow(p, cls, k, need, [], list(self.hands[p]), top0, self.pile_kills[k], out)
        return out

    def _grow(
        self,
        p: int,
        cls: int,
        k: int,
        need: int,
        seq: list[int],
        rest: list[int],
        top: int,
        kills: int,
        out: list[Action],
    ) -> None:
        """Every Situation Room play that extends `seq` (each card legal on the one before)."""
        g = self.g
        if seq and top == g.kill_shot and kills >= need:
            return
        allowed = self._allowed_on(cls, top, kills, need)
        for d in sorted(set(rest)):
            number = g.hunt_of[d]
            if number not in allowed:
                continue
            seq.append(d)
            out.append(Play(p, tuple(seq), k))
            rest.remove(d)
            self._grow(p, cls, k, need, seq, rest, number, kills + (number == g.kill_shot), out)
            rest.append(d)
            seq.pop()
