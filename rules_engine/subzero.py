"""S.U.B.Z.E.R.O. (Snowball Ultimate Battle Zone Enemy Rage Operation): the rules engine.

A snowball fight on a square grid, programmed three cards at a time.  Every number comes
from the game's data (`components/subzero/`): the board size and labels, hand size,
program slots, snowball and HIT-token limits and the ending parameters from game.yaml
`rules:`; the action cards (their actions and steps, and how many of each) from cards.yaml;
the player colours (decks with a pawn) and their HIT tokens from players.yaml.

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

Rule numbers in error messages: 1 setup, 2 programming, 3 reveal, 4 MOVE, 5 SHOOT,
6 ROLL, 7 SWISH, 8 resolution and HIT tokens, 9 refill and reshuffle, 10 game end.

The seed's ambiguities are rule options (`options:` in game.yaml).  Where the text is silent and no
option was asked for, the engine plays these reconstructions:

- the youngest player (chance: `youngest`) places first and starts turn 1;
- a SHOOT with snowballs throws 1 or 2 of them (never none); a ROLL at 2 snowballs is lost;
- SWISH protects for the whole step, whatever the reveal order; a ball flies past its own
  thrower; a ball hits at most one pawn;
- a hit counts only with a HIT token to place: a shooter whose 15 tokens are all placed
  scores nothing more, and when nobody can change the result any more (no tokens left to
  drop anyone out, or to hit everyone) the game ends as a draw among those still in;
- players who drop out (deathmatch) in the same step as the last others, tie for least
  damage (survival), or complete an all-out attack in the same step, share the result;
- a player who drops out discards their hand and program; their pawn leaves the board;
- the discards are reshuffled when a card must be drawn and the draw pile is empty;
- with fixed edge turns, a turn that would leave the board (a corner) stops the mover.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    Arrangements,
    Diagram,
    DiagramCell,
    DiagramGrid,
    EngineBase,
    IllegalActionError,
    JointAction,
    LazySequence,
    Mapped,
    NotationError,
    Product,
    SetupError,
    StateBase,
    Step,
)
from rules_engine.params import GameData

GAME_ID: Final = "subzero"

DEATHMATCH: Final = "deathmatch"
SURVIVAL: Final = "survival"
ALL_OUT: Final = "all-out-attack"

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


@dataclass(frozen=True)
class SubzeroView:
    """What one player can know: the board, the player boards, their own cards, and the
    cards turned up.  Other players' hands, face-down programs and draws appear nowhere."""

    player: str
    phase: str
    turn: int
    slot: int
    start: str | None
    to_act: tuple[str, ...]
    positions: tuple[int, ...]
    snowballs: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    ducking: tuple[bool, ...]
    out: tuple[int, ...]
    hand: tuple[str, ...]
    program: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    program_sizes: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...]
    draw_pile: int
    discards: int
    reshuffles: int
    winners: tuple[int, ...]
    log: tuple[str, ...]


