"""The KILL SHOT engine: the game's id and the rule options it plays, and `KillShot`, built
from the game's data: the rule parameters and options read into the numbers the rules use
(the hunt numbers and what may follow what, each game type's and optional rule's changes, the
simulated players' timing), the tactics cards and the terrorists.

The notation is in `actions.py`, a state from a worked example and its queries in
`worked_examples.py`, the rulebook's diagrams in `diagrams.py`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from rules_engine.bots import Outcome
from rules_engine.core import Bilingual, Diagram, EngineBase, NotationError
from rules_engine.kill_shot import balance, diagrams, worked_examples
from rules_engine.kill_shot.actions import (
    Action,
    format_action,
    notation_pattern,
    parse_action,
)
from rules_engine.kill_shot.chance import ReactionLaw
from rules_engine.kill_shot.scoring import HuntResult
from rules_engine.kill_shot.special_cards import SPECIAL_IDS, SPECIAL_LETTERS
from rules_engine.kill_shot.state import KillShotState
from rules_engine.kill_shot.terrorists import Terrorist
from rules_engine.params import DataError, GameData, whole_number

GAME_ID: Final = "kill-shot"
PLAYER_NAMES: Final = ("alpha", "bravo", "charlie", "delta", "echo")
REAL_TIME: Final = "real-time"
TACTICAL: Final = "tactical-engagement"
SITUATION: Final = "situation-room"
OPTIONAL_RULES: Final = (
    "briefing",
    "deadline",
    "taliban",
    "night_mission",
    "one_shot_one_kill",
    "terror_threat",
)


# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "game_type",
    "players",
    "briefing",
    "deadline",
    "taliban",
    "night_mission",
    "one_shot_one_kill",
    "terror_threat",
    "situation_room_decks",
    "simultaneous_plays",
    "kill_shot_tie",
    "bad_intel_levels",
    "bad_intel_removed",
    "points_tie",
    "final_tie",
    "second_kill_shot_claimer",
    "extra_cards_limit",
    "jam_blocks",
    "next_hunt_first",
    "deadline_extras",
    "taliban_scoring",
    "claimed_pile",
    "situation_room_cease_fire",
)


class KillShot(EngineBase):
    """KILL SHOT under one rule version and one set of rule options."""

    GAME_ID = GAME_ID
    TITLE = "KILL SHOT"
    OPTION_NAMES = OPTION_NAMES

    def __init__(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        params = self._load_rules(game, version, options)
        game = game.at(self._version)  # that rule version's pieces
        o = self._options
        n = self._player_count(game)
        self._set_players(PLAYER_NAMES[:n])
        self.everyone = tuple(range(n))
        self.game_type = str(o["game_type"])
        types = {str(t["id"]): t for t in params["game_types"]}
        if self.game_type not in types:
            raise ValueError(f"game type {self.game_type} is not in the data's game_types")
        gtype = types[self.game_type]
        optional = {str(r["id"]): r for r in params["optional_rules"]}
        self.briefing = bool(o["briefing"])
        self.deadline = bool(o["deadline"])
        self.taliban_rule = bool(o["taliban"])
        self.night = bool(o["night_mission"])
        # Night Mission in real time: a look is an action and only the card looked at can
        # be played.  In Situation Room looking is free during one's turn (no clock), so a
        # player knows the hand but, holding one card at a time, plays one card per turn.
        self.blind = self.night and str(o["game_type"]) != SITUATION
        self.osok = bool(o["one_shot_one_kill"])
        self.terror_threat = bool(o["terror_threat"])
        for name in OPTIONAL_RULES:
            if o[name] and name.replace("_", "-") not in optional:
                raise ValueError(f"optional rule {name} is not in the data's optional_rules")

        # The hunt numbers and the pile rule.
        numbers = params["hunt_numbers"]
        self.first_number = int(numbers["first"])
        self.last_number = int(numbers["last"])
        self.kill_shot = int(params["kill_shot"])
        self.firefight = int(params["firefight"])
        self.start_number = int(params.get("start_hunt_number", self.first_number))
        if not self.first_number <= self.start_number <= self.kill_shot <= self.last_number:
            raise ValueError("hunt numbers: first <= start <= kill_shot <= last is required")
        if self.last_number > 9:
            raise ValueError("card codes use one digit per hunt number")
        follow = [int(x) for x in gtype.get("follow", params["follow"])]
        same_allowed = not self.osok
        if self.osok:
            same_allowed = bool(optional["one-shot-one-kill"].get("same_number_allowed", False))
        taliban_follow = (
            [int(x) for x in optional["taliban"]["terrorist_follow"]] if self.taliban_rule else []
        )
        if not same_allowed:
            follow = [f for f in follow if f != 0]
            taliban_follow = [f for f in taliban_follow if f != 0]
        self.follow = tuple(follow)
        self.taliban_follow = tuple(taliban_follow)
        tops = range(self.last_number + 1)
        self.allowed_tab: tuple[tuple[frozenset[int], ...], ...] = tuple(
            tuple(
                frozenset({self.start_number})
                if top == 0
                else frozenset(
                    top + f for f in offsets if self.first_number <= top + f <= self.last_number
                )
                for top in tops
            )
            for offsets in (self.follow, self.taliban_follow)
        )

        # Game type.
        self.turn_based = gtype.get("turns") not in (False, None, "none")
        self.hand_size = int(gtype.get("hand_size", params["hand_size"]))
        self.hand_limit = int(gtype.get("hand_limit", params["hand_limit"]))
        decks = str(gtype.get("decks", "shared"))
        claims = gtype.get("claim", "first-kill-shot")
        if self.game_type == SITUATION:
            per_colour_type = o["situation_room_decks"] == "per_colour"
            claim_list = list(claims) if isinstance(claims, list) else [claims]
            claim = claim_list[-1] if per_colour_type else claim_list[0]
        else:
            per_colour_type = decks == "per-colour"
            claim = str(claims)
        if claim not in ("first-kill-shot", "most-points-in-pile"):
            raise ValueError(f"unknown claim rule {claim!r}")
        self.points_claim = claim == "most-points-in-pile"
        self.per_colour = per_colour_type or self.deadline or self.taliban_rule
        self.tie_lowest = str(gtype.get("tie_break", "lowest-hunt-number")) == "lowest-hunt-number"

        # Optional rules' numbers.
        if self.deadline:
            start = optional["deadline"]["starting_hand"]
            self.deadline_numbers = tuple(
                range(int(start["one_of_each_from"]), int(start["one_of_each_to"]) + 1)
            )
            self.deadline_extra = int(start["extra_cards"])
            self.refill = bool(optional["deadline"].get("refill", False))
        else:
            self.deadline_numbers = ()
            self.deadline_extra = 0
            self.refill = True
        self.revealed = int(
            optional["terror-threat"]["terrorists_revealed"]
            if self.terror_threat
            else params.get("terrorists_revealed", 1)
        )
        self.levels_removed = int(params["bad_intel"]["levels_removed"])
        self.removed_to_discard = o["bad_intel_removed"] == "discard"
        self.levels_by_number = o["bad_intel_levels"] == "numbers"
        self.chance_orders = o["simultaneous_plays"] == "chance_orders"
        self.tie_escapes = o["kill_shot_tie"] == "escapes"
        self.points_tie_escapes = o["points_tie"] == "escapes"
        self.final_most_captures = o["final_tie"] == "most_captures"
        self.second_claims = o["second_kill_shot_claimer"] == "second"
        self.limit_too = o["extra_cards_limit"] == "limit_too"
        self.jam_all = o["jam_blocks"] == "all_cards"
        self.next_first = str(o["next_hunt_first"])
        self.picks_chosen = o["deadline_extras"] == "chosen"
        self.taliban_scores = o["taliban_scoring"] == "escapes"
        self.claimed_discard = o["claimed_pile"] == "discard"
        self.sr_cease_fire = bool(o["situation_room_cease_fire"])

        # Simulated players.
        sim = params["simulation"]
        self.law = ReactionLaw(sim["reaction_ms"])
        self.countdown_ms = int(sim["countdown_ms"])
        self.drill_ms = int(sim["drill_ms"])
        self.pick_up_ms = int(sim["pick_up_ms"])

        self._read_cards(game)
        self._read_terrorists(game, params)
        if self.per_colour and n > len(self.colours):
            raise ValueError(f"{n} players need {n} colour decks, the data has {len(self.colours)}")
        self.pools = n if self.per_colour else 1
        self.pool_cards: tuple[tuple[int, ...], ...] = (
            tuple(self.colour_cards[c] for c in range(n))
            if self.per_colour
            else (tuple(k for c in range(len(self.colours)) for k in self.colour_cards[c]),)
        )
        self.pool_of_kind = tuple(
            (self.colour_of[k] if self.per_colour else 0) for k in range(len(self.codes))
        )
        self.in_play_kinds = tuple(sorted(set(itertools.chain(*self.pool_cards))))
        self.total = [0] * len(self.codes)
        for pool in self.pool_cards:
            for k in pool:
                self.total[k] += 1
        self.pool_colours: tuple[tuple[int, ...], ...] = (
            tuple((c,) for c in range(n)) if self.per_colour else (tuple(range(len(self.colours))),)
        )
        self.number_kinds: tuple[dict[int, tuple[int, ...]], ...] = tuple(
            {
                number: tuple(self.kind(c, number) for c in self.pool_colours[pool])
                for number in range(self.first_number, self.last_number + 1)
            }
            for pool in range(self.pools)
        )
        # the fewest copies of one number the hunters share (one player may be the Taliban)
        per_pool = [
            min(sum(self.total[k] for k in ks) for ks in kinds.values())
            for kinds in self.number_kinds
        ]
        self.fewest_copies = sum(per_pool) - (max(per_pool) if self.taliban_rule else 0)
        self.releases = not self.turn_based and not self.deadline and self.removed_to_discard
        if self.deadline:
            for c in range(n):
                for number in self.deadline_numbers:
                    if self.total[self.kind(c, number)] < 1:
                        raise ValueError(f"deadline: colour {self.colours[c]} has no {number}")

    # --- data ------------------------------------------------------------------------------

    def _read_cards(self, game: GameData) -> None:
        colours = [d for d in game.decks.values() if "colour" in d.values]
        if not colours:
            raise ValueError("kill-shot needs colour decks (deck values with 'colour')")
        self.colours: tuple[str, ...] = tuple(d.id for d in colours)
        self.colour_names = tuple(Bilingual(d.name.ja, d.name.en) for d in colours)
        letters = tuple(d.id[0] for d in colours)
        if len(set(letters)) != len(letters):
            raise ValueError("colour decks must start with different letters (card codes)")
        self.letters = letters
        numbers = list(range(self.first_number, self.last_number + 1))
        self.symbols = len(numbers) + len(SPECIAL_IDS)
        size = len(colours) * self.symbols
        self.codes: list[str] = [""] * size
        self.hunt_of = [0] * size
        self.special_of = [0] * size
        self.points_of = [0] * size
        self.colour_of = [0] * size
        self.card_names: dict[int, Bilingual] = {}
        self.piece_ids: list[str] = [""] * size  # the printed piece of each card kind
        counts = [0] * size
        for c, letter in enumerate(letters):
            for s in range(self.symbols):
                k = c * self.symbols + s
                self.colour_of[k] = c
                if s < len(numbers):
                    self.hunt_of[k] = numbers[s]
                    self.codes[k] = f"{letter}{numbers[s]}"
                else:
                    sp = list(SPECIAL_LETTERS)[s - len(numbers)]
                    self.special_of[k] = sp
                    self.codes[k] = f"{letter}{SPECIAL_LETTERS[sp]}"
        index = {d.id: c for c, d in enumerate(colours)}
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id not in index:
                continue
            values = piece.component.values
            c = index[piece.deck.id]
            if "hunt" in values:
                number = whole_number(piece.component, "hunt", 1)
                if number not in numbers:
                    raise DataError(
                        f"{piece.id}: hunt number {number} is not in {numbers}",
                        piece.component.id,
                        "hunt",
                    )
                k = c * self.symbols + numbers.index(number)
            elif values.get("special") in SPECIAL_IDS:
                sp = SPECIAL_IDS[str(values["special"])]
                k = c * self.symbols + len(numbers) + list(SPECIAL_LETTERS).index(sp)
            else:
                raise ValueError(f"{piece.id}: a tactics card needs 'hunt' or a known 'special'")
            counts[k] += piece.count
            self.piece_ids[k] = piece.id
            self.points_of[k] = whole_number(piece.component, "points", 0, default=0)
            self.card_names[k] = Bilingual(piece.component.name.ja, piece.component.name.en)
        self.colour_cards: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                k for k in range(c * self.symbols, (c + 1) * self.symbols) for _ in range(counts[k])
            )
            for c in range(len(colours))
        )
        self.code_index = {code: k for k, code in enumerate(self.codes)}
        self.special_kinds = frozenset(k for k in range(size) if self.special_of[k])  # B, J

    def _read_terrorists(self, game: GameData, params: Mapping[str, Any]) -> None:
        terrorists: list[Terrorist] = []
        for piece in game.pieces:
            values = piece.component.values
            if "ability" not in values:
                continue
            for _ in range(piece.count):
                terrorists.append(
                    Terrorist(
                        piece.component.id,
                        Bilingual(piece.component.name.ja, piece.component.name.en),
                        whole_number(piece.component, "points", 0),
                        str(values["ability"]),
                        whole_number(piece.component, "kill_shots_to_end", 1, default=1),
                        whole_number(piece.component, "hand_size_change", None, default=0),
                        whole_number(piece.component, "hand_limit_change", None, default=0),
                        whole_number(piece.component, "extra_cards", 0, default=0),
                        whole_number(piece.component, "discard", 0, default=0),
                    )
                )
        known = {
            "none",
            "claimer-extra-cards",
            "second-kill-shot",
            "short-hand",
            "cease-fire-discard",
            "special-card-discard",
        }
        for t in terrorists:
            if t.ability not in known:
                raise ValueError(f"terrorist {t.id}: unknown ability {t.ability!r}")
        ids = [t.id for t in terrorists]
        if len(set(ids)) != len(ids):
            raise ValueError("terrorist ids must differ (notation)")
        self.terrorists = tuple(terrorists)
        self.terrorist_index = {t.id: i for i, t in enumerate(terrorists)}
        hunts = int(params["hunts"])
        if params.get("terrorists_revealed", 1) == 1 and hunts != len(terrorists):
            raise ValueError(f"hunts ({hunts}) must equal the terrorist cards ({len(terrorists)})")
        self.hunts = -(-len(terrorists) // self.revealed)

    def kind(self, colour: int, number: int) -> int:
        return colour * self.symbols + (number - self.first_number)

    # --- Engine protocol ---------------------------------------------------------------------

    def card_index(self, code: str) -> int:
        k = self.code_index.get(code)
        if k is None:
            raise NotationError(
                f"unknown card '{code}' (a colour letter {'/'.join(self.letters)} and "
                f"{self.first_number}-{self.last_number}, B or J)"
            )
        return k

    def terrorist(self, tid: str) -> int:
        i = self.terrorist_index.get(tid)
        if i is None:
            raise NotationError(
                f"unknown terrorist '{tid}' (terrorists: {', '.join(self.terrorist_index)})"
            )
        return i

    def new_initial_state(self) -> KillShotState:
        return KillShotState(self)

    def code(self, k: int) -> str:
        return self.codes[k]

    def format_action(self, action: Action) -> str:
        return format_action(self, action)

    def parse_action(self, text: str) -> Action:
        return parse_action(self, text)

    def notation_pattern(self) -> re.Pattern[str]:
        """The notation as it would appear in running text (see `actions.notation_pattern`)."""
        return notation_pattern(self)

    # --- worked examples ---------------------------------------------------------------------

    SETUP_KEYS: Final = worked_examples.SETUP_KEYS
    SEARCH: ClassVar[dict[str, Any]] = {"iterations": 20, "depth": 10}
    """How the search player (`mcts`) plays this game: 20 playouts per decision, each 10
    steps scored by `evaluate` (a hunt has hundreds of decisions, each with dozens of
    reloads to choose from)."""

    QUERIES = worked_examples.QUERIES

    def setup_state(self, setup: Mapping[str, Any]) -> KillShotState:
        """A state in the middle of a hunt, from an example's setup (see
        `worked_examples.setup_state`)."""
        return worked_examples.setup_state(self, setup)

    def result_text(self, r: HuntResult) -> str:
        return worked_examples.result_text(self, r)

    def query(self, state: Any, name: str) -> Any:
        return worked_examples.query(self, state, name)

    def chance_classes(self, state: Any) -> Sequence[tuple[Action, int]] | None:
        """Chance's outcomes now, each with its integer odds, for exact probabilities: a draw
        from a deck with repeated cards weighs as many orders of the physical cards as give
        it (a deck of two 5s and one 6: `5` has weight 2, `6` weight 1); a terrorist turned
        up, a first player, the Taliban player, the order of simultaneous plays and a claim
        are equally likely (weight 1).  None when chance does not act, and for reaction
        times: their odds are the simulated players' law (real numbers, no rule's), so an
        exhaustive step over a "go" or a reaction weighs every time alike.  Draws are listed
        lazily (a deal has billions of outcomes)."""
        if not isinstance(state, KillShotState):
            return None
        return state.chance_classes()

    def diagram(self, state: Any) -> Diagram:
        """The table after what happened since the state was last drawn, and a timeline
        when times matter (see `diagrams.diagram`)."""
        return diagrams.diagram(self, state)

    # --- balance lab ---------------------------------------------------------------------------

    def outcome(self, state: KillShotState) -> Outcome:
        """What a finished game tells a designer (see `balance.outcome`)."""
        return balance.outcome(self, state)

    def evaluate(self, state: KillShotState) -> tuple[float, ...]:
        """Each player's prospects in [-1, 1] before the end (see `balance.evaluate`)."""
        return balance.evaluate(self, state)
