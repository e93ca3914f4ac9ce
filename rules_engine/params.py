"""What an engine is built from: plain, typed parameters, no files and no printer.

An engine plays a game from its rule parameters (per rule version), its players' range,
its rule options, and the printed values of the pieces it plays (a torpedo's dice, a
tile's arrows).  `printgen` reads those from the game's YAML, validates them with
file:line errors, and hands them over as a `GameData`; the engine never reads a file.
(OpenSpiel's pure-Python games are built the same way: from parameters, not files.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.core import Bilingual, RuleOption


class DataError(ValueError):
    """A printed value the engine cannot play (a torpedo's dice of "five", or -5): names the
    component and the value's key, so that the error points at the data, not at whoever
    loaded the engine."""

    def __init__(self, message: str, component: str, key: str) -> None:
        super().__init__(message)
        self.component = component
        self.key = key


def whole_number(
    component: Component, key: str, minimum: int | None = 0, default: int | None = None
) -> int:
    """A component's value `key` as a whole number of at least `minimum` (None: any), or
    `default` when it has none; a DataError naming the component and key otherwise."""
    if key not in component.values:
        if default is not None:
            return default
        raise DataError(
            f"{component.id}: no value '{key}' (the engine needs it)", component.id, key
        )
    value = component.values[key]
    if minimum is None:
        wanted = "a whole number"
    elif minimum == 1:
        wanted = "a positive whole number"
    else:
        wanted = f"a whole number of at least {minimum}"
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (minimum is not None and value < minimum)
    ):
        raise DataError(f"{component.id}: {key} must be {wanted}, got {value!r}", component.id, key)
    return value


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
    # The pieces of the versions whose components differ from the current ones (a version
    # may state other counts or values: the first rules' ten transports, torpedo D).
    version_pieces: Mapping[str, tuple[Piece, ...]] = field(default_factory=dict)

    def at(self, version_id: str | None) -> GameData:
        """The game with the pieces of a rule version (itself when they are the same)."""
        pieces = self.version_pieces.get(version_id or self.info.rule_version)
        if pieces is None or pieces == self.pieces:
            return self
        return dataclasses.replace(self, pieces=pieces)

    def rule_params(self, version_id: str | None = None) -> dict[str, Any]:
        """The rule parameters of a version (default: the current one)."""
        wanted = version_id or self.info.rule_version
        if wanted not in self.rules:
            known = ", ".join(self.rules)
            raise ValueError(f"{self.id}: unknown rule version '{wanted}' (known: {known})")
        return dict(self.rules[wanted])
