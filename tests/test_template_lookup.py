"""A template that only reads a value (`{{ values.colour }}`), or hands one to a function
of printgen's (`{{ t(name) }}`), is read without Jinja (printgen/templating.py:
`_looked_up`): the same text as Jinja's, and every case it cannot tell (missing values,
internals, other kinds of values, other functions) left to Jinja."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from printgen import sandbox
from printgen.model import Text
from printgen.render import _PICKERS
from printgen.sandbox import compile_template
from printgen.templating import (
    MAX_ARGUMENT_TEXT,
    STEP_BUDGET,
    TemplateFailure,
    _looked_up,
    _spent,
    render,
    reset_budget,
)

DATA: dict[str, Any] = {
    "values": {"colour": "#1f3a66", "n": 7, "half": 0.5, "hidden": True, "items": "x"},
    "name": "魚雷",
    "piece": SimpleNamespace(id="torpedo-1", count=3, deck=SimpleNamespace(id="red")),
    "nothing": None,
    "several": [1, 2],
    "t": _PICKERS["en"],
    "both": _PICKERS["both"],
    "title": Text(ja="魚雷", en="Torpedo"),
    "plain": {"ja": "発見", "en": "Found"},
    "upper": str.upper,  # a function, but not one of printgen's
}

SOURCES = [
    "{{ values.colour }}",
    "{{values.n}}",
    "{{ values.half }}",
    "{{ values.hidden }}",
    "{{ name }}",
    "{{- name -}}",
    "{{ piece.id }}",
    "{{ piece.count }}",
    "{{ piece.deck.id }}",
    "{{ t(title) }}",
    "{{ both(title) }}",
    "{{-t( plain )-}}",
    "{{ t(values.colour) }}",
    "{{ t(values.n) }}",
    "{{ t(nothing) }}",  # t of nothing is empty
    "{{ t(piece.deck.id) }}",
]


@pytest.mark.parametrize("source", SOURCES)
def test_a_lookup_reads_what_jinja_writes(source: str) -> None:
    quick = _looked_up(source, DATA)
    assert quick is not None
    assert quick == compile_template(source).render(DATA) == render(source, DATA)


@pytest.mark.parametrize(
    "source",
    [
        "{{ nothing }}",  # None: Jinja's text of it
        "{{ several }}",  # a list
        "{{ values }}",  # a mapping
        "{{ values.items }}",  # a mapping's method comes before its key, in Jinja
        "{{ values.missing }}",
        "{{ missing }}",
        "{{ piece.__class__ }}",
        "{{ values.colour | upper }}",
        "{{ values['colour'] }}",
        "x{{ name }}",
        "{{ name }}\n",
        "{{ range }}",
        "{{ upper(name) }}",  # not a function of printgen's
        "{{ t(missing) }}",
        "{{ t(values.missing) }}",
        "{{ t(piece.__class__) }}",
        "{{ t(values.items) }}",
        "{{ t(name, name) }}",
        "{{ t(name) | upper }}",
        "{{ t(t(name)) }}",
        "{{ true }}",
        "{{ t(none) }}",
    ],
)
def test_what_is_not_a_plain_lookup_is_left_to_jinja(source: str) -> None:
    assert _looked_up(source, DATA) is None


def test_a_missing_value_and_internals_still_fail_as_before() -> None:
    with pytest.raises(TemplateFailure):
        render("{{ values.missing }}", DATA)
    with pytest.raises(TemplateFailure, match="may not reach"):
        render("{{ piece.__class__ }}", DATA)
    assert render("{{ nothing }}", DATA) == compile_template("{{ nothing }}").render(DATA)


def test_a_call_read_without_jinja_is_checked_and_counted_as_the_sandboxs() -> None:
    """The call's argument is checked (a text too long to hand to a function fails alike)
    and its steps go to the game's budget, as Jinja's call would count them."""
    long = {"t": _PICKERS["en"], "text": "x" * (MAX_ARGUMENT_TEXT + 1)}
    with pytest.raises(TemplateFailure) as quick:
        _looked_up("{{ t(text) }}", long)
    with pytest.raises(TemplateFailure) as full:
        compile_template("{{ t(text) }}").render(long)
    assert quick.value.message == full.value.message
    text = {"t": _PICKERS["en"], "text": "y" * 6400}
    reset_budget()
    assert sandbox.render("{{ t(text) }}", text) == text["text"]  # through Jinja
    through_jinja = _spent["steps"]
    reset_budget()
    assert render("{{ t(text) }}", text) == text["text"]
    assert _spent["steps"] == through_jinja == 1 + 6400 // 64
    _spent["steps"] = STEP_BUDGET
    with pytest.raises(TemplateFailure, match="in all"):
        render("{{ t(text) }}", text)
    reset_budget()
