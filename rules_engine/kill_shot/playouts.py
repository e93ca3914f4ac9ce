"""A search player's playout, fast: `KillShotState.playout` plays the very game
`rules_engine.core.generic_playout` plays from the same generator (every current player's
legal actions, one taken by `rng.choice`; chance by `sample_action`), without checking the
actions it draws legal.

Most of a real-time game is one cycle: a player's reload (the n-card hand's sub-multisets,
up to 2^n, are most of the legal actions), chance's refill, chance's next reaction time.
Those three steps are played here directly: a real-time player's legal actions are
counted, not listed (the wait, the clear or the plays, the special cards, then the
reloads, whose number is a product over the hand's kinds, and the looks) and only the one
picked is made; the draw and the reaction time are drawn and applied at once.  A Situation
Room turn lists the plays but takes a reload by its index (`_turn_step`).  Every other
step goes through the legal actions and the rooms' own `_do` (`_playout_step`).
"""

from __future__ import annotations

import gc
import random
from bisect import bisect_right
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import cache
from itertools import compress, product
from typing import Any

from rules_engine.core import CHANCE, EVENTS, JointAction, generic_playout, index_bits
from rules_engine.kill_shot.actions import (
    Action,
    Clear,
    Draw,
    Look,
    Pass,
    Play,
    React,
    Reload,
    Wait,
)
from rules_engine.kill_shot.legal_actions import _night_reloads
from rules_engine.kill_shot.phases import AFTER_GO, AFTER_PLAY, OVER, PLAY, TURN, TURN_START
from rules_engine.kill_shot.special_cards import JAM
from rules_engine.kill_shot.state_base import KillShotStateBase

_new = tuple.__new__
"""Builds an action tuple without its class's Python-level `__new__` (the same value)."""


