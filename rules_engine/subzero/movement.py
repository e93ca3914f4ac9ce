"""MOVE (rules `move`, `move-bump`, `move-edge`): where a pawn walks, and the moves of a
step carried out together.

A MOVE goes up, down, left or right (N, E, S, W) as many squares as its card says; at the
edge of the battle zone it turns 90 degrees (`edge_turn`: left, right, or the mover's
choice; `edge_reach`: on passing or on arriving at the edge); it stops before a pawn in its
way (a bump).  The engine keeps the paths it works out (`Subzero.path`); `moves` carries out
a step's moves one after the other in reveal order, or in lockstep (`move_order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine.subzero.actions import Reveal

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero
    from rules_engine.subzero.state import SubzeroState


def turn_options(g: Subzero, square: int, heading: int, steps: int) -> tuple[int, ...]:
    """The edge turns a move can take: (-1,) when it cannot reach the edge (or the turn
    is fixed by the option), else the directions it may turn to (edge_turn=choose)."""
    dist = len(g.rays[square][heading])
    reaches = steps >= dist if g.arrive else steps > dist
    if not reaches or g.edge_turn != "choose":
        return (-1,)
    edge = g.rays[square][heading][dist - 1] if dist else square
    turns = tuple(t for t in ((heading + 6) % 8, (heading + 2) % 8) if g.rays[edge][t])
    return turns or (-1,)


def unblocked_path(g: Subzero, square: int, heading: int, steps: int, turn: int) -> tuple[int, ...]:
    ray = g.rays[square][heading]
    dist = len(ray)
    reaches = steps >= dist if g.arrive else steps > dist
    straight = ray[: min(steps, dist)]
    if not reaches:
        return straight
    edge = ray[dist - 1] if dist else square
    if g.edge_turn == "left":
        turn = (heading + 6) % 8
    elif g.edge_turn == "right":
        turn = (heading + 2) % 8
    if turn < 0:
        return straight
    side = g.rays[edge][turn]
    return (*straight, side[0]) if side else straight


def moves(
    s: SubzeroState,
    reveals: Sequence[Reveal],
    pos: list[int],
    at: list[int],
    bumps: list[tuple[int, int, int]] | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    """Carry out the moves of a step on `pos` and `at` (changed in place);
    return each mover's walk (its start square first).  With `bumps`, add to it each
    mover that stops short: (mover, the square it could not enter, the pawn there or -1
    when two movers would enter it at once)."""
    g = s.g
    movers: list[tuple[int, tuple[int, ...]]] = []
    card_move = g.card_move
    card_index = g.card_index
    paths = g.paths
    for r in reveals:
        if r.move >= 0:
            steps = card_move[card_index[r.card]]
            p = r.player
            path = paths.get((pos[p], r.move, steps, r.turn))
            if path is None:
                path = g.path(pos[p], r.move, steps, r.turn)
            movers.append((p, path))
    independent = True
    if g.lockstep and len(movers) > 1:
        claimed: set[int] = set()
        for _, path in movers:
            for q in path:
                if at[q] >= 0 or q in claimed:
                    independent = False
                    break
                claimed.add(q)
    if not g.lockstep or independent:
        walks: list[tuple[int, tuple[int, ...]]] = []
        for p, path in movers:
            cur = pos[p]
            walk = [cur]
            for q in path:
                if at[q] >= 0:
                    if bumps is not None:
                        bumps.append((p, q, at[q]))
                    break  # bump: stop just before the pawn
                at[cur] = -1
                at[q] = p
                cur = q
                walk.append(q)
            pos[p] = cur
            walks.append((p, tuple(walk)))
        return walks
    return lockstep(movers, pos, at, bumps)


def lockstep(
    movers: Sequence[tuple[int, tuple[int, ...]]],
    pos: list[int],
    at: list[int],
    bumps: list[tuple[int, int, int]] | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    """The moves of a step carried out together (`move_order: simultaneous`), each mover
    (the player and the squares of their path, in reveal order) one square at a time: a
    mover stops for good before a square another mover wants at the same time, or one
    held by a pawn that does not move on now (or that moves into the mover's square).
    `pos`, `at` and `bumps` as in `moves`."""
    walks = [[pos[p]] for p, _ in movers]
    active = [j for j, (_, path) in enumerate(movers) if path]
    i = 0
    while active:
        want: dict[int, int] = {}
        for j in active:
            p, path = movers[j]
            want[p] = path[i]
        blocked: set[int] = set()
        if len(want) > 1:
            targets = list(want.values())
            for p, q in want.items():
                if targets.count(q) > 1:
                    blocked.add(p)
        changed = True
        while changed:
            changed = False
            for p, q in want.items():
                if p in blocked:
                    continue
                o = at[q]
                if o >= 0 and (o not in want or o in blocked or want[o] == pos[p]):
                    blocked.add(p)
                    changed = True
        if bumps is not None:
            bumps.extend((p, want[p], at[want[p]]) for p in want if p in blocked)
        going = [j for j in active if movers[j][0] not in blocked]
        for j in going:
            at[pos[movers[j][0]]] = -1
        for j in going:
            p = movers[j][0]
            q = want[p]
            at[q] = p
            pos[p] = q
            walks[j].append(q)
        i += 1
        active = [j for j in going if i < len(movers[j][1])]
    return [(p, tuple(walk)) for (p, _), walk in zip(movers, walks, strict=True)]
