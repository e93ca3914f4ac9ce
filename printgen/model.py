"""The typed game model: what `components/<game>/*.yaml` describes.

A game folder holds `game.yaml` (title, credits, rule versions) and any number of
component files (`cards.yaml`, `boards.yaml`, ...), each with `decks:` and
`components:` lists.  Everything is validated with pydantic; errors point back
into the YAML (see `printgen.source`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from printgen.errors import ErrorList, Location, PrintgenError
from printgen.source import Document, load_yaml, validate
from printgen.tables import Table, read_table
from printgen.units import Length

COMPONENT_KINDS = ("card", "tile", "token", "pawn", "marker", "board", "mat")
ComponentKind = Literal["card", "tile", "token", "pawn", "marker", "board", "mat"]
Source = Literal["stated", "reconstructed"]
LANGS = ("ja", "en")


def _positive(value: int) -> int:
    if value <= 0:
        raise ValueError("must be a positive integer")
    return value


def _identifier(value: str) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", value):
        raise ValueError("must be lower-case letters, digits and '-' (like 'torpedo-s')")
    return value


def _not_negative(value: int) -> int:
    if value < 0:
        raise ValueError("must be a positive integer (or 0: no copies at the current rules)")
    return value


PositiveInt = Annotated[int, Field(strict=True), AfterValidator(_positive)]
Count = Annotated[int, Field(strict=True), AfterValidator(_not_negative)]
Identifier = Annotated[str, AfterValidator(_identifier)]


class Strict(BaseModel):
    # Each field's docstring is its description in the authoring reference and the JSON
    # Schemas; printgen/reference.py reads them when it writes those (reading every model's
    # source here would slow every command's start).
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """A text in both languages."""

    ja: str
    """The Japanese text."""
    en: str
    """The English text."""

    def __getitem__(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


class Players(Strict):
    min: PositiveInt
    """The fewest players the game is for (a whole number, 1 or more)."""
    max: PositiveInt
    """The most players the game is for (at least `min`)."""
    best: PositiveInt | None = None
    """The best number of players, if the designer says so (optional)."""
    note: Text | None = None
    """A remark on the player count in both languages (optional), e.g. a variant for 5."""

    @model_validator(mode="after")
    def _ordered(self) -> Players:
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) must not be less than min ({self.min})")
        return self


class ComponentChange(Strict):
    """What a rule version states of one component: its copies (0: not in the game at that
    version) and printed values."""

    count: Count | None = None
    """Copies of the component at this version (0: not in the game then); omit to leave the count
    as it was."""
    values: dict[str, Any] = Field(default_factory=dict)
    """Printed values of the component at this version, by name (`{dice: 5}`); only those given
    change."""

    def stated(self) -> dict[str, Any]:
        """{"count": n, "values.dice": 2, ...}: each thing stated, as one key."""
        keys = {f"values.{k}": v for k, v in self.values.items()}
        return {"count": self.count, **keys} if self.count is not None else keys


class RuleVersion(Strict):
    """One dated version of the rules: `params` and `components` state what it changed
    from the version before (the first states the values later ones change)."""

    id: str
    """The version's name, as printed in the rulebook (`"1.1"`, `old-2014`); quote numbers."""
    date: str
    """When this version was published, `"YYYY-MM-DD"`."""
    changes: Text
    """What changed from the version before, in both languages (printed in the rulebook's history).
    """
    params: dict[str, Any] = Field(default_factory=dict)
    """Rule parameters (keys of `rules:`) this version sets, with their values then."""
    components: dict[str, ComponentChange] = Field(default_factory=dict)
    """Component counts and values this version sets, by component id."""
    source: Source = "stated"
    """`stated` (written in the original rules, the default) or `reconstructed` (inferred)."""
    note: Text | None = None
    """A remark on this version in both languages (optional)."""


OptionValue = str | int | bool


