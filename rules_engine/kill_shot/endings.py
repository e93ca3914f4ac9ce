"""Next hunt and end of the game: a hunt ends when no hunt pile is open; the game ends when
no terrorist is left, and the highest score wins (ties share, or by a reading the most
captures).  A hunt nobody can finish ends too: its terrorists escape.
"""

from __future__ import annotations

from rules_engine.core import EVENTS
from rules_engine.kill_shot.phases import OVER, REVEAL, TALIBAN
from rules_engine.kill_shot.state_base import KillShotStateBase


class Endings(KillShotStateBase):
    """The end of a hunt and of the game."""

    __slots__ = ()

    def _end_hunt(self) -> None:
        g = self.g
        self.halt = True
        self.draws = []
        self.deals = 0
        self.discard_rounds = []
        self.discard_why = []
        self.order_plays = []
        self.claims = []
        self.pending = []
        self.pickers = []
        self.countdown = False
        if g.turn_based:
            winner = self.results[-1].winner if self.results else -1
            if g.next_first == "claimer" and winner >= 0:
                self.next_start = winner
            else:
                self.next_start = (self.last_actor + 1) % self.n
        if not self.terr_left:
            self._game_over()
            return
        self.phase = REVEAL

    def _game_over(self) -> None:
        scores = self.scores
        top = max(scores)
        tied = [p for p in range(self.n) if scores[p] == top]
        if len(tied) > 1 and self.g.final_most_captures:
            most = max(len(self.captured[p]) for p in tied)
            tied = [p for p in tied if len(self.captured[p]) == most]
        self.winners = tuple(tied)
        self.phase = OVER
        if EVENTS.on:
            names = self.g.names
            EVENTS.emit(
                "game-end",
                "game-end",
                winners=[names[p] for p in tied],
                points=top,
                players=list(names[: self.n]),
                scores=list(scores),
            )

    # --- a hunt nobody can finish ---------------------------------------------------------------

    def _check_stuck(self) -> bool:
        """If no player can ever play on any open pile again, every open terrorist escapes
        (Deadline: "no one can play a Kill Shot"; Terror Threat: "no one can play")."""
        if not self.dirty or self.phase in (REVEAL, OVER, TALIBAN):
            return False
        self.dirty = False
        if self._can_progress():
            return False
        for k in range(len(self.piles)):
            if self.pile_open[k]:
                self._close(k, -1, "escaped-stuck", ())
                if self.halt:
                    break
        return True

    def _can_progress(self) -> bool:
        """Whether some open pile can still be finished: the hunters (everyone but the
        Taliban player) can still get a card of every number from above the top up to the
        Kill Shot.  A card is within reach in a hand, a deck or the discards (Deadline: in a
        hand only), or, when Bad Intel sends removed cards to the discards, on an open pile."""
        g = self.g
        open_piles = self.pile_open
        if not any(open_piles):
            return False
        piles = self.piles
        hunt_of = g.hunt_of
        kill = g.kill_shot
        if g.deadline:
            hunters = [p for p in range(self.n) if p != self.taliban]
            held = {hunt_of[c] for p in hunters for c in self.hands[p]}

            def reach(number: int) -> bool:
                return number in held

        else:
            if g.releases:
                gone = len(self.set_aside)
                for k, pile in enumerate(piles):
                    if not open_piles[k]:
                        gone += len(pile)
            else:
                gone = len(self.set_aside)
                for pile in piles:
                    gone += len(pile)
            if gone < g.fewest_copies:
                return True  # too few cards are out of reach to take every copy of a number
            if g.releases:
                limit = [0] * len(g.codes)
                for c in self.set_aside:
                    limit[c] += 1
                for k, pile in enumerate(piles):
                    if not open_piles[k]:
                        for c in pile:
                            limit[c] += 1
            else:
                limit = self.out
            total = g.total
            pools = [0] if not g.per_colour else [p for p in range(self.n) if p != self.taliban]
            kinds = g.number_kinds

            def reach(number: int) -> bool:
                return any(total[k] > limit[k] for pool in pools for k in kinds[pool][number])

        for k, pile in enumerate(piles):
            if not open_piles[k]:
                continue
            top = hunt_of[pile[-1]] if pile else g.start_number - 1
            needed = range(top + 1, kill + 1) if top < kill else range(kill, kill + 1)
            if all(reach(m) for m in needed):
                return True
        return False
