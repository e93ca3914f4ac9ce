"""The check of an engine's playout shortcuts: `apply` / `apply_joint` overridden to play the
actions of a search player's playout at once must play them, and refuse the actions next to
them, exactly as `StateBase`'s checked way does."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rules_engine.core import IllegalActionError, StateBase, joint, playout_picks


def play_against_checked(
    state: Any, rng: random.Random, off_the_legal: Callable[[Any, list[Any]], list[Any]]
) -> None:
    """Play `state` to the end as a search player's playout does (`legal_actions` and
    `rng.choice`, chance by `sample_action`).  At every step the picked action must leave
    the same state as the checked way, and each action `off_the_legal(state, picked)`
    gives (an action, or a joint one where several act) must be refused by the same rule
    with the same words, leaving the state as it was."""
    while not state.is_terminal():
        picked = playout_picks(state, rng)
        several = len(picked) > 1
        for action in off_the_legal(state, picked):
            if action in picked or action == tuple(picked):
                continue
            fast, slow = state.clone(), state.clone()
            with pytest.raises(IllegalActionError) as raised:
                (fast.apply_joint if several else fast.apply)(action)
            with pytest.raises(IllegalActionError) as expected:
                (StateBase.apply_joint if several else StateBase.apply)(slow, action)
            assert str(raised.value) == str(expected.value)
            assert fast == state
        slow = state.clone()
        if several:
            state.apply_joint(joint(picked))
            StateBase.apply_joint(slow, joint(picked))
        else:
            state.apply(picked[0])
            StateBase.apply(slow, picked[0])
        assert state == slow


def check_playout(engine: Any, seeds: range, max_steps: int = 100_000) -> None:
    """The engine's own `playout` plays the game `rules_engine.core.generic_playout` plays
    from the same seed (legal actions generated, one taken by `rng.choice`, checked
    `apply`): the same final state, the same number of actions, and the generators left
    in the same place."""
    from rules_engine.core import generic_playout

    for seed in seeds:
        fast, slow = engine.new_initial_state(), engine.new_initial_state()
        assert hasattr(fast, "playout"), "the engine has no playout of its own"
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        made = fast.playout(fast_rng, max_steps)
        assert made == generic_playout(slow, slow_rng, max_steps), f"seed {seed}"
        assert fast == slow, f"seed {seed}: another game than the protocol's loop plays"
        assert fast_rng.random() == slow_rng.random(), f"seed {seed}: other draws"
