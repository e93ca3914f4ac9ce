"""The designer's report: `out/<game>/balance/report.html` and `report.pdf`.

(The data it shows is gathered by `printgen balance`; the rendering is below.)

`write_report` lays out a `BalanceReport` with the template `layouts/balance/report.html.j2`
(rendered in the project's sandbox, autoescaped: claims and labels come from a game folder,
which is untrusted input) and draws its plots with matplotlib.  Both files are the same bytes
for the same report on every machine:

- the plots are SVG drawn by matplotlib's SVG backend (no display, no pyplot) from
  matplotlib's own defaults (not the user's matplotlibrc), text as outlines of matplotlib's
  bundled DejaVu Sans (with BIZ UDPGothic of layouts/fonts/ for Japanese), ids from a fixed
  salt and no date; they are embedded in the HTML as data: URIs, so it is one file;
- the page's fonts are BIZ UDPGothic from layouts/fonts/, cut to the report's characters by
  fontTools and embedded in the HTML as data: URIs (as the rulebooks do), and the PDF is
  written as the rulebooks' are (`printgen.rulebook.pdf.render_pdf`: an identifier from the
  HTML, no dates, WeasyPrint reading project files only).
"""

from __future__ import annotations

import base64
import io
import math
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printgen.balance.claims import ClaimResult
from printgen.balance.run import Setting
from printgen.balance.stats import Change, Estimate, Summary, unfinished_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure as PlotFigure


@dataclass(frozen=True)
class Strength:
    """How a player fares against random players: its win share over `games` games with
    seats rotated (in an N-player game, against N-1 random players; chance level 1/N)."""

    bot: str
    players: int
    games: int
    win: Estimate
    setting: str = ""  # the rules it was measured under (`rules 1.1, 2 players`)


@dataclass(frozen=True)
class ExactTable:
    """A table of exact figures (fractions) the engine counts over every chance outcome,
    such as each torpedo's chance to sink a transport against each evasion card."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass
class BalanceReport:
    """Everything one `printgen balance` run found, for the report."""

    game_id: str
    title: str  # the game's title, English
    title_ja: str
    command: str  # the command line that made it (without machine paths)
    summaries: list[Summary]
    changes: list[tuple[str, str, list[Change]]] = field(default_factory=list)
    claims: list[ClaimResult] = field(default_factory=list)
    strength: list[Strength] = field(default_factory=list)
    exact: list[ExactTable] = field(default_factory=list)
    settings: list[Setting] = field(default_factory=list)
    """The setting of each summary, in the same order (optional: when given, the report
    shows each setting's seed, rule version and options besides its label)."""


LAYOUTS = Path(__file__).resolve().parents[2] / "layouts"
"""printgen's own layouts/ (the report's template and fonts)."""
TEMPLATE = "report.html.j2"
PLOT_SALT = "printgen-balance-report"
MAX_CARDS_PLOTTED = 32
"""At most this many cards in the impact chart (those with the largest impact)."""

PAGE_WIDTH_IN = 7.0  # A4 less the margins: plots are drawn at the size they are printed
COLOURS = ("#1f5a96", "#d9822b", "#3a9d5d", "#b8434d", "#7b5ea7", "#8c6d46", "#4aa3b5", "#777777")
SHADES = ("#dce6f0", "#fbe6d3", "#dcefe2", "#f3dadd", "#e6def0", "#ece3d8", "#d9eef2", "#e6e6e6")


def write_report(
    report: BalanceReport, out_dir: Path, layouts: Path | None = None
) -> tuple[Path, Path]:
    """Write `out_dir/report.html` (one self-contained file: plots and fonts inside) and
    `out_dir/report.pdf` (A4), each atomically and only when its bytes change; returns their
    paths.  `layouts` is the folder holding `balance/report.html.j2` and `fonts/`
    (default: printgen's own)."""
    from printgen.reference import write_files
    from printgen.rulebook.pdf import render_pdf

    layouts = layouts or LAYOUTS
    html = report_html(report, layouts)
    pdf = render_pdf(html, layouts, f"balance report of {report.game_id}")
    write_files(out_dir, {"report.html": html.encode("utf-8"), "report.pdf": pdf})
    return out_dir / "report.html", out_dir / "report.pdf"


def report_html(report: BalanceReport, layouts: Path | None = None) -> str:
    """The report as one HTML page, its plots and fonts embedded."""
    import jinja2

    from printgen.rulebook.font_subsets import FONT_SCHEME, embed_fonts
    from printgen.sandbox import ProjectSandbox

    layouts = layouts or LAYOUTS
    env = ProjectSandbox(loader=jinja2.FileSystemLoader(str(layouts / "balance")), autoescape=True)
    template = env.get_template(TEMPLATE)
    html = template.render(**_view(report, layouts), font_uri=lambda name: f"{FONT_SCHEME}:{name}")
    return embed_fonts({"report": html}, layouts, None)["report"]


# --- numbers as a designer reads them ---------------------------------------------------------

SHARES = ("seat_win", "first_player_win", "draw_rate", "bot_win")
DIFFERENCES = ("impact",)


def _finite(x: float) -> bool:
    return not (math.isnan(x) or math.isinf(x))


def _num(x: float) -> str:
    if not _finite(x):
        return "—"
    if x == 0:
        return "0"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}"
    if a >= 100:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 0.01:
        return f"{x:.3g}" if a < 1 else f"{x:.2f}"
    return f"{x:.2g}"


