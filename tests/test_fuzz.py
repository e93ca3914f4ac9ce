"""Mutated game YAML: loading and rendering either succeed or raise printgen's own error.

Hypothesis takes a valid file of a shipped game, mutates its text (a line deleted or
duplicated, characters swapped, YAML punctuation or random text inserted, a number made
0, -1 or huge, a value replaced by a list or a mapping), writes it into a copy of the
project and loads and renders the game in-process. Anything but a PrintgenError (a
KeyError, a TypeError, a ZeroDivisionError...) is a bug: the user would see a traceback.
"""

from __future__ import annotations

import difflib
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from printgen.build import Project, load_all, render_all
from printgen.errors import PrintgenError
from printgen.examples import check_file
from printgen.model import load_game
from printgen.rulebook import load_rulebook
from printgen.rulebook.text import TextContext, markdown_blocks, render_text

ROOT = Path(__file__).resolve().parent.parent
GAME = "submarine-attack"
FILES = (
    f"components/{GAME}/cards.yaml",
    f"components/{GAME}/game.yaml",
    f"layouts/{GAME}/torpedo.yaml",
)

# Changes of values come up more often than breakages of the text, most of which end at the
# YAML parser.
OPERATIONS = (
    "number", "number", "number", "value", "value", "delete", "duplicate", "swap", "insert",
)  # fmt: skip
PUNCTUATION = (
    ":", ": ", "-", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!", "!!str ", "|", ">",
    "'", '"', "%", "@", "`", "#", "?", "~", "\n", "\t", "  ", "{{", "}}", "{%", "%}",
    "{{ x }}", "{{ values }}", "\\", "\x00", "\ufeff", "mm", "pt", "-1",
)  # fmt: skip
NUMBERS = (
    "0", "-1", "-0.5", ".nan", ".inf", "-.inf", "1e308", "10000000", "99999999999999999999",
    "7" * 40,
)  # fmt: skip
VALUES = (
    "[1, 2]", "{a: 1}", "[]", "{}", "null", "''", "[[[]]]", "{ja: x}", "{ja: x, en: y}",
    "true", "-1", "[0mm, 0mm]", '"{{ nope }}"', "[a, {b: c}]", "~",
)  # fmt: skip

NUMBER = re.compile(r"(?<![\w.#])-?\d+(?:\.\d+)?")
COMMENT = re.compile(r"(?:^|\s)#", re.MULTILINE)
KEY_VALUE = re.compile(r"^(\s*(?:- )?[\w-]+:) +(\S.*)$")

Mutation = tuple[str, int, int, str]

MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(OPERATIONS),
        st.integers(min_value=0, max_value=9999),  # which line, number or place (wraps around)
        st.integers(min_value=0, max_value=9999),  # which replacement
        st.one_of(st.sampled_from(PUNCTUATION), st.text(min_size=1, max_size=4)),
    ),
    min_size=1,
    max_size=2,
)


def in_comment(text: str, at: int) -> bool:
    return bool(COMMENT.search(text, text.rfind("\n", 0, at) + 1, at))


def mutate(text: str, mutation: Mutation) -> str:
    """One change to the text, chosen by `mutation` (indexes wrap around)."""
    operation, a, b, snippet = mutation
    lines = text.splitlines(keepends=True)
    if operation == "delete" and lines:
        del lines[a % len(lines)]
        return "".join(lines)
    if operation == "duplicate" and lines:
        i = a % len(lines)
        lines.insert(i, lines[i])
        return "".join(lines)
    if operation == "swap" and len(text) >= 2:
        i = a % (len(text) - 1)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    if operation == "number":
        numbers = [m for m in NUMBER.finditer(text) if not in_comment(text, m.start())]
        if numbers:
            found = numbers[a % len(numbers)]
            return text[: found.start()] + NUMBERS[b % len(NUMBERS)] + text[found.end() :]
    if operation == "value":
        places = [i for i, line in enumerate(lines) if KEY_VALUE.match(line)]
        if places:
            i = places[a % len(places)]
            lines[i] = KEY_VALUE.sub(rf"\1 {VALUES[b % len(VALUES)]}", lines[i].rstrip("\n")) + "\n"
            return "".join(lines)
    i = a % (len(text) + 1)  # "insert", and any operation that found nothing to change
    return text[:i] + snippet + text[i:]


