"""The balance lab: sweeps identical for any number of workers (and on a Dask cluster),
intervals, the search player's use of information, claims as data, `printgen balance`."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from tests_support import run_printgen

from printgen.balance.run import Setting, load_engine, make_bot, sweep
from printgen.balance.stats import difference, mean, share, summarise
from printgen.engines import game_data
from printgen.model import load_game
from rules_engine.bots import InfoSet
from rules_engine.core import CHANCE, joint
from rules_engine.mcts import MCTSBot
from rules_engine.params import GameData

ROOT = Path(__file__).resolve().parent.parent
SA = "submarine-attack"


def sa_data() -> GameData:
    return game_data(load_game(ROOT / "components" / SA))


def test_intervals() -> None:
    # Wilson's interval for 50 of 100 and for none of 20 (it never leaves [0, 1])
    half = share(50, 100)
    assert half.value == 0.5 and round(half.low, 3) == 0.404 and round(half.high, 3) == 0.596
    none = share(0, 20)
    assert none.low == 0 and round(none.high, 3) == 0.161
    m = mean([1, 2, 3, 4, 5])
    assert m.value == 3 and round(m.high - m.value, 3) == round(1.96 * (2.5 / 5) ** 0.5, 3)
    d = difference(share(60, 100), share(40, 100))
    assert round(d.value, 9) == 0.2 and d.low > 0  # a clear difference
    assert difference(share(52, 100), share(50, 100)).low < 0  # not a clear one


def test_a_sweep_is_the_same_for_any_number_of_workers() -> None:
    data = sa_data()
    settings = [
        Setting(version="1.0", bots=("heuristic", "random"), games=60, seed=3),
        Setting(version="1.1", bots=("heuristic",), games=60, seed=3),
    ]
    one = sweep(data, settings, workers=1)
    two = sweep(data, settings, workers=2)
    assert [s.records for s in one] == [s.records for s in two]
    assert [r.index for r in one[0].records] == list(range(60))
    # seats rotate: the heuristic sits in each seat in half the games
    assert sum(r.seats[0] == "heuristic" for r in one[0].records) == 30
    other_seed = sweep(data, [Setting(version="1.1", games=60, seed=4)], workers=1)
    assert other_seed[0].records != one[1].records


@pytest.mark.xdist_group("dask")
def test_a_sweep_on_a_dask_cluster_gives_the_same_games() -> None:
    from distributed import LocalCluster

    data = sa_data()
    settings = [Setting(version="1.1", bots=("heuristic", "random"), games=80, seed=5)]
    local = sweep(data, settings, workers=1)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = sweep(data, settings, scheduler=cluster.scheduler_address)
    assert remote[0].records == local[0].records


def test_the_search_player_sees_only_its_view() -> None:
    """Two positions the player cannot tell apart (resampled from one) get the same choice
    for the same seed: the search uses nothing the view does not show."""
    engine = load_engine(sa_data(), Setting(version="1.1"))
    bot = make_bot(engine, "mcts:40")
    assert isinstance(bot, MCTSBot)
    rng = random.Random(1)
    checked = 0
    # A player decides alone only when a roll lets them pick a column: games until six.
    for _ in range(20):
        if checked == 6:
            break
        state = engine.new_initial_state()
        while not state.is_terminal() and checked < 6:
            players = state.current_players()
            if players != (CHANCE,) and len(players) == 1:
                me = players[0]
                a = state.resample(me, random.Random(10))  # type: ignore[attr-defined]
                b = state.resample(me, random.Random(20))  # type: ignore[attr-defined]
                assert a.view(me) == b.view(me) == state.view(me)
                assert bot.choose(InfoSet(a, me), random.Random(7)) == bot.choose(
                    InfoSet(b, me), random.Random(7)
                )
                checked += 1
            if len(players) == 1:
                state.apply(state.sample_action(players[0], rng))
            else:
                state.apply_joint(joint([state.sample_action(p, rng) for p in players]))
    assert checked == 6


def test_a_summary_names_its_figures() -> None:
    (done,) = sweep(sa_data(), [Setting(version="1.1", games=40)], workers=1)
    summary = summarise(done)
    names = summary.names()
    for name in ("first_player_win", "seat_win.1", "seat_win.2", "draw_rate", "rounds"):
        assert name in names
        summary.query(name)
    assert summary.query("seat_win.1").value + summary.query("seat_win.2").value == pytest.approx(1)
    with pytest.raises(KeyError):
        summary.query("seat_win.3")


# --- claims --------------------------------------------------------------------------------


def _sa_with_claims(tmp_path: Path, claims: str) -> Path:
    shutil.copytree(ROOT / "components" / SA, tmp_path / "components" / SA)
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    game_yaml = tmp_path / "components" / SA / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    if "\nclaims:\n" in text:
        head, _, rest = text.partition("\nclaims:\n")
        keep = [i for i, line in enumerate(rest.splitlines()) if line and not line.startswith(" ")]
        tail = "\n".join(rest.splitlines()[keep[0] :]) + "\n" if keep else ""
        text = head + "\n" + tail
    game_yaml.write_text(text.rstrip("\n") + "\n" + claims, encoding="utf-8")
    return tmp_path


def _line(root: Path, needle: str) -> int:
    lines = (root / "components" / SA / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines) if needle in line) + 1


CLAIMS = """claims:
  - id: fair-seats
    says: {ja: 先手も後手も勝率は同じくらい, en: Neither seat is favoured}
    games: 200
    expect:
      first_player_win: [0.35, 0.65]
  - id: rounds-never-end
    says: {ja: ラウンドは終わらない, en: Games never end}
    games: 200
    expect:
      rounds: [100, null]
  - id: torpedo-s-first
    says: {ja: 1番目の魚雷Sは必ず効果がある, en: Torpedo S in attack 1 always sinks}
    exact: true
    setup: {}
    expect:
      sinks_any: [1, 1]