def _option_key(value: object) -> object:
    """A choice key as text: YAML reads `true:` or `2:` as a bool or an int."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    return value


def _same_value(a: OptionValue, b: OptionValue) -> bool:
    """Equal and of the same kind (`True == 1` in Python, but not here)."""
    return type(a) is type(b) and a == b


class OptionSpec(Strict):
    """A rule option: a reading the rules leave open, made explicit.

    The rulebook prints `explain` (and the default's `choices` text) under
    "Clarifications"; examples name the options they need.  `choices` is keyed by the
    allowed values written as text (`true`, `2`, `miss`).
    """

    name: str
    """The option's name, used by worked examples' `options:` (`five_or_more`)."""
    default: OptionValue
    """The value used when nothing says otherwise; one of `allowed`."""
    allowed: list[OptionValue]
    """The values the option may take (text, whole numbers or true/false)."""
    explain: Text
    """The question the rules leave open, in both languages (printed under Clarifications)."""
    choices: dict[str, Text] = Field(default_factory=dict)
    """What each allowed value means, in both languages, keyed by the value written as text
    (`true`, `2`, `miss`)."""

    @field_validator("choices", mode="before")
    @classmethod
    def _keys_as_text(cls, value: object) -> object:
        if isinstance(value, dict):
            return {_option_key(k): v for k, v in value.items()}
        return value

    def value_of(self, key: str) -> OptionValue:
        """The allowed value a choice key names (`'true'` is `True`, `'2'` is `2`)."""
        found = [v for v in self.allowed if key in (str(v), str(v).lower())]
        if len(found) != 1:
            allowed = ", ".join(str(v) for v in self.allowed)
            raise ValueError(
                f"option {self.name}: choice '{key}' is not one allowed value ({allowed})"
            )
        return found[0]

    @model_validator(mode="after")
    def _consistent(self) -> OptionSpec:
        if not self.allowed:
            raise ValueError(f"option {self.name}: no allowed values")
        if not any(_same_value(self.default, v) for v in self.allowed):
            allowed = ", ".join(str(v) for v in self.allowed)
            raise ValueError(
                f"option {self.name}: default {self.default!r} is not allowed ({allowed})"
            )
        for key in self.choices:
            self.value_of(key)
        return self


RULE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9().-]{0,31}")


def _rule_id(value: str) -> str:
    if not RULE_ID.fullmatch(value):
        raise ValueError(
            "must be the rulebook's numbering (2-3-1, 2-(2)-(c)) or a word (deadline): a "
            "letter or digit, then up to 31 letters, digits, '-', '.', '(' or ')', "
            f"got {value!r}"
        )
    return value


class Clause(Strict):
    """One rule clause: its id as the rulebook numbers it, what it says, and the rulebook
    section that states it.  The engine tags every transition with the ids of the clauses
    it applied; `printgen check --coverage` lists the worked examples that show each."""

    id: Annotated[
        str,
        AfterValidator(_rule_id),
        Field(json_schema_extra={"pattern": f"^{RULE_ID.pattern}$"}),
    ]
    """The clause's stable id, the rulebook's own numbering (`2-3-1`, `2-(2)-(c)`, `deadline`)."""
    title: Text
    """What the clause says, in a few words and both languages (the event log's line: `rule
    2-3: a triple sinks its column or a neighbour`)."""
    section: Identifier
    """The rulebook section that states it (a file id under rulebook/, `torpedoes`)."""


MAX_CLAIM_GAMES = 100_000


def _bound(value: object) -> float | None:
    """A claim's bound: a number, an exact fraction written as text (`"13/18"`) or null."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError('a bound is a number, a fraction such as "1/2", or null for none')
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError("a bound must be a finite number (null for no bound)")
        return float(value)
    if isinstance(value, str):
        try:
            return float(Fraction(value.replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            pass
    raise ValueError(
        f'{value!r} is not a bound: give a number, a fraction such as "1/2", or null for none'
    )


Bound = Annotated[
    float | None,
    BeforeValidator(_bound),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number"},
                {"type": "string", "pattern": r"^\s*\d+\s*/\s*\d+\s*$"},
                {"type": "null"},
            ]
        }
    ),
]


def _bounds(value: tuple[float | None, float | None]) -> tuple[float | None, float | None]:
    low, high = value
    if low is None and high is None:
        raise ValueError("give at least one bound: [low, high], null for none")
    if low is not None and high is not None and low > high:
        raise ValueError(f"the low bound {low:g} is above the high one {high:g}")
    return value


Bounds = Annotated[tuple[Bound, Bound], AfterValidator(_bounds)]


class ClaimRun(Strict):
    """The setting a claim compares with (`baseline:`): a rule version, options, players."""

    version: str | None = None
    """The rule version (default: the claim's own)."""
    options: dict[str, OptionValue] = Field(default_factory=dict)
    """Rule options by name (default: the claim's own)."""
    players: Annotated[int, Field(ge=1, le=100)] | None = None
    """The number of players (default: the claim's own)."""


class Claim(Strict):
    """Something the designer says about the game, as a check: `printgen check` plays the
    games (or counts the odds) and fails when a figure falls outside its bounds."""

    id: Identifier
    """The claim's id (`torpedo-c-weak`)."""
    says: Text
    """The claim in the designer's words, in both languages."""
    source: Text | None = None
    """Where the designer says it (a section of the rules, the tips), in both languages."""
    version: str | None = None
    """The rule version to play (default: the current one)."""
    options: dict[str, OptionValue] = Field(default_factory=dict)
    """Rule options by name (`{five_or_more: miss}`)."""
    players: Annotated[int, Field(ge=1, le=100)] | None = None
    """The number of players (default: the game's default)."""
    bots: list[str] = Field(default_factory=lambda: ["heuristic"], min_length=1, max_length=16)
    """The players: one for every seat or one per seat (`random`, `heuristic`, `mcts`,
    `mcts:N`); seats rotate from game to game when they differ."""
    games: Annotated[int, Field(ge=1, le=MAX_CLAIM_GAMES)] = 1000
    """How many games to play (at most 100,000)."""
    seed: int = 1
    """The games' seed: the same seed plays the same games."""
    baseline: ClaimRun | None = None
    """Another setting to compare with: a figure named `<query>.change` is this setting's
    value minus the baseline's."""
    exact: bool = False
    """An exact claim: instead of playing games, count every outcome of the next chance step
    after `setup` and `steps` by its odds; each `expect` key is a true/false query of the
    engine, its value the probability that it holds."""
    setup: dict[str, Any] | None = None
    """An exact claim's position, as a worked example's `setup:` (default: the start)."""
    steps: list[str] = Field(default_factory=list, max_length=1000)
    """An exact claim's actions in the game's notation, played before the chance step."""
    refuted: Text | None = None
    """What the simulation found instead, when it refutes the claim: the claim is then kept
    as a finding (reported, not failed) until it holds again, which `printgen check` says."""
    expect: dict[str, Bounds] = Field(min_length=1)
    """Each figure and its bounds, `[low, high]` (null: no bound): `first_player_win: [0.45,
    0.55]`, `rounds.change: [null, 0]`, for an exact claim `sinks_any: ["1/3", 1]`."""

    @model_validator(mode="after")
    def _consistent(self) -> Claim:
        if self.exact:
            played = {"bots", "games", "seed", "baseline", "players"} & self.model_fields_set
            if played:
                raise ValueError(
                    f"an exact claim counts odds and plays no games: remove "
                    f"{', '.join(sorted(played))}"
                )
            changes = [n for n in self.expect if n.endswith(".change")]
            if changes:
                raise ValueError(f"{changes[0]}: an exact claim has no baseline to compare with")
        else:
            given = {"setup", "steps"} & self.model_fields_set
            if given:
                raise ValueError(
                    f"{', '.join(sorted(given))} belong to an exact claim (exact: true); a "
                    "simulated claim plays whole games"
                )
            if self.baseline is None:
                changes = [n for n in self.expect if n.endswith(".change")]
                if changes:
                    raise ValueError(f"{changes[0]}: compare with what? give a baseline:")
        return self


class Narration(Strict):
    """Phrase templates the engine's event log is told with (`printgen examples suggest`
    writes a draft example's `say:` from them)."""

    names: dict[str, Text] = Field(default_factory=dict)
    """Names in both languages of the words events carry: players as the notation calls them
    (`red: {ja: 赤, en: Red}`), abilities, colours... `name(x)` looks here first, then at the
    decks, the components and the `{ja, en}` values of the game's rules and components
    (`rules.colours.red`, a skill of the skill sheet)."""
    events: dict[str, Text] = Field(default_factory=dict)
    """A sentence per kind of event (`roll`, `sink`), in both languages: a template over the
    event's facts (`{{ name(player) }} rolls {{ join_and(faces) }}.`). Functions: `name` (a
    player, a component id or a list of them, in the language), `join_and` (a list as `3, 3
    and 5` / `3、3、5`), `rule` (the clause id of the event)."""


class Deck(Strict):
    """A group of components sharing a back (a player's set, an item deck...)."""

    id: Identifier
    """The deck's id: lower-case letters, digits and '-' (`red`, `dungeon`); components name it in
    `deck:`/`decks:`."""
    name: Text
    """The deck's name in both languages."""
    back: str | None = None
    """The layout of the back every card of the deck shares (`kill-shot/tactics-back`); none:
    single-sided."""
    colour: str = "#333333"
    """The deck's colour (`#rrggbb` or a CSS name), default `#333333`; layouts read it as
    `deck.colour`."""
    values: dict[str, Any] = Field(default_factory=dict)
    """Values shared by every component of the deck (`{player: red}`); a component's own values
    win. Layouts read them as `values.*` or `deck_values.*`."""


class Component(Strict):
    """One kind of physical piece; `count` copies of it are printed (per deck)."""

    id: Identifier
    """The component's id: lower-case letters, digits and '-' (`torpedo-a`); unique in the game."""
    kind: ComponentKind
    """What it is: card, tile, token, pawn, marker, board or mat."""
    name: Text
    """The component's name in both languages (templates: `name`)."""
    count: Count = 1  # 0: not in the rules now (a rule version may give it copies)
    """Copies printed (per deck with `decks:`), default 1; 0: not in the rules now (a rule version
    may give it copies)."""
    layout: str
    """The layout of its face: a path under layouts/ without .yaml (`submarine-attack/torpedo`)."""
    back: str | None = None
    """The layout of its back; default: its deck's back; `none`: single-sided even in a deck with a
    back."""
    size: str | tuple[Length, Length] | None = None
    """Its trim size: a preset from presets.yaml (`poker`, `mini`) or `[width, height]` (`[63mm,
    88mm]`; a bare number is mm). Default: the layout's size."""
    deck: str | None = None
    """The deck it belongs to (one deck id)."""
    decks: list[str] | None = None
    """One copy set per deck (a player's colour each): the piece id becomes `<id>-<deck>`. Give
    `deck` or `decks`, not both."""
    values: dict[str, Any] = Field(default_factory=dict)
    """Printed values by name (`{dice: 5, grade: A}`); layouts read them as `values.dice`."""
    text: Text | None = None
    """The card's rules text in both languages (may use templates: `{{ values.dice }}`); layouts
    read it as `text`."""
    cut: Literal["rect", "circle"] = "rect"
    """The cut outline: `rect` (default) or `circle` (round tokens)."""
    source: Source = "stated"
    """`stated` (as in the original, the default) or `reconstructed` (values inferred, not stated).
    """
    note: Text | None = None
    """A remark in both languages (optional), e.g. where a reconstructed value comes from."""

    @model_validator(mode="after")
    def _one_deck_form(self) -> Component:
        if self.deck is not None and self.decks is not None:
            raise ValueError("give either 'deck' or 'decks', not both")
        return self


class ComponentFile(Strict):
    decks: list[Deck] = Field(default_factory=list)
    """The decks this file defines (each a group of components sharing a back)."""
    components: list[Component] = Field(default_factory=list)
    """The components this file defines."""
    tables: list[Table] = Field(default_factory=list)
    """Card lists in CSV or XLSX files: each data row becomes a component (`file`, `columns`:
    header -> key, and what every row shares: `kind`, `layout`, `deck`...)."""


HARD_LIMIT = 100_000


def _below_hard_limit(value: int) -> int:
    if value > HARD_LIMIT:
        raise ValueError(f"must be at most {HARD_LIMIT:,}")
    return value


Limit = Annotated[PositiveInt, AfterValidator(_below_hard_limit)]


class Limits(Strict):
    """How much a game may ask printgen to make: a mistyped count must not fill the disk.
    A real large game raises these in game.yaml (`limits: {copies: 2000}`)."""

    copies: Limit = 1_000  # copies of one component (per deck)
    """Most copies one component may have (per deck), default 1000."""
    pieces: Limit = 5_000  # printed pieces of the whole game
    """Most printed pieces of the whole game, default 5000."""
    repeat: Limit = 1_000  # instances one layout element draws on a face (repeat, each)
    """Most instances one layout element may draw on a face (`repeat`, `each`), default 1000."""


class GameInfo(Strict):
    id: Identifier
    """The game's id: its folder name under components/ (lower-case letters, digits, '-')."""
    title: Text
    """The game's title in both languages."""
    subtitle: Text | None = None
    """A subtitle in both languages (optional)."""
    designer: Text
    """The designer's name in both languages."""
    credits: list[Text] = Field(default_factory=list)
    """Further credits (art, translation, ...), each in both languages."""
    players: Players
    """The player count: `{min: 2, max: 4}` (also `best`, `note`)."""
    play_time_min: PositiveInt
    """Playing time in minutes (a whole number)."""
    age: str | None = None
    """The recommended age, as printed (`"10+"`)."""
    rule_version: str
    """The rules version this data describes: the newest id of `rule_versions`."""
    rule_versions: list[RuleVersion] = Field(default_factory=list)
    """The dated versions of the rules, oldest first; each states what it changed."""
    rules: dict[str, Any] = Field(default_factory=dict)
    """Rule parameters by name (`{target_points: 10}`): what rulebook texts and templates quote as
    `rules.target_points`."""
    source_note: Text | None = None
    """Where the rules come from, in both languages (optional)."""
    options: list[OptionSpec] = Field(default_factory=list)
    """Rule options: readings the rules leave open, made explicit (printed under Clarifications)."""
    limits: Limits = Limits()
    """Safety limits on counts: `{copies, pieces, repeat}`; raise them for a large game."""
    clauses: list[Clause] = Field(default_factory=list)
    """The rules' clauses, each with its id, what it says and the rulebook section stating it;
    the rules engine names these ids in its event log and its refusals."""
    narration: Narration = Narration()
    """How the engine's events are told in words (players' names and a phrase per event)."""
    claims: list[Claim] = Field(default_factory=list, max_length=200)
    """What the designer says about the game (fairness, length, a weak card), each with the
    bounds a simulation or an exact count must meet; `printgen check` checks them and
    `printgen balance` reports them."""

    @model_validator(mode="after")
    def _version_known(self) -> GameInfo:
        ids = [v.id for v in self.rule_versions]
        if self.rule_versions and self.rule_version not in ids:
            raise ValueError(
                f"rule_version '{self.rule_version}' is not among rule_versions ({', '.join(ids)})"
            )
        if self.rule_versions and self.rule_version != ids[-1]:
            raise ValueError(
                f"rule_version '{self.rule_version}' is not the newest of rule_versions "
                f"({ids[-1]}): rules: holds the rules as they are now, so rule_version names the "
                f"newest version; to build an older one, use printgen build --version "
                f"{self.rule_version}"
            )
        twice_ids = sorted({i for i in ids if ids.count(i) > 1})
        if twice_ids:
            raise ValueError(f"rule version '{twice_ids[0]}' is listed more than once")
        stated: set[str] = set()
        for n, version in enumerate(self.rule_versions):
            keys = [("params", key, key) for key in version.params] + [
                ("components", f"{cid}.{key}", _component_key_yaml(cid, key))
                for cid, change in version.components.items()
                for key in change.stated()
            ]
            for where, key, shown in keys:
                if n and key not in stated:
                    raise ValueError(
                        f"rule version {version.id} changes {key}, but no earlier version "
                        f"states its value before: add {shown} (as it was) to the {where} of "
                        f"version {ids[0]}, so that building an older version knows it"
                    )
                stated.add(key)
        names = [o.name for o in self.options]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"option '{twice[0]}' is given more than once")
        return self


@dataclass(frozen=True)
class Piece:
    """A component after deck expansion: what the printer lays out."""

    id: str
    component: Component
    deck: Deck | None
    where: Location
    # the places of the component's own keys (`values`, `text`, ...) and of its deck's values
    places: dict[str, Location] = field(default_factory=dict, compare=False, repr=False)
    deck_where: Location | None = field(default=None, compare=False, repr=False)

    def place(self, key: str) -> Location:
        """Where one of the component's keys is written, `values.dice` for one value (else
        the nearest enclosing key, else the component itself)."""
        while key not in self.places and "." in key:
            key = key.rsplit(".", 1)[0]
        return self.places.get(key, self.where)

    @property
    def kind(self) -> str:
        return self.component.kind

    @property
    def count(self) -> int:
        return self.component.count

    @property
    def values(self) -> dict[str, Any]:
        """The deck's values overlaid with the component's own (one place to read both)."""
        merged = dict(self.deck.values) if self.deck else {}
        merged.update(self.component.values)
        return merged

    @property
    def back_layout(self) -> str | None:
        """The other side's layout: the component's own, else its deck's; `back: none`
        makes a single-sided piece even in a deck with a back."""
        if self.component.back == "none":
            return None
        if self.component.back:
            return self.component.back
        return self.deck.back if self.deck else None


@dataclass(frozen=True)
class Game:
    """A whole game folder, validated. `pieces` are those printed at this rule version;
    `defined` adds those with no copies now (a component an older version had)."""

    folder: Path
    info: GameInfo
    decks: dict[str, Deck]
    pieces: list[Piece]
    doc: Document | None = field(default=None, compare=False, repr=False)  # game.yaml
    defined: list[Piece] = field(default_factory=list, compare=False, repr=False)
    current: Game | None = field(default=None, compare=False, repr=False)  # when older

    def where(self, *key: str | int) -> Location:
        """Where a value of game.yaml is written (or its nearest enclosing value)."""
        return self.doc.where(key) if self.doc else Location(self.folder / "game.yaml")

    @property
    def id(self) -> str:
        return self.info.id

    def piece(self, piece_id: str) -> Piece:
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        raise KeyError(piece_id)

    def version(self, version_id: str | None = None) -> RuleVersion | None:
        wanted = version_id or self.info.rule_version
        return next((v for v in self.info.rule_versions if v.id == wanted), None)

    @property
    def newest(self) -> bool:
        """Built at its newest rule version (not `--version` of an older one)."""
        ids = [v.id for v in self.info.rule_versions]
        return not ids or self.info.rule_version == ids[-1]

    def history(self) -> list[RuleVersion]:
        """The dated versions up to the one this game is built at (oldest first)."""
        ids = [v.id for v in self.info.rule_versions]
        if self.info.rule_version not in ids:
            return list(self.info.rule_versions)
        return list(self.info.rule_versions[: ids.index(self.info.rule_version) + 1])

    def rule_params(self, version_id: str | None = None) -> dict[str, Any]:
        """The rule parameters of a version. The current version's are `rules:` exactly, as
        they are now (with any change not yet dated); an older version's are `rules:` with
        the values each version states, from the first up to that one (versions are listed
        oldest first, and each states what it changed)."""
        wanted = version_id or self.info.rule_version
        ids = [v.id for v in self.info.rule_versions]
        if self.info.rule_versions and wanted not in ids:
            raise PrintgenError(
                f"{self.id}: unknown rule version '{wanted}' (known: {', '.join(ids)})"
            )
        params = dict(self.info.rules)
        if wanted == self.info.rule_version:
            return params
        for version in self.info.rule_versions:
            params.update(version.params)
            if version.id == wanted:
                break
        return params

    def _stated(self, versions: list[RuleVersion]) -> dict[str, tuple[Any, RuleVersion, int]]:
        """What `versions` state, each key with its last value, the version that stated
        it and that version's index: `target_points`, `components.torpedo-c.count`..."""
        index = {v.id: i for i, v in enumerate(self.info.rule_versions)}
        stated: dict[str, tuple[Any, RuleVersion, int]] = {}
        for version in versions:
            for key, value in version.params.items():
                stated[key] = (value, version, index[version.id])
            for cid, change in version.components.items():
                for key, value in change.stated().items():
                    stated[f"components.{cid}.{key}"] = (value, version, index[version.id])
        return stated

    def undated_changes(self) -> list[UndatedChange]:
        """What differs from what the newest version states: changes made since, not yet
        recorded as a dated version; in `rules:` (a parameter missing there reads as null,
        so a version may abolish one with `name: null`) and in the components' counts and
        values that versions state."""
        components = {p.component.id: p for p in self.defined or self.pieces}
        changes = []
        for key, (value, version, i) in self._stated(self.history()).items():
            if not key.startswith("components."):
                now = self.info.rules.get(key)
                now_at = self.where("rules", key) if key in self.info.rules else self.where("rules")
                labels = {lang: key.replace("_", " ") for lang in LANGS}
                shown = f"rules.{key}"
                stated_at = self.where("rule_versions", i, "params", key)
            else:
                cid, field_ = key.removeprefix("components.").split(".", 1)
                piece = components.get(cid)
                if piece is None:
                    continue
                sub = field_.split(".")
                if field_ == "count":
                    now, now_at = piece.count, piece.place("count")
                    labels = {
                        "ja": f"{piece.component.name.ja}の枚数",
                        "en": f"{piece.component.name.en}: copies",
                    }
                else:
                    now, now_at = piece.component.values.get(sub[1]), piece.place("values")
                    word = sub[1].replace("_", " ")
                    labels = {
                        "ja": f"{piece.component.name.ja}の{word}",
                        "en": f"{piece.component.name.en}: {word}",
                    }
                shown = f"{cid} {field_}"
                stated_at = self.where("rule_versions", i, "components", cid, *sub)
            if not _same_param(now, value):
                changes.append(
                    UndatedChange(key, value, now, version, labels, shown, now_at, stated_at)
                )
        return changes

    def undated_warning(self) -> str | None:
        """One warning naming every undated change, both places of each, and how to date it."""
        changes = self.undated_changes()
        if not changes:
            return None
        parts = [
            f"{c.shown} is {_yaml_value(c.now)} ({c.now_at}) but version {c.version.id} "
            f"states {_yaml_value(c.stated)} ({c.stated_at})"
            for c in changes
        ]
        params = [f"{c.key}: {_yaml_value(c.now)}" for c in changes if "." not in c.key]
        components: dict[str, list[str]] = {}
        for c in changes:
            if c.key.startswith("components."):
                cid, field_ = c.key.removeprefix("components.").split(".", 1)
                bit = (
                    f"count: {_yaml_value(c.now)}"
                    if field_ == "count"
                    else f"values: {{{field_.split('.', 1)[1]}: {_yaml_value(c.now)}}}"
                )
                components.setdefault(cid, []).append(bit)
        stated = []
        if params:
            stated.append(f"params: {{{', '.join(params)}}}")
        if components:
            comps = ", ".join(f"{cid}: {{{', '.join(b)}}}" for cid, b in components.items())
            stated.append(f"components: {{{comps}}}")
        nxt = _next_version_id(self.info.rule_version)
        return (
            f"{'; '.join(parts)}: the build uses the values as they are now, and the rulebook's "
            "history lists the difference as a change not yet dated. To date it, add at the end "
            f'of rule_versions: - {{id: "{nxt}", date: "YYYY-MM-DD", changes: {{ja: ..., '
            f'en: ...}}, {", ".join(stated)}}} and set rule_version: "{nxt}"'
        )

    def component_changes(self, version_id: str) -> dict[str, ComponentChange]:
        """The components' counts and values as the versions state them, from the first up
        to `version_id`."""
        merged: dict[str, ComponentChange] = {}
        for version in self.info.rule_versions:
            for cid, change in version.components.items():
                was = merged.get(cid, ComponentChange())
                merged[cid] = ComponentChange(
                    count=change.count if change.count is not None else was.count,
                    values={**was.values, **change.values},
                )
            if version.id == version_id:
                break
        return merged

    def at_version(self, version_id: str) -> Game:
        """This game as it was at an older rule version: its parameters, its components'
        counts and values, its history up to then, and that version as the current one
        (`printgen build --version`)."""
        now = self.current or self
        known = [v.id for v in now.info.rule_versions] or [now.info.rule_version]
        if version_id not in known:
            raise PrintgenError(
                f"{self.id} has no rule version '{version_id}' (versions: {', '.join(known)})",
                now.where("rule_versions") if now.info.rule_versions else now.where(),
            )
        if version_id == now.info.rule_version:
            return now
        params = now.rule_params(version_id)
        info = now.info.model_copy(update={"rules": params, "rule_version": version_id})
        changes = now.component_changes(version_id)
        defined = []
        for piece in now.defined or now.pieces:
            change = changes.get(piece.component.id)
            if change is not None:
                count = piece.count if change.count is None else change.count
                values = {**piece.component.values, **change.values}
                component = piece.component.model_copy(update={"count": count, "values": values})
                piece = dataclasses.replace(piece, component=component)
            defined.append(piece)
        pieces = [p for p in defined if p.count > 0]
        return dataclasses.replace(now, info=info, pieces=pieces, defined=defined, current=now)


@dataclass(frozen=True)
class UndatedChange:
    """A rule parameter, or a component's count or value, changed since the newest dated
    version stated it."""

    key: str  # target_points, components.torpedo-c.count
    stated: Any
    now: Any
    version: RuleVersion
    labels: dict[str, str]  # in each language, for the rulebook's history
    shown: str  # rules.target_points, torpedo-c count
    now_at: Location
    stated_at: Location


def _same_param(a: Any, b: Any) -> bool:
    """Equal as YAML values (1 and 1.0 are; True and 1 are not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_param(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_param(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _component_key_yaml(cid: str, key: str) -> str:
    """`torpedo-c: {values: {dice: ...}}` for the key `values.dice` of torpedo-c."""
    parts = [cid, *key.split(".")]
    return ": {".join(parts) + ": ..." + "}" * (len(parts) - 1)


def _next_version_id(current: str) -> str:
    """The id after `current` ("1.1" -> "1.2", "2" -> "3"; else current + "-next")."""
    match = re.fullmatch(r"(.*?)(\d+)", current)
    return f"{match[1]}{int(match[2]) + 1}" if match else f"{current}-next"


def _yaml_value(value: Any) -> str:
    """A parameter's value as one would type it in YAML."""
    import json

    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)


