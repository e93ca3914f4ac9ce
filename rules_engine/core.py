"""The protocol every game engine implements, and the drivers that work on any of them.

Modelled on OpenSpiel's pure-Python games:

- A `State` says who acts next (`current_players()`); several players at once is a
  simultaneous step that takes one *joint* action (one action per player, in the order
  `current_players()` lists them).
- Chance is a player (`CHANCE`): dice results, shuffles and draws are explicit actions.
  A driver picks them with a seeded `random.Random`; a worked example forces them.
- Everything that happened is in `state.history`; `replay(state.initial(), history)` gives
  an equal state.
- `view(player)` is what that player can know; it must not change when something
  hidden from that player changes.
- Each game has a compact text notation: `engine.parse_action(engine.format_action(a)) == a`.

Rule breaches raise `IllegalActionError` naming the rule ("rule 2-2: ..."); unreadable
notation raises `NotationError`.  Both are `ValueError`s (as in python-chess).

Every transition says which rules it applied: while `recording()` is on, the engine adds an
`Event` (the rule's id as the game's data declares it under `clauses:`, what happened, and
its facts) for each rule it applies (`if EVENTS.on: EVENTS.emit("2-3-1", "roll", ...)`).
Off, that costs one attribute test per rule applied.
"""

from __future__ import annotations

import gc
import random
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Generic,
    Protocol,
    Self,
    TypeAlias,
    TypeVar,
    Union,
    runtime_checkable,
)

# The lazy action lists (`legal_actions` may return one), re-exported with the protocol.
from rules_engine.lazy_sequences import Arrangements as Arrangements
from rules_engine.lazy_sequences import LazySequence as LazySequence
from rules_engine.lazy_sequences import Mapped as Mapped
from rules_engine.lazy_sequences import Product as Product

if TYPE_CHECKING:
    from rules_engine.params import GameData

CHANCE: Final = -1
"""The chance player: its actions are dice results, shuffles and draws."""

OptionValue = str | int | bool

A = TypeVar("A", bound=Hashable)
Step: TypeAlias = Union[A, tuple[A, ...]]  # noqa: UP007 (a generic alias)
"""One entry of a history: an action, or a joint action of a simultaneous step."""


class IllegalActionError(ValueError):
    """An action the rules do not allow here; the message names the rule broken."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"rule {rule}: {message}")
        self.rule = rule
        self.message = message


@dataclass(frozen=True)
class Event:
    """One rule applied by one transition: the rule's id (`2-3-1`, as declared under
    `clauses:` in the game's data), what happened (`roll`, `sink`: the key of its phrase
    template under `narration:`), and the facts a sentence about it needs, as plain values
    (players by their notation names, numbers, lists, strings)."""

    rule: str
    what: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        facts = ", ".join(f"{k}={_plain_text(v)}" for k, v in self.data.items())
        return f"rule {self.rule}: {self.what}" + (f" ({facts})" if facts else "")


def _plain_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + " ".join(_plain_text(v) for v in value) + "]"
    return str(value)


class EventLog:
    """Where engines report the rules they apply.  `on` is False unless a `recording()` is
    open; then `emit` keeps each event (or, counting, only how often each rule applied)."""

    __slots__ = ("counts", "items", "on")

    def __init__(self) -> None:
        self.on = False
        self.items: list[Event] = []
        self.counts: Counter[str] | None = None

    def emit(self, rule: str, what: str, /, **data: Any) -> None:
        if self.counts is not None:
            self.counts[rule] += 1
        else:
            self.items.append(Event(rule, what, data))


EVENTS: Final = EventLog()
"""The one event log engines write to (see `recording`)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off inside the block (as it was after it).

    A random game adds an action to its history at every step, so the collector, set off by
    every few hundred new objects, walks the growing history again and again (a tenth to a
    fifth of a long random game) to find no cycle: the engines' fast drivers make none.
    What the block leaves is collected as usual after it."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def recording(count_only: bool = False) -> Iterator[EventLog]:
    """Record the events of everything applied inside the block: `log.items` (or, with
    `count_only`, `log.counts`: rule id -> times applied, for long enumerations)."""
    log = EventLog()
    log.on = True
    if count_only:
        log.counts = Counter()
    saved = (EVENTS.on, EVENTS.items, EVENTS.counts)
    EVENTS.on, EVENTS.items, EVENTS.counts = True, log.items, log.counts
    try:
        yield log
    finally:
        EVENTS.on, EVENTS.items, EVENTS.counts = saved


