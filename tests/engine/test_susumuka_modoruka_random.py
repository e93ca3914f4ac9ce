"""Thousands of seeded random games of Susumuka & Modoruka under every option set.

Each game must end without an exception after its 20 turns; the same seed must give the
same history (with both the generic driver and the engine's fast one); replaying the
history must give an equal state; a player's view must not change when a card hidden from
that player (another player's investigated card) changes; and every dungeon and item card
must always be somewhere.  The state's own `playout` (a search player's playout,
`kernel.py`) must play the games of the protocol's loop.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game, load_game
from rules_engine.core import (
    IllegalActionError,
    format_step,
    generic_playout,
    parse_step,
    play_random,
    playout_picks,
    recording,
)
from rules_engine.susumuka_modoruka import (
    Action,
    Draw,
    SusumukaModoruka,
    SusumukaState,
)

from .conftest import ROOT
from .shortcuts import check_playout

GAMES = 1000
CHECKED = 10  # every CHECKED-th game is also played by the generic driver and replayed
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"players": 2, "winner": "current_depth", "tie_break": "hp", "death": "out"},
    {
        "players": 3,
        "winner": "max_depth",
        "tie_break": "shared",
        "escape_heal": "none",
        "item_deck": "choose",
    },
    {"used_items": "removed", "lost_property_draw_again": False, "flee_timing": "after_roll"},
)


@pytest.fixture(scope="module")
def sm() -> Game:
    return load_game(ROOT / "components" / "susumuka-modoruka")


def _full(engine: SusumukaModoruka) -> tuple[dict[str, int], dict[str, int]]:
    dungeon = {c.id: c.count for c in engine.dungeon}
    items = {i.id: i.count for i in engine.items.values()}
    return dungeon, items


def _conserved(engine: SusumukaModoruka, state: SusumukaState) -> None:
    dungeon, items = state.zones()
    full_dungeon, full_items = _full(engine)
    assert {k: v for k, v in dungeon.items() if v} == full_dungeon
    assert {k: v for k, v in items.items() if v} == full_items
    assert state.pile_n == sum(state.pile) and state.discard_n == sum(state.discard)
    for p in range(state.num_players):
        assert 0 <= state.depth[p] <= engine.depth_max
        assert state.hp[p] <= state.max_hp(p)
        assert state.out[p] or state.hp[p] > engine.death_at
        assert state.spent[p] <= state.turns_passed()


def _hidden_variant(
    engine: SusumukaModoruka,
    cut: SusumukaState,
    history: list[Any],
    k: int,
    rng: random.Random,
) -> SusumukaState | None:
    """The history up to `k` with its last step (a card drawn into a hand) replaced by
    another card of the deck; None if no other card fits."""
    drawn = history[k - 1]
    assert isinstance(drawn, Draw)
    others = [
        c.id
        for i, c in enumerate(engine.dungeon)
        if cut.pile[i] and c.id != drawn.card and c.type != "lost_property"
    ]
    rng.shuffle(others)
    for other in others:
        variant = cut.initial()
        try:
            for step in [*history[: k - 1], Draw(other)]:
                variant.apply(step)
        except IllegalActionError:
            continue
        return variant
    return None


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=["-".join(map(str, o.values())) or "default" for o in OPTION_SETS]
)
def test_random_games(sm: Game, options: dict[str, Any]) -> None:
    engine = SusumukaModoruka(game_data(sm), None, options)
    hidden_checked = 0
    endings: set[str] = set()
    for seed in range(GAMES):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        assert state.round == engine.turns or all(state.out)
        keys = [state.rank_key(p) for p in range(state.num_players)]
        assert {p for p in range(state.num_players) if keys[p] == max(keys)} == set(state.winners)
        assert sum(state.returns()) <= 1.0
        _conserved(engine, state)
        endings.add("shared" if len(state.winners) > 1 else "single")
        if seed % CHECKED:
            continue
        history: list[Action] = list(state.history)  # type: ignore[arg-type]
        assert [parse_step(engine, format_step(engine, s)) for s in history] == history

        # Same seed, generic protocol driver (checked actions): the same history.
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed))
        assert list(generic.history) == history
        assert generic == state

        # Replaying the history gives an equal state; remember where a card went into a hand.
        again = state.initial()
        cuts: list[tuple[int, SusumukaState]] = []
        for i, step in enumerate(history):
            again.apply(step)
            if again._seen_by[-1] >= 0:
                cuts.append((i + 1, again.clone()))
            if seed % (CHECKED * 5) == 0:
                _conserved(engine, again)
        assert again == state
        if not cuts:
            continue

        # A view does not change when a card another player drew into their hand changes.
        rng = random.Random(seed + 1_000_003)
        k, cut = cuts[rng.randrange(len(cuts))]
        drawer = cut._seen_by[-1]
        viewer = rng.choice([p for p in range(cut.num_players) if p != drawer])
        variant = _hidden_variant(engine, cut, history, k, rng)
        if variant is None:
            continue
        assert variant != cut
        assert variant.view(viewer) == cut.view(viewer)
        assert variant.view(drawer) != cut.view(drawer)
        hidden_checked += 1
    assert hidden_checked > GAMES // CHECKED // 2
    assert "single" in endings


def test_random_games_depend_on_the_seed(sm: Game) -> None:
    engine = SusumukaModoruka(game_data(sm))
    histories = set()
    for seed in range(20):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        histories.add(tuple(state.history))
    assert len(histories) == 20


def test_random_play_reaches_every_part_of_the_rules(sm: Game) -> None:
    """Random games do escape (with an item), die and pick up lost property."""
    engine = SusumukaModoruka(game_data(sm))
    escapes = deaths = pickups = 0
    deepest = 0
    for seed in range(200):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        escapes += sum(state.escapes)
        deaths += sum(state.deaths)
        pickups += state.last_pickup is not None
        deepest = max(deepest, *state.trophy)
    assert escapes > 20 and deaths > 100 and pickups > 10 and deepest >= 5


ITEMS = {
    "yellow": ["scroll-of-return", "phoenix-feather", "lucky-charm", "bomb", "smoke-ball"],
    "pink": ["magic-wand", "rainbow-orb", "philosophers-stone", "abyss-key", "healing-herb"],
    "white": ["thunder-scroll", "elixir", "steel-armour", "holy-rosary", "potion"],
    "black": ["legendary-sword", "dragon-scale-armour", "fireproof-cloak", "earth-charm"],
}
# Players holding every item, deep in the dungeon with flags planted.
DEEP_WITH_ITEMS = {
    "first": "yellow",
    "items": ITEMS,
    "depth": {"yellow": 8, "pink": 22, "white": 12, "black": 30},
    "flag": {"yellow": 10, "pink": 25, "white": 20, "black": 30},
}


@pytest.mark.parametrize("options", OPTION_SETS[:1] + OPTION_SETS[3:], ids=["default", "other"])
def test_random_games_with_every_item_in_play(sm: Game, options: dict[str, Any]) -> None:
    """Every item effect (climb, revive, reroll, power, safe flee, regen...) in random play,
    from a start where the players hold them, deep in the dungeon with flags planted."""
    engine = SusumukaModoruka(game_data(sm), None, options)
    start = engine.setup_state(DEEP_WITH_ITEMS)
    for seed in range(200):
        state = start.clone()
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        _conserved(engine, state)
        if seed % 20 == 0:
            again = state.initial()
            for step in state.history:
                again.apply(step)  # type: ignore[arg-type]
            assert again == state


# The option sets above and more, so that the playout meets every option with 2, 3 and 4
# players, and options together (players out with fleeing after the roll, a deck chosen
# with items removed...).
PLAYOUT_OPTION_SETS: tuple[dict[str, Any], ...] = (
    *OPTION_SETS,
    {"players": 2, "death": "out", "escape_heal": "none", "item_deck": "choose"},
    {
        "players": 3,
        "used_items": "removed",
        "lost_property_draw_again": False,
        "flee_timing": "after_roll",
        "winner": "current_depth",
    },
    {
        "players": 4,
        "death": "out",
        "flee_timing": "after_roll",
        "item_deck": "choose",
        "tie_break": "shared",
        "winner": "max_depth",
    },
)


@pytest.mark.parametrize(
    "options",
    PLAYOUT_OPTION_SETS,
    ids=["-".join(map(str, o.values())) or "default" for o in PLAYOUT_OPTION_SETS],
)
def test_the_playout_plays_the_protocols_games(sm: Game, options: dict[str, Any]) -> None:
    """The state's own `playout` (`kernel.playout`) plays the game of the protocol's loop
    (`generic_playout`): whole games, and games cut short by `max_steps` at any step."""
    engine = SusumukaModoruka(game_data(sm), None, options)
    check_playout(engine, range(300))
    for max_steps in (0, 1, 2, 3, 5, 8, 13, 30, 70, 150, 250):
        check_playout(engine, range(300, 320), max_steps)


class _FloatsOnly(random.Random):
    """A generator of its own `random()`: Python then draws `rng.choice`'s index from it
    (`_randbelow_without_getrandbits`), not from `getrandbits`."""

    def random(self) -> float:
        return super().random()


def _same_playout(
    start: SusumukaState,
    seed: int,
    max_steps: int = 100_000,
    kind: type[random.Random] = random.Random,
) -> None:
    """From `start`, the state's own `playout` and the protocol's loop play the same game
    with generators of `kind` seeded alike, and leave them in the same place."""
    fast, slow = start.clone(), start.clone()
    fast_rng, slow_rng = kind(seed), kind(seed)
    made = fast.playout(fast_rng, max_steps)
    assert made == generic_playout(slow, slow_rng, max_steps), f"seed {seed}"
    assert fast == slow, f"seed {seed}: another game than the protocol's loop plays"
    assert fast_rng.random() == slow_rng.random(), f"seed {seed}: other draws"


@pytest.mark.parametrize("options", [{}, PLAYOUT_OPTION_SETS[-1]], ids=["default", "other"])
def test_the_playout_plays_on_from_any_position(sm: Game, options: dict[str, Any]) -> None:
    """From a position after any step of a game (a turn begun, a card drawn, a combat
    chosen, dice rolled, Return declared...), and from a start where the players hold every
    item deep in the dungeon with flags planted, `playout` plays what `generic_playout`
    plays."""
    engine = SusumukaModoruka(game_data(sm), None, options)
    for seed in range(20):
        state = engine.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            _same_playout(state, seed + 1000, 40)
            state.apply(playout_picks(state, rng)[0])
    start = engine.setup_state(DEEP_WITH_ITEMS)
    for seed in range(200):
        _same_playout(start, seed)


def test_the_playout_tells_the_rules_events(sm: Game) -> None:
    """With the event log on, the playout plays the game of the protocol's loop and tells
    the same events (it goes the protocol's way, which tells every rule)."""
    engine = SusumukaModoruka(game_data(sm))
    for seed in range(5):
        fast, slow = engine.new_initial_state(), engine.new_initial_state()
        with recording() as fast_log:
            made = fast.playout(random.Random(seed))
        with recording() as slow_log:
            assert made == generic_playout(slow, random.Random(seed))
        assert fast == slow
        assert fast_log.items == slow_log.items


def test_the_playout_draws_as_any_generator_does(sm: Game) -> None:
    """A generator whose `rng.choice` draws its index another way than `getrandbits`."""
    engine = SusumukaModoruka(game_data(sm))
    for seed in range(50):
        _same_playout(engine.new_initial_state(), seed, kind=_FloatsOnly)


def test_the_playout_plays_other_hand_rules(sm: Game) -> None:
    """Rule parameters the game's data may state otherwise: a hand limit (investigating
    draws only up to it, and not at all with a full hand) and advancing without the choice
    of a card from the hand."""
    for limit, may_use_hand in ((3, True), (1, False), (None, False)):
        engine = SusumukaModoruka(game_data(sm))
        engine.hand_limit = limit
        engine.may_use_hand = may_use_hand
        check_playout(engine, range(100))
