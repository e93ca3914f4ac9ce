"""The actions and their notation.

Notation (one action per line):

    first orange           chance: who plays first (janken), when nothing decides it
    orange place T1 c1     a tile from hand, that face up, onto a square of the camp
    orange move c2 c3      one square orthogonally
    orange spin c3         a face-up tile's chosen ability: spin and tsunami name only the
    orange tsunami c1      tile using it; leap and diagonal also the square it goes to
    orange leap c4 a1
    orange diagonal c4 b3
    orange return c3       after the action: a tile of a row over the limit goes to hand
    orange pass            only when nothing else is legal (reconstructed)

A face is its ability's `code` and its value (`S4` Spin 4, `L2` Leap 2).  If one player's
set holds several tiles with the same face (possible when sets are combined, seed
section 7), `.k` picks the k-th of them in set order (`T3.2`).

Squares, faces and actions as text are `Squares2` methods, written here as functions of
the engine (`self`) and bound in its class body (`engine.py`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from rules_engine.core import NotationError

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2

# --- actions --------------------------------------------------------------------------------


class Start(NamedTuple):
    """Chance: who plays first (janken)."""

    player: int


class Place(NamedTuple):
    """A tile from hand (index in the player's set), face 0 (front) or 1 (back) up."""

    player: int
    tile: int
    face: int
    square: int


class Move(NamedTuple):
    """One square orthogonally."""

    player: int
    src: int
    dst: int


class Use(NamedTuple):
    """A face-up tile's chosen ability; `dst` is -1 for abilities without a target square."""

    player: int
    ability: str
    src: int
    dst: int


class Return(NamedTuple):
    """After the action: one of the player's tiles in a row over the limit goes to hand."""

    player: int
    square: int


class Pass(NamedTuple):
    """Nothing else is legal (reconstructed: the seed does not say)."""

    player: int


Action = Start | Place | Move | Use | Return | Pass


# --- notation ----------------------------------------------------------------------


def square_index(self: Squares2, name: str) -> int:
    try:
        return self._square_index[name]
    except KeyError:
        raise NotationError(
            f"unknown square '{name}' (squares a1 to {self.square_names[-1]})"
        ) from None


def face_index(self: Squares2, player: int, token: str) -> int:
    """The face index (tile * 2 + side) of a token like `T1` in a player's set."""
    found = self._token_to_face[player].get(token)
    if found is None:
        codes = self.fcode[player]
        if token in codes:  # several tiles show it: the token needs `.k`
            raise NotationError(
                f"{self.names[player]} has {codes.count(token)} tiles showing {token}: "
                f"write {token}.1 to {token}.{codes.count(token)}"
            )
        listing = " ".join(sorted(set(codes), key=codes.index))
        raise NotationError(f"{self.names[player]} has no tile face {token!r} (faces: {listing})")
    return found


def label(self: Squares2, player: int, face: int) -> str:
    """A tile as everyone sees it on the board: `orange T1`."""
    return f"{self.names[player]} {self.fcode[player][face]}"


def tile_text(self: Squares2, player: int, tile: int) -> str:
    """A tile as its owner sees it in hand: `S4/L2` (front/back)."""
    return f"{self.fcode[player][2 * tile]}/{self.fcode[player][2 * tile + 1]}"


def format_action(self: Squares2, action: Action) -> str:
    names = self.names
    sq = self.square_names
    if isinstance(action, Place):
        token = self.ftoken[action.player][2 * action.tile + action.face]
        return f"{names[action.player]} place {token} {sq[action.square]}"
    if isinstance(action, Move):
        return f"{names[action.player]} move {sq[action.src]} {sq[action.dst]}"
    if isinstance(action, Use):
        head = f"{names[action.player]} {action.ability} {sq[action.src]}"
        return head if action.dst < 0 else f"{head} {sq[action.dst]}"
    if isinstance(action, Return):
        return f"{names[action.player]} return {sq[action.square]}"
    if isinstance(action, Pass):
        return f"{names[action.player]} pass"
    if isinstance(action, Start):
        return f"first {names[action.player]}"
    raise TypeError(f"not a SQUARES II action: {action!r}")


def parse_action(self: Squares2, text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError("empty action")
    if words[0] == "first" and len(words) == 2:
        return Start(self.player_index(words[1]))
    if len(words) < 2:
        raise NotationError(f"cannot read {text!r}: an action starts with a player's name")
    p = self.player_index(words[0])
    verb, rest = words[1], words[2:]
    if verb == "place" and len(rest) == 2:
        face = self.face_index(p, rest[0])
        return Place(p, face >> 1, face & 1, self.square_index(rest[1]))
    if verb == "move" and len(rest) == 2:
        return Move(p, self.square_index(rest[0]), self.square_index(rest[1]))
    if verb == "return" and len(rest) == 1:
        return Return(p, self.square_index(rest[0]))
    if verb == "pass" and not rest:
        return Pass(p)
    if verb in self.abilities and len(rest) in (1, 2):
        ability = self.abilities[verb]
        needs_target = ability.effect in ("move-to-own-camp", "move-diagonal")
        if ability.continuous:
            raise NotationError(f"{verb} is a continuous ability: it is never used as an action")
        if needs_target != (len(rest) == 2):
            example = f"{words[0]} {verb} c3" + (" b4" if needs_target else "")
            raise NotationError(
                f"{verb} {'needs' if needs_target else 'takes no'} target square: like '{example}'"
            )
        dst = self.square_index(rest[1]) if needs_target else -1
        return Use(p, verb, self.square_index(rest[0]), dst)
    verbs = ", ".join(["place", "move", "return", "pass", *self.abilities])
    raise NotationError(
        f"cannot read {text!r}: expected 'NAME place FACE SQUARE', 'NAME move FROM TO', "
        f"'NAME ABILITY SQUARE [TO]', 'NAME return SQUARE', 'NAME pass' or 'first NAME' "
        f"(verbs: {verbs})"
    )


def notation_pattern(self: Squares2) -> re.Pattern[str]:
    """The notation as it would show in running text: any action (`orange move c2 c3`,
    `orange place T1 c1`, `first purple`), a face code (`T1`, `T3.2`, `S4/L2`) or a board
    tile as the queries write it (`orange T1`).  Square names alone (`c4`) are the board's
    coordinates, which players read off the diagrams: not notation."""
    edge, end = r"(?<![A-Za-z0-9_.])", r"(?![A-Za-z0-9_])"
    names = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
    last_column = chr(ord("a") + self.columns - 1)
    square = rf"[a-{last_column}][1-9][0-9]?"
    codes = "|".join(sorted({re.escape(a.code) for a in self.abilities.values()}))
    values = "|".join(str(v) for v in range(self.value_max, self.value_min - 1, -1))
    face = rf"(?:{codes})(?:{values})(?:\.[0-9]+)?"
    verbs = "|".join(re.escape(a) for a in sorted(self.abilities, key=len, reverse=True))
    action = (
        rf"(?:{names}) (?:place {face} {square}|move {square} {square}|return {square}"
        rf"|pass|(?:{verbs}) {square}(?: {square})?)"
    )
    start = rf"first (?:{names})(?! [A-Za-z])"
    tile = rf"(?:(?:{names}) )?{face}(?:/{face})?"
    return re.compile(rf"{edge}(?:{action}|{start}|{tile}){end}")
