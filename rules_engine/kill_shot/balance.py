"""What a finished game of KILL SHOT tells a designer (`KillShot.outcome`), and a cheap guess
at each player's prospects mid-game (`KillShot.evaluate`), for the balance lab.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules_engine.bots import Outcome
from rules_engine.core import JointAction
from rules_engine.kill_shot.actions import (
    Clear,
    Discard,
    First,
    Look,
    Pass,
    Pick,
    Play,
    Reload,
    Wait,
)
from rules_engine.kill_shot.happenings import card_words
from rules_engine.kill_shot.special_cards import INTEL, JAM

CHOICES = (Play, Reload, Discard, Pick, Look, Wait, Clear, Pass)
"""The players' actions (the rest are chance's)."""

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot
    from rules_engine.kill_shot.state import KillShotState


def outcome(g: KillShot, s: KillShotState) -> Outcome:
    """Scores are terrorist points (higher is better); rounds are hunts; turns are Situation
    Room turns (0 in real time, which has none); `first` is Situation Room's first player
    (seat 0, who counts down, in real time, where nobody goes first).  `played` counts each
    card a player put down by its players' name ("9 (Kill Shot)", "Jam", "Bad Intel"; a
    Situation Room turn ended by a Jam or Bad Intel plays none of its cards), "Reload" and
    "clearing drill".  Measures, per game: `escaped_share` (terrorists that got away),
    `bad_intel_per_hunt`, `jams_per_hunt`, `reloads_per_hunt`, `plays_per_hunt` (cards put
    down), `decisions_per_hunt` (players' choices), `turns_per_hunt` (Situation Room),
    `winning_margin` (the winner's points minus the next best)."""
    n = s.n
    played: list[Counter[str]] = [Counter() for _ in range(n)]
    first = 0
    turns = 0
    decisions = 0
    found_first = False

    def count(a: object) -> None:
        if isinstance(a, Play):
            for c in a.cards:
                played[a.player][card_words(g, c).en] += 1
        elif isinstance(a, Reload):
            played[a.player]["Reload"] += 1
        elif isinstance(a, Clear):
            played[a.player]["clearing drill"] += 1

    for step in s.history:
        if isinstance(step, JointAction):
            decisions += len(step)
            if any(isinstance(a, Discard | Pick) for a in step) or not g.turn_based:
                for a in step:
                    count(a)
                continue
            turns += 1
            interrupts = [a for a in step if isinstance(a, Play) and a.target >= 0]
            if interrupts:
                t = interrupts[0].target
                count(min(interrupts, key=lambda a: (a.player - t) % n))
            else:
                for a in step:
                    count(a)
        elif isinstance(step, First):
            if not found_first:
                first, found_first = step.player, True
        elif isinstance(step, CHOICES):
            decisions += 1
            count(step)

    hunts = max(1, s.hunt)
    results = s.results
    totals: Counter[str] = Counter()
    for c in played:
        totals.update(c)
    bad_intel = sum(v for k, v in totals.items() if _is_special(g, k, INTEL))
    jams = sum(v for k, v in totals.items() if _is_special(g, k, JAM))
    plays = sum(v for k, v in totals.items() if k not in ("Reload", "clearing drill"))
    ranked = sorted(s.scores, reverse=True)
    measures = {
        "escaped_share": sum(r.winner < 0 for r in results) / max(1, len(results)),
        "bad_intel_per_hunt": bad_intel / hunts,
        "jams_per_hunt": jams / hunts,
        "reloads_per_hunt": totals["Reload"] / hunts,
        "plays_per_hunt": (plays - bad_intel - jams) / hunts,
        "decisions_per_hunt": decisions / hunts,
        "winning_margin": float(ranked[0] - ranked[1]) if n > 1 else 0.0,
    }
    if g.turn_based:
        measures["turns_per_hunt"] = turns / hunts
    return Outcome(
        scores=tuple(float(x) for x in s.scores),
        rounds=s.hunt,
        turns=turns,
        first=first,
        played=tuple(dict(sorted(c.items())) for c in played),
        measures=measures,
    )


def _is_special(g: KillShot, label: str, special: int) -> bool:
    return any(g.special_of[k] == special and g.card_names[k].en == label for k in g.card_names)


def evaluate(g: KillShot, s: KillShotState) -> tuple[float, ...]:
    """Each player's prospects in [-1, 1]: their lead over the best other player, in terrorist
    points, against the points still to be won (the terrorists left and those being hunted)."""
    n = s.n
    scores = s.scores
    left = sum(g.terrorists[t].points for t in s.terr_left)
    left += sum(
        g.terrorists[t].points for t, open_ in zip(s.pile_terr, s.pile_open, strict=True) if open_
    )
    scale = left + 1.0
    out = []
    for p in range(n):
        best_other = max(scores[q] for q in range(n) if q != p)
        out.append(max(-1.0, min(1.0, (scores[p] - best_other) / scale)))
    return tuple(out)
