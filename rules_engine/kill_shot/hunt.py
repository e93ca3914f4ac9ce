"""Playing a hunt in real time (game types 1 and 2): there are no turns.

After the countdown's "go!" every player acts when their reaction time has passed (chance
draws it after each of their actions); players whose times are equal act in one
simultaneous step.  A hunt card lands on a hunt pile when its number may follow the top card
(`_allowed`); simultaneous plays land in an order chance decides, or all land (a reading);
the Kill Shot that ends a hunt claims its terrorist (`scoring.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.kill_shot.actions import Action, Clear, Go, Look, Play, React, Reload
from rules_engine.kill_shot.events import card, cards, numbers, seconds
from rules_engine.kill_shot.phases import AFTER_GO, AFTER_PLAY, CLAIM, ORDER, OVER, PLAY, REVEAL
from rules_engine.kill_shot.special_cards import INTEL, JAM
from rules_engine.kill_shot.state_base import KillShotStateBase


class Hunt(KillShotStateBase):
    """The countdown, reaction times, and cards landing on the hunt piles."""

    __slots__ = ()

    def _go(self, a: Go) -> None:
        g = self.g
        self.clock += g.countdown_ms
        first_go = not self.picked_up
        extra = 0 if (self.picked_up or g.briefing) else g.pick_up_ms
        self.picked_up = True
        clock = self.clock
        for p, d in enumerate(a.delays):
            self.ready[p] = clock + d + extra
        self.drill = [False] * self.n
        self.pending = []
        self.countdown = False
        self.phase = PLAY
        if EVENTS.on:
            self._tell_go(extra, first_go)
        self._check_stuck()

    def _tell_go(self, extra: int, first_go: bool) -> None:
        g = self.g
        ready = self.ready
        first = min(ready)
        EVENTS.emit(
            "countdown",
            "go",
            at=seconds(self.clock),
            first=[g.names[p] for p in range(self.n) if ready[p] == first],
            first_at=seconds(first),
        )
        if extra:
            EVENTS.emit("deal", "pick-up", ms=extra, at=seconds(self.clock + extra))
        elif g.briefing and first_go:
            EVENTS.emit("briefing", "briefing")

    def _react(self, a: React) -> None:
        clock = self.clock
        drill = self.g.drill_ms
        for p, d in zip(a.players, a.delays, strict=True):
            if self.drill[p]:
                self.drill[p] = False
                self.ready[p] = clock + d + drill
                if EVENTS.on:
                    EVENTS.emit(
                        "jam",
                        "drill-said",
                        player=self.g.names[p],
                        at=seconds(self.ready[p]),
                        drill=seconds(drill),
                    )
            else:
                self.ready[p] = clock + d
                if EVENTS.on:
                    EVENTS.emit(
                        "timing", "ready", player=self.g.names[p], at=seconds(self.ready[p])
                    )
        self.pending = []

    def _rt_joint(self, actions: Sequence[Action]) -> None:
        g = self.g
        self.clock = self.ready[actions[0].player]  # type: ignore[union-attr]
        plays: list[Play] = []
        for a in actions:
            if isinstance(a, Play):
                plays.append(a)
            else:
                self._rt_apply(a)
        if len(plays) == 1:
            self._rt_apply(plays[0])
        elif plays:
            if EVENTS.on:
                EVENTS.emit(
                    "timing",
                    "simultaneous",
                    players=[g.names[a.player] for a in plays],
                    at=seconds(self.clock),
                    all_land=not g.chance_orders,
                )
            if g.chance_orders:
                self.order_plays = plays
                self.phase = ORDER
                return
            self._all_land(plays)
            if self.claims:
                self.phase = CLAIM
                return
        self._settle()

    def _rt_apply(self, a: Action) -> None:
        g = self.g
        p = a.player  # type: ignore[union-attr]
        if isinstance(a, Play):
            c = a.cards[0]
            sp = g.special_of[c]
            self._take(p, c)
            if sp == JAM:
                if EVENTS.on:
                    EVENTS.emit(
                        "jam",
                        "jam",
                        player=g.names[p],
                        target=g.names[a.target],
                        at=seconds(self.clock),
                        **card(g, c),
                    )
                self._discard_card(c)
                self.jammed[a.target] = True
                self._lotus(p)
                self.pending.append(p)
            elif sp == INTEL:
                self._discard_card(c)
                top = g.hunt_of[self.piles[a.pile][-1]]
                self._bad_intel(a.pile)
                if EVENTS.on:
                    EVENTS.emit(
                        "terror-threat" if len(self.piles) > 1 else "bad-intel",
                        "bad-intel",
                        player=g.names[p],
                        at=seconds(self.clock),
                        top=top,
                        below=min(numbers(g, self.removed), default=top),
                        removed=cards(g, self.removed),
                        removed_numbers=numbers(g, self.removed),
                        pile=a.pile + 1,
                        piles=len(self.piles),
                        left=self.g.hunt_of[self.piles[a.pile][-1]] if self.piles[a.pile] else 0,
                        to_discards=g.removed_to_discard,
                    )
                self._lotus(p)
                self._cease_fire()
            else:
                self._land(p, c, a.pile)
                if not self.halt:
                    self.pending.append(p)
        elif isinstance(a, Reload):
            self._reload(p, a)
            self.pending.append(p)
        elif isinstance(a, Clear):
            if EVENTS.on:
                drill = g.params["jam"]["drill"]
                EVENTS.emit(
                    "jam",
                    "clear",
                    player=g.names[p],
                    at=seconds(self.clock),
                    drill_ja=drill["ja"],
                    drill_en=drill["en"],
                )
            self.jammed[p] = False
            self.drill[p] = True
            self.pending.append(p)
        elif isinstance(a, Look):
            if EVENTS.on:
                EVENTS.emit(
                    "night-mission",
                    "look",
                    player=g.names[p],
                    slot=a.slot + 1,
                    at=seconds(self.clock),
                    **card(g, self.hands[p][a.slot]),
                )
            self.looking[p] = a.slot
            self.known[p][a.slot] = True
            self.pending.append(p)
        else:
            if EVENTS.on:
                EVENTS.emit("timing", "wait", player=g.names[p], at=seconds(self.clock))
            self.pending.append(p)

    def _order(self, order: tuple[int, ...]) -> None:
        plays = {a.player: a for a in self.order_plays}
        self.order_plays = []
        if EVENTS.on:
            EVENTS.emit("timing", "order", players=[self.g.names[p] for p in order])
        for p in order:
            a = plays[p]
            if self.halt:
                self.voided.append(a)
                if EVENTS.on:
                    self._tell_void(a, "timing")
                continue
            try:
                self._check_rt_play(p, a)
            except IllegalActionError as exc:
                self.voided.append(a)
                self.pending.append(p)
                if EVENTS.on:
                    self._tell_void(a, exc.rule)
                continue
            self._rt_apply(a)
        self._settle()

    def _tell_void(self, a: Play, rule: str) -> None:
        """A simultaneous play that came too late: it no longer fits (or the hunt or play
        stopped first) and stays in its player's hand."""
        g = self.g
        EVENTS.emit(rule, "void", player=g.names[a.player], **card(g, a.cards[0]))

    def _all_land(self, plays: list[Play]) -> None:
        g = self.g
        hunt_of = g.hunt_of
        cards = [a for a in plays if not g.special_of[a.cards[0]]]
        specials = [a for a in plays if g.special_of[a.cards[0]]]
        cards.sort(key=lambda a: (a.pile, hunt_of[a.cards[0]], a.player))
        for k in sorted({a.pile for a in cards}):
            group = [a for a in cards if a.pile == k]
            before = self.pile_kills[k]
            nines: list[int] = []
            last = -1
            for a in group:
                p = a.player
                c = a.cards[0]
                if EVENTS.on:
                    self._tell_land(p, c, k)
                self._take(p, c)
                self.piles[k].append(c)
                self.pile_by[k].append(p)
                self.out[c] += 1
                self.dirty = True
                self.pending.append(p)
                last = p
                if hunt_of[c] == g.kill_shot:
                    self.pile_kills[k] += 1
                    nines.append(p)
                    if self.pile_first9[k] < 0:
                        self.pile_first9[k] = p
            if self.pile_kills[k] < self.pile_need[k]:
                continue
            if g.points_claim:
                self._capture(k, last)
            else:
                ambiguous = len(nines) >= 2 and (
                    self.pile_need[k] == 1 or g.second_claims or before == 0
                )
                if not ambiguous:
                    first = self.pile_need[k] > 1 and not g.second_claims
                    self._capture(k, self.pile_first9[k] if first else nines[-1])
                elif g.tie_escapes:
                    self._close(k, -1, "escaped-tie", ())
                else:
                    self.claims.append((k, tuple(sorted(nines))))
                    if EVENTS.on:
                        EVENTS.emit(
                            "kill-shot", "kill-shot-tie", players=[g.names[q] for q in nines]
                        )
            if self.halt:
                break
        for a in specials:
            if self.halt:
                self.voided.append(a)
                if EVENTS.on:
                    self._tell_void(a, "timing")
                continue
            try:
                self._check_rt_play(a.player, a)
            except IllegalActionError as exc:
                self.voided.append(a)
                self.pending.append(a.player)
                if EVENTS.on:
                    self._tell_void(a, exc.rule)
                continue
            self._rt_apply(a)

    def _claim(self, player: int) -> None:
        k, _cands = self.claims.pop(0)
        if EVENTS.on:
            EVENTS.emit("kill-shot", "claim", player=self.g.names[player])
        winner = -1 if player == self.taliban else player
        self._close(k, winner, "chance" if winner >= 0 else "escaped-taliban", ())
        if self.halt:
            return
        if not self.claims:
            self._settle()

    def _settle(self) -> None:
        """After a real-time step: a stuck hunt ends; then discards owed, the countdown, or
        play goes on."""
        if self.phase in (REVEAL, OVER) and self.halt and not self.countdown:
            return
        if self._check_stuck():
            return
        self._next_round(AFTER_GO if self.countdown else AFTER_PLAY)

    def _allowed_on(self, cls: int, top: int, kills: int, need: int) -> frozenset[int]:
        g = self.g
        allowed = g.allowed_tab[cls][top]
        if top == g.kill_shot and kills < need and top not in allowed:
            allowed = allowed | {top}  # the second Kill Shot overrides the pile rules
        return allowed

    def _allowed(self, p: int, k: int) -> frozenset[int]:
        pile = self.piles[k]
        top = self.g.hunt_of[pile[-1]] if pile else 0
        return self._allowed_on(
            1 if p == self.taliban else 0, top, self.pile_kills[k], self.pile_need[k]
        )

    def _tell_land(self, p: int, c: int, k: int) -> None:
        """A card lands on a hunt pile: the rule that lets it follow the top card."""
        g = self.g
        pile = self.piles[k]
        top = g.hunt_of[pile[-1]] if pile else 0
        number = g.hunt_of[c]
        if p == self.taliban:
            rule = "taliban"
        elif g.turn_based:
            rule = "sr-play"
        else:
            rule = "hunt-pile"
        what = "land-first" if not pile else "land"
        EVENTS.emit(
            rule,
            what,
            player=g.names[p],
            top=top,
            pile=k + 1,
            piles=len(self.piles),
            at=seconds(self.clock),
            timed=not g.turn_based,
            **card(g, c),
        )
        if number == g.kill_shot and self.pile_kills[k] + 1 < self.pile_need[k]:
            t = g.terrorists[self.pile_terr[k]]
            EVENTS.emit(
                "second-kill-shot",
                "kill-shot-more",
                player=g.names[p],
                terrorist=t.id,
                need=self.pile_need[k],
                kills=self.pile_kills[k] + 1,
            )

    def _land(self, p: int, c: int, k: int) -> None:
        g = self.g
        if EVENTS.on:
            self._tell_land(p, c, k)
        self.piles[k].append(c)
        self.pile_by[k].append(p)
        self.out[c] += 1
        self.dirty = True
        if g.hunt_of[c] == g.kill_shot:
            self.pile_kills[k] += 1
            if self.pile_first9[k] < 0:
                self.pile_first9[k] = p
            if self.pile_kills[k] >= self.pile_need[k]:
                self._capture(k, p)
