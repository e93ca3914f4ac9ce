"""The terrorists: the cards as the engine uses them, and the abilities that work while one is
hunted (read from the data: extra cards for the claimer, a second Kill Shot, a short hand, a
discard at a cease-fire or with every special card), with the discard rounds they demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine.core import EVENTS, Bilingual
from rules_engine.kill_shot.actions import Action, Discard
from rules_engine.kill_shot.events import card
from rules_engine.kill_shot.phases import AFTER_GO, AFTER_PLAY, DISCARD, GO, PLAY
from rules_engine.kill_shot.state_base import KillShotStateBase


@dataclass(frozen=True)
class Terrorist:
    """A terrorist card as the engine uses it."""

    id: str
    name: Bilingual
    points: int
    ability: str
    kills: int  # Kill Shots that end its hunt
    hand_change: int
    limit_change: int
    extra_cards: int
    discard: int


class TerroristAbilities(KillShotStateBase):
    """The abilities of the terrorists hunted, and the discards they demand."""

    __slots__ = ()

    def _active(self, ability: str) -> int:
        g = self.g
        for k, t in enumerate(self.pile_terr):
            if self.pile_open[k] and g.terrorists[t].ability == ability:
                return g.terrorists[t].discard
        return 0

    def _lotus(self, p: int) -> None:
        for _ in range(self._active("special-card-discard")):
            self.discard_rounds.append((p,))
            self.discard_why.append("special-discard")

    def _tell_discard(self, why: str, p: int, c: int) -> None:
        g = self.g
        terrorist = next(
            (
                g.terrorists[t].id
                for k, t in enumerate(self.pile_terr)
                if self.pile_open[k]
                and g.terrorists[t].ability
                == ("special-card-discard" if why == "special-discard" else "cease-fire-discard")
            ),
            "",
        )
        facts = card(g, c) if not g.night else {"colour": "", "number": 0, "card": ""}
        EVENTS.emit(why, "discard", player=g.names[p], terrorist=terrorist, **facts)

    def _next_round(self, after: int) -> None:
        self.after_discard = after
        rounds = self.discard_rounds
        while rounds:
            players = tuple(p for p in rounds[0] if self.hands[p])
            if players:
                rounds[0] = players
                self.phase = DISCARD
                return
            rounds.pop(0)
            if self.discard_why:
                self.discard_why.pop(0)
        if after == AFTER_GO:
            self.phase = GO
        elif after == AFTER_PLAY:
            self.phase = PLAY
        else:
            self._goto_turn(self.turn + 1)

    def _discards(self, actions: Sequence[Action]) -> None:
        why = self.discard_why.pop(0) if self.discard_why else "cease-fire-discard"
        for a in actions:
            assert isinstance(a, Discard)
            p = a.player
            if a.slot >= 0:
                c = self._remove_slot(p, a.slot)
            else:
                c = a.card
                self.hands[p].remove(c)
            if EVENTS.on:
                self._tell_discard(why, p, c)
            self._discard_card(c)
        self.discard_rounds.pop(0)
        if self._check_stuck():
            return
        self._next_round(self.after_discard)