def _signed(x: float, unit: str = "") -> str:
    if not _finite(x):
        return "—"
    text = _num(abs(x)) + unit
    return text if x == 0 else ("+" if x > 0 else "−") + text


def _pct(x: float) -> str:
    return f"{x:.1%}" if _finite(x) else "—"


def _pp(x: float) -> str:
    """A difference of two shares, in percentage points."""
    if not _finite(x):
        return "—"
    text = f"{abs(x) * 100:.1f}"
    return f"{'+' if x > 0 else '−' if x < 0 and text != '0.0' else ''}{text} pp"


def _kind(name: str) -> str:
    head = name.partition(".")[0]
    if name.endswith(".change"):
        return "difference" if head in SHARES + DIFFERENCES else "number"
    return "share" if head in SHARES else "difference" if head in DIFFERENCES else "number"


def _value(e: Estimate, kind: str) -> str:
    if kind == "share":
        return _pct(e.value)
    if kind == "difference":
        return _pp(e.value)
    return _num(e.value)


def _interval(e: Estimate, kind: str) -> str:
    """The 95% interval alone: '50.1–54.5%' (empty for one observation)."""
    if e.n <= 1 or not (_finite(e.low) and _finite(e.high)) or e.low == e.high:
        return ""
    if kind == "share":
        return f"{e.low * 100:.1f}–{e.high * 100:.1f}%"
    if kind == "difference":
        return f"{_pp(e.low)[:-3]} to {_pp(e.high)[:-3]}"
    if e.low < 0 <= e.high or e.high < 0:
        return f"{_num(e.low)} to {_num(e.high)}"
    return f"{_num(e.low)}–{_num(e.high)}"


def _estimate(e: Estimate, kind: str = "number") -> str:
    found = _interval(e, kind)
    return f"{_value(e, kind)} ({found})" if found else _value(e, kind)


def _change(e: Estimate, kind: str) -> str:
    if kind in ("share", "difference"):
        return _pp(e.value)
    return _signed(e.value)


def _change_interval(e: Estimate, kind: str) -> str:
    if e.low == e.high or not (_finite(e.low) and _finite(e.high)):
        return ""
    if kind in ("share", "difference"):
        return f"{_pp(e.low)[:-3]} to {_pp(e.high)[:-3]}"
    return f"{_signed(e.low)} to {_signed(e.high)}"


def figure_label(name: str) -> str:
    """A claim's name for a figure, in words: `seat_win.1` -> 'Seat 1 wins'."""
    base, dot, last = name.rpartition(".")
    if dot and last == "change":
        return f"{figure_label(base)}: change"
    head, dot, tail = name.partition(".")
    if head == "seat_win" and dot:
        return f"Seat {tail} wins"
    if head == "score" and dot:
        return f"Score of seat {tail}"
    if head == "played" and dot:
        return f"{tail}: plays per player per game"
    if head == "impact" and dot:
        return f"{tail}: win impact"
    if head == "bot_win" and dot:
        return f"{tail} wins (its seats)"
    words = {
        "first_player_win": "First player wins",
        "draw_rate": "Draws (no sole winner)",
        "actions": "Length in actions",
        "turns": "Length in turns",
        "rounds": "Length in rounds",
        "score": "Score (all seats)",
    }
    found = words.get(name, name.replace("_", " "))
    return found[:1].upper() + found[1:]


