"""Diagrams for the rulebook: the table after a worked example's step, in players' language.

One grid shows the table: each hunt pile (its terrorist card first, then the tactics cards,
bottom to top), what a Bad Intel just removed, the special cards just played, plays taken
back, and every hand.  Cards are pictures of the printed pieces (`hunt-4-red`); a card its
holder has not seen (a face-down hand, Night Mission) is drawn as its back.  What the step
just did is highlighted: the cards that just landed (with an arrow from the hand they left,
whose place stays empty), the cards just drawn, the terrorist just captured; simultaneous
plays that chance has still to order are dotted arrows.  The caption is the engine's count:
the hunt and the clock (real time) or whose turn was just played (Situation Room).

Real time is also drawn as a timeline when times are the point of the step (the countdown's
"go!", a reaction time, players due at the same instant, a recorded hunt): who did what
when, and when each player acts next.

"What the step just did" (`happenings.py`) is what happened since the state was last drawn: `diagram` keeps
a copy of the state it drew (`drawn`, not part of the state's equality), so a worked
example's step that was refused shows nothing new.  A state drawn for the first time
highlights its last action (a recorded hunt: the whole record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import (
    CHANCE,
    Diagram,
    DiagramArrow,
    DiagramCell,
    DiagramGrid,
    DiagramTimeline,
    TimelineEvent,
)
from rules_engine.kill_shot.actions import (
    Clear,
    Discard,
    Draw,
    Go,
    Look,
    Pick,
    Play,
    React,
    Reload,
    Reveal,
    Wait,
)
from rules_engine.kill_shot.phases import (
    CLAIM,
    DISCARD,
    FIRST,
    GO,
    ORDER,
    OVER,
    PICK,
    PLAY,
    REVEAL,
    TALIBAN,
    TURN,
)
from rules_engine.kill_shot.special_cards import JAM
from rules_engine.kill_shot.state import KillShotState

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot
from rules_engine.kill_shot.happenings import (
    Happened,
    Label,
    Timed,
    deck_of,
    earlier,
    player_word,
    seconds,
    walk,
)

# --- the table --------------------------------------------------------------------------------


def caption(g: KillShot, s: KillShotState, did: Happened) -> Label:
    """What the grid shows and when, by the engine's count: the hunt, and the clock (real
    time) or the turn just played (Situation Room)."""
    h = s.hunt
    ja = f"{h}回目の捜索"
    en = f"Hunt {h}"
    if s.phase == OVER:
        return {"ja": f"{ja}・ゲーム終了", "en": f"{en}: end of the game"}
    if g.turn_based:
        if did.turn_played >= 0:
            who = player_word(g, did.turn_played)
            return {"ja": f"{ja}・{who.ja}の手番の後", "en": f"{en}, after {who.en}'s turn"}
        if s.phase in (TURN, DISCARD):
            who = player_word(g, s.turn)
            return {"ja": f"{ja}・{who.ja}の手番", "en": f"{en}, {who.en}'s turn"}
    elif s.clock >= 0 and (s.phase != GO or s.picked_up):
        ja += f"・{seconds(s.clock)}秒"
        en += f" at {seconds(s.clock)} s"
    phase = s.phase
    dealing = not s.piles or (all(not p for p in s.piles) and not any(s.hands))
    if s.draws or (phase == REVEAL and dealing):
        if dealing or phase in (REVEAL, PICK, FIRST, GO):
            return {"ja": f"{ja}：配札", "en": f"{en}: the deal"}
        return {"ja": f"{ja}：補充", "en": f"{en}: cards to draw"}
    extra = {
        GO: ("カウントダウン", "countdown"),
        DISCARD: ("捨て札", "discards"),
        ORDER: ("どちらが先か", "which landed first?"),
        CLAIM: ("獲得者を決める", "who claims?"),
        REVEAL: ("捜索終了", "the hunt is over"),
        PICK: ("追加のカードを選ぶ", "choosing extra cards"),
        FIRST: ("最初の手番を決める", "who starts?"),
        TALIBAN: ("タリバンを決める", "who is the Taliban?"),
    }.get(phase)
    if extra:
        return {"ja": f"{ja}：{extra[0]}", "en": f"{en}: {extra[1]}"}
    return {"ja": ja, "en": en}


def _card(g: KillShot, c: int, mark: str = "", back: bool = False) -> DiagramCell:
    return DiagramCell(mark=mark, piece=g.piece_ids[c], back=back)


@dataclass
class HandRow:
    """A hand as drawn: the cards kept in their places, an empty place (None) for each card
    that left it during the step, and the cards just drawn (hand indexes)."""

    places: list[int | None]  # hand index, or None: a card left this place
    old: list[int]  # the hand before the step, place by place (cards)
    drawn: list[int]  # hand indexes of the cards just drawn


def _hand_places(s: KillShotState, p: int, did: Happened) -> HandRow:
    hand = s.hands[p]
    new = did.drawn.get(p, 0) if not did.reset else len(hand)
    new = min(new, len(hand))
    kept = len(hand) - new
    old = did.before.hands[p] if did.before is not None and not did.reset else hand[:kept]
    places: list[int | None] = []
    j = 0
    for c in old:
        if j < kept and hand[j] == c:
            places.append(j)
            j += 1
        else:
            places.append(None)
    extra = list(range(j, kept))  # kept cards the alignment missed (none, normally)
    return HandRow(places + list(extra), list(old), list(range(kept, len(hand))))


def _hand_card(
    g: KillShot,
    s: KillShotState,
    p: int,
    i: int,
    visible: bool,
    did: Happened,
    fresh: bool = False,
) -> DiagramCell:
    c = s.hands[p][i]
    hidden = not visible or (g.blind and not s.known[p][i])
    mark = "active" if fresh or (did.looked.get(p) == i and s.looking[p] == i) else ""
    return _card(g, c, mark, back=hidden)


def _hand_label(g: KillShot, s: KillShotState, p: int, points: list[int] | None) -> Label:
    who = player_word(g, p)
    ja, en = who.ja, who.en
    if p == s.taliban:
        ja += "(タリバン)"
        en += " (Taliban)"
    if s.jammed[p]:
        ja += "(ジャム)"
        en += " (jammed)"
    elif s.drill[p]:
        ja += "(排莢手順)"
        en += " (drill)"
    if points is not None:
        ja += f" {points[p]}点"
        en += f" {points[p]} pts"
    return {"ja": ja, "en": en}


def _pile_label(g: KillShot, s: KillShotState, k: int) -> Label:
    result = next(
        (
            r
            for r in reversed(s.results)
            if r.hunt == s.hunt and r.terrorist == s.pile_terr[k] and not s.pile_open[k]
        ),
        None,
    )
    if result is not None:
        if result.winner >= 0:
            who = player_word(g, result.winner)
            return {"ja": f"{who.ja}が捕捉", "en": f"{who.en} captures"}
        return {"ja": "逃亡", "en": "escaped"}
    if len(s.piles) == 1:
        return {"ja": "捜索パイル", "en": "Hunt pile"}
    return {"ja": f"パイル{k + 1}", "en": f"Pile {k + 1}"}


def shown_hands(g: KillShot, s: KillShotState, did: Happened) -> list[int]:
    """The hands the step is about: the players who just acted, drew, were jammed or got a
    reaction time; when no player acted, the players about to act; everyone after "go!",
    at a discard everyone makes, or when the points in the pile decide (Tactical
    Engagement); everyone when that leaves none."""
    players: set[int] = set()
    everyone = g.points_claim or any(isinstance(a, Go | Reveal) for a in did.actions)
    acted = False
    for a in did.actions:
        if isinstance(a, Draw | React):
            players.update([a.player] if isinstance(a, Draw) else a.players)
        elif isinstance(a, Play | Reload | Discard | Pick | Look | Clear | Wait):
            players.add(a.player)
            acted = True
            if isinstance(a, Play) and a.target >= 0:
                players.add(a.target)
    reacted = any(isinstance(a, React) for a in did.actions)
    if (not acted and not reacted) or s.phase in (DISCARD, PICK):
        players.update(p for p in s.current_players() if p != CHANCE)
    if g.turn_based and not acted and s.phase == TURN:
        players = {s.turn}
    if everyone or not players or did.before is None:
        return list(range(s.n))
    return sorted(players)


WIDE: Final = 7  # cards in a row of the table before a pile wraps (or the longest hand)


def table(g: KillShot, s: KillShotState, did: Happened) -> DiagramGrid:
    """The table after the step: piles, what a Bad Intel removed, special cards played,
    plays taken back, hands; arrows from the places cards left to where they went."""
    rows: list[tuple[Label, list[DiagramCell]]] = []
    arrows: list[DiagramArrow] = []
    new_results = {r.terrorist for r in s.results[did.results :]}
    pending = list(s.order_plays) if s.phase == ORDER else []
    hands = [_hand_places(s, p, did) for p in range(s.n)]
    wide = max([WIDE] + [len(h.places) for h in hands])

    # piles, wrapped: where each pile's card i is drawn (row, column); -1: the terrorist
    where: dict[tuple[int, int], tuple[int, int]] = {}
    target: dict[int, tuple[int, int]] = {}
    for k, pile in enumerate(s.piles):
        t = s.pile_terr[k]
        escaped = not s.pile_open[k] and t in s.escaped
        mark = "sunk" if escaped else "active" if t in new_results else ""
        base = did.pile_base[k] if k < len(did.pile_base) else len(pile)
        cells = [DiagramCell(mark=mark, piece=g.terrorists[t].id)]
        cells += [_card(g, c, "active" if i >= base else "") for i, c in enumerate(pile)]
        if any(a.pile == k for a in pending):
            cells.append(DiagramCell(mark="empty"))
        first = len(rows)
        for n in range(0, len(cells), wide):
            label = _pile_label(g, s, k) if n == 0 else {"ja": "", "en": ""}
            rows.append((label, cells[n : n + wide]))
        for i in range(-1, len(cells) - 1):
            where[(k, i)] = (first + (i + 1) // wide, (i + 1) % wide)
        target[k] = where[(k, len(cells) - 2)]
        if did.intel_pile == k and s.removed:
            rows.append(
                ({"ja": "取り除く", "en": "removed"}, [_card(g, c, "sunk") for c in s.removed])
            )
    if s.set_aside:
        rows.append(({"ja": "除外", "en": "set aside"}, [_card(g, c) for c in s.set_aside]))
    special_rows: list[tuple[int, Play]] = []
    for a in did.specials:
        who = player_word(g, a.player)
        if g.special_of[a.cards[0]] == JAM and a.target >= 0:
            aim = player_word(g, a.target)
            label = {"ja": f"{who.ja}→{aim.ja}", "en": f"{who.en} on {aim.en}"}
        else:
            label = {"ja": f"{who.ja}が使用", "en": f"{who.en} plays"}
        special_rows.append((len(rows), a))
        rows.append((label, [_card(g, a.cards[0], "active")]))
    voided = [a for a in did.voided if isinstance(a, Play)]
    if voided:
        rows.append(
            (
                {"ja": "取り消し", "en": "cancelled"},
                [_card(g, a.cards[0], "sunk") for a in voided],
            )
        )
    points: list[int] | None = None
    if g.points_claim and s.piles:
        points = [0] * s.n
        for c, q in zip(s.piles[0], s.pile_by[0], strict=True):
            points[q] += g.points_of[c]
    shown = shown_hands(g, s, did)
    hand_row = {p: len(rows) + i for i, p in enumerate(shown)}

    # Arrows: from the place a card left to where it went; dotted for simultaneous plays
    # that chance has still to order.
    used: set[tuple[int, int]] = set()

    def left(p: int, c: int) -> tuple[int, int] | None:
        row = hands[p]
        for col, place in enumerate(row.places):
            if place is None and col < len(row.old) and row.old[col] == c and (p, col) not in used:
                used.add((p, col))
                return (hand_row[p], col) if p in hand_row else None
        return None

    for k, pile in enumerate(s.piles):
        base = did.pile_base[k] if k < len(did.pile_base) else len(pile)
        for i in range(base, len(pile)):
            start = left(s.pile_by[k][i], pile[i])
            if start is not None:
                arrows.append(
                    DiagramArrow(start, where[(k, i)], "move", colour=deck_of(g, pile[i]))
                )
    for row, a in special_rows:
        start = left(a.player, a.cards[0])
        if start is not None:
            arrows.append(DiagramArrow(start, (row, 0), "move", colour=deck_of(g, a.cards[0])))
    for a in pending:
        places = hands[a.player].places
        held = s.hands[a.player]
        if a.cards[0] in held and a.player in hand_row:
            col = places.index(held.index(a.cards[0]))
            arrows.append(
                DiagramArrow(
                    (hand_row[a.player], col),
                    target[a.pile],
                    "planned",
                    colour=deck_of(g, a.cards[0]),
                )
            )

    # Hands: a card just drawn fills a place a discarded card left (order does not matter
    # in a hand, except under Night Mission), the rest go at the end.
    for p in shown:
        hand = hands[p]
        visible = s.hand_visible(p)
        drawn = list(hand.drawn)
        line: list[DiagramCell] = []
        for col, place in enumerate(hand.places):
            if place is None and drawn and not g.blind and (p, col) not in used:
                place = drawn.pop(0)
            if place is None:
                line.append(DiagramCell(mark="empty"))
            else:
                line.append(_hand_card(g, s, p, place, visible, did, place in hand.drawn))
        line += [_hand_card(g, s, p, i, visible, did, True) for i in drawn]
        rows.append((_hand_label(g, s, p, points), line))

    routed = [_routed(rows, a) for a in arrows]
    if any(r is None for r in routed):  # all the cards of a move, or none
        routed = [r for r in routed if r is not None and r.kind == "planned"]
    arrows = [r for r in routed if r is not None]
    width = max([len(cells) for _, cells in rows] + [1])
    return DiagramGrid(
        caption(g, s, did),
        ("",) * width,
        tuple((label, tuple(cells)) for label, cells in rows),
        tuple(arrows),
    )


def _blocked(
    rows: list[tuple[Label, list[DiagramCell]]], a: tuple[int, int], b: tuple[int, int]
) -> bool:
    """Whether the straight line between two cells' centres passes over a card that is
    not part of the move (the cards that just landed with it may be crossed)."""
    steps = 10 * (abs(b[0] - a[0]) + abs(b[1] - a[1]) + 1)
    for i in range(steps + 1):
        r = a[0] + (b[0] - a[0]) * i / steps
        c = a[1] + (b[1] - a[1]) * i / steps
        at = (round(r), round(c))
        if at in (a, b) or abs(r - at[0]) > 0.35 or abs(c - at[1]) > 0.35:
            continue
        cells = rows[at[0]][1]
        if at[1] < len(cells):
            cell = cells[at[1]]
            if (cell.piece or cell.text) and cell.mark != "active":
                return True
    return False


def _routed(
    rows: list[tuple[Label, list[DiagramCell]]], arrow: DiagramArrow
) -> DiagramArrow | None:
    """The arrow straight, or round one corner on a free cell, so that it passes over no
    other card (a dotted arrow of a play still to land is kept straight if it must); else
    none (the highlight and the empty place in the hand say enough)."""
    a, b = arrow.start, arrow.end
    if not _blocked(rows, a, b):
        return arrow
    for corner in ((b[0], a[1]), (a[0], b[1])):
        cells = rows[corner[0]][1]
        if corner[1] < len(cells) and (cells[corner[1]].piece or cells[corner[1]].text):
            continue
        if not _blocked(rows, a, corner) and not _blocked(rows, corner, b):
            return DiagramArrow(a, b, arrow.kind, (corner,), arrow.colour)
    return arrow if arrow.kind == "planned" else None


# --- the timeline -----------------------------------------------------------------------------


def timeline(g: KillShot, s: KillShotState, did: Happened) -> DiagramTimeline | None:
    """Who did what when and who acts next, when times are the point of the step."""
    if g.turn_based:
        return None
    record = bool(s.recorded) and len(s.history) == s.recorded and not did.actions
    events = list(did.events)
    if record:
        events = walk(g, s.init, s).events if s.init is not None else []
        title = {"ja": f"{s.hunt}回目の捜索・記録された行動", "en": f"Hunt {s.hunt}: the record"}
    else:
        if s.phase != PLAY or s.pending or s.draws:
            return None
        at_once = not did.actions and len(s.current_players()) > 1
        if not (did.timed or at_once):
            return None
        title = {"ja": f"{s.hunt}回目の捜索・行動の時刻", "en": f"Hunt {s.hunt}: who acts when"}
        if s.current_players() != (CHANCE,):
            for p in range(s.n):
                events.append(
                    Timed(s.ready[p], p, {"ja": "次の行動", "en": "acts next"}, "planned")
                )
    if not events:
        return None
    lanes = [""] if any(e.player < 0 for e in events) else []
    lanes += [player_word(g, p).en for p in range(s.n)]
    return DiagramTimeline(
        title,
        tuple(
            TimelineEvent(
                e.at, e.label, player_word(g, e.player).en if e.player >= 0 else "", e.mark
            )
            for e in sorted(events, key=lambda e: (e.at, e.player))
        ),
        tuple(lanes),
        {
            player_word(g, p).en: {"ja": player_word(g, p).ja, "en": player_word(g, p).en}
            for p in range(s.n)
        },
    )


# --- the diagram ------------------------------------------------------------------------------


def diagram(g: KillShot, state: Any) -> Diagram:
    """The table after the actions since the state was last drawn (see the module's
    docstring), and when times are the point, a timeline."""
    if not isinstance(state, KillShotState):
        raise TypeError("not a KILL SHOT state")
    s = state
    before = s.drawn if s.drawn is not None else earlier(s)
    did = walk(g, before, s)
    snapshot = s.clone()
    snapshot.drawn = None
    s.drawn = snapshot
    drawn: list[DiagramGrid | DiagramTimeline] = [table(g, s, did)]
    line = timeline(g, s, did)
    if line is not None:
        drawn.append(line)
    return tuple(drawn)
