"""KILL SHOT (対テロ作戦カードゲーム): the complete rules engine.

Every number comes from the game's data (`components/kill-shot/`): the tactics cards (hunt
number, points, colour = deck), the terrorists (points, ability and its numbers), and the
rule parameters (`game.rule_params`): hand size and limit, the hunt numbers, the follow
offsets, Bad Intel's levels, each game type's and optional rule's overrides, and the
simulated players' timing (`simulation`).

Real time (game types 1 and 2) has no turns.  It is modelled as timed events: every player
acts when their reaction time has passed (chance draws it from a seeded law after each of
their actions, and for everyone at each countdown's "go"), so the protocol's "who acts now"
is the next timed event; players whose times are equal act in one simultaneous step.  Saying
Jam's clearing drill is an action followed by the drill time; "go!" after a Bad Intel comes
after the countdown.  A recorded hunt, a list of timed plays, is checked by `check_record`,
which derives the reaction times from the times in the record.

Game type 3 (Situation Room) is turn by turn.  A turn is one simultaneous step: the player
to act chooses a play (several cards, each following the one before) or a discard-and-refill,
while every other player may end that turn with a Jam or Bad Intel (the first clockwise
does, and the turn's action is void).  Under Night Mission in Situation Room looking is free
during one's turn (there is no clock), so the player knows the hand but, holding one card at
a time, plays one card per turn; in real time a look is an action and only the card being
looked at can be played.

Shuffles are draws: a deck is a multiset and every card drawn is a chance outcome (the same
odds as a shuffled deck), so a view never holds a deck order.  When a hunt can no longer be
finished (no hunter can get a card of some number still needed up to the Kill Shot) its
terrorist escapes: Deadline's "nobody can play a Kill Shot" and Terror Threat's "nobody can
play", and the guarantee that every random game ends.

The notation of actions is described in `actions.py`.

The rooms, in the order a newcomer reads them (the rulebook's chapters in the middle):

- `engine.py`: the game's id and rule options, and `KillShot`, the engine: the rule
  parameters and options read into the numbers the rules use, the tactics cards and the
  terrorists read from the data.
- `actions.py`: the actions (chance's draws, reveals and reaction times; the players' plays,
  reloads, discards, picks, looks...) and their notation (`format_action`, `parse_action`).
- `phases.py`: where a state stands in a hunt, and so who acts now.
- `state.py`: `KillShotState`, a position: its data set up, cloning, what each player can
  know (`KillShotView`) and the protocol of `rules_engine.core.State`; `_do` hands each
  action to the room of its phase.  Each room below is a mixin of `KillShotState`.
- `state_base.py`: `KillShotStateBase`, what every room counts on: the data of a state (its slots
  and their types) and the steps the rooms take from one another.
- `setting_up.py`: setting up a hunt: the terrorist(s) turned up, the deal (Deadline: the starting
  hand and the extra cards), who starts.
- `hunt.py`: playing a hunt in real time (game types 1 and 2): the countdown's "go!", the
  reaction times, which numbers may follow the top card, plays landing on the hunt pile
  (simultaneous plays ordered by chance, or all landing) and the claims they make.
- `reload.py`: reloading and an empty deck: drawing (the discards become the deck), taking a
  card from the hand, discarding, and Reload's discard and refill.
- `special_cards.py`: Bad Intel ("Cease fire!") and Jam.
- `terrorists.py`: the terrorist cards, their abilities and the discards they demand.
- `scoring.py`: who captures a terrorist (the Kill Shot, or the most points in the pile)
  and the result of each hunt.
- `endings.py`: the end of a hunt and of the game, and a hunt nobody can finish (its
  terrorist escapes).
- `situation_room.py`: game type 3, turn by turn.
- `chance.py`: chance's outcomes and their odds: draws from a deck as a multiset and the law
  of reaction times.
- `legal_actions.py`: every legal action of a player now.
- `checks.py`: why an action is illegal (the rule it breaks).
- `simulated_players.py`: the simulated players (random play with weights) and fast random
  play.
- `playouts.py`: a search player's playout (uniformly random legal actions), fast: the
  game the protocol's loop plays, with the legal actions counted rather than listed;
  `kernel.py`, its loop, compiled by mypyc when the project is set up
  (`rules_engine.native`).
- `recorded_hunts.py`: checking a recorded hunt line by line (`check_record`).
- `worked_examples.py`: a state from a worked example's `setup:`, and the named facts its
  `expect:` checks.
- `diagrams.py`: the table after a worked example's step, drawn for the rulebook: the hunt
  piles and hands as pictures of the cards, what the step did highlighted, captioned by
  the hunt and the clock (or the turn just played), and a timeline when times matter.
"""

from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Clear,
    Discard,
    Draw,
    First,
    Go,
    Look,
    Order,
    Pass,
    Pick,
    Play,
    React,
    Reload,
    Reveal,
    Taliban,
    Wait,
)
from rules_engine.kill_shot.chance import Draws, ReactionLaw
from rules_engine.kill_shot.engine import (
    GAME_ID,
    OPTION_NAMES,
    OPTIONAL_RULES,
    PLAYER_NAMES,
    REAL_TIME,
    SITUATION,
    TACTICAL,
    KillShot,
)
from rules_engine.kill_shot.phases import (
    AFTER_GO,
    AFTER_PLAY,
    AFTER_TURN,
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
from rules_engine.kill_shot.recorded_hunts import RecordCheck, check_record, parse_record_line
from rules_engine.kill_shot.scoring import HuntResult
from rules_engine.kill_shot.simulated_players import (
    P_CLIMB,
    P_DISCARD,
    P_INTERRUPT,
    P_MORE,
    W_CLEAR,
    W_LOOK,
    W_PLAY,
    W_RELOAD,
    W_SPECIAL,
    W_TURN_OTHER,
    W_TURN_PLAY,
    W_WAIT,
)
from rules_engine.kill_shot.special_cards import INTEL, JAM, SPECIAL_IDS, SPECIAL_LETTERS
from rules_engine.kill_shot.state import KillShotState, KillShotView
from rules_engine.kill_shot.terrorists import Terrorist

__all__ = [
    "AFTER_GO",
    "AFTER_PLAY",
    "AFTER_TURN",
    "CLAIM",
    "DISCARD",
    "FIRST",
    "GAME_ID",
    "GO",
    "INTEL",
    "JAM",
    "OPTIONAL_RULES",
    "OPTION_NAMES",
    "ORDER",
    "OVER",
    "PHASE_NAMES",
    "PICK",
    "PLAY",
    "PLAYER_NAMES",
    "P_CLIMB",
    "P_DISCARD",
    "P_INTERRUPT",
    "P_MORE",
    "REAL_TIME",
    "REVEAL",
    "SITUATION",
    "SPECIAL_IDS",
    "SPECIAL_LETTERS",
    "TACTICAL",
    "TALIBAN",
    "TURN",
    "TURN_START",
    "W_CLEAR",
    "W_LOOK",
    "W_PLAY",
    "W_RELOAD",
    "W_SPECIAL",
    "W_TURN_OTHER",
    "W_TURN_PLAY",
    "W_WAIT",
    "Action",
    "Claim",
    "Clear",
    "Discard",
    "Draw",
    "Draws",
    "First",
    "Go",
    "HuntResult",
    "KillShot",
    "KillShotState",
    "KillShotView",
    "Look",
    "Order",
    "Pass",
    "Pick",
    "Play",
    "React",
    "ReactionLaw",
    "RecordCheck",
    "Reload",
    "Reveal",
    "Taliban",
    "Terrorist",
    "Wait",
    "check_record",
    "parse_record_line",
]
