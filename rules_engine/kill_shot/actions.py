"""The actions of KILL SHOT and their notation.

Notation (one action per line, joint actions joined by " ; "; times in ms):

    taliban charlie                     chance: who sides with the terrorists
    reveal ghost                        chance: the next terrorist(s) (three: Terror Threat)
    draw alpha r1 b5 g5 y9 pB r2        chance: cards drawn, in order (deal or refill)
    go alpha 650 bravo 720 charlie 540  chance: everyone's reaction time after "go!"
    react alpha 480                     chance: a player's next reaction time
    order bravo alpha                   chance: which of simultaneous plays lands first
    claim alpha                         chance: who claims after simultaneous Kill Shots
    first bravo                         chance: who starts (Situation Room)
    alpha plays r5 [on 2]               a card onto the hunt pile (pile 2: Terror Threat)
    alpha plays r4 b5 g4                several cards at once (Situation Room)
    alpha plays gJ at bravo             Jam on a player (Bad Intel too, Situation Room)
    alpha plays rB [on 2]               Bad Intel ("Cease fire!")
    alpha reload r5 b3                  discard these, refill to the hand limit ("Reload!")
    alpha reload #2 #5                  the same by hand position (Night Mission)
    alpha discards r5 | #3              one card a terrorist's ability makes you discard
    alpha picks r1 rB rJ                Deadline: the extra cards chosen
    alpha looks #3                      Night Mission (real time): look at one card
    alpha clear | wait | pass           say the clearing drill / do nothing / pass

Card codes: the colour's first letter (r b g y p) and the hunt number, or B (Bad Intel) or
J (Jam).  Players are alpha, bravo, charlie, delta, echo; with colour decks player k plays
the k-th colour.  The notation stays in the example files: `notation_pattern` finds it in
running text, so that a player's rulebook can be checked to hold none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from rules_engine.core import NotationError

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot


# --- actions ------------------------------------------------------------------------------
# Every action ends with a constant `tag`, so that two kinds of action never compare equal.


class Taliban(NamedTuple):
    """Chance: the player who sides with the terrorists (Taliban)."""

    player: int
    tag: str = "taliban"


class Reveal(NamedTuple):
    """Chance: the terrorist card(s) turned up for this hunt (indexes into the data)."""

    terrorists: tuple[int, ...]
    tag: str = "reveal"


class First(NamedTuple):
    """Chance: the Situation Room player who takes the first turn."""

    player: int
    tag: str = "first"


class Draw(NamedTuple):
    """Chance: the cards a player draws, in order (a deal or a refill)."""

    player: int
    cards: tuple[int, ...]
    tag: str = "draw"


class Go(NamedTuple):
    """Chance: "go!" ends a countdown; every player's reaction time, in seat order (ms)."""

    delays: tuple[int, ...]
    tag: str = "go"


class React(NamedTuple):
    """Chance: the next reaction time (ms) of players who have just acted."""

    players: tuple[int, ...]
    delays: tuple[int, ...]
    tag: str = "react"


class Order(NamedTuple):
    """Chance: the order in which simultaneous plays land."""

    players: tuple[int, ...]
    tag: str = "order"


class Claim(NamedTuple):
    """Chance: who claims when several Kill Shots land at once (all_land)."""

    player: int
    tag: str = "claim"


class Play(NamedTuple):
    """Cards onto a hunt pile (several in a row in Situation Room), or a special card."""

    player: int
    cards: tuple[int, ...]
    pile: int = 0
    target: int = -1
    tag: str = "play"


class Reload(NamedTuple):
    """Discard cards (kinds, or hand positions under Night Mission) and refill."""

    player: int
    cards: tuple[int, ...] = ()
    slots: tuple[int, ...] = ()
    tag: str = "reload"


class Discard(NamedTuple):
    """One card a terrorist's ability makes the player discard (a kind, or a position)."""

    player: int
    card: int = -1
    slot: int = -1
    tag: str = "discard"


class Pick(NamedTuple):
    """Deadline: the extra cards chosen from the rest of the player's colour."""

    player: int
    cards: tuple[int, ...]
    tag: str = "pick"


class Look(NamedTuple):
    """Night Mission: look at the card in one hand position."""

    player: int
    slot: int
    tag: str = "look"


class Wait(NamedTuple):
    """Real time: do nothing for one reaction time."""

    player: int
    tag: str = "wait"


