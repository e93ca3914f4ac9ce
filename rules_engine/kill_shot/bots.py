"""A cheap rule-of-thumb player of KILL SHOT (`Heuristic`), for the balance lab.

It sees the game through an `InfoSet` only: its legal actions and a position drawn from what
it can know (`info.sample`, whose own hand, hunt piles, scores and jams are the true ones).

In real time (game types 1 and 2) the protocol's actions are timed events: when a player's
reaction time has passed (chance draws it), the player acts.  Nobody can react faster than
the law allows, so a better player is a better reaction policy: at each of its instants it
never wastes the time on a wait or a random reload, puts down the card that climbs the hunt
furthest (a Kill Shot that captures first; in Tactical Engagement the cards worth the most
points, and the Kill Shot only when its own cards lead the pile), holds back a Firefight (8)
without a Kill Shot in hand (unless a Taliban player is the one to beat), says the clearing drill at once when jammed, answers an
opponent's Firefight with Bad Intel or a Jam, and reloads only the cards the pile has passed.

In Situation Room (game type 3) it plays a run that captures when it has one; otherwise it
moves the pile to where its own hand can run to the Kill Shot and away from it, or reloads
the cards that do not fit its run; it ends another player's turn with a Jam or Bad Intel when
the pile is near the Kill Shot.  The Taliban player plays the other way: down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.bots import InfoSet
from rules_engine.kill_shot.actions import (
    Action,
    Clear,
    Discard,
    Look,
    Pass,
    Play,
    Reload,
    Wait,
)
from rules_engine.kill_shot.phases import DISCARD, PICK, TURN

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot
    from rules_engine.kill_shot.state import KillShotState


class Heuristic:
    """Rules of thumb for every game type (see the module); deterministic given its rng."""

    name = "heuristic"

    def __init__(self, engine: KillShot) -> None:
        self.g = engine

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        legal: Sequence[Any] = info.legal_actions()
        if len(legal) == 1:
            return legal[0]  # type: ignore[no-any-return]
        s: KillShotState = info.sample(rng)  # type: ignore[assignment]
        p = info.player
        if s.phase == TURN:
            if p == s.turn:
                return self._turn(s, p, legal)
            return self._window(s, p, legal)
        if s.phase == DISCARD:
            return min(legal, key=lambda a: self._value(s, p, self._discarded(s, p, a)))  # type: ignore[no-any-return]
        if s.phase == PICK:
            return max(legal, key=lambda a: sum(self._value(s, p, c) for c in a.cards))  # type: ignore[no-any-return]
        return self._real_time(s, p, legal)

    # --- what a card is worth to a player now ---------------------------------------------------

    def _tops(self, s: KillShotState) -> list[int]:
        """The hunt number on top of each open pile (0: empty)."""
        hunt_of = self.g.hunt_of
        return [hunt_of[pile[-1]] if pile else 0 for pile in s.piles]

    def _value(self, s: KillShotState, p: int, c: int) -> float:
        """How much a card in hand is worth keeping: a Kill Shot most, the special cards,
        then numbers above the highest open top; numbers the piles have passed least."""
        g = self.g
        if c < 0:
            return 0.0
        if g.special_of[c]:
            return 8.0
        number = g.hunt_of[c]
        if p == s.taliban:
            return float(10 - number)
        if number == g.kill_shot:
            return 10.0 + g.points_of[c]
        tops = [t for t, o in zip(self._tops(s), s.pile_open, strict=True) if o] or [0]
        if number < min(tops):
            return -1.0
        return number + 0.5 * g.points_of[c]

    def _discarded(self, s: KillShotState, p: int, a: Discard) -> int:
        if a.card >= 0:
            return a.card
        return s.hands[p][a.slot] if s.known[p][a.slot] else -1

    # --- real time -------------------------------------------------------------------------------

    def _real_time(self, s: KillShotState, p: int, legal: Sequence[Any]) -> Action:
        g = self.g
        kill = g.kill_shot
        hunt_of = g.hunt_of
        if Clear(p) in legal:
            return Clear(p)
        hand = s.hands[p]
        seen = [c for i, c in enumerate(hand) if not g.blind or s.known[p][i]]
        plays = [a for a in legal if isinstance(a, Play) and not g.special_of[a.cards[0]]]
        specials = [a for a in legal if isinstance(a, Play) and g.special_of[a.cards[0]]]
        taliban = p == s.taliban
        hold_kill = sum(hunt_of[c] == kill for c in seen)
        if plays:
            best = max(plays, key=lambda a: self._rt_score(s, p, a, hold_kill, taliban))
            if self._rt_score(s, p, best, hold_kill, taliban) > 0:
                return best
        tops = self._tops(s)
        # a capture is near: every player's threat but, against the Taliban player, the hunters'
        threat = any(o and t >= kill - 1 for t, o in zip(tops, s.pile_open, strict=True)) and (
            taliban or s.taliban < 0
        )
        if specials and threat:
            jams = [a for a in specials if a.target >= 0]
            intel = [a for a in specials if a.target < 0]
            if intel:
                return max(intel, key=lambda a: tops[a.pile])
            leader = max(range(s.n), key=lambda q: (q != p, s.scores[q], -((q - p) % s.n)))
            return next((a for a in jams if a.target == leader), jams[0])
        looks = [a for a in legal if isinstance(a, Look)]
        if looks:
            fit: set[int] = set()
            for k, o in enumerate(s.pile_open):
                if o:
                    fit |= s._allowed(p, k)
            unseen = [a for a in looks if not s.known[p][a.slot]]
            fits = [
                a
                for a in looks
                if s.known[p][a.slot]
                and a.slot != s.looking[p]
                and hunt_of[hand[a.slot]] in fit
                and not g.special_of[hand[a.slot]]
                and (taliban or hunt_of[hand[a.slot]] != kill - 1 or hold_kill or g.points_claim)
            ]
            if fits or unseen:
                return (fits or unseen)[0]
        reload = self._rt_reload(s, p, legal)
        if reload is not None:
            return reload
        if plays:
            return max(plays, key=lambda a: self._rt_score(s, p, a, hold_kill, taliban))
        return Wait(p)

    def _rt_score(self, s: KillShotState, p: int, a: Play, hold_kill: int, taliban: bool) -> float:
        """How good putting this card down now is (> 0: better than reloading)."""
        g = self.g
        c = a.cards[0]
        number = g.hunt_of[c]
        kill = g.kill_shot
        if taliban:
            return 10.0 - number
        if number == kill:
            if g.points_claim and not self._leads_pile(s, p, a.pile, g.points_of[c]):
                return 0.5
            return 100.0
        score = float(number) + (g.points_of[c] if g.points_claim else 0.0)
        if number == kill - 1 and not hold_kill and not g.points_claim and s.taliban < 0:
            return -1.0  # a Firefight without a Kill Shot in hand opens the kill to others
        return score

    def _leads_pile(self, s: KillShotState, p: int, k: int, extra: int) -> bool:
        """Whether the player's own cards in pile k (plus `extra` points) top every other's."""
        g = self.g
        totals = [0] * s.n
        for c, q in zip(s.piles[k], s.pile_by[k], strict=True):
            totals[q] += g.points_of[c]
        totals[p] += extra
        return all(totals[p] > totals[q] for q in range(s.n) if q != p and q != s.taliban)

    def _rt_reload(self, s: KillShotState, p: int, legal: Sequence[Any]) -> Action | None:
        """Reload the cards the piles have passed; with none and a full hand, the numbers
        that do not fit now, else the special cards, else all Kill Shots but one: never sit
        waiting on a hand that cannot play.  None if that reload is not legal."""
        g = self.g
        hand = s.hands[p]
        kill = g.kill_shot
        known = [i for i in range(len(hand)) if not g.blind or s.known[p][i]]
        drop = [i for i in known if self._value(s, p, hand[i]) < 0]
        if not drop and len(hand) >= s.limits[p]:
            numbers = [i for i in known if not g.special_of[hand[i]]]
            tiers = (
                [i for i in numbers if g.hunt_of[hand[i]] != kill],
                [i for i in known if g.special_of[hand[i]]],
                [i for i in numbers if g.hunt_of[hand[i]] == kill][1:],
            )
            drop = next((t for t in tiers if t), [])
        if g.night:
            a = Reload(p, (), tuple(drop))
        else:
            a = Reload(p, tuple(sorted(hand[i] for i in drop)))
        if (a.cards or a.slots or len(hand) < s.limits[p]) and a in legal:
            return a
        return None

    # --- Situation Room --------------------------------------------------------------------------

    def _turn(self, s: KillShotState, p: int, legal: Sequence[Any]) -> Action:
        """A Situation Room turn: a capturing run if there is one; else the play or the
        reload that leaves the fewest numbers missing between the top and the Kill Shot
        (a lower top is safer: the next player needs a longer run)."""
        g = self.g
        hunt_of = g.hunt_of
        kill = g.kill_shot
        taliban = p == s.taliban
        hand = s.hands[p]
        best: Action | None = None
        best_score = -1e9
        for a in legal:
            if not isinstance(a, Play):
                continue
            k = a.pile
            top = hunt_of[a.cards[-1]]
            kills = s.pile_kills[k] + sum(hunt_of[c] == kill for c in a.cards)
            rest = list(hand)
            for c in a.cards:
                rest.remove(c)
            if taliban:
                score = 10.0 - top + 0.1 * len(a.cards)
            elif top == kill and kills >= s.pile_need[k]:
                points = sum(g.points_of[c] for c in a.cards)
                leads = not g.points_claim or self._leads_pile(s, p, k, points)
                score = 1000.0 + len(a.cards) if leads else -50.0
            else:
                score = -self._gap(top, rest) - 0.3 * top
            if score > best_score:
                best, best_score = a, score
        tops = [t for t, o in zip(self._tops(s), s.pile_open, strict=True) if o] or [0]
        top = max(tops)
        keep: list[int] = []
        drop: list[int] = []
        for c in sorted(hand):
            number = hunt_of[c]
            useful = g.special_of[c] or (
                (number < top if taliban else number > top)
                and number not in map(hunt_of.__getitem__, keep)
            )
            (keep if useful else drop).append(c)
        reload = Reload(p, tuple(drop))
        if drop and reload in legal and not taliban:
            score = -0.6 * self._gap(top, keep) - 0.3 * top - 1.0
            if best is None or score > best_score:
                return reload
        if best is not None:
            return best
        # nothing fits: reload every number but the Kill Shots (else the special cards)
        numbers = [c for c in hand if not g.special_of[c] and hunt_of[c] != kill]
        fresh = Reload(p, tuple(sorted(numbers or [c for c in hand if g.special_of[c]])))
        return fresh if fresh in legal else legal[0]

    def _gap(self, top: int, hand: Sequence[int]) -> int:
        """How many numbers between the top and the Kill Shot the hand lacks."""
        g = self.g
        have = {g.hunt_of[c] for c in hand}
        return sum(m not in have for m in range(top + 1, g.kill_shot + 1))

    def _window(self, s: KillShotState, p: int, legal: Sequence[Any]) -> Action:
        """Another player's turn: end it with a Jam or Bad Intel when the pile is near the
        Kill Shot (the Taliban player too: a capture is what they fight)."""
        tops = [t for t, o in zip(self._tops(s), s.pile_open, strict=True) if o] or [0]
        near = max(tops) >= self.g.kill_shot - 3
        if near and len(legal) > 1:
            return next(a for a in legal if not isinstance(a, Pass))  # type: ignore[no-any-return]
        return Pass(p)
