"""The end of a step and of a turn: discards, refilling the hands, passing the start (rules
`refill`, `reshuffle`, `start-passes`; the deal at setup, rule `deal`, is drawn alike).

After each step the next card to the right is revealed; after the last step the revealed
cards go to the discards, each player draws back up to a full hand (chance: `Draw`, in data
order; the deal at setup is drawn the same way), the discards are reshuffled into a new draw
pile when a card must be drawn and the pile is empty (chance: `Reshuffle`), and the start
player passes on.  `MultisetDraws` lists the outcomes of one draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError, LazySequence
from rules_engine.subzero.actions import DEAL, PROGRAM, Draw

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState


class MultisetDraws(LazySequence[tuple[int, ...]]):
    """Every distinct multiset of `k` cards from a pile (counts per kind), as sorted tuples of
    kind indexes, lazily: the outcomes of one chance draw."""

    def __init__(self, counts: Sequence[int], k: int) -> None:
        self._counts = tuple(counts)
        self._k = k
        self._memo: dict[tuple[int, int], int] = {}
        self._len = self._count(0, k)

    def _count(self, i: int, k: int) -> int:
        if k == 0:
            return 1
        if i >= len(self._counts):
            return 0
        key = (i, k)
        found = self._memo.get(key)
        if found is not None:
            return found
        total = 0
        for take in range(min(k, self._counts[i]), -1, -1):
            total += self._count(i + 1, k - take)
        self._memo[key] = total
        return total

    def _item(self, index: int) -> tuple[int, ...]:
        out: list[int] = []
        k = self._k
        for i, c in enumerate(self._counts):
            if k == 0:
                break
            for take in range(min(k, c), -1, -1):
                n = self._count(i + 1, k - take)
                if index < n:
                    out.extend([i] * take)
                    k -= take
                    break
                index -= n
        return tuple(out)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != self._k:
            return False
        if any(not isinstance(v, int) or not 0 <= v < len(self._counts) for v in value):
            return False
        return list(value) == sorted(value) and all(
            value.count(i) <= c for i, c in enumerate(self._counts)
        )


def next_step(s: SubzeroState) -> None:
    g = s.g
    s.slot += 1
    s.rpos = 0
    s.step_reveals = []
    if s.slot < g.slots:
        return
    # End of the turn: the revealed cards go to the discards, refill, pass the start.
    discards = s.discards
    programs = s.programs
    s.last_programs = list(programs)
    for p in s.order:
        for k in programs[p]:
            discards[k] += 1
        s.discard_total += len(programs[p])
        programs[p] = ()
    s.slot = 0
    s.turn += 1
    if EVENTS.on:
        EVENTS.emit(
            "refill", "turn_end", turn=s.turn - 1, discarded=sum(len(p) for p in s.last_programs)
        )
    order = s.order
    n = s.n
    step = g.pass_step
    start = s.start
    for i in range(1, n + 1):
        q = (start + step * i) % n
        if q not in s.out:
            s.start = q
            break
    s._set_order()
    if EVENTS.on:
        EVENTS.emit(
            "start-passes",
            "start_passes",
            player=g.names[s.start],
            side="left" if step == 1 else "right",
        )
    s.queue = [p for p in order if p not in s.out and len(s.hands[p]) < g.hand_size]
    s.phase = DEAL if s.queue else PROGRAM


def check_draw(s: SubzeroState, action: Draw) -> None:
    g = s.g
    phase = s.phase
    names = g.names
    rule = draw_rule(s)
    if phase != DEAL:
        raise IllegalActionError(rule, f"no cards are drawn now ({s._now()})")
    p = s.queue[0]
    if action.player != p:
        raise IllegalActionError(rule, f"{names[p]} draws next, not {names[action.player]}")
    if s.pile_total == 0:
        raise IllegalActionError(
            "reshuffle", "the draw pile is empty: reshuffle the discards first"
        )
    k = min(g.hand_size - len(s.hands[p]), s.pile_total)
    if len(action.cards) != k:
        raise IllegalActionError(
            rule,
            f"{names[p]} draws {k} card(s) (hand of {g.hand_size}, "
            f"{s.pile_total} in the draw pile), got {len(action.cards)}",
        )
    kinds = []
    for c in action.cards:
        if c not in g.card_index:
            raise IllegalActionError(rule, f"unknown card '{c}'")
        kinds.append(g.card_index[c])
    if kinds != sorted(kinds):
        raise IllegalActionError(rule, "drawn cards are listed in data order")
    for k2 in set(kinds):
        if kinds.count(k2) > s.pile[k2]:
            raise IllegalActionError(
                rule,
                f"the draw pile holds {s.pile[k2]} card(s) {g.card_ids[k2]}, "
                f"{kinds.count(k2)} drawn",
            )


def plain_draw(s: SubzeroState, action: Draw) -> bool:
    """Whether `check_draw` would pass `action` (a draw due now), found more cheaply: the
    next player's draw of as many cards as they are due, known cards listed in data order,
    no more of a kind than the draw pile holds.  False: `check_draw` says what is wrong."""
    p = action.player
    if s.phase != DEAL or not s.queue or p != s.queue[0] or not s.pile_total:
        return False
    g = s.g
    cards = action.cards
    if len(cards) != min(g.hand_size - len(s.hands[p]), s.pile_total):
        return False
    index = g.card_index
    pile = s.pile
    last = -1
    run = 0
    for c in cards:
        k = index.get(c, -1)
        if k < 0 or k < last:
            return False
        run = run + 1 if k == last else 1
        if run > pile[k]:
            return False
        last = k
    return True


def check_reshuffle(s: SubzeroState) -> None:
    phase = s.phase
    if phase != DEAL:
        raise IllegalActionError("reshuffle", f"no cards are drawn now ({s._now()})")
    if s.pile_total:
        raise IllegalActionError(
            "reshuffle", f"the draw pile still holds {s.pile_total} card(s): no reshuffle"
        )


def draw_cards(s: SubzeroState, draw: Draw) -> None:
    g = s.g
    index = g.card_index
    hand = s.hands[draw.player]
    pile = s.pile
    for c in draw.cards:
        k = index[c]
        pile[k] -= 1
        hand.append(k)
    hand.sort()
    s.pile_total -= len(draw.cards)
    if EVENTS.on:
        EVENTS.emit(
            draw_rule(s),
            "draw",
            player=g.names[draw.player],
            cards=list(draw.cards),
            hand=len(hand),
            full=len(hand) >= g.hand_size,
            deal=s.turn == 1,
        )
    if len(hand) >= g.hand_size:
        s.queue.pop(0)
        if not s.queue:
            s.phase = PROGRAM


def draw_rule(s: SubzeroState) -> str:
    """The rule a draw follows: the deal before the first turn, else the refill."""
    return "deal" if s.turn == 1 else "refill"


def reshuffle(s: SubzeroState) -> None:
    if EVENTS.on:
        EVENTS.emit("reshuffle", "reshuffle", cards=s.discard_total)
    s.pile = s.discards
    s.pile_total = s.discard_total
    s.discards = [0] * len(s.g.cards)
    s.discard_total = 0
    s.reshuffles += 1
