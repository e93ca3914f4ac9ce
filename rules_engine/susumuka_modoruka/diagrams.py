"""Drawings of a state for the rulebook's worked examples: the depth track, the players'
numbers and the combat, as grids (`rules_engine.core.DiagramGrid`; printgen draws them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramCell, DiagramGrid
from rules_engine.susumuka_modoruka.phases import FIRST, OVER
from rules_engine.susumuka_modoruka.state import SusumukaState

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka


def diagram(g: SusumukaModoruka, state: Any) -> Diagram:
    """Three small grids for a rulebook step: the depth track (each player's pawn ●,
    flag F and trophy T), the players' numbers (HP, items, hand, skill points), and the
    combat being fought or last fought (the card's base and coloured part, crossed out
    when nullified, against the player's dice and bonus; the winning total is marked)."""
    if not isinstance(state, SusumukaState):
        raise TypeError("not a Susumuka & Modoruka state")
    s = state
    acting = s.cur if s.phase not in (FIRST, OVER) else -1
    players = range(s.n)
    label = g.player_labels
    deepest = max(max(s.depth), max(s.flag), max(s.trophy))
    last = min(max(10, deepest + 1), g.depth_max)
    track_rows = []
    for p in players:
        cells = []
        for d in range(last + 1):
            text = (
                ("●" if s.depth[p] == d else "")
                + ("F" if s.flag[p] == d else "")
                + ("T" if s.trophy[p] == d else "")
            )
            mark = ""
            if s.depth[p] == d:
                mark = "sunk" if s.out[p] else "active" if p == acting else ""
            cells.append(DiagramCell(text, mark))
        track_rows.append((label[p], tuple(cells)))
    grids = [
        DiagramGrid(
            {
                "ja": f"ターン{s.round}/{g.turns} 深度(●コマ F旗 Tトロフィー)",
                "en": f"Turn {s.round}/{g.turns}, depth (● pawn, F flag, T trophy)",
            },
            tuple(str(d) for d in range(last + 1)),
            tuple(track_rows),
        )
    ]

    def row(
        ja: str, en: str, values: Sequence[int]
    ) -> tuple[Mapping[str, str], tuple[DiagramCell, ...]]:
        return (
            {"ja": ja, "en": en},
            tuple(
                DiagramCell(str(v), "active" if p == acting else "") for p, v in enumerate(values)
            ),
        )

    grids.append(
        DiagramGrid(
            {"ja": "プレイヤー", "en": "Players"},
            tuple(name[:1].upper() for name in g.names),
            (
                row("HP", "HP", s.hp),
                row("アイテム", "items", [len(i) for i in s.items]),
                row("手札", "hand", [len(h) for h in s.hand]),
                row("スキル", "skill pts", s.spent),
                row("落し物", "lost prop.", [len(i) for i in s.lost]),
            ),
        )
    )
    if s.c_card:
        card = g.dungeon[g.dungeon_index[s.c_card]]
        tier = card.tier(s.c_depth)
        card_cells = [DiagramCell(str(tier.base))]
        if tier.colour:
            card_cells.append(DiagramCell(f"+{tier.coloured}", "sunk" if s.c_nullified else ""))
        won = s.c_result == "win"
        card_cells.append(DiagramCell(f"={s.c_power}", "" if won or not s.c_dice else "active"))
        you: list[DiagramCell] = [DiagramCell(str(d)) for d in s.c_dice]
        if s.c_dice:
            if s.c_bonus:
                you.append(DiagramCell(f"{s.c_bonus:+d}"))
            you.append(DiagramCell(f"={sum(s.c_dice) + s.c_bonus}", "active" if won else ""))
        grids.append(
            DiagramGrid(
                {
                    "ja": f"{card.name.ja}(深度{tier.depth}以上)",
                    "en": f"{card.name.en} (depth {tier.depth}+)",
                },
                ("",) * max(len(card_cells), len(you)),
                (
                    ({"ja": "カード", "en": "card"}, tuple(card_cells)),
                    (label[s.c_player], tuple(you)),
                ),
            )
        )
    return tuple(grids)
