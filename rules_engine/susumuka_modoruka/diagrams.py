"""Drawings of a state for the rulebook's worked examples, as grids
(`rules_engine.core.DiagramGrid`; printgen draws them), in players' language:

- the depth track: one row per player, the depths that matter as columns (a gap of many
  floors is one "…" column) and the player's HP; ● the pawn, ▲ the flag, ★ the trophy,
  × where a player died; the move just made as an arrow (the move a win would make, while
  the dice are still to be rolled, dotted); a key to the symbols other than the pawn;
- the cards players hold, when they change (and at the start): items (pictures of the item
  cards), hands (faces for the player whose turn it is, backs for the others), lost
  property, and items just used up (under their deck);
- the table: the dungeon deck face down while a card is being turned up, the card turned up,
  or the combat the latest decision chose or settled, in one row that reads as the rule
  (the card's picture and power by the row used, the coloured part struck out when
  nullified, `<`, then the player's dice as die faces, bonus and total; the winning total
  marked); the item deck drawn from after an escape;
- the skills taken, with their costs and the turns passed, when one is taken.

A grid that would show nothing new is left out: the track when nothing on it changed (the
caption then heads the first grid drawn), the cards held when they did not change.

The caption (the first grid's title) is the engine's own count: the turn of the game
(`round`) and whose turn it is, taken from the turn the latest action belongs to, so a step
that ends the last turn of a round is still captioned with that round.  What the latest
decision changed (and the chance that followed it) is marked `active`; the state before it
comes from replaying the history (`moment`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from rules_engine.core import Diagram, DiagramArrow, DiagramCell, DiagramGrid
from rules_engine.susumuka_modoruka.actions import Act, Draw, First, Roll
from rules_engine.susumuka_modoruka.phases import AFTER, CHOOSE, DRAW, ITEM, OVER, ROLL
from rules_engine.susumuka_modoruka.state import SusumukaState

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka

Row = tuple[Mapping[str, str], tuple[DiagramCell, ...]]
UNLABELLED: Final = {"ja": "", "en": ""}

PAWN = "●"
FLAG = "▲"
TROPHY = "★"
DIED = "×"
GAP = "…"
ACTIVE = "active"
CROSSED = "sunk"


@dataclass(frozen=True)
class Moment:
    """When a state stands, by the engine's count: the turn of the game (`round`) and the
    player whose turn the latest action belongs to (before any action: the player to act),
    the state before the latest decision, and the actions since (that decision and the
    chance that followed it; none before any action)."""

    round: int
    player: int
    before: SusumukaState
    latest: tuple[Any, ...]

    @property
    def start(self) -> bool:
        """No action yet: the state an example's setup makes."""
        return not self.latest


def moment(state: SusumukaState) -> Moment:
    """The moment of `state`, found by replaying its history from its initial state."""
    # one player acts at a time: the history holds single actions
    history = [a for a in state.history if isinstance(a, First | Draw | Roll | Act)]
    if not history:
        return Moment(state.round, state.cur, state, ())
    g = state.g
    # The latest decision: the last player's action (with the same decisions just before
    # it, such as two skills taken), or the last item drawn after an escape (its own
    # moment: the escape's move belongs to the combat before it).
    cut = max(
        (
            i
            for i, a in enumerate(history)
            if isinstance(a, Act) or (isinstance(a, Draw) and a.card in g.items)
        ),
        default=0,
    )
    while cut > 0 and _same_decision(history[cut - 1], history[cut]):
        cut -= 1
    replay = state.initial()
    before = replay
    turns: list[tuple[int, int]] = []
    for i, action in enumerate(history):
        if i == cut:
            before = replay.clone()
        turns.append((replay.round, replay.cur))
        replay._do(action)
    rnd, player = turns[-1]
    if player < 0:  # the first action chose the first player: their turn starts
        rnd, player = state.round, state.cur
    return Moment(rnd, player, before, tuple(history[cut:]))