class Clear(NamedTuple):
    """Jam: say the clearing drill aloud (it takes the drill time)."""

    player: int
    tag: str = "clear"


class Pass(NamedTuple):
    """Situation Room: do nothing this turn (Deadline), or let a turn go uninterrupted."""

    player: int
    tag: str = "pass"


Action = (
    Taliban
    | Reveal
    | First
    | Draw
    | Go
    | React
    | Order
    | Claim
    | Play
    | Reload
    | Discard
    | Pick
    | Look
    | Wait
    | Clear
    | Pass
)


# --- notation --------------------------------------------------------------------------------


def format_action(g: KillShot, action: Action) -> str:
    names = g.names
    codes = g.codes
    if isinstance(action, Play):
        text = f"{names[action.player]} plays " + " ".join(codes[c] for c in action.cards)
        if action.pile:
            text += f" on {action.pile + 1}"
        if action.target >= 0:
            text += f" at {names[action.target]}"
        return text
    if isinstance(action, React):
        return "react " + " ".join(
            f"{names[p]} {d}" for p, d in zip(action.players, action.delays, strict=True)
        )
    if isinstance(action, Draw):
        return f"draw {names[action.player]} " + " ".join(codes[c] for c in action.cards)
    if isinstance(action, Wait):
        return f"{names[action.player]} wait"
    if isinstance(action, Reload):
        items = [codes[c] for c in action.cards] + [f"#{s + 1}" for s in action.slots]
        return " ".join([f"{names[action.player]} reload", *items])
    if isinstance(action, Go):
        return "go " + " ".join(f"{names[p]} {d}" for p, d in enumerate(action.delays))
    if isinstance(action, Clear):
        return f"{names[action.player]} clear"
    if isinstance(action, Pass):
        return f"{names[action.player]} pass"
    if isinstance(action, Look):
        return f"{names[action.player]} looks #{action.slot + 1}"
    if isinstance(action, Discard):
        item = codes[action.card] if action.card >= 0 else f"#{action.slot + 1}"
        return f"{names[action.player]} discards {item}"
    if isinstance(action, Order):
        return "order " + " ".join(names[p] for p in action.players)
    if isinstance(action, Claim):
        return f"claim {names[action.player]}"
    if isinstance(action, Pick):
        return f"{names[action.player]} picks " + " ".join(codes[c] for c in action.cards)
    if isinstance(action, Reveal):
        return "reveal " + " ".join(g.terrorists[t].id for t in action.terrorists)
    if isinstance(action, First):
        return f"first {names[action.player]}"
    if isinstance(action, Taliban):
        return f"taliban {names[action.player]}"
    raise TypeError(f"not a KILL SHOT action: {action!r}")


