"""The actions of Submarine Attack, the action cards, the phases of a round, and the notation.

Notation (one action per line, joint actions joined by " ; "):

    first red                                   chance: who starts round 1 (janken)
    red place 5 1 2 3 1 2 / TS TA TB TC EA TB TA TC
                                                ships per column 1..6 / cards per slot 1..8
    roll 3 3 5 6                                chance: the dice of the torpedo being fired
    red target 4                                the attacker's pick for a triple or a four

Card codes: a torpedo is `T` + its grade (TS, TA, TB, TC, TD), an evasion `E` + its
grade (EA, EB); a transport is its number of ships.

None of this is players' language: `notation_pattern` finds it in running text, so the
rulebook's prose can be checked to hold none of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from rules_engine.core import NotationError

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack

# --- actions --------------------------------------------------------------------------------


class Start(NamedTuple):
    """Chance: who goes first (round 1, or a tie under `tie_first_player: janken`)."""

    player: int


class Place(NamedTuple):
    """A player's face-down placement: ships per column and action cards per slot."""

    player: int
    ships: tuple[int, ...]
    cards: tuple[str, ...]


class Roll(NamedTuple):
    """Chance: the dice of the torpedo being fired, in the order rolled."""

    dice: tuple[int, ...]


class Target(NamedTuple):
    """The attacker's pick of a column for a triple, a four (or, by option, one group)."""

    player: int
    column: int


Action = Start | Place | Roll | Target

DRAW_OUTCOMES: Final = 1 << 32
"""One draw of the generator (`random()`, a float of 53 bits) rolls as many dice at once as
have at most this many outcomes together (`dice_per_draw`): each outcome then comes up with
the same odds to within one part in two million."""


def dice_per_draw(faces: int) -> int:
    """How many dice of `faces` faces one draw rolls (`roll_dice`): 12 of six faces."""
    k = 1
    while k < 32 and faces ** (k + 1) <= DRAW_OUTCOMES:
        k += 1
    return k


def roll_dice(random: Callable[[], float], faces: int, dice: int, per_draw: int) -> tuple[int, ...]:
    """Chance's roll of `dice` dice of `faces` faces, in the order rolled: each draw of
    `random()` (uniform in [0, 1)) rolls up to `per_draw` dice (`dice_per_draw`) as one of
    their `faces ** k` outcomes, `int(random() * faces ** k)`, whose digits in base `faces`
    are the dice less one, first die first.  One draw per torpedo, not one per die: the
    same odds for every roll (`sample_action`, `play_random` and the playout kernel all
    roll this way)."""
    shown: list[int] = []
    left = dice
    while left > 0:
        k = per_draw if left > per_draw else left
        shown += roll_faces(int(random() * faces**k), faces, k)
        left -= k
    return tuple(shown)


def roll_faces(number: int, faces: int, dice: int) -> list[int]:
    """The faces of the roll of `dice` dice numbered `number` (`roll_dice`): its digits in
    base `faces`, first die first, each plus one."""
    shown = [0] * dice
    for i in range(dice - 1, -1, -1):
        number, face = divmod(number, faces)
        shown[i] = face + 1
    return shown


# Phases
START: Final = 0
PLACE: Final = 1
ROLL: Final = 2
TARGET: Final = 3
OVER: Final = 4
PHASE_NAMES: Final = ("first", "place", "roll", "target", "over")


@dataclass(frozen=True)
class ActionCard:
    """An action card as the engine uses it (from cards.yaml, or a version's params)."""

    code: str
    kind: str  # "torpedo" | "evasion"
    grade: str
    dice: int  # dice a torpedo rolls (0 for an evasion)
    cancel: int  # dice an evasion takes from the opposed torpedo (0 for a torpedo)
    component: str


# --- notation -------------------------------------------------------------------------------


def format_action(g: SubmarineAttack, action: Action) -> str:
    """An action in the notation (players by their names in `g`)."""
    if isinstance(action, Roll):
        return "roll " + " ".join(map(str, action.dice))
    if isinstance(action, Target):
        return f"{g.names[action.player]} target {action.column}"
    if isinstance(action, Place):
        return (
            f"{g.names[action.player]} place "
            + " ".join(map(str, action.ships))
            + " / "
            + " ".join(action.cards)
        )
    if isinstance(action, Start):
        return f"first {g.names[action.player]}"
    raise TypeError(f"not a Submarine Attack action: {action!r}")


def parse_action(g: SubmarineAttack, text: str) -> Action:
    """The action a line of notation names (raises `NotationError`)."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    try:
        if words[0] == "roll":
            if len(words) < 2:
                raise NotationError("'roll' needs the dice, like 'roll 3 3 5 6'")
            return Roll(tuple(int(w) for w in words[1:]))
        if words[0] == "first" and len(words) == 2:
            return Start(g.player_index(words[1]))
        if len(words) == 3 and words[1] == "target":
            return Target(g.player_index(words[0]), int(words[2]))
        if len(words) >= 3 and words[1] == "place":
            rest = words[2:]
            if rest.count("/") != 1:
                raise NotationError(
                    "a placement is 'NAME place SHIPS... / CARDS...', "
                    "like 'red place 5 1 2 3 1 2 / TS TA TB TC EA TB TA TC'"
                )
            cut = rest.index("/")
            return Place(
                g.player_index(words[0]),
                tuple(int(w) for w in rest[:cut]),
                tuple(rest[cut + 1 :]),
            )
    except ValueError as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"not a number in {text!r}") from None
    raise NotationError(
        f"cannot read {text!r}: expected 'first NAME', 'NAME place ... / ...', "
        "'roll D D ...' or 'NAME target COLUMN'"
    )


# Where notation ends: not inside a longer word (a possessive "red's" is prose, not a name).
_LEFT = r"(?<![A-Za-z0-9_'’-])"
_RIGHT = r"(?![A-Za-z0-9_'’-])"


def notation_pattern(g: SubmarineAttack) -> re.Pattern[str]:
    """The notation as it would appear in running text: every action `format_action`
    writes (`first red`, `red place 5 1 ... / TS ...`, `roll 3 3 5 6`, `red target 4`),
    the card codes (`TB`, `EA`), a seat's name where it has no colour (`p3`), and the
    example files' keys and option ids (`five_or_more`, `last_attack_sunk`).  Players'
    words are not matched: "red's torpedo B", "Roll 4 dice", "turn over slot 1"."""
    seats = "|".join(re.escape(name) for name in sorted(g.names, key=len, reverse=True))
    seat = rf"(?:{seats}|p[0-9]+)"
    grades = "".join(sorted({c.grade for c in g.cards.values()} | set("SABCDEFG")))
    parts = (
        rf"{_LEFT}first\s+{seat}{_RIGHT}",
        rf"{_LEFT}{seat}\s+place{_RIGHT}",
        rf"{_LEFT}{seat}\s+target\s+[0-9]+{_RIGHT}",
        # a roll's dice, not "roll 4 dice"
        rf"{_LEFT}roll(?:\s+[0-9]+)+{_RIGHT}(?!\s*(?:dice|die){_RIGHT})",
        rf"{_LEFT}[TE][{re.escape(grades)}]{_RIGHT}",
        rf"{_LEFT}p[0-9]+{_RIGHT}",
        r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+",
    )
    return re.compile("|".join(parts))
