"""What a finished game tells a designer (`SusumukaModoruka.outcome`) and how a position
looks for each player before the end (`SusumukaModoruka.evaluate`), for the balance lab.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.bots import Outcome
from rules_engine.susumuka_modoruka.actions import Act
from rules_engine.susumuka_modoruka.phases import CHOOSE, MAIN

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def outcome(state: SusumukaState) -> Outcome:
    """Scores are the depth the winner is measured by (option `winner`: the trophy by
    default; higher is better).  A turn is one player's turn (an investigate, an advance or a
    pass); rounds are the game's turns (every player once).  Played, per player: "investigate",
    "advance", "fight" / "flee" (the top card), "fight from hand" / "flee from hand",
    "safe flee", "return", "skill <id>", "use <item id>", "reroll"."""
    g = state.g
    n = state.n
    played: list[dict[str, int]] = [{} for _ in range(n)]
    turns = 0
    s = state.initial()
    for step in state.history:
        phase = s.phase
        if isinstance(step, Act):
            label = _label(step, phase, g.dungeon_index)
            if label:
                mine = played[step.player]
                mine[label] = mine.get(label, 0) + 1
            if phase == MAIN and step.verb in ("investigate", "advance", "pass"):
                turns += 1
        s._do(step)  # type: ignore[arg-type]
    scores = tuple(float(state.measure(p)) for p in range(n))
    escapes = sum(state.escapes)
    measures = {
        "escapes": escapes / n,
        "deaths": sum(state.deaths) / n,
        "winning_depth": max(scores),
        "mean_trophy": sum(max(t, 0) for t in state.trophy) / n,
        "max_depth_reached": sum(state.maxd) / n,
        "no_trophy": sum(1 for t in state.trophy if t <= 0) / n,
        "shared_win": 1.0 if len(state.winners) > 1 else 0.0,
    }
    return Outcome(
        scores=scores,
        rounds=state.turns_passed(),
        turns=turns,
        first=state.first,
        played=tuple(played),
        measures=measures,
    )


def _label(step: Act, phase: int, cards: dict[str, int]) -> str:
    verb = step.verb
    if verb in ("skill", "use", "reroll"):
        return f"{verb} {step.args[0]}"
    if phase == CHOOSE:
        hand = any(w in cards for w in step.args)
        smoke = len(step.args) > (1 if hand else 0)
        if verb == "flee" and smoke:
            return "safe flee"
        return f"{verb} from hand" if hand else verb
    if verb in ("investigate", "advance", "return"):
        return verb
    return ""


def evaluate(state: SusumukaState) -> tuple[float, ...]:
    """Each player's prospects in [-1, 1]: their measure so far (a trophy, with the depth of
    a Return under way counting most of what it will bring), against the best of the
    others, scaled so that ten depths ahead is nearly a sure win."""
    n = state.n
    worth = []
    for p in range(n):
        banked = float(state.measure(p))
        if state.g.winner_measure == "trophy_depth" and state.flag[p] > banked:
            banked += 0.6 * (state.flag[p] - banked)
        worth.append(banked)
    out = []
    for p in range(n):
        rival = max(worth[q] for q in range(n) if q != p)
        lead = (worth[p] - rival) / 10.0
        out.append(max(-1.0, min(1.0, lead)))
    return tuple(out)
