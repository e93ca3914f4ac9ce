"""What the balance lab reads from a game of Submarine Attack (issue 17): a finished game's
`Outcome`, a position's prospects for a search that stops early, and each torpedo's exact
odds of sinking something.

The figures come from the rounds' results (`RoundResult`: every card of a finished round is
face up) and the history's dice, so they cost one pass over a game and no replay.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

from rules_engine.bots import Outcome
from rules_engine.core import JointAction
from rules_engine.submarine_attack.actions import ROLL, TARGET, Place, Roll, Start
from rules_engine.submarine_attack.round_end import SINKINGS
from rules_engine.submarine_attack.state import SubmarineAttackState

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack

SMALL_FLEET = 10
"""A fleet of at most this many ships is "small": the seed's 1, 1, 1, 2, 2, 3 (designer's
notes: the fleet that paid under the first rules)."""

LEAD_SCALE = 6.0
"""Points of projected lead that make `evaluate` about 0.76 (tanh 1): some half of a
round's typical score."""


def card_label(g: SubmarineAttack, code: str) -> str:
    """A card as a designer names it: "torpedo S", "evasion A"."""
    card = g.cards[code]
    return f"{card.kind} {card.grade}"


def _sinks(g: SubmarineAttack, dice: tuple[int, ...]) -> bool:
    """Whether a roll sinks a column of an untouched fleet: some face shows two to four
    times (five or more only under `five_or_more: any_column`)."""
    counts = Counter(dice).values()
    return any(2 <= c <= 4 or (c > 4 and g.five_any) for c in counts)


def outcome(g: SubmarineAttack, state: SubmarineAttackState) -> Outcome:
    """A finished game's figures (see `SubmarineAttack.outcome`)."""
    n = state.n
    results = state.results
    rounds = len(results)
    played: list[Counter[str]] = [Counter() for _ in range(n)]
    # Each round's rolls, in order: they match the round's attacks that had dice.
    rolls: list[list[tuple[int, ...]]] = []
    for step in state.history:
        if isinstance(step, JointAction):
            rolls.append([])
        elif isinstance(step, Roll):
            rolls[-1].append(step.dice)
    slots_turned = 0
    rolled = 0
    by_sinking = 0
    afloat_transports = 0
    afloat_ships = 0
    points = 0
    fleet_edge = 0
    s_attack_1_misses = 0
    s_against_b_dice = 0
    for r, result in enumerate(results):
        by_sinking += result.end == SINKINGS
        slots_turned += result.attacks[-1][0] + 1 if result.attacks else 0
        fleets = [sum(ships) for ships in result.ships]
        for p in range(n):
            afloat_transports += len(result.survivors[p])
            afloat_ships += sum(result.survivors[p])
            points += result.points[p]
            for ships in result.ships[p]:
                played[p][f"transport {ships}"] += 1
            if fleets[p] <= SMALL_FLEET:
                played[p]["small fleet"] += 1
            for q in range(p + 1, n):
                if fleets[p] != fleets[q] and result.points[p] != result.points[q]:
                    smaller_won = (fleets[p] < fleets[q]) == (result.points[p] > result.points[q])
                    fleet_edge += 1 if smaller_won else -1
        round_rolls = iter(rolls[r] if r < len(rolls) else ())
        for slot, attacker, code, dice in result.attacks:
            label = card_label(g, code)
            played[attacker][label] += 1
            card = g.cards[code]
            if card.kind != "torpedo":
                continue
            other = result.slots[(attacker + 1) % n][slot]
            if g.card_cancel[other]:
                played[attacker][f"{label} vs {card_label(g, other)}"] += 1
                if card.grade == "S" and g.cards[other].grade == "B":
                    s_against_b_dice += dice
            if dice:
                rolled += 1
                roll = next(round_rolls)
                if slot == 0 and card.grade == "S" and dice == card.dice and not _sinks(g, roll):
                    s_attack_1_misses += 1
    per_round = max(rounds, 1)
    seats = per_round * n
    pairs = per_round * n * (n - 1) // 2
    return Outcome(
        scores=tuple(float(s) for s in state.scores),
        rounds=rounds,
        turns=slots_turned,
        first=_first(state),
        played=tuple(dict(sorted(c.items())) for c in played),
        measures={
            "rounds_ended_by_sinking": by_sinking / per_round,
            "attacks_per_round": slots_turned / per_round,
            "dice_rolls_per_round": rolled / per_round,
            "transports_afloat_per_round": afloat_transports / seats,
            "ships_afloat_per_round": afloat_ships / seats,
            "points_per_round": points / seats,
            "smaller_fleet_round_edge": fleet_edge / pairs,
            "torpedo_s_attack_1_misses": float(s_attack_1_misses),
            "torpedo_s_vs_evasion_b_dice": float(s_against_b_dice),
        },
    )


