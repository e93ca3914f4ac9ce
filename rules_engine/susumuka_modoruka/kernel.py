"""A search player's playout of Susumuka & Modoruka, fast (issue 18): `SusumukaState.playout`.

It plays exactly the game `rules_engine.core.generic_playout` plays from the same generator:
the same draws in the same order (a decision by `rng.choice` over the player's legal
actions, that is `rng._randbelow` of their number; a dungeon card, the combat dice, an item
and who goes first by `sample_action`'s `rng.random()`), the same rules, and it leaves the
state the checked way leaves it, history included.  What it saves is the protocol's dispatch
(`current_players`, `legal_actions` and its cache, `sample_action`), the legality check of
actions drawn legal and what a game would work out again and again:

- the dungeon deck is also kept card by card (an `array` of the cards' indices) in the
  order `sample_action` counts them (by kind, as `pile` lists the kinds), so the card a draw
  lands on is found by index instead of by walking the pile; it is counted again from
  `pile` only when the pile changes otherwise (the discard pile reshuffled, a dead player's
  lost-property card shuffled in);
- a combat's choices (`combat.choose_actions`) are counted, not listed: the revealed card's
  two or three (fight, flee, flee with a safe-flee item), then as many per kind of card in
  the hand; the index drawn names the card and the choice;
- the skills a player is offered are remembered by budget and boxes taken, and what every
  decision and every card does is looked up (`PlayoutTables`).

The rules of the busy steps (your turn's actions, a card drawn, fight or flee, the combat
dice and their result, the Return declaration, the end of a turn) are the chapters' own
(`turn.main_actions`, `investigate_advance`, `combat.choose`, `combat.start_combat`,
`combat.flee`, `combat.after_roll`, `combat.resolve`, `turn.end_turn`, `turn.begin_turn`),
written out here over the state's fields; the rarer ones (lost property, skills and items,
death and revival, escapes, the choices after the roll, the first player, the end) call the
chapters' functions.  `tests/engine/test_susumuka_modoruka_random.py` holds the two ways to
the same games (`tests/engine/shortcuts.py: check_playout`).  With the event log on, the
playout goes the protocol's way, which tells every rule.
"""

from __future__ import annotations

import random
from array import array
from bisect import insort
from operator import mul
from typing import TYPE_CHECKING, Final

from rules_engine.core import CHANCE, EVENTS, generic_playout, index_bits
from rules_engine.susumuka_modoruka.actions import Act, Action, Roll
from rules_engine.susumuka_modoruka.death import die, revive
from rules_engine.susumuka_modoruka.endings import finish
from rules_engine.susumuka_modoruka.investigate_advance import drawn, reshuffle, start_advance
from rules_engine.susumuka_modoruka.items import discard_item, use_main
from rules_engine.susumuka_modoruka.phases import (
    AFTER,
    CHOOSE,
    DRAW,
    END_TURN,
    INVESTIGATE,
    MAIN,
    OVER,
    PICK,
    RETURN,
    ROLL,
)
from rules_engine.susumuka_modoruka.pieces import ALL
from rules_engine.susumuka_modoruka.return_escape import escape
from rules_engine.susumuka_modoruka.skills import buy

if TYPE_CHECKING:
    from rules_engine.susumuka_modoruka.engine import SusumukaModoruka
    from rules_engine.susumuka_modoruka.state import SusumukaState


_NO_LIMIT: Final = 1_000_000
"""The room in a hand without a hand limit (`turn.room`)."""


