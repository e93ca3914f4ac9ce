"""Which engine plays which game: `engine_for("submarine-attack").load(game, "1.1", {...})`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules_engine import kill_shot, squares2, submarine_attack, subzero, susumuka_modoruka
from rules_engine.core import Engine, RuleOption, played_options
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
        return played_options(game, self.option_names)

    def option(self, game: GameData, name: str) -> RuleOption:
        for option in self.options_for(game):
            if option.name == name:
                return option
        raise KeyError(name)


ENGINES: dict[str, EngineEntry] = {
    kill_shot.GAME_ID: EngineEntry(kill_shot.GAME_ID, kill_shot.OPTION_NAMES, kill_shot.KillShot),
    squares2.GAME_ID: EngineEntry(squares2.GAME_ID, squares2.OPTION_NAMES, squares2.Squares2),
    submarine_attack.GAME_ID: EngineEntry(
        submarine_attack.GAME_ID, submarine_attack.OPTION_NAMES, submarine_attack.SubmarineAttack
    ),
    subzero.GAME_ID: EngineEntry(subzero.GAME_ID, subzero.OPTION_NAMES, subzero.Subzero),
    susumuka_modoruka.GAME_ID: EngineEntry(
        susumuka_modoruka.GAME_ID,
        susumuka_modoruka.OPTION_NAMES,
        susumuka_modoruka.SusumukaModoruka,
    ),
}


def engine_for(game_id: str) -> EngineEntry | None:
    """The engine of a game, or None when no engine plays it yet."""
    return ENGINES.get(game_id)


def game_ids() -> tuple[str, ...]:
    """Games that have an engine."""
    return tuple(sorted(ENGINES))
