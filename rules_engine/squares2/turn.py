"""Playing a turn (手番の流れ, rule 2): the phases, the legal choices, checking an action
and playing it.

A game starts once the first player is decided (rule 1-3: janken, the chance step, or the
last game's winner plays second).  A turn is one action: place a tile (rule 3, `placing`),
move one (rule 4, `moving`) or use a face-up tile's ability (rule 5, `abilities`); a tile
that arrives on an opponent's tile fights it (rule 6, `battle`).  Then rows over the limit
give tiles back to hand (rule 2-2, `row_limit`), and holding the centre squares wins
(rule 2-3, `winning`); else the opponent plays (rule 2-4).

These are `Squares2State` methods, written here as functions of the state (`self`) and
bound in its class body (`state.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules_engine.core import EVENTS, IllegalActionError
from rules_engine.squares2.abilities import (
    E_CAMP,
    E_CONTINUOUS,
    E_DIAGONAL,
    E_FLIP,
    E_PUSH,
    continuous_in_play,
)
from rules_engine.squares2.actions import Action, Move, Pass, Place, Return, Start, Use

if TYPE_CHECKING:
    from rules_engine.squares2.state import Squares2State

# Phases
START: Final = 0
TURN: Final = 1
RETURN: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("first", "turn", "return", "over")

# --- legal choices -------------------------------------------------------------------------


def _choices(self: Squares2State) -> tuple[list[tuple[int, tuple[int, ...]]], list[Action]]:
    """The current player's legal turn actions, in `legal_actions` order: placements
    grouped by face (tiles in set order, front then back) with their squares, then per
    own tile (by square) its moves and its ability uses, or `Pass` when there is nothing
    else.  The actions are the engine's own, made once (`Squares2.steps`...)."""
    g = self.g
    if g.continuous:
        return self._choices_general()
    p = self.to_move
    cell = self.cell
    checked = g.battle_checked
    totals = self.tot[p]
    vals = g.fval[p]
    hand = self.hand[p]
    places: list[tuple[int, tuple[int, ...]]] = []
    if hand:
        open_squares = tuple(sq for sq in g.camp_squares[p] if cell[sq] >> 7 != p)
        if open_squares:
            fallback = () if checked else tuple(sq for sq in open_squares if cell[sq] >= 0)
            fits = g.fitting_faces(p, hand, g.place_max - totals[g.camp[p]])
            if fallback:
                places = [(face, open_squares if ok else fallback) for face, ok in fits]
            else:
                places = [(face, open_squares) for face, ok in fits if ok]
    others: list[Action] = []
    move_max = g.move_max
    feffect = g.feffect[p]
    steps = g.steps[p]
    use_rows = g.use_rows[p]
    append = others.append
    # What a tile may add to each row; whether a move along the row keeps it in limits.
    row_room = list(map(move_max.__sub__, totals))
    keeps = list(map(move_max.__ge__, totals))
    limited = g.ability_limited
    row_of = g.row_of
    src = -1
    for c in cell:
        src += 1
        if c >> 7 != p:  # empty (-1 >> 7 is -1) or the opponent's
            continue
        face = c & 127
        v = vals[face]
        for dst, row, same, move in steps[src]:
            d = cell[dst]
            if d >> 7 != p and (
                (d >= 0 and not checked) or (keeps[row] if same else v <= row_room[row])
            ):
                append(move)
        effect = feffect[face]
        if not effect:
            continue
        uses = (use_rows[face] or g.uses(p, face))[src]
        if effect == E_FLIP:
            append(uses[0])
        elif effect == E_PUSH:
            target = g.push_table(p, g.fdistance[p][face])[src][0]
            if target >= 0 and cell[target] >= 0 and self._push_error(p, src, face) is None:
                append(uses[0])
        else:  # E_CAMP or E_DIAGONAL
            targets = (
                g.camp_squares[p]
                if effect == E_CAMP
                else self._diagonals(src, g.fdistance[p][face], g.fjumps[p][face])
            )
            if not limited:
                for dst in targets:
                    if dst != src and cell[dst] >> 7 != p:
                        append(uses[dst + 1])
                continue
            src_row = row_of[src]
            for dst in targets:
                d = cell[dst]
                if dst == src or d >> 7 == p:
                    continue
                if d < 0 or checked:
                    row = row_of[dst]
                    if not (keeps[row] if row == src_row else v <= row_room[row]):
                        continue
                append(uses[dst + 1])
    if not places and not others:
        append(g.passes[p])
    return places, others


