"""Submarine Attack's notation stays in the example files: `notation_pattern` finds every
action the notation writes, and none of the players' prose (the examples' titles, intros and
narratives, the rulebook's sections)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.examples import build_engine, example_files, load_example
from printgen.model import Game
from rules_engine.submarine_attack import Place, Roll, Start, SubmarineAttack, Target

from . import example_texts as ex
from .conftest import GAME_FOLDER

EXAMPLES = ex.example_paths(GAME_FOLDER)
SECTIONS = sorted((GAME_FOLDER / "rulebook").glob("*.yaml"))
# A section's template expressions become numbers and names when the rulebook is made.
TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


def _texts(node: Any) -> list[str]:
    """Every text of a rulebook file in both languages: `{ja: ..., en: ...}` mappings and
    sections' `{ja: {text: ...}, en: {text: ...}}`, wherever they are nested."""
    found: list[str] = []
    if isinstance(node, dict):
        for lang in ("ja", "en"):
            value = node.get(lang)
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, dict) and isinstance(value.get("text"), str):
                found.append(value["text"])
        for key, value in node.items():
            if key not in ("ja", "en"):
                found += _texts(value)
    elif isinstance(node, list):
        for item in node:
            found += _texts(item)
    return found


def test_every_action_the_notation_writes_is_found(game: Game) -> None:
    engine = SubmarineAttack(game_data(game), options={"players": 3})
    pattern = engine.notation_pattern()
    actions = (
        Start(0),
        Start(2),
        Place(1, (5, 1, 2, 3, 1, 2), ("TS", "TA", "TB", "TC", "EA", "TB", "TA", "TC")),
        Roll((3, 3, 5, 6)),
        Roll((4,)),
        Target(0, 4),
        Target(2, 1),
    )
    for action in actions:
        text = engine.format_action(action)
        found = pattern.search(text)
        assert found is not None, text
        assert pattern.search(f"Then «{text}» is played.") is not None
    for code in ("TS", "TA", "TB", "TC", "TD", "EA", "EB", "p3", "five_or_more", "any_column"):
        assert pattern.search(f"the card {code} here") is not None, code


@pytest.mark.parametrize(
    "prose",
    [
        "Red rolls torpedo B's four dice: 3, 3, 5, 6.",
        "Red may roll just one die; a roll of three dice is refused.",
        "Blue goes first. Red's torpedo A rolls 5 dice.",
        "Both players turn over their attack 1 cards: Red has torpedo B, Blue evasion A.",
        "Player 3 attacks Red, on its left.",
        "先攻の赤が魚雷Bのダイス4個を振ると、3・3・5・6。",
    ],
)
def test_players_words_are_not_notation(game: Game, prose: str) -> None:
    assert SubmarineAttack(game_data(game)).notation_pattern().search(prose) is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_write_actions_in_notation_and_tell_them_in_prose(game: Game, path: Path) -> None:
    example = load_example(path)
    pattern = build_engine(game, example).notation_pattern()
    spec = example.spec
    prose = [spec.title.ja, spec.title.en]
    if spec.about is not None:
        prose += [spec.about.ja, spec.about.en]
    for i, step in enumerate(spec.steps, 1):
        prose += [step.say.ja, step.say.en]
        for text in ex.do_texts(step.do):
            assert pattern.search(text) is not None, f"{path.name} step {i}: {text!r}"
    for text in prose:
        found = pattern.search(text)
        assert found is None, f"{path.name}: notation {found.group(0)!r} in {text!r}"


@pytest.mark.parametrize("path", SECTIONS, ids=lambda p: p.name)
def test_rulebook_sections_hold_no_notation(game: Game, path: Path) -> None:
    pattern = SubmarineAttack(game_data(game)).notation_pattern()
    texts = _texts(ex.load_data(path))
    assert texts
    for text in texts:
        found = pattern.search(TEMPLATE.sub("", text))
        assert found is None, f"{path.name}: notation {found.group(0)!r}"


def test_the_examples_checked_are_the_games(game: Game) -> None:
    assert example_files(game) == EXAMPLES
