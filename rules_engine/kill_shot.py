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
the k-th colour.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    Arrangements,
    Bilingual,
    Diagram,
    DiagramCell,
    DiagramGrid,
    EngineBase,
    IllegalActionError,
    JointAction,
    LazySequence,
    Mapped,
    NotationError,
    Product,
    SetupError,
    StateBase,
    Step,
)
from rules_engine.params import GameData

GAME_ID: Final = "kill-shot"
PLAYER_NAMES: Final = ("alpha", "bravo", "charlie", "delta", "echo")
REAL_TIME: Final = "real-time"
TACTICAL: Final = "tactical-engagement"
SITUATION: Final = "situation-room"
OPTIONAL_RULES: Final = (
    "briefing",
    "deadline",
    "taliban",
    "night_mission",
    "one_shot_one_kill",
    "terror_threat",
)


# The rule options this engine plays.  The options themselves (defaults, allowed values,
# explanations) are data: `options:` in the game's game.yaml, which must state exactly these.
OPTION_NAMES: Final = (
    "game_type",
    "players",
    "briefing",
    "deadline",
    "taliban",
    "night_mission",
    "one_shot_one_kill",
    "terror_threat",
    "situation_room_decks",
    "simultaneous_plays",
    "kill_shot_tie",
    "bad_intel_levels",
    "bad_intel_removed",
    "points_tie",
    "final_tie",
    "second_kill_shot_claimer",
    "extra_cards_limit",
    "jam_blocks",
    "next_hunt_first",
    "deadline_extras",
    "taliban_scoring",
    "claimed_pile",
    "situation_room_cease_fire",
)


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

INTEL: Final = 1
JAM: Final = 2
SPECIAL_IDS: Final = {"bad-intel": INTEL, "jam": JAM}
SPECIAL_LETTERS: Final = {INTEL: "B", JAM: "J"}

# after a discard round
AFTER_PLAY: Final = 0
AFTER_GO: Final = 1
AFTER_TURN: Final = 2

# the simulated players' weights for each kind of action (see `KillShotState.sample_action`)
W_PLAY: Final = 8.0
W_SPECIAL: Final = 1.0
W_RELOAD: Final = 2.0
W_WAIT: Final = 0.5
W_CLEAR: Final = 8.0
W_LOOK: Final = 3.0
W_TURN_PLAY: Final = 6.0
W_TURN_OTHER: Final = 1.0
P_MORE: Final = 0.5  # Situation Room: chance of adding one more card to a play
P_INTERRUPT: Final = 0.1
P_CLIMB: Final = 0.75  # chance of playing the card that moves the hunt furthest
P_DISCARD: Final = 0.5  # a reload discards each card with this chance  # Situation Room: chance of using a special on the player to act


# --- helpers --------------------------------------------------------------------------------


def _sequences(counts: Sequence[int], k: int) -> int:
    """How many distinct ordered draws of k cards a multiset with these counts allows."""
    f = [1] + [0] * k
    for c in counts:
        if not c:
            continue
        g = [0] * (k + 1)
        for j in range(k + 1):
            if f[j]:
                for t in range(min(c, k - j) + 1):
                    g[j + t] += f[j] * math.comb(j + t, t)
        f = g
    return f[k]


class Draws(LazySequence[tuple[int, ...]]):
    """Every distinct ordered draw of `k` cards from a multiset of card kinds, lazily."""

    def __init__(self, cards: Sequence[int], k: int) -> None:
        kinds = sorted(set(cards))
        self._kinds = tuple(kinds)
        self._counts = tuple(list(cards).count(x) for x in kinds)
        self._k = k
        self._len = _sequences(self._counts, k)

    def _item(self, index: int) -> tuple[int, ...]:
        counts = list(self._counts)
        out: list[int] = []
        for left in range(self._k, 0, -1):
            for i, c in enumerate(counts):
                if not c:
                    continue
                counts[i] -= 1
                n = _sequences(counts, left - 1)
                if index < n:
                    out.append(self._kinds[i])
                    break
                index -= n
                counts[i] += 1
        return tuple(out)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != self._k:
            return False
        for v in set(value):
            if v not in self._kinds or value.count(v) > self._counts[self._kinds.index(v)]:
                return False
        return True


class ReactionLaw:
    """Reaction times (ms): a log-normal law cut to [min, max] on a grid of `step` ms.

    Every grid time from 0 to max is a legal outcome; times under `min` have no weight."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.min = int(spec["min"])
        self.median = float(spec["median"])
        self.spread = float(spec["spread"])
        self.max = int(spec["max"])
        self.step = int(spec["step"])
        if not 0 < self.min <= self.median <= self.max or self.step <= 0:
            raise ValueError(f"simulation.reaction_ms is inconsistent: {dict(spec)}")
        self.grid = tuple(range(0, self.max + 1, self.step))
        weights = []
        times = []
        for d in self.grid:
            if d < self.min:
                continue
            z = math.log(d / self.median) / self.spread
            weights.append(math.exp(-0.5 * z * z) / d)
            times.append(d)
        total = 0.0
        cumulative = []
        for w in weights:
            total += w
            cumulative.append(total)
        self._times = tuple(times)
        self._cumulative = tuple(c / total for c in cumulative)

    def sample(self, rnd: Callable[[], float]) -> int:
        i = bisect.bisect_right(self._cumulative, rnd())
        return self._times[min(i, len(self._times) - 1)]

    def legal(self, d: int) -> bool:
        return 0 <= d <= self.max and d % self.step == 0


@dataclass(frozen=True)
class Terrorist:
    """A terrorist card as the engine uses it."""

    id: str
    name: Bilingual
    points: int
    ability: str
    kills: int  # Kill Shots that end its hunt
    hand_change: int
    limit_change: int
    extra_cards: int
    discard: int


@dataclass(frozen=True)
class HuntResult:
    """How one hunt pile ended (public)."""

    hunt: int
    terrorist: int
    winner: int  # -1: escaped
    how: str  # kill-shot | points | tie-lowest | tie-earliest | escaped-* | chance
    totals: tuple[int, ...]  # points of each player's cards in the pile (points claims)


@dataclass(frozen=True)
class KillShotView:
    """What one player can know.  Hidden: other hands, the decks' order and content, the
    discards (face down), everyone's coming reaction times, and under Night Mission (or
    before the first "go" without Briefing) the player's own unseen cards."""

    player: str
    game_type: str
    hunt: int
    phase: str
    clock: int
    taliban: str | None
    terrorists: tuple[str, ...]
    open_piles: tuple[bool, ...]
    piles: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...]
    looking: int
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    discard_sizes: tuple[int, ...]
    set_aside: tuple[str, ...]
    removed: tuple[str, ...]
    jammed: tuple[bool, ...]
    turn: str | None
    deciding: tuple[str, ...]
    captured: tuple[tuple[str, ...], ...]
    escaped: tuple[str, ...]
    scores: tuple[int, ...]
    terrorists_left: int
    log: tuple[str, ...]