def test_mutations_change_the_text() -> None:
    text = "size: [63mm, 88mm]\nvalues: {dice: 7}\n"
    assert mutate(text, ("delete", 0, 0, "")) == "values: {dice: 7}\n"
    assert mutate(text, ("duplicate", 1, 0, "")).count("values") == 2
    assert mutate(text, ("swap", 0, 0, "")) == "isze: [63mm, 88mm]\nvalues: {dice: 7}\n"
    assert mutate(text, ("insert", 0, 0, "{{")) == "{{" + text
    assert mutate(text, ("number", 2, 1, "")) == "size: [63mm, 88mm]\nvalues: {dice: -1}\n"
    assert mutate("# 5 ships\nships: 5\n", ("number", 0, 3, "")) == "# 5 ships\nships: .nan\n"
    assert mutate(text, ("value", 1, 1, "")) == "size: [63mm, 88mm]\nvalues: {a: 1}\n"


@contextmanager
def mutated(root: Path, rel: str, mutations: list[Mutation]) -> Iterator[None]:
    """`rel` in the project copy `root`, mutated for the body (shown in a failure's report),
    then restored; a PrintgenError in the body is the project's own answer, and fine."""
    original = (ROOT / rel).read_text(encoding="utf-8")
    text = original
    for mutation in mutations:
        text = mutate(text, mutation)
    changed = difflib.unified_diff(original.splitlines(), text.splitlines(), lineterm="", n=0)
    note("\n".join(list(changed)[2:12]))
    (root / rel).write_text(text, encoding="utf-8")
    try:
        yield
    except PrintgenError as exc:
        assert str(exc).strip(), "a PrintgenError without a message"
    finally:
        (root / rel).write_text(original, encoding="utf-8")


FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture()
def fuzz_root(tmp_path: Path) -> Path:
    """One copy of the project's data per test function (each example rewrites one file)."""
    for name in ("components", "layouts"):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("rel", FILES)
@FUZZ
@given(mutations=MUTATIONS)
def test_mutated_yaml_loads_or_fails_with_printgen_error(
    fuzz_root: Path, rel: str, mutations: list[Mutation]
) -> None:
    with mutated(fuzz_root, rel, mutations):
        lib, games = load_all(Project(fuzz_root), [GAME])
        render_all(lib, games, "both")


# What `validate` adds to loading: the rulebook's section texts (templates and Markdown)
# and the worked examples the engine replays.
RULEBOOK_AND_EXAMPLES = (
    f"components/{GAME}/rulebook/torpedoes.yaml",
    f"components/{GAME}/examples/07-seed-round-won-by-sinkings.yaml",
    # one worked example of every other game: each engine reads its own setup keys
    "components/subzero/examples/01-seed-worked-example.yaml",
    "components/squares2/examples/01-seed-board-example-1.yaml",
    "components/kill-shot/examples/01-bad-intel-top-5.yaml",
    "components/susumuka-modoruka/examples/01-tsuchikappa-depth-0.yaml",
)


@pytest.mark.parametrize("rel", RULEBOOK_AND_EXAMPLES)
@FUZZ
@given(mutations=MUTATIONS)
def test_mutated_sections_and_examples_check_or_fail_with_printgen_error(
    fuzz_root: Path, rel: str, mutations: list[Mutation]
) -> None:
    with mutated(fuzz_root, rel, mutations):
        game = load_game(fuzz_root / "components" / rel.split("/")[1])
        if "/examples/" in rel:
            check_file(game, fuzz_root / rel)
            return
        book = load_rulebook(game)
        for section in book.sections.values():
            for lang in ("ja", "en"):
                where = section.doc.where((lang, "text"))
                source = getattr(section.section, lang).text
                markdown_blocks(render_text(source, TextContext(game, lang), where))
