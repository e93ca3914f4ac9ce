"""Why an action is illegal: `check` raises an `IllegalActionError` naming the rule an
action breaks (a rule clause id of the package's docstring), `why` finds that rule for a
player's decision, and `now` says what the game is waiting for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.core import CHANCE, IllegalActionError
from rules_engine.susumuka_modoruka.actions import Act, Action, Draw, First, Roll
from rules_engine.susumuka_modoruka.phases import (
    AFTER,
    CHOOSE,
    DRAW,
    FIRST,
    ITEM,
    MAIN,
    OVER,
    PICK,
    RETURN,
    ROLL,
)

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.state import SusumukaState


def check(state: SusumukaState, player: int, action: Action) -> None:
    phase = state.phase
    g = state.g
    if phase == OVER:
        raise IllegalActionError("game-end", "the game is over")
    if type(action) is Act:  # the most frequent (the kinds below are disjoint)
        _check_decision(state, player, action)
        return
    if isinstance(action, Roll):
        if phase != ROLL:
            raise IllegalActionError("combat-roll", f"no combat dice are rolled now ({now(state)})")
        want = state.stats[state.cur].dice
        if len(action.dice) != want:
            raise IllegalActionError(
                "combat-roll",
                f"{g.names[state.cur]} rolls {_n(want, 'die', 'dice')}, "
                f"got {_n(len(action.dice), 'die', 'dice')}",
            )
        for d in action.dice:
            if not 1 <= d <= g.faces:
                raise IllegalActionError("combat-roll", f"a die shows 1 to {g.faces}, got {d}")
        return
    if isinstance(action, Draw):
        if phase == DRAW:
            idx = g.dungeon_index.get(action.card)
            if idx is None or not state.pile[idx]:
                raise IllegalActionError(
                    "advance", f"{action.card} is not in the dungeon deck ({state.pile_n} cards)"
                )
            return
        if phase == ITEM:
            if Draw(action.card) not in state.legal_actions(CHANCE):
                deck = g.item_decks[state.e_deck]
                raise IllegalActionError(
                    "escape-items", f"{action.card} cannot be drawn from the {deck} deck now"
                )
            return
        raise IllegalActionError("advance", f"no card is drawn now ({now(state)})")
    if isinstance(action, First):
        if phase != FIRST:
            raise IllegalActionError("first-player", "the first player is already decided")
        if not 0 <= action.player < state.n:
            raise IllegalActionError("first-player", f"no player {action.player}")
        return
    if not isinstance(action, Act):
        raise IllegalActionError("turn-order", f"not a Susumuka & Modoruka action: {action!r}")
    _check_decision(state, player, action)


def _check_decision(state: SusumukaState, player: int, action: Act) -> None:
    """A player's decision (`Act`): theirs to take now, and one of the legal ones."""
    phase = state.phase
    g = state.g
    if player == CHANCE or phase in (FIRST, DRAW, ROLL, ITEM):
        raise IllegalActionError("turn-order", f"chance acts now ({now(state)})")
    p = action.player
    if p != state.cur or player != state.cur:
        raise IllegalActionError(
            "turn-order", f"it is {g.names[state.cur]}'s turn, not {g.player_name(p)}'s"
        )
    if action in state.offered(p):
        return
    raise why(state, p, action)


def why(state: SusumukaState, p: int, action: Act) -> IllegalActionError:
    """The rule an illegal decision breaks."""
    g = state.g
    phase = state.phase
    verb = action.verb
    args = action.args
    name = g.names[p]
    inside = state.depth[p] > 0
    if phase == MAIN:
        if verb == "skill":
            if len(args) != 1 or args[0] not in g.skill_index[p]:
                known = ", ".join(s.id for s in g.skills[p])
                return IllegalActionError("skills", f"unknown skill (skills: {known})")
            skill = g.skills[p][g.skill_index[p][args[0]]]
            if inside:
                return IllegalActionError(
                    "skills",
                    f"skills are taken only outside the dungeon ({name} is at depth "
                    f"{state.depth[p]})",
                )
            taken = state.skills[p][g.skill_index[p][skill.id]]
            if taken >= skill.max:
                return IllegalActionError(
                    "skills", f"{skill.id} can be taken {_n(skill.max, 'time', 'times')} at most"
                )
            return IllegalActionError(
                "skills",
                f"skills may cost at most the turns passed ({state.turns_passed()}): "
                f"{name} has spent {state.spent[p]}, {skill.id} costs {skill.cost}",
            )
        if verb == "investigate" and inside:
            return IllegalActionError(
                "inside",
                f"inside the dungeon you can only advance ({name} is at depth {state.depth[p]})",
            )
        if verb == "use":
            if len(args) != 1 or args[0] not in state.items[p]:
                return IllegalActionError("item-use", f"{name} has no item {' '.join(args)}")
            return IllegalActionError("item-use", f"{args[0]} cannot be used now ({now(state)})")
        if verb in ("investigate", "advance"):
            return IllegalActionError("empty-deck", "no dungeon card is left to draw or fight")
        if verb == "pass":
            return IllegalActionError("empty-deck", f"{name} can still act: passing is not allowed")
    if phase == CHOOSE and verb in ("fight", "flee"):
        if state.top is None and not any(w in state.hand[p] for w in args):
            return IllegalActionError(
                "advance-hand", "no card was revealed: fight or flee from a card in your hand"
            )
        for word in args:
            if word in g.items:
                if word not in state.items[p] or g.items[word].effect != "safe_flee":
                    return IllegalActionError("item-use", f"{name} has no safe-flee item {word}")
                if verb == "fight":
                    return IllegalActionError("item-use", f"{word} is used to flee, not to fight")
            elif word not in state.hand[p]:
                return IllegalActionError("advance-hand", f"{name} has no {word} in hand")
            elif not g.may_use_hand and state.top is not None:
                return IllegalActionError("advance-hand", "the revealed card must be fought")
        return IllegalActionError("advance-hand", f"cannot read the choice {' '.join(args)}")
    if verb == "return":
        if state.flag[p] >= 0:
            return IllegalActionError("return", f"{name} has already declared Return")
        return IllegalActionError(
            "return", "Return is declared right after an advance, inside the dungeon"
        )
    if phase == AFTER and verb in ("use", "reroll"):
        return IllegalActionError("item-use", f"{' '.join(args)} cannot be used now")
    if phase == AFTER and verb == "flee":
        return IllegalActionError("flee", "you flee before rolling (option flee_timing)")
    return IllegalActionError(
        "turn-order", f"'{g.format_action(action)}' is not possible now ({now(state)})"
    )


def now(state: SusumukaState) -> str:
    g = state.g
    phase = state.phase
    who = g.names[state.cur] if state.cur >= 0 else ""
    if phase == FIRST:
        return "the first player is being decided"
    if phase == MAIN:
        where = "inside the dungeon" if state.depth[state.cur] > 0 else "outside the dungeon"
        return f"{who} is to act, {where}"
    if phase == DRAW:
        return f"{who} draws a dungeon card"
    if phase == CHOOSE:
        return f"{who} chooses to fight or flee"
    if phase == ROLL:
        return f"{who} rolls the combat dice"
    if phase == AFTER:
        return f"{who} may reroll or use items before the combat is decided"
    if phase == RETURN:
        return f"{who} may declare Return"
    if phase == PICK:
        return f"{who} chooses an item deck"
    if phase == ITEM:
        return f"{who} draws an item"
    return "the game is over"


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"
