"""The fast drivers' loop (`run`), and the tables it works out once per engine (`Tables`).

A fast driver (`random_play.play_random`, `random_play.playout`) draws only legal actions,
so it skips the legality check; what it still does is list each player's choices, pick one,
record it and play the rules.  `run` plays the same rules as the phase modules, with the
events off (a driver asked to record plays the checked way instead), from tables:

- `Tables.reveal`: for a player, the card of the slot, their square and snowballs, every
  legal reveal (`Subzero.reveal_choices`, in its order) with what it does: the snowballs
  held after it, whether it ducks, the mover's path (`Subzero.path`) and walk, the balls
  thrown and from where.  The reveals carry these, so resolving a step reads no reveal.
- `Tables.draw`, `Tables.program`: the `Draw` of a set of cards and the `Program` of a choice
  of cards, made once (by a number that encodes the cards) instead of at every draw.
- `Tables.arrange`: the programs of a hand, as `SubzeroState.legal_actions` lists them, with
  the cards they take from the hand.

A pick is `int(rnd() * n)` (`random.random`, as `sample_action` draws) or, for a search
player's playout, `randbelow(n)` (`random.Random._randbelow`, as `rng.choice` draws).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.core import JointAction
from rules_engine.lazy_sequences import Arrangements
from rules_engine.subzero.actions import (
    DEAL,
    OVER,
    PLACE,
    PROGRAM,
    REVEAL,
    Draw,
    Place,
    Program,
    Reshuffle,
    Reveal,
    Youngest,
)
from rules_engine.subzero.endings import ALL_OUT, check_end
from rules_engine.subzero.movement import lockstep
from rules_engine.subzero.resolution import found_on

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero
    from rules_engine.subzero.state import SubzeroState

Mover = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, tuple[int, ...]], int, int, int]
"""A move revealed: the mover, the squares of its path, its walk if nothing stops it (its
square, then the path), that walk as `last_moves` lists it, and as bit masks of squares: the
walk, the path, and the squares it leaves and ends on (none for an empty path)."""
Thrower = tuple[int, tuple[int, ...], int]
"""Balls thrown: the thrower, the balls' directions, and the square they are thrown from
(-1: where the thrower stands once the moves are done)."""
Choice = tuple[Reveal, int, bool, Mover | None, Thrower | None]
"""A legal reveal and what it does: the snowballs held after it, whether it ducks, the move
and the balls it reveals."""
Product = tuple[
    tuple[tuple[int, int, Mover], ...],
    tuple[tuple[tuple[int, ...] | None, int, Thrower | None], ...],
    str,
]
"""A combined MOVE/SHOOT card played whole: each move (direction, turn, what it does), each
choice of balls (directions, snowballs left, what it does) and the card; the reveals are their
product, moves major (as `reveal.reveal_actions` lists them)."""
Entry = tuple[int, tuple[Choice, ...] | None]
"""A reveal's choices in `Tables.by_card`: their number and the choices; `(0, None)` until
they are made, `(0, ())` for a combined card whose reveals are a `Product`."""
UNMADE: Entry = (0, None)
Plan = tuple[list[Entry], ...]
"""A program's reveals: for each slot, the row of `Tables.by_card` of its card."""
Listing = tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]
"""The programs of a hand: each one's cards and their kinds."""

_new = tuple.__new__  # builds a Reveal or Program without the Python-level NamedTuple call


