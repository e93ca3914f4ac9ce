"""The balance lab's view of SQUARES II: a finished game's figures (`outcome`) and a
position's prospects (`evaluate`, and `standing`, which the rule-of-thumb player shares).

The win is three of the five centre squares (rule 2-3), so a position is read by the
centre: the squares each player holds, the ones they can take with one orthogonal step
(a tile next to the centre row that fits the row limit or beats the tile there), and
whether the player about to act can complete three now.

These are `Squares2` methods (`outcome`, `evaluate`), written here as functions of the
engine (`self`) and bound in its class body (`engine.py`).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Final, cast

from rules_engine.bots import Outcome
from rules_engine.squares2.actions import Action, Move, Pass, Place, Return, Start, Use
from rules_engine.squares2.turn import OVER, TURN

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2
    from rules_engine.squares2.state import Squares2State

# Weights of a player's standing (see `standing`): a centre square held, one within a step,
# a tile next to the centre row, a tile on the board.
HELD: Final = 1.0
WITHIN_REACH: Final = 0.45
NEXT_TO_CENTRE: Final = 0.08
ON_BOARD: Final = 0.15
# The player about to act who can complete the centre (rule 2-3) all but wins; the other
# one, who threatens to, forces an answer.
ABOUT_TO_WIN: Final = 3.0
THREAT: Final = 0.8
# How fast a difference in standing saturates in `evaluate`: tanh(SCALE * difference).
SCALE: Final = 0.5


def standing(state: Squares2State, p: int) -> tuple[int, int, float]:
    """Player p's hold on the centre row: the centre squares they hold, how many more they
    can take with one orthogonal step (from the rows next to it, within the row limit, or
    by a battle they win), and a score weighing those with their tiles next to the centre
    and on the board."""
    g = state.g
    cell = state.cell
    fval = g.fval
    cols = g.columns
    squares = g.squares
    checked = g.battle_checked
    room = g.move_max - state.tot[p][g.centre_row]
    held = reach = 0
    for sq in g.centre_squares:
        c = cell[sq]
        if c >= 0 and c >> 7 == p:
            held += 1
            continue
        there = fval[c >> 7][c & 127] if c >= 0 else -1
        for n in (sq - cols, sq + cols):
            if not 0 <= n < squares:
                continue
            d = cell[n]
            if d < 0 or d >> 7 != p:
                continue
            v = fval[p][d & 127]
            if (c < 0 and v <= room) or (c >= 0 and v > there and (not checked or v <= room)):
                reach += 1
                break
    near = 0
    for sq in g.next_to_centre:
        c = cell[sq]
        if c >= 0 and c >> 7 == p:
            near += 1
    on_board = g.tiles_per_set - state.hand[p].bit_count()  # a tile not in hand is on the board
    need = g.win_squares - held
    score = (
        HELD * held + WITHIN_REACH * min(reach, need) + NEXT_TO_CENTRE * near + ON_BOARD * on_board
    )
    return held, reach, score


def prospects(state: Squares2State) -> float:
    """Player 0's prospects in the current game, in (-1, 1): the difference of the two
    standings, with the next player to act winning if they can complete the centre and
    the other one's threat to do so counting for them."""
    need = state.g.win_squares
    mover = state.to_move if state.phase == TURN else 1 - state.to_move
    diff = 0.0
    for p, sign in ((0, 1.0), (1, -1.0)):
        held, reach, score = standing(state, p)
        diff += sign * score
        if held + min(reach, 1) >= need:
            diff += sign * (ABOUT_TO_WIN if p == mover else THREAT)
    return math.tanh(SCALE * diff)


def evaluate(self: Squares2, state: Squares2State) -> tuple[float, ...]:
    """Each player's prospects in [-1, 1] (the sign convention of `returns()`): the centre
    row as `prospects` reads it; in a match of several games (the `games` option), blended
    with the games already won; at the end, `returns()` itself."""
    if state.phase == OVER:
        return state.returns()
    value = prospects(state)
    if state.g.games > 1:
        need = state.g.games // 2 + 1
        lead = (state.results.count(0) - state.results.count(1)) / need
        value = max(-1.0, min(1.0, 0.5 * lead + 0.5 * value))
    return (value, -value)


def outcome(self: Squares2, state: Squares2State) -> Outcome:
    """A finished match's figures, replayed from its history.

    - `scores`: games won by each player (1 and 0 in the default one-game match; a draw
      scores 0 for both);
    - `rounds`: games played (the `games` option: a match of 1, 3 or 5);
    - `turns`: turns played in all games (one action each: place, move, an ability, or a
      pass; the returns of rule 2-2 are part of the turn that caused them);
    - `first`: who played first in the first game (janken, or the setup's);
    - `played`: per player, `place` and `place <face>` (the face put up: `place Spin 4`,
      `place Leap 2` for a tile placed back side up), `move`, each ability used by its
      name (`Spin`, `Leap`, `Tsunami`, `Diagonal`), `return` (a tile back to hand over the
      row limit) and `pass`;
    - `measures`, each per game of the match: `battles`, `tied_battles` (both tiles
      return), `row_limit_returns`, `draws`; `first_player_won` (share of games won by the
      player who moved first in that game) and `first_player_margin` (that share minus
      the share they lost: draws count for neither); and `back_up_placements` (the share of
      placements with the back side up, 0 without placements).
    """
    g = state.g
    replayed = state.initial()
    first = replayed.first
    played: list[Counter[str]] = [Counter(), Counter()]
    battles = ties = returns = placements = back_up = turns = 0
    first_won = first_lost = 0
    game_first = replayed.first
    for entry in state.history:
        step = cast("Action", entry)  # one player acts at a time: no joint steps
        if isinstance(step, Start):
            if first < 0:
                first = step.player
            game_first = step.player
            replayed.apply(step)
            continue
        p = step.player
        if isinstance(step, Place):
            face = 2 * step.tile + step.face
            ability = g.abilities[g.fability[p][face]].name.en
            played[p]["place"] += 1
            played[p][f"place {ability} {g.fval[p][face]}"] += 1
            placements += 1
            back_up += step.face
        elif isinstance(step, Move):
            played[p]["move"] += 1
        elif isinstance(step, Use):
            played[p][g.abilities[step.ability].name.en] += 1
        elif isinstance(step, Return):
            played[p]["return"] += 1
            returns += 1
        elif isinstance(step, Pass):
            played[p]["pass"] += 1
        if not isinstance(step, Return):
            turns += 1
        games_before = len(replayed.results)
        replayed.apply(step)
        if not isinstance(step, Return):  # a return fights no battle (nor clears the last)
            battles += len(replayed.battles)
            ties += sum(1 for b in replayed.battles if b.values[0] == b.values[1])
        if len(replayed.results) > games_before:
            winner = replayed.results[-1]
            first_won += winner == game_first
            first_lost += winner == 1 - game_first
            game_first = replayed.first
    games = max(1, len(state.results))
    return Outcome(
        scores=tuple(float(state.results.count(p)) for p in range(2)),
        rounds=len(state.results),
        turns=turns,
        first=max(first, 0),
        played=tuple(dict(sorted(c.items())) for c in played),
        measures={
            "battles": battles / games,
            "tied_battles": ties / games,
            "row_limit_returns": returns / games,
            "draws": state.results.count(-1) / games,
            "first_player_won": first_won / games,
            "first_player_margin": (first_won - first_lost) / games,
            "back_up_placements": back_up / placements if placements else 0.0,
        },
    )
