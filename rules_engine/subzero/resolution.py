"""Resolving a step (rules `resolve`, `hit`): everything revealed happens at once, then the
hits count.

The moves are carried out first (`movement`), then every ball flies along its line (as far
as `ball_range`) and finds the first pawn that is not ducking (SWISH protects for the whole
step; a ball flies past its own thrower; a moving pawn is found where `moving_target` says).
A hit places one of the shooter's HIT tokens on the target's board, while the shooter has
one left; then the game may end (`endings`), or the next step begins (`end_of_turn`).
`targets` tells the player about to reveal who a ball would hit now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_engine.core import EVENTS
from rules_engine.subzero.actions import DIRECTIONS, REVEAL
from rules_engine.subzero.end_of_turn import next_step
from rules_engine.subzero.endings import check_end
from rules_engine.subzero.movement import moves

if TYPE_CHECKING:
    from rules_engine.subzero.actions import Reveal
    from rules_engine.subzero.state import SubzeroState

# --- resolution of one step -----------------------------------------------------------------


def resolve(s: SubzeroState) -> None:
    """After the last reveal of a step everything happens at once: the moves,
    then every ball finds the first pawn on its line that is not ducking."""
    moving = shooting = ducked = False
    for r in s.step_reveals:
        if r.move >= 0:
            moving = True
        if r.shots:
            shooting = True
        if r.swish:
            ducked = True
    resolve_step(s, moving, shooting, ducked)


def resolve_step(s: SubzeroState, moving: bool, shooting: bool, ducked: bool) -> None:
    g = s.g
    on = EVENTS.on
    reveals = s.last_reveals = s.step_reveals
    s.last_step = (s.turn, s.slot + 1)
    if on:
        EVENTS.emit("resolve", "resolve", step=s.slot + 1, turn=s.turn)
    start_pos = s.pos
    if moving:
        start_pos = list(start_pos)
        if on:
            bumps: list[tuple[int, int, int]] = []
            s.last_moves = walks = moves(s, reveals, s.pos, s.at, bumps)
            _tell_moves(s, reveals, start_pos, walks, bumps)
        else:
            s.last_moves = walks = moves(s, reveals, s.pos, s.at)
    else:
        s.last_moves = walks = []
    hits: list[tuple[int, int, bool]] = []
    shots: list[tuple[int, int, int, int]] = []
    dodges: list[tuple[int, int, int]] = []  # (ball, ducking player, thrower), when recording
    s.last_shots = shots
    if shooting:
        pos = s.pos
        at = s.at
        ducking = s.ducking
        lines = g.lines
        mode = g.moving_target
        seen = False
        moved: dict[int, int] = {}
        rank: dict[int, int] = {}
        if moving and mode != "end_square":
            moved = {p: walk[0] for p, walk in walks if len(walk) > 1}
            seen = bool(moved)
            rank = {r.player: i for i, r in enumerate(reveals)}
        shoot_first = g.shoot_first
        for r in reveals:
            if not r.shots:
                continue
            shooter = r.player
            origin = start_pos[shooter] if shoot_first and r.move >= 0 else pos[shooter]
            line = lines[origin]
            for d in r.shots:
                end = origin
                target = -1
                for q in line[d]:
                    end = q
                    o = at[q]
                    if seen:
                        o = found_on(q, o, moved, rank, rank[shooter], mode)
                    if o >= 0 and o != shooter:
                        if not ducking[o]:
                            hits.append((shooter, o, False))
                            target = o
                            break
                        if on:
                            dodges.append((len(shots), o, shooter))
                shots.append((shooter, origin, end, target))
        if on:
            _tell_shots(s, shots, dodges, walks)
    if ducked:
        s.ducking = [False] * s.n
    if hits:
        supply = s.supply
        recorded: list[tuple[int, int, bool]] = []
        for shooter, target, _ in hits:
            placed = supply[shooter] > 0
            if placed:
                supply[shooter] -= 1
                s.boards[target][shooter] += 1
                s.damage[target] += 1
            recorded.append((shooter, target, placed))
            if on:
                names = g.names
                if placed:
                    EVENTS.emit(
                        "hit",
                        "hit_token",
                        shooter=names[shooter],
                        target=names[target],
                        damage=s.damage[target],
                    )
                else:
                    EVENTS.emit("hit", "no_token", shooter=names[shooter], target=names[target])
        s.last_hits = recorded
        if check_end(s):
            return
    else:
        s.last_hits = hits
    next_step(s)


def found_on(
    q: int,
    o: int,
    moved: Mapping[int, int],
    rank: Mapping[int, int],
    shooter_rank: int,
    mode: str,
) -> int:
    """Who a ball finds on square q when movers can be hit on their start square."""
    if mode == "start_or_end":
        if o >= 0:
            return o
        for p, sq in moved.items():
            if sq == q:
                return p
        return -1
    # reveal_order: movers revealed after the thrower are still on their start square
    if o >= 0 and not (o in moved and rank[o] > shooter_rank):
        return o
    for p, sq in moved.items():
        if sq == q and rank[p] > shooter_rank:
            return p
    return -1


# --- the events of a step (told only while recording) ------------------------------------


def _tell_moves(
    s: SubzeroState,
    reveals: list[Reveal],
    start_pos: list[int],
    walks: list[tuple[int, tuple[int, ...]]],
    bumps: list[tuple[int, int, int]],
) -> None:
    """Each mover's walk, and why it stopped short (a bump) or turned (the edge)."""
    g = s.g
    names = g.names
    squares = g.square_names
    heading = {r.player: r for r in reveals if r.move >= 0}
    for p, walk in walks:
        r = heading[p]
        steps = g.card_move[g.card_index[r.card]]
        planned = g.path(start_pos[p], r.move, steps, r.turn)
        path = [squares[q] for q in walk]
        EVENTS.emit("move", "move", player=names[p], path=path, steps=steps)
        ray = g.rays[start_pos[p]][r.move]
        turned = bool(planned) and planned[-1] not in ray
        bumped = next((b for b in bumps if b[0] == p), None)
        if bumped is not None:
            _, wanted, blocker = bumped
            EVENTS.emit(
                "move-bump",
                "bump",
                player=names[p],
                square=squares[walk[-1]],
                blocked=squares[wanted],
                blocker=names[blocker] if blocker >= 0 else "",
            )
        elif turned:
            edge = walk[-2]
            turn = next(d for d in range(8) if g.rays[edge][d][:1] == (walk[-1],))
            EVENTS.emit(
                "move-edge",
                "edge_turn",
                player=names[p],
                edge=squares[edge],
                turn=DIRECTIONS[turn],
                square=squares[walk[-1]],
            )