def _tags(n: int) -> list[str]:
    out = []
    for k in range(n):
        tag = ""
        k += 1
        while k:
            k, r = divmod(k - 1, 26)
            tag = chr(65 + r) + tag
        out.append(tag)
    return out


def _bots_text(bots: Sequence[str]) -> str:
    distinct = list(dict.fromkeys(bots))
    if len(distinct) == 1:
        return f"{distinct[0]} players"
    return " vs ".join(bots) + " (seats rotate)"


# --- what the template shows -------------------------------------------------------------------


@dataclass(frozen=True)
class _Setting:
    tag: str
    colour: str
    shade: str
    summary: Summary
    setting: Setting | None

    @property
    def name(self) -> str:
        return f"{self.summary.label}; {_bots_text(self.summary.bots)}"


def _view(report: BalanceReport, layouts: Path) -> dict[str, Any]:
    aligned = len(report.settings) == len(report.summaries)
    settings = [
        _Setting(
            tag,
            COLOURS[k % len(COLOURS)],
            SHADES[k % len(SHADES)],
            s,
            report.settings[k] if aligned else None,
        )
        for k, (tag, s) in enumerate(
            zip(_tags(len(report.summaries)), report.summaries, strict=True)
        )
    ]
    plots = _plots(settings, layouts)
    return {
        "game": {"id": report.game_id, "title": report.title, "title_ja": report.title_ja},
        "command": report.command,
        "settings": [_setting_row(s) for s in settings],
        "show_seed": aligned and bool(settings),
        "verdicts": [_verdicts(s) for s in settings],
        "comparisons": [_comparison(a, b, changes) for a, b, changes in report.changes],
        "claims": [_claim(c) for c in report.claims],
        "claims_verdict": _claims_verdict(report.claims),
        "plots": plots,
        "figure_tables": _figure_tables(settings),
        "strength": [_strength(s) for s in report.strength],
        "exact": [
            {
                "title": t.title,
                "columns": list(t.columns),
                "rows": [list(r) for r in t.rows],
                "note": t.note,
            }
            for t in report.exact
        ],
    }


def _setting_row(s: _Setting) -> dict[str, Any]:
    summary = s.summary
    extra = ""
    if s.setting is not None and s.setting.version is not None:
        extra = f"rule version {s.setting.version} asked"
    return {
        "tag": s.tag,
        "colour": s.colour,
        "label": summary.label,
        "bots": _bots_text(summary.bots),
        "players": summary.players,
        "games": f"{summary.games:,}",
        "seed": "" if s.setting is None else str(s.setting.seed),
        "extra": extra,
    }


