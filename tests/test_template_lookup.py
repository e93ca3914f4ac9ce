"""A template that only reads a value (`{{ values.colour }}`) is read without a template
context (printgen/templating.py: `_looked_up`): the same text as Jinja's, and every case it
cannot tell (missing values, internals, other kinds of values) left to Jinja."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from printgen.templating import TemplateFailure, _looked_up, compile_template, render

DATA: dict[str, Any] = {
    "values": {"colour": "#1f3a66", "n": 7, "half": 0.5, "hidden": True, "items": "x"},
    "name": "魚雷",
    "piece": SimpleNamespace(id="torpedo-1", count=3, deck=SimpleNamespace(id="red")),
    "nothing": None,
    "several": [1, 2],
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
