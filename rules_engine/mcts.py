"""A search player for any engine: information-set Monte Carlo tree search.

Each iteration draws a determinisation, a state the player cannot tell from the true one
(`InfoSet.sample`: opponents' hidden cards and the decks dealt anew), and walks one tree
shared by every determinisation (single-observer IS-MCTS, Cowling, Powley and Whitehouse
2012): nodes are sequences of actions from the root; at a player's node the action is
picked by UCB1 among those legal in this determinisation (counting how often each was
available); chance draws its outcome by the odds; players who act at once choose each by
their own statistics (decoupled UCT).  A new node ends the walk; a playout (random, or the
given playout player) runs to the end or `depth` steps, where the engine's `evaluate`
scores the position (0 for everyone if it has none).  For a game with open information
the determinisation is the state itself and this is plain UCT with chance sampling.

A node with many actions (laying out 6 of 8 transports and 8 of 10 cards in order has
about 10^8) widens progressively: it considers one more action each time its visits pass
the next square, and, given a rule-of-thumb player (`prior`), tries that player's choice
first and draws further candidates from its randomised choices rather than at random.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from rules_engine.bots import Bot, InfoSet
from rules_engine.core import CHANCE, Engine, State, joint

Values = tuple[float, ...]
HUGE = 1000
"""A node with more actions than this draws its new candidates from the prior player."""
PRIOR_TRIES = 4
PLAYOUT_STEPS = 100_000  # steps an engine's own playout takes before the loop below goes on


class _Stat:
    __slots__ = ("avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class _Node:
    """A node of the tree: per acting player, each action's statistics; children by the
    step taken (an action, a joint action or a chance outcome)."""

    __slots__ = ("children", "stats", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.stats: dict[int, dict[Any, _Stat]] = {}
        self.children: dict[Any, _Node] = {}

    def child(self, step: Any) -> _Node:
        node = self.children.get(step)
        if node is None:
            node = self.children[step] = _Node()
        return node


class MCTSBot:
    """Information-set MCTS with `iterations` playouts per decision.

    - `exploration`: UCB1's constant (returns lie in [-1, 1]);
    - `depth`: playout steps before the engine's `evaluate` scores the position (None: to
      the end);
    - `playout`: a player for every seat in the playouts (default: uniformly random);
    - `widen`: how many actions a node considers at first (more as its visits grow);
    - `prior`: a player whose choice a node tries first (the game's rule-of-thumb player:
      where there are thousands of actions, the search starts from a sensible one).
    """

    def __init__(
        self,
        engine: Engine[Any],
        iterations: int = 200,
        exploration: float = 1.0,
        depth: int | None = None,
        playout: Bot | None = None,
        widen: int = 8,
        prior: Bot | None = None,
        name: str = "mcts",
    ) -> None:
        if iterations < 1:
            raise ValueError("a search needs at least one playout per decision")
        self.engine = engine
        self.iterations = iterations
        self.exploration = exploration
        self.depth = depth
        self.playout = playout
        self.widen = widen
        self.prior = prior
        self.name = name
        evaluate: Callable[[State[Any]], Values] | None = getattr(engine, "evaluate", None)
        self._evaluate = evaluate

    def choose(self, info: InfoSet, rng: random.Random) -> Any:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = info.player
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(root, info.sample(rng), rng)
        stats = root.stats.get(me, {})
        best: Any = None
        best_key: tuple[int, float] = (-1, -math.inf)
        for action, stat in stats.items():
            key = (stat.visits, stat.total / stat.visits if stat.visits else -math.inf)
            if key > best_key and action in legal:
                best, best_key = action, key
        return best if best is not None else legal[int(rng.random() * len(legal))]

    # --- one iteration ----------------------------------------------------------------------

    def _iterate(self, root: _Node, state: State[Any], rng: random.Random) -> None:
        path: list[tuple[_Node, tuple[int, ...], tuple[Any, ...]]] = []
        node = root
        while not state.is_terminal():
            players = state.current_players()
            if players == (CHANCE,):
                outcome = state.sample_action(CHANCE, rng)
                state.apply(outcome)
                node = node.child(outcome)
                continue
            node.visits += 1
            chosen: list[Any] = []
            new = False
            for p in players:
                action, fresh = self._select(node, state, p, rng)
                chosen.append(action)
                new = new or fresh
            step: Any = chosen[0] if len(players) == 1 else joint(chosen)
            if len(players) == 1:
                state.apply(step)
            else:
                state.apply_joint(step)
            path.append((node, players, tuple(chosen)))
            node = node.child(step)
            if new:
                break
        values = self._playout(state, rng)
        for visited, players, actions in path:
            for p, a in zip(players, actions, strict=True):
                stat = visited.stats[p][a]
                stat.visits += 1
                stat.total += values[p]

    def _select(
        self, node: _Node, state: State[Any], player: int, rng: random.Random
    ) -> tuple[Any, bool]:
        """The action of `player` at `node` in this determinisation, and whether it is new."""
        legal = state.legal_actions(player)
        stats = node.stats.setdefault(player, {})
        # Progressive widening: a node considers `widen` actions, one more each time its
        # visits pass the next square, all of them once it has seen enough.
        room = self.widen + math.isqrt(node.visits)
        known = [a for a in stats if a in legal]
        if len(known) < min(room, len(legal)):
            action = None
            if self.prior is not None:
                # The prior's choice first; where actions are too many for random ones to
                # be worth a playout (card layouts), the prior's further (randomised) choices.
                tries = 1 if not stats else PRIOR_TRIES if len(legal) > HUGE else 0
                for _ in range(tries):
                    action = self.prior.choose(InfoSet(state, player), rng)
                    if action not in stats:
                        break
            if action is None or action in stats:
                action = _untried(legal, stats, rng)
            if action is not None:
                stat = stats[action] = _Stat()
                stat.avail = 1
                for a in known:
                    stats[a].avail += 1
                return action, True
        if not known:
            return legal[int(rng.random() * len(legal))], True
        best: Any = None
        best_score = -math.inf
        c = self.exploration
        for a in known:
            stat = stats[a]
            stat.avail += 1
        for a in known:
            stat = stats[a]
            if stat.visits == 0:
                return a, False
            score = stat.total / stat.visits + c * math.sqrt(math.log(stat.avail) / stat.visits)
            if score > best_score:
                best, best_score = a, score
        return best, False

    def _playout(self, state: State[Any], rng: random.Random) -> Values:
        n = state.num_players
        depth = self.depth
        playout = self.playout
        if playout is None and depth is None:
            own = getattr(state, "playout", None)  # the engine's playout kernel (core.playout)
            if own is not None:
                own(rng, PLAYOUT_STEPS)
                if state.is_terminal():
                    return tuple(state.returns())
            elif hasattr(state, "play_random"):
                state.play_random(rng)
                return tuple(state.returns())
        steps = 0
        while not state.is_terminal():
            if depth is not None and steps >= depth:
                if self._evaluate is not None:
                    return tuple(self._evaluate(state))
                return (0.0,) * n
            players = state.current_players()
            if players == (CHANCE,):
                state.apply(state.sample_action(CHANCE, rng))
            elif len(players) == 1:
                state.apply(self._playout_action(state, players[0], rng))
            else:
                state.apply_joint(joint([self._playout_action(state, p, rng) for p in players]))
            steps += 1
        return tuple(state.returns())

    def _playout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        if self.playout is None:
            return state.sample_action(player, rng)
        return self.playout.choose(InfoSet(state, player), rng)


def _untried(legal: Sequence[Any], stats: dict[Any, _Stat], rng: random.Random) -> Any:
    """A legal action without statistics yet, at random (None if every one has some)."""
    n = len(legal)
    if n <= 4 * len(stats) + 16:
        fresh = [a for a in legal if a not in stats]
        return fresh[int(rng.random() * len(fresh))] if fresh else None
    for _ in range(32):
        a = legal[int(rng.random() * n)]
        if a not in stats:
            return a
    return None
