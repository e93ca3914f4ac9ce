"""What a sweep measured, each figure with its 95% confidence interval.

Shares (a seat's wins, draws) use the Wilson score interval; means (lengths, scores, the
game's own measures) and differences (a card's impact, a change between two settings) the
normal approximation with the sample's standard error, which is sound for the thousands of
games a sweep plays.  A figure from one game has no interval (its ends are the value).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from printgen.balance.run import MAX_STEPS, GameRecord, Sweep

Z95 = 1.959963984540054
LENGTHS = ("actions", "turns", "rounds")


@dataclass(frozen=True)
class Estimate:
    """A measured value, its 95% interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def excludes(self, x: float) -> bool:
        return not self.low <= x <= self.high

    def text(self, digits: int = 3, percent: bool = False) -> str:
        if percent:
            return f"{self.value:.1%} ({self.low:.1%}–{self.high:.1%})"
        return f"{self.value:.{digits}g} ({self.low:.{digits}g}–{self.high:.{digits}g})"


def share(successes: float, n: int) -> Estimate:
    """A proportion with its Wilson score interval (successes may be fractional: shared
    wins)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with its normal-approximation interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = math.fsum(values) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b for independent estimates (standard errors from their intervals)."""
    se_a = (a.high - a.low) / (2 * Z95)
    se_b = (b.high - b.low) / (2 * Z95)
    half = Z95 * math.sqrt(se_a * se_a + se_b * se_b)
    d = a.value - b.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


@dataclass(frozen=True)
class CardImpact:
    """One card or kind of action: how often a player plays it, and how the win rate of
    players who play it compares with those who do not (an association, not a cause)."""

    label: str
    per_game: Estimate  # times one player plays it per game
    played_share: float  # share of players who play it at least once
    win_when_played: Estimate
    win_otherwise: Estimate
    impact: Estimate | None  # win_when_played - win_otherwise (None: always or never played)


@dataclass
class Summary:
    """Everything measured for one setting."""

    label: str
    games: int
    players: int
    bots: tuple[str, ...]
    seat_win: list[Estimate]
    first_player_win: Estimate
    draw_rate: Estimate
    bot_win: dict[str, Estimate]
    lengths: dict[str, Estimate]
    length_values: dict[str, list[int]]
    scores: list[Estimate]
    score_values: list[list[float]]
    cards: list[CardImpact]
    measures: dict[str, Estimate]
    unfinished: int = 0  # games stopped without an end (counted as draws)

    def query(self, name: str) -> Estimate:
        """A figure by its claim name (KeyError if none): `first_player_win`,
        `seat_win.<n>`, `draw_rate`, `actions`, `turns`, `rounds`, `score`, `score.<n>`,
        `played.<label>`, `impact.<label>`, `bot_win.<bot>` or one of the game's measures."""
        head, dot, tail = name.partition(".")
        if not dot:
            if name == "first_player_win":
                return self.first_player_win
            if name == "draw_rate":
                return self.draw_rate
            if name in self.lengths:
                return self.lengths[name]
            if name == "score":
                return mean([v for seat in self.score_values for v in seat])
            if name in self.measures:
                return self.measures[name]
            raise KeyError(name)
        if head in ("seat_win", "score") and tail.isdigit() and 1 <= int(tail) <= self.players:
            seat = int(tail) - 1
            return self.seat_win[seat] if head == "seat_win" else self.scores[seat]
        if head in ("played", "impact"):
            for card in self.cards:
                if card.label == tail:
                    if head == "played":
                        return card.per_game
                    if card.impact is None:
                        raise KeyError(f"{name} (every player plays it, or none does)")
                    return card.impact
        if head == "bot_win" and tail in self.bot_win:
            return self.bot_win[tail]
        if name in self.measures:
            return self.measures[name]
        raise KeyError(name)

    def names(self) -> list[str]:
        """Every figure `query` knows, for an error that lists them."""
        out = ["first_player_win", "draw_rate", *self.lengths, "score"]
        out += [f"seat_win.{p + 1}" for p in range(self.players)]
        out += [f"score.{p + 1}" for p in range(self.players)]
        out += [f"played.{c.label}" for c in self.cards]
        out += [f"impact.{c.label}" for c in self.cards if c.impact is not None]
        out += [f"bot_win.{b}" for b in self.bot_win]
        out += sorted(self.measures)
        return out