def _same_decision(a: Any, b: Any) -> bool:
    return isinstance(a, Act) and isinstance(b, Act) and (a.player, a.verb) == (b.player, b.verb)


def caption(g: SusumukaModoruka, state: SusumukaState, m: Moment) -> dict[str, str]:
    """The turn of the game and whose turn: `Turn 5, Yellow's turn` (before any action:
    `Turn 5, Yellow to play`; at the end: `Turn 20: game over`)."""
    if state.phase == OVER:
        return {"ja": f"{m.round}ターン目・ゲーム終了", "en": f"Turn {m.round}: game over"}
    if m.player < 0:
        return {"ja": f"{m.round}ターン目", "en": f"Turn {m.round}"}
    name = g.player_labels[m.player]
    if m.start:
        return {
            "ja": f"{m.round}ターン目・{name['ja']}の手番の前",
            "en": f"Turn {m.round}, {name['en']} to play",
        }
    return {
        "ja": f"{m.round}ターン目・{name['ja']}の手番",
        "en": f"Turn {m.round}, {name['en']}'s turn",
    }


def diagram(g: SusumukaModoruka, state: Any) -> Diagram:
    """The grids for a rulebook step (see the module's docstring)."""
    if not isinstance(state, SusumukaState):
        raise TypeError("not a Susumuka & Modoruka state")
    m = moment(state)
    drawn = track(g, state, m)
    extras = [
        grid
        for grid in (
            legend(drawn, state, m),
            holdings(g, state, m),
            table_grid(g, state, m),
            skills_grid(g, state, m),
        )
        if grid is not None
    ]
    if m.start or not extras or _marked(drawn):
        return (drawn, *extras)
    # Nothing on the track changed (it is as the step before drew it): the caption goes
    # to what did change.
    first = extras[0]
    when = caption(g, state, m)
    what = first.title["en"]
    if not what.startswith(tuple(label["en"] for label in g.player_labels)):
        what = what[:1].lower() + what[1:]
    title = {"ja": f"{when['ja']}：{first.title['ja']}", "en": f"{when['en']}: {what}"}
    return (replace(first, title=title), *extras[1:])


def _marked(grid: DiagramGrid) -> bool:
    return bool(grid.arrows) or any(cell.mark for _label, cells in grid.rows for cell in cells)


# --- the depth track --------------------------------------------------------------------------


def _planned(g: SusumukaModoruka, s: SusumukaState) -> tuple[int, int] | None:
    """A combat chosen but not yet rolled for: (from, to) of the move a win would make."""
    if s.phase not in (ROLL, AFTER) or s.c_card is None:
        return None
    p = s.c_player
    card = g.dungeon[g.dungeon_index[s.c_card]]
    steps = card.difficulty + s.stats[p].bonus_move
    here = s.depth[p]
    there = here - steps if s.flag[p] >= 0 else here + steps
    return here, max(0, min(there, g.depth_max))


def _columns(depths: set[int]) -> list[int | None]:
    """The depths shown, in order; None is a gap of several floors."""
    ordered = sorted(depths)
    if ordered[-1] - ordered[0] < 9:
        return list(range(ordered[0], ordered[-1] + 1))
    out: list[int | None] = []
    for d in ordered:
        if out:
            last = out[-1]
            assert last is not None
            if d - last > 2:
                out.append(None)
            else:
                out.extend(range(last + 1, d))
        out.append(d)
    return out


