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
from rules_engine.core import format_step, generic_playout, parse_step, play_random, replay
from rules_engine.squares2 import (
    OVER,
    RETURN,
    TURN,
    Face,
    Squares2,
    Squares2State,
    tile_specs_of_deck,
)

from .conftest import ROOT
from .shortcuts import check_playout

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


# --- the search player's playout -------------------------------------------------------------

# Rule variants the kernel plays its own way: tiles of other sets (rule 7), some showing one
# face twice; abilities of other distances, a Tsunami and a Diagonal that look at the
# squares between; and a continuous ability (the protocol's loop plays those).
VARIANTS: dict[str, dict[str, Any]] = {
    "own-sets": {},
    "repeated-face": {"tile": {"front": {"ability": "spin", "value": 3}, "back": {"ability": "diagonal", "value": 3}}},
    "short-tsunami": {"abilities": {"tsunami": {"distance": 1}}},
    "far-abilities": {
        "abilities": {"tsunami": {"distance": 3, "jumps": False}, "diagonal": {"distance": 2}}
    },
    "continuous": {
        "tile": {"front": {"ability": "spin", "value": 3}, "back": {"ability": "swell", "value": 3}},
        "abilities": {
            "swell": {"code": "W", "kind": "continuous", "effect": "value-bonus", "scope": "board"}
        },
    },
}  # fmt: skip


def _variant(sq: Game, name: str, options: dict[str, Any]) -> Squares2:
    """The engine under `options` with the variant's tiles and abilities."""
    variant = VARIANTS[name]
    data = game_data(sq)
    abilities = {
        ability: {**sq.info.rules["abilities"].get(ability, {}), **spec}
        for ability, spec in variant.get("abilities", {}).items()
    }
    sets = None
    if "tile" in variant:
        orange = tile_specs_of_deck(data, "orange")
        orange[2] = {"id": "other-set", **variant["tile"]}  # instead of Spin 3 / Leap 3
        sets = {"orange": orange, "purple": tile_specs_of_deck(data, "purple")}
    return Squares2(data, options=options, sets=sets, abilities=abilities)


PLAYOUT_CASES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("own-sets", OPTION_SETS[0], 60),
    ("own-sets", OPTION_SETS[1], 60),
    ("own-sets", {"place_limit": "exceed"}, 15),
    ("own-sets", {"move_limit": "reach"}, 15),
    ("own-sets", {"ability_move_limit": "as_move"}, 15),
    ("own-sets", {"battle_entry_limit": "checked"}, 15),
    ("own-sets", {"forward": "board_up"}, 15),
    ("own-sets", {"tsunami_target": "own"}, 15),
    ("own-sets", {"games": 5, "turn_limit": 200}, 10),
    ("repeated-face", {}, 15),
    ("short-tsunami", {"ability_move_limit": "as_move", "battle_entry_limit": "checked"}, 15),
    ("far-abilities", {}, 15),
    ("far-abilities", {"ability_move_limit": "as_move", "forward": "board_up"}, 15),
    ("continuous", {"turn_limit": 100}, 5),
)


@pytest.mark.parametrize(
    ("variant", "options", "games"),
    PLAYOUT_CASES,
    ids=[
        f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
        for v, o, _ in PLAYOUT_CASES
    ],
)
def test_the_playout_plays_the_protocols_game(
    sq: Game, variant: str, options: dict[str, Any], games: int
) -> None:
    """The state's own `playout` (`playouts.playout`) plays the game of the protocol's
    loop: whole games, and games cut short by `max_steps` (the first player's draw, a
    turn, a return, a later game of a match)."""
    engine = _variant(sq, variant, options)
    check_playout(engine, range(games))
    for max_steps in (0, 1, 2, 5, 40, 333):
        check_playout(engine, range(100, 103), max_steps)


class _DrawsByRandom(random.Random):
    """A generator whose `choice` draws without `getrandbits` (`random()` overridden)."""

    def random(self) -> float:
        return super().random()


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "other-readings-three-games"])
def test_the_playout_plays_on_from_any_position(sq: Game, options: dict[str, Any]) -> None:
    """From a position after any step of a game (a turn, a return, a new game of a
    match, the end), from positions where a player must pass, and from positions the kernel
    leaves to the protocol's loop (on a turn, a row over the limit or the centre held: made
    by hand, a setup refuses them), `playout` plays on as the protocol's loop, with any
    generator."""
    engine = Squares2(game_data(sq), options=options)
    starts: list[Squares2State] = []
    for seed in range(6):
        state = engine.new_initial_state()
        rng = random.Random(seed)
        cuts = set(random.Random(seed + 50).sample(range(150), 12))
        for step in range(150):
            if state.is_terminal():
                break
            if step in cuts or state.phase == RETURN:
                starts.append(state.clone())
            generic_playout(state, rng, 1)
        if seed == 0:
            generic_playout(state, rng)
            starts.append(state)  # over
    assert any(s.phase == RETURN for s in starts)
    for emptied in ((0,), (0, 1)):  # orange passes; then purple too: nobody can act
        made = engine.setup_state({"to_move": "orange"})
        for p in emptied:
            made.hand[p] = 0
        starts.append(made)
    for board, square, face in (
        ({"a1": "orange T5", "b1": "orange S3"}, "b1", "orange S4"),  # row 1: 5 + 4
        ({"a3": "purple S1", "c3": "purple T2"}, "e3", "purple D3"),  # three centre squares
    ):
        made = engine.setup_state({"to_move": "orange", "board": board})
        owner, token = face.split()
        p = engine.player_index(owner)
        made.cell[engine.square_index(square)] = p << 7 | engine.face_index(p, token)
        made._retotal()
        starts.append(made)
    assert all(s.phase == TURN for s in starts[-2:])
    for i, start in enumerate(starts):
        for max_steps in (3, 100_000):
            fast, slow = start.clone(), start.clone()
            kind = _DrawsByRandom if i % 3 == 0 else random.Random
            fast_rng, slow_rng = kind(i), kind(i)
            assert fast.playout(fast_rng, max_steps) == generic_playout(slow, slow_rng, max_steps)
            assert fast == slow, f"start {i}"
            assert fast.tot == slow.tot and fast_rng.random() == slow_rng.random()
