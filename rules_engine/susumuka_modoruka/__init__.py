"""Susumuka & Modoruka (ススムカ&モドルカ, the "old" rules of 2014-06-07): the rules engine.

The rooms, in the order a newcomer reads them (the rulebook's chapters in brackets):

    actions.py              the actions (chance's first player, draws and rolls; a player's
                            decisions) and their notation: `format_action`, `parse_action`
    pieces.py               dungeon cards with their depth tiers, items, skills, and the
                            effects the engine plays
    engine.py               `SusumukaModoruka`: the rule parameters and options read from the
                            game's data, the pieces, the Engine protocol
    phases.py               the phases a state is in (who acts now, what they decide)
    state.py                `SusumukaState`: the data of a position, what a player's skills
                            and items add up to, cloning, the State protocol (`_do` hands each
                            action to the rules below)
    setting_up.py           a state from a worked example's `setup:` (Setting up)
    turn.py                 a turn of the game, your turn's start, what you may do before and
                            for your action, the Return step, the next player (Turns and your
                            turn)
    investigate_advance.py  drawing dungeon cards: investigate, advance, the empty deck,
                            lost-property cards drawn (Investigate and Advance)
    combat.py               fight or flee, the card's power, dice, rerolls and power items,
                            winning, losing, fleeing, moving (Combat and fleeing)
    return_escape.py        the escape: trophy, healing, the item deck the flag earns and its
                            draws (Return and escape)
    death.py                revival and death, lost property left behind (Death and lost
                            property)
    skills.py               taking a skill (Skills)
    items.py                using up an item; healing and climbing items (Items)
    endings.py              the end of the game and the winner (End of the game and the
                            winner)
    checks.py               why an action is illegal: the rule it breaks
    views.py                what one player can know
    queries.py              named facts about a state for worked examples' `expect:`
    diagrams.py             a state drawn as grids for the rulebook's examples
    kernel.py               a search player's playout, fast: the protocol's loop's games
                            without its dispatch and checks (`SusumukaState.playout`)

Rule ids, in error messages and in the event log (`rules_engine.core.EVENTS`): the rule
clauses the game's data declares (`clauses:` in game.yaml). The seed numbers nothing, so
each id is a short word after what the clause says, grouped by the seed's sections:

    setting up      setup, first-player
    turns           turn-order, outside, inside
    調査 / 進む      investigate, advance, advance-hand, empty-deck
    戦闘            card-power, nullify, combat-roll, win, lose, flee
    戻る宣言 / 脱出  return, return-move, escape, escape-items, trophy, escape-heal
    items           item-use
    死亡            death, lost-property, lost-property-draw, respawn
    スキルの獲得     skills, skill-effects
    the end         game-end, winner, tie-break

Every transition emits (while a recording is on) one event per clause it applies: the
player's decision, the chance outcome (first player, card drawn, dice rolled, item drawn),
and what the rules then do by themselves (reshuffle, combat result, move, death, escape,
trophy, round end, game end and winner).

Where neither the seed nor the data says, the engine plays these choices (the rule options,
`OPTION_NAMES` in engine.py, cover the readings the text leaves open):

- A "turn" of the 20 is a round: every player takes one turn in seat order from the first
  player; the turns passed (the skill budget) are the rounds completed before this one.
- On your turn, before your action: take skills (outside only) and use one-shot heal or
  climb items. After your combat roll, before the result: rerolls and one-shot power items.
  A safe-flee item is used as you flee. Revival is automatic (a revive skill first, then an
  item). A decision with nothing left to choose is taken for you (accept the roll; no
  Return to declare once declared).
- You may flee from a card of your hand too (the revealed card is discarded first).
- A climb that takes a player who declared Return to depth 0 is an escape; the turn then
  goes on from outside.
- An escape draws from the deck the flag earns (option item_deck); if that deck is empty
  (its pile and the used items under it) nothing is drawn.
- A dead player's hand goes to the discard pile; a dead player whose lost-property card is
  still in the deck adds the new items to the same area.
- When the dungeon deck is empty the discard pile becomes the deck (rules.empty_dungeon_deck);
  when no card is left anywhere and you hold none, you pass.

The notation is described in actions.py.
"""

from rules_engine.susumuka_modoruka.actions import VERBS, Act, Action, Draw, First, Roll
from rules_engine.susumuka_modoruka.engine import GAME_ID, OPTION_NAMES, SusumukaModoruka
from rules_engine.susumuka_modoruka.phases import PHASE_NAMES
from rules_engine.susumuka_modoruka.pieces import DungeonCard, Item, Skill, Tier
from rules_engine.susumuka_modoruka.state import Stats, SusumukaState
from rules_engine.susumuka_modoruka.views import PlayerInfo, SusumukaView

__all__ = [
    "GAME_ID",
    "OPTION_NAMES",
    "PHASE_NAMES",
    "VERBS",
    "Act",
    "Action",
    "Draw",
    "DungeonCard",
    "First",
    "Item",
    "PlayerInfo",
    "Roll",
    "Skill",
    "Stats",
    "SusumukaModoruka",
    "SusumukaState",
    "SusumukaView",
    "Tier",
]
