"""Recorded hunts: a list of timed plays checked line by line (`check_record`), the reaction
times derived from the times in the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_engine.core import CHANCE, IllegalActionError, NotationError
from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Draw,
    First,
    Go,
    Order,
    Pass,
    Play,
    React,
    Reload,
    Reveal,
    Taliban,
    Wait,
)
from rules_engine.kill_shot.phases import GO, ORDER, PLAY, TURN

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot
    from rules_engine.kill_shot.state import KillShotState


@dataclass(frozen=True)
class RecordCheck:
    """The outcome of checking a recorded hunt: the first illegal line (1-based), if any,
    and the state reached just before it (or after the whole record)."""

    ok: bool
    line: int
    message: str
    state: KillShotState
    steps: int


def parse_record_line(engine: KillShot, text: str) -> tuple[int | None, Action]:
    """'1.20 alpha plays r1' (a timed action, seconds) or 'draw alpha r5' (untimed)."""
    words = text.split()
    if words and words[0].replace(".", "", 1).isdigit():
        try:
            ms = round(float(words[0]) * 1000)
        except ValueError:
            raise NotationError(f"not a time in {text!r}") from None
        return ms, engine.parse_action(" ".join(words[1:]))
    return None, engine.parse_action(text)


def check_record(engine: KillShot, state: KillShotState, lines: Sequence[str]) -> RecordCheck:
    """Check a recorded hunt from `state`: a list of lines, each a timed player action
    ('2.35 bravo plays b4': at 2.35 s after "go!") or an untimed step (the cards drawn,
    a Situation Room turn, a discard).  The reaction times are derived from the times:
    every player's next reaction ends at their next recorded action; a player who does
    nothing meanwhile waits.  Illegal lines are reported with the rule they break, and
    so are impossible times (acting during the countdown, or before the clearing drill
    is said)."""
    g = engine
    s = state.clone()
    entries: list[tuple[int | None, Action]] = []
    for i, text in enumerate(lines):
        try:
            entries.append(parse_record_line(g, text))
        except NotationError as exc:
            return RecordCheck(False, i + 1, f"{text}: {exc}", s, 0)
    steps = 0
    early: dict[int, str] = {}
    last_group: list[int] = []
    i = 0

    def fail(j: int, message: str) -> RecordCheck:
        return RecordCheck(False, j + 1, f"{lines[j]}: {message}", s, steps)

    def next_time(q: int, start: int) -> int | None:
        for t, a in entries[start:]:
            if t is not None and getattr(a, "player", None) == q:
                return t
        return None

    while True:
        if s.phase == ORDER and not s.draws:
            # simultaneous plays land in the order the record lists them
            plays = {a.player for a in s.order_plays}
            s.apply(Order(tuple(p for p in last_group if p in plays)))
            steps += 1
            continue
        if i >= len(entries):
            break
        t_i, a_i = entries[i]
        players = s.current_players()
        if not players:
            return fail(i, "the game is over")
        if players == (CHANCE,) and not s.draws and s.phase in (GO, PLAY):
            law = g.law
            go = s.phase == GO
            base = s.clock + (g.countdown_ms if go else 0)
            movers = list(range(s.n)) if go else sorted(s.pending)
            delays = []
            for q in movers:
                b = base
                why = f"after {g.names[q]}'s action at {s.clock / 1000:.2f} s"
                if go:
                    why = f'the countdown ends with "go!" at {base / 1000:.2f} s'
                    if not s.picked_up and not g.briefing:
                        b += g.pick_up_ms
                        why += f" and picking up the hand takes {g.pick_up_ms / 1000:.2f} s"
                elif s.drill[q]:
                    b += g.drill_ms
                    why = f"saying the clearing drill takes {g.drill_ms / 1000:.2f} s"
                tq = next_time(q, i)
                if tq is None or tq < b:
                    if tq is not None:
                        early[q] = f"{g.names[q]} cannot act before {b / 1000:.2f} s ({why})"
                    delays.append(law.max)
                    continue
                early.pop(q, None)
                d = min(tq - b, law.max)
                if d % law.step:
                    d -= d % law.step
                delays.append(d)
            s.apply(Go(tuple(delays)) if go else React(tuple(movers), tuple(delays)))
            steps += 1
            continue
        if players == (CHANCE,):
            if t_i is not None or not isinstance(
                a_i, Draw | Reveal | Claim | First | Taliban | Order
            ):
                return fail(i, f"the record must give chance's step here ({s._now()})")
            try:
                s.apply(a_i)
            except IllegalActionError as exc:
                return fail(i, str(exc))
            steps += 1
            i += 1
            continue
        if s.phase == PLAY:
            now = s.ready[players[0]]
            if t_i is None:
                return fail(i, "a real-time action needs its time, like '1.20 alpha plays r1'")
            p_i = getattr(a_i, "player", -1)
            if t_i < now:
                reason = early.get(p_i) or (
                    f"{g.names[p_i]} is not ready yet" if p_i in range(s.n) else "no such player"
                )
                return fail(
                    i, f"at {t_i / 1000:.2f} s: {reason} (next action at {now / 1000:.2f} s)"
                )
            group: dict[int, tuple[int, Action]] = {}
            j = i
            while j < len(entries) and entries[j][0] == now:
                a = entries[j][1]
                p = getattr(a, "player", -1)
                if p not in players:
                    return fail(
                        j,
                        f"at {now / 1000:.2f} s only {', '.join(g.names[q] for q in players)} act",
                    )
                if p in group:
                    return fail(j, f"{g.names[p]} does two things at one instant")
                group[p] = (j, a)
                j += 1
            for p, (j2, a) in group.items():
                try:
                    s._check(p, a)
                except IllegalActionError as exc:
                    return fail(j2, str(exc))
            joint = [group[p][1] if p in group else Wait(p) for p in players]
            last_group = [entries[x][1].player for x in range(i, j)]  # type: ignore[union-attr]
            if len(joint) == 1:
                s.apply(joint[0])
            else:
                s.apply_joint(joint)
            steps += 1
            i = j
            continue
        # Decision steps without a clock: a Situation Room turn (the player to act, and anyone
        # who ends that turn with a Jam or Bad Intel; the others pass), discards, picks.
        group = {}
        j = i
        turn = s.turn if s.phase == TURN else -1
        while j < len(entries):
            a = entries[j][1]
            p = getattr(a, "player", -1)
            if p not in players or p in group:
                break
            if turn >= 0 and p != turn and not (isinstance(a, Play) and a.target == turn):
                break
            group[p] = (j, a)
            j += 1
        if not group:
            return fail(i, f"{' and '.join(g.names[q] for q in players)} act now ({s._now()})")
        fill: dict[int, Action] = {}
        for q in players:
            if q in group:
                continue
            if q != turn and turn >= 0:
                fill[q] = Pass(q)
            elif q == turn:
                # interrupted before acting: any legal placeholder (it is void)
                fill[q] = Reload(q) if g.refill else Pass(q)
            else:
                return fail(i, f"{g.names[q]} must act at the same time ({s._now()})")
        for p, (j2, a) in group.items():
            try:
                s._check(p, a)
            except IllegalActionError as exc:
                return fail(j2, str(exc))
        joint = [group[q][1] if q in group else fill[q] for q in players]
        if len(joint) == 1:
            s.apply(joint[0])
        else:
            s.apply_joint(joint)
        steps += 1
        i = j
    return RecordCheck(True, 0, "ok", s, steps)
