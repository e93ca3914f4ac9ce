"""Diagrams: a state drawn for the rulebook's worked examples, in players' language.

A diagram shows the table as the last action left it (`scene`), together with what the
rules then do by themselves (an evasion attacks nobody, a torpedo left with no dice cannot
fire, the round is scored), but not the next attack that waits for dice: the engine turns
its cards over at once, the diagram keeps them face down, as turning them over is the next
step's news.

- After a roll or a column picked: the attack it belongs to, named by the round and the
  attack number the engine counted when the attack was made.  The cards of that attack
  are highlighted, its dice drawn as die faces, each group of the roll as a shot from the
  torpedo to the column it aims at (the transports it sinks marked as hit, the columns
  the attacker may still pick highlighted).  When the roll ended the round, the table is
  drawn as the round left it, with the round's points.
- After the cards are laid out: the cards, face down but for attacks the rules played by
  themselves.
- Before the cards are laid out: the players' points and who goes first.

Transports are drawn by their ship numbers, face up, so that a reader can follow the
count; sunk ones are marked.  Action cards are pictures of the printed pieces
(`torpedo-b-red`), those not yet turned over their backs; a seat without a card set of
its own, or a card no printed piece shows (torpedo D of the first rules), is drawn by its
grade (`?` face down).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_engine.core import (
    Diagram,
    DiagramArrow,
    DiagramCell,
    DiagramGrid,
    JointAction,
    apply_step,
)
from rules_engine.submarine_attack.actions import ROLL, TARGET, Roll, Start, Target
from rules_engine.submarine_attack.state import SubmarineAttackState

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack


@dataclass(frozen=True)
class Shot:
    """A group of a roll aimed at a column (1-based), and whether it sank a transport."""

    column: int
    sank: bool


@dataclass
class Fired:
    """One torpedo roll of a round, as the table saw it."""

    round: int
    slot: int  # 0-based
    attacker: int
    roll: tuple[int, ...]
    shots: list[Shot] = field(default_factory=list)


@dataclass(frozen=True)
class Scene:
    """What a diagram draws: the table as the last action left it.

    `kind`: `attack` (a roll or a pick), `laid_out` (the cards were placed), `start`
    (nothing on the table).  `first_slot`..`last_slot` (1-based) are the attacks the
    caption names; `shown` how many slots are face up."""

    kind: str
    round: int
    first_slot: int = 0
    last_slot: int = 0
    shown: int = 0
    ships: tuple[tuple[int, ...], ...] = ()
    slots: tuple[tuple[str, ...], ...] = ()
    sunk: tuple[int, ...] = ()
    active: frozenset[tuple[int, int]] = frozenset()  # (player, slot) highlighted
    fired: tuple[Fired, ...] = ()
    choices: tuple[int, ...] = ()  # columns the attacker may pick now
    defender: int = -1
    round_over: bool = False
    points: tuple[int, ...] = ()  # this round's points, once it is over
    scores: tuple[int, ...] = ()
    first: int = -1
    winners: tuple[int, ...] = ()


def scene(g: SubmarineAttack, state: SubmarineAttackState) -> Scene:
    """The table as the last action of `state`'s history left it (see the module's doc)."""
    s = state
    history = s.history
    if not history or isinstance(history[-1], Start):
        return Scene("start", s.round, scores=tuple(s.scores), first=s.first)
    # Replay to see each roll's groups, what they sank, and the state before the last action.
    now = s.initial()
    before = now
    fired: list[Fired] = []
    for step in history:
        before = now.clone()
        apply_step(now, step)
        if isinstance(step, Roll | Target):
            _record(g, before, now, step, fired)
    last = history[-1]
    ended = len(s.results) > len(before.results)
    result = s.results[-1] if ended else None
    n = s.n
    if result is not None:
        ships, slots, sunk = result.ships, result.slots, result.sunk
        attacks = result.attacks
        shown = len(result.cards[0])
    else:
        ships, slots, sunk = tuple(s.ships), tuple(s.slots), tuple(s.sunk)
        attacks = tuple(s.attacks)
        shown = 0
    pending = () if result is not None or s.phase != ROLL else (attacks[-1],)
    if isinstance(last, JointAction):  # the cards were laid out (and maybe attacks began)
        if result is None:
            shown = s.slot  # the attacks before the one that waits for dice
        return Scene(
            "laid_out",
            before.round,
            1 if shown else 0,
            shown,
            shown,
            ships,
            slots,
            sunk,
            frozenset((a[1], a[0]) for a in attacks if a[0] < shown),
            round_over=result is not None,
            points=result.points if result is not None else (),
            scores=tuple(s.scores),
            first=s.first,
            winners=s.winners,
        )
    slot = before.slot
    if result is None:
        # The engine turns over the next attack's cards as soon as this attack is done;
        # they stay face down here (that is the next step's news).
        shown = s.slot if s.slot > slot else slot + 1
    active = frozenset((a[1], a[0]) for a in attacks if slot <= a[0] < shown and a not in pending)
    choices = tuple(s.pending[0][2]) if result is None and s.phase == TARGET else ()
    return Scene(
        "attack",
        before.round,
        slot + 1,
        shown,
        shown,
        ships,
        slots,
        sunk,
        active,
        tuple(f for f in fired if f.round == before.round and f.slot == slot),
        choices,
        (s.attacker + 1) % n if choices else -1,
        result is not None,
        result.points if result is not None else (),
        tuple(s.scores),
        s.first,
        s.winners,
    )


def _record(
    g: SubmarineAttack,
    before: SubmarineAttackState,
    after: SubmarineAttackState,
    action: Roll | Target,
    fired: list[Fired],
) -> None:
    """Note what a roll or a pick aimed at and sank (the state after may be a new round)."""
    defender = (before.attacker + 1) % before.n
    ended = len(after.results) > len(before.results)
    sunk_after = after.results[-1].sunk[defender] if ended else after.sunk[defender]
    new = sunk_after & ~before.sunk[defender]
    if isinstance(action, Roll):
        record = Fired(before.round, before.slot, before.attacker, action.dice)
        fired.append(record)
        deferred = not ended and after.phase == TARGET and bool(after.pending_pairs)
        if not deferred:
            counts = Counter(action.dice)
            for face in sorted(f for f, c in counts.items() if c == 2 and f <= g.columns):
                record.shots.append(Shot(face, bool(new >> (face - 1) & 1)))
        return
    columns = (
        before.pending_pairs
        if before.pending_pairs and action.column in before.pending_pairs
        else (action.column,)
    )
    if fired and (fired[-1].round, fired[-1].slot, fired[-1].attacker) == (
        before.round,
        before.slot,
        before.attacker,
    ):
        for column in columns:
            fired[-1].shots.append(Shot(column, bool(new >> (column - 1) & 1)))


# --- drawing -----------------------------------------------------------------------------


def diagram(g: SubmarineAttack, state: Any) -> Diagram:
    """The table as the last action left it: every player's transports (columns) and
    action cards (slots), the dice of the attack, shots as arrows; the round's points
    once it is over; before the cards are laid out, the points and who goes first."""
    if not isinstance(state, SubmarineAttackState):
        raise TypeError("not a Submarine Attack state")
    seen = scene(g, state)
    if seen.kind == "start":
        return (_points_grid(g, seen, state.n),)
    grids: list[DiagramGrid] = [_table(g, seen, state.n)]
    if seen.round_over:
        grids.append(_points_grid(g, seen, state.n))
    return tuple(grids)


def caption(g: SubmarineAttack, seen: Scene) -> dict[str, str]:
    """The table's caption: the round and the attack(s) drawn, by the engine's count."""
    r = seen.round
    if seen.kind == "start":
        if seen.first < 0:
            return {
                "ja": f"{r}ラウンド目:先攻を決める前",
                "en": f"Round {r}: before deciding who goes first",
            }
        who = g.display[seen.first]
        return {
            "ja": f"{r}ラウンド目:{who['ja']}が先攻",
            "en": f"Round {r}: {who['en']} goes first",
        }
    a, b = seen.first_slot, seen.last_slot
    if not a:
        return {"ja": f"{r}ラウンド目:カードの配置", "en": f"Round {r}: the cards laid out"}
    if a == b:
        return {"ja": f"{r}ラウンド目・{a}回目", "en": f"Round {r}, attack {a}"}
    return {"ja": f"{r}ラウンド目・{a}〜{b}回目", "en": f"Round {r}, attacks {a}–{b}"}


def _table(g: SubmarineAttack, seen: Scene, n: int) -> DiagramGrid:
    rows: list[tuple[dict[str, str], tuple[DiagramCell, ...]]] = []
    where: dict[tuple[str, int], int] = {}
    hits = {
        ((f.attacker + 1) % n, shot.column - 1) for f in seen.fired for shot in f.shots if shot.sank
    }
    # Each player's action cards lie next to the transports they attack (the player on
    # their left): with two players the two rows of cards, turned over together, sit in
    # the middle between the two fleets.
    if n == 2:
        order = [("fleet", 1), ("cards", 0), ("cards", 1), ("fleet", 0)]
    else:
        order = [(kind, p) for q in range(n) for kind, p in (("fleet", (q + 1) % n), ("cards", q))]
    for kind, p in order:
        name = g.display[p]
        where[(kind, p)] = len(rows)
        if kind == "fleet":
            rows.append(
                (
                    {"ja": f"{name['ja']}の輸送船", "en": f"{name['en']} ships"},
                    _fleet(g, seen, p, hits),
                )
            )
        else:
            rows.append(
                ({"ja": f"{name['ja']}のカード", "en": f"{name['en']} cards"}, _cards(g, seen, p))
            )
    arrows: list[DiagramArrow] = []
    for f in seen.fired:
        name = g.display[f.attacker]
        rows.append(
            (
                {"ja": f"{name['ja']}のダイス", "en": f"{name['en']}'s dice"},
                tuple(DiagramCell(die=d) for d in f.roll),
            )
        )
        defender = (f.attacker + 1) % n
        for shot in f.shots:
            arrows.append(
                DiagramArrow(
                    (where[("cards", f.attacker)], f.slot),
                    (where[("fleet", defender)], shot.column - 1),
                    "shot",
                    colour=g.names[f.attacker] if _has_cards(g, f.attacker) else "",
                )
            )
    width = max(len(cells) for _label, cells in rows)
    return DiagramGrid(
        caption(g, seen),
        tuple(str(k + 1) for k in range(width)),
        tuple(rows),
        tuple(arrows),
    )


def _has_cards(g: SubmarineAttack, p: int) -> bool:
    """Whether player `p` has printed pieces (a deck of their own, with its colour)."""
    return any(q == p for _component, q in g.piece_ids)


def _fleet(
    g: SubmarineAttack, seen: Scene, p: int, hits: set[tuple[int, int]]
) -> tuple[DiagramCell, ...]:
    cells = []
    for c, ships in enumerate(seen.ships[p]):
        sunk = bool(seen.sunk[p] >> c & 1)
        if (p, c) in hits:
            mark = "hit"
        elif sunk:
            mark = "sunk"
        elif p == seen.defender and c + 1 in seen.choices:
            mark = "active"
        else:
            mark = ""
        cells.append(DiagramCell(str(ships), mark))
    return tuple(cells)


def _cards(g: SubmarineAttack, seen: Scene, p: int) -> tuple[DiagramCell, ...]:
    cells = []
    for k, code in enumerate(seen.slots[p]):
        card = g.cards[code]
        mark = "active" if (p, k) in seen.active else ""
        cells.append(_card(g, card.component, card.grade, p, k < seen.shown, mark))
    return tuple(cells)


def _card(
    g: SubmarineAttack, component: str, text: str, p: int, face_up: bool, mark: str
) -> DiagramCell:
    """A card of player `p`: its printed piece (face or back), or its number or grade (`?`
    face down) where no printed piece shows it."""
    piece = g.piece_ids.get((component, p))
    if piece is not None:
        return DiagramCell(mark=mark, piece=piece, back=not face_up)
    if face_up:
        return DiagramCell(text, mark)
    # A card no printed piece shows (torpedo D of the first rules): the backs of a
    # player's cards are all alike, so another action card's back stands for it.
    backs = (g.piece_ids.get((c.component, p)) for c in g.cards.values())
    back = next((b for b in backs if b is not None), None)
    if back is None:
        return DiagramCell("?", mark)
    return DiagramCell(mark=mark, piece=back, back=True)


def _points_grid(g: SubmarineAttack, seen: Scene, n: int) -> DiagramGrid:
    """Each player's points: this round's (+) and the total (=); or, before the cards are
    laid out, the total and who goes first."""
    rows = []
    for p in range(n):
        name = g.display[p]
        first = seen.kind == "start" and p == seen.first
        total_mark = "active" if p in seen.winners or first else ""
        cells: tuple[DiagramCell, ...] = (DiagramCell(str(seen.scores[p]), total_mark),)
        if seen.kind != "start":
            cells = (DiagramCell(f"+{seen.points[p]}"), *cells)
        rows.append(({"ja": name["ja"], "en": name["en"]}, cells))
    r = seen.round
    if seen.kind == "start":
        title = caption(g, seen)
        columns: tuple[str, ...] = ("",)
    else:
        over = bool(seen.winners)
        title = {
            "ja": f"{r}ラウンド目の得点" + (":ゲーム終了" if over else ""),
            "en": f"Round {r}: points" + (", game over" if over else ""),
        }
        columns = ("+", "=")
    return DiagramGrid(title, columns, tuple(rows))