class PlayoutTables:
    """What a playout looks up instead of working it out again, built once per engine:
    per dungeon card (by its index in `dungeon`) its id, difficulty, whether it is a
    lost-property card and its tier at every depth; per player the decisions of every
    phase, as `legal_actions` lists them (the same `Act` objects)."""

    __slots__ = (
        "card_codes",
        "card_ids",
        "choose_hand",
        "choose_top",
        "dearest",
        "difficulty",
        "is_lost",
        "main_use",
        "skill_menus",
        "skill_offers",
        "tiers",
        "verbs",
    )

    def __init__(self, g: SusumukaModoruka) -> None:
        dungeon = g.dungeon
        self.card_ids: tuple[str, ...] = tuple(c.id for c in dungeon)
        # card_codes[i]: card i as an item of an array("H"), in bytes (decks are built of them)
        self.card_codes: tuple[bytes, ...] = tuple(
            array("H", [i]).tobytes() for i in range(len(dungeon))
        )
        self.difficulty: dict[str, int] = {c.id: c.difficulty for c in dungeon}
        self.is_lost: tuple[bool, ...] = tuple(c.type == "lost_property" for c in dungeon)
        # tiers[card id][depth]: (base power, colour, coloured part) of the tier there
        self.tiers: dict[str, tuple[tuple[int, str | None, int], ...]] = {
            c.id: tuple(
                (c.tiers[k].base, c.tiers[k].colour, c.tiers[k].coloured) for k in g.tier_at[i]
            )
            for i, c in enumerate(dungeon)
            if c.tiers
        }
        n = g.num_players
        # skill_offers[p]: (index on the sheet, boxes, cost, the decision) per skill
        self.skill_offers: tuple[tuple[tuple[int, int, int, Act], ...], ...] = tuple(
            tuple((k, s.max, s.cost, g.skill_acts[p][k]) for k, s in enumerate(g.skills[p]))
            for p in range(n)
        )
        # skill_menus[p][(budget, *boxes taken)]: the skills offered, filled as they are met
        # (a budget counts up to the dearest skill's cost, so there are few)
        self.skill_menus: tuple[dict[tuple[int, ...], tuple[Act, ...]], ...] = tuple(
            {} for _ in range(n)
        )
        self.dearest: tuple[int, ...] = tuple(
            max((s.cost for s in g.skills[p]), default=0) for p in range(n)
        )
        # main_use[p][item id]: (usable only inside the dungeon, the decision `use`)
        self.main_use: tuple[dict[str, tuple[bool, Act]], ...] = tuple(
            {iid: (inside, g.one_acts[p]["use", iid]) for iid, inside in g.main_use.items()}
            for p in range(n)
        )
        # verbs[p]: investigate, advance, pass, return, stay
        self.verbs: tuple[tuple[Act, ...], ...] = tuple(
            tuple(g.verb_acts[p][v] for v in ("investigate", "advance", "pass", "return", "stay"))
            for p in range(n)
        )
        # choose_top[p][safe-flee item or None]: the choices for the revealed card
        # choose_hand[p][safe-flee item or None][card id]: the choices for a card in hand
        self.choose_top: tuple[dict[str | None, tuple[Act, ...]], ...] = tuple(
            {
                None: (g.verb_acts[p]["fight"], g.verb_acts[p]["flee"]),
                **{
                    smoke: (
                        g.verb_acts[p]["fight"],
                        g.verb_acts[p]["flee"],
                        g.one_acts[p]["flee", smoke],
                    )
                    for smoke in g.smoke_items
                },
            }
            for p in range(n)
        )
        self.choose_hand: tuple[dict[str | None, dict[str, tuple[Act, ...]]], ...] = tuple(
            {
                None: {
                    c.id: (g.one_acts[p]["fight", c.id], g.one_acts[p]["flee", c.id])
                    for c in dungeon
                },
                **{
                    smoke: {
                        c.id: (
                            g.one_acts[p]["fight", c.id],
                            g.one_acts[p]["flee", c.id],
                            g.flee_with[p][c.id, smoke],
                        )
                        for c in dungeon
                    }
                    for smoke in g.smoke_items
                },
            }
            for p in range(n)
        )