@cache
def _subsets(size: int) -> tuple[tuple[bool, ...], ...]:
    """Which of `size` distinct cards each reload discards, in the order of `Reloads`
    (`itertools.product` order: the first card's choice changes slowest)."""
    return tuple(product((False, True), repeat=size))


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
        # Every step adds an action to the history and no step makes a reference cycle, so
        # the cyclic garbage collector, set off by the growing history, would walk it again
        # and again for nothing (a fifth of the time): it waits until the playout is over.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._playout(rng, max_steps)
        finally:
            if collecting:
                gc.enable()

    def _playout(self, rng: random.Random, max_steps: int) -> int:
        """`playout`'s loop (events off)."""
        g = self.g
        record = self._history.append
        rnd = rng.random
        # `rng.choice` draws `rng._randbelow(n)`: for a plain `random.Random` that is
        # `getrandbits` until below n, drawn here without the method's frame.
        drawing = index_bits(rng)
        plain = drawing is not None
        getrandbits = drawing or rng.getrandbits
        cumulative, times = g.law.table()
        last_time = len(times) - 1
        drill_ms = g.drill_ms
        per_colour = g.per_colour
        night = g.night
        blind = g.blind
        pool_of_kind = g.pool_of_kind
        fitting: dict[frozenset[int], frozenset[int]] = {}  # numbers allowed -> card kinds
        special_kinds = g.special_kinds
        jam_all = g.jam_all
        refill = g.refill
        # Whether a hunt that can go on is known to: `_can_progress` reads the piles, the
        # set-aside cards, the cards out and (Deadline) the hands; a reload, a refill or a
        # reaction time changes none of them outside Deadline, so after one evaluation
        # the next reload needs none until another step comes between.
        can_go_on = False
        trust_refills = not g.deadline
        # The card kinds each side (hunters, the Taliban player) may play on each open
        # pile (`_fitting`): a reload, a refill or a reaction time leaves the piles alone,
        # so they are kept until another step comes between.
        fits_of: list[tuple[frozenset[int], ...] | None] = [None, None]
        actions = steps = 0
        while steps < max_steps:
            phase = self.phase
            if phase == OVER:
                break
            steps += 1
            draws = self.draws
            if draws:
                # Chance draws (a deal or a refill): each card picked and moved at once.
                entry = draws[0]
                p = entry[0]
                pool = p if per_colour else 0
                decks = self.decks
                discards = self.discards
                deck = decks[pool]
                k = entry[1]
                left = len(deck) + len(discards[pool])
                if left < k:
                    k = left
                cards = []
                for _ in range(k):
                    if not deck:
                        deck = decks[pool] = discards[pool]
                        discards[pool] = []
                    c = deck[int(rnd() * len(deck))]
                    deck.remove(c)
                    cards.append(c)
                    if not deck and discards[pool]:
                        deck = decks[pool] = discards[pool]
                        discards[pool] = []
                self.hands[p] += cards
                if night:
                    self.known[p] += [not blind] * k
                record(_new(Draw, (p, tuple(cards), "draw")))
                if self.voided:
                    self.voided = []
                self.halt = False
                del draws[0]
                if self.deals:
                    self.deals -= 1
                if draws or phase == TURN_START:
                    self._prune()
                can_go_on = can_go_on and trust_refills
                actions += 1
                continue
            if phase == PLAY:
                pending = self.pending
                if pending:
                    # Chance: the next reaction time of the players who have just acted.
                    clock = self.clock
                    ready = self.ready
                    drill = self.drill
                    movers = (pending[0],) if len(pending) == 1 else tuple(sorted(pending))
                    delays = []
                    for p in movers:
                        i = bisect_right(cumulative, rnd())
                        d = times[i if i < last_time else last_time]
                        delays.append(d)
                        if drill[p]:
                            drill[p] = False
                            ready[p] = clock + d + drill_ms
                        else:
                            ready[p] = clock + d
                    record(_new(React, (movers, tuple(delays), "react")))
                    if self.voided:
                        self.voided = []
                    self.halt = False
                    self.pending = []
                    actions += 1
                    continue
                ready = self.ready
                t = min(ready)
                # The players whose reaction time is up act (`_rt_legal`), each from the
                # state before any acts: their legal actions counted, not listed (the
                # wait, the clear or the hunt plays, the special cards, the reloads,
                # the looks) and `rng.choice`'s `_randbelow` of their number drawn.
                if ready.count(t) == 1:
                    movers = (ready.index(t),)
                else:
                    movers = tuple(q for q in range(self.n) if ready[q] == t)
                picked: list[Action] = []
                for p in movers:
                    hand = self.hands[p]
                    if blind:  # only the card looked at may be played
                        look = self.looking[p]
                        kinds = {hand[look]} if look >= 0 else set()
                    else:
                        kinds = set(hand)
                    jammed = self.jammed[p]
                    plays = 0
                    if not jammed:
                        side = 1 if p == self.taliban else 0
                        fits = fits_of[side]
                        if fits is None:
                            fits = fits_of[side] = self._fitting(p, fitting)
                        for fit in fits:
                            plays += len(fit.intersection(kinds))
                    head = 2 if jammed else 1 + plays
                    if not (jammed and jam_all):
                        held = special_kinds.intersection(kinds)
                        if held:
                            head += self._special_count(p, held)
                    reloads = skip = 0
                    if refill:
                        if blind or len(kinds) == len(hand):
                            reloads = 1 << len(hand)
                        else:
                            reloads = 1
                            for c in kinds:
                                reloads *= hand.count(c) + 1
                        # Discarding nothing is a reload only when it draws.
                        pool = p if per_colour else 0
                        skip = len(hand) >= self.limits[p] or not (
                            self.decks[pool] or self.discards[pool]
                        )
                    n = head + reloads - skip
                    if blind:
                        n += len(hand)
                    if plain:
                        bits = n.bit_length()
                        i = getrandbits(bits)
                        while i >= n:
                            i = getrandbits(bits)
                    else:
                        i = rng._randbelow(n)  # type: ignore[attr-defined]
                    if i < head:
                        picked.append(self._rt_head(p, i, plays))
                        continue
                    i -= head
                    if blind:
                        if i < reloads - skip:
                            picked.append(_night_reloads(p, len(hand), not skip)[i])
                        else:
                            picked.append(Look(p, i - reloads + skip))
                        continue
                    # The reload at this index of `Reloads`: how many of each kind, in
                    # sorted order, the last kind counting fastest.
                    index = i + skip
                    order = sorted(kinds)
                    if len(order) == len(hand):  # one of each: the index's binary digits
                        gone = tuple(compress(order, _subsets(len(order))[index]))
                    else:
                        cards = []
                        j = len(order)
                        while index:  # from the last kind back
                            j -= 1
                            c = order[j]
                            index, m = divmod(index, hand.count(c) + 1)
                            if m:
                                cards += [c] * m
                        cards.reverse()
                        gone = tuple(cards)
                    picked.append(_new(Reload, (p, gone, (), "reload")))
                actions += len(picked)
                if self.voided:
                    self.voided = []
                self.halt = False
                a = picked[0]
                if len(picked) > 1:
                    record(JointAction(picked))
                    self._rt_joint(picked)
                    can_go_on = False
                    fits_of = [None, None]
                    continue
                record(a)
                self.clock = t
                if blind or not isinstance(a, Reload):
                    self._rt_apply(a)
                    self._settle()
                    can_go_on = False
                    fits_of = [None, None]
                    continue
                p = a.player
                hand = self.hands[p]
                # `_reload` of it (drawn legal), and the reaction time it asks for.
                gone = a.cards
                if gone:
                    for c in gone:
                        hand.remove(c)
                    if per_colour:
                        discards = self.discards
                        for c in gone:
                            discards[pool_of_kind[c]].append(c)
                    else:
                        self.discards[0] += gone
                    self.dirty = True
                want = self.limits[p] - len(hand)
                if want > 0:
                    draws.append([p, want])
                    pool = p if per_colour else 0
                    if not (self.decks[pool] or self.discards[pool]):
                        self._prune()
                self.pending.append(p)
                # `_settle` after a reload (the phase is still PLAY): a hunt that
                # cannot be finished ends, else discards owed, the countdown, or play.
                if self.dirty:
                    if not can_go_on:
                        self._settle()
                        can_go_on = self.phase == PLAY
                        fits_of = [None, None]
                        continue
                    self.dirty = False  # what `_check_stuck` leaves when it can go on
                self._next_round(AFTER_GO if self.countdown else AFTER_PLAY)
                continue
            if phase == TURN:
                actions += self._turn_step(rng)
                can_go_on = False
                fits_of = [None, None]
                continue
            actions += self._playout_step(rng)
            can_go_on = False
            fits_of = [None, None]
        return actions

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