def summarise(sweep: Sweep) -> Summary:
    records = sweep.records
    n = len(records)
    players = len(records[0].returns) if records else 0
    seat_wins = [0.0] * players
    first_wins = 0.0
    bot_wins: dict[str, float] = {}
    bot_seats: Counter[str] = Counter()
    for r in records:
        shares = r.win_shares
        for p, s in enumerate(shares):
            seat_wins[p] += s
            bot_wins[r.seats[p]] = bot_wins.get(r.seats[p], 0.0) + s
            bot_seats[r.seats[p]] += 1
        first_wins += shares[r.outcome.first]
    length_values = {
        "actions": [r.actions for r in records],
        "turns": [r.outcome.turns for r in records],
        "rounds": [r.outcome.rounds for r in records],
    }
    lengths = {k: mean(v) for k, v in length_values.items() if any(v)}
    score_values = [[r.outcome.scores[p] for r in records] for p in range(players)]
    measure_names = sorted({m for r in records for m in r.outcome.measures})
    measures = {
        m: mean([r.outcome.measures[m] for r in records if m in r.outcome.measures])
        for m in measure_names
    }
    distinct = tuple(dict.fromkeys(sweep.setting.bots))
    return Summary(
        label=sweep.setting.label(sweep.engine),
        games=n,
        players=players,
        bots=sweep.setting.bots,
        seat_win=[share(w, n) for w in seat_wins],
        first_player_win=share(first_wins, n),
        draw_rate=share(sum(r.drawn for r in records), n),
        bot_win={b: share(bot_wins[b], bot_seats[b]) for b in distinct}
        if len(distinct) > 1
        else {},
        lengths=lengths,
        length_values={k: v for k, v in length_values.items() if k in lengths},
        scores=[mean(v) for v in score_values],
        score_values=score_values,
        cards=_cards(records, players),
        measures=measures,
        unfinished=sum(r.unfinished for r in records),
    )


def _cards(records: list[GameRecord], players: int) -> list[CardImpact]:
    labels = sorted({label for r in records for seat in r.outcome.played for label in seat})
    out = []
    for label in labels:
        counts: list[int] = []
        won_with: list[float] = []
        won_without: list[float] = []
        for r in records:
            shares = r.win_shares
            for p in range(players):
                played = r.outcome.played[p].get(label, 0) if p < len(r.outcome.played) else 0
                counts.append(played)
                (won_with if played else won_without).append(shares[p])
        with_ = share(math.fsum(won_with), len(won_with))
        without = share(math.fsum(won_without), len(won_without))
        impact = difference(with_, without) if won_with and won_without else None
        out.append(
            CardImpact(
                label,
                mean(counts),
                len(won_with) / len(counts) if counts else 0.0,
                with_,
                without,
                impact,
            )
        )
    return out


@dataclass(frozen=True)
class Change:
    """One figure in two settings and the difference (second minus first)."""

    name: str
    before: Estimate
    after: Estimate
    change: Estimate

    @property
    def verdict(self) -> str:
        """`higher`, `lower`, or `no clear change` at the 95% level."""
        if self.change.low > 0:
            return "higher"
        if self.change.high < 0:
            return "lower"
        return "no clear change"


def compare(before: Summary, after: Summary) -> list[Change]:
    """Every figure both settings have, with the change and whether its interval excludes 0."""
    names = [n for n in after.names() if n in set(before.names())]
    out = []
    for name in names:
        try:
            a, b = before.query(name), after.query(name)
        except KeyError:
            continue
        out.append(Change(name, a, b, difference(b, a)))
    return out


def unfinished_text(s: Summary) -> str:
    """What a designer should know about games that never ended."""
    return (
        f"{s.unfinished:,} of {s.games:,} games had no end after {MAX_STEPS:,} steps (the "
        "players blocked each other): counted as draws; a rule option that ends a game "
        "(a turn limit) measures them better"
    )
