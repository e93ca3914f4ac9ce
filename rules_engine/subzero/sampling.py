"""Determinisation: a state a player cannot tell from the true one, its hidden cards drawn anew.

What a player cannot see: the other players' hands, their face-down program cards until they
are turned up, the cards they drew, the order of the draw pile, and the cards a player who
drops out discards unseen.  `resample` rebuilds all of it from what the player saw (their
own cards, every reveal, how many cards each player drew and programmed, the reshuffles) so
that its result depends only on the player's view and the random numbers.

Every card a player draws is a token, tagged with its *epoch*: the draw pile it came from
(the deck until the first reshuffle, then each reshuffled pile).  The player's own tokens
and every card turned up have a known kind; the rest are unknown.  Walking the history:

- a draw makes new tokens of the current epoch (known kinds for the player's own draws);
- an opponent's program is laid face down, and each reveal identifies one of the tokens in
  that opponent's hand: which one is drawn at random among those whose epoch's pile could
  still have held that kind (the tokens differ only in the pile they came from);
- a reshuffle starts a new epoch whose pile is the discards: the cards turned up, and the
  tokens of players who dropped out (unknown kinds; one is settled to a kind when a card of
  the new pile needs it: a draw of the player's own, or a reveal the known cards cannot
  explain).

Then each epoch is solved in turn: its pile, less the known kinds drawn from it, is shuffled
and dealt to its unknown tokens (and, for the current epoch, to the draw pile).  Within an
epoch this is exactly uniform (the pile's order is a uniform shuffle); which hand token a
revealed card was is drawn by its pile's cards left unaccounted for (the marginal chance)
rather than by the exact joint posterior: an approximation that only matters when a card was
kept in hand over a reshuffle.  The history's hidden draws and programs, and a worked
example's hidden setup, are rewritten to match, so
`replay(result.initial(), result.history) == result`.

A walk can paint itself into a corner (a card turned up later fits no token left); then it is
tried again with the next random numbers, and after `TRIES` walks `_fallback` deals only the
cards hidden now (a state that plays on but does not replay).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from rules_engine.core import JointAction, Step
from rules_engine.subzero.actions import DEAL, PROGRAM, Action, Draw, Program, Reshuffle, Reveal

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState

TRIES = 50  # walks tried before giving up (a failed walk drew an infeasible reveal owner)


def resample(s: SubzeroState, player: int, rng: random.Random) -> SubzeroState:
    """A state with the same `view(player)` as `s`, hidden cards dealt anew (see the module)."""
    for _ in range(TRIES):
        found = _attempt(s, player, rng)
        if found is not None:
            return found
    found = _attempt(s, player, rng, relaxed=True)
    assert found is not None
    return found


def _attempt(
    s: SubzeroState, viewer: int, rng: random.Random, relaxed: bool = False
) -> SubzeroState | None:
    """One walk (see the module); None when it painted itself into a corner.  `relaxed`:
    never give up, and deal only the present hidden cards (`_fallback`)."""
    g = s.g
    n = s.n
    kinds = len(g.cards)
    index = g.card_index
    rand = rng.random
    # Tokens: the epoch they were drawn from, their kind (-1: not known yet).
    epoch_of: list[int] = []
    kind_of: list[int] = []
    # Per epoch: cards of each kind not yet accounted for, and unknown tokens in its pile.
    avail: list[list[int]] = [list(g.deck_counts)]
    pool_hidden: list[list[int]] = [[]]  # per epoch: tokens discarded unseen into its pile
    hands: list[list[int]] = [[] for _ in range(n)]  # tokens in hand (programmed ones too)
    slots: list[list[int]] = [[] for _ in range(n)]  # programmed tokens, identified so far
    programmed = [0] * n  # cards in this turn's program (0: no program laid)
    disc_known = [0] * kinds  # cards turned up that are in the discards
    disc_hidden: list[int] = []  # tokens discarded unseen
    pending: list[int] = []  # kinds turned up this turn (to the discards at its end)
    draws: dict[int, list[int]] = {}  # history index of a hidden draw -> its tokens
    programs: dict[tuple[int, int], list[int]] = {}  # (history index, player) -> its tokens
    epoch = 0

    def token(kind: int, player: int) -> int:
        t = len(epoch_of)
        epoch_of.append(epoch)
        kind_of.append(kind)
        hands[player].append(t)
        return t

    def own(player: int, kind: int) -> int:
        """Take a token of a known kind from the player's hand (the viewer's own)."""
        hand = hands[player]
        for i, t in enumerate(hand):
            if kind_of[t] == kind:
                return hand.pop(i)
        raise AssertionError("own card not in hand")

    def identify(player: int, kind: int) -> int | None:
        """Pick the hand token a card of `kind` turned up by `player` was: each by the chance
        that its pile gave that kind (the kind's cards left unaccounted for in that pile,
        over all its cards left unaccounted for)."""
        hand = hands[player]
        weights = []
        total = 0.0
        for t in hand:
            e = epoch_of[t]
            left = avail[e]
            if left[kind] > 0:
                w = left[kind] / (sum(left) + len(pool_hidden[e]))
            elif coverable(e, kind):
                w = 1 / (sum(left) + len(pool_hidden[e]))
            else:
                w = 0.0
            weights.append(w)
            total += w
        if total <= 0.0:
            if not relaxed:
                return None
            t = hand.pop(int(rand() * len(hand)))
            kind_of[t] = kind
            return t
        x = rand() * total
        i = 0
        while i < len(hand) - 1 and (x >= weights[i] or weights[i] == 0.0):
            x -= weights[i]
            i += 1
        t = hand.pop(i)
        take(t, kind)
        return t

    def coverable(e: int, kind: int) -> bool:
        """Whether a card discarded unseen into pile `e` could be of `kind`."""
        return any(avail[epoch_of[h]][kind] > 0 for h in pool_hidden[e])

    def take(t: int, kind: int) -> None:
        """Token `t` is of `kind`; when its pile has no such card left that is known, one
        of the cards discarded unseen into that pile (which could be one) is settled so."""
        left = avail[epoch_of[t]]
        if left[kind] <= 0:
            hidden = pool_hidden[epoch_of[t]]
            fits = [i for i, h in enumerate(hidden) if avail[epoch_of[h]][kind] > 0]
            h = hidden.pop(fits[int(rand() * len(fits))])
            kind_of[h] = kind
            avail[epoch_of[h]][kind] -= 1
            left[kind] += 1
        kind_of[t] = kind
        left[kind] -= 1

    def lay_rest(player: int) -> None:
        """The program cards not turned up: random tokens from the hand."""
        hand = hands[player]
        while len(slots[player]) < programmed[player]:
            slots[player].append(hand.pop(int(rand() * len(hand))))

    def drop(player: int) -> None:
        """A player drops out: hand and program go to the discards."""
        lay_rest(player)
        for t in (*hands[player], *slots[player][len(done[player]) :]):
            if kind_of[t] >= 0:
                disc_known[kind_of[t]] += 1
            else:
                disc_hidden.append(t)
        hands[player] = []
        slots[player] = []
        programmed[player] = 0

    done: list[list[int]] = [[] for _ in range(n)]  # kinds turned up this turn, by player
    init = s.init
    if init is not None:
        for k in (*init.hands[viewer], *init.programs[viewer]):
            avail[0][k] -= 1
        for p in range(n):
            for k in init.hands[p]:
                token(k if p == viewer else -1, p)
            if init.programs[p]:
                laid = [token(k if p == viewer else -1, p) for k in init.programs[p]]
                for t in laid:
                    hands[p].remove(t)
                slots[p] = laid
                programmed[p] = len(laid)
        for _ in range(sum(init.discards)):
            disc_hidden.append(len(epoch_of))
            epoch_of.append(0)
            kind_of.append(-1)
    # Who drops out, and after which history entry (their last reveal).
    last_act = {p: -1 for p in s.out if init is None or p not in init.out}
    history = s.history
    for i, step in enumerate(history):
        acts = actions_of(step)
        for a in acts:
            if type(a) is Reveal and a.player in last_act:
                last_act[a.player] = i
    dropped = [p for p, i in sorted(last_act.items(), key=lambda x: x[1])]
    # The player's own draws, by epoch: known before any reveal is attributed to an epoch.
    mine = [[0] * kinds]
    for step in history:
        if type(step) is Draw and step.player == viewer:
            for c in step.cards:
                mine[-1][index[c]] += 1
        elif type(step) is Reshuffle:
            mine.append([0] * kinds)
    avail[0] = [a - b for a, b in zip(avail[0], mine[0], strict=True)]
    for i, step in enumerate(history):
        acts = actions_of(step)
        first = acts[0]
        if type(first) is not Reveal:
            while dropped and last_act[dropped[0]] < i:
                drop(dropped.pop(0))
            if pending:  # the turn ended: its cards go to the discards
                for k in pending:
                    disc_known[k] += 1
                pending.clear()
                for p in range(n):
                    slots[p] = []
                    done[p] = []
                    programmed[p] = 0
        t0 = type(first)
        if t0 is Reveal:
            for r in acts:
                assert isinstance(r, Reveal)
                p = r.player
                k = index[r.card]
                j = len(done[p])
                if p != viewer and j < len(slots[p]):  # a card of a program laid at setup
                    t = slots[p][j]
                    if avail[epoch_of[t]][k] > 0 or coverable(epoch_of[t], k):
                        take(t, k)
                    elif relaxed:
                        kind_of[t] = k
                    else:
                        return None
                elif p != viewer:
                    found = identify(p, k)
                    if found is None:
                        return None
                    slots[p].append(found)
                done[p].append(k)
                pending.append(k)
        elif t0 is Program:
            for a in acts:
                assert isinstance(a, Program)
                p = a.player
                programmed[p] = len(a.cards)
                if p == viewer:
                    slots[p] = [own(p, index[c]) for c in a.cards]
                else:
                    slots[p] = programs[(i, p)] = []
        elif t0 is Draw:
            assert isinstance(first, Draw)
            p = first.player
            if p == viewer:
                for c in first.cards:
                    token(index[c], p)
            else:
                draws[i] = [token(-1, p) for _ in first.cards]
        elif t0 is Reshuffle:
            # The player's own draws from the new pile that the cards turned up cannot give
            # must be cards discarded unseen: those kinds are settled now.
            fresh = [a - b for a, b in zip(disc_known, mine[epoch + 1], strict=True)]
            for k in range(kinds):
                while fresh[k] < 0 and disc_hidden:
                    t = disc_hidden.pop(int(rand() * len(disc_hidden)))
                    if avail[epoch_of[t]][k] <= 0 and not relaxed:
                        return None
                    kind_of[t] = k
                    avail[epoch_of[t]][k] -= 1
                    fresh[k] += 1
            avail.append(fresh)
            pool_hidden.append(disc_hidden)
            disc_hidden = []
            disc_known = [0] * kinds
            epoch += 1
    ended = s.phase in (DEAL, PROGRAM)  # the last turn has ended: its cards are discarded
    while dropped:  # out in the last turn: the cards they turned up are discarded already
        p = dropped.pop(0)
        if not ended:
            for k in done[p]:
                disc_known[k] += 1
                pending.remove(k)
        drop(p)
    if ended:
        for k in pending:
            disc_known[k] += 1
        pending.clear()
    for p in range(n):
        if p != viewer and programmed[p]:
            lay_rest(p)
    if relaxed:
        return _fallback(s, viewer, rng, disc_known, done, draws, programs)
    # Solve the epochs in turn: each pile, less its known draws, to its unknown tokens.
    unknown: list[list[int]] = [[] for _ in avail]
    for t, k in enumerate(kind_of):
        if k < 0:
            unknown[epoch_of[t]].append(t)
    pile: list[int] = []
    for e, left in enumerate(avail):
        rest = list(left)
        for t in pool_hidden[e]:
            rest[kind_of[t]] += 1
        toks = unknown[e]
        cards = [k for k in range(kinds) for _ in range(rest[k])]
        rng.shuffle(cards)
        if len(cards) < len(toks):
            return None
        for t, k in zip(toks, cards, strict=False):
            kind_of[t] = k
        pile = cards[len(toks) :]
    return _build(s, viewer, kind_of, hands, slots, pile, disc_known, disc_hidden, draws, programs)


def _fallback(
    s: SubzeroState,
    viewer: int,
    rng: random.Random,
    disc_known: list[int],
    done: list[list[int]],
    draws: dict[int, list[int]],
    programs: dict[tuple[int, int], list[int]],
) -> SubzeroState:
    """When every walk failed: the cards whose place the player does not know, dealt at
    random to the places hidden now (others' hands and face-down cards, the discards they
    could not see, the pile).  The view is the same and depends on nothing else, but the
    history's hidden draws and programs are masked ('?' cards): this state plays on, it does
    not replay."""
    g = s.g
    kinds = len(g.cards)
    left = list(g.deck_counts)
    for k in (*s.hands[viewer], *s.programs[viewer]):
        left[k] -= 1
    for k in range(kinds):
        left[k] -= disc_known[k]
    for p in range(s.n):
        if p != viewer and s.programs[p]:
            for k in done[p]:
                left[k] -= 1
    cards = [k for k in range(kinds) for _ in range(left[k])]
    rng.shuffle(cards)
    new = s.clone()
    at = 0
    for p in range(s.n):
        if p == viewer:
            continue
        size = len(s.hands[p])
        new.hands[p] = sorted(cards[at : at + size])
        at += size
        if s.programs[p]:
            size = len(s.programs[p]) - len(done[p])
            new.programs[p] = (*done[p], *cards[at : at + size])
            at += size
    discards = list(disc_known)
    for k in cards[at : at + s.discard_total - sum(disc_known)]:
        discards[k] += 1
    at += s.discard_total - sum(disc_known)
    pile = [0] * kinds
    for k in cards[at:]:
        pile[k] += 1
    if min(left) < 0 or len(cards) - at != s.pile_total:
        raise RuntimeError("subzero: the hidden cards do not add up")
    new.discards = discards
    new.pile = pile
    history = new._history
    for i in draws:
        old = history[i]
        assert isinstance(old, Draw)
        history[i] = Draw(old.player, ("?",) * len(old.cards))
    for i, p in programs:
        old_step = history[i]
        acts = actions_of(old_step)
        fresh = [
            Program(a.player, ("?",) * len(a.cards))
            if isinstance(a, Program) and a.player == p
            else a
            for a in acts
        ]
        history[i] = JointAction(fresh) if isinstance(old_step, JointAction) else fresh[0]
    new.seen = [new.seen[viewer] if p == viewer else () for p in range(s.n)]
    return new


def actions_of(step: Step[Action]) -> tuple[Action, ...]:
    """The actions of a history entry: a simultaneous step's, or the one action."""
    if isinstance(step, JointAction):
        return cast("tuple[Action, ...]", tuple(step))
    return (cast("Action", step),)