def _verdicts(s: _Setting) -> dict[str, Any]:
    """Plain sentences on one setting: seat advantage, first player, draws, bots, length."""
    summary = s.summary
    n = summary.players
    lines: list[dict[str, str]] = []
    if n >= 2 and summary.games:
        even = 1 / n
        ahead = [p for p, e in enumerate(summary.seat_win) if e.low > even]
        behind = [p for p, e in enumerate(summary.seat_win) if e.high < even]
        if not ahead and not behind:
            if n == 2:
                e = summary.seat_win[0]
                text = f"Seat 1 wins {_estimate(e, 'share')}: no clear seat advantage"
            else:
                lo = min(range(n), key=lambda p: summary.seat_win[p].value)
                hi = max(range(n), key=lambda p: summary.seat_win[p].value)
                text = (
                    f"Seats win from {_pct(summary.seat_win[lo].value)} (seat {lo + 1}) to "
                    f"{_pct(summary.seat_win[hi].value)} (seat {hi + 1}): no clear seat advantage"
                )
            lines.append({"tone": "fair", "text": f"{text} (an even share is {_pct(even)})."})
        else:
            parts = [
                f"seat {p + 1} is favoured: it wins {_estimate(summary.seat_win[p], 'share')}"
                for p in ahead
            ] + [
                f"seat {p + 1} is behind: it wins {_estimate(summary.seat_win[p], 'share')}"
                for p in behind
            ]
            text = "; ".join(parts)
            lines.append(
                {
                    "tone": "unfair",
                    "text": f"{text[0].upper()}{text[1:]} (an even share is {_pct(even)}).",
                }
            )
        first = summary.first_player_win
        if first.low > even:
            lines.append(
                {
                    "tone": "unfair",
                    "text": f"The first player is favoured: wins {_estimate(first, 'share')}.",
                }
            )
        elif first.high < even:
            lines.append(
                {
                    "tone": "unfair",
                    "text": f"The first player is at a disadvantage: wins {_estimate(first, 'share')}.",
                }
            )
        else:
            lines.append(
                {
                    "tone": "fair",
                    "text": f"The first player wins {_estimate(first, 'share')}: no clear first-player advantage.",
                }
            )
    if summary.unfinished:
        lines.append({"tone": "unfair", "text": unfinished_text(summary) + "."})
    if summary.games:
        draws = summary.draw_rate
        text = (
            f"Draws (no sole winner): {_estimate(draws, 'share')}."
            if draws.value > 0
            else "No game ended without a sole winner."
        )
        lines.append({"tone": "plain", "text": text})
    if summary.bot_win:
        parts = [f"{b} {_estimate(e, 'share')}" for b, e in summary.bot_win.items()]
        lines.append(
            {
                "tone": "plain",
                "text": "Wins by player (of the seats each plays): " + "; ".join(parts) + ".",
            }
        )
    if summary.lengths:
        parts = [f"{_estimate(e)} {k}" for k, e in summary.lengths.items()]
        lines.append({"tone": "plain", "text": "A game lasts " + ", ".join(parts) + " on average."})
    return {
        "tag": s.tag,
        "colour": s.colour,
        "name": s.name,
        "games": f"{summary.games:,}",
        "lines": lines,
    }


def _comparison(before: str, after: str, changes: list[Change]) -> dict[str, Any]:
    rows = []
    for c in changes:
        kind = _kind(c.name)
        rows.append(
            {
                "name": c.name,
                "label": figure_label(c.name),
                "before": _value(c.before, kind),
                "before_ci": _interval(c.before, kind),
                "after": _value(c.after, kind),
                "after_ci": _interval(c.after, kind),
                "change": _change(c.change, kind),
                "interval": _change_interval(c.change, kind),
                "verdict": c.verdict,
                "tone": {"higher": "up", "lower": "down"}.get(c.verdict, "same"),
            }
        )
    clear = [r for r, c in zip(rows, changes, strict=True) if c.verdict != "no clear change"]
    # The header names the clearest changes (the change farthest from 0 in standard errors).
    strength = {id(r): _clearness(c.change) for r, c in zip(rows, changes, strict=True)}
    headline = sorted(clear, key=lambda r: -strength[id(r)])[:HEADLINE_CHANGES]
    return {
        "before": before,
        "after": after,
        "rows": rows,
        "moved": headline,
        "more": len(clear) - len(headline),
        "unclear": len(rows) - len(clear),
    }


HEADLINE_CHANGES = 6
"""At most this many clear changes are named on the first page (all are in the table)."""


def _clearness(e: Estimate) -> float:
    half = (e.high - e.low) / 2
    if not (_finite(e.value) and _finite(half)):
        return 0.0
    return abs(e.value) / half if half > 0 else math.inf


def _claim(c: ClaimResult) -> dict[str, Any]:
    figures = []
    for f in c.figures:
        exact = isinstance(f.value, Fraction)
        figures.append(
            {
                "name": f.name,
                "bounds": f.bounds_text(),
                "value": f.value_text(),
                "ok": f.ok,
                "settled": f.settled,
                "exact": exact,
            }
        )
    return {
        "id": c.claim.id,
        "en": c.claim.says.en,
        "ja": c.claim.says.ja,
        "source": c.claim.source.en if c.claim.source else "",
        "figures": figures,
        "ok": c.ok,
        "status": c.status,
        "refuted_en": c.claim.refuted.en if c.claim.refuted else "",
        "refuted_ja": c.claim.refuted.ja if c.claim.refuted else "",
        "unsettled": any(not f.settled for f in c.figures),
        "settings": c.settings,
    }


