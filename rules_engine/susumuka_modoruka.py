"""Susumuka & Modoruka (ススムカ&モドルカ, the "old" rules of 2014-06-07): the rules engine.

Every number comes from the game's data (`components/susumuka-modoruka/`): the rule
parameters of `game.yaml` (`rules:` turns, start HP, base combat dice, draws, item
thresholds, depth track, death and lost-property handling, winner), the dungeon cards of
`dungeon.yaml` (type, difficulty, depth tiers with a coloured part), the four item decks of
`items.yaml` (effect, amount, keep or once) and the skill sheets of `players.yaml`.

Rule numbers in error messages (the seed has none; these follow its sections):

    1 setup and turn order      2 turns and game end     3 investigate (調査)
    4 advance (進む)             5 combat (戦闘)           6 flee (逃げる)
    7 Return (戻る宣言)          8 escape (脱出)           9 death and lost property (死亡)
    10 skills (スキルの獲得)     11 items

Where neither the seed nor the data says, the engine plays these choices (the rule options
below cover the readings the text leaves open):

- A "turn" of the 20 is a round: every player takes one turn in seat order from the first
  player; the turns passed (the skill budget) are the rounds completed before this one.
- On your turn, before your action: take skills (outside only) and use one-shot heal or
  climb items. After your combat roll, before the result: rerolls and one-shot power items.
  A safe-flee item is used as you flee. Revival is automatic (a revive skill first, then an
  item). A decision with nothing left to choose is taken for you (accept the roll; no
  Return to declare once declared).
- You may flee from a card of your hand too (the revealed card is discarded first).
- A climb that takes a player who declared Return to depth 0 is an escape; the turn then
  goes on from outside.
- An escape draws from the deck the flag earns (option item_deck); if that deck is empty
  (its pile and the used items under it) nothing is drawn.
- A dead player's hand goes to the discard pile; a dead player whose lost-property card is
  still in the deck adds the new items to the same area.
- When the dungeon deck is empty the discard pile becomes the deck (rules.empty_dungeon_deck);
  when no card is left anywhere and you hold none, you pass.

Notation (one action per line):

    first pink                   chance: who starts (the most thrill-seeking player)
    yellow skill might           buy a skill (outside the dungeon, before your action)
    yellow use healing-herb      use a one-shot item: heal / climb before your action,
                                 power after your roll
    yellow investigate           draw dungeon cards into your hand (outside only)
    yellow advance               reveal the top dungeon card
    draw tsuchikappa             chance: the next card of the dungeon deck (or, after an
                                 escape, of the item deck being drawn from)
    yellow fight                 fight the revealed card
    yellow fight goblin          discard the revealed card and fight goblin from your hand
    yellow flee [goblin] [smoke-ball]
                                 flee from the revealed card (or a hand card), optionally
                                 with a safe-flee item
    roll 5                       chance: the combat dice (one number per die)
    yellow reroll second-look    roll again with a reroll skill or item
    yellow accept                take the roll as it is and resolve the combat
    yellow return / yellow stay  declare Return after an advance, or not
    yellow take silver           the item deck to draw from (option item_deck: choose)
    yellow pass                  nothing can be done (no dungeon card anywhere)
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    Bilingual,
    Diagram,
    DiagramCell,
    DiagramGrid,
    EngineBase,
    IllegalActionError,
    Mapped,
    NotationError,
    Product,
    SetupError,
    Step,
    TurnStateBase,
)
from rules_engine.params import GameData

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

# --- actions --------------------------------------------------------------------------------


class First(NamedTuple):
    """Chance: who takes the first turn."""

    player: int


class Draw(NamedTuple):
    """Chance: the next card of the dungeon deck, or of the item deck being drawn from."""

    card: str


class Roll(NamedTuple):
    """Chance: the combat dice, in the order rolled."""

    dice: tuple[int, ...]


class Act(NamedTuple):
    """A player's decision: a verb and its words (`yellow fight goblin`)."""

    player: int
    verb: str
    args: tuple[str, ...] = ()


Action = First | Draw | Roll | Act

VERBS: Final = (
    "skill",
    "use",
    "investigate",
    "advance",
    "fight",
    "flee",
    "reroll",
    "accept",
    "return",
    "stay",
    "take",
    "pass",
)

# Phases
FIRST: Final = 0
MAIN: Final = 1  # the player to act: skills, items, investigate / advance
DRAW: Final = 2  # chance: a dungeon card
CHOOSE: Final = 3  # the revealed card: fight or flee (or a hand card instead)
ROLL: Final = 4  # chance: combat dice
AFTER: Final = 5  # after the roll: rerolls, one-shot power items, accept
RETURN: Final = 6  # after an advance: declare Return or not
PICK: Final = 7  # escape: choose an item deck
ITEM: Final = 8  # chance: an item card
OVER: Final = 9
PHASE_NAMES: Final = (
    "first",
    "main",
    "draw",
    "choose",
    "roll",
    "after_roll",
    "return",
    "pick_item_deck",
    "item",
    "over",
)

INVESTIGATE: Final = 1
REVEAL: Final = 2

END_TURN: Final = 0
BACK_TO_MAIN: Final = 1

ALL: Final = "all"

PASSIVE_EFFECTS: Final = frozenset(
    {
        "power",
        "power_dice",
        "armour",
        "nullify",
        "regen",
        "bonus_move",
        "flee_half",
        "investigate_draws",
        "reroll",
        "hp_max",
    }
)
ONCE_EFFECTS: Final = frozenset({"power", "heal", "reroll", "safe_flee", "climb", "revive"})


@dataclass(frozen=True)
class Tier:
    depth: int
    base: int
    colour: str | None
    coloured: int


@dataclass(frozen=True)
class DungeonCard:
    """A kind of dungeon card (monster, trap) or a player's lost-property card."""

    id: str
    name: Bilingual
    type: str  # "monster" | "trap" | "lost_property"
    difficulty: int
    tiers: tuple[Tier, ...]
    count: int
    owner: int  # the player of a lost-property card, else -1

    def tier(self, depth: int) -> Tier:
        """The tier with the greatest depth at or above which you stand."""
        found = self.tiers[0]
        for t in self.tiers:
            if t.depth <= depth:
                found = t
        return found


@dataclass(frozen=True)
class Item:
    id: str
    name: Bilingual
    deck: str
    effect: str
    amount: int  # amount / dice / hp, as the effect needs
    colour: str | None
    use: str  # "keep" | "once"
    count: int


@dataclass(frozen=True)
class Skill:
    id: str
    name: Bilingual
    cost: int
    max: int
    effect: str
    amount: int
    per: str | None


class Stats(NamedTuple):
    """What a player's skills and kept items add up to."""

    dice: int
    bonus: int
    armour: int
    nullify: frozenset[str]
    regen: int
    bonus_move: int
    flee_half: bool
    extra_draws: int
    rerolls: tuple[str, ...]  # per-combat reroll sources (skill or kept item ids)
    hp_extra: int
    revive_hp: int  # a per-game revive skill (0: none)


@dataclass(frozen=True)
class PlayerInfo:
    """One player's public facts."""

    name: str
    depth: int
    hp: int
    max_hp: int
    flag: int | None
    trophy: int | None
    max_depth: int
    items: tuple[str, ...]
    skills: tuple[str, ...]
    skill_points: int
    hand_size: int
    lost_property: tuple[str, ...]
    lost_property_card: str
    out: bool


