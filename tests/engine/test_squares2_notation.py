"""SQUARES II's notation stays in the example files: the engine's `notation_pattern` finds
every action an example plays, and none of the players' texts (examples' titles,
introductions and narratives; the rulebook's sections) contains any."""

from __future__ import annotations

import pytest
import yaml

from printgen.engines import game_data
from printgen.model import Game
from printgen.rulebook.book import load_rulebook
from printgen.rulebook.text import TextContext, render_text
from rules_engine.squares2 import Squares2

from . import example_texts as ex

FOLDER = ex.game_folder("squares2")
FILES = ex.example_paths(FOLDER)

sq = ex.game_fixture(FOLDER)


@pytest.fixture(scope="module")
def engine(sq: Game) -> Squares2:
    return Squares2(game_data(sq))


def test_the_pattern_finds_every_kind_of_action_and_code(engine: Squares2) -> None:
    found = engine.notation_pattern()
    for text in (
        "first purple",
        "orange place T1 c1",
        "orange place T3.2 c1",
        "orange move c2 c3",
        "orange spin c3",
        "orange tsunami c1",
        "orange leap c4 a1",
        "orange diagonal c4 b3",
        "orange return c3",
        "orange pass",
        "orange T1",  # a board tile, as the `board` query writes it
        "S4/L2",  # a tile in hand, as the `hands` query writes it
        "D5",
    ):
        assert found.fullmatch(text), text
        assert found.search(f"Then {text}, and so on."), text
        assert found.search(f"橙は{text}を使う"), text
    for words in (
        "Orange moves Spin 3 from b3 to b4.",
        "Purple places Spin 2 on a5, the first purple tile.",
        "Tsunami 1 uses its ability: Diagonal 5 moves to c4.",
        "橙は自転4をc3で裏返し、跳躍2にします。",
        "Row 3 totals 5 + 2 + 1 = 8.",
        "MOVE 3 north",
    ):
        assert not found.search(words), words


def test_every_action_of_every_example_is_notation(engine: Squares2) -> None:
    found = engine.notation_pattern()
    for path in FILES:
        for text in ex.dos(ex.load_data(path)):
            assert found.fullmatch(text), f"{path.name}: {text!r}"


def test_no_example_tells_its_story_in_notation(engine: Squares2) -> None:
    found = engine.notation_pattern()
    bad = [
        f"{path.name} {where}: {m.group()!r}"
        for path in FILES
        for where, text in ex.prose(ex.load_data(path))
        if (m := found.search(text))
    ]
    assert bad == []


def test_no_rulebook_section_holds_notation(sq: Game, engine: Squares2) -> None:
    found = engine.notation_pattern()
    rb = load_rulebook(sq)
    bad = []
    texts = 0
    for sec in rb.sections.values():
        for lang in ("ja", "en"):
            ctx = TextContext(sq, lang)
            for key, source in (
                ("title", sec.section.title.ja if lang == "ja" else sec.section.title.en),
                ("text", sec.section.ja.text if lang == "ja" else sec.section.en.text),
            ):
                text = render_text(source, ctx, sec.doc.where((lang,)))
                texts += 1
                if m := found.search(text):
                    bad.append(f"{sec.id} {lang} {key}: {m.group()!r}")
    glossary = FOLDER / "rulebook" / "glossary.yaml"
    if glossary.is_file():
        for term in yaml.safe_load(glossary.read_text("utf-8"))["terms"]:
            for lang in ("ja", "en"):
                for part in ("term", "means"):
                    text = render_text(term[part][lang], TextContext(sq, lang), rb.where())
                    if m := found.search(text):
                        bad.append(f"glossary {lang} {part}: {m.group()!r}")
    assert texts >= 20
    assert bad == []
