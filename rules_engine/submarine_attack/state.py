"""The state of a game of Submarine Attack: its data, the protocol, and what each player sees.

`SubmarineAttackState` holds the position (round, scores, who goes first, each player's
placed and spare cards, sunk columns, the attack under way) and answers the protocol of
`rules_engine.core.State`: who acts, the legal actions, cloning, equality and the views.
The rules that move it on live in the modules named for the rulebook's chapters, and
`_check` and `_do` hand each action to the phase it belongs to: who goes first to
`first_player`, laying out the cards to `placement`, dice and targets to `torpedoes` (which hand
the round on to `attacks`, `round_end` and `game_end`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from rules_engine.core import (
    CHANCE,
    IllegalActionError,
    JointAction,
    Mapped,
    Product,
    StateBase,
    Step,
)
from rules_engine.submarine_attack import first_player, kernel, placement, torpedoes
from rules_engine.submarine_attack.actions import (
    OVER,
    PHASE_NAMES,
    PLACE,
    ROLL,
    START,
    TARGET,
    Action,
    Place,
    Roll,
    Start,
    Target,
    roll_dice,
)
from rules_engine.submarine_attack.round_end import RoundResult, afloat

if TYPE_CHECKING:
    from rules_engine.submarine_attack.engine import SubmarineAttack


@dataclass(frozen=True)
class SubmarineView:
    """What one player can know.  Opponents' face-down cards appear nowhere."""

    player: str
    round: int
    scores: tuple[int, ...]
    first: str | None
    phase: str
    slot: int
    to_move: tuple[str, ...]
    own_ships: tuple[int, ...]
    own_spare_ships: tuple[int, ...]
    own_cards: tuple[str, ...]
    own_spare_cards: tuple[str, ...]
    sunk: tuple[tuple[tuple[int, int], ...], ...]  # per player: (column, ships) face up
    revealed: tuple[tuple[str, ...], ...]  # per player: action cards turned up so far
    dice: int
    last_roll: tuple[int, ...]
    choices: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    log: tuple[str, ...]


