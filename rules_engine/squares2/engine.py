"""The engine: `Squares2`, SQUARES II under one rule version and one set of rule options.

It reads everything from the game's data: the rule parameters and options (every ambiguity
of the seed, made explicit), the abilities and each player's set of tiles (sets may be
combined, rule 7), and builds the board's tables; it sets up a worked example's state
(`setup_state`) and answers its questions (`query`).  Its notation is in `actions`, its
diagrams in `diagrams`, its positions are `Squares2State`s (`state`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Final

from rules_engine.core import Bilingual, Diagram, EngineBase, NotationError, SetupError
from rules_engine.params import GameData
from rules_engine.squares2 import actions, balance, diagrams
from rules_engine.squares2.abilities import (
    BUILT_IN_EFFECTS,
    E_CONTINUOUS,
    EFFECTS,
    PUSH_TARGETS,
    Ability,
    ContinuousEffect,
)
from rules_engine.squares2.actions import Move, Pass, Place, Use
from rules_engine.squares2.battle import Battle
from rules_engine.squares2.state import Squares2State
from rules_engine.squares2.tiles import Face, Tile, tile_specs_of_deck
from rules_engine.squares2.turn import PHASE_NAMES, RETURN, TURN

if TYPE_CHECKING:
    from rules_engine.squares2.playouts import PlayoutTables

GAME_ID: Final = "squares2"
SETUP_TILE: Final = "setup-tile-"  # the id of a tile a setup states (no printed piece)

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


class Squares2(EngineBase):
    """SQUARES II under one rule version and one set of rule options.

    `sets` (player name -> tile specs, as `tile_specs_of_deck` gives) combines tile sets
    (seed section 7); `abilities` adds ability definitions in game.yaml's format; `effects`
    gives the rules of continuous abilities by their `effect` name.
    """

    GAME_ID = GAME_ID
    TITLE = "SQUARES II"
    OPTION_NAMES = OPTION_NAMES
    # The search player's settings (`rules_engine.mcts`): random playouts to the end run
    # about 800 turns, so a playout stops after 10 steps and `evaluate` scores it.
    SEARCH: ClassVar[dict[str, Any]] = {"depth": 10}

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
        self._source = game  # kept to build an engine for a setup's own tile sets
        self._extra_abilities = dict(abilities or {})
        self._effects = dict(effects or {})
        game = game.at(self._version)  # that rule version's pieces
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
        self.effects: dict[str, ContinuousEffect] = {**BUILT_IN_EFFECTS, **(effects or {})}

        # Tile sets
        own_sets = {name: tile_specs_of_deck(game, name) for name in self.names}
        self.own_sets = own_sets
        if sets is None:
            sets = own_sets
        # Sets other than the game's own (rule 7): the game start says how they combine.
        self.combined = any(list(sets.get(n, [])) != own_sets[n] for n in self.names)
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
        # Whether a player's set repeats a face (possible only with combined sets): then a
        # face seen on the board or a front seen in hand may be one of several tiles, whose
        # identity (and back) is hidden; otherwise every face names its tile.
        self.faces_ambiguous = tuple(len(set(codes)) < len(codes) for codes in self.fcode)
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
        self._speaker: Squares2 = self  # whose notation this engine speaks (setup_state)

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
        # The actions, made once and reused by every list of legal actions: per player and
        # square, each step (its square, row, whether along the row, the `Move`); per
        # player, face and camp square, the `Place`; uses are made on first need.
        self.steps = tuple(
            tuple(
                tuple(
                    (t, self.row_of[t], self.row_of[t] == self.row_of[s], Move(p, s, t))
                    for t in self.orthogonal[s]
                )
                for s in range(self.squares)
            )
            for p in range(2)
        )
        self.place_actions = tuple(
            tuple(
                {sq: Place(p, face >> 1, face & 1, sq) for sq in self.camp_squares[p]}
                for face in range(2 * self.tiles_per_set)
            )
            for p in range(2)
        )
        self.passes = (Pass(0), Pass(1))
        # Per player and face: the uses of its ability, [src][dst + 1] (made on first need).
        self.use_rows: tuple[list[tuple[tuple[Use, ...], ...] | None], ...] = (
            [None] * (2 * self.tiles_per_set),
            [None] * (2 * self.tiles_per_set),
        )
        self._hand_faces: dict[int, tuple[int, ...]] = {}
        self._fitting: dict[tuple[int, int, int], tuple[tuple[int, bool], ...]] = {}
        self._diagonal_tables: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._push_tables: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.centre_squares = self.row_squares[self.centre_row]
        self.next_to_centre = tuple(
            sq
            for r in (self.centre_row - 1, self.centre_row + 1)
            if 0 <= r < rows
            for sq in self.row_squares[r]
        )
        self.place_max = self.limit - 1 if self._options["place_limit"] == "reach" else self.limit
        self.move_max = self.limit - 1 if self._options["move_limit"] == "reach" else self.limit
        self.ability_limited = self._options["ability_move_limit"] == "as_move"
        self.battle_checked = self._options["battle_entry_limit"] == "checked"
        self.push_any = self._options["tsunami_target"] == "any"
        self.owner_sees_backs = bool(self._options["owner_sees_board_backs"])
        self.games = int(self._options["games"])
        self.turn_limit = int(self._options["turn_limit"])

    @cached_property
    def playout_tables(self) -> PlayoutTables:
        """The tables of the fast playout (`playouts.PlayoutTables`), made at its first run."""
        from rules_engine.squares2.playouts import PlayoutTables

        return PlayoutTables(self)

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

    def uses(self, player: int, face: int) -> tuple[tuple[Use, ...], ...]:
        """Every `Use` of the ability on a player's face, `[src][dst + 1]`, made once (one
        table per player and ability)."""
        rows = self.use_rows[player]
        table = rows[face]
        if table is None:
            ability = self.fability[player][face]
            same = [f for f, a in enumerate(self.fability[player]) if a == ability]
            table = next((rows[f] for f in same if rows[f] is not None), None)
            if table is None:
                table = tuple(
                    tuple(Use(player, ability, src, dst) for dst in range(-1, self.squares))
                    for src in range(self.squares)
                )
            for f in same:
                rows[f] = table
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

    # Squares, faces and actions as text (actions.py)
    square_index = actions.square_index
    face_index = actions.face_index
    label = actions.label
    tile_text = actions.tile_text
    notation_pattern = actions.notation_pattern

    def new_initial_state(self) -> Squares2State:
        return Squares2State(self)

    # --- setup for worked examples ----------------------------------------------------------

    SETUP_KEYS: Final = ("first", "to_move", "last_winner", "board", "turn", "tiles", "abilities")

    def setup_state(self, setup: Mapping[str, Any]) -> Squares2State:
        """A state from an example's setup.

        `first`: who played first this game; `to_move`: who acts now (default: `first`);
        `last_winner`: the last game's winner, who plays second (instead of `first`);
        `board`: {square: "orange T1"} (every other tile is in its owner's hand);
        `turn`: turns already played (default 0).  With none of `first`, `to_move`,
        `last_winner`, the game starts with the chance step deciding the first player.

        Combined sets (rule 7): `tiles` gives a player's own set of ten tiles, as
        {orange: [...]} (a player not listed keeps the game's set); each entry is a tile of
        the game's tiles.yaml by its id (`spin-4`) or a tile of another set with its faces
        stated, `{front: {ability: spin, value: 3}, back: {ability: swell, value: 3}}`.  The
        set must hold two groups of the values 1-5 on each side (rule 7-1); abilities mix
        freely (rule 7-2).  `abilities` states abilities of other sets in game.yaml's
        format (`{swell: {code: W, name: {ja: ..., en: ...}, kind: continuous, effect:
        value-bonus, scope: board}}`); a continuous one needs an effect the engine knows
        (`BUILT_IN_EFFECTS`, or the engine's `effects`).  With either key the state belongs
        to an engine built for those sets, and this engine's notation, queries and diagrams
        speak for it (until the next setup).
        """
        for given in setup:
            if given not in self.SETUP_KEYS:
                raise SetupError(
                    (given,), f"unknown setup key '{given}' (known: {', '.join(self.SETUP_KEYS)})"
                )
        if "tiles" in setup or "abilities" in setup:
            engine = self._setup_engine(setup)
            self._speaker = engine
            rest = {k: v for k, v in setup.items() if k not in ("tiles", "abilities")}
            return engine.setup_state(rest)
        self._speaker = self
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

    def _setup_engine(self, setup: Mapping[str, Any]) -> Squares2:
        """The engine for a setup's own tile sets and abilities (rule 7)."""
        extra = setup.get("abilities", {})
        if not isinstance(extra, Mapping) or not all(
            isinstance(v, Mapping) for v in extra.values()
        ):
            raise SetupError(
                ("abilities",),
                "abilities maps ability ids to definitions, like "
                "{swell: {code: W, kind: continuous, effect: value-bonus}}",
            )
        for ability_id in extra:
            if ability_id in self.abilities:
                raise SetupError(
                    ("abilities", ability_id),
                    f"{ability_id} is already one of the game's abilities",
                )
        tiles = setup.get("tiles", {})
        if not isinstance(tiles, Mapping):
            raise SetupError(
                ("tiles",), "tiles maps players to their ten tiles, like {orange: [...]}"
            )
        sets: dict[str, list[dict[str, Any]]] = {}
        for name, listed in tiles.items():
            if name not in self.names:
                raise SetupError(("tiles", name), f"unknown player {name!r}")
            if not isinstance(listed, list):
                raise SetupError(("tiles", name), "a player's tiles are a list of ten")
            known = {str(spec["id"]): spec for spec in self.own_sets[name]}
            specs: list[dict[str, Any]] = []
            for i, item in enumerate(listed):
                if isinstance(item, str):
                    if item not in known:
                        raise SetupError(
                            ("tiles", name, i),
                            f"unknown tile {item!r} (the game's tiles: {', '.join(known)})",
                        )
                    specs.append(dict(known[item]))
                elif isinstance(item, Mapping) and set(item) <= {"front", "back"}:
                    specs.append({"id": f"{SETUP_TILE}{i + 1}", **item})
                else:
                    raise SetupError(
                        ("tiles", name, i),
                        "a tile is an id of the game's tiles or {front: {ability, value}, "
                        "back: {ability, value}}",
                    )
            sets[name] = specs
        for name in self.names:
            sets.setdefault(name, self.own_sets[name])
        try:
            return Squares2(
                self._source,
                self.version,
                self.options,
                sets=sets,
                abilities={**self._extra_abilities, **extra},
                effects=self._effects,
            )
        except (ValueError, KeyError, TypeError) as exc:
            words = str(exc).split()
            on_tiles = bool(words) and (words[0] in self.names or str(exc).startswith("rule 7-1"))
            raise SetupError(("tiles",) if on_tiles else ("abilities",), str(exc)) from None

    # --- notation, queries and diagrams: of the last setup's tile sets ----------------------

    def parse_action(self, text: str) -> actions.Action:
        return actions.parse_action(self._speaker, text)

    def format_action(self, action: actions.Action) -> str:
        return actions.format_action(self._speaker, action)

    def diagram(self, state: Any) -> Diagram:
        """A state drawn for the rulebook's worked examples (diagrams.py)."""
        engine = state.g if isinstance(state, Squares2State) else self
        return diagrams.diagram(engine, state)

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
        if state.g is not self:  # a setup's own tile sets
            return state.g.query(state, name)
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

    # A tile as a diagram shows it (diagrams.py)
    piece_id = diagrams.piece_id

    # --- the balance lab: a finished game's figures, a position's prospects (balance.py) ----

    outcome = balance.outcome
    evaluate = balance.evaluate
