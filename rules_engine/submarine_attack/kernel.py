"""A search player's playout of Submarine Attack, fast (issue 18): `SubmarineAttackState.playout`.

It plays exactly the game `rules_engine.core.generic_playout` plays from the same generator:
the same draws in the same order (a placement by `rng.choice` over all of the player's
placements, a target by `rng.choice` over the columns offered, a torpedo's dice and who
goes first by `sample_action`'s `rng.random()`), the same rules, and it leaves a state equal
to the one the checked way leaves, history included.  What it saves is the protocol's
dispatch and the legality check of actions drawn legal, and what a game would make again
and again:

- the placements (`PlayoutTables`): each hand's arrangements listed in two short tables, a
  prefix (its row looked up by the index) and the rest (with what the player sets aside) by
  index, so a drawn index is decoded without walking the arrangement tree; the action
  cards also by number, so that an attack's dice are read from tuples by number;
- the rolls: what each roll of up to five dice does, with its `Roll`, kept by its one draw's
  number (`actions.roll_dice`: the faces in the order rolled as its digits; 9,330 rolls of
  six faces); what a larger roll does, kept by how many dice show each face;
- each player's `Target` of each column;
- what nobody reads in a playout: the placements' `Place`s, the `Roll`s of more than five
  dice, each round's `RoundResult` and the round's attacks are left packed in the state
  (plain tuples, the attacks' number) and made by `unpack` when the state's `history`,
  `results` or `attacks` are first read: the same actions and results as the checked way's.

The rules are the chapters' own (`attacks`, `torpedoes`, `round_end`, `first_player`,
`game_end`), written out here over local variables; `tests/engine/shortcuts.py:
check_playout` holds the two to the same games.  With the event log on, the playout goes
the protocol's way, which tells every rule.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final, cast

from rules_engine.core import EVENTS, Arrangements, JointAction, generic_playout, index_bits
from rules_engine.submarine_attack.actions import (
    OVER,
    PLACE,
    ROLL,
    START,
    TARGET,
    Place,
    Roll,
    Start,
    Target,
    roll_dice,
    roll_faces,
)
from rules_engine.submarine_attack.attacks import made_attacks
from rules_engine.submarine_attack.placement import _minus
from rules_engine.submarine_attack.round_end import ALL_SLOTS, SINKINGS, RoundResult, afloat

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack
    from rules_engine.submarine_attack.state import SubmarineAttackState

# The playout's own steps between actions (never a state's phase): the next attack that
# needs dice, and the end of a round.
_NEXT: Final = -1
_END: Final = -2

_LIST_UP_TO: Final = 4096
"""A hand's arrangements listed outright up to this many (the transports: 1,920); more
(the action cards: 84,000) are listed in two halves."""

_KEPT_ROLLS: Final = 7776
"""Rolls kept by their faces in order while a roll of that many dice has at most this many
outcomes (five dice of six faces); larger rolls are kept by their sorted faces."""

_COUNTED: Final = 16
"""Rolls of more dice than `_KEPT_ROLLS` keeps, and fewer than this, are kept by how many dice
show each face (four bits a face: `PlayoutTables.counted`)."""

_tuple_new = tuple.__new__
_new_object = object.__new__
_set_attribute = object.__setattr__

Group = tuple[int, int, tuple[int, ...]]
Rolled = tuple[
    Roll,
    tuple[int, ...],
    int,
    tuple[int, ...],
    tuple[Group, ...],
    tuple[Group, tuple[int, ...]] | None,
]
"""A roll kept (`PlayoutTables.rolled`): its `Roll`, its faces and what it does (`Effect`)."""
Effect = tuple[int, tuple[int, ...], tuple[Group, ...], tuple[Group, tuple[int, ...]] | None]
"""What a roll does (`torpedoes.roll`): the column its only pair sinks when it does
nothing else (else 0), the columns its pairs sink at once, the groups of three or more
the attacker places, and under `triple_and_pair: choose_one` the one-group choice offered
instead with the faces showing a pair (else None)."""


class Unranker:
    """The arrangements of `k` of a hand's cards in `Arrangements`' order, each with what
    the player sets aside (`placement._minus`), found by index in two lookups.

    Arrangements are in sorted order, so those sharing their first `h` cards are
    consecutive and in the order of their last `k - h` cards: a row per first part (its
    first index in `starts`), and for each multiset of cards left after it the listing of
    the last parts.  Both tables stay small (a few thousand rows for the 84,000
    arrangements of 8 action cards from 10) where listing every arrangement would not."""

    __slots__ = ("length", "rows", "starts")

    def __init__(self, hand: tuple[Any, ...], k: int) -> None:
        length = len(Arrangements(hand, k))
        h = 0 if length <= _LIST_UP_TO else k // 2
        listings: dict[tuple[Any, ...], tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]] = {}
        starts: list[int] = []
        rows = []
        at = 0
        for head in Arrangements(hand, h):
            left = _minus(hand, head)
            tails = listings.get(left)
            if tails is None:
                tails = listings[left] = tuple(
                    (tail, _minus(left, tail)) for tail in Arrangements(left, k - h)
                )
            starts.append(at)
            rows.append((head, tails))
            at += len(tails)
        if at != length:
            raise ValueError(f"{at} arrangements listed, {length} expected")
        self.length = length
        self.starts = starts
        self.rows = tuple(rows)

    def listing(self) -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
        """Every arrangement with what it sets aside, by index (made once)."""
        if len(self.rows) == 1:
            return self.rows[0][1]
        return tuple([self[i] for i in range(self.length)])

    def __getitem__(self, index: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The arrangement at `index`, and what it sets aside."""
        i = bisect_right(self.starts, index) - 1
        head, tails = self.rows[i]
        tail, spare = tails[index - self.starts[i]]
        return head + tail, spare


