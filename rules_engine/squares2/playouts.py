"""A search player's playout, played fast (issue 18): `Squares2State.playout`.

`rules_engine.core.generic_playout` lists the legal actions at every step
(`legal_actions`), takes one with `rng.choice` and applies it with the full check.  This
plays the very same game from the same generator, with the same calls on it: at every step
it counts the legal actions, draws the index as `rng.choice` does (`rng._randbelow(n)`,
inline for a plain `random.Random`), finds that action in `legal_actions` order and plays
it by the same rules as `turn._do`, without the check a listed action does not need.

The counting works on bitmasks of the board (bit `square`): each player's tiles, and, from
a player's row totals, which squares a tile of each value may still enter (`_Fit`).  Each
own tile gets a key, one bit per legal action: its moves by the squares they go to, then
its ability's uses (by the squares they go to, or one bit); the count is the keys' bits,
and only the drawn tile's key is read back into its action (`PlayoutTables.moves`, `uses`,
`targets`).  Row totals are packed in one integer per player, a field per row, so that
"some row is over the limit" is one addition and one mask.

The kernel keeps the board in locals and writes the state back at the end.  With
continuous abilities in play (combined sets, rule 7), events being recorded, or a position
no playout of its own reaches (a row over the limit or the centre held on a turn, made by
hand), the plain loop (`legal_actions`, `rng.choice`, `_do`) plays instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from rules_engine.core import CHANCE, EVENTS, index_bits
from rules_engine.squares2.abilities import E_CAMP, E_DIAGONAL, E_FLIP, E_PUSH
from rules_engine.squares2.actions import Move, Return, Start, Use
from rules_engine.squares2.battle import Battle
from rules_engine.squares2.tiles import EMPTY
from rules_engine.squares2.turn import OVER, RETURN, START, TURN

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2
    from rules_engine.squares2.state import Squares2State

MAX_SQUARES = 28
"""The largest board the kernel plays (its tables of squares by mask grow as 2 ** (n / 2));
a larger one plays the protocol's loop."""

K_DIAGONAL_BETWEEN = 5
"""The kernel's effect code of a Diagonal that must look at the squares between (a
distance over one, without jumping)."""

_Fit = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]
"""For one player's packed row totals: per value v (0 for a move along its own row), the
squares of the rows a tile of value v may enter within the moving limit; the room left in
the camp for placing (clipped to the values); and how many faces of a hand fit that room,
by the hand's low bits and by its high bits (`PlayoutTables.hand_bits`)."""


