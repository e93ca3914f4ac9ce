"""Torpedoes and dice (the rulebook's "Torpedoes and dice"; rule 2-3-1 and the results of
its torpedo paragraph, 2-3-1(1)-miss, -pair, -two-pairs, -triple, -four and -sunk).

A torpedo rolls its dice (a `Roll`, chance).  Each group of equal faces aims at a column:
two of a face sink that column (two pairs sink both); three of a face sink that column
or a neighbour, and four or more any column, at the attacker's choice (a `Target`); five
or more do as four only under `five_or_more: any_column`.  Under `triple_and_pair:
choose_one` a roll with a triple or a four and another group uses one group only, the
attacker's pick.  A column already sunk makes its group fail.  Then the attack ends
(`attacks.end_attack`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.submarine_attack.actions import ROLL, TARGET, Roll, Target
from rules_engine.submarine_attack.attacks import end_attack

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack
    from rules_engine.submarine_attack.state import SubmarineAttackState


def check_roll(state: SubmarineAttackState, action: Roll) -> None:
    """Raise `IllegalActionError` unless chance may roll `action.dice` now."""
    g = state.g
    if state.phase != ROLL:
        raise IllegalActionError("2-3-1", f"no torpedo is being fired now ({state._now()})")
    dice = action.dice
    if len(dice) != state.dice:
        # The evasion's rule when an evasion took dice away, else the torpedo's.
        defender = (state.attacker + 1) % state.n
        reduced = g.card_cancel[state.slots[defender][state.slot]]
        raise IllegalActionError(
            "2-3-1(2)" if reduced else "2-3-1",
            f"{torpedo_text(state)} rolls {_n(state.dice, 'die', 'dice')}, "
            f"got {_n(len(dice), 'die', 'dice')}",
        )
    for d in dice:
        if not 1 <= d <= g.faces:
            raise IllegalActionError("2-3-1", f"a die shows 1 to {g.faces}, got {d}")


def check_target(state: SubmarineAttackState, player: int, action: Target) -> None:
    """Raise `IllegalActionError` unless `player` may choose `action.column` now."""
    g = state.g
    if state.phase != TARGET:
        raise IllegalActionError("2-3-1", f"there is no column to choose now ({state._now()})")
    face, count, choices = state.pending[0]
    rule = group_rule(count, state.pending_pairs)
    if action.player != state.attacker or player != state.attacker:
        raise IllegalActionError(
            rule,
            f"the attacker ({g.names[state.attacker]}) chooses the column, "
            f"not {g.player_name(action.player)}",
        )
    if action.column not in choices:
        raise IllegalActionError(rule, f"{_group_text(face, count, choices)}, not {action.column}")


def group_rule(count: int, pairs: tuple[int, ...] = ()) -> str:
    """The clause of a group of `count` equal dice: 2-3-1(1)-pair, -triple or -four; a
    one-group choice (count 0, `triple_and_pair: choose_one`) is the triple's clause."""
    if count == 2:
        return "2-3-1(1)-two-pairs" if len(pairs) > 1 else "2-3-1(1)-pair"
    if count >= 4:
        return "2-3-1(1)-four"
    return "2-3-1(1)-triple"


def torpedo_text(state: SubmarineAttackState) -> str:
    """The torpedo being fired, and the evasion opposing it: 'torpedo S against evasion B'."""
    g = state.g
    attacker = state.attacker
    defender = (attacker + 1) % state.n
    card = g.cards[state.slots[attacker][state.slot]]
    other = g.cards[state.slots[defender][state.slot]]
    text = f"torpedo {card.grade}"
    if other.cancel:
        text += f" against evasion {other.grade}"
    return text


Groups = tuple[tuple[int, ...], tuple[tuple[int, int, tuple[int, ...]], ...]]
"""What a roll aims at: the faces showing a pair (sorted), and the groups of three or more
that the attacker places (face, count, the columns to choose from; sorted)."""


def roll_groups(g: SubmarineAttack, dice: tuple[int, ...]) -> Groups:
    """The groups of a roll (`Groups`), read from its faces under the engine's options;
    kept per engine by the faces in order (`SubmarineAttack.groups_of`): seven dice show
    only 792 sets of faces, which every playout rolls again and again."""
    counts = [0] * (g.faces + 1)
    for d in dice:
        counts[d] += 1
    pairs: list[int] = []
    big: list[tuple[int, int, tuple[int, ...]]] = []
    for face in set(dice):
        c = counts[face]
        if c == 2:
            pairs.append(face)
        elif c == 3:
            big.append((face, 3, g.triple_choices[face]))
        elif c == 4 or (c > 4 and g.five_any):
            big.append((face, c, g.all_columns))
    return tuple(sorted(pairs)), tuple(sorted(big))


