"""The state of a S.U.B.Z.E.R.O. game: its data, what a player can know, and the protocol.

`SubzeroState` holds the position (pawns, snowballs, player boards, hands, programs, the
draw pile and the discards, the turn, the step and who reveals next) and answers what
`rules_engine.core.State` asks: who acts, the legal actions, checking and playing an action,
cloning, the initial state, equality, and each player's view (`SubzeroView`).  The rules it
plays are in the phase modules, as functions of the state: `setting_up`, `programming`,
`reveal`, `movement`, `resolution`, `end_of_turn` and `endings` (each names the rule clauses
it plays); random play and a search player's playouts are in `random_play`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rules_engine.core import (
    CHANCE,
    IllegalActionError,
    JointAction,
    Mapped,
    StateBase,
    Step,
)
from rules_engine.subzero import random_play, resolution, sampling
from rules_engine.subzero.actions import (
    DEAL,
    OVER,
    PHASE_NAMES,
    PLACE,
    PROGRAM,
    REVEAL,
    YOUNGEST,
    Action,
    Draw,
    Place,
    Program,
    Reshuffle,
    Reveal,
    Youngest,
)
from rules_engine.subzero.end_of_turn import (
    MultisetDraws,
    check_draw,
    check_reshuffle,
    draw_cards,
    plain_draw,
    reshuffle,
)
from rules_engine.subzero.endings import check_end_at_setup
from rules_engine.subzero.programming import check_program, program_cards
from rules_engine.subzero.reveal import check_reveal, reveal_actions, reveal_card
from rules_engine.subzero.setting_up import check_place, check_youngest, choose_youngest, place_pawn

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero


@dataclass(frozen=True)
class SubzeroView:
    """What one player can know: the board, the player boards, their own cards, and the
    cards turned up.  Other players' hands, face-down programs and draws appear nowhere."""

    player: str
    phase: str
    turn: int
    slot: int
    start: str | None
    to_act: tuple[str, ...]
    positions: tuple[int, ...]
    snowballs: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    ducking: tuple[bool, ...]
    out: tuple[int, ...]
    hand: tuple[str, ...]
    program: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    program_sizes: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...]
    draw_pile: int
    discards: int
    reshuffles: int
    winners: tuple[int, ...]
    log: tuple[str, ...]


class _Init(NamedTuple):
    pos: tuple[int, ...]
    turn: int
    balls: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    out: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    programs: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    discards: tuple[int, ...]
    start: int
    phase: int


