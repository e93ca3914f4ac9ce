"""Random play: a uniformly random legal action, whole games played fast, and a search
player's playouts played fast.

`sample` draws a legal action of one player directly (chance: by the outcomes' odds), so the
fast driver `play_random` skips the legality check; with the same seed it makes the same
choices, and the same history, as `rules_engine.core.play_random`.  `playout` plays the game
`rules_engine.core.generic_playout` plays (legal actions listed, one taken by `rng.choice`),
also without the check.  Both play the phases with the tables of `kernel`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rules_engine.core import (
    CHANCE,
    EVENTS,
    IllegalActionError,
    JointAction,
    collector_paused,
    generic_playout,
)
from rules_engine.subzero.actions import (
    DEAL,
    OVER,
    PLACE,
    PROGRAM,
    REVEAL,
    YOUNGEST,
    Action,
    Draw,
    Place,
    Program,
    Reshuffle,
    Reveal,
    Youngest,
)
from rules_engine.subzero.kernel import run

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState

UNLIMITED = 1 << 62
"""No limit on the actions of a phase (`play_random` plays to the end)."""


def sample(s: SubzeroState, player: int, rnd: Any, rng: random.Random) -> Action:
    phase = s.phase
    g = s.g
    if phase == REVEAL and player == s.order[s.rpos]:
        return sample_reveal(s, player, rnd)
    if phase == DEAL and player == CHANCE:
        if s.pile_total == 0:
            return Reshuffle()
        p = s.queue[0]
        k = min(g.hand_size - len(s.hands[p]), s.pile_total)
        drawn = draw_kinds(list(s.pile), s.pile_total, k, rnd)
        ids = g.card_ids
        return Draw(p, tuple([ids[i] for i in drawn]))
    if phase == PROGRAM and player in s.order_seats():
        ids = g.card_ids
        return Program(player, tuple([ids[k] for k in pick_program(s, player, rnd)]))
    if phase == PLACE and player == s.queue[0]:
        free = [q for q in range(g.squares) if s.at[q] < 0]
        return Place(player, free[int(rnd() * len(free))])
    if phase == YOUNGEST and player == CHANCE:
        return Youngest(int(rnd() * s.n))
    raise IllegalActionError("reveal", f"{g.player_name(player)} has nothing to do now")


def draw_kinds(pile: list[int], total: int, k: int, rnd: Any) -> list[int]:
    """Draw `k` cards at random from `pile` (cards per kind, `total` in all; changed in
    place): their kinds, sorted.  Each card is the `int(rnd() * total)`-th of the pile in
    kind order (a walk along a dozen kinds is faster than bisecting their running totals)."""
    drawn = []
    for _ in range(k):
        x = int(rnd() * total)
        i = 0
        while x >= pile[i]:
            x -= pile[i]
            i += 1
        pile[i] -= 1
        total -= 1
        drawn.append(i)
    drawn.sort()
    return drawn


def pick_program(s: SubzeroState, player: int, rnd: Any) -> list[int]:
    """A random ordered choice of program cards from the hand (each card in hand, not
    each kind, equally likely)."""
    hand = list(s.hands[player])
    picked = []
    for _ in range(s.g.slots):
        picked.append(hand.pop(int(rnd() * len(hand))))
    return picked


def sample_reveal(s: SubzeroState, player: int, rnd: Any) -> Reveal:
    programs = s.programs
    listed, moves, shots = s.g.reveal_choices(
        player, programs[player][s.slot], s.pos[player], s.balls[player]
    )
    if listed:
        return listed[int(rnd() * len(listed))]
    ns = len(shots)
    i = int(rnd() * (len(moves) * ns))
    d, t = moves[i // ns]
    r = s.g.reveal_template(player, programs[player][s.slot])
    return Reveal(player, r.card, d, t, shots[i % ns], False, False)


def play_random(s: SubzeroState, rng: random.Random, max_turns: int = 100_000) -> None:
    """Play to the end with random legal actions: the same choices (and history) as
    `core.play_random` with the same seed, faster, because the actions are drawn legal and
    so skip the legality check, and the rules are played from tables (`kernel.run`).  While
    the events are recorded, every action is played by `_do`, which tells them."""
    if EVENTS.on:
        _play_told(s, rng, max_turns)
    else:
        with collector_paused():
            run(s, rng.random, None, UNLIMITED, max_turns)


def _play_told(s: SubzeroState, rng: random.Random, max_turns: int) -> None:
    """`play_random` one action at a time, each played by `_do` (which tells its events)."""
    rnd = rng.random
    history = s._history
    while s.phase != OVER:
        players = s.current_players()
        if len(players) == 1:
            action = sample(s, players[0], rnd, rng)
            history.append(action)
            s._do(action)
            continue
        actions = [sample(s, p, rnd, rng) for p in players]
        history.append(JointAction(actions))
        s._do_joint(actions)
        if s.turn > max_turns:
            raise RuntimeError(f"no end after {max_turns} turns")


def playout(s: SubzeroState, rng: random.Random, max_steps: int = 100_000) -> int:
    """A search player's playout (`rules_engine.core.playout`): the same game as
    `core.generic_playout` plays with `rng` (each player's legal actions listed and one
    taken by `rng.choice`, chance by `sample_action`), at most `max_steps` steps, faster:
    the choices are listed from the tables of `kernel` and picked as `rng.choice` picks (by
    `rng._randbelow` of their number), and played without the legality check.  Returns the
    actions applied (each program of a joint step counted).  While the events are recorded
    it is `generic_playout` itself."""
    if EVENTS.on:
        return generic_playout(s, rng, max_steps)
    with collector_paused():
        return run(s, rng.random, rng._randbelow, max_steps, UNLIMITED)  # type: ignore[attr-defined]
