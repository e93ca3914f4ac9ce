"""The phases of KILL SHOT: where a state stands in a hunt, and so who acts now
(`KillShotState.phase`, named in `PHASE_NAMES` for queries and views).

A hunt starts with chance (TALIBAN once, before the first hunt; REVEAL), Deadline's chosen
extra cards (PICK), then in real time the countdown (GO) and play (PLAY), with the discards a
terrorist demands (DISCARD) and chance settling simultaneous plays (ORDER, CLAIM); in Situation
Room the first player (FIRST) and the turns (TURN; TURN_START while cards are still dealt).
OVER is the end of the game.
"""

from __future__ import annotations

from typing import Final

# Phases
TALIBAN: Final = 0
REVEAL: Final = 1
PICK: Final = 2
GO: Final = 3
PLAY: Final = 4
DISCARD: Final = 5
ORDER: Final = 6
CLAIM: Final = 7
FIRST: Final = 8
TURN: Final = 9
TURN_START: Final = 10
OVER: Final = 11
PHASE_NAMES: Final = (
    "taliban",
    "reveal",
    "pick",
    "countdown",
    "play",
    "discard",
    "order",
    "claim",
    "first",
    "turn",
    "turn-start",
    "over",
)

# after a discard round
AFTER_PLAY: Final = 0
AFTER_GO: Final = 1
AFTER_TURN: Final = 2
