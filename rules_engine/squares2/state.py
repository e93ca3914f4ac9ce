"""The state: `Squares2State`, a position of SQUARES II, and what a player sees of it.

The class holds the position's data (the board, the hands, the row totals, the phase, the
games played), clones it, goes back to its start, shows each player their view
(`Squares2View`) and speaks the protocol (`rules_engine.core.State`).  The rules
themselves are written chapter by chapter, as functions of the state, and bound at the end
of the class body as its methods: `turn`, `placing`, `moving`, `abilities`, `battle`,
`row_limit`, `winning`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine.core import CHANCE, IllegalActionError, Step, TurnStateBase, format_step
from rules_engine.squares2 import (
    abilities,
    battle,
    moving,
    placing,
    playouts,
    row_limit,
    turn,
    winning,
)
from rules_engine.squares2.abilities import TileInPlay
from rules_engine.squares2.actions import Action, Place, Return, Start
from rules_engine.squares2.battle import Battle
from rules_engine.squares2.tiles import EMPTY, Face
from rules_engine.squares2.turn import OVER, PHASE_NAMES, RETURN, START, TURN

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2


@dataclass(frozen=True)
class Squares2View:
    """What one player can know: faces up on the board, their own hand, the fronts of the
    opponent's hand; backs of board tiles only if the options let the owner look."""

    player: str
    phase: str
    to_act: tuple[str, ...]
    turn: int
    board: tuple[tuple[str, str, str] | None, ...]  # (owner, face up, face down or "?")
    hand: tuple[str, ...]  # own tiles, front/back
    other_hands: tuple[tuple[str, tuple[str, ...]], ...]  # (player, fronts)
    results: tuple[str, ...]
    log: tuple[str, ...]


