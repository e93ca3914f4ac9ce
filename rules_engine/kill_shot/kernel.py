"""The loop of KILL SHOT's fast playout (`Playouts.playout`, `playouts.py`): the real-time
cycle (a player's reload, chance's refill, chance's next reaction time) played directly,
every other step through `Playouts`' own steps.

It is a kernel (`rules_engine.native`): compiled by mypyc when the project is set up, and
played as Python where it is not; both play the same games from the same generator
(`tests/engine/test_native.py`).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import cache
from itertools import compress, product
from typing import TYPE_CHECKING

from rules_engine.core import JointAction, index_bits
from rules_engine.kill_shot.actions import Action, Draw, Look, React, Reload
from rules_engine.kill_shot.legal_actions import _night_reloads
from rules_engine.kill_shot.phases import AFTER_GO, AFTER_PLAY, OVER, PLAY, TURN, TURN_START

if TYPE_CHECKING:
    from rules_engine.kill_shot.state import KillShotState

_new = tuple.__new__
"""Builds an action tuple without its class's Python-level `__new__` (the same value)."""


@cache
def _subsets(size: int) -> tuple[tuple[bool, ...], ...]:
    """Which of `size` distinct cards each reload discards, in the order of `Reloads`
    (`itertools.product` order: the first card's choice changes slowest)."""
    return tuple(product((False, True), repeat=size))


def playout(state: KillShotState, rng: random.Random, max_steps: int) -> int:
    """`Playouts.playout`'s loop (events off): the same game as the protocol's loop, from the
    same generator; returns the number of actions applied."""
    g = state.g
    history = state._history
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
        phase = state.phase
        if phase == OVER:
            break
        steps += 1
        draws = state.draws
        if draws:
            # Chance draws (a deal or a refill): each card picked and moved at once.
            entry = draws[0]
            p = entry[0]
            pool = p if per_colour else 0
            decks = state.decks
            discards = state.discards
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
                # `deck.remove(c)`: the first card of that kind goes (as the protocol's draw
                # takes it), found by comparing numbers rather than objects.
                j = 0
                while deck[j] != c:
                    j += 1
                del deck[j]
                cards.append(c)
                if not deck and discards[pool]:
                    deck = decks[pool] = discards[pool]
                    discards[pool] = []
            state.hands[p] += cards
            if night:
                state.known[p] += [not blind] * k
            history.append(_new(Draw, (p, tuple(cards), "draw")))
            if state.voided:
                state.voided = []
            state.halt = False
            del draws[0]
            if state.deals:
                state.deals -= 1
            if draws or phase == TURN_START:
                state._prune()
            can_go_on = can_go_on and trust_refills
            actions += 1
            continue
        if phase == PLAY:
            pending = state.pending
            if pending:
                # Chance: the next reaction time of the players who have just acted.
                clock = state.clock
                ready = state.ready
                drill = state.drill
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
                history.append(_new(React, (movers, tuple(delays), "react")))
                if state.voided:
                    state.voided = []
                state.halt = False
                state.pending = []
                actions += 1
                continue
            ready = state.ready
            t = min(ready)
            # The players whose reaction time is up act (`_rt_legal`), each from the
            # state before any acts: their legal actions counted, not listed (the
            # wait, the clear or the hunt plays, the special cards, the reloads,
            # the looks) and `rng.choice`'s `_randbelow` of their number drawn.
            if ready.count(t) == 1:
                movers = (ready.index(t),)
            else:
                movers = tuple(q for q in range(state.n) if ready[q] == t)
            picked: list[Action] = []
            for p in movers:
                hand = state.hands[p]
                if blind:  # only the card looked at may be played
                    look = state.looking[p]
                    kinds = {hand[look]} if look >= 0 else set()
                else:
                    kinds = set(hand)
                jammed = state.jammed[p]
                plays = 0
                if not jammed:
                    side = 1 if p == state.taliban else 0
                    fits = fits_of[side]
                    if fits is None:
                        fits = fits_of[side] = state._fitting(p, fitting)
                    for fit in fits:
                        plays += len(fit.intersection(kinds))
                head = 2 if jammed else 1 + plays
                if not (jammed and jam_all):
                    held = special_kinds.intersection(kinds)
                    if held:
                        head += state._special_count(p, held)
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
                    skip = len(hand) >= state.limits[p] or not (
                        state.decks[pool] or state.discards[pool]
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
                    picked.append(state._rt_head(p, i, plays))
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
            if state.voided:
                state.voided = []
            state.halt = False
            a = picked[0]
            if len(picked) > 1:
                history.append(JointAction(picked))
                state._rt_joint(picked)
                can_go_on = False
                fits_of = [None, None]
                continue
            history.append(a)
            state.clock = t
            if blind or not isinstance(a, Reload):
                state._rt_apply(a)
                state._settle()
                can_go_on = False
                fits_of = [None, None]
                continue
            p = a.player
            hand = state.hands[p]
            # `_reload` of it (drawn legal), and the reaction time it asks for.
            gone = a.cards
            if gone:
                for c in gone:
                    hand.remove(c)
                if per_colour:
                    discards = state.discards
                    for c in gone:
                        discards[pool_of_kind[c]].append(c)
                else:
                    state.discards[0] += gone
                state.dirty = True
            want = state.limits[p] - len(hand)
            if want > 0:
                draws.append([p, want])
                pool = p if per_colour else 0
                if not (state.decks[pool] or state.discards[pool]):
                    state._prune()
            state.pending.append(p)
            # `_settle` after a reload (the phase is still PLAY): a hunt that
            # cannot be finished ends, else discards owed, the countdown, or play.
            if state.dirty:
                if not can_go_on:
                    state._settle()
                    can_go_on = state.phase == PLAY
                    fits_of = [None, None]
                    continue
                state.dirty = False  # what `_check_stuck` leaves when it can go on
            state._next_round(AFTER_GO if state.countdown else AFTER_PLAY)
            continue
        if phase == TURN:
            actions += state._turn_step(rng)
            can_go_on = False
            fits_of = [None, None]
            continue
        actions += state._playout_step(rng)
        can_go_on = False
        fits_of = [None, None]
    return actions