@dataclass(frozen=True)
class SusumukaView:
    """What one player can know: every hand but their own is only a number of cards."""

    player: str
    round: int
    phase: str
    to_move: tuple[str, ...]
    players: tuple[PlayerInfo, ...]
    own_hand: tuple[str, ...]
    deck_size: int
    discard: tuple[str, ...]
    item_decks: tuple[tuple[str, int, tuple[str, ...]], ...]
    removed: tuple[str, ...]
    top: str | None
    combat: tuple[Any, ...]
    log: tuple[str, ...]


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
        if isinstance(action, Act):
            return " ".join((self.names[action.player], action.verb, *action.args))
        if isinstance(action, Draw):
            return f"draw {action.card}"
        if isinstance(action, Roll):
            return "roll " + " ".join(map(str, action.dice))
        if isinstance(action, First):
            return f"first {self.names[action.player]}"
        raise TypeError(f"not a Susumuka & Modoruka action: {action!r}")

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise NotationError("empty action")
        head = words[0]
        if head == "roll":
            if len(words) < 2:
                raise NotationError("'roll' needs the dice, like 'roll 5' or 'roll 3 6'")
            try:
                return Roll(tuple(int(w) for w in words[1:]))
            except ValueError:
                raise NotationError(f"not a number in {text!r}") from None
        if head == "draw":
            if len(words) != 2:
                raise NotationError("'draw' names one card, like 'draw tsuchikappa'")
            if words[1] not in self.dungeon_index and words[1] not in self.items:
                raise NotationError(f"unknown card '{words[1]}'")
            return Draw(words[1])
        if head == "first":
            if len(words) != 2:
                raise NotationError("'first' names one player, like 'first yellow'")
            return First(self.player_index(words[1]))
        if len(words) < 2:
            raise NotationError(
                f"cannot read {text!r}: expected 'first NAME', 'draw CARD', 'roll D...' "
                "or 'NAME VERB ...'"
            )
        player = self.player_index(head)
        verb = words[1]
        if verb not in VERBS:
            raise NotationError(f"unknown verb '{verb}' (verbs: {', '.join(VERBS)})")
        return Act(player, verb, tuple(words[2:]))

    # --- setup ---------------------------------------------------------------------------------

    SETUP_KEYS: Final = (
        "round",
        "first",
        "current",
        "depth",
        "hp",
        "items",
        "skills",
        "hand",
        "flag",
        "trophy",
        "max_depth",
        "lost_property",
        "discard",
        "deck",
    )

    def setup_state(self, setup: Mapping[str, Any]) -> SusumukaState:
        """A state from an example's setup (see SETUP_KEYS): the player `current` (default
        `first`) is about to act in round `round` (default 1); without `first`, the first
        player is still to be drawn."""
        for key in setup:
            if key not in self.SETUP_KEYS:
                raise SetupError(
                    (key,), f"unknown setup key '{key}' (known: {', '.join(self.SETUP_KEYS)})"
                )
        state = SusumukaState(self)
        rnd = setup.get("round", 1)
        if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= self.turns:
            raise SetupError(("round",), f"round must be 1 to {self.turns}, got {rnd!r}")
        s = state
        s.round = rnd

        def per_player(key: str) -> dict[int, Any]:
            value = setup.get(key, {})
            if not isinstance(value, Mapping):
                raise SetupError((key,), f"'{key}' maps player names to values")
            return {self._setup_player(name, (key, name)): v for name, v in value.items()}

        def number(key: str, p: int, v: Any, low: int, high: int) -> int:
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise SetupError((key, self.names[p]), f"{key} must be {low} to {high}, got {v!r}")
            return v

        for p, v in per_player("skills").items():
            if not isinstance(v, list):
                raise SetupError(("skills", self.names[p]), "skills is a list of skill ids")
            for sid in v:
                k = self.skill_index[p].get(str(sid))
                if k is None:
                    raise SetupError(("skills", self.names[p]), f"unknown skill {sid!r}")
                s.skills[p][k] += 1
                if s.skills[p][k] > self.skills[p][k].max:
                    raise SetupError(
                        ("skills", self.names[p]), f"{sid} taken more than {self.skills[p][k].max}"
                    )
                s.spent[p] += self.skills[p][k].cost
            if s.spent[p] > rnd - 1:
                raise SetupError(
                    ("skills", self.names[p]),
                    f"skills cost {s.spent[p]}, more than the {rnd - 1} turns passed",
                )
        for p in range(self.num_players):
            s.hp[p] = self.start_hp + s._restat(p).hp_extra
        for p, v in per_player("depth").items():
            s.depth[p] = number("depth", p, v, 0, self.depth_max)
            s.maxd[p] = s.depth[p]
        for p, v in per_player("max_depth").items():
            s.maxd[p] = number("max_depth", p, v, s.depth[p], self.depth_max)
        for p, v in per_player("hp").items():
            s.hp[p] = number("hp", p, v, self.death_at + 1, s.max_hp(p))
        for p, v in per_player("flag").items():
            if s.depth[p] == 0:
                raise SetupError(("flag", self.names[p]), "a flag needs the player inside")
            s.flag[p] = number("flag", p, v, 1, self.depth_max)
        for p, v in per_player("trophy").items():
            s.trophy[p] = number("trophy", p, v, 1, self.depth_max)
        item_pool = {d: list(s.ipile[k]) for k, d in enumerate(self.item_decks)}

        def take_items(key: tuple[str | int, ...], ids: Any) -> list[str]:
            if not isinstance(ids, list):
                raise SetupError(key, "a list of item ids")
            out = []
            for iid in ids:
                item = self.items.get(str(iid))
                if item is None:
                    raise SetupError(key, f"unknown item {iid!r}")
                pool = item_pool[item.deck]
                slot = self.item_slot[item.id]
                if pool[slot] == 0:
                    raise SetupError(key, f"no {iid} left in the {item.deck} deck")
                pool[slot] -= 1
                out.append(item.id)
            return out

        for p, v in per_player("items").items():
            s.items[p] = sorted(take_items(("items", self.names[p]), v))
            s._restat(p)
        for p, v in per_player("lost_property").items():
            s.lost[p] = sorted(take_items(("lost_property", self.names[p]), v))
            s.lp_home[p] = False
            s.pile[self.lp_index[p]] += 1
        for k, d in enumerate(self.item_decks):
            s.ipile[k] = item_pool[d]
        dungeon_pool = list(s.pile)

        def take_cards(key: tuple[str | int, ...], ids: Any) -> list[str]:
            if not isinstance(ids, list):
                raise SetupError(key, "a list of dungeon card ids")
            out = []
            for cid in ids:
                idx = self.dungeon_index.get(str(cid))
                if idx is None or self.dungeon[idx].type == "lost_property":
                    raise SetupError(key, f"unknown dungeon card {cid!r}")
                if dungeon_pool[idx] == 0:
                    raise SetupError(key, f"no {cid} left in the dungeon deck")
                dungeon_pool[idx] -= 1
                out.append(str(cid))
            return out

        for p, v in per_player("hand").items():
            s.hand[p] = sorted(take_cards(("hand", self.names[p]), v))
        if "discard" in setup:
            for cid in take_cards(("discard",), setup["discard"]):
                s.discard[self.dungeon_index[cid]] += 1
        if "deck" in setup:
            if "discard" in setup:
                raise SetupError(("deck",), "give 'deck' or 'discard', not both")
            # The deck holds exactly these cards; every other card not in a hand (and not a
            # lost-property card) is in the discard pile.
            before = list(dungeon_pool)
            take_cards(("deck",), setup["deck"])
            lost_cards = set(self.lp_index)
            for i, had in enumerate(before):
                if i not in lost_cards:
                    left = dungeon_pool[i]
                    s.discard[i] += left
                    dungeon_pool[i] = had - left
        s.pile = dungeon_pool
        s.pile_n = sum(dungeon_pool)
        s.discard_n = sum(s.discard)
        if "first" in setup:
            first = self._setup_player(setup["first"], ("first",))
            current = self._setup_player(setup.get("current", setup["first"]), ("current",))
            s.first = first
            s.cur = current
            s.phase = MAIN
        elif "current" in setup:
            raise SetupError(("current",), "'current' needs 'first'")
        state.init = state._snapshot()
        return state

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = (
        "round",
        "turns_passed",
        "phase",
        "current",
        "depth",
        "hp",
        "max_hp",
        "flag",
        "trophy",
        "max_depth",
        "items",
        "skills",
        "skill_points",
        "hand",
        "hand_size",
        "lost_property",
        "lost_property_card",
        "deck_size",
        "discard",
        "discard_size",
        "item_decks",
        "item_bottom",
        "top",
        "card",
        "card_tier",
        "card_base",
        "card_colour",
        "card_coloured",
        "nullified",
        "card_power",
        "dice",
        "bonus",
        "power",
        "result",
        "moved",
        "damage",
        "last_escape",
        "last_pickup",
        "escapes",
        "deaths",
        "out",
        "scores",
        "winners",
    )

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, SusumukaState):
            raise TypeError("not a Susumuka & Modoruka state")
        s = state
        names = self.names
        players = range(s.n)

        def each(values: Sequence[Any]) -> dict[str, Any]:
            return {names[p]: values[p] for p in players}

        card = self.dungeon[self.dungeon_index[s.c_card]] if s.c_card else None
        tier = card.tier(s.c_depth) if card else None
        if name == "round":
            return s.round
        if name == "turns_passed":
            return s.turns_passed()
        if name == "phase":
            return PHASE_NAMES[s.phase]
        if name == "current":
            return names[s.cur] if s.phase not in (FIRST, OVER) else None
        if name == "depth":
            return each(s.depth)
        if name == "hp":
            return each(s.hp)
        if name == "max_hp":
            return each([s.max_hp(p) for p in players])
        if name == "flag":
            return each([f if f >= 0 else None for f in s.flag])
        if name == "trophy":
            return each([t if t >= 0 else None for t in s.trophy])
        if name == "max_depth":
            return each(s.maxd)
        if name == "items":
            return each([sorted(i) for i in s.items])
        if name == "skills":
            return each([s.skill_ids(p) for p in players])
        if name == "skill_points":
            return each(s.spent)
        if name == "hand":
            return each([sorted(h) for h in s.hand])
        if name == "hand_size":
            return each([len(h) for h in s.hand])
        if name == "lost_property":
            return each([sorted(i) for i in s.lost])
        if name == "lost_property_card":
            return each(["owner" if h else "deck" for h in s.lp_home])
        if name == "deck_size":
            return s.pile_n
        if name == "discard":
            return s.discard_list()
        if name == "discard_size":
            return s.discard_n
        if name == "item_decks":
            return {d: s.ipile_n(k) + len(s.ibottom[k]) for k, d in enumerate(self.item_decks)}
        if name == "item_bottom":
            return {d: list(s.ibottom[k]) for k, d in enumerate(self.item_decks)}
        if name == "top":
            return s.top
        if name == "card":
            return s.c_card
        if name == "card_tier":
            return tier.depth if tier else None
        if name == "card_base":
            return tier.base if tier else None
        if name == "card_colour":
            return tier.colour if tier else None
        if name == "card_coloured":
            return tier.coloured if tier else None
        if name == "nullified":
            return s.c_nullified if card else None
        if name == "card_power":
            return s.c_power if card else None
        if name == "dice":
            return list(s.c_dice)
        if name == "bonus":
            return s.c_bonus if card else None
        if name == "power":
            return sum(s.c_dice) + s.c_bonus if s.c_dice else None
        if name == "result":
            return s.c_result
        if name == "moved":
            return s.c_moved
        if name == "damage":
            return s.c_damage
        if name == "last_escape":
            if s.last_escape is None:
                return None
            p, flag, deck, got = s.last_escape
            return {"player": names[p], "flag": flag, "deck": deck, "items": list(got)}
        if name == "last_pickup":
            if s.last_pickup is None:
                return None
            q, owner, got = s.last_pickup
            return {"player": names[q], "owner": names[owner], "items": list(got)}
        if name == "escapes":
            return each(s.escapes)
        if name == "deaths":
            return each(s.deaths)
        if name == "out":
            return each(s.out)
        if name == "scores":
            return each([s.measure(p) for p in players])
        if name == "winners":
            return [names[p] for p in s.winners] if s.phase == OVER else None
        raise KeyError(name)

    # --- diagrams ------------------------------------------------------------------------------

    def diagram(self, state: Any) -> Diagram:
        """Three small grids for a rulebook step: the depth track (each player's pawn ●,
        flag F and trophy T), the players' numbers (HP, items, hand, skill points), and the
        combat being fought or last fought (the card's base and coloured part, crossed out
        when nullified, against the player's dice and bonus; the winning total is marked)."""
        if not isinstance(state, SusumukaState):
            raise TypeError("not a Susumuka & Modoruka state")
        s = state
        acting = s.cur if s.phase not in (FIRST, OVER) else -1
        players = range(s.n)
        label = self.player_labels
        deepest = max(max(s.depth), max(s.flag), max(s.trophy))
        last = min(max(10, deepest + 1), self.depth_max)
        track_rows = []
        for p in players:
            cells = []
            for d in range(last + 1):
                text = (
                    ("●" if s.depth[p] == d else "")
                    + ("F" if s.flag[p] == d else "")
                    + ("T" if s.trophy[p] == d else "")
                )
                mark = ""
                if s.depth[p] == d:
                    mark = "sunk" if s.out[p] else "active" if p == acting else ""
                cells.append(DiagramCell(text, mark))
            track_rows.append((label[p], tuple(cells)))
        grids = [
            DiagramGrid(
                {
                    "ja": f"ターン{s.round}/{self.turns} 深度(●コマ F旗 Tトロフィー)",
                    "en": f"Turn {s.round}/{self.turns}, depth (● pawn, F flag, T trophy)",
                },
                tuple(str(d) for d in range(last + 1)),
                tuple(track_rows),
            )
        ]

        def row(
            ja: str, en: str, values: Sequence[int]
        ) -> tuple[Mapping[str, str], tuple[DiagramCell, ...]]:
            return (
                {"ja": ja, "en": en},
                tuple(
                    DiagramCell(str(v), "active" if p == acting else "")
                    for p, v in enumerate(values)
                ),
            )

        grids.append(
            DiagramGrid(
                {"ja": "プレイヤー", "en": "Players"},
                tuple(name[:1].upper() for name in self.names),
                (
                    row("HP", "HP", s.hp),
                    row("アイテム", "items", [len(i) for i in s.items]),
                    row("手札", "hand", [len(h) for h in s.hand]),
                    row("スキル", "skill pts", s.spent),
                    row("落し物", "lost prop.", [len(i) for i in s.lost]),
                ),
            )
        )
        if s.c_card:
            card = self.dungeon[self.dungeon_index[s.c_card]]
            tier = card.tier(s.c_depth)
            card_cells = [DiagramCell(str(tier.base))]
            if tier.colour:
                card_cells.append(DiagramCell(f"+{tier.coloured}", "sunk" if s.c_nullified else ""))
            won = s.c_result == "win"
            card_cells.append(DiagramCell(f"={s.c_power}", "" if won or not s.c_dice else "active"))
            you: list[DiagramCell] = [DiagramCell(str(d)) for d in s.c_dice]
            if s.c_dice:
                if s.c_bonus:
                    you.append(DiagramCell(f"{s.c_bonus:+d}"))
                you.append(DiagramCell(f"={sum(s.c_dice) + s.c_bonus}", "active" if won else ""))
            grids.append(
                DiagramGrid(
                    {
                        "ja": f"{card.name.ja}(深度{tier.depth}以上)",
                        "en": f"{card.name.en} (depth {tier.depth}+)",
                    },
                    ("",) * max(len(card_cells), len(you)),
                    (
                        ({"ja": "カード", "en": "card"}, tuple(card_cells)),
                        (label[s.c_player], tuple(you)),
                    ),
                )
            )
        return tuple(grids)


