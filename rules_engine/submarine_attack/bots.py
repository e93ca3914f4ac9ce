"""A rule-of-thumb player of Submarine Attack for the balance lab (`rules_engine.bots`).

`Heuristic` follows the seed's tips (section 4) where they are tips, and otherwise what
seeded games against the random player and against variants of itself favoured:

- transports: a small fleet (the smallest six) while level or ahead; when behind by
  `BEHIND` points or more, the smallest five and the biggest (the seed: the player behind
  can mix in a "5" for a comeback), in a random order.  With three or more players the
  biggest six: a player neither sinking nor sunk scores its survivors, and small fleets
  lose to random ones there (about 0.29 against two random players, 0.53 with big ones);
- action cards: the torpedoes strongest first (the seed: "use S and A early, torpedo S in
  attack 1 takes effect for certain"), the weakest set aside when only some are laid out,
  and the evasions in random slots among the first `EVASION_SLOTS` (the seed: "the
  opponent may expect that and play evasions early"; fixed slots lose to an opponent
  who puts an evasion against your opening torpedo S);
- a column to sink: the choice that sinks the most columns still afloat.

It reads only its `InfoSet`: its own view (its hand, the scores, the columns sunk, the
last roll) and its legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rules_engine.bots import InfoSet
from rules_engine.core import Engine
from rules_engine.submarine_attack.actions import Action, Place, Target
from rules_engine.submarine_attack.engine import SubmarineAttack
from rules_engine.submarine_attack.state import SubmarineView

BEHIND = 5
"""Points behind the leader from which the player mixes its biggest transport in."""

EVASION_SLOTS = 3
"""The evasions go to random slots among the first this many."""


class Heuristic:
    """Small fleets unless well behind (big ones with three or more players), strong
    torpedoes first, evasions early, and the column choice that sinks most.  Deterministic
    given its rng."""

    name = "heuristic"

    def __init__(self, engine: Engine[Action]) -> None:
        if not isinstance(engine, SubmarineAttack):
            raise TypeError("Heuristic plays Submarine Attack")
        self.g = engine
        g = engine
        order = {code: i for i, code in enumerate(dict.fromkeys(g.cards_hand))}
        # Torpedoes by strength (most dice first), evasions by strength (most dice taken).
        self.torpedoes = sorted(
            (c for c in g.cards_hand if g.cards[c].kind == "torpedo"),
            key=lambda c: (-g.card_dice[c], order[c]),
        )
        self.evasions = sorted(
            (c for c in g.cards_hand if g.cards[c].kind != "torpedo"),
            key=lambda c: (-g.card_cancel[c], order[c]),
        )

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        view = info.view()
        assert isinstance(view, SubmarineView)
        if view.phase == "place":
            return self._place(info.player, view, rng)
        # A player's only other decision: the column a triple or a four sinks.
        return self._target(info.player, view, info.legal_actions())

    def _place(self, player: int, view: SubmarineView, rng: random.Random) -> Place:
        g = self.g
        hand = sorted(view.own_spare_ships)
        k = g.transports_placed
        if g.num_players > 2:
            ships = hand[-k:]
        elif max(view.scores) - view.scores[player] >= BEHIND:
            ships = hand[: k - 1] + hand[-1:]
        else:
            ships = hand[:k]
        rng.shuffle(ships)
        m = g.actions_placed
        evasions = self.evasions[: max(0, m - len(self.torpedoes))] or self.evasions
        cards = self.torpedoes[: m - len(evasions)]
        slots = sorted(rng.sample(range(min(max(EVASION_SLOTS, len(evasions)), m)), len(evasions)))
        evasions = list(evasions)
        rng.shuffle(evasions)
        for slot, code in zip(slots, evasions, strict=True):
            cards.insert(slot, code)
        return Place(player, tuple(ships), tuple(cards))

    def _target(self, player: int, view: SubmarineView, actions: Sequence[Action]) -> Target:
        g = self.g
        defender = (player + 1) % g.num_players
        sunk = {c for c, _ in view.sunk[defender]}
        pairs = [f for f, c in Counter(view.last_roll).items() if c == 2]
        best: Target | None = None
        best_score = -1
        for action in actions:
            assert isinstance(action, Target)
            column = action.column
            if column in pairs and g.choose_one:
                score = sum(1 for f in pairs if f not in sunk and f <= g.columns)
            else:
                score = int(column not in sunk)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best
