"""Templates' work is counted in steps (printgen/templating.py): each item a loop goes
through, each call, weighed by the size of what it is handed. A template that asks for
too much fails with the same message on every machine, however busy (the CI machine once
failed a real game's cards when the bound was CPU time); what templates write is unchanged.
A template's code, compiled once and kept in the cache folder, is counted and sandboxed
the same when it runs from there."""

from __future__ import annotations

import hashlib
import marshal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest

from printgen import sandbox
from printgen.sandbox import compile_template
from printgen.templating import (
    MAX_STEPS,
    STEP_BUDGET,
    TemplateFailure,
    render,
    reset_budget,
)

BIG = "{% set big = range(10000)|list %}"
OUTER = "{% for a in range(10000) %}{% for b in range(100) %}"
END = "{% endfor %}{% endfor %}"
TOO_MUCH = {
    "nested loops": "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}",
    "`in` over a long list": BIG + OUTER + "{% if a in big %}{% endif %}" + END,
    "`not in` over a long list": BIG + OUTER + "{% if a not in big %}{% endif %}" + END,
    "slices of a long list": BIG + OUTER + "{% if big[1:] %}{% endif %}" + END,
    "a macro calling itself twice": (
        "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
        "{{ f(40) }}"
    ),
    "a recursive loop": (
        "{% for x in [1, 2] recursive %}{{ loop(range(100)|list) if loop.depth < 6 }}{% endfor %}"
    ),
    "long texts made again and again": OUTER + "{{ ('x' * 5000 + 'y')|length }}" + END,
    "filters over long lists": OUTER + "{{ range(10000)|list|sum }}" + END,
    "a filtered loop over a generator": (
        "{% for a in range(10000) %}{% for b in range(10000)|map('string') if b %}"
        "{% endfor %}{% endfor %}"
    ),
}


@pytest.fixture(autouse=True)
def fresh_budget() -> Iterator[None]:
    reset_budget()
    yield
    reset_budget()


@pytest.mark.parametrize("source", TOO_MUCH.values(), ids=list(TOO_MUCH))
def test_too_much_work_is_counted_not_timed(source: str) -> None:
    with pytest.raises(TemplateFailure) as failure:
        render(source, {})
    assert failure.value.message == (
        f"the template repeats its work more than {MAX_STEPS:,} times (loop items and calls): "
        "simplify its loops"
    )


def test_a_slow_clock_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renders on a machine a thousand times slower (each render of this small loop seen to
    take a tenth of a second): the same text, and no failure, where the bound in CPU time
    had failed after 20 renders."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.1)
    source = "{% for card in cards %}{{ card.name }}{{ ', ' if not loop.last }}{% endfor %}"
    data = {"cards": [{"name": f"card {i}"} for i in range(50)]}
    for _ in range(400):
        assert render(source, data).startswith("card 0, card 1, ")


def test_the_renders_of_one_game_share_a_budget() -> None:
    """Many renders each under the limit add up; a new game starts a new budget."""
    heavy = "{% for a in range(9000) %}{% for b in range(100) %}{% endfor %}{% endfor %}"
    steps = 1 + 9000 + 9000 * (1 + 100)  # range(): a call, then each item; 9,000 times inside
    renders = 0
    with pytest.raises(TemplateFailure) as failure:
        for renders in range(1, 100):
            render(heavy + f"{{# {renders} #}}", {})  # another source each time: no memo
    assert failure.value.message == (
        f"the templates repeat their work more than {STEP_BUDGET:,} times in all (loop items "
        "and calls): simplify their loops"
    )
    assert renders == STEP_BUDGET // steps + 1
    reset_budget()
    assert render(heavy, {}) == ""


LOOPS: list[tuple[str, dict[str, Any]]] = [
    ("{% for x in xs %}{{ loop.index }}/{{ loop.length }}{{ '.' if loop.last }} {% endfor %}", {}),
    ("{% for x in xs if x > 1 %}{{ x }}{% else %}none{% endfor %}", {}),
    ("{% for x in [] %}{{ x }}{% else %}none{% endfor %}", {}),
    ("{% for k, v in d|dictsort %}{{ k }}={{ v }};{% endfor %}", {}),
    ("{% for k in d %}{{ k }}{% endfor %}", {}),
    ("{% for x in xs|map('string')|reverse %}{{ x }}{% endfor %}", {}),
    ("{% for c in 'abc' %}{{ c }}{{ loop.revindex }}{% endfor %}", {}),
    ("{{ 2 in xs }} {{ 9 not in xs }} {{ 'b' in 'abc' }} {{ 'a' in d }} {{ xs[1:] }}", {}),
    ("{{ 'abcdef'[::2] }} {{ xs[:-1]|join('-') }}", {}),
    (
        "{% for n in tree recursive %}{{ n.name }}({{ loop(n.kids) if n.kids }}){% endfor %}",
        {"tree": [{"name": "a", "kids": [{"name": "b", "kids": []}]}, {"name": "c", "kids": []}]},
    ),
    ("{% macro row(x) %}<{{ x }}>{% endmacro %}{% for x in xs %}{{ row(x) }}{% endfor %}", {}),
]


