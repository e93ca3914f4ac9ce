"""What a finished game tells a designer (`outcome`), and a position's prospects (`evaluate`).

Scores: in deathmatch and survival a player's health left (the damage limit less the HIT
tokens on their board, never below 0), higher is better; in an all-out attack the number of
opponents they have hit as often as the ending asks.  Rounds are the game's turns (one
programming each); turns are its steps (every player turns up one card).  The cards played
are named as printed ("Move 2", "Move 1 / Shoot", "Shoot / Swish").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.bots import Outcome
from rules_engine.subzero.actions import Program, Reveal, Youngest
from rules_engine.subzero.endings import ALL_OUT
from rules_engine.subzero.sampling import actions_of

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero
    from rules_engine.subzero.state import SubzeroState


def card_names(g: Subzero) -> tuple[str, ...]:
    """Each card kind's printed English name, from its actions and steps."""
    names = []
    for card in g.cards:
        parts = [f"Move {card.steps}" if a == "move" else a.capitalize() for a in card.actions]
        names.append(" / ".join(parts))
    return tuple(names)


def scores(g: Subzero, s: SubzeroState) -> tuple[float, ...]:
    n = s.n
    if g.ending == ALL_OUT:
        need = g.hits_needed
        return tuple(
            float(sum(1 for t in range(n) if t != p and s.boards[t][p] >= need)) for p in range(n)
        )
    return tuple(float(max(0, g.damage_limit - s.damage[p])) for p in range(n))


def outcome(g: Subzero, s: SubzeroState) -> Outcome:
    """The outcome of a finished game.  Measures, per game: `hits` (HIT tokens placed),
    `balls_thrown`, `hit_rate` (hits per ball thrown, 0 without a throw), `empty_shots`
    (SHOOTs turned up with no snowball), `rolls_lost` (ROLLs at the snowball limit),
    `swishes`, `moves`, `reshuffles`, `shared_result` (1 when the game ended with more than
    one winner: a draw or a shared result) and `first_player_won`."""
    n = s.n
    names = card_names(g)
    index = g.card_index
    played: list[dict[str, int]] = [{} for _ in range(n)]
    balls = list(s.init.balls) if s.init is not None else [g.snowballs_at_start] * n
    thrown = empty = lost = swishes = moves = rounds = steps = 0
    first = s.youngest
    in_turn = [0] * n  # cards each player turned up this turn: its steps are the most
    for step in s.history:
        acts = actions_of(step)
        a0 = acts[0]
        if isinstance(a0, Program):
            rounds += 1
            steps += max(in_turn)
            in_turn = [0] * n
        elif isinstance(a0, Youngest):
            first = a0.player
        for r in acts:
            if not isinstance(r, Reveal):
                continue
            p = r.player
            name = names[index[r.card]]
            played[p][name] = played[p].get(name, 0) + 1
            if r.shots is not None:
                if r.shots:
                    thrown += len(r.shots)
                    balls[p] -= len(r.shots)
                else:
                    empty += 1
            if r.roll:
                if balls[p] >= g.max_snowballs:
                    lost += 1
                else:
                    balls[p] += 1
            swishes += r.swish
            moves += r.move >= 0
            in_turn[p] += 1
    steps += max(in_turn)
    hits = sum(s.damage)
    return Outcome(
        scores=scores(g, s),
        rounds=rounds,
        turns=steps,
        first=max(first, 0),
        played=tuple(played),
        measures={
            "hits": float(hits),
            "balls_thrown": float(thrown),
            "hit_rate": hits / thrown if thrown else 0.0,
            "empty_shots": float(empty),
            "rolls_lost": float(lost),
            "swishes": float(swishes),
            "moves": float(moves),
            "reshuffles": float(s.reshuffles),
            "shared_result": float(len(s.winners) > 1),
            "first_player_won": float(first in s.winners and len(s.winners) == 1),
        },
    )


def evaluate(g: Subzero, s: SubzeroState) -> tuple[float, ...]:
    """Each player's prospects in [-1, 1]: their strength less the best opponent's, scaled.

    Strength in deathmatch and survival is health left plus a quarter point per snowball
    held (a ball in hand is a hit on the way); in an all-out attack, the share of the hits
    still needed that are done, plus a little per snowball.  A player who is out scores -1."""
    n = s.n
    if s.is_terminal():
        return s.returns()
    out = s.out
    if g.ending == ALL_OUT:
        need = g.hits_needed
        alive = [p for p in range(n) if p not in out]
        others = max(1, len(alive) - 1)
        strength = [
            sum(min(s.boards[t][p], need) for t in alive if t != p) / (need * others)
            + 0.05 * s.balls[p]
            for p in range(n)
        ]
        scale = 1.0
    else:
        limit = g.damage_limit
        strength = [limit - s.damage[p] + 0.25 * s.balls[p] for p in range(n)]
        scale = float(limit)
    values = []
    for p in range(n):
        if p in out:
            values.append(-1.0)
            continue
        best = max((strength[q] for q in range(n) if q != p and q not in out), default=0.0)
        values.append(max(-1.0, min(1.0, (strength[p] - best) / scale)))
    return tuple(values)
