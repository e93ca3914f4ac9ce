"""Random play: a uniformly random legal action, and whole games played fast.

`sample` draws a legal action of one player directly (chance: by the outcomes' odds), so the
fast driver `play_random` skips the legality check; with the same seed it makes the same
choices, and the same history, as `rules_engine.core.play_random`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rules_engine.core import CHANCE, IllegalActionError, JointAction
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
from rules_engine.subzero.end_of_turn import reshuffle
from rules_engine.subzero.resolution import resolve_step
from rules_engine.subzero.reveal import make_choices

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState


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
    `core.play_random` with the same seed, faster, because the actions are drawn legal
    and so skip the legality check (and a step's reveals are done in one loop)."""
    g = s.g
    rnd = rng.random
    history = s._history
    do = s._do
    table = g.choice_table
    make = make_choices
    kinds = g.kinds
    squares = g.squares
    ball_states = g.ball_states
    max_balls = g.max_snowballs
    card_ids = g.card_ids
    append = history.append
    hand_size = g.hand_size
    slots = g.slots
    while True:
        phase = s.phase
        if phase == REVEAL:
            slot = s.slot
            programs = s.programs
            pos = s.pos
            balls = s.balls
            reveals = s.step_reveals
            order = s.order
            ducking = s.ducking
            moving = shooting = ducked = False
            for p in order[s.rpos :]:
                kind = programs[p][slot]
                held = balls[p]
                key = ((p * kinds + kind) * squares + pos[p]) * ball_states + held
                choices = table[key]
                if choices is None:
                    choices = table[key] = make(g, p, kind, pos[p], held)
                listed = choices[0]
                if listed:
                    r = listed[int(rnd() * len(listed))]
                else:
                    moves = choices[1]
                    shots = choices[2]
                    ns = len(shots)
                    i = int(rnd() * (len(moves) * ns))
                    d, t = moves[i // ns]
                    r = Reveal(p, card_ids[kind], d, t, shots[i % ns], False, False)
                append(r)
                reveals.append(r)
                if r.move >= 0:
                    moving = True
                if r.shots:
                    balls[p] = held - len(r.shots)
                    shooting = True
                elif r.roll and held < max_balls:
                    balls[p] = held + 1
                if r.swish:
                    ducking[p] = ducked = True
            s.rpos = len(order)
            resolve_step(s, moving, shooting, ducked)
            continue
        if phase == DEAL:
            if s.pile_total == 0:
                append(Reshuffle())
                reshuffle(s)
                continue
            queue = s.queue
            p = queue[0]
            hand = s.hands[p]
            total = s.pile_total
            k = min(hand_size - len(hand), total)
            drawn = draw_kinds(s.pile, total, k, rnd)
            append(Draw(p, tuple([card_ids[i] for i in drawn])))
            hand += drawn
            hand.sort()
            s.pile_total = total - k
            if len(hand) >= hand_size:
                del queue[0]
                if not queue:
                    s.phase = PROGRAM
            continue
        if phase == PROGRAM:
            programs = s.programs
            joint = []
            for p in s.order_seats():
                hand = s.hands[p]
                chosen = tuple([hand.pop(int(rnd() * len(hand))) for _ in range(slots)])
                programs[p] = chosen
                joint.append(Program(p, tuple([card_ids[k] for k in chosen])))
            append(JointAction(joint))
            s.phase = REVEAL
            s.slot = 0
            s.rpos = 0
            s.step_reveals = []
            if s.turn > max_turns:
                raise RuntimeError(f"no end after {max_turns} turns")
            continue
        if phase == OVER:
            return
        action = sample(s, s.queue[0], rnd, rng) if phase == PLACE else sample(s, CHANCE, rnd, rng)
        append(action)
        do(action)