class MultisetDraws(LazySequence[tuple[int, ...]]):
    """Every distinct multiset of `k` cards from a pile (counts per kind), as sorted tuples of
    kind indexes, lazily: the outcomes of one chance draw."""

    def __init__(self, counts: Sequence[int], k: int) -> None:
        self._counts = tuple(counts)
        self._k = k
        self._memo: dict[tuple[int, int], int] = {}
        self._len = self._count(0, k)

    def _count(self, i: int, k: int) -> int:
        if k == 0:
            return 1
        if i >= len(self._counts):
            return 0
        key = (i, k)
        found = self._memo.get(key)
        if found is not None:
            return found
        total = 0
        for take in range(min(k, self._counts[i]), -1, -1):
            total += self._count(i + 1, k - take)
        self._memo[key] = total
        return total

    def _item(self, index: int) -> tuple[int, ...]:
        out: list[int] = []
        k = self._k
        for i, c in enumerate(self._counts):
            if k == 0:
                break
            for take in range(min(k, c), -1, -1):
                n = self._count(i + 1, k - take)
                if index < n:
                    out.extend([i] * take)
                    k -= take
                    break
                index -= n
        return tuple(out)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != self._k:
            return False
        if any(not isinstance(v, int) or not 0 <= v < len(self._counts) for v in value):
            return False
        return list(value) == sorted(value) and all(
            value.count(i) <= c for i, c in enumerate(self._counts)
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
        hit_tokens: dict[str, int] = {}
        snowball_tokens: dict[str, int] = {}
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id not in self.names:
                continue
            token = piece.component.values.get("token")
            if token == "hit":
                hit_tokens[piece.deck.id] = hit_tokens.get(piece.deck.id, 0) + piece.count
            elif token == "snowball":
                snowball_tokens[piece.deck.id] = snowball_tokens.get(piece.deck.id, 0) + piece.count
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
        for piece in game.pieces:
            if piece.kind != "card" or "actions" not in piece.component.values:
                continue
            values = piece.component.values
            actions = tuple(str(a) for a in values["actions"])
            for a in actions:
                if a not in KNOWN_ACTIONS:
                    raise ValueError(f"{piece.component.id}: unknown action {a!r}")
            if len(set(actions)) != len(actions) or not actions or len(actions) > 2:
                raise ValueError(f"{piece.component.id}: one or two different actions")
            steps = int(values.get("steps", 0))
            if (MOVE in actions) != (steps > 0):
                raise ValueError(f"{piece.component.id}: a MOVE card needs steps (and only it)")
            cards.append(Card(piece.component.id, len(cards), actions, steps, piece.count))
        if not cards:
            raise ValueError("no action cards in the data")
        self.cards = tuple(cards)
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
        self._move_options: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self._paths: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.kinds = len(cards)
        self.ball_states = self.max_snowballs + 1
        self.choice_table: list[Choices | None] = [None] * (
            n * self.kinds * self.squares * self.ball_states
        )

    # --- Engine protocol ---------------------------------------------------------------------

    def new_initial_state(self) -> SubzeroState:
        return SubzeroState(self)

    # --- geometry ------------------------------------------------------------------------------

    def edge_distance(self, square: int, heading: int) -> int:
        return len(self.rays[square][heading])

    def turn_options(self, square: int, heading: int, steps: int) -> tuple[int, ...]:
        """The edge turns a move can take: (-1,) when it cannot reach the edge (or the turn
        is fixed by the option), else the directions it may turn to (edge_turn=choose)."""
        dist = len(self.rays[square][heading])
        reaches = steps >= dist if self.arrive else steps > dist
        if not reaches or self.edge_turn != "choose":
            return (-1,)
        edge = self.rays[square][heading][dist - 1] if dist else square
        turns = tuple(t for t in ((heading + 6) % 8, (heading + 2) % 8) if self.rays[edge][t])
        return turns or (-1,)

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
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = self._path(square, heading, steps, turn)
        return found

    def _path(self, square: int, heading: int, steps: int, turn: int) -> tuple[int, ...]:
        ray = self.rays[square][heading]
        dist = len(ray)
        reaches = steps >= dist if self.arrive else steps > dist
        straight = ray[: min(steps, dist)]
        if not reaches:
            return straight
        edge = ray[dist - 1] if dist else square
        if self.edge_turn == "left":
            turn = (heading + 6) % 8
        elif self.edge_turn == "right":
            turn = (heading + 2) % 8
        if turn < 0:
            return straight
        side = self.rays[edge][turn]
        return (*straight, side[0]) if side else straight

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
            found = self._make_choices(player, kind, square, balls)
            self.choice_table[key] = found
        return found

    def _make_choices(self, player: int, kind: int, square: int, balls: int) -> Choices:
        card = self.cards[kind]
        cid = card.id
        moves = self.move_options(square, card.steps) if card.steps else ()
        shots: tuple[tuple[int, ...] | None, ...] = (
            self.shot_options[min(balls, self.max_balls_per_shot)] if SHOOT in card.actions else ()
        )
        roll = ROLL_ in card.actions
        swish = SWISH in card.actions
        if not card.combined or self.combined_mode == "one":
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

    # --- notation --------------------------------------------------------------------------------

    def format_action(self, action: Action) -> str:
        if isinstance(action, Reveal):
            return self.reveal_text(action)
        if isinstance(action, Program):
            return f"{self.names[action.player]} program " + " ".join(action.cards)
        if isinstance(action, Draw):
            return f"draw {self.names[action.player]} " + " ".join(action.cards)
        if isinstance(action, Reshuffle):
            return "reshuffle"
        if isinstance(action, Place):
            return f"{self.names[action.player]} place {self.square_names[action.square]}"
        if isinstance(action, Youngest):
            return f"youngest {self.names[action.player]}"
        raise TypeError(f"not a S.U.B.Z.E.R.O. action: {action!r}")

    def reveal_text(self, r: Reveal) -> str:
        card = self.cards[self.card_index[r.card]] if r.card in self.card_index else None
        words = [self.names[r.player], r.card]
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

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise NotationError("empty action")
        head = words[0]
        if head == "reshuffle" and len(words) == 1:
            return Reshuffle()
        if head == "youngest" and len(words) == 2:
            return Youngest(self.player_index(words[1]))
        if head == "draw" and len(words) >= 3:
            player = self.player_index(words[1])
            for w in words[2:]:
                self._card(w)
            return Draw(player, tuple(sorted(words[2:], key=self.card_index.__getitem__)))
        if len(words) >= 2 and words[1] == "place":
            if len(words) != 3:
                raise NotationError("a placement is 'NAME place SQUARE', like 'red place C2'")
            return Place(self.player_index(head), self._square(words[2]))
        if len(words) >= 2 and words[1] == "program":
            player = self.player_index(head)
            for w in words[2:]:
                self._card(w)
            return Program(player, tuple(words[2:]))
        if len(words) >= 2 and head in self._player_index:
            return self._parse_reveal(self.player_index(head), words[1], words[2:])
        raise NotationError(
            f"cannot read {text!r}: expected 'youngest NAME', 'NAME place SQUARE', "
            "'draw NAME CARDS...', 'reshuffle', 'NAME program CARDS...' or a reveal "
            "like 'NAME shoot NW'"
        )

    def _card(self, word: str) -> Card:
        index = self.card_index.get(word)
        if index is None:
            raise NotationError(f"unknown card '{word}' (cards: {', '.join(self.card_ids)})")
        return self.cards[index]

    def _square(self, word: str) -> int:
        s = self.square_index.get(word)
        if s is None:
            raise NotationError(
                f"unknown square '{word}' (columns {self.column_labels[0]}-"
                f"{self.column_labels[-1]}, rows {self.row_labels[0]}-{self.row_labels[-1]})"
            )
        return s

    def _direction(self, word: str) -> int:
        d = DIRECTION_INDEX.get(word)
        if d is None:
            raise NotationError(f"unknown direction '{word}' (directions: {' '.join(DIRECTIONS)})")
        return d

    def _parse_reveal(self, player: int, card_id: str, rest: list[str]) -> Reveal:
        card = self._card(card_id)
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
                    f"(a reveal is like '{self.names[player]} {card.id} ...')"
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
                move = self._direction(args[0])
                if len(args) == 3:
                    turn = self._direction(args[2])
            elif word == SHOOT:
                shots = tuple(sorted(self._direction(a) for a in args))
            elif args:
                raise NotationError(f"'{word}' takes no choices, got {' '.join(args)}")
            elif word == ROLL_:
                roll = True
            else:
                swish = True
        return Reveal(player, card.id, move, turn, shots, roll, swish)

    # --- setup for worked examples -------------------------------------------------------------

    SETUP_KEYS: Final = (
        "youngest",
        "turn",
        "start",
        "positions",
        "snowballs",
        "boards",
        "out",
        "hands",
        "programs",
        "draw_pile",
        "discards",
    )

    def setup_state(self, setup: Mapping[str, Any]) -> SubzeroState:
        """A state from an example's setup.

        `youngest: red` alone starts the placement.  With `positions` (every pawn's square,
        players in `out` excepted) and `start` (this turn's start player) the game is in
        progress: with `programs` (each player's 3 face-down cards) the first reveal is next;
        with `hands` only, the programming; with neither, the refill.  `snowballs`,
        `boards` ({target: {shooter: HIT tokens}}), `turn`, `draw_pile` and `discards` are
        optional (hands of fewer than 5 cards without programs: the refill is next); the cards not listed anywhere are in the draw pile (or, when `draw_pile`
        is given, in the discards)."""
        for key in setup:
            if key not in self.SETUP_KEYS:
                raise SetupError(
                    (key,), f"unknown setup key '{key}' (known: {', '.join(self.SETUP_KEYS)})"
                )
        state = SubzeroState(self)
        if "positions" not in setup:
            extra = [k for k in setup if k != "youngest"]
            if extra:
                raise SetupError((extra[0],), "give 'positions' and 'start' for a game in progress")
            if "youngest" in setup:
                state.apply(Youngest(self._setup_player(setup["youngest"], ("youngest",))))
            return state
        if "youngest" in setup:
            raise SetupError(("youngest",), "'youngest' only starts a new game (no 'positions')")
        n = self.num_players
        s = state
        out: list[int] = []
        for i, name in enumerate(self._setup_seq(setup, "out")):
            p = self._setup_player(name, ("out", i))
            if p in out:
                raise SetupError(("out", i), f"{name} is out twice")
            out.append(p)
        if self.ending != DEATHMATCH and out:
            raise SetupError(("out",), "players drop out only in deathmatch")
        positions = self._setup_map(setup, "positions")
        pos = [-1] * n
        for name, square in positions.items():
            p = self._setup_player(name, ("positions", name))
            if p in out:
                raise SetupError(("positions", name), f"{name} is out: no pawn")
            sq = self.square_index.get(str(square))
            if sq is None:
                raise SetupError(("positions", name), f"unknown square {square!r}")
            if sq in pos:
                raise SetupError(("positions", name), f"two pawns on {square}")
            pos[p] = sq
        for p in range(n):
            if p not in out and pos[p] < 0:
                raise SetupError(("positions",), f"{self.names[p]} has no square")
        if "start" not in setup:
            raise SetupError(("positions",), "a game in progress needs 'start' (the start player)")
        start = self._setup_player(setup["start"], ("start",))
        if start in out:
            raise SetupError(("start",), "the start player is out")
        turn = setup.get("turn", 1)
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
            raise SetupError(("turn",), f"turn must be a positive integer, got {turn!r}")
        balls = [self.snowballs_at_start] * n
        for name, k in self._setup_map(setup, "snowballs").items():
            p = self._setup_player(name, ("snowballs", name))
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= self.max_snowballs:
                raise SetupError(
                    ("snowballs", name), f"snowballs in hand are 0 to {self.max_snowballs}"
                )
            balls[p] = k
        boards = [[0] * n for _ in range(n)]
        for target_name, by in self._setup_map(setup, "boards").items():
            t = self._setup_player(target_name, ("boards", target_name))
            if not isinstance(by, Mapping):
                raise SetupError(("boards", target_name), "map shooters to HIT tokens")
            for shooter_name, k in by.items():
                sh = self._setup_player(shooter_name, ("boards", target_name, shooter_name))
                if sh == t or not isinstance(k, int) or isinstance(k, bool) or k < 0:
                    raise SetupError(
                        ("boards", target_name, shooter_name),
                        "HIT tokens of another player, a whole number",
                    )
                boards[t][sh] = k
        for sh in range(n):
            if sum(boards[t][sh] for t in range(n)) > self.hit_tokens:
                raise SetupError(
                    ("boards",), f"{self.names[sh]} has only {self.hit_tokens} HIT tokens"
                )
        used = [0] * len(self.cards)

        def cards_of(key: str, name: str, items: Any) -> list[int]:
            if not isinstance(items, list):
                raise SetupError((key, name), f"'{key}' of {name} must be a list of cards")
            kinds = []
            for j, c in enumerate(items):
                k = self.card_index.get(str(c))
                if k is None:
                    raise SetupError(
                        (key, name, j), f"unknown card {c!r} (cards: {', '.join(self.card_ids)})"
                    )
                used[k] += 1
                kinds.append(k)
            return kinds

        hands: list[list[int]] = [[] for _ in range(n)]
        programs: list[tuple[int, ...]] = [() for _ in range(n)]
        has_programs = "programs" in setup
        for key in ("hands", "programs"):
            given = self._setup_map(setup, key)
            for name, items in given.items():
                p = self._setup_player(name, (key, name))
                if p in out:
                    raise SetupError((key, name), f"{name} is out: no cards")
                kinds = cards_of(key, name, items)
                if key == "hands":
                    hands[p] = sorted(kinds)
                else:
                    if len(kinds) != self.slots:
                        raise SetupError(
                            (key, name), f"a program is {self.slots} cards, got {len(kinds)}"
                        )
                    programs[p] = tuple(kinds)
            if given:
                for p in range(n):
                    if p not in out and self.names[p] not in given:
                        raise SetupError((key,), f"'{key}' must list every player in the game")
        for p in range(n):
            if p in out:
                continue
            size = len(hands[p]) + len(programs[p])
            limit = self.hand_size
            if size > limit:
                raise SetupError(("hands", self.names[p]), f"more than {limit} cards")
            if has_programs and size != limit:
                raise SetupError(
                    ("hands", self.names[p]),
                    f"with programs, a hand holds {limit - self.slots} more cards "
                    f"({self.names[p]} has {size} in all)",
                )
        pile_given = "draw_pile" in setup
        pile_list = cards_of("draw_pile", "pile", self._setup_seq(setup, "draw_pile"))
        disc_list = cards_of("discards", "discards", self._setup_seq(setup, "discards"))
        for k, c in enumerate(self.deck_counts):
            if used[k] > c:
                raise SetupError(
                    ("hands",), f"{used[k]} cards {self.card_ids[k]} listed, the deck has {c}"
                )
        rest = [self.deck_counts[k] - used[k] for k in range(len(self.cards))]
        pile = [0] * len(self.cards)
        disc = [0] * len(self.cards)
        for k in pile_list:
            pile[k] += 1
        for k in disc_list:
            disc[k] += 1
        for k in range(len(self.cards)):
            if pile_given:
                disc[k] += rest[k]
            else:
                pile[k] += rest[k]
        s.turn = turn
        s.pos = pos
        s.at = [-1] * self.squares
        for p, sq in enumerate(pos):
            if sq >= 0:
                s.at[sq] = p
        s.balls = balls
        s.boards = boards
        s.supply = [self.hit_tokens - sum(boards[t][sh] for t in range(n)) for sh in range(n)]
        s.damage = [sum(row) for row in boards]
        s.out = out
        s.hands = hands
        s.programs = programs
        s.pile = pile
        s.pile_total = sum(pile)
        s.discards = disc
        s.discard_total = sum(disc)
        s.start = start
        s.youngest = start
        s._set_order()
        if has_programs:
            s.phase = REVEAL
            s.slot = 0
            s.rpos = 0
        elif "hands" in setup and all(
            len(hands[p]) == self.hand_size for p in range(n) if p not in out
        ):
            s.phase = PROGRAM
        else:
            s.phase = DEAL
            s.queue = [p for p in s.order if len(s.hands[p]) < self.hand_size]
            if not s.queue:
                s.phase = PROGRAM
        s.init = _Init(
            tuple(pos),
            turn,
            tuple(balls),
            tuple(map(tuple, boards)),
            tuple(out),
            tuple(map(tuple, hands)),
            tuple(programs),
            tuple(pile),
            tuple(disc),
            start,
            s.phase,
        )
        s._check_end_at_setup()
        return s

    def _setup_map(self, setup: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = setup.get(key, {})
        if not isinstance(value, Mapping):
            raise SetupError((key,), f"'{key}' must map player names to values")
        return value

    def _setup_seq(self, setup: Mapping[str, Any], key: str) -> list[Any]:
        value = setup.get(key, [])
        if not isinstance(value, list):
            raise SetupError((key,), f"'{key}' must be a list")
        return value

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = (
        "phase",
        "turn",
        "step",
        "start",
        "positions",
        "snowballs",
        "boards",
        "damage",
        "hit_tokens_left",
        "revealed",
        "ducking",
        "last_hits",
        "last_moves",
        "targets",
        "hands",
        "programs",
        "draw_pile",
        "discards",
        "reshuffles",
        "out",
        "victims",
        "winners",
    )

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, SubzeroState):
            raise TypeError("not a S.U.B.Z.E.R.O. state")
        s = state
        names = self.names
        n = s.n
        sq = self.square_names
        if name == "phase":
            return PHASE_NAMES[s.phase]
        if name == "turn":
            return s.turn
        if name == "step":
            return s.slot + 1 if s.phase == REVEAL else 0
        if name == "start":
            return names[s.start] if s.start >= 0 else None
        if name == "positions":
            return {names[p]: (sq[s.pos[p]] if s.pos[p] >= 0 else None) for p in range(n)}
        if name == "snowballs":
            return {names[p]: s.balls[p] for p in range(n)}
        if name == "boards":
            return {
                names[t]: {names[sh]: k for sh, k in enumerate(s.boards[t]) if k} for t in range(n)
            }
        if name == "damage":
            return {names[p]: s.damage[p] for p in range(n)}
        if name == "hit_tokens_left":
            return {names[p]: s.supply[p] for p in range(n)}
        if name == "revealed":
            shown = s.step_reveals or s.last_reveals
            return {names[r.player]: self.reveal_text(r) for r in shown}
        if name == "ducking":
            return [names[p] for p in range(n) if s.ducking[p]]
        if name == "last_hits":
            return [
                f"{names[a]}>{names[b]}" + ("" if placed else " (no HIT token left)")
                for a, b, placed in s.last_hits
            ]
        if name == "last_moves":
            return {names[p]: "-".join(sq[q] for q in walk) for p, walk in s.last_moves}
        if name == "targets":
            return {DIRECTIONS[d]: names[p] for d, p in s.targets().items()}
        if name == "hands":
            return {names[p]: [self.card_ids[k] for k in s.hands[p]] for p in range(n)}
        if name == "programs":
            return {names[p]: [self.card_ids[k] for k in s.programs[p]] for p in range(n)}
        if name == "draw_pile":
            return s.pile_total
        if name == "discards":
            return s.discard_total
        if name == "reshuffles":
            return s.reshuffles
        if name == "out":
            return [names[p] for p in s.out]
        if name == "victims":
            return {
                names[sh]: [names[t] for t in range(n) if t != sh and s.boards[t][sh]]
                for sh in range(n)
            }
        if name == "winners":
            return [names[p] for p in s.winners]
        raise KeyError(name)

    # --- diagrams for the rulebook -------------------------------------------------------------

    def diagram(self, state: Any) -> Diagram:
        """The battle zone and the player boards (snowballs, damage, HIT tokens by shooter).

        On the board: pawns (colour symbol and initial); after a step, who was hit
        (mark `hit`), who ducked (`duck`) and the squares movers left (`·`, mark `trail`);
        during a step, the balls in flight on the first square of their line (`o`, mark
        `ball`), who ducks and who is moving (`moving`); the next to reveal is `active`."""
        if not isinstance(state, SubzeroState):
            raise TypeError("not a S.U.B.Z.E.R.O. state")
        s = state
        names = self.names
        w = self.width
        mid_step = s.phase == REVEAL and bool(s.step_reveals)
        # After a step: who was hit and where movers came from.  During one: the balls
        # in flight (on the first square of their line) and who is moving.
        hit = set() if mid_step else {b for _, b, _ in s.last_hits}
        starts = {} if mid_step else {walk[0]: p for p, walk in s.last_moves if len(walk) > 1}
        moving = {r.player for r in s.step_reveals if r.move >= 0}
        shown = s.step_reveals if mid_step else s.last_reveals
        ducked = {r.player for r in shown if r.swish}
        flying: dict[int, str] = {}
        if mid_step:
            for r in s.step_reveals:
                for d in r.shots or ():
                    ray = self.rays[s.pos[r.player]][d]
                    if ray:
                        flying[ray[0]] = flying.get(ray[0], "") + "o"
        rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
        for row in range(self.height - 1, -1, -1):
            cells = []
            for c in range(w):
                q = c + row * w
                p = s.at[q]
                if p >= 0:
                    mark = (
                        "hit"
                        if p in hit
                        else "duck"
                        if p in ducked
                        else "moving"
                        if p in moving
                        else ""
                    )
                    if (
                        s.phase == REVEAL
                        and s.order
                        and s.rpos < len(s.order)
                        and s.order[s.rpos] == p
                    ):
                        mark = mark or "active"
                    text = self.symbols[p] + names[p][0].upper() + flying.get(q, "")
                    cells.append(DiagramCell(text, mark))
                elif q in flying:
                    cells.append(DiagramCell(flying[q], "ball"))
                elif q in starts:
                    cells.append(DiagramCell("·", "trail"))
                else:
                    cells.append(DiagramCell())
            label = self.row_labels[row]
            rows.append(({"ja": label, "en": label}, tuple(cells)))
        board = DiagramGrid(
            {"ja": f"雪合戦場 ターン{s.turn}", "en": f"Battle zone, turn {s.turn}"},
            self.column_labels,
            tuple(rows),
        )
        status_rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
        for p in range(s.n):
            tokens = " ".join(
                f"{names[sh][0].upper()}×{k}" for sh, k in enumerate(s.boards[p]) if k
            )
            status_rows.append(
                (
                    {"ja": names[p], "en": names[p]},
                    (
                        DiagramCell(str(s.balls[p])),
                        DiagramCell(str(s.damage[p]), "hit" if p in hit else ""),
                        DiagramCell(tokens),
                        DiagramCell("out" if p in s.out else ""),
                    ),
                )
            )
        status = DiagramGrid(
            {"ja": "プレイヤー用ボード", "en": "Player boards"},
            ("snowballs", "damage", "HIT tokens", ""),
            tuple(status_rows),
        )
        return (board, status)


class _Init(NamedTuple):
    pos: tuple[int, ...]
    turn: int
    balls: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    out: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    programs: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    discards: tuple[int, ...]
    start: int
    phase: int


class SubzeroState(StateBase[Action, Subzero]):
    """A position of S.U.B.Z.E.R.O. (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "10"
    JOINT_RULE = "2"
    JOINT_NEEDED = "all {n} players program their cards at the same time: give a joint action"

    __slots__ = (
        "_history",
        "at",
        "balls",
        "boards",
        "damage",
        "discard_total",
        "discards",
        "ducking",
        "g",
        "hands",
        "init",
        "last_hits",
        "last_moves",
        "last_reveals",
        "n",
        "order",
        "out",
        "phase",
        "pile",
        "pile_total",
        "pos",
        "programs",
        "queue",
        "reshuffles",
        "rpos",
        "slot",
        "start",
        "step_reveals",
        "supply",
        "turn",
        "winners",
        "youngest",
    )

    def __init__(self, engine: Subzero) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self.init: _Init | None = None
        self._history: list[Step[Action]] = []
        self.phase = YOUNGEST
        self.turn = 1
        self.pos = [-1] * n
        self.at = [-1] * g.squares
        self.balls = [g.snowballs_at_start] * n
        self.boards = [[0] * n for _ in range(n)]
        self.supply = [g.hit_tokens] * n
        self.damage = [0] * n
        self.ducking = [False] * n
        self.out: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.programs: list[tuple[int, ...]] = [() for _ in range(n)]
        self.pile = list(g.deck_counts)
        self.pile_total = g.deck_size
        self.discards = [0] * len(g.cards)
        self.discard_total = 0
        self.reshuffles = 0
        self.start = -1
        self.youngest = -1
        self.order: tuple[int, ...] = ()
        self.queue: list[int] = []  # who places a pawn (PLACE) or draws (DEAL) next
        self.slot = 0
        self.rpos = 0
        self.step_reveals: list[Reveal] = []
        self.last_reveals: list[Reveal] = []
        self.last_hits: list[tuple[int, int, bool]] = []
        self.last_moves: list[tuple[int, tuple[int, ...]]] = []
        self.winners: tuple[int, ...] = ()

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == REVEAL:
            return (self.order[self.rpos],)
        if phase in (DEAL, YOUNGEST):
            return (CHANCE,)
        if phase == PROGRAM:
            return self.order_seats()
        if phase == PLACE:
            return (self.queue[0],)
        return ()

    def order_seats(self) -> tuple[int, ...]:
        """Players still in the game, in seat order (the order of a joint programming)."""
        out = self.out
        return tuple(p for p in range(self.n) if p not in out)

    def legal_actions(self, player: int) -> Sequence[Action]:
        g = self.g
        phase = self.phase
        if phase == REVEAL and player == self.order[self.rpos]:
            return self._reveal_actions(player)
        if phase == DEAL and player == CHANCE:
            if self.pile_total == 0:
                return [Reshuffle()]
            p = self.queue[0]
            k = min(g.hand_size - len(self.hands[p]), self.pile_total)
            ids = g.card_ids
            return Mapped(
                MultisetDraws(self.pile, k),
                lambda t: Draw(p, tuple(ids[i] for i in t)),
                lambda a: (
                    tuple(g.card_index.get(c, -1) for c in a.cards)
                    if isinstance(a, Draw) and a.player == p
                    else None
                ),
            )
        if phase == PROGRAM and player in self.order_seats():
            ids = g.card_ids
            return Mapped(
                Arrangements(self.hands[player], g.slots),
                lambda t: Program(player, tuple(ids[i] for i in t)),
                lambda a: (
                    tuple(g.card_index.get(c, -1) for c in a.cards)
                    if isinstance(a, Program) and a.player == player
                    else None
                ),
            )
        if phase == PLACE and player == self.queue[0]:
            return [Place(player, q) for q in range(g.squares) if self.at[q] < 0]
        if phase == YOUNGEST and player == CHANCE:
            return [Youngest(p) for p in range(self.n)]
        return []

    def _choices(self, player: int) -> Choices:
        programs = self.programs
        return self.g.reveal_choices(
            player, programs[player][self.slot], self.pos[player], self.balls[player]
        )

    def _reveal_actions(self, player: int) -> Sequence[Action]:
        listed, moves, shots = self._choices(player)
        if listed:
            return listed
        r = self.g.reveal_template(player, self.programs[player][self.slot])
        return Mapped(
            Product(moves, shots),
            lambda t: r._replace(move=t[0][0], turn=t[0][1], shots=t[1]),
            lambda a: (
                ((a.move, a.turn), a.shots)
                if isinstance(a, Reveal) and a.player == r.player and a.card == r.card
                else None
            ),
        )

    def sample_action(self, player: int, rng: random.Random) -> Action:
        return self._sample(player, rng.random, rng)

    def _sample(self, player: int, rnd: Any, rng: random.Random) -> Action:
        phase = self.phase
        g = self.g
        if phase == REVEAL and player == self.order[self.rpos]:
            return self._sample_reveal(player, rnd)
        if phase == DEAL and player == CHANCE:
            if self.pile_total == 0:
                return Reshuffle()
            p = self.queue[0]
            k = min(g.hand_size - len(self.hands[p]), self.pile_total)
            counts = list(self.pile)
            total = self.pile_total
            drawn = []
            for _ in range(k):
                r = int(rnd() * total)
                i = 0
                while r >= counts[i]:
                    r -= counts[i]
                    i += 1
                counts[i] -= 1
                total -= 1
                drawn.append(i)
            drawn.sort()
            ids = g.card_ids
            return Draw(p, tuple([ids[i] for i in drawn]))
        if phase == PROGRAM and player in self.order_seats():
            ids = g.card_ids
            return Program(player, tuple([ids[k] for k in self._pick_program(player, rnd)]))
        if phase == PLACE and player == self.queue[0]:
            free = [q for q in range(g.squares) if self.at[q] < 0]
            return Place(player, free[int(rnd() * len(free))])
        if phase == YOUNGEST and player == CHANCE:
            return Youngest(int(rnd() * self.n))
        raise IllegalActionError("3", f"{g.player_name(player)} has nothing to do now")

    def _pick_program(self, player: int, rnd: Any) -> list[int]:
        """A random ordered choice of program cards from the hand (each card in hand, not
        each kind, equally likely)."""
        hand = list(self.hands[player])
        picked = []
        for _ in range(self.g.slots):
            picked.append(hand.pop(int(rnd() * len(hand))))
        return picked

    def _sample_reveal(self, player: int, rnd: Any) -> Reveal:
        programs = self.programs
        listed, moves, shots = self.g.reveal_choices(
            player, programs[player][self.slot], self.pos[player], self.balls[player]
        )
        if listed:
            return listed[int(rnd() * len(listed))]
        ns = len(shots)
        i = int(rnd() * (len(moves) * ns))
        d, t = moves[i // ns]
        r = self.g.reveal_template(player, programs[player][self.slot])
        return Reveal(player, r.card, d, t, shots[i % ns], False, False)

    def clone(self) -> SubzeroState:
        new = SubzeroState.__new__(SubzeroState)
        new.g = self.g
        new.n = self.n
        new.init = self.init
        new._history = list(self._history)
        new.phase = self.phase
        new.turn = self.turn
        new.pos = list(self.pos)
        new.at = list(self.at)
        new.balls = list(self.balls)
        new.boards = [list(b) for b in self.boards]
        new.supply = list(self.supply)
        new.damage = list(self.damage)
        new.ducking = list(self.ducking)
        new.out = list(self.out)
        new.hands = [list(h) for h in self.hands]
        new.programs = list(self.programs)
        new.pile = list(self.pile)
        new.pile_total = self.pile_total
        new.discards = list(self.discards)
        new.discard_total = self.discard_total
        new.reshuffles = self.reshuffles
        new.start = self.start
        new.youngest = self.youngest
        new.order = self.order
        new.queue = list(self.queue)
        new.slot = self.slot
        new.rpos = self.rpos
        new.step_reveals = list(self.step_reveals)
        new.last_reveals = self.last_reveals
        new.last_hits = list(self.last_hits)
        new.last_moves = list(self.last_moves)
        new.winners = self.winners
        return new

    def initial(self) -> SubzeroState:
        init = self.init
        if init is None:
            return SubzeroState(self.g)
        g = self.g
        s = SubzeroState(g)
        s.turn = init.turn
        s.pos = list(init.pos)
        for p, sq in enumerate(init.pos):
            if sq >= 0:
                s.at[sq] = p
        s.balls = list(init.balls)
        s.boards = [list(b) for b in init.boards]
        s.supply = [g.hit_tokens - sum(b[sh] for b in init.boards) for sh in range(s.n)]
        s.damage = [sum(b) for b in init.boards]
        s.out = list(init.out)
        s.hands = [list(h) for h in init.hands]
        s.programs = list(init.programs)
        s.pile = list(init.pile)
        s.pile_total = sum(init.pile)
        s.discards = list(init.discards)
        s.discard_total = sum(init.discards)
        s.start = s.youngest = init.start
        s._set_order()
        s.phase = init.phase
        if s.phase == DEAL:
            s.queue = [p for p in s.order if len(s.hands[p]) < g.hand_size]
        s.init = init
        s._check_end_at_setup()
        return s

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.turn, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.init,
            tuple(self._history),
            self.phase,
            self.turn,
            tuple(self.pos),
            tuple(self.at),
            tuple(self.balls),
            tuple(map(tuple, self.boards)),
            tuple(self.supply),
            tuple(self.damage),
            tuple(self.ducking),
            tuple(self.out),
            tuple(map(tuple, self.hands)),
            tuple(self.programs),
            tuple(self.pile),
            tuple(self.discards),
            self.reshuffles,
            self.start,
            self.youngest,
            self.order,
            tuple(self.queue),
            self.slot,
            self.rpos,
            tuple(self.step_reveals),
            tuple(self.last_reveals),
            tuple(self.last_hits),
            tuple(self.last_moves),
            self.winners,
        )

    def __repr__(self) -> str:
        return (
            f"<SubzeroState turn {self.turn} {PHASE_NAMES[self.phase]} step {self.slot + 1} "
            f"damage {self.damage}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random, max_turns: int = 100_000) -> None:
        """Play to the end with random legal actions: the same choices (and history) as
        `core.play_random` with the same seed, faster, because the actions are drawn legal
        and so skip the legality check (and a step's reveals are done in one loop)."""
        g = self.g
        rnd = rng.random
        history = self._history
        sample = self._sample
        do = self._do
        table = g.choice_table
        make = g._make_choices
        kinds = g.kinds
        squares = g.squares
        ball_states = g.ball_states
        max_balls = g.max_snowballs
        card_ids = g.card_ids
        append = history.append
        hand_size = g.hand_size
        slots = g.slots
        while True:
            phase = self.phase
            if phase == REVEAL:
                slot = self.slot
                programs = self.programs
                pos = self.pos
                balls = self.balls
                reveals = self.step_reveals
                order = self.order
                ducking = self.ducking
                moving = shooting = ducked = False
                for p in order[self.rpos :]:
                    kind = programs[p][slot]
                    held = balls[p]
                    key = ((p * kinds + kind) * squares + pos[p]) * ball_states + held
                    choices = table[key]
                    if choices is None:
                        choices = table[key] = make(p, kind, pos[p], held)
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
                self.rpos = len(order)
                self._resolve_step(moving, shooting, ducked)
                continue
            if phase == DEAL:
                if self.pile_total == 0:
                    append(Reshuffle())
                    self._reshuffle()
                    continue
                queue = self.queue
                p = queue[0]
                hand = self.hands[p]
                total = self.pile_total
                k = min(hand_size - len(hand), total)
                pile = self.pile
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
                append(Draw(p, tuple([card_ids[i] for i in drawn])))
                hand += drawn
                hand.sort()
                self.pile_total = total
                if len(hand) >= hand_size:
                    del queue[0]
                    if not queue:
                        self.phase = PROGRAM
                continue
            if phase == PROGRAM:
                programs = self.programs
                joint = []
                for p in self.order_seats():
                    hand = self.hands[p]
                    chosen = tuple([hand.pop(int(rnd() * len(hand))) for _ in range(slots)])
                    programs[p] = chosen
                    joint.append(Program(p, tuple([card_ids[k] for k in chosen])))
                append(JointAction(joint))
                self.phase = REVEAL
                self.slot = 0
                self.rpos = 0
                self.step_reveals = []
                if self.turn > max_turns:
                    raise RuntimeError(f"no end after {max_turns} turns")
                continue
            if phase == OVER:
                return
            action = sample(self.queue[0], rnd, rng) if phase == PLACE else sample(CHANCE, rnd, rng)
            append(action)
            do(action)

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        g = self.g
        phase = self.phase
        names = g.names
        if phase == OVER:
            raise IllegalActionError("10", "the game is over")
        if isinstance(action, Reveal):
            if phase != REVEAL:
                raise IllegalActionError("3", f"no card is being revealed now ({self._now()})")
            who = self.order[self.rpos]
            if action.player != who or player != who:
                raise IllegalActionError(
                    "3",
                    f"step {self.slot + 1}: {names[who]} reveals next (clockwise from the "
                    f"start player {names[self.start]}), not {g.player_name(action.player)}",
                )
            self._check_reveal(action)
            return
        if isinstance(action, Program):
            if phase != PROGRAM:
                raise IllegalActionError(
                    "2", f"cards are programmed at the start of a turn ({self._now()})"
                )
            if action.player != player or player in self.out:
                raise IllegalActionError(
                    "2",
                    f"{g.player_name(player)} cannot program {g.player_name(action.player)}'s cards",
                )
            if len(action.cards) != g.slots:
                raise IllegalActionError(
                    "2",
                    f"{g.slots} of the {len(self.hands[player])} cards in hand are placed face "
                    f"down, {names[player]} placed {len(action.cards)}",
                )
            hand = [g.card_ids[k] for k in self.hands[player]]
            for c in set(action.cards):
                have = hand.count(c)
                if action.cards.count(c) > have:
                    raise IllegalActionError(
                        "2",
                        f"{names[player]} has {have} card(s) {c} in hand (hand: {' '.join(hand)})",
                    )
            return
        if isinstance(action, Draw):
            if phase != DEAL:
                raise IllegalActionError("9", f"no cards are drawn now ({self._now()})")
            p = self.queue[0]
            if action.player != p:
                raise IllegalActionError("9", f"{names[p]} draws next, not {names[action.player]}")
            if self.pile_total == 0:
                raise IllegalActionError(
                    "9", "the draw pile is empty: reshuffle the discards first"
                )
            k = min(g.hand_size - len(self.hands[p]), self.pile_total)
            if len(action.cards) != k:
                raise IllegalActionError(
                    "9",
                    f"{names[p]} draws {k} card(s) (hand of {g.hand_size}, "
                    f"{self.pile_total} in the draw pile), got {len(action.cards)}",
                )
            kinds = []
            for c in action.cards:
                if c not in g.card_index:
                    raise IllegalActionError("9", f"unknown card '{c}'")
                kinds.append(g.card_index[c])
            if kinds != sorted(kinds):
                raise IllegalActionError("9", "drawn cards are listed in data order")
            for k2 in set(kinds):
                if kinds.count(k2) > self.pile[k2]:
                    raise IllegalActionError(
                        "9",
                        f"the draw pile holds {self.pile[k2]} card(s) {g.card_ids[k2]}, "
                        f"{kinds.count(k2)} drawn",
                    )
            return
        if isinstance(action, Reshuffle):
            if phase != DEAL:
                raise IllegalActionError("9", f"no cards are drawn now ({self._now()})")
            if self.pile_total:
                raise IllegalActionError(
                    "9", f"the draw pile still holds {self.pile_total} card(s): no reshuffle"
                )
            return
        if isinstance(action, Place):
            if phase != PLACE:
                raise IllegalActionError("1", f"pawns are placed at the start ({self._now()})")
            p = self.queue[0]
            if action.player != p or player != p:
                raise IllegalActionError(
                    "1", f"{names[p]} places next (clockwise from the youngest player)"
                )
            if not 0 <= action.square < g.squares:
                raise IllegalActionError("1", "a pawn goes on a square of the battle zone")
            if self.at[action.square] >= 0:
                raise IllegalActionError(
                    "1",
                    f"{g.square_names[action.square]} already holds "
                    f"{names[self.at[action.square]]}'s pawn",
                )
            return
        if isinstance(action, Youngest):
            if phase != YOUNGEST:
                raise IllegalActionError("1", f"the youngest player is known ({self._now()})")
            if not 0 <= action.player < self.n:
                raise IllegalActionError("1", "the youngest is one of the players")
            return
        raise IllegalActionError("3", f"not a S.U.B.Z.E.R.O. action: {action!r}")

    def _check_reveal(self, r: Reveal) -> None:
        g = self.g
        name = g.names[r.player]
        card_kind = self.programs[r.player][self.slot]
        card = g.cards[card_kind]
        if r.card != card.id:
            raise IllegalActionError(
                "3",
                f"{name}'s card in slot {self.slot + 1} is {card.id}, not {r.card}",
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
                raise IllegalActionError("3", f"card {card.id} has no {a.upper()}")
        if card.combined and g.combined_mode == "one":
            if len(used) != 1:
                raise IllegalActionError(
                    "3",
                    f"a combined card does one of its actions "
                    f"({' or '.join(a.upper() for a in card.actions)}): choose one",
                )
        elif len(used) != len(card.actions):
            missing = [a.upper() for a in card.actions if a not in used]
            raise IllegalActionError("3", f"card {card.id} also does {' and '.join(missing)}")
        if r.move >= 0:
            if r.move not in ORTHOGONAL:
                raise IllegalActionError(
                    "4",
                    f"a MOVE goes up, down, left or right (N, E, S, W), not {DIRECTIONS[r.move]}",
                )
            turns = g.turn_options(self.pos[r.player], r.move, card.steps)
            if r.turn not in turns:
                if turns == (-1,):
                    why = (
                        "the edge turn is fixed by the rules"
                        if g.edge_turn != "choose"
                        else f"a {card.steps}-step move {DIRECTIONS[r.move]} from "
                        f"{g.square_names[self.pos[r.player]]} does not reach the edge"
                    )
                    raise IllegalActionError("4", f"no turn to choose: {why}")
                listing = " or ".join(DIRECTIONS[t] for t in turns)
                raise IllegalActionError(
                    "4",
                    f"this move reaches the edge: say where it turns 90 degrees "
                    f"({DIRECTIONS[r.move]} turn {listing})",
                )
        elif r.turn >= 0:
            raise IllegalActionError("4", "a turn belongs to a move")
        if r.shots is not None:
            balls = self.balls[r.player]
            k = len(r.shots)
            if balls == 0 and k:
                raise IllegalActionError(
                    "5", f"{name} holds no snowball: the SHOOT has no effect (throw nothing)"
                )
            if balls and not 1 <= k <= min(balls, g.max_balls_per_shot):
                raise IllegalActionError(
                    "5",
                    f"{name} holds {balls} snowball(s): throw 1 to "
                    f"{min(balls, g.max_balls_per_shot)} ball(s), one per snowball, got {k}",
                )
            for d in r.shots:
                if d not in g.shot_directions:
                    raise IllegalActionError("5", f"a ball flies along a straight line, not {d}")
            if list(r.shots) != sorted(r.shots):
                raise IllegalActionError("5", "ball directions are listed N, NE, E ... NW")

    def _now(self) -> str:
        g = self.g
        phase = self.phase
        if phase == REVEAL:
            return f"step {self.slot + 1}: {g.names[self.order[self.rpos]]} reveals"
        if phase == PROGRAM:
            return "the players are programming their cards"
        if phase == DEAL:
            return "cards are being drawn"
        if phase == PLACE:
            return "the pawns are being placed"
        if phase == YOUNGEST:
            return "the youngest player is not known yet"
        return "the game is over"

    # --- rules ------------------------------------------------------------------------------

    def _set_order(self) -> None:
        """Reveal order of this turn: clockwise from the start player, players still in."""
        n = self.n
        out = self.out
        self.order = tuple(p for p in ((self.start + i) % n for i in range(n)) if p not in out)

    def _do(self, action: Action) -> None:
        t = type(action)
        if t is Reveal:
            self._reveal(action)  # type: ignore[arg-type]
        elif t is Program:
            self._program(action)  # type: ignore[arg-type]
        elif t is Draw:
            self._draw(action)  # type: ignore[arg-type]
        elif t is Reshuffle:
            self._reshuffle()
        elif t is Place:
            self._place(action)  # type: ignore[arg-type]
        else:
            self._youngest(action.player)  # type: ignore[union-attr]

    def _youngest(self, player: int) -> None:
        self.youngest = player
        self.start = player
        self._set_order()
        self.queue = list(self.order)
        self.phase = PLACE

    def _place(self, place: Place) -> None:
        self.pos[place.player] = place.square
        self.at[place.square] = place.player
        self.queue.pop(0)
        if not self.queue:
            self.queue = list(self.order)
            self.phase = DEAL

    def _draw(self, draw: Draw) -> None:
        g = self.g
        index = g.card_index
        hand = self.hands[draw.player]
        pile = self.pile
        for c in draw.cards:
            k = index[c]
            pile[k] -= 1
            hand.append(k)
        hand.sort()
        self.pile_total -= len(draw.cards)
        if len(hand) >= g.hand_size:
            self.queue.pop(0)
            if not self.queue:
                self.phase = PROGRAM

    def _reshuffle(self) -> None:
        self.pile = self.discards
        self.pile_total = self.discard_total
        self.discards = [0] * len(self.g.cards)
        self.discard_total = 0
        self.reshuffles += 1

    def _program(self, program: Program) -> None:
        index = self.g.card_index
        self._program_kinds(program.player, tuple([index[c] for c in program.cards]))

    def _program_kinds(self, p: int, kinds: tuple[int, ...]) -> None:
        hand = self.hands[p]
        for k in kinds:
            hand.remove(k)
        self.programs[p] = kinds
        if all(self.programs[q] for q in self.order):
            self.phase = REVEAL
            self.slot = 0
            self.rpos = 0
            self.step_reveals = []

    def _reveal(self, r: Reveal) -> None:
        g = self.g
        p = r.player
        self.step_reveals.append(r)
        if r.shots:
            self.balls[p] -= len(r.shots)
        if r.roll and self.balls[p] < g.max_snowballs:
            self.balls[p] += 1
        if r.swish:
            self.ducking[p] = True
        self.rpos += 1
        if self.rpos >= len(self.order):
            self._resolve()

    # --- resolution of one step -----------------------------------------------------------------

    def _moves(
        self, reveals: Sequence[Reveal], pos: list[int], at: list[int]
    ) -> list[tuple[int, tuple[int, ...]]]:
        """Rule 4: carry out the moves of a step on `pos` and `at` (changed in place);
        return each mover's walk (its start square first)."""
        g = self.g
        movers: list[tuple[int, tuple[int, ...]]] = []
        card_move = g.card_move
        card_index = g.card_index
        for r in reveals:
            if r.move >= 0:
                steps = card_move[card_index[r.card]]
                movers.append((r.player, g.path(pos[r.player], r.move, steps, r.turn)))
        independent = True
        if g.lockstep and len(movers) > 1:
            claimed: set[int] = set()
            for _, path in movers:
                for q in path:
                    if at[q] >= 0 or q in claimed:
                        independent = False
                        break
                    claimed.add(q)
        if not g.lockstep or independent:
            walks: list[tuple[int, tuple[int, ...]]] = []
            for p, path in movers:
                cur = pos[p]
                walk = [cur]
                for q in path:
                    if at[q] >= 0:
                        break  # bump: stop just before the pawn
                    at[cur] = -1
                    at[q] = p
                    cur = q
                    walk.append(q)
                pos[p] = cur
                walks.append((p, tuple(walk)))
            return walks
        walk_of = {p: [pos[p]] for p, _ in movers}
        active = [(p, path) for p, path in movers if path]
        i = 0
        while active:
            want = {p: path[i] for p, path in active}
            targets = list(want.values())
            blocked = {p for p, q in want.items() if targets.count(q) > 1}
            changed = True
            while changed:
                changed = False
                for p, q in want.items():
                    if p in blocked:
                        continue
                    o = at[q]
                    if o >= 0 and (o not in want or o in blocked or want[o] == pos[p]):
                        blocked.add(p)
                        changed = True
            going = [p for p in want if p not in blocked]
            for p in going:
                at[pos[p]] = -1
            for p in going:
                q = want[p]
                at[q] = p
                pos[p] = q
                walk_of[p].append(q)
            i += 1
            active = [(p, path) for p, path in active if p not in blocked and i < len(path)]
        return [(p, tuple(walk_of[p])) for p, _ in movers]

    def _resolve(self) -> None:
        """Rule 8: after the last reveal of a step everything happens at once: the moves,
        then every ball finds the first pawn on its line that is not ducking."""
        moving = shooting = ducked = False
        for r in self.step_reveals:
            if r.move >= 0:
                moving = True
            if r.shots:
                shooting = True
            if r.swish:
                ducked = True
        self._resolve_step(moving, shooting, ducked)

    def _resolve_step(self, moving: bool, shooting: bool, ducked: bool) -> None:
        g = self.g
        reveals = self.last_reveals = self.step_reveals
        start_pos = self.pos
        if moving:
            start_pos = list(start_pos)
            self.last_moves = walks = self._moves(reveals, self.pos, self.at)
        else:
            self.last_moves = walks = []
        hits: list[tuple[int, int, bool]] = []
        if shooting:
            pos = self.pos
            at = self.at
            ducking = self.ducking
            lines = g.lines
            mode = g.moving_target
            seen = False
            moved: dict[int, int] = {}
            rank: dict[int, int] = {}
            if moving and mode != "end_square":
                moved = {p: walk[0] for p, walk in walks if len(walk) > 1}
                seen = bool(moved)
                rank = {r.player: i for i, r in enumerate(reveals)}
            shoot_first = g.shoot_first
            for r in reveals:
                if not r.shots:
                    continue
                shooter = r.player
                origin = start_pos[shooter] if shoot_first and r.move >= 0 else pos[shooter]
                line = lines[origin]
                for d in r.shots:
                    for q in line[d]:
                        o = at[q]
                        if seen:
                            o = self._seen(q, o, moved, rank, rank[shooter], mode)
                        if o >= 0 and o != shooter and not ducking[o]:
                            hits.append((shooter, o, False))
                            break
        if ducked:
            self.ducking = [False] * self.n
        if hits:
            supply = self.supply
            recorded: list[tuple[int, int, bool]] = []
            for shooter, target, _ in hits:
                placed = supply[shooter] > 0
                if placed:
                    supply[shooter] -= 1
                    self.boards[target][shooter] += 1
                    self.damage[target] += 1
                recorded.append((shooter, target, placed))
            self.last_hits = recorded
            if self._check_end():
                return
        else:
            self.last_hits = hits
        self._next_step()

    def _seen(
        self,
        q: int,
        o: int,
        moved: Mapping[int, int],
        rank: Mapping[int, int],
        shooter_rank: int,
        mode: str,
    ) -> int:
        """Who a ball finds on square q when movers can be hit on their start square."""
        if mode == "start_or_end":
            if o >= 0:
                return o
            for p, sq in moved.items():
                if sq == q:
                    return p
            return -1
        # reveal_order: movers revealed after the thrower are still on their start square
        if o >= 0 and not (o in moved and rank[o] > shooter_rank):
            return o
        for p, sq in moved.items():
            if sq == q and rank[p] > shooter_rank:
                return p
        return -1

    def _check_end(self) -> bool:
        """Rule 10: endings after a step; drop-outs in deathmatch.  True when over."""
        g = self.g
        n = self.n
        ending = g.ending
        damage = self.damage
        alive = [p for p in range(n) if p not in self.out]
        if ending == DEATHMATCH:
            dropped = [p for p in alive if damage[p] >= g.damage_limit]
            for p in dropped:
                self._drop_out(p)
            alive = [p for p in alive if p not in dropped]
            if len(alive) <= 1:
                self._finish(tuple(alive) if alive else tuple(dropped))
                return True
            if dropped:
                self._set_order()
            if not any(self.supply[p] for p in alive):
                self._finish(tuple(alive))  # no HIT token left: nobody can drop out any more
                return True
            return False
        if ending == SURVIVAL:
            if any(damage[p] >= g.damage_limit for p in alive) or not any(
                self.supply[p] for p in alive
            ):
                least = min(damage[p] for p in alive)
                self._finish(tuple(p for p in alive if damage[p] == least))
                return True
            return False
        need = g.hits_needed
        boards = self.boards
        done = tuple(p for p in alive if all(boards[t][p] >= need for t in alive if t != p))
        if done:
            self._finish(done)
            return True
        can_win = any(
            self.supply[p] >= sum(max(0, need - boards[t][p]) for t in alive if t != p)
            for p in alive
        )
        if not can_win:
            self._finish(tuple(alive))  # nobody has the HIT tokens left to win: a draw
            return True
        return False

    def _check_end_at_setup(self) -> None:
        if self.phase in (YOUNGEST, PLACE, OVER):
            return
        alive = [p for p in range(self.n) if p not in self.out]
        if len(alive) < 2:
            raise SetupError(("out",), "at least two players must still be in the game")
        g = self.g
        if g.ending == ALL_OUT:
            for p in alive:
                if all(self.boards[t][p] >= g.hits_needed for t in alive if t != p):
                    raise SetupError(
                        ("boards",), f"{g.names[p]} has already hit everyone: the game is over"
                    )
        elif any(self.damage[p] >= g.damage_limit for p in alive):
            raise SetupError(("boards",), "a player in the game has reached the damage limit")

    def _drop_out(self, p: int) -> None:
        """Deathmatch: the pawn leaves the battle zone; cards and snowballs go away."""
        self.out.append(p)
        if self.pos[p] >= 0:
            self.at[self.pos[p]] = -1
            self.pos[p] = -1
        self.balls[p] = 0
        for k in (*self.hands[p], *self.programs[p]):
            self.discards[k] += 1
            self.discard_total += 1
        self.hands[p] = []
        self.programs[p] = ()

    def _finish(self, winners: tuple[int, ...]) -> None:
        self.winners = tuple(sorted(winners))
        self.phase = OVER

    def _next_step(self) -> None:
        g = self.g
        self.slot += 1
        self.rpos = 0
        self.step_reveals = []
        if self.slot < g.slots:
            return
        # End of the turn: the revealed cards go to the discards, refill, pass the start.
        discards = self.discards
        programs = self.programs
        for p in self.order:
            for k in programs[p]:
                discards[k] += 1
            self.discard_total += len(programs[p])
            programs[p] = ()
        self.slot = 0
        self.turn += 1
        order = self.order
        n = self.n
        step = g.pass_step
        start = self.start
        for i in range(1, n + 1):
            q = (start + step * i) % n
            if q not in self.out:
                self.start = q
                break
        self._set_order()
        self.queue = [p for p in order if p not in self.out and len(self.hands[p]) < g.hand_size]
        self.phase = DEAL if self.queue else PROGRAM

    # --- what a player could hit now ----------------------------------------------------------

    def targets(self) -> dict[int, int]:
        """For the player about to reveal: who a ball thrown now in each direction would hit,
        if the players still to reveal stay where they are and do not duck."""
        if self.phase != REVEAL:
            return {}
        g = self.g
        me = self.order[self.rpos]
        reveals = self.step_reveals
        pos = list(self.pos)
        at = list(self.at)
        walks = self._moves(reveals, pos, at)
        moved = {p: walk[0] for p, walk in walks if len(walk) > 1}
        rank = {r.player: i for i, r in enumerate(reveals)}
        my_rank = len(reveals)
        found: dict[int, int] = {}
        for d in g.shot_directions:
            for q in g.rays[self.pos[me]][d][: g.ball_range]:
                o = at[q]
                if moved and g.moving_target != "end_square":
                    o = self._seen(q, o, moved, rank, my_rank, g.moving_target)
                if o >= 0 and o != me and not self.ducking[o]:
                    found[d] = o
                    break
        return found

    # --- information ----------------------------------------------------------------------------

    def zones(self) -> dict[str, list[int]]:
        """How many cards of each kind are in each place (for conservation checks)."""
        k = len(self.g.cards)
        held = [0] * k
        for p in range(self.n):
            for c in (*self.hands[p], *self.programs[p]):
                held[c] += 1
        # programmed cards that were revealed are counted once (they stay in the program)
        return {"pile": list(self.pile), "discards": list(self.discards), "players": held}

    def revealed_cards(self, player: int) -> tuple[int, ...]:
        """The cards `player` has turned up this turn (they stay on the board until the end
        of the turn)."""
        if self.phase != REVEAL:
            return ()
        done = self.slot + (1 if any(r.player == player for r in self.step_reveals) else 0)
        return self.programs[player][:done]

    def player_view(self, player: int) -> SubzeroView:
        g = self.g
        n = self.n
        names = g.names
        log = tuple(_seen(g, step, player) for step in self._history)
        return SubzeroView(
            player=names[player],
            phase=PHASE_NAMES[self.phase],
            turn=self.turn,
            slot=self.slot + 1 if self.phase == REVEAL else 0,
            start=names[self.start] if self.start >= 0 else None,
            to_act=tuple(g.player_name(p) for p in self.current_players()),
            positions=tuple(self.pos),
            snowballs=tuple(self.balls),
            boards=tuple(map(tuple, self.boards)),
            ducking=tuple(self.ducking),
            out=tuple(self.out),
            hand=tuple(g.card_ids[k] for k in self.hands[player]),
            program=tuple(g.card_ids[k] for k in self.programs[player]),
            hand_sizes=tuple(len(self.hands[p]) for p in range(n)),
            program_sizes=tuple(len(self.programs[p]) for p in range(n)),
            revealed=tuple(tuple(g.card_ids[k] for k in self.revealed_cards(p)) for p in range(n)),
            draw_pile=self.pile_total,
            discards=self.discard_total,
            reshuffles=self.reshuffles,
            winners=self.winners,
            log=log,
        )


def _seen(g: Subzero, step: Step[Action], player: int) -> str:
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player) for a in step)
    if isinstance(step, Program) and step.player != player:
        return f"{g.names[step.player]} program " + " ".join("?" * len(step.cards))
    if isinstance(step, Draw) and step.player != player:
        return f"draw {g.names[step.player]} " + " ".join("?" * len(step.cards))
    return g.format_action(step)  # type: ignore[arg-type]