class PlayoutTables:
    """What the playouts of one engine keep (`SubmarineAttack.playout_tables`): the
    placements' decoding, the `Start` of each player and the order of attacks they begin,
    each player's `Target` of each column, and the rolls seen so far;
    `constants` holds what the playout reads of them and of the engine, in the order it
    unpacks them."""

    __slots__ = ("code_index", "constants", "effects", "g", "rolls")

    def __init__(self, g: SubmarineAttack) -> None:
        self.g = g
        n = g.num_players
        ships = Unranker(g.ships_hand, g.transports_placed)
        cards = Unranker(g.cards_hand, g.actions_placed)
        kept = 0
        while kept < 5 and g.faces ** (kept + 1) <= _KEPT_ROLLS:
            kept += 1
        # By the sorted faces: what a roll does.
        self.effects: dict[tuple[int, ...], Effect] = {}
        # The same of a roll of more dice than `rolls` keeps, by how many dice show each face.
        counted: dict[int, Effect] = {}
        # The rolls of up to `kept` dice seen so far (`rolled`): those of d dice from
        # `bases[d]` on, by their faces less one read as the digits of a number, first die
        # first (a number, not a tuple of the faces: no tuple to make and hash at every roll).
        bases = [0] * (kept + 2)
        for d in range(1, kept + 1):
            bases[d + 1] = bases[d] + g.faces**d
        self.rolls: list[Rolled | None] = [None] * bases[kept + 1]
        placements = ships.length * cards.length
        # The action cards by number (`code_index`), and the placements' cards as those
        # numbers, row by row of `cards` (a listing shared by rows is numbered once): the
        # dice of an attack are then read from two tuples, not two dictionaries by name.
        codes = sorted(g.card_dice)
        self.code_index = {code: i for i, code in enumerate(codes)}
        numbered: dict[int, tuple[tuple[int, ...], ...]] = {}
        card_ids = []
        for head, tails in cards.rows:
            tail_ids = numbered.get(id(tails))
            if tail_ids is None:
                tail_ids = numbered[id(tails)] = tuple(self.numbers(tail) for tail, _ in tails)
            card_ids.append((self.numbers(head), tail_ids))
        # The row of each arrangement of the action cards, by its index (a lookup, not a
        # bisection of `cards.starts`: 84,000 references for 8 cards of 10).
        ends = [*cards.starts[1:], cards.length]
        row_of = tuple([k for k, start in enumerate(cards.starts) for _ in range(ends[k] - start)])
        self.constants = (
            n,
            range(n),
            tuple((p + 1) % n for p in range(n)),  # the player each attacks
            g.faces,
            g.columns,
            tuple(1 << (c - 1) if c else 0 for c in range(g.columns + 1)),  # column -> bit
            g.actions_placed,
            g.round_end_ships,
            g.target_points,
            # Per card and the card it meets (by number), the dice it rolls (`attacks.advance`).
            tuple(
                tuple(
                    max(g.card_dice[code] - g.card_cancel[other], 0) if g.card_dice[code] else 0
                    for other in codes
                )
                for code in codes
            ),
            g.others_score,
            g.tie_winner == "draw",
            g.tie_first,
            g.ships_hand,
            g.cards_hand,
            ships.listing(),
            cards.starts,
            row_of,
            cards.rows,
            tuple(card_ids),
            cards.length,  # placements per arrangement of the transports
            placements,
            placements.bit_length(),
            tuple(Start(p) for p in range(n)),
            # Each player's `Target` of each column a choice may name (a face or a column).
            tuple(
                tuple(Target(p, column) for column in range(max(g.faces, g.columns) + 1))
                for p in range(n)
            ),
            tuple(tuple((first + i) % n for i in range(n)) for first in range(n)),
            kept,
            self.rolls,
            tuple(bases),
            counted,
            g.dice_per_draw,
            tuple([int(g.faces**d) for d in range(g.dice_per_draw + 1)]),  # a draw's outcomes
            # At most this many steps from a placement to the next one's (a roll and a
            # target per three dice for every attack, and who goes first), with one spare.
            n * g.actions_placed * (1 + max(g.card_dice.values()) // 3) + 3,
        )

    def numbers(self, cards: tuple[str, ...]) -> tuple[int, ...]:
        """Action cards by their numbers (`code_index`)."""
        return tuple([self.code_index[code] for code in cards])

    def rolled(self, at: int, dice: int, number: int) -> Rolled:
        """The roll of `dice` dice whose faces less one are the digits of `number` (first die
        first), kept at `rolls[at]`."""
        rolled = tuple(roll_faces(number, self.g.faces, dice))
        found = self.rolls[at] = (Roll(rolled), rolled, *self.effect(rolled))
        return found

    def effect(self, dice: tuple[int, ...]) -> Effect:
        """What a roll showing `dice` does (`torpedoes.roll`), kept by its sorted faces."""
        faces = tuple(sorted(dice))
        found = self.effects.get(faces)
        if found is None:
            g = self.g
            groups = g.roll_groups.get(faces)
            if groups is None:
                groups = g.groups_of(faces)
            pairs, big = groups
            sinks = tuple(face for face in pairs if face <= g.columns)
            if big and g.choose_one and (pairs or len(big) > 1):
                # One group only, the attacker's pick: no pair sinks before it.
                choices = set(pairs)
                for _, _, cols in big:
                    choices.update(cols)
                found = (0, (), big, ((0, 0, tuple(sorted(choices))), pairs))
            elif len(sinks) == 1 and not big:
                found = (sinks[0], sinks, big, None)
            else:
                found = (0, sinks, big, None)
            self.effects[faces] = found
        return found


Packed = tuple[tuple[tuple[int, ...], ...], tuple[tuple[str, ...], ...]] | tuple[int, ...]
"""A step as a playout may leave it in the history: a placement as each player's transports
and action cards (`unpack` makes it the `JointAction` of their `Place`s), or a roll of more
dice than `PlayoutTables.rolls` keeps as its faces (`unpack` makes it the `Roll`)."""
PackedRound = tuple[
    int,
    str,
    int | None,
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[str, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
]
"""A round's result as a playout leaves it: the round, how it ended, the sinker, the points,
the transports, the action cards, the sunk columns, the order of play and how many attacks
were made (`unpack` makes it the `RoundResult`)."""


def unpack(state: SubmarineAttackState) -> None:
    """Make what a playout left packed in `state` what the checked way makes: the
    placements in the history (`Packed`), the rounds' results (`PackedRound`: plain tuples,
    where the history holds actions and the results `RoundResult`s), and the round's
    attacks (their number, `made_attacks`).  A search player's playouts play many games
    whose history and results nobody reads: packing them spares making a `Place` per
    player, a `RoundResult` per round and a tuple per attack."""
    g = state.g
    steps = state._steps
    for i, step in enumerate(steps):
        if type(step) is tuple:
            if step and type(step[0]) is int:
                steps[i] = _tuple_new(Roll, (step,))
            else:
                ships, slots = cast(
                    "tuple[tuple[tuple[int, ...], ...], tuple[tuple[str, ...], ...]]", step
                )
                steps[i] = JointAction(
                    [_tuple_new(Place, (p, ships[p], slots[p])) for p in range(len(ships))]
                )
    results = state._results
    for i, result in enumerate(results):
        if type(result) is tuple:
            round_, end, sinker, points, ships, slots, sunk, order, made = result
            survivors = tuple([afloat(mine, sunk[p]) for p, mine in enumerate(ships)])
            attacks = tuple(made_attacks(g, slots, order, made))
            # The slots turned over: up to the last attack's.
            shown = attacks[-1][0] + 1 if attacks else 0
            cards = tuple([mine[:shown] for mine in slots])
            results[i] = _round_result(
                round_, end, sinker, points, survivors, cards, ships, slots, sunk, attacks
            )
    counted = state._attacks
    if type(counted) is int:
        state._attacks = made_attacks(g, state.slots, state.order, counted)
    state._packed = False


_ROUND_FIELDS: Final[dict[str, Any]] = dict.fromkeys(field.name for field in fields(RoundResult))
"""A `RoundResult`'s fields, in their order (`_round_result` fills a copy)."""


def _round_result(
    round: int,
    end: str,
    sinker: int | None,
    points: tuple[int, ...],
    survivors: tuple[tuple[int, ...], ...],
    cards: tuple[tuple[str, ...], ...],
    ships: tuple[tuple[int, ...], ...],
    slots: tuple[tuple[str, ...], ...],
    sunk: tuple[int, ...],
    attacks: tuple[tuple[int, int, str, int], ...],
) -> RoundResult:
    """`RoundResult(...)` with its fields set at once: a frozen dataclass's `__init__` sets
    them one `object.__setattr__` at a time, twice the cost
    (`test_a_playout_round_result_is_the_dataclass` holds the two equal).  The fields'
    dictionary is a copy of one with the same keys, made faster than a dictionary of ten
    items from nothing."""
    values = _ROUND_FIELDS.copy()
    values["round"] = round
    values["end"] = end
    values["sinker"] = sinker
    values["points"] = points
    values["survivors"] = survivors
    values["cards"] = cards
    values["ships"] = ships
    values["slots"] = slots
    values["sunk"] = sunk
    values["attacks"] = attacks
    result = _new_object(RoundResult)
    _set_attribute(result, "__dict__", values)
    return result


def playout(state: SubmarineAttackState, rng: random.Random, max_steps: int) -> int:
    """Play `state` on as `rules_engine.core.generic_playout` does, at most `max_steps`
    steps; return the number of actions applied (each player's placement counted)."""
    if EVENTS.on:
        return generic_playout(state, rng, max_steps)
    g = state.g
    t = g.playout_tables
    (
        n,
        players,
        left_of,
        faces,
        columns,
        bits,
        slots_placed,
        round_end_ships,
        target_points,
        net_dice,
        others_score,
        draw,
        tie_first,
        ships_hand,
        cards_hand,
        ship_list,
        card_starts,
        card_row_of,
        card_rows,
        card_ids,
        per_ships,
        placements,
        placement_bits,
        starts,
        targets,
        orders,
        kept_dice,
        rolls,
        roll_bases,
        counted,
        per_draw,
        outcomes,
        round_steps,
    ) = t.constants
    rnd = rng.random
    below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]
    # `rng.choice` draws its index by `_randbelow`; Python's own draws it from
    # `getrandbits`, which the placements call directly.
    getrandbits = index_bits(rng)
    history = state._steps
    begun = len(history)
    stop = begun + max_steps
    # Whether a step may reach `max_steps` before the next placement (when it is checked
    # again): only then does each step look.
    checked = begun + round_steps > stop

    phase = state.phase
    round_ = state.round
    scores = state.scores
    results = state._results
    own_results = False
    # What the history and the results get (`Packed`, `PackedRound`; `unpack` makes them
    # into steps and results when they are read): whether this playout packed any.
    packed = False
    winners = state.winners
    first = state.first
    order = state.order
    candidates = state.start_candidates
    ships = state.ships
    slots = state.slots
    # The cards of `slots` by number (`PlayoutTables.code_index`), as the attacks read them.
    numbers = [t.numbers(cards) for cards in slots]
    spare_ships = state.spare_ships
    spare_cards = state.spare_cards
    sunk = state.sunk
    sunk_ships = state.sunk_ships
    slot = state.slot
    turn = state.turn
    attacker = state.attacker
    dice = state.dice
    last_roll = state.last_roll
    last_sunk = state.last_sunk
    pending = state.pending
    pending_pairs = state.pending_pairs
    # Whether the round's lists were made by this playout (not the state's own, to copy).
    fresh = False
    end = ALL_SLOTS
    sinker: int | None = None
    placed = 0
    # The round's placements, as the packed placement and round hold them (made at the
    # placement, or at the round's end for a round placed before this playout).
    round_ships: tuple[tuple[int, ...], ...] | None = None
    round_slots: tuple[tuple[str, ...], ...] = ()
    made = 0  # the attacks of the last round ended
    while True:
        if phase == _NEXT:
            # `attacks.advance`: the next attack that needs dice, or the end of the round.
            while True:
                if turn >= n:
                    turn = 0
                    slot += 1
                    if slot >= slots_placed:
                        end = ALL_SLOTS
                        sinker = None
                        phase = _END
                        break
                # (The attacks are counted, not recorded: `slot * n + turn` made before this
                # one, which `attacks.made_attacks` makes when they are read.)
                attacker = order[turn]
                d = net_dice[numbers[attacker][slot]][numbers[left_of[attacker]][slot]]
                if d:
                    dice = d
                    phase = ROLL
                    break
                last_roll = ()
                last_sunk = []
                turn += 1
        if phase == ROLL:
            # Chance rolls the torpedo's dice (`sample_action`), then `torpedoes.roll`.
            if checked and len(history) >= stop:
                break
            if dice <= kept_dice:
                # One draw rolls them all (`actions.roll_dice`): its number is their index.
                number = int(rnd() * outcomes[dice])
                at = roll_bases[dice] + number
                found = rolls[at]
                if found is None:
                    found = t.rolled(at, dice, number)
                roll, last_roll, sink, sinks, big, one = found
                history.append(roll)
            elif dice < _COUNTED:
                # What the roll does is kept by how many dice show each face (`counted`):
                # face f adds 1 << 4 (f - 1), no sort and no tuple to hash.
                if dice == 7 and per_draw >= 7:  # (torpedo S's seven dice, one draw)
                    number = int(rnd() * outcomes[7])
                    f7 = number % faces
                    number //= faces
                    f6 = number % faces
                    number //= faces
                    f5 = number % faces
                    number //= faces
                    f4 = number % faces
                    number //= faces
                    f3 = number % faces
                    number //= faces
                    f2 = number % faces
                    f1 = number // faces
                    last_roll = (f1 + 1, f2 + 1, f3 + 1, f4 + 1, f5 + 1, f6 + 1, f7 + 1)
                    key = (
                        (1 << (f1 << 2))
                        + (1 << (f2 << 2))
                        + (1 << (f3 << 2))
                        + (1 << (f4 << 2))
                        + (1 << (f5 << 2))
                        + (1 << (f6 << 2))
                        + (1 << (f7 << 2))
                    )
                else:
                    last_roll = roll_dice(rnd, faces, dice, per_draw)
                    key = 0
                    for face in last_roll:
                        key += 1 << ((face - 1) << 2)
                history.append(last_roll)  # (its `Roll` made when read: `unpack`)
                packed = True
                effect = counted.get(key)
                if effect is None:
                    effect = counted[key] = t.effect(last_roll)
                sink, sinks, big, one = effect
            else:
                last_roll = roll_dice(rnd, faces, dice, per_draw)
                history.append(last_roll)
                packed = True
                sink, sinks, big, one = t.effect(last_roll)
            if sink:
                # One pair and nothing else, the most common roll.
                defender = left_of[attacker]
                mask = sunk[defender]
                bit = bits[sink]
                if mask & bit:
                    last_sunk = []
                else:
                    sunk[defender] = mask | bit
                    last_sunk = [sink]
                    sunk_ships[defender] += ships[defender][sink - 1]
                    # `attacks.end_attack`
                    if sunk_ships[defender] >= round_end_ships:
                        end = SINKINGS
                        sinker = attacker
                        phase = _END
                        continue
                turn += 1
                phase = _NEXT
                continue
            last_sunk = []
            if sinks:
                defender = left_of[attacker]
                mask = sunk[defender]
                for column in sinks:
                    bit = bits[column]
                    if not mask & bit:
                        mask |= bit
                        sunk_ships[defender] += ships[defender][column - 1]
                        last_sunk.append(column)
                sunk[defender] = mask
            if big:
                if one is None:
                    pending = list(big)
                    pending_pairs = ()
                else:
                    group, pending_pairs = one
                    pending = [group]
                phase = TARGET
                continue
            # `attacks.end_attack`
            if last_sunk and sunk_ships[defender] >= round_end_ships:
                end = SINKINGS
                sinker = attacker
                phase = _END
                continue
            turn += 1
            phase = _NEXT
            continue
        if phase == _END:
            # `round_end.end_round`, `game_end.end_game`, `first_player.next_round`.
            victim = None if sinker is None else left_of[sinker]
            points = []
            for p in range(n):
                if end == ALL_SLOTS or p == sinker or (p != victim and others_score):
                    # The ships of the columns afloat: all less those sunk.
                    total = -sunk_ships[p]
                    for ship in ships[p]:
                        total += ship
                    points.append(total)
                    scores[p] += total
                else:
                    points.append(0)
            if round_ships is None:
                round_ships = tuple(ships)
                round_slots = tuple(slots)
            # The attacks made: every slot's (all slots played), or up to the sinker's.
            made = slot * n + turn + (0 if sinker is None else 1)
            if not own_results:
                results = [*results]
                own_results = True
            results.append(
                (
                    round_,
                    end,
                    sinker,
                    tuple(points),
                    round_ships,
                    round_slots,
                    tuple(sunk),
                    order,
                    made,
                )
            )
            packed = True
            round_ships = None
            pending = []
            pending_pairs = ()
            dice = 0
            top = scores[0]  # (`max`, without calling a builtin)
            for score in scores:
                if score > top:
                    top = score
            if top >= target_points:
                if scores.count(top) == 1:
                    winners = (scores.index(top),)
                    phase = OVER
                    break
                if draw:
                    winners = tuple([p for p in players if scores[p] == top])
                    phase = OVER
                    break
            previous = first
            round_ += 1
            ships = [()] * n
            slots = [()] * n
            numbers = [()] * n
            spare_ships = [ships_hand] * n
            spare_cards = [cards_hand] * n
            sunk = [0] * n
            sunk_ships = [0] * n
            fresh = True
            slot = 0
            turn = 0
            low = scores[0]
            for score in scores:
                if score < low:
                    low = score
            if scores.count(low) == 1:
                first = scores.index(low)
            elif tie_first == "janken":
                first = -1
                order = ()
                candidates = tuple([p for p in players if scores[p] == low])
                phase = START
                continue
            else:
                begin = previous if tie_first == "same" else previous + 1
                for i in players:
                    first = (begin + i) % n
                    if scores[first] == low:
                        break
            order = orders[first]
            candidates = ()
            phase = PLACE
        if phase == TARGET:
            # The attacker picks a column (`rng.choice`), then `torpedoes.target`.
            if checked and len(history) >= stop:
                break
            choices = pending[0][2]
            m = len(choices)
            if getrandbits is None:
                column = choices[below(m)]
            else:  # `_randbelow` as `rng.choice` draws it, without the method's frame
                bits_m = m.bit_length()
                k = getrandbits(bits_m)
                while k >= m:
                    k = getrandbits(bits_m)
                column = choices[k]
            history.append(targets[attacker][column])
            defender = left_of[attacker]
            mask = sunk[defender]
            for c in pending_pairs if column in pending_pairs else (column,):
                if c <= columns:
                    bit = bits[c]
                    if not mask & bit:
                        mask |= bit
                        sunk_ships[defender] += ships[defender][c - 1]
                        last_sunk.append(c)
            sunk[defender] = mask
            pending = pending[1:]
            if pending:
                continue
            pending_pairs = ()
            if last_sunk and sunk_ships[defender] >= round_end_ships:
                end = SINKINGS
                sinker = attacker
                phase = _END
                continue
            turn += 1
            phase = _NEXT
            continue
        if phase == PLACE:
            # Every player's placement (`rng.choice`), then `placement.place` for each.
            if checked and len(history) >= stop:
                break
            placed += 1
            if not fresh:
                ships = [*ships]
                slots = [*slots]
                spare_ships = [*spare_ships]
                spare_cards = [*spare_cards]
                fresh = True
            for p in range(n):
                if getrandbits is None:
                    index = below(placements)
                else:
                    index = getrandbits(placement_bits)
                    while index >= placements:
                        index = getrandbits(placement_bits)
                i = index // per_ships
                j = index - i * per_ships
                mine, spare_ships[p] = ship_list[i]
                ships[p] = mine
                k = card_row_of[j]
                head, tails = card_rows[k]
                offset = j - card_starts[k]
                tail, spare_cards[p] = tails[offset]
                slots[p] = head + tail
                head_numbers, tail_numbers = card_ids[k]
                numbers[p] = head_numbers + tail_numbers[offset]
            round_ships = tuple(ships)
            round_slots = tuple(slots)
            history.append((round_ships, round_slots))
            packed = True
            checked = len(history) + round_steps > stop
            slot = 0
            turn = 0
            phase = _NEXT
            continue
        if phase == START:
            # Chance names the first player (`sample_action`), then `first_player.start`.
            if checked and len(history) >= stop:
                break
            first = candidates[int(rnd() * len(candidates))]
            history.append(starts[first])
            order = orders[first]
            candidates = ()
            phase = PLACE
            continue
        if phase == OVER:
            break

    state.phase = phase
    state.round = round_
    state._results = results
    state.winners = winners
    state.first = first
    state.order = order
    state.start_candidates = candidates
    state.ships = ships
    state.slots = slots
    state.spare_ships = spare_ships
    state.spare_cards = spare_cards
    state.sunk = sunk
    state.sunk_ships = sunk_ships
    if len(history) > begun:
        # The round's attacks, counted (`made_attacks` makes them when they are read).
        if phase in (ROLL, TARGET):
            state._attacks = slot * n + turn + 1
            packed = True
        elif phase == OVER:
            state._attacks = made
            packed = True
        else:
            state._attacks = []
    if packed:
        state._packed = True
    state.slot = slot
    state.turn = turn
    state.attacker = attacker
    state.dice = dice
    state.last_roll = last_roll
    state.last_sunk = last_sunk
    state.pending = pending
    state.pending_pairs = pending_pairs
    return len(history) - begun + placed * (n - 1)
