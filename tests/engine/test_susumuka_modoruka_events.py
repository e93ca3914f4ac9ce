"""Susumuka & Modoruka's event log: each transition names the rule clauses it applied (the
ids declared under `clauses:` in game.yaml), with the facts a sentence needs; every id the
engine applies or refuses with is declared; every declared clause is shown by a worked
example; every kind of event has a phrase that renders in both languages."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from printgen.coverage import coverage
from printgen.engines import game_data
from printgen.examples import check_game
from printgen.model import Game, load_game
from printgen.narration import missing_phrases, sentence
from rules_engine.core import CHANCE, Event, IllegalActionError, recording
from rules_engine.susumuka_modoruka import (
    VERBS,
    Act,
    Draw,
    First,
    Roll,
    SusumukaModoruka,
    SusumukaState,
)

from .conftest import ROOT
from .test_susumuka_modoruka_random import OPTION_SETS

FOLDER = ROOT / "components" / "susumuka-modoruka"
GAMES_PER_SET = 60


@pytest.fixture(scope="module")
def sm() -> Game:
    return load_game(FOLDER)


@pytest.fixture(scope="module")
def declared(sm: Game) -> set[str]:
    return {c.id for c in sm.info.clauses}


def start(game: Game, **setup: Any) -> tuple[SusumukaModoruka, SusumukaState]:
    engine = SusumukaModoruka(game_data(game), None, {"players": 2})
    setup.setdefault("first", "yellow")
    return engine, engine.setup_state(setup)


def events(engine: SusumukaModoruka, state: SusumukaState, *texts: str) -> list[Event]:
    with recording() as log:
        for text in texts:
            state.apply(engine.parse_action(text))
    return list(log.items)


def rules(found: list[Event]) -> list[str]:
    return [e.rule for e in found]


# --- characteristic transitions ----------------------------------------------------------------


def test_the_first_player_sets_the_game_up(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm), None, {"players": 2})
    state = engine.new_initial_state()
    found = events(engine, state, "first pink")
    assert [(e.rule, e.what) for e in found] == [("setup", "setup"), ("first-player", "first")]
    assert found[0].data == {
        "players": ["yellow", "pink"],
        "hp": 20,
        "dice": 1,
        "faces": 6,
        "cards": state.pile_n,
    }
    assert found[1].data == {"player": "pink"}


def test_the_seeds_combat_tells_power_roll_and_result(sm: Game) -> None:
    engine, state = start(
        sm, deck=["tsuchikappa"], items={"yellow": ["bronze-sword", "bronze-sword"]}
    )
    found = events(engine, state, "yellow advance", "draw tsuchikappa", "yellow fight")
    assert rules(found) == ["outside", "advance", "card-power"]
    power = found[2].data
    assert (power["card"], power["tier"], power["base"], power["coloured"]) == (
        "tsuchikappa",
        0,
        3,
        4,
    )
    assert power["power"] == 7 and power["colour"] == {"ja": "茶", "en": "Brown"}
    found = events(engine, state, "roll 6")
    assert rules(found) == ["combat-roll", "win", "win"]
    assert found[0].data["dice"] == [6] and found[0].data["power"] == 8
    assert [e.what for e in found] == ["roll", "win", "win_down"]
    assert (found[2].data["start"], found[2].data["depth"], found[2].data["steps"]) == (0, 5, 5)


def test_a_loss_names_the_damage_and_nullifying_its_item(sm: Game) -> None:
    engine, state = start(sm, deck=["tsuchikappa"], items={"yellow": ["earth-charm"]})
    found = events(engine, state, "yellow advance", "draw tsuchikappa", "yellow fight", "roll 3")
    assert rules(found) == ["outside", "advance", "card-power", "nullify", "combat-roll", "lose"]
    assert found[3].data["item"] == "earth-charm" and found[3].data["power"] == 3
    assert found[5].data["damage"] == 3 and found[5].data["hp"] == 17


def test_return_then_escape_tells_trophy_healing_and_item(sm: Game) -> None:
    engine, state = start(
        sm,
        round=7,
        depth={"yellow": 5},
        max_depth={"yellow": 10},
        hp={"yellow": 12},
        flag={"yellow": 10},
        trophy={"yellow": 6},
        items={"yellow": ["silver-sword", "bronze-sword"]},
    )
    found = events(engine, state, "yellow advance", "draw salamander", "yellow fight", "roll 5")
    assert rules(found) == [
        "inside",
        "advance",
        "card-power",
        "combat-roll",
        "win",
        "return-move",
        "escape",
        "trophy",
        "escape-heal",
    ]
    assert found[5].what == "win_up" and found[5].data["depth"] == 0
    assert found[7].data == {"player": "yellow", "flag": 10, "old": 6}
    found = events(engine, state, "draw potion")
    assert [(e.rule, e.what) for e in found] == [("escape-items", "item")]
    assert found[0].data == {"player": "yellow", "item": "potion", "deck": "silver"}


def test_fleeing_after_return_goes_down(sm: Game) -> None:
    engine, state = start(sm, depth={"yellow": 6}, flag={"yellow": 9}, max_depth={"yellow": 9})
    found = events(engine, state, "yellow advance", "draw orc", "yellow flee")
    assert rules(found) == ["inside", "advance", "return-move"]
    assert found[2].what == "flee_down" and found[2].data["depth"] == 10


def test_death_drops_lost_property_and_the_drawer_takes_it(sm: Game) -> None:
    engine, state = start(
        sm,
        round=8,
        depth={"yellow": 12},
        hp={"yellow": 3},
        flag={"yellow": 14},
        items={"yellow": ["bronze-sword", "earth-charm"]},
    )
    found = events(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 2")
    assert rules(found)[-4:] == ["lose", "death", "lost-property", "respawn"]
    drop = found[-2].data
    assert drop["items"] == ["bronze-sword", "earth-charm"] and drop["shuffled"] is True
    found = events(engine, state, "pink advance", "draw lost-property-yellow")
    assert rules(found) == ["outside", "lost-property-draw"]
    assert found[1].data["owner"] == "yellow" and found[1].data["again"] is True


def test_skills_and_round_end(sm: Game) -> None:
    engine, state = start(sm, round=9)
    found = events(engine, state, "yellow skill fighting-spirit")
    assert [(e.rule, e.what) for e in found] == [("skills", "skill")]
    assert found[0].data["cost"] == 8 and found[0].data["passed"] == 8
    found = events(engine, state, "yellow investigate", "draw slime", "draw goblin")
    assert rules(found) == ["investigate"] * 3
    found = events(engine, state, "pink investigate", "draw slime", "draw goblin")
    assert found[-1].rule == "turn-order" and found[-1].data == {"ended": 9, "round": 10}


def test_refusals_name_declared_clauses(sm: Game, declared: set[str]) -> None:
    engine, state = start(sm, depth={"yellow": 3})
    for text, rule in (
        ("yellow investigate", "inside"),
        ("yellow skill might", "skills"),
        ("pink advance", "turn-order"),
        ("roll 3", "combat-roll"),
        ("yellow return", "return"),
    ):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(engine.parse_action(text))
        assert caught.value.rule == rule and rule in declared


# --- every id declared, every clause shown ---------------------------------------------------


def _illegal_tries(engine: SusumukaModoruka, state: SusumukaState) -> list[Any]:
    """A few actions to try at a state, most of them illegal."""
    p = state.cur if state.cur >= 0 else 0
    other = (p + 1) % state.n
    words = ("", "might", "goblin", "smoke-ball", "silver")
    tries: list[Any] = [Roll((7,)), Roll((1, 1, 1, 1)), Draw("dragon"), First(0)]
    for who in (p, other):
        for verb in VERBS:
            for word in words:
                tries.append(Act(who, verb, (word,) if word else ()))
    return tries


def test_random_games_apply_and_refuse_only_declared_clauses(sm: Game, declared: set[str]) -> None:
    applied: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for k, options in enumerate(OPTION_SETS):
        engine = SusumukaModoruka(game_data(sm), None, options)
        with recording(count_only=True) as log:
            for seed in range(GAMES_PER_SET):
                rng = random.Random(1000 * k + seed)
                state = engine.new_initial_state()
                steps = 0
                while not state.is_terminal():
                    if steps % 97 == 0:
                        (player,) = state.current_players()
                        for action in _illegal_tries(engine, state):
                            if action in state.legal_actions(player):
                                continue
                            try:
                                state._check(player, action)
                            except IllegalActionError as exc:
                                refused[exc.rule] += 1
                    state.apply(state.sample_action(state.current_players()[0], rng))
                    steps += 1
                with pytest.raises(IllegalActionError) as over:
                    state.apply(Roll((1,)))
                refused[over.value.rule] += 1
        assert log.counts is not None
        applied.update(log.counts)
    assert set(applied) <= declared, set(applied) - declared
    assert set(refused) <= declared, set(refused) - declared
    # the random games reach the common rules
    assert {"setup", "advance", "combat-roll", "death", "escape", "game-end"} <= set(applied)


def test_every_event_has_a_phrase_in_both_languages(sm: Game) -> None:
    seen: dict[str, list[Event]] = {}
    for k, options in enumerate(OPTION_SETS):
        engine = SusumukaModoruka(game_data(sm), None, options)
        with recording() as log:
            for seed in range(8):
                state = engine.new_initial_state()
                state.play_random(random.Random(50 + 10 * k + seed))
        for event in log.items:
            kinds = seen.setdefault(event.what, [])
            if len(kinds) < 3:
                kinds.append(event)
    found = [e for kinds in seen.values() for e in kinds]
    assert missing_phrases(sm, found) == []
    for event in found:
        for lang in ("ja", "en"):
            said = sentence(sm, event, lang)
            assert said and "{" not in said, (event, lang, said)


def test_every_declared_clause_is_shown_by_an_example(sm: Game) -> None:
    results = check_game(sm)
    assert all(r.ok for r in results), [r.message for r in results if not r.ok]
    found = coverage(sm, results)
    assert not found.undeclared
    assert [c.clause.id for c in found.uncovered] == []


def test_chance_draws_name_the_card_drawn(sm: Game) -> None:
    engine, state = start(sm)
    state.apply(engine.parse_action("yellow investigate"))
    assert state.current_players() == (CHANCE,)
    found = events(engine, state, "draw kappa")
    assert found == [Event("investigate", "draw_hand", {"player": "yellow", "card": "kappa"})]
