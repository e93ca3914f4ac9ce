"""Susumuka & Modoruka's notation stays in the example files: the engine's
`notation_pattern` finds every action of the examples, and none of the players' words of
the examples and of the rulebook's sections."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printgen.engines import game_data
from printgen.model import Game
from printgen.rulebook.book import load_rulebook
from printgen.rulebook.text import TextContext, render_text
from rules_engine.susumuka_modoruka import SusumukaModoruka

from . import example_texts as ex

FOLDER = ex.game_folder("susumuka-modoruka")
EXAMPLES = ex.example_paths(FOLDER)

sm = ex.game_fixture(FOLDER)
pattern = ex.pattern_fixture("sm", lambda sm: SusumukaModoruka(game_data(sm)))


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_action_of_the_examples_is_notation(pattern: re.Pattern[str], source: Path) -> None:
    texts = list(ex.dos(ex.load_data(source)))
    assert texts
    assert [t for t in texts if not pattern.fullmatch(t)] == []


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_the_examples_tell_in_players_words(pattern: re.Pattern[str], source: Path) -> None:
    data = ex.load_data(source)
    found = [(where, m.group()) for where, text in ex.prose(data) for m in pattern.finditer(text)]
    assert found == []


def test_the_rulebook_sections_hold_no_notation(sm: Game, pattern: re.Pattern[str]) -> None:
    rb = load_rulebook(sm)
    found = []
    for sid, loaded in rb.sections.items():
        for lang in ("ja", "en"):
            ctx = TextContext(sm, lang)
            for key, source in (
                ("title", loaded.section.title[lang]),
                ("text", getattr(loaded.section, lang).text),
            ):
                text = render_text(source, ctx, loaded.doc.where((lang,)))
                found += [(sid, lang, key, m.group()) for m in pattern.finditer(text)]
    book = ex.load_data(FOLDER / "rulebook" / "book.yaml")
    for entry in book["contents"]:
        for key in ("title", "caption"):
            for lang, text in (entry.get(key) or {}).items():
                found += [("book", lang, key, m.group()) for m in pattern.finditer(text)]
    assert found == []


@pytest.mark.parametrize(
    "text",
    [
        "yellow advance",
        "pink flee giant-bat smoke-ball",
        "white skill fighting-spirit",
        "yellow take silver",
        "draw lost-property-yellow",
        "roll 3 4",
        "first pink",
        "earth-charm",
        "card_power",
        "tie_break",
    ],
)
def test_the_pattern_finds_notation_in_running_text(pattern: re.Pattern[str], text: str) -> None:
    assert pattern.search(f"Then {text}, and so on.")


@pytest.mark.parametrize(
    "text",
    [
        "Yellow advances and turns up Tsuchikappa.",
        "She rolls 3 and 4: 3 + 4 = 7.",
        "Pink flees from a Giant Bat with her Smoke Ball.",
        "the lost-property card of Yellow, the yellow pawn",
        "Might (cost 4) might be taken later.",
        "黄は「進む」でつちかっぱを表にします。",
    ],
)
def test_players_words_are_not_notation(pattern: re.Pattern[str], text: str) -> None:
    assert not pattern.search(text)