def _claims_verdict(claims: list[ClaimResult]) -> dict[str, Any] | None:
    if not claims:
        return None
    failing = [c.claim.id for c in claims if not c.ok]
    refuted = [c.claim.id for c in claims if c.ok and not c.holds]
    unsettled = [c.claim.id for c in claims if any(not f.settled for f in c.figures)]
    return {
        "total": len(claims),
        "held": sum(1 for c in claims if c.holds),
        "failing": failing,
        "refuted": refuted,
        "unsettled": unsettled,
    }


def _strength(s: Strength) -> dict[str, Any]:
    chance = 1 / s.players if s.players else math.nan
    if s.win.low > chance:
        verdict, tone = "stronger than random", "up"
    elif s.win.high < chance:
        verdict, tone = "weaker than random", "down"
    else:
        verdict, tone = "no clear difference from random", "same"
    return {
        "bot": s.bot,
        "setting": s.setting,
        "players": s.players,
        "games": f"{s.games:,}",
        "win": _estimate(s.win, "share"),
        "chance": _pct(chance),
        "verdict": verdict,
        "tone": tone,
    }


COLUMNS_PER_TABLE = 4


def _adder(names: list[tuple[str, str]]) -> Callable[[str, str], None]:
    def add(section: str, name: str) -> None:
        if (section, name) not in names:
            names.append((section, name))

    return add


def _figure_tables(settings: list[_Setting]) -> list[dict[str, Any]]:
    """Per-setting figures, settings side by side (at most four to a table)."""
    out = []
    for start in range(0, len(settings), COLUMNS_PER_TABLE):
        group = settings[start : start + COLUMNS_PER_TABLE]
        names: list[tuple[str, str]] = []  # (section, name)

        add = _adder(names)

        for s in group:
            summary = s.summary
            for p in range(summary.players):
                add("Who wins", f"seat_win.{p + 1}")
            add("Who wins", "first_player_win")
            add("Who wins", "draw_rate")
            for b in summary.bot_win:
                add("Who wins", f"bot_win.{b}")
        for s in group:
            for k in s.summary.lengths:
                add("Length", k)
        for s in group:
            for p in range(s.summary.players):
                add("Scores", f"score.{p + 1}")
        for s in group:
            for m in sorted(s.summary.measures):
                add("The game's measures", m)
        rows = []
        section = ""
        for sec, name in names:
            kind = _kind(name)
            cells = []
            for s in group:
                try:
                    cells.append(_estimate(s.summary.query(name), kind))
                except KeyError:
                    cells.append("—")
            rows.append(
                {
                    "section": sec if sec != section else "",
                    "label": figure_label(name),
                    "name": name,
                    "cells": cells,
                }
            )
            section = sec
        out.append(
            {
                "settings": [
                    {
                        "tag": s.tag,
                        "colour": s.colour,
                        "name": s.name,
                        "games": f"{s.summary.games:,}",
                    }
                    for s in group
                ],
                "rows": rows,
            }
        )
    return out


# --- plots ------------------------------------------------------------------------------------


@contextmanager
def _plotting(layouts: Path) -> Iterator[None]:
    """matplotlib set up alike on every machine: its own defaults (not the user's
    matplotlibrc), its bundled DejaVu Sans found without a look at the system's fonts (a
    system DejaVu of another version would change the outlines), BIZ UDPGothic of
    layouts/fonts/ for Japanese, no math parsing of labels (a '$' in a card's name)."""
    import matplotlib
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    bundled = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    files = [
        *sorted(bundled.glob("DejaVuSans*.ttf")),
        layouts / "fonts" / "BIZUDPGothic-Regular.ttf",
        layouts / "fonts" / "BIZUDPGothic-Bold.ttf",
    ]
    entries = [font_manager.ttfFontProperty(FT2Font(str(p))) for p in files if p.is_file()]
    manager: Any = font_manager.fontManager  # its lookup cache is private
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(
            {
                "svg.hashsalt": PLOT_SALT,
                "svg.fonttype": "path",
                "svg.image_inline": True,
                "font.family": ["DejaVu Sans", "BIZ UDPGothic"],
                "font.size": 8.0,
                "axes.titlesize": 9.0,
                "axes.titleweight": "bold",
                "axes.titlelocation": "left",
                "axes.labelsize": 8.0,
                "axes.spines.top": False,
                "axes.spines.right": False,
                "axes.edgecolor": "#444444",
                "axes.linewidth": 0.6,
                "xtick.labelsize": 7.5,
                "ytick.labelsize": 7.5,
                "xtick.major.width": 0.6,
                "ytick.major.width": 0.6,
                "legend.fontsize": 7.5,
                "legend.frameon": False,
                "text.parse_math": False,
                "text.usetex": False,
                "figure.dpi": 72.0,
                "savefig.dpi": 72.0,
                "grid.color": "#e3e3e3",
                "grid.linewidth": 0.5,
                "hatch.linewidth": 0.5,
            }
        )
        kept = manager.ttflist
        manager.ttflist = entries
        manager._findfont_cached.cache_clear()
        try:
            yield
        finally:
            manager.ttflist = kept
            manager._findfont_cached.cache_clear()


