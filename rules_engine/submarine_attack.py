"""Submarine Attack (サブマリン・アタック, のーべー 2002): the complete rules engine.

Every number comes from the game's data (`components/submarine-attack/`): dice per
torpedo (`dice`), dice an evasion cancels (`cancel_dice`), ships per transport
(`ships`), and the rule parameters of the chosen rule version (`game.rule_params`).
Rule numbers in error messages follow the seed's rule text (2-1 transports, 2-2 action
cards, 2-3 attacks, 2-5 round end, 3 game end).

Notation (one action per line, joint actions joined by " ; "):

    first red                                   chance: who starts round 1 (janken)
    red place 5 1 2 3 1 2 / TS TA TB TC EA TB TA TC
                                                ships per column 1..6 / cards per slot 1..8
    roll 3 3 5 6                                chance: the dice of the torpedo being fired
    red target 4                                the attacker's pick for a triple or a four

Card codes: a torpedo is `T` + its grade (TS, TA, TB, TC, TD), an evasion `E` + its
grade (EA, EB); a transport is its number of ships.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    Arrangements,
    Bilingual,
    Diagram,
    DiagramCell,
    DiagramGrid,
    EngineBase,
    IllegalActionError,
    JointAction,
    Mapped,
    NotationError,
    Product,
    SetupError,
    StateBase,
    Step,
)
from rules_engine.params import GameData

GAME_ID: Final = "submarine-attack"

# --- rule options: every ambiguity of the seed, made explicit ------------------------------

# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "five_or_more",
    "triple_and_pair",
    "tie_first_player",
    "tie_winner",
    "players",
    "multiplayer_round_end",
)

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

# Phases
START: Final = 0
PLACE: Final = 1
ROLL: Final = 2
TARGET: Final = 3
OVER: Final = 4
PHASE_NAMES: Final = ("first", "place", "roll", "target", "over")

SINKINGS: Final = "sinkings"
ALL_SLOTS: Final = "all_slots"


@dataclass(frozen=True)
class ActionCard:
    """An action card as the engine uses it (from cards.yaml, or a version's params)."""

    code: str
    kind: str  # "torpedo" | "evasion"
    grade: str
    dice: int  # dice a torpedo rolls (0 for an evasion)
    cancel: int  # dice an evasion takes from the opposed torpedo (0 for a torpedo)
    component: str


@dataclass(frozen=True)
class RoundResult:
    """How one round ended, and what each player scored (public once the round ends)."""

    round: int
    end: str  # SINKINGS | ALL_SLOTS
    sinker: int | None
    points: tuple[int, ...]
    survivors: tuple[tuple[int, ...], ...]  # surviving ships per player, by column
    cards: tuple[tuple[str, ...], ...]  # action cards revealed per player


@dataclass(frozen=True)
class SubmarineView:
    """What one player can know.  Opponents' face-down cards appear nowhere."""

    player: str
    round: int
    scores: tuple[int, ...]
    first: str | None
    phase: str
    slot: int
    to_move: tuple[str, ...]
    own_ships: tuple[int, ...]
    own_spare_ships: tuple[int, ...]
    own_cards: tuple[str, ...]
    own_spare_cards: tuple[str, ...]
    sunk: tuple[tuple[tuple[int, int], ...], ...]  # per player: (column, ships) face up
    revealed: tuple[tuple[str, ...], ...]  # per player: action cards turned up so far
    dice: int
    last_roll: tuple[int, ...]
    choices: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    log: tuple[str, ...]


class SubmarineAttack(EngineBase):
    """Submarine Attack under one rule version and one set of rule options."""

    GAME_ID = GAME_ID
    TITLE = "Submarine Attack"
    OPTION_NAMES = OPTION_NAMES

    def __init__(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        params = self._load_rules(game, version, options)
        self.columns = int(params["columns"])
        self.faces = int(params["dice_faces"])
        self.transports_placed = int(params["transports_placed"])
        self.actions_placed = int(params["actions_placed"])
        self.round_end_ships = int(params["round_end_ships"])
        self.target_points = int(params["target_points"])
        if self.transports_placed != self.columns:
            raise ValueError(
                f"transports_placed ({self.transports_placed}) must equal columns ({self.columns})"
            )
        n = int(self._options["players"])
        self.num_players = n
        deck_ids = list(game.decks)
        if not deck_ids:
            raise ValueError("submarine-attack needs at least one deck (a player's card set)")
        self._set_players(
            tuple(deck_ids[i] if i < len(deck_ids) else f"p{i + 1}" for i in range(n))
        )
        self.display: tuple[dict[str, str], ...] = tuple(
            {"ja": game.decks[name].name.ja, "en": game.decks[name].name.en}
            if name in game.decks
            else {"ja": name, "en": name}
            for name in self.names
        )
        self.cards: dict[str, ActionCard] = {}
        ships_hand, cards_hand = self._hand(game, deck_ids[0], params)
        for deck_id in deck_ids[1:n]:
            other = self._hand(game, deck_id, params)
            if other != (ships_hand, cards_hand):
                raise ValueError(f"deck '{deck_id}' differs from deck '{deck_ids[0]}'")
        self.ships_hand = ships_hand
        self.cards_hand = cards_hand
        if len(ships_hand) != int(params["transports_per_player"]):
            raise ValueError(
                f"{len(ships_hand)} transports per player in the data, "
                f"rule parameter transports_per_player is {params['transports_per_player']}"
            )
        if len(cards_hand) != int(params["actions_per_player"]):
            raise ValueError(
                f"{len(cards_hand)} action cards per player in the data, "
                f"rule parameter actions_per_player is {params['actions_per_player']}"
            )
        # Lookups used on the hot path.
        self.card_dice = {c.code: c.dice for c in self.cards.values()}
        self.card_cancel = {c.code: c.cancel for c in self.cards.values()}
        cols = self.columns
        self.triple_choices: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in (f - 1, f, f + 1) if 1 <= c <= cols) for f in range(self.faces + 1)
        )
        self.all_columns = tuple(range(1, cols + 1))
        self.five_any = self._options["five_or_more"] == "any_column"
        self.others_score = self._options["multiplayer_round_end"] == "victim_scores_zero"
        self.tie_winner = str(self._options["tie_winner"])
        self.tie_first = str(self._options["tie_first_player"])
        self.choose_one = self._options["triple_and_pair"] == "choose_one"
        self.face_list = tuple(range(1, self.faces + 1))
        self._ship_arrangements = Arrangements(ships_hand, self.transports_placed)
        self._card_arrangements = Arrangements(cards_hand, self.actions_placed)

    def _hand(
        self, game: GameData, deck_id: str, params: Mapping[str, Any]
    ) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """One player's transports (ship numbers) and action cards (codes), from the data."""
        in_play = [str(g) for g in params.get("torpedoes_in_play", [])]
        replaced: dict[str, ActionCard] = {}
        for grade in in_play:
            extra = params.get(f"torpedo_{grade.lower()}")
            if isinstance(extra, Mapping) and "replaces" in extra:
                replaced[str(extra["replaces"])] = ActionCard(
                    "T" + grade, "torpedo", grade, int(extra["dice"]), 0, f"torpedo-{grade.lower()}"
                )
        ships: list[int] = [int(s) for s in params.get("extra_transports", [])]
        cards: list[str] = []
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id != deck_id:
                continue
            values = piece.component.values
            if "ships" in values:
                ships.extend([int(values["ships"])] * piece.count)
                continue
            action = values.get("action")
            if action == "torpedo":
                card = replaced.get(piece.component.id) or ActionCard(
                    "T" + str(values["grade"]),
                    "torpedo",
                    str(values["grade"]),
                    int(values["dice"]),
                    0,
                    piece.component.id,
                )
                if in_play and card.grade not in in_play:
                    raise ValueError(
                        f"{piece.component.id}: torpedo {card.grade} is not in torpedoes_in_play "
                        f"({', '.join(in_play)}) of rule version {self._version}"
                    )
            elif action == "evasion":
                card = ActionCard(
                    "E" + str(values["grade"]),
                    "evasion",
                    str(values["grade"]),
                    0,
                    int(values["cancel_dice"]),
                    piece.component.id,
                )
            else:
                continue
            self.cards[card.code] = card
            cards.extend([card.code] * piece.count)
        return tuple(sorted(ships)), tuple(sorted(cards, key=self._card_order))

    def _card_order(self, code: str) -> tuple[int, str]:
        order = "SABCDEFG"
        kind = 0 if code.startswith("T") else 1
        grade = code[1:]
        return (kind, f"{order.index(grade) if grade in order else 99:02d}{grade}")

    # --- Engine protocol ---------------------------------------------------------------------

    def new_initial_state(self) -> SubmarineAttackState:
        return SubmarineAttackState(self)

    def format_action(self, action: Action) -> str:
        if isinstance(action, Roll):
            return "roll " + " ".join(map(str, action.dice))
        if isinstance(action, Target):
            return f"{self.names[action.player]} target {action.column}"
        if isinstance(action, Place):
            return (
                f"{self.names[action.player]} place "
                + " ".join(map(str, action.ships))
                + " / "
                + " ".join(action.cards)
            )
        if isinstance(action, Start):
            return f"first {self.names[action.player]}"
        raise TypeError(f"not a Submarine Attack action: {action!r}")

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise NotationError("empty action")
        try:
            if words[0] == "roll":
                if len(words) < 2:
                    raise NotationError("'roll' needs the dice, like 'roll 3 3 5 6'")
                return Roll(tuple(int(w) for w in words[1:]))
            if words[0] == "first" and len(words) == 2:
                return Start(self.player_index(words[1]))
            if len(words) == 3 and words[1] == "target":
                return Target(self.player_index(words[0]), int(words[2]))
            if len(words) >= 3 and words[1] == "place":
                rest = words[2:]
                if rest.count("/") != 1:
                    raise NotationError(
                        "a placement is 'NAME place SHIPS... / CARDS...', "
                        "like 'red place 5 1 2 3 1 2 / TS TA TB TC EA TB TA TC'"
                    )
                cut = rest.index("/")
                return Place(
                    self.player_index(words[0]),
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

    def attack_text(self, attack: tuple[int, int, str, int]) -> str:
        """One attack of the round: 'slot 1: red TS rolls 0 dice' or 'slot 2: blue EA'."""
        slot, attacker, code, dice = attack
        head = f"slot {slot + 1}: {self.names[attacker]} {code}"
        return (
            head
            if self.cards[code].kind == "evasion"
            else f"{head} rolls {_n(dice, 'die', 'dice')}"
        )

    def setup_state(self, setup: Mapping[str, Any]) -> SubmarineAttackState:
        """A state from an example's setup: round, scores, first, transports, actions."""
        known = ("round", "scores", "first", "transports", "actions")
        for key in setup:
            if key not in known:
                raise SetupError((key,), f"unknown setup key '{key}' (known: {', '.join(known)})")
        rnd = setup.get("round", 1)
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
            raise SetupError(("round",), f"round must be a positive integer, got {rnd!r}")
        scores = [0] * self.num_players
        given_scores = setup.get("scores", {})
        if not isinstance(given_scores, Mapping):
            raise SetupError(("scores",), "scores must map player names to points")
        for name, points in given_scores.items():
            index = self._setup_player(name, ("scores", name))
            if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                raise SetupError(("scores", name), f"points must be a whole number, got {points!r}")
            scores[index] = points
        first = None
        if "first" in setup:
            first = self._setup_player(setup["first"], ("first",))
        state = SubmarineAttackState(self, rnd, tuple(scores), first)
        has_ships, has_cards = "transports" in setup, "actions" in setup
        if has_ships != has_cards:
            raise SetupError(
                ("transports" if has_ships else "actions",),
                "give both 'transports' and 'actions' (the placement), or neither",
            )
        if has_ships:
            if state.phase != PLACE:
                raise SetupError(("first",), "a placement needs 'first' (who starts the round)")
            places: list[Place] = []
            for p, name in enumerate(self.names):
                ships = self._setup_list(setup, "transports", name)
                cards = self._setup_list(setup, "actions", name)
                try:
                    place = Place(p, tuple(int(s) for s in ships), tuple(str(c) for c in cards))
                except (TypeError, ValueError):
                    raise SetupError(
                        ("transports", name), "ship numbers must be integers"
                    ) from None
                places.append(place)
            for key in ("transports", "actions"):
                for name in setup[key]:
                    self._setup_player(name, (key, name))
            try:
                state.apply_joint(places)
            except IllegalActionError as exc:
                raise SetupError(("transports",), str(exc)) from None
        return state

    def _setup_list(self, setup: Mapping[str, Any], key: str, name: str) -> list[Any]:
        value = setup[key]
        if not isinstance(value, Mapping) or name not in value:
            raise SetupError((key,), f"'{key}' must give a list for every player ({name} missing)")
        items = value[name]
        if not isinstance(items, list):
            raise SetupError((key, name), f"'{key}' of {name} must be a list")
        return items

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = (
        "round",
        "scores",
        "first",
        "phase",
        "to_move",
        "slot",
        "attacker",
        "revealed",
        "dice",
        "last_roll",
        "last_attack_sunk",
        "last_attack_sinkings",
        "choices",
        "sunk",
        "ships_sunk",
        "survivors",
        "round_end",
        "round_points",
        "round_survivors",
        "winner",
        "rounds_played",
        "attacks",
    )

    def chance_classes(self, state: Any) -> list[tuple[Action, int]] | None:
        """Dice rolls grouped by the faces they show, whatever their order (the rules only
        count faces), each with the number of ordered rolls it stands for."""
        if not isinstance(state, SubmarineAttackState) or state.phase != ROLL:
            return None
        n = state.dice
        classes: list[tuple[Action, int]] = []
        for faces in itertools.combinations_with_replacement(self.face_list, n):
            weight = math.factorial(n)
            for k in Counter(faces).values():
                weight //= math.factorial(k)
            classes.append((Roll(faces), weight))
        return classes

    def diagram(self, state: Any) -> Diagram:
        """Each player's columns (ship numbers, sunk ones marked) and action slots (revealed
        ones shown, the current one marked)."""
        if not isinstance(state, SubmarineAttackState):
            raise TypeError("not a Submarine Attack state")
        s = state
        placed = s.phase in (ROLL, TARGET)
        grids: list[DiagramGrid] = []
        for p in range(s.n):
            ships = s.ships[p]
            fleet = tuple(
                DiagramCell(str(ships[c]) if ships else "", "sunk" if s.sunk[p] >> c & 1 else "")
                for c in range(self.columns)
            )
            shown = s.slot + 1 if placed else (len(s.slots[p]) if s.phase == OVER else 0)
            slots = tuple(
                DiagramCell(
                    s.slots[p][k]
                    if k < shown and k < len(s.slots[p])
                    else ("?" if s.slots[p] else ""),
                    "active" if placed and k == s.slot else "",
                )
                for k in range(self.actions_placed)
            )
            grids.append(
                DiagramGrid(
                    {
                        "ja": f"{self.display[p]['ja']} ({s.scores[p]}点)",
                        "en": f"{self.display[p]['en']} ({s.scores[p]} points)",
                    },
                    tuple(str(k + 1) for k in range(max(self.columns, self.actions_placed))),
                    (
                        ({"ja": "輸送船", "en": "transports"}, fleet),
                        ({"ja": "アクション", "en": "actions"}, slots),
                    ),
                )
            )
        return tuple(grids)

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, SubmarineAttackState):
            raise TypeError("not a Submarine Attack state")
        s = state
        if name == "last_attack_sinkings":  # the exhaustive examples' hot query
            return len(s.last_sunk)
        names = self.names
        last = s.results[-1] if s.results else None
        placed = s.phase in (ROLL, TARGET)
        if name == "round":
            return s.round
        if name == "scores":
            return {names[p]: s.scores[p] for p in range(s.n)}
        if name == "first":
            return names[s.first] if s.first >= 0 else None
        if name == "phase":
            return PHASE_NAMES[s.phase]
        if name == "to_move":
            return [self.player_name(p) for p in s.current_players()]
        if name == "slot":
            return s.slot + 1 if placed else 0
        if name == "attacker":
            return names[s.attacker] if placed else None
        if name == "revealed":
            return {names[p]: s.slots[p][s.slot] for p in range(s.n)} if placed else {}
        if name == "dice":
            return s.dice if s.phase == ROLL else 0
        if name == "last_roll":
            return list(s.last_roll)
        if name == "last_attack_sunk":
            return list(s.last_sunk)
        if name == "last_attack_sinkings":
            return len(s.last_sunk)
        if name == "choices":
            return list(s.pending[0][2]) if s.phase == TARGET else []
        if name == "sunk":
            return {
                names[p]: [c + 1 for c in range(self.columns) if s.sunk[p] >> c & 1]
                for p in range(s.n)
            }
        if name == "ships_sunk":
            return {names[p]: s.sunk_ships[p] for p in range(s.n)}
        if name == "survivors":
            return {names[p]: list(s.survivors(p)) for p in range(s.n)}
        if name == "round_end":
            return last.end if last else None
        if name == "round_points":
            return {names[p]: last.points[p] for p in range(s.n)} if last else {}
        if name == "round_survivors":
            return {names[p]: list(last.survivors[p]) for p in range(s.n)} if last else {}
        if name == "winner":
            if s.phase != OVER:
                return None
            return names[s.winners[0]] if len(s.winners) == 1 else "draw"
        if name == "rounds_played":
            return len(s.results)
        if name == "attacks":
            return [self.attack_text(a) for a in s.attacks]
        raise KeyError(name)