class NotationError(ValueError):
    """Text that is not an action in the game's notation."""


class OptionError(ValueError):
    """An unknown rule option, or a value the option does not allow."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


@dataclass(frozen=True)
class Bilingual:
    """A short text in Japanese and English."""

    ja: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True)
class RuleOption:
    """A reading the rules leave open, made explicit.

    The rulebook prints `explain` (and the chosen value's `choices` text) under
    "Clarifications"; examples name the options they need.
    """

    name: str
    default: OptionValue
    allowed: tuple[OptionValue, ...]
    explain: Bilingual
    choices: Mapping[OptionValue, Bilingual] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.default not in self.allowed:
            raise ValueError(f"option {self.name}: default {self.default!r} is not allowed")

    def check(self, value: object) -> OptionValue:
        if isinstance(value, bool) != isinstance(self.default, bool) or value not in self.allowed:
            allowed = ", ".join(str(v) for v in self.allowed)
            raise OptionError(
                self.name, f"rule option '{self.name}' must be one of {allowed}, got {value!r}"
            )
        assert isinstance(value, str | int | bool)
        return value


def options_from(game: GameData) -> tuple[RuleOption, ...]:
    """The game's rule options, as its data states them (`options:` in game.yaml)."""
    return game.info.options


def played_options(game: GameData, names: Sequence[str]) -> tuple[RuleOption, ...]:
    """The game's rule options, checked to be exactly the ones an engine plays (`names`):
    the data and the engine must not drift apart."""
    declared = options_from(game)
    stated = [o.name for o in declared]
    missing = [n for n in names if n not in stated]
    if missing:
        raise ValueError(
            f"components/{game.id}/game.yaml lacks the rule option"
            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"(under options:), which the engine plays"
        )
    unknown = [n for n in stated if n not in names]
    if unknown:
        raise ValueError(
            f"components/{game.id}/game.yaml states the rule option"
            f"{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
            f"(under options:), which the engine does not play"
        )
    return declared


def resolve_options(
    declared: Sequence[RuleOption], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Every declared option's value: the given one (checked) or the default."""
    by_name = {o.name: o for o in declared}
    values: dict[str, OptionValue] = {o.name: o.default for o in declared}
    for name, value in (given or {}).items():
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) or "none"
            raise OptionError(name, f"unknown rule option '{name}' (known: {known})")
        values[name] = option.check(value)
    return values


@runtime_checkable
class State(Protocol[A]):
    """A game position, mutable; `apply` moves it on and appends to `history`."""

    @property
    def num_players(self) -> int: ...

    @property
    def history(self) -> Sequence[Step[A]]: ...

    def current_players(self) -> tuple[int, ...]:
        """Who acts now: (), one player, `(CHANCE,)`, or several for a simultaneous step."""
        ...

    def legal_actions(self, player: int) -> Sequence[A]:
        """Every legal action of `player` now (may be a lazy sequence; chance included)."""
        ...

    def is_legal(self, player: int, action: A) -> bool: ...

    def sample_action(self, player: int, rng: random.Random) -> A:
        """A uniformly random legal action (for chance: by the outcomes' odds)."""
        ...

    def apply(self, action: A) -> None:
        """Apply the action of the only current player (or chance)."""
        ...

    def apply_joint(self, actions: Sequence[A]) -> None:
        """Apply one action per current player, in `current_players()` order."""
        ...

    def view(self, player: int) -> Hashable:
        """What `player` can know: equal for any two states they cannot tell apart."""
        ...

    def clone(self) -> Self: ...

    def resample(self, player: int, rng: random.Random) -> Self:
        """A state `player` cannot tell from this one (the same `view(player)`), everything
        hidden from them drawn at random as they could guess it; it depends only on
        `view(player)` and `rng` (see `rules_engine.bots`)."""
        ...

    def initial(self) -> Self:
        """A fresh state with the same setup and an empty history."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, ...]: ...


class Engine(Protocol[A]):
    """A game under one rule version and set of rule options (OpenSpiel's `Game`)."""

    @property
    def game_id(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def options(self) -> Mapping[str, OptionValue]: ...

    def player_name(self, player: int) -> str: ...

    def new_initial_state(self) -> State[A]: ...

    def format_action(self, action: A) -> str: ...

    def parse_action(self, text: str) -> A: ...

    def setup_state(self, setup: Mapping[str, Any]) -> State[A]:
        """A state from an example's `setup:` mapping (raises `SetupError`)."""
        ...

    def query(self, state: State[A], name: str) -> Any:
        """A named fact about a state, for an example's `expect:` (KeyError if unknown)."""
        ...

    def query_names(self) -> tuple[str, ...]: ...

    def notation_pattern(self) -> re.Pattern[str]:
        """What the game's notation looks like in running text (`roll 3 3 5 6`, `blue
        shoot NW`), so that a player's rulebook can be checked to contain none of it."""
        ...


class SetupError(ValueError):
    """A bad `setup:` in an example; `key` points into the setup mapping."""

    def __init__(self, key: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.key = key


# --- drivers -----------------------------------------------------------------------------

JOINT_SEPARATOR: Final = " ; "


def format_step(engine: Engine[A], step: Step[A]) -> str:
    """A history entry in the game's notation; joint actions are joined by ' ; '."""
    if isinstance(step, tuple) and _is_joint(step):
        return JOINT_SEPARATOR.join(engine.format_action(a) for a in step)
    return engine.format_action(step)  # type: ignore[arg-type]


def parse_step(engine: Engine[A], text: str) -> Step[A]:
    """The inverse of `format_step`."""
    parts = [p.strip() for p in text.split(";")]
    if any(not p for p in parts):
        raise NotationError(f"empty action in {text!r}")
    if len(parts) == 1:
        return engine.parse_action(parts[0])
    return JointAction(engine.parse_action(p) for p in parts)


class JointAction(tuple[Any, ...]):
    """A tuple of actions marked as one simultaneous step (not a game's own tuple action)."""

    __slots__ = ()


def _is_joint(step: object) -> bool:
    return isinstance(step, JointAction)


def joint(actions: Sequence[A]) -> tuple[A, ...]:
    """Mark a sequence of per-player actions as one simultaneous step."""
    return JointAction(actions)


def apply_step(state: State[A], step: Step[A]) -> None:
    if _is_joint(step):
        state.apply_joint(step)  # type: ignore[arg-type]
    else:
        state.apply(step)  # type: ignore[arg-type]


def replay(initial: State[A], history: Sequence[Step[A]]) -> State[A]:
    """Apply a history to a copy of `initial` (checked action by action)."""
    state = initial.clone()
    for step in history:
        apply_step(state, step)
    return state


def playout_picks(state: State[A], rng: random.Random) -> list[A]:
    """One action per current player, as a search player's playout picks them: each
    player's legal actions generated (`legal_actions`, a list or a lazy sequence) and one
    taken uniformly by index; chance by the outcomes' odds (`sample_action`)."""
    return [
        state.sample_action(p, rng) if p == CHANCE else rng.choice(state.legal_actions(p))
        for p in state.current_players()
    ]


def playout(state: State[A], rng: random.Random, max_steps: int = 100_000) -> int:
    """Play `state` to the end as a search player's playout does (`playout_picks`: every
    current player's legal actions generated and one taken uniformly by index, chance by
    the outcomes' odds) and return the number of actions applied (each player's action of a
    simultaneous step counted).  An engine whose state has its own `playout(rng, max_steps)`
    plays it there: the same picks from the same generator, so the same game, faster
    (`tests/engine/shortcuts.py` checks it against this loop).  Stops after `max_steps`
    steps."""
    own = getattr(state, "playout", None)
    if own is not None:
        return int(own(rng, max_steps))
    return generic_playout(state, rng, max_steps)


def generic_playout(state: State[A], rng: random.Random, max_steps: int = 100_000) -> int:
    """`playout` through the protocol alone: `legal_actions`, `rng.choice`, checked `apply`."""
    actions = steps = 0
    while not state.is_terminal() and steps < max_steps:
        picked = playout_picks(state, rng)
        if len(picked) == 1:
            state.apply(picked[0])
        else:
            state.apply_joint(joint(picked))
        actions += len(picked)
        steps += 1
    return actions


_DRAWS_BY_BITS: dict[type, bool] = {}
"""Per class of generator: whether its `_randbelow` is `Random`'s own by `getrandbits`
(`Random.__init_subclass__` picks it per class, so a class decides once)."""


def index_bits(rng: random.Random) -> Callable[[int], int] | None:
    """`rng.getrandbits` when `rng.choice(seq)` draws its index by `Random`'s own
    `_randbelow_with_getrandbits` (`getrandbits(n.bit_length())` until below n), so that a
    playout kernel may draw an index the same way without the method's frame; None for a
    generator that draws otherwise (the kernel then calls `rng._randbelow`).  Asked at
    every playout: the answer is kept per class, and a generator given its own
    `_randbelow` is looked at alone."""
    kind = type(rng)
    by_bits = _DRAWS_BY_BITS.get(kind)
    if by_bits is None:
        by_bits = _DRAWS_BY_BITS[kind] = (
            getattr(kind, "_randbelow", None) is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
        )
    if by_bits and "_randbelow" not in getattr(rng, "__dict__", ()):
        return rng.getrandbits
    return None


def random_step(state: State[A], rng: random.Random) -> Step[A]:
    """Pick and apply one random legal step; return it."""
    players = state.current_players()
    if len(players) == 1:
        action = state.sample_action(players[0], rng)
        state.apply(action)
        return action
    actions = joint([state.sample_action(p, rng) for p in players])
    state.apply_joint(actions)
    return actions


def play_random(state: State[A], rng: random.Random, max_steps: int = 100_000) -> int:
    """Play random legal steps to the end; return the number of steps taken."""
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
        random_step(state, rng)
        steps += 1
    return steps


# --- what the engines share ----------------------------------------------------------------


class EngineBase:
    """The bookkeeping part of `Engine`, the same in every game's engine.

    A subclass names its game (`GAME_ID`, and `TITLE` for the error on another game) and
    the rule options it plays (`OPTION_NAMES`; the options themselves are data, under
    `options:` in the game's `game.yaml`); its `__init__` calls `_load_rules` first, plays
    the pieces of `game.at(self._version)` (an older version may have other cards), and
    calls `_set_players` once it knows the players' names.
    """

    GAME_ID: ClassVar[str]
    TITLE: ClassVar[str]
    OPTION_NAMES: ClassVar[tuple[str, ...]]
    QUERIES: ClassVar[tuple[str, ...]]

    _game_id: str
    _version: str
    _options: dict[str, OptionValue]
    declared_options: tuple[RuleOption, ...]
    params: dict[str, Any]
    num_players: int
    names: tuple[str, ...]
    _player_index: dict[str, int]

    def _load_rules(
        self, game: GameData, version: str | None, options: Mapping[str, object] | None
    ) -> dict[str, Any]:
        """Check that `game` is this engine's game, settle the rule version and options;
        return (and keep as `params`) that version's rule parameters."""
        if game.id != self.GAME_ID:
            raise ValueError(f"not {self.TITLE}: {game.id}")
        self._game_id = game.id
        self._version = version or game.info.rule_version
        self.declared_options = played_options(game, self.OPTION_NAMES)
        self._options = resolve_options(self.declared_options, options)
        params = game.rule_params(self._version)
        self.params = params
        return params

    def declared_option(self, name: str) -> RuleOption:
        """One of the rule options this engine plays, as the game's data states it."""
        return next(o for o in self.declared_options if o.name == name)

    def _player_count(self, game: GameData, between: str = "-") -> int:
        """The `players` option, checked against the game's range of players (kept as
        `num_players`); `between` joins the range's ends in the error."""
        n = int(self._options["players"])
        low, high = game.info.players.min, game.info.players.max
        if not low <= n <= high:
            raise ValueError(f"{n} players: the game is for {low}{between}{high}")
        self.num_players = n
        return n

    def _set_players(self, names: tuple[str, ...]) -> None:
        """The players' names in seat order (the notation's player words)."""
        self.names = names
        self._player_index = {name: i for i, name in enumerate(names)}

    @property
    def game_id(self) -> str:
        return self._game_id

    @property
    def version(self) -> str:
        return self._version

    @property
    def options(self) -> Mapping[str, OptionValue]:
        return dict(self._options)

    def player_name(self, player: int) -> str:
        return "chance" if player == CHANCE else self.names[player]

    def player_index(self, name: str) -> int:
        try:
            return self._player_index[name]
        except KeyError:
            raise NotationError(
                f"unknown player '{name}' (players: {', '.join(self.names)})"
            ) from None

    def query_names(self) -> tuple[str, ...]:
        return self.QUERIES

    def _setup_player(self, name: object, key: tuple[str | int, ...]) -> int:
        if not isinstance(name, str) or name not in self._player_index:
            raise SetupError(key, f"unknown player {name!r} (players: {', '.join(self.names)})")
        return self._player_index[name]


E = TypeVar("E", bound=EngineBase)


class StateBase(Generic[A, E]):
    """The checked `apply` / `apply_joint` and the rest of `State` that every game's state
    does the same way.

    A subclass keeps its engine in `g` and its history in `_history` (both slots), and gives
    `current_players`, `_check(player, action)` (raises `IllegalActionError`), `_do(action)`
    (plays a checked action), `is_terminal`, `_key` (what equal states share) and
    `player_view`; `returns` reads `winners` (a game that scores otherwise overrides it).
    A simultaneous step checks every action before it plays them (`_do_joint`, in order).

    The errors name the game's own rules: `OVER_RULE` when the game is over, `JOINT_RULE`
    when the number of actions does not fit who acts now; `JOINT_NEEDED` is the message
    for a single action where several players act (`{n}`: how many, `{names}`: who).
    """

    __slots__ = ()

    OVER_RULE: ClassVar[str]
    JOINT_RULE: ClassVar[str]
    JOINT_NEEDED: ClassVar[str] = "{n} players act at the same time ({names}): give a joint action"

    g: E
    _history: list[Step[A]]
    n: int
    winners: tuple[int, ...]

    # --- hooks ---------------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def player_view(self, player: int) -> Hashable:
        raise NotImplementedError

    def _check(self, player: int, action: A) -> None:
        """Raise `IllegalActionError` unless `player` may take `action` now."""
        raise NotImplementedError

    def resample(self, player: int, rng: random.Random) -> Self:
        """A state with the same `view(player)`, hidden parts drawn anew (see `State`)."""
        raise NotImplementedError(f"{type(self).__name__} cannot resample hidden information")

    def _do(self, action: A) -> None:
        """Play an action already checked."""
        raise NotImplementedError

    def _do_joint(self, actions: Sequence[A]) -> None:
        """Play the checked actions of a simultaneous step."""
        for a in actions:
            self._do(a)

    def _record(self, action: A) -> None:
        """Add a checked action to the history (before it is played)."""
        self._history.append(action)

    def _key(self) -> tuple[Any, ...]:
        """Everything two equal states share (starting with `_rules_key()`)."""
        raise NotImplementedError

    def _rules_key(self) -> tuple[Any, ...]:
        """The game, rule version and options: the part of `_key` the engine decides."""
        g = self.g
        return (g.game_id, g.version, tuple(sorted(g.options.items())))

    # --- protocol ------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def history(self) -> Sequence[Step[A]]:
        return self._history

    def is_legal(self, player: int, action: A) -> bool:
        try:
            self._check(player, action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: A) -> None:
        players = self.current_players()
        if len(players) != 1:
            if not players:
                raise IllegalActionError(self.OVER_RULE, "the game is over")
            raise IllegalActionError(
                self.JOINT_RULE,
                self.JOINT_NEEDED.format(n=len(players), names=self._names(players)),
            )
        self._check(players[0], action)
        self._record(action)
        self._do(action)

    def apply_joint(self, actions: Sequence[A]) -> None:
        players = self.current_players()
        if len(players) == 1 and len(actions) == 1:
            self.apply(actions[0])
            return
        if len(actions) != len(players):
            raise IllegalActionError(
                self.JOINT_RULE,
                f"{len(players)} player(s) act now ({self._names(players)}), "
                f"got {len(actions)} action(s)",
            )
        for p, a in zip(players, actions, strict=True):
            self._check(p, a)
        self._history.append(JointAction(actions))
        self._do_joint(actions)

    def _names(self, players: tuple[int, ...]) -> str:
        return ", ".join(self.g.player_name(p) for p in players)

    def view(self, player: int) -> Hashable:
        return self.player_view(player)

    def returns(self) -> tuple[float, ...]:
        """0 for all before the end; then 1 for a sole winner, 0 for winners who share, -1 for
        everyone else."""
        if not self.is_terminal():
            return (0.0,) * self.n
        share = 1.0 if len(self.winners) == 1 else 0.0
        return tuple(share if p in self.winners else -1.0 for p in range(self.n))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._key() == other._key()


class TurnStateBase(StateBase[A, E]):
    """A `StateBase` of a game where one player acts at a time: a joint action must hold
    exactly one action (`ONE_AT_A_TIME` is the error otherwise, `{n}`: how many it holds)."""

    __slots__ = ()

    ONE_AT_A_TIME: ClassVar[str]

    def apply_joint(self, actions: Sequence[A]) -> None:
        if len(actions) != 1:
            raise IllegalActionError(self.JOINT_RULE, self.ONE_AT_A_TIME.format(n=len(actions)))
        self.apply(actions[0])


@dataclass(frozen=True)
class DiagramCell:
    """One cell of a diagram, in players' language: its text (a name, a number, a board
    symbol, never notation), a mark the renderer styles (`sunk`, `active`, `hit`, a deck
    id for its colour...), and optionally a die face or a piece drawn as a picture.

    - `die`: 1 to 6, drawn as a die face with pips (the text is then ignored);
    - `piece`: a component id of the game (`torpedo-b`, `tile-7`): drawn as a small
      picture of that piece's real face (`back=True`: its back, for a hidden card)."""

    text: str = ""
    mark: str = ""
    die: int = 0
    piece: str = ""
    back: bool = False


@dataclass(frozen=True)
class DiagramArrow:
    """An arrow over a grid, from the centre of one cell to another through `via` cells
    (corners of a path): `move` (a walk, solid), `shot` (a throw, dashed), `planned`
    (a move or throw revealed but not yet carried out, dotted). Cells are (row, column)
    indices into the grid's rows and cells."""

    start: tuple[int, int]
    end: tuple[int, int]
    kind: str = "move"
    via: tuple[tuple[int, int], ...] = ()
    colour: str = ""  # a mark (deck id) for the arrow's colour; default: dark grey


@dataclass(frozen=True)
class DiagramGrid:
    """A labelled grid drawn from a state, for rulebook examples (no paper knowledge here).
    The title is the caption: what is drawn, and when, by the engine's own count
    (`Battle zone, turn 1, step 3`)."""

    title: Mapping[str, str]  # {"ja": ..., "en": ...}
    columns: tuple[str, ...]
    rows: tuple[tuple[Mapping[str, str], tuple[DiagramCell, ...]], ...]
    arrows: tuple[DiagramArrow, ...] = ()


@dataclass(frozen=True)
class TimelineEvent:
    """One timed event: when (milliseconds from the start), what (players' words), and
    whose lane (a player's name, or "" for the table)."""

    at_ms: int
    label: Mapping[str, str]
    lane: str = ""
    mark: str = ""


@dataclass(frozen=True)
class DiagramTimeline:
    """Events in real time, drawn as a timeline with one lane per player."""

    title: Mapping[str, str]
    events: tuple[TimelineEvent, ...]
    lanes: tuple[str, ...] = ()
    # What each lane is called in each language ({"Alpha": {"ja": "アルファ", "en": "Alpha"}});
    # a lane not named here is printed as it is.
    lane_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


Diagram = tuple[DiagramGrid | DiagramTimeline, ...]
