"""A rule-of-thumb player of Susumuka & Modoruka (`Heuristic`), for the balance lab.

It pushes its luck by thresholds: it buys the skills it can afford (dice and power first),
investigates once or twice outside for spare cards, fights the weakest card it can (the top
card or one from its hand) when the odds of the dice beat the card by enough for its HP,
flees otherwise, rerolls or spends power items on a lost roll, and declares Return when its
HP runs low, when it is deep enough to beat its trophy, or when the turns left are barely
enough to climb back.  It reads only its view (its own skills and items give its dice and
bonus; the card's power at its depth comes from the game's data), never a sampled state, so
it needs no search (its cost is mostly building the view: about 120 games/s for two
players on one core, 35 for four).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Final

from rules_engine.bots import InfoSet
from rules_engine.susumuka_modoruka.actions import Act, Action
from rules_engine.susumuka_modoruka.engine import SusumukaModoruka
from rules_engine.susumuka_modoruka.pieces import ALL
from rules_engine.susumuka_modoruka.views import SusumukaView

# Skills by how much they help a push downwards (unlisted effects come last).
_SKILL_ORDER: Final = ("power_dice", "power", "armour", "hp_max", "regen", "reroll", "revive")
_DEATH_COST: Final = 2.0  # a death besides what it loses (the items, the lost turn)
_HP_WORTH: Final = 0.35  # one HP, in depth steps


@cache
def _win_chance(dice: int, faces: int, need: int) -> float:
    """The chance that `dice` dice of `faces` faces sum to at least `need`."""
    ways = [1]
    for _ in range(dice):
        nxt = [0] * (len(ways) + faces)
        for total, k in enumerate(ways):
            for f in range(1, faces + 1):
                nxt[total + f] += k
        ways = nxt
    return float(sum(ways[max(need, 0) :])) / float(faces**dice)


class Heuristic:
    """Push your luck by thresholds (see the module's docstring); deterministic given rng."""

    name = "heuristic"

    def __init__(self, engine: SusumukaModoruka) -> None:
        self.g = engine
        self.skill_rank = {
            (p, i): (_SKILL_ORDER.index(s.effect) if s.effect in _SKILL_ORDER else 9, -s.cost)
            for p, sheet in enumerate(engine.skills)
            for i, s in enumerate(sheet)
        }

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        acts: list[Action] = list(info.legal_actions())
        if len(acts) == 1:
            return acts[0]
        view = info.view()
        assert isinstance(view, SusumukaView)
        p = info.player
        verbs = {a.verb for a in acts if isinstance(a, Act)}
        if "return" in verbs:
            return self._return(view, p, acts)
        if "take" in verbs:
            return acts[-1]  # the deepest deck the flag earned
        if "accept" in verbs:
            return self._after(view, p, acts)
        if "fight" in verbs or "flee" in verbs:
            return self._combat(view, p, acts)
        return self._main(view, p, acts)

    # --- what the player's skills and kept items add up to -------------------------------

    def _stats(self, view: SusumukaView, p: int) -> tuple[int, int, int, frozenset[str], bool]:
        g = self.g
        me = view.players[p]
        dice, bonus, armour = g.base_dice, 0, 0
        nullify: set[str] = set()
        flee_half = False
        sheet = {s.id: s for s in g.skills[p]}
        effects: list[tuple[str, int, str | None]] = [
            (sheet[sid].effect, sheet[sid].amount, None) for sid in me.skills
        ]
        for iid in me.items:
            item = g.items[iid]
            if item.use == "keep":
                effects.append((item.effect, item.amount, item.colour))
        for effect, amount, colour in effects:
            if effect == "power_dice":
                dice += amount
            elif effect == "power":
                bonus += amount
            elif effect == "armour":
                armour += amount
            elif effect == "nullify":
                nullify.add(colour or ALL)
            elif effect == "flee_half":
                flee_half = True
        return dice, bonus, armour, frozenset(nullify), flee_half

    # --- decisions ---------------------------------------------------------------------------

    def _main(self, view: SusumukaView, p: int, acts: list[Action]) -> Action:
        g = self.g
        me = view.players[p]
        skills = [a for a in acts if isinstance(a, Act) and a.verb == "skill"]
        if skills:
            ids = [s.id for s in g.skills[p]]
            return min(skills, key=lambda a: self.skill_rank[p, ids.index(a.args[0])])
        for a in acts:
            if isinstance(a, Act) and a.verb == "use":
                effect = g.items[a.args[0]].effect
                if effect == "heal" and me.hp * 2 <= me.max_hp:
                    return a
                if effect == "climb" and me.flag is not None:
                    return a
        by_verb = {a.verb: a for a in acts if isinstance(a, Act)}
        investigate = by_verb.get("investigate")
        if investigate is not None and len(view.own_hand) < 2 and view.round <= g.turns // 2:
            return investigate
        return by_verb.get("advance") or by_verb.get("pass") or acts[-1]

    def _combat(self, view: SusumukaView, p: int, acts: list[Action]) -> Action:
        """The best of fighting or fleeing each card on offer, by depth gained, HP lost and
        the risk of dying."""
        g = self.g
        me = view.players[p]
        dice, bonus, armour, nullify, flee_half = self._stats(view, p)
        # A death sends you out at full HP with skills and trophy: it costs the trophy a
        # Return under way would bring, or part of the way down, and the items.
        trophy = me.trophy or 0
        if me.flag is not None:
            death = _DEATH_COST + max(me.flag - trophy, 0)
        else:
            death = _DEATH_COST + 0.4 * me.depth
        best: tuple[float, int] = (-1e9, 0)
        for k, a in enumerate(acts):
            assert isinstance(a, Act)
            cards = [w for w in a.args if w in g.dungeon_index]
            cid = cards[0] if cards else view.top
            if cid is None:
                continue
            idx = g.dungeon_index[cid]
            card = g.dungeon[idx]
            tier = card.tiers[g.tier_at[idx][me.depth]]
            nulled = tier.colour is not None and (tier.colour in nullify or ALL in nullify)
            power = tier.base + (0 if nulled else tier.coloured)
            smoke = any(w in g.items for w in a.args)
            if a.verb == "fight":
                win = _win_chance(dice, g.faces, power - bonus + 1)
                damage = max(power - armour, 0)
                lose = -death if damage >= me.hp else -damage * _HP_WORTH
                value = win * card.difficulty + (1 - win) * lose
            else:
                back = 0 if smoke else (card.difficulty + 1) // 2 if flee_half else card.difficulty
                value = -back - (1.0 if smoke else 0.0)
            if value > best[0]:
                best = (value, k)
        return acts[best[1]]

    def _after(self, view: SusumukaView, p: int, acts: list[Action]) -> Action:
        _, _, power, dice, c_bonus, *_ = view.combat
        assert isinstance(power, int)
        if sum(dice) + c_bonus > power:
            return next(a for a in acts if isinstance(a, Act) and a.verb == "accept")
        for a in acts:
            if isinstance(a, Act) and a.verb == "use":
                item = self.g.items[a.args[0]]
                if sum(dice) + c_bonus + item.amount > power:
                    return a
        for a in acts:
            if isinstance(a, Act) and a.verb == "reroll":
                return a
        return next(a for a in acts if isinstance(a, Act) and a.verb == "accept")

    def _return(self, view: SusumukaView, p: int, acts: list[Action]) -> Action:
        """Return when HP is low, when deep enough, or when the turns left are few."""
        me = view.players[p]
        g = self.g
        left = g.turns - view.round
        trophy = me.trophy or 0
        go = (
            me.hp * 3 <= me.max_hp
            or me.depth >= max(trophy + 3, 5)
            or (me.depth > trophy and me.depth * 2 >= left)
        )
        verb = "return" if go else "stay"
        return next(a for a in acts if isinstance(a, Act) and a.verb == verb)