class SubmarineAttackState(StateBase[Action, SubmarineAttack]):
    """A position of Submarine Attack (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "3"
    JOINT_RULE = "2"
    JOINT_NEEDED = "all {n} players place at the same time: give a joint action"

    __slots__ = (
        "_history",
        "attacker",
        "attacks",
        "dice",
        "first",
        "g",
        "init",
        "last_roll",
        "last_sunk",
        "n",
        "order",
        "pending",
        "pending_pairs",
        "phase",
        "results",
        "round",
        "scores",
        "ships",
        "slot",
        "slots",
        "spare_cards",
        "spare_ships",
        "start_candidates",
        "sunk",
        "sunk_ships",
        "turn",
        "winners",
    )

    def __init__(
        self,
        engine: SubmarineAttack,
        round: int = 1,
        scores: tuple[int, ...] | None = None,
        first: int | None = None,
    ) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self.init = (round, scores or (0,) * n, first)
        self._history: list[Step[Action]] = []
        self.round = round
        self.scores = list(scores or (0,) * n)
        self.results: list[RoundResult] = []
        self.winners: tuple[int, ...] = ()
        self.last_roll: tuple[int, ...] = ()
        self.last_sunk: list[int] = []
        self.pending: list[tuple[int, int, tuple[int, ...]]] = []
        self.pending_pairs: tuple[int, ...] = ()
        self.dice = 0
        self.attacker = 0
        self.slot = 0
        self.turn = 0
        self._clear_round()
        if first is None:
            self.first = -1
            self.order: tuple[int, ...] = ()
            self.start_candidates: tuple[int, ...] = tuple(range(n))
            self.phase = START
        else:
            self._set_first(first)

    def _clear_round(self) -> None:
        n = self.n
        self.ships: list[tuple[int, ...]] = [()] * n
        self.slots: list[tuple[str, ...]] = [()] * n
        self.spare_ships: list[tuple[int, ...]] = [self.g.ships_hand] * n
        self.spare_cards: list[tuple[str, ...]] = [self.g.cards_hand] * n
        self.sunk: list[int] = [0] * n  # per player: bit c set = column c + 1 sunk
        self.sunk_ships = [0] * n
        self.attacks: list[tuple[int, int, str, int]] = []

    def _set_first(self, first: int) -> None:
        n = self.n
        self.first = first
        self.order = tuple((first + i) % n for i in range(n))
        self.start_candidates = ()
        self.phase = PLACE

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (ROLL, START):
            return (CHANCE,)
        if phase == TARGET:
            return (self.attacker,)
        if phase == PLACE:
            return tuple(range(self.n))
        return ()

    def legal_actions(self, player: int) -> Sequence[Action]:
        phase = self.phase
        g = self.g
        if phase == START and player == CHANCE:
            return [Start(p) for p in self.start_candidates]
        if phase == ROLL and player == CHANCE:
            return Mapped(
                Product(*[g.face_list] * self.dice),
                Roll,
                lambda a: a.dice if isinstance(a, Roll) else None,
            )
        if phase == TARGET and player == self.attacker:
            return [Target(player, c) for c in self.pending[0][2]]
        if phase == PLACE and 0 <= player < self.n:
            return Mapped(
                Product(g._ship_arrangements, g._card_arrangements),
                lambda t: Place(player, t[0], t[1]),
                lambda a: (
                    (a.ships, a.cards) if isinstance(a, Place) and a.player == player else None
                ),
            )
        return []

    def sample_action(self, player: int, rng: random.Random) -> Action:
        phase = self.phase
        g = self.g
        if phase == ROLL and player == CHANCE:
            rnd = rng.random
            faces = g.faces
            return Roll(tuple([int(rnd() * faces) + 1 for _ in range(self.dice)]))
        if phase == TARGET and player == self.attacker:
            choices = self.pending[0][2]
            return Target(player, choices[int(rng.random() * len(choices))])
        if phase == PLACE and 0 <= player < self.n:
            return Place(
                player,
                tuple(rng.sample(g.ships_hand, g.transports_placed)),
                tuple(rng.sample(g.cards_hand, g.actions_placed)),
            )
        if phase == START and player == CHANCE:
            c = self.start_candidates
            return Start(c[int(rng.random() * len(c))])
        raise IllegalActionError("2", f"{self.g.player_name(player)} has nothing to do now")

    def clone(self) -> SubmarineAttackState:
        new = SubmarineAttackState.__new__(SubmarineAttackState)
        new.g = self.g
        new.n = self.n
        new.init = self.init
        new._history = list(self._history)
        new.round = self.round
        new.scores = list(self.scores)
        new.results = self.results  # copied on write (see _end_round)
        new.winners = self.winners
        new.last_roll = self.last_roll
        new.last_sunk = list(self.last_sunk)
        new.pending = list(self.pending)
        new.pending_pairs = self.pending_pairs
        new.dice = self.dice
        new.attacker = self.attacker
        new.slot = self.slot
        new.turn = self.turn
        new.ships = self.ships  # copied on write (see _place)
        new.slots = self.slots
        new.spare_ships = self.spare_ships
        new.spare_cards = self.spare_cards
        new.sunk = list(self.sunk)
        new.sunk_ships = list(self.sunk_ships)
        new.attacks = list(self.attacks)
        new.first = self.first
        new.order = self.order
        new.start_candidates = self.start_candidates
        new.phase = self.phase
        return new

    def initial(self) -> SubmarineAttackState:
        rnd, scores, first = self.init
        return SubmarineAttackState(self.g, rnd, scores, first)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.round, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.init,
            tuple(self._history),
            self.round,
            tuple(self.scores),
            tuple(self.results),
            self.winners,
            self.phase,
            self.first,
            self.start_candidates,
            tuple(self.ships),
            tuple(self.slots),
            tuple(self.spare_ships),
            tuple(self.spare_cards),
            tuple(self.sunk),
            tuple(self.sunk_ships),
            tuple(self.attacks),
            self.slot,
            self.turn,
            self.attacker,
            self.dice,
            self.last_roll,
            tuple(self.last_sunk),
            tuple(self.pending),
            self.pending_pairs,
        )

    def __repr__(self) -> str:
        return (
            f"<SubmarineAttackState v{self.g.version} round {self.round} "
            f"{PHASE_NAMES[self.phase]} slot {self.slot + 1} scores {self.scores}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions (the same as `core.play_random`, faster:
        actions are drawn legal, so they skip the legality check; history is still kept)."""
        g = self.g
        rnd = rng.random
        sample = rng.sample
        faces = g.faces
        history = self._history
        while True:
            phase = self.phase
            if phase == ROLL:
                dice = tuple([int(rnd() * faces) + 1 for _ in range(self.dice)])
                history.append(Roll(dice))
                self._roll(dice)
            elif phase == TARGET:
                choices = self.pending[0][2]
                target = Target(self.attacker, choices[int(rnd() * len(choices))])
                history.append(target)
                self._target(target.column)
            elif phase == PLACE:
                places = JointAction(
                    Place(
                        p,
                        tuple(sample(g.ships_hand, g.transports_placed)),
                        tuple(sample(g.cards_hand, g.actions_placed)),
                    )
                    for p in range(self.n)
                )
                history.append(places)
                for place in places:
                    self._place(place)
            elif phase == START:
                c = self.start_candidates
                start = Start(c[int(rnd() * len(c))])
                history.append(start)
                self._set_first(start.player)
            else:
                return

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        g = self.g
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("3", "the game is over")
        if isinstance(action, Roll):
            if phase != ROLL:
                raise IllegalActionError("2-3-1", f"no torpedo is being fired now ({self._now()})")
            dice = action.dice
            if len(dice) != self.dice:
                raise IllegalActionError(
                    "2-3-1",
                    f"{self._torpedo_text()} rolls {_n(self.dice, 'die', 'dice')}, "
                    f"got {_n(len(dice), 'die', 'dice')}",
                )
            for d in dice:
                if not 1 <= d <= g.faces:
                    raise IllegalActionError("2-3-1", f"a die shows 1 to {g.faces}, got {d}")
            return
        if isinstance(action, Target):
            if phase != TARGET:
                raise IllegalActionError(
                    "2-3-1", f"there is no column to choose now ({self._now()})"
                )
            if action.player != self.attacker or player != self.attacker:
                raise IllegalActionError(
                    "2-3-1",
                    f"the attacker ({g.names[self.attacker]}) chooses the column, "
                    f"not {g.player_name(action.player)}",
                )
            face, count, choices = self.pending[0]
            if action.column not in choices:
                raise IllegalActionError(
                    "2-3-1", f"{_group_text(face, count, choices)}, not {action.column}"
                )
            return
        if isinstance(action, Place):
            if phase != PLACE:
                raise IllegalActionError(
                    "2-1", f"cards are placed at the start of a round ({self._now()})"
                )
            if action.player != player:
                raise IllegalActionError(
                    "2-1",
                    f"{g.player_name(player)} cannot place {g.player_name(action.player)}'s cards",
                )
            name = g.names[player]
            if len(action.ships) != g.transports_placed:
                raise IllegalActionError(
                    "2-1",
                    f"{g.transports_placed} of the {len(g.ships_hand)} transport cards must be placed "
                    f"(columns 1-{g.columns}), {name} placed {len(action.ships)}",
                )
            _check_subset(
                "2-1", name, "transport", action.ships, g.ships_hand, lambda s: f"{s} ship(s)"
            )
            if len(action.cards) != g.actions_placed:
                raise IllegalActionError(
                    "2-2",
                    f"{g.actions_placed} of the {len(g.cards_hand)} action cards must be placed "
                    f"(slots 1-{g.actions_placed}), {name} placed {len(action.cards)}",
                )
            for code in action.cards:
                if code not in g.cards:
                    known = ", ".join(sorted(g.cards, key=g._card_order))
                    raise IllegalActionError(
                        "2-2", f"unknown action card '{code}' (cards: {known})"
                    )
            _check_subset("2-2", name, "action", action.cards, g.cards_hand, str)
            return
        if isinstance(action, Start):
            if phase != START:
                raise IllegalActionError(
                    "2", f"the first player is already decided ({self._now()})"
                )
            if action.player not in self.start_candidates:
                names = ", ".join(g.names[p] for p in self.start_candidates)
                raise IllegalActionError("2", f"the first player is one of {names}")
            return
        raise IllegalActionError("2", f"not a Submarine Attack action: {action!r}")

    def _now(self) -> str:
        phase = self.phase
        if phase == PLACE:
            return "the players are placing their cards"
        if phase == START:
            return "the first player is being decided"
        if phase == ROLL:
            return f"slot {self.slot + 1}: {self.g.names[self.attacker]} rolls"
        if phase == TARGET:
            return f"slot {self.slot + 1}: {self.g.names[self.attacker]} chooses a column"
        return "the game is over"

    def _torpedo_text(self) -> str:
        g = self.g
        attacker = self.attacker
        defender = (attacker + 1) % self.n
        card = g.cards[self.slots[attacker][self.slot]]
        other = g.cards[self.slots[defender][self.slot]]
        text = f"torpedo {card.grade}"
        if other.cancel:
            text += f" against evasion {other.grade}"
        return text

    # --- rules ------------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        if isinstance(action, Roll):
            self._roll(action.dice)
        elif isinstance(action, Target):
            self._target(action.column)
        elif isinstance(action, Place):
            self._place(action)
        else:
            self._set_first(action.player)

    def _place(self, place: Place) -> None:
        p = place.player
        g = self.g
        # Copy on write: clones share these lists.
        self.ships = [*self.ships]
        self.ships[p] = place.ships
        self.slots = [*self.slots]
        self.slots[p] = place.cards
        self.spare_ships = [*self.spare_ships]
        self.spare_ships[p] = _minus(g.ships_hand, place.ships)
        self.spare_cards = [*self.spare_cards]
        self.spare_cards[p] = _minus(g.cards_hand, place.cards)
        if all(self.slots):
            self.slot = 0
            self.turn = 0
            self._advance()

    def _advance(self) -> None:
        """Go to the next attack that needs dice (rule 2-3, 2-4), or end the round (2-5-2)."""
        g = self.g
        n = self.n
        slots = self.slots
        dice_of = g.card_dice
        cancel_of = g.card_cancel
        order = self.order
        while True:
            if self.turn >= n:
                self.turn = 0
                self.slot += 1
                if self.slot >= g.actions_placed:
                    self._end_round(ALL_SLOTS, None)
                    return
            attacker = order[self.turn]
            slot = self.slot
            dice = dice_of[slots[attacker][slot]]
            if dice:
                dice -= cancel_of[slots[(attacker + 1) % n][slot]]
            self.attacker = attacker
            self.attacks.append((slot, attacker, slots[attacker][slot], max(dice, 0)))
            if dice > 0:
                self.dice = dice
                self.phase = ROLL
                return
            # An evasion card attacks nobody; a torpedo left with no dice cannot hit.
            self.last_roll = ()
            self.last_sunk = []
            self.turn += 1

    def _roll(self, dice: tuple[int, ...]) -> None:
        g = self.g
        self.last_roll = dice
        self.last_sunk = []
        counts = [0] * (g.faces + 1)
        for d in dice:
            counts[d] += 1
        pairs: list[int] = []
        big: list[tuple[int, int, tuple[int, ...]]] = []
        for face in set(dice):
            c = counts[face]
            if c == 2:
                pairs.append(face)
            elif c == 3:
                big.append((face, 3, g.triple_choices[face]))
            elif c == 4 or (c > 4 and g.five_any):
                big.append((face, c, g.all_columns))
        defender = (self.attacker + 1) % self.n
        if big and g.choose_one and (pairs or len(big) > 1):
            pairs.sort()
            choices = set(pairs)
            for _, _, cols in big:
                choices.update(cols)
            self.pending = [(0, 0, tuple(sorted(choices)))]
            self.pending_pairs = tuple(pairs)
            self.phase = TARGET
            return
        for face in sorted(pairs) if len(pairs) > 1 else pairs:
            self._sink(defender, face)
        if big:
            if len(big) > 1:
                big.sort()
            self.pending = big
            self.pending_pairs = ()
            self.phase = TARGET
            return
        self._end_attack()

    def _target(self, column: int) -> None:
        defender = (self.attacker + 1) % self.n
        pairs = self.pending_pairs
        if pairs and column in pairs:
            for face in pairs:
                self._sink(defender, face)
        else:
            self._sink(defender, column)
        self.pending = self.pending[1:]
        if self.pending:
            return
        self.pending_pairs = ()
        self._end_attack()

    def _sink(self, defender: int, column: int) -> None:
        """Sink the transport in `column` (1-based); an already sunk column: the attack fails."""
        if column > self.g.columns:
            return
        bit = 1 << (column - 1)
        if self.sunk[defender] & bit:
            return
        self.sunk[defender] |= bit
        self.sunk_ships[defender] += self.ships[defender][column - 1]
        self.last_sunk.append(column)

    def _end_attack(self) -> None:
        """Rule 2-5-1: 8 or more ships sunk at the end of an attack ends the round."""
        attacker = self.attacker
        if self.last_sunk and self.sunk_ships[(attacker + 1) % self.n] >= self.g.round_end_ships:
            self._end_round(SINKINGS, attacker)
            return
        self.turn += 1
        self._advance()

    def survivors(self, player: int) -> tuple[int, ...]:
        sunk = self.sunk[player]
        return tuple(s for c, s in enumerate(self.ships[player]) if not sunk >> c & 1)

    def _end_round(self, end: str, sinker: int | None) -> None:
        g = self.g
        n = self.n
        victim = None if sinker is None else (sinker + 1) % n
        others_score = g.others_score
        survivors = tuple(self.survivors(p) for p in range(n))
        points = []
        for p in range(n):
            if end == ALL_SLOTS or p == sinker or (p != victim and others_score):
                points.append(sum(survivors[p]))
            else:
                points.append(0)
        for p in range(n):
            self.scores[p] += points[p]
        last = self.slot
        self.results = [*self.results]
        self.results.append(
            RoundResult(
                self.round,
                end,
                sinker,
                tuple(points),
                survivors,
                tuple(self.slots[p][: last + 1] for p in range(n)),
            )
        )
        scores = self.scores
        top = max(scores)
        self.pending = []
        self.pending_pairs = ()
        self.dice = 0
        if top >= g.target_points:
            leaders = tuple(p for p in range(n) if scores[p] == top)
            if len(leaders) == 1 or g.tie_winner == "draw":
                self.winners = leaders
                self.phase = OVER
                return
        # Next round: fewer points goes first (rule 2).
        previous = self.first
        self.round += 1
        self._clear_round()
        self.slot = 0
        self.turn = 0
        low = min(scores)
        tied = tuple(p for p in range(n) if scores[p] == low)
        if len(tied) == 1:
            self._set_first(tied[0])
            return
        rule = g.tie_first
        if rule == "janken":
            self.first = -1
            self.order = ()
            self.start_candidates = tied
            self.phase = START
            return
        start = previous if rule == "same" else previous + 1
        for i in range(n):
            p = (start + i) % n
            if p in tied:
                self._set_first(p)
                return

    # --- information ----------------------------------------------------------------------------

    def zones(self, player: int) -> dict[str, tuple[Any, ...]]:
        """Where each of a player's cards is: placed (columns/slots) or set aside."""
        return {
            "ships": self.ships[player],
            "spare_ships": self.spare_ships[player],
            "cards": self.slots[player],
            "spare_cards": self.spare_cards[player],
        }

    def revealed_upto(self) -> int:
        """How many slots are face up now."""
        return self.slot + 1 if self.phase in (ROLL, TARGET) else 0

    def player_view(self, player: int) -> SubmarineView:
        g = self.g
        n = self.n
        upto = self.revealed_upto()
        log = []
        for step in self._history:
            log.append(_seen(g, step, player))
        return SubmarineView(
            player=g.names[player],
            round=self.round,
            scores=tuple(self.scores),
            first=g.names[self.first] if self.first >= 0 else None,
            phase=PHASE_NAMES[self.phase],
            slot=upto,
            to_move=tuple(g.player_name(p) for p in self.current_players()),
            own_ships=self.ships[player],
            own_spare_ships=self.spare_ships[player],
            own_cards=self.slots[player],
            own_spare_cards=self.spare_cards[player],
            sunk=tuple(
                tuple((c + 1, self.ships[p][c]) for c in range(g.columns) if self.sunk[p] >> c & 1)
                for p in range(n)
            ),
            revealed=tuple(self.slots[p][:upto] for p in range(n)),
            dice=self.dice if self.phase == ROLL else 0,
            last_roll=self.last_roll,
            choices=self.pending[0][2] if self.phase == TARGET else (),
            rounds=tuple(self.results),
            log=tuple(log),
        )