class SubzeroState(StateBase[Action, "Subzero"]):
    """A position of S.U.B.Z.E.R.O. (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "game-end"
    JOINT_RULE = "program"
    JOINT_NEEDED = "all {n} players program their cards at the same time: give a joint action"

    __slots__ = (
        "_history",
        "at",
        "balls",
        "boards",
        "damage",
        "discard_total",
        "discards",
        "ducking",
        "g",
        "hands",
        "init",
        "last_hits",
        "last_moves",
        "last_programs",
        "last_reveals",
        "last_shots",
        "last_step",
        "n",
        "order",
        "out",
        "phase",
        "pile",
        "pile_total",
        "pos",
        "programs",
        "queue",
        "reshuffles",
        "rpos",
        "seen",
        "slot",
        "start",
        "step_reveals",
        "supply",
        "turn",
        "winners",
        "youngest",
    )

    def __init__(self, engine: Subzero) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self.init: _Init | None = None
        self._history: list[Step[Action]] = []
        # Each player's log of the history as they saw it, as far as it has been written
        # (`player_view` extends it: the history only grows).
        self.seen: list[tuple[str, ...]] = [()] * n
        self.phase = YOUNGEST
        self.turn = 1
        self.pos = [-1] * n
        self.at = [-1] * g.squares
        self.balls = [g.snowballs_at_start] * n
        self.boards = [[0] * n for _ in range(n)]
        self.supply = [g.hit_tokens] * n
        self.damage = [0] * n
        self.ducking = [False] * n
        self.out: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.programs: list[tuple[int, ...]] = [() for _ in range(n)]
        self.pile = list(g.deck_counts)
        self.pile_total = g.deck_size
        self.discards = [0] * len(g.cards)
        self.discard_total = 0
        self.reshuffles = 0
        self.start = -1
        self.youngest = -1
        self.order: tuple[int, ...] = ()
        self.queue: list[int] = []  # who places a pawn (PLACE) or draws (DEAL) next
        self.slot = 0
        self.rpos = 0
        self.step_reveals: list[Reveal] = []
        self.last_reveals: list[Reveal] = []
        self.last_hits: list[tuple[int, int, bool]] = []
        self.last_moves: list[tuple[int, tuple[int, ...]]] = []
        # The last step resolved: its turn and step number, each ball's flight (thrower,
        # square thrown from, square where it hit or left the range, who it hit or -1),
        # and the programs of its turn (kept when the turn ends and the revealed cards go
        # to the discards).
        self.last_step: tuple[int, int] = (0, 0)
        self.last_shots: list[tuple[int, int, int, int]] = []
        self.last_programs: list[tuple[int, ...]] = []
        self.winners: tuple[int, ...] = ()

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == REVEAL:
            return (self.order[self.rpos],)
        if phase in (DEAL, YOUNGEST):
            return (CHANCE,)
        if phase == PROGRAM:
            return self.order_seats()
        if phase == PLACE:
            return (self.queue[0],)
        return ()

    def order_seats(self) -> tuple[int, ...]:
        """Players still in the game, in seat order (the order of a joint programming)."""
        out = self.out
        if not out:
            return self.g.rotations[0]
        return tuple([p for p in range(self.n) if p not in out])

    def legal_actions(self, player: int) -> Sequence[Action]:
        g = self.g
        phase = self.phase
        if phase == REVEAL and player == self.order[self.rpos]:
            listed = g.reveal_choices(
                player, self.programs[player][self.slot], self.pos[player], self.balls[player]
            )[0]
            return listed or reveal_actions(self, player)
        if phase == DEAL and player == CHANCE:
            if self.pile_total == 0:
                return [Reshuffle()]
            p = self.queue[0]
            k = min(g.hand_size - len(self.hands[p]), self.pile_total)
            ids = g.card_ids
            return Mapped(
                MultisetDraws(self.pile, k),
                lambda t: Draw(p, tuple(ids[i] for i in t)),
                lambda a: (
                    tuple(g.card_index.get(c, -1) for c in a.cards)
                    if isinstance(a, Draw) and a.player == p
                    else None
                ),
            )
        if phase == PROGRAM and player in self.order_seats():
            return Mapped(
                g.hand_programs(tuple(sorted(self.hands[player])))[0],
                functools.partial(Program, player),
                functools.partial(_program_cards, player),
            )
        if phase == PLACE and player == self.queue[0]:
            return [Place(player, q) for q in range(g.squares) if self.at[q] < 0]
        if phase == YOUNGEST and player == CHANCE:
            return [Youngest(p) for p in range(self.n)]
        return []

    def sample_action(self, player: int, rng: random.Random) -> Action:
        return random_play.sample(self, player, rng.random, rng)

    def resample(self, player: int, rng: random.Random) -> SubzeroState:
        """The hidden cards dealt anew from what `player` saw (`sampling.resample`)."""
        return sampling.resample(self, player, rng)

    def clone(self) -> SubzeroState:
        new = SubzeroState.__new__(SubzeroState)
        new.g = self.g
        new.n = self.n
        new.init = self.init
        new._history = list(self._history)
        new.seen = list(self.seen)
        new.phase = self.phase
        new.turn = self.turn
        new.pos = list(self.pos)
        new.at = list(self.at)
        new.balls = list(self.balls)
        new.boards = [list(b) for b in self.boards]
        new.supply = list(self.supply)
        new.damage = list(self.damage)
        new.ducking = list(self.ducking)
        new.out = list(self.out)
        new.hands = [list(h) for h in self.hands]
        new.programs = list(self.programs)
        new.pile = list(self.pile)
        new.pile_total = self.pile_total
        new.discards = list(self.discards)
        new.discard_total = self.discard_total
        new.reshuffles = self.reshuffles
        new.start = self.start
        new.youngest = self.youngest
        new.order = self.order
        new.queue = list(self.queue)
        new.slot = self.slot
        new.rpos = self.rpos
        new.step_reveals = list(self.step_reveals)
        new.last_reveals = self.last_reveals
        new.last_hits = list(self.last_hits)
        new.last_moves = list(self.last_moves)
        new.last_step = self.last_step
        new.last_shots = list(self.last_shots)
        new.last_programs = list(self.last_programs)
        new.winners = self.winners
        return new

    def initial(self) -> SubzeroState:
        init = self.init
        if init is None:
            return SubzeroState(self.g)
        g = self.g
        s = SubzeroState(g)
        s.turn = init.turn
        s.pos = list(init.pos)
        for p, sq in enumerate(init.pos):
            if sq >= 0:
                s.at[sq] = p
        s.balls = list(init.balls)
        s.boards = [list(b) for b in init.boards]
        s.supply = [g.hit_tokens - sum(b[sh] for b in init.boards) for sh in range(s.n)]
        s.damage = [sum(b) for b in init.boards]
        s.out = list(init.out)
        s.hands = [list(h) for h in init.hands]
        s.programs = list(init.programs)
        s.pile = list(init.pile)
        s.pile_total = sum(init.pile)
        s.discards = list(init.discards)
        s.discard_total = sum(init.discards)
        s.start = s.youngest = init.start
        s._set_order()
        s.phase = init.phase
        if s.phase == DEAL:
            s.queue = [p for p in s.order if len(s.hands[p]) < g.hand_size]
        s.init = init
        check_end_at_setup(s)
        return s

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.turn, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.init,
            tuple(self._history),
            self.phase,
            self.turn,
            tuple(self.pos),
            tuple(self.at),
            tuple(self.balls),
            tuple(map(tuple, self.boards)),
            tuple(self.supply),
            tuple(self.damage),
            tuple(self.ducking),
            tuple(self.out),
            tuple(map(tuple, self.hands)),
            tuple(self.programs),
            tuple(self.pile),
            tuple(self.discards),
            self.reshuffles,
            self.start,
            self.youngest,
            self.order,
            tuple(self.queue),
            self.slot,
            self.rpos,
            tuple(self.step_reveals),
            tuple(self.last_reveals),
            tuple(self.last_hits),
            tuple(self.last_moves),
            self.last_step,
            tuple(self.last_shots),
            tuple(self.last_programs),
            self.winners,
        )

    def __repr__(self) -> str:
        return (
            f"<SubzeroState turn {self.turn} {PHASE_NAMES[self.phase]} step {self.slot + 1} "
            f"damage {self.damage}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random, max_turns: int = 100_000) -> None:
        """Play to the end with random legal actions, fast (`random_play.play_random`)."""
        random_play.play_random(self, rng, max_turns)

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> int:
        """A search player's playout, fast (`random_play.playout`): the same game as
        `rules_engine.core.generic_playout`; returns the actions applied."""
        return random_play.playout(self, rng, max_steps)

    # --- the hot path of a playout ----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """`StateBase.apply`, with a shortcut for the most frequent actions: a reveal among
        the ones the engine lists for the player's card, position and snowballs (or, for a
        combined card played whole, one of its moves with one of its shots), and a
        plainly legal draw (`end_of_turn.plain_draw`).  Such an action passes every check
        of `_check`, so it is recorded and played at once; anything else (an illegal action
        included) goes the checked way, which names the rule."""
        phase = self.phase
        cls = action.__class__
        if phase == REVEAL:
            if cls is Reveal:
                p = self.order[self.rpos]
                if action.player == p:  # type: ignore[union-attr]
                    kind = self.programs[p][self.slot]
                    listed, moves, shots = self.g.reveal_choices(
                        p, kind, self.pos[p], self.balls[p]
                    )
                    if (
                        action in listed
                        if listed
                        else (
                            (action.move, action.turn) in moves  # type: ignore[union-attr]
                            and action.shots in shots  # type: ignore[union-attr]
                            and action.card == self.g.card_ids[kind]  # type: ignore[union-attr]
                            and not action.roll  # type: ignore[union-attr]
                            and not action.swish  # type: ignore[union-attr]
                        )
                    ):
                        self._history.append(action)
                        reveal_card(self, action)  # type: ignore[arg-type]
                        return
        elif phase == DEAL and cls is Draw and plain_draw(self, action):  # type: ignore[arg-type]
            self._history.append(action)
            draw_cards(self, action)  # type: ignore[arg-type]
            return
        super().apply(action)

    def apply_joint(self, actions: Sequence[Action]) -> None:
        """`StateBase.apply_joint`, with a shortcut for a programming where every player's
        program is one the engine lists for their hand (`Subzero.programs_of`): recorded
        and played at once.  Anything else goes the checked way, which names the rule."""
        if self.phase == PROGRAM:
            seats = self.order_seats()
            if len(seats) > 1 and len(actions) == len(seats):
                hand_programs = self.g.hand_programs
                hands = self.hands
                try:
                    legal = all(
                        a.__class__ is Program
                        and a.player == p
                        and a.cards in hand_programs(tuple(sorted(hands[p])))[1]
                        for p, a in zip(seats, actions, strict=True)
                    )
                except TypeError:  # unhashable: not one of the listed programs
                    legal = False
                if legal:
                    self._history.append(JointAction(actions))
                    for a in actions:
                        program_cards(self, a)  # type: ignore[arg-type]
                    return
        super().apply_joint(actions)

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalActionError("game-end", "the game is over")
        if isinstance(action, Reveal):
            check_reveal(self, player, action)
        elif isinstance(action, Program):
            check_program(self, player, action)
        elif isinstance(action, Draw):
            check_draw(self, action)
        elif isinstance(action, Reshuffle):
            check_reshuffle(self)
        elif isinstance(action, Place):
            check_place(self, player, action)
        elif isinstance(action, Youngest):
            check_youngest(self, action)
        else:
            raise IllegalActionError("reveal", f"not a S.U.B.Z.E.R.O. action: {action!r}")

    def _now(self) -> str:
        g = self.g
        phase = self.phase
        if phase == REVEAL:
            return f"step {self.slot + 1}: {g.names[self.order[self.rpos]]} reveals"
        if phase == PROGRAM:
            return "the players are programming their cards"
        if phase == DEAL:
            return "cards are being drawn"
        if phase == PLACE:
            return "the pawns are being placed"
        if phase == YOUNGEST:
            return "the youngest player is not known yet"
        return "the game is over"

    # --- playing an action (the rules are in the phase modules) ---------------------------

    def _set_order(self) -> None:
        """Reveal order of this turn: clockwise from the start player, players still in."""
        rotation = self.g.rotations[self.start % self.n]
        out = self.out
        self.order = tuple([p for p in rotation if p not in out]) if out else rotation

    def _do(self, action: Action) -> None:
        t = type(action)
        if t is Reveal:
            reveal_card(self, action)  # type: ignore[arg-type]
        elif t is Program:
            program_cards(self, action)  # type: ignore[arg-type]
        elif t is Draw:
            draw_cards(self, action)  # type: ignore[arg-type]
        elif t is Reshuffle:
            reshuffle(self)
        elif t is Place:
            place_pawn(self, action)  # type: ignore[arg-type]
        else:
            choose_youngest(self, action.player)  # type: ignore[union-attr]

    # --- what a player could hit now ----------------------------------------------------------

    def targets(self) -> dict[int, int]:
        """Who a ball thrown now would hit, by direction (`resolution.targets`)."""
        return resolution.targets(self)

    # --- information ----------------------------------------------------------------------------

    def zones(self) -> dict[str, list[int]]:
        """How many cards of each kind are in each place (for conservation checks)."""
        k = len(self.g.cards)
        held = [0] * k
        for p in range(self.n):
            for c in (*self.hands[p], *self.programs[p]):
                held[c] += 1
        # programmed cards that were revealed are counted once (they stay in the program)
        return {"pile": list(self.pile), "discards": list(self.discards), "players": held}

    def revealed_cards(self, player: int) -> tuple[int, ...]:
        """The cards `player` has turned up this turn (they stay on the board until the end
        of the turn)."""
        if self.phase != REVEAL:
            return ()
        done = self.slot + (1 if any(r.player == player for r in self.step_reveals) else 0)
        return self.programs[player][:done]

    def player_view(self, player: int) -> SubzeroView:
        g = self.g
        n = self.n
        names = g.names
        history = self._history
        log = self.seen[player]
        if len(log) != len(history):
            done = len(log) if len(log) < len(history) else 0
            log = log[:done] + tuple(_seen(g, step, player) for step in history[done:])
            self.seen[player] = log
        return SubzeroView(
            player=names[player],
            phase=PHASE_NAMES[self.phase],
            turn=self.turn,
            slot=self.slot + 1 if self.phase == REVEAL else 0,
            start=names[self.start] if self.start >= 0 else None,
            to_act=tuple(g.player_name(p) for p in self.current_players()),
            positions=tuple(self.pos),
            snowballs=tuple(self.balls),
            boards=tuple(map(tuple, self.boards)),
            ducking=tuple(self.ducking),
            out=tuple(self.out),
            hand=tuple(g.card_ids[k] for k in self.hands[player]),
            program=tuple(g.card_ids[k] for k in self.programs[player]),
            hand_sizes=tuple(len(self.hands[p]) for p in range(n)),
            program_sizes=tuple(len(self.programs[p]) for p in range(n)),
            revealed=tuple(tuple(g.card_ids[k] for k in self.revealed_cards(p)) for p in range(n)),
            draw_pile=self.pile_total,
            discards=self.discard_total,
            reshuffles=self.reshuffles,
            winners=self.winners,
            log=log,
        )


def _program_cards(player: int, action: object) -> tuple[str, ...] | None:
    """The cards of `player`'s program (None: not a program of theirs): how a listing of
    `SubzeroState.legal_actions` finds an action among the programs of a hand."""
    return tuple(action.cards) if isinstance(action, Program) and action.player == player else None


def _seen(g: Subzero, step: Step[Action], player: int) -> str:
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player) for a in step)
    if isinstance(step, Program) and step.player != player:
        return f"{g.names[step.player]} program " + " ".join("?" * len(step.cards))
    if isinstance(step, Draw) and step.player != player:
        return f"draw {g.names[step.player]} " + " ".join("?" * len(step.cards))
    return g.format_action(step)  # type: ignore[arg-type]
