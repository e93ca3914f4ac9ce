"""SQUARES II (スクエアーズ2, ばろぬ / GOTTA2 2014): the complete rules engine.

Every number comes from the game's data (`components/squares2/`): the board (columns, rows,
centre row, camps), the row limit, the centre squares needed to win, the abilities (their
effect, distance, target, whether they jump) and each player's ten tiles (tiles.yaml, one
deck per player).  Rule numbers in error messages follow the seed's sections (1 setup,
2 turn, 3 placing, 4 moving, 5 abilities, 6 battles, 7 combined sets).

Squares are named by a column letter and a row number, `a1`..`e5`; rows are counted from
orange's side: row 1 is orange's camp, row 5 purple's (`rules.board.camp_rows`: `first` and
`second` are the two player sets in deck order).  "Left" and "right" are orange's.

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

Continuous abilities (常時能力): SQUARES II has none, but sets may be combined, so an
ability of kind `continuous` is a face whose rules are a `ContinuousEffect` (passed to the
engine by its effect name).  The engine asks every face-up continuous tile before a move
(rule 4-1), for the value a tile counts in a row total, and before a battle (rule 6-2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    Bilingual,
    Diagram,
    DiagramCell,
    DiagramGrid,
    EngineBase,
    IllegalActionError,
    NotationError,
    SetupError,
    Step,
    TurnStateBase,
    format_step,
)
from rules_engine.params import GameData

GAME_ID: Final = "squares2"

# --- rule options: every ambiguity of the seed, made explicit ------------------------------

# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "place_limit",
    "move_limit",
    "ability_move_limit",
    "battle_entry_limit",
    "forward",
    "tsunami_target",
    "owner_sees_board_backs",
    "games",
    "turn_limit",
)

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

# Phases
START: Final = 0
TURN: Final = 1
RETURN: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("first", "turn", "return", "over")

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
EMPTY: Final = -1
# Kinds of the engine's compact turn choices (see Squares2State._choices)
MOVE: Final = 0
USE: Final = 1
PASS: Final = 2


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
class Face:
    ability: str
    value: int


@dataclass(frozen=True)
class Tile:
    """One double-sided tile: front (表) and back (裏)."""

    id: str
    front: Face
    back: Face

    def face(self, side: int) -> Face:
        return self.back if side else self.front


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


@dataclass(frozen=True)
class Battle:
    """One battle: where, the tile that came and the one that was there, the outcome."""

    square: int
    arriving: tuple[int, int]  # (owner, face index)
    there: tuple[int, int]
    values: tuple[int, int]  # the values they fought with (arriving, there)


@dataclass(frozen=True)
class Squares2View:
    """What one player can know: faces up on the board, their own hand, the fronts of the
    opponent's hand; backs of board tiles only if the options let the owner look."""

    player: str
    phase: str
    to_act: tuple[str, ...]
    turn: int
    board: tuple[tuple[str, str, str] | None, ...]  # (owner, face up, face down or "?")
    hand: tuple[str, ...]  # own tiles, front/back
    other_hands: tuple[tuple[str, tuple[str, ...]], ...]  # (player, fronts)
    results: tuple[str, ...]
    log: tuple[str, ...]


def tile_specs_of_deck(game: GameData, deck_id: str) -> list[dict[str, Any]]:
    """A player's set from a game's data: `{id, front: {ability, value}, back: {...}}`.

    Sets of other SQUARES games (seed section 7) are read the same way and may be mixed.
    """
    specs: list[dict[str, Any]] = []
    for piece in game.pieces:
        if piece.deck is None or piece.deck.id != deck_id:
            continue
        values = piece.component.values
        if "front" in values and "back" in values:
            specs.append({"id": piece.component.id, **values})
    return specs


