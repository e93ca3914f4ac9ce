"""KILL SHOT for the balance lab: resampling what a player cannot see, a game's outcome, the
evaluation of a position, and the rule-of-thumb player."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from printgen.engines import game_data
from printgen.model import load_game
from rules_engine.bots import InfoSet, RandomBot, play
from rules_engine.core import CHANCE, JointAction, random_step
from rules_engine.kill_shot import (
    Draw,
    Go,
    KillShot,
    KillShotState,
    Play,
    React,
    Reload,
)
from rules_engine.kill_shot.bots import Heuristic

ROOT = Path(__file__).resolve().parents[2]
TYPES = ("real-time", "tactical-engagement", "situation-room")


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return game_data(load_game(ROOT / "components" / "kill-shot"))


def engine(data, game_type: str, players: int = 2, **options: object) -> KillShot:  # type: ignore[no-untyped-def]
    return KillShot(data, None, {"game_type": game_type, "players": players, **options})


def positions(e: KillShot, seed: int, every: int = 37, limit: int = 900) -> list[KillShotState]:
    """Positions along a random game, every `every` steps."""
    s = e.new_initial_state()
    rng = random.Random(seed)
    out = []
    for i in range(limit):
        if s.is_terminal():
            break
        if i % every == every - 1:
            out.append(s.clone())
        random_step(s, rng)
    return out


@pytest.mark.parametrize("game_type", TYPES)
@pytest.mark.parametrize("options", [{}, {"night_mission": True}, {"deadline": True}])
def test_resample_keeps_the_view_and_the_start(data, game_type, options) -> None:  # type: ignore[no-untyped-def]
    e = engine(data, game_type, 3, **options)
    for s in positions(e, 5):
        for p in range(e.num_players):
            r = s.resample(p, random.Random(p))
            assert r.view(p) == s.view(p)
            assert r.current_players() == s.current_players()
            assert r.initial() == s.initial()
            assert r is not s and s.view(p) == s.view(p)


def test_resample_draws_the_hidden_cards_anew(data) -> None:  # type: ignore[no-untyped-def]
    e = engine(data, "real-time")
    s = positions(e, 2)[3]
    hands = {tuple(s.resample(0, random.Random(i)).hands[1]) for i in range(20)}
    assert len(hands) > 10
    assert all(
        tuple(s.resample(0, random.Random(i)).hands[0]) == tuple(s.hands[0]) for i in range(3)
    )


@pytest.mark.parametrize("game_type", TYPES)
def test_resample_depends_only_on_the_view(data, game_type) -> None:  # type: ignore[no-untyped-def]
    """Two states player 0 cannot tell apart (another world drawn for them, which differs in
    the other hands, the decks and the hidden history) resample alike, at positions across a
    game (Situation Room: its turns are simultaneous steps)."""
    e = engine(data, game_type, 3)
    for s in positions(e, 11):
        other = s.resample(0, random.Random(99))
        assert other.view(0) == s.view(0)
        if any(s.hands[q] for q in (1, 2)):
            assert other != s
        for seed in range(3):
            assert s.resample(0, random.Random(seed)) == other.resample(0, random.Random(seed))


def test_resample_ignores_another_deal(data) -> None:  # type: ignore[no-untyped-def]
    """The same game but for bravo's first hand: alpha's resamples are equal, before and after
    "go!" (with the same reaction times) and in a Situation Room turn."""
    for game_type in ("real-time", "situation-room"):
        e = engine(data, game_type)
        a = e.new_initial_state()
        rng = random.Random(3)
        while not (a.history and isinstance(a.history[-1], Draw) and a.history[-1].player == 1):
            random_step(a, rng)
        first = a.history[-1]
        assert isinstance(first, Draw)
        left = sorted(a.decks[0] + list(first.cards))
        for c in first.cards:
            left.remove(c)
        other = tuple(reversed(left[: len(first.cards)]))
        b = a.initial()
        for step in a.history[:-1]:
            b.apply(step)  # type: ignore[arg-type]
        b.apply(Draw(1, other))
        assert a.view(0) == b.view(0) and a != b
        for _ in range(3):
            assert a.resample(0, random.Random(7)) == b.resample(0, random.Random(7))
            if a.current_players() == (CHANCE,):
                step = a.sample_action(CHANCE, rng)
                a.apply(step)
                b.apply(step)


def test_resampled_history_shows_nothing_hidden(data) -> None:  # type: ignore[no-untyped-def]
    """The resampled history gives the player's log but holds no hidden card or time: other
    players' draws are placeholders, their reloads empty, times the shortest."""
    e = engine(data, "real-time")
    s = positions(e, 4)[-1]
    r = s.resample(0, random.Random(1))
    quick = e.law.min
    steps = [a for step in r.history for a in (step if isinstance(step, JointAction) else [step])]
    for a in steps:
        if isinstance(a, Draw) and a.player != 0:
            assert list(a.cards) == sorted(e.pool_cards[0])[: len(a.cards)]
        if isinstance(a, Reload) and a.player != 0:
            assert a.cards == () and a.slots == ()
        if isinstance(a, Go | React):
            assert set(a.delays) == {quick}
    assert len(r.history) == len(s.history)


