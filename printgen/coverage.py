"""Rule coverage: which worked examples show each rule clause of a game.

The engine tags every transition with the ids of the rule clauses it applied (its event
log, `rules_engine.core.Event`); a replayed example therefore knows the rules it shows.
This module sets those against the clauses the game declares (`clauses:` in game.yaml):
each clause with the examples that show it, the clauses none shows, and the ids the engine
applied that the data does not declare (the engine and the data have drifted apart).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from printgen.errors import Location, PrintgenError
from printgen.examples import ExampleResult
from printgen.model import Clause, Game
from printgen.rulebook.worked import clause_title


@dataclass(frozen=True)
class ClauseCoverage:
    """One clause and the example files that show it (in file order)."""

    clause: Clause
    where: Location
    examples: tuple[Path, ...]


@dataclass(frozen=True)
class Coverage:
    """A game's rule coverage from its replayed examples."""

    game: Game
    clauses: tuple[ClauseCoverage, ...]
    undeclared: dict[str, tuple[Path, ...]] = field(default_factory=dict)

    @property
    def uncovered(self) -> tuple[ClauseCoverage, ...]:
        return tuple(c for c in self.clauses if not c.examples)

    def lines(self) -> list[str]:
        """The table `printgen check --coverage` prints for the game."""
        shown = len(self.clauses) - len(self.uncovered)
        out = [f"{self.game.id}: {shown} of {len(self.clauses)} rules shown by a worked example"]
        if not self.clauses:
            out[0] = f"{self.game.id}: no rules declared (list them under clauses: in game.yaml)"
            return out
        width = max(len(c.clause.id) for c in self.clauses)
        for c in self.clauses:
            names = ", ".join(p.stem.split("-", 1)[0] for p in c.examples)
            found = names or (
                f"none: printgen examples suggest {self.game.id} --rule {c.clause.id}"
            )
            title = clause_title(self.game, c.clause, "en")
            out.append(f"  {c.clause.id:<{width}}  {title}: {found}")
        return out


def coverage(game: Game, results: list[ExampleResult]) -> Coverage:
    """Each declared clause with the examples whose replay applied it. Only examples that
    hold count: a failing example shows nothing until it is fixed."""
    by_rule: dict[str, list[Path]] = {}
    for result in results:
        if not result.ok:
            continue
        for rule in result.rules:
            by_rule.setdefault(rule, []).append(result.file)
    declared = {c.id for c in game.info.clauses}
    clauses = tuple(
        ClauseCoverage(c, game.where("clauses", k), tuple(by_rule.get(c.id, ())))
        for k, c in enumerate(game.info.clauses)
    )
    undeclared = {r: tuple(paths) for r, paths in sorted(by_rule.items()) if r not in declared}
    return Coverage(game, clauses, undeclared)


def drift_errors(found: Coverage) -> list[PrintgenError]:
    """Rule ids the engine applied that the game does not declare: one error each, at the
    game's clauses (the engine and the data must not drift apart)."""
    game = found.game
    where = game.where("clauses") if game.info.clauses else game.where()
    return [
        PrintgenError(
            f"the rules engine applied rule '{rule}' (in {paths[0].name}), which clauses: does "
            f"not declare: add it with its title and section, or correct the engine's rule id",
            where,
        )
        for rule, paths in found.undeclared.items()
    ]


def uncovered_errors(found: Coverage) -> list[PrintgenError]:
    """One error per clause no example shows (for `--strict`)."""
    game = found.game
    if not game.info.clauses:
        return [
            PrintgenError(
                "no rule clauses declared: list each rule under clauses: (id, title, section) so "
                "that coverage can be checked",
                game.where(),
            )
        ]
    return [
        PrintgenError(
            f"rule {c.clause.id} ({clause_title(game, c.clause, 'en')}) is shown by no worked "
            "example: write one, "
            f"or let printgen examples suggest {game.id} --rule {c.clause.id} draft it",
            c.where,
        )
        for c in found.uncovered
    ]
