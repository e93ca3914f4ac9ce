"""`printgen balance` on the terminal: the figures a designer reads first, as tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from printgen.balance.report import BalanceReport
from printgen.balance.stats import Change, Estimate, Summary, unfinished_text


def pct(e: Estimate) -> str:
    return f"{e.value:.1%} ({e.low:.1%}–{e.high:.1%})"


def num(e: Estimate) -> str:
    return f"{e.value:.3g} ({e.low:.3g}–{e.high:.3g})"


def seat_verdict(s: Summary) -> str:
    """Whether a seat is favoured: an interval that excludes the fair share 1/N."""
    fair = 1 / s.players if s.players else 0
    favoured = [p + 1 for p, e in enumerate(s.seat_win) if e.low > fair]
    behind = [p + 1 for p, e in enumerate(s.seat_win) if e.high < fair]
    if not favoured and not behind:
        return f"no clear seat advantage (every seat's interval holds the fair {fair:.1%})"
    parts = []
    if favoured:
        parts.append("seat " + ", ".join(map(str, favoured)) + " favoured")
    if behind:
        parts.append("seat " + ", ".join(map(str, behind)) + " behind")
    return "; ".join(parts) + f" (fair share {fair:.1%})"


ANSWERS = (
    ("game length", ("actions", "turns", "rounds")),
    ("seat advantage", ("first_player_win", "seat_win.1")),
)


def answers(changes: list[Change]) -> list[str]:
    """The questions a designer asks of a rule change, answered with intervals: did the
    game get shorter, did the seat advantage move?"""
    by_name = {c.name: c for c in changes}
    out = []
    for question, names in ANSWERS:
        parts = []
        for name in names:
            c = by_name.get(name)
            if c is None:
                continue
            parts.append(
                f"{name.replace('_', ' ')} {c.before.value:.3g} -> {c.after.value:.3g}, change "
                f"{c.change.value:+.3g} (95% interval {c.change.low:+.3g} to "
                f"{c.change.high:+.3g}): {c.verdict}"
            )
        if parts:
            out.append(f"{question}: " + "; ".join(parts))
    return out


def show(report: BalanceReport, console: Console) -> None:
    console.print(f"[bold]{report.title}[/bold]: {report.command}", soft_wrap=True)
    for s in report.summaries:
        table = Table(title=f"{s.label}: {s.games:,} games, {', '.join(dict.fromkeys(s.bots))}")
        table.add_column("figure")
        table.add_column("value (95% interval)", justify="right")
        for p, e in enumerate(s.seat_win):
            table.add_row(f"seat {p + 1} wins", pct(e))
        table.add_row("first player wins", pct(s.first_player_win))
        table.add_row("draws", pct(s.draw_rate))
        for name, e in s.lengths.items():
            table.add_row(f"{name} per game", num(e))
        for p, e in enumerate(s.scores):
            table.add_row(f"seat {p + 1} score", num(e))
        for name, e in s.measures.items():
            table.add_row(name.replace("_", " "), num(e))
        console.print(table)
        console.print(f"  {seat_verdict(s)}", soft_wrap=True)
        if s.unfinished:
            console.print(f"  {unfinished_text(s)}", soft_wrap=True)
        impacts = sorted(
            (c for c in s.cards if c.impact is not None),
            key=lambda c: -abs(c.impact.value) if c.impact else 0,
        )
        if impacts:
            cards = Table(
                title="cards and actions: played per player and game; win rate when played"
            )
            for col in ("card or action", "played", "wins when played", "otherwise", "difference"):
                cards.add_column(col, justify="right" if col != "card or action" else "left")
            for c in impacts[:12]:
                assert c.impact is not None
                cards.add_row(
                    c.label,
                    f"{c.per_game.value:.2f}",
                    f"{c.win_when_played.value:.1%}",
                    f"{c.win_otherwise.value:.1%}",
                    f"{c.impact.value:+.1%} ({c.impact.low:+.1%}–{c.impact.high:+.1%})",
                )
            console.print(cards)
    for before, after, changes in report.changes:
        console.print(f"[bold]{after} against {before}[/bold]:")
        for line in answers(changes):
            console.print(f"  {line}", soft_wrap=True)
        table = Table(title=f"{after} against {before}")
        for col in ("figure", before, after, "change (95% interval)", "verdict"):
            table.add_column(col, justify="left" if col in ("figure", "verdict") else "right")
        for ch in changes:
            if ch.name.startswith(("played.", "impact.")):
                continue
            table.add_row(
                ch.name,
                f"{ch.before.value:.3g}",
                f"{ch.after.value:.3g}",
                f"{ch.change.value:+.3g} ({ch.change.low:+.3g}–{ch.change.high:+.3g})",
                ch.verdict,
            )
        console.print(table)
    for st in report.strength:
        console.print(
            f"{st.bot} against {st.players - 1} random player(s) ({st.setting}): wins "
            f"{pct(st.win)} of {st.games} games (chance level {1 / st.players:.0%})",
            soft_wrap=True,
        )
    for t in report.exact:
        table = Table(title=t.title)
        for col in t.columns:
            table.add_column(col)
        for row in t.rows:
            table.add_row(*row)
        console.print(table)
    for claim in report.claims:
        console.print(claim.line(), markup=False, highlight=False, soft_wrap=True)
