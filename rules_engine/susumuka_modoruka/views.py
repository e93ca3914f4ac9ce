"""What one player can know (`SusumukaState.player_view`): every public fact, their own
hand, and the history with the cards others drew while investigating hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine.susumuka_modoruka.phases import PHASE_NAMES

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


@dataclass(frozen=True)
class PlayerInfo:
    """One player's public facts."""

    name: str
    depth: int
    hp: int
    max_hp: int
    flag: int | None
    trophy: int | None
    max_depth: int
    items: tuple[str, ...]
    skills: tuple[str, ...]
    skill_points: int
    hand_size: int
    lost_property: tuple[str, ...]
    lost_property_card: str
    out: bool


@dataclass(frozen=True)
class SusumukaView:
    """What one player can know: every hand but their own is only a number of cards."""

    player: str
    round: int
    phase: str
    to_move: tuple[str, ...]
    players: tuple[PlayerInfo, ...]
    own_hand: tuple[str, ...]
    deck_size: int
    discard: tuple[str, ...]
    item_decks: tuple[tuple[str, int, tuple[str, ...]], ...]
    removed: tuple[str, ...]
    top: str | None
    combat: tuple[Any, ...]
    log: tuple[str, ...]


def player_view(state: SusumukaState, player: int) -> SusumukaView:
    g = state.g
    infos = tuple(
        PlayerInfo(
            g.names[p],
            state.depth[p],
            state.hp[p],
            state.max_hp(p),
            state.flag[p] if state.flag[p] >= 0 else None,
            state.trophy[p] if state.trophy[p] >= 0 else None,
            state.maxd[p],
            tuple(sorted(state.items[p])),
            tuple(state.skill_ids(p)),
            state.spent[p],
            len(state.hand[p]),
            tuple(sorted(state.lost[p])),
            "owner" if state.lp_home[p] else "deck",
            state.out[p],
        )
        for p in range(state.n)
    )
    known = g._texts.get  # the notation of actions already written (`notation_of`)
    text = g.notation_of
    log = tuple(
        "draw ?" if seen != -1 and seen != player else known(step) or text(step)  # type: ignore[arg-type]
        for step, seen in zip(state._history, state._seen_by, strict=True)
    )
    return SusumukaView(
        player=g.names[player],
        round=state.round,
        phase=PHASE_NAMES[state.phase],
        to_move=tuple(g.player_name(p) for p in state.current_players()),
        players=infos,
        own_hand=tuple(sorted(state.hand[player])),
        deck_size=state.pile_n,
        discard=tuple(state.discard_list()),
        item_decks=tuple(
            (d, state.ipile_n(k), tuple(state.ibottom[k])) for k, d in enumerate(g.item_decks)
        ),
        removed=tuple(state.removed),
        top=state.top,
        combat=(
            state.c_card,
            state.c_depth,
            state.c_power,
            state.c_dice,
            state.c_bonus,
            state.c_used,
            state.c_result,
            state.c_moved,
            state.c_damage,
        ),
        log=log,
    )
