"""A position as one player could guess it (`KillShotState.resample`), for players that search:
everything hidden from that player drawn anew, depending only on what the player can know.

Hidden from a player: the other hands, the decks and the discards (face down), their own
cards they have not seen (before the first "go!" without Briefing, or unseen under Night
Mission in real time), and everyone's coming reaction times.  A new hunt gathers every
tactics card, so only the current hunt's cards are ever hidden.

The cards: in each deck's pool (the shared deck, or a colour deck), the hidden cards are
gathered into one sorted multiset, shuffled, and dealt back to the hidden hand positions (in
seat and position order), the deck and the discards.  The player's own colour discards (a
colour deck: the player saw every card that went there) stay as they are.  The shared
discards are mixed with the deck: cards seen going there (a Jam, a Bad Intel) are not
tracked, a simplification that loses a little of what the player knows.

The clock: the players whose reaction time has come (`current_players()`, which a player
deciding knows) act at a new instant drawn after the clock, every other player a reaction
time later; players still to get a reaction time (chance's next step) wait at the clock.
Reaction times are drawn afresh from the law, not conditioned on the time already gone.

The history: entries the player saw only in part are rewritten so that it holds nothing the
player did not see: another player's draw keeps its number of cards (the log shows it), its
cards the first ones of its pool in sorted order; another player's reload, discard or pick
becomes an empty one (the log shows only that it happened); "go!" and reaction times all
become the shortest reaction time.  (Placeholders, not random draws: the past of hidden
parts does not change what can happen next, and a fixed rewrite can be kept and extended.)  So the history gives the same log, but it is not a replay of the resampled
position (a consistent past of hidden draws and reloads is not cheap to draw):
`replay(result.initial(), result.history)` does not hold, `result.initial() ==
self.initial()` does (a game's start has nothing hidden: the decks are full).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rules_engine.core import JointAction, Step
from rules_engine.kill_shot.actions import Action, Discard, Draw, Go, Pick, React, Reload
from rules_engine.kill_shot.phases import PLAY
from rules_engine.kill_shot.state_base import KillShotStateBase

if TYPE_CHECKING:
    from rules_engine.kill_shot.state import KillShotState


class Resampling(KillShotStateBase):
    """`resample`: hidden cards dealt anew, coming reaction times drawn anew."""

    __slots__ = ()

    def resample(self, player: int, rng: random.Random) -> KillShotState:
        """A state with the same `view(player)`, its hidden parts drawn at random (see the
        module's docstring for what is hidden and what the history keeps)."""
        g = self.g
        new = self.clone()
        new.drawn = None
        rnd = rng.random
        self._deal_hidden(new, player, rng)
        if not g.turn_based:
            law = g.law
            clock = self.clock
            if self.phase == PLAY and not self.pending and not self.draws:
                ready = self.ready
                t = min(ready)
                now = clock + law.sample(rnd)
                new.ready = [now if r == t else now + law.sample(rnd) for r in ready]
            else:
                waiting = self.pending
                new.ready = [
                    clock if p in waiting else clock + law.sample(rnd) for p in range(self.n)
                ]
        new._history = self._masked_history(player)
        return new

    def _deal_hidden(self, new: KillShotState, player: int, rng: random.Random) -> None:
        """Deal every pool's hidden cards anew into `new` (hidden hand positions, the deck,
        the discards), from a sorted multiset so that the true arrangement cannot leak."""
        g = self.g
        pools = g.pools
        own_hidden = not g.blind and not self.hand_visible(player)
        slots: list[list[tuple[int, int]]] = [[] for _ in range(pools)]
        hidden: list[list[int]] = [[] for _ in range(pools)]
        pool_of = g.pool_of_kind
        for q in range(self.n):
            hand = self.hands[q]
            if q == player and not own_hidden:
                if not g.blind:
                    continue
                known = self.known[q]
                positions = [i for i in range(len(hand)) if not known[i]]
            else:
                positions = list(range(len(hand)))
            for i in positions:
                pool = pool_of[hand[i]]
                slots[pool].append((q, i))
                hidden[pool].append(hand[i])
        own_pool = player if g.per_colour else -1
        for pool in range(pools):
            cards = hidden[pool]
            cards.extend(self.decks[pool])
            mixed = pool != own_pool
            if mixed:
                cards.extend(self.discards[pool])
            if not cards:
                continue
            cards.sort()
            rng.shuffle(cards)
            for j, (q, i) in enumerate(slots[pool]):
                new.hands[q][i] = cards[j]
            start = len(slots[pool])
            end = start + len(self.decks[pool])
            new.decks[pool] = sorted(cards[start:end])
            if mixed:
                new.discards[pool] = sorted(cards[end:])
            else:
                new.discards[pool] = sorted(self.discards[pool])

    def _masked_history(self, player: int) -> list[Step[Action]]:
        """The history with what `player` did not see replaced by placeholders (see the
        module), kept per player and extended as the history grows (a search resamples the
        same position many times)."""
        g = self.g
        own_seen = self.hand_visible(player) and not g.blind
        cached = self.masked.get(player)
        if cached is None or cached[0] != own_seen or len(cached[1]) > len(self._history):
            cached = (own_seen, [])
            self.masked[player] = cached
        done = cached[1]
        if len(done) == len(self._history):
            return list(done)
        quick = g.law.min
        pool_cards = [sorted(cards) for cards in g.pool_cards]
        pool_of_player = [q if g.per_colour else 0 for q in range(self.n)]

        def mask(a: Action) -> Action:
            if isinstance(a, Draw):
                if a.player == player and own_seen:
                    return a
                return Draw(a.player, tuple(pool_cards[pool_of_player[a.player]][: len(a.cards)]))
            if isinstance(a, React):
                return React(a.players, (quick,) * len(a.players))
            if isinstance(a, Go):
                return Go((quick,) * len(a.delays))
            if isinstance(a, Reload) and a.player != player:
                return Reload(a.player)
            if isinstance(a, Discard) and a.player != player:
                return Discard(a.player, -1, -1)
            if isinstance(a, Pick) and a.player != player:
                return Pick(a.player, ())
            return a

        hidden_kinds = (Draw, React, Go, Reload, Discard, Pick)
        for step in self._history[len(done) :]:
            if isinstance(step, JointAction):
                done.append(JointAction(mask(a) for a in step))
            elif isinstance(step, hidden_kinds):
                done.append(mask(step))
            else:
                done.append(step)
        return list(done)
