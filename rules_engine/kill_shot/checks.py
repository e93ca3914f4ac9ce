"""Why an action is illegal: `_check` raises `IllegalActionError` naming the rule broken (the
hunt pile, Jam, Bad Intel, reload, Deadline, Night Mission, Situation Room, timing...),
and `_now` says what the game waits for.
"""

from __future__ import annotations

from rules_engine.core import CHANCE, IllegalActionError
from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Clear,
    Discard,
    Draw,
    First,
    Go,
    Look,
    Order,
    Pass,
    Pick,
    Play,
    React,
    Reload,
    Reveal,
    Taliban,
    Wait,
)
from rules_engine.kill_shot.phases import (
    CLAIM,
    DISCARD,
    FIRST,
    GO,
    ORDER,
    OVER,
    PHASE_NAMES,
    PICK,
    PLAY,
    REVEAL,
    TALIBAN,
    TURN,
)
from rules_engine.kill_shot.special_cards import INTEL, JAM
from rules_engine.kill_shot.state_base import KillShotStateBase


class Checks(KillShotStateBase):
    """The checks of every action, and what the game waits for now."""

    __slots__ = ()

    def _now(self) -> str:
        g = self.g
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        if self.draws:
            return f"{g.names[self.draws[0][0]]} draws cards"
        if phase == PLAY:
            if self.pending:
                return "chance draws a reaction time"
            actors = self._actors()
            return (
                f"{' and '.join(g.names[p] for p in actors)} act(s) at "
                f"{self.ready[actors[0]] / 1000:.2f} s"
            )
        if phase == GO:
            return 'the countdown "3, 2, 1, go!"'
        if phase == TURN:
            return f"{g.names[self.turn]}'s turn"
        if phase == DISCARD:
            return f"{', '.join(g.names[p] for p in self.discard_rounds[0])} must discard"
        if phase == PICK:
            return "Deadline: the players choose their extra cards"
        return {
            TALIBAN: "the Taliban player is being chosen",
            REVEAL: "the next terrorist is being revealed",
            ORDER: "chance orders simultaneous plays",
            CLAIM: "chance decides a claim",
            FIRST: "the first player is being chosen",
        }.get(phase, PHASE_NAMES[phase])

    def _check(self, player: int, a: Action) -> None:
        g = self.g
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("game-end", "the game is over")
        if player == CHANCE:
            self._check_chance(a)
            return
        if isinstance(a, Taliban | First | Claim | Draw | React | Go | Order | Reveal):
            raise IllegalActionError("timing", f"{g.player_name(player)} cannot act for chance")
        other = getattr(a, "player", None)
        if other != player:
            if phase == PLAY and isinstance(other, int) and 0 <= other < self.n:
                raise IllegalActionError(
                    "timing",
                    f"{g.names[other]} is not ready yet (acts at {self.ready[other] / 1000:.2f} s; "
                    f"now {self._now()})",
                )
            raise IllegalActionError(
                "timing", f"{g.player_name(player)} cannot act for another player ({self._now()})"
            )
        if phase == PLAY and not self.pending and not self.draws:
            self._check_rt(player, a)
        elif phase == TURN and not self.draws:
            if player == self.turn:
                self._check_turn(player, a)
            else:
                self._check_window(player, a)
        elif phase == DISCARD and not self.draws:
            self._check_discard(player, a)
        elif phase == PICK and not self.draws:
            self._check_pick(player, a)
        else:
            raise IllegalActionError(
                "timing", f"{g.player_name(player)} has nothing to do now ({self._now()})"
            )

    def _check_chance(self, a: Action) -> None:
        g = self.g
        phase = self.phase
        if self.draws:
            if not isinstance(a, Draw):
                raise IllegalActionError("deck", f"chance draws cards now ({self._now()})")
            self._check_draw(a)
            return
        if phase == PLAY and self.pending:
            players = tuple(sorted(self.pending))
            if not isinstance(a, React) or a.players != players:
                names = " ".join(g.names[p] for p in players)
                raise IllegalActionError("timing", f"chance draws the reaction time of {names} now")
            for d in a.delays:
                self._check_delay(d)
            return
        if phase == GO:
            if not isinstance(a, Go) or len(a.delays) != self.n:
                raise IllegalActionError("countdown", "'go' gives every player's reaction time")
            for d in a.delays:
                self._check_delay(d)
            return
        if phase == REVEAL and isinstance(a, Reveal):
            k = min(g.revealed, len(self.terr_left))
            if len(a.terrorists) != k or len(set(a.terrorists)) != k:
                raise IllegalActionError("setup", f"{k} terrorist card(s) are turned up now")
            for t in a.terrorists:
                if t not in self.terr_left:
                    raise IllegalActionError(
                        "setup", f"{g.terrorists[t].id} is not in the terrorist deck"
                    )
            return
        if phase == ORDER and isinstance(a, Order):
            movers = sorted(p.player for p in self.order_plays)
            if sorted(a.players) != movers or len(set(a.players)) != len(a.players):
                names = ", ".join(g.names[p] for p in movers)
                raise IllegalActionError("timing", f"chance orders the plays of {names}")
            return
        if phase == CLAIM and isinstance(a, Claim):
            if a.player not in self.claims[0][1]:
                names = ", ".join(g.names[p] for p in self.claims[0][1])
                raise IllegalActionError("kill-shot", f"the claim is between {names}")
            return
        if (phase == FIRST and isinstance(a, First)) or (
            phase == TALIBAN and isinstance(a, Taliban)
        ):
            if not 0 <= a.player < self.n:
                raise IllegalActionError("setup", "no such player")
            return
        raise IllegalActionError("timing", f"chance cannot do that now ({self._now()})")

    def _check_delay(self, d: int) -> None:
        law = self.g.law
        if not law.legal(d):
            raise IllegalActionError(
                "timing", f"a reaction time is 0 to {law.max} ms in steps of {law.step}, got {d}"
            )

    def _check_draw(self, a: Draw) -> None:
        g = self.g
        p = self.draws[0][0]
        if a.player != p:
            raise IllegalActionError("deck", f"{g.names[p]} draws now, not {g.names[a.player]}")
        k = self._draw_count(self.draws[0])
        if len(a.cards) != k:
            raise IllegalActionError("deck", f"{g.names[p]} draws {k} card(s), got {len(a.cards)}")
        pool = self._pool(p)
        deck = self.decks[pool]
        if k == 1:  # the commonest draw: one card, checked without copying the deck
            if not deck:
                deck = self.discards[pool]
            c = a.cards[0]
            if c not in deck:
                raise IllegalActionError(
                    "deck", f"{g.codes[c]} is not in the {'deck' if deck else 'discards'} to draw"
                )
            return
        deck = list(deck)
        disc = list(self.discards[pool])
        for c in a.cards:
            if not deck:
                deck, disc = disc, []
            if c not in deck:
                raise IllegalActionError(
                    "deck", f"{g.codes[c]} is not in the {'deck' if deck else 'discards'} to draw"
                )
            deck.remove(c)
            if not deck and disc:
                deck, disc = disc, []

    def _check_rt(self, p: int, a: Action) -> None:
        g = self.g
        actors = self._actors()
        if p not in actors:
            raise IllegalActionError(
                "timing",
                f"{g.names[p]} is not ready yet (acts at {self.ready[p] / 1000:.2f} s; "
                f"now {self._now()})",
            )
        if isinstance(a, Wait):
            return
        if isinstance(a, Play):
            self._check_rt_play(p, a)
            return
        if isinstance(a, Reload):
            self._check_reload(p, a, True)
            return
        if isinstance(a, Clear):
            if not self.jammed[p]:
                raise IllegalActionError("jam", f"{g.names[p]} is not jammed")
            return
        if isinstance(a, Look):
            self._check_look(p, a)
            return
        raise IllegalActionError(
            "timing", f"real time has no turns: {g.names[p]} plays, reloads, clears or waits"
        )

    def _check_look(self, p: int, a: Look) -> None:
        g = self.g
        if not g.blind:
            raise IllegalActionError(
                "night-mission",
                "a look is a real-time Night Mission action (in Situation Room you look "
                "at your cards during your turn)"
                if g.night
                else "looking at one card at a time is the Night Mission rule",
            )
        if not 0 <= a.slot < len(self.hands[p]):
            raise IllegalActionError(
                "night-mission",
                f"{g.names[p]} holds {len(self.hands[p])} card(s), no #{a.slot + 1}",
            )

    def _check_holds(self, p: int, c: int) -> None:
        g = self.g
        name = g.names[p]
        if g.blind:
            s = self.looking[p]
            if s < 0:
                raise IllegalActionError(
                    "night-mission",
                    f"{name} is not looking at a card: look at one first ('{name} looks #1')",
                )
            if self.hands[p][s] != c:
                raise IllegalActionError(
                    "night-mission", f"{name} is looking at #{s + 1}, which is not {g.codes[c]}"
                )
            return
        if c not in self.hands[p]:
            raise IllegalActionError("hand", f"{name} holds no {g.codes[c]}")

    def _check_pile(self, k: int) -> None:
        g = self.g
        rule = "terror-threat" if g.terror_threat else "hunt-pile"
        if not 0 <= k < len(self.piles):
            raise IllegalActionError(
                rule, f"there is no hunt pile {k + 1} (piles: 1-{len(self.piles)})"
            )
        if not self.pile_open[k]:
            raise IllegalActionError(rule, f"hunt pile {k + 1} is over (its terrorist is gone)")

    def _pile_error(
        self, p: int, k: int, top: int, number: int, allowed: frozenset[int]
    ) -> IllegalActionError:
        g = self.g
        name = g.names[p]
        where = f" (pile {k + 1})" if len(self.piles) > 1 else ""
        if top == 0:
            return IllegalActionError(
                "hunt-pile",
                f"a hunt pile starts with {_a(g.start_number)}{where}, not {_a(number)}",
            )
        items = [_a(x) for x in sorted(allowed)]
        listing = (
            ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)
        ) or "nothing"
        rule = "sr-play" if g.turn_based else "hunt-pile"
        if p == self.taliban:
            rule = "taliban"
        elif g.osok and number == top:
            rule = "one-shot-one-kill"
        return IllegalActionError(
            rule,
            f"{_a(number)} cannot follow {_a(top)}{where}: on {_a(top)} {name} may play {listing}",
        )

    def _check_rt_play(self, p: int, a: Play) -> None:
        g = self.g
        name = g.names[p]
        if len(a.cards) != 1:
            raise IllegalActionError("hunt-pile", "in real time cards are played one at a time")
        c = a.cards[0]
        self._check_holds(p, c)
        sp = g.special_of[c]
        if self.jammed[p] and (g.jam_all or not sp):
            raise IllegalActionError(
                "jam",
                f'{name} is jammed: say the clearing drill ("{g.params["jam"]["drill"]["en"]}") '
                f"before playing ('{name} clear')",
            )
        if sp == JAM:
            if a.pile:
                raise IllegalActionError("jam", "a Jam is played at a player, not on a pile")
            if a.target < 0:
                raise IllegalActionError(
                    "jam", f"a Jam is played at a player: '{name} plays {g.codes[c]} at NAME'"
                )
            if a.target == p:
                raise IllegalActionError("jam", "a Jam is played at another player")
            if self.jammed[a.target]:
                raise IllegalActionError("jam", f"{g.names[a.target]} is already jammed")
            return
        if a.target >= 0:
            raise IllegalActionError(
                "bad-intel" if sp else "hunt-pile", "this card goes on a hunt pile, not at a player"
            )
        self._check_pile(a.pile)
        if sp == INTEL:
            if not self.piles[a.pile]:
                raise IllegalActionError("bad-intel", "the hunt pile is empty: nothing to remove")
            return
        allowed = self._allowed(p, a.pile)
        number = g.hunt_of[c]
        if number not in allowed:
            pile = self.piles[a.pile]
            top = g.hunt_of[pile[-1]] if pile else 0
            raise self._pile_error(p, a.pile, top, number, allowed)

    def _check_reload(self, p: int, a: Reload, real_time: bool) -> None:
        g = self.g
        name = g.names[p]
        hand = self.hands[p]
        if not g.refill:
            raise IllegalActionError("deadline", "no cards are drawn during a Deadline game")
        if g.night:
            if a.cards:
                raise IllegalActionError(
                    "night-mission", "under Night Mission discard by hand position: 'reload #2'"
                )
            if len(set(a.slots)) != len(a.slots) or any(not 0 <= s < len(hand) for s in a.slots):
                raise IllegalActionError(
                    "night-mission", f"{name} holds {len(hand)} card(s): positions #1-#{len(hand)}"
                )
        else:
            if a.slots:
                raise IllegalActionError(
                    "reload", "hand positions are for Night Mission: name the cards"
                )
            for c in set(a.cards):
                if a.cards.count(c) > hand.count(c):
                    raise IllegalActionError("hand", f"{name} holds no more {g.codes[c]}")
        if real_time and not a.cards and not a.slots:
            if len(hand) >= self.limits[p]:
                raise IllegalActionError(
                    "reload",
                    f"{name} already holds {len(hand)} cards (limit {self.limits[p]}): "
                    "discard at least one to reload",
                )
            if not self._drawable(p):
                raise IllegalActionError("reload", "there are no cards left to draw")

    def _check_turn(self, p: int, a: Action) -> None:
        g = self.g
        name = g.names[p]
        if isinstance(a, Play):
            if any(g.special_of[c] for c in a.cards) or a.target >= 0:
                raise IllegalActionError(
                    "sr-specials",
                    "Jam and Bad Intel are played on another player as their turn starts, "
                    "to end it",
                )
            self._check_pile(a.pile)
            if g.night:
                if len(a.cards) > 1:
                    raise IllegalActionError(
                        "night-mission", "you see one card at a time: play it on its own"
                    )
                self._check_holds(p, a.cards[0])
            else:
                hand = self.hands[p]
                for c in set(a.cards):
                    if a.cards.count(c) > hand.count(c):
                        raise IllegalActionError("hand", f"{name} holds no more {g.codes[c]}")
            k = a.pile
            pile = self.piles[k]
            top = g.hunt_of[pile[-1]] if pile else 0
            kills = self.pile_kills[k]
            need = self.pile_need[k]
            cls = 1 if p == self.taliban else 0
            for i, c in enumerate(a.cards):
                allowed = self._allowed_on(cls, top, kills, need)
                number = g.hunt_of[c]
                if number not in allowed:
                    error = self._pile_error(p, k, top, number, allowed)
                    if i:
                        raise IllegalActionError(
                            "sr-play", f"card {i + 1} of the play: {error.message}"
                        )
                    raise error
                top = number
                if number == g.kill_shot:
                    kills += 1
                    if kills >= need and i != len(a.cards) - 1:
                        raise IllegalActionError(
                            "sr-play",
                            "the Kill Shot that ends the hunt is the last card played",
                        )
            return
        if isinstance(a, Reload):
            self._check_reload(p, a, False)
            return
        if isinstance(a, Pass):
            if g.refill:
                raise IllegalActionError(
                    "situation-room",
                    "play cards, or discard and refill ('reload', discarding any number)",
                )
            return
        if isinstance(a, Look):
            self._check_look(p, a)
            return
        raise IllegalActionError(
            "situation-room", f"it is {name}'s turn: play cards or discard and refill"
        )

    def _check_window(self, p: int, a: Action) -> None:
        g = self.g
        target = g.names[self.turn]
        if isinstance(a, Pass):
            return
        if (
            not isinstance(a, Play)
            or len(a.cards) != 1
            or not g.special_of[a.cards[0]]
            or a.target != self.turn
            or a.pile
        ):
            raise IllegalActionError(
                "sr-specials",
                f"before {target}'s turn, only Jam or Bad Intel played at {target} ends it "
                "(or pass)",
            )
        self._check_holds(p, a.cards[0])

    def _check_discard(self, p: int, a: Action) -> None:
        g = self.g
        if p not in self.discard_rounds[0] or not isinstance(a, Discard):
            raise IllegalActionError(
                self.discard_why[0] if self.discard_why else "cease-fire-discard",
                f"{', '.join(g.names[q] for q in self.discard_rounds[0])} must discard one card now",
            )
        hand = self.hands[p]
        if g.night:
            if a.card >= 0 or not 0 <= a.slot < len(hand):
                raise IllegalActionError(
                    "night-mission", f"discard by hand position #1-#{len(hand)}"
                )
        elif a.slot >= 0 or a.card not in hand:
            raise IllegalActionError("hand", f"{g.names[p]} holds no such card")

    def _check_pick(self, p: int, a: Action) -> None:
        g = self.g
        if p not in self.pickers or not isinstance(a, Pick):
            raise IllegalActionError("deadline", f"{g.names[p]} has no extra cards to choose")
        size = self.pick_sizes[p]
        if len(a.cards) != size:
            raise IllegalActionError("deadline", f"{g.names[p]} chooses {size} extra card(s)")
        rest = list(self.decks[p])
        for c in a.cards:
            if c not in rest:
                raise IllegalActionError(
                    "deadline", f"{g.codes[c]} is not among the rest of {g.names[p]}'s colour"
                )
            rest.remove(c)


def _a(number: int) -> str:
    """'a 5', 'an 8' (and 'an 11', 'an 18' should the data ever have them)."""
    return f"an {number}" if str(number).startswith("8") or number in (11, 18) else f"a {number}"