def _choices_general(
    self: Squares2State,
) -> tuple[list[tuple[int, tuple[int, ...]]], list[Action]]:
    """`_choices` with continuous abilities: totals and vetoes asked square by square."""
    g = self.g
    p = self.to_move
    cell = self.cell
    checked = g.battle_checked
    hand = self.hand[p]
    places: list[tuple[int, tuple[int, ...]]] = []
    if hand:
        open_squares = tuple(sq for sq in g.camp_squares[p] if cell[sq] >> 7 != p)
        for face in g.hand_faces(hand):
            squares = tuple(
                sq
                for sq in open_squares
                if (cell[sq] >= 0 and not checked)
                or self._total_after(p, -1, sq, p << 7 | face) <= g.place_max
            )
            if squares:
                places.append((face, squares))
    others: list[Action] = []
    limit_for = {"move": g.move_max, "leap": -1, "diagonal": -1}
    if g.ability_limited:
        limit_for["leap"] = limit_for["diagonal"] = g.move_max
    for src in range(g.squares):
        c = cell[src]
        if c >> 7 != p:
            continue
        face = c & 127
        for dst, _, _, move in g.steps[p][src]:
            if self._can_arrive(p, src, dst, limit_for["move"], "move"):
                others.append(move)
        effect = g.feffect[p][face]
        if effect == E_CONTINUOUS:
            continue
        uses = g.uses(p, face)[src]
        if effect == E_FLIP:
            others.append(uses[0])
        elif effect == E_PUSH:
            if self._push_error(p, src, face) is None:
                others.append(uses[0])
        elif effect in (E_CAMP, E_DIAGONAL):
            how = "leap" if effect == E_CAMP else "diagonal"
            targets = (
                g.camp_squares[p]
                if effect == E_CAMP
                else self._diagonals(src, g.fdistance[p][face], g.fjumps[p][face])
            )
            for dst in targets:
                if dst != src and self._can_arrive(p, src, dst, limit_for[how], how):
                    others.append(uses[dst + 1])
    if not places and not others:
        others.append(g.passes[p])
    return places, others


def _can_arrive(self: Squares2State, p: int, src: int, dst: int, limit: int, how: str) -> bool:
    """No stacking own tiles; the row limit (limit < 0: none); continuous vetoes."""
    d = self.cell[dst]
    if d >= 0 and d >> 7 == p:
        return False
    if (
        limit >= 0
        and (d < 0 or self.g.battle_checked)
        and self._total_after(p, src, dst, self.cell[src]) > limit
    ):
        return False
    return not (self.g.continuous and self._veto(src, dst, how))


# --- checking -------------------------------------------------------------------------------


def _check(self: Squares2State, player: int, action: Action) -> None:
    g = self.g
    phase = self.phase
    name = g.player_name(player)
    if phase == OVER:
        raise IllegalActionError("2-3", "the game is over")
    if isinstance(action, Start):
        if phase != START:
            raise IllegalActionError("1-3", "the first player is already decided")
        if action.player not in (0, 1):
            raise IllegalActionError("1-3", "the first player is one of the two players")
        return
    if phase == START:
        raise IllegalActionError("1-3", "the first player is decided first (janken)")
    if action.player != player:
        raise IllegalActionError(
            "2-1",
            f"it is {name}'s {'turn' if phase == TURN else 'return'}, not {g.player_name(action.player)}'s",
        )
    if isinstance(action, Return):
        if phase != RETURN:
            raise IllegalActionError("2-2", "no row is over the limit now")
        if action.square not in self.returnable(player):
            rows = ", ".join(str(r + 1) for r in self.rows_over(player))
            raise IllegalActionError(
                "2-2",
                f"{name} returns a tile of a row over the limit (row {rows}), "
                f"not {g.square_names[action.square]}",
            )
        return
    if phase == RETURN:
        rows = ", ".join(str(r + 1) for r in self.rows_over(player))
        raise IllegalActionError(
            "2-2", f"{name}'s row {rows} is over the limit {g.limit}: return a tile first"
        )
    if isinstance(action, Place):
        self._check_place(player, action)
    elif isinstance(action, Move):
        self._check_move(player, action)
    elif isinstance(action, Use):
        self._check_use(player, action)
    elif isinstance(action, Pass):
        places, others = self._choices()
        if places or type(others[0]) is not Pass:
            raise IllegalActionError("2-1", f"{name} can act, so may not pass")
    else:
        raise IllegalActionError("2-1", f"not a SQUARES II action: {action!r}")


def _own(self: Squares2State, player: int, square: int) -> int:
    """The face index of the player's tile on `square`."""
    g = self.g
    c = self.cell[square]
    if c < 0 or c >> 7 != player:
        what = "empty" if c < 0 else f"holds {g.label(c >> 7, c & 127)}"
        raise IllegalActionError(
            "2-1", f"{g.square_names[square]} {what}: it is not {g.names[player]}'s tile"
        )
    return c & 127


# --- rules ------------------------------------------------------------------------------


