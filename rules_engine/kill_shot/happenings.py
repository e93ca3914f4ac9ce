"""What a worked example's step did at the KILL SHOT table, in players' words: the actions
since the state was last drawn (cards played, drawn, claimed; timed events), for the
rulebook's diagrams (`diagrams.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from rules_engine.core import (
    Bilingual,
    JointAction,
    Step,
    apply_step,
)
from rules_engine.kill_shot.actions import (
    Action,
    Claim,
    Clear,
    Discard,
    Draw,
    Go,
    Look,
    Order,
    Pick,
    Play,
    React,
    Reload,
    Reveal,
    Wait,
)
from rules_engine.kill_shot.phases import (
    PLAY,
    TURN,
)
from rules_engine.kill_shot.special_cards import INTEL, JAM
from rules_engine.kill_shot.state import KillShotState

if TYPE_CHECKING:
    from rules_engine.kill_shot.engine import KillShot

Label = Mapping[str, str]

# The players as the examples name them (the notation's player words, capitalised).
PLAYER_WORDS: Final = {
    "alpha": Bilingual("アルファ", "Alpha"),
    "bravo": Bilingual("ブラボー", "Bravo"),
    "charlie": Bilingual("チャーリー", "Charlie"),
    "delta": Bilingual("デルタ", "Delta"),
    "echo": Bilingual("エコー", "Echo"),
}


def player_word(g: KillShot, p: int) -> Bilingual:
    name = g.names[p]
    return PLAYER_WORDS.get(name, Bilingual(name, name.capitalize()))


def deck_of(g: KillShot, c: int) -> str:
    """The colour deck a card belongs to (a diagram's mark for its colour)."""
    return g.colours[g.colour_of[c]]


def seconds(ms: int) -> str:
    return f"{ms / 1000:.2f}"


# --- what a step did ------------------------------------------------------------------------


@dataclass
class Timed:
    """One event of a timeline: when, whose lane (-1: the table), what, done or coming."""

    at: int
    player: int
    label: Label
    mark: str = ""


@dataclass
class Happened:
    """What the actions since the last drawing did (see `walk`)."""

    before: KillShotState | None
    actions: list[Action] = field(default_factory=list)
    events: list[Timed] = field(default_factory=list)
    timed: bool = False  # a "go!" or a reaction time: the times are the point
    reset: bool = False  # a new hunt began
    pile_base: list[int] = field(default_factory=list)  # per pile: cards below are old
    specials: list[Play] = field(default_factory=list)  # special cards that took effect
    intel_pile: int = -1  # the pile a Bad Intel just cleared
    voided: list[Action] = field(default_factory=list)
    drawn: dict[int, int] = field(default_factory=dict)  # cards added to each hand
    looked: dict[int, int] = field(default_factory=dict)
    turn_played: int = -1  # Situation Room: whose turn was just played
    results: int = 0  # hunt results before the step


def _groups_start(history: list[Step[Action]]) -> int:
    """Where the last action begins, with the chance steps that complete it (the cards a
    reload draws, the order of simultaneous plays)."""
    i = len(history)
    while i > 0 and isinstance(history[i - 1], Draw | Order | Claim):
        i -= 1
    return max(0, i - 1)


def earlier(s: KillShotState) -> KillShotState | None:
    """The state to compare with when `s` was never drawn: before its recorded hunt, or
    before its last action."""
    init = s.init
    history = list(s.history)
    if init is None or not history:
        return None
    start = s.recorded if 0 < s.recorded <= len(history) else 0
    upto = 0 if len(history) == s.recorded else max(start, _groups_start(history))
    before = init.clone()
    before.drawn = None
    for entry in history[:upto]:
        apply_step(before, entry)
    return before


def walk(g: KillShot, before: KillShotState | None, s: KillShotState) -> Happened:
    """Replay the actions from `before` to `s` and note what they did."""
    out = Happened(before)
    if before is None:
        out.pile_base = [len(p) for p in s.piles]
        out.results = len(s.results)
        return out
    w = before.clone()
    w.drawn = None
    out.pile_base = [len(p) for p in w.piles]
    out.results = len(w.results)
    for entry in list(s.history)[len(before.history) :]:
        actions: list[Action] = list(entry) if isinstance(entry, JointAction) else [entry]  # type: ignore[list-item]
        phase = w.phase
        turn = w.turn
        drill = list(w.drill)
        picking_up = not w.picked_up and not g.briefing
        clock = w.clock
        ordered = list(w.order_plays)
        apply_step(w, entry)
        out.actions.extend(actions)
        out.voided.extend(w.voided)
        if len(w.piles) != len(out.pile_base) or any(isinstance(a, Reveal) for a in actions):
            out.reset = True
            out.pile_base = [0] * len(w.piles)
            out.drawn = {}
            out.results = len(w.results)
        out.pile_base = [min(b, len(p)) for b, p in zip(out.pile_base, w.piles, strict=False)]
        if phase == TURN:
            out.turn_played = turn
        for a in actions:
            if isinstance(a, Go):
                out.timed = True
                out.events.append(Timed(w.clock, -1, {"ja": "ゴー！", "en": "go!"}))
                if picking_up:
                    out.events.append(
                        Timed(
                            w.clock + g.pick_up_ms,
                            -1,
                            {"ja": "手札を読み終える", "en": "hands read"},
                        )
                    )
            elif isinstance(a, React):
                out.timed = True
                for p in a.players:
                    if drill[p]:
                        out.events.append(
                            Timed(
                                clock + g.drill_ms,
                                p,
                                {"ja": "手順を言い終える", "en": "drill said"},
                            )
                        )
            elif isinstance(a, Draw | Pick):
                out.drawn[a.player] = out.drawn.get(a.player, 0) + len(a.cards)
            elif isinstance(a, Look):
                out.looked[a.player] = a.slot
            elif isinstance(a, Order):
                for b in ordered:
                    if g.special_of[b.cards[0]] and b not in w.voided:
                        out.specials.append(b)
            elif (
                isinstance(a, Play)
                and g.special_of[a.cards[0]]
                and a not in w.voided
                and a not in w.order_plays
            ):
                out.specials.append(a)
            if phase == PLAY and not isinstance(a, Go | React | Draw | Order | Claim):
                ink = deck_of(g, a.cards[0]) if isinstance(a, Play) else ""
                out.events.append(Timed(w.clock, a.player, action_words(g, a), ink))  # type: ignore[union-attr]
    for a in out.specials:
        if g.special_of[a.cards[0]] == INTEL:
            out.intel_pile = a.pile
    return out


def action_words(g: KillShot, a: Action) -> Label:
    """A player's action in players' words (a timeline's event)."""
    if isinstance(a, Play):
        c = a.cards[0]
        special = g.special_of[c]
        if special == JAM and a.target >= 0:
            target = player_word(g, a.target)
            return {"ja": f"{target.ja}にジャム", "en": f"Jam on {target.en}"}
        if special == INTEL:
            call = g.params["bad_intel"]["call"]
            name = g.card_names[c]
            return {"ja": f"{name.ja}「{call['ja']}」", "en": f"{name.en}: “{call['en']}”"}
        words = card_words(g, c)
        return {"ja": f"{words.ja}を出す", "en": f"plays {words.en}"}
    if isinstance(a, Reload):
        call = g.params["reload"]["call"]
        return {"ja": f"「{call['ja']}」", "en": f"“{call['en']}”"}
    if isinstance(a, Clear):
        return {"ja": "排莢手順を言い始める", "en": "starts the drill"}
    if isinstance(a, Look):
        return {"ja": f"{a.slot + 1}枚目を見る", "en": f"looks at card {a.slot + 1}"}
    if isinstance(a, Wait):
        return {"ja": "待つ", "en": "waits"}
    if isinstance(a, Discard):
        return {"ja": "1枚捨てる", "en": "discards one"}
    return {"ja": "", "en": ""}


def card_words(g: KillShot, c: int) -> Bilingual:
    """A card as players call it: "4 (City)", or a special card's name."""
    name = g.card_names[c]
    if g.special_of[c]:
        return name
    n = g.hunt_of[c]
    return Bilingual(f"{n}({name.ja})", f"{n} ({name.en})")