class SubmarineAttackState(StateBase[Action, "SubmarineAttack"]):
    """A position of Submarine Attack (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "3"
    JOINT_RULE = "2"
    JOINT_NEEDED = "all {n} players place at the same time: give a joint action"

    __slots__ = (
        "_attacks",
        "_log",
        "_packed",
        "_results",
        "_steps",
        "attacker",
        "dice",
        "first",
        "g",
        "init",
        "last_roll",
        "last_sunk",
        "n",
        "order",
        "pending",
        "pending_pairs",
        "phase",
        "round",
        "scores",
        "ships",
        "slot",
        "slots",
        "spare_cards",
        "spare_ships",
        "start_candidates",
        "sunk",
        "sunk_ships",
        "turn",
        "winners",
    )

    def __init__(
        self,
        engine: SubmarineAttack,
        round: int = 1,
        scores: tuple[int, ...] | None = None,
        first: int | None = None,
    ) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self.init = (round, scores or (0,) * n, first)
        # The history and the rounds' results as `_history` and `results` give them; a
        # playout (`kernel.playout`) leaves in them what it played packed, made into steps
        # and results when they are first read (`_packed`: some are).
        self._steps: list[Step[Action] | kernel.Packed] = []
        self._results: list[RoundResult | kernel.PackedRound] = []
        self._packed = False
        # The history as the players see it, one entry per step (a text everyone sees alike,
        # or for a placement one text per player), filled in by `player_view` as it grows.
        self._log: tuple[str | tuple[str, ...], ...] = ()
        self.round = round
        self.scores = list(scores or (0,) * n)
        self.winners: tuple[int, ...] = ()
        self.last_roll: tuple[int, ...] = ()
        self.last_sunk: list[int] = []
        self.pending: list[tuple[int, int, tuple[int, ...]]] = []
        self.pending_pairs: tuple[int, ...] = ()
        self.dice = 0
        self.attacker = 0
        self.slot = 0
        self.turn = 0
        self._clear_round()
        if first is None:
            self.first = -1
            self.order: tuple[int, ...] = ()
            self.start_candidates: tuple[int, ...] = tuple(range(n))
            self.phase = START
        else:
            first_player.set_first(self, first)

    @property
    def _history(self) -> list[Step[Action]]:
        """The steps played, in order (`StateBase`'s), a playout's packed ones made."""
        if self._packed:
            kernel.unpack(self)
        return cast("list[Step[Action]]", self._steps)

    @_history.setter
    def _history(self, steps: list[Step[Action]]) -> None:
        if self._packed:
            kernel.unpack(self)  # (the results may still be packed)
        self._steps = cast("list[Step[Action] | kernel.Packed]", steps)

    @property
    def attacks(self) -> list[tuple[int, int, str, int]]:
        """The round's attacks so far (`attacks.advance`), a playout's made when read (it
        leaves their number: `attacks.made_attacks`)."""
        if self._packed:
            kernel.unpack(self)
        return cast("list[tuple[int, int, str, int]]", self._attacks)

    @attacks.setter
    def attacks(self, attacks: list[tuple[int, int, str, int]]) -> None:
        self._attacks: list[tuple[int, int, str, int]] | int = attacks

    @property
    def results(self) -> list[RoundResult]:
        """Each finished round's `RoundResult`, in order, a playout's packed ones made."""
        if self._packed:
            kernel.unpack(self)
        return cast("list[RoundResult]", self._results)

    @results.setter
    def results(self, results: list[RoundResult]) -> None:
        if self._packed:
            kernel.unpack(self)  # (the steps may still be packed)
        self._results = cast("list[RoundResult | kernel.PackedRound]", results)

    def _clear_round(self) -> None:
        n = self.n
        self.ships: list[tuple[int, ...]] = [()] * n
        self.slots: list[tuple[str, ...]] = [()] * n
        self.spare_ships: list[tuple[int, ...]] = [self.g.ships_hand] * n
        self.spare_cards: list[tuple[str, ...]] = [self.g.cards_hand] * n
        self.sunk: list[int] = [0] * n  # per player: bit c set = column c + 1 sunk
        self.sunk_ships = [0] * n
        self._attacks = []

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (ROLL, START):
            return (CHANCE,)
        if phase == TARGET:
            return (self.attacker,)
        if phase == PLACE:
            return tuple(range(self.n))
        return ()

    def legal_actions(self, player: int) -> Sequence[Action]:
        phase = self.phase
        g = self.g
        if phase == START and player == CHANCE:
            return [Start(p) for p in self.start_candidates]
        if phase == ROLL and player == CHANCE:
            return Mapped(
                Product(*[g.face_list] * self.dice),
                Roll,
                lambda a: a.dice if isinstance(a, Roll) else None,
            )
        if phase == TARGET and player == self.attacker:
            return list(g.targets(player, self.pending[0][2]))
        if phase == PLACE and 0 <= player < self.n:
            return g.placements[player]  # the same every round: made once
        return []

    def sample_action(self, player: int, rng: random.Random) -> Action:
        phase = self.phase
        g = self.g
        if phase == ROLL and player == CHANCE:
            return Roll(roll_dice(rng.random, g.faces, self.dice, g.dice_per_draw))
        if phase == TARGET and player == self.attacker:
            choices = self.pending[0][2]
            return Target(player, choices[int(rng.random() * len(choices))])
        if phase == PLACE and 0 <= player < self.n:
            return Place(
                player,
                tuple(rng.sample(g.ships_hand, g.transports_placed)),
                tuple(rng.sample(g.cards_hand, g.actions_placed)),
            )
        if phase == START and player == CHANCE:
            c = self.start_candidates
            return Start(c[int(rng.random() * len(c))])
        raise IllegalActionError("2", f"{self.g.player_name(player)} has nothing to do now")

    def clone(self) -> SubmarineAttackState:
        new = SubmarineAttackState.__new__(SubmarineAttackState)
        new.g = self.g
        new.n = self.n
        new.init = self.init
        new._steps = list(self._steps)
        new._packed = self._packed
        new._log = self._log  # a tuple: a clone extends its own
        new.round = self.round
        new.scores = list(self.scores)
        new._results = self._results  # copied on write (see round_end.end_round)
        new.winners = self.winners
        new.last_roll = self.last_roll
        new.last_sunk = list(self.last_sunk)
        new.pending = list(self.pending)
        new.pending_pairs = self.pending_pairs
        new.dice = self.dice
        new.attacker = self.attacker
        new.slot = self.slot
        new.turn = self.turn
        new.ships = self.ships  # copied on write (see placement.place)
        new.slots = self.slots
        new.spare_ships = self.spare_ships
        new.spare_cards = self.spare_cards
        new.sunk = list(self.sunk)
        new.sunk_ships = list(self.sunk_ships)
        attacks = self._attacks
        new._attacks = attacks if isinstance(attacks, int) else list(attacks)
        new.first = self.first
        new.order = self.order
        new.start_candidates = self.start_candidates
        new.phase = self.phase
        return new

    def resample(self, player: int, rng: random.Random) -> SubmarineAttackState:
        """A state `player` cannot tell from this one, everything hidden from them drawn anew.

        Hidden are only this round's face-down cards of the other players (earlier rounds
        are face up in `results`): for each other player, their transports in unsunk
        columns and the two they set aside, and their action cards in the slots not yet
        turned over and the ones they set aside.  Each is dealt afresh from the cards the
        view leaves unaccounted for (the hand less what is face up, in the hand's sorted
        order, then shuffled): every placement consistent with the view is as likely as a
        random player's.  The round's joint `Place` in the history is rewritten to match,
        so the result replays from `initial()`.  Depends only on `view(player)` and `rng`.
        """
        new = self.clone()
        if self.phase not in (ROLL, TARGET):
            return new  # nothing is face down: between rounds, or while placing
        g = self.g
        upto = self.slot + 1
        history = new._history
        j = len(history) - 1
        while not isinstance(history[j], JointAction):
            j -= 1
        places = list(history[j])
        ships = list(self.ships)
        slots = list(self.slots)
        spare_ships = list(self.spare_ships)
        spare_cards = list(self.spare_cards)
        shuffle = rng.shuffle
        for q in range(self.n):
            if q == player:
                continue
            sunk = self.sunk[q]
            placed = list(ships[q])
            pool = list(g.ships_hand)
            hidden = []
            for c, s in enumerate(placed):
                if sunk >> c & 1:
                    pool.remove(s)
                else:
                    hidden.append(c)
            shuffle(pool)
            for i, c in enumerate(hidden):
                placed[c] = pool[i]
            ships[q] = tuple(placed)
            spare_ships[q] = tuple(sorted(pool[len(hidden) :]))
            cards = list(slots[q][:upto])
            deck = list(g.cards_hand)
            for code in cards:
                deck.remove(code)
            shuffle(deck)
            rest = g.actions_placed - upto
            slots[q] = (*cards, *deck[:rest])
            spare_cards[q] = tuple(sorted(deck[rest:], key=g._card_order))
            places[q] = Place(q, ships[q], slots[q])
        history[j] = JointAction(places)
        new._log = self._log[:j]
        new.ships = ships
        new.slots = slots
        new.spare_ships = spare_ships
        new.spare_cards = spare_cards
        return new

    def initial(self) -> SubmarineAttackState:
        rnd, scores, first = self.init
        return SubmarineAttackState(self.g, rnd, scores, first)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.round, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        return (
            *self._rules_key(),
            self.init,
            tuple(self._history),
            self.round,
            tuple(self.scores),
            tuple(self.results),
            self.winners,
            self.phase,
            self.first,
            self.start_candidates,
            tuple(self.ships),
            tuple(self.slots),
            tuple(self.spare_ships),
            tuple(self.spare_cards),
            tuple(self.sunk),
            tuple(self.sunk_ships),
            tuple(self.attacks),
            self.slot,
            self.turn,
            self.attacker,
            self.dice,
            self.last_roll,
            tuple(self.last_sunk),
            tuple(self.pending),
            self.pending_pairs,
        )

    def __repr__(self) -> str:
        return (
            f"<SubmarineAttackState v{self.g.version} round {self.round} "
            f"{PHASE_NAMES[self.phase]} slot {self.slot + 1} scores {self.scores}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions (the same as `core.play_random`, faster:
        actions are drawn legal, so they skip the legality check; history is still kept)."""
        g = self.g
        rnd = rng.random
        sample = rng.sample
        faces = g.faces
        per_draw = g.dice_per_draw
        history = self._history
        while True:
            phase = self.phase
            if phase == ROLL:
                dice = roll_dice(rnd, faces, self.dice, per_draw)
                history.append(Roll(dice))
                torpedoes.roll(self, dice)
            elif phase == TARGET:
                choices = self.pending[0][2]
                target = Target(self.attacker, choices[int(rnd() * len(choices))])
                history.append(target)
                torpedoes.target(self, target.column)
            elif phase == PLACE:
                places = JointAction(
                    Place(
                        p,
                        tuple(sample(g.ships_hand, g.transports_placed)),
                        tuple(sample(g.cards_hand, g.actions_placed)),
                    )
                    for p in range(self.n)
                )
                history.append(places)
                for place in places:
                    placement.place(self, place)
            elif phase == START:
                c = self.start_candidates
                start = Start(c[int(rnd() * len(c))])
                history.append(start)
                first_player.start(self, start.player)
            else:
                return

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> int:
        """Play on as a search player's playout does (`rules_engine.core.generic_playout`:
        legal actions generated, one taken by `rng.choice`, chance by `sample_action`) for
        at most `max_steps` steps, and return the number of actions applied: the same game
        from the same generator, played by `kernel.playout` without the protocol's dispatch
        and the checks of actions drawn legal."""
        return kernel.playout(self, rng, max_steps)

    # --- the hot path of a playout ----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """`StateBase.apply`, with a shortcut for the actions of every attack: a roll of the
        dice due now, the attacker's pick among the columns offered.  Such an action
        passes every check of `_check`, so it is recorded and played at once; anything
        else (an illegal action included) goes the checked way, which names the rule."""
        phase = self.phase
        cls = action.__class__
        if phase == ROLL:
            if cls is Roll:
                dice = action.dice  # type: ignore[union-attr]
                if len(dice) == self.dice and self.g.face_set.issuperset(dice):
                    self._steps.append(action)
                    torpedoes.roll(self, dice)
                    return
        elif (
            phase == TARGET
            and cls is Target
            and action.player == self.attacker  # type: ignore[union-attr]
            and action.column in self.pending[0][2]  # type: ignore[union-attr]
        ):
            self._steps.append(action)
            torpedoes.target(self, action.column)  # type: ignore[union-attr]
            return
        super().apply(action)

    def apply_joint(self, actions: Sequence[Action]) -> None:
        """`StateBase.apply_joint`, with a shortcut for the placements of a round: when each
        player lays out their own cards, the right number, from their hand (the sets aside
        found as a by-product), they are recorded and played at once; anything else goes
        the checked way, which names the rule."""
        if self.phase == PLACE and len(actions) == self.n:
            places = placement.plain_places(self, actions)
            if places is not None:
                self._steps.append(JointAction(actions))
                for place, ships, cards in places:
                    placement.place(self, place, ships, cards)
                return
        super().apply_joint(actions)

    def _record(self, action: Action) -> None:
        self._steps.append(action)  # (packed steps or not: the order is the history's)

    # --- checking (each action by the rules of its phase) -----------------------------------

    def _check(self, player: int, action: Action) -> None:
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("3", "the game is over")
        if isinstance(action, Roll):
            torpedoes.check_roll(self, action)
            return
        if isinstance(action, Target):
            torpedoes.check_target(self, player, action)
            return
        if isinstance(action, Place):
            placement.check_place(self, player, action)
            return
        if isinstance(action, Start):
            first_player.check_start(self, action)
            return
        raise IllegalActionError("2", f"not a Submarine Attack action: {action!r}")

    def _now(self) -> str:
        phase = self.phase
        if phase == PLACE:
            return "the players are placing their cards"
        if phase == START:
            return "the first player is being decided"
        if phase == ROLL:
            return f"slot {self.slot + 1}: {self.g.names[self.attacker]} rolls"
        if phase == TARGET:
            return f"slot {self.slot + 1}: {self.g.names[self.attacker]} chooses a column"
        return "the game is over"

    # --- rules ------------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        if isinstance(action, Roll):
            torpedoes.roll(self, action.dice)
        elif isinstance(action, Target):
            torpedoes.target(self, action.column)
        elif isinstance(action, Place):
            placement.place(self, action)
        else:
            first_player.start(self, action.player)

    # --- information ----------------------------------------------------------------------------

    def zones(self, player: int) -> dict[str, tuple[Any, ...]]:
        """Where each of a player's cards is: placed (columns/slots) or set aside."""
        return {
            "ships": self.ships[player],
            "spare_ships": self.spare_ships[player],
            "cards": self.slots[player],
            "spare_cards": self.spare_cards[player],
        }

    def survivors(self, player: int) -> tuple[int, ...]:
        return afloat(self.ships[player], self.sunk[player])

    def revealed_upto(self) -> int:
        """How many slots are face up now."""
        return self.slot + 1 if self.phase in (ROLL, TARGET) else 0

    def player_view(self, player: int) -> SubmarineView:
        g = self.g
        n = self.n
        upto = self.revealed_upto()
        history = self._history
        texts = self._log
        if len(texts) < len(history):
            texts += tuple(
                tuple(_seen(g, step, p) for p in range(n))
                if isinstance(step, JointAction | Place)
                else _seen(g, step, player)  # the same for every player
                for step in history[len(texts) :]
            )
            self._log = texts
        log = [text if isinstance(text, str) else text[player] for text in texts]
        return SubmarineView(
            player=g.names[player],
            round=self.round,
            scores=tuple(self.scores),
            first=g.names[self.first] if self.first >= 0 else None,
            phase=PHASE_NAMES[self.phase],
            slot=upto,
            to_move=tuple(g.player_name(p) for p in self.current_players()),
            own_ships=self.ships[player],
            own_spare_ships=self.spare_ships[player],
            own_cards=self.slots[player],
            own_spare_cards=self.spare_cards[player],
            sunk=tuple(
                tuple((c + 1, self.ships[p][c]) for c in range(g.columns) if self.sunk[p] >> c & 1)
                for p in range(n)
            ),
            revealed=tuple(self.slots[p][:upto] for p in range(n)),
            dice=self.dice if self.phase == ROLL else 0,
            last_roll=self.last_roll,
            choices=self.pending[0][2] if self.phase == TARGET else (),
            rounds=tuple(self.results),
            log=tuple(log),
        )


def _seen(g: SubmarineAttack, step: Step[Action], player: int) -> str:
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player) for a in step)
    if isinstance(step, Place) and step.player != player:
        return f"{g.names[step.player]} place ?"
    return g.format_action(step)  # type: ignore[arg-type]