class Squares2(EngineBase):
    """SQUARES II under one rule version and one set of rule options.

    `sets` (player name -> tile specs, as `tile_specs_of_deck` gives) combines tile sets
    (seed section 7); `abilities` adds ability definitions in game.yaml's format; `effects`
    gives the rules of continuous abilities by their `effect` name.
    """

    GAME_ID = GAME_ID
    TITLE = "SQUARES II"
    OPTION_NAMES = OPTION_NAMES

    def __init__(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
        *,
        sets: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
        abilities: Mapping[str, Mapping[str, Any]] | None = None,
        effects: Mapping[str, ContinuousEffect] | None = None,
    ) -> None:
        params = self._load_rules(game, version, options)
        board = params["board"]
        self.columns = int(board["columns"])
        self.rows = int(board["rows"])
        if not 1 <= self.columns <= 26 or self.rows < 3:
            raise ValueError(f"board {self.columns} x {self.rows} is not playable")
        self.centre_row = int(board["centre_row"]) - 1
        self.limit = int(params["row_limit"])
        self.win_squares = int(params["win_centre_squares"])
        self.tiles_per_set = int(params["tiles_per_set"])
        self.move_distance = int(params.get("move_distance", 1))
        values = params["values"]
        self.value_min, self.value_max = int(values["min"]), int(values["max"])
        for key, want in (("actions_per_turn", 1), ("own_stacking", False)):
            if key in params and params[key] != want:
                raise ValueError(f"rules.{key}: only {want!r} is supported, got {params[key]!r}")
        battle = params.get("battle", {})
        for key in ("higher_stays", "equal_both_return", "row_limits_ignored"):
            if battle.get(key, True) is not True:
                raise ValueError(f"rules.battle.{key}: only true is supported")
        for key, option in (
            ("place_blocked_when", "place_limit"),
            ("move_blocked_when", "move_limit"),
        ):
            stated = params.get(key)
            allowed = self.declared_option(option).allowed
            if stated is not None and stated not in allowed:
                raise ValueError(f"rules.{key} is {stated!r}, expected one of {allowed}")
        self.backs_hidden = bool(params.get("backs_hidden_on_board", True))
        self.winner_plays_second = bool(params.get("winner_plays_second", True))

        deck_ids = list(game.decks)
        if len(deck_ids) != 2:
            raise ValueError(f"squares2 needs two decks (the player sets), found {len(deck_ids)}")
        self._set_players(tuple(deck_ids))
        self.display: tuple[Bilingual, ...] = tuple(
            Bilingual(game.decks[d].name.ja, game.decks[d].name.en) for d in deck_ids
        )
        camps = board["camp_rows"]
        self.camp = (int(camps["first"]) - 1, int(camps["second"]) - 1)
        for r in self.camp:
            if not 0 <= r < self.rows:
                raise ValueError(f"camp row {r + 1} is off the {self.rows}-row board")
        if self.camp[0] == self.camp[1]:
            raise ValueError("the two camps are on the same row")
        towards = 1 if self.camp[1] > self.camp[0] else -1
        if self._options["forward"] == "towards_opponent":
            self.forward = (towards, -towards)
        else:  # up on the board as drawn, orange (first set) at the bottom
            self.forward = (towards, towards)

        # Abilities
        raw_abilities: dict[str, Mapping[str, Any]] = dict(params.get("abilities", {}))
        raw_abilities.update(abilities or {})
        self.abilities: dict[str, Ability] = {}
        codes: dict[str, str] = {}
        for ability_id, spec in raw_abilities.items():
            name = spec.get("name", {})
            ability = Ability(
                ability_id,
                str(spec.get("code", "")),
                Bilingual(str(name.get("ja", ability_id)), str(name.get("en", ability_id))),
                str(spec.get("kind", "select")),
                str(spec.get("effect", "")),
                {k: v for k, v in spec.items() if k not in ("name", "summary")},
            )
            if not ability.code.isalpha():
                raise ValueError(
                    f"ability {ability_id}: 'code' must be letters, got {ability.code!r}"
                )
            if ability.code in codes:
                raise ValueError(
                    f"abilities {codes[ability.code]} and {ability_id} share the code {ability.code}"
                )
            codes[ability.code] = ability_id
            if ability_id in ("place", "move", "return", "pass", "first"):
                raise ValueError(f"ability id {ability_id!r} is a word of the notation")
            if ability.kind == "select":
                if ability.effect not in EFFECTS:
                    raise ValueError(
                        f"ability {ability_id}: unknown effect {ability.effect!r} "
                        f"(known: {', '.join(EFFECTS)})"
                    )
                if (
                    ability.effect == "push-forward"
                    and spec.get("target", PUSH_TARGETS[0]) not in PUSH_TARGETS
                ):
                    raise ValueError(f"ability {ability_id}: unknown target {spec.get('target')!r}")
            elif ability.kind != "continuous":
                raise ValueError(f"ability {ability_id}: kind must be select or continuous")
            self.abilities[ability_id] = ability
        self._code_to_ability = codes
        self.effects: dict[str, ContinuousEffect] = dict(effects or {})

        # Tile sets
        if sets is None:
            sets = {name: tile_specs_of_deck(game, name) for name in self.names}
        self.sets: tuple[tuple[Tile, ...], ...] = tuple(
            self._read_set(name, sets.get(name, [])) for name in self.names
        )
        self.continuous = False
        for tiles in self.sets:
            for tile in tiles:
                for side in (tile.front, tile.back):
                    ability = self.abilities[side.ability]
                    if ability.continuous:
                        self.continuous = True
                        if ability.effect not in self.effects:
                            raise ValueError(
                                f"continuous ability {ability.id}: no rules given for its "
                                f"effect {ability.effect!r}"
                            )

        # Hot-path tables, per player, indexed by face index tile * 2 + side.
        self.fval: tuple[tuple[int, ...], ...] = tuple(
            tuple(t.face(s).value for t in tiles for s in (0, 1)) for tiles in self.sets
        )
        self.fability: tuple[tuple[str, ...], ...] = tuple(
            tuple(t.face(s).ability for t in tiles for s in (0, 1)) for tiles in self.sets
        )
        self.feffect: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                E_CONTINUOUS if self.abilities[a].continuous else EFFECTS[self.abilities[a].effect]
                for a in abilities_
            )
            for abilities_ in self.fability
        )
        self.fdistance = tuple(
            tuple(int(self.abilities[a].params.get("distance", 1)) for a in abilities_)
            for abilities_ in self.fability
        )
        self.fjumps = tuple(
            tuple(bool(self.abilities[a].params.get("jumps", False)) for a in abilities_)
            for abilities_ in self.fability
        )
        self.fcode: tuple[tuple[str, ...], ...] = tuple(
            tuple(self.abilities[a].code + str(v) for a, v in zip(ab, vals, strict=True))
            for ab, vals in zip(self.fability, self.fval, strict=True)
        )
        # Notation tokens: the face code, `.k` when the player's set repeats that face.
        self.ftoken: list[tuple[str, ...]] = []
        self._token_to_face: list[dict[str, int]] = []
        for p in range(2):
            tokens: list[str] = []
            lookup: dict[str, int] = {}
            codes_p = self.fcode[p]
            for i, code in enumerate(codes_p):
                same = [j for j, c in enumerate(codes_p) if c == code]
                token = code if len(same) == 1 else f"{code}.{same.index(i) + 1}"
                tokens.append(token)
                lookup[token] = i
            self.ftoken.append(tuple(tokens))
            self._token_to_face.append(lookup)
        self.full_hand = (1 << self.tiles_per_set) - 1

        # Board geometry: square = row * columns + column (both 0-based).
        cols, rows = self.columns, self.rows
        self.squares = cols * rows
        self.row_of = tuple(s // cols for s in range(self.squares))
        self.row_squares = tuple(tuple(range(r * cols, (r + 1) * cols)) for r in range(rows))
        self.camp_squares = (self.row_squares[self.camp[0]], self.row_squares[self.camp[1]])
        self.square_names = tuple(
            f"{chr(ord('a') + s % cols)}{s // cols + 1}" for s in range(self.squares)
        )
        self._square_index = {n: i for i, n in enumerate(self.square_names)}
        step = self.move_distance

        def at(s: int, dc: int, dr: int) -> int:
            c, r = s % cols + dc, s // cols + dr
            return r * cols + c if 0 <= c < cols and 0 <= r < rows else -1

        self.orthogonal = tuple(
            tuple(
                t
                for t in (at(s, 0, step), at(s, step, 0), at(s, 0, -step), at(s, -step, 0))
                if t >= 0
            )
            for s in range(self.squares)
        )
        self._at = at
        self.steps = tuple(
            tuple((t, self.row_of[t], self.row_of[t] == self.row_of[s]) for t in self.orthogonal[s])
            for s in range(self.squares)
        )
        self._hand_faces: dict[int, tuple[int, ...]] = {}
        self._fitting: dict[tuple[int, int, int], tuple[tuple[int, bool], ...]] = {}
        self._diagonal_tables: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._push_tables: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.centre_squares = self.row_squares[self.centre_row]
        self.place_max = self.limit - 1 if self._options["place_limit"] == "reach" else self.limit
        self.move_max = self.limit - 1 if self._options["move_limit"] == "reach" else self.limit
        self.ability_limited = self._options["ability_move_limit"] == "as_move"
        self.battle_checked = self._options["battle_entry_limit"] == "checked"
        self.push_any = self._options["tsunami_target"] == "any"
        self.owner_sees_backs = bool(self._options["owner_sees_board_backs"])
        self.games = int(self._options["games"])
        self.turn_limit = int(self._options["turn_limit"])

    def push_table(self, player: int, distance: int) -> tuple[tuple[int, int], ...]:
        """Per square: the square in front of it for the player, and the square `distance`
        further forward (-1 when off the board)."""
        key = (player, distance)
        table = self._push_tables.get(key)
        if table is None:
            at = self._at
            fwd = self.forward[player]
            rows: list[tuple[int, int]] = []
            for s in range(self.squares):
                target = at(s, 0, fwd)
                rows.append((target, at(target, 0, fwd * distance) if target >= 0 else -1))
            table = tuple(rows)
            self._push_tables[key] = table
        return table

    def diagonal_table(self, distance: int) -> tuple[tuple[int, ...], ...]:
        """Per square, the squares `distance` away diagonally (on the board)."""
        table = self._diagonal_tables.get(distance)
        if table is None:
            at = self._at
            table = tuple(
                tuple(
                    t
                    for t in (
                        at(s, -distance, distance),
                        at(s, distance, distance),
                        at(s, distance, -distance),
                        at(s, -distance, -distance),
                    )
                    if t >= 0
                )
                for s in range(self.squares)
            )
            self._diagonal_tables[distance] = table
        return table

    def fitting_faces(self, player: int, hand: int, room: int) -> tuple[tuple[int, bool], ...]:
        """The faces of a hand bitmask, each with whether its printed value is <= room."""
        key = (player, hand, room)
        found = self._fitting.get(key)
        if found is None:
            vals = self.fval[player]
            found = tuple((face, vals[face] <= room) for face in self.hand_faces(hand))
            self._fitting[key] = found
        return found

    def hand_faces(self, hand: int) -> tuple[int, ...]:
        """The faces (tile * 2 + side) of a hand bitmask, in set order, front then back."""
        found = self._hand_faces.get(hand)
        if found is None:
            found = tuple(
                face
                for t in range(self.tiles_per_set)
                if hand >> t & 1
                for face in (2 * t, 2 * t + 1)
            )
            self._hand_faces[hand] = found
        return found

    def _read_set(self, name: str, specs: Sequence[Mapping[str, Any]]) -> tuple[Tile, ...]:
        """One player's tiles, checked against rule 7-1 (two groups of the values 1-5)."""
        tiles: list[Tile] = []
        for i, spec in enumerate(specs):
            faces = []
            for side in ("front", "back"):
                face = spec.get(side)
                if not isinstance(face, Mapping):
                    raise ValueError(f"{name} tile {i + 1}: no {side} {{ability, value}}")
                ability = str(face.get("ability"))
                if ability not in self.abilities:
                    raise ValueError(f"{name} tile {i + 1}: unknown ability {ability!r}")
                value = int(face["value"])
                if not self.value_min <= value <= self.value_max:
                    raise ValueError(
                        f"{name} tile {i + 1}: value {value} is outside "
                        f"{self.value_min}-{self.value_max}"
                    )
                faces.append(Face(ability, value))
            tiles.append(Tile(str(spec.get("id", f"tile-{i + 1}")), faces[0], faces[1]))
        if len(tiles) != self.tiles_per_set:
            raise ValueError(
                f"{name} has {len(tiles)} tiles, a set is {self.tiles_per_set} (rules.tiles_per_set)"
            )
        span = self.value_max - self.value_min + 1
        groups, rest = divmod(self.tiles_per_set, span)
        if rest == 0:
            for side in ("front", "back"):
                got = sorted(t.front.value if side == "front" else t.back.value for t in tiles)
                want = sorted(list(range(self.value_min, self.value_max + 1)) * groups)
                if got != want:
                    raise ValueError(
                        f"rule 7-1: {name}'s {side} values must be {groups} groups of "
                        f"{self.value_min}-{self.value_max}, got {' '.join(map(str, got))}"
                    )
        return tuple(tiles)

    # --- Engine protocol ---------------------------------------------------------------------

    def square_index(self, name: str) -> int:
        try:
            return self._square_index[name]
        except KeyError:
            raise NotationError(
                f"unknown square '{name}' (squares a1 to {self.square_names[-1]})"
            ) from None

    def face_index(self, player: int, token: str) -> int:
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
            raise NotationError(
                f"{self.names[player]} has no tile face {token!r} (faces: {listing})"
            )
        return found

    def label(self, player: int, face: int) -> str:
        """A tile as everyone sees it on the board: `orange T1`."""
        return f"{self.names[player]} {self.fcode[player][face]}"

    def tile_text(self, player: int, tile: int) -> str:
        """A tile as its owner sees it in hand: `S4/L2` (front/back)."""
        return f"{self.fcode[player][2 * tile]}/{self.fcode[player][2 * tile + 1]}"

    def new_initial_state(self) -> Squares2State:
        return Squares2State(self)

    def format_action(self, action: Action) -> str:
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

    def parse_action(self, text: str) -> Action:
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
                raise NotationError(
                    f"{verb} is a continuous ability: it is never used as an action"
                )
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

    # --- setup for worked examples ----------------------------------------------------------

    SETUP_KEYS: Final = ("first", "to_move", "last_winner", "board", "turn")

    def setup_state(self, setup: Mapping[str, Any]) -> Squares2State:
        """A state from an example's setup.

        `first`: who played first this game; `to_move`: who acts now (default: `first`);
        `last_winner`: the last game's winner, who plays second (instead of `first`);
        `board`: {square: "orange T1"} (every other tile is in its owner's hand);
        `turn`: turns already played (default 0).  With none of `first`, `to_move`,
        `last_winner`, the game starts with the chance step deciding the first player.
        """
        for given in setup:
            if given not in self.SETUP_KEYS:
                raise SetupError(
                    (given,), f"unknown setup key '{given}' (known: {', '.join(self.SETUP_KEYS)})"
                )
        state = Squares2State(self)
        first = None
        if "last_winner" in setup:
            if "first" in setup:
                raise SetupError(("first",), "give 'first' or 'last_winner', not both")
            first = 1 - self._setup_player(setup["last_winner"], ("last_winner",))
            state.last_winner = 1 - first
        if "first" in setup:
            first = self._setup_player(setup["first"], ("first",))
        to_move = first
        if "to_move" in setup:
            to_move = self._setup_player(setup["to_move"], ("to_move",))
            if first is None:
                first = to_move
        board = setup.get("board", {})
        if not isinstance(board, Mapping):
            raise SetupError(("board",), "board maps squares to tiles, like {c1: orange T1}")
        for square, text in board.items():
            key: tuple[str | int, ...] = ("board", square)
            sq = self._square_index.get(str(square))
            if sq is None:
                raise SetupError(key, f"unknown square {square!r}")
            words = str(text).split()
            if len(words) != 2:
                raise SetupError(key, f"a tile is 'PLAYER FACE', like 'orange T1', got {text!r}")
            p = self._setup_player(words[0], key)
            try:
                face = self.face_index(p, words[1])
            except NotationError as exc:
                raise SetupError(key, str(exc)) from None
            bit = 1 << (face >> 1)
            if not state.hand[p] & bit:
                raise SetupError(
                    key, f"{words[0]}'s tile {self.tile_text(p, face >> 1)} is placed twice"
                )
            state.hand[p] &= ~bit
            state.cell[sq] = p << 7 | face
        state._retotal()
        for p in range(2):
            over = state.rows_over(p)
            if over:
                raise SetupError(
                    ("board",),
                    f"{self.names[p]}'s row {over[0] + 1} totals {state.row_total(p, over[0])}, "
                    f"over the limit {self.limit}",
                )
            if state.centre_count(p) >= self.win_squares:
                raise SetupError(("board",), f"{self.names[p]} has already won")
        turn = setup.get("turn", 0)
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise SetupError(("turn",), f"turn must be a whole number, got {turn!r}")
        state.turn = turn
        if first is not None and to_move is not None:
            state.first = first
            state.to_move = to_move
            state.phase = TURN
        elif board:
            raise SetupError(("board",), "a board needs 'to_move' (who acts now)")
        state.init = state._snapshot()
        return state

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = (
        "phase",
        "to_move",
        "turn",
        "first",
        "board",
        "hands",
        "hand_sizes",
        "row_totals",
        "centre",
        "over_limit",
        "battles",
        "returned",
        "winner",
        "results",
    )

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, Squares2State):
            raise TypeError("not a SQUARES II state")
        s = state
        names = self.names
        if name == "phase":
            return PHASE_NAMES[s.phase]
        if name == "to_move":
            return names[s.to_move] if s.phase in (TURN, RETURN) else None
        if name == "turn":
            return s.turn
        if name == "first":
            return names[s.first] if s.first >= 0 else None
        if name == "board":
            return {
                self.square_names[sq]: self.label(c >> 7, c & 127)
                for sq, c in enumerate(s.cell)
                if c >= 0
            }
        if name == "hands":
            return {names[p]: [self.tile_text(p, t) for t in s.hand_tiles(p)] for p in range(2)}
        if name == "hand_sizes":
            return {names[p]: len(s.hand_tiles(p)) for p in range(2)}
        if name == "row_totals":
            return {names[p]: [s.row_total(p, r) for r in range(self.rows)] for p in range(2)}
        if name == "centre":
            return {names[p]: s.centre_count(p) for p in range(2)}
        if name == "over_limit":
            return {names[p]: [r + 1 for r in s.rows_over(p)] for p in range(2)}
        if name == "battles":
            return [self.battle_text(b) for b in s.battles]
        if name == "returned":
            return [self.label(p, f) for p, f in s.returned]
        if name == "winner":
            return s.winner_name()
        if name == "results":
            return [names[w] if w >= 0 else "draw" for w in s.results]
        raise KeyError(name)

    def battle_text(self, b: Battle) -> str:
        a = self.label(*b.arriving)
        t = self.label(*b.there)
        va, vt = b.values
        where = self.square_names[b.square]
        if va > vt:
            return f"{where}: {a} beats {t}"
        if va < vt:
            return f"{where}: {a} loses to {t}"
        return f"{where}: {a} ties {t}, both return"

    def diagram(self, state: Any) -> Diagram:
        """The board seen from orange's side (row 1 at the bottom), and both hands.

        Tiles read ▲ (orange) or ▼ (purple) and their face up; squares the last action
        touched are marked `active`, other tiles carry their owner's name as the mark."""
        if not isinstance(state, Squares2State):
            raise TypeError("not a SQUARES II state")
        s = state
        arrows = ("▲", "▼")
        ja, en = [d.ja for d in self.display], [d.en for d in self.display]
        legend_ja = " ".join(f"{a.code}={a.name.ja}" for a in self.abilities.values())
        legend_en = ", ".join(f"{a.code} {a.name.en}" for a in self.abilities.values())
        touched = s.touched
        rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
        for r in reversed(range(self.rows)):
            cells = []
            for sq in self.row_squares[r]:
                c = s.cell[sq]
                mark = "active" if sq in touched else ""
                if c < 0:
                    cells.append(DiagramCell("", mark))
                else:
                    p = c >> 7
                    cells.append(
                        DiagramCell(arrows[p] + self.fcode[p][c & 127], mark or self.names[p])
                    )
            role_ja, role_en = "", ""
            if r == self.centre_row:
                role_ja, role_en = " 中央", " centre"
            for p in range(2):
                if r == self.camp[p]:
                    role_ja, role_en = f" {ja[p]}の陣", f" {en[p]}'s camp"
            rows.append(({"ja": f"{r + 1}{role_ja}", "en": f"{r + 1}{role_en}"}, tuple(cells)))
        board = DiagramGrid(
            {
                "ja": f"盤面(▲{ja[0]} ▼{ja[1]}、{legend_ja})",
                "en": f"Board (▲ {en[0]}, ▼ {en[1]}; {legend_en})",
            },
            tuple(chr(ord("a") + c) for c in range(self.columns)),
            tuple(rows),
        )
        hands = DiagramGrid(
            {"ja": "手元のコマ(表/裏)", "en": "Tiles in hand (front/back)"},
            tuple(str(i + 1) for i in range(self.tiles_per_set)),
            tuple(
                (
                    {"ja": ja[p], "en": en[p]},
                    tuple(
                        DiagramCell(self.tile_text(p, t), self.names[p]) for t in s.hand_tiles(p)
                    ),
                )
                for p in range(2)
            ),
        )
        return (board, hands)


