"""The facts KILL SHOT's event log tells (`rules_engine.core.EVENTS`): a card as a sentence
names it (its colour, hunt number and name), a time in seconds, and the rule a deal, a
refill or a landing card applies under the game type and optional rules in play.

Every room emits its own events (`if EVENTS.on: EVENTS.emit(rule, what, **facts)`), the
rule ids being the clauses of `clauses:` in the game's game.yaml; these helpers are only
called while a log records, so they cost nothing in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot


def card(g: KillShot, k: int) -> dict[str, Any]:
    """A card's facts: `colour` (its deck id), `number` (0 for a special card) and `card`
    (its component id: the name printed on it)."""
    piece = g.piece_ids[k]
    return {
        "colour": g.colours[g.colour_of[k]],
        "number": g.hunt_of[k],
        "card": piece or g.codes[k],
    }


def cards(g: KillShot, ks: list[int] | tuple[int, ...]) -> list[str]:
    """Cards as a list of piece ids (their names in a sentence), in order."""
    return [g.piece_ids[k] or g.codes[k] for k in ks]


def numbers(g: KillShot, ks: list[int] | tuple[int, ...]) -> list[int]:
    return [g.hunt_of[k] for k in ks]


def seconds(ms: int) -> str:
    """A clock reading as the examples say it: `4.35`."""
    return f"{ms / 1000:.2f}"


def deal_rule(g: KillShot) -> str:
    """The clause a hunt's deal applies: the starting hand of the game type or rule."""
    from rules_engine.kill_shot.engine import SITUATION, TACTICAL

    if g.deadline:
        return "deadline"
    if g.game_type == SITUATION:
        return "situation-room"
    if g.game_type == TACTICAL:
        return "tactical-engagement"
    return "deal"