def playout(state: SusumukaState, rng: random.Random, max_steps: int) -> int:
    """Play `state` on as `rules_engine.core.generic_playout` does, at most `max_steps`
    steps; return the number of actions applied (one per step: one player, or chance,
    acts at a time)."""
    if EVENTS.on:
        return generic_playout(state, rng, max_steps)
    g = state.g
    t = g.playout_tables
    card_ids = t.card_ids
    difficulty = t.difficulty
    is_lost = t.is_lost
    tiers = t.tiers
    card_codes = t.card_codes
    skill_offers = t.skill_offers
    skill_menus = t.skill_menus
    dearest = t.dearest
    main_use = t.main_use
    verbs = t.verbs
    choose_top = t.choose_top
    choose_hand = t.choose_hand
    draw_acts = g.draw_acts
    roll_one = g.roll_one
    faces = g.faces
    depth_max = g.depth_max
    limit = g.hand_limit
    investigate_draws = g.investigate_draws
    may_use_hand = g.may_use_hand
    smoke_items = g.smoke_items
    after_use = g.after_use
    flee_after = g.flee_after
    dungeon_index = g.dungeon_index

    rnd = rng.random
    # `rng.choice(seq)` takes `seq[rng._randbelow(len(seq))]`; Python's own `_randbelow(n)`
    # draws `getrandbits(n.bit_length())` until it is below n, which the busy steps do
    # here without its call (a generator with another `_randbelow` is asked for it).
    below = rng._randbelow  # type: ignore[attr-defined]
    bits = index_bits(rng)
    history = state._history
    record = history.append
    see = state._seen_by.append
    depth = state.depth
    hp = state.hp
    flag = state.flag
    maxd = state.maxd
    stats = state.stats
    hands = state.hand
    items = state.items
    skills = state.skills
    spent = state.spent
    out = state.out
    n = state.n
    turns = g.turns
    start_hp = g.start_hp
    death_at = g.death_at

    # The dungeon deck card by card, in `sample_action`'s order, and the pile it lists.
    deck = array("H")
    deck_of: list[int] | None = None

    steps = 0
    while steps < max_steps:
        phase = state.phase
        if phase == OVER:
            break
        steps += 1
        turn_over = False  # the step ends the turn (`turn.end_turn`, below)
        if phase == DRAW:
            # Chance: a dungeon card (`sample_action`), then `investigate_advance.drawn`.
            pile = state.pile
            pile_n = state.pile_n
            if pile is not deck_of or len(deck) != pile_n:
                deck = array("H", b"".join(map(mul, card_codes, pile)))
                deck_of = pile
            i = int(rnd() * pile_n)
            idx = deck[i]
            del deck[i]
            record(draw_acts[idx])
            if is_lost[idx]:
                see(-1)
                drawn(state, card_ids[idx])
                continue
            pile[idx] -= 1
            pile_n -= 1
            state.pile_n = pile_n
            if state.purpose != INVESTIGATE:
                see(-1)
                state.top = card_ids[idx]
                state.phase = CHOOSE
                continue
            p = state.cur
            see(p)
            insort(hands[p], card_ids[idx])
            left = state.draws_left - 1
            state.draws_left = left
            # `investigate_advance.next_draw`
            if pile_n == 0 and state.discard_n:
                reshuffle(state)
                pile_n = state.pile_n
            if left > 0 and pile_n:
                continue
            turn_over = True
        elif phase == MAIN:
            # `turn.main_actions`, one drawn as `rng.choice` does, then `_do`.
            p = state.cur
            inside = depth[p] > 0
            hand = hands[p]
            acts: list[Action] = []
            if not inside:
                budget = state.round - 1 - spent[p]
                if budget > 0:
                    taken = skills[p]
                    key = (min(budget, dearest[p]), *taken)
                    menu = skill_menus[p].get(key)
                    if menu is None:
                        menu = skill_menus[p][key] = tuple(
                            act
                            for k, most, cost, act in skill_offers[p]
                            if taken[k] < most and cost <= budget
                        )
                    acts.extend(menu)
            held = items[p]
            if held:
                last = ""
                uses = main_use[p]
                for iid in held:
                    if iid != last:
                        last = iid
                        use = uses.get(iid)
                        if use is not None and (inside or not use[0]):
                            acts.append(use[1])
            offers = verbs[p]
            investigate = offers[0]
            advance = offers[1]
            pass_ = offers[2]
            can_draw = state.pile_n + state.discard_n > 0
            if not inside and can_draw and (limit is None or limit - len(hand) > 0):
                acts.append(investigate)
            acts.append(advance if can_draw or hand else pass_)
            count = len(acts)
            if bits is None:
                i = below(count)
            else:
                k = count.bit_length()
                i = bits(k)
                while i >= count:
                    i = bits(k)
            action = acts[i]
            record(action)
            see(-1)
            if action is advance:
                start_advance(state)  # `investigate_advance.advance`
                # Advancing is offered with a card to draw or one in hand.
                if state.pile_n == 0 and state.discard_n:
                    reshuffle(state)
                # `investigate_advance.to_choose` fights from the hand when none is drawn.
                state.phase = DRAW if state.pile_n else CHOOSE
            elif action is investigate:
                # `investigate_advance.investigate`: offered with a card to draw and room
                # in the hand, so at least one is drawn.
                state.purpose = INVESTIGATE
                room = _NO_LIMIT if limit is None else limit - len(hand)
                state.draws_left = min(investigate_draws + stats[p].extra_draws, room)
                if state.pile_n == 0 and state.discard_n:
                    reshuffle(state)
                state.phase = DRAW
            elif action is pass_:
                turn_over = True
            elif action.verb == "skill":  # type: ignore[union-attr]
                buy(state, p, action.args[0])  # type: ignore[union-attr]
            else:
                use_main(state, p, action.args[0])  # type: ignore[union-attr]
        elif phase == CHOOSE:
            # `combat.choose_actions`, counted: the revealed card's choices, then as many
            # for each kind of card in the hand; one drawn, then `combat.choose`.
            p = state.cur
            top = state.top
            hand = hands[p]
            smoke = None
            for iid in items[p]:
                if iid in smoke_items:
                    smoke = iid
                    break
            head = choose_top[p][smoke]
            per = len(head)
            ahead = 0 if top is None else per
            kinds = list(dict.fromkeys(hand)) if top is None or may_use_hand else []
            count = ahead + per * len(kinds)
            if bits is None:
                i = below(count)
            else:
                k = count.bit_length()
                i = bits(k)
                while i >= count:
                    i = bits(k)
            if i < ahead:
                action = head[i]
                card = top
            else:
                i -= ahead
                card = kinds[i // per]
                i %= per
                action = choose_hand[p][smoke][card][i]
                if top is not None:
                    _to_discard(state, dungeon_index[top])
                hand.remove(card)
            record(action)
            see(-1)
            if i == 2:
                discard_item(state, p, smoke)  # type: ignore[arg-type]
            state.top = None
            assert card is not None
            # `combat.start_combat`
            at = depth[p]
            base, colour, coloured = tiers[card][at]
            stat = stats[p]
            null = stat.nullify
            nullified = colour is not None and (colour in null or ALL in null)
            state.c_card = card
            state.c_player = p
            state.c_depth = at
            state.c_nullified = nullified
            state.c_power = base if nullified else base + coloured
            state.c_bonus = stat.bonus
            state.c_dice = ()
            state.c_used = ()
            state.c_result = None
            state.c_moved = 0
            state.c_damage = 0
            if i == 0:
                state.phase = ROLL
                continue
            # `combat.flee`: back by the difficulty (half, or not at all with the item)
            _to_discard(state, dungeon_index[card])
            state.c_result = "flee"
            move = difficulty[card]
            if i == 2:
                move = 0
            elif stat.flee_half:
                move //= 2
            # `combat.move`: down when returning
            to = at + move if flag[p] >= 0 else at - move
            to = 0 if to < 0 else depth_max if to > depth_max else to
            depth[p] = to
            if to > maxd[p]:
                maxd[p] = to
            state.c_moved = to - at
            if to > 0 and flag[p] < 0:  # `turn.after_advance`
                state.phase = RETURN
            else:
                turn_over = True
        elif phase == ROLL:
            # Chance: the combat dice (`sample_action`), then `combat.after_roll`.
            p = state.cur
            stat = stats[p]
            count = stat.dice
            if count == 1:
                roll = roll_one[int(rnd() * faces)]
            else:
                roll = Roll(tuple([int(rnd() * faces) + 1 for _ in range(count)]))
            record(roll)
            see(-1)
            dice = roll.dice
            state.c_dice = dice
            # `combat.after_actions` offers more than `accept`: a reroll not used up, a
            # one-shot item for after the roll, or fleeing after the roll.
            more = flee_after
            if not more and stat.rerolls:
                rerolls = stat.rerolls
                used = state.c_used
                more = any(used.count(s) < rerolls.count(s) for s in rerolls)
            if not more:
                for iid in items[p]:
                    if iid in after_use:
                        more = True
                        break
            if more:
                state.phase = AFTER
                continue
            # `combat.resolve`
            card = state.c_card
            assert card is not None
            _to_discard(state, dungeon_index[card])
            at = depth[p]
            if sum(dice) + state.c_bonus > state.c_power:
                state.c_result = "win"
                move = difficulty[card] + stat.bonus_move
                returning = flag[p] >= 0
                # `combat.move`: down unless returning
                to = at - move if returning else at + move
                to = 0 if to < 0 else depth_max if to > depth_max else to
                depth[p] = to
                if to > maxd[p]:
                    maxd[p] = to
                state.c_moved = to - at
                if returning and to == 0:
                    escape(state, p, END_TURN)
                elif to > 0 and not returning:  # `turn.after_advance`
                    state.phase = RETURN
                else:
                    turn_over = True
            else:
                state.c_result = "lose"
                damage = state.c_power - stat.armour
                if damage < 0:
                    damage = 0
                state.c_damage = damage
                hp[p] -= damage
                if hp[p] <= death_at and not revive(state, p):
                    die(state, p)
                    turn_over = True
                elif at > 0 and flag[p] < 0:  # `turn.after_advance`
                    state.phase = RETURN
                else:
                    turn_over = True
        elif phase == RETURN:
            # [return, stay], one drawn as `rng.choice` does, then `_do`.
            p = state.cur
            i = below(2)
            record(verbs[p][3 + i])
            see(-1)
            if i == 0:
                flag[p] = depth[p]
            turn_over = True
        else:
            # The rarer steps go the protocol's way without its checks: who goes first,
            # an item drawn (chance), after the roll, the item deck picked.
            if phase in (AFTER, PICK):
                acts = state._decisions(state.cur)
                action = acts[below(len(acts))]
            else:
                action = state.sample_action(CHANCE, rng)
            record(action)
            see(-1)
            state._do(action)
        if turn_over:
            # `turn.end_turn`: the next player in seat order who is not out, in the next
            # round after the last seat, the end after the last round; `turn.begin_turn`.
            state.purpose = 0
            state.top = None
            if False not in out:
                finish(state)
                continue
            p = state.cur
            first = state.first
            while True:
                p += 1
                if p == n:
                    p = 0
                if p == first:
                    if state.round >= turns:
                        p = -1
                        break
                    state.round += 1
                if not out[p]:
                    break
            if p < 0:
                finish(state)
                continue
            state.cur = p
            regen = stats[p].regen
            if regen:
                most = start_hp + stats[p].hp_extra
                gained = hp[p] + regen
                hp[p] = gained if gained < most else most
            state.phase = MAIN
    return steps


def _to_discard(state: SusumukaState, idx: int) -> None:
    """`investigate_advance.to_discard`, by the card's index."""
    state.discard[idx] += 1
    state.discard_n += 1
