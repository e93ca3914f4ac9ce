"""The worked examples' side of the engine: a state from an example's `setup:`, and the
named facts an example's `expect:` checks (`rules_engine.examples` replays the example).

`setup_state` builds a game in progress from names a reader can write (players, squares,
cards), checking it against the rules (`SetupError` points at the key); `query` answers the
names in `QUERIES` in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import SetupError
from rules_engine.subzero.actions import DEAL, DIRECTIONS, PHASE_NAMES, PROGRAM, REVEAL, Youngest
from rules_engine.subzero.endings import DEATHMATCH, check_end_at_setup
from rules_engine.subzero.state import SubzeroState, _Init

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero

# --- setup for worked examples -------------------------------------------------------------

SETUP_KEYS: Final = (
    "youngest",
    "turn",
    "start",
    "positions",
    "snowballs",
    "boards",
    "out",
    "hands",
    "programs",
    "draw_pile",
    "discards",
)


def setup_state(g: Subzero, setup: Mapping[str, Any]) -> SubzeroState:
    """A state from an example's setup.

    `youngest: red` alone starts the placement.  With `positions` (every pawn's square,
    players in `out` excepted) and `start` (this turn's start player) the game is in
    progress: with `programs` (each player's 3 face-down cards) the first reveal is next;
    with `hands` only, the programming; with neither, the refill.  `snowballs`,
    `boards` ({target: {shooter: HIT tokens}}), `turn`, `draw_pile` and `discards` are
    optional (hands of fewer than 5 cards without programs: the refill is next); the cards not listed anywhere are in the draw pile (or, when `draw_pile`
    is given, in the discards)."""
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupError((key,), f"unknown setup key '{key}' (known: {', '.join(SETUP_KEYS)})")
    state = SubzeroState(g)
    if "positions" not in setup:
        extra = [k for k in setup if k != "youngest"]
        if extra:
            raise SetupError((extra[0],), "give 'positions' and 'start' for a game in progress")
        if "youngest" in setup:
            state.apply(Youngest(g._setup_player(setup["youngest"], ("youngest",))))
        return state
    if "youngest" in setup:
        raise SetupError(("youngest",), "'youngest' only starts a new game (no 'positions')")
    n = g.num_players
    s = state
    out: list[int] = []
    for i, name in enumerate(_setup_seq(setup, "out")):
        p = g._setup_player(name, ("out", i))
        if p in out:
            raise SetupError(("out", i), f"{name} is out twice")
        out.append(p)
    if g.ending != DEATHMATCH and out:
        raise SetupError(("out",), "players drop out only in deathmatch")
    positions = _setup_map(setup, "positions")
    pos = [-1] * n
    for name, square in positions.items():
        p = g._setup_player(name, ("positions", name))
        if p in out:
            raise SetupError(("positions", name), f"{name} is out: no pawn")
        sq = g.square_index.get(str(square))
        if sq is None:
            raise SetupError(("positions", name), f"unknown square {square!r}")
        if sq in pos:
            raise SetupError(("positions", name), f"two pawns on {square}")
        pos[p] = sq
    for p in range(n):
        if p not in out and pos[p] < 0:
            raise SetupError(("positions",), f"{g.names[p]} has no square")
    if "start" not in setup:
        raise SetupError(("positions",), "a game in progress needs 'start' (the start player)")
    start = g._setup_player(setup["start"], ("start",))
    if start in out:
        raise SetupError(("start",), "the start player is out")
    turn = setup.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise SetupError(("turn",), f"turn must be a positive integer, got {turn!r}")
    balls = [g.snowballs_at_start] * n
    for name, k in _setup_map(setup, "snowballs").items():
        p = g._setup_player(name, ("snowballs", name))
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= g.max_snowballs:
            raise SetupError(("snowballs", name), f"snowballs in hand are 0 to {g.max_snowballs}")
        balls[p] = k
    boards = [[0] * n for _ in range(n)]
    for target_name, by in _setup_map(setup, "boards").items():
        t = g._setup_player(target_name, ("boards", target_name))
        if not isinstance(by, Mapping):
            raise SetupError(("boards", target_name), "map shooters to HIT tokens")
        for shooter_name, k in by.items():
            sh = g._setup_player(shooter_name, ("boards", target_name, shooter_name))
            if sh == t or not isinstance(k, int) or isinstance(k, bool) or k < 0:
                raise SetupError(
                    ("boards", target_name, shooter_name),
                    "HIT tokens of another player, a whole number",
                )
            boards[t][sh] = k
    for sh in range(n):
        if sum(boards[t][sh] for t in range(n)) > g.hit_tokens:
            raise SetupError(("boards",), f"{g.names[sh]} has only {g.hit_tokens} HIT tokens")
    used = [0] * len(g.cards)

    def cards_of(key: str, name: str, items: Any) -> list[int]:
        if not isinstance(items, list):
            raise SetupError((key, name), f"'{key}' of {name} must be a list of cards")
        kinds = []
        for j, c in enumerate(items):
            k = g.card_index.get(str(c))
            if k is None:
                raise SetupError(
                    (key, name, j), f"unknown card {c!r} (cards: {', '.join(g.card_ids)})"
                )
            used[k] += 1
            kinds.append(k)
        return kinds

    hands: list[list[int]] = [[] for _ in range(n)]
    programs: list[tuple[int, ...]] = [() for _ in range(n)]
    has_programs = "programs" in setup
    for key in ("hands", "programs"):
        given = _setup_map(setup, key)
        for name, items in given.items():
            p = g._setup_player(name, (key, name))
            if p in out:
                raise SetupError((key, name), f"{name} is out: no cards")
            kinds = cards_of(key, name, items)
            if key == "hands":
                hands[p] = sorted(kinds)
            else:
                if len(kinds) != g.slots:
                    raise SetupError((key, name), f"a program is {g.slots} cards, got {len(kinds)}")
                programs[p] = tuple(kinds)
        if given:
            for p in range(n):
                if p not in out and g.names[p] not in given:
                    raise SetupError((key,), f"'{key}' must list every player in the game")
    for p in range(n):
        if p in out:
            continue
        size = len(hands[p]) + len(programs[p])
        limit = g.hand_size
        if size > limit:
            raise SetupError(("hands", g.names[p]), f"more than {limit} cards")
        if has_programs and size != limit:
            raise SetupError(
                ("hands", g.names[p]),
                f"with programs, a hand holds {limit - g.slots} more cards "
                f"({g.names[p]} has {size} in all)",
            )
    pile_given = "draw_pile" in setup
    pile_list = cards_of("draw_pile", "pile", _setup_seq(setup, "draw_pile"))
    disc_list = cards_of("discards", "discards", _setup_seq(setup, "discards"))
    for k, c in enumerate(g.deck_counts):
        if used[k] > c:
            raise SetupError(
                ("hands",), f"{used[k]} cards {g.card_ids[k]} listed, the deck has {c}"
            )
    rest = [g.deck_counts[k] - used[k] for k in range(len(g.cards))]
    pile = [0] * len(g.cards)
    disc = [0] * len(g.cards)
    for k in pile_list:
        pile[k] += 1
    for k in disc_list:
        disc[k] += 1
    for k in range(len(g.cards)):
        if pile_given:
            disc[k] += rest[k]
        else:
            pile[k] += rest[k]
    s.turn = turn
    s.pos = pos
    s.at = [-1] * g.squares
    for p, sq in enumerate(pos):
        if sq >= 0:
            s.at[sq] = p
    s.balls = balls
    s.boards = boards
    s.supply = [g.hit_tokens - sum(boards[t][sh] for t in range(n)) for sh in range(n)]
    s.damage = [sum(row) for row in boards]
    s.out = out
    s.hands = hands
    s.programs = programs
    s.pile = pile
    s.pile_total = sum(pile)
    s.discards = disc
    s.discard_total = sum(disc)
    s.start = start
    s.youngest = start
    s._set_order()
    if has_programs:
        s.phase = REVEAL
        s.slot = 0
        s.rpos = 0
    elif "hands" in setup and all(len(hands[p]) == g.hand_size for p in range(n) if p not in out):
        s.phase = PROGRAM
    else:
        s.phase = DEAL
        s.queue = [p for p in s.order if len(s.hands[p]) < g.hand_size]
        if not s.queue:
            s.phase = PROGRAM
    s.init = _Init(
        tuple(pos),
        turn,
        tuple(balls),
        tuple(map(tuple, boards)),
        tuple(out),
        tuple(map(tuple, hands)),
        tuple(programs),
        tuple(pile),
        tuple(disc),
        start,
        s.phase,
    )
    check_end_at_setup(s)
    return s


def _setup_map(setup: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = setup.get(key, {})
    if not isinstance(value, Mapping):
        raise SetupError((key,), f"'{key}' must map player names to values")
    return value


def _setup_seq(setup: Mapping[str, Any], key: str) -> list[Any]:
    value = setup.get(key, [])
    if not isinstance(value, list):
        raise SetupError((key,), f"'{key}' must be a list")
    return value


# --- queries for worked examples ---------------------------------------------------------

QUERIES = (
    "phase",
    "turn",
    "step",
    "start",
    "positions",
    "snowballs",
    "boards",
    "damage",
    "hit_tokens_left",
    "revealed",
    "ducking",
    "last_hits",
    "last_moves",
    "targets",
    "hands",
    "programs",
    "draw_pile",
    "discards",
    "reshuffles",
    "out",
    "victims",
    "winners",
)


def query(g: Subzero, state: Any, name: str) -> Any:
    if not isinstance(state, SubzeroState):
        raise TypeError("not a S.U.B.Z.E.R.O. state")
    s = state
    names = g.names
    n = s.n
    sq = g.square_names
    if name == "phase":
        return PHASE_NAMES[s.phase]
    if name == "turn":
        return s.turn
    if name == "step":
        return s.slot + 1 if s.phase == REVEAL else 0
    if name == "start":
        return names[s.start] if s.start >= 0 else None
    if name == "positions":
        return {names[p]: (sq[s.pos[p]] if s.pos[p] >= 0 else None) for p in range(n)}
    if name == "snowballs":
        return {names[p]: s.balls[p] for p in range(n)}
    if name == "boards":
        return {names[t]: {names[sh]: k for sh, k in enumerate(s.boards[t]) if k} for t in range(n)}
    if name == "damage":
        return {names[p]: s.damage[p] for p in range(n)}
    if name == "hit_tokens_left":
        return {names[p]: s.supply[p] for p in range(n)}
    if name == "revealed":
        shown = s.step_reveals or s.last_reveals
        return {names[r.player]: g.reveal_text(r) for r in shown}
    if name == "ducking":
        return [names[p] for p in range(n) if s.ducking[p]]
    if name == "last_hits":
        return [
            f"{names[a]}>{names[b]}" + ("" if placed else " (no HIT token left)")
            for a, b, placed in s.last_hits
        ]
    if name == "last_moves":
        return {names[p]: "-".join(sq[q] for q in walk) for p, walk in s.last_moves}
    if name == "targets":
        return {DIRECTIONS[d]: names[p] for d, p in s.targets().items()}
    if name == "hands":
        return {names[p]: [g.card_ids[k] for k in s.hands[p]] for p in range(n)}
    if name == "programs":
        return {names[p]: [g.card_ids[k] for k in s.programs[p]] for p in range(n)}
    if name == "draw_pile":
        return s.pile_total
    if name == "discards":
        return s.discard_total
    if name == "reshuffles":
        return s.reshuffles
    if name == "out":
        return [names[p] for p in s.out]
    if name == "victims":
        return {
            names[sh]: [names[t] for t in range(n) if t != sh and s.boards[t][sh]]
            for sh in range(n)
        }
    if name == "winners":
        return [names[p] for p in s.winners]
    raise KeyError(name)
