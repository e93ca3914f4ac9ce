"""Rule options are data (`options:` in each game's game.yaml); engines play exactly those."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from printgen.engines import game_data
from printgen.model import Game, OptionSpec, load_game
from rules_engine.core import options_from
from rules_engine.registry import ENGINES, engine_for, game_ids

from .conftest import ROOT


def _game(game_id: str) -> Game:
    return load_game(ROOT / "components" / game_id)


def _without(game: Game, name: str) -> Game:
    options = [o for o in game.info.options if o.name != name]
    return dataclasses.replace(game, info=game.info.model_copy(update={"options": options}))


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_the_data_states_exactly_the_options_the_engine_plays(game_id: str) -> None:
    game = _game(game_id)
    entry = engine_for(game_id)
    assert entry is not None
    options = entry.options_for(game_data(game))
    assert [o.name for o in options] == list(entry.option_names)
    assert entry.load(game_data(game)).options == {o.name: o.default for o in options}
    for option in options:
        assert option.explain.ja and option.explain.en
        for value, text in option.choices.items():
            assert any(type(value) is type(a) and value == a for a in option.allowed)
            assert text.ja and text.en


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_an_engine_refuses_data_that_lacks_an_option_it_plays(game_id: str) -> None:
    game = _game(game_id)
    entry = engine_for(game_id)
    assert entry is not None
    name = entry.option_names[-1]
    with pytest.raises(ValueError, match=f"game.yaml lacks the rule option {name} "):
        entry.load(game_data(_without(game, name)))
    with pytest.raises(ValueError, match="lacks the rule option"):
        entry.options_for(game_data(_without(game, name)))


def test_an_engine_refuses_an_option_it_does_not_play() -> None:
    game = _game("submarine-attack")
    extra = OptionSpec.model_validate(
        {"name": "house_rule", "default": "a", "allowed": ["a"], "explain": {"ja": "x", "en": "x"}}
    )
    changed = dataclasses.replace(
        game, info=game.info.model_copy(update={"options": [*game.info.options, extra]})
    )
    entry = engine_for("submarine-attack")
    assert entry is not None
    with pytest.raises(ValueError, match=r"house_rule .*which the engine does not play"):
        entry.load(game_data(changed))


def test_bool_and_int_choice_keys_are_read_as_the_allowed_values() -> None:
    spec = OptionSpec.model_validate(
        {
            "name": "flag",
            "default": False,
            "allowed": [False, True],
            "explain": {"ja": "旗", "en": "flag"},
            "choices": {True: {"ja": "使う", "en": "on"}, "false": {"ja": "使わない", "en": "off"}},
        }
    )
    assert set(spec.choices) == {"true", "false"}
    assert spec.value_of("true") is True and spec.value_of("false") is False
    count = OptionSpec.model_validate(
        {
            "name": "n",
            "default": 2,
            "allowed": [2, 3],
            "explain": {"ja": "人数", "en": "players"},
            "choices": {2: {"ja": "2人", "en": "two"}},
        }
    )
    assert count.value_of("2") == 2 and type(count.value_of("2")) is int


@pytest.mark.parametrize(
    ("default", "allowed", "choices", "message"),
    [
        ("c", ["a", "b"], {}, "default 'c' is not allowed"),
        (True, [1, 2], {}, "default True is not allowed"),
        ("a", ["a", "b"], {"z": {"ja": "z", "en": "z"}}, "choice 'z' is not one allowed value"),
    ],
)
def test_an_option_spec_checks_its_default_and_choices(
    default: object, allowed: list[object], choices: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        OptionSpec.model_validate(
            {
                "name": "x",
                "default": default,
                "allowed": allowed,
                "explain": {"ja": "x", "en": "x"},
                "choices": choices,
            }
        )


def test_options_from_keeps_the_kinds_of_values() -> None:
    options = {o.name: o for o in options_from(game_data(_game("squares2")))}
    backs = options["owner_sees_board_backs"]
    assert backs.default is False and backs.allowed == (False, True)
    assert set(backs.choices) == {False, True}
    assert options["turn_limit"].default == 0 and type(options["turn_limit"].default) is int
    assert set(game_ids()) == set(ENGINES)
