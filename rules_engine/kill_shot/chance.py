"""Chance in KILL SHOT: its outcomes and their odds.

A deck is a multiset: every card drawn is a chance outcome with the odds of a shuffled deck
(`Draws`), so a state never holds a deck order.  Reaction times follow a seeded law
(`ReactionLaw`).  Chance also turns up the terrorists, picks the Taliban player and the first
player, and settles simultaneous plays and claims.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_engine.core import (
    CHANCE,
    Arrangements,
    IllegalActionError,
    LazySequence,
    Mapped,
    Product,
)
from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Draw,
    First,
    Go,
    Order,
    React,
    Reveal,
    Taliban,
)
from rules_engine.kill_shot.phases import CLAIM, FIRST, GO, ORDER, PLAY, REVEAL, TALIBAN
from rules_engine.kill_shot.state_base import KillShotStateBase


def _sequences(counts: Sequence[int], k: int) -> int:
    """How many distinct ordered draws of k cards a multiset with these counts allows."""
    f = [1] + [0] * k
    for c in counts:
        if not c:
            continue
        g = [0] * (k + 1)
        for j in range(k + 1):
            if f[j]:
                for t in range(min(c, k - j) + 1):
                    g[j + t] += f[j] * math.comb(j + t, t)
        f = g
    return f[k]


class Draws(LazySequence[tuple[int, ...]]):
    """Every distinct ordered draw of `k` cards from a multiset of card kinds, lazily."""

    def __init__(self, cards: Sequence[int], k: int) -> None:
        kinds = sorted(set(cards))
        self._kinds = tuple(kinds)
        self._counts = tuple(list(cards).count(x) for x in kinds)
        self._k = k
        self._len = _sequences(self._counts, k)

    def _item(self, index: int) -> tuple[int, ...]:
        counts = list(self._counts)
        out: list[int] = []
        for left in range(self._k, 0, -1):
            for i, c in enumerate(counts):
                if not c:
                    continue
                counts[i] -= 1
                n = _sequences(counts, left - 1)
                if index < n:
                    out.append(self._kinds[i])
                    break
                index -= n
                counts[i] += 1
        return tuple(out)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != self._k:
            return False
        for v in set(value):
            if v not in self._kinds or value.count(v) > self._counts[self._kinds.index(v)]:
                return False
        return True


def draw_weight(cards: Sequence[int], drawn: Sequence[int]) -> int:
    """The odds of drawing `drawn` in that order from a shuffled multiset `cards`, as an
    integer weight: the number of orders of the physical cards that give it (the product
    of the copies of each kind still in the deck as it is drawn).  Every ordered draw of
    the same number of cards from the same deck shares one denominator."""
    left: dict[int, int] = {}
    for c in cards:
        left[c] = left.get(c, 0) + 1
    weight = 1
    for c in drawn:
        n = left.get(c, 0)
        weight *= n
        left[c] = n - 1
    return weight


class WeightedDraws(LazySequence[tuple[Action, int]]):
    """Every draw chance may make now (`Mapped` draws, lazily) with its integer weight:
    the deck's part drawn from the deck, the rest (once it runs out) from the discards
    turned over."""

    def __init__(
        self, outcomes: Sequence[Action], deck: Sequence[int], disc: Sequence[int]
    ) -> None:
        self._outcomes = outcomes
        self._deck = tuple(deck)
        self._disc = tuple(disc)
        self._len = len(outcomes)

    def _item(self, index: int) -> tuple[Action, int]:
        a = self._outcomes[index]
        assert isinstance(a, Draw)
        d = len(self._deck)
        weight = draw_weight(self._deck, a.cards[:d])
        if len(a.cards) > d:
            weight *= draw_weight(self._disc, a.cards[d:])
        return a, weight


class ReactionLaw:
    """Reaction times (ms): a log-normal law cut to [min, max] on a grid of `step` ms.

    Every grid time from 0 to max is a legal outcome; times under `min` have no weight."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.min = int(spec["min"])
        self.median = float(spec["median"])
        self.spread = float(spec["spread"])
        self.max = int(spec["max"])
        self.step = int(spec["step"])
        if not 0 < self.min <= self.median <= self.max or self.step <= 0:
            raise ValueError(f"simulation.reaction_ms is inconsistent: {dict(spec)}")
        self.grid = tuple(range(0, self.max + 1, self.step))
        weights = []
        times = []
        for d in self.grid:
            if d < self.min:
                continue
            z = math.log(d / self.median) / self.spread
            weights.append(math.exp(-0.5 * z * z) / d)
            times.append(d)
        total = 0.0
        cumulative = []
        for w in weights:
            total += w
            cumulative.append(total)
        self._times = tuple(times)
        self._cumulative = tuple(c / total for c in cumulative)

    def sample(self, rnd: Callable[[], float]) -> int:
        i = bisect.bisect_right(self._cumulative, rnd())
        return self._times[min(i, len(self._times) - 1)]

    def table(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """The cumulative odds and their times: `sample` is the first time whose
        cumulative odds exceed the draw (the last time past the end), for a loop that
        inlines it."""
        return self._cumulative, self._times

    def legal(self, d: int) -> bool:
        return 0 <= d <= self.max and d % self.step == 0


class Chance(KillShotStateBase):
    """Chance's legal outcomes and a random one by their odds."""

    __slots__ = ()

    def _chance_outcomes(self) -> Sequence[Action]:
        g = self.g
        if self.draws:
            p = self.draws[0][0]
            k = self._draw_count(self.draws[0])
            pool = self._pool(p)
            deck = self.decks[pool]
            disc = self.discards[pool]
            if not deck:
                deck, disc = disc, []
            if k <= len(deck):
                return Mapped(
                    Draws(deck, k),
                    lambda t: Draw(p, t),
                    lambda a: a.cards if isinstance(a, Draw) and a.player == p else None,
                )
            d = len(deck)
            return Mapped(
                Product(Draws(deck, d), Draws(disc, k - d)),
                lambda t: Draw(p, t[0] + t[1]),
                lambda a: (
                    (a.cards[:d], a.cards[d:]) if isinstance(a, Draw) and a.player == p else None
                ),
            )
        phase = self.phase
        if phase == TALIBAN:
            return [Taliban(p) for p in range(self.n)]
        if phase == FIRST:
            return [First(p) for p in range(self.n)]
        if phase == REVEAL:
            k = min(g.revealed, len(self.terr_left))
            return Mapped(
                Arrangements(self.terr_left, k),
                Reveal,
                lambda a: a.terrorists if isinstance(a, Reveal) else None,
            )
        if phase == GO:
            return Mapped(
                Product(*[g.law.grid] * self.n),
                Go,
                lambda a: a.delays if isinstance(a, Go) else None,
            )
        if phase == PLAY:
            players = tuple(sorted(self.pending))
            return Mapped(
                Product(*[g.law.grid] * len(players)),
                lambda t: React(players, t),
                lambda a: a.delays if isinstance(a, React) and a.players == players else None,
            )
        if phase == ORDER:
            movers = sorted(a.player for a in self.order_plays)
            return [Order(perm) for perm in itertools.permutations(movers)]
        if phase == CLAIM:
            return [Claim(p) for p in self.claims[0][1]]
        return []

    def chance_classes(self) -> Sequence[tuple[Action, int]] | None:
        """Chance's outcomes now with their integer odds (see `KillShot.chance_classes`)."""
        if self.current_players() != (CHANCE,):
            return None
        outcomes = self._chance_outcomes()
        if self.draws:
            pool = self._pool(self.draws[0][0])
            deck = self.decks[pool]
            disc = self.discards[pool]
            if not deck:
                deck, disc = disc, []
            return WeightedDraws(outcomes, deck, disc)
        if self.phase in (GO, PLAY):
            return None  # reaction times: the simulated players' law, not a rule's odds
        return [(a, 1) for a in outcomes]

    def _sample_chance(self, rng: random.Random) -> Action:
        g = self.g
        rnd = rng.random
        if self.draws:
            p = self.draws[0][0]
            k = self._draw_count(self.draws[0])
            pool = self._pool(p)
            deck = self.decks[pool]
            if k == 1:  # the commonest draw: one card, picked without copying the deck
                if not deck:
                    deck = self.discards[pool]
                return Draw(p, (deck[int(rnd() * len(deck))],))
            deck = list(deck)
            disc = list(self.discards[pool])
            out = []
            for _ in range(k):
                if not deck:
                    deck, disc = disc, []
                c = deck[int(rnd() * len(deck))]
                deck.remove(c)
                out.append(c)
                if not deck and disc:
                    deck, disc = disc, []
            return Draw(p, tuple(out))
        phase = self.phase
        if phase == PLAY:
            law = g.law
            players = tuple(sorted(self.pending))
            return React(players, tuple(law.sample(rnd) for _ in players))
        if phase == GO:
            law = g.law
            return Go(tuple(law.sample(rnd) for _ in range(self.n)))
        if phase == REVEAL:
            left = list(self.terr_left)
            picked = []
            for _ in range(min(g.revealed, len(left))):
                picked.append(left.pop(int(rnd() * len(left))))
            return Reveal(tuple(picked))
        if phase == ORDER:
            movers = [a.player for a in self.order_plays]
            rng.shuffle(movers)
            return Order(tuple(movers))
        if phase == CLAIM:
            cands = self.claims[0][1]
            return Claim(cands[int(rnd() * len(cands))])
        if phase == FIRST:
            return First(int(rnd() * self.n))
        if phase == TALIBAN:
            return Taliban(int(rnd() * self.n))
        raise IllegalActionError("timing", f"chance has nothing to do now ({self._now()})")
