"""Worked examples: a state in the middle of a hunt from an example's `setup:`
(`setup_state`), and the named facts about a state that its `expect:` checks (`query`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import SetupError
from rules_engine.kill_shot.actions import Draw
from rules_engine.kill_shot.phases import GO, OVER, PHASE_NAMES, PLAY
from rules_engine.kill_shot.recorded_hunts import check_record
from rules_engine.kill_shot.scoring import HuntResult
from rules_engine.kill_shot.state import KillShotState

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot

SETUP_KEYS: Final = (
    "hunt",
    "terrorists",
    "remaining",
    "captured",
    "escaped",
    "taliban",
    "pile",
    "piles",
    "hands",
    "deck",
    "discards",
    "set_aside",
    "jammed",
    "clock",
    "ready",
    "turn",
    "looking",
    "known",
    "picked_up",
    "record",
)


def setup_state(g: KillShot, setup: Mapping[str, Any]) -> KillShotState:
    """A state in the middle of a hunt, from an example's setup.

    `terrorists` (on the piles), `pile` or `piles` (cards bottom to top, "r5" or
    "r5 alpha" = who played it; by default a colour's player), `hands`, `deck` and
    `discards` (by default every other card is in the deck; given a deck alone, every
    other card is in the discards), `set_aside`, `captured`,
    `escaped`, `remaining` (the terrorist deck), `taliban`, `jammed`, `clock` (ms),
    `ready` (real time: when each player acts next; without it the countdown is under
    way and "go" comes at `clock`), `turn` (Situation Room), `looking` / `known` (Night
    Mission, hand positions from 1), `picked_up`, and `record` (a recorded hunt to
    check from this position: see `check_record`)."""
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupError((key,), f"unknown setup key '{key}' (known: {', '.join(SETUP_KEYS)})")
    n = g.num_players
    s = KillShotState(g, blank=True)
    hunt = setup.get("hunt", 1)
    if not isinstance(hunt, int) or isinstance(hunt, bool) or hunt < 1:
        raise SetupError(("hunt",), f"hunt must be a positive integer, got {hunt!r}")
    s.hunt = hunt
    if "terrorists" not in setup:
        raise SetupError(("terrorists",), "give the terrorist(s) being hunted")
    revealed = [
        _setup_terrorist(g, t, ("terrorists", i)) for i, t in enumerate(_list(setup, "terrorists"))
    ]
    if not 1 <= len(revealed) <= g.revealed:
        raise SetupError(("terrorists",), f"1 to {g.revealed} terrorist(s) are hunted at once")
    if "taliban" in setup:
        if not g.taliban_rule:
            raise SetupError(("taliban",), "the Taliban option is not in play")
        s.taliban = g._setup_player(setup["taliban"], ("taliban",))
    elif g.taliban_rule:
        raise SetupError(("taliban",), "name the Taliban player")
    captured = setup.get("captured", {})
    if not isinstance(captured, Mapping):
        raise SetupError(("captured",), "captured maps players to terrorists")
    used = set(revealed)
    for name, ids in captured.items():
        p = g._setup_player(name, ("captured", name))
        for i, tid in enumerate(ids):
            t = _setup_terrorist(g, tid, ("captured", name, i))
            s.captured[p].append(t)
            s.scores[p] += g.terrorists[t].points
            used.add(t)
    for i, tid in enumerate(_list(setup, "escaped")):
        t = _setup_terrorist(g, tid, ("escaped", i))
        s.escaped.append(t)
        used.add(t)
        if s.taliban >= 0 and g.taliban_scores:
            s.scores[s.taliban] += g.terrorists[t].points
    if "remaining" in setup:
        s.terr_left = [
            _setup_terrorist(g, t, ("remaining", i))
            for i, t in enumerate(_list(setup, "remaining"))
        ]
        if used & set(s.terr_left):
            raise SetupError(("remaining",), "a terrorist cannot be both hunted and remaining")
    else:
        s.terr_left = [t for t in range(len(g.terrorists)) if t not in used]
    k = len(revealed)
    s.pile_terr = revealed
    s.pile_open = [True] * k
    s.pile_need = [g.terrorists[t].kills for t in revealed]
    if "pile" in setup and "piles" in setup:
        raise SetupError(("piles",), "give 'pile' or 'piles', not both")
    if "piles" in setup:
        raw = _list(setup, "piles")
        if len(raw) != k:
            raise SetupError(("piles",), f"{k} pile(s), one per terrorist")
        keyed: list[tuple[str | int, ...]] = [("piles", i) for i in range(k)]
    else:
        raw = [setup.get("pile", [])] + [[] for _ in range(k - 1)]
        keyed = [("pile",)] + [("piles", i) for i in range(1, k)]
    s.piles = []
    s.pile_by = []
    for pile, where in zip(raw, keyed, strict=True):
        if not isinstance(pile, list):
            raise SetupError(where, "a pile is a list of cards, bottom first")
        cards = []
        by = []
        for i, entry in enumerate(pile):
            words = str(entry).split()
            if len(words) not in (1, 2):
                raise SetupError((*where, i), f"a pile card is 'r5' or 'r5 alpha', got {entry!r}")
            c = _setup_card(g, words[0], (*where, i))
            cards.append(c)
            if len(words) == 2:
                by.append(g._setup_player(words[1], (*where, i)))
            else:
                colour = g.colour_of[c]
                by.append(colour if colour < n else 0)
        s.piles.append(cards)
        s.pile_by.append(by)
    s.pile_kills = [sum(g.hunt_of[c] == g.kill_shot for c in pile) for pile in s.piles]
    s.pile_first9 = [
        next((q for c, q in zip(pile, by, strict=True) if g.hunt_of[c] == g.kill_shot), -1)
        for pile, by in zip(s.piles, s.pile_by, strict=True)
    ]
    limit_change = sum(g.terrorists[t].limit_change for t in revealed)
    s.limits = [g.hand_limit + limit_change] * n
    hands = setup.get("hands", {})
    if not isinstance(hands, Mapping):
        raise SetupError(("hands",), "hands maps players to their cards")
    for name, cards in hands.items():
        p = g._setup_player(name, ("hands", name))
        if not isinstance(cards, list):
            raise SetupError(("hands", name), "a hand is a list of cards")
        s.hands[p] = [_setup_card(g, c, ("hands", name, i)) for i, c in enumerate(cards)]
    s.known = [[not g.blind] * len(h) for h in s.hands]
    for name, slots in (setup.get("known") or {}).items():
        p = g._setup_player(name, ("known", name))
        for i, slot in enumerate(slots):
            if not isinstance(slot, int) or not 1 <= slot <= len(s.hands[p]):
                raise SetupError(("known", name, i), f"a hand position 1-{len(s.hands[p])}")
            s.known[p][slot - 1] = True
    for name, slot in (setup.get("looking") or {}).items():
        p = g._setup_player(name, ("looking", name))
        if not isinstance(slot, int) or not 1 <= slot <= len(s.hands[p]):
            raise SetupError(("looking", name), f"a hand position 1-{len(s.hands[p])}")
        s.looking[p] = slot - 1
        s.known[p][slot - 1] = True
    s.set_aside = [
        _setup_card(g, c, ("set_aside", i)) for i, c in enumerate(_list(setup, "set_aside"))
    ]
    s.out = [0] * len(g.codes)
    for pile in s.piles:
        for c in pile:
            s.out[c] += 1
    for c in s.set_aside:
        s.out[c] += 1
    s.discards = _setup_pools(g, setup, "discards", None)
    rest_to_discards = "deck" in setup and "discards" not in setup
    placed: list[list[int]] = [[] for _ in range(g.pools)]
    for p, hand in enumerate(s.hands):
        placed[p if g.per_colour else 0].extend(hand)
    for c in itertools.chain(*s.piles, s.set_aside):
        if g.pool_of_kind[c] >= g.pools or c not in g.pool_cards[g.pool_of_kind[c]]:
            raise SetupError(("piles",), f"{g.codes[c]} is not in play")
        placed[g.pool_of_kind[c]].append(c)
    for pool in range(g.pools):
        placed[pool].extend(s.discards[pool])
    rest = []
    for pool in range(g.pools):
        left = list(g.pool_cards[pool])
        for c in placed[pool]:
            if c not in left:
                who = g.names[pool] + "'s colour" if g.per_colour else "the game"
                raise SetupError(("hands",), f"too many {g.codes[c]}: more than {who} has")
            left.remove(c)
        rest.append(left)
    if rest_to_discards:
        s.decks = _setup_pools(g, setup, "deck", None)
        for pool in range(g.pools):
            left = list(rest[pool])
            for c in s.decks[pool]:
                if c not in left:
                    raise SetupError(("deck",), f"too many {g.codes[c]}")
                left.remove(c)
            s.discards[pool] = left
    elif "deck" in setup:
        s.decks = _setup_pools(g, setup, "deck", None)
        for pool in range(g.pools):
            if sorted(s.decks[pool]) != sorted(rest[pool]):
                raise SetupError(
                    ("deck",),
                    "the deck must hold exactly the cards not placed elsewhere: "
                    + " ".join(g.codes[c] for c in sorted(rest[pool])),
                )
    else:
        s.decks = rest
    if g.deadline:
        s.pick_sizes = [0] * n
    for i, name in enumerate(_list(setup, "jammed")):
        s.jammed[g._setup_player(name, ("jammed", i))] = True
    clock = setup.get("clock", 0)
    if not isinstance(clock, int) or isinstance(clock, bool):
        raise SetupError(("clock",), "clock is a whole number of ms")
    picked = setup.get("picked_up", True)
    if not isinstance(picked, bool):
        raise SetupError(("picked_up",), "picked_up is true or false")
    s.picked_up = picked
    if g.turn_based:
        if "ready" in setup:
            raise SetupError(("ready",), "Situation Room has turns, not reaction times")
        if "turn" not in setup:
            raise SetupError(("turn",), "give whose turn it is")
        s.turn = g._setup_player(setup["turn"], ("turn",))
        s.clock = 0
        s._open_turn()
    else:
        if "turn" in setup:
            raise SetupError(("turn",), "real time has no turns")
        ready = setup.get("ready")
        if ready is None:
            s.clock = clock - g.countdown_ms
            s.phase = GO
        else:
            if not isinstance(ready, Mapping) or sorted(
                g._setup_player(x, ("ready", x)) for x in ready
            ) != list(range(n)):
                raise SetupError(("ready",), "ready gives every player's next action time (ms)")
            for name, t in ready.items():
                if not isinstance(t, int) or isinstance(t, bool) or t < clock:
                    raise SetupError(
                        ("ready", name), f"a time in ms, not before the clock ({clock})"
                    )
                s.ready[g._player_index[name]] = t
            s.clock = clock
            s.phase = PLAY
    s.init = s.clone()
    if "record" in setup:
        lines = setup["record"]
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise SetupError(("record",), "a record is a list of lines")
        result = check_record(g, s, lines)
        s = result.state
        s.recorded = len(s.history)
        s.record_error = None if result.ok else f"line {result.line}: {result.message}"
    return s


def _list(setup: Mapping[str, Any], key: str) -> list[Any]:
    value = setup.get(key, [])
    if not isinstance(value, list):
        raise SetupError((key,), f"'{key}' must be a list")
    return value


def _setup_card(g: KillShot, code: object, key: tuple[str | int, ...]) -> int:
    k = g.code_index.get(str(code))
    if k is None or k not in g.in_play_kinds:
        raise SetupError(key, f"unknown card or card not in play: {code!r}")
    return k


def _setup_terrorist(g: KillShot, tid: object, key: tuple[str | int, ...]) -> int:
    t = g.terrorist_index.get(str(tid))
    if t is None:
        raise SetupError(
            key, f"unknown terrorist {tid!r} (terrorists: {', '.join(g.terrorist_index)})"
        )
    return t


def _setup_pools(g: KillShot, setup: Mapping[str, Any], key: str, default: Any) -> list[list[int]]:
    value = setup.get(key, default)
    pools: list[list[int]] = [[] for _ in range(g.pools)]
    if value is None:
        return pools
    if g.per_colour:
        if not isinstance(value, Mapping):
            raise SetupError((key,), f"with colour decks '{key}' maps players to cards")
        for name, cards in value.items():
            p = g._setup_player(name, (key, name))
            pools[p] = [_setup_card(g, c, (key, name, i)) for i, c in enumerate(cards)]
        return pools
    if not isinstance(value, list):
        raise SetupError((key,), f"'{key}' is a list of cards")
    pools[0] = [_setup_card(g, c, (key, i)) for i, c in enumerate(value)]
    return pools


# --- queries for worked examples ---------------------------------------------------------

QUERIES: Final = (
    "phase",
    "hunt",
    "clock",
    "pile",
    "piles",
    "top",
    "tops",
    "open_piles",
    "kill_shots",
    "hands",
    "hand_sizes",
    "limits",
    "deck_size",
    "discards",
    "removed",
    "set_aside",
    "terrorists",
    "captured",
    "escaped",
    "scores",
    "last_result",
    "results",
    "pile_points",
    "jammed",
    "ready",
    "pending",
    "turn",
    "voided",
    "looking",
    "taliban",
    "winner",
    "record_check",
    "draw_fits",
)


def result_text(g: KillShot, r: HuntResult) -> str:
    who = g.names[r.winner] if r.winner >= 0 else "escaped"
    return f"hunt {r.hunt}: {g.terrorists[r.terrorist].id} -> {who} ({r.how})"


def query(g: KillShot, state: Any, name: str) -> Any:
    if not isinstance(state, KillShotState):
        raise TypeError("not a KILL SHOT state")
    s = state
    names = g.names
    codes = g.codes
    n = s.n

    def pools(lists: list[list[int]]) -> Any:
        if g.per_colour:
            return {names[p]: [codes[c] for c in lists[p]] for p in range(n)}
        return [codes[c] for c in lists[0]]

    if name == "phase":
        return PHASE_NAMES[s.phase]
    if name == "hunt":
        return s.hunt
    if name == "clock":
        return s.clock
    if name == "pile":
        return [codes[c] for c in s.piles[0]] if s.piles else []
    if name == "piles":
        return [[codes[c] for c in pile] for pile in s.piles]
    if name == "top":
        return g.hunt_of[s.piles[0][-1]] if s.piles and s.piles[0] else 0
    if name == "tops":
        return [g.hunt_of[p[-1]] if p else 0 for p in s.piles]
    if name == "open_piles":
        return list(s.pile_open)
    if name == "kill_shots":
        return list(s.pile_kills)
    if name == "hands":
        return {names[p]: [codes[c] for c in s.hands[p]] for p in range(n)}
    if name == "hand_sizes":
        return {names[p]: len(s.hands[p]) for p in range(n)}
    if name == "limits":
        return {names[p]: s.limits[p] for p in range(n)}
    if name == "deck_size":
        if g.per_colour:
            return {names[p]: len(s.decks[p]) for p in range(n)}
        return len(s.decks[0])
    if name == "discards":
        return pools(s.discards)
    if name == "removed":
        return [codes[c] for c in s.removed]
    if name == "set_aside":
        return [codes[c] for c in s.set_aside]
    if name == "terrorists":
        return [g.terrorists[t].id for t in s.pile_terr]
    if name == "captured":
        return {names[p]: [g.terrorists[t].id for t in s.captured[p]] for p in range(n)}
    if name == "escaped":
        return [g.terrorists[t].id for t in s.escaped]
    if name == "scores":
        return {names[p]: s.scores[p] for p in range(n)}
    if name == "last_result":
        if not s.results:
            return None
        r = s.results[-1]
        return {
            "hunt": r.hunt,
            "terrorist": g.terrorists[r.terrorist].id,
            "winner": names[r.winner] if r.winner >= 0 else None,
            "how": r.how,
            "totals": {names[p]: r.totals[p] for p in range(n)} if r.totals else {},
        }
    if name == "results":
        return [result_text(g, r) for r in s.results]
    if name == "pile_points":
        totals = [0] * n
        if s.piles:
            for c, q in zip(s.piles[0], s.pile_by[0], strict=True):
                totals[q] += g.points_of[c]
        return {names[p]: totals[p] for p in range(n)}
    if name == "jammed":
        return [names[p] for p in range(n) if s.jammed[p]]
    if name == "ready":
        return {names[p]: s.ready[p] for p in range(n)} if s.phase == PLAY else {}
    if name == "pending":
        return [names[p] for p in sorted(s.pending)]
    if name == "turn":
        return names[s.turn] if g.turn_based else None
    if name == "voided":
        return [g.format_action(a) for a in s.voided]
    if name == "looking":
        return {names[p]: s.looking[p] + 1 for p in range(n)}
    if name == "taliban":
        return names[s.taliban] if s.taliban >= 0 else None
    if name == "winner":
        if s.phase != OVER:
            return None
        return names[s.winners[0]] if len(s.winners) == 1 else "draw"
    if name == "record_check":
        return s.record_error or "ok"
    if name == "draw_fits":
        # whether the cards the last draw brought include one its player may now play on
        # an open hunt pile (true/false: an exhaustive step's probability)
        last = next((a for a in reversed(s.history) if isinstance(a, Draw)), None)
        if last is None:
            return False
        p = last.player
        return any(
            g.hunt_of[c] in s._allowed(p, k)
            for c in last.cards
            if not g.special_of[c]
            for k in range(len(s.piles))
            if s.pile_open[k]
        )
    raise KeyError(name)
