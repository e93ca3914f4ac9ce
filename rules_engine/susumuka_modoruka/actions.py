"""The actions of Susumuka & Modoruka and their notation (one action per line):

first pink                   chance: who starts (the most thrill-seeking player)
yellow skill might           buy a skill (outside the dungeon, before your action)
yellow use healing-herb      use a one-shot item: heal / climb before your action,
                             power after your roll
yellow investigate           draw dungeon cards into your hand (outside only)
yellow advance               reveal the top dungeon card
draw tsuchikappa             chance: the next card of the dungeon deck (or, after an
                             escape, of the item deck being drawn from)
yellow fight                 fight the revealed card
yellow fight goblin          discard the revealed card and fight goblin from your hand
yellow flee [goblin] [smoke-ball]
                             flee from the revealed card (or a hand card), optionally
                             with a safe-flee item
roll 5                       chance: the combat dice (one number per die)
yellow reroll second-look    roll again with a reroll skill or item
yellow accept                take the roll as it is and resolve the combat
yellow return / yellow stay  declare Return after an advance, or not
yellow take silver           the item deck to draw from (option item_deck: choose)
yellow pass                  nothing can be done (no dungeon card anywhere)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

from rules_engine.core import NotationError

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka


class First(NamedTuple):
    """Chance: who takes the first turn."""

    player: int


class Draw(NamedTuple):
    """Chance: the next card of the dungeon deck, or of the item deck being drawn from."""

    card: str


class Roll(NamedTuple):
    """Chance: the combat dice, in the order rolled."""

    dice: tuple[int, ...]


class Act(NamedTuple):
    """A player's decision: a verb and its words (`yellow fight goblin`)."""

    player: int
    verb: str
    args: tuple[str, ...] = ()


Action = First | Draw | Roll | Act

VERBS: Final = (
    "skill",
    "use",
    "investigate",
    "advance",
    "fight",
    "flee",
    "reroll",
    "accept",
    "return",
    "stay",
    "take",
    "pass",
)


# --- notation ------------------------------------------------------------------------------


def format_action(g: SusumukaModoruka, action: Action) -> str:
    """An action in the notation (`SusumukaModoruka.format_action`)."""
    if isinstance(action, Act):
        return " ".join((g.names[action.player], action.verb, *action.args))
    if isinstance(action, Draw):
        return f"draw {action.card}"
    if isinstance(action, Roll):
        return "roll " + " ".join(map(str, action.dice))
    if isinstance(action, First):
        return f"first {g.names[action.player]}"
    raise TypeError(f"not a Susumuka & Modoruka action: {action!r}")


def parse_action(g: SusumukaModoruka, text: str) -> Action:
    """The action a line of notation names (`SusumukaModoruka.parse_action`; raises
    `NotationError`)."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    head = words[0]
    if head == "roll":
        if len(words) < 2:
            raise NotationError("'roll' needs the dice, like 'roll 5' or 'roll 3 6'")
        try:
            return Roll(tuple(int(w) for w in words[1:]))
        except ValueError:
            raise NotationError(f"not a number in {text!r}") from None
    if head == "draw":
        if len(words) != 2:
            raise NotationError("'draw' names one card, like 'draw tsuchikappa'")
        if words[1] not in g.dungeon_index and words[1] not in g.items:
            raise NotationError(f"unknown card '{words[1]}'")
        return Draw(words[1])
    if head == "first":
        if len(words) != 2:
            raise NotationError("'first' names one player, like 'first yellow'")
        return First(g.player_index(words[1]))
    if len(words) < 2:
        raise NotationError(
            f"cannot read {text!r}: expected 'first NAME', 'draw CARD', 'roll D...' "
            "or 'NAME VERB ...'"
        )
    player = g.player_index(head)
    verb = words[1]
    if verb not in VERBS:
        raise NotationError(f"unknown verb '{verb}' (verbs: {', '.join(VERBS)})")
    return Act(player, verb, tuple(words[2:]))


# --- the notation in running text ---------------------------------------------------------


def notation_pattern(g: SusumukaModoruka) -> re.Pattern[str]:
    """The notation as it would appear in running text: every action `format_action`
    writes (`yellow advance`, `pink flee giant-bat smoke-ball`, `draw tsuchikappa`,
    `roll 3 4`, `first pink`), the ids of cards, items and skills that are codes
    (`earth-charm`, `lost-property-yellow`, `fighting-spirit`) and the ids of queries,
    setup keys and rule options (`card_power`, `max_depth`, `tie_break`).  Players' words
    do not match: names of cards and colours (`Tsuchikappa`, `Yellow`, `brown`), the
    actions in words (`Yellow advances`, `she rolls 5`)."""
    names = _alternatives(g.names)
    verbs = _alternatives(VERBS)
    ids = [c.id for c in g.dungeon] + list(g.items)
    for sheet in g.skills:
        ids.extend(s.id for s in sheet)
    words = _alternatives((*ids, *g.item_decks))
    coded = _alternatives(i for i in ids if not i.isalpha())
    edge = r"(?<![\w-])"
    end = r"(?![\w-])"
    forms = (
        rf"(?:{names}) (?:{verbs})(?: (?:{words}))*",
        rf"first (?:{names})",
        rf"draw (?:{words})",
        r"roll(?: [0-9]+)+",
        rf"(?:{coded})",
        r"[a-z]+(?:_[a-z0-9]+)+",
    )
    return re.compile("|".join(f"{edge}{f}{end}" for f in forms))


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation of the words, longest first (`giant-bat` before `giant`)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))
