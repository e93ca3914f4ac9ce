"""The engine protocol's helpers: lazy action lists, options, joint-step notation."""

from __future__ import annotations

import itertools
import random

import pytest

from printgen.engines import game_data
from printgen.model import Game
from rules_engine.core import (
    Arrangements,
    Bilingual,
    Engine,
    OptionError,
    Product,
    RuleOption,
    State,
    format_step,
    options_from,
    parse_step,
    resolve_options,
)
from rules_engine.submarine_attack import Action, SubmarineAttack


@pytest.mark.parametrize(("items", "k"), [((1, 1, 2, 2, 3), 3), (("a", "b", "b"), 3), ((5,), 0)])
def test_arrangements_are_the_distinct_ordered_choices(items: tuple[object, ...], k: int) -> None:
    expected = sorted(set(itertools.permutations(items, k)))
    arrangements = Arrangements(items, k)
    assert len(arrangements) == len(expected)
    assert list(arrangements) == expected
    assert all(e in arrangements for e in expected)
    assert (items[0],) * (len(items) + 1) not in arrangements


def test_large_arrangements_index_in_sorted_order() -> None:
    """Past a few hundred, arrangements are unranked level by level from tables shared by
    every multiset with the same counts: each must still give its own items, in order."""
    for items in ((1, 1, 2, 2, 3, 3, 4, 5), ("c", "c", "b", "b", "a", "a", "d", "e")):
        expected = sorted(set(itertools.permutations(items, 6)))
        arrangements = Arrangements(items, 6)
        assert len(arrangements) == len(expected) > 720
        assert [arrangements[i] for i in range(len(expected))] == expected
        assert list(arrangements) == expected
        assert arrangements[-1] == expected[-1]
        assert arrangements[10:13] == expected[10:13]
    with pytest.raises(IndexError):
        Arrangements((1, 2), 2)[2]


def test_product_indexes_like_itertools_product() -> None:
    product = Product((1, 2, 3), "ab", (True, False))
    assert list(product) == list(itertools.product((1, 2, 3), "ab", (True, False)))
    assert [product[i] for i in range(len(product))] == list(product)
    assert (2, "b", True) in product and (4, "a", True) not in product


def test_options_resolve_to_defaults_and_check_values() -> None:
    option = RuleOption("x", "a", ("a", "b"), Bilingual("ア", "A"))
    assert resolve_options([option], None) == {"x": "a"}
    assert resolve_options([option], {"x": "b"}) == {"x": "b"}
    with pytest.raises(OptionError, match="unknown rule option 'y'"):
        resolve_options([option], {"y": "a"})
    with pytest.raises(OptionError, match="must be one of a, b, got 'c'"):
        resolve_options([option], {"x": "c"})
    flag = RuleOption("n", 2, (2, 3), Bilingual("人数", "players"))
    with pytest.raises(OptionError):
        resolve_options([flag], {"n": True})  # a bool is not a player count


def test_every_option_is_explained_in_both_languages(game: Game) -> None:
    for option in options_from(game_data(game)):
        assert option.explain.ja and option.explain.en
        for value in option.allowed:
            if option.choices:
                assert option.choices[value].ja and option.choices[value].en


def test_the_submarine_engine_implements_the_protocol(game: Game) -> None:
    engine: Engine[Action] = SubmarineAttack(game_data(game))
    state: State[Action] = engine.new_initial_state()
    assert isinstance(state, State)
    rng = random.Random(3)
    while not state.is_terminal():
        players = state.current_players()
        for step_text in (
            format_step(engine, step) for step in state.history[-1:]
        ):  # every step round-trips through the notation
            assert format_step(engine, parse_step(engine, step_text)) == step_text
            assert parse_step(engine, step_text) == state.history[-1]
        if len(players) == 1:
            state.apply(state.sample_action(players[0], rng))
        else:
            state.apply_joint([state.sample_action(p, rng) for p in players])
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
