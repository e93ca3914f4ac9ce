"""A thousand seeded random games of SQUARES II under each option set.

Each game must end without an exception; every tile must always be in its owner's hand or
on the board, once; the kept row totals must match the board; for a sample of the seeds,
the generic protocol driver (checked actions) must play the same game as the engine's fast
one, the notation must round-trip, replaying the history must give an equal state, and a
player's view must not change when the backs hidden from that player change.

The default option set has no turn limit: uniform random play ends by itself (leaps back
to the camp make games long, about 900 actions, but a player always gets three centre
squares in the end).  The other set takes every other reading at once, plays matches of
three games, and adds the simulation-only `turn_limit` to keep the test quick.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game, load_game
from rules_engine.core import format_step, parse_step, play_random, replay
from rules_engine.squares2 import OVER, Face, Squares2, Squares2State

from .conftest import ROOT

GAMES = 1000
SAMPLE = 25  # every 25th seed: generic driver, notation, replay and views
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {
        "place_limit": "exceed",
        "move_limit": "reach",
        "ability_move_limit": "as_move",
        "battle_entry_limit": "checked",
        "forward": "board_up",
        "tsunami_target": "own",
        "owner_sees_board_backs": True,
        "games": 3,
        "turn_limit": 100,
    },
)


@pytest.fixture(scope="module")
def sq() -> Game:
    return load_game(ROOT / "components" / "squares2")


def _conserved(engine: Squares2, state: Squares2State) -> None:
    for p in range(2):
        on_board = [c & 127 for c in state.cell if c >= 0 and c >> 7 == p]
        tiles = [f >> 1 for f in on_board] + state.hand_tiles(p)
        assert sorted(tiles) == list(range(engine.tiles_per_set))
    assert state.tot == state.printed_totals()


def _hide_backs(state: Squares2State, viewer: int, rng: random.Random) -> Squares2State:
    """The state with every back `viewer` cannot see replaced by another face."""
    g = state.g
    variant = state.clone()
    sets = [list(t) for t in state.sets]
    hidden: list[tuple[int, int]] = []
    for c in state.cell:
        if c >= 0 and not (c >> 7 == viewer and g.owner_sees_backs):
            hidden.append((c >> 7, (c & 127) >> 1))
    hidden += [(1 - viewer, t) for t in state.hand_tiles(1 - viewer)]
    abilities = list(g.abilities)
    for p, t in hidden:
        tile = sets[p][t]
        up = 0
        for c in state.cell:
            if c >= 0 and c >> 7 == p and (c & 127) >> 1 == t:
                up = c & 1
        back = Face(rng.choice(abilities), rng.randint(g.value_min, g.value_max))
        sets[p][t] = (
            type(tile)(tile.id, tile.front, back)
            if up == 0
            else type(tile)(tile.id, back, tile.back)
        )
    variant.sets = tuple(tuple(t) for t in sets)
    return variant


@pytest.mark.parametrize(
    "options",
    OPTION_SETS,
    ids=["default", "other-readings-three-games"],
)
def test_random_games(sq: Game, options: dict[str, Any]) -> None:
    engine = Squares2(game_data(sq), options=options)
    ends: set[str | None] = set()
    changed_hidden = 0
    for seed in range(GAMES):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        assert state.phase == OVER and state.is_terminal()
        _conserved(engine, state)
        winner = engine.query(state, "winner")
        ends.add(winner)
        if winner != "draw" and engine.games == 1:
            # The last check saw three centre squares, and no row over the limit.
            assert engine.query(state, "centre")[winner] >= engine.win_squares
            assert engine.query(state, "over_limit") == {"orange": [], "purple": []}
        if seed % SAMPLE:
            continue
        history = list(state.history)
        assert [parse_step(engine, format_step(engine, s)) for s in history] == history

        # Same seed, generic protocol driver (checked actions): the same game.
        generic = engine.new_initial_state()
        play_random(generic, random.Random(seed))
        assert list(generic.history) == history
        assert generic == state

        # Replaying the history gives an equal state; views hide what they should.
        rng = random.Random(seed + 7)
        cut = rng.randrange(len(history))
        again = state.initial()
        for i, step in enumerate(history):
            again.apply(step)
            _conserved(engine, again)
            if i == cut and not again.is_terminal():
                viewer = rng.randrange(2)
                variant = _hide_backs(again, viewer, rng)
                assert variant.view(viewer) == again.view(viewer)
                if variant != again:
                    changed_hidden += 1
        assert again == state
        assert replay(state.initial(), history) == state
    assert changed_hidden > GAMES // SAMPLE // 2
    if options.get("turn_limit"):
        assert "draw" in ends
    assert {"orange", "purple"} <= ends


def test_random_games_depend_on_the_seed(sq: Game) -> None:
    engine = Squares2(game_data(sq), options={"turn_limit": 100})
    histories = set()
    for seed in range(20):
        state = engine.new_initial_state()
        state.play_random(random.Random(seed))
        histories.add(tuple(state.history))
    assert len(histories) == 20