"""


def test_claims_hold_or_fail_with_the_value_and_its_line(tmp_path: Path) -> None:
    root = _sa_with_claims(
        tmp_path,
        CLAIMS.replace(
            "    exact: true\n    setup: {}\n    expect:\n      sinks_any: [1, 1]\n",
            "    games: 50\n    expect:\n      seat_win.1: [0, 1]\n",
        ),
    )
    done = run_printgen(root, "check", SA)
    assert done.returncode == 1
    assert "ok   claim fair-seats: first_player_win = " in done.stdout
    line = _line(root, "id: rounds-never-end")
    assert f"/{SA}/game.yaml:{line}:9: FAIL claim rounds-never-end: rounds = " in done.stdout
    assert "(95% interval " in done.stdout and "outside [100, …]" in done.stdout
    assert "1 of 3 claim(s) failed" in done.stderr
    quiet = run_printgen(root, "check", SA, "--no-claims")
    assert quiet.returncode == 0 and "claim" not in quiet.stdout


@pytest.mark.parametrize(
    ("claim", "needle", "message"),
    [
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    expect:\n      rounds: [3, 1]\n",
            "rounds: [3, 1]",
            "the low bound 3 is above the high one 1",
        ),
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    exact: true\n    games: 10\n"
            "    expect:\n      sinks_any: [0, 1]\n",
            "id: x",
            "an exact claim counts odds and plays no games: remove games",
        ),
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    expect:\n      rounds.change: [0, null]\n",
            "id: x",
            "rounds.change: compare with what? give a baseline:",
        ),
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    games: 10\n    expect:\n"
            "      length_of_game: [0, 1]\n",
            "length_of_game",
            "claim x: no figure 'length_of_game' (figures: first_player_win,",
        ),
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    bots: [clever]\n    expect:\n"
            "      rounds: [0, 9]\n",
            "id: x",
            "claim x: unknown bot 'clever': choose random, heuristic, mcts or mcts:N",
        ),
        (
            "  - id: x\n    says: {ja: あ, en: a}\n    expect:\n      rounds: [0.1, 1/0]\n",
            "rounds:",
            "is not a bound: give a number, a fraction",
        ),
    ],
)
def test_a_bad_claim_is_an_error_at_its_line(
    tmp_path: Path, claim: str, needle: str, message: str
) -> None:
    root = _sa_with_claims(tmp_path, "claims:\n" + claim)
    done = run_printgen(root, "check", SA)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    line = _line(root, needle)
    assert f"/{SA}/game.yaml:{line}:" in done.stderr, done.stderr
    assert message in done.stderr, done.stderr


def test_balance_answers_whether_the_2002_changes_shortened_the_game(tmp_path: Path) -> None:
    done = run_printgen(
        ROOT,
        "balance",
        SA,
        "--version",
        "1.0",
        "--version",
        "1.1",
        "--games",
        "300",
        "--strength-games",
        "2",
        "--search",
        "mcts:5",
        "--no-claims",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "rules 1.1, 2 players against rules 1.0, 2 players:" in out
    length = next(line for line in out.splitlines() if "game length:" in line)
    assert "rounds " in length and "(95% interval " in length
    assert any(v in length for v in ("higher", "lower", "no clear change"))
    seat = next(line for line in out.splitlines() if "seat advantage:" in line)
    assert "first player win " in seat and "(95% interval " in seat
    assert "heuristic against 1 random player(s) (rules 1.1, 2 players): wins " in out
    assert "mcts:5 against 1 random player(s) (rules 1.1, 2 players): wins " in out
    assert "Chance that a torpedo sinks at least one transport (rules 1.0)" in out
    report = tmp_path / SA / "balance"
    assert (report / "report.html").stat().st_size > 0
    assert (report / "report.pdf").read_bytes().startswith(b"%PDF")


def test_balance_refuses_bad_settings_clearly() -> None:
    for args, message in [
        (("--bots", "clever"), "unknown bot 'clever'"),
        (("--version", "9.9"), "--version 9.9: submarine-attack has rule versions 1.0"),
        (("--option", "five_or_more"), "--option five_or_more: write NAME=VALUE"),
        (("--option", "five_or_more=maybe"), "--option five_or_more=maybe: five_or_more is one of"),
        (("--option", "colour=red"), "has no rule option 'colour'"),
        (("--bots", "mcts:0"), "bot 'mcts:0': give the playouts per decision"),
        (("--bots", "heuristic,random,random"), "3 bots for 2 players"),
    ]:
        done = run_printgen(ROOT, "balance", SA, "--games", "2", *args)
        assert done.returncode == 1, (args, done.stdout)
        assert message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_a_build_keeps_the_balance_report(tmp_path: Path) -> None:
    from printgen.build import swap_in

    final, staging = tmp_path / "submarine-attack", tmp_path / "staging"
    (final / "balance").mkdir(parents=True)
    (final / "balance" / "report.html").write_text("report", encoding="utf-8")
    (final / "sheets-a4.pdf").write_text("old", encoding="utf-8")
    staging.mkdir()
    (staging / "sheets-a4.pdf").write_text("new", encoding="utf-8")
    swap_in(staging, final)
    assert (final / "balance" / "report.html").read_text(encoding="utf-8") == "report"
    assert (final / "sheets-a4.pdf").read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["submarine-attack"]


def test_a_game_that_never_ends_is_stopped_and_counted_as_a_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from printgen.balance import run

    monkeypatch.setattr(run, "MAX_STEPS", 3)
    (done,) = sweep(sa_data(), [Setting(version="1.1", games=6)], workers=1)
    assert all(r.unfinished and r.returns == (0.0, 0.0) for r in done.records)
    summary = summarise(done)
    assert summary.unfinished == 6 and summary.draw_rate.value == 1
    from printgen.balance.stats import unfinished_text

    assert unfinished_text(summary).startswith("6 of 6 games had no end after ")
