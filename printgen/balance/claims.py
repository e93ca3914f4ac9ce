"""A game's `claims:`, checked: the figures a simulation or an exact count gives, against
the bounds the designer wrote.

A simulated claim holds when each figure's measured value lies within its bounds (the 95%
interval is reported with it: an interval that straddles a bound says more games would
settle it); an exact claim counts every outcome of one chance step by its odds, so its
value is a fraction and holds or not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from printgen.balance.run import BalanceError, Setting, check_setting, sweep
from printgen.balance.stats import Estimate, Summary, difference, summarise
from printgen.engines import engine_entry, game_data
from printgen.errors import Location, PrintgenError
from printgen.model import Claim, ClaimRun, Game
from rules_engine.core import NotationError, OptionError, SetupError, apply_step, parse_step
from rules_engine.examples import chance_probabilities


@dataclass(frozen=True)
class Figure:
    """One figure of a claim: its measured value (with interval) against its bounds."""

    name: str
    value: Estimate | Fraction
    low: float | None
    high: float | None

    @property
    def ok(self) -> bool:
        v = float(self.value) if isinstance(self.value, Fraction) else self.value.value
        if math.isnan(v):
            return False
        return (self.low is None or v >= self.low - 1e-12) and (
            self.high is None or v <= self.high + 1e-12
        )

    @property
    def settled(self) -> bool:
        """The interval lies wholly on one side of each bound (always, for exact values)."""
        if isinstance(self.value, Fraction):
            return True
        return not any(
            b is not None and self.value.low < b < self.value.high for b in (self.low, self.high)
        )

    def bounds_text(self) -> str:
        low = "…" if self.low is None else _number(self.low)
        high = "…" if self.high is None else _number(self.high)
        return f"[{low}, {high}]"

    def value_text(self) -> str:
        if isinstance(self.value, Fraction):
            text = str(self.value)
            return text if self.value.denominator == 1 else f"{text} ≈ {float(self.value):.4f}"
        v = self.value
        return f"{_number(v.value)} (95% interval {_number(v.low)} to {_number(v.high)})"


def _number(x: float) -> str:
    return f"{x:.4g}"


@dataclass(frozen=True)
class ClaimResult:
    """How a claim fared: its figures, the settings it was measured under, where it is."""

    claim: Claim
    where: Location
    figures: tuple[Figure, ...]
    settings: str

    @property
    def holds(self) -> bool:
        """Every figure within its bounds."""
        return all(f.ok for f in self.figures)

    @property
    def ok(self) -> bool:
        """Holds, or is a known finding (`refuted:`) that still does not hold."""
        return self.holds != (self.claim.refuted is not None)

    @property
    def status(self) -> str:
        if self.claim.refuted is not None:
            return "REFUTED" if not self.holds else "HOLDS NOW"
        return "ok" if self.holds else "FAIL"

    def line(self) -> str:
        parts = []
        for f in self.figures:
            mark = "" if f.ok else f", outside {f.bounds_text()}"
            if f.ok and not f.settled:
                mark = f", within {f.bounds_text()} but not settled: more games would tell"
            parts.append(f"{f.name} = {f.value_text()}{mark}")
        text = f"{self.status:4} claim {self.claim.id}: {'; '.join(parts)} [{self.settings}]"
        if self.claim.refuted is not None and self.holds:
            text += ": it holds now; remove its refuted: note"
        return text if self.ok else f"{self.where}: {text}"


def claim_settings(claim: Claim | ClaimRun, base: Claim | None = None) -> Setting:
    """The sweep setting of a claim (or of its baseline, which defaults to the claim's)."""
    own = base or claim
    assert isinstance(own, Claim)
    options = {**own.options, **claim.options} if base else dict(claim.options)
    return Setting(
        version=claim.version or own.version,
        options=tuple(sorted(options.items())),
        players=claim.players or own.players,
        bots=tuple(own.bots),
        games=own.games,
        seed=own.seed,
    )


def check_claims(
    game: Game,
    workers: int | None = None,
    scheduler: str | None = None,
    advance: Callable[[int], None] | None = None,
) -> list[ClaimResult]:
    """Check every claim of a game (bad input in a claim: a PrintgenError at its line)."""
    claims = game.info.claims
    if not claims:
        return []
    if engine_entry(game) is None:
        raise PrintgenError(
            f"{game.id} states claims but no rules engine plays it yet", game.where("claims")
        )
    data = game_data(game)
    settings: list[Setting] = []
    for k, claim in enumerate(claims):
        if claim.exact:
            continue
        for key, setting in [((), claim_settings(claim))] + (
            [(("baseline",), claim_settings(claim.baseline, claim))] if claim.baseline else []
        ):
            try:
                check_setting(data, setting)
            except (BalanceError, OptionError, ValueError) as exc:
                raise PrintgenError(
                    f"claim {claim.id}: {exc}", game.where("claims", k, *key)
                ) from None
            settings.append(setting)
    summaries: dict[Setting, Summary] = {}
    if settings:
        sweeps = sweep(data, list(dict.fromkeys(settings)), workers, scheduler, advance)
        summaries = {s.setting: summarise(s) for s in sweeps}
    results = []
    for k, claim in enumerate(claims):
        where = game.where("claims", k, "id")
        if claim.exact:
            results.append(_exact(game, k, claim, where))
            continue
        summary = summaries[claim_settings(claim)]
        baseline = (
            summaries[claim_settings(claim.baseline, claim)] if claim.baseline is not None else None
        )
        figures = []
        for name, (low, high) in claim.expect.items():
            figures.append(Figure(name, _figure(game, k, name, summary, baseline), low, high))
        setting = claim_settings(claim)
        text = f"{summary.label}, {_bots_text(setting.bots)}, {summary.games:,} games, seed {setting.seed}"
        if baseline is not None:
            text += f"; against {baseline.label}"
        results.append(ClaimResult(claim, where, tuple(figures), text))
    return results


def _bots_text(bots: Sequence[str]) -> str:
    distinct = list(dict.fromkeys(bots))
    return f"{distinct[0]} players" if len(distinct) == 1 else " vs ".join(bots)


def _figure(game: Game, k: int, name: str, summary: Summary, baseline: Summary | None) -> Estimate:
    base_name, dot, suffix = name.rpartition(".")
    changed = dot and suffix == "change"
    query = base_name if changed else name
    try:
        value = summary.query(query)
        if changed:
            assert baseline is not None
            return difference(value, baseline.query(query))
        return value
    except KeyError:
        known = ", ".join(summary.names())
        raise PrintgenError(
            f"claim {game.info.claims[k].id}: no figure '{query}' (figures: {known}; add "
            "'.change' to compare with the baseline)",
            game.where("claims", k, "expect", name),
        ) from None


def _exact(game: Game, k: int, claim: Claim, where: Location) -> ClaimResult:
    entry = engine_entry(game)
    assert entry is not None
    try:
        engine = entry.load(game_data(game), claim.version, dict(claim.options))
    except (OptionError, ValueError) as exc:
        raise PrintgenError(f"claim {claim.id}: {exc}", where) from None
    try:
        state = (
            engine.setup_state(dict(claim.setup))
            if claim.setup is not None
            else engine.new_initial_state()
        )
    except SetupError as exc:
        raise PrintgenError(
            f"claim {claim.id}: setup: {exc}", game.where("claims", k, "setup", *exc.key)
        ) from None
    for i, text in enumerate(claim.steps):
        try:
            apply_step(state, parse_step(engine, text))
        except (NotationError, ValueError) as exc:
            raise PrintgenError(
                f"claim {claim.id}: step {i + 1} ({text}): {exc}",
                game.where("claims", k, "steps", i),
            ) from None
    names = set(engine.query_names())
    unknown = [q for q in claim.expect if q not in names]
    if unknown:
        raise PrintgenError(
            f"claim {claim.id}: '{unknown[0]}' is not a query of the engine (queries: "
            f"{', '.join(sorted(names))})",
            game.where("claims", k, "expect", unknown[0]),
        )
    try:
        found = chance_probabilities(engine, state, list(claim.expect), claim.setup or {})
    except ValueError as exc:
        raise PrintgenError(f"claim {claim.id}: {exc}", where) from None
    figures = tuple(
        Figure(name, found[name], low, high) for name, (low, high) in claim.expect.items()
    )
    text = f"rules {engine.version}, exact over every outcome of the chance step"
    return ClaimResult(claim, where, figures, text)
