"""What an engine is built from: plain, typed parameters, no files and no printer.

An engine plays a game from its rule parameters (per rule version), its players' range,
its rule options, and the printed values of the pieces it plays (a torpedo's dice, a
tile's arrows).  `printgen` reads those from the game's YAML, validates them with
file:line errors, and hands them over as a `GameData`; the engine never reads a file.
(OpenSpiel's pure-Python games are built the same way: from parameters, not files.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.core import Bilingual, RuleOption


@dataclass(frozen=True)
class Players:
    min: int
    max: int


@dataclass(frozen=True)
class Version:
    """One dated rule version (oldest first in `GameInfo.rule_versions`)."""

    id: str


@dataclass(frozen=True)
class GameInfo:
    """The game as a whole: its current rule version, its versions, players and options."""

    rule_version: str
    rule_versions: tuple[Version, ...]
    players: Players
    options: tuple[RuleOption, ...] = ()


@dataclass(frozen=True)
class Deck:
    """A group of pieces (a player's colour, an item deck) and its shared values."""

    id: str
    name: Bilingual
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Component:
    """A kind of piece: its id, name and printed values."""

    id: str
    name: Bilingual
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Piece:
    """A component in one deck (or in none), with its number of copies."""

    id: str
    kind: str
    count: int
    component: Component
    deck: Deck | None = None

    @property
    def values(self) -> dict[str, Any]:
        """The deck's values overlaid with the component's own."""
        merged = dict(self.deck.values) if self.deck else {}
        merged.update(self.component.values)
        return merged


@dataclass(frozen=True)
class GameData:
    """Everything an engine needs to know of a game, as printgen read it from the data."""

    id: str
    info: GameInfo
    decks: Mapping[str, Deck]
    pieces: tuple[Piece, ...]
    rules: Mapping[str, Mapping[str, Any]]  # rule parameters per rule version id

    def rule_params(self, version_id: str | None = None) -> dict[str, Any]:
        """The rule parameters of a version (default: the current one)."""
        wanted = version_id or self.info.rule_version
        if wanted not in self.rules:
            known = ", ".join(self.rules)
            raise ValueError(f"{self.id}: unknown rule version '{wanted}' (known: {known})")
        return dict(self.rules[wanted])
