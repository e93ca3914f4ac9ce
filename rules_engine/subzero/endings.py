"""The end of the game: the three endings, dropping out, and the winners (rules `game-end`,
`deathmatch`, `survival`, `all-out-attack`).

Deathmatch: a player who reaches the damage limit drops out; the last one standing wins.
Survival: the first to reach the limit ends the game; least damage wins.  All-out attack:
the first to hit every other player wins.  When nobody can change the result any more (no
HIT tokens left to place) the game ends as a draw among those still in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules_engine.core import EVENTS, SetupError
from rules_engine.subzero.actions import OVER, PLACE, YOUNGEST

if TYPE_CHECKING:
    from rules_engine.subzero.state import SubzeroState

DEATHMATCH: Final = "deathmatch"
SURVIVAL: Final = "survival"
ALL_OUT: Final = "all-out-attack"


def check_end(s: SubzeroState) -> bool:
    """The ending, checked after a step; drop-outs in deathmatch.  True when over."""
    g = s.g
    n = s.n
    ending = g.ending
    damage = s.damage
    alive = [p for p in range(n) if p not in s.out]
    if ending == DEATHMATCH:
        dropped = [p for p in alive if damage[p] >= g.damage_limit]
        for p in dropped:
            drop_out(s, p)
            if EVENTS.on:
                EVENTS.emit(
                    DEATHMATCH,
                    "drop_out",
                    player=g.names[p],
                    damage=damage[p],
                    limit=g.damage_limit,
                )
        alive = [p for p in alive if p not in dropped]
        if len(alive) <= 1:
            if EVENTS.on:
                EVENTS.emit(
                    DEATHMATCH,
                    "last_standing",
                    players=[g.names[p] for p in alive or dropped],
                    together=not alive,
                )
            finish(s, tuple(alive) if alive else tuple(dropped))
            return True
        if dropped:
            s._set_order()
        if not any(s.supply[p] for p in alive):
            stalemate(s, alive)  # no HIT token left: nobody can drop out any more
            return True
        return False
    if ending == SURVIVAL:
        reached = [p for p in alive if damage[p] >= g.damage_limit]
        if reached or not any(s.supply[p] for p in alive):
            least = min(damage[p] for p in alive)
            if EVENTS.on:
                if reached:
                    EVENTS.emit(
                        SURVIVAL,
                        "limit_reached",
                        players=[g.names[p] for p in reached],
                        limit=g.damage_limit,
                        least=least,
                    )
                else:
                    EVENTS.emit(
                        "game-end", "no_tokens", players=[g.names[p] for p in alive], draw=False
                    )
                EVENTS.emit(
                    SURVIVAL,
                    "least_damage",
                    players=[g.names[p] for p in alive if damage[p] == least],
                    damage=least,
                )
            finish(s, tuple(p for p in alive if damage[p] == least))
            return True
        return False
    need = g.hits_needed
    boards = s.boards
    done = tuple(p for p in alive if all(boards[t][p] >= need for t in alive if t != p))
    if done:
        if EVENTS.on:
            EVENTS.emit(ALL_OUT, "hit_everyone", players=[g.names[p] for p in done])
        finish(s, done)
        return True
    can_win = any(
        s.supply[p] >= sum(max(0, need - boards[t][p]) for t in alive if t != p) for p in alive
    )
    if not can_win:
        stalemate(s, alive)  # nobody has the HIT tokens left to win: a draw
        return True
    return False


def check_end_at_setup(s: SubzeroState) -> None:
    if s.phase in (YOUNGEST, PLACE, OVER):
        return
    alive = [p for p in range(s.n) if p not in s.out]
    if len(alive) < 2:
        raise SetupError(("out",), "at least two players must still be in the game")
    g = s.g
    if g.ending == ALL_OUT:
        for p in alive:
            if all(s.boards[t][p] >= g.hits_needed for t in alive if t != p):
                raise SetupError(
                    ("boards",), f"{g.names[p]} has already hit everyone: the game is over"
                )
    elif any(s.damage[p] >= g.damage_limit for p in alive):
        raise SetupError(("boards",), "a player in the game has reached the damage limit")


def drop_out(s: SubzeroState, p: int) -> None:
    """Deathmatch: the pawn leaves the battle zone; cards and snowballs go away."""
    s.out.append(p)
    if s.pos[p] >= 0:
        s.at[s.pos[p]] = -1
        s.pos[p] = -1
    s.balls[p] = 0
    for k in (*s.hands[p], *s.programs[p]):
        s.discards[k] += 1
        s.discard_total += 1
    s.hands[p] = []
    s.programs[p] = ()


def stalemate(s: SubzeroState, alive: list[int]) -> None:
    """Nobody can change the result any more (the HIT tokens that could are all placed):
    the game ends as a draw among those still in."""
    if EVENTS.on:
        EVENTS.emit("game-end", "no_tokens", players=[s.g.names[p] for p in alive], draw=True)
    finish(s, tuple(alive))


def finish(s: SubzeroState, winners: tuple[int, ...]) -> None:
    s.winners = tuple(sorted(winners))
    s.phase = OVER
    if EVENTS.on:
        EVENTS.emit("game-end", "game_over", winners=[s.g.names[p] for p in s.winners])