def test_resample_is_fast(data) -> None:  # type: ignore[no-untyped-def]
    import time

    e = engine(data, "real-time", 4)
    s = positions(e, 1)[-1]
    s.resample(0, random.Random(0))
    start = time.perf_counter()
    for i in range(200):
        s.resample(0, random.Random(i))
    assert (time.perf_counter() - start) / 200 < 0.002  # measured about 0.1 ms


def finished(e: KillShot, seed: int) -> KillShotState:
    s = e.new_initial_state()
    s.play_random(random.Random(seed))
    return s


@pytest.mark.parametrize("game_type", TYPES)
def test_outcome_of_a_seeded_game(data, game_type) -> None:  # type: ignore[no-untyped-def]
    e = engine(data, game_type)
    s = finished(e, 8)
    o = e.outcome(s)
    assert o.rounds == 10 == len(s.results)
    for p in range(2):
        assert o.scores[p] == sum(e.terrorists[t].points for t in s.captured[p])
    assert o.measures["escaped_share"] == sum(r.winner < 0 for r in s.results) / 10
    actions = [a for step in s.history for a in (step if isinstance(step, JointAction) else [step])]
    reloads = [sum(isinstance(a, Reload) and a.player == p for a in actions) for p in range(2)]
    if game_type == "situation-room":
        firsts = [a.player for a in s.history if type(a).__name__ == "First"]
        assert o.first == firsts[0]
        assert o.turns == sum(isinstance(a, JointAction) for a in s.history)
        assert o.measures["turns_per_hunt"] == o.turns / 10
    else:
        assert o.first == 0 and o.turns == 0
        assert [o.played[p].get("Reload", 0) for p in range(2)] == reloads
        plays = [sum(isinstance(a, Play) and a.player == p for a in actions) for p in range(2)]
        cards = [
            sum(v for k, v in o.played[p].items() if k not in ("Reload", "clearing drill"))
            for p in range(2)
        ]
        assert cards == plays
    kill_shots = sum(r.how == "kill-shot" for r in s.results)
    assert sum(o.played[p].get("9 (Kill Shot)", 0) for p in range(2)) >= kill_shots


@pytest.mark.parametrize("game_type", TYPES)
def test_evaluate_is_in_range(data, game_type) -> None:  # type: ignore[no-untyped-def]
    e = engine(data, game_type, 3)
    for s in positions(e, 6, every=53):
        v = e.evaluate(s)
        assert len(v) == 3 and all(-1.0 <= x <= 1.0 for x in v)
        leader = max(range(3), key=lambda p: s.scores[p])
        if sorted(s.scores)[-2] < s.scores[leader]:
            assert v[leader] > 0


def win_share(e: KillShot, games: int) -> float:
    """The heuristic's share of wins against random players, seats rotated."""
    n = e.num_players
    h, r = Heuristic(e), RandomBot(e)
    won = 0.0
    for i in range(games):
        seat = i % n
        bots = [h if p == seat else r for p in range(n)]
        s = play(e, bots, random.Random(i), [random.Random(100 * i + p) for p in range(n)])
        won += 1 / len(s.winners) if seat in s.winners else 0.0
    return won / games


@pytest.mark.parametrize("game_type", TYPES)
def test_heuristic_beats_random(data, game_type) -> None:  # type: ignore[no-untyped-def]
    # Measured over 400 games per type, seats rotated: 2p 1.00 in every type (see the
    # report); a lower bound that still says "clearly stronger".
    assert win_share(engine(data, game_type), 4) >= 0.75


def test_heuristic_is_deterministic_and_blind(data) -> None:  # type: ignore[no-untyped-def]
    """The same rng gives the same choice, and two states the player cannot tell apart give
    the same choice (it sees only the InfoSet)."""
    for game_type in TYPES:
        e = engine(data, game_type)
        h = Heuristic(e)
        for s in positions(e, 9, every=29):
            players = [p for p in s.current_players() if p != CHANCE]
            for p in players:
                other = s.resample(p, random.Random(5))
                a = h.choose(InfoSet(s, p), random.Random(1))
                assert a == h.choose(InfoSet(s, p), random.Random(1))
                assert a == h.choose(InfoSet(other, p), random.Random(1))
                assert s.is_legal(p, a)
