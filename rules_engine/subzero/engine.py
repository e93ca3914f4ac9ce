"""The S.U.B.Z.E.R.O. engine: the game under one rule version and one set of rule options.

`Subzero` is built from the game's data (`rules_engine.params.GameData`): the board and its
square names, the rule parameters and options, the players (the decks with a pawn), their HIT
and snowball tokens, and the action cards.  It keeps what every state shares: the board's
rays, the moves and paths a MOVE can take, and the choices of a reveal, each worked out once.
The notation, the worked examples' setup and queries, and the diagrams are in their own
modules (`actions`, `worked_examples`, `diagrams`); the engine hands them on.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from itertools import combinations_with_replacement
from math import comb
from typing import Any, ClassVar, Final

from rules_engine.bots import Outcome
from rules_engine.core import CHANCE, Arrangements, Bilingual, Diagram, EngineBase
from rules_engine.params import DataError, GameData, whole_number
from rules_engine.subzero import (
    actions,
    balance,
    diagrams,
    kernel,
    movement,
    reveal,
    worked_examples,
)
from rules_engine.subzero.actions import (
    DEAL,
    KNOWN_ACTIONS,
    MOVE,
    ORTHOGONAL,
    ROLL_,
    SHOOT,
    STEPS,
    SWISH,
    Action,
    Card,
    Choices,
    Draw,
    Reveal,
)
from rules_engine.subzero.endings import ALL_OUT, DEATHMATCH, SURVIVAL
from rules_engine.subzero.state import SubzeroState

GAME_ID: Final = "subzero"

# --- rule options: every ambiguity of the seed, made explicit ------------------------------

# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "players",
    "ending",
    "damage_limit",
    "start_player_passes",
    "moving_target",
    "move_order",
    "combined_cards",
    "edge_turn",
    "edge_reach",
    "ball_range",
)


class Subzero(EngineBase):
    """S.U.B.Z.E.R.O. under one rule version and one set of rule options."""

    GAME_ID = GAME_ID
    TITLE = "S.U.B.Z.E.R.O."
    OPTION_NAMES = OPTION_NAMES

    def __init__(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        params = self._load_rules(game, version, options)
        game = game.at(self._version)  # that rule version's pieces
        opts = self._options
        n = self._player_count(game, " to ")
        # Board.
        board = params["board"]
        self.width = int(board["columns"])
        self.height = int(board["rows"])
        self.column_labels = tuple(str(x) for x in board["column_labels"])
        self.row_labels = tuple(str(x) for x in board["row_labels"])
        if len(self.column_labels) != self.width or len(self.row_labels) != self.height:
            raise ValueError("board labels must match the board's columns and rows")
        w, h = self.width, self.height
        self.squares = w * h
        self.square_names = tuple(
            self.column_labels[s % w] + self.row_labels[s // w] for s in range(self.squares)
        )
        self.square_index = {name: s for s, name in enumerate(self.square_names)}
        # Rays: the squares from a square in a direction, to the edge.
        rays: list[tuple[tuple[int, ...], ...]] = []
        for s in range(self.squares):
            c0, r0 = s % w, s // w
            per: list[tuple[int, ...]] = []
            for dc, dr in STEPS:
                line = []
                c, r = c0 + dc, r0 + dr
                while 0 <= c < w and 0 <= r < h:
                    line.append(c + r * w)
                    c += dc
                    r += dr
                per.append(tuple(line))
            rays.append(tuple(per))
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        # Rule parameters.
        self.hand_size = int(params["hand_size"])
        self.slots = int(params["program_slots"])
        self.max_snowballs = int(params["max_snowballs"])
        self.max_balls_per_shot = int(params["max_balls_per_shot"])
        self.snowballs_at_start = int(params.get("snowballs_at_start", 0))
        shot_dirs = int(params["shot_directions"])
        if shot_dirs not in (4, 8):
            raise ValueError(f"shot_directions must be 4 or 8, got {shot_dirs}")
        self.shot_directions: tuple[int, ...] = ORTHOGONAL if shot_dirs == 4 else tuple(range(8))
        if int(params["move_directions"]) != 4:
            raise ValueError("move_directions must be 4 (up, down, left, right)")
        if self.hand_size < self.slots:
            raise ValueError("hand_size must be at least program_slots")
        # Fixed readings the engine plays: the data must say the same.
        for key, value in (
            ("start_squares", "free"),
            ("placement_order", "youngest-first-clockwise"),
            ("turn_order", "clockwise"),
            ("first_start_player", "youngest"),
        ):
            if str(params.get(key, value)) != value:
                raise ValueError(
                    f"game.yaml rules.{key} is {params[key]!r}: the engine plays {value!r}"
                )
        # Options whose default is in the data: the data and the option must agree.
        for key in ("ending", "start_player_passes"):
            option = self.declared_option(key)
            if key in params and str(params[key]) != option.default:
                raise ValueError(
                    f"game.yaml rules.{key} is {params[key]!r} but the engine's default "
                    f"reading is {option.default!r}: update one of them"
                )
        self.ending = str(opts["ending"])
        endings = params.get("endings", {})
        limit = int(opts["damage_limit"])
        if self.ending in (DEATHMATCH, SURVIVAL):
            limit = limit or int(endings[self.ending]["damage_limit"])
        self.damage_limit = limit
        self.hits_needed = int(endings.get(ALL_OUT, {}).get("hits_on_each_opponent", 1))
        self.pass_step = 1 if opts["start_player_passes"] == "left" else -1
        self.moving_target = str(opts["moving_target"])
        self.lockstep = opts["move_order"] == "simultaneous"
        self.combined_mode = str(opts["combined_cards"])
        self.edge_turn = str(opts["edge_turn"])
        self.arrive = opts["edge_reach"] == "arrive"
        rng_opt = opts["ball_range"]
        self.ball_range = max(w, h) if rng_opt == "unlimited" else int(rng_opt)
        self.shoot_first = self.combined_mode == "both_shoot_first"
        # The squares a ball flies over, by square and direction (rays cut to the range).
        self.lines = tuple(tuple(ray[: self.ball_range] for ray in per) for per in rays)
        # Players: the decks that have a pawn, in seat order (clockwise).
        colours = [p.deck.id for p in game.pieces if p.kind == "pawn" and p.deck is not None]
        if len(colours) < n:
            raise ValueError(f"{n} players need {n} pawn colours, the data has {len(colours)}")
        self._set_players(tuple(colours[:n]))
        self.symbols = tuple(
            str(game.decks[c].values.get("symbol", c[:1].upper())) for c in self.names
        )
        self.colour_names: tuple[Bilingual, ...] = tuple(game.decks[c].name for c in self.names)
        hit_tokens: dict[str, int] = {}
        snowball_tokens: dict[str, int] = {}
        # The pieces a diagram draws, by player: a HIT token, a snowball token.
        hit_pieces: dict[str, str] = {}
        snowball_pieces: dict[str, str] = {}
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id not in self.names:
                continue
            token = piece.component.values.get("token")
            if token == "hit":
                hit_tokens[piece.deck.id] = hit_tokens.get(piece.deck.id, 0) + piece.count
                hit_pieces.setdefault(piece.deck.id, piece.id)
            elif token == "snowball":
                snowball_tokens[piece.deck.id] = snowball_tokens.get(piece.deck.id, 0) + piece.count
                snowball_pieces.setdefault(piece.deck.id, piece.id)
        self.hit_pieces = tuple(hit_pieces.get(c, "") for c in self.names)
        self.snowball_pieces = tuple(snowball_pieces.get(c, "") for c in self.names)
        for name in self.names:
            if hit_tokens.get(name, 0) != int(params["hit_tokens_per_player"]):
                raise ValueError(
                    f"{name} has {hit_tokens.get(name, 0)} HIT tokens in the data, rule "
                    f"parameter hit_tokens_per_player is {params['hit_tokens_per_player']}"
                )
            if snowball_tokens.get(name, 0) < self.max_snowballs + self.max_balls_per_shot - 1:
                raise ValueError(f"{name} has too few snowball tokens in the data")
        self.hit_tokens = int(params["hit_tokens_per_player"])
        # Action cards.
        cards: list[Card] = []
        card_pieces: list[str] = []
        for piece in game.pieces:
            if piece.kind != "card" or "actions" not in piece.component.values:
                continue
            values = piece.component.values
            actions = tuple(str(a) for a in values["actions"])
            cid = piece.component.id
            for a in actions:
                if a not in KNOWN_ACTIONS:
                    raise DataError(f"{cid}: unknown action {a!r}", cid, "actions")
            if len(set(actions)) != len(actions) or not actions or len(actions) > 2:
                raise DataError(f"{cid}: one or two different actions", cid, "actions")
            steps = whole_number(piece.component, "steps", 0, default=0)
            if (MOVE in actions) != (steps > 0):
                raise DataError(f"{cid}: a MOVE card needs steps (and only it)", cid, "steps")
            cards.append(Card(piece.component.id, len(cards), actions, steps, piece.count))
            card_pieces.append(piece.id)
        if not cards:
            raise ValueError("no action cards in the data")
        self.cards = tuple(cards)
        self.card_pieces = tuple(card_pieces)  # the piece a diagram draws, by card kind
        self.card_index = {c.id: c.index for c in cards}
        self.deck_counts = tuple(c.count for c in cards)
        self.deck_size = sum(self.deck_counts)
        if self.deck_size < self.hand_size * n + 1:
            raise ValueError("the deck is too small to deal the hands")
        # Hot-path tables.
        self.card_ids = tuple(c.id for c in cards)
        self.card_move = tuple(c.steps if MOVE in c.actions else 0 for c in cards)
        self.card_shoot = tuple(SHOOT in c.actions for c in cards)
        self.card_roll = tuple(ROLL_ in c.actions for c in cards)
        self.card_swish = tuple(SWISH in c.actions for c in cards)
        # Every choice of balls for a SHOOT, by snowballs held: 1 to min(held, per shot)
        # balls, each with its direction (balls are alike: directions listed in order).
        most = min(self.max_snowballs, self.max_balls_per_shot)
        self.shot_options: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            ((),)
            if held == 0
            else tuple(
                combo
                for k in range(1, held + 1)
                for combo in combinations_with_replacement(self.shot_directions, k)
            )
            for held in range(most + 1)
        )
        self._notation: re.Pattern[str] | None = None
        self._move_options: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.paths: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.kinds = len(cards)
        self.ball_states = self.max_snowballs + 1
        self.choice_table: list[Choices | None] = [None] * (
            n * self.kinds * self.squares * self.ball_states
        )
        # The seats clockwise from each start player (the reveal order when nobody is out).
        self.rotations = tuple(tuple((start + i) % n for i in range(n)) for start in range(n))
        # The programs of a hand (by its sorted cards), made once: a search player lists
        # them at every turn, and hands of 5 cards from 12 kinds repeat.
        self._programs: dict[
            tuple[int, ...], tuple[tuple[tuple[str, ...], ...], frozenset[tuple[str, ...]]]
        ] = {}
        # The fast drivers' tables (`random_play.play_random`, `random_play.playout`).
        self.fast = kernel.Tables(self)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the fast drivers' tables, made anew when unpickled: they are what
        playing fills in, and the compiled kernel's (`rules_engine.native`) are made only by
        calling their class."""
        state = self.__dict__.copy()
        del state["fast"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.fast = kernel.Tables(self)

    # --- Engine protocol ---------------------------------------------------------------------

    def new_initial_state(self) -> SubzeroState:
        return SubzeroState(self)

    def chance_classes(self, state: Any) -> list[tuple[Action, int]] | None:
        """A draw's outcomes (each distinct set of cards once, as `legal_actions` lists
        them), each weighed by the number of ways to draw it from the pile: the product,
        over the kinds drawn, of (copies in the pile choose copies drawn).  None elsewhere
        (the youngest player and a reshuffle have equally likely outcomes)."""
        if not isinstance(state, SubzeroState) or state.phase != DEAL or not state.pile_total:
            return None
        pile = state.pile
        classes: list[tuple[Action, int]] = []
        for draw in state.legal_actions(CHANCE):
            weight = 1
            assert isinstance(draw, Draw)
            for kind, taken in Counter(draw.cards).items():
                weight *= comb(pile[self.card_index[kind]], taken)
            classes.append((draw, weight))
        return classes

    # --- balance: a finished game's outcome, a position's prospects ------------------------

    def outcome(self, state: SubzeroState) -> Outcome:
        """A finished game's scores, turns, cards played and measures (`balance.outcome`)."""
        return balance.outcome(self, state)

    def evaluate(self, state: SubzeroState) -> tuple[float, ...]:
        """Each player's prospects in [-1, 1] (`balance.evaluate`)."""
        return balance.evaluate(self, state)

    # --- geometry ------------------------------------------------------------------------------

    def edge_distance(self, square: int, heading: int) -> int:
        return len(self.rays[square][heading])

    def turn_options(self, square: int, heading: int, steps: int) -> tuple[int, ...]:
        """The edge turns a move can take (`movement.turn_options`)."""
        return movement.turn_options(self, square, heading, steps)

    def move_options(self, square: int, steps: int) -> tuple[tuple[int, int], ...]:
        """Every (direction, turn) a MOVE of `steps` from `square` can be revealed with."""
        key = (square, steps)
        found = self._move_options.get(key)
        if found is None:
            found = tuple((d, t) for d in ORTHOGONAL for t in self.turn_options(square, d, steps))
            self._move_options[key] = found
        return found

    def path(self, square: int, heading: int, steps: int, turn: int) -> tuple[int, ...]:
        """The squares a MOVE would walk through if nothing were in its way."""
        key = (square, heading, steps, turn)
        found = self.paths.get(key)
        if found is None:
            found = self.paths[key] = movement.unblocked_path(self, square, heading, steps, turn)
        return found

    # --- the choices of a reveal -----------------------------------------------------------

    def reveal_template(self, player: int, kind: int) -> Reveal:
        return Reveal(player, self.card_ids[kind], -1, -1, None, False, False)

    def reveal_choices(self, player: int, kind: int, square: int, balls: int) -> Choices:
        """Every legal reveal of card `kind` by `player` on `square` holding `balls`: a
        tuple of actions, or for a combined MOVE/SHOOT card played whole, the moves and the
        shots (the actions are their product).  Cached: the same actions are shared."""
        key = ((player * self.kinds + kind) * self.squares + square) * self.ball_states + balls
        found = self.choice_table[key]
        if found is None:
            found = reveal.make_choices(self, player, kind, square, balls)
            self.choice_table[key] = found
        return found

    def hand_programs(
        self, hand: tuple[int, ...]
    ) -> tuple[tuple[tuple[str, ...], ...], frozenset[tuple[str, ...]]]:
        """Every program (its cards) that can be laid from `hand` (card kinds, sorted), in
        the order of `Arrangements`, and the same as a set (to check a program against)."""
        found = self._programs.get(hand)
        if found is None:
            ids = self.card_ids
            listed = tuple(
                tuple([ids[k] for k in kinds]) for kinds in Arrangements(hand, self.slots)
            )
            found = self._programs[hand] = (listed, frozenset(listed))
        return found

    # --- notation --------------------------------------------------------------------------------

    def format_action(self, action: Action) -> str:
        return actions.format_action(self, action)

    def reveal_text(self, r: Reveal) -> str:
        return actions.reveal_text(self, r)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def notation_pattern(self) -> re.Pattern[str]:
        """The notation in running text (`actions.notation_pattern`)."""
        found = self._notation
        if found is None:
            found = self._notation = actions.notation_pattern(self)
        return found

    # --- setup for worked examples -------------------------------------------------------------

    SETUP_KEYS: Final = worked_examples.SETUP_KEYS

    def setup_state(self, setup: Mapping[str, Any]) -> SubzeroState:
        """A state from an example's setup (`worked_examples.setup_state`)."""
        return worked_examples.setup_state(self, setup)

    # --- queries for worked examples ---------------------------------------------------------

    SEARCH: ClassVar[dict[str, Any]] = {"iterations": 40, "depth": 12}
    """How the search player (`mcts`) plays this game: 40 playouts per decision, each 12
    steps of random play scored by `evaluate` (random throwers rarely hit, so a playout to
    the end runs for hundreds of steps and says little)."""

    QUERIES = worked_examples.QUERIES

    def query(self, state: Any, name: str) -> Any:
        return worked_examples.query(self, state, name)

    # --- diagrams for the rulebook -------------------------------------------------------------

    def diagram(self, state: Any) -> Diagram:
        """The battle zone and the player boards (`diagrams.diagram`)."""
        return diagrams.diagram(self, state)
