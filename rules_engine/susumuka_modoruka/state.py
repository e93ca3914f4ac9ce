"""The state of a game of Susumuka & Modoruka: its data (the players' depth, HP, items,
skills, hand, flag and trophy; the dungeon deck and discard pile; the item decks; the combat
being fought; the escape being rewarded), the facts derived from it (what a player's skills
and items add up to), cloning, and the protocol of `rules_engine.core.State`.

The rules that move a state on live in the rooms of the rulebook's chapters (`turn.py`,
`investigate_advance.py`, `combat.py`, `return_escape.py`, `death.py`, `skills.py`,
`items.py`, `endings.py`); `_do` hands each action to them by phase.  Why an action is
illegal is in `checks.py`, what a player can know in `views.py`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from rules_engine.core import (
    CHANCE,
    EVENTS,
    IllegalActionError,
    Mapped,
    Product,
    Step,
    TurnStateBase,
)
from rules_engine.susumuka_modoruka import kernel
from rules_engine.susumuka_modoruka.actions import Act, Action, Draw, First, Roll
from rules_engine.susumuka_modoruka.checks import check
from rules_engine.susumuka_modoruka.combat import (
    after_actions,
    after_roll,
    choose,
    choose_actions,
    flee,
    reroll,
    resolve,
    use_power,
)
from rules_engine.susumuka_modoruka.endings import measure, rank_key
from rules_engine.susumuka_modoruka.investigate_advance import advance, drawn, investigate
from rules_engine.susumuka_modoruka.items import use_main
from rules_engine.susumuka_modoruka.phases import (
    AFTER,
    CHOOSE,
    DRAW,
    END_TURN,
    FIRST,
    INVESTIGATE,
    ITEM,
    MAIN,
    OVER,
    PHASE_NAMES,
    PICK,
    RETURN,
    ROLL,
)
from rules_engine.susumuka_modoruka.pieces import ALL
from rules_engine.susumuka_modoruka.resampling import resample
from rules_engine.susumuka_modoruka.return_escape import (
    eligible_decks,
    item_drawn,
    start_item_draws,
)
from rules_engine.susumuka_modoruka.skills import buy
from rules_engine.susumuka_modoruka.turn import begin_turn, end_turn, main_actions
from rules_engine.susumuka_modoruka.views import SusumukaView, player_view

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka


class Stats(NamedTuple):
    """What a player's skills and kept items add up to."""

    dice: int
    bonus: int
    armour: int
    nullify: frozenset[str]
    regen: int
    bonus_move: int
    flee_half: bool
    extra_draws: int
    rerolls: tuple[str, ...]  # per-combat reroll sources (skill or kept item ids)
    hp_extra: int
    revive_hp: int  # a per-game revive skill (0: none)


_NO_STATS: Final = Stats(0, 0, 0, frozenset(), 0, 0, False, 0, (), 0, 0)

_STATS_KEPT: Final = 1 << 16
"""How many sums of skills and items an engine remembers (`SusumukaState._restat`); it
forgets them all when it would remember more."""