class Squares2State(TurnStateBase[Action, Squares2]):
    """A position of SQUARES II (mutable; see `rules_engine.core.State`).

    `cell[square]` is -1 (empty) or `player << 7 | face` with face = tile * 2 + side up;
    `hand[player]` has bit `tile` set for each tile in that player's hand.
    """

    OVER_RULE = "2-3"
    JOINT_RULE = "2-1"
    ONE_AT_A_TIME = "one player acts at a time in SQUARES II, got {n} actions"

    __slots__ = (
        "_history",
        "battles",
        "cell",
        "first",
        "g",
        "hand",
        "init",
        "last_winner",
        "passes",
        "phase",
        "results",
        "returned",
        "returners",
        "sets",
        "to_move",
        "tot",
        "touched",
        "turn",
        "winner",
    )

    def __init__(self, engine: Squares2) -> None:
        g = engine
        self.g = g
        self.sets = g.sets  # the tiles as the view shows them (tests may vary hidden faces)
        self._history: list[Step[Action]] = []
        self.results: list[int] = []  # per finished game: the winner, or -1 for a draw
        self.last_winner = -1
        self._new_game(-1)
        self.init: tuple[Any, ...] = self._snapshot()

    def _new_game(self, first: int) -> None:
        g = self.g
        self.cell: list[int] = [EMPTY] * g.squares
        self.hand: list[int] = [g.full_hand, g.full_hand]
        # Each player's total of printed values per row, kept as tiles come and go.
        self.tot: list[list[int]] = [[0] * g.rows, [0] * g.rows]
        self.turn = 0
        self.passes = 0
        self.winner = -1
        self.returners: list[int] = []
        self.battles: list[Battle] = []
        self.returned: list[tuple[int, int]] = []
        self.touched: tuple[int, ...] = ()
        if first < 0:
            self.first = -1
            self.to_move = -1
            self.phase = START
        else:
            self.first = first
            self.to_move = first
            self.phase = TURN

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self.cell),
            tuple(self.hand),
            self.first,
            self.to_move,
            self.phase,
            self.turn,
            self.last_winner,
        )

    # --- protocol ----------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return 2

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TURN:
            return (self.to_move,)
        if phase == RETURN:
            return (self.returners[0],)
        if phase == START:
            return (CHANCE,)
        return ()

    def legal_actions(self, player: int) -> Sequence[Action]:
        if player not in self.current_players():
            return []
        phase = self.phase
        if phase == START:
            return [Start(0), Start(1)]
        if phase == RETURN:
            return [Return(player, sq) for sq in self.returnable(player)]
        places, others = self._choices()
        out: list[Action] = [
            Place(player, face >> 1, face & 1, sq) for face, squares in places for sq in squares
        ]
        out.extend(self._action_of(raw) for raw in others)
        return out

    def sample_action(self, player: int, rng: random.Random) -> Action:
        if player not in self.current_players():
            raise IllegalActionError("2-1", f"{self.g.player_name(player)} has nothing to do now")
        return self._sample(rng)

    def _sample(self, rng: random.Random) -> Action:
        """A uniformly random legal action: index int(random() * n) of `legal_actions`."""
        phase = self.phase
        if phase == TURN:
            places, others = self._choices()
            total = len(others)
            for _, squares in places:
                total += len(squares)
            k = int(rng.random() * total)
            p = self.to_move
            for face, squares in places:
                n = len(squares)
                if k < n:
                    return Place(p, face >> 1, face & 1, squares[k])
                k -= n
            return self._action_of(others[k])
        if phase == RETURN:
            p = self.returners[0]
            options = self.returnable(p)
            return Return(p, options[int(rng.random() * len(options))])
        if phase == START:
            return Start(int(rng.random() * 2))
        raise IllegalActionError("2-3", "the game is over")

    def clone(self) -> Squares2State:
        new = Squares2State.__new__(Squares2State)
        new.g = self.g
        new.sets = self.sets
        new.init = self.init
        new._history = list(self._history)
        new.results = list(self.results)
        new.last_winner = self.last_winner
        new.cell = list(self.cell)
        new.hand = list(self.hand)
        new.tot = [list(self.tot[0]), list(self.tot[1])]
        new.first = self.first
        new.to_move = self.to_move
        new.phase = self.phase
        new.turn = self.turn
        new.passes = self.passes
        new.winner = self.winner
        new.returners = list(self.returners)
        new.battles = list(self.battles)
        new.returned = list(self.returned)
        new.touched = self.touched
        return new

    def initial(self) -> Squares2State:
        new = Squares2State(self.g)
        cell, hand, first, to_move, phase, turn, last_winner = self.init
        new.cell = list(cell)
        new.hand = list(hand)
        new.first = first
        new.to_move = to_move
        new.phase = phase
        new.turn = turn
        new.last_winner = last_winner
        new._retotal()
        new.sets = self.sets
        new.init = self.init
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            return (0.0, 0.0)
        wins = [self.results.count(p) for p in range(2)]
        if wins[0] == wins[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if wins[0] > wins[1] else (-1.0, 1.0)

    def winner_name(self) -> str | None:
        """The winner of the game (or of the match, once it is over); 'draw'; or None."""
        if self.phase == OVER:
            r = self.returns()
            return "draw" if r[0] == r[1] else self.g.names[0 if r[0] > 0 else 1]
        return None

    def __hash__(self) -> int:
        return hash((self.phase, self.turn, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.g.sets,
            self.sets,
            self.init,
            tuple(self._history),
            tuple(self.results),
            self.last_winner,
            tuple(self.cell),
            tuple(self.hand),
            self.first,
            self.to_move,
            self.phase,
            self.turn,
            self.passes,
            self.winner,
            tuple(self.returners),
            tuple(self.battles),
            tuple(self.returned),
            self.touched,
        )

    def __repr__(self) -> str:
        return (
            f"<Squares2State {PHASE_NAMES[self.phase]} turn {self.turn} "
            f"to move {self.g.player_name(self.to_move) if self.to_move >= 0 else '-'}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions: the same actions as
        `core.play_random` draws for the same seed, without the legality check."""
        history = self._history
        sample = self._sample
        do = self._do
        while self.phase != OVER:
            action = sample(rng)
            history.append(action)
            do(action)

    # --- facts ---------------------------------------------------------------------------------

    def hand_tiles(self, player: int) -> list[int]:
        h = self.hand[player]
        return [t for t in range(self.g.tiles_per_set) if h >> t & 1]

    def totals(self, player: int) -> list[int]:
        """The player's own total in every row (continuous abilities applied)."""
        g = self.g
        if not g.continuous:
            return list(self.tot[player])
        out = [0] * g.rows
        cols = g.columns
        for sq, c in enumerate(self.cell):
            if c >= 0 and c >> 7 == player:
                out[sq // cols] += self._value(sq, c, None)
        return out

    def _retotal(self) -> None:
        """Recount `tot` from the board (after a setup)."""
        g = self.g
        self.tot = [[0] * g.rows, [0] * g.rows]
        for sq, c in enumerate(self.cell):
            if c >= 0:
                self.tot[c >> 7][sq // g.columns] += g.fval[c >> 7][c & 127]

    def printed_totals(self) -> list[list[int]]:
        """`tot` recounted from the board (tests check the kept totals against it)."""
        g = self.g
        out = [[0] * g.rows, [0] * g.rows]
        for sq, c in enumerate(self.cell):
            if c >= 0:
                out[c >> 7][sq // g.columns] += g.fval[c >> 7][c & 127]
        return out

    def row_total(self, player: int, row: int) -> int:
        return self.totals(player)[row]

    def rows_over(self, player: int) -> list[int]:
        limit = self.g.limit
        return [r for r, total in enumerate(self.totals(player)) if total > limit]

    def centre_count(self, player: int) -> int:
        cell = self.cell
        return [cell[sq] >> 7 for sq in self.g.centre_squares].count(player)

    def returnable(self, player: int) -> list[int]:
        """Squares of the player's tiles in rows over the limit (rule 2-2)."""
        g = self.g
        cell = self.cell
        out: list[int] = []
        for r in self.rows_over(player):
            out.extend(sq for sq in g.row_squares[r] if cell[sq] >= 0 and cell[sq] >> 7 == player)
        return out

    def tile_at(self, square: int) -> TileInPlay | None:
        c = self.cell[square]
        if c < 0:
            return None
        p, f = c >> 7, c & 127
        return TileInPlay(square, p, self.g.fability[p][f], self.g.fval[p][f])

    # --- continuous abilities ------------------------------------------------------------------

    def _holders(self) -> list[Holder]:
        g = self.g
        out = []
        for sq, c in enumerate(self.cell):
            if c >= 0:
                p = c >> 7
                if g.feffect[p][c & 127] == E_CONTINUOUS:
                    out.append(Holder(g.abilities[g.fability[p][c & 127]], sq, p))
        return out

    def _value(self, square: int, c: int, arriving: bool | None) -> int:
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

    def _veto(self, src: int, dst: int, how: str) -> str | None:
        g = self.g
        c = self.cell[src]
        tile = TileInPlay(src, c >> 7, g.fability[c >> 7][c & 127], g.fval[c >> 7][c & 127])
        for holder in self._holders():
            reason = g.effects[holder.ability.effect].move_veto(self, holder, tile, dst, how)
            if reason:
                return f"{holder.ability.name.en} at {g.square_names[holder.square]}: {reason}"
        return None

    def _total_after(self, player: int, src: int, dst: int, c: int) -> int:
        """The player's total in `dst`'s row if tile `c` came there from `src` (-1: hand)."""
        g = self.g
        row = dst // g.columns
        if not g.continuous:
            totals = self.totals(player)
            if src >= 0 and src // g.columns == row:
                return totals[row]  # a move along the row leaves its total as it was
            return totals[row] + g.fval[c >> 7][c & 127]
        cell = self.cell
        old_src = cell[src] if src >= 0 else EMPTY
        old_dst = cell[dst]
        if src >= 0:
            cell[src] = EMPTY
        cell[dst] = c
        try:
            return self.totals(player)[row]
        finally:
            cell[dst] = old_dst
            if src >= 0:
                cell[src] = old_src

    # --- legal choices -------------------------------------------------------------------------

    def _choices(self) -> tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, int, int]]]:
        """The current player's legal turn actions, in `legal_actions` order: placements
        grouped by face (tiles in set order, front then back) with their squares, then per
        own tile (by square) its moves and its ability uses as (kind, src, dst) with kind
        MOVE or USE, or (PASS, -1, -1) when there is nothing else."""
        g = self.g
        if g.continuous:
            return self._choices_general()
        p = self.to_move
        cell = self.cell
        checked = g.battle_checked
        totals = self.tot[p]
        vals = g.fval[p]
        hand = self.hand[p]
        places: list[tuple[int, tuple[int, ...]]] = []
        if hand:
            open_squares = tuple(sq for sq in g.camp_squares[p] if cell[sq] >> 7 != p)
            if open_squares:
                fallback = () if checked else tuple(sq for sq in open_squares if cell[sq] >= 0)
                fits = g.fitting_faces(p, hand, g.place_max - totals[g.camp[p]])
                if fallback:
                    places = [(face, open_squares if ok else fallback) for face, ok in fits]
                else:
                    places = [(face, open_squares) for face, ok in fits if ok]
        others: list[tuple[int, int, int]] = []
        move_max = g.move_max
        feffect = g.feffect[p]
        steps = g.steps
        append = others.append
        # What a tile may add to each row; whether a move along the row keeps it in limits.
        row_room = list(map(move_max.__sub__, totals))
        keeps = list(map(move_max.__ge__, totals))
        limited = g.ability_limited
        row_of = g.row_of
        src = -1
        for c in cell:
            src += 1
            if c >> 7 != p:  # empty (-1 >> 7 is -1) or the opponent's
                continue
            face = c & 127
            v = vals[face]
            for dst, row, same in steps[src]:
                d = cell[dst]
                if d >> 7 != p and (
                    (d >= 0 and not checked) or (keeps[row] if same else v <= row_room[row])
                ):
                    append((MOVE, src, dst))
            effect = feffect[face]
            if effect == E_FLIP:
                others.append((USE, src, -1))
            elif effect == E_PUSH:
                target = g.push_table(p, g.fdistance[p][face])[src][0]
                if target >= 0 and cell[target] >= 0 and self._push_error(p, src, face) is None:
                    others.append((USE, src, -1))
            elif effect in (E_CAMP, E_DIAGONAL):
                targets = (
                    g.camp_squares[p]
                    if effect == E_CAMP
                    else self._diagonals(src, g.fdistance[p][face], g.fjumps[p][face])
                )
                if not limited:
                    for dst in targets:
                        if dst != src and cell[dst] >> 7 != p:
                            append((USE, src, dst))
                    continue
                src_row = row_of[src]
                for dst in targets:
                    d = cell[dst]
                    if dst == src or d >> 7 == p:
                        continue
                    if d < 0 or checked:
                        row = row_of[dst]
                        if not (keeps[row] if row == src_row else v <= row_room[row]):
                            continue
                    others.append((USE, src, dst))
        if not places and not others:
            others.append((PASS, -1, -1))
        return places, others

    def _choices_general(
        self,
    ) -> tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, int, int]]]:
        """`_choices` with continuous abilities: totals and vetoes asked square by square."""
        g = self.g
        p = self.to_move
        cell = self.cell
        checked = g.battle_checked
        hand = self.hand[p]
        places: list[tuple[int, tuple[int, ...]]] = []
        if hand:
            open_squares = tuple(sq for sq in g.camp_squares[p] if cell[sq] >> 7 != p)
            for face in g.hand_faces(hand):
                squares = tuple(
                    sq
                    for sq in open_squares
                    if (cell[sq] >= 0 and not checked)
                    or self._total_after(p, -1, sq, p << 7 | face) <= g.place_max
                )
                if squares:
                    places.append((face, squares))
        others: list[tuple[int, int, int]] = []
        limit_for = {"move": g.move_max, "leap": -1, "diagonal": -1}
        if g.ability_limited:
            limit_for["leap"] = limit_for["diagonal"] = g.move_max
        for src in range(g.squares):
            c = cell[src]
            if c >> 7 != p:
                continue
            face = c & 127
            for dst in g.orthogonal[src]:
                if self._can_arrive(p, src, dst, limit_for["move"], "move"):
                    others.append((MOVE, src, dst))
            effect = g.feffect[p][face]
            if effect == E_FLIP:
                others.append((USE, src, -1))
            elif effect == E_PUSH:
                if self._push_error(p, src, face) is None:
                    others.append((USE, src, -1))
            elif effect in (E_CAMP, E_DIAGONAL):
                how = "leap" if effect == E_CAMP else "diagonal"
                targets = (
                    g.camp_squares[p]
                    if effect == E_CAMP
                    else self._diagonals(src, g.fdistance[p][face], g.fjumps[p][face])
                )
                for dst in targets:
                    if dst != src and self._can_arrive(p, src, dst, limit_for[how], how):
                        others.append((USE, src, dst))
        if not places and not others:
            others.append((PASS, -1, -1))
        return places, others

    def _can_arrive(self, p: int, src: int, dst: int, limit: int, how: str) -> bool:
        """No stacking own tiles; the row limit (limit < 0: none); continuous vetoes."""
        d = self.cell[dst]
        if d >= 0 and d >> 7 == p:
            return False
        if (
            limit >= 0
            and (d < 0 or self.g.battle_checked)
            and self._total_after(p, src, dst, self.cell[src]) > limit
        ):
            return False
        return not (self.g.continuous and self._veto(src, dst, how))

    def _action_of(self, raw: tuple[int, int, int]) -> Action:
        kind, src, dst = raw
        p = self.to_move
        if kind == MOVE:
            return Move(p, src, dst)
        if kind == USE:
            return Use(p, self.g.fability[p][self.cell[src] & 127], src, dst)
        return Pass(p)

    def _diagonals(self, src: int, distance: int, jumps: bool) -> tuple[int, ...]:
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

    def _push_target(self, p: int, src: int, face: int) -> tuple[int, int]:
        """Tsunami: the square in front, and the square `distance` further (-1: off board)."""
        return self.g.push_table(p, self.g.fdistance[p][face])[src]

    def _push_error(self, p: int, src: int, face: int) -> str | None:
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

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        g = self.g
        phase = self.phase
        name = g.player_name(player)
        if phase == OVER:
            raise IllegalActionError("2-3", "the game is over")
        if isinstance(action, Start):
            if phase != START:
                raise IllegalActionError("1-3", "the first player is already decided")
            if action.player not in (0, 1):
                raise IllegalActionError("1-3", "the first player is one of the two players")
            return
        if phase == START:
            raise IllegalActionError("1-3", "the first player is decided first (janken)")
        if action.player != player:
            raise IllegalActionError(
                "2-1",
                f"it is {name}'s {'turn' if phase == TURN else 'return'}, not {g.player_name(action.player)}'s",
            )
        if isinstance(action, Return):
            if phase != RETURN:
                raise IllegalActionError("2-2", "no row is over the limit now")
            if action.square not in self.returnable(player):
                rows = ", ".join(str(r + 1) for r in self.rows_over(player))
                raise IllegalActionError(
                    "2-2",
                    f"{name} returns a tile of a row over the limit (row {rows}), "
                    f"not {g.square_names[action.square]}",
                )
            return
        if phase == RETURN:
            rows = ", ".join(str(r + 1) for r in self.rows_over(player))
            raise IllegalActionError(
                "2-2", f"{name}'s row {rows} is over the limit {g.limit}: return a tile first"
            )
        if isinstance(action, Place):
            self._check_place(player, action)
        elif isinstance(action, Move):
            self._check_move(player, action)
        elif isinstance(action, Use):
            self._check_use(player, action)
        elif isinstance(action, Pass):
            places, others = self._choices()
            if places or others[0][0] != PASS:
                raise IllegalActionError("2-1", f"{name} can act, so may not pass")
        else:
            raise IllegalActionError("2-1", f"not a SQUARES II action: {action!r}")

    def _own(self, player: int, square: int) -> int:
        """The face index of the player's tile on `square`."""
        g = self.g
        c = self.cell[square]
        if c < 0 or c >> 7 != player:
            what = "empty" if c < 0 else f"holds {g.label(c >> 7, c & 127)}"
            raise IllegalActionError(
                "2-1", f"{g.square_names[square]} {what}: it is not {g.names[player]}'s tile"
            )
        return c & 127

    def _check_place(self, p: int, action: Place) -> None:
        g = self.g
        if not 0 <= action.tile < g.tiles_per_set or action.face not in (0, 1):
            raise IllegalActionError("3-1", f"no such tile: {action!r}")
        face = 2 * action.tile + action.face
        token = g.fcode[p][face]
        if not self.hand[p] >> action.tile & 1:
            raise IllegalActionError(
                "3-1", f"{g.names[p]}'s tile {g.tile_text(p, action.tile)} is not in hand"
            )
        sq = action.square
        if sq not in g.camp_squares[p]:
            raise IllegalActionError(
                "3-1",
                f"a tile is placed on the camp (row {g.camp[p] + 1}), not on {g.square_names[sq]}",
            )
        c = self.cell[sq]
        if c >= 0 and c >> 7 == p:
            raise IllegalActionError("4-3", f"{g.square_names[sq]} holds {g.names[p]}'s own tile")
        if c < 0 or g.battle_checked:
            total = self._total_after(p, -1, sq, p << 7 | face)
            if total > g.place_max:
                word = "reach" if g.place_max < g.limit else "exceed"
                raise IllegalActionError(
                    "3-3",
                    f"placing {token} would make the camp total {total}: "
                    f"it may not {word} the limit {g.limit}",
                )

    def _limit_error(self, p: int, src: int, dst: int, limit: int, rule: str) -> None:
        g = self.g
        c = self.cell[dst]
        if c < 0 or g.battle_checked:
            row = dst // g.columns
            total = self._total_after(p, src, dst, self.cell[src])
            if total > limit:
                word = "reach" if limit < g.limit else "exceed"
                raise IllegalActionError(
                    rule,
                    f"row {row + 1} would total {total}: a move may not {word} the limit {g.limit}",
                )

    def _stack_error(self, p: int, dst: int) -> None:
        g = self.g
        c = self.cell[dst]
        if c >= 0 and c >> 7 == p:
            raise IllegalActionError(
                "4-3", f"{g.square_names[dst]} holds {g.names[p]}'s own tile: no stacking"
            )

    def _veto_error(self, src: int, dst: int, how: str) -> None:
        if self.g.continuous:
            reason = self._veto(src, dst, how)
            if reason:
                raise IllegalActionError("4-1", reason)

    def _check_move(self, p: int, action: Move) -> None:
        g = self.g
        self._own(p, action.src)
        if action.dst not in g.orthogonal[action.src]:
            raise IllegalActionError(
                "4-2",
                f"a tile moves {g.move_distance} square up, down, left or right: "
                f"{g.square_names[action.src]} to {g.square_names[action.dst]} is not one",
            )
        self._stack_error(p, action.dst)
        self._limit_error(p, action.src, action.dst, g.move_max, "4-4")
        self._veto_error(action.src, action.dst, "move")

    def _check_use(self, p: int, action: Use) -> None:
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

    # --- rules ------------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        kind = type(action)
        if kind is Return:
            assert isinstance(action, Return)
            self._return(action.player, action.square)
            return
        if kind is Start:
            self.first = self.to_move = action.player
            self.phase = TURN
            return
        self.battles = []
        self.returned = []
        p = action.player
        g = self.g
        if kind is Move:
            assert isinstance(action, Move)
            self.touched = (action.src, action.dst)
            self._arrive(action.dst, self._lift(action.src))
        elif isinstance(action, Place):
            self.hand[p] &= ~(1 << action.tile)
            self.touched = (action.square,)
            self._arrive(action.square, p << 7 | (2 * action.tile + action.face))
        elif isinstance(action, Use):
            src = action.src
            effect = g.feffect[p][self.cell[src] & 127]
            if effect == E_FLIP:
                self._put(src, self._lift(src) ^ 1)
                self.touched = (src,)
            elif effect == E_PUSH:
                target, dst = self._push_target(p, src, self.cell[src] & 127)
                self.touched = (src, target, dst)
                self._arrive(dst, self._lift(target))
            else:
                self.touched = (src, action.dst)
                self._arrive(action.dst, self._lift(src))
        if isinstance(action, Pass):
            self.passes += 1
            self.touched = ()
        else:
            self.passes = 0
        self._after_action()

    def _lift(self, square: int) -> int:
        """Take the tile off a square; return it."""
        c = self.cell[square]
        self.cell[square] = EMPTY
        self.tot[c >> 7][self.g.row_of[square]] -= self.g.fval[c >> 7][c & 127]
        return c

    def _put(self, square: int, c: int) -> None:
        self.cell[square] = c
        self.tot[c >> 7][self.g.row_of[square]] += self.g.fval[c >> 7][c & 127]

    def _arrive(self, square: int, c: int) -> None:
        """A tile comes onto a square; an occupied square is a battle (rule 6)."""
        there = self.cell[square]
        if there < 0:
            self._put(square, c)
            return
        g = self.g
        if g.continuous:
            va = self._value(square, c, True)
            vt = self._value(square, there, False)
        else:
            va = g.fval[c >> 7][c & 127]
            vt = g.fval[there >> 7][there & 127]
        self.battles.append(Battle(square, (c >> 7, c & 127), (there >> 7, there & 127), (va, vt)))
        if va > vt:
            self._to_hand(self._lift(square))
            self._put(square, c)
        elif va < vt:
            self._to_hand(c)
        else:
            self._to_hand(self._lift(square))
            self._to_hand(c)

    def _to_hand(self, c: int) -> None:
        p, face = c >> 7, c & 127
        self.hand[p] |= 1 << (face >> 1)
        self.returned.append((p, face))

    def _over(self, player: int) -> bool:
        if self.g.continuous:
            return bool(self.rows_over(player))
        return max(self.tot[player]) > self.g.limit

    def _after_action(self) -> None:
        """Rule 2-2: rows over the limit, the opponent first; then rule 2-3."""
        actor = self.to_move
        if self.g.continuous:
            over = self._over
            self.returners = [q for q in (1 - actor, actor) if over(q)]
        else:
            limit = self.g.limit
            tot = self.tot
            self.returners = [q for q in (1 - actor, actor) if max(tot[q]) > limit]
        if self.returners:
            self.phase = RETURN
            return
        self._judge()

    def _return(self, player: int, square: int) -> None:
        self._to_hand(self._lift(square))
        if not self._over(player):
            self.returners.pop(0)
        if not self.returners:
            self._judge()

    def _judge(self) -> None:
        """Rule 2-3: three of the centre squares win; else the opponent's turn (2-4)."""
        g = self.g
        cell = self.cell
        owners = [cell[sq] >> 7 for sq in g.centre_squares]
        need = g.win_squares
        winners = [q for q in (0, 1) if owners.count(q) >= need]
        if len(winners) == 1:
            self._end_game(winners[0])
            return
        if winners or self.passes >= 2:  # both at once (not on this board) / nobody can act
            self._end_game(-1)
            return
        self.turn += 1
        self.to_move = 1 - self.to_move
        self.phase = TURN
        if g.turn_limit and self.turn >= g.turn_limit:
            self._end_game(-1)

    def _end_game(self, winner: int) -> None:
        g = self.g
        self.results.append(winner)
        self.winner = winner
        self.returners = []
        need = g.games // 2 + 1
        if (
            len(self.results) >= g.games
            or self.results.count(0) >= need
            or self.results.count(1) >= need
        ):
            self.phase = OVER
            self.to_move = -1
            return
        # Next game: the winner plays second (rule 1-3); after a draw, janken again.
        self.last_winner = winner
        battles, returned, touched = self.battles, self.returned, self.touched
        first = 1 - winner if winner >= 0 and g.winner_plays_second else -1
        self._new_game(first)
        self.battles, self.returned, self.touched = battles, returned, touched

    # --- information ----------------------------------------------------------------------------

    def player_view(self, player: int) -> Squares2View:
        g = self.g
        board: list[tuple[str, str, str] | None] = []
        for c in self.cell:
            if c < 0:
                board.append(None)
                continue
            p, face = c >> 7, c & 127
            tile = self.sets[p][face >> 1]
            up, down = tile.face(face & 1), tile.face(1 - (face & 1))
            shown = (p == player and g.owner_sees_backs) or not g.backs_hidden
            board.append(
                (
                    g.names[p],
                    f"{g.abilities[up.ability].code}{up.value}",
                    f"{g.abilities[down.ability].code}{down.value}" if shown else "?",
                )
            )

        def text(f: Face) -> str:
            return f"{g.abilities[f.ability].code}{f.value}"

        own = tuple(
            sorted(
                f"{text(self.sets[player][t].front)}/{text(self.sets[player][t].back)}"
                for t in self.hand_tiles(player)
            )
        )
        others = tuple(
            (g.names[q], tuple(sorted(text(self.sets[q][t].front) for t in self.hand_tiles(q))))
            for q in range(2)
            if q != player
        )
        log = []
        for action in self._history:
            if isinstance(action, Place):  # the face, not which of several same-faced tiles
                face = 2 * action.tile + action.face
                log.append(
                    f"{g.names[action.player]} place {g.fcode[action.player][face]} "
                    f"{g.square_names[action.square]}"
                )
            else:
                log.append(format_step(g, action))
        return Squares2View(
            player=g.names[player],
            phase=PHASE_NAMES[self.phase],
            to_act=tuple(g.player_name(p) for p in self.current_players()),
            turn=self.turn,
            board=tuple(board),
            hand=own,
            other_hands=others,
            results=tuple(g.names[w] if w >= 0 else "draw" for w in self.results),
            log=tuple(log),
        )