def _do(self: Squares2State, action: Action) -> None:
    kind = type(action)
    if kind is Return:
        assert isinstance(action, Return)
        self._return(action.player, action.square)
        return
    if kind is Start:
        self.first = self.to_move = action.player
        self.phase = TURN
        if EVENTS.on:
            _game_start_events(self)
            EVENTS.emit("1-3", "janken", player=self.g.names[action.player])
        return
    self.battles = []
    self.returned = []
    self.acted = self.turn + 1  # counted once the turn is over (`_judge`)
    p = action.player
    g = self.g
    if kind is Move:
        assert isinstance(action, Move)
        self.touched = (action.src, action.dst)
        if EVENTS.on:
            _move_events(self, "4-2", "move", action.src, action.dst)
        self._arrive(action.dst, self._lift(action.src))
    elif isinstance(action, Place):
        self.hand[p] &= ~(1 << action.tile)
        self.touched = (action.square,)
        face = 2 * action.tile + action.face
        if EVENTS.on:
            _place_events(self, p, face, action.square)
        self._arrive(action.square, p << 7 | face)
    elif isinstance(action, Use):
        src = action.src
        effect = g.feffect[p][self.cell[src] & 127]
        if EVENTS.on:
            c = self.cell[src]
            EVENTS.emit(
                "5-3",
                "use",
                player=g.names[p],
                ability=g.fability[p][c & 127],
                value=g.fval[p][c & 127],
                square=g.square_names[src],
            )
        if effect == E_FLIP:
            self._put(src, self._lift(src) ^ 1)
            self.touched = (src,)
            if EVENTS.on:
                c = self.cell[src]
                EVENTS.emit(
                    "5-3-a",
                    "flip",
                    player=g.names[p],
                    ability=g.fability[p][c & 127],
                    value=g.fval[p][c & 127],
                    square=g.square_names[src],
                )
                EVENTS.emit("backs", "revealed", player=g.names[p])
                if g.feffect[p][c & 127] == E_CONTINUOUS:
                    EVENTS.emit("5-1", "continuous_face_up", ability=g.fability[p][c & 127])
        elif effect == E_PUSH:
            target, dst = self._push_target(p, src, self.cell[src] & 127)
            self.touched = (src, target, dst)
            if EVENTS.on:
                _move_events(self, "5-3-c", "push", target, dst)
            self._arrive(dst, self._lift(target))
        else:
            self.touched = (src, action.dst)
            if EVENTS.on:
                rule, what = ("5-3-b", "leap") if effect == E_CAMP else ("5-3-d", "diagonal")
                _move_events(self, rule, what, src, action.dst)
            self._arrive(action.dst, self._lift(src))
    if isinstance(action, Pass):
        self.passes += 1
        self.touched = ()
        if EVENTS.on:
            EVENTS.emit("2-1", "pass", player=g.names[p])
    else:
        self.passes = 0
    self._after_action()


# --- the event log (only while `rules_engine.core.recording()` is on) -------------------


def _game_start_events(self: Squares2State) -> None:
    """A game with sets other than the game's own: how they combine (rule 7)."""
    g = self.g
    if not g.combined:
        return
    groups = g.tiles_per_set // (g.value_max - g.value_min + 1)
    EVENTS.emit(
        "7-1",
        "combined_sets",
        players=list(g.names),
        groups=groups,
        low=g.value_min,
        high=g.value_max,
    )
    used = {t.front.ability for tiles in g.sets for t in tiles}
    used |= {t.back.ability for tiles in g.sets for t in tiles}
    EVENTS.emit("7-2", "mixed_abilities", abilities=[a for a in g.abilities if a in used])
    EVENTS.emit("7-3", "usual_rules")


def _place_events(self: Squares2State, p: int, face: int, square: int) -> None:
    g = self.g
    EVENTS.emit(
        "3-1",
        "place",
        player=g.names[p],
        ability=g.fability[p][face],
        value=g.fval[p][face],
        square=g.square_names[square],
    )
    if face & 1:
        EVENTS.emit(
            "3-2",
            "back_up",
            player=g.names[p],
            ability=g.fability[p][face ^ 1],
            value=g.fval[p][face ^ 1],
        )


def _move_events(self: Squares2State, rule: str, what: str, src: int, dst: int) -> None:
    """A tile about to move from `src` to `dst`: continuous abilities checked (rule 4-1),
    then the move itself (by a move, Leap, Diagonal, or a Tsunami push)."""
    g = self.g
    EVENTS.emit("4-1", "continuous_checked", abilities=continuous_in_play(self))
    c = self.cell[src]
    q, f = c >> 7, c & 127
    data: dict[str, object] = {
        "player": g.names[self.to_move],
        "owner": g.names[q],
        "ability": g.fability[q][f],
        "value": g.fval[q][f],
        "src": g.square_names[src],
        "dst": g.square_names[dst],
    }
    if what == "push":
        fwd = g.forward[self.to_move]
        distance = abs(g.row_of[dst] - g.row_of[src])
        between = (g._at(src, 0, fwd * k) for k in range(1, distance))
        data["distance"] = distance
        data["jumped"] = [g.square_names[sq] for sq in between if self.cell[sq] >= 0]
    EVENTS.emit(rule, what, **data)
