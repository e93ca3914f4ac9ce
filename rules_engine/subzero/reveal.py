"""Revealing (rules `reveal`, `combined`): clockwise from the start player, each turns up the card of this step.

A revealed card's choices are made as it is turned up: a MOVE's direction (and its edge turn
when it can choose one), a SHOOT's balls (one per snowball held, each with its direction; no
effect without a snowball), a ROLL, a SWISH; a combined card does both of its actions, or one
(`combined_cards`).  `make_choices` lists them for the engine's table (`Subzero.reveal_choices`);
`check_reveal` names the rule a reveal breaks; `reveal_card` plays it, and the last reveal of
a step has it resolved (`resolution`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError, Mapped, Product
from rules_engine.subzero.actions import (
    DIRECTIONS,
    MOVE,
    ORTHOGONAL,
    REVEAL,
    ROLL_,
    SHOOT,
    SWISH,
    Action,
    Choices,
    Reveal,
)
from rules_engine.subzero.resolution import resolve

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero
    from rules_engine.subzero.state import SubzeroState


def make_choices(g: Subzero, player: int, kind: int, square: int, balls: int) -> Choices:
    card = g.cards[kind]
    cid = card.id
    moves = g.move_options(square, card.steps) if card.steps else ()
    shots: tuple[tuple[int, ...] | None, ...] = (
        g.shot_options[min(balls, g.max_balls_per_shot)] if SHOOT in card.actions else ()
    )
    roll = ROLL_ in card.actions
    swish = SWISH in card.actions
    if not card.combined or g.combined_mode == "one":
        listed = [Reveal(player, cid, d, t, None, False, False) for d, t in moves]
        listed += [Reveal(player, cid, -1, -1, sh, False, False) for sh in shots]
        if roll:
            listed.append(Reveal(player, cid, -1, -1, None, True, False))
        if swish:
            listed.append(Reveal(player, cid, -1, -1, None, False, True))
        return tuple(listed), (), ()
    if moves and shots:
        return (), moves, shots
    first = moves or ((-1, -1),)
    second = shots or (None,)
    return (
        tuple(Reveal(player, cid, m[0], m[1], sh, roll, swish) for m in first for sh in second),
        (),
        (),
    )


def _choices(s: SubzeroState, player: int) -> Choices:
    programs = s.programs
    return s.g.reveal_choices(player, programs[player][s.slot], s.pos[player], s.balls[player])


def reveal_actions(s: SubzeroState, player: int) -> Sequence[Action]:
    listed, moves, shots = _choices(s, player)
    if listed:
        return listed
    r = s.g.reveal_template(player, s.programs[player][s.slot])
    return Mapped(
        Product(moves, shots),
        lambda t: r._replace(move=t[0][0], turn=t[0][1], shots=t[1]),
        lambda a: (
            ((a.move, a.turn), a.shots)
            if isinstance(a, Reveal) and a.player == r.player and a.card == r.card
            else None
        ),
    )


def check_reveal(s: SubzeroState, player: int, action: Reveal) -> None:
    g = s.g
    phase = s.phase
    names = g.names
    if phase != REVEAL:
        raise IllegalActionError("reveal", f"no card is being revealed now ({s._now()})")
    who = s.order[s.rpos]
    if action.player != who or player != who:
        raise IllegalActionError(
            "reveal",
            f"step {s.slot + 1}: {names[who]} reveals next (clockwise from the "
            f"start player {names[s.start]}), not {g.player_name(action.player)}",
        )
    _check_choices(s, action)


def _check_choices(s: SubzeroState, r: Reveal) -> None:
    g = s.g
    name = g.names[r.player]
    card_kind = s.programs[r.player][s.slot]
    card = g.cards[card_kind]
    if r.card != card.id:
        raise IllegalActionError(
            "reveal",
            f"{name}'s card in slot {s.slot + 1} is {card.id}, not {r.card}",
        )
    used = [
        a
        for a, on in (
            (MOVE, r.move >= 0),
            (SHOOT, r.shots is not None),
            (ROLL_, r.roll),
            (SWISH, r.swish),
        )
        if on
    ]
    for a in used:
        if a not in card.actions:
            raise IllegalActionError("reveal", f"card {card.id} has no {a.upper()}")
    if card.combined and g.combined_mode == "one":
        if len(used) != 1:
            raise IllegalActionError(
                "combined",
                f"a combined card does one of its actions "
                f"({' or '.join(a.upper() for a in card.actions)}): choose one",
            )
    elif len(used) != len(card.actions):
        missing = [a.upper() for a in card.actions if a not in used]
        raise IllegalActionError(
            "combined" if card.combined else "reveal",
            f"card {card.id} also does {' and '.join(missing)}",
        )
    if r.move >= 0:
        if r.move not in ORTHOGONAL:
            raise IllegalActionError(
                "move",
                f"a MOVE goes up, down, left or right (N, E, S, W), not {DIRECTIONS[r.move]}",
            )
        turns = g.turn_options(s.pos[r.player], r.move, card.steps)
        if r.turn not in turns:
            if turns == (-1,):
                why = (
                    "the edge turn is fixed by the rules"
                    if g.edge_turn != "choose"
                    else f"a {card.steps}-step move {DIRECTIONS[r.move]} from "
                    f"{g.square_names[s.pos[r.player]]} does not reach the edge"
                )
                raise IllegalActionError("move-edge", f"no turn to choose: {why}")
            listing = " or ".join(DIRECTIONS[t] for t in turns)
            raise IllegalActionError(
                "move-edge",
                f"this move reaches the edge: say where it turns 90 degrees "
                f"({DIRECTIONS[r.move]} turn {listing})",
            )
    elif r.turn >= 0:
        raise IllegalActionError("move-edge", "a turn belongs to a move")
    if r.shots is not None:
        balls = s.balls[r.player]
        k = len(r.shots)
        if balls == 0 and k:
            raise IllegalActionError(
                "shoot-empty", f"{name} holds no snowball: the SHOOT has no effect (throw nothing)"
            )
        if balls and not 1 <= k <= min(balls, g.max_balls_per_shot):
            raise IllegalActionError(
                "shoot-two",
                f"{name} holds {balls} snowball(s): throw 1 to "
                f"{min(balls, g.max_balls_per_shot)} ball(s), one per snowball, got {k}",
            )
        for d in r.shots:
            if d not in g.shot_directions:
                raise IllegalActionError("shoot", f"a ball flies along a straight line, not {d}")
        if list(r.shots) != sorted(r.shots):
            raise IllegalActionError("shoot", "ball directions are listed N, NE, E ... NW")


def reveal_card(s: SubzeroState, r: Reveal) -> None:
    g = s.g
    p = r.player
    s.step_reveals.append(r)
    if EVENTS.on:
        _tell_reveal(s, r)
    if r.shots:
        s.balls[p] -= len(r.shots)
    if r.roll and s.balls[p] < g.max_snowballs:
        s.balls[p] += 1
    if r.swish:
        s.ducking[p] = True
    s.rpos += 1
    if s.rpos >= len(s.order):
        resolve(s)


def _tell_reveal(s: SubzeroState, r: Reveal) -> None:
    """The events of a reveal (before it changes the state): the card turned up, then
    each of its actions as announced."""
    g = s.g
    emit = EVENTS.emit
    name = g.names[r.player]
    card = g.cards[g.card_index[r.card]]
    emit("reveal", "reveal", player=name, card=r.card, step=s.slot + 1, first=s.rpos == 0)
    if card.combined:
        used = [
            a
            for a, on in ((MOVE, r.move >= 0), (SHOOT, r.shots is not None), (SWISH, r.swish))
            if on
        ]
        emit(
            "combined",
            "combined",
            player=name,
            card=r.card,
            actions=used,
            both=len(used) > 1,
            shoot_first=g.shoot_first,
        )
    if r.move >= 0:
        emit(
            "move",
            "aim",
            player=name,
            direction=DIRECTIONS[r.move],
            steps=card.steps,
            turn=DIRECTIONS[r.turn] if r.turn >= 0 else "",
        )
    if r.shots is not None:
        balls = s.balls[r.player]
        if not r.shots:
            emit("shoot-empty", "shoot_empty", player=name)
        else:
            emit(
                "shoot-two" if len(r.shots) > 1 else "shoot",
                "throw",
                player=name,
                directions=[DIRECTIONS[d] for d in r.shots],
                left=balls - len(r.shots),
            )
    if r.roll:
        balls = s.balls[r.player]
        if balls < g.max_snowballs:
            emit("roll", "roll", player=name, snowballs=balls + 1)
        else:
            emit("roll-max", "roll_full", player=name, snowballs=balls)
    if r.swish:
        emit("swish", "duck", player=name)
