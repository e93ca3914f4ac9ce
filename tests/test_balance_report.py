"""The balance lab's report (printgen.balance.report): written from synthetic games, the same
bytes whatever the folder, a PDF with pages, an HTML file holding its plots and the claims."""

from __future__ import annotations

import io
import random
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from printgen.balance.claims import ClaimResult, Figure
from printgen.balance.report import (
    BalanceReport,
    ExactTable,
    Strength,
    report_html,
    write_report,
)
from printgen.balance.run import GameRecord, Setting, Sweep
from printgen.balance.stats import compare, share, summarise
from printgen.engines import game_data
from printgen.errors import Location
from printgen.model import Claim, load_game
from rules_engine.bots import Outcome
from rules_engine.registry import engine_for

ROOT = Path(__file__).resolve().parent.parent
CARDS = ("torpedo A", "torpedo C", "evasion B", "price $5 & <odd> name")


def _records(seed: int, games: int, edge: float) -> list[GameRecord]:
    """Two-player games where seat 1 wins with probability 0.5 + edge."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        first = i % 2
        won = 0 if rng.random() < 0.5 + edge else 1
        drawn = rng.random() < 0.05
        returns = (0.0, 0.0) if drawn else ((1.0, -1.0) if won == 0 else (-1.0, 1.0))
        scores = tuple(float(rng.randint(0, 12) + (4 if p == won else 0)) for p in range(2))
        played = tuple(
            {c: rng.randint(1, 3) for c in CARDS if rng.random() < (0.7 if p == won else 0.4)}
            for p in range(2)
        )
        rounds = rng.randint(2, 5)
        outcome = Outcome(
            scores=scores,
            rounds=rounds,
            turns=rounds * 3 + rng.randint(0, 2),
            first=first,
            played=played,
            measures={"rounds_ended_by_sinking": rng.random()},
        )
        actions = rounds * 6 + rng.randint(0, 4)
        out.append(GameRecord(i, ("heuristic", "random"), returns, actions, outcome))
    return out


@pytest.fixture(scope="module")
def report() -> BalanceReport:
    game = load_game(ROOT / "components" / "submarine-attack")
    data = game_data(game)
    entry = engine_for(data.id)
    assert entry is not None
    engine = entry.load(data)
    settings = [
        Setting(bots=("heuristic", "random"), games=120, seed=1),
        Setting(bots=("heuristic", "random"), games=120, seed=2),
    ]
    sweeps = [
        Sweep(settings[0], engine, _records(1, 120, 0.0)),
        Sweep(settings[1], engine, _records(2, 120, 0.2)),
    ]
    summaries = [summarise(s) for s in sweeps]
    where = Location(game.folder / "game.yaml", 1, 1)
    fair = Claim.model_validate(
        {
            "id": "first-player-fair",
            "says": {"en": "Going first is <b>no</b> advantage.", "ja": "先手に有利はない。"},
            "expect": {"first_player_win": [0.4, 0.6]},
        }
    )
    weak = Claim.model_validate(
        {
            "id": "torpedo-c-weak",
            "says": {"en": "Torpedo C rarely sinks a ship.", "ja": "魚雷Cはめったに沈めない。"},
            "exact": True,
            "expect": {"sinks_any": [None, "1/3"]},
        }
    )
    claims = [
        ClaimResult(
            fair,
            where,
            (Figure("first_player_win", summaries[0].first_player_win, 0.4, 0.6),),
            "rules 1.1, heuristic vs random, 120 games, seed 1",
        ),
        ClaimResult(
            weak,
            where,
            (Figure("sinks_any", Fraction(4, 9), None, 1 / 3),),
            "rules 1.1, exact over every outcome of the chance step",
        ),
    ]
    return BalanceReport(
        game_id=game.id,
        title=game.info.title.en,
        title_ja=game.info.title.ja,
        command="printgen balance submarine-attack --bots heuristic,random --games 120",
        summaries=summaries,
        changes=[(summaries[0].label, summaries[1].label, compare(summaries[0], summaries[1]))],
        claims=claims,
        strength=[Strength("mcts:50", 2, 200, share(150, 200))],
        exact=[
            ExactTable(
                "Each torpedo's chance to sink a transport",
                ("torpedo", "alone", "vs evasion B"),
                (("torpedo C", "4/9", "1/6"), ("torpedo S", "2/3", "1/4")),
                "Counted over every roll of the dice.",
            )
        ],
        settings=settings,
    )


def test_report_is_reproducible_and_complete(report: BalanceReport, tmp_path: Path) -> None:
    html_a, pdf_a = write_report(report, tmp_path / "out-one" / "submarine-attack" / "balance")
    html_b, pdf_b = write_report(report, tmp_path / "second" / "balance")
    for path in (html_a, pdf_a, html_b, pdf_b):
        assert path.is_file()
    assert html_a.name == "report.html" and pdf_a.name == "report.pdf"
    assert html_a.read_bytes() == html_b.read_bytes()
    assert pdf_a.read_bytes() == pdf_b.read_bytes()
    assert not [p for p in html_a.parent.iterdir() if p.name.startswith(".")]  # no temp files

    reader = PdfReader(io.BytesIO(pdf_a.read_bytes()))
    assert len(reader.pages) >= 3
    text = "".join(page.extract_text() or "" for page in reader.pages)
    assert "Submarine Attack" in text and "torpedo-c-weak" in text

    html = html_a.read_text(encoding="utf-8")
    # one self-contained file: four plots and the fonts inline, nothing fetched
    assert html.count('src="data:image/svg+xml;base64,') == 4
    assert 'url("data:font/ttf;base64,' in html
    assert "http://" not in html.replace("http://www.w3.org", "")
    assert "printgen-font:" not in html
    # the claims table, designer's text escaped
    assert '<table class="claims">' in html
    assert "first-player-fair" in html and "torpedo-c-weak" in html
    assert "Going first is &lt;b&gt;no&lt;/b&gt; advantage." in html
    assert "先手に有利はない。" in html and "FAIL" in html
    assert "サブマリン・アタック" in html
    # verdicts, comparison, strength, exact odds
    assert "no clear seat advantage" in html or "favoured" in html
    assert '<table class="changes">' in html and "no clear change" in html
    assert "stronger than random" in html
    assert "4/9" in html


def test_report_without_extras(report: BalanceReport) -> None:
    """One setting, no comparison, claims, strength or exact tables: still a whole page."""
    bare = BalanceReport(
        report.game_id, report.title, report.title_ja, "printgen balance", report.summaries[:1]
    )
    html = report_html(bare)
    assert html.count('src="data:image/svg+xml;base64,') == 4
    assert '<table class="claims">' not in html and "Seed" not in html
    assert "no clear seat advantage" in html