class KillShot(EngineBase):
    """KILL SHOT under one rule version and one set of rule options."""

    GAME_ID = GAME_ID
    TITLE = "KILL SHOT"
    OPTION_NAMES = OPTION_NAMES

    def __init__(
        self,
        game: GameData,
        version: str | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        params = self._load_rules(game, version, options)
        o = self._options
        n = self._player_count(game)
        self._set_players(PLAYER_NAMES[:n])
        self.everyone = tuple(range(n))
        self.game_type = str(o["game_type"])
        types = {str(t["id"]): t for t in params["game_types"]}
        if self.game_type not in types:
            raise ValueError(f"game type {self.game_type} is not in the data's game_types")
        gtype = types[self.game_type]
        optional = {str(r["id"]): r for r in params["optional_rules"]}
        self.briefing = bool(o["briefing"])
        self.deadline = bool(o["deadline"])
        self.taliban_rule = bool(o["taliban"])
        self.night = bool(o["night_mission"])
        # Night Mission in real time: a look is an action and only the card looked at can
        # be played.  In Situation Room looking is free during one's turn (no clock), so a
        # player knows the hand but, holding one card at a time, plays one card per turn.
        self.blind = self.night and str(o["game_type"]) != SITUATION
        self.osok = bool(o["one_shot_one_kill"])
        self.terror_threat = bool(o["terror_threat"])
        for name in OPTIONAL_RULES:
            if o[name] and name.replace("_", "-") not in optional:
                raise ValueError(f"optional rule {name} is not in the data's optional_rules")

        # The hunt numbers and the pile rule.
        numbers = params["hunt_numbers"]
        self.first_number = int(numbers["first"])
        self.last_number = int(numbers["last"])
        self.kill_shot = int(params["kill_shot"])
        self.firefight = int(params["firefight"])
        self.start_number = int(params.get("start_hunt_number", self.first_number))
        if not self.first_number <= self.start_number <= self.kill_shot <= self.last_number:
            raise ValueError("hunt numbers: first <= start <= kill_shot <= last is required")
        if self.last_number > 9:
            raise ValueError("card codes use one digit per hunt number")
        follow = [int(x) for x in gtype.get("follow", params["follow"])]
        same_allowed = not self.osok
        if self.osok:
            same_allowed = bool(optional["one-shot-one-kill"].get("same_number_allowed", False))
        taliban_follow = (
            [int(x) for x in optional["taliban"]["terrorist_follow"]] if self.taliban_rule else []
        )
        if not same_allowed:
            follow = [f for f in follow if f != 0]
            taliban_follow = [f for f in taliban_follow if f != 0]
        self.follow = tuple(follow)
        self.taliban_follow = tuple(taliban_follow)
        tops = range(self.last_number + 1)
        self.allowed_tab: tuple[tuple[frozenset[int], ...], ...] = tuple(
            tuple(
                frozenset({self.start_number})
                if top == 0
                else frozenset(
                    top + f for f in offsets if self.first_number <= top + f <= self.last_number
                )
                for top in tops
            )
            for offsets in (self.follow, self.taliban_follow)
        )

        # Game type.
        self.turn_based = gtype.get("turns") not in (False, None, "none")
        self.hand_size = int(gtype.get("hand_size", params["hand_size"]))
        self.hand_limit = int(gtype.get("hand_limit", params["hand_limit"]))
        decks = str(gtype.get("decks", "shared"))
        claims = gtype.get("claim", "first-kill-shot")
        if self.game_type == SITUATION:
            per_colour_type = o["situation_room_decks"] == "per_colour"
            claim_list = list(claims) if isinstance(claims, list) else [claims]
            claim = claim_list[-1] if per_colour_type else claim_list[0]
        else:
            per_colour_type = decks == "per-colour"
            claim = str(claims)
        if claim not in ("first-kill-shot", "most-points-in-pile"):
            raise ValueError(f"unknown claim rule {claim!r}")
        self.points_claim = claim == "most-points-in-pile"
        self.per_colour = per_colour_type or self.deadline or self.taliban_rule
        self.tie_lowest = str(gtype.get("tie_break", "lowest-hunt-number")) == "lowest-hunt-number"

        # Optional rules' numbers.
        if self.deadline:
            start = optional["deadline"]["starting_hand"]
            self.deadline_numbers = tuple(
                range(int(start["one_of_each_from"]), int(start["one_of_each_to"]) + 1)
            )
            self.deadline_extra = int(start["extra_cards"])
            self.refill = bool(optional["deadline"].get("refill", False))
        else:
            self.deadline_numbers = ()
            self.deadline_extra = 0
            self.refill = True
        self.revealed = int(
            optional["terror-threat"]["terrorists_revealed"]
            if self.terror_threat
            else params.get("terrorists_revealed", 1)
        )
        self.levels_removed = int(params["bad_intel"]["levels_removed"])
        self.removed_to_discard = o["bad_intel_removed"] == "discard"
        self.levels_by_number = o["bad_intel_levels"] == "numbers"
        self.chance_orders = o["simultaneous_plays"] == "chance_orders"
        self.tie_escapes = o["kill_shot_tie"] == "escapes"
        self.points_tie_escapes = o["points_tie"] == "escapes"
        self.final_most_captures = o["final_tie"] == "most_captures"
        self.second_claims = o["second_kill_shot_claimer"] == "second"
        self.limit_too = o["extra_cards_limit"] == "limit_too"
        self.jam_all = o["jam_blocks"] == "all_cards"
        self.next_first = str(o["next_hunt_first"])
        self.picks_chosen = o["deadline_extras"] == "chosen"
        self.taliban_scores = o["taliban_scoring"] == "escapes"
        self.claimed_discard = o["claimed_pile"] == "discard"
        self.sr_cease_fire = bool(o["situation_room_cease_fire"])

        # Simulated players.
        sim = params["simulation"]
        self.law = ReactionLaw(sim["reaction_ms"])
        self.countdown_ms = int(sim["countdown_ms"])
        self.drill_ms = int(sim["drill_ms"])
        self.pick_up_ms = int(sim["pick_up_ms"])

        self._read_cards(game)
        self._read_terrorists(game, params)
        if self.per_colour and n > len(self.colours):
            raise ValueError(f"{n} players need {n} colour decks, the data has {len(self.colours)}")
        self.pools = n if self.per_colour else 1
        self.pool_cards: tuple[tuple[int, ...], ...] = (
            tuple(self.colour_cards[c] for c in range(n))
            if self.per_colour
            else (tuple(k for c in range(len(self.colours)) for k in self.colour_cards[c]),)
        )
        self.pool_of_kind = tuple(
            (self.colour_of[k] if self.per_colour else 0) for k in range(len(self.codes))
        )
        self.in_play_kinds = tuple(sorted(set(itertools.chain(*self.pool_cards))))
        self.total = [0] * len(self.codes)
        for pool in self.pool_cards:
            for k in pool:
                self.total[k] += 1
        self.pool_colours: tuple[tuple[int, ...], ...] = (
            tuple((c,) for c in range(n)) if self.per_colour else (tuple(range(len(self.colours))),)
        )
        self.number_kinds: tuple[dict[int, tuple[int, ...]], ...] = tuple(
            {
                number: tuple(self.kind(c, number) for c in self.pool_colours[pool])
                for number in range(self.first_number, self.last_number + 1)
            }
            for pool in range(self.pools)
        )
        # the fewest copies of one number the hunters share (one player may be the Taliban)
        per_pool = [
            min(sum(self.total[k] for k in ks) for ks in kinds.values())
            for kinds in self.number_kinds
        ]
        self.fewest_copies = sum(per_pool) - (max(per_pool) if self.taliban_rule else 0)
        self.releases = not self.turn_based and not self.deadline and self.removed_to_discard
        if self.deadline:
            for c in range(n):
                for number in self.deadline_numbers:
                    if self.total[self.kind(c, number)] < 1:
                        raise ValueError(f"deadline: colour {self.colours[c]} has no {number}")

    # --- data ------------------------------------------------------------------------------

    def _read_cards(self, game: GameData) -> None:
        colours = [d for d in game.decks.values() if "colour" in d.values]
        if not colours:
            raise ValueError("kill-shot needs colour decks (deck values with 'colour')")
        self.colours: tuple[str, ...] = tuple(d.id for d in colours)
        self.colour_names = tuple(Bilingual(d.name.ja, d.name.en) for d in colours)
        letters = tuple(d.id[0] for d in colours)
        if len(set(letters)) != len(letters):
            raise ValueError("colour decks must start with different letters (card codes)")
        self.letters = letters
        numbers = list(range(self.first_number, self.last_number + 1))
        self.symbols = len(numbers) + len(SPECIAL_IDS)
        size = len(colours) * self.symbols
        self.codes: list[str] = [""] * size
        self.hunt_of = [0] * size
        self.special_of = [0] * size
        self.points_of = [0] * size
        self.colour_of = [0] * size
        self.card_names: dict[int, Bilingual] = {}
        counts = [0] * size
        for c, letter in enumerate(letters):
            for s in range(self.symbols):
                k = c * self.symbols + s
                self.colour_of[k] = c
                if s < len(numbers):
                    self.hunt_of[k] = numbers[s]
                    self.codes[k] = f"{letter}{numbers[s]}"
                else:
                    sp = list(SPECIAL_LETTERS)[s - len(numbers)]
                    self.special_of[k] = sp
                    self.codes[k] = f"{letter}{SPECIAL_LETTERS[sp]}"
        index = {d.id: c for c, d in enumerate(colours)}
        for piece in game.pieces:
            if piece.deck is None or piece.deck.id not in index:
                continue
            values = piece.component.values
            c = index[piece.deck.id]
            if "hunt" in values:
                number = int(values["hunt"])
                if number not in numbers:
                    raise ValueError(f"{piece.id}: hunt number {number} is not in {numbers}")
                k = c * self.symbols + numbers.index(number)
            elif values.get("special") in SPECIAL_IDS:
                sp = SPECIAL_IDS[str(values["special"])]
                k = c * self.symbols + len(numbers) + list(SPECIAL_LETTERS).index(sp)
            else:
                raise ValueError(f"{piece.id}: a tactics card needs 'hunt' or a known 'special'")
            counts[k] += piece.count
            self.points_of[k] = int(values.get("points", 0))
            self.card_names[k] = Bilingual(piece.component.name.ja, piece.component.name.en)
        self.colour_cards: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                k for k in range(c * self.symbols, (c + 1) * self.symbols) for _ in range(counts[k])
            )
            for c in range(len(colours))
        )
        self.code_index = {code: k for k, code in enumerate(self.codes)}

    def _read_terrorists(self, game: GameData, params: Mapping[str, Any]) -> None:
        terrorists: list[Terrorist] = []
        for piece in game.pieces:
            values = piece.component.values
            if "ability" not in values:
                continue
            for _ in range(piece.count):
                terrorists.append(
                    Terrorist(
                        piece.component.id,
                        Bilingual(piece.component.name.ja, piece.component.name.en),
                        int(values["points"]),
                        str(values["ability"]),
                        int(values.get("kill_shots_to_end", 1)),
                        int(values.get("hand_size_change", 0)),
                        int(values.get("hand_limit_change", 0)),
                        int(values.get("extra_cards", 0)),
                        int(values.get("discard", 0)),
                    )
                )
        known = {
            "none",
            "claimer-extra-cards",
            "second-kill-shot",
            "short-hand",
            "cease-fire-discard",
            "special-card-discard",
        }
        for t in terrorists:
            if t.ability not in known:
                raise ValueError(f"terrorist {t.id}: unknown ability {t.ability!r}")
        ids = [t.id for t in terrorists]
        if len(set(ids)) != len(ids):
            raise ValueError("terrorist ids must differ (notation)")
        self.terrorists = tuple(terrorists)
        self.terrorist_index = {t.id: i for i, t in enumerate(terrorists)}
        hunts = int(params["hunts"])
        if params.get("terrorists_revealed", 1) == 1 and hunts != len(terrorists):
            raise ValueError(f"hunts ({hunts}) must equal the terrorist cards ({len(terrorists)})")
        self.hunts = -(-len(terrorists) // self.revealed)

    def kind(self, colour: int, number: int) -> int:
        return colour * self.symbols + (number - self.first_number)

    # --- Engine protocol ---------------------------------------------------------------------

    def card_index(self, code: str) -> int:
        k = self.code_index.get(code)
        if k is None:
            raise NotationError(
                f"unknown card '{code}' (a colour letter {'/'.join(self.letters)} and "
                f"{self.first_number}-{self.last_number}, B or J)"
            )
        return k

    def terrorist(self, tid: str) -> int:
        i = self.terrorist_index.get(tid)
        if i is None:
            raise NotationError(
                f"unknown terrorist '{tid}' (terrorists: {', '.join(self.terrorist_index)})"
            )
        return i

    def new_initial_state(self) -> KillShotState:
        return KillShotState(self)

    def code(self, k: int) -> str:
        return self.codes[k]

    def format_action(self, action: Action) -> str:
        names = self.names
        codes = self.codes
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
            return "reveal " + " ".join(self.terrorists[t].id for t in action.terrorists)
        if isinstance(action, First):
            return f"first {names[action.player]}"
        if isinstance(action, Taliban):
            return f"taliban {names[action.player]}"
        raise TypeError(f"not a KILL SHOT action: {action!r}")

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise NotationError("empty action")
        head = words[0]
        try:
            if head == "draw" and len(words) >= 3:
                return Draw(
                    self.player_index(words[1]), tuple(self.card_index(w) for w in words[2:])
                )
            if head in ("go", "react"):
                pairs = words[1:]
                if not pairs or len(pairs) % 2:
                    raise NotationError(
                        f"'{head}' needs player and time pairs, like '{head} alpha 650'"
                    )
                players = [self.player_index(w) for w in pairs[0::2]]
                delays = [int(w) for w in pairs[1::2]]
                if head == "react":
                    return React(tuple(players), tuple(delays))
                if sorted(players) != list(range(self.num_players)) or players != sorted(players):
                    raise NotationError(
                        "'go' gives every player's time in seat order: "
                        + " ".join(f"{n} MS" for n in self.names)
                    )
                return Go(tuple(delays))
            if head == "order" and len(words) >= 2:
                return Order(tuple(self.player_index(w) for w in words[1:]))
            if head == "claim" and len(words) == 2:
                return Claim(self.player_index(words[1]))
            if head == "reveal" and len(words) >= 2:
                return Reveal(tuple(self.terrorist(w) for w in words[1:]))
            if head == "first" and len(words) == 2:
                return First(self.player_index(words[1]))
            if head == "taliban" and len(words) == 2:
                return Taliban(self.player_index(words[1]))
            if len(words) >= 2 and head in self._player_index:
                p = self._player_index[head]
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
                                target = self.player_index(rest[i + 1])
                            i += 2
                            continue
                        cards.append(self.card_index(w))
                        i += 1
                    if not cards:
                        raise NotationError("'plays' needs at least one card")
                    return Play(p, tuple(cards), pile, target)
                if verb == "reload":
                    kinds = tuple(sorted(self.card_index(w) for w in rest if not w.startswith("#")))
                    slots = tuple(sorted(self._slot(w) for w in rest if w.startswith("#")))
                    return Reload(p, kinds, slots)
                if verb == "discards" and len(rest) == 1:
                    if rest[0].startswith("#"):
                        return Discard(p, -1, self._slot(rest[0]))
                    return Discard(p, self.card_index(rest[0]), -1)
                if verb == "picks" and rest:
                    return Pick(p, tuple(sorted(self.card_index(w) for w in rest)))
                if verb == "looks" and len(rest) == 1:
                    return Look(p, self._slot(rest[0]))
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

    def _slot(self, word: str) -> int:
        if not word.startswith("#") or not word[1:].isdigit() or int(word[1:]) < 1:
            raise NotationError(f"a hand position is '#1', '#2'...: got {word!r}")
        return int(word[1:]) - 1

    # --- worked examples ---------------------------------------------------------------------

    SETUP_KEYS: Final = (
        "hunt",
        "terrorists",
        "remaining",
        "captured",
        "escaped",
        "taliban",
        "pile",
        "piles",
        "hands",
        "deck",
        "discards",
        "set_aside",
        "jammed",
        "clock",
        "ready",
        "turn",
        "looking",
        "known",
        "picked_up",
        "record",
    )

    def setup_state(self, setup: Mapping[str, Any]) -> KillShotState:
        """A state in the middle of a hunt, from an example's setup.

        `terrorists` (on the piles), `pile` or `piles` (cards bottom to top, "r5" or
        "r5 alpha" = who played it; by default a colour's player), `hands`, `deck` and
        `discards` (by default every other card is in the deck; given a deck alone, every
        other card is in the discards), `set_aside`, `captured`,
        `escaped`, `remaining` (the terrorist deck), `taliban`, `jammed`, `clock` (ms),
        `ready` (real time: when each player acts next; without it the countdown is under
        way and "go" comes at `clock`), `turn` (Situation Room), `looking` / `known` (Night
        Mission, hand positions from 1), `picked_up`, and `record` (a recorded hunt to
        check from this position: see `check_record`)."""
        for key in setup:
            if key not in self.SETUP_KEYS:
                raise SetupError(
                    (key,), f"unknown setup key '{key}' (known: {', '.join(self.SETUP_KEYS)})"
                )
        n = self.num_players
        s = KillShotState(self, blank=True)
        hunt = setup.get("hunt", 1)
        if not isinstance(hunt, int) or isinstance(hunt, bool) or hunt < 1:
            raise SetupError(("hunt",), f"hunt must be a positive integer, got {hunt!r}")
        s.hunt = hunt
        if "terrorists" not in setup:
            raise SetupError(("terrorists",), "give the terrorist(s) being hunted")
        revealed = [
            self._setup_terrorist(t, ("terrorists", i))
            for i, t in enumerate(self._list(setup, "terrorists"))
        ]
        if not 1 <= len(revealed) <= self.revealed:
            raise SetupError(
                ("terrorists",), f"1 to {self.revealed} terrorist(s) are hunted at once"
            )
        if "taliban" in setup:
            if not self.taliban_rule:
                raise SetupError(("taliban",), "the Taliban option is not in play")
            s.taliban = self._setup_player(setup["taliban"], ("taliban",))
        elif self.taliban_rule:
            raise SetupError(("taliban",), "name the Taliban player")
        captured = setup.get("captured", {})
        if not isinstance(captured, Mapping):
            raise SetupError(("captured",), "captured maps players to terrorists")
        used = set(revealed)
        for name, ids in captured.items():
            p = self._setup_player(name, ("captured", name))
            for i, tid in enumerate(ids):
                t = self._setup_terrorist(tid, ("captured", name, i))
                s.captured[p].append(t)
                s.scores[p] += self.terrorists[t].points
                used.add(t)
        for i, tid in enumerate(self._list(setup, "escaped")):
            t = self._setup_terrorist(tid, ("escaped", i))
            s.escaped.append(t)
            used.add(t)
            if s.taliban >= 0 and self.taliban_scores:
                s.scores[s.taliban] += self.terrorists[t].points
        if "remaining" in setup:
            s.terr_left = [
                self._setup_terrorist(t, ("remaining", i))
                for i, t in enumerate(self._list(setup, "remaining"))
            ]
            if used & set(s.terr_left):
                raise SetupError(("remaining",), "a terrorist cannot be both hunted and remaining")
        else:
            s.terr_left = [t for t in range(len(self.terrorists)) if t not in used]
        k = len(revealed)
        s.pile_terr = revealed
        s.pile_open = [True] * k
        s.pile_need = [self.terrorists[t].kills for t in revealed]
        if "pile" in setup and "piles" in setup:
            raise SetupError(("piles",), "give 'pile' or 'piles', not both")
        if "piles" in setup:
            raw = self._list(setup, "piles")
            if len(raw) != k:
                raise SetupError(("piles",), f"{k} pile(s), one per terrorist")
            keyed: list[tuple[str | int, ...]] = [("piles", i) for i in range(k)]
        else:
            raw = [setup.get("pile", [])] + [[] for _ in range(k - 1)]
            keyed = [("pile",)] + [("piles", i) for i in range(1, k)]
        s.piles = []
        s.pile_by = []
        for pile, where in zip(raw, keyed, strict=True):
            if not isinstance(pile, list):
                raise SetupError(where, "a pile is a list of cards, bottom first")
            cards = []
            by = []
            for i, entry in enumerate(pile):
                words = str(entry).split()
                if len(words) not in (1, 2):
                    raise SetupError(
                        (*where, i), f"a pile card is 'r5' or 'r5 alpha', got {entry!r}"
                    )
                c = self._setup_card(words[0], (*where, i))
                cards.append(c)
                if len(words) == 2:
                    by.append(self._setup_player(words[1], (*where, i)))
                else:
                    colour = self.colour_of[c]
                    by.append(colour if colour < n else 0)
            s.piles.append(cards)
            s.pile_by.append(by)
        s.pile_kills = [sum(self.hunt_of[c] == self.kill_shot for c in pile) for pile in s.piles]
        s.pile_first9 = [
            next(
                (q for c, q in zip(pile, by, strict=True) if self.hunt_of[c] == self.kill_shot), -1
            )
            for pile, by in zip(s.piles, s.pile_by, strict=True)
        ]
        limit_change = sum(self.terrorists[t].limit_change for t in revealed)
        s.limits = [self.hand_limit + limit_change] * n
        hands = setup.get("hands", {})
        if not isinstance(hands, Mapping):
            raise SetupError(("hands",), "hands maps players to their cards")
        for name, cards in hands.items():
            p = self._setup_player(name, ("hands", name))
            if not isinstance(cards, list):
                raise SetupError(("hands", name), "a hand is a list of cards")
            s.hands[p] = [self._setup_card(c, ("hands", name, i)) for i, c in enumerate(cards)]
        s.known = [[not self.blind] * len(h) for h in s.hands]
        for name, slots in (setup.get("known") or {}).items():
            p = self._setup_player(name, ("known", name))
            for i, slot in enumerate(slots):
                if not isinstance(slot, int) or not 1 <= slot <= len(s.hands[p]):
                    raise SetupError(("known", name, i), f"a hand position 1-{len(s.hands[p])}")
                s.known[p][slot - 1] = True
        for name, slot in (setup.get("looking") or {}).items():
            p = self._setup_player(name, ("looking", name))
            if not isinstance(slot, int) or not 1 <= slot <= len(s.hands[p]):
                raise SetupError(("looking", name), f"a hand position 1-{len(s.hands[p])}")
            s.looking[p] = slot - 1
            s.known[p][slot - 1] = True
        s.set_aside = [
            self._setup_card(c, ("set_aside", i))
            for i, c in enumerate(self._list(setup, "set_aside"))
        ]
        s.out = [0] * len(self.codes)
        for pile in s.piles:
            for c in pile:
                s.out[c] += 1
        for c in s.set_aside:
            s.out[c] += 1
        s.discards = self._setup_pools(setup, "discards", None)
        rest_to_discards = "deck" in setup and "discards" not in setup
        placed: list[list[int]] = [[] for _ in range(self.pools)]
        for p, hand in enumerate(s.hands):
            placed[p if self.per_colour else 0].extend(hand)
        for c in itertools.chain(*s.piles, s.set_aside):
            if self.pool_of_kind[c] >= self.pools or c not in self.pool_cards[self.pool_of_kind[c]]:
                raise SetupError(("piles",), f"{self.codes[c]} is not in play")
            placed[self.pool_of_kind[c]].append(c)
        for pool in range(self.pools):
            placed[pool].extend(s.discards[pool])
        rest = []
        for pool in range(self.pools):
            left = list(self.pool_cards[pool])
            for c in placed[pool]:
                if c not in left:
                    who = self.names[pool] + "'s colour" if self.per_colour else "the game"
                    raise SetupError(("hands",), f"too many {self.codes[c]}: more than {who} has")
                left.remove(c)
            rest.append(left)
        if rest_to_discards:
            s.decks = self._setup_pools(setup, "deck", None)
            for pool in range(self.pools):
                left = list(rest[pool])
                for c in s.decks[pool]:
                    if c not in left:
                        raise SetupError(("deck",), f"too many {self.codes[c]}")
                    left.remove(c)
                s.discards[pool] = left
        elif "deck" in setup:
            s.decks = self._setup_pools(setup, "deck", None)
            for pool in range(self.pools):
                if sorted(s.decks[pool]) != sorted(rest[pool]):
                    raise SetupError(
                        ("deck",),
                        "the deck must hold exactly the cards not placed elsewhere: "
                        + " ".join(self.codes[c] for c in sorted(rest[pool])),
                    )
        else:
            s.decks = rest
        if self.deadline:
            s.pick_sizes = [0] * n
        for i, name in enumerate(self._list(setup, "jammed")):
            s.jammed[self._setup_player(name, ("jammed", i))] = True
        clock = setup.get("clock", 0)
        if not isinstance(clock, int) or isinstance(clock, bool):
            raise SetupError(("clock",), "clock is a whole number of ms")
        picked = setup.get("picked_up", True)
        if not isinstance(picked, bool):
            raise SetupError(("picked_up",), "picked_up is true or false")
        s.picked_up = picked
        if self.turn_based:
            if "ready" in setup:
                raise SetupError(("ready",), "Situation Room has turns, not reaction times")
            if "turn" not in setup:
                raise SetupError(("turn",), "give whose turn it is")
            s.turn = self._setup_player(setup["turn"], ("turn",))
            s.clock = 0
            s._open_turn()
        else:
            if "turn" in setup:
                raise SetupError(("turn",), "real time has no turns")
            ready = setup.get("ready")
            if ready is None:
                s.clock = clock - self.countdown_ms
                s.phase = GO
            else:
                if not isinstance(ready, Mapping) or sorted(
                    self._setup_player(x, ("ready", x)) for x in ready
                ) != list(range(n)):
                    raise SetupError(("ready",), "ready gives every player's next action time (ms)")
                for name, t in ready.items():
                    if not isinstance(t, int) or isinstance(t, bool) or t < clock:
                        raise SetupError(
                            ("ready", name), f"a time in ms, not before the clock ({clock})"
                        )
                    s.ready[self._player_index[name]] = t
                s.clock = clock
                s.phase = PLAY
        s.init = s.clone()
        if "record" in setup:
            lines = setup["record"]
            if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
                raise SetupError(("record",), "a record is a list of lines")
            result = check_record(self, s, lines)
            s = result.state
            s.record_error = None if result.ok else f"line {result.line}: {result.message}"
        return s

    def _list(self, setup: Mapping[str, Any], key: str) -> list[Any]:
        value = setup.get(key, [])
        if not isinstance(value, list):
            raise SetupError((key,), f"'{key}' must be a list")
        return value

    def _setup_card(self, code: object, key: tuple[str | int, ...]) -> int:
        k = self.code_index.get(str(code))
        if k is None or k not in self.in_play_kinds:
            raise SetupError(key, f"unknown card or card not in play: {code!r}")
        return k

    def _setup_terrorist(self, tid: object, key: tuple[str | int, ...]) -> int:
        t = self.terrorist_index.get(str(tid))
        if t is None:
            raise SetupError(
                key, f"unknown terrorist {tid!r} (terrorists: {', '.join(self.terrorist_index)})"
            )
        return t

    def _setup_pools(self, setup: Mapping[str, Any], key: str, default: Any) -> list[list[int]]:
        value = setup.get(key, default)
        pools: list[list[int]] = [[] for _ in range(self.pools)]
        if value is None:
            return pools
        if self.per_colour:
            if not isinstance(value, Mapping):
                raise SetupError((key,), f"with colour decks '{key}' maps players to cards")
            for name, cards in value.items():
                p = self._setup_player(name, (key, name))
                pools[p] = [self._setup_card(c, (key, name, i)) for i, c in enumerate(cards)]
            return pools
        if not isinstance(value, list):
            raise SetupError((key,), f"'{key}' is a list of cards")
        pools[0] = [self._setup_card(c, (key, i)) for i, c in enumerate(value)]
        return pools

    # --- queries for worked examples ---------------------------------------------------------

    QUERIES = (
        "phase",
        "hunt",
        "clock",
        "pile",
        "piles",
        "top",
        "tops",
        "open_piles",
        "kill_shots",
        "hands",
        "hand_sizes",
        "limits",
        "deck_size",
        "discards",
        "removed",
        "set_aside",
        "terrorists",
        "captured",
        "escaped",
        "scores",
        "last_result",
        "results",
        "pile_points",
        "jammed",
        "ready",
        "pending",
        "turn",
        "voided",
        "looking",
        "taliban",
        "winner",
        "record_check",
    )

    def result_text(self, r: HuntResult) -> str:
        who = self.names[r.winner] if r.winner >= 0 else "escaped"
        return f"hunt {r.hunt}: {self.terrorists[r.terrorist].id} -> {who} ({r.how})"

    def query(self, state: Any, name: str) -> Any:
        if not isinstance(state, KillShotState):
            raise TypeError("not a KILL SHOT state")
        s = state
        names = self.names
        codes = self.codes
        n = s.n

        def pools(lists: list[list[int]]) -> Any:
            if self.per_colour:
                return {names[p]: [codes[c] for c in lists[p]] for p in range(n)}
            return [codes[c] for c in lists[0]]

        if name == "phase":
            return PHASE_NAMES[s.phase]
        if name == "hunt":
            return s.hunt
        if name == "clock":
            return s.clock
        if name == "pile":
            return [codes[c] for c in s.piles[0]] if s.piles else []
        if name == "piles":
            return [[codes[c] for c in pile] for pile in s.piles]
        if name == "top":
            return self.hunt_of[s.piles[0][-1]] if s.piles and s.piles[0] else 0
        if name == "tops":
            return [self.hunt_of[p[-1]] if p else 0 for p in s.piles]
        if name == "open_piles":
            return list(s.pile_open)
        if name == "kill_shots":
            return list(s.pile_kills)
        if name == "hands":
            return {names[p]: [codes[c] for c in s.hands[p]] for p in range(n)}
        if name == "hand_sizes":
            return {names[p]: len(s.hands[p]) for p in range(n)}
        if name == "limits":
            return {names[p]: s.limits[p] for p in range(n)}
        if name == "deck_size":
            if self.per_colour:
                return {names[p]: len(s.decks[p]) for p in range(n)}
            return len(s.decks[0])
        if name == "discards":
            return pools(s.discards)
        if name == "removed":
            return [codes[c] for c in s.removed]
        if name == "set_aside":
            return [codes[c] for c in s.set_aside]
        if name == "terrorists":
            return [self.terrorists[t].id for t in s.pile_terr]
        if name == "captured":
            return {names[p]: [self.terrorists[t].id for t in s.captured[p]] for p in range(n)}
        if name == "escaped":
            return [self.terrorists[t].id for t in s.escaped]
        if name == "scores":
            return {names[p]: s.scores[p] for p in range(n)}
        if name == "last_result":
            if not s.results:
                return None
            r = s.results[-1]
            return {
                "hunt": r.hunt,
                "terrorist": self.terrorists[r.terrorist].id,
                "winner": names[r.winner] if r.winner >= 0 else None,
                "how": r.how,
                "totals": {names[p]: r.totals[p] for p in range(n)} if r.totals else {},
            }
        if name == "results":
            return [self.result_text(r) for r in s.results]
        if name == "pile_points":
            totals = [0] * n
            if s.piles:
                for c, q in zip(s.piles[0], s.pile_by[0], strict=True):
                    totals[q] += self.points_of[c]
            return {names[p]: totals[p] for p in range(n)}
        if name == "jammed":
            return [names[p] for p in range(n) if s.jammed[p]]
        if name == "ready":
            return {names[p]: s.ready[p] for p in range(n)} if s.phase == PLAY else {}
        if name == "pending":
            return [names[p] for p in sorted(s.pending)]
        if name == "turn":
            return names[s.turn] if self.turn_based else None
        if name == "voided":
            return [self.format_action(a) for a in s.voided]
        if name == "looking":
            return {names[p]: s.looking[p] + 1 for p in range(n)}
        if name == "taliban":
            return names[s.taliban] if s.taliban >= 0 else None
        if name == "winner":
            if s.phase != OVER:
                return None
            return names[s.winners[0]] if len(s.winners) == 1 else "draw"
        if name == "record_check":
            return s.record_error or "ok"
        raise KeyError(name)

    def diagram(self, state: Any) -> Diagram:
        """The hunt pile(s) (the top card marked, Bad Intel's last removed cards struck out)
        and every hand (the players about to act marked)."""
        if not isinstance(state, KillShotState):
            raise TypeError("not a KILL SHOT state")
        s = state
        rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
        for k, pile in enumerate(s.piles):
            t = self.terrorists[s.pile_terr[k]]
            label = t.name.ja if len(s.piles) == 1 else f"{k + 1} {t.name.ja}"
            label_en = t.name.en if len(s.piles) == 1 else f"{k + 1} {t.name.en}"
            cells = tuple(
                DiagramCell(self.codes[c], "active" if i == len(pile) - 1 else "")
                for i, c in enumerate(pile)
            )
            rows.append(({"ja": label, "en": label_en}, cells))
        if s.removed:
            rows.append(
                (
                    {"ja": "除去", "en": "removed"},
                    tuple(DiagramCell(self.codes[c], "sunk") for c in s.removed),
                )
            )
        width = max([len(cells) for _, cells in rows] + [1])
        grids = [
            DiagramGrid(
                {"ja": "捜索パイル", "en": "Hunt pile"},
                tuple(str(i + 1) for i in range(width)),
                tuple(rows) if rows else (({"ja": "", "en": ""}, ()),),
            )
        ]
        acting = set(s.current_players())
        hand_rows = []
        for p in range(s.n):
            mark = "active" if p in acting else ""
            jam = " (J)" if s.jammed[p] else ""
            hand_rows.append(
                (
                    {"ja": self.names[p] + jam, "en": self.names[p] + jam},
                    tuple(DiagramCell(self.codes[c], mark) for c in s.hands[p]),
                )
            )
        width = max([len(h) for h in s.hands] + [1])
        grids.append(
            DiagramGrid(
                {"ja": "手札", "en": "Hands"},
                tuple(str(i + 1) for i in range(width)),
                tuple(hand_rows),
            )
        )
        return tuple(grids)


class KillShotState(StateBase[Action, KillShot]):
    """A position of KILL SHOT (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "game-end"
    JOINT_RULE = "timing"
    JOINT_NEEDED = "{n} players act at the same instant ({names}): give a joint action"

    __slots__ = (
        "_history",
        "after_discard",
        "bonus",
        "captured",
        "claims",
        "clock",
        "countdown",
        "decks",
        "dirty",
        "discard_rounds",
        "discards",
        "draws",
        "drill",
        "escaped",
        "g",
        "halt",
        "hands",
        "hunt",
        "init",
        "jammed",
        "known",
        "last_actor",
        "limits",
        "looking",
        "n",
        "next_start",
        "order_plays",
        "out",
        "pending",
        "phase",
        "pick_sizes",
        "picked_up",
        "pickers",
        "pile_by",
        "pile_first9",
        "pile_kills",
        "pile_need",
        "pile_open",
        "pile_terr",
        "piles",
        "ready",
        "record_error",
        "removed",
        "results",
        "scores",
        "set_aside",
        "taliban",
        "terr_left",
        "turn",
        "voided",
        "winners",
    )

    def __init__(self, engine: KillShot, blank: bool = False) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self._history: list[Step[Action]] = []
        self.init: KillShotState | None = None
        self.phase = TALIBAN
        self.hunt = 0
        self.clock = 0
        self.terr_left: list[int] = list(range(len(g.terrorists)))
        self.pile_terr: list[int] = []
        self.piles: list[list[int]] = []
        self.pile_by: list[list[int]] = []
        self.pile_open: list[bool] = []
        self.pile_kills: list[int] = []
        self.pile_need: list[int] = []
        self.pile_first9: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[bool]] = [[] for _ in range(n)]
        self.looking = [-1] * n
        self.decks: list[list[int]] = [list(c) for c in g.pool_cards]
        self.discards: list[list[int]] = [[] for _ in range(g.pools)]
        self.set_aside: list[int] = []
        self.out = [0] * len(g.codes)
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.escaped: list[int] = []
        self.scores = [0] * n
        self.jammed = [False] * n
        self.drill = [False] * n
        self.ready = [0] * n
        self.pending: list[int] = []
        self.picked_up = False
        self.limits = [g.hand_limit] * n
        self.bonus = [0] * n
        self.taliban = -1
        self.draws: list[list[int]] = []  # [player, cards wanted]
        self.pickers: list[int] = []
        self.pick_sizes = [0] * n
        self.discard_rounds: list[tuple[int, ...]] = []
        self.after_discard = AFTER_PLAY
        self.order_plays: list[Play] = []
        self.claims: list[tuple[int, tuple[int, ...]]] = []
        self.turn = 0
        self.last_actor = 0
        self.next_start = 0
        self.removed: list[int] = []
        self.voided: list[Action] = []
        self.results: list[HuntResult] = []
        self.winners: tuple[int, ...] = ()
        self.halt = False
        self.countdown = False
        self.dirty = False
        self.record_error: str | None = None
        if not blank:
            self.phase = TALIBAN if g.taliban_rule else REVEAL
            self.init = self.clone()

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == OVER:
            return ()
        if self.draws:
            return (CHANCE,)
        if phase == PLAY:
            if self.pending:
                return (CHANCE,)
            return self._actors()
        if phase == TURN:
            return self.g.everyone
        if phase == DISCARD:
            return self.discard_rounds[0]
        if phase == PICK:
            return tuple(self.pickers)
        if phase == TURN_START:
            return ()
        return (CHANCE,)

    def _actors(self) -> tuple[int, ...]:
        r = self.ready
        t = min(r)
        return tuple(p for p in range(self.n) if r[p] == t)

    def legal_actions(self, player: int) -> Sequence[Action]:
        if player not in self.current_players():
            return []
        if player == CHANCE:
            return self._chance_outcomes()
        phase = self.phase
        if phase == PLAY:
            return self._rt_legal(player)
        if phase == TURN:
            if player == self.turn:
                return self._turn_legal(player)
            return [Pass(player), *self._window_specials(player)]
        if phase == DISCARD:
            hand = self.hands[player]
            if self.g.night:
                return [Discard(player, -1, s) for s in range(len(hand))]
            return [Discard(player, c, -1) for c in sorted(set(hand))]
        if phase == PICK:
            rest = sorted(self.decks[player])
            return [
                Pick(player, combo)
                for combo in sorted(set(itertools.combinations(rest, self.pick_sizes[player])))
            ]
        return []

    def is_legal(self, player: int, action: Action) -> bool:
        return player in self.current_players() and super().is_legal(player, action)

    def sample_action(self, player: int, rng: random.Random) -> Action:
        """A random legal action.  Chance: by the outcomes' odds.  A player: the simulated
        player, who picks a kind of action with fixed weights (play, special card, reload,
        wait...), then one action of that kind uniformly (a reload discards each card with
        odds 1/2; a Situation Room play adds another legal card with odds 1/2)."""
        if player not in self.current_players():
            raise IllegalActionError(
                "timing", f"{self.g.player_name(player)} has nothing to do now ({self._now()})"
            )
        return self._sample(player, rng)

    def _sample(self, player: int, rng: random.Random) -> Action:
        if player == CHANCE:
            return self._sample_chance(rng)
        phase = self.phase
        if phase == PLAY:
            return self._rt_policy(player, rng)
        if phase == TURN:
            if player == self.turn:
                return self._turn_policy(player, rng)
            specials = self._window_specials(player)
            if specials and rng.random() < P_INTERRUPT:
                return specials[int(rng.random() * len(specials))]
            return Pass(player)
        if phase == DISCARD:
            hand = self.hands[player]
            i = int(rng.random() * len(hand))
            return Discard(player, -1, i) if self.g.night else Discard(player, hand[i], -1)
        if phase == PICK:
            rest = sorted(self.decks[player])
            return Pick(player, tuple(sorted(rng.sample(rest, self.pick_sizes[player]))))
        raise IllegalActionError("timing", f"{self.g.player_name(player)} has nothing to do now")

    def clone(self) -> KillShotState:
        new = KillShotState.__new__(KillShotState)
        for name in KillShotState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(x) if isinstance(x, list) else x for x in value]
            setattr(new, name, value)
        return new

    def initial(self) -> KillShotState:
        base = self.init if self.init is not None else self
        new = base.clone()
        new._history = []
        new.init = base
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.hunt, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        def freeze(value: Any) -> Any:
            if isinstance(value, list):
                return tuple(freeze(x) for x in value)
            return value

        skip = {"g", "init", "_history"}
        return (
            *self._rules_key(),
            tuple(self._history),
            tuple(freeze(getattr(self, s)) for s in KillShotState.__slots__ if s not in skip),
        )

    def __repr__(self) -> str:
        return (
            f"<KillShotState hunt {self.hunt} {PHASE_NAMES[self.phase]} clock {self.clock} "
            f"scores {self.scores}>"
        )

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random, max_steps: int = 1_000_000) -> int:
        """Play to the end with the simulated players (the same game as `core.play_random`
        for the same seed, faster: actions are drawn legal and skip the check, and the
        commonest steps, a reaction time and one player's real-time action, are inlined)."""
        history = self._history
        rnd = rng.random
        law = self.g.law
        sample = law.sample
        steps = 0
        while True:
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"no end after {max_steps} steps")
            phase = self.phase
            if phase == PLAY and not self.draws:
                pending = self.pending
                if pending:
                    if len(pending) == 1:
                        react = React((pending[0],), (sample(rnd),))
                    else:
                        movers = tuple(sorted(pending))
                        react = React(movers, tuple([sample(rnd) for _ in movers]))
                    history.append(react)
                    self._react(react)
                    continue
                ready = self.ready
                t = min(ready)
                if ready.count(t) == 1:
                    p = ready.index(t)
                    action = self._rt_policy(p, rng)
                    history.append(action)
                    if self.voided:
                        self.voided = []
                    self.halt = False
                    self.clock = t
                    self._rt_apply(action)
                    self._settle()
                    continue
            elif phase == OVER:
                return steps - 1
            elif phase == TURN and not self.draws:
                t = self.turn
                rnd = rng.random
                turn_actions: list[Action] = []
                for q in self.g.everyone:
                    if q == t:
                        turn_actions.append(self._turn_policy(q, rng))
                        continue
                    specials = self._window_specials(q)
                    if specials and rnd() < P_INTERRUPT:
                        turn_actions.append(specials[int(rnd() * len(specials))])
                    else:
                        turn_actions.append(Pass(q))
                history.append(JointAction(turn_actions))
                if self.voided:
                    self.voided = []
                self.halt = False
                self._turn_joint(turn_actions)
                continue
            players = self.current_players()
            if len(players) == 1:
                action = self._sample(players[0], rng)
                history.append(action)
                self._do(action)
            else:
                actions = JointAction(self._sample(p, rng) for p in players)
                history.append(actions)
                self._do_joint(actions)

    # --- chance ----------------------------------------------------------------------------------

    def _pool(self, player: int) -> int:
        return player if self.g.per_colour else 0

    def _draw_count(self, entry: list[int]) -> int:
        pool = self._pool(entry[0])
        return min(entry[1], len(self.decks[pool]) + len(self.discards[pool]))

    def _prune(self) -> None:
        draws = self.draws
        while draws and self._draw_count(draws[0]) <= 0:
            draws.pop(0)
        if not draws and self.phase == TURN_START:
            self._open_turn()

    def _chance_outcomes(self) -> Sequence[Action]:
        g = self.g
        if self.draws:
            p = self.draws[0][0]
            k = self._draw_count(self.draws[0])
            pool = self._pool(p)
            deck = self.decks[pool]
            disc = self.discards[pool]
            if not deck:
                deck, disc = disc, []
            if k <= len(deck):
                return Mapped(
                    Draws(deck, k),
                    lambda t: Draw(p, t),
                    lambda a: a.cards if isinstance(a, Draw) and a.player == p else None,
                )
            d = len(deck)
            return Mapped(
                Product(Draws(deck, d), Draws(disc, k - d)),
                lambda t: Draw(p, t[0] + t[1]),
                lambda a: (
                    (a.cards[:d], a.cards[d:]) if isinstance(a, Draw) and a.player == p else None
                ),
            )
        phase = self.phase
        if phase == TALIBAN:
            return [Taliban(p) for p in range(self.n)]
        if phase == FIRST:
            return [First(p) for p in range(self.n)]
        if phase == REVEAL:
            k = min(g.revealed, len(self.terr_left))
            return Mapped(
                Arrangements(self.terr_left, k),
                Reveal,
                lambda a: a.terrorists if isinstance(a, Reveal) else None,
            )
        if phase == GO:
            return Mapped(
                Product(*[g.law.grid] * self.n),
                Go,
                lambda a: a.delays if isinstance(a, Go) else None,
            )
        if phase == PLAY:
            players = tuple(sorted(self.pending))
            return Mapped(
                Product(*[g.law.grid] * len(players)),
                lambda t: React(players, t),
                lambda a: a.delays if isinstance(a, React) and a.players == players else None,
            )
        if phase == ORDER:
            movers = sorted(a.player for a in self.order_plays)
            return [Order(perm) for perm in itertools.permutations(movers)]
        if phase == CLAIM:
            return [Claim(p) for p in self.claims[0][1]]
        return []

    def _sample_chance(self, rng: random.Random) -> Action:
        g = self.g
        rnd = rng.random
        if self.draws:
            p = self.draws[0][0]
            k = self._draw_count(self.draws[0])
            pool = self._pool(p)
            deck = list(self.decks[pool])
            disc = list(self.discards[pool])
            out = []
            for _ in range(k):
                if not deck:
                    deck, disc = disc, []
                c = deck[int(rnd() * len(deck))]
                deck.remove(c)
                out.append(c)
                if not deck and disc:
                    deck, disc = disc, []
            return Draw(p, tuple(out))
        phase = self.phase
        if phase == PLAY:
            law = g.law
            players = tuple(sorted(self.pending))
            return React(players, tuple(law.sample(rnd) for _ in players))
        if phase == GO:
            law = g.law
            return Go(tuple(law.sample(rnd) for _ in range(self.n)))
        if phase == REVEAL:
            left = list(self.terr_left)
            picked = []
            for _ in range(min(g.revealed, len(left))):
                picked.append(left.pop(int(rnd() * len(left))))
            return Reveal(tuple(picked))
        if phase == ORDER:
            movers = [a.player for a in self.order_plays]
            rng.shuffle(movers)
            return Order(tuple(movers))
        if phase == CLAIM:
            cands = self.claims[0][1]
            return Claim(cands[int(rnd() * len(cands))])
        if phase == FIRST:
            return First(int(rnd() * self.n))
        if phase == TALIBAN:
            return Taliban(int(rnd() * self.n))
        raise IllegalActionError("timing", f"chance has nothing to do now ({self._now()})")

    # --- applying ---------------------------------------------------------------------------------

    def _do(self, a: Action) -> None:
        self.voided = []
        self.halt = False
        if self.draws:
            assert isinstance(a, Draw)
            self._do_draw(a)
            return
        phase = self.phase
        if phase == PLAY:
            if isinstance(a, React):
                self._react(a)
            else:
                self._rt_joint([a])
        elif phase == GO:
            assert isinstance(a, Go)
            self._go(a)
        elif phase == TURN:
            self._turn_joint([a])
        elif phase == DISCARD:
            self._discards([a])
        elif phase == PICK:
            self._picks([a])
        elif phase == REVEAL:
            assert isinstance(a, Reveal)
            self._reveal(a.terrorists)
        elif phase == ORDER:
            assert isinstance(a, Order)
            self._order(a.players)
        elif phase == CLAIM:
            assert isinstance(a, Claim)
            self._claim(a.player)
        elif phase == FIRST:
            assert isinstance(a, First)
            self._goto_turn(a.player)
        elif phase == TALIBAN:
            assert isinstance(a, Taliban)
            self.taliban = a.player
            self.phase = REVEAL

    def _do_joint(self, actions: Sequence[Action]) -> None:
        self.voided = []
        self.halt = False
        phase = self.phase
        if phase == PLAY:
            self._rt_joint(actions)
        elif phase == TURN:
            self._turn_joint(actions)
        elif phase == DISCARD:
            self._discards(actions)
        elif phase == PICK:
            self._picks(actions)
        else:
            raise IllegalActionError("timing", f"no simultaneous step now ({self._now()})")

    def _do_draw(self, a: Draw) -> None:
        g = self.g
        p = a.player
        pool = self._pool(p)
        hand = self.hands[p]
        night = g.night
        seen = not g.blind
        for c in a.cards:
            deck = self.decks[pool]
            if not deck:
                deck = self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
            deck.remove(c)
            hand.append(c)
            if night:
                self.known[p].append(seen)
            if not deck and self.discards[pool]:
                self.decks[pool] = self.discards[pool]
                self.discards[pool] = []
        self.draws.pop(0)
        self._prune()

    def _begin_hunt(self) -> None:
        """A new hunt: every tactics card back into its deck (shuffled: draws are random),
        when the next terrorist is turned up (until then the last hunt's table stays)."""
        g = self.g
        n = self.n
        self.hunt += 1
        self.clock = -g.countdown_ms
        self.decks = [list(c) for c in g.pool_cards]
        self.discards = [[] for _ in range(g.pools)]
        self.hands = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.looking = [-1] * n
        self.set_aside = []
        self.out = [0] * len(g.codes)
        self.jammed = [False] * n
        self.drill = [False] * n
        self.ready = [0] * n
        self.pending = []
        self.picked_up = False
        self.removed = []
        self.countdown = False

    def _reveal(self, ts: tuple[int, ...]) -> None:
        g = self.g
        n = self.n
        self._begin_hunt()
        for t in ts:
            self.terr_left.remove(t)
        k = len(ts)
        self.pile_terr = list(ts)
        self.piles = [[] for _ in range(k)]
        self.pile_by = [[] for _ in range(k)]
        self.pile_open = [True] * k
        self.pile_kills = [0] * k
        self.pile_need = [g.terrorists[t].kills for t in ts]
        self.pile_first9 = [-1] * k
        hand_change = sum(g.terrorists[t].hand_change for t in ts)
        limit_change = sum(g.terrorists[t].limit_change for t in ts)
        for p in range(n):
            self.limits[p] = g.hand_limit + limit_change + (self.bonus[p] if g.limit_too else 0)
        self.pickers = []
        if g.deadline:
            for p in range(n):
                deck = self.decks[p]
                hand = [g.kind(p, number) for number in g.deadline_numbers]
                for c in hand:
                    deck.remove(c)
                self.hands[p] = hand
                self.known[p] = [True] * len(hand)
                size = max(0, g.deadline_extra + hand_change + self.bonus[p])
                self.pick_sizes[p] = min(size, len(deck))
            if g.picks_chosen:
                self.pickers = [p for p in range(n) if self.pick_sizes[p] > 0]
            else:
                self.draws = [[p, self.pick_sizes[p]] for p in range(n)]
        else:
            size = g.hand_size + hand_change
            self.draws = [[p, max(0, size + self.bonus[p])] for p in range(n)]
        self.bonus = [0] * n
        if self.pickers:
            self.phase = PICK
        else:
            self._after_deal()
        self._prune()

    def _after_deal(self) -> None:
        g = self.g
        if g.turn_based:
            if self.hunt == 1 or g.next_first == "random":
                self.phase = FIRST
            else:
                self._goto_turn(self.next_start)
        else:
            self.phase = GO
        self.dirty = True

    def _picks(self, actions: Sequence[Action]) -> None:
        for a in actions:
            assert isinstance(a, Pick)
            deck = self.decks[a.player]
            for c in a.cards:
                deck.remove(c)
            self.hands[a.player].extend(a.cards)
            self.known[a.player].extend([True] * len(a.cards))
        self.pickers = []
        self._after_deal()

    def _go(self, a: Go) -> None:
        g = self.g
        self.clock += g.countdown_ms
        extra = 0 if (self.picked_up or g.briefing) else g.pick_up_ms
        self.picked_up = True
        clock = self.clock
        for p, d in enumerate(a.delays):
            self.ready[p] = clock + d + extra
        self.drill = [False] * self.n
        self.pending = []
        self.countdown = False
        self.phase = PLAY
        self._check_stuck()

    def _react(self, a: React) -> None:
        clock = self.clock
        drill = self.g.drill_ms
        for p, d in zip(a.players, a.delays, strict=True):
            if self.drill[p]:
                self.drill[p] = False
                self.ready[p] = clock + d + drill
            else:
                self.ready[p] = clock + d
        self.pending = []

    # --- real time -------------------------------------------------------------------------------

    def _rt_joint(self, actions: Sequence[Action]) -> None:
        g = self.g
        self.clock = self.ready[actions[0].player]  # type: ignore[union-attr]
        plays: list[Play] = []
        for a in actions:
            if isinstance(a, Play):
                plays.append(a)
            else:
                self._rt_apply(a)
        if len(plays) == 1:
            self._rt_apply(plays[0])
        elif plays:
            if g.chance_orders:
                self.order_plays = plays
                self.phase = ORDER
                return
            self._all_land(plays)
            if self.claims:
                self.phase = CLAIM
                return
        self._settle()

    def _rt_apply(self, a: Action) -> None:
        g = self.g
        p = a.player  # type: ignore[union-attr]
        if isinstance(a, Play):
            c = a.cards[0]
            sp = g.special_of[c]
            self._take(p, c)
            if sp == JAM:
                self._discard_card(c)
                self.jammed[a.target] = True
                self._lotus(p)
                self.pending.append(p)
            elif sp == INTEL:
                self._discard_card(c)
                self._bad_intel(a.pile)
                self._lotus(p)
                self._cease_fire()
            else:
                self._land(p, c, a.pile)
                if not self.halt:
                    self.pending.append(p)
        elif isinstance(a, Reload):
            self._reload(p, a)
            self.pending.append(p)
        elif isinstance(a, Clear):
            self.jammed[p] = False
            self.drill[p] = True
            self.pending.append(p)
        elif isinstance(a, Look):
            self.looking[p] = a.slot
            self.known[p][a.slot] = True
            self.pending.append(p)
        else:
            self.pending.append(p)

    def _order(self, order: tuple[int, ...]) -> None:
        plays = {a.player: a for a in self.order_plays}
        self.order_plays = []
        for p in order:
            a = plays[p]
            if self.halt:
                self.voided.append(a)
                continue
            try:
                self._check_rt_play(p, a)
            except IllegalActionError:
                self.voided.append(a)
                self.pending.append(p)
                continue
            self._rt_apply(a)
        self._settle()

    def _all_land(self, plays: list[Play]) -> None:
        g = self.g
        hunt_of = g.hunt_of
        cards = [a for a in plays if not g.special_of[a.cards[0]]]
        specials = [a for a in plays if g.special_of[a.cards[0]]]
        cards.sort(key=lambda a: (a.pile, hunt_of[a.cards[0]], a.player))
        for k in sorted({a.pile for a in cards}):
            group = [a for a in cards if a.pile == k]
            before = self.pile_kills[k]
            nines: list[int] = []
            last = -1
            for a in group:
                p = a.player
                c = a.cards[0]
                self._take(p, c)
                self.piles[k].append(c)
                self.pile_by[k].append(p)
                self.out[c] += 1
                self.dirty = True
                self.pending.append(p)
                last = p
                if hunt_of[c] == g.kill_shot:
                    self.pile_kills[k] += 1
                    nines.append(p)
                    if self.pile_first9[k] < 0:
                        self.pile_first9[k] = p
            if self.pile_kills[k] < self.pile_need[k]:
                continue
            if g.points_claim:
                self._capture(k, last)
            else:
                ambiguous = len(nines) >= 2 and (
                    self.pile_need[k] == 1 or g.second_claims or before == 0
                )
                if not ambiguous:
                    first = self.pile_need[k] > 1 and not g.second_claims
                    self._capture(k, self.pile_first9[k] if first else nines[-1])
                elif g.tie_escapes:
                    self._close(k, -1, "escaped-tie", ())
                else:
                    self.claims.append((k, tuple(sorted(nines))))
            if self.halt:
                break
        for a in specials:
            if self.halt:
                self.voided.append(a)
                continue
            try:
                self._check_rt_play(a.player, a)
            except IllegalActionError:
                self.voided.append(a)
                self.pending.append(a.player)
                continue
            self._rt_apply(a)

    def _claim(self, player: int) -> None:
        k, _cands = self.claims.pop(0)
        winner = -1 if player == self.taliban else player
        self._close(k, winner, "chance" if winner >= 0 else "escaped-taliban", ())
        if self.halt:
            return
        if not self.claims:
            self._settle()

    def _settle(self) -> None:
        """After a real-time step: a stuck hunt ends; then discards owed, the countdown, or
        play goes on."""
        if self.phase in (REVEAL, OVER) and self.halt and not self.countdown:
            return
        if self._check_stuck():
            return
        self._next_round(AFTER_GO if self.countdown else AFTER_PLAY)

    def _next_round(self, after: int) -> None:
        self.after_discard = after
        rounds = self.discard_rounds
        while rounds:
            players = tuple(p for p in rounds[0] if self.hands[p])
            if players:
                rounds[0] = players
                self.phase = DISCARD
                return
            rounds.pop(0)
        if after == AFTER_GO:
            self.phase = GO
        elif after == AFTER_PLAY:
            self.phase = PLAY
        else:
            self._goto_turn(self.turn + 1)

    def _discards(self, actions: Sequence[Action]) -> None:
        for a in actions:
            assert isinstance(a, Discard)
            p = a.player
            if a.slot >= 0:
                c = self._remove_slot(p, a.slot)
            else:
                c = a.card
                self.hands[p].remove(c)
            self._discard_card(c)
        self.discard_rounds.pop(0)
        if self._check_stuck():
            return
        self._next_round(self.after_discard)

    # --- Situation Room ---------------------------------------------------------------------------

    def _goto_turn(self, player: int) -> None:
        self.turn = player % self.n
        if self.draws:
            self.phase = TURN_START
        else:
            self._open_turn()

    def _open_turn(self) -> None:
        # Every other player may end the turn with a Jam or Bad Intel: all the players
        # decide at once (most can only pass), so the step does not tell who holds one.
        self.phase = TURN

    def _window_specials(self, q: int) -> list[Play]:
        g = self.g
        special_of = g.special_of
        cards = [c for c in self.hands[q] if special_of[c]]
        if not cards:
            return []
        if len(cards) > 1:
            cards = list(dict.fromkeys(cards))
        return [Play(q, (c,), 0, self.turn) for c in cards]

    def _turn_joint(self, actions: Sequence[Action]) -> None:
        """A Situation Room turn: the player to act and, at the same time, everyone who may
        end that turn at once with a Jam or Bad Intel (the first clockwise does)."""
        g = self.g
        n = self.n
        t = self.turn
        self.last_actor = t
        interrupts = sorted(
            (a for a in actions if isinstance(a, Play) and a.player != t),
            key=lambda a: (a.player - t) % n,
        )
        if interrupts:
            first = interrupts[0]
            self.voided = [
                x for x in actions if getattr(x, "player", -1) == t or x in interrupts[1:]
            ]
            q = first.player
            c = first.cards[0]
            self._take(q, c)
            self._discard_card(c)
            self._lotus(q)
            if g.special_of[c] == INTEL and g.sr_cease_fire:
                for _ in range(self._active("cease-fire-discard")):
                    self.discard_rounds.append(self.g.everyone)
            if self._check_stuck():
                return
            self._next_round(AFTER_TURN)
            return
        a = next(x for x in actions if getattr(x, "player", -1) == t)
        if isinstance(a, Play):
            k = a.pile
            for c in a.cards:
                self._take(t, c)
                self._land(t, c, k)
                if self.halt or not self.pile_open[k]:
                    break
            if self.halt or self._check_stuck():
                return
            self._goto_turn(t + 1)
        elif isinstance(a, Reload):
            self._reload(t, a)
            self._goto_turn(t + 1)
        else:
            self._goto_turn(t + 1)

    # --- the hunt pile -------------------------------------------------------------------------

    def _take(self, p: int, c: int) -> None:
        g = self.g
        if g.blind:
            self._remove_slot(p, self.looking[p])
        elif g.night:
            self._remove_slot(p, self.hands[p].index(c))
        else:
            self.hands[p].remove(c)

    def _remove_slot(self, p: int, s: int) -> int:
        c = self.hands[p].pop(s)
        if self.g.night:
            self.known[p].pop(s)
            look = self.looking[p]
            if look == s:
                self.looking[p] = -1
            elif look > s:
                self.looking[p] = look - 1
        return c

    def _discard_card(self, c: int) -> None:
        self.discards[self.g.pool_of_kind[c]].append(c)
        self.dirty = True

    def _reload(self, p: int, a: Reload) -> None:
        hand = self.hands[p]
        if a.slots:
            gone = [self._remove_slot(p, s) for s in sorted(a.slots, reverse=True)]
            for c in reversed(gone):
                self._discard_card(c)
        else:
            for c in a.cards:
                hand.remove(c)
                self._discard_card(c)
        want = self.limits[p] - len(hand)
        if want > 0:
            self.draws.append([p, want])
            self._prune()

    def _allowed_on(self, cls: int, top: int, kills: int, need: int) -> frozenset[int]:
        g = self.g
        allowed = g.allowed_tab[cls][top]
        if top == g.kill_shot and kills < need and top not in allowed:
            allowed = allowed | {top}  # the second Kill Shot overrides the pile rules
        return allowed

    def _allowed(self, p: int, k: int) -> frozenset[int]:
        pile = self.piles[k]
        top = self.g.hunt_of[pile[-1]] if pile else 0
        return self._allowed_on(
            1 if p == self.taliban else 0, top, self.pile_kills[k], self.pile_need[k]
        )

    def _land(self, p: int, c: int, k: int) -> None:
        g = self.g
        self.piles[k].append(c)
        self.pile_by[k].append(p)
        self.out[c] += 1
        self.dirty = True
        if g.hunt_of[c] == g.kill_shot:
            self.pile_kills[k] += 1
            if self.pile_first9[k] < 0:
                self.pile_first9[k] = p
            if self.pile_kills[k] >= self.pile_need[k]:
                self._capture(k, p)

    def _capture(self, k: int, p: int) -> None:
        g = self.g
        if g.points_claim:
            winner, how, totals = self._points_winner(k)
            self._close(k, winner, how, totals)
            return
        first = self.pile_need[k] > 1 and not g.second_claims
        winner = self.pile_first9[k] if first else p
        how = "kill-shot"
        if winner == self.taliban:
            winner = -1
            how = "escaped-taliban"
        self._close(k, winner, how, ())

    def _points_winner(self, k: int) -> tuple[int, str, tuple[int, ...]]:
        g = self.g
        n = self.n
        totals = [0] * n
        lowest = [g.last_number + 1] * n
        lowest_at = [0] * n
        for i, (c, q) in enumerate(zip(self.piles[k], self.pile_by[k], strict=True)):
            totals[q] += g.points_of[c]
            h = g.hunt_of[c]
            if h < lowest[q]:
                lowest[q] = h
                lowest_at[q] = i
        hunters = [q for q in range(n) if q != self.taliban]
        best = max(totals[q] for q in hunters)
        tied = [q for q in hunters if totals[q] == best]
        if len(tied) == 1:
            return tied[0], "points", tuple(totals)
        low = min(lowest[q] for q in tied)
        tied = [q for q in tied if lowest[q] == low]
        if len(tied) == 1:
            return tied[0], "tie-lowest", tuple(totals)
        if g.points_tie_escapes:
            return -1, "escaped-tie", tuple(totals)
        return min(tied, key=lambda q: lowest_at[q]), "tie-earliest", tuple(totals)

    def _close(self, k: int, winner: int, how: str, totals: tuple[int, ...]) -> None:
        g = self.g
        t = self.pile_terr[k]
        terrorist = g.terrorists[t]
        self.pile_open[k] = False
        if winner >= 0:
            self.captured[winner].append(t)
            self.scores[winner] += terrorist.points
            if terrorist.ability == "claimer-extra-cards":
                self.bonus[winner] += terrorist.extra_cards
        else:
            self.escaped.append(t)
            if self.taliban >= 0 and g.taliban_scores:
                self.scores[self.taliban] += terrorist.points
        self.results.append(HuntResult(self.hunt, t, winner, how, totals))
        self.dirty = True
        if not any(self.pile_open):
            self._end_hunt()
        elif g.claimed_discard:
            for c in self.piles[k]:
                self.out[c] -= 1
                self._discard_card(c)
            self.piles[k] = []
            self.pile_by[k] = []

    def _end_hunt(self) -> None:
        g = self.g
        self.halt = True
        self.draws = []
        self.discard_rounds = []
        self.order_plays = []
        self.claims = []
        self.pending = []
        self.pickers = []
        self.countdown = False
        if g.turn_based:
            winner = self.results[-1].winner if self.results else -1
            if g.next_first == "claimer" and winner >= 0:
                self.next_start = winner
            else:
                self.next_start = (self.last_actor + 1) % self.n
        if not self.terr_left:
            self._game_over()
            return
        self.phase = REVEAL

    def _game_over(self) -> None:
        scores = self.scores
        top = max(scores)
        tied = [p for p in range(self.n) if scores[p] == top]
        if len(tied) > 1 and self.g.final_most_captures:
            most = max(len(self.captured[p]) for p in tied)
            tied = [p for p in tied if len(self.captured[p]) == most]
        self.winners = tuple(tied)
        self.phase = OVER

    def _bad_intel(self, k: int) -> None:
        g = self.g
        hunt_of = g.hunt_of
        pile = self.piles[k]
        by = self.pile_by[k]
        if g.levels_by_number:
            top = hunt_of[pile[-1]]
            gone = set(range(top - g.levels_removed + 1, top + 1))
            keep = [i for i, c in enumerate(pile) if hunt_of[c] not in gone]
        else:
            i = len(pile) - 1
            runs = 0
            while i >= 0 and runs < g.levels_removed:
                v = hunt_of[pile[i]]
                while i >= 0 and hunt_of[pile[i]] == v:
                    i -= 1
                runs += 1
            keep = list(range(i + 1))
        kept = set(keep)
        removed = [pile[i] for i in range(len(pile)) if i not in kept]
        self.piles[k] = [pile[i] for i in keep]
        self.pile_by[k] = [by[i] for i in keep]
        nines = [i for i in keep if hunt_of[pile[i]] == g.kill_shot]
        self.pile_kills[k] = len(nines)
        self.pile_first9[k] = by[nines[0]] if nines else -1
        self.removed = removed
        for c in removed:
            if g.removed_to_discard:
                self.out[c] -= 1
                self._discard_card(c)
            else:
                self.set_aside.append(c)
        self.dirty = True

    def _active(self, ability: str) -> int:
        g = self.g
        for k, t in enumerate(self.pile_terr):
            if self.pile_open[k] and g.terrorists[t].ability == ability:
                return g.terrorists[t].discard
        return 0

    def _lotus(self, p: int) -> None:
        for _ in range(self._active("special-card-discard")):
            self.discard_rounds.append((p,))

    def _cease_fire(self) -> None:
        self.halt = True
        self.countdown = True
        self.pending = []
        for _ in range(self._active("cease-fire-discard")):
            self.discard_rounds.append(tuple(range(self.n)))

    # --- a hunt nobody can finish ---------------------------------------------------------------

    def _check_stuck(self) -> bool:
        """If no player can ever play on any open pile again, every open terrorist escapes
        (Deadline: "no one can play a Kill Shot"; Terror Threat: "no one can play")."""
        if not self.dirty or self.phase in (REVEAL, OVER, TALIBAN):
            return False
        self.dirty = False
        if self._can_progress():
            return False
        for k in range(len(self.piles)):
            if self.pile_open[k]:
                self._close(k, -1, "escaped-stuck", ())
                if self.halt:
                    break
        return True

    def _can_progress(self) -> bool:
        """Whether some open pile can still be finished: the hunters (everyone but the
        Taliban player) can still get a card of every number from above the top up to the
        Kill Shot.  A card is within reach in a hand, a deck or the discards (Deadline: in a
        hand only), or, when Bad Intel sends removed cards to the discards, on an open pile."""
        g = self.g
        open_piles = self.pile_open
        if not any(open_piles):
            return False
        piles = self.piles
        hunt_of = g.hunt_of
        kill = g.kill_shot
        hunters = [p for p in range(self.n) if p != self.taliban]
        if g.deadline:
            held = {hunt_of[c] for p in hunters for c in self.hands[p]}

            def reach(number: int) -> bool:
                return number in held

        else:
            if g.releases:
                gone = len(self.set_aside)
                for k, pile in enumerate(piles):
                    if not open_piles[k]:
                        gone += len(pile)
            else:
                gone = len(self.set_aside)
                for pile in piles:
                    gone += len(pile)
            if gone < g.fewest_copies:
                return True  # too few cards are out of reach to take every copy of a number
            if g.releases:
                limit = [0] * len(g.codes)
                for c in self.set_aside:
                    limit[c] += 1
                for k, pile in enumerate(piles):
                    if not open_piles[k]:
                        for c in pile:
                            limit[c] += 1
            else:
                limit = self.out
            total = g.total
            pools = [0] if not g.per_colour else hunters
            kinds = g.number_kinds

            def reach(number: int) -> bool:
                return any(total[k] > limit[k] for pool in pools for k in kinds[pool][number])

        for k, pile in enumerate(piles):
            if not open_piles[k]:
                continue
            top = hunt_of[pile[-1]] if pile else g.start_number - 1
            needed = range(top + 1, kill + 1) if top < kill else range(kill, kill + 1)
            if all(reach(m) for m in needed):
                return True
        return False

    # --- the simulated players ---------------------------------------------------------------

    def _hunt_plays(self, p: int) -> list[tuple[int, int]]:
        """Every (card, pile) of a hunt card the player may put down now."""
        g = self.g
        hand = self.hands[p]
        if g.blind:
            s = self.looking[p]
            cards: Sequence[int] = (hand[s],) if s >= 0 else ()
        else:
            cards = tuple(dict.fromkeys(hand))
        hunt_of = g.hunt_of
        out = []
        for k in range(len(self.piles)):
            if not self.pile_open[k]:
                continue
            allowed = self._allowed(p, k)
            for c in cards:
                if hunt_of[c] in allowed:
                    out.append((c, k))
        return out

    def _special_plays(self, p: int) -> list[Play]:
        g = self.g
        hand = self.hands[p]
        special_of = g.special_of
        if g.blind:
            s = self.looking[p]
            cards: Sequence[int] = (hand[s],) if s >= 0 and special_of[hand[s]] else ()
        else:
            cards = [c for c in hand if special_of[c]]
            if not cards:
                return []
            if len(cards) > 1:
                cards = list(dict.fromkeys(cards))
        out = []
        for c in cards:
            if g.special_of[c] == JAM:
                for q in range(self.n):
                    if q != p and not self.jammed[q]:
                        out.append(Play(p, (c,), 0, q))
            else:
                for k in range(len(self.piles)):
                    if self.pile_open[k] and self.piles[k]:
                        out.append(Play(p, (c,), k))
        return out

    def _drawable(self, p: int) -> int:
        pool = self._pool(p)
        return len(self.decks[pool]) + len(self.discards[pool])

    def _can_reload(self, p: int) -> bool:
        if not self.g.refill:
            return False
        hand = self.hands[p]
        return bool(hand) or (len(hand) < self.limits[p] and self._drawable(p) > 0)

    def _sample_reload(self, p: int, rnd: Callable[[], float], real_time: bool) -> Reload:
        hand = self.hands[p]
        free = len(hand) < self.limits[p] and self._drawable(p) > 0
        while True:
            chosen = [i for i in range(len(hand)) if rnd() < P_DISCARD]
            if chosen or not real_time or free:
                break
        if self.g.night:
            return Reload(p, (), tuple(chosen))
        return Reload(p, tuple(sorted(hand[i] for i in chosen)))

    def _rt_policy(self, p: int, rng: random.Random) -> Action:
        """The simulated real-time player: a hunt card when one fits (sometimes a special
        card, or waiting), otherwise a reload; a jammed player mostly says the drill.  Under
        Night Mission a player looks at a card seen earlier that fits now, else at unseen
        cards (and reloads only once every card has been seen)."""
        g = self.g
        rnd = rng.random
        jammed = self.jammed[p]
        plays = [] if jammed else self._hunt_plays(p)
        specials = [] if jammed and g.jam_all else self._special_plays(p)
        w_play = W_PLAY if plays else 0.0
        w_special = W_SPECIAL if specials else 0.0
        w_reload = 0.0
        if not plays and self._can_reload(p):
            w_reload = W_WAIT if jammed else W_RELOAD
        w_clear = W_CLEAR if jammed else 0.0
        w_look = 0.0
        looks: list[int] = []
        hand = self.hands[p]
        if g.blind and not plays and hand:
            w_look = W_LOOK
            known = self.known[p]
            fits: set[int] = set()
            for k in range(len(self.piles)):
                if self.pile_open[k]:
                    fits |= self._allowed(p, k)
            hunt_of = g.hunt_of
            looks = [s for s, c in enumerate(hand) if known[s] and hunt_of[c] in fits]
            if looks:
                w_look = W_PLAY  # a card seen earlier fits now: pick it up again
                w_reload = 0.0
            else:
                looks = [s for s in range(len(hand)) if not known[s]]
                if looks:
                    w_reload = 0.0  # look at the unseen cards before reloading
                else:
                    looks = list(range(len(hand)))
        r = rnd() * (w_play + w_special + w_reload + w_clear + w_look + W_WAIT)
        if r < w_play:
            c, k = self._pick(p, plays, rnd)
            return Play(p, (c,), k)
        r -= w_play
        if r < w_special:
            return specials[int(rnd() * len(specials))]
        r -= w_special
        if r < w_reload:
            return self._sample_reload(p, rnd, True)
        r -= w_reload
        if r < w_clear:
            return Clear(p)
        r -= w_clear
        if r < w_look:
            return Look(p, looks[int(rnd() * len(looks))])
        return Wait(p)

    def _pick(
        self, p: int, plays: list[tuple[int, int]], rnd: Callable[[], float]
    ) -> tuple[int, int]:
        """One of the (card, pile) plays: mostly the one that moves the hunt furthest (up
        for a hunter, down for the Taliban player), otherwise any."""
        if len(plays) > 1 and rnd() < P_CLIMB:
            hunt_of = self.g.hunt_of
            if p == self.taliban:
                best = min(hunt_of[c] for c, _ in plays)
            else:
                best = max(hunt_of[c] for c, _ in plays)
            plays = [x for x in plays if hunt_of[x[0]] == best]
        return plays[int(rnd() * len(plays))]

    def _turn_policy(self, p: int, rng: random.Random) -> Action:
        g = self.g
        rnd = rng.random
        firsts = self._hunt_plays(p)
        w_play = W_TURN_PLAY if firsts else 0.0
        w_reload = W_TURN_OTHER if g.refill else 0.0
        w_pass = 0.0 if g.refill else W_TURN_OTHER
        r = rnd() * (w_play + w_reload + w_pass)
        if r < w_play:
            c, k = self._pick(p, firsts, rnd)
            if g.night:
                return Play(p, (c,), k)
            hunt_of = g.hunt_of
            cls = 1 if p == self.taliban else 0
            need = self.pile_need[k]
            kills = self.pile_kills[k]
            seq = [c]
            rest = list(self.hands[p])
            rest.remove(c)
            top = hunt_of[c]
            if top == g.kill_shot:
                kills += 1
            while not (top == g.kill_shot and kills >= need):
                allowed = self._allowed_on(cls, top, kills, need)
                nexts = [(d, k) for d in dict.fromkeys(rest) if hunt_of[d] in allowed]
                if not nexts or rnd() >= P_MORE:
                    break
                d = self._pick(p, nexts, rnd)[0]
                seq.append(d)
                rest.remove(d)
                top = hunt_of[d]
                if top == g.kill_shot:
                    kills += 1
            return Play(p, tuple(seq), k)
        r -= w_play
        if r < w_reload:
            return self._sample_reload(p, rnd, False)
        return Pass(p)

    # --- legal actions -------------------------------------------------------------------------

    def _reloads(self, p: int, real_time: bool) -> list[Reload]:
        g = self.g
        if not g.refill:
            return []
        hand = self.hands[p]
        free = len(hand) < self.limits[p] and self._drawable(p) > 0
        out: list[Reload] = []
        if g.night:
            for r in range(len(hand) + 1):
                for slots in itertools.combinations(range(len(hand)), r):
                    if slots or not real_time or free:
                        out.append(Reload(p, (), slots))
            return out
        kinds = sorted(set(hand))
        for counts in itertools.product(*[range(hand.count(c) + 1) for c in kinds]):
            cards = tuple(c for c, m in zip(kinds, counts, strict=True) for _ in range(m))
            if cards or not real_time or free:
                out.append(Reload(p, cards))
        return out

    def _rt_legal(self, p: int) -> list[Action]:
        g = self.g
        out: list[Action] = [Wait(p)]
        jammed = self.jammed[p]
        if jammed:
            out.append(Clear(p))
        else:
            out.extend(Play(p, (c,), k) for c, k in self._hunt_plays(p))
        if not (jammed and g.jam_all):
            out.extend(self._special_plays(p))
        out.extend(self._reloads(p, True))
        if g.blind:
            out.extend(Look(p, s) for s in range(len(self.hands[p])))
        return out

    def _turn_legal(self, p: int) -> list[Action]:
        g = self.g
        hunt_of = g.hunt_of
        out: list[Action] = []
        cls = 1 if p == self.taliban else 0
        for k in range(len(self.piles)):
            if not self.pile_open[k]:
                continue
            need = self.pile_need[k]
            pile = self.piles[k]
            top0 = hunt_of[pile[-1]] if pile else 0
            if g.night:
                out.extend(Play(p, (c,), k) for c, kk in self._hunt_plays(p) if kk == k)
                continue

            self._grow(p, cls, k, need, [], list(self.hands[p]), top0, self.pile_kills[k], out)
        if g.refill:
            out.extend(self._reloads(p, False))
        else:
            out.append(Pass(p))
        return out

    def _grow(
        self,
        p: int,
        cls: int,
        k: int,
        need: int,
        seq: list[int],
        rest: list[int],
        top: int,
        kills: int,
        out: list[Action],
    ) -> None:
        """Every Situation Room play that extends `seq` (each card legal on the one before)."""
        g = self.g
        if seq and top == g.kill_shot and kills >= need:
            return
        allowed = self._allowed_on(cls, top, kills, need)
        for d in sorted(set(rest)):
            number = g.hunt_of[d]
            if number not in allowed:
                continue
            seq.append(d)
            out.append(Play(p, tuple(seq), k))
            rest.remove(d)
            self._grow(p, cls, k, need, seq, rest, number, kills + (number == g.kill_shot), out)
            rest.append(d)
            seq.pop()

    # --- checking --------------------------------------------------------------------------------

    def _now(self) -> str:
        g = self.g
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        if self.draws:
            return f"{g.names[self.draws[0][0]]} draws cards"
        if phase == PLAY:
            if self.pending:
                return "chance draws a reaction time"
            actors = self._actors()
            return (
                f"{' and '.join(g.names[p] for p in actors)} act(s) at "
                f"{self.ready[actors[0]] / 1000:.2f} s"
            )
        if phase == GO:
            return 'the countdown "3, 2, 1, go!"'
        if phase == TURN:
            return f"{g.names[self.turn]}'s turn"
        if phase == DISCARD:
            return f"{', '.join(g.names[p] for p in self.discard_rounds[0])} must discard"
        if phase == PICK:
            return "Deadline: the players choose their extra cards"
        return {
            TALIBAN: "the Taliban player is being chosen",
            REVEAL: "the next terrorist is being revealed",
            ORDER: "chance orders simultaneous plays",
            CLAIM: "chance decides a claim",
            FIRST: "the first player is being chosen",
        }.get(phase, PHASE_NAMES[phase])

    def _check(self, player: int, a: Action) -> None:
        g = self.g
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("game-end", "the game is over")
        if player == CHANCE:
            self._check_chance(a)
            return
        if isinstance(a, Taliban | First | Claim | Draw | React | Go | Order | Reveal):
            raise IllegalActionError("timing", f"{g.player_name(player)} cannot act for chance")
        other = getattr(a, "player", None)
        if other != player:
            if phase == PLAY and isinstance(other, int) and 0 <= other < self.n:
                raise IllegalActionError(
                    "timing",
                    f"{g.names[other]} is not ready yet (acts at {self.ready[other] / 1000:.2f} s; "
                    f"now {self._now()})",
                )
            raise IllegalActionError(
                "timing", f"{g.player_name(player)} cannot act for another player ({self._now()})"
            )
        if phase == PLAY and not self.pending and not self.draws:
            self._check_rt(player, a)
        elif phase == TURN and not self.draws:
            if player == self.turn:
                self._check_turn(player, a)
            else:
                self._check_window(player, a)
        elif phase == DISCARD and not self.draws:
            self._check_discard(player, a)
        elif phase == PICK and not self.draws:
            self._check_pick(player, a)
        else:
            raise IllegalActionError(
                "timing", f"{g.player_name(player)} has nothing to do now ({self._now()})"
            )

    def _check_chance(self, a: Action) -> None:
        g = self.g
        phase = self.phase
        if self.draws:
            if not isinstance(a, Draw):
                raise IllegalActionError("deck", f"chance draws cards now ({self._now()})")
            self._check_draw(a)
            return
        if phase == PLAY and self.pending:
            players = tuple(sorted(self.pending))
            if not isinstance(a, React) or a.players != players:
                names = " ".join(g.names[p] for p in players)
                raise IllegalActionError("timing", f"chance draws the reaction time of {names} now")
            for d in a.delays:
                self._check_delay(d)
            return
        if phase == GO:
            if not isinstance(a, Go) or len(a.delays) != self.n:
                raise IllegalActionError("countdown", "'go' gives every player's reaction time")
            for d in a.delays:
                self._check_delay(d)
            return
        if phase == REVEAL and isinstance(a, Reveal):
            k = min(g.revealed, len(self.terr_left))
            if len(a.terrorists) != k or len(set(a.terrorists)) != k:
                raise IllegalActionError("setup", f"{k} terrorist card(s) are turned up now")
            for t in a.terrorists:
                if t not in self.terr_left:
                    raise IllegalActionError(
                        "setup", f"{g.terrorists[t].id} is not in the terrorist deck"
                    )
            return
        if phase == ORDER and isinstance(a, Order):
            movers = sorted(p.player for p in self.order_plays)
            if sorted(a.players) != movers or len(set(a.players)) != len(a.players):
                names = ", ".join(g.names[p] for p in movers)
                raise IllegalActionError("timing", f"chance orders the plays of {names}")
            return
        if phase == CLAIM and isinstance(a, Claim):
            if a.player not in self.claims[0][1]:
                names = ", ".join(g.names[p] for p in self.claims[0][1])
                raise IllegalActionError("kill-shot", f"the claim is between {names}")
            return
        if (phase == FIRST and isinstance(a, First)) or (
            phase == TALIBAN and isinstance(a, Taliban)
        ):
            if not 0 <= a.player < self.n:
                raise IllegalActionError("setup", "no such player")
            return
        raise IllegalActionError("timing", f"chance cannot do that now ({self._now()})")

    def _check_delay(self, d: int) -> None:
        law = self.g.law
        if not law.legal(d):
            raise IllegalActionError(
                "timing", f"a reaction time is 0 to {law.max} ms in steps of {law.step}, got {d}"
            )

    def _check_draw(self, a: Draw) -> None:
        g = self.g
        p, _want = self.draws[0]
        if a.player != p:
            raise IllegalActionError("deck", f"{g.names[p]} draws now, not {g.names[a.player]}")
        k = self._draw_count(self.draws[0])
        if len(a.cards) != k:
            raise IllegalActionError("deck", f"{g.names[p]} draws {k} card(s), got {len(a.cards)}")
        pool = self._pool(p)
        deck = list(self.decks[pool])
        disc = list(self.discards[pool])
        for c in a.cards:
            if not deck:
                deck, disc = disc, []
            if c not in deck:
                raise IllegalActionError(
                    "deck", f"{g.codes[c]} is not in the {'deck' if deck else 'discards'} to draw"
                )
            deck.remove(c)
            if not deck and disc:
                deck, disc = disc, []

    def _check_rt(self, p: int, a: Action) -> None:
        g = self.g
        actors = self._actors()
        if p not in actors:
            raise IllegalActionError(
                "timing",
                f"{g.names[p]} is not ready yet (acts at {self.ready[p] / 1000:.2f} s; "
                f"now {self._now()})",
            )
        if isinstance(a, Wait):
            return
        if isinstance(a, Play):
            self._check_rt_play(p, a)
            return
        if isinstance(a, Reload):
            self._check_reload(p, a, True)
            return
        if isinstance(a, Clear):
            if not self.jammed[p]:
                raise IllegalActionError("jam", f"{g.names[p]} is not jammed")
            return
        if isinstance(a, Look):
            self._check_look(p, a)
            return
        raise IllegalActionError(
            "timing", f"real time has no turns: {g.names[p]} plays, reloads, clears or waits"
        )

    def _check_look(self, p: int, a: Look) -> None:
        g = self.g
        if not g.blind:
            raise IllegalActionError(
                "night-mission",
                "a look is a real-time Night Mission action (in Situation Room you look "
                "at your cards during your turn)"
                if g.night
                else "looking at one card at a time is the Night Mission rule",
            )
        if not 0 <= a.slot < len(self.hands[p]):
            raise IllegalActionError(
                "night-mission",
                f"{g.names[p]} holds {len(self.hands[p])} card(s), no #{a.slot + 1}",
            )

    def _check_holds(self, p: int, c: int) -> None:
        g = self.g
        name = g.names[p]
        if g.blind:
            s = self.looking[p]
            if s < 0:
                raise IllegalActionError(
                    "night-mission",
                    f"{name} is not looking at a card: look at one first ('{name} looks #1')",
                )
            if self.hands[p][s] != c:
                raise IllegalActionError(
                    "night-mission", f"{name} is looking at #{s + 1}, which is not {g.codes[c]}"
                )
            return
        if c not in self.hands[p]:
            raise IllegalActionError("hand", f"{name} holds no {g.codes[c]}")

    def _check_pile(self, k: int) -> None:
        g = self.g
        rule = "terror-threat" if g.terror_threat else "hunt-pile"
        if not 0 <= k < len(self.piles):
            raise IllegalActionError(
                rule, f"there is no hunt pile {k + 1} (piles: 1-{len(self.piles)})"
            )
        if not self.pile_open[k]:
            raise IllegalActionError(rule, f"hunt pile {k + 1} is over (its terrorist is gone)")

    def _pile_error(
        self, p: int, k: int, top: int, number: int, allowed: frozenset[int]
    ) -> IllegalActionError:
        g = self.g
        name = g.names[p]
        where = f" (pile {k + 1})" if len(self.piles) > 1 else ""
        if top == 0:
            return IllegalActionError(
                "hunt-pile",
                f"a hunt pile starts with {_a(g.start_number)}{where}, not {_a(number)}",
            )
        items = [_a(x) for x in sorted(allowed)]
        listing = (
            ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)
        ) or "nothing"
        rule = "hunt-pile"
        if p == self.taliban:
            rule = "taliban"
        elif g.osok and number == top:
            rule = "one-shot-one-kill"
        return IllegalActionError(
            rule,
            f"{_a(number)} cannot follow {_a(top)}{where}: on {_a(top)} {name} may play {listing}",
        )

    def _check_rt_play(self, p: int, a: Play) -> None:
        g = self.g
        name = g.names[p]
        if len(a.cards) != 1:
            raise IllegalActionError("hunt-pile", "in real time cards are played one at a time")
        c = a.cards[0]
        self._check_holds(p, c)
        sp = g.special_of[c]
        if self.jammed[p] and (g.jam_all or not sp):
            raise IllegalActionError(
                "jam",
                f'{name} is jammed: say the clearing drill ("{g.params["jam"]["drill"]["en"]}") '
                f"before playing ('{name} clear')",
            )
        if sp == JAM:
            if a.pile:
                raise IllegalActionError("jam", "a Jam is played at a player, not on a pile")
            if a.target < 0:
                raise IllegalActionError(
                    "jam", f"a Jam is played at a player: '{name} plays {g.codes[c]} at NAME'"
                )
            if a.target == p:
                raise IllegalActionError("jam", "a Jam is played at another player")
            if self.jammed[a.target]:
                raise IllegalActionError("jam", f"{g.names[a.target]} is already jammed")
            return
        if a.target >= 0:
            raise IllegalActionError(
                "bad-intel" if sp else "hunt-pile", "this card goes on a hunt pile, not at a player"
            )
        self._check_pile(a.pile)
        if sp == INTEL:
            if not self.piles[a.pile]:
                raise IllegalActionError("bad-intel", "the hunt pile is empty: nothing to remove")
            return
        allowed = self._allowed(p, a.pile)
        number = g.hunt_of[c]
        if number not in allowed:
            pile = self.piles[a.pile]
            top = g.hunt_of[pile[-1]] if pile else 0
            raise self._pile_error(p, a.pile, top, number, allowed)

    def _check_reload(self, p: int, a: Reload, real_time: bool) -> None:
        g = self.g
        name = g.names[p]
        hand = self.hands[p]
        if not g.refill:
            raise IllegalActionError("deadline", "no cards are drawn during a Deadline game")
        if g.night:
            if a.cards:
                raise IllegalActionError(
                    "night-mission", "under Night Mission discard by hand position: 'reload #2'"
                )
            if len(set(a.slots)) != len(a.slots) or any(not 0 <= s < len(hand) for s in a.slots):
                raise IllegalActionError(
                    "night-mission", f"{name} holds {len(hand)} card(s): positions #1-#{len(hand)}"
                )
        else:
            if a.slots:
                raise IllegalActionError(
                    "reload", "hand positions are for Night Mission: name the cards"
                )
            for c in set(a.cards):
                if a.cards.count(c) > hand.count(c):
                    raise IllegalActionError("hand", f"{name} holds no more {g.codes[c]}")
        if real_time and not a.cards and not a.slots:
            if len(hand) >= self.limits[p]:
                raise IllegalActionError(
                    "reload",
                    f"{name} already holds {len(hand)} cards (limit {self.limits[p]}): "
                    "discard at least one to reload",
                )
            if not self._drawable(p):
                raise IllegalActionError("reload", "there are no cards left to draw")

    def _check_turn(self, p: int, a: Action) -> None:
        g = self.g
        name = g.names[p]
        if isinstance(a, Play):
            if any(g.special_of[c] for c in a.cards) or a.target >= 0:
                raise IllegalActionError(
                    "situation-room",
                    "Jam and Bad Intel are played on another player as their turn starts, "
                    "to end it",
                )
            self._check_pile(a.pile)
            if g.night:
                if len(a.cards) > 1:
                    raise IllegalActionError(
                        "night-mission", "you see one card at a time: play it on its own"
                    )
                self._check_holds(p, a.cards[0])
            else:
                hand = self.hands[p]
                for c in set(a.cards):
                    if a.cards.count(c) > hand.count(c):
                        raise IllegalActionError("hand", f"{name} holds no more {g.codes[c]}")
            k = a.pile
            pile = self.piles[k]
            top = g.hunt_of[pile[-1]] if pile else 0
            kills = self.pile_kills[k]
            need = self.pile_need[k]
            cls = 1 if p == self.taliban else 0
            for i, c in enumerate(a.cards):
                allowed = self._allowed_on(cls, top, kills, need)
                number = g.hunt_of[c]
                if number not in allowed:
                    error = self._pile_error(p, k, top, number, allowed)
                    if i:
                        raise IllegalActionError(
                            "situation-room", f"card {i + 1} of the play: {error.message}"
                        )
                    raise error
                top = number
                if number == g.kill_shot:
                    kills += 1
                    if kills >= need and i != len(a.cards) - 1:
                        raise IllegalActionError(
                            "situation-room",
                            "the Kill Shot that ends the hunt is the last card played",
                        )
            return
        if isinstance(a, Reload):
            self._check_reload(p, a, False)
            return
        if isinstance(a, Pass):
            if g.refill:
                raise IllegalActionError(
                    "situation-room",
                    "play cards, or discard and refill ('reload', discarding any number)",
                )
            return
        if isinstance(a, Look):
            self._check_look(p, a)
            return
        raise IllegalActionError(
            "situation-room", f"it is {name}'s turn: play cards or discard and refill"
        )

    def _check_window(self, p: int, a: Action) -> None:
        g = self.g
        target = g.names[self.turn]
        if isinstance(a, Pass):
            return
        if (
            not isinstance(a, Play)
            or len(a.cards) != 1
            or not g.special_of[a.cards[0]]
            or a.target != self.turn
            or a.pile
        ):
            raise IllegalActionError(
                "situation-room",
                f"before {target}'s turn, only Jam or Bad Intel played at {target} ends it "
                "(or pass)",
            )
        self._check_holds(p, a.cards[0])

    def _check_discard(self, p: int, a: Action) -> None:
        g = self.g
        if p not in self.discard_rounds[0] or not isinstance(a, Discard):
            raise IllegalActionError(
                "terrorist",
                f"{', '.join(g.names[q] for q in self.discard_rounds[0])} must discard one card now",
            )
        hand = self.hands[p]
        if g.night:
            if a.card >= 0 or not 0 <= a.slot < len(hand):
                raise IllegalActionError(
                    "night-mission", f"discard by hand position #1-#{len(hand)}"
                )
        elif a.slot >= 0 or a.card not in hand:
            raise IllegalActionError("hand", f"{g.names[p]} holds no such card")

    def _check_pick(self, p: int, a: Action) -> None:
        g = self.g
        if p not in self.pickers or not isinstance(a, Pick):
            raise IllegalActionError("deadline", f"{g.names[p]} has no extra cards to choose")
        size = self.pick_sizes[p]
        if len(a.cards) != size:
            raise IllegalActionError("deadline", f"{g.names[p]} chooses {size} extra card(s)")
        rest = list(self.decks[p])
        for c in a.cards:
            if c not in rest:
                raise IllegalActionError(
                    "deadline", f"{g.codes[c]} is not among the rest of {g.names[p]}'s colour"
                )
            rest.remove(c)

    # --- information -----------------------------------------------------------------------------

    def hand_visible(self, player: int) -> bool:
        """Whether the player may look at their own hand (Night Mission aside)."""
        g = self.g
        return g.turn_based or g.briefing or self.picked_up

    def own_hand(self, player: int) -> tuple[str, ...]:
        g = self.g
        hand = self.hands[player]
        if g.blind:
            return tuple(g.codes[c] if self.known[player][i] else "?" for i, c in enumerate(hand))
        if not self.hand_visible(player):
            return ("?",) * len(hand)
        return tuple(g.codes[c] for c in hand)

    def player_view(self, player: int) -> KillShotView:
        g = self.g
        names = g.names
        deciding = self.current_players() if self.phase != PLAY else ()
        return KillShotView(
            player=names[player],
            game_type=g.game_type,
            hunt=self.hunt,
            phase=PHASE_NAMES[self.phase],
            clock=self.clock,
            taliban=names[self.taliban] if self.taliban >= 0 else None,
            terrorists=tuple(g.terrorists[t].id for t in self.pile_terr),
            open_piles=tuple(self.pile_open),
            piles=tuple(
                tuple(f"{g.codes[c]}:{names[q]}" for c, q in zip(pile, by, strict=True))
                for pile, by in zip(self.piles, self.pile_by, strict=True)
            ),
            hand=self.own_hand(player),
            looking=self.looking[player],
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_sizes=tuple(len(d) for d in self.decks),
            discard_sizes=tuple(len(d) for d in self.discards),
            set_aside=tuple(g.codes[c] for c in self.set_aside),
            removed=tuple(g.codes[c] for c in self.removed),
            jammed=tuple(self.jammed),
            turn=names[self.turn] if g.turn_based else None,
            deciding=tuple(g.player_name(p) for p in deciding),
            captured=tuple(tuple(g.terrorists[t].id for t in c) for c in self.captured),
            escaped=tuple(g.terrorists[t].id for t in self.escaped),
            scores=tuple(self.scores),
            terrorists_left=len(self.terr_left),
            log=tuple(_seen(g, step, player, self.hand_visible(player)) for step in self._history),
        )