class Squares2State(TurnStateBase[Action, "Squares2"]):
    """A position of SQUARES II (mutable; see `rules_engine.core.State`).

    `cell[square]` is -1 (empty) or `player << 7 | face` with face = tile * 2 + side up;
    `hand[player]` has bit `tile` set for each tile in that player's hand.
    """

    OVER_RULE = "2-3"
    JOINT_RULE = "2-1"
    ONE_AT_A_TIME = "one player acts at a time in SQUARES II, got {n} actions"

    __slots__ = (
        "_history",
        "_offered",
        "acted",
        "battles",
        "cell",
        "first",
        "g",
        "hand",
        "init",
        "last_winner",
        "passes",
        "phase",
        "results",
        "returned",
        "returners",
        "sets",
        "to_move",
        "tot",
        "touched",
        "turn",
        "winner",
    )

    def __init__(self, engine: Squares2) -> None:
        g = engine
        self.g = g
        self.sets = g.sets  # the tiles as the view shows them (tests may vary hidden faces)
        self._history: list[Step[Action]] = []
        # The last turn's actions listed by `legal_actions`: (history length, actions).
        self._offered: tuple[int, tuple[Action, ...]] | None = None
        self.results: list[int] = []  # per finished game: the winner, or -1 for a draw
        self.last_winner = -1
        self._new_game(-1)
        self.init: tuple[Any, ...] = self._snapshot()

    def _new_game(self, first: int) -> None:
        g = self.g
        self.cell: list[int] = [EMPTY] * g.squares
        self.hand: list[int] = [g.full_hand, g.full_hand]
        # Each player's total of printed values per row, kept as tiles come and go.
        self.tot: list[list[int]] = [[0] * g.rows, [0] * g.rows]
        self.turn = 0  # turns already played this game
        self.acted = 0  # the turn (1-based) of this game's last action; 0: none yet
        self.passes = 0
        self.winner = -1
        self.returners: list[int] = []
        self.battles: list[Battle] = []
        self.returned: list[tuple[int, int]] = []
        self.touched: tuple[int, ...] = ()
        if first < 0:
            self.first = -1
            self.to_move = -1
            self.phase = START
        else:
            self.first = first
            self.to_move = first
            self.phase = TURN

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self.cell),
            tuple(self.hand),
            self.first,
            self.to_move,
            self.phase,
            self.turn,
            self.last_winner,
        )

    # --- protocol ----------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return 2

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TURN:
            return (self.to_move,)
        if phase == RETURN:
            return (self.returners[0],)
        if phase == START:
            return (CHANCE,)
        return ()

    def legal_actions(self, player: int) -> Sequence[Action]:
        phase = self.phase
        if phase == TURN:
            if player != self.to_move:
                return []
        elif player not in self.current_players():
            return []
        elif phase == START:
            return [Start(0), Start(1)]
        else:  # RETURN
            return [Return(player, sq) for sq in self.returnable(player)]
        places, others = self._choices()
        if places:
            made = self.g.place_actions[player]
            out: list[Action] = [made[face][sq] for face, squares in places for sq in squares]
            out.extend(others)
        else:
            out = others
        # A search player's playout lists a turn's actions, then `apply` checks its pick
        # against the same list.  Every change of the state goes through the history, so
        # its length dates the list.
        self._offered = (len(self._history), tuple(out))
        return out

    def apply(self, action: Action) -> None:
        """`StateBase.apply`, with a turn's action found in the list `legal_actions` gave
        out for this very position taken as checked (the hot path of every playout; an
        action not in it gets the full check, and its error)."""
        offered = self._offered
        if offered is not None and offered[0] == len(self._history) and self.phase == TURN:
            listed = offered[1]
            try:
                found = listed[listed.index(action)]
            except ValueError:
                found = None
            # Actions are named tuples: `Start(0) == Pass(0)` as tuples, so the kind must
            # match too (else the full check decides).
            if found is not None and type(found) is type(action):
                self._history.append(action)
                self._do(action)
                return
        super().apply(action)

    def sample_action(self, player: int, rng: random.Random) -> Action:
        if player not in self.current_players():
            raise IllegalActionError("2-1", f"{self.g.player_name(player)} has nothing to do now")
        return self._sample(rng)

    def _sample(self, rng: random.Random) -> Action:
        """A uniformly random legal action: index int(random() * n) of `legal_actions`."""
        phase = self.phase
        if phase == TURN:
            places, others = self._choices()
            total = len(others)
            for _, squares in places:
                total += len(squares)
            k = int(rng.random() * total)
            for face, squares in places:
                n = len(squares)
                if k < n:
                    return self.g.place_actions[self.to_move][face][squares[k]]
                k -= n
            return others[k]
        if phase == RETURN:
            p = self.returners[0]
            options = self.returnable(p)
            return Return(p, options[int(rng.random() * len(options))])
        if phase == START:
            return Start(int(rng.random() * 2))
        raise IllegalActionError("2-3", "the game is over")

    def clone(self) -> Squares2State:
        new = Squares2State.__new__(Squares2State)
        new.g = self.g
        new.sets = self.sets
        new.init = self.init
        new._offered = self._offered
        new._history = list(self._history)
        new.results = list(self.results)
        new.last_winner = self.last_winner
        new.cell = list(self.cell)
        new.hand = list(self.hand)
        new.tot = [list(self.tot[0]), list(self.tot[1])]
        new.first = self.first
        new.to_move = self.to_move
        new.phase = self.phase
        new.turn = self.turn
        new.acted = self.acted
        new.passes = self.passes
        new.winner = self.winner
        new.returners = list(self.returners)
        new.battles = list(self.battles)
        new.returned = list(self.returned)
        new.touched = self.touched
        return new

    RESAMPLE_ATTEMPTS = 1000

    def resample(self, player: int, rng: random.Random) -> Squares2State:
        """A state with the same `view(player)`, what is hidden from `player` drawn anew.

        What is hidden is which tile a face belongs to: the backs of tiles on the board
        and of the opponent's hand.  But the tile sets are the game's data, and in the
        game's own sets every face is printed on one tile only, so a face up on the board,
        or a front in hand, names its tile and its back: nothing is hidden and the result
        is a copy (with the game's tiles as its `sets`).

        Only sets that repeat a face (combined sets, rule 7) hide something: then the
        history is replayed from the start, each placement of such a player drawing its
        tile at random among the tiles in hand that show the logged face (in set order),
        until the replay is legal and gives the same view; rejection makes the draws
        depend only on the view and the rng (the draws are uniform step by step, not over
        whole histories).  After `RESAMPLE_ATTEMPTS` failures the result is a copy.
        """
        g = self.g
        hidden = [q for q in (0, 1) if g.faces_ambiguous[q]]
        if hidden:
            target = self.view(player)
            for _ in range(self.RESAMPLE_ATTEMPTS):
                drawn = self._replay_drawing(hidden, rng)
                if drawn is not None and drawn.view(player) == target:
                    return drawn
        new = self.clone()
        new.sets = g.sets
        return new

    def _replay_drawing(self, hidden: list[int], rng: random.Random) -> Squares2State | None:
        """The history replayed, the tile of each placement by a player in `hidden` drawn
        among the hand's tiles showing the same face; None when the replay is illegal."""
        g = self.g
        tiles = g.tiles_per_set
        new = self.initial()
        new.sets = g.sets
        for step in self._history:
            if isinstance(step, Place) and step.player in hidden:
                q = step.player
                codes = g.fcode[q]
                code = codes[2 * step.tile + step.face]
                hand = new.hand[q]
                options = [
                    face
                    for face in range(2 * tiles)
                    if hand >> (face >> 1) & 1 and codes[face] == code
                ]
                if not options:
                    return None
                face = options[int(rng.random() * len(options))]
                step = Place(q, face >> 1, face & 1, step.square)
            try:
                new.apply(step)  # type: ignore[arg-type]
            except IllegalActionError:
                return None
        return new

    def initial(self) -> Squares2State:
        new = Squares2State(self.g)
        cell, hand, first, to_move, phase, turn, last_winner = self.init
        new.cell = list(cell)
        new.hand = list(hand)
        new.first = first
        new.to_move = to_move
        new.phase = phase
        new.turn = turn
        new.last_winner = last_winner
        new._retotal()
        new.sets = self.sets
        new.init = self.init
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            return (0.0, 0.0)
        wins = [self.results.count(p) for p in range(2)]
        if wins[0] == wins[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if wins[0] > wins[1] else (-1.0, 1.0)

    def __hash__(self) -> int:
        return hash((self.phase, self.turn, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.g.sets,
            self.sets,
            self.init,
            tuple(self._history),
            tuple(self.results),
            self.last_winner,
            tuple(self.cell),
            tuple(self.hand),
            self.first,
            self.to_move,
            self.phase,
            self.turn,
            self.acted,
            self.passes,
            self.winner,
            tuple(self.returners),
            tuple(self.battles),
            tuple(self.returned),
            self.touched,
        )

    def __repr__(self) -> str:
        return (
            f"<Squares2State {PHASE_NAMES[self.phase]} turn {self.turn} "
            f"to move {self.g.player_name(self.to_move) if self.to_move >= 0 else '-'}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions: the same actions as
        `core.play_random` draws for the same seed, without the legality check."""
        history = self._history
        sample = self._sample
        do = self._do
        while self.phase != OVER:
            action = sample(rng)
            history.append(action)
            do(action)

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> int:
        """A search player's playout, played fast (`playouts.playout`, a kernel that setting up
        compiles: `rules_engine.native`)."""
        return playouts.playout(self, rng, max_steps)

    # --- facts ---------------------------------------------------------------------------------

    def hand_tiles(self, player: int) -> list[int]:
        h = self.hand[player]
        return [t for t in range(self.g.tiles_per_set) if h >> t & 1]

    def tile_at(self, square: int) -> TileInPlay | None:
        c = self.cell[square]
        if c < 0:
            return None
        p, f = c >> 7, c & 127
        return TileInPlay(square, p, self.g.fability[p][f], self.g.fval[p][f])

    # --- information ----------------------------------------------------------------------------

    def player_view(self, player: int) -> Squares2View:
        g = self.g
        board: list[tuple[str, str, str] | None] = []
        for c in self.cell:
            if c < 0:
                board.append(None)
                continue
            p, face = c >> 7, c & 127
            tile = self.sets[p][face >> 1]
            up, down = tile.face(face & 1), tile.face(1 - (face & 1))
            shown = (p == player and g.owner_sees_backs) or not g.backs_hidden
            board.append(
                (
                    g.names[p],
                    f"{g.abilities[up.ability].code}{up.value}",
                    f"{g.abilities[down.ability].code}{down.value}" if shown else "?",
                )
            )

        def text(f: Face) -> str:
            return f"{g.abilities[f.ability].code}{f.value}"

        own = tuple(
            sorted(
                f"{text(self.sets[player][t].front)}/{text(self.sets[player][t].back)}"
                for t in self.hand_tiles(player)
            )
        )
        others = tuple(
            (g.names[q], tuple(sorted(text(self.sets[q][t].front) for t in self.hand_tiles(q))))
            for q in range(2)
            if q != player
        )
        log = []
        for action in self._history:
            if isinstance(action, Place):  # the face, not which of several same-faced tiles
                face = 2 * action.tile + action.face
                log.append(
                    f"{g.names[action.player]} place {g.fcode[action.player][face]} "
                    f"{g.square_names[action.square]}"
                )
            else:
                log.append(format_step(g, action))
        return Squares2View(
            player=g.names[player],
            phase=PHASE_NAMES[self.phase],
            to_act=tuple(g.player_name(p) for p in self.current_players()),
            turn=self.turn,
            board=tuple(board),
            hand=own,
            other_hands=others,
            results=tuple(g.names[w] if w >= 0 else "draw" for w in self.results),
            log=tuple(log),
        )

    # --- the rules, chapter by chapter ---------------------------------------------------------
    # Each is a function of the state in its chapter's module, bound here as a method.

    # Playing a turn (turn.py): the legal choices, checking an action and playing it
    _choices = turn._choices
    _choices_general = turn._choices_general
    _can_arrive = turn._can_arrive
    _check = turn._check
    _own = turn._own
    _do = turn._do

    # Placing a tile (placing.py)
    _check_place = placing._check_place

    # Moving a tile (moving.py)
    _limit_error = moving._limit_error
    _stack_error = moving._stack_error
    _veto_error = moving._veto_error
    _check_move = moving._check_move
    _lift = moving._lift
    _put = moving._put

    # Abilities (abilities.py): using one, and continuous abilities in play
    _check_use = abilities._check_use
    _diagonals = abilities._diagonals
    _push_target = abilities._push_target
    _push_error = abilities._push_error
    _holders = abilities._holders
    _value = abilities._value
    _veto = abilities._veto

    # Battles (battle.py)
    _arrive = battle._arrive
    _to_hand = battle._to_hand

    # The row limit (row_limit.py)
    totals = row_limit.totals
    _retotal = row_limit._retotal
    printed_totals = row_limit.printed_totals
    row_total = row_limit.row_total
    rows_over = row_limit.rows_over
    returnable = row_limit.returnable
    _total_after = row_limit._total_after
    _over = row_limit._over
    _after_action = row_limit._after_action
    _return = row_limit._return

    # Winning (winning.py)
    centre_count = winning.centre_count
    _judge = winning._judge
    _end_game = winning._end_game
    winner_name = winning.winner_name
