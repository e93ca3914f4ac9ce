"""The engine: Submarine Attack under one rule version and one set of rule options.

Every number comes from the game's data (`components/submarine-attack/`): dice per
torpedo (`dice`), dice an evasion cancels (`cancel_dice`), ships per transport
(`ships`), and the rule parameters of the chosen rule version (`game.rule_params`).
The engine reads them once (`SubmarineAttack.__init__`, each player's cards in `_hand`),
makes a state (`new_initial_state`, or `setup_state` from a worked example's `setup:`),
reads and writes the notation (`rules_engine.submarine_attack.actions`), groups dice rolls
into chance classes, draws diagrams (`rules_engine.submarine_attack.diagrams`) and answers
the worked examples' queries.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, Final

from rules_engine.bots import Outcome
from rules_engine.core import (
    Arrangements,
    Diagram,
    EngineBase,
    IllegalActionError,
    SetupError,
)
from rules_engine.params import GameData, whole_number
from rules_engine.submarine_attack import actions, balance, diagrams, torpedoes
from rules_engine.submarine_attack.actions import (
    OVER,
    PHASE_NAMES,
    PLACE,
    ROLL,
    TARGET,
    Action,
    ActionCard,
    Place,
    Roll,
    Target,
)
from rules_engine.submarine_attack.kernel import PlayoutTables
from rules_engine.submarine_attack.placement import Placements
from rules_engine.submarine_attack.state import SubmarineAttackState
from rules_engine.submarine_attack.torpedoes import _n

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
        game = game.at(self._version)  # that rule version's pieces
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
        # The players as the rulebook names them: the deck's colour ("Red" of "Red fleet"),
        # or "Player 3" for a seat without a card set of its own in the data.
        self.display: tuple[dict[str, str], ...] = tuple(
            {
                "ja": game.decks[name].name.ja.removesuffix("の艦隊"),
                "en": game.decks[name].name.en.removesuffix(" fleet"),
            }
            if name in game.decks
            else {"ja": f"プレイヤー{i + 1}", "en": f"Player {i + 1}"}
            for i, name in enumerate(self.names)
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
        # The rulebook's diagrams draw action cards as pictures of the printed pieces: each
        # player's piece of a component (none for a seat without a card set of its own).
        self.piece_ids: dict[tuple[str, int], str] = {}
        for piece in game.pieces:
            seat = self._player_index.get(piece.deck.id) if piece.deck else None
            if seat is not None:
                self.piece_ids[(piece.component.id, seat)] = piece.id
        self._notation: re.Pattern[str] | None = None
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
        self.dice_per_draw = actions.dice_per_draw(self.faces)
        self._ship_arrangements = Arrangements(ships_hand, self.transports_placed)
        self._card_arrangements = Arrangements(cards_hand, self.actions_placed)
        # Made once per engine for the playouts of a search player: what each set of faces
        # rolled aims at (`torpedoes.roll_groups`, filled as rolls come), the attacker's target actions
        # per list of columns, and each player's placements (the same at every round).
        self.roll_groups: dict[tuple[int, ...], torpedoes.Groups] = {}
        self._targets: dict[tuple[int, tuple[int, ...]], tuple[Target, ...]] = {}
        self.placements = tuple(
            Placements(p, self._ship_arrangements, self._card_arrangements) for p in range(n)
        )
        self.face_set = frozenset(self.face_list)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the playouts' tables (made again at the first playout): the
        compiled kernel's (`rules_engine.native`) are made only by calling their class."""
        state = self.__dict__.copy()
        state.pop("playout_tables", None)
        return state

    @cached_property
    def playout_tables(self) -> PlayoutTables:
        """What the state's own `playout` keeps (`kernel.PlayoutTables`), made at the first
        playout."""
        return PlayoutTables(self)

    def groups_of(self, faces: tuple[int, ...]) -> torpedoes.Groups:
        """What a roll showing `faces` (sorted) aims at (`torpedoes.roll_groups`), kept in
        `roll_groups`."""
        groups = self.roll_groups[faces] = torpedoes.roll_groups(self, faces)
        return groups

    def targets(self, player: int, choices: tuple[int, ...]) -> tuple[Target, ...]:
        """The attacker's actions choosing among `choices` (made once per list)."""
        key = (player, choices)
        found = self._targets.get(key)
        if found is None:
            found = self._targets[key] = tuple(Target(player, c) for c in choices)
        return found

    def _hand(
        self, game: GameData, deck_id: str, params: Mapping[str, Any]
    ) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """One player's transports (ship numbers) and action cards (codes), from the data:
        the pieces of the rule version the game was given at (an older version's counts
        and cards are the data's, as that version states them)."""
        in_play = [str(g) for g in params.get("torpedoes_in_play", [])]
        ships: list[int] = []
        cards: list[str] = []
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id != deck_id:
                continue
            values = piece.component.values
            if "ships" in values:
                ships.extend([whole_number(piece.component, "ships", 1)] * piece.count)
                continue
            action = values.get("action")
            if action == "torpedo":
                card = ActionCard(
                    "T" + str(values["grade"]),
                    "torpedo",
                    str(values["grade"]),
                    whole_number(piece.component, "dice", 1),
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
                    whole_number(piece.component, "cancel_dice"),
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
        return actions.format_action(self, action)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def notation_pattern(self) -> re.Pattern[str]:
        """The notation in running text (`roll 3 3 5 6`, `red target 4`, card codes `TB`);
        see `actions.notation_pattern`."""
        if self._notation is None:
            self._notation = actions.notation_pattern(self)
        return self._notation

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
                except (TypeError, ValueError, OverflowError):
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

    # --- the balance lab (issue 17): figures of a game, prospects, exact odds ------------------

    def outcome(self, state: SubmarineAttackState) -> Outcome:
        """A finished game's figures (`balance.outcome`).  Scores are victory points (each
        round's own surviving ships); rounds are rounds played; turns are attacks made (an
        attack: every player turns over one slot's card, the seed's "attack 1, 2..."); played
        counts per player the action cards turned over ("torpedo C", "evasion A"), torpedoes
        turned over against an evasion ("torpedo S vs evasion B"), transports laid out
        ("transport 5") and rounds with a small fleet of 10 ships or fewer ("small fleet").
        Measures, per game: `rounds_ended_by_sinking` (share of rounds ended by 8 ships
        sunk), `attacks_per_round`, `dice_rolls_per_round`, `transports_afloat_per_round`
        and `ships_afloat_per_round` (per player, at the round's end), `points_per_round`
        (per player), `smaller_fleet_round_edge` (per round and pair of players with
        different fleets and scores: +1 when the smaller fleet scored more, -1 when less),
        `torpedo_s_attack_1_misses` (torpedoes S at full dice in attack 1 that sank
        nothing) and `torpedo_s_vs_evasion_b_dice` (dice rolled by torpedoes S met by an
        evasion B)."""
        if not state.is_terminal():
            raise ValueError("the game is not over: no outcome yet")
        return balance.outcome(self, state)

    def evaluate(self, state: SubmarineAttackState) -> tuple[float, ...]:
        """Each player's prospects in [-1, 1] (`balance.evaluate`): the projected lead."""
        return balance.evaluate(self, state)

    SEARCH: ClassVar[dict[str, object]] = {"iterations": 800, "heuristic_playouts": True}
    """How the search player (`mcts`) plays this game: 800 playouts per decision (a layout
    is one of 10^8, and the dice are loud), each laying out cards as the rule-of-thumb
    player does (random layouts say little about a position)."""

    def torpedo_odds(self) -> list[tuple[str, str | None, Fraction]]:
        """Each torpedo's exact chance to sink at least one transport, alone and against each
        evasion (`balance.torpedo_odds`): [("torpedo C", None, 4/9), ...]."""
        return balance.torpedo_odds(self)

    def exact_tables(self) -> list[tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...], str]]:
        """The exact figures a balance report prints: each torpedo's chance to sink at least
        one transport, alone and against each evasion card revealed at the same time (title,
        columns, rows, note)."""
        odds = self.torpedo_odds()
        evasions = list(dict.fromkeys(e for _t, e, _p in odds if e is not None))
        columns = ("torpedo", "no evasion", *(f"against {e}" for e in evasions))
        rows = []
        for torpedo in dict.fromkeys(t for t, _e, _p in odds):
            found = {e: p for t, e, p in odds if t == torpedo}
            cells = [found[None], *(found[e] for e in evasions)]
            rows.append(
                (
                    torpedo,
                    *(f"{p} ({float(p):.1%})" if p.denominator > 1 else str(p) for p in cells),
                )
            )
        return [
            (
                f"Chance that a torpedo sinks at least one transport (rules {self.version})",
                columns,
                tuple(rows),
                "Exact, over every roll of the dice by its odds and every column the attacker "
                "may then choose.",
            )
        ]

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
        "sinks_any",
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
        """Each player's columns and action slots, drawn by `diagrams.diagram`."""
        return diagrams.diagram(self, state)

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, SubmarineAttackState):
            raise TypeError("not a Submarine Attack state")
        s = state
        if name == "last_attack_sinkings":  # the exhaustive examples' hot queries
            return len(s.last_sunk)
        if name == "sinks_any":  # did the last attack sink at least one column?
            return bool(s.last_sunk)
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