def _a(number: int) -> str:
    """'a 5', 'an 8' (and 'an 11', 'an 18' should the data ever have them)."""
    return f"an {number}" if str(number).startswith("8") or number in (11, 18) else f"a {number}"


def _seen(g: KillShot, step: Step[Action], player: int, own_visible: bool) -> str:
    """A history entry as `player` saw it: hidden cards and coming reaction times masked."""
    if isinstance(step, JointAction):
        return " ; ".join(_seen(g, a, player, own_visible) for a in step)
    a: Any = step
    name = g.names
    if isinstance(a, Draw):
        if a.player == player and own_visible and not g.blind:
            return g.format_action(a)
        return f"draw {name[a.player]} {len(a.cards)} card(s)"
    if isinstance(a, Reload | Discard | Pick) and a.player != player:
        return f"{name[a.player]} {type(a).__name__.lower()} (face down)"
    if isinstance(a, Go):
        return "go"
    if isinstance(a, React):
        return "react " + " ".join(name[p] for p in a.players)
    return g.format_action(a)


# --- recorded hunts -------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordCheck:
    """The outcome of checking a recorded hunt: the first illegal line (1-based), if any,
    and the state reached just before it (or after the whole record)."""

    ok: bool
    line: int
    message: str
    state: KillShotState
    steps: int