def _tell_shots(
    s: SubzeroState,
    shots: list[tuple[int, int, int, int]],
    dodges: list[tuple[int, int, int]],
    walks: list[tuple[int, tuple[int, ...]]],
) -> None:
    """Each ball's flight: who ducked it, who it hit (and where, for a mover), or a miss."""
    g = s.g
    names = g.names
    squares = g.square_names
    moved = {p: walk for p, walk in walks if len(walk) > 1}
    thrown = [shooter for shooter, _, _, _ in shots]
    for ball, (shooter, origin, end, target) in enumerate(shots):
        # which of the thrower's balls of this step (1, 2), and how many there are
        nth = thrown[: ball + 1].count(shooter)
        of = thrown.count(shooter)
        for seen, ducker, thrower in dodges:
            if seen == ball:
                EVENTS.emit("swish", "dodge", player=names[ducker], shooter=names[thrower])
        if target < 0:
            EVENTS.emit(
                "shoot",
                "miss",
                shooter=names[shooter],
                origin=squares[origin],
                end=squares[end],
                ball=nth,
                of=of,
            )
            continue
        EVENTS.emit(
            "shoot",
            "hit",
            shooter=names[shooter],
            target=names[target],
            origin=squares[origin],
            square=squares[end],
            ball=nth,
            of=of,
        )
        walk = moved.get(target)
        if walk is not None:
            EVENTS.emit(
                "move-target",
                "hit_moving",
                player=names[target],
                square=squares[end],
                start=end == walk[0],
            )


# --- what a player could hit now ----------------------------------------------------------


def targets(s: SubzeroState) -> dict[int, int]:
    """For the player about to reveal: who a ball thrown now in each direction would hit,
    if the players still to reveal stay where they are and do not duck."""
    if s.phase != REVEAL:
        return {}
    g = s.g
    me = s.order[s.rpos]
    reveals = s.step_reveals
    pos = list(s.pos)
    at = list(s.at)
    walks = moves(s, reveals, pos, at)
    moved = {p: walk[0] for p, walk in walks if len(walk) > 1}
    rank = {r.player: i for i, r in enumerate(reveals)}
    my_rank = len(reveals)
    found: dict[int, int] = {}
    for d in g.shot_directions:
        for q in g.rays[s.pos[me]][d][: g.ball_range]:
            o = at[q]
            if moved and g.moving_target != "end_square":
                o = found_on(q, o, moved, rank, my_rank, g.moving_target)
            if o >= 0 and o != me and not s.ducking[o]:
                found[d] = o
                break
    return found