def component_files(folder: Path) -> Iterator[Path]:
    """Component files of a game folder: every top-level *.yaml except game.yaml."""
    for path in sorted(folder.glob("*.yaml")):
        if path.name != "game.yaml":
            yield path


def _narration_errors(info: GameInfo, doc: Document) -> list[PrintgenError]:
    """A rule id listed twice, and a phrase template (or a clause title) that is not valid
    Jinja: reported when the game loads, not when a draft is first told."""
    found = []
    seen: set[str] = set()
    for k, clause in enumerate(info.clauses):
        if clause.id in seen:
            found.append(
                PrintgenError(
                    f"rule {clause.id} is listed twice under clauses: give each rule one id",
                    doc.where(("clauses", k, "id")),
                )
            )
        seen.add(clause.id)
    places = [
        (("narration", "events", what, lang), getattr(text, lang))
        for what, text in info.narration.events.items()
        for lang in ("ja", "en")
    ] + [
        (("clauses", k, "title", lang), getattr(c.title, lang))
        for k, c in enumerate(info.clauses)
        for lang in ("ja", "en")
    ]
    # plain text: Jinja reads it as it stands (most titles), no need to compile (nor to load
    # Jinja for a game without templated phrases)
    templated = [(key, source) for key, source in places if "{" in source]
    if not templated:
        return found
    import jinja2

    from printgen.sandbox import compile_template

    for key, source in templated:
        try:
            compile_template(source)
        except jinja2.TemplateSyntaxError as exc:
            found.append(PrintgenError(f"template syntax error: {exc.message}", doc.where(key)))
    return found


