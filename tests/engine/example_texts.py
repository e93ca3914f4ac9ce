"""What the engine tests read of a game's worked examples: which example files there are and
which of them the rulebook prints, an example file as data, the notation texts of its steps
and the players' texts around them; and module fixtures for the game and its engine's
notation pattern (the tests check that the notation stays in the example files)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.model import Game, load_game
from rules_engine.core import Engine

from .conftest import ROOT

LANGS = ("ja", "en")


def game_folder(name: str) -> Path:
    """The folder of the game `name` (`components/<name>`)."""
    return ROOT / "components" / name


def example_paths(folder: Path) -> list[Path]:
    """Every example file of the game in `folder`, in name order."""
    return sorted((folder / "examples").glob("*.yaml"))


def printed_names(folder: Path) -> list[str]:
    """The names (file stems) of the examples the rulebook prints, in its order: its
    `book.yaml` lists them under `examples:`, each a name or a `{file: name, shows: ...}`."""
    book = yaml.safe_load((folder / "rulebook" / "book.yaml").read_text(encoding="utf-8"))
    return [entry["file"] if isinstance(entry, dict) else entry for entry in book["examples"]]


def printed_paths(folder: Path) -> list[Path]:
    """The files of the examples the rulebook prints, in its order."""
    return [folder / "examples" / f"{name}.yaml" for name in printed_names(folder)]


def load_data(path: Path) -> dict[str, Any]:
    """An example file (or any YAML file) as plain data."""
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def do_texts(do: str | list[str] | None) -> list[str]:
    """The action texts of one step's `do`: none, one, or a list of them."""
    return [] if do is None else [do] if isinstance(do, str) else do


def dos(data: dict[str, Any], *, record: bool = False) -> Iterator[str]:
    """Every action text of an example's steps (each `do`, in order), and with `record` the
    lines of its setup's `record` (KILL SHOT's recorded hunts) after them."""
    for step in data.get("steps", []):
        yield from do_texts(step.get("do"))
    if record:
        yield from data.get("setup", {}).get("record", [])


def prose(data: dict[str, Any], langs: tuple[str, ...] = LANGS) -> Iterator[tuple[str, str]]:
    """The players' texts of an example, as (where, text): its title and introduction
    (`about`, when it has one) and every step's `say`, in each of `langs` (by default
    Japanese and English)."""
    for key in ("title", "about"):
        if data.get(key) is not None:
            for lang in langs:
                yield f"{key} ({lang})", data[key][lang]
    for i, step in enumerate(data.get("steps", []), 1):
        for lang in langs:
            yield f"step {i} say ({lang})", step["say"][lang]


def game_fixture(folder: Path) -> Callable[..., Any]:
    """A module-scoped fixture loading the game in `folder`, named after the module attribute
    it is assigned to (`sz = game_fixture(FOLDER)` makes the fixture `sz`)."""

    def game() -> Game:
        return load_game(folder)

    return pytest.fixture(scope="module")(game)


def pattern_fixture(game: str, engine: Callable[[Game], Engine[Any]]) -> Callable[..., Any]:
    """A module-scoped fixture: the `notation_pattern` of the engine that `engine` builds from
    the game the fixture named `game` loads (assign it to `pattern` to name it so)."""

    def pattern(request: pytest.FixtureRequest) -> re.Pattern[str]:
        loaded: Game = request.getfixturevalue(game)
        return engine(loaded).notation_pattern()

    return pytest.fixture(scope="module")(pattern)