def parse_action(g: KillShot, text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError("empty action")
    head = words[0]
    try:
        if head == "draw" and len(words) >= 3:
            return Draw(g.player_index(words[1]), tuple(g.card_index(w) for w in words[2:]))
        if head in ("go", "react"):
            pairs = words[1:]
            if not pairs or len(pairs) % 2:
                raise NotationError(
                    f"'{head}' needs player and time pairs, like '{head} alpha 650'"
                )
            players = [g.player_index(w) for w in pairs[0::2]]
            delays = [int(w) for w in pairs[1::2]]
            if head == "react":
                return React(tuple(players), tuple(delays))
            if sorted(players) != list(range(g.num_players)) or players != sorted(players):
                raise NotationError(
                    "'go' gives every player's time in seat order: "
                    + " ".join(f"{n} MS" for n in g.names)
                )
            return Go(tuple(delays))
        if head == "order" and len(words) >= 2:
            return Order(tuple(g.player_index(w) for w in words[1:]))
        if head == "claim" and len(words) == 2:
            return Claim(g.player_index(words[1]))
        if head == "reveal" and len(words) >= 2:
            return Reveal(tuple(g.terrorist(w) for w in words[1:]))
        if head == "first" and len(words) == 2:
            return First(g.player_index(words[1]))
        if head == "taliban" and len(words) == 2:
            return Taliban(g.player_index(words[1]))
        if len(words) >= 2 and head in g._player_index:
            p = g._player_index[head]
            verb = words[1]
            rest = words[2:]
            if verb == "plays" and rest:
                pile = 0
                target = -1
                cards: list[int] = []
                i = 0
                while i < len(rest):
                    w = rest[i]
                    if w in ("on", "at"):
                        if i + 1 >= len(rest):
                            raise NotationError(f"'{w}' needs a pile number or a player")
                        if w == "on":
                            pile = int(rest[i + 1]) - 1
                            if pile < 0:
                                raise NotationError("piles are numbered from 1")
                        else:
                            target = g.player_index(rest[i + 1])
                        i += 2
                        continue
                    cards.append(g.card_index(w))
                    i += 1
                if not cards:
                    raise NotationError("'plays' needs at least one card")
                return Play(p, tuple(cards), pile, target)
            if verb == "reload":
                kinds = tuple(sorted(g.card_index(w) for w in rest if not w.startswith("#")))
                slots = tuple(sorted(_slot(w) for w in rest if w.startswith("#")))
                return Reload(p, kinds, slots)
            if verb == "discards" and len(rest) == 1:
                if rest[0].startswith("#"):
                    return Discard(p, -1, _slot(rest[0]))
                return Discard(p, g.card_index(rest[0]), -1)
            if verb == "picks" and rest:
                return Pick(p, tuple(sorted(g.card_index(w) for w in rest)))
            if verb == "looks" and len(rest) == 1:
                return Look(p, _slot(rest[0]))
            if not rest and verb in ("wait", "clear", "pass"):
                if verb == "wait":
                    return Wait(p)
                return Clear(p) if verb == "clear" else Pass(p)
    except ValueError as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"not a number in {text!r}") from None
    raise NotationError(
        f"cannot read {text!r}: expected 'NAME plays CARDS [on PILE] [at NAME]', 'NAME reload "
        "[CARDS]', 'NAME discards CARD', 'NAME picks CARDS', 'NAME looks #N', 'NAME wait', "
        "'NAME clear', 'NAME pass', or chance: 'draw NAME CARDS', 'go NAME MS ...', "
        "'react NAME MS', 'order NAMES', 'claim NAME', 'reveal TERRORISTS', 'first NAME', "
        "'taliban NAME'"
    )


_BEFORE = r"(?<![A-Za-z0-9_#.-])"
_AFTER = r"(?![A-Za-z0-9_])"


def notation_pattern(g: KillShot) -> re.Pattern[str]:
    """What this notation looks like in running text, and what a player's text never holds:
    a card code (`r5`, `gB`, `pJ`), a hand position (`#3`), a player's word followed by a
    verb of the notation (`alpha reload`, `bravo clear`), chance's steps (`go alpha 450`,
    `react bravo 400`, `draw alpha`, `order bravo alpha`, `reveal ghost`...), and the
    engine's ids: rule options and their values (`bad_intel_levels`, `all_land`), hyphenated
    terrorist ids (`red-mirage`) and the queries' result words (`escaped-stuck`, `->`).

    Players' language does not match: "Alpha plays Bad Intel", "a 4 (City)", "Kill Shot",
    "3, 2, 1, go!", "Cease fire!"."""
    from rules_engine.kill_shot.engine import PLAYER_NAMES

    names = "|".join(PLAYER_NAMES)
    symbols = "|".join(sorted({code[1:] for code in g.codes}))
    letters = "".join(g.letters)
    hyphenated = "|".join(re.escape(t.id) for t in g.terrorists if "-" in t.id)
    ids = "|".join(re.escape(t.id) for t in g.terrorists)
    parts = [
        rf"{_BEFORE}[{letters}](?:{symbols}){_AFTER}",
        r"#\d+",
        rf"{_BEFORE}(?:{names}) (?:reload|discards|picks|looks|clear|wait|pass){_AFTER}",
        rf"{_BEFORE}(?:go|react) (?:{names}) \d+",
        rf"{_BEFORE}(?:draw|order|claim|first|taliban) (?:{names}){_AFTER}",
        rf"{_BEFORE}reveal (?:{ids}){_AFTER}",
        rf"{_BEFORE}[a-z]+(?:_[a-z0-9]+)+{_AFTER}",
        rf"{_BEFORE}(?:escaped|tie)-[a-z]+{_AFTER}",
        r" -> ",
    ]
    if hyphenated:
        parts.append(rf"{_BEFORE}(?:{hyphenated}){_AFTER}")
    return re.compile("|".join(parts))


def _slot(word: str) -> int:
    if not word.startswith("#") or not word[1:].isdigit() or int(word[1:]) < 1:
        raise NotationError(f"a hand position is '#1', '#2'...: got {word!r}")
    return int(word[1:]) - 1