def _new_figure(height: float) -> PlotFigure:
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure as PlotFigure

    fig = PlotFigure(figsize=(PAGE_WIDTH_IN, height), layout="constrained")
    FigureCanvasSVG(fig)
    return fig


def _svg_uri(fig: PlotFigure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _legend_label(s: _Setting) -> str:
    return textwrap.shorten(f"{s.tag}: {s.name} ({s.summary.games:,} games)", 110, placeholder="…")


def _setting_legend(fig: PlotFigure, settings: list[_Setting], extra: Sequence[Any] = ()) -> None:
    from matplotlib.patches import Patch

    handles = [
        Patch(facecolor=s.colour, edgecolor=s.colour, label=_legend_label(s)) for s in settings
    ]
    handles += list(extra)
    fig.legend(handles=handles, loc="outside lower left", ncols=1 if len(handles) < 3 else 2)


def _plots(settings: list[_Setting], layouts: Path) -> list[dict[str, str]]:
    played = [s for s in settings if s.summary.games]
    if not played:
        return []
    makers: list[tuple[str, str, Callable[[list[_Setting]], PlotFigure | None]]] = [
        (
            "Win rate by seat",
            "Each seat's share of wins with its 95% interval, one group per setting; the "
            "dashed line is an even share (1/N). A shared win counts as a fraction.",
            _seat_plot,
        ),
        (
            "Game length",
            "How many games lasted how long (share of each setting's games); the dashed line "
            "is the mean.",
            _length_plot,
        ),
        (
            "Card impact",
            "Left: how much more often a player who plays a card (or action) at least once wins "
            "than one who does not, in percentage points, with the 95% interval (an "
            "association, not a cause: strong positions may simply allow the card). Right: how "
            "often one player plays it per game.",
            _card_plot,
        ),
        (
            "Scores by seat",
            "Each seat's final score: the box holds the middle half of the games, the line is "
            "the median, the diamond the mean, the whiskers reach the 5th and 95th percentiles.",
            _score_plot,
        ),
    ]
    out = []
    with _plotting(layouts):
        for title, caption, maker in makers:
            fig = maker(played)
            if fig is not None:
                out.append({"title": title, "caption": caption, "uri": _svg_uri(fig)})
    return out


def _err(e: Estimate, scale: float = 1.0) -> tuple[float, float, float]:
    if not _finite(e.value):
        return 0.0, 0.0, 0.0
    v = e.value * scale
    lo = e.low * scale if _finite(e.low) else v
    hi = e.high * scale if _finite(e.high) else v
    return v, max(0.0, v - lo), max(0.0, hi - v)


def _seat_plot(settings: list[_Setting]) -> PlotFigure | None:
    from matplotlib.lines import Line2D

    if all(s.summary.players < 2 for s in settings):
        return None
    fig = _new_figure(2.9)
    ax: Axes = fig.add_subplot()
    x = 0.0
    ticks: list[float] = []
    labels: list[str] = []
    top = 0.0
    for s in settings:
        n = s.summary.players
        xs = [x + p for p in range(n)]
        values = [_err(e, 100) for e in s.summary.seat_win]
        ax.bar(xs, [v[0] for v in values], width=0.72, color=s.colour, alpha=0.85, zorder=2)
        ax.errorbar(
            xs,
            [v[0] for v in values],
            yerr=[[v[1] for v in values], [v[2] for v in values]],
            fmt="none",
            ecolor="#222222",
            elinewidth=0.8,
            capsize=2.5,
            zorder=3,
        )
        for xi, (v, _lo, hi) in zip(xs, values, strict=True):
            ax.text(
                xi,
                v + hi + 1.0,
                f"{v:.1f}",
                ha="center",
                va="bottom",
                fontsize=6.5,
                color="#333333",
            )
            top = max(top, v + hi)
        ax.hlines(
            100 / n,
            xs[0] - 0.5,
            xs[-1] + 0.5,
            colors="#222222",
            linestyles="dashed",
            linewidth=0.9,
            zorder=4,
        )
        ticks += xs
        labels += [f"{s.tag}{p + 1}" if len(settings) > 1 else f"Seat {p + 1}" for p in range(n)]
        x += n + 1.0
    ax.set_xticks(ticks, labels)
    ax.set_xlim(-0.7, x - 1.3)
    ax.set_ylim(0, min(100.0, max(top * 1.15 + 4, 10.0)))
    ax.set_ylabel("wins (% of games)")
    ax.set_xlabel("seat (setting letter and seat number)" if len(settings) > 1 else "seat")
    ax.set_title("Win rate by seat, with 95% intervals")
    ax.yaxis.grid(True, zorder=0)
    ax.set_axisbelow(True)
    even = Line2D(
        [], [], color="#222222", linestyle="dashed", linewidth=0.9, label="even share (1/N)"
    )
    _setting_legend(fig, settings, [even])
    return fig


def _length_plot(settings: list[_Setting]) -> PlotFigure | None:
    kinds = [
        k
        for k in ("actions", "turns", "rounds")
        if any(k in s.summary.length_values for s in settings)
    ]
    if not kinds:
        return None
    fig = _new_figure(2.5)
    axes = fig.subplots(1, len(kinds), squeeze=False)[0]
    for ax, kind in zip(axes, kinds, strict=True):
        values = [v for s in settings for v in s.summary.length_values.get(kind, [])]
        low, high = min(values), max(values)
        span = high - low + 1
        step = max(1, math.ceil(span / 40))
        edges = [low - 0.5 + step * i for i in range(math.ceil(span / step) + 1)]
        for s in settings:
            data = s.summary.length_values.get(kind, [])
            if not data:
                continue
            weights = [100 / len(data)] * len(data)
            ax.hist(
                data,
                bins=edges,
                weights=weights,
                histtype="stepfilled",
                color=s.colour,
                alpha=0.22 if len(settings) > 1 else 0.5,
                zorder=2,
            )
            ax.hist(
                data,
                bins=edges,
                weights=weights,
                histtype="step",
                color=s.colour,
                linewidth=1.1,
                zorder=3,
            )
            ax.axvline(
                s.summary.lengths[kind].value,
                color=s.colour,
                linestyle="dashed",
                linewidth=0.9,
                zorder=4,
            )
        ax.set_title(f"Length in {kind}")
        ax.set_xlabel(kind)
        ax.set_ylabel("games (%)")
        ax.yaxis.grid(True)
        ax.set_axisbelow(True)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    _setting_legend(fig, settings)
    return fig


def _bars_with_errors(
    ax: Any,
    ys: list[float],
    values: list[float],
    errors: tuple[list[float], list[float]],
    band: float,
    colour: str,
    alpha: float,
    lines: tuple[float, float],
) -> None:
    """Horizontal bars with their 95% error bars (`lines`: error bar width and cap size)."""
    ax.barh(ys, values, height=band * 0.85, color=colour, alpha=alpha, zorder=2)
    ax.errorbar(
        values,
        ys,
        xerr=list(errors),
        fmt="none",
        ecolor="#222222",
        elinewidth=lines[0],
        capsize=lines[1],
        zorder=3,
    )


def _card_plot(settings: list[_Setting]) -> PlotFigure | None:
    labels = sorted({c.label for s in settings for c in s.summary.cards})
    if not labels:
        return None
    cards = {s.tag: {c.label: c for c in s.summary.cards} for s in settings}

    def impact(label: str) -> float:
        for s in settings:
            card = cards[s.tag].get(label)
            if card is not None and card.impact is not None and _finite(card.impact.value):
                return card.impact.value
        return -math.inf

    shown = sorted(labels, key=lambda c: (-abs(impact(c)) if _finite(impact(c)) else math.inf, c))
    left_out = max(0, len(shown) - MAX_CARDS_PLOTTED)
    shown = sorted(shown[:MAX_CARDS_PLOTTED], key=lambda c: (impact(c), c))
    k = len(settings)
    row = 0.16 + 0.11 * k
    fig = _new_figure(min(9.2, 1.3 + row * len(shown) + 0.25 * k))
    ax, ax2 = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 1.6]})
    band = 0.8 / k
    for j, s in enumerate(settings):
        ys, vals, lo, hi, ys_none = [], [], [], [], []
        py, pv, plo, phi = [], [], [], []
        for i, label in enumerate(shown):
            y = i + (k - 1 - 2 * j) * band / 2
            card = cards[s.tag].get(label)
            if card is None:
                continue
            if card.impact is not None and _finite(card.impact.value):
                v, a, b = _err(card.impact, 100)
                ys.append(y)
                vals.append(v)
                lo.append(a)
                hi.append(b)
            else:
                ys_none.append(y)
            v, a, b = _err(card.per_game)
            py.append(y)
            pv.append(v)
            plo.append(a)
            phi.append(b)
        _bars_with_errors(ax, ys, vals, (lo, hi), band, s.colour, 0.85, (0.7, 1.8))
        for y in ys_none:
            ax.text(0, y, "  always or never played", va="center", fontsize=6, color="#777777")
        _bars_with_errors(ax2, py, pv, (plo, phi), band, s.colour, 0.55, (0.6, 1.5))
    ax.axvline(0, color="#222222", linewidth=0.8, zorder=4)
    ax.set_yticks(range(len(shown)), [textwrap.shorten(c, 34, placeholder="…") for c in shown])
    ax.set_ylim(-0.6, len(shown) - 0.4)
    ax.set_xlabel("win rate when played minus otherwise (percentage points)")
    ax.set_title("Card impact on winning, with 95% intervals")
    ax.xaxis.grid(True)
    ax.set_axisbelow(True)
    ax2.set_xlabel("plays per player per game")
    ax2.set_title("How often it is played")
    ax2.xaxis.grid(True)
    ax2.set_axisbelow(True)
    ax2.tick_params(axis="y", left=False)
    if left_out:
        fig.suptitle(
            f"The {MAX_CARDS_PLOTTED} cards with the largest impact ({left_out} more not shown)",
            fontsize=7.5,
            x=0.01,
            ha="left",
            color="#555555",
        )
    _setting_legend(fig, settings)
    return fig


