"""The state of a game of KILL SHOT: its data set up (the terrorists hunted, captured, escaped
and left; the hunt piles; the hands, decks and discards; the clock and everyone's next
reaction time; whose turn it is; the discards and draws owed: declared in `base.py`),
cloning, what each player can know, and the protocol of `rules_engine.core.State`.

The rules that move a state on live in the rooms of the rulebook's chapters, each a mixin of
`KillShotState` (`setup.py`, `hunt.py`, `reload.py`, `special_cards.py`, `terrorists.py`,
`scoring.py`, `endings.py`, `situation_room.py`); `_do` hands each action to them by phase.
Chance's outcomes are in `chance.py`, the legal actions in `legal_actions.py`, why an action
is illegal in `checks.py`, the simulated players in `simulated_players.py`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine.core import CHANCE, EVENTS, IllegalActionError, JointAction, Step
from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Discard,
    Draw,
    First,
    Go,
    Order,
    Pass,
    Pick,
    Play,
    React,
    Reload,
    Reveal,
    Taliban,
)
from rules_engine.kill_shot.chance import Chance
from rules_engine.kill_shot.checks import Checks
from rules_engine.kill_shot.endings import Endings
from rules_engine.kill_shot.hunt import Hunt
from rules_engine.kill_shot.legal_actions import LegalActions
from rules_engine.kill_shot.phases import (
    AFTER_PLAY,
    CLAIM,
    DISCARD,
    FIRST,
    GO,
    ORDER,
    OVER,
    PHASE_NAMES,
    PICK,
    PLAY,
    REVEAL,
    TALIBAN,
    TURN,
    TURN_START,
)
from rules_engine.kill_shot.playouts import Playouts
from rules_engine.kill_shot.reload import Reloading
from rules_engine.kill_shot.resampling import Resampling
from rules_engine.kill_shot.scoring import HuntResult, Scoring
from rules_engine.kill_shot.setting_up import HuntSetup
from rules_engine.kill_shot.simulated_players import SimulatedPlayers
from rules_engine.kill_shot.situation_room import SituationRoom
from rules_engine.kill_shot.special_cards import SpecialCards
from rules_engine.kill_shot.state_base import KillShotStateBase
from rules_engine.kill_shot.terrorists import TerroristAbilities

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot


@dataclass(frozen=True)
class KillShotView:
    """What one player can know.  Hidden: other hands, the decks' order and content, the
    discards (face down), everyone's coming reaction times, and under Night Mission (or
    before the first "go" without Briefing) the player's own unseen cards."""

    player: str
    game_type: str
    hunt: int
    phase: str
    clock: int
    taliban: str | None
    terrorists: tuple[str, ...]
    open_piles: tuple[bool, ...]
    piles: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...]
    looking: int
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    discard_sizes: tuple[int, ...]
    set_aside: tuple[str, ...]
    removed: tuple[str, ...]
    jammed: tuple[bool, ...]
    turn: str | None
    deciding: tuple[str, ...]
    captured: tuple[tuple[str, ...], ...]
    escaped: tuple[str, ...]
    scores: tuple[int, ...]
    terrorists_left: int
    log: tuple[str, ...]


