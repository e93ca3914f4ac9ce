"""What the Susumuka & Modoruka rules say, stated as behaviour."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.engines import game_data
from printgen.examples import check_game, example_files
from printgen.model import Game, load_game
from rules_engine.core import (
    CHANCE,
    DiagramCell,
    IllegalActionError,
    NotationError,
    OptionError,
    SetupError,
    options_from,
    play_random,
)
from rules_engine.registry import engine_for
from rules_engine.susumuka_modoruka import (
    Act,
    SusumukaModoruka,
    SusumukaState,
)

from .conftest import ROOT
from .test_examples import _expect_values, _passes, _set

FOLDER = ROOT / "components" / "susumuka-modoruka"
EXAMPLES = sorted((FOLDER / "examples").glob("*.yaml"))


@pytest.fixture(scope="module")
def sm() -> Game:
    return load_game(FOLDER)


def start(
    game: Game, options: dict[str, Any] | None = None, **setup: Any
) -> tuple[SusumukaModoruka, SusumukaState]:
    """A 2-player game (unless told) where `first` (default yellow) is to act."""
    engine = SusumukaModoruka(game_data(game), None, {"players": 2, **(options or {})})
    setup.setdefault("first", "yellow")
    return engine, engine.setup_state(setup)


def do(engine: SusumukaModoruka, state: SusumukaState, *texts: str) -> None:
    for text in texts:
        state.apply(engine.parse_action(text))


def q(engine: SusumukaModoruka, state: SusumukaState, name: str) -> Any:
    return engine.query(state, name)


def legal(engine: SusumukaModoruka, state: SusumukaState) -> list[str]:
    (player,) = state.current_players()
    return [engine.format_action(a) for a in state.legal_actions(player)]


def _changed(game: Game, **rules: Any) -> Game:
    info = game.info.model_copy(update={"rules": {**game.info.rules, **rules}})
    return dataclasses.replace(game, info=info)


# --- the data -------------------------------------------------------------------------------


def test_numbers_come_from_the_data(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    assert engine.names == ("yellow", "pink", "white", "black")
    assert (engine.turns, engine.start_hp, engine.base_dice, engine.faces) == (20, 20, 1, 6)
    assert engine.investigate_draws == 2 and engine.depth_max == 39
    assert engine.threshold == {"bronze": 5, "silver": 10, "gold": 20, "platinum": 25}
    cards = [c for c in engine.dungeon if c.type != "lost_property"]
    assert sum(c.count for c in cards) == 38
    assert sum(c.count for c in cards if c.type == "trap") == 10
    tsuchikappa = engine.dungeon[engine.dungeon_index["tsuchikappa"]]
    assert [(t.depth, t.base, t.colour, t.coloured) for t in tsuchikappa.tiers] == [
        (0, 3, "brown", 4),
        (20, 5, "brown", 4),
    ]
    assert {d: sum(i.count for i in engine.deck_items[d]) for d in engine.item_decks} == {
        "bronze": 8,
        "silver": 8,
        "gold": 7,
        "platinum": 6,
    }
    assert [s.cost for s in engine.skills[0]] == [4, 4, 4, 4, 4, 8, 8, 8, 12]
    assert [c.id for c in engine.dungeon if c.type == "lost_property"] == [
        "lost-property-yellow",
        "lost-property-pink",
        "lost-property-white",
        "lost-property-black",
    ]


def test_option_defaults_are_the_readings_of_the_data(sm: Game) -> None:
    rules = sm.info.rules
    options = options_from(game_data(sm))
    defaults = {o.name: o.default for o in options}
    assert defaults["players"] == sm.info.players.best
    assert {o.name: o for o in options}["players"].allowed == tuple(
        range(sm.info.players.min, sm.info.players.max + 1)
    )
    assert defaults["winner"] == rules["winner"]["measure"]
    assert defaults["tie_break"] == "_then_".join(rules["winner"]["tie_break"])
    assert defaults["death"] == "respawn" and rules["death"]["respawn_depth"] == 0
    assert defaults["escape_heal"] == rules["escape_heal"]
    assert defaults["item_deck"] == rules["item_deck"]
    assert defaults["used_items"] == rules["item_use_once_to"]
    assert defaults["lost_property_draw_again"] == rules["lost_property_drawn"]["draw_again"]
    assert defaults["flee_timing"] == rules["flee_timing"]
    for option in options:
        assert option.explain.ja and option.explain.en
        for value in option.choices:
            assert value in option.allowed


def test_a_changed_parameter_in_the_data_changes_the_rules(sm: Game) -> None:
    game = _changed(sm, turns=3, start_hp=7, investigate_draws=3)
    engine = SusumukaModoruka(game_data(game), None, {"players": 2})
    state = engine.new_initial_state()
    state.play_random(random.Random(1))
    assert state.round == 3 and q(engine, state, "turns_passed") == 3
    engine, state = start(game)
    assert q(engine, state, "hp") == {"yellow": 7, "pink": 7}
    do(engine, state, "yellow investigate", "draw slime", "draw slime", "draw goblin")
    assert q(engine, state, "hand") == {"yellow": ["goblin", "slime", "slime"], "pink": []}
    with pytest.raises(ValueError, match="win_needs"):
        SusumukaModoruka(game_data(_changed(sm, win_needs="greater_or_equal")))


def test_options_are_named_and_checked(sm: Game) -> None:
    entry = engine_for("susumuka-modoruka")
    assert entry is not None
    assert {o.name for o in entry.options_for(game_data(sm))} == {
        "players",
        "winner",
        "tie_break",
        "death",
        "escape_heal",
        "item_deck",
        "used_items",
        "lost_property_draw_again",
        "flee_timing",
    }
    with pytest.raises(OptionError, match="must be one of"):
        entry.load(game_data(sm), None, {"players": 5})
    with pytest.raises(OptionError, match="unknown rule option"):
        entry.load(game_data(sm), None, {"tiebreak": "hp"})
    assert SusumukaModoruka(game_data(sm), None, {"players": 3}).names == (
        "yellow",
        "pink",
        "white",
    )


# --- notation -------------------------------------------------------------------------------


def test_notation_round_trips_on_every_legal_action(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    rng = random.Random(3)
    seen = 0
    for seed in range(20):
        state = engine.new_initial_state()
        rng.seed(seed)
        while not state.is_terminal() and seen < 4000:
            (player,) = state.current_players()
            actions = state.legal_actions(player)
            for action in list(actions)[:50]:
                assert engine.parse_action(engine.format_action(action)) == action
                seen += 1
            state.apply(state.sample_action(player, rng))
    assert seen >= 4000


def test_bad_notation_names_the_problem(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    for text, message in (
        ("", "empty action"),
        ("roll", "needs the dice"),
        ("roll six", "not a number"),
        ("draw", "names one card"),
        ("draw unicorn", "unknown card 'unicorn'"),
        ("green advance", "unknown player 'green'"),
        ("yellow dance", "unknown verb 'dance'"),
        ("yellow", "cannot read"),
    ):
        with pytest.raises(NotationError, match=message):
            engine.parse_action(text)


# --- combat ---------------------------------------------------------------------------------


def fight(
    game: Game, card: str, roll: str, options: dict[str, Any] | None = None, **setup: Any
) -> tuple[SusumukaModoruka, SusumukaState]:
    engine, state = start(game, options, **setup)
    do(engine, state, "yellow advance", f"draw {card}", "yellow fight", roll)
    return engine, state


def test_strictly_more_power_wins_and_a_tie_loses(sm: Game) -> None:
    engine, state = fight(sm, "giant-rat", "roll 4")  # 2 + 1 = 3
    assert q(engine, state, "result") == "win" and state.depth[0] == 2
    engine, state = fight(sm, "giant-rat", "roll 3")
    assert q(engine, state, "result") == "lose" and state.hp[0] == 17 and state.depth[0] == 0


def test_a_card_uses_its_deepest_tier_at_or_above_your_depth(sm: Game) -> None:
    for depth, tier, power in ((0, 0, 6), (9, 0, 6), (10, 10, 9), (19, 10, 9), (20, 20, 12)):
        engine, state = start(sm, depth={"yellow": depth})
        do(engine, state, "yellow advance", "draw orc", "yellow fight")
        assert (q(engine, state, "card_tier"), q(engine, state, "card_power")) == (tier, power)


def test_nullify_makes_only_the_matching_colour_zero(sm: Game) -> None:
    for items, power in (
        ([], 7),
        (["earth-charm"], 3),
        (["antidote-ring"], 7),
        (["rainbow-orb"], 3),
    ):
        engine, state = start(sm, items={"yellow": items})
        do(engine, state, "yellow advance", "draw tsuchikappa", "yellow fight")
        assert q(engine, state, "card_power") == power, items
    engine, state = start(sm, items={"yellow": ["rainbow-orb"]})
    do(engine, state, "yellow advance", "draw pit-trap", "yellow fight")  # no colour
    assert q(engine, state, "card_power") == 2 and q(engine, state, "nullified") is False


def test_power_dice_and_bonus_add_up(sm: Game) -> None:
    engine, state = start(
        sm,
        round=13,
        skills={"yellow": ["fighting-spirit", "might"]},
        items={"yellow": ["magic-wand", "golden-sword"]},
    )
    do(engine, state, "yellow advance", "draw dragon", "yellow fight")
    with pytest.raises(
        IllegalActionError, match="rule combat-roll: yellow rolls 3 dice, got 1 die"
    ):
        do(engine, state, "roll 6")
    do(engine, state, "roll 1 2 3")
    assert q(engine, state, "power") == 6 + 4 and q(engine, state, "card_power") == 12
    assert q(engine, state, "result") == "lose"


def test_armour_reduces_the_hp_lost(sm: Game) -> None:
    engine, state = fight(sm, "orc", "roll 1", items={"yellow": ["leather-armour", "steel-armour"]})
    assert q(engine, state, "damage") == 6 - 3 and state.hp[0] == 17


def test_losing_to_zero_hp_is_death_unless_revived(sm: Game) -> None:
    engine, state = fight(sm, "orc", "roll 1", hp={"yellow": 6})
    assert q(engine, state, "result") == "dead" and q(engine, state, "deaths")["yellow"] == 1
    engine, state = fight(sm, "orc", "roll 1", hp={"yellow": 7})
    assert q(engine, state, "result") == "lose" and state.hp[0] == 1
    engine, state = fight(
        sm, "orc", "roll 1", round=13, hp={"yellow": 2}, skills={"yellow": ["undying"]}
    )
    assert q(engine, state, "result") == "lose" and state.hp[0] == 1 and state.undying[0]
    engine, state = fight(
        sm, "orc", "roll 1", hp={"yellow": 2}, items={"yellow": ["phoenix-feather"]}
    )
    assert state.hp[0] == 10 and state.items[0] == []
    assert q(engine, state, "item_bottom")["platinum"] == ["phoenix-feather"]


def test_rerolls_and_one_shot_power_come_after_the_roll(sm: Game) -> None:
    engine, state = start(
        sm, round=5, skills={"yellow": ["second-look"]}, items={"yellow": ["lucky-charm", "bomb"]}
    )
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1")
    assert legal(engine, state) == [
        "yellow reroll second-look",
        "yellow use bomb",
        "yellow reroll lucky-charm",
        "yellow accept",
    ]
    do(engine, state, "yellow reroll second-look", "roll 2")
    assert "yellow reroll second-look" not in legal(engine, state)
    do(engine, state, "yellow reroll lucky-charm", "roll 3", "yellow use bomb")
    # nothing is left to choose, so the combat is decided at once: 3 + 3 = 6 is not more than 6
    assert q(engine, state, "power") == 6 and q(engine, state, "result") == "lose"
    assert q(engine, state, "item_bottom")["silver"] == ["lucky-charm"]
    assert q(engine, state, "item_bottom")["bronze"] == ["bomb"]


def test_fleeing_after_the_roll_needs_the_option(sm: Game) -> None:
    engine, state = start(sm, items={"yellow": ["bomb"]}, depth={"yellow": 6})
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1")
    with pytest.raises(IllegalActionError, match="rule flee: you flee before rolling"):
        do(engine, state, "yellow flee")
    engine, state = start(sm, {"flee_timing": "after_roll"}, depth={"yellow": 6})
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1", "yellow flee")
    assert q(engine, state, "result") == "flee" and state.depth[0] == 2 and state.hp[0] == 20


def test_a_bonus_move_item_adds_to_every_win(sm: Game) -> None:
    _, state = fight(sm, "slime", "roll 6", items={"yellow": ["abyss-key"]})
    assert state.depth[0] == 2 + 2


def test_fleet_foot_halves_a_flight(sm: Game) -> None:
    engine, state = start(sm, round=9, skills={"yellow": ["fleet-foot"]}, depth={"yellow": 10})
    do(engine, state, "yellow advance", "draw dragon", "yellow flee")  # difficulty 8
    assert state.depth[0] == 6 and q(engine, state, "moved") == -4


# --- turns, investigate and advance -----------------------------------------------------------


def test_outside_investigate_or_advance_inside_only_advance(sm: Game) -> None:
    engine, state = start(sm, depth={"pink": 4})
    assert legal(engine, state) == ["yellow investigate", "yellow advance"]
    do(engine, state, "yellow investigate", "draw slime", "draw kappa")
    assert q(engine, state, "hand") == {"yellow": ["kappa", "slime"], "pink": []}
    assert legal(engine, state) == ["pink advance"]
    with pytest.raises(
        IllegalActionError, match="rule inside: inside the dungeon you can only advance"
    ):
        do(engine, state, "pink investigate")


def test_a_scout_draws_one_more(sm: Game) -> None:
    engine, state = start(sm, round=5, skills={"yellow": ["scout"]})
    do(engine, state, "yellow investigate", "draw slime", "draw kappa", "draw orc")
    assert len(state.hand[0]) == 3 and state.cur == 1


def test_advancing_with_a_hand_card_discards_the_top_card(sm: Game) -> None:
    engine, state = start(sm, hand={"yellow": ["slime", "dragon"]}, depth={"yellow": 3})
    do(engine, state, "yellow advance", "draw oni")
    with pytest.raises(IllegalActionError, match="rule advance-hand: yellow has no kappa in hand"):
        do(engine, state, "yellow fight kappa")
    do(engine, state, "yellow fight slime")
    assert q(engine, state, "card") == "slime" and q(engine, state, "discard") == ["oni"]
    assert q(engine, state, "hand")["yellow"] == ["dragon"]
    do(engine, state, "roll 6")
    assert q(engine, state, "discard") == ["slime", "oni"] and state.depth[0] == 5


def test_return_is_declared_after_an_advance_and_reverses_moves(sm: Game) -> None:
    engine, state = fight(sm, "goblin", "roll 6", depth={"yellow": 4})
    assert legal(engine, state) == ["yellow return", "yellow stay"]
    do(engine, state, "yellow return")
    assert q(engine, state, "flag")["yellow"] == 7
    do(engine, state, "pink advance", "draw slime", "pink fight", "roll 6")
    with pytest.raises(
        IllegalActionError, match="rule turn-order: it is pink's turn, not yellow's"
    ):
        do(engine, state, "yellow return")
    do(engine, state, "pink stay", "yellow advance", "draw giant-bat", "yellow fight", "roll 6")
    assert state.depth[0] == 5 and state.cur == 1  # no second declaration: the turn ended


def test_a_flight_from_outside_stays_outside(sm: Game) -> None:
    engine, state = start(sm)
    do(engine, state, "yellow advance", "draw dragon", "yellow flee")
    assert state.depth[0] == 0 and state.cur == 1 and q(engine, state, "result") == "flee"


def test_the_game_lasts_twenty_turns_and_skills_follow_turns_passed(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm), None, {"players": 3})
    state = engine.new_initial_state()
    do(engine, state, "first white")
    assert q(engine, state, "current") == "white" and q(engine, state, "turns_passed") == 0
    assert not any(a.verb == "skill" for a in state.legal_actions(2) if isinstance(a, Act))
    rng = random.Random(5)
    turns = 0
    last = (state.round, state.cur)
    while not state.is_terminal():
        state.apply(state.sample_action(state.current_players()[0], rng))
        if (state.round, state.cur) != last and not state.is_terminal():
            turns += 1
            last = (state.round, state.cur)
            assert state.spent[state.cur] <= state.round - 1
    assert turns + 1 == 20 * 3 and state.round == 20


def test_nothing_to_draw_or_fight_means_pass(sm: Game) -> None:
    everything = [
        c.id for c in SusumukaModoruka(game_data(sm)).dungeon if c.type != "lost_property"
    ]
    every = []
    for card in SusumukaModoruka(game_data(sm)).dungeon:
        every.extend([card.id] * card.count if card.type != "lost_property" else [])
    assert len(everything) < len(every)
    engine, state = start(sm, hand={"pink": every})
    assert legal(engine, state) == ["yellow pass"]
    do(engine, state, "yellow pass")
    assert q(engine, state, "current") == "pink"
    with pytest.raises(IllegalActionError, match="rule empty-deck: pink can still act"):
        do(engine, state, "pink pass")


# --- escape ---------------------------------------------------------------------------------


def escaping(
    game: Game, flag: int, options: dict[str, Any] | None = None, **setup: Any
) -> tuple[SusumukaModoruka, SusumukaState]:
    """Yellow at depth 1 with a flag at `flag`, beating a slime: an escape."""
    engine, state = start(game, options, depth={"yellow": 1}, flag={"yellow": flag}, **setup)
    do(engine, state, "yellow advance", "draw slime", "yellow fight", "roll 6")
    return engine, state


def test_an_escape_draws_from_the_deck_the_flag_earns(sm: Game) -> None:
    for flag, deck in ((4, None), (5, "bronze"), (19, "silver"), (20, "gold"), (25, "platinum")):
        engine, state = escaping(sm, flag)
        assert q(engine, state, "escapes")["yellow"] == 1
        if deck is None:
            assert state.cur == 1 and q(engine, state, "last_escape")["deck"] is None
            continue
        assert q(engine, state, "phase") == "item"
        first = engine.deck_items[deck][0].id
        do(engine, state, f"draw {first}")
        assert q(engine, state, "last_escape") == {
            "player": "yellow",
            "flag": flag,
            "deck": deck,
            "items": [first],
        }


def test_a_shallower_flag_does_not_replace_the_trophy(sm: Game) -> None:
    engine, state = escaping(sm, 4, trophy={"yellow": 12}, hp={"yellow": 5})
    assert q(engine, state, "trophy")["yellow"] == 12 and q(engine, state, "flag")["yellow"] is None
    assert state.hp[0] == 20
    engine, state = escaping(sm, 4, {"escape_heal": "none"}, hp={"yellow": 5})
    assert q(engine, state, "trophy")["yellow"] == 4 and state.hp[0] == 5


def test_the_item_deck_may_be_chosen_by_option(sm: Game) -> None:
    engine, state = escaping(sm, 12, {"item_deck": "choose"})
    assert legal(engine, state) == ["yellow take bronze", "yellow take silver"]
    do(engine, state, "yellow take bronze", "draw bomb")
    assert q(engine, state, "items")["yellow"] == ["bomb"]
    with pytest.raises(IllegalActionError, match="no card is drawn now"):
        do(engine, state, "draw bomb")


def test_an_empty_deck_gives_the_used_items_under_it(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    bronze = [i.id for i in engine.deck_items["bronze"] for _ in range(i.count)]
    rest = [b for b in bronze if b != "bomb"]
    engine, state = start(
        sm, depth={"yellow": 1}, flag={"yellow": 6}, items={"pink": rest, "yellow": ["bomb"]}
    )
    do(engine, state, "yellow advance", "draw slime", "yellow fight", "roll 1", "yellow use bomb")
    assert q(engine, state, "result") == "win" and q(engine, state, "phase") == "item"
    assert q(engine, state, "item_bottom")["bronze"] == ["bomb"]
    assert [engine.format_action(a) for a in state.legal_actions(CHANCE)] == ["draw bomb"]
    do(engine, state, "draw bomb")
    assert state.items[0] == ["bomb"] and q(engine, state, "item_decks")["bronze"] == 0
    engine, state = start(sm, {"used_items": "removed"}, items={"yellow": ["bomb"]})
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1", "yellow use bomb")
    assert state.removed == ["bomb"] and q(engine, state, "item_decks")["bronze"] == 7


def test_a_scroll_of_return_can_escape_before_the_action(sm: Game) -> None:
    engine, state = start(
        sm, depth={"yellow": 5}, flag={"yellow": 9}, items={"yellow": ["scroll-of-return"]}
    )
    assert legal(engine, state) == ["yellow use scroll-of-return", "yellow advance"]
    do(engine, state, "yellow use scroll-of-return", "draw bomb")
    assert state.depth[0] == 0 and q(engine, state, "trophy")["yellow"] == 9
    assert legal(engine, state) == ["yellow investigate", "yellow advance"]


def test_regeneration_heals_at_the_start_of_your_turn(sm: Game) -> None:
    engine, state = start(sm, hp={"pink": 10}, items={"pink": ["philosophers-stone"]})
    do(engine, state, "yellow advance", "draw slime", "yellow flee")
    assert state.hp[1] == 13


# --- death and lost property ----------------------------------------------------------------


def test_lost_property_without_a_redraw_spends_the_draw(sm: Game) -> None:
    options = {"lost_property_draw_again": False}
    engine, state = start(sm, options, lost_property={"pink": ["bomb"]})
    do(engine, state, "yellow investigate", "draw lost-property-pink", "draw slime")
    assert q(engine, state, "hand")["yellow"] == ["slime"] and state.items[0] == ["bomb"]
    assert state.cur == 1
    engine, state = start(sm, options, lost_property={"pink": ["bomb"]})
    do(engine, state, "yellow advance", "draw lost-property-pink")
    assert state.cur == 1 and q(engine, state, "lost_property_card")["pink"] == "owner"
    engine, state = start(sm, lost_property={"pink": ["bomb"]})
    do(engine, state, "yellow investigate", "draw lost-property-pink", "draw slime")
    assert state.cur == 0 and q(engine, state, "phase") == "draw"


def test_dying_twice_adds_to_the_lost_property(sm: Game) -> None:
    engine, state = start(
        sm, lost_property={"yellow": ["bomb"]}, items={"yellow": ["potion"]}, hp={"yellow": 2}
    )
    deck = state.pile_n
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1")
    assert q(engine, state, "lost_property")["yellow"] == ["bomb", "potion"]
    assert state.pile_n == deck - 1  # the card was already in the deck


def test_a_death_discards_the_hand(sm: Game) -> None:
    engine, state = start(sm, hand={"yellow": ["kappa"]}, hp={"yellow": 1})
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1")
    assert q(engine, state, "discard") == ["kappa", "orc"] and state.hand[0] == []


def test_everyone_out_ends_the_game(sm: Game) -> None:
    engine, state = start(sm, {"death": "out"}, hp={"yellow": 1, "pink": 1}, trophy={"pink": 5})
    do(engine, state, "yellow advance", "draw orc", "yellow fight", "roll 1")
    do(engine, state, "pink advance", "draw stone-golem", "pink fight", "roll 1")
    assert state.is_terminal() and q(engine, state, "winners") == ["pink"]
    assert state.returns() == (-1.0, 1.0)


# --- skills ---------------------------------------------------------------------------------


def test_skill_limits(sm: Game) -> None:
    engine, state = start(sm, round=20, skills={"yellow": ["might", "might", "might"]})
    with pytest.raises(IllegalActionError, match="rule skills: might can be taken 3 times at most"):
        do(engine, state, "yellow skill might")
    with pytest.raises(SetupError, match="more than the 4 turns passed"):
        start(sm, round=5, skills={"yellow": ["might", "toughness"]})


# --- information ------------------------------------------------------------------------------


def test_a_view_hides_the_other_hands_only(sm: Game) -> None:
    engine, state = start(sm)
    do(engine, state, "yellow investigate", "draw slime", "draw kappa")
    other = start(sm)[1]
    do(engine, other, "yellow investigate", "draw orc", "draw kappa")
    assert state.view(1) == other.view(1)
    assert state.view(0) != other.view(0)
    assert "draw ?" in state.player_view(1).log and "draw slime" in state.player_view(0).log
    do(engine, state, "pink advance", "draw goblin")
    do(engine, other, "pink advance", "draw oni")
    assert state.view(1) != other.view(1)


def test_setup_errors_point_at_their_key(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm), None, {"players": 2})
    for setup, key in (
        ({"first": "green"}, ("first",)),
        ({"colour": 1}, ("colour",)),
        ({"first": "yellow", "flag": {"yellow": 3}}, ("flag", "yellow")),
        ({"first": "yellow", "items": {"yellow": ["bomb", "bomb"]}}, ("items", "yellow")),
        ({"first": "yellow", "deck": ["slime"], "discard": ["orc"]}, ("deck",)),
    ):
        with pytest.raises(SetupError) as info:
            engine.setup_state(setup)
        assert info.value.key == key


def test_a_diagram_shows_the_track_the_cards_and_the_combat(sm: Game) -> None:
    engine, state = start(sm, items={"yellow": ["earth-charm"]})
    _track, cards = engine.diagram(state)
    # the cards held, as pictures (at the start, and when they change)
    assert cards.rows == (({"ja": "黄", "en": "Yellow"}, (DiagramCell(piece="earth-charm"),)),)
    do(engine, state, "yellow advance", "draw tsuchikappa", "yellow fight", "roll 5")
    track, combat = engine.diagram(state)
    # the track: depths 0 to 5 and the HP; Yellow's pawn moved 0 -> 5 (an arrow)
    assert track.columns == ("0", "1", "2", "3", "4", "5", "HP")
    assert [c.text for c in track.rows[0][1]] == ["", "", "", "", "", "●", "20"]
    assert track.rows[0][0] == {"ja": "黄", "en": "Yellow"}
    assert track.title == {"ja": "1ターン目・黄の手番", "en": "Turn 1, Yellow's turn"}
    (arrow,) = track.arrows
    assert (arrow.start, arrow.end, arrow.kind) == ((0, 0), (0, 5), "move")
    # the combat in one row: the card's picture, 3 + 4 with the brown 4 struck out (= 3),
    # less than Yellow's die of 5 (= 5): she wins
    ((_label, cells),) = combat.rows
    assert cells[0].piece == "tsuchikappa"
    assert [(c.die, c.text, c.mark) for c in cells[1:]] == [
        (0, "3", ""),
        (0, "+4", "sunk"),
        (0, "=3", ""),
        (0, "<", ""),
        (5, "", ""),
        (0, "=5", "active"),
    ]
    assert combat.title == {
        "ja": "戦闘：つちかっぱ（0+の行）と黄",
        "en": "Combat: Tsuchikappa (row 0+) vs Yellow",
    }


def test_the_generic_driver_plays_whole_games(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    state = engine.new_initial_state()
    steps = play_random(state, random.Random(11))
    assert state.is_terminal() and steps == len(state.history)


# --- worked examples --------------------------------------------------------------------------


def test_every_example_replays(sm: Game) -> None:
    results = check_game(sm)
    assert [r.file for r in results] == example_files(sm)
    assert len(results) >= 4
    assert [r.line() for r in results if not r.ok] == []
    for result in results:
        assert all(step.say.ja and step.say.en for step in result.steps)
        assert all(step.diagram for step in result.steps)


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_changing_any_expected_value_makes_the_check_fail(
    sm: Game, source: Path, tmp_path: Path
) -> None:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    copy = tmp_path / source.name
    copy.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert _passes(sm, copy), "the unchanged example must pass"
    paths = [p for p, _ in _expect_values(data)]
    assert paths, f"{source.name} expects nothing"
    survivors = []
    for path in paths:
        changed = yaml.safe_load(source.read_text(encoding="utf-8"))
        _set(changed, path)
        copy.write_text(yaml.safe_dump(changed, allow_unicode=True), encoding="utf-8")
        if _passes(sm, copy):
            survivors.append(path)
    assert survivors == [], f"changing these expected values went unnoticed: {survivors}"