def _score_plot(settings: list[_Setting]) -> PlotFigure | None:
    if all(not any(v for seat in s.summary.score_values for v in seat) for s in settings):
        return None
    seats = max(s.summary.players for s in settings)
    k = len(settings)
    fig = _new_figure(2.8)
    ax: Axes = fig.add_subplot()
    width = 0.8 / k
    for j, s in enumerate(settings):
        data = [seat for seat in s.summary.score_values if seat]
        positions = [p + (j - (k - 1) / 2) * width for p in range(len(data))]
        if not data:
            continue
        ax.boxplot(
            data,
            positions=positions,
            widths=width * 0.8,
            whis=(5, 95),
            showfliers=False,
            showmeans=True,
            patch_artist=True,
            manage_ticks=False,
            boxprops={"facecolor": s.shade, "edgecolor": s.colour, "linewidth": 0.9},
            medianprops={"color": s.colour, "linewidth": 1.4},
            whiskerprops={"color": s.colour, "linewidth": 0.8},
            capprops={"color": s.colour, "linewidth": 0.8},
            meanprops={
                "marker": "D",
                "markersize": 3.5,
                "markerfacecolor": "#222222",
                "markeredgecolor": "#222222",
            },
        )
    ax.set_xticks(range(seats), [f"Seat {p + 1}" for p in range(seats)])
    ax.set_xlim(-0.6, seats - 0.4)
    ax.set_ylabel("final score")
    ax.set_title("Final score by seat")
    ax.yaxis.grid(True)
    ax.set_axisbelow(True)
    _setting_legend(fig, settings)
    return fig