class PlayoutTables:
    """An engine's tables for the kernel, made once per engine (`Squares2.playout_tables`)."""

    def __init__(self, g: Squares2) -> None:
        n = g.squares
        self.full = (1 << n) - 1
        self.bit = tuple(1 << s for s in range(n))
        # The squares of a mask in square order: of its low and its high bits.
        self.low_bits = (n + 1) // 2
        self.low_squares = _squares_of(self.low_bits, 0)
        self.high_squares = _squares_of(n - self.low_bits, self.low_bits)
        rows, cols = g.rows, g.columns
        # Packed row totals: a field of `width` bits per row, its top bit free, so that adding
        # `over_add` sets the top bit of exactly the fields over the limit (`over_bits`).
        biggest = max(cols * g.value_max, g.limit + 1)
        width = biggest.bit_length() + 1
        self.width = width
        self.field = (1 << width) - 1
        top = 1 << (width - 1)
        self.over_add = sum((top - 1 - g.limit) << (width * r) for r in range(rows))
        self.over_bits = sum(top << (width * r) for r in range(rows))
        self.shift = tuple(width * g.row_of[s] for s in range(n))
        self.row_mask = tuple(sum(1 << s for s in g.row_squares[r]) for r in range(rows))
        # The squares of the rows over the limit, by the top bits `over_bits` keeps.
        self.over_squares: dict[int, int] = {}
        self.camp_mask = tuple(self.row_mask[r] for r in g.camp)
        self.centre_mask = self.row_mask[g.centre_row]
        # Camp squares of a mask, in camp order (placing).
        self.camp_squares: dict[int, tuple[int, ...]] = {}
        for p in (0, 1):
            squares = g.camp_squares[p]
            for subset in range(1 << len(squares)):
                chosen = tuple(sq for i, sq in enumerate(squares) if subset >> i & 1)
                self.camp_squares[sum(1 << sq for sq in chosen)] = chosen
        # Moves: the squares one step away along the row, and across rows; per player,
        # square and mask of the steps allowed, the `Move`s in `legal_actions` order.
        self.along = tuple(sum(1 << t for t, _, same, _ in g.steps[0][s] if same) for s in range(n))
        self.across = tuple(
            sum(1 << t for t, _, same, _ in g.steps[0][s] if not same) for s in range(n)
        )
        self.moves: tuple[tuple[dict[int, tuple[Move, ...]], ...], ...] = tuple(
            tuple(_subsets(g.steps[p][s]) for s in range(n)) for p in (0, 1)
        )
        # Per tile code (`player << 7 | face`): its value and effect; for the count, its
        # effect as the kernel plays it (`_needs`), value and what its ability needs; its
        # uses, `[src][dst + 1]` (`Squares2.uses`), and per square the squares it may go
        # to in `legal_actions` order (None for an ability without a target square).
        self.value = [0] * 256
        self.effect = [0] * 256
        self.spots: list[tuple[tuple[int, int, int, int, Any], ...] | None] = [None] * 256
        self.pushes: list[tuple[tuple[int, int, int], ...] | None] = [None] * 256
        self.uses: list[tuple[tuple[Use, ...], ...] | None] = [None] * 256
        self.targets: list[tuple[tuple[int, ...], ...] | None] = [None] * 256
        self.returns = tuple(tuple(Return(p, s) for s in range(n)) for p in (0, 1))
        self.handed = tuple((c >> 7, c & 127) for c in range(256))
        for p in (0, 1):
            for face in range(2 * g.tiles_per_set):
                c = p << 7 | face
                effect = g.feffect[p][face]
                self.value[c] = g.fval[p][face]
                self.effect[c] = effect
                played, needs = _needs(g, p, face)
                self.uses[c] = g.uses(p, face)
                if effect == E_CAMP:
                    self.targets[c] = (g.camp_squares[p],) * n
                elif effect == E_DIAGONAL:
                    self.targets[c] = tuple(
                        tuple(dst for dst, _ in row) for row in _diagonal_targets(g, p, face)
                    )
                # Per square: the effect as played, the value, the steps along the row and
                # across, what the ability needs there.
                self.spots[c] = tuple(
                    (
                        played,
                        g.fval[p][face],
                        self.along[s],
                        self.across[s],
                        needs[s] if needs is not None else None,
                    )
                    for s in range(n)
                )
                if effect == E_PUSH:
                    self.pushes[c] = needs
        # Per row and total: the squares of the row by the value a tile may have to enter.
        self.row_fit = tuple(
            tuple(
                tuple(
                    self.row_mask[r] if g.move_max - total >= v else 0
                    for v in range(g.value_max + 1)
                )
                for total in range(self.field + 1)
            )
            for r in range(rows)
        )
        # Per player and room (value_min - 1 to value_max): how many faces of a hand fit,
        # by the hand's low `hand_bits` bits and by the rest.
        self.hand_bits = (g.tiles_per_set + 1) // 2
        self.fitting = tuple(
            {
                room: (
                    _fitting_counts(g, p, room, 0, self.hand_bits),
                    _fitting_counts(g, p, room, self.hand_bits, g.tiles_per_set),
                )
                for room in range(g.value_min - 1, g.value_max + 1)
            }
            for p in (0, 1)
        )
        self.fits: tuple[dict[int, _Fit], dict[int, _Fit]] = ({}, {})

    def fit(self, g: Squares2, p: int, packed: int) -> _Fit:
        """`_Fit` of player p's packed row totals (made on first need)."""
        field, width = self.field, self.width
        totals = [packed >> (width * r) & field for r in range(g.rows)]
        rows = [self.row_fit[r][total] for r, total in enumerate(totals)]
        by_value = tuple(sum(masks) for masks in zip(*rows, strict=True))
        room = min(max(g.place_max - totals[g.camp[p]], g.value_min - 1), g.value_max)
        made = (by_value, room, *self.fitting[p][room])
        self.fits[p][packed] = made
        return made

    def over_mask(self, g: Squares2, bits: int) -> int:
        """The squares of the rows whose top bit is set in `bits` (made on first need)."""
        width = self.width
        mask = sum(self.row_mask[r] for r in range(g.rows) if bits >> (width * r + width - 1) & 1)
        self.over_squares[bits] = mask
        return mask