def track(g: SusumukaModoruka, s: SusumukaState, m: Moment) -> DiagramGrid:
    b = m.before
    players = range(s.n)
    died = [s.deaths[p] > b.deaths[p] for p in players]
    planned = _planned(g, s)
    depths = {0}
    for p in players:
        depths.update(d for d in (s.depth[p], s.flag[p], s.trophy[p], b.depth[p]) if d >= 0)
    if planned:
        depths.update(planned)
    # at the end, what each winner is measured by (the trophy, by default) is marked
    won = {p: s.measure(p) for p in s.winners} if s.phase == OVER else {}
    depths.update(won.values())
    columns = _columns(depths)
    col = {d: k for k, d in enumerate(columns) if d is not None}
    rows: list[Row] = []
    arrows: list[DiagramArrow] = []
    for p in players:
        cells = []
        for d in columns:
            text = ""
            mark = ""
            if d is not None:
                if s.depth[p] == d and not s.out[p]:
                    text += PAWN
                    if s.depth[p] != b.depth[p] or died[p]:
                        mark = ACTIVE
                if s.flag[p] == d:
                    text += FLAG
                    if s.flag[p] != b.flag[p]:
                        mark = ACTIVE
                if s.trophy[p] == d:
                    text += TROPHY
                    if s.trophy[p] != b.trophy[p]:
                        mark = ACTIVE
                if died[p] and b.depth[p] == d:
                    text += DIED
                    mark = CROSSED
                if won.get(p) == d:
                    mark = ACTIVE
            cells.append(DiagramCell(text, mark))
        label = dict(g.player_labels[p])
        if p in won:
            label = {"ja": f"{label['ja']}（勝者）", "en": f"{label['en']} (wins)"}
        elif s.out[p]:
            label = {"ja": f"{label['ja']}（脱落）", "en": f"{label['en']} (out)"}
        cells.append(DiagramCell(str(s.hp[p]), ACTIVE if s.hp[p] != b.hp[p] else ""))
        rows.append((label, tuple(cells)))
        if not died[p] and s.depth[p] != b.depth[p]:
            arrows.append(DiagramArrow((p, col[b.depth[p]]), (p, col[s.depth[p]]), "move"))
    if planned and planned[0] != planned[1]:
        p = s.c_player
        arrows.append(DiagramArrow((p, col[planned[0]]), (p, col[planned[1]]), "planned"))
    return DiagramGrid(
        caption(g, s, m),
        (*(GAP if d is None else str(d) for d in columns), "HP"),
        tuple(rows),
        tuple(arrows),
    )


KEY: Final = (
    (FLAG, {"ja": "旗", "en": "flag"}),
    (TROPHY, {"ja": "トロフィー", "en": "trophy"}),
    (DIED, {"ja": "死亡", "en": "died"}),
)


def legend(drawn: DiagramGrid, s: SusumukaState, m: Moment) -> DiagramGrid | None:
    """What the track's symbols other than the pawn mean: those it shows at the start of an
    example, and those the latest decision made appear."""
    b = m.before
    players = range(s.n)
    new = {
        FLAG: any(s.flag[p] >= 0 and s.flag[p] != b.flag[p] for p in players),
        TROPHY: any(s.trophy[p] >= 0 and s.trophy[p] != b.trophy[p] for p in players),
        DIED: any(s.deaths[p] > b.deaths[p] for p in players),
    }
    shown = "".join(cell.text for _label, cells in drawn.rows for cell in cells)
    rows = [
        (words, (DiagramCell(sym),)) for sym, words in KEY if sym in shown and (m.start or new[sym])
    ]
    if not rows:
        return None
    return _grid({"ja": "記号", "en": "Key"}, rows)


# --- HP and cards ---------------------------------------------------------------------------


def _pieces(ids: Sequence[str], new: Sequence[str], back: bool = False) -> list[DiagramCell]:
    """Cards as pictures; those not in `new` (a multiset) unmarked, the rest active."""
    left = list(new)
    cells = []
    for cid in ids:
        if cid in left:
            left.remove(cid)
            cells.append(DiagramCell(piece=cid, back=back))
        else:
            cells.append(DiagramCell(piece=cid, back=back, mark=ACTIVE))
    return cells