def parse_record_line(engine: KillShot, text: str) -> tuple[int | None, Action]:
    """'1.20 alpha plays r1' (a timed action, seconds) or 'draw alpha r5' (untimed)."""
    words = text.split()
    if words and words[0].replace(".", "", 1).isdigit():
        try:
            ms = round(float(words[0]) * 1000)
        except ValueError:
            raise NotationError(f"not a time in {text!r}") from None
        return ms, engine.parse_action(" ".join(words[1:]))
    return None, engine.parse_action(text)


def check_record(engine: KillShot, state: KillShotState, lines: Sequence[str]) -> RecordCheck:
    """Check a recorded hunt from `state`: a list of lines, each a timed player action
    ('2.35 bravo plays b4': at 2.35 s after "go!") or an untimed step (the cards drawn,
    a Situation Room turn, a discard).  The reaction times are derived from the times:
    every player's next reaction ends at their next recorded action; a player who does
    nothing meanwhile waits.  Illegal lines are reported with the rule they break, and
    so are impossible times (acting during the countdown, or before the clearing drill
    is said)."""
    g = engine
    s = state.clone()
    entries: list[tuple[int | None, Action]] = []
    for i, text in enumerate(lines):
        try:
            entries.append(parse_record_line(g, text))
        except NotationError as exc:
            return RecordCheck(False, i + 1, f"{text}: {exc}", s, 0)
    steps = 0
    early: dict[int, str] = {}
    last_group: list[int] = []
    i = 0

    def fail(j: int, message: str) -> RecordCheck:
        return RecordCheck(False, j + 1, f"{lines[j]}: {message}", s, steps)

    def next_time(q: int, start: int) -> int | None:
        for t, a in entries[start:]:
            if t is not None and getattr(a, "player", None) == q:
                return t
        return None

    while True:
        if s.phase == ORDER and not s.draws:
            # simultaneous plays land in the order the record lists them
            plays = {a.player for a in s.order_plays}
            s.apply(Order(tuple(p for p in last_group if p in plays)))
            steps += 1
            continue
        if i >= len(entries):
            break
        t_i, a_i = entries[i]
        players = s.current_players()
        if not players:
            return fail(i, "the game is over")
        if players == (CHANCE,) and not s.draws and s.phase in (GO, PLAY):
            law = g.law
            go = s.phase == GO
            base = s.clock + (g.countdown_ms if go else 0)
            movers = list(range(s.n)) if go else sorted(s.pending)
            delays = []
            for q in movers:
                b = base
                why = f"after {g.names[q]}'s action at {s.clock / 1000:.2f} s"
                if go:
                    why = f'the countdown ends with "go!" at {base / 1000:.2f} s'
                    if not s.picked_up and not g.briefing:
                        b += g.pick_up_ms
                        why += f" and picking up the hand takes {g.pick_up_ms / 1000:.2f} s"
                elif s.drill[q]:
                    b += g.drill_ms
                    why = f"saying the clearing drill takes {g.drill_ms / 1000:.2f} s"
                tq = next_time(q, i)
                if tq is None or tq < b:
                    if tq is not None:
                        early[q] = f"{g.names[q]} cannot act before {b / 1000:.2f} s ({why})"
                    delays.append(law.max)
                    continue
                early.pop(q, None)
                d = min(tq - b, law.max)
                if d % law.step:
                    d -= d % law.step
                delays.append(d)
            s.apply(Go(tuple(delays)) if go else React(tuple(movers), tuple(delays)))
            steps += 1
            continue
        if players == (CHANCE,):
            if t_i is not None or not isinstance(
                a_i, Draw | Reveal | Claim | First | Taliban | Order
            ):
                return fail(i, f"the record must give chance's step here ({s._now()})")
            try:
                s.apply(a_i)
            except IllegalActionError as exc:
                return fail(i, str(exc))
            steps += 1
            i += 1
            continue
        if s.phase == PLAY:
            now = s.ready[players[0]]
            if t_i is None:
                return fail(i, "a real-time action needs its time, like '1.20 alpha plays r1'")
            p_i = getattr(a_i, "player", -1)
            if t_i < now:
                reason = early.get(p_i) or (
                    f"{g.names[p_i]} is not ready yet" if p_i in range(s.n) else "no such player"
                )
                return fail(
                    i, f"at {t_i / 1000:.2f} s: {reason} (next action at {now / 1000:.2f} s)"
                )
            group: dict[int, tuple[int, Action]] = {}
            j = i
            while j < len(entries) and entries[j][0] == now:
                a = entries[j][1]
                p = getattr(a, "player", -1)
                if p not in players:
                    return fail(
                        j,
                        f"at {now / 1000:.2f} s only {', '.join(g.names[q] for q in players)} act",
                    )
                if p in group:
                    return fail(j, f"{g.names[p]} does two things at one instant")
                group[p] = (j, a)
                j += 1
            for p, (j2, a) in group.items():
                try:
                    s._check(p, a)
                except IllegalActionError as exc:
                    return fail(j2, str(exc))
            joint = [group[p][1] if p in group else Wait(p) for p in players]
            last_group = [entries[x][1].player for x in range(i, j)]  # type: ignore[union-attr]
            if len(joint) == 1:
                s.apply(joint[0])
            else:
                s.apply_joint(joint)
            steps += 1
            i = j
            continue
        # Decision steps without a clock: a Situation Room turn (the player to act, and anyone
        # who ends that turn with a Jam or Bad Intel; the others pass), discards, picks.
        group = {}
        j = i
        turn = s.turn if s.phase == TURN else -1
        while j < len(entries):
            a = entries[j][1]
            p = getattr(a, "player", -1)
            if p not in players or p in group:
                break
            if turn >= 0 and p != turn and not (isinstance(a, Play) and a.target == turn):
                break
            group[p] = (j, a)
            j += 1
        if not group:
            return fail(i, f"{' and '.join(g.names[q] for q in players)} act now ({s._now()})")
        fill: dict[int, Action] = {}
        for q in players:
            if q in group:
                continue
            if q != turn and turn >= 0:
                fill[q] = Pass(q)
            elif q == turn:
                # interrupted before acting: any legal placeholder (it is void)
                fill[q] = Reload(q) if g.refill else Pass(q)
            else:
                return fail(i, f"{g.names[q]} must act at the same time ({s._now()})")
        for p, (j2, a) in group.items():
            try:
                s._check(p, a)
            except IllegalActionError as exc:
                return fail(j2, str(exc))
        joint = [group[q][1] if q in group else fill[q] for q in players]
        if len(joint) == 1:
            s.apply(joint[0])
        else:
            s.apply_joint(joint)
        steps += 1
        i = j
    return RecordCheck(True, 0, "ok", s, steps)
