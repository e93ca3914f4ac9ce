"""Which engine plays which game: `engine_for("submarine-attack").load(game, "1.1", {...})`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a build asks the registry of every game; the engines' code loads later
    from rules_engine.core import Engine, RuleOption
    from rules_engine.params import GameData


@dataclass(frozen=True)
class EngineEntry:
    """A game's engine: the rule options it plays and how to build it for a version and
    options.  The options themselves are the game's data (`options:` in its game.yaml)."""

    game_id: str
    option_names: tuple[str, ...]
    factory: Callable[[GameData, str | None, Mapping[str, object] | None], Engine[Any]]

    def load(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
    ) -> Engine[Any]:
        """The engine for `game` under rule `version` (default: the current one) and options
        (unknown or disallowed options raise `rules_engine.core.OptionError`)."""
        return self.factory(game, version, options)

    def options_for(self, game: GameData) -> tuple[RuleOption, ...]:
        """The game's rule options, as its data states them; a ValueError when they are not
        exactly the ones the engine plays."""
        from rules_engine.core import played_options

        return played_options(game, self.option_names)

    def option(self, game: GameData, name: str) -> RuleOption:
        for option in self.options_for(game):
            if option.name == name:
                return option
        raise KeyError(name)


ENGINES: dict[str, tuple[str, str]] = {
    "kill-shot": ("rules_engine.kill_shot", "KillShot"),
    "squares2": ("rules_engine.squares2", "Squares2"),
    "submarine-attack": ("rules_engine.submarine_attack", "SubmarineAttack"),
    "subzero": ("rules_engine.subzero", "Subzero"),
    "susumuka-modoruka": ("rules_engine.susumuka_modoruka", "SusumukaModoruka"),
}
"""Each game's engine package, imported when the game is first asked for: a build of a game
no engine plays (or of one game) does not load the five engines.  The package names its
game (`GAME_ID`) and its options (`OPTION_NAMES`) and holds the engine class named here."""

_entries: dict[str, EngineEntry] = {}


def engine_for(game_id: str) -> EngineEntry | None:
    """The engine of a game, or None when no engine plays it yet."""
    entry = _entries.get(game_id)
    if entry is None and game_id in ENGINES:
        module, engine = ENGINES[game_id]
        package = importlib.import_module(module)
        if game_id != package.GAME_ID:
            raise RuntimeError(f"{module} plays {package.GAME_ID}, not {game_id}")
        entry = EngineEntry(game_id, package.OPTION_NAMES, getattr(package, engine))
        _entries[game_id] = entry
    return entry


def game_ids() -> tuple[str, ...]:
    """Games that have an engine."""
    return tuple(sorted(ENGINES))
