"""The engine of Susumuka & Modoruka: the game under one rule version and one set of rule
options, built from the game's data (`components/susumuka-modoruka/`).

Every number comes from that data: the rule parameters of `game.yaml` (`rules:` turns,
start HP, base combat dice, draws, item thresholds, depth track, death and lost-property
handling, winner), the dungeon cards of `dungeon.yaml` (type, difficulty, depth tiers with a
coloured part), the four item decks of `items.yaml` (effect, amount, keep or once) and the
skill sheets of `players.yaml`.  The engine checks that the parameters are ones it plays,
reads the pieces (`pieces.py`) and builds the decisions random play reuses; the protocol's
other parts are in their rooms: the notation in `actions.py`, a state from an example's
setup in `setup.py`, the named facts in `queries.py`, the drawings in `diagrams.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from typing import Any, Final

from rules_engine.bots import Outcome
from rules_engine.core import Bilingual, Diagram, EngineBase
from rules_engine.params import GameData
from rules_engine.susumuka_modoruka.actions import (
    VERBS,
    Act,
    Action,
    Draw,
    Roll,
    format_action,
    notation_pattern,
    parse_action,
)
from rules_engine.susumuka_modoruka.balance import evaluate, outcome
from rules_engine.susumuka_modoruka.diagrams import diagram
from rules_engine.susumuka_modoruka.kernel import PlayoutTables
from rules_engine.susumuka_modoruka.pieces import (
    ALL,
    ONCE_EFFECTS,
    PASSIVE_EFFECTS,
    DungeonCard,
    Item,
    Skill,
    Tier,
)
from rules_engine.susumuka_modoruka.queries import QUERIES, query
from rules_engine.susumuka_modoruka.setting_up import SETUP_KEYS, setup_state
from rules_engine.susumuka_modoruka.state import Stats, SusumukaState

GAME_ID: Final = "susumuka-modoruka"

# --- rule options: every ambiguity of the seed, made explicit ------------------------------

# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "players",
    "winner",
    "tie_break",
    "death",
    "escape_heal",
    "item_deck",
    "used_items",
    "lost_property_draw_again",
    "flee_timing",
)


def _text(value: Any) -> Bilingual:
    return Bilingual(ja=str(value.ja), en=str(value.en))


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return value


class SusumukaModoruka(EngineBase):
    """Susumuka & Modoruka under one rule version and one set of rule options."""

    GAME_ID = GAME_ID
    TITLE = "Susumuka & Modoruka"
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
        n = self._player_count(game)
        self.turns = _int(params["turns"], "turns")
        self.start_hp = _int(params["start_hp"], "start_hp")
        self.death_at = _int(params["death_at_hp"], "death_at_hp")
        combat = params["base_combat"]
        self.base_dice = _int(combat["dice"], "base_combat.dice")
        self.faces = _int(combat["faces"], "base_combat.faces")
        self.investigate_draws = _int(params["investigate_draws"], "investigate_draws")
        self.item_draws = _int(params["item_draws_per_escape"], "item_draws_per_escape")
        self.depth_max = _int(params["depth_max"], "depth_max")
        if _int(params["depth_outside"], "depth_outside") != 0:
            raise ValueError("depth_outside must be 0 (the engine counts depth down from 0)")
        expected = {
            "win_needs": "greater",
            "defeat_hp_loss": "card_power",
            "win_move": "difficulty",
            "flee_move": "difficulty",
            "tier_rule": "deepest_tier_at_or_above",
            "heal_cap": "max_hp",
            "skill_budget": "turns_passed",
            "skill_when": "outside",
            "skills_removable": False,
            "trophy_replaces_shallower": True,
            "empty_dungeon_deck": "reshuffle_discard",
        }
        for key, value in expected.items():
            if params.get(key) != value:
                raise ValueError(f"rules.{key} = {params.get(key)!r}: the engine plays {value!r}")
        self.may_use_hand = bool(params["advance_may_use_hand"])
        limit = params.get("hand_limit")
        self.hand_limit = None if limit is None else _int(limit, "hand_limit")
        death = params["death"]
        self.respawn_depth = _int(death["respawn_depth"], "death.respawn_depth")
        respawn_hp = death["respawn_hp"]
        self.respawn_full = respawn_hp == "full"
        self.respawn_hp = 0 if self.respawn_full else _int(respawn_hp, "death.respawn_hp")
        keeps = set(death.get("keeps", []))
        self.keep_skills = "skills" in keeps
        self.keep_trophy = "trophy" in keeps
        if death.get("flag") != "removed":
            raise ValueError("death.flag must be 'removed'")
        lost = params["lost_property_drawn"]
        if lost.get("card_to") != "owner":
            raise ValueError("lost_property_drawn.card_to must be 'owner'")
        # The data names the default reading of every option: it must be one the engine plays.
        allowed = {o.name: o.allowed for o in self.declared_options}
        winner = params["winner"]
        for name, value in (
            ("winner", winner["measure"]),
            ("tie_break", "_then_".join(winner["tie_break"]) or "shared"),
            ("escape_heal", params["escape_heal"]),
            ("item_deck", params["item_deck"]),
            ("used_items", params["item_use_once_to"]),
            ("lost_property_draw_again", lost["draw_again"]),
            ("flee_timing", params["flee_timing"]),
        ):
            if value not in allowed[name]:
                raise ValueError(f"rules: {value!r} is not a reading of option {name}")
        # Options.
        self.winner_measure = str(opts["winner"])
        self.tie_break = str(opts["tie_break"])
        self.death_out = opts["death"] == "out"
        self.escape_full = opts["escape_heal"] == "full"
        self.choose_deck = opts["item_deck"] == "choose"
        self.used_to_bottom = opts["used_items"] == "bottom_of_deck"
        self.draw_again = bool(opts["lost_property_draw_again"])
        self.flee_after = opts["flee_timing"] == "after_roll"
        # Players.
        colours = [str(c) for c in params["player_colours"]]
        if len(colours) < n:
            raise ValueError(f"{len(colours)} player colours for {n} players")
        self._set_players(tuple(colours[:n]))
        self.colours = {str(k): _text_map(v) for k, v in params["colours"].items()}
        thresholds = params["item_thresholds"]
        self.item_decks: tuple[str, ...] = tuple(
            sorted(thresholds, key=lambda d: _int(thresholds[d], f"item_thresholds.{d}"))
        )
        self.threshold: dict[str, int] = {d: int(thresholds[d]) for d in self.item_decks}
        self._read_pieces(game)
        self.player_labels: tuple[dict[str, str], ...] = tuple(
            _text_map(game.decks[name].name) if name in game.decks else {"ja": name, "en": name}
            for name in self.names
        )
        # The item decks' names, for the drawings (`diagrams.py`).
        self.deck_labels: dict[str, dict[str, str]] = {
            d: _text_map(game.decks[d].name) if d in game.decks else {"ja": d, "en": d}
            for d in self.item_decks
        }
        self._notation: re.Pattern[str] | None = None
        # What players' skills and items add up to, by player, skills and items
        # (`SusumukaState._restat`).
        self.stats_memo: dict[tuple[int | str, ...], Stats] = {}
        self._texts: dict[Action, str] = {}

    @cached_property
    def playout_tables(self) -> PlayoutTables:
        """What the state's own `playout` keeps (`kernel.PlayoutTables`), made at the first
        playout."""
        return PlayoutTables(self)

    def _read_pieces(self, game: GameData) -> None:
        n = self.num_players
        cards: list[DungeonCard] = []
        lost: dict[int, DungeonCard] = {}
        items: list[Item] = []
        sheets: dict[int, tuple[Skill, ...]] = {}
        dungeon_decks: set[str] = set()
        for piece in game.pieces:
            values = piece.values
            deck = piece.deck.id if piece.deck else None
            kind = values.get("type")
            if kind in ("monster", "trap"):
                dungeon_decks.add(str(deck))
                tiers = tuple(
                    Tier(
                        _int(t["depth"], f"{piece.id} tier depth"),
                        _int(t["base"], f"{piece.id} tier base"),
                        None if t.get("colour") is None else str(t["colour"]),
                        _int(t.get("coloured", 0), f"{piece.id} tier coloured"),
                    )
                    for t in values["tiers"]
                )
                if not tiers or tiers[0].depth != 0:
                    raise ValueError(f"{piece.id}: the first tier must be at depth 0")
                if list(tiers) != sorted(tiers, key=lambda t: t.depth):
                    raise ValueError(f"{piece.id}: tiers must be listed shallowest first")
                for t in tiers:
                    if t.colour is not None and t.colour not in self.colours:
                        raise ValueError(f"{piece.id}: unknown colour {t.colour!r}")
                cards.append(
                    DungeonCard(
                        piece.id,
                        _text(piece.component.name),
                        str(kind),
                        _int(values["difficulty"], f"{piece.id} difficulty"),
                        tiers,
                        piece.count,
                        -1,
                    )
                )
            elif kind == "lost_property":
                if deck in self.names:
                    owner = self._player_index[str(deck)]
                    lost[owner] = DungeonCard(
                        piece.id, _text(piece.component.name), "lost_property", 0, (), 1, owner
                    )
            elif deck in self.threshold:
                effect = str(values["effect"])
                use = str(values["use"])
                if use not in ("keep", "once"):
                    raise ValueError(f"{piece.id}: use must be keep or once, got {use!r}")
                if (use == "keep" and effect not in PASSIVE_EFFECTS) or (
                    use == "once" and effect not in ONCE_EFFECTS
                ):
                    raise ValueError(
                        f"{piece.id}: effect {effect!r} with use {use!r} is not played"
                    )
                colour = values.get("colour")
                if effect == "nullify" and colour != ALL and colour not in self.colours:
                    raise ValueError(f"{piece.id}: unknown colour {colour!r}")
                amount = values.get("amount", values.get("dice", values.get("hp", 0)))
                items.append(
                    Item(
                        piece.id,
                        _text(piece.component.name),
                        str(deck),
                        effect,
                        _int(amount, f"{piece.id} amount"),
                        None if colour is None else str(colour),
                        use,
                        piece.count,
                    )
                )
            elif "skills" in values and deck in self.names:
                skills = []
                for s in values["skills"]:
                    effect = str(s["effect"])
                    if effect not in PASSIVE_EFFECTS and effect != "revive":
                        raise ValueError(f"skill {s['id']}: effect {effect!r} is not played")
                    amount = s.get("amount", s.get("dice", s.get("hp", 0)))
                    skills.append(
                        Skill(
                            str(s["id"]),
                            Bilingual(**_text_map(s["name"])),
                            _int(s["cost"], f"skill {s['id']} cost"),
                            _int(s["max"], f"skill {s['id']} max"),
                            effect,
                            _int(amount, f"skill {s['id']} amount"),
                            None if s.get("per") is None else str(s["per"]),
                        )
                    )
                sheets[self._player_index[str(deck)]] = tuple(skills)
        if len(dungeon_decks) != 1:
            raise ValueError(f"dungeon cards must share one deck, got {sorted(dungeon_decks)}")
        for p in range(n):
            if p not in lost:
                raise ValueError(f"no lost-property card for {self.names[p]}")
            if p not in sheets:
                raise ValueError(f"no skill sheet for {self.names[p]}")
        self.dungeon: tuple[DungeonCard, ...] = (*cards, *(lost[p] for p in range(n)))
        self.dungeon_index = {c.id: i for i, c in enumerate(self.dungeon)}
        self.lp_index: tuple[int, ...] = tuple(len(cards) + p for p in range(n))
        self.start_pile: tuple[int, ...] = (*(c.count for c in cards), *([0] * n))
        self.items: dict[str, Item] = {i.id: i for i in items}
        self.deck_items: dict[str, tuple[Item, ...]] = {
            d: tuple(i for i in items if i.deck == d) for d in self.item_decks
        }
        self.item_slot: dict[str, int] = {}
        for d in self.item_decks:
            for k, item in enumerate(self.deck_items[d]):
                self.item_slot[item.id] = k
        self.skills: tuple[tuple[Skill, ...], ...] = tuple(sheets[p] for p in range(n))
        self.skill_index: tuple[dict[str, int], ...] = tuple(
            {s.id: k for k, s in enumerate(sheet)} for sheet in self.skills
        )
        names = [c.id for c in self.dungeon] + list(self.items) + list(VERBS) + list(self.names)
        if len(set(names)) != len(names):
            raise ValueError("card ids, item ids, verbs and player colours must all differ")
        # Decisions built once (random play builds many action lists).
        self.verb_acts: tuple[dict[str, Act], ...] = tuple(
            {v: Act(p, v) for v in VERBS} for p in range(n)
        )
        self.skill_acts: tuple[tuple[Act, ...], ...] = tuple(
            tuple(Act(p, "skill", (s.id,)) for s in self.skills[p]) for p in range(n)
        )
        words = [c.id for c in self.dungeon] + list(self.items)
        for sheet in self.skills:
            words.extend(s.id for s in sheet)
        self.one_acts: tuple[dict[tuple[str, str], Act], ...] = tuple(
            {(v, w): Act(p, v, (w,)) for v in ("use", "fight", "flee", "reroll") for w in words}
            for p in range(n)
        )
        self.smoke_items = frozenset(
            i.id for i in items if i.effect == "safe_flee" and i.use == "once"
        )
        self.flee_with: tuple[dict[tuple[str, str], Act], ...] = tuple(
            {
                (c.id, smoke): Act(p, "flee", (c.id, smoke))
                for c in self.dungeon
                for smoke in self.smoke_items
            }
            for p in range(n)
        )
        self.draw_acts: tuple[Draw, ...] = tuple(Draw(c.id) for c in self.dungeon)
        self.roll_one: tuple[Roll, ...] = tuple(Roll((f,)) for f in range(1, self.faces + 1))
        # one-shot items usable before acting: heal (anywhere: False) / climb (inside: True)
        self.main_use: dict[str, bool] = {
            i.id: i.effect == "climb"
            for i in items
            if i.use == "once" and i.effect in ("heal", "climb")
        }
        # one-shot items usable after the roll, and their verb
        self.after_use: dict[str, str] = {
            i.id: "reroll" if i.effect == "reroll" else "use"
            for i in items
            if i.use == "once" and i.effect in ("reroll", "power")
        }
        # power lookup: power[card][depth] = (tier index); nullify handled at fight time
        self.tier_at: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                max((k for k, t in enumerate(c.tiers) if t.depth <= d), default=0)
                for d in range(self.depth_max + 1)
            )
            if c.tiers
            else ()
            for c in self.dungeon
        )

    # --- Engine protocol ---------------------------------------------------------------------

    def new_initial_state(self) -> SusumukaState:
        return SusumukaState(self)

    def format_action(self, action: Action) -> str:
        return format_action(self, action)

    def notation_of(self, action: Action) -> str:
        """`format_action`, remembered: views write every step of the history each time
        (a game has a few hundred distinct actions)."""
        found = self._texts.get(action)
        if found is None:
            found = self._texts[action] = format_action(self, action)
        return found

    def parse_action(self, text: str) -> Action:
        return parse_action(self, text)

    def notation_pattern(self) -> re.Pattern[str]:
        """The notation in running text (`actions.notation_pattern`)."""
        found = self._notation
        if found is None:
            found = self._notation = notation_pattern(self)
        return found

    # --- balance lab ---------------------------------------------------------------------------

    def outcome(self, state: SusumukaState) -> Outcome:
        """What a finished game tells a designer (see `balance.outcome`)."""
        return outcome(state)

    def evaluate(self, state: SusumukaState) -> tuple[float, ...]:
        """Each player's prospects before the end, in [-1, 1] (see `balance.evaluate`)."""
        return evaluate(state)

    # --- setup ---------------------------------------------------------------------------------

    SETUP_KEYS: Final = SETUP_KEYS

    def setup_state(self, setup: Mapping[str, Any]) -> SusumukaState:
        """A state from an example's setup (see `setting_up.setup_state`)."""
        return setup_state(self, setup)

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = QUERIES

    def query(self, state: Any, name: str) -> Any:
        return query(self, state, name)

    # --- diagrams ------------------------------------------------------------------------------

    def diagram(self, state: Any) -> Diagram:
        """The state drawn for a rulebook step (see `diagrams.diagram`)."""
        return diagram(self, state)


def _text_map(value: Any) -> dict[str, str]:
    if isinstance(value, Mapping):
        return {"ja": str(value["ja"]), "en": str(value["en"])}
    return {"ja": str(value.ja), "en": str(value.en)}