def _build(
    s: SubzeroState,
    viewer: int,
    kind_of: list[int],
    hands: list[list[int]],
    slots: list[list[int]],
    pile: list[int],
    disc_known: list[int],
    disc_hidden: list[int],
    draws: dict[int, list[int]],
    programs: dict[tuple[int, int], list[int]],
) -> SubzeroState:
    """The resampled state: `s` with the hidden cards and the history's hidden steps replaced."""
    g = s.g
    ids = g.card_ids
    kinds = len(g.cards)
    new = s.clone()
    for p in range(s.n):
        if p != viewer:
            new.hands[p] = sorted(kind_of[t] for t in hands[p])
            new.programs[p] = tuple(kind_of[t] for t in slots[p]) if s.programs[p] else ()
    counts = [0] * kinds
    for k in pile:
        counts[k] += 1
    new.pile = counts
    discards = list(disc_known)
    for t in disc_hidden:
        discards[kind_of[t]] += 1
    new.discards = discards
    history = new._history
    new.seen = [new.seen[viewer] if p == viewer else () for p in range(s.n)]
    for i, tokens in draws.items():
        old = history[i]
        assert isinstance(old, Draw)
        history[i] = Draw(old.player, tuple(ids[k] for k in sorted(kind_of[t] for t in tokens)))
    by_step: dict[int, dict[int, tuple[str, ...]]] = {}
    for (i, p), tokens in programs.items():
        by_step.setdefault(i, {})[p] = tuple(ids[kind_of[t]] for t in tokens)
    for i, cards in by_step.items():
        old_step: Step[Action] = history[i]
        acts = actions_of(old_step)
        fresh = [
            Program(a.player, cards[a.player])
            if isinstance(a, Program) and a.player in cards
            else a
            for a in acts
        ]
        history[i] = JointAction(fresh) if isinstance(old_step, JointAction) else fresh[0]
    return new