# The engine is named in quotes: engine.py imports this module.
class SusumukaState(TurnStateBase[Action, "SusumukaModoruka"]):
    """A position of Susumuka & Modoruka (mutable; see `rules_engine.core.State`)."""

    OVER_RULE = "game-end"
    JOINT_RULE = "turn-order"
    ONE_AT_A_TIME = "one player acts at a time: give one action"

    __slots__ = (
        "_history",
        "_offered",
        "_seen_by",
        "c_bonus",
        "c_card",
        "c_damage",
        "c_depth",
        "c_dice",
        "c_moved",
        "c_nullified",
        "c_player",
        "c_power",
        "c_result",
        "c_used",
        "cur",
        "deaths",
        "depth",
        "discard",
        "discard_n",
        "draws_left",
        "e_cont",
        "e_deck",
        "e_got",
        "e_left",
        "escapes",
        "first",
        "flag",
        "g",
        "hand",
        "hp",
        "ibottom",
        "init",
        "ipile",
        "items",
        "last_escape",
        "last_pickup",
        "lost",
        "lp_home",
        "maxd",
        "n",
        "out",
        "phase",
        "pile",
        "pile_n",
        "purpose",
        "removed",
        "round",
        "skills",
        "spent",
        "stats",
        "top",
        "trophy",
        "undying",
        "winners",
    )

    def __init__(self, engine: SusumukaModoruka) -> None:
        g = engine
        n = g.num_players
        self.g = g
        self.n = n
        self._history: list[Step[Action]] = []
        self._seen_by: list[int] = []  # per history entry: the only player who saw it, or -1
        # The last decision listed by `legal_actions`: (history length, player, actions).
        self._offered: tuple[int, int, tuple[Action, ...]] | None = None
        self.phase = FIRST
        self.round = 1
        self.first = -1
        self.cur = -1
        self.depth = [0] * n
        self.hp = [g.start_hp] * n
        self.items: list[list[str]] = [[] for _ in range(n)]
        self.skills: list[list[int]] = [[0] * len(g.skills[p]) for p in range(n)]
        self.spent = [0] * n
        self.flag = [-1] * n
        self.trophy = [-1] * n
        self.maxd = [0] * n
        self.hand: list[list[str]] = [[] for _ in range(n)]
        self.undying = [False] * n
        self.lost: list[list[str]] = [[] for _ in range(n)]
        self.lp_home = [True] * n
        self.out = [False] * n
        self.escapes = [0] * n
        self.deaths = [0] * n
        self.stats: list[Stats] = [_NO_STATS] * n
        self.pile = list(g.start_pile)
        self.pile_n = sum(self.pile)
        self.discard = [0] * len(g.dungeon)
        self.discard_n = 0
        self.ipile: list[list[int]] = [[i.count for i in g.deck_items[d]] for d in g.item_decks]
        self.ibottom: list[list[str]] = [[] for _ in g.item_decks]
        self.removed: list[str] = []
        self.purpose = 0
        self.draws_left = 0
        self.top: str | None = None
        self.c_card: str | None = None
        self.c_player = -1
        self.c_depth = 0
        self.c_dice: tuple[int, ...] = ()
        self.c_bonus = 0
        self.c_power = 0
        self.c_nullified = False
        self.c_used: tuple[str, ...] = ()
        self.c_result: str | None = None
        self.c_moved = 0
        self.c_damage = 0
        self.e_deck = -1
        self.e_left = 0
        self.e_cont = END_TURN
        self.e_got: list[str] = []
        self.last_escape: tuple[int, int, str | None, tuple[str, ...]] | None = None
        self.last_pickup: tuple[int, int, tuple[str, ...]] | None = None
        self.winners: tuple[int, ...] = ()
        for p in range(n):
            self._restat(p)
        self.init: SusumukaState | None = None

    # --- derived facts ---------------------------------------------------------------------

    def _restat(self, p: int) -> Stats:
        """Work out again what player `p`'s skills and kept items add up to (after they
        change), capping their HP at the new maximum.  The sums are remembered by the
        engine per player, skills taken and items held (`_STATS_KEPT` of them at most):
        a game asks for the same few again and again."""
        memo = self.g.stats_memo
        key: tuple[int | str, ...] = (p, *self.skills[p], *self.items[p])
        stats = memo.get(key)
        if stats is None:
            if len(memo) >= _STATS_KEPT:
                memo.clear()
            stats = memo[key] = self._add_up(p)
        self.stats[p] = stats
        top = self.g.start_hp + stats.hp_extra
        if self.hp[p] > top:
            self.hp[p] = top
        return stats

    def _add_up(self, p: int) -> Stats:
        """What player `p`'s skills and kept items add up to."""
        g = self.g
        dice = g.base_dice
        bonus = armour = regen = bonus_move = extra = hp_extra = revive = 0
        flee_half = False
        nullify: set[str] = set()
        rerolls: list[str] = []
        sources: list[tuple[str, str, int, str | None, int]] = []
        for skill, k in zip(g.skills[p], self.skills[p], strict=True):
            if k:
                sources.append((skill.id, skill.effect, skill.amount, None, k))
        for iid in self.items[p]:
            item = g.items[iid]
            if item.use == "keep":
                sources.append((iid, item.effect, item.amount, item.colour, 1))
        for sid, effect, amount, colour, k in sources:
            if effect == "power":
                bonus += amount * k
            elif effect == "power_dice":
                dice += amount * k
            elif effect == "armour":
                armour += amount * k
            elif effect == "nullify":
                nullify.add(colour or ALL)
            elif effect == "regen":
                regen += amount * k
            elif effect == "bonus_move":
                bonus_move += amount * k
            elif effect == "flee_half":
                flee_half = True
            elif effect == "investigate_draws":
                extra += amount * k
            elif effect == "reroll":
                rerolls.extend([sid] * k)
            elif effect == "hp_max":
                hp_extra += amount * k
            elif effect == "revive":
                revive = max(revive, amount)
        return Stats(
            dice,
            bonus,
            armour,
            frozenset(nullify),
            regen,
            bonus_move,
            flee_half,
            extra,
            tuple(rerolls),
            hp_extra,
            revive,
        )

    def max_hp(self, p: int) -> int:
        return self.g.start_hp + self.stats[p].hp_extra

    def turns_passed(self) -> int:
        return self.g.turns if self.phase == OVER else self.round - 1

    def skill_ids(self, p: int) -> list[str]:
        out: list[str] = []
        for skill, k in zip(self.g.skills[p], self.skills[p], strict=True):
            out.extend([skill.id] * k)
        return out

    def discard_list(self) -> list[str]:
        out: list[str] = []
        for card, k in zip(self.g.dungeon, self.discard, strict=True):
            out.extend([card.id] * k)
        return out

    def ipile_n(self, k: int) -> int:
        return sum(self.ipile[k])

    def measure(self, p: int) -> int:
        """The depth player `p` is measured by for the win (see `endings.measure`)."""
        return measure(self, p)

    def rank_key(self, p: int) -> tuple[int, ...]:
        """What ranks player `p` at the end (see `endings.rank_key`)."""
        return rank_key(self, p)

    # --- protocol ----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (FIRST, DRAW, ROLL, ITEM):
            return (CHANCE,)
        if phase == OVER:
            return ()
        return (self.cur,)

    def legal_actions(self, player: int) -> Sequence[Action]:
        phase = self.phase
        if player == CHANCE:
            if phase == FIRST:
                return [First(p) for p in range(self.n)]
            if phase == DRAW:
                ids = self.g.dungeon
                return [Draw(ids[i].id) for i, k in enumerate(self.pile) if k]
            if phase == ITEM:
                k = self.e_deck
                pile = self.ipile[k]
                if any(pile):
                    items = self.g.deck_items[self.g.item_decks[k]]
                    return [Draw(items[i].id) for i, c in enumerate(pile) if c]
                return [Draw(self.ibottom[k][0])]
            if phase == ROLL:
                faces = tuple(range(1, self.g.faces + 1))
                return Mapped(
                    Product(*[faces] * self.stats[self.cur].dice),
                    Roll,
                    lambda a: a.dice if isinstance(a, Roll) else None,
                )
            return []
        if player != self.cur or phase in (FIRST, DRAW, ROLL, ITEM, OVER):
            return []
        # A decision is listed once: a search player's playout lists it, then `apply`
        # checks the pick against the same list (`checks.check`).  Every change of the
        # state goes through the history, so its length dates the list.
        stamp = len(self._history)
        offered = self._offered
        if offered is not None and offered[0] == stamp and offered[1] == player:
            return list(offered[2])
        acts = self._decisions(player)
        self._offered = (stamp, player, tuple(acts))
        return acts

    def offered(self, player: int) -> tuple[Action, ...]:
        """The player's legal decisions now, as `legal_actions` lists them (kept)."""
        offered = self._offered
        if offered is None or offered[0] != len(self._history) or offered[1] != player:
            self.legal_actions(player)
            offered = self._offered
            assert offered is not None
        return offered[2]

    def _decisions(self, player: int) -> list[Action]:
        """The current player's legal actions in a phase of decisions (not chance's)."""
        phase = self.phase
        if phase == MAIN:
            return main_actions(self, player)
        if phase == CHOOSE:
            return choose_actions(self, player)
        if phase == AFTER:
            return after_actions(self, player)
        if phase == RETURN:
            verbs = self.g.verb_acts[player]
            return [verbs["return"], verbs["stay"]]
        if phase == PICK:
            return [Act(player, "take", (d,)) for d in eligible_decks(self, player)]
        return []

    def sample_action(self, player: int, rng: random.Random) -> Action:
        phase = self.phase
        g = self.g
        if player == CHANCE:
            if phase == DRAW:
                i = int(rng.random() * self.pile_n)
                for idx, k in enumerate(self.pile):
                    if i < k:
                        return g.draw_acts[idx]
                    i -= k
            if phase == ROLL:
                faces = g.faces
                rnd = rng.random
                dice = self.stats[self.cur].dice
                if dice == 1:
                    return g.roll_one[int(rnd() * faces)]
                return Roll(tuple([int(rnd() * faces) + 1 for _ in range(dice)]))
            if phase == ITEM:
                k = self.e_deck
                pile = self.ipile[k]
                total = sum(pile)
                if total:
                    i = int(rng.random() * total)
                    items = g.deck_items[g.item_decks[k]]
                    for idx, c in enumerate(pile):
                        if i < c:
                            return Draw(items[idx].id)
                        i -= c
                return Draw(self.ibottom[k][0])
            if phase == FIRST:
                return First(int(rng.random() * self.n))
        acts = self.legal_actions(player)
        if not acts:
            raise IllegalActionError("turn-order", f"{g.player_name(player)} has nothing to do now")
        return acts[int(rng.random() * len(acts))]

    def apply(self, action: Action) -> None:
        """`StateBase.apply` without asking who acts: here one player, or chance, acts at a
        time (the same checks and errors, the hot path of every playout)."""
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError(self.OVER_RULE, "the game is over")
        check(self, CHANCE if phase in _CHANCE_PHASES else self.cur, action)
        self._record(action)
        self._do(action)

    def _record(self, action: Action) -> None:
        self._history.append(action)
        seen = -1
        if (
            self.phase == DRAW
            and self.purpose == INVESTIGATE
            and isinstance(action, Draw)
            and self.g.dungeon[self.g.dungeon_index[action.card]].type != "lost_property"
        ):
            seen = self.cur
        self._seen_by.append(seen)

    def clone(self) -> SusumukaState:
        new = SusumukaState.__new__(SusumukaState)
        for name in _PLAIN:
            object.__setattr__(new, name, getattr(self, name))
        new._history = list(self._history)
        new._seen_by = list(self._seen_by)
        new._offered = None
        for name in _FLAT:
            object.__setattr__(new, name, list(getattr(self, name)))
        for name in _NESTED:
            object.__setattr__(new, name, [list(x) for x in getattr(self, name)])
        new.e_got = list(self.e_got)
        return new

    def resample(self, player: int, rng: random.Random) -> SusumukaState:
        """A state with the same `view(player)`: the other players' hands and the dungeon
        deck dealt anew, epoch by epoch of the deck (see `resampling.py`); the history's
        hidden draws are rewritten to match, so it replays."""
        return resample(self, player, rng)

    def _snapshot(self) -> SusumukaState:
        snap = self.clone()
        snap._history = []
        snap._seen_by = []
        snap.init = None
        return snap

    def initial(self) -> SusumukaState:
        if self.init is None:
            return SusumukaState(self.g)
        new = self.init.clone()
        new.init = self.init
        return new

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def __hash__(self) -> int:
        return hash((self.round, self.phase, len(self._history)))

    def _key(self) -> tuple[Any, ...]:
        parts: list[Any] = list(self._rules_key())
        parts.append(tuple(self._history))
        for name in _PLAIN:
            if name not in ("g", "init"):
                parts.append(getattr(self, name))
        for name in _FLAT:
            parts.append(tuple(getattr(self, name)))
        for name in _NESTED:
            parts.append(tuple(tuple(x) for x in getattr(self, name)))
        parts.append(tuple(self.e_got))
        return tuple(parts)

    def __repr__(self) -> str:
        who = self.g.names[self.cur] if self.cur >= 0 else "-"
        return (
            f"<SusumukaState round {self.round} {PHASE_NAMES[self.phase]} {who} "
            f"depth {self.depth} hp {self.hp}>"
        )

    def zones(self) -> tuple[dict[str, int], dict[str, int]]:
        """Where every card is, counted by id: (dungeon cards, item cards)."""
        g = self.g
        dungeon: dict[str, int] = {}

        def add(counter: dict[str, int], cid: str, k: int = 1) -> None:
            counter[cid] = counter.get(cid, 0) + k

        for idx, card in enumerate(g.dungeon):
            add(dungeon, card.id, self.pile[idx] + self.discard[idx])
        for p in range(self.n):
            for cid in self.hand[p]:
                add(dungeon, cid)
            if self.lp_home[p]:
                add(dungeon, g.dungeon[g.lp_index[p]].id)
        for held in (self.top, self.c_card if self.phase in (ROLL, AFTER) else None):
            if held:
                add(dungeon, held)
        items: dict[str, int] = {}
        for k, d in enumerate(g.item_decks):
            for item, c in zip(g.deck_items[d], self.ipile[k], strict=True):
                add(items, item.id, c)
            for iid in self.ibottom[k]:
                add(items, iid)
        for p in range(self.n):
            for iid in self.items[p] + self.lost[p]:
                add(items, iid)
        for iid in self.removed:
            add(items, iid)
        return dungeon, items

    # --- fast random play ----------------------------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with random legal actions (the same choices as
        `core.play_random` with the same generator, faster: no legality check)."""
        history = self._history
        seen = self._seen_by
        sample = self.sample_action
        current = self.current_players
        record = self._record
        while self.phase != OVER:
            action = sample(current()[0], rng)
            if self.phase == DRAW:
                record(action)
            else:
                history.append(action)
                seen.append(-1)
            self._do(action)

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> int:
        """A search player's playout, fast (`kernel.playout`, as `rules_engine.core.playout`
        asks): the same game as `rules_engine.core.generic_playout`; returns the actions
        applied."""
        return kernel.playout(self, rng, max_steps)

    # --- rules ---------------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        phase = self.phase
        if isinstance(action, Act):
            verb = action.verb
            p = action.player
            args = action.args
            if phase == MAIN:
                if verb == "skill":
                    buy(self, p, args[0])
                elif verb == "use":
                    use_main(self, p, args[0])
                elif verb == "investigate":
                    investigate(self, p)
                elif verb == "advance":
                    advance(self)
                else:  # pass
                    if EVENTS.on:
                        EVENTS.emit("empty-deck", "pass", player=self.g.names[p])
                    end_turn(self)
            elif phase == CHOOSE:
                choose(self, p, verb, args)
            elif phase == AFTER:
                if verb == "accept":
                    resolve(self, p)
                elif verb == "reroll":
                    reroll(self, p, args[0])
                elif verb == "use":
                    use_power(self, p, args[0])
                else:  # flee after the roll
                    card = self.c_card
                    assert card is not None
                    flee(self, p, card, bool(args))
            elif phase == RETURN:
                if verb == "return":
                    self.flag[p] = self.depth[p]
                if EVENTS.on:
                    EVENTS.emit("return", verb, player=self.g.names[p], depth=self.depth[p])
                end_turn(self)
            elif phase == PICK:
                if EVENTS.on:
                    EVENTS.emit("escape-items", "take", player=self.g.names[p], deck=args[0])
                start_item_draws(self, self.g.item_decks.index(args[0]))
        elif isinstance(action, Draw):
            if phase == DRAW:
                drawn(self, action.card)
            else:
                item_drawn(self, action.card)
        elif isinstance(action, Roll):
            self.c_dice = action.dice
            if EVENTS.on:
                EVENTS.emit(
                    "combat-roll",
                    "roll",
                    player=self.g.names[self.cur],
                    dice=list(action.dice),
                    bonus=self.c_bonus,
                    power=sum(action.dice) + self.c_bonus,
                    card_power=self.c_power,
                )
            after_roll(self, self.cur)
        else:
            self.first = action.player
            self.cur = action.player
            self.round = 1
            if EVENTS.on:
                g = self.g
                EVENTS.emit(
                    "setup",
                    "setup",
                    players=list(g.names),
                    hp=g.start_hp,
                    dice=g.base_dice,
                    faces=g.faces,
                    cards=self.pile_n,
                )
                EVENTS.emit("first-player", "first", player=g.names[action.player])
            begin_turn(self)

    # --- checking -------------------------------------------------------------------------------

    def _check(self, player: int, action: Action) -> None:
        check(self, player, action)

    # --- information ----------------------------------------------------------------------------

    def player_view(self, player: int) -> SusumukaView:
        return player_view(self, player)


# The phases where chance acts (`current_players`).
_CHANCE_PHASES: Final = frozenset((FIRST, DRAW, ROLL, ITEM))

# State attributes by how clone() copies them.
_PLAIN: Final = (
    "g",
    "n",
    "init",
    "phase",
    "round",
    "first",
    "cur",
    "pile_n",
    "discard_n",
    "purpose",
    "draws_left",
    "top",
    "c_card",
    "c_player",
    "c_depth",
    "c_dice",
    "c_bonus",
    "c_power",
    "c_nullified",
    "c_used",
    "c_result",
    "c_moved",
    "c_damage",
    "e_deck",
    "e_left",
    "e_cont",
    "last_escape",
    "last_pickup",
    "winners",
)
_FLAT: Final = (
    "depth",
    "hp",
    "spent",
    "flag",
    "trophy",
    "maxd",
    "undying",
    "lp_home",
    "out",
    "escapes",
    "deaths",
    "stats",
    "pile",
    "discard",
    "removed",
)
_NESTED: Final = ("items", "skills", "hand", "lost", "ipile", "ibottom")
