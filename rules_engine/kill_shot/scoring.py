"""Who captures a terrorist: the player of the Kill Shot that ends the hunt (the first or the
second Kill Shot, for a terrorist that needs two), or in Tactical Engagement the most points
among one's own cards in the pile (ties: the lowest hunt number, then the earliest); the
Taliban player's claims escape.  A capture scores the terrorist's points.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.core import EVENTS
from rules_engine.kill_shot.state_base import KillShotStateBase


@dataclass(frozen=True)
class HuntResult:
    """How one hunt pile ended (public)."""

    hunt: int
    terrorist: int
    winner: int  # -1: escaped
    how: str  # kill-shot | points | tie-lowest | tie-earliest | escaped-* | chance
    totals: tuple[int, ...]  # points of each player's cards in the pile (points claims)


class Scoring(KillShotStateBase):
    """Captures and escapes, and the points they score."""

    __slots__ = ()

    def _capture(self, k: int, p: int) -> None:
        g = self.g
        if g.points_claim:
            winner, how, totals = self._points_winner(k)
            self._close(k, winner, how, totals)
            return
        first = self.pile_need[k] > 1 and not g.second_claims
        winner = self.pile_first9[k] if first else p
        how = "kill-shot"
        if winner == self.taliban:
            winner = -1
            how = "escaped-taliban"
        self._close(k, winner, how, ())

    def _points_winner(self, k: int) -> tuple[int, str, tuple[int, ...]]:
        g = self.g
        n = self.n
        totals = [0] * n
        lowest = [g.last_number + 1] * n
        lowest_at = [0] * n
        for i, (c, q) in enumerate(zip(self.piles[k], self.pile_by[k], strict=True)):
            totals[q] += g.points_of[c]
            h = g.hunt_of[c]
            if h < lowest[q]:
                lowest[q] = h
                lowest_at[q] = i
        hunters = [q for q in range(n) if q != self.taliban]
        best = max(totals[q] for q in hunters)
        tied = [q for q in hunters if totals[q] == best]
        if len(tied) == 1:
            return tied[0], "points", tuple(totals)
        low = min(lowest[q] for q in tied)
        tied = [q for q in tied if lowest[q] == low]
        if len(tied) == 1:
            return tied[0], "tie-lowest", tuple(totals)
        if g.points_tie_escapes:
            return -1, "escaped-tie", tuple(totals)
        return min(tied, key=lambda q: lowest_at[q]), "tie-earliest", tuple(totals)

    def _close(self, k: int, winner: int, how: str, totals: tuple[int, ...]) -> None:
        g = self.g
        t = self.pile_terr[k]
        terrorist = g.terrorists[t]
        self.pile_open[k] = False
        if winner >= 0:
            self.captured[winner].append(t)
            self.scores[winner] += terrorist.points
            if terrorist.ability == "claimer-extra-cards":
                self.bonus[winner] += terrorist.extra_cards
        else:
            self.escaped.append(t)
            if self.taliban >= 0 and g.taliban_scores:
                self.scores[self.taliban] += terrorist.points
        self.results.append(HuntResult(self.hunt, t, winner, how, totals))
        if EVENTS.on:
            self._tell_close(k, winner, how, totals)
        self.dirty = True
        if not any(self.pile_open):
            self._end_hunt()
        elif g.claimed_discard:
            for c in self.piles[k]:
                self.out[c] -= 1
                self._discard_card(c)
            if EVENTS.on:
                EVENTS.emit("terror-threat", "pile-cleared", pile=k + 1, count=len(self.piles[k]))
            self.piles[k] = []
            self.pile_by[k] = []

    def _tell_close(self, k: int, winner: int, how: str, totals: tuple[int, ...]) -> None:
        """How a hunt pile ended: who captured its terrorist by which rule, or why it
        escaped, and what the capture brings."""
        g = self.g
        names = g.names
        t = g.terrorists[self.pile_terr[k]]
        facts = {
            "terrorist": t.id,
            "points": t.points,
            "pile": k + 1,
            "piles": len(self.piles),
        }
        if how in ("points", "tie-lowest", "tie-earliest") or (
            how == "escaped-tie" and g.points_claim
        ):
            shown = [q for q in range(self.n) if q != self.taliban]
            facts["players"] = [names[q] for q in shown]
            facts["totals"] = [totals[q] for q in shown]
        if winner >= 0:
            facts["player"] = names[winner]
            rule, what = {
                "kill-shot": ("kill-shot", "capture"),
                "chance": ("kill-shot", "capture-chance"),
                "points": ("points-claim", "capture-points"),
                "tie-lowest": ("points-tie", "capture-tie-lowest"),
                "tie-earliest": ("points-tie", "capture-tie-earliest"),
            }[how]
            if how == "kill-shot" and self.pile_need[k] > 1:
                rule = "second-kill-shot"
                what = "capture-second" if g.second_claims else "capture-first"
            EVENTS.emit(rule, what, **facts)
            if t.ability == "claimer-extra-cards":
                EVENTS.emit("extra-cards", "extra-cards", player=names[winner], extra=t.extra_cards)
            return
        rule, what = {
            "escaped-taliban": ("taliban", "escape-taliban"),
            "escaped-stuck": ("escape", "escape-stuck"),
            "escaped-tie": ("points-tie" if g.points_claim else "kill-shot", "escape-tie"),
        }[how]
        EVENTS.emit(rule, what, **facts)
        if self.taliban >= 0 and g.taliban_scores:
            EVENTS.emit("taliban", "taliban-scores", player=names[self.taliban], points=t.points)
