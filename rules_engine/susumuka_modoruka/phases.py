"""The phases of Susumuka & Modoruka: where a state stands in a turn, and so who acts now
and what they decide (`SusumukaState.phase`, named in `PHASE_NAMES` for queries and views).

A turn goes (clause turn-order): the player's decisions before and for their action (MAIN), the dungeon
cards drawn (DRAW), the choice to fight or flee (CHOOSE), the combat dice (ROLL) and what is
done with them (AFTER), the Return declaration (RETURN); an escape picks an item deck (PICK)
and draws its items (ITEM).  FIRST is the chance step before the first turn, OVER the end.
"""

from __future__ import annotations

from typing import Final

# Phases
FIRST: Final = 0
MAIN: Final = 1  # the player to act: skills, items, investigate / advance
DRAW: Final = 2  # chance: a dungeon card
CHOOSE: Final = 3  # the revealed card: fight or flee (or a hand card instead)
ROLL: Final = 4  # chance: combat dice
AFTER: Final = 5  # after the roll: rerolls, one-shot power items, accept
RETURN: Final = 6  # after an advance: declare Return or not
PICK: Final = 7  # escape: choose an item deck
ITEM: Final = 8  # chance: an item card
OVER: Final = 9
PHASE_NAMES: Final = (
    "first",
    "main",
    "draw",
    "choose",
    "roll",
    "after_roll",
    "return",
    "pick_item_deck",
    "item",
    "over",
)

# Why the dungeon cards are drawn (`purpose`): into the hand, or the one card to fight.
INVESTIGATE: Final = 1
REVEAL: Final = 2

# Where the turn goes on after an escape (`e_cont`): it ends, or the player acts again.
END_TURN: Final = 0
BACK_TO_MAIN: Final = 1
