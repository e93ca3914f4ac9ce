"""The special cards, which may be played whatever the top card: Bad Intel ("Cease fire!")
removes the top levels of a hunt pile and restarts the countdown; Jam stops a player until
they say the clearing drill (its play is in `hunt.py` and `situation_room.py`).
"""

from __future__ import annotations

from typing import Final

from rules_engine.core import EVENTS
from rules_engine.kill_shot.state_base import KillShotStateBase

INTEL: Final = 1
JAM: Final = 2
SPECIAL_IDS: Final = {"bad-intel": INTEL, "jam": JAM}
SPECIAL_LETTERS: Final = {INTEL: "B", JAM: "J"}


class SpecialCards(KillShotStateBase):
    """Bad Intel's removal and the cease-fire it calls."""

    __slots__ = ()

    def _bad_intel(self, k: int) -> None:
        g = self.g
        hunt_of = g.hunt_of
        pile = self.piles[k]
        by = self.pile_by[k]
        if g.levels_by_number:
            top = hunt_of[pile[-1]]
            gone = set(range(top - g.levels_removed + 1, top + 1))
            keep = [i for i, c in enumerate(pile) if hunt_of[c] not in gone]
        else:
            i = len(pile) - 1
            runs = 0
            while i >= 0 and runs < g.levels_removed:
                v = hunt_of[pile[i]]
                while i >= 0 and hunt_of[pile[i]] == v:
                    i -= 1
                runs += 1
            keep = list(range(i + 1))
        kept = set(keep)
        removed = [pile[i] for i in range(len(pile)) if i not in kept]
        self.piles[k] = [pile[i] for i in keep]
        self.pile_by[k] = [by[i] for i in keep]
        nines = [i for i in keep if hunt_of[pile[i]] == g.kill_shot]
        self.pile_kills[k] = len(nines)
        self.pile_first9[k] = by[nines[0]] if nines else -1
        self.removed = removed
        for c in removed:
            if g.removed_to_discard:
                self.out[c] -= 1
                self._discard_card(c)
            else:
                self.set_aside.append(c)
        self.dirty = True

    def _cease_fire(self) -> None:
        self.halt = True
        self.countdown = True
        self.pending = []
        if EVENTS.on:
            call = self.g.params["countdown"]
            EVENTS.emit("bad-intel", "cease-fire", countdown_ja=call["ja"], countdown_en=call["en"])
        for _ in range(self._active("cease-fire-discard")):
            self.discard_rounds.append(tuple(range(self.n)))
            self.discard_why.append("cease-fire-discard")