def _seen(g: SubmarineAttack, step: Step[Action], player: int) -> str:
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player) for a in step)
    if isinstance(step, Place) and step.player != player:
        return f"{g.names[step.player]} place ?"
    return g.format_action(step)  # type: ignore[arg-type]


def _minus(hand: tuple[Any, ...], used: tuple[Any, ...]) -> tuple[Any, ...]:
    rest = list(hand)
    for x in used:
        rest.remove(x)
    return tuple(rest)


def _check_subset(
    rule: str, name: str, what: str, chosen: tuple[Any, ...], hand: tuple[Any, ...], show: Any
) -> None:
    for item in set(chosen):
        have = hand.count(item)
        if chosen.count(item) > have:
            listing = " ".join(str(h) for h in hand)
            if have == 0:
                raise IllegalActionError(
                    rule, f"{name} has no {what} card {show(item)} (cards: {listing})"
                )
            raise IllegalActionError(
                rule,
                f"{name} placed {chosen.count(item)} {what} cards {show(item)} "
                f"but has only {have} (cards: {listing})",
            )


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def _group_text(face: int, count: int, choices: tuple[int, ...]) -> str:
    listing = (
        ", ".join(map(str, choices[:-1])) + f" or {choices[-1]}"
        if len(choices) > 1
        else str(choices[0])
    )
    if count == 3:
        return f"a triple of {face}s sinks column {listing} (the attacker's choice)"
    if count >= 4:
        return f"{count} of a kind ({face}s) sinks any one column: {listing}"
    return f"the attacker uses one group of the roll: column {listing}"