def _first(state: SubmarineAttackState) -> int:
    """The first player of the game's first round: the setup's, or chance's `Start`."""
    first = state.init[2]
    if first is not None:
        return first
    for step in state.history:
        if isinstance(step, Start):
            return step.player
        break
    return max(state.first, 0)


def evaluate(g: SubmarineAttack, state: SubmarineAttackState) -> tuple[float, ...]:
    """Each player's prospects in [-1, 1]: the lead over the best other player in projected
    points (points so far, plus half the ships still afloat this round: a round's survivors
    score unless the player is sunk out), through tanh; the end's returns at the end."""
    if state.is_terminal():
        return state.returns()
    n = state.n
    projected = list(map(float, state.scores))
    if state.ships[0]:  # placed this round
        for p in range(n):
            sunk = state.sunk[p]
            projected[p] += 0.5 * sum(s for c, s in enumerate(state.ships[p]) if not sunk >> c & 1)
    tanh = math.tanh
    out = []
    for p in range(n):
        best = max(projected[q] for q in range(n) if q != p)
        out.append(tanh((projected[p] - best) / LEAD_SCALE))
    return tuple(out)


def torpedo_odds(g: SubmarineAttack) -> list[tuple[str, str | None, Fraction]]:
    """Each torpedo's exact chance to sink at least one transport of an untouched fleet, with
    no evasion against it and against each evasion card turned over at the same time:
    (torpedo label, evasion label or None, probability), cards in the hand's order.  Every
    roll is played by the engine (`chance_classes`, each class weighted by its ordered
    rolls) and every column the attacker may then choose: a roll counts when some choice
    sinks."""
    codes = list(dict.fromkeys(g.cards_hand))
    torpedoes = [c for c in codes if g.cards[c].kind == "torpedo"]
    evasions = [c for c in codes if g.card_cancel[c]]
    odds = []
    for t in torpedoes:
        for e in (None, *evasions):
            odds.append(
                (card_label(g, t), card_label(g, e) if e else None, _odds(g, t, e, torpedoes))
            )
    return odds


def _odds(g: SubmarineAttack, torpedo: str, evasion: str | None, torpedoes: list[str]) -> Fraction:
    if g.card_dice[torpedo] <= (g.card_cancel[evasion] if evasion else 0):
        return Fraction(0)
    state = SubmarineAttackState(g, 1, None, 0)
    shown = (torpedo, evasion or torpedoes[0])
    places = []
    for p, code in enumerate(shown):
        rest = list(g.cards_hand)
        rest.remove(code)
        places.append(
            Place(p, g.ships_hand[: g.transports_placed], (code, *rest[: g.actions_placed - 1]))
        )
    places.extend(
        Place(p, g.ships_hand[: g.transports_placed], g.cards_hand[: g.actions_placed])
        for p in range(2, g.num_players)
    )
    state.apply_joint(places)
    assert state.phase == ROLL and state.attacker == 0
    classes = g.chance_classes(state) or []
    total = 0
    hits = 0
    for roll, weight in classes:
        child = state.clone()
        child.apply(roll)
        total += weight
        if _some_choice_sinks(child):
            hits += weight
    return Fraction(hits, total)


def _some_choice_sinks(state: SubmarineAttackState) -> bool:
    """Whether player 0's attack just rolled sinks a column of player 1's, for some choice
    of the attacker's (the sunk columns stay marked until the round ends, which the
    smallest fleet cannot reach in one attack)."""
    if state.round != 1:
        raise ValueError("one attack ended the round: torpedo_odds needs a smaller fleet")
    if state.sunk[1]:
        return True
    if state.phase != TARGET or state.attacker != 0:
        return False
    for target in state.legal_actions(0):
        child = state.clone()
        child.apply(target)
        if _some_choice_sinks(child):
            return True
    return False