def load_game(folder: Path) -> Game:
    """Load and validate one game folder; all problems are reported together."""
    errors: list[PrintgenError] = []
    game_doc = load_yaml(folder / "game.yaml", [folder])
    info = validate(GameInfo, game_doc)
    if info.id != folder.name:
        errors.append(
            PrintgenError(
                f"id '{info.id}' must match the folder name '{folder.name}'",
                game_doc.where(("id",)),
            )
        )
    errors.extend(_narration_errors(info, game_doc))
    decks: dict[str, Deck] = {}
    deck_places: dict[str, Location] = {}
    entries: list[tuple[Component, Document, int]] = []
    for path in component_files(folder):
        doc = load_yaml(path, [folder])
        if doc.data is None:
            continue
        try:
            parsed = validate(ComponentFile, doc)
        except ErrorList as exc:
            errors.extend(exc.errors)
            continue
        for i, deck in enumerate(parsed.decks):
            if deck.id in decks:
                errors.append(
                    PrintgenError(
                        f"deck '{deck.id}' is defined twice", doc.where(("decks", i, "id"))
                    )
                )
            decks[deck.id] = deck
            deck_places[deck.id] = doc.where(("decks", i, "values"))
        entries.extend((c, doc, i) for i, c in enumerate(parsed.components))
        for t, table in enumerate(parsed.tables):  # rows become components placed at cells
            try:
                rows = read_table(table, folder, doc, ("tables", t))
                entries.extend(
                    (c, rows, i) for i, c in enumerate(validate(ComponentFile, rows).components)
                )
            except ErrorList as exc:
                errors.extend(exc.errors)
            except PrintgenError as exc:
                errors.append(exc)
    pieces: list[Piece] = []
    seen: set[str] = set()
    limits = info.limits
    for component, doc, i in entries:
        where = doc.where(("components", i))
        if component.count > limits.copies:
            errors.append(
                PrintgenError(
                    f"count {component.count:,} of component '{component.id}' is more than the "
                    f"{limits.copies:,} copies a component may have: lower it, or raise "
                    "limits: {copies: N} in game.yaml for a large game",
                    doc.where(("components", i, "count")),
                )
            )
            continue
        deck_ids = component.decks if component.decks is not None else [component.deck]
        for j, deck_id in enumerate(deck_ids):
            if deck_id is not None and deck_id not in decks:
                key = (
                    ("components", i, "decks", j) if component.decks else ("components", i, "deck")
                )
                known = ", ".join(sorted(decks)) or "none defined"
                errors.append(
                    PrintgenError(f"unknown deck '{deck_id}' (decks: {known})", doc.where(key))
                )
                continue
            piece_id = component.id if component.decks is None else f"{component.id}-{deck_id}"
            if piece_id in seen:
                errors.append(PrintgenError(f"component id '{piece_id}' is used twice", where))
            seen.add(piece_id)
            places = {key: doc.where(("components", i, key)) for key in component.model_fields_set}
            places.update(
                (f"values.{key}", doc.where(("components", i, "values", key)))
                for key in component.values
            )
            pieces.append(
                Piece(
                    piece_id,
                    component,
                    decks.get(deck_id) if deck_id else None,
                    where,
                    places,
                    deck_places.get(deck_id) if deck_id else None,
                )
            )
    total = sum(p.count for p in pieces)
    if not errors and total > limits.pieces:
        largest = max(pieces, key=lambda p: p.count)
        errors.append(
            PrintgenError(
                f"the game has {total:,} printed pieces, more than the {limits.pieces:,} "
                f"allowed (the most copies: {largest.id}, {largest.count:,}): lower the counts, "
                "or raise limits: {pieces: N} in game.yaml for a large game",
                game_doc.where(("limits", "pieces"))
                if "limits" in info.model_fields_set
                else largest.place("count"),
            )
        )
    defined = {p.component.id for p in pieces}
    for i, version in enumerate(info.rule_versions):
        for cid, change in version.components.items():
            at = game_doc.where(("rule_versions", i, "components", cid))
            if cid not in defined and not errors:
                errors.append(
                    PrintgenError(
                        f"rule version {version.id} states component '{cid}', which no "
                        f"component file defines (components: {', '.join(sorted(defined))})",
                        at,
                    )
                )
            if change.count is not None and change.count > limits.copies:
                errors.append(
                    PrintgenError(
                        f"count {change.count:,} of component '{cid}' is more than the "
                        f"{limits.copies:,} copies a component may have",
                        game_doc.where(("rule_versions", i, "components", cid, "count")),
                    )
                )
    if errors:
        raise ErrorList(errors)
    # A player's set stays together on the sheets: deck by deck, in the order decks are listed.
    order = {deck_id: i for i, deck_id in enumerate(decks)}
    pieces.sort(key=lambda p: order[p.deck.id] if p.deck else -1)
    printed = [p for p in pieces if p.count > 0]
    return Game(folder, info, decks, printed, game_doc, defined=pieces)


def find_games(root: Path) -> list[Path]:
    """Game folders under `root` (each holds a game.yaml), in name order."""
    return sorted(p.parent for p in root.glob("*/game.yaml"))
