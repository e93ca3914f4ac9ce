"""Players that choose actions: the protocol, what a player may look at, and the driver.

A bot sees a game only through an `InfoSet`: its player's `view`, its legal actions, who
acts now, and `sample(rng)`, a state drawn from everything that player cannot tell apart
(`State.resample`): opponents' hidden cards dealt anew, the deck shuffled anew.  It never
holds the true state, so a search player cannot peek.

Every engine gives, besides `rules_engine.core.State`:

- `state.resample(player, rng)`: a state with the same `view(player)`, whose hidden parts
  are drawn at random (uniformly over what the view allows), and which depends only on
  `view(player)` and `rng` (two states `player` cannot tell apart resample alike);
- `engine.outcome(state)`: an `Outcome` of a finished game (scores, rounds, turns, the first
  player, which cards or actions each player played, the game's own measures);
- optionally `engine.evaluate(state)`: each player's prospects in [-1, 1] at a position that
  is not the end (a search player that stops its playouts early scores them with it);
- a cheap rule-of-thumb player, `Heuristic`, in `rules_engine/<game>/bots.py` where one is
  obvious.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules_engine.core import CHANCE, Engine, State, joint


@dataclass(frozen=True)
class Outcome:
    """What a finished game tells a designer (from `engine.outcome(state)`).

    - `scores`: each player's final score as the game counts it (victory points, depth...);
    - `rounds` and `turns`: as the game counts them (0 when it has none);
    - `first`: the player who went first (the first player of the first round);
    - `played`: per player, each card or kind of action they played and how often
      (`{"torpedo C": 2, "evasion A": 1}`), by names a designer knows;
    - `measures`: the game's own figures of this game (`{"rounds_ended_by_sinking": 0.5}`),
      which claims and the report average over games.
    """

    scores: tuple[float, ...]
    rounds: int = 0
    turns: int = 0
    first: int = 0
    played: tuple[Mapping[str, int], ...] = ()
    measures: Mapping[str, float] = field(default_factory=dict)


class InfoSet:
    """What `player` may use to choose: never the state itself."""

    __slots__ = ("_state", "player")

    def __init__(self, state: State[Any], player: int) -> None:
        self._state = state
        self.player = player

    @property
    def num_players(self) -> int:
        return self._state.num_players

    def view(self) -> Hashable:
        """The player's view (`State.view`)."""
        return self._state.view(self.player)

    def legal_actions(self) -> Sequence[Any]:
        """The player's legal actions now."""
        return self._state.legal_actions(self.player)

    def current_players(self) -> tuple[int, ...]:
        return self._state.current_players()

    def sample(self, rng: random.Random) -> State[Any]:
        """A state the player cannot tell from the true one, hidden parts drawn at random."""
        return self._state.resample(self.player, rng)


class Bot(Protocol):
    """A player: `choose` one legal action for `info.player`."""

    name: str

    def choose(self, info: InfoSet, rng: random.Random) -> Any: ...


class RandomBot:
    """Uniformly random legal actions: the baseline every other player is measured against."""

    name = "random"

    def __init__(self, engine: Engine[Any] | None = None) -> None:
        self.engine = engine

    def choose(self, info: InfoSet, rng: random.Random) -> Any:
        actions = info.legal_actions()
        return actions[int(rng.random() * len(actions))]


BotFactory = Callable[[Engine[Any]], Bot]


class NoEnd(RuntimeError):
    """A game that did not end within the steps allowed (players who block each other for
    ever): `state` is where it stopped, `actions` the players' actions so far."""

    def __init__(self, message: str, state: State[Any], actions: int) -> None:
        super().__init__(message)
        self.state = state
        self.actions = actions


def play(
    engine: Engine[Any],
    bots: Sequence[Bot],
    chance: random.Random,
    choices: Sequence[random.Random],
    state: State[Any] | None = None,
    max_steps: int = 100_000,
) -> State[Any]:
    """Play a game to its end: `bots[p]` chooses for player p with its own `choices[p]`;
    chance draws with `chance` (by the outcomes' odds).  Each player acting in a
    simultaneous step chooses from the position before it."""
    return play_counted(engine, bots, chance, choices, state, max_steps)[0]


def play_counted(
    engine: Engine[Any],
    bots: Sequence[Bot],
    chance: random.Random,
    choices: Sequence[random.Random],
    state: State[Any] | None = None,
    max_steps: int = 100_000,
) -> tuple[State[Any], int]:
    """`play`, and the number of the players' actions (each of a joint step counted)."""
    state = state if state is not None else engine.new_initial_state()
    steps = actions = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise NoEnd(f"{engine.game_id}: no end after {max_steps} steps", state, actions)
        players = state.current_players()
        if players == (CHANCE,):
            state.apply(state.sample_action(CHANCE, chance))
        elif len(players) == 1:
            p = players[0]
            state.apply(bots[p].choose(InfoSet(state, p), choices[p]))
            actions += 1
        else:
            state.apply_joint(
                joint([bots[p].choose(InfoSet(state, p), choices[p]) for p in players])
            )
            actions += len(players)
        steps += 1
    return state, actions