@pytest.mark.parametrize("source,extra", LOOPS)
def test_counted_templates_write_what_jinja_writes(source: str, extra: dict[str, Any]) -> None:
    data = {"xs": [1, 2, 3], "d": {"b": 2, "a": 1}, **extra}
    plain = jinja2.Environment().from_string(source).render(data)
    assert render(source, data) == compile_template(source).render(data) == plain


def test_a_loop_over_a_missing_value_still_names_it() -> None:
    with pytest.raises(TemplateFailure) as failure:
        render("{% for x in values.dcie %}{{ x }}{% endfor %}", {"values": {"dice": [1]}})
    assert "'dcie'" in failure.value.message


@pytest.fixture()
def code_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """printgen's cache folder in `tmp_path`, nothing compiled in this process yet."""
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(sandbox, "_kept_code", sandbox._KeptCode())
    monkeypatch.setattr(sandbox, "_compiled", {})
    compile_template.cache_clear()
    yield tmp_path
    compile_template.cache_clear()


def checked(data: bytes) -> bytes:
    """`data` as a cache entry whose digest holds (printgen.cache.write_entry)."""
    return hashlib.sha256(data).digest() + data


def _next_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the next run finds: the templates' code in the cache folder, nothing compiled in
    memory."""
    monkeypatch.setattr(sandbox, "_kept_code", sandbox._KeptCode())
    monkeypatch.setattr(sandbox, "_compiled", {})
    compile_template.cache_clear()


def test_a_template_is_compiled_once_per_machine(
    code_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "{% for i in range(n) %}{{ i * 2 }},{% endfor %}{{ name(x) }}"
    data = {"n": 3, "x": "a", "name": str.upper}
    assert render(source, data) == "0,2,4,A"
    _next_process(monkeypatch)

    def compiled_again(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("compiled again")

    monkeypatch.setattr(sandbox.ENV, "compile", compiled_again)
    monkeypatch.setattr(sandbox.ENV, "parse", compiled_again)  # nor read for its names
    monkeypatch.setattr(sandbox, "_read_names", {})
    assert render(source, data) == "0,2,4,A"
    assert render(source, {**data, "n": 1}) == "0,A"


REFUSED = {**TOO_MUCH, "reaching __class__": "{{ ''.__class__.__mro__ }}"}


@pytest.mark.parametrize("source", REFUSED.values(), ids=list(REFUSED))
def test_a_template_run_from_the_cache_is_still_counted_and_sandboxed(
    source: str, code_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(TemplateFailure) as fresh:
        render(source, {})
    _next_process(monkeypatch)
    reset_budget()
    with pytest.raises(TemplateFailure) as kept:
        render(source, {})
    assert str(kept.value) == str(fresh.value)


def test_a_damaged_code_file_is_compiled_anew(
    code_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "{{ a + b }}"
    assert render(source, {"a": 1, "b": 2}) == "3"
    _next_process(monkeypatch)
    (kept,) = (code_cache / "templates").glob("*.code")
    for damage in (b"garbage", checked(marshal.dumps([1, 2])), checked(b"\x00")):
        kept.write_bytes(damage)
        monkeypatch.setattr(sandbox, "_kept_code", sandbox._KeptCode())
        compile_template.cache_clear()
        monkeypatch.setattr(sandbox, "_compiled", {})
        assert render(source, {"a": 1, "b": 2}) == "3"


def test_a_template_reading_random_is_never_reused_from_the_cache(
    code_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "{{ [1, 2, 3] | random }}{{ x }}"
    assert sandbox._names_read(source) is None
    assert sandbox._names_read("{{ x }}{{ y.z }}") == ("x", "y")
    _next_process(monkeypatch)
    monkeypatch.setattr(sandbox, "_read_names", {})
    assert sandbox._names_read(source) is None
    assert sandbox._names_read("{{ x }}{{ y.z }}") == ("x", "y")
