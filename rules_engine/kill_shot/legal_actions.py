"""Every legal action of a player now: in real time (wait, play, a special card, reload, clear,
look), and on a Situation Room turn (every play of several cards, each legal on the one
before, and every reload).
"""

from __future__ import annotations

import itertools

from rules_engine.kill_shot.actions import Action, Clear, Look, Pass, Play, Reload, Wait
from rules_engine.kill_shot.state_base import KillShotStateBase


class LegalActions(KillShotStateBase):
    """The lists of legal actions."""

    __slots__ = ()

    def _reloads(self, p: int, real_time: bool) -> list[Reload]:
        g = self.g
        if not g.refill:
            return []
        hand = self.hands[p]
        free = len(hand) < self.limits[p] and self._drawable(p) > 0
        out: list[Reload] = []
        if g.night:
            for r in range(len(hand) + 1):
                for slots in itertools.combinations(range(len(hand)), r):
                    if slots or not real_time or free:
                        out.append(Reload(p, (), slots))
            return out
        kinds = sorted(set(hand))
        for counts in itertools.product(*[range(hand.count(c) + 1) for c in kinds]):
            cards = tuple(c for c, m in zip(kinds, counts, strict=True) for _ in range(m))
            if cards or not real_time or free:
                out.append(Reload(p, cards))
        return out

    def _rt_legal(self, p: int) -> list[Action]:
        g = self.g
        out: list[Action] = [Wait(p)]
        jammed = self.jammed[p]
        if jammed:
            out.append(Clear(p))
        else:
            out.extend(Play(p, (c,), k) for c, k in self._hunt_plays(p))
        if not (jammed and g.jam_all):
            out.extend(self._special_plays(p))
        out.extend(self._reloads(p, True))
        if g.blind:
            out.extend(Look(p, s) for s in range(len(self.hands[p])))
        return out

    def _turn_legal(self, p: int) -> list[Action]:
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
        if g.refill:
            out.extend(self._reloads(p, False))
        else:
            out.append(Pass(p))
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