def _fitting_counts(g: Squares2, p: int, room: int, low: int, high: int) -> tuple[int, ...]:
    """Per mask of the tiles `low` to `high` - 1 of player p's set (bit 0: tile `low`),
    how many of their faces have a value within `room`."""
    fit = [sum(1 for side in (0, 1) if g.fval[p][2 * t + side] <= room) for t in range(low, high)]
    return tuple(
        sum(fit[i] for i in range(high - low) if mask >> i & 1) for mask in range(1 << (high - low))
    )


def _squares_of(bits: int, first: int) -> tuple[tuple[int, ...], ...]:
    """Per mask of `bits` bits, the squares `first + i` of its bits i, in order."""
    out: list[tuple[int, ...]] = [()]
    for i in range(bits):
        out += [(*row, first + i) for row in out]
    return tuple(out)


def _subsets(steps: tuple[tuple[int, int, bool, Move], ...]) -> dict[int, tuple[Move, ...]]:
    """Every subset of a square's steps, by its mask of target squares, as `Move`s in step
    order."""
    out: dict[int, tuple[Move, ...]] = {}
    for subset in range(1 << len(steps)):
        chosen = [steps[i] for i in range(len(steps)) if subset >> i & 1]
        out[sum(1 << t for t, _, _, _ in chosen)] = tuple(move for _, _, _, move in chosen)
    return out