class Tables:
    """What the fast drivers work out once per engine (see the module)."""

    LISTED = 64
    """The most reveals of a combined card listed outright (with one snowball: 5 moves times
    8 balls); holding two, it has 44 choices of balls, and its moves times its balls are
    picked from the two lists (`choose`)."""

    __slots__ = (
        "arrangements",
        "bits",
        "by_card",
        "combined",
        "combos",
        "countdown",
        "dealt",
        "g",
        "movers",
        "passes",
        "passes_all_in",
        "picked",
        "reach",
        "throws",
        "weight_bits",
        "weights",
    )

    def __init__(self, g: Subzero) -> None:
        self.g = g
        # By player and card kind (`player * kinds + kind`), then by square and snowballs
        # (`square * ball_states + snowballs`): a reveal's choices (`Entry`), made when first
        # needed; a combined card played whole has its moves and balls in `combined` at the
        # same place.
        self.by_card: list[list[Entry]] = [
            [UNMADE] * (g.squares * g.ball_states) for _ in range(g.num_players * g.kinds)
        ]
        self.combined: list[list[Product | None]] = [
            [None] * (g.squares * g.ball_states) for _ in range(g.num_players * g.kinds)
        ]
        # The reveals of combined cards listed outright, shared by the squares they are made
        # on, the moves (by player, square, direction, turn and steps) and the balls thrown
        # with a move (by player, snowballs held and the square they fly from).
        self.combos: dict[tuple[Any, ...], Reveal] = {}
        self.movers: dict[tuple[int, ...], Mover] = {}
        self.throws: dict[tuple[int, ...], tuple[Any, ...]] = {}
        # Each square as a bit (and no bit for -1, a pawn off the board).
        self.bits = bits = (*(1 << q for q in range(g.squares)), 0)
        # By square and direction: the squares a ball flies over as a bit mask, and the
        # square where it leaves the range (the thrower's own at the edge).
        self.reach = tuple(
            tuple((sum(bits[q] for q in line), line[-1] if line else square) for line in per)
            for square, per in enumerate(g.lines)
        )
        # A set of cards drawn is a number: the sum of each card's weight, its kind's count
        # in a field of `weight_bits` bits (a draw holds at most a hand of cards).
        self.weight_bits = g.hand_size.bit_length()
        self.weights = tuple(1 << (self.weight_bits * k) for k in range(g.kinds))
        self.dealt: list[dict[int, tuple[Draw, list[int]]]] = [{} for _ in range(g.num_players)]
        # A program is a number too: its kinds as the digits (base `kinds`), slot 1 first.
        self.picked: list[dict[int, tuple[Program, tuple[int, ...], Plan]]] = [
            {} for _ in range(g.num_players)
        ]
        # `range(m, m - k, -1)` by m and k: the sizes of a pile or hand `k` cards are taken
        # from one by one.
        self.countdown = tuple(
            tuple(tuple(range(m, m - k, -1)) for k in range(g.hand_size + 1))
            for m in range(g.deck_size + 1)
        )
        self.arrangements: dict[tuple[int, ...], Listing] = {}
        # By the start player and the players out: the next start player and reveal order.
        self.passes: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
        # The same with everyone still in, by the start player alone.
        self.passes_all_in: list[tuple[int, tuple[int, ...]] | None] = [None] * g.num_players

    # --- the tables, filled as they are needed ------------------------------------------------

    def reveal(self, p: int, kind: int, square: int, balls: int) -> Entry:
        """`p`'s choices revealing `kind` on `square` holding `balls` (`Choice`), kept in
        `by_card` (for every square at once when the card has no MOVE: they are the same).
        A combined MOVE/SHOOT card played whole has its moves times its balls: listed too
        when they are at most `LISTED`, else `()` here and its `Product` in `combined`."""
        g = self.g
        listed, options, shots = g.reveal_choices(p, kind, square, balls)
        steps = g.card_move[kind]
        most = g.max_snowballs
        # Balls thrown by a mover fly from its start square when the SHOOT comes first.
        origin = square if g.shoot_first else -1
        movers = self.movers

        def mover(d: int, t: int) -> Mover:
            key = (p, square, d, t, steps)
            found = movers.get(key)
            if found is None:
                found = movers[key] = self.mover(p, square, g.path(square, d, steps, t))
            return found

        choices: list[Choice] = []
        for r in listed:
            thrown = r.shots
            held = balls - len(thrown) if thrown else balls
            if r.roll and held < most:
                held += 1
            moves = r.move >= 0
            choices.append(
                (
                    r,
                    held,
                    r.swish,
                    mover(r.move, r.turn) if moves else None,
                    (p, thrown, origin if moves else -1) if thrown else None,
                )
            )
        row = self.by_card[p * g.kinds + kind]
        at = square * g.ball_states + balls
        if not listed:
            moving = tuple((d, t, mover(d, t)) for d, t in options)
            held_at = (p, balls, origin)
            balls_thrown = self.throws.get(held_at) or self.throws.setdefault(
                held_at,
                tuple(
                    (sh, balls - len(sh) if sh else balls, (p, sh, origin) if sh else None)
                    for sh in shots
                ),
            )
            card = g.card_ids[kind]
            if len(moving) * len(balls_thrown) <= self.LISTED:
                shared = self.combos
                for d, t, moved in moving:
                    for sh, held, thrower in balls_thrown:
                        made = shared.get((p, card, d, t, sh))
                        if made is None:
                            made = shared[p, card, d, t, sh] = Reveal(
                                p, card, d, t, sh, False, False
                            )
                        choices.append((made, held, False, moved, thrower))
            else:
                self.combined[p * g.kinds + kind][at] = (moving, balls_thrown, card)
        found = (len(choices), tuple(choices))
        if steps:
            row[at] = found
        else:
            row[balls :: g.ball_states] = [found] * g.squares
        return found

    def choose(
        self,
        p: int,
        kind: int,
        square: int,
        balls: int,
        rnd: Callable[[], float],
        randbelow: Callable[[int], int] | None,
    ) -> Choice:
        """A reveal picked where `by_card` holds no choices: not made yet, or a combined card
        played whole (its moves times its balls, picked as from `reveal.reveal_actions`)."""
        g = self.g
        at = square * g.ball_states + balls
        m, listed = self.by_card[p * g.kinds + kind][at]
        if listed is None:
            m, listed = self.reveal(p, kind, square, balls)
        if m:
            return listed[int(rnd() * m) if randbelow is None else randbelow(m)]  # type: ignore[index]
        product = self.combined[p * g.kinds + kind][at]
        assert product is not None
        options, shots, card = product
        ns = len(shots)
        m = len(options) * ns
        i = int(rnd() * m) if randbelow is None else randbelow(m)
        d, turn, mover = options[i // ns]
        thrown, left, thrower = shots[i % ns]
        return (_new(Reveal, (p, card, d, turn, thrown, False, False)), left, False, mover, thrower)

    def draw(self, p: int, code: int) -> tuple[Draw, list[int]]:
        """`p`'s draw of the cards `code` stands for, and their kinds (sorted)."""
        bits = self.weight_bits
        mask = (1 << bits) - 1
        g = self.g
        kinds = [k for k in range(g.kinds) for _ in range((code >> (bits * k)) & mask)]
        found = self.dealt[p][code] = (Draw(p, tuple([g.card_ids[k] for k in kinds])), kinds)
        return found

    def program(self, p: int, code: int) -> tuple[Program, tuple[int, ...], Plan]:
        """`p`'s program of the kinds `code` stands for, the kinds (slot 1 first) and their
        `plan`."""
        g = self.g
        kinds: list[int] = []
        rest = code
        for _ in range(g.slots):
            rest, k = divmod(rest, g.kinds)
            kinds.append(k)
        kinds.reverse()
        found = self.picked[p][code] = (
            Program(p, tuple([g.card_ids[k] for k in kinds])),
            tuple(kinds),
            self.plan(p, kinds),
        )
        return found

    def plan(self, p: int, kinds: Sequence[int]) -> Plan:
        """The reveals of `p`'s program of `kinds`: each slot's row of `by_card`."""
        by_card = self.by_card
        base = p * self.g.kinds
        return tuple([by_card[base + k] for k in kinds])

    def arrange(self, hand: tuple[int, ...]) -> Listing:
        """Every program of `hand` (sorted kinds) in `Subzero.hand_programs` order: its cards
        and their kinds."""
        ids = self.g.card_ids
        found = self.arrangements[hand] = tuple(
            (tuple([ids[k] for k in kinds]), kinds) for kinds in Arrangements(hand, self.g.slots)
        )
        return found

    def mover(self, p: int, square: int, path: tuple[int, ...]) -> Mover:
        """`p`'s move from `square` along `path` (see `Mover`)."""
        bits = self.bits
        walk = (square, *path)
        pathmask = sum(bits[q] for q in path)
        flip = bits[square] | bits[path[-1]] if path else 0
        return (p, path, walk, (p, walk), bits[square] | pathmask, pathmask, flip)

    def pass_start(self, start: int, out: list[int]) -> tuple[int, tuple[int, ...]]:
        """The next start player after `start` and the next turn's reveal order, with the
        players in `out` out of the game (`end_of_turn.next_step`, `SubzeroState._set_order`)."""
        g = self.g
        n = g.num_players
        after = start
        for i in range(1, n + 1):
            q = (start + g.pass_step * i) % n
            if q not in out:
                after = q
                break
        found = self.passes[(start, *out)] = (
            after,
            tuple([p for p in g.rotations[after] if p not in out]) if out else g.rotations[after],
        )
        if not out:
            self.passes_all_in[start] = found
        return found

    def so_far(self, s: SubzeroState) -> tuple[list[Mover], list[Thrower], bool]:
        """The moves, balls and ducking of the reveals made so far this step (for a driver
        that starts in the middle of a step)."""
        g = self.g
        pos = s.pos
        movers: list[Mover] = []
        throwers: list[Thrower] = []
        ducked = False
        for r in s.step_reveals:
            p = r.player
            square = pos[p]
            if r.move >= 0:
                steps = g.card_move[g.card_index[r.card]]
                movers.append(self.mover(p, square, g.path(square, r.move, steps, r.turn)))
            if r.shots:
                origin = square if g.shoot_first and r.move >= 0 else -1
                throwers.append((p, r.shots, origin))
            if r.swish:
                ducked = True
        return movers, throwers, ducked


# --- the loop --------------------------------------------------------------------------------


def run(
    s: SubzeroState,
    rnd: Callable[[], float],
    randbelow: Callable[[int], int] | None,
    max_steps: int,
    max_turns: int,
) -> int:
    """Play `s` on with random legal actions until the game ends or `max_steps` steps are
    made (a step: one action, or the joint programming); return the actions applied (each
    program counted).  Without `randbelow`, every pick is `sample_action`'s (`rnd`), as
    `core.play_random` plays; with it, the players' picks are `rng.choice`'s among the legal
    actions as `legal_actions` lists them (`randbelow`), chance's `sample_action`'s, as
    `core.generic_playout` plays.  `max_turns`: no programming for a turn past it (a
    `RuntimeError`)."""
    g = s.g
    t = g.fast
    history = s._history
    pos = s.pos
    at = s.at
    balls = s.balls
    hands = s.hands
    programs = s.programs
    n = s.n
    kinds = g.kinds
    squares = g.squares
    slots = g.slots
    hand_size = g.hand_size
    lines = g.lines
    together = g.lockstep
    mode = g.moving_target
    all_out = g.ending == ALL_OUT
    limit = g.damage_limit
    states = g.ball_states
    bits = t.bits
    reach = t.reach
    weights = t.weights
    dealt = t.dealt
    floats = randbelow is None
    # The draw pile as its cards in kind order, once a card is drawn (`s.pile`, the count of
    # each kind, is brought up to date from it when the loop ends), and the cards this loop
    # put on the discards (in `s.discard_total`, added to `s.discards` at a reshuffle or
    # when the loop ends).
    flat: list[int] | None = None
    discarded: list[int] = []
    countdown = t.countdown
    # Each player's program as the rows of the table of reveals it will use.
    plan = [t.plan(p, programs[p]) for p in range(n)]
    # The squares with a pawn, as a bit mask (brought up to date where pawns move).
    taken = 0
    for q in pos:
        taken |= bits[q]
    standing = [False] * n  # nobody ducking
    # The last step resolved: its reveals, turn and slot, walks, balls and hits (as
    # `resolution.resolve_step` keeps them), kept in the state when the loop ends.
    last: tuple[Any, ...] | None = None
    steps = extra = 0  # the actions are the steps, plus one for each program but the first
    # `s.phase`, read again after the rules' own functions (which may end the game)
    phase = s.phase
    try:
        while steps < max_steps:
            if phase == REVEAL:
                order = s.order
                norder = len(order)
                turn = s.turn
                slot = s.slot
                rpos = s.rpos
                reveals = s.step_reveals
                ducking = s.ducking
                if rpos:
                    movers, throwers, ducked = t.so_far(s)
                else:
                    movers = []
                    throwers = []
                    ducked = False
                while True:  # the steps of the turn
                    # The step's reveals (or the rest of them), each with what it does ...
                    end = norder
                    if steps + end - rpos > max_steps:
                        end = rpos + max_steps - steps
                    add = reveals.append
                    for p in order[rpos:end]:
                        m, choices = plan[p][slot][pos[p] * states + balls[p]]
                        if m:
                            r, left, swish, mover, thrower = choices[  # type: ignore[index]
                                int(rnd() * m) if floats else randbelow(m)  # type: ignore[misc]
                            ]
                        else:
                            r, left, swish, mover, thrower = t.choose(
                                p, programs[p][slot], pos[p], balls[p], rnd, randbelow
                            )
                        add(r)
                        balls[p] = left
                        if swish:
                            ducking[p] = True
                            ducked = True
                        if mover:
                            movers.append(mover)
                        if thrower:
                            throwers.append(thrower)
                    history.extend(reveals[rpos:] if rpos else reveals)
                    steps += end - rpos
                    if end < norder:
                        s.slot = slot
                        s.rpos = end
                        s.step_reveals = reveals
                        break
                    # ... then resolved at once (`resolution.resolve_step`): the moves ...
                    # (A step without moves, balls or hits has None for them, until the
                    # state keeps them as lists.)
                    walks: list[tuple[int, tuple[int, ...]]] | None = None
                    if movers:
                        walks = []
                        # One after the other, each stopping before a pawn in its way.  Moving
                        # together is the same when no walk crosses another (`_apart`); else
                        # `movement.lockstep` plays it.
                        apart = True
                        if together and len(movers) > 1:
                            crossed = 0
                            for mover in movers:
                                if mover[4] & crossed:
                                    apart = _apart(movers, taken, bits)
                                    break
                                crossed |= mover[4]
                        if apart:
                            for p, path, walk, whole, _, pathmask, flip in movers:
                                if not pathmask & taken:  # nothing in the way
                                    walks.append(whole)
                                    if flip:
                                        at[walk[0]] = -1
                                        q = path[-1]
                                        at[q] = p
                                        pos[p] = q
                                        taken ^= flip
                                    continue
                                j = 0
                                for q in path:
                                    if at[q] >= 0:
                                        break
                                    j += 1
                                walks.append((p, walk[: j + 1]))
                                if j:
                                    at[walk[0]] = -1
                                    q = path[j - 1]
                                    at[q] = p
                                    pos[p] = q
                                    taken ^= bits[walk[0]] | bits[q]
                        else:
                            walks = lockstep([mover[:2] for mover in movers], pos, at)
                            taken = 0
                            for q in pos:
                                taken |= bits[q]
                    # ... the balls, each to the first pawn on its line not ducking ...
                    flights: list[tuple[int, int, int, int]] | None = None
                    hits: list[tuple[int, int]] | None = None
                    if throwers:
                        flights = []
                        moved: dict[int, int] = {}
                        rank: dict[int, int] = {}
                        if movers and mode != "end_square":
                            moved = {p: walk[0] for p, walk in walks or () if len(walk) > 1}
                            rank = {r.player: i for i, r in enumerate(reveals)}
                        for shooter, thrown, origin in throwers:
                            if origin < 0:
                                origin = pos[shooter]
                            others = taken ^ bits[pos[shooter]]
                            line = lines[origin]
                            for d in thrown:
                                mask, end = reach[origin][d]
                                target = -1
                                if mask & others or moved:  # a pawn on its line
                                    end = origin
                                    for q in line[d]:
                                        end = q
                                        o = at[q]
                                        if moved:
                                            o = found_on(q, o, moved, rank, rank[shooter], mode)
                                        if o >= 0 and o != shooter and not ducking[o]:
                                            if hits is None:
                                                hits = []
                                            hits.append((shooter, o))
                                            target = o
                                            break
                                flights.append((shooter, origin, end, target))
                    if ducked:
                        ducking[:] = standing
                    # ... the hits, and the ending they may bring ...
                    recorded: list[tuple[int, int, bool]] | None = None
                    ending = False
                    if hits:
                        recorded = []
                        supply = s.supply
                        damage = s.damage
                        # `endings.check_end` changes nothing and goes on unless someone
                        # reaches the damage limit or nobody has a HIT token left (or
                        # anything else, in an all-out attack).
                        ending = all_out
                        for shooter, target in hits:
                            if supply[shooter] > 0:
                                supply[shooter] -= 1
                                s.boards[target][shooter] += 1
                                damage[target] += 1
                                if damage[target] >= limit:
                                    ending = True
                                recorded.append((shooter, target, True))
                            else:
                                recorded.append((shooter, target, False))
                        if not ending:
                            ending = True
                            for q in order:
                                if supply[q]:
                                    ending = False
                                    break
                    last = (reveals, turn, slot, walks, flights, recorded)
                    if ending:
                        over = check_end(s)
                        phase = s.phase
                        if over:
                            s.slot = slot
                            s.rpos = norder
                            s.step_reveals = reveals
                            break
                        order = s.order  # without the players who dropped out ...
                        norder = len(order)
                        taken = 0  # ... and their pawns
                        for q in pos:
                            taken |= bits[q]
                    # ... and the next step, or the end of the turn.
                    if slot + 1 < slots:
                        slot += 1
                        rpos = 0
                        reveals = []
                        movers = []
                        throwers = []
                        ducked = False
                    else:
                        _end_turn(s, t, discarded)
                        phase = DEAL
                        break
            elif phase == DEAL:
                # The draws of the refill (`random_play.sample`: each card of the pile alike).
                if flat is None:
                    flat = [k for k, c in enumerate(s.pile) for _ in range(c)]
                pop = flat.pop
                queue = s.queue
                total = s.pile_total
                while steps < max_steps:
                    steps += 1
                    if not total:  # `end_of_turn.reshuffle`: the discards are the new pile
                        history.append(Reshuffle())
                        discards = s.discards
                        if any(discards):
                            discarded += [k for k, c in enumerate(discards) for _ in range(c)]
                        discarded.sort()
                        flat = discarded
                        pop = flat.pop
                        discarded = []
                        total = s.discard_total
                        s.discards = [0] * kinds
                        s.discard_total = 0
                        s.reshuffles += 1
                        continue
                    p = queue[0]
                    hand = hands[p]
                    need = hand_size - len(hand)
                    k = need if need <= total else total
                    code = 0
                    for m in countdown[total][k]:
                        code += weights[pop(int(rnd() * m))]
                    total -= k
                    drawn = dealt[p].get(code) or t.draw(p, code)
                    history.append(drawn[0])
                    hand += drawn[1]
                    hand.sort()
                    if k == need:  # a full hand
                        del queue[0]
                        if not queue:
                            s.phase = phase = PROGRAM
                            break
                s.pile_total = total
            elif phase == PROGRAM:
                laid: list[Any] = []
                seats = sorted(s.order)  # the players still in, in seat order
                if floats:  # each card of the hand alike, slot by slot
                    picked = t.picked
                    for p in seats:
                        hand = hands[p]
                        code = 0
                        for m in countdown[len(hand)][slots]:
                            code = code * kinds + hand.pop(int(rnd() * m))
                        program, programs[p], plan[p] = picked[p].get(code) or t.program(p, code)
                        laid.append(program)
                else:  # one of the hand's programs as `legal_actions` lists them
                    arrangements = t.arrangements
                    for p in seats:
                        hand = hands[p]
                        key = tuple(sorted(hand))
                        listing = arrangements.get(key) or t.arrange(key)
                        ids, chosen = listing[randbelow(len(listing))]  # type: ignore[misc]
                        for k in chosen:
                            hand.remove(k)
                        programs[p] = chosen
                        plan[p] = t.plan(p, chosen)
                        laid.append(_new(Program, (p, ids)))
                history.append(JointAction(laid) if len(laid) > 1 else laid[0])
                s.phase = phase = REVEAL
                s.slot = 0
                s.rpos = 0
                s.step_reveals = []
                steps += 1
                extra += len(laid) - 1
                if s.turn > max_turns:
                    raise RuntimeError(f"no end after {max_turns} turns")
            elif phase == OVER:
                break
            else:  # setting up: the youngest player, the pawns
                action: Any
                if phase == PLACE:
                    free = list(range(squares))
                    for q in pos:
                        if q >= 0:
                            free.remove(q)
                    pick = int(rnd() * len(free)) if floats else randbelow(len(free))  # type: ignore[misc]
                    action = Place(s.queue[0], free[pick])
                else:
                    action = Youngest(int(rnd() * n))
                history.append(action)
                s._do(action)
                phase = s.phase
                steps += 1
                taken |= bits[pos[action.player]]
    finally:
        if last is not None:
            s.last_reveals, turn, slot, walks, flights, recorded = last
            s.last_moves = walks or []
            s.last_shots = flights or []
            s.last_hits = recorded or []
            s.last_step = (turn, slot + 1)
        if flat is not None:
            pile = [0] * kinds
            for k in flat:
                pile[k] += 1
            s.pile = pile
        discards = s.discards
        for k in discarded:
            discards[k] += 1
    return steps + extra


def _apart(movers: list[Mover], taken: int, bits: tuple[int, ...]) -> bool:
    """Whether moves made together keep apart: no square of a walk, up to the first pawn
    that does not move, is in another walk.  Then nobody moves into a square another mover
    wants or holds, and moving one after the other comes to the same."""
    staying = taken
    for mover in movers:
        staying &= ~bits[mover[2][0]]
    crossed = 0
    for mover in movers:
        walk = mover[2]
        reach = bits[walk[0]]
        for q in mover[1]:
            if staying & bits[q]:
                break
            reach |= bits[q]
        if reach & crossed:
            return False
        crossed |= reach
    return True


def _end_turn(s: SubzeroState, t: Tables, discarded: list[int]) -> None:
    """`end_of_turn.next_step` after the last step of a turn, with the events off: the cards
    revealed to the discards (`discarded`, counted in `s.discard_total`), the start passes
    on, the hands to refill: everyone's still in the game, each having laid cards from a
    hand of at most `hand_size`."""
    programs = s.programs
    s.last_programs = list(programs)
    order = s.order
    laid = len(discarded)
    for p in order:
        discarded += programs[p]
        programs[p] = ()
    s.discard_total += len(discarded) - laid
    s.slot = 0
    s.rpos = 0
    s.step_reveals = []
    s.turn += 1
    start = s.start
    out = s.out
    if out:
        s.start, s.order = t.passes.get((start, *out)) or t.pass_start(start, out)
    else:  # (everyone still in: by the start alone, no key to make)
        s.start, s.order = t.passes_all_in[start] or t.pass_start(start, out)
    s.queue = list(order)
    s.phase = DEAL