def _text_map(value: Any) -> dict[str, str]:
    if isinstance(value, Mapping):
        return {"ja": str(value["ja"]), "en": str(value["en"])}
    return {"ja": str(value.ja), "en": str(value.en)}


class SusumukaState(TurnStateBase[Action, SusumukaModoruka]):
    """A position of Susumuka & Modoruka (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "2"
    JOINT_RULE = "1"
    ONE_AT_A_TIME = "one player acts at a time: give one action"

    __slots__ = (
        "_history",
        "_seen_by",
        "c_bonus",
        "c_card",
        "c_damage",
        "c_depth",
        "c_dice",
        "c_moved",
        "c_nullified",
        "c_player",
        "c_power",
        "c_result",
        "c_used",
        "cur",
        "deaths",
        "depth",
        "discard",
        "discard_n",
        "draws_left",
        "e_cont",
        "e_deck",
        "e_got",
        "e_left",
        "escapes",
        "first",
        "flag",
        "g",
        "hand",
        "hp",
        "ibottom",
        "init",
        "ipile",
        "items",
        "last_escape",
        "last_pickup",
        "lost",
        "lp_home",
        "maxd",
        "n",
        "out",
        "phase",
        "pile",
        "pile_n",
        "purpose",
        "removed",
        "round",
        "skills",
        "spent",
        "stats",
        "top",
        "trophy",
        "undying",
        "winners",
    )

    def __init__(self, engine: SusumukaModoruka) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self._history: list[Step[Action]] = []
        self._seen_by: list[int] = []  # per history entry: the only player who saw it, or -1
        self.phase = FIRST
        self.round = 1
        self.first = -1
        self.cur = -1
        self.depth = [0] * n
        self.hp = [g.start_hp] * n
        self.items: list[list[str]] = [[] for _ in range(n)]
        self.skills: list[list[int]] = [[0] * len(g.skills[p]) for p in range(n)]
        self.spent = [0] * n
        self.flag = [-1] * n
        self.trophy = [-1] * n
        self.maxd = [0] * n
        self.hand: list[list[str]] = [[] for _ in range(n)]
        self.undying = [False] * n
        self.lost: list[list[str]] = [[] for _ in range(n)]
        self.lp_home = [True] * n
        self.out = [False] * n
        self.escapes = [0] * n
        self.deaths = [0] * n
        self.stats: list[Stats] = [_NO_STATS] * n
        self.pile = list(g.start_pile)
        self.pile_n = sum(self.pile)
        self.discard = [0] * len(g.dungeon)
        self.discard_n = 0
        self.ipile: list[list[int]] = [[i.count for i in g.deck_items[d]] for d in g.item_decks]
        self.ibottom: list[list[str]] = [[] for _ in g.item_decks]
        self.removed: list[str] = []
        self.purpose = 0
        self.draws_left = 0
        self.top: str | None = None
        self.c_card: str | None = None
        self.c_player = -1
        self.c_depth = 0
        self.c_dice: tuple[int, ...] = ()
        self.c_bonus = 0
        self.c_power = 0
        self.c_nullified = False
        self.c_used: tuple[str, ...] = ()
        self.c_result: str | None = None
        self.c_moved = 0
        self.c_damage = 0
        self.e_deck = -1
        self.e_left = 0
        self.e_cont = END_TURN
        self.e_got: list[str] = []
        self.last_escape: tuple[int, int, str | None, tuple[str, ...]] | None = None
        self.last_pickup: tuple[int, int, tuple[str, ...]] | None = None
        self.winners: tuple[int, ...] = ()
        for p in range(n):
            self._restat(p)
        self.init: SusumukaState | None = None

    # --- derived facts ---------------------------------------------------------------------

    def _restat(self, p: int) -> Stats:
        g = self.g
        dice = g.base_dice
        bonus = armour = regen = bonus_move = extra = hp_extra = revive = 0
        flee_half = False
        nullify: set[str] = set()
        rerolls: list[str] = []
        sources: list[tuple[str, str, int, str | None, int]] = []
        for skill, k in zip(g.skills[p], self.skills[p], strict=True):
            if k:
                sources.append((skill.id, skill.effect, skill.amount, None, k))
        for iid in self.items[p]:
            item = g.items[iid]
            if item.use == "keep":
                sources.append((iid, item.effect, item.amount, item.colour, 1))
        for sid, effect, amount, colour, k in sources:
            if effect == "power":
                bonus += amount * k
            elif effect == "power_dice":
                dice += amount * k
            elif effect == "armour":
                armour += amount * k
            elif effect == "nullify":
                nullify.add(colour or ALL)
            elif effect == "regen":
                regen += amount * k
            elif effect == "bonus_move":
                bonus_move += amount * k
            elif effect == "flee_half":
                flee_half = True
            elif effect == "investigate_draws":
                extra += amount * k
            elif effect == "reroll":
                rerolls.extend([sid] * k)
            elif effect == "hp_max":
                hp_extra += amount * k
            elif effect == "revive":
                revive = max(revive, amount)
        stats = Stats(
            dice,
            bonus,
            armour,
            frozenset(nullify),
            regen,
            bonus_move,
            flee_half,
            extra,
            tuple(rerolls),
            hp_extra,
            revive,
        )
        self.stats[p] = stats
        top = g.start_hp + hp_extra
        if self.hp[p] > top:
            self.hp[p] = top
        return stats

    def max_hp(self, p: int) -> int:
        return self.g.start_hp + self.stats[p].hp_extra

    def turns_passed(self) -> int:
        return self.g.turns if self.phase == OVER else self.round - 1

    def skill_ids(self, p: int) -> list[str]:
        out: list[str] = []
        for skill, k in zip(self.g.skills[p], self.skills[p], strict=True):
            out.extend([skill.id] * k)
        return out

    def discard_list(self) -> list[str]:
        out: list[str] = []
        for card, k in zip(self.g.dungeon, self.discard, strict=True):
            out.extend([card.id] * k)
        return out

    def ipile_n(self, k: int) -> int:
        return sum(self.ipile[k])

    def measure(self, p: int) -> int:
        m = self.g.winner_measure
        if m == "trophy_depth":
            return max(self.trophy[p], 0)
        if m == "current_depth":
            return self.depth[p]
        return self.maxd[p]

    def rank_key(self, p: int) -> tuple[int, ...]:
        tb = self.g.tie_break
        if tb == "current_depth_then_hp":
            return (self.measure(p), self.depth[p], self.hp[p])
        if tb == "hp":
            return (self.measure(p), self.hp[p])
        return (self.measure(p),)

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (FIRST, DRAW, ROLL, ITEM):
            return (CHANCE,)
        if phase == OVER:
            return ()
        return (self.cur,)

    def legal_actions(self, player: int) -> Sequence[Action]:
        phase = self.phase
        if player == CHANCE:
            if phase == FIRST:
                return [First(p) for p in range(self.n)]
            if phase == DRAW:
                ids = self.g.dungeon
                return [Draw(ids[i].id) for i, k in enumerate(self.pile) if k]
            if phase == ITEM:
                k = self.e_deck
                pile = self.ipile[k]
                if any(pile):
                    items = self.g.deck_items[self.g.item_decks[k]]
                    return [Draw(items[i].id) for i, c in enumerate(pile) if c]
                return [Draw(self.ibottom[k][0])]
            if phase == ROLL:
                faces = tuple(range(1, self.g.faces + 1))
                return Mapped(
                    Product(*[faces] * self.stats[self.cur].dice),
                    Roll,
                    lambda a: a.dice if isinstance(a, Roll) else None,
                )
            return []
        if player != self.cur or phase in (FIRST, DRAW, ROLL, ITEM, OVER):
            return []
        if phase == MAIN:
            return self._main_actions(player)
        if phase == CHOOSE:
            return self._choose_actions(player)
        if phase == AFTER:
            return self._after_actions(player)
        if phase == RETURN:
            verbs = self.g.verb_acts[player]
            return [verbs["return"], verbs["stay"]]
        if phase == PICK:
            return [Act(player, "take", (d,)) for d in self._eligible_decks(player)]
        return []

    def _main_actions(self, p: int) -> list[Action]:
        g = self.g
        acts: list[Action] = []
        inside = self.depth[p] > 0
        if not inside:
            budget = self.turns_passed() - self.spent[p]
            if budget > 0:
                taken = self.skills[p]
                for k, skill in enumerate(g.skills[p]):
                    if taken[k] < skill.max and skill.cost <= budget:
                        acts.append(g.skill_acts[p][k])
        if self.items[p]:
            last = ""
            one = g.one_acts[p]
            main_use = g.main_use
            for iid in self.items[p]:
                if iid != last:
                    last = iid
                    use = main_use.get(iid)
                    if use is not None and (inside or not use):
                        acts.append(one["use", iid])
        verbs = g.verb_acts[p]
        can_draw = self.pile_n + self.discard_n > 0
        if not inside and can_draw and self._room(p) > 0:
            acts.append(verbs["investigate"])
        if can_draw or self.hand[p]:
            acts.append(verbs["advance"])
        else:
            acts.append(verbs["pass"])
        return acts

    def _room(self, p: int) -> int:
        limit = self.g.hand_limit
        return 1_000_000 if limit is None else limit - len(self.hand[p])

    def _smoke(self, p: int) -> str | None:
        smoke = self.g.smoke_items
        for iid in self.items[p]:
            if iid in smoke:
                return iid
        return None

    def _choose_actions(self, p: int) -> list[Action]:
        g = self.g
        acts: list[Action] = []
        smoke = self._smoke(p) if self.items[p] else None
        one = g.one_acts[p]
        if self.top is not None:
            verbs = g.verb_acts[p]
            acts.append(verbs["fight"])
            acts.append(verbs["flee"])
            if smoke:
                acts.append(one["flee", smoke])
        if self.top is None or g.may_use_hand:
            last = ""
            for cid in self.hand[p]:
                if cid == last:
                    continue
                last = cid
                acts.append(one["fight", cid])
                acts.append(one["flee", cid])
                if smoke:
                    acts.append(g.flee_with[p][cid, smoke])
        return acts

    def _after_actions(self, p: int) -> list[Action]:
        g = self.g
        acts: list[Action] = []
        one = g.one_acts[p]
        rerolls = self.stats[p].rerolls
        if rerolls:
            used = self.c_used
            last = ""
            for sid in rerolls:
                if sid != last and used.count(sid) < rerolls.count(sid):
                    acts.append(one["reroll", sid])
                last = sid
        if self.items[p]:
            last = ""
            after_use = g.after_use
            for iid in self.items[p]:
                if iid != last:
                    last = iid
                    verb = after_use.get(iid)
                    if verb is not None:
                        acts.append(one[verb, iid])
        verbs = g.verb_acts[p]
        if g.flee_after:
            acts.append(verbs["flee"])
            smoke = self._smoke(p)
            if smoke:
                acts.append(one["flee", smoke])
        acts.append(verbs["accept"])
        return acts

    def _eligible_decks(self, p: int) -> list[str]:
        g = self.g
        flag = self.last_escape[1] if self.last_escape else 0
        return [
            d
            for k, d in enumerate(g.item_decks)
            if g.threshold[d] <= flag and (any(self.ipile[k]) or self.ibottom[k])
        ]

    def sample_action(self, player: int, rng: random.Random) -> Action:
        phase = self.phase
        g = self.g
        if player == CHANCE:
            if phase == DRAW:
                i = int(rng.random() * self.pile_n)
                for idx, k in enumerate(self.pile):
                    if i < k:
                        return g.draw_acts[idx]
                    i -= k
            if phase == ROLL:
                faces = g.faces
                rnd = rng.random
                dice = self.stats[self.cur].dice
                if dice == 1:
                    return g.roll_one[int(rnd() * faces)]
                return Roll(tuple([int(rnd() * faces) + 1 for _ in range(dice)]))
            if phase == ITEM:
                k = self.e_deck
                pile = self.ipile[k]
                total = sum(pile)
                if total:
                    i = int(rng.random() * total)
                    items = g.deck_items[g.item_decks[k]]
                    for idx, c in enumerate(pile):
                        if i < c:
                            return Draw(items[idx].id)
                        i -= c
                return Draw(self.ibottom[k][0])
            if phase == FIRST:
                return First(int(rng.random() * self.n))
        acts = self.legal_actions(player)
        if not acts:
            raise IllegalActionError("1", f"{g.player_name(player)} has nothing to do now")
        return acts[int(rng.random() * len(acts))]

    def _record(self, action: Action) -> None:
        self._history.append(action)
        seen = -1
        if (
            isinstance(action, Draw)
            and self.phase == DRAW
            and self.purpose == INVESTIGATE
            and self.g.dungeon[self.g.dungeon_index[action.card]].type != "lost_property"
        ):
            seen = self.cur
        self._seen_by.append(seen)

    def clone(self) -> SusumukaState:
        new = SusumukaState.__new__(SusumukaState)
        for name in _PLAIN:
            object.__setattr__(new, name, getattr(self, name))
        new._history = list(self._history)
        new._seen_by = list(self._seen_by)
        for name in _FLAT:
            object.__setattr__(new, name, list(getattr(self, name)))
        for name in _NESTED:
            object.__setattr__(new, name, [list(x) for x in getattr(self, name)])
        new.e_got = list(self.e_got)
        return new

    def _snapshot(self) -> SusumukaState:
        snap = self.clone()
        snap._history = []
        snap._seen_by = []
        snap.init = None
        return snap

    def initial(self) -> SusumukaState:
        if self.init is None:
            return SusumukaState(self.g)
        new = self.init.clone()
        new.init = self.init
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.round, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        parts: list[Any] = list(self._rules_key())
        parts.append(tuple(self._history))
        for name in _PLAIN:
            if name not in ("g", "init"):
                parts.append(getattr(self, name))
        for name in _FLAT:
            parts.append(tuple(getattr(self, name)))
        for name in _NESTED:
            parts.append(tuple(tuple(x) for x in getattr(self, name)))
        parts.append(tuple(self.e_got))
        return tuple(parts)

    def __repr__(self) -> str:
        who = self.g.names[self.cur] if self.cur >= 0 else "-"
        return (
            f"<SusumukaState round {self.round} {PHASE_NAMES[self.phase]} {who} "
            f"depth {self.depth} hp {self.hp}>"
        )

    def zones(self) -> tuple[dict[str, int], dict[str, int]]:
        """Where every card is, counted by id: (dungeon cards, item cards)."""
        g = self.g
        dungeon: dict[str, int] = {}

        def add(counter: dict[str, int], cid: str, k: int = 1) -> None:
            counter[cid] = counter.get(cid, 0) + k

        for idx, card in enumerate(g.dungeon):
            add(dungeon, card.id, self.pile[idx] + self.discard[idx])
        for p in range(self.n):
            for cid in self.hand[p]:
                add(dungeon, cid)
            if self.lp_home[p]:
                add(dungeon, g.dungeon[g.lp_index[p]].id)
        for held in (self.top, self.c_card if self.phase in (ROLL, AFTER) else None):
            if held:
                add(dungeon, held)
        items: dict[str, int] = {}
        for k, d in enumerate(g.item_decks):
            for item, c in zip(g.deck_items[d], self.ipile[k], strict=True):
                add(items, item.id, c)
            for iid in self.ibottom[k]:
                add(items, iid)
        for p in range(self.n):
            for iid in self.items[p] + self.lost[p]:
                add(items, iid)
        for iid in self.removed:
            add(items, iid)
        return dungeon, items

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions (the same choices as
        `core.play_random` with the same generator, faster: no legality check)."""
        history = self._history
        seen = self._seen_by
        sample = self.sample_action
        current = self.current_players
        record = self._record
        while self.phase != OVER:
            action = sample(current()[0], rng)
            if self.phase == DRAW:
                record(action)
            else:
                history.append(action)
                seen.append(-1)
            self._do(action)

    # --- rules ---------------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        phase = self.phase
        if isinstance(action, Act):
            verb = action.verb
            p = action.player
            args = action.args
            if phase == MAIN:
                if verb == "skill":
                    self._buy(p, args[0])
                elif verb == "use":
                    self._use_main(p, args[0])
                elif verb == "investigate":
                    self.purpose = INVESTIGATE
                    self.draws_left = min(
                        self.g.investigate_draws + self.stats[p].extra_draws, self._room(p)
                    )
                    self._next_draw()
                elif verb == "advance":
                    self.purpose = REVEAL
                    self.top = None
                    self.c_card = None
                    self.c_dice = ()
                    self.c_result = None
                    self.c_moved = 0
                    self.c_damage = 0
                    self._next_draw()
                else:  # pass
                    self._end_turn()
            elif phase == CHOOSE:
                self._choose(p, verb, args)
            elif phase == AFTER:
                if verb == "accept":
                    self._resolve(p)
                elif verb == "reroll":
                    self._reroll(p, args[0])
                elif verb == "use":
                    self._use_power(p, args[0])
                else:  # flee after the roll
                    card = self.c_card
                    assert card is not None
                    self._flee(p, card, bool(args))
            elif phase == RETURN:
                if verb == "return":
                    self.flag[p] = self.depth[p]
                self._end_turn()
            elif phase == PICK:
                self._start_item_draws(self.g.item_decks.index(args[0]))
        elif isinstance(action, Draw):
            if phase == DRAW:
                self._drawn(action.card)
            else:
                self._item_drawn(action.card)
        elif isinstance(action, Roll):
            self.c_dice = action.dice
            self._after_roll(self.cur)
        else:
            self.first = action.player
            self.cur = action.player
            self.round = 1
            self._begin_turn()

    def _begin_turn(self) -> None:
        p = self.cur
        regen = self.stats[p].regen
        if regen:
            self.hp[p] = min(self.hp[p] + regen, self.max_hp(p))
        self.purpose = 0
        self.top = None
        self.phase = MAIN

    def _end_turn(self) -> None:
        n = self.n
        out = self.out
        self.purpose = 0
        self.top = None
        if all(out):
            self._finish()
            return
        p = self.cur
        while True:
            p = (p + 1) % n
            if p == self.first:
                if self.round >= self.g.turns:
                    self._finish()
                    return
                self.round += 1
            if not out[p]:
                break
        self.cur = p
        self._begin_turn()

    def _finish(self) -> None:
        self.phase = OVER
        keys = [self.rank_key(p) for p in range(self.n)]
        best = max(keys)
        self.winners = tuple(p for p in range(self.n) if keys[p] == best)

    def _buy(self, p: int, sid: str) -> None:
        g = self.g
        k = g.skill_index[p][sid]
        skill = g.skills[p][k]
        self.skills[p][k] += 1
        self.spent[p] += skill.cost
        self._restat(p)
        if skill.effect == "hp_max":
            self.hp[p] = min(self.hp[p] + skill.amount, self.max_hp(p))

    def _discard_item(self, p: int, iid: str) -> None:
        self.items[p].remove(iid)
        if self.g.used_to_bottom:
            item = self.g.items[iid]
            self.ibottom[self.g.item_decks.index(item.deck)].append(iid)
        else:
            self.removed.append(iid)

    def _use_main(self, p: int, iid: str) -> None:
        item = self.g.items[iid]
        self._discard_item(p, iid)
        if item.effect == "heal":
            self.hp[p] = min(self.hp[p] + item.amount, self.max_hp(p))
            return
        # climb
        depth = self.depth[p] - item.amount
        if depth <= 0:
            self.depth[p] = 0
            if self.flag[p] >= 0:
                self._escape(p, BACK_TO_MAIN)
        else:
            self.depth[p] = depth

    def _next_draw(self) -> None:
        """Draw the next dungeon card for the purpose at hand (reshuffling the discard pile
        into the deck when the deck is empty), or go on when no card is left."""
        if self.pile_n == 0 and self.discard_n:
            self.pile = self.discard
            self.pile_n = self.discard_n
            self.discard = [0] * len(self.pile)
            self.discard_n = 0
        if self.purpose == INVESTIGATE:
            if self.draws_left > 0 and self.pile_n:
                self.phase = DRAW
            else:
                self._end_turn()
        elif self.pile_n:
            self.phase = DRAW
        else:
            self._to_choose()

    def _drawn(self, cid: str) -> None:
        g = self.g
        idx = g.dungeon_index[cid]
        self.pile[idx] -= 1
        self.pile_n -= 1
        p = self.cur
        card = g.dungeon[idx]
        if card.type == "lost_property":
            owner = card.owner
            got = tuple(sorted(self.lost[owner]))
            self.items[p].extend(got)
            self.items[p].sort()
            self.lost[owner] = []
            self.lp_home[owner] = True
            self.last_pickup = (p, owner, got)
            self._restat(p)
            if not g.draw_again:
                if self.purpose == INVESTIGATE:
                    self.draws_left -= 1
                    self._next_draw()
                else:
                    self._to_choose()
                return
            self._next_draw()
            return
        if self.purpose == INVESTIGATE:
            insort(self.hand[p], cid)
            self.draws_left -= 1
            self._next_draw()
        else:
            self.top = cid
            self._to_choose()

    def _to_choose(self) -> None:
        p = self.cur
        if self.top is None and not self.hand[p]:
            # Nothing to fight: the advance ends.
            self._after_advance(p)
            return
        self.phase = CHOOSE

    def _to_discard(self, cid: str) -> None:
        idx = self.g.dungeon_index[cid]
        self.discard[idx] += 1
        self.discard_n += 1

    def _choose(self, p: int, verb: str, args: tuple[str, ...]) -> None:
        g = self.g
        card = self.top
        smoke = False
        for word in args:
            if word in g.items:
                smoke = True
                self._discard_item(p, word)
            else:
                if card is not None:
                    self._to_discard(card)
                self.hand[p].remove(word)
                card = word
        self.top = None
        assert card is not None
        self._start_combat(p, card)
        if verb == "flee":
            self._flee(p, card, smoke)
        else:
            self.phase = ROLL

    def _start_combat(self, p: int, cid: str) -> None:
        g = self.g
        idx = g.dungeon_index[cid]
        card = g.dungeon[idx]
        depth = self.depth[p]
        tier = card.tiers[g.tier_at[idx][depth]]
        null = self.stats[p].nullify
        nullified = tier.colour is not None and (tier.colour in null or ALL in null)
        self.c_card = cid
        self.c_player = p
        self.c_depth = depth
        self.c_nullified = nullified
        self.c_power = tier.base + (0 if nullified else tier.coloured)
        self.c_bonus = self.stats[p].bonus
        self.c_dice = ()
        self.c_used = ()
        self.c_result = None
        self.c_moved = 0
        self.c_damage = 0

    def _after_roll(self, p: int) -> None:
        acts = self._after_actions(p)
        if len(acts) == 1:
            self._resolve(p)
        else:
            self.phase = AFTER

    def _reroll(self, p: int, sid: str) -> None:
        item = self.g.items.get(sid)
        if item is not None and item.use == "once":
            self._discard_item(p, sid)
        else:
            self.c_used = (*self.c_used, sid)
        self.phase = ROLL

    def _use_power(self, p: int, iid: str) -> None:
        self.c_bonus += self.g.items[iid].amount
        self._discard_item(p, iid)
        self._after_roll(p)

    def _move(self, p: int, steps: int, down: bool) -> None:
        before = self.depth[p]
        depth = before + steps if down else before - steps
        depth = max(0, min(depth, self.g.depth_max))
        self.depth[p] = depth
        if depth > self.maxd[p]:
            self.maxd[p] = depth
        self.c_moved = depth - before

    def _resolve(self, p: int) -> None:
        card = self.c_card
        assert card is not None
        self._to_discard(card)
        power = sum(self.c_dice) + self.c_bonus
        g = self.g
        if power > self.c_power:
            self.c_result = "win"
            difficulty = g.dungeon[g.dungeon_index[card]].difficulty
            returning = self.flag[p] >= 0
            self._move(p, difficulty + self.stats[p].bonus_move, not returning)
            if returning and self.depth[p] == 0:
                self._escape(p, END_TURN)
                return
            self._after_advance(p)
            return
        self.c_result = "lose"
        damage = max(self.c_power - self.stats[p].armour, 0)
        self.c_damage = damage
        self.hp[p] -= damage
        if self.hp[p] <= g.death_at and not self._revive(p):
            self._die(p)
            self._end_turn()
            return
        self._after_advance(p)

    def _revive(self, p: int) -> bool:
        g = self.g
        hp = self.stats[p].revive_hp
        if hp and not self.undying[p]:
            self.undying[p] = True
            self.hp[p] = min(hp, self.max_hp(p))
            return True
        for iid in sorted(self.items[p]):
            item = g.items[iid]
            if item.effect == "revive":
                self._discard_item(p, iid)
                self.hp[p] = min(item.amount, self.max_hp(p))
                return True
        return False

    def _die(self, p: int) -> None:
        g = self.g
        self.deaths[p] += 1
        self.c_result = "dead"
        self.lost[p].extend(self.items[p])
        self.items[p] = []
        if self.lp_home[p]:
            self.lp_home[p] = False
            self.pile[g.lp_index[p]] += 1
            self.pile_n += 1
        for cid in self.hand[p]:
            self._to_discard(cid)
        self.hand[p] = []
        self.flag[p] = -1
        if not g.keep_trophy:
            self.trophy[p] = -1
        if not g.keep_skills:
            self.skills[p] = [0] * len(self.skills[p])
        self._restat(p)
        if g.death_out:
            self.out[p] = True
            self.depth[p] = 0
            self.hp[p] = min(self.hp[p], 0)
            return
        self.depth[p] = g.respawn_depth
        self.hp[p] = self.max_hp(p) if g.respawn_full else min(g.respawn_hp, self.max_hp(p))

    def _flee(self, p: int, card: str, smoke: bool) -> None:
        g = self.g
        self._to_discard(card)
        self.c_result = "flee"
        difficulty = g.dungeon[g.dungeon_index[card]].difficulty
        steps = 0 if smoke else difficulty // 2 if self.stats[p].flee_half else difficulty
        self._move(p, steps, self.flag[p] >= 0)
        self._after_advance(p)

    def _after_advance(self, p: int) -> None:
        if self.depth[p] > 0 and self.flag[p] < 0:
            self.phase = RETURN
        else:
            self._end_turn()

    def _escape(self, p: int, cont: int) -> None:
        g = self.g
        flag = self.flag[p]
        self.flag[p] = -1
        self.depth[p] = 0
        self.escapes[p] += 1
        if flag > self.trophy[p]:
            self.trophy[p] = flag
        if g.escape_full:
            self.hp[p] = self.max_hp(p)
        self.last_escape = (p, flag, None, ())
        self.e_cont = cont
        self.e_got = []
        eligible = self._eligible_decks(p)
        if not g.choose_deck:
            best = [d for d in g.item_decks if g.threshold[d] <= flag]
            eligible = [best[-1]] if best and best[-1] in eligible else []
        if len(eligible) > 1:
            self.phase = PICK
            return
        if eligible:
            self._start_item_draws(g.item_decks.index(eligible[0]))
            return
        self._escape_done()

    def _start_item_draws(self, k: int) -> None:
        self.e_deck = k
        self.e_left = self.g.item_draws
        p, flag, _, got = self.last_escape or (self.cur, 0, None, ())
        self.last_escape = (p, flag, self.g.item_decks[k], got)
        self.phase = ITEM

    def _item_drawn(self, iid: str) -> None:
        g = self.g
        k = self.e_deck
        pile = self.ipile[k]
        slot = g.item_slot[iid]
        if pile[slot]:
            pile[slot] -= 1
        else:
            self.ibottom[k].pop(0)
        p = self.cur
        insort(self.items[p], iid)
        self._restat(p)
        self.e_got.append(iid)
        if self.last_escape:
            q, flag, deck, _ = self.last_escape
            self.last_escape = (q, flag, deck, tuple(self.e_got))
        self.e_left -= 1
        if self.e_left > 0 and (any(pile) or self.ibottom[k]):
            return
        self._escape_done()

    def _escape_done(self) -> None:
        if self.e_cont == END_TURN:
            self._end_turn()
        else:
            self.phase = MAIN

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        phase = self.phase
        g = self.g
        if phase == OVER:
            raise IllegalActionError("2", "the game is over")
        if isinstance(action, Roll):
            if phase != ROLL:
                raise IllegalActionError("5", f"no combat dice are rolled now ({self._now()})")
            want = self.stats[self.cur].dice
            if len(action.dice) != want:
                raise IllegalActionError(
                    "5",
                    f"{g.names[self.cur]} rolls {_n(want, 'die', 'dice')}, "
                    f"got {_n(len(action.dice), 'die', 'dice')}",
                )
            for d in action.dice:
                if not 1 <= d <= g.faces:
                    raise IllegalActionError("5", f"a die shows 1 to {g.faces}, got {d}")
            return
        if isinstance(action, Draw):
            if phase == DRAW:
                idx = g.dungeon_index.get(action.card)
                if idx is None or not self.pile[idx]:
                    raise IllegalActionError(
                        "4", f"{action.card} is not in the dungeon deck ({self.pile_n} cards)"
                    )
                return
            if phase == ITEM:
                if Draw(action.card) not in self.legal_actions(CHANCE):
                    deck = g.item_decks[self.e_deck]
                    raise IllegalActionError(
                        "8", f"{action.card} cannot be drawn from the {deck} deck now"
                    )
                return
            raise IllegalActionError("4", f"no card is drawn now ({self._now()})")
        if isinstance(action, First):
            if phase != FIRST:
                raise IllegalActionError("1", "the first player is already decided")
            if not 0 <= action.player < self.n:
                raise IllegalActionError("1", f"no player {action.player}")
            return
        if not isinstance(action, Act):
            raise IllegalActionError("1", f"not a Susumuka & Modoruka action: {action!r}")
        if player == CHANCE or phase in (FIRST, DRAW, ROLL, ITEM):
            raise IllegalActionError("1", f"chance acts now ({self._now()})")
        p = action.player
        if p != self.cur or player != self.cur:
            raise IllegalActionError(
                "1", f"it is {g.names[self.cur]}'s turn, not {g.player_name(p)}'s"
            )
        if action in self.legal_actions(p):
            return
        raise self._why(p, action)

    def _why(self, p: int, action: Act) -> IllegalActionError:
        """The rule an illegal decision breaks."""
        g = self.g
        phase = self.phase
        verb = action.verb
        args = action.args
        name = g.names[p]
        inside = self.depth[p] > 0
        if phase == MAIN:
            if verb == "skill":
                if len(args) != 1 or args[0] not in g.skill_index[p]:
                    known = ", ".join(s.id for s in g.skills[p])
                    return IllegalActionError("10", f"unknown skill (skills: {known})")
                skill = g.skills[p][g.skill_index[p][args[0]]]
                if inside:
                    return IllegalActionError(
                        "10",
                        f"skills are taken only outside the dungeon ({name} is at depth "
                        f"{self.depth[p]})",
                    )
                taken = self.skills[p][g.skill_index[p][skill.id]]
                if taken >= skill.max:
                    return IllegalActionError(
                        "10", f"{skill.id} can be taken {_n(skill.max, 'time', 'times')} at most"
                    )
                return IllegalActionError(
                    "10",
                    f"skills may cost at most the turns passed ({self.turns_passed()}): "
                    f"{name} has spent {self.spent[p]}, {skill.id} costs {skill.cost}",
                )
            if verb == "investigate" and inside:
                return IllegalActionError(
                    "3",
                    f"inside the dungeon you can only advance ({name} is at depth {self.depth[p]})",
                )
            if verb == "use":
                if len(args) != 1 or args[0] not in self.items[p]:
                    return IllegalActionError("11", f"{name} has no item {' '.join(args)}")
                return IllegalActionError("11", f"{args[0]} cannot be used now ({self._now()})")
            if verb in ("investigate", "advance"):
                return IllegalActionError("4", "no dungeon card is left to draw or fight")
            if verb == "pass":
                return IllegalActionError("2", f"{name} can still act: passing is not allowed")
        if phase == CHOOSE and verb in ("fight", "flee"):
            if self.top is None and not any(w in self.hand[p] for w in args):
                return IllegalActionError(
                    "4", "no card was revealed: fight or flee from a card in your hand"
                )
            for word in args:
                if word in g.items:
                    if word not in self.items[p] or g.items[word].effect != "safe_flee":
                        return IllegalActionError("6", f"{name} has no safe-flee item {word}")
                    if verb == "fight":
                        return IllegalActionError("6", f"{word} is used to flee, not to fight")
                elif word not in self.hand[p]:
                    return IllegalActionError("4", f"{name} has no {word} in hand")
                elif not g.may_use_hand and self.top is not None:
                    return IllegalActionError("4", "the revealed card must be fought")
            return IllegalActionError("4", f"cannot read the choice {' '.join(args)}")
        if verb == "return":
            if self.flag[p] >= 0:
                return IllegalActionError("7", f"{name} has already declared Return")
            return IllegalActionError(
                "7", "Return is declared right after an advance, inside the dungeon"
            )
        if phase == AFTER and verb in ("use", "reroll"):
            return IllegalActionError("11", f"{' '.join(args)} cannot be used now")
        if phase == AFTER and verb == "flee":
            return IllegalActionError("6", "you flee before rolling (option flee_timing)")
        return IllegalActionError(
            "1", f"'{g.format_action(action)}' is not possible now ({self._now()})"
        )

    def _now(self) -> str:
        g = self.g
        phase = self.phase
        who = g.names[self.cur] if self.cur >= 0 else ""
        if phase == FIRST:
            return "the first player is being decided"
        if phase == MAIN:
            where = "inside the dungeon" if self.depth[self.cur] > 0 else "outside the dungeon"
            return f"{who} is to act, {where}"
        if phase == DRAW:
            return f"{who} draws a dungeon card"
        if phase == CHOOSE:
            return f"{who} chooses to fight or flee"
        if phase == ROLL:
            return f"{who} rolls the combat dice"
        if phase == AFTER:
            return f"{who} may reroll or use items before the combat is decided"
        if phase == RETURN:
            return f"{who} may declare Return"
        if phase == PICK:
            return f"{who} chooses an item deck"
        if phase == ITEM:
            return f"{who} draws an item"
        return "the game is over"

    # --- information ----------------------------------------------------------------------------

    def player_view(self, player: int) -> SusumukaView:
        g = self.g
        infos = tuple(
            PlayerInfo(
                g.names[p],
                self.depth[p],
                self.hp[p],
                self.max_hp(p),
                self.flag[p] if self.flag[p] >= 0 else None,
                self.trophy[p] if self.trophy[p] >= 0 else None,
                self.maxd[p],
                tuple(sorted(self.items[p])),
                tuple(self.skill_ids(p)),
                self.spent[p],
                len(self.hand[p]),
                tuple(sorted(self.lost[p])),
                "owner" if self.lp_home[p] else "deck",
                self.out[p],
            )
            for p in range(self.n)
        )
        log = tuple(
            "draw ?" if seen not in (-1, player) else g.format_action(step)  # type: ignore[arg-type]
            for step, seen in zip(self._history, self._seen_by, strict=True)
        )
        return SusumukaView(
            player=g.names[player],
            round=self.round,
            phase=PHASE_NAMES[self.phase],
            to_move=tuple(g.player_name(p) for p in self.current_players()),
            players=infos,
            own_hand=tuple(sorted(self.hand[player])),
            deck_size=self.pile_n,
            discard=tuple(self.discard_list()),
            item_decks=tuple(
                (d, self.ipile_n(k), tuple(self.ibottom[k])) for k, d in enumerate(g.item_decks)
            ),
            removed=tuple(self.removed),
            top=self.top,
            combat=(
                self.c_card,
                self.c_depth,
                self.c_power,
                self.c_dice,
                self.c_bonus,
                self.c_used,
                self.c_result,
                self.c_moved,
                self.c_damage,
            ),
            log=log,
        )


_NO_STATS: Final = Stats(0, 0, 0, frozenset(), 0, 0, False, 0, (), 0, 0)

# State attributes by how clone() copies them.
_PLAIN: Final = (
    "g",
    "n",
    "init",
    "phase",
    "round",
    "first",
    "cur",
    "pile_n",
    "discard_n",
    "purpose",
    "draws_left",
    "top",
    "c_card",
    "c_player",
    "c_depth",
    "c_dice",
    "c_bonus",
    "c_power",
    "c_nullified",
    "c_used",
    "c_result",
    "c_moved",
    "c_damage",
    "e_deck",
    "e_left",
    "e_cont",
    "last_escape",
    "last_pickup",
    "winners",
)
_FLAT: Final = (
    "depth",
    "hp",
    "spent",
    "flag",
    "trophy",
    "maxd",
    "undying",
    "lp_home",
    "out",
    "escapes",
    "deaths",
    "stats",
    "pile",
    "discard",
    "removed",
)
_NESTED: Final = ("items", "skills", "hand", "lost", "ipile", "ibottom")


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"
