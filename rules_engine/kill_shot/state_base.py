"""What every room of a KILL SHOT state counts on: the data a state holds (its slots and their
types; `state.py` sets them up) and the steps the rooms take from one another.

Each room of the rules (`setup.py`, `hunt.py`, `reload.py`...) is a mixin of `KillShotState`
on `KillShotStateBase`; a step one room takes from another is declared here, under the name
of the room that defines it, so that each room reads (and type-checks) on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine.core import StateBase, Step
from rules_engine.kill_shot.actions import Action, Play, React, Reload

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot  # noqa: F401 (the base's engine type)
    from rules_engine.kill_shot.scoring import HuntResult
    from rules_engine.kill_shot.state import KillShotState


class KillShotStateBase(StateBase[Action, "KillShot"]):
    """The data of a KILL SHOT state and the steps its rooms share (see `KillShotState`)."""

    __slots__ = (
        "_history",
        "after_discard",
        "bonus",
        "captured",
        "claims",
        "clock",
        "countdown",
        "deals",
        "decks",
        "dirty",
        "discard_rounds",
        "discard_why",
        "discards",
        "drawn",
        "draws",
        "drill",
        "escaped",
        "g",
        "halt",
        "hands",
        "hunt",
        "init",
        "jammed",
        "known",
        "last_actor",
        "limits",
        "looking",
        "masked",
        "n",
        "next_start",
        "order_plays",
        "out",
        "pending",
        "phase",
        "pick_sizes",
        "picked_up",
        "pickers",
        "pile_by",
        "pile_first9",
        "pile_kills",
        "pile_need",
        "pile_open",
        "pile_terr",
        "piles",
        "ready",
        "record_error",
        "recorded",
        "removed",
        "results",
        "scores",
        "set_aside",
        "taliban",
        "terr_left",
        "turn",
        "voided",
        "winners",
    )

    init: KillShotState | None
    phase: int
    hunt: int
    clock: int
    terr_left: list[int]
    pile_terr: list[int]
    piles: list[list[int]]
    pile_by: list[list[int]]
    pile_open: list[bool]
    pile_kills: list[int]
    pile_need: list[int]
    pile_first9: list[int]
    hands: list[list[int]]
    known: list[list[bool]]
    looking: list[int]
    # per player: whether their own draws were visible, and the history as they saw it
    # (`resampling.py`; reset by `clone`, never part of a state's equality)
    masked: dict[int, tuple[bool, list[Step[Action]]]]
    decks: list[list[int]]
    discards: list[list[int]]
    set_aside: list[int]
    out: list[int]
    captured: list[list[int]]
    escaped: list[int]
    scores: list[int]
    jammed: list[bool]
    drill: list[bool]
    ready: list[int]
    pending: list[int]
    picked_up: bool
    limits: list[int]
    bonus: list[int]
    taliban: int
    draws: list[list[int]]  # [player, cards wanted]
    deals: int  # how many of the draws (the first ones) deal a hunt's hands
    pickers: list[int]
    pick_sizes: list[int]
    discard_rounds: list[tuple[int, ...]]
    discard_why: list[str]  # the clause that demands each discard round
    after_discard: int
    order_plays: list[Play]
    claims: list[tuple[int, tuple[int, ...]]]
    turn: int
    last_actor: int
    next_start: int
    removed: list[int]
    voided: list[Action]
    results: list[HuntResult]
    halt: bool
    countdown: bool
    dirty: bool
    record_error: str | None
    recorded: int  # how many history entries a setup's recorded hunt made (diagrams)
    drawn: KillShotState | None  # the state when last drawn for the rulebook (diagrams)

    # --- the steps the rooms take from one another ---------------------------------------------

    # state.py

    def _actors(self) -> tuple[int, ...]:
        raise NotImplementedError

    def clone(self) -> KillShotState:
        raise NotImplementedError

    def hand_visible(self, player: int) -> bool:
        raise NotImplementedError

    def legal_actions(self, player: int) -> Sequence[Action]:
        raise NotImplementedError

    # chance.py

    def _sample_chance(self, rng: random.Random) -> Action:
        raise NotImplementedError

    # reload.py

    def _pool(self, player: int) -> int:
        raise NotImplementedError

    def _draw_count(self, entry: list[int]) -> int:
        raise NotImplementedError

    def _prune(self) -> None:
        raise NotImplementedError

    def _take(self, p: int, c: int) -> None:
        raise NotImplementedError

    def _remove_slot(self, p: int, s: int) -> int:
        raise NotImplementedError

    def _discard_card(self, c: int) -> None:
        raise NotImplementedError

    def _reload(self, p: int, a: Reload) -> None:
        raise NotImplementedError

    def _drawable(self, p: int) -> int:
        raise NotImplementedError

    # hunt.py

    def _react(self, a: React) -> None:
        raise NotImplementedError

    def _rt_apply(self, a: Action) -> None:
        raise NotImplementedError

    def _rt_joint(self, actions: Sequence[Action]) -> None:
        raise NotImplementedError

    def _settle(self) -> None:
        raise NotImplementedError

    def _allowed_on(self, cls: int, top: int, kills: int, need: int) -> frozenset[int]:
        raise NotImplementedError

    def _allowed(self, p: int, k: int) -> frozenset[int]:
        raise NotImplementedError

    def _land(self, p: int, c: int, k: int) -> None:
        raise NotImplementedError

    # special_cards.py

    def _bad_intel(self, k: int) -> None:
        raise NotImplementedError

    def _cease_fire(self) -> None:
        raise NotImplementedError

    # terrorists.py

    def _next_round(self, after: int) -> None:
        raise NotImplementedError

    def _active(self, ability: str) -> int:
        raise NotImplementedError

    def _lotus(self, p: int) -> None:
        raise NotImplementedError

    # scoring.py

    def _capture(self, k: int, p: int) -> None:
        raise NotImplementedError

    def _close(self, k: int, winner: int, how: str, totals: tuple[int, ...]) -> None:
        raise NotImplementedError

    # endings.py

    def _end_hunt(self) -> None:
        raise NotImplementedError

    def _check_stuck(self) -> bool:
        raise NotImplementedError

    # situation_room.py

    def _goto_turn(self, player: int) -> None:
        raise NotImplementedError

    def _open_turn(self) -> None:
        raise NotImplementedError

    def _window_specials(self, q: int) -> list[Play]:
        raise NotImplementedError

    def _turn_joint(self, actions: Sequence[Action]) -> None:
        raise NotImplementedError

    # checks.py

    def _now(self) -> str:
        raise NotImplementedError

    def _check_rt_play(self, p: int, a: Play) -> None:
        raise NotImplementedError

    # legal_actions.py

    def _reloads(self, p: int, real_time: bool) -> Sequence[Reload]:
        raise NotImplementedError

    def _turn_plays(self, p: int) -> list[Action]:
        raise NotImplementedError

    # simulated_players.py

    def _hunt_plays(self, p: int) -> list[tuple[int, int]]:
        raise NotImplementedError

    def _special_plays(self, p: int) -> list[Play]:
        raise NotImplementedError
