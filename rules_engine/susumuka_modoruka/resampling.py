"""Resampling what one player cannot see (`SusumukaState.resample`): the cards the other
players drew into their hands while investigating, and so what is left in the dungeon deck.

Nothing else is hidden: the decks are kept as counts (each draw is a chance step), the item
decks' bottoms are public, dice and advances are seen by all.  The hidden cards are not one
pool, though: the dungeon deck is reshuffled from the discard pile when it runs out, and a
card drawn before a reshuffle came from the deck as it was then.  So the draws are grouped
into *epochs* (one per pass through the deck); an epoch's deck is public (the first is the
full deck, each later one the discard pile at the reshuffle), and so is every card of it
that was drawn face up or by the player.  The rest of an epoch's deck is what the hidden
draws of that epoch took (and, for the current epoch, the deck still to draw).

A card another player later fought or fled from out of their hand, or dropped on dying, must
have been in that hand: it is *pinned* to one of their earlier hidden draws (the latest one
whose epoch still has that card to give, the cards with fewest choices first).  Every other hidden draw is dealt at random from
what its epoch has left, sorted first so that the true arrangement never decides the order.
The history's hidden draws are rewritten to the cards dealt, so the result replays.

What the player knows is worked out once per public history by replaying it (a search asks
for the same position many times): `_structure` keeps it in a small cache.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rules_engine.susumuka_modoruka.actions import Act, Draw
from rules_engine.susumuka_modoruka.phases import CHOOSE, DRAW

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


@dataclass(frozen=True)
class _Structure:
    """What `player` knows of the hidden draws of a history: the slots (history index, or -1
    for a hand the setup dealt; the drawer; the epoch), what each epoch has left to give the
    hidden draws (card index -> count, lost-property cards excluded), the cards that left
    other hands face up (each with the slots it may have come from: its holder's hidden draws
    before it, since their last death), fewest choices first, and the current epoch."""

    slots: tuple[tuple[int, int, int], ...]
    pools: tuple[tuple[int, ...], ...]
    pins: tuple[tuple[int, tuple[int, ...]], ...]
    epoch: int


_CACHE: dict[tuple[object, ...], _Structure] = {}
_CACHE_SIZE: Final = 512
_SEARCH: Final = 20_000  # pins tried before giving up (never reached in practice)


def _structure(state: SusumukaState, player: int) -> _Structure:
    history = state._history
    seen_by = state._seen_by
    key: tuple[object, ...] | None = None
    if state.init is None:
        masked = tuple(
            step if seen in (-1, player) else None
            for step, seen in zip(history, seen_by, strict=True)
        )
        key = (state.g, player, masked)
        found = _CACHE.get(key)
        if found is not None:
            return found
    found = _build(state, player)
    if key is not None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _build(state: SusumukaState, player: int) -> _Structure:
    """Replay the history, noting only what `player` sees: epochs' decks, the cards drawn
    face up, the hidden draws, and the cards that leave the other hands face up."""
    g = state.g
    n = state.n
    lp = set(g.lp_index)
    index = g.dungeon_index
    s = state.initial()
    slots: list[tuple[int, int, int]] = []
    held: list[list[int]] = [[] for _ in range(n)]  # each player's slots since their death
    pins: list[tuple[int, tuple[int, ...]]] = []
    pool = [0 if i in lp else k for i, k in enumerate(s.pile)]
    for q in range(n):
        if q != player:
            for cid in s.hand[q]:
                pool[index[cid]] += 1
                held[q].append(len(slots))
                slots.append((-1, q, 0))
    pools = [pool]
    pile = s.pile
    for i, step in enumerate(state._history):
        phase = s.phase
        if phase == DRAW and isinstance(step, Draw):
            idx = index[step.card]
            if idx not in lp:
                seen = state._seen_by[i]
                if seen in (-1, player):
                    pools[-1][idx] -= 1
                else:
                    held[seen].append(len(slots))
                    slots.append((i, seen, len(pools) - 1))
        elif phase == CHOOSE and isinstance(step, Act) and step.player != player:
            for word in step.args:
                if word in index:
                    pins.append((index[word], tuple(held[step.player])))
        deaths = list(s.deaths)
        hands = [list(h) for h in s.hand]
        s._do(step)  # type: ignore[arg-type]
        for q in range(n):
            if q != player and s.deaths[q] != deaths[q]:
                # The hand dropped on dying is seen by all (it goes to the discard pile).
                if isinstance(step, Act) and step.player == q and phase == CHOOSE:
                    for word in step.args:
                        if word in index:
                            hands[q].remove(word)
                pins.extend((index[cid], tuple(held[q])) for cid in sorted(hands[q]))
                held[q] = []
        if s.pile is not pile:
            pile = s.pile
            pools.append([0 if j in lp else k for j, k in enumerate(pile)])

    def choices(pin: tuple[int, tuple[int, ...]]) -> tuple[int, int]:
        card, among = pin
        return len({slots[k][2] for k in among if pools[slots[k][2]][card]}), card

    pins.sort(key=choices)
    return _Structure(tuple(slots), tuple(tuple(p) for p in pools), tuple(pins), len(pools) - 1)


def resample(state: SusumukaState, player: int, rng: random.Random) -> SusumukaState:
    """A state with the same view for `player`, the other hands and the deck dealt anew."""
    st = _structure(state, player)
    if not st.slots:
        return state.clone()
    avail = [list(p) for p in st.pools]
    card = [-1] * len(st.slots)
    if not _pin(st, 0, avail, card, rng, [_SEARCH]):
        raise RuntimeError("susumuka-modoruka: no deal fits what the player saw")
    pinned = [c >= 0 for c in card]
    # The other draws of each epoch: dealt at random from what the epoch has left.
    by_epoch: list[list[int]] = [[] for _ in st.pools]
    for k, (_, _, e) in enumerate(st.slots):
        if card[k] < 0:
            by_epoch[e].append(k)
    leftover: list[int] = []
    for e, ks in enumerate(by_epoch):
        rest = [i for i, c in enumerate(avail[e]) for _ in range(c)]
        rng.shuffle(rest)
        for k, c in zip(ks, rest, strict=False):
            card[k] = c
        if e == st.epoch:
            leftover = rest[len(ks) :]
    return _apply(state, player, st, card, pinned, leftover)


def _pin(
    st: _Structure,
    at: int,
    avail: list[list[int]],
    card: list[int],
    rng: random.Random,
    budget: list[int],
) -> bool:
    """Pin the cards from `st.pins[at]` on, each to a free slot of an epoch that still has
    it (epochs tried in random order; within one, the latest slot: a card may come from any
    draw of its hand before it, so the latest one is the one fewest other cards could use):
    depth-first, undoing dead ends."""
    if at == len(st.pins):
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    c, among = st.pins[at]
    slots = st.slots
    free: dict[int, int] = {}
    for k in among:
        e = slots[k][2]
        if card[k] < 0 and avail[e][c]:
            free[e] = k
    options = sorted(free.items())
    rng.shuffle(options)
    for e, k in options:
        card[k] = c
        avail[e][c] -= 1
        if _pin(st, at + 1, avail, card, rng, budget):
            return True
        card[k] = -1
        avail[e][c] += 1
    return False


def _apply(
    state: SusumukaState,
    player: int,
    st: _Structure,
    card: list[int],
    pinned: list[bool],
    leftover: list[int],
) -> SusumukaState:
    """The state with the slots' cards: the history's draws, the hands, the deck."""
    g = state.g
    ids = g.dungeon
    draws = g.draw_acts
    new = state.clone()
    history = new._history
    hands: list[list[str]] = [[] for _ in range(state.n)]
    dealt: list[list[str]] = [[] for _ in range(state.n)]
    for k, (h, q, _) in enumerate(st.slots):
        c = card[k]
        if h >= 0:
            history[h] = draws[c]
        else:
            dealt[q].append(ids[c].id)
        if not pinned[k]:
            hands[q].append(ids[c].id)
    for q in range(state.n):
        if q != player:
            hands[q].sort()
            new.hand[q] = hands[q]
    pile = [0] * len(ids)
    for i in g.lp_index:
        pile[i] = state.pile[i]
    for c in leftover:
        pile[c] += 1
    new.pile = pile
    if any(dealt):
        init = state.init
        assert init is not None
        start = init.clone()
        for q in range(state.n):
            if q != player:
                for cid in init.hand[q]:
                    start.pile[g.dungeon_index[cid]] += 1
                for cid in dealt[q]:
                    start.pile[g.dungeon_index[cid]] -= 1
                start.hand[q] = sorted(dealt[q])
        new.init = start
    return new
