"""The simulated players: a random legal action picked with fixed weights for each kind of
action (play, special card, reload, wait...), and fast random play to the end of a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from rules_engine.core import CHANCE, IllegalActionError, JointAction
from rules_engine.kill_shot.actions import (
    Action,
    Clear,
    Discard,
    Look,
    Pass,
    Pick,
    Play,
    React,
    Reload,
    Wait,
)
from rules_engine.kill_shot.phases import DISCARD, OVER, PICK, PLAY, TURN
from rules_engine.kill_shot.special_cards import JAM
from rules_engine.kill_shot.state_base import KillShotStateBase

# the simulated players' weights for each kind of action (see `KillShotState.sample_action`)
W_PLAY: Final = 8.0
W_SPECIAL: Final = 1.0
W_RELOAD: Final = 2.0
W_WAIT: Final = 0.5
W_CLEAR: Final = 8.0
W_LOOK: Final = 3.0
W_TURN_PLAY: Final = 6.0
W_TURN_OTHER: Final = 1.0
P_MORE: Final = 0.5  # Situation Room: chance of adding one more card to a play
P_INTERRUPT: Final = 0.1
P_CLIMB: Final = 0.75  # chance of playing the card that moves the hunt furthest
P_DISCARD: Final = 0.5  # a reload discards each card with this chance  # Situation Room: chance of using a special on the player to act


class SimulatedPlayers(KillShotStateBase):
    """The simulated players' choices, and fast random play."""

    __slots__ = ()

    def _sample(self, player: int, rng: random.Random) -> Action:
        if player == CHANCE:
            return self._sample_chance(rng)
        phase = self.phase
        if phase == PLAY:
            return self._rt_policy(player, rng)
        if phase == TURN:
            if player == self.turn:
                return self._turn_policy(player, rng)
            specials = self._window_specials(player)
            if specials and rng.random() < P_INTERRUPT:
                return specials[int(rng.random() * len(specials))]
            return Pass(player)
        if phase == DISCARD:
            hand = self.hands[player]
            i = int(rng.random() * len(hand))
            return Discard(player, -1, i) if self.g.night else Discard(player, hand[i], -1)
        if phase == PICK:
            rest = sorted(self.decks[player])
            return Pick(player, tuple(sorted(rng.sample(rest, self.pick_sizes[player]))))
        raise IllegalActionError("timing", f"{self.g.player_name(player)} has nothing to do now")

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random, max_steps: int = 1_000_000) -> int:
        """Play to the end with the simulated players (the same game as `core.play_random`
        for the same seed, faster: actions are drawn legal and skip the check, and the
        commonest steps, a reaction time and one player's real-time action, are inlined)."""
        history = self._history
        rnd = rng.random
        law = self.g.law
        sample = law.sample
        steps = 0
        while True:
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"no end after {max_steps} steps")
            phase = self.phase
            if phase == PLAY and not self.draws:
                pending = self.pending
                if pending:
                    if len(pending) == 1:
                        react = React((pending[0],), (sample(rnd),))
                    else:
                        movers = tuple(sorted(pending))
                        react = React(movers, tuple([sample(rnd) for _ in movers]))
                    history.append(react)
                    self._react(react)
                    continue
                ready = self.ready
                t = min(ready)
                if ready.count(t) == 1:
                    p = ready.index(t)
                    action = self._rt_policy(p, rng)
                    history.append(action)
                    if self.voided:
                        self.voided = []
                    self.halt = False
                    self.clock = t
                    self._rt_apply(action)
                    self._settle()
                    continue
            elif phase == OVER:
                return steps - 1
            elif phase == TURN and not self.draws:
                t = self.turn
                rnd = rng.random
                turn_actions: list[Action] = []
                for q in self.g.everyone:
                    if q == t:
                        turn_actions.append(self._turn_policy(q, rng))
                        continue
                    specials = self._window_specials(q)
                    if specials and rnd() < P_INTERRUPT:
                        turn_actions.append(specials[int(rnd() * len(specials))])
                    else:
                        turn_actions.append(Pass(q))
                history.append(JointAction(turn_actions))
                if self.voided:
                    self.voided = []
                self.halt = False
                self._turn_joint(turn_actions)
                continue
            players = self.current_players()
            if len(players) == 1:
                action = self._sample(players[0], rng)
                history.append(action)
                self._do(action)
            else:
                actions = JointAction(self._sample(p, rng) for p in players)
                history.append(actions)
                self._do_joint(actions)

    # --- the simulated players ---------------------------------------------------------------

    def _hunt_plays(self, p: int) -> list[tuple[int, int]]:
        """Every (card, pile) of a hunt card the player may put down now."""
        g = self.g
        hand = self.hands[p]
        if g.blind:
            s = self.looking[p]
            cards: Sequence[int] = (hand[s],) if s >= 0 else ()
        else:
            cards = tuple(dict.fromkeys(hand))
        hunt_of = g.hunt_of
        out = []
        for k in range(len(self.piles)):
            if not self.pile_open[k]:
                continue
            allowed = self._allowed(p, k)
            for c in cards:
                if hunt_of[c] in allowed:
                    out.append((c, k))
        return out

    def _special_plays(self, p: int) -> list[Play]:
        g = self.g
        hand = self.hands[p]
        special_of = g.special_of
        if g.blind:
            s = self.looking[p]
            cards: Sequence[int] = (hand[s],) if s >= 0 and special_of[hand[s]] else ()
        else:
            cards = [c for c in hand if special_of[c]]
            if not cards:
                return []
            if len(cards) > 1:
                cards = list(dict.fromkeys(cards))
        out = []
        for c in cards:
            if g.special_of[c] == JAM:
                for q in range(self.n):
                    if q != p and not self.jammed[q]:
                        out.append(Play(p, (c,), 0, q))
            else:
                for k in range(len(self.piles)):
                    if self.pile_open[k] and self.piles[k]:
                        out.append(Play(p, (c,), k))
        return out

    def _can_reload(self, p: int) -> bool:
        if not self.g.refill:
            return False
        hand = self.hands[p]
        return bool(hand) or (len(hand) < self.limits[p] and self._drawable(p) > 0)

    def _sample_reload(self, p: int, rnd: Callable[[], float], real_time: bool) -> Reload:
        hand = self.hands[p]
        free = len(hand) < self.limits[p] and self._drawable(p) > 0
        while True:
            chosen = [i for i in range(len(hand)) if rnd() < P_DISCARD]
            if chosen or not real_time or free:
                break
        if self.g.night:
            return Reload(p, (), tuple(chosen))
        return Reload(p, tuple(sorted(hand[i] for i in chosen)))

    def _rt_policy(self, p: int, rng: random.Random) -> Action:
        """The simulated real-time player: a hunt card when one fits (sometimes a special
        card, or waiting), otherwise a reload; a jammed player mostly says the drill.  Under
        Night Mission a player looks at a card seen earlier that fits now, else at unseen
        cards (and reloads only once every card has been seen)."""
        g = self.g
        rnd = rng.random
        jammed = self.jammed[p]
        plays = [] if jammed else self._hunt_plays(p)
        specials = [] if jammed and g.jam_all else self._special_plays(p)
        w_play = W_PLAY if plays else 0.0
        w_special = W_SPECIAL if specials else 0.0
        w_reload = 0.0
        if not plays and self._can_reload(p):
            w_reload = W_WAIT if jammed else W_RELOAD
        w_clear = W_CLEAR if jammed else 0.0
        w_look = 0.0
        looks: list[int] = []
        hand = self.hands[p]
        if g.blind and not plays and hand:
            w_look = W_LOOK
            known = self.known[p]
            fits: set[int] = set()
            for k in range(len(self.piles)):
                if self.pile_open[k]:
                    fits |= self._allowed(p, k)
            hunt_of = g.hunt_of
            looks = [s for s, c in enumerate(hand) if known[s] and hunt_of[c] in fits]
            if looks:
                w_look = W_PLAY  # a card seen earlier fits now: pick it up again
                w_reload = 0.0
            else:
                looks = [s for s in range(len(hand)) if not known[s]]
                if looks:
                    w_reload = 0.0  # look at the unseen cards before reloading
                else:
                    looks = list(range(len(hand)))
        r = rnd() * (w_play + w_special + w_reload + w_clear + w_look + W_WAIT)
        if r < w_play:
            c, k = self._pick(p, plays, rnd)
            return Play(p, (c,), k)
        r -= w_play
        if r < w_special:
            return specials[int(rnd() * len(specials))]
        r -= w_special
        if r < w_reload:
            return self._sample_reload(p, rnd, True)
        r -= w_reload
        if r < w_clear:
            return Clear(p)
        r -= w_clear
        if r < w_look:
            return Look(p, looks[int(rnd() * len(looks))])
        return Wait(p)

    def _pick(
        self, p: int, plays: list[tuple[int, int]], rnd: Callable[[], float]
    ) -> tuple[int, int]:
        """One of the (card, pile) plays: mostly the one that moves the hunt furthest (up
        for a hunter, down for the Taliban player), otherwise any."""
        if len(plays) > 1 and rnd() < P_CLIMB:
            hunt_of = self.g.hunt_of
            if p == self.taliban:
                best = min(hunt_of[c] for c, _ in plays)
            else:
                best = max(hunt_of[c] for c, _ in plays)
            plays = [x for x in plays if hunt_of[x[0]] == best]
        return plays[int(rnd() * len(plays))]

    def _turn_policy(self, p: int, rng: random.Random) -> Action:
        g = self.g
        rnd = rng.random
        firsts = self._hunt_plays(p)
        w_play = W_TURN_PLAY if firsts else 0.0
        w_reload = W_TURN_OTHER if g.refill else 0.0
        w_pass = 0.0 if g.refill else W_TURN_OTHER
        r = rnd() * (w_play + w_reload + w_pass)
        if r < w_play:
            c, k = self._pick(p, firsts, rnd)
            if g.night:
                return Play(p, (c,), k)
            hunt_of = g.hunt_of
            cls = 1 if p == self.taliban else 0
            need = self.pile_need[k]
            kills = self.pile_kills[k]
            seq = [c]
            rest = list(self.hands[p])
            rest.remove(c)
            top = hunt_of[c]
            if top == g.kill_shot:
                kills += 1
            while not (top == g.kill_shot and kills >= need):
                allowed = self._allowed_on(cls, top, kills, need)
                nexts = [(d, k) for d in dict.fromkeys(rest) if hunt_of[d] in allowed]
                if not nexts or rnd() >= P_MORE:
                    break
                d = self._pick(p, nexts, rnd)[0]
                seq.append(d)
                rest.remove(d)
                top = hunt_of[d]
                if top == g.kill_shot:
                    kills += 1
            return Play(p, tuple(seq), k)
        r -= w_play
        if r < w_reload:
            return self._sample_reload(p, rnd, False)
        return Pass(p)