def _diagonal_targets(g: Squares2, p: int, face: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square: the squares a Diagonal face may go to, in `_diagonals` order, each with
    the mask of the squares between that must be empty (none when the ability jumps)."""
    distance, jumps = g.fdistance[p][face], g.fjumps[p][face]
    at = g._at
    out = []
    for src in range(g.squares):
        targets = []
        for dc, dr in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
            dst = at(src, dc * distance, dr * distance)
            if dst < 0:
                continue
            between = 0
            if not jumps:
                for k in range(1, distance):
                    between |= 1 << at(src, dc * k, dr * k)
            targets.append((dst, between))
        out.append(tuple(targets))
    return tuple(out)


def _needs(g: Squares2, p: int, face: int) -> tuple[int, Any]:
    """A face's effect as the kernel plays it, and what it needs to know of its ability,
    per square: Diagonal's targets (a mask; `(square, between)` pairs when it must look
    between, `K_DIAGONAL_BETWEEN`); Tsunami's square in front, where it goes and the
    squares between that must be empty."""
    effect = g.feffect[p][face]
    if effect == E_DIAGONAL:
        targets = _diagonal_targets(g, p, face)
        if any(between for row in targets for _, between in row):
            return K_DIAGONAL_BETWEEN, targets
        return effect, tuple(sum(1 << dst for dst, _ in row) for row in targets)
    if effect == E_PUSH:
        distance, jumps = g.fdistance[p][face], g.fjumps[p][face]
        fwd = g.forward[p]
        out = []
        for target, dst in g.push_table(p, distance):
            between = 0
            if target >= 0 and dst >= 0 and not jumps:
                for k in range(1, distance):
                    between |= 1 << g._at(target, 0, fwd * k)
            out.append((target, dst, between))
        return effect, tuple(out)
    return effect, None


def _arrive(
    t: PlayoutTables,
    cell: list[int],
    occ: list[int],
    packed: list[int],
    hand: list[int],
    battles: list[Battle],
    returned: list[tuple[int, int]],
    sq: int,
    c: int,
) -> None:
    """`battle._arrive` on the kernel's board: tile `c` (off the board) comes onto `sq`;
    an occupied square is a battle (rule 6)."""
    there = cell[sq]
    q = c >> 7
    value, bit, shift, handed = t.value, t.bit, t.shift, t.handed
    if there < 0:
        cell[sq] = c
        occ[q] |= bit[sq]
        packed[q] += value[c] << shift[sq]
        return
    va, vt = value[c], value[there]
    o = there >> 7
    battles.append(Battle(sq, handed[c], handed[there], (va, vt)))
    if va >= vt:  # the tile there goes back to hand
        cell[sq] = EMPTY
        occ[o] ^= bit[sq]
        packed[o] -= vt << shift[sq]
        hand[o] |= 1 << ((there & 127) >> 1)
        returned.append(handed[there])
        if va > vt:
            cell[sq] = c
            occ[q] |= bit[sq]
            packed[q] += va << shift[sq]
            return
    hand[q] |= 1 << ((c & 127) >> 1)
    returned.append(handed[c])


def _plain_playout(state: Squares2State, rng: random.Random, max_steps: int) -> int:
    """The protocol's loop (legal actions listed, one taken by `rng.choice`, chance by
    `sample_action`), the pick applied without the check it does not need."""
    history = state._history
    steps = 0
    while state.phase != OVER and steps < max_steps:
        if state.phase == START:
            action = state.sample_action(CHANCE, rng)
        else:
            (player,) = state.current_players()
            action = rng.choice(state.legal_actions(player))
        history.append(action)
        state._do(action)
        steps += 1
    return steps


def playout(self: Squares2State, rng: random.Random, max_steps: int = 100_000) -> int:
    """Play on as `rules_engine.core.generic_playout` does (the same game from the same
    generator) and return the number of actions applied; stop after `max_steps`."""
    g = self.g
    if g.continuous or EVENTS.on or g.squares > MAX_SQUARES:
        return _plain_playout(self, rng, max_steps)
    t = g.playout_tables
    over_add, over_bits, over_squares = t.over_add, t.over_bits, t.over_squares
    below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]
    bits_of = index_bits(rng)
    history = self._history
    cell = self.cell
    hand = self.hand
    n_squares = g.squares
    usable = 1 << n_squares  # the use bit of an ability without a target square
    full, bit, shift = t.full, t.bit, t.shift
    low_squares, high_squares, low_bits = t.low_squares, t.high_squares, t.low_bits
    low_mask = (1 << low_bits) - 1
    value, effect_of, spots = t.value, t.effect, t.spots
    uses_of, targets_of, pushes_of = t.uses, t.targets, t.pushes
    moves = t.moves
    camp_masks, centre_mask, camp_squares = t.camp_mask, t.centre_mask, t.camp_squares
    returns, handed = t.returns, t.handed
    fits, hand_bits = t.fits, t.hand_bits
    hand_low = (1 << hand_bits) - 1
    field = t.field
    place_actions, passes_of = g.place_actions, g.passes
    row_of = g.row_of
    checked = g.battle_checked
    limited = g.ability_limited
    push_any = g.push_any
    move_max = g.move_max
    need = g.win_squares
    turn_limit = g.turn_limit
    games = g.games
    majority = games // 2 + 1
    winner_second = g.winner_plays_second
    full_hand = g.full_hand
    starts = (Start(0), Start(1))

    # The position in locals: each player's tiles as a mask, their packed row totals.
    occ = [0, 0]
    packed = [0, 0]
    for sq, c in enumerate(cell):
        if c >= 0:
            occ[c >> 7] |= bit[sq]
            packed[c >> 7] += value[c] << shift[sq]
    if self.phase == TURN and any(
        (packed[q] + over_add) & over_bits or (occ[q] & centre_mask).bit_count() >= need
        for q in (0, 1)
    ):
        # A set-up position with a row over the limit, or the centre held, on a turn: the
        # kernel counts on neither there (after a playout's own actions, a turn starts
        # with neither).
        return _plain_playout(self, rng, max_steps)
    phase = self.phase
    to_move = self.to_move
    turn = self.turn
    acted = self.acted
    passes = self.passes
    first = self.first
    winner = self.winner
    last_winner = self.last_winner
    returners = self.returners
    results = self.results
    battles = self.battles
    returned = self.returned
    touched = self.touched

    steps = 0
    while steps < max_steps:
        if phase == TURN:
            p = to_move
            own = occ[p]
            opp = occ[1 - p]
            nown = full ^ own
            oppx = 0 if checked else opp
            tp = packed[p]
            try:
                by_value, room, fit_low, fit_high = fits[p][tp]
            except KeyError:
                by_value, room, fit_low, fit_high = t.fit(g, p, tp)
            camp = camp_masks[p]
            a0 = oppx | nown & by_value[0]
            # Placements: faces in hand (set order, front then back), each on the open
            # camp squares if it fits, else only onto opponent tiles (a battle) unless
            # the limit is checked then too.
            count = n_open = n_fallback = 0
            h = hand[p]
            if h:
                open_mask = camp & nown
                if open_mask:
                    n_open = open_mask.bit_count()
                    fitting = fit_low[h & hand_low] + fit_high[h >> hand_bits]
                    count = fitting * n_open
                    fallback = open_mask & oppx
                    if fallback:
                        n_fallback = fallback.bit_count()
                        count += (2 * h.bit_count() - fitting) * n_fallback
            n_places = count
            # Each own tile in square order: its moves, then its ability's uses, as the
            # bits of its key (`PlayoutTables.spots`).
            parts = []
            sources = low_squares[own & low_mask] + high_squares[own >> low_bits]
            for src in sources:
                c = cell[src]
                # (Typed, so that the keys below are compiled as ints: a tile's spots are made.)
                effect, v, along, across, needs = cast(
                    "tuple[tuple[int, int, int, int, Any], ...]", spots[c]
                )[src]
                # A step along the row needs the row kept within the limit (a0), one across
                # rows room for the tile's value there (av); onto an opponent's tile, no
                # room unless the limit is checked then too (oppx).
                av = oppx | nown & by_value[v]
                key = along & a0 | across & av
                if effect == E_FLIP:
                    key |= usable
                elif effect == E_CAMP:
                    if limited:
                        key |= (camp & (a0 if bit[src] & camp else av)) << n_squares
                    else:
                        key |= (camp & nown) << n_squares
                elif effect == E_DIAGONAL:
                    key |= (needs & (av if limited else nown)) << n_squares
                elif effect == K_DIAGONAL_BETWEEN:
                    reach = 0
                    everyone = own | opp
                    for dst, between in needs:
                        if not everyone & between:
                            reach |= 1 << dst
                    key |= (reach & (av if limited else nown)) << n_squares
                else:  # E_PUSH: `abilities._push_error`
                    target, dst, between = needs
                    if target >= 0 and dst >= 0:
                        pushed = cell[target]
                        if pushed >= 0 and not (own | opp) & between:
                            if pushed >> 7 != p:
                                if push_any:
                                    key |= usable
                            elif not own & bit[dst] and (
                                not limited
                                or (cell[dst] >= 0 and not checked)
                                or (
                                    tp >> shift[dst] & field
                                    if row_of[target] == row_of[dst]
                                    else (tp >> shift[dst] & field) + value[pushed]
                                )
                                <= move_max
                            ):
                                key |= usable
                count += key.bit_count()  # one action per bit
                parts.append(key)
            # The draw, as `rng.choice` of the list makes it.
            if not count:
                below(1)
            elif bits_of is None:
                k = below(count)
            else:  # `Random._randbelow_with_getrandbits`, inline
                size = count.bit_length()
                k = bits_of(size)
                while k >= count:
                    k = bits_of(size)
            # `turn._do`: the action, then the row limit and the centre (rule 2-2, 2-3).
            steps += 1
            if battles:
                battles = []
            if returned:
                returned = []
            acted = turn + 1
            if not count:
                history.append(passes_of[p])
                passes += 1
                touched = ()
                arrived = 0
            elif k < n_places:
                for face, ok in g.fitting_faces(p, h, room):
                    size = n_open if ok else n_fallback
                    if k < size:
                        sq = camp_squares[open_mask if ok else fallback][k]
                        c = p << 7 | face
                        break
                    k -= size
                history.append(place_actions[p][c & 127][sq])
                arrived = bit[sq]
                hand[p] = h & ~(1 << ((c & 127) >> 1))
                touched = (sq,)
                if cell[sq] < 0:
                    cell[sq] = c
                    occ[p] = own | bit[sq]
                    packed[p] = tp + (value[c] << shift[sq])
                else:
                    _arrive(t, cell, occ, packed, hand, battles, returned, sq, c)
                passes = 0
                if (packed[p] + over_add) & over_bits:
                    returners = [p]
                    phase = RETURN
                    continue
            else:
                k -= n_places
                i = 0
                key = parts[0]
                size = key.bit_count()
                while k >= size:  # the tile of the k-th action
                    k -= size
                    i += 1
                    key = parts[i]
                    size = key.bit_count()
                src = sources[i]
                passes = 0
                steps_to = key & full
                size = steps_to.bit_count()
                c = cell[src]
                if k < size:  # a move (rule 4)
                    action = moves[p][src][steps_to][k]
                    history.append(action)
                    dst = action[2]
                elif targets_of[c] is None:  # Spin or Tsunami
                    history.append(uses_of[c][src][0])  # type: ignore[index]
                    if effect_of[c] == E_FLIP:
                        arrived = 0
                        touched = (src,)
                        cell[src] = c ^ 1
                        packed[p] = tp + ((value[c ^ 1] - value[c]) << shift[src])
                        if (packed[p] + over_add) & over_bits:
                            returners = [p]
                            phase = RETURN
                            continue
                    else:
                        target, dst, _ = cast("tuple[tuple[int, int, int], ...]", pushes_of[c])[src]
                        touched = (src, target, dst)
                        arrived = bit[dst]
                        pushed = cell[target]
                        o = pushed >> 7
                        cell[target] = EMPTY
                        occ[o] ^= bit[target]
                        packed[o] -= value[pushed] << shift[target]
                        _arrive(t, cell, occ, packed, hand, battles, returned, dst, pushed)
                        if (packed[0] + over_add) & over_bits or (packed[1] + over_add) & over_bits:
                            returners = [
                                q for q in (1 - p, p) if (packed[q] + over_add) & over_bits
                            ]
                            phase = RETURN
                            continue
                    dst = -1
                else:  # Leap or Diagonal: the k-th square it may go to
                    k -= size
                    bits = key >> n_squares
                    for dst in cast("tuple[tuple[int, ...], ...]", targets_of[c])[src]:
                        if bits >> dst & 1:
                            if not k:
                                break
                            k -= 1
                    history.append(uses_of[c][src][dst + 1])  # type: ignore[index]
                if dst >= 0:  # the tile goes from src to dst
                    touched = (src, dst)
                    arrived = bit[dst]
                    cell[src] = EMPTY
                    if cell[dst] < 0:
                        cell[dst] = c
                        occ[p] = own ^ (bit[src] | bit[dst])
                        v = value[c]
                        packed[p] = tp + (v << shift[dst]) - (v << shift[src])
                    else:
                        occ[p] = own ^ bit[src]
                        packed[p] = tp - (value[c] << shift[src])
                        _arrive(t, cell, occ, packed, hand, battles, returned, dst, c)
                    if (packed[p] + over_add) & over_bits:
                        returners = [p]
                        phase = RETURN
                        continue
        elif phase == RETURN:
            p = returners[0]
            bits = (packed[p] + over_add) & over_bits
            rows = over_squares.get(bits)
            if rows is None:
                rows = t.over_mask(g, bits)
            m = occ[p] & rows
            k = below(m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            sq = (m & -m).bit_length() - 1
            history.append(returns[p][sq])
            steps += 1
            # `row_limit._return`
            touched = (sq,)
            c = cell[sq]
            cell[sq] = EMPTY
            occ[p] ^= bit[sq]
            packed[p] -= value[c] << shift[sq]
            hand[p] |= 1 << ((c & 127) >> 1)
            returned.append(handed[c])
            if (packed[p] + over_add) & over_bits:
                continue
            returners.pop(0)
            if returners:
                continue
            arrived = centre_mask  # the action before the returns: judge in full
        elif phase == START:
            start = starts[int(rng.random() * 2)]
            history.append(start)
            steps += 1
            first = to_move = start.player
            phase = TURN
            continue
        else:
            break
        # Rule 2-3 (`winning._judge`): the centre squares, else the opponent's turn.  A
        # player gets to hold more of them only by a tile arriving there (`arrived`).
        if (not arrived & centre_mask and passes < 2) or (
            (occ[0] & centre_mask).bit_count() < need
            and (occ[1] & centre_mask).bit_count() < need
            and passes < 2
        ):
            turn += 1
            to_move = 1 - to_move
            phase = TURN
            if not turn_limit or turn < turn_limit:
                continue
            end = -1
        else:
            holds = (occ[0] & centre_mask).bit_count() >= need
            other = (occ[1] & centre_mask).bit_count() >= need
            end = -1 if holds == other else 0 if holds else 1
        # `winning._end_game`
        results.append(end)
        winner = end
        returners = []
        if len(results) >= games or results.count(0) >= majority or results.count(1) >= majority:
            phase = OVER
            to_move = -1
            break
        last_winner = end
        cell[:] = [EMPTY] * n_squares
        hand[0] = hand[1] = full_hand
        occ = [0, 0]
        packed = [0, 0]
        turn = acted = passes = 0
        winner = -1
        first = 1 - end if end >= 0 and winner_second else -1
        to_move = first
        phase = TURN if first >= 0 else START

    self.phase = phase
    self.to_move = to_move
    self.turn = turn
    self.acted = acted
    self.passes = passes
    self.first = first
    self.winner = winner
    self.last_winner = last_winner
    self.returners = returners
    self.battles = battles
    self.returned = returned
    self.touched = touched
    self._offered = None
    self._retotal()
    return steps