class KillShotState(
    HuntSetup,
    Hunt,
    Reloading,
    SpecialCards,
    TerroristAbilities,
    Scoring,
    Endings,
    SituationRoom,
    Chance,
    LegalActions,
    Checks,
    SimulatedPlayers,
    Resampling,
    Playouts,
):
    """A position of KILL SHOT (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "game-end"
    JOINT_RULE = "timing"
    JOINT_NEEDED = "{n} players act at the same instant ({names}): give a joint action"

    __slots__ = ()  # the data: `KillShotStateBase.__slots__`

    def __init__(self, engine: KillShot, blank: bool = False) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self._history: list[Step[Action]] = []
        self.init: KillShotState | None = None
        self.phase = TALIBAN
        self.hunt = 0
        self.clock = 0
        self.terr_left: list[int] = list(range(len(g.terrorists)))
        self.pile_terr: list[int] = []
        self.piles: list[list[int]] = []
        self.pile_by: list[list[int]] = []
        self.pile_open: list[bool] = []
        self.pile_kills: list[int] = []
        self.pile_need: list[int] = []
        self.pile_first9: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[bool]] = [[] for _ in range(n)]
        self.looking = [-1] * n
        self.masked: dict[int, tuple[bool, list[Step[Action]]]] = {}
        self.decks: list[list[int]] = [list(c) for c in g.pool_cards]
        self.discards: list[list[int]] = [[] for _ in range(g.pools)]
        self.set_aside: list[int] = []
        self.out = [0] * len(g.codes)
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.escaped: list[int] = []
        self.scores = [0] * n
        self.jammed = [False] * n
        self.drill = [False] * n
        self.ready = [0] * n
        self.pending: list[int] = []
        self.picked_up = False
        self.limits = [g.hand_limit] * n
        self.bonus = [0] * n
        self.taliban = -1
        self.draws: list[list[int]] = []  # [player, cards wanted]
        self.deals = 0
        self.pickers: list[int] = []
        self.pick_sizes = [0] * n
        self.discard_rounds: list[tuple[int, ...]] = []
        self.discard_why: list[str] = []
        self.after_discard = AFTER_PLAY
        self.order_plays: list[Play] = []
        self.claims: list[tuple[int, tuple[int, ...]]] = []
        self.turn = 0
        self.last_actor = 0
        self.next_start = 0
        self.removed: list[int] = []
        self.voided: list[Action] = []
        self.results: list[HuntResult] = []
        self.winners: tuple[int, ...] = ()
        self.halt = False
        self.countdown = False
        self.dirty = False
        self.record_error: str | None = None
        self.recorded = 0
        self.drawn: KillShotState | None = None
        if not blank:
            self.phase = TALIBAN if g.taliban_rule else REVEAL
            self.init = self.clone()

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == OVER:
            return ()
        if self.draws:
            return (CHANCE,)
        if phase == PLAY:
            if self.pending:
                return (CHANCE,)
            return self._actors()
        if phase == TURN:
            return self.g.everyone
        if phase == DISCARD:
            return self.discard_rounds[0]
        if phase == PICK:
            return tuple(self.pickers)
        if phase == TURN_START:
            return ()
        return (CHANCE,)

    def _actors(self) -> tuple[int, ...]:
        r = self.ready
        t = min(r)
        return tuple(p for p in range(self.n) if r[p] == t)

    def legal_actions(self, player: int) -> Sequence[Action]:
        if player not in self.current_players():
            return []
        if player == CHANCE:
            return self._chance_outcomes()
        phase = self.phase
        if phase == PLAY:
            return self._rt_legal(player)
        if phase == TURN:
            if player == self.turn:
                return self._turn_legal(player)
            return [Pass(player), *self._window_specials(player)]
        if phase == DISCARD:
            hand = self.hands[player]
            if self.g.night:
                return [Discard(player, -1, s) for s in range(len(hand))]
            return [Discard(player, c, -1) for c in sorted(set(hand))]
        if phase == PICK:
            rest = sorted(self.decks[player])
            return [
                Pick(player, combo)
                for combo in sorted(set(itertools.combinations(rest, self.pick_sizes[player])))
            ]
        return []

    def is_legal(self, player: int, action: Action) -> bool:
        return player in self.current_players() and super().is_legal(player, action)

    def sample_action(self, player: int, rng: random.Random) -> Action:
        """A random legal action.  Chance: by the outcomes' odds.  A player: the simulated
        player, who picks a kind of action with fixed weights (play, special card, reload,
        wait...), then one action of that kind uniformly (a reload discards each card with
        odds 1/2; a Situation Room play adds another legal card with odds 1/2)."""
        if player not in self.current_players():
            raise IllegalActionError(
                "timing", f"{self.g.player_name(player)} has nothing to do now ({self._now()})"
            )
        return self._sample(player, rng)

    def apply(self, action: Action) -> None:
        """`StateBase.apply`, with chance's steps (two of three in real time: a reaction
        time, a draw) checked without asking who acts: the same checks and errors, the hot
        path of every playout."""
        if self.phase != OVER and (self.draws or (self.phase == PLAY and self.pending)):
            self._check_chance(action)
            self._record(action)
            self._do(action)
            return
        super().apply(action)

    def clone(self) -> KillShotState:
        new = KillShotState.__new__(KillShotState)
        for name in KillShotStateBase.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(x) if isinstance(x, list) else x for x in value]
            setattr(new, name, value)
        new.masked = {}
        return new

    def initial(self) -> KillShotState:
        base = self.init if self.init is not None else self
        new = base.clone()
        new._history = []
        new.init = base
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.hunt, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        def freeze(value: Any) -> Any:
            if isinstance(value, list):
                return tuple(freeze(x) for x in value)
            return value

        skip = {"g", "init", "_history", "drawn", "recorded", "masked"}
        return (
            *self._rules_key(),
            tuple(self._history),
            tuple(freeze(getattr(self, s)) for s in KillShotStateBase.__slots__ if s not in skip),
        )

    def __repr__(self) -> str:
        return (
            f"<KillShotState hunt {self.hunt} {PHASE_NAMES[self.phase]} clock {self.clock} "
            f"scores {self.scores}>"
        )

    # --- applying ---------------------------------------------------------------------------------

    def _do(self, a: Action) -> None:
        self.voided = []
        self.halt = False
        if self.draws:
            assert isinstance(a, Draw)
            self._do_draw(a)
            return
        phase = self.phase
        if phase == PLAY:
            if isinstance(a, React):
                self._react(a)
            else:
                self._rt_joint([a])
        elif phase == GO:
            assert isinstance(a, Go)
            self._go(a)
        elif phase == TURN:
            self._turn_joint([a])
        elif phase == DISCARD:
            self._discards([a])
        elif phase == PICK:
            self._picks([a])
        elif phase == REVEAL:
            assert isinstance(a, Reveal)
            self._reveal(a.terrorists)
        elif phase == ORDER:
            assert isinstance(a, Order)
            self._order(a.players)
        elif phase == CLAIM:
            assert isinstance(a, Claim)
            self._claim(a.player)
        elif phase == FIRST:
            assert isinstance(a, First)
            if EVENTS.on:
                EVENTS.emit("situation-room", "first", player=self.g.names[a.player])
            self._goto_turn(a.player)
        elif phase == TALIBAN:
            assert isinstance(a, Taliban)
            if EVENTS.on:
                EVENTS.emit("taliban", "taliban", player=self.g.names[a.player])
            self.taliban = a.player
            self.phase = REVEAL

    def _do_joint(self, actions: Sequence[Action]) -> None:
        self.voided = []
        self.halt = False
        phase = self.phase
        if phase == PLAY:
            self._rt_joint(actions)
        elif phase == TURN:
            self._turn_joint(actions)
        elif phase == DISCARD:
            self._discards(actions)
        elif phase == PICK:
            self._picks(actions)
        else:
            raise IllegalActionError("timing", f"no simultaneous step now ({self._now()})")

    # --- information -----------------------------------------------------------------------------

    def hand_visible(self, player: int) -> bool:
        """Whether the player may look at their own hand (Night Mission aside)."""
        g = self.g
        return g.turn_based or g.briefing or self.picked_up

    def own_hand(self, player: int) -> tuple[str, ...]:
        g = self.g
        hand = self.hands[player]
        if g.blind:
            return tuple(g.codes[c] if self.known[player][i] else "?" for i, c in enumerate(hand))
        if not self.hand_visible(player):
            return ("?",) * len(hand)
        return tuple(g.codes[c] for c in hand)

    def player_view(self, player: int) -> KillShotView:
        g = self.g
        names = g.names
        deciding = self.current_players() if self.phase != PLAY else ()
        return KillShotView(
            player=names[player],
            game_type=g.game_type,
            hunt=self.hunt,
            phase=PHASE_NAMES[self.phase],
            clock=self.clock,
            taliban=names[self.taliban] if self.taliban >= 0 else None,
            terrorists=tuple(g.terrorists[t].id for t in self.pile_terr),
            open_piles=tuple(self.pile_open),
            piles=tuple(
                tuple(f"{g.codes[c]}:{names[q]}" for c, q in zip(pile, by, strict=True))
                for pile, by in zip(self.piles, self.pile_by, strict=True)
            ),
            hand=self.own_hand(player),
            looking=self.looking[player],
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_sizes=tuple(len(d) for d in self.decks),
            discard_sizes=tuple(len(d) for d in self.discards),
            set_aside=tuple(g.codes[c] for c in self.set_aside),
            removed=tuple(g.codes[c] for c in self.removed),
            jammed=tuple(self.jammed),
            turn=names[self.turn] if g.turn_based else None,
            deciding=tuple(g.player_name(p) for p in deciding),
            captured=tuple(tuple(g.terrorists[t].id for t in c) for c in self.captured),
            escaped=tuple(g.terrorists[t].id for t in self.escaped),
            scores=tuple(self.scores),
            terrorists_left=len(self.terr_left),
            log=tuple(_seen(g, step, player, self.hand_visible(player)) for step in self._history),
        )


def _seen(g: KillShot, step: Step[Action], player: int, own_visible: bool) -> str:
    """A history entry as `player` saw it: hidden cards and coming reaction times masked."""
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player, own_visible) for a in step)
    a: Any = step
    name = g.names
    if isinstance(a, Draw):
        if a.player == player and own_visible and not g.blind:
            return g.format_action(a)
        return f"draw {name[a.player]} {len(a.cards)} card(s)"
    if isinstance(a, Reload | Discard | Pick) and a.player != player:
        return f"{name[a.player]} {type(a).__name__.lower()} (face down)"
    if isinstance(a, Go):
        return "go"
    if isinstance(a, React):
        return "react " + " ".join(name[p] for p in a.players)
    return g.format_action(a)