def holdings(g: SusumukaModoruka, s: SusumukaState, m: Moment) -> DiagramGrid | None:
    """The players' items, hands and lost property, for those who have any, and the items
    just used up (under their deck): at the start of an example, when the latest decision
    changed them, and when a card turned up may be fought or fled instead of one from the
    hand."""
    b = m.before
    changed = (s.items, s.hand, s.lost, s.ibottom) != (b.items, b.hand, b.lost, b.ibottom)
    choosing = s.phase == CHOOSE and bool(s.hand[s.cur])
    if not (m.start or changed or choosing):
        return None
    rows: list[Row] = []
    for p in range(s.n):
        name = g.player_labels[p]
        if s.items[p]:
            rows.append((name, tuple(_pieces(s.items[p], b.items[p]))))
        if s.hand[p]:
            # the player whose turn it is sees their hand; the others see backs
            hand = _pieces(s.hand[p], b.hand[p], back=p != m.player)
            rows.append(({"ja": f"{name['ja']}の手札", "en": f"{name['en']}'s hand"}, tuple(hand)))
        if s.lost[p]:
            rows.append(
                (
                    {"ja": f"{name['ja']}の落し物", "en": f"{name['en']}'s lost property"},
                    tuple(_pieces(s.lost[p], b.lost[p])),
                )
            )
    used = False
    for k, deck in enumerate(g.item_decks):
        if s.ibottom[k] != b.ibottom[k] and s.ibottom[k]:
            used = True
            label = g.deck_labels[deck]
            rows.append(
                (
                    {
                        "ja": f"{label['ja']}デッキの下",
                        "en": f"Under the {label['en'].lower()} deck",
                    },
                    tuple(_pieces(s.ibottom[k], b.ibottom[k])),
                )
            )
    if not rows:
        return None
    held = [
        words
        for shown, words in (
            (any(s.items), ("アイテム", "items")),
            (any(s.hand), ("手札", "hands")),
            (any(s.lost), ("落し物", "lost property")),
            (used, ("使ったアイテム", "used items")),
        )
        if shown
    ]
    en = " and ".join(en for _ja, en in held)
    title = {"ja": "と".join(ja for ja, _en in held), "en": en[:1].upper() + en[1:]}
    return _grid(title, rows)


# --- the table: the deck, the card turned up, the combat --------------------------------------


COMBAT_VERBS: Final = ("fight", "flee", "reroll", "accept")


def _latest_combat(s: SusumukaState, m: Moment) -> bool:
    """A combat chosen, rolled for or resolved by the latest decision."""
    if s.c_card is None or s.c_player != m.player:
        return False
    return s.phase in (ROLL, AFTER) or any(
        isinstance(a, Roll) or (isinstance(a, Act) and a.verb in COMBAT_VERBS) for a in m.latest
    )


def table_grid(g: SusumukaModoruka, s: SusumukaState, m: Moment) -> DiagramGrid | None:
    if s.phase == DRAW:
        back = DiagramCell(piece=g.dungeon[0].id, back=True)
        n = s.pile_n
        left = {"ja": f"残り{n}枚", "en": f"{n} card{'' if n == 1 else 's'} left"}
        return _grid({"ja": "ダンジョンデッキ", "en": "Dungeon deck"}, ((left, (back,)),))
    if s.phase == ITEM:
        deck = g.item_decks[s.e_deck]
        label = g.deck_labels[deck]
        back = DiagramCell(piece=g.deck_items[deck][0].id, back=True)
        return _grid(
            {"ja": "脱出：アイテムを引く", "en": "Escape: an item"},
            (({"ja": f"{label['ja']}デッキ", "en": f"{label['en']} deck"}, (back,)),),
        )
    if s.phase == CHOOSE and s.top is not None:
        card = g.dungeon[g.dungeon_index[s.top]]
        return _grid(
            {"ja": "表にしたカード", "en": "The card turned up"},
            ((_text(card.name), (DiagramCell(piece=card.id, mark=ACTIVE),)),),
        )
    if _latest_combat(s, m):
        return combat(g, s)
    return None


