"""The actions of S.U.B.Z.E.R.O., the phases they are taken in, and their notation.

Notation (one action per line; a simultaneous step joins actions with " ; "):

    youngest red                     chance: the youngest player (places first, starts turn 1)
    red place C2                     a pawn placed on a free square (setup)
    draw red roll shoot swish        chance: the cards a player draws (sorted, data order)
    reshuffle                        chance: the discards become the draw pile
    red program swish roll shoot     the 3 cards placed face down, left to right
    blue shoot NW                    a reveal, with the choices made at reveal:
    green shoot SE SE                  two balls (one per snowball held), each its direction
    red shoot                          a SHOOT with no snowball: no effect
    green move-2 W turn S              a move; "turn" names the edge turn when it can happen
    red move-shoot-1 move N shoot W    a combined card: its parts, keyword first
    red roll / red swish

Directions: N NE E SE S SW W NW (north is the board's top edge: row labels grow north,
column labels grow east).  Squares are column then row: "C2".

The action cards (`Card`) are the engine's reading of cards.yaml: each kind's actions (two for
a combined card) and a MOVE's steps.  `format_action` and `parse_action` take the engine, which
knows the players' names, the cards and the squares.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from rules_engine.core import NotationError

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero

# --- directions and actions ---------------------------------------------------------------

DIRECTIONS: Final = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL: Final = (0, 2, 4, 6)
DIRECTION_INDEX: Final = {d: i for i, d in enumerate(DIRECTIONS)}

MOVE: Final = "move"
SHOOT: Final = "shoot"
ROLL_: Final = "roll"
SWISH: Final = "swish"
KNOWN_ACTIONS: Final = (MOVE, SHOOT, ROLL_, SWISH)


class Youngest(NamedTuple):
    """Chance: the youngest player, who places first and starts turn 1."""

    player: int


class Place(NamedTuple):
    """A pawn placed on a free square during setup."""

    player: int
    square: int


class Draw(NamedTuple):
    """Chance: the cards a player draws (sorted in data order)."""

    player: int
    cards: tuple[str, ...]


class Reshuffle(NamedTuple):
    """Chance: the draw pile is empty, the discards are shuffled into a new one."""


class Program(NamedTuple):
    """A player's cards for slots 1..3, placed face down left to right."""

    player: int
    cards: tuple[str, ...]


class Reveal(NamedTuple):
    """A player turns up the card of the current slot and makes its choices."""

    player: int
    card: str
    move: int  # direction (N=0, E=2, S=4, W=6) or -1: no move
    turn: int  # the chosen edge turn (edge_turn=choose), or -1
    shots: tuple[int, ...] | None  # ball directions; () a SHOOT with no snowball; None: no SHOOT
    roll: bool
    swish: bool


Action = Youngest | Place | Draw | Reshuffle | Program | Reveal

Choices = tuple[tuple[Reveal, ...], tuple[tuple[int, int], ...], tuple[tuple[int, ...] | None, ...]]
"""A reveal's legal choices: listed actions, or (none listed) every move with every shot."""

# Phases
YOUNGEST: Final = 0
PLACE: Final = 1
DEAL: Final = 2
PROGRAM: Final = 3
REVEAL: Final = 4
OVER: Final = 5
PHASE_NAMES: Final = ("youngest", "place", "deal", "program", "reveal", "over")


@dataclass(frozen=True)
class Card:
    """An action card kind as the engine uses it (from cards.yaml)."""

    id: str
    index: int
    actions: tuple[str, ...]
    steps: int
    count: int

    @property
    def combined(self) -> bool:
        return len(self.actions) > 1


# --- notation --------------------------------------------------------------------------------


def format_action(g: Subzero, action: Action) -> str:
    if isinstance(action, Reveal):
        return reveal_text(g, action)
    if isinstance(action, Program):
        return f"{g.names[action.player]} program " + " ".join(action.cards)
    if isinstance(action, Draw):
        return f"draw {g.names[action.player]} " + " ".join(action.cards)
    if isinstance(action, Reshuffle):
        return "reshuffle"
    if isinstance(action, Place):
        return f"{g.names[action.player]} place {g.square_names[action.square]}"
    if isinstance(action, Youngest):
        return f"youngest {g.names[action.player]}"
    raise TypeError(f"not a S.U.B.Z.E.R.O. action: {action!r}")


def reveal_text(g: Subzero, r: Reveal) -> str:
    card = g.cards[g.card_index[r.card]] if r.card in g.card_index else None
    words = [g.names[r.player], r.card]
    parts: list[list[str]] = []
    order = card.actions if card else KNOWN_ACTIONS
    for a in order:
        if a == MOVE and r.move >= 0:
            part = [MOVE, DIRECTIONS[r.move]]
            if r.turn >= 0:
                part += ["turn", DIRECTIONS[r.turn]]
            parts.append(part)
        elif a == SHOOT and r.shots is not None:
            parts.append([SHOOT, *(DIRECTIONS[d] for d in r.shots)])
        elif a == ROLL_ and r.roll:
            parts.append([ROLL_])
        elif a == SWISH and r.swish:
            parts.append([SWISH])
    if card is not None and not card.combined and len(parts) == 1:
        words += parts[0][1:]
    else:
        for part in parts:
            words += part
    return " ".join(words)


