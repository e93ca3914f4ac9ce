"""The abilities (能力, rule 5): what each one does, and the rules of using one.

A select ability is a face-up tile's action for the turn; its data `effect` says what it
does (`EFFECTS`): `flip-self` turns the tile over, `move-to-own-camp` moves it to another
square of its camp, `push-forward` pushes the tile in front of it further forward,
`move-diagonal` moves it diagonally.

Continuous abilities (常時能力): SQUARES II has none, but sets may be combined, so an
ability of kind `continuous` is a face whose rules are a `ContinuousEffect` (passed to the
engine by its effect name).  The engine asks every face-up continuous tile before a move
(rule 4-1), for the value a tile counts in a row total, and before a battle (rule 6-2).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import Bilingual, IllegalActionError
from rules_engine.squares2.actions import Use

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State

# Ability effects (data `effect`)
E_CONTINUOUS: Final = 0
E_FLIP: Final = 1
E_CAMP: Final = 2
E_PUSH: Final = 3
E_DIAGONAL: Final = 4
EFFECTS: Final = {
    "flip-self": E_FLIP,
    "move-to-own-camp": E_CAMP,
    "push-forward": E_PUSH,
    "move-diagonal": E_DIAGONAL,
}
PUSH_TARGETS: Final = ("adjacent-in-front",)


@dataclass(frozen=True)
class Ability:
    """An ability as the engine uses it (from game.yaml `rules.abilities`)."""

    id: str
    code: str
    name: Bilingual
    kind: str  # "select" | "continuous"
    effect: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def continuous(self) -> bool:
        return self.kind == "continuous"


@dataclass(frozen=True)
class TileInPlay:
    """A tile as a continuous ability sees it: where it is, whose, and its face up."""

    square: int
    owner: int
    ability: str
    value: int


@dataclass(frozen=True)
class Holder:
    """A continuous ability in play: the face-up tile that has it."""

    ability: Ability
    square: int
    owner: int


class ContinuousEffect:
    """The rules of one continuous ability (常時能力); the defaults change nothing.

    The engine asks every face-up continuous tile on the board, in square order: before a
    tile moves (rule 4-1: by a move, Leap, Diagonal or a Tsunami push), for the value each
    tile counts in its owner's row total, and for the value each tile fights with in a
    battle (rule 6-2).
    """

    def move_veto(
        self, state: Squares2State, holder: Holder, tile: TileInPlay, dst: int, how: str
    ) -> str | None:
        """A reason the move is not allowed, or None; `how` is move/leap/diagonal/tsunami."""
        return None

    def row_value(self, state: Squares2State, holder: Holder, tile: TileInPlay) -> int:
        return tile.value

    def battle_value(
        self, state: Squares2State, holder: Holder, tile: TileInPlay, arriving: bool
    ) -> int:
        return tile.value


class ValueBonus(ContinuousEffect):
    """A continuous ability stated in data (`effect: value-bonus`): while it is face up,
    every other tile in its row (`scope: row`, the default) or on the whole board
    (`scope: board`), whoever owns it, counts `amount` (default 1) more in its owner's row
    total.  No SQUARES II tile has it: a worked example states such a tile of another set
    (rule 7) in its setup, to show what the row limit does when both players go over."""

    def row_value(self, state: Squares2State, holder: Holder, tile: TileInPlay) -> int:
        if tile.square == holder.square:
            return tile.value
        params = holder.ability.params
        if params.get("scope", "row") == "row":
            columns = state.g.columns
            if tile.square // columns != holder.square // columns:
                return tile.value
        return tile.value + int(params.get("amount", 1))


# The continuous effects the engine knows by name without being given their rules.
BUILT_IN_EFFECTS: Final[Mapping[str, ContinuousEffect]] = {"value-bonus": ValueBonus()}


# --- using an ability -------------------------------------------------------------


def _check_use(self: Squares2State, p: int, action: Use) -> None:
    g = self.g
    face = self._own(p, action.src)
    up = g.fability[p][face]
    where = g.square_names[action.src]
    if action.ability != up:
        raise IllegalActionError(
            "5-3", f"the tile on {where} shows {g.fcode[p][face]} ({up}), not {action.ability}"
        )
    effect = g.feffect[p][face]
    name = g.abilities[up].name.en
    if effect == E_CONTINUOUS:
        raise IllegalActionError("5-1", f"{name} is a continuous ability: it is not used")
    if effect in (E_FLIP, E_PUSH):
        if action.dst != -1:
            raise IllegalActionError("5-3", f"{name} takes no target square")
        if effect == E_PUSH:
            error = self._push_error(p, action.src, face)
            if error:
                raise IllegalActionError("5-3", f"{name} on {where}: {error}")
        return
    dst = action.dst
    if not 0 <= dst < g.squares:
        raise IllegalActionError("5-3", f"{name} needs a target square")
    if effect == E_CAMP:
        if dst not in g.camp_squares[p] or dst == action.src:
            raise IllegalActionError(
                "5-3",
                f"{name} moves the tile to another square of the camp (row {g.camp[p] + 1})",
            )
    elif dst not in self._diagonals(action.src, g.fdistance[p][face], g.fjumps[p][face]):
        raise IllegalActionError(
            "5-3",
            f"{name} moves the tile {g.fdistance[p][face]} square(s) diagonally: "
            f"{where} to {g.square_names[dst]} is not one",
        )
    self._stack_error(p, dst)
    if g.ability_limited:
        self._limit_error(p, action.src, dst, g.move_max, "4-4")
    self._veto_error(action.src, dst, "leap" if effect == E_CAMP else "diagonal")


def _diagonals(self: Squares2State, src: int, distance: int, jumps: bool) -> tuple[int, ...]:
    """Squares `distance` away diagonally (up-left, up-right, down-right, down-left);
    without `jumps`, the squares between must be empty."""
    g = self.g
    if distance == 1 or jumps:
        return g.diagonal_table(distance)[src]
    at = g._at
    out = []
    for dc, dr in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        dst = at(src, dc * distance, dr * distance)
        if dst >= 0 and all(self.cell[at(src, dc * k, dr * k)] < 0 for k in range(1, distance)):
            out.append(dst)
    return tuple(out)


def _push_target(self: Squares2State, p: int, src: int, face: int) -> tuple[int, int]:
    """Tsunami: the square in front, and the square `distance` further (-1: off board)."""
    return self.g.push_table(p, self.g.fdistance[p][face])[src]


def _push_error(self: Squares2State, p: int, src: int, face: int) -> str | None:
    g = self.g
    target, dst = self._push_target(p, src, face)
    if target < 0 or self.cell[target] < 0:
        return "no tile is adjacent in front of it"
    pushed = self.cell[target]
    owner = pushed >> 7
    if owner != p and not g.push_any:
        return "the tile in front is the opponent's (tsunami_target: own)"
    if dst < 0:
        return "the tile in front would leave the board"
    fwd = g.forward[p]
    if not g.fjumps[p][face]:
        for k in range(1, g.fdistance[p][face]):
            if self.cell[g._at(target, 0, fwd * k)] >= 0:
                return "a tile is in the way (this ability does not jump)"
    there = self.cell[dst]
    if owner == p and there >= 0 and there >> 7 == p:
        return "your own tiles may not be stacked"
    if owner == p and g.ability_limited and (there < 0 or g.battle_checked):
        total = self._total_after(p, target, dst, pushed)
        if total > g.move_max:
            return f"row {dst // g.columns + 1} would total {total}, over the limit"
    if g.continuous:
        return self._veto(target, dst, "tsunami")
    return None


# --- continuous abilities ------------------------------------------------------------------


def continuous_in_play(self: Squares2State) -> list[str]:
    """The continuous abilities face up on the board, each once (rules 4-1 and 6-2)."""
    if not self.g.continuous:
        return []
    return list(dict.fromkeys(h.ability.id for h in self._holders()))


def _holders(self: Squares2State) -> list[Holder]:
    g = self.g
    out = []
    for sq, c in enumerate(self.cell):
        if c >= 0:
            p = c >> 7
            if g.feffect[p][c & 127] == E_CONTINUOUS:
                out.append(Holder(g.abilities[g.fability[p][c & 127]], sq, p))
    return out


def _value(self: Squares2State, square: int, c: int, arriving: bool | None) -> int:
    """The value a tile counts with: in its row (arriving None) or in a battle."""
    g = self.g
    p, f = c >> 7, c & 127
    value = g.fval[p][f]
    if not g.continuous:
        return value
    holders = self._holders()
    if arriving is not None and g.feffect[p][f] == E_CONTINUOUS:
        mine = Holder(g.abilities[g.fability[p][f]], square, p)
        if mine not in holders:
            holders.append(mine)
    for holder in holders:
        effect = g.effects[holder.ability.effect]
        tile = TileInPlay(square, p, g.fability[p][f], value)
        if arriving is None:
            value = effect.row_value(self, holder, tile)
        else:
            value = effect.battle_value(self, holder, tile, arriving)
    return value


def _veto(self: Squares2State, src: int, dst: int, how: str) -> str | None:
    g = self.g
    c = self.cell[src]
    tile = TileInPlay(src, c >> 7, g.fability[c >> 7][c & 127], g.fval[c >> 7][c & 127])
    for holder in self._holders():
        reason = g.effects[holder.ability.effect].move_veto(self, holder, tile, dst, how)
        if reason:
            return f"{holder.ability.name.en} at {g.square_names[holder.square]}: {reason}"
    return None