def _grid(
    title: Mapping[str, str],
    rows: Sequence[Row],
    columns: Sequence[str] = (),
    arrows: Sequence[DiagramArrow] = (),
) -> DiagramGrid:
    """A grid with a heading (blank where not given) over every column."""
    width = max((len(cells) for _label, cells in rows), default=0)
    heads = tuple(columns) + ("",) * (width - len(columns))
    return DiagramGrid(title, heads, tuple(rows), tuple(arrows))


def _text(value: Any) -> dict[str, str]:
    return {"ja": str(value.ja), "en": str(value.en)}


def combat(g: SusumukaModoruka, s: SusumukaState) -> DiagramGrid:
    """The combat as one row that reads as the rule: the card's power (its picture, the
    numbers of the row used, the coloured part struck out when nullified), then `<` (you
    win with more) or the outcome's sign, then the player's dice (`?` before the roll),
    bonus and total; the winning total is marked."""
    assert s.c_card is not None
    card = g.dungeon[g.dungeon_index[s.c_card]]
    p = s.c_player
    name = g.player_labels[p]
    cname = _text(card.name)
    picture = DiagramCell(piece=card.id)
    if s.c_result == "flee":
        title = {
            "ja": f"{name['ja']}は{cname['ja']}から逃げる",
            "en": f"{name['en']} flees from {cname['en']}",
        }
        return _grid(title, ((UNLABELLED, (picture,)),))
    tier = card.tier(s.c_depth)
    theirs = s.c_power
    ours = sum(s.c_dice) + s.c_bonus
    rolled = bool(s.c_dice)
    cells = [picture, DiagramCell(str(tier.base))]
    if tier.colour:
        cells.append(DiagramCell(f"+{tier.coloured}", CROSSED if s.c_nullified else ""))
    cells.append(DiagramCell(f"={theirs}", ACTIVE if rolled and theirs >= ours else ""))
    sign = "<" if not rolled or ours > theirs else "=" if ours == theirs else ">"
    cells.append(DiagramCell(sign))
    if rolled:
        cells += [DiagramCell(die=d) if 1 <= d <= 6 else DiagramCell(str(d)) for d in s.c_dice]
    else:
        cells += [DiagramCell("?") for _ in range(s.stats[p].dice)]
    if s.c_bonus:
        cells.append(DiagramCell(f"{s.c_bonus:+d}"))
    if rolled:
        cells.append(DiagramCell(f"={ours}", ACTIVE if ours > theirs else ""))
    title = {
        "ja": f"戦闘：{cname['ja']}（{tier.depth}+の行）と{name['ja']}",
        "en": f"Combat: {cname['en']} (row {tier.depth}+) vs {name['en']}",
    }
    return _grid(title, ((UNLABELLED, tuple(cells)),))


# --- skills -----------------------------------------------------------------------------------


def skills_grid(g: SusumukaModoruka, s: SusumukaState, m: Moment) -> DiagramGrid | None:
    """The skills taken, at the start of an example and when the latest decision took one."""
    rows: list[Row] = []
    b = m.before
    if not m.start and s.skills == b.skills:
        return None
    for p in range(s.n):
        name = g.player_labels[p]
        for k, skill in enumerate(g.skills[p]):
            for copy in range(s.skills[p][k]):
                new = copy >= b.skills[p][k]
                rows.append(
                    (
                        {
                            "ja": f"{name['ja']}：{skill.name.ja}",
                            "en": f"{name['en']}: {skill.name.en}",
                        },
                        (DiagramCell(str(skill.cost), ACTIVE if new else ""),),
                    )
                )
    if not rows:
        return None
    passed = s.turns_passed()
    return _grid(
        {
            "ja": f"スキル（経過{passed}ターン）",
            "en": f"Skills ({passed} turns passed)",
        },
        rows,
    )