def roll(state: SubmarineAttackState, dice: tuple[int, ...]) -> None:
    g = state.g
    state.last_roll = dice
    state.last_sunk = []
    faces = tuple(sorted(dice))  # the order of the dice does not count
    groups = g.roll_groups.get(faces)
    if groups is None:
        groups = g.groups_of(faces)
    pairs, big = groups
    defender = (state.attacker + 1) % state.n
    on = EVENTS.on
    if on:
        counts = [0] * (g.faces + 1)
        for d in dice:
            counts[d] += 1
        roll_events(state, dice, counts, pairs, big)
    if big and g.choose_one and (pairs or len(big) > 1):
        choices = set(pairs)
        for _, _, cols in big:
            choices.update(cols)
        state.pending = [(0, 0, tuple(sorted(choices)))]
        state.pending_pairs = pairs
        state.phase = TARGET
        if on:
            EVENTS.emit(
                group_rule(0),
                "choose_one",
                attacker=g.names[state.attacker],
                player=g.names[defender],
                pairs=list(pairs),
                groups=[[face, count] for face, count, _ in big],
                choices=sorted(choices),
            )
        return
    for face in pairs:
        sunk = sink(state, defender, face)
        if on:
            sink_event(state, defender, face, group_rule(2, pairs), face, 2, sunk, False)
    if big:
        state.pending = list(big)
        state.pending_pairs = ()
        state.phase = TARGET
        if on:
            for face, count, cols in big:
                EVENTS.emit(
                    group_rule(count),
                    "choose",
                    attacker=g.names[state.attacker],
                    player=g.names[defender],
                    face=face,
                    count=count,
                    choices=list(cols),
                )
        return
    end_attack(state)


def roll_events(
    state: SubmarineAttackState,
    dice: tuple[int, ...],
    counts: list[int],
    pairs: tuple[int, ...],
    big: tuple[tuple[int, int, tuple[int, ...]], ...],
) -> None:
    """Rule 2-3-1: the torpedo's dice are rolled; 2-3-1(1)-miss: no two alike; a group of
    five or more that `five_or_more: miss` leaves without effect (the four's clause)."""
    g = state.g
    EVENTS.emit("2-3-1", "roll", player=g.names[state.attacker], faces=list(dice))
    if max(counts) < 2:
        EVENTS.emit("2-3-1(1)-miss", "miss", player=g.names[state.attacker], dice=len(dice))
    elif not g.five_any:
        for face in sorted(set(dice)):
            if counts[face] > 4:
                EVENTS.emit(
                    "2-3-1(1)-four",
                    "five_no_effect",
                    player=g.names[state.attacker],
                    face=face,
                    count=counts[face],
                    alone=not pairs and not big,
                )


def sink_event(
    state: SubmarineAttackState,
    defender: int,
    column: int,
    rule: str,
    face: int,
    count: int,
    sunk: bool,
    chosen: bool,
) -> None:
    """A group's (or the attacker's chosen) column: sunk (`rule`, the group's clause), or
    already sunk (2-3-1(1)-sunk: the group does nothing)."""
    g = state.g
    EVENTS.emit(
        rule if sunk else "2-3-1(1)-sunk",
        "sink" if sunk else "already_sunk",
        attacker=g.names[state.attacker],
        player=g.names[defender],
        column=column,
        ships=state.ships[defender][column - 1] if column <= g.columns else 0,
        face=face,
        count=count,
        chosen=chosen,
        total=state.sunk_ships[defender],
    )


def target(state: SubmarineAttackState, column: int) -> None:
    defender = (state.attacker + 1) % state.n
    pairs = state.pending_pairs
    if pairs and column in pairs:
        for face in pairs:
            sunk = sink(state, defender, face)
            if EVENTS.on:
                sink_event(state, defender, face, group_rule(2, pairs), face, 2, sunk, True)
    else:
        sunk = sink(state, defender, column)
        if EVENTS.on:
            face, count, _ = state.pending[0]
            sink_event(state, defender, column, group_rule(count), face, count, sunk, True)
    state.pending = state.pending[1:]
    if state.pending:
        return
    state.pending_pairs = ()
    end_attack(state)


def sink(state: SubmarineAttackState, defender: int, column: int) -> bool:
    """Sink the transport in `column` (1-based); an already sunk column: the attack fails
    (False)."""
    if column > state.g.columns:
        return False
    bit = 1 << (column - 1)
    if state.sunk[defender] & bit:
        return False
    state.sunk[defender] |= bit
    state.sunk_ships[defender] += state.ships[defender][column - 1]
    state.last_sunk.append(column)
    return True


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def _group_text(face: int, count: int, choices: tuple[int, ...]) -> str:
    listing = (
        ", ".join(map(str, choices[:-1])) + f" or {choices[-1]}"
        if len(choices) > 1
        else str(choices[0])
    )
    if count == 3:
        return f"a triple of {face}s sinks column {listing} (the attacker's choice)"
    if count >= 4:
        return f"{count} of a kind ({face}s) sinks any one column: {listing}"
    return f"the attacker uses one group of the roll: column {listing}"