def parse_action(g: Subzero, text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError("empty action")
    head = words[0]
    if head == "reshuffle" and len(words) == 1:
        return Reshuffle()
    if head == "youngest" and len(words) == 2:
        return Youngest(g.player_index(words[1]))
    if head == "draw" and len(words) >= 3:
        player = g.player_index(words[1])
        for w in words[2:]:
            _card(g, w)
        return Draw(player, tuple(sorted(words[2:], key=g.card_index.__getitem__)))
    if len(words) >= 2 and words[1] == "place":
        if len(words) != 3:
            raise NotationError("a placement is 'NAME place SQUARE', like 'red place C2'")
        return Place(g.player_index(head), _square(g, words[2]))
    if len(words) >= 2 and words[1] == "program":
        player = g.player_index(head)
        for w in words[2:]:
            _card(g, w)
        return Program(player, tuple(words[2:]))
    if len(words) >= 2 and head in g._player_index:
        return _parse_reveal(g, g.player_index(head), words[1], words[2:])
    raise NotationError(
        f"cannot read {text!r}: expected 'youngest NAME', 'NAME place SQUARE', "
        "'draw NAME CARDS...', 'reshuffle', 'NAME program CARDS...' or a reveal "
        "like 'NAME shoot NW'"
    )


def _card(g: Subzero, word: str) -> Card:
    index = g.card_index.get(word)
    if index is None:
        raise NotationError(f"unknown card '{word}' (cards: {', '.join(g.card_ids)})")
    return g.cards[index]


def _square(g: Subzero, word: str) -> int:
    s = g.square_index.get(word)
    if s is None:
        raise NotationError(
            f"unknown square '{word}' (columns {g.column_labels[0]}-"
            f"{g.column_labels[-1]}, rows {g.row_labels[0]}-{g.row_labels[-1]})"
        )
    return s


def _direction(word: str) -> int:
    d = DIRECTION_INDEX.get(word)
    if d is None:
        raise NotationError(f"unknown direction '{word}' (directions: {' '.join(DIRECTIONS)})")
    return d


def _parse_reveal(g: Subzero, player: int, card_id: str, rest: list[str]) -> Reveal:
    card = _card(g, card_id)
    if not card.combined:
        rest = [card.actions[0], *rest]
    move = turn = -1
    shots: tuple[int, ...] | None = None
    roll = swish = False
    i = 0
    seen: set[str] = set()
    while i < len(rest):
        word = rest[i]
        if word not in card.actions:
            raise NotationError(
                f"'{word}': card {card.id} has {' and '.join(card.actions)} "
                f"(a reveal is like '{g.names[player]} {card.id} ...')"
            )
        if word in seen:
            raise NotationError(f"'{word}' twice in one reveal")
        seen.add(word)
        i += 1
        args: list[str] = []
        while i < len(rest) and rest[i] not in KNOWN_ACTIONS:
            args.append(rest[i])
            i += 1
        if word == MOVE:
            if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "turn"):
                raise NotationError("a move is 'DIRECTION' or 'DIRECTION turn DIRECTION'")
            move = _direction(args[0])
            if len(args) == 3:
                turn = _direction(args[2])
        elif word == SHOOT:
            shots = tuple(sorted(_direction(a) for a in args))
        elif args:
            raise NotationError(f"'{word}' takes no choices, got {' '.join(args)}")
        elif word == ROLL_:
            roll = True
        else:
            swish = True
    return Reveal(player, card.id, move, turn, shots, roll, swish)


# --- the notation in running text ---------------------------------------------------------


def notation_pattern(g: Subzero) -> re.Pattern[str]:
    """The notation as it would appear in running text: every action `format_action`
    writes (`blue shoot NW`, `green move-2 W turn S`, `draw red roll shoot swish`, `red
    program swish roll shoot`, `red place C2`, `youngest red`, `reshuffle` alone on a
    line), the card ids that are codes (`move-3`, `shoot-swish`), the queries' codes
    (`blue>green`, `B4-B3`) and rule option ids (`end_square`).  Players' words do not
    match: card titles (`MOVE 3`, `Shoot`), colour names (`Red`, `blue`), square names
    (`D4`), directions in words."""
    names = _alternatives(g.names)
    cards = _alternatives(g.card_ids)
    coded = _alternatives(c for c in g.card_ids if not c.isalpha())
    square = f"(?:{_alternatives(g.column_labels)})(?:{_alternatives(g.row_labels)})"
    direction = _alternatives(DIRECTIONS)
    words = _alternatives((*KNOWN_ACTIONS, "turn", *DIRECTIONS))
    edge = r"(?<![\w-])"
    end = r"(?![\w-])"
    forms = (
        rf"youngest (?:{names})",
        rf"(?:{names}) place {square}",
        rf"draw (?:{names})(?: (?:{cards}))+",
        rf"(?:{names}) program(?: (?:{cards}))+",
        # a reveal: the card, then its choices (a bare "red roll" too)
        rf"(?:{names}) (?:{cards})(?: (?:{words}))*",
        rf"(?:{coded})",
        rf"(?:{names})>(?:{names})",
        rf"{square}(?:-{square})+",
        rf"(?:{direction}) turn (?:{direction})",
        r"[a-z]+(?:_[a-z]+)+",
    )
    return re.compile("|".join(f"{edge}{f}{end}" for f in forms) + r"|(?m:^[ \t]*reshuffle[ \t]*$)")


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation of the words, longest first (so `move-shoot-1` wins over
    `move`)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))