# --- the seed's stated clues, checked against the (partly reconstructed) data ------------------


@dataclass(frozen=True)
class Clue:
    """A fact the seed states that the reconstructed card data must keep true."""

    id: str
    holds: bool
    text: Bilingual
    detail: str


def scorable_survivors(engine: SubmarineAttack) -> set[tuple[int, ...]]:
    """Every set of surviving ships (sorted) a player can score with in a 2-player round.

    A player scores only if the opponent has not sunk `round_end_ships` of theirs, so the
    lost columns must hold fewer ships than that.
    """
    import itertools

    placed_n = engine.transports_placed
    limit = engine.round_end_ships
    found: set[tuple[int, ...]] = set()
    for chosen in set(itertools.combinations(engine.ships_hand, placed_n)):
        for k in range(placed_n + 1):
            for lost in set(itertools.combinations(chosen, k)):
                if sum(lost) < limit:
                    rest = list(chosen)
                    for x in lost:
                        rest.remove(x)
                    found.add(tuple(sorted(rest)))
    return found


def check_clues(game: GameData, version: str | None = None) -> list[Clue]:
    """The seed's clues about the missing card pictures, checked for one rule version."""
    engine = SubmarineAttack(game, version)
    cards = engine.cards
    torpedoes = {c.grade: c for c in cards.values() if c.kind == "torpedo"}
    evasions = {c.grade: c for c in cards.values() if c.kind == "evasion"}
    clues: list[Clue] = []

    def add(clue_id: str, holds: bool, ja: str, en: str, detail: str) -> None:
        clues.append(Clue(clue_id, holds, Bilingual(ja, en), detail))

    if "B" in torpedoes:
        b = torpedoes["B"].dice
        add(
            "torpedo-b-dice",
            b == 4,
            "魚雷Bはダイス4個。",
            "Torpedo B rolls 4 dice.",
            f"B rolls {b}",
        )
    if "S" in torpedoes:
        s = torpedoes["S"].dice
        add(
            "torpedo-s-attack-1",
            s > engine.faces and engine.five_any,
            "魚雷Sは1回目に出せば確実に効果を発揮する。",
            "Torpedo S in attack 1 is certain to take effect.",
            f"S rolls {s} dice on {engine.faces} faces; five_or_more={engine.options['five_or_more']}",
        )
        if "B" in evasions:
            left = max(s - evasions["B"].cancel, 0)
            add(
                "evasion-b-vs-torpedo-s",
                left == 0,
                "魚雷Sに回避Bをぶつけるとダイスが1個も振れない。",
                "Evasion B against torpedo S leaves not a single die.",
                f"{s} - {evasions['B'].cancel} leaves {left}",
            )
    if "C" in torpedoes and "A" in evasions:
        c = torpedoes["C"].dice
        weakest = c == min(t.dice for t in torpedoes.values())
        add(
            "torpedo-c-weak",
            weakest,
            "回避Aに対しては性能の悪い魚雷Cをぶつけたい。",
            "Against evasion A you would rather spend the weak torpedo C.",
            f"C rolls {c}, evasion A cancels {evasions['A'].cancel}",
        )
    sets = scorable_survivors(engine)
    for survivors, ja, en in (
        ((1, 5), "輸送船数5と1が残れば6勝利ポイント。", "Survivors 5 and 1 score 6 points."),
        (
            (1, 1, 2),
            "輸送船数2と1と1が残れば4勝利ポイント。",
            "Survivors 2, 1 and 1 score 4 points.",
        ),
    ):
        add(
            "survivors-" + "-".join(map(str, sorted(survivors, reverse=True))),
            survivors in sets,
            ja,
            en,
            f"fleet {' '.join(map(str, engine.ships_hand))}, {engine.transports_placed} placed, "
            f"round ends at {engine.round_end_ships} ships",
        )
    old = (
        SubmarineAttack(game, game.info.rule_versions[0].id) if game.info.rule_versions else engine
    )
    recommended = [1, 1, 1, 2, 2, 3]
    rest = list(old.ships_hand)
    fits = True
    for x in recommended:
        if x in rest:
            rest.remove(x)
        else:
            fits = False
    add(
        "old-fleet-1-1-1-2-2-3",
        fits,
        "最初のルールでは「1」「1」「1」「2」「2」「3」の組み合わせが有利だった。",
        'Under the first rules the fleet "1, 1, 1, 2, 2, 3" was the one to play.',
        f"rules {old.version} fleet {' '.join(map(str, old.ships_hand))}",
    )
    return clues
