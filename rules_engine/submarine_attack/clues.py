"""The seed's stated clues, checked against the (partly reconstructed) card data.

The original rules state facts that only the lost card pictures showed (torpedo B rolls 4
dice, torpedo S in attack 1 always takes effect, survivors 5 and 1 score 6 points...);
`check_clues` checks that the data, reconstructed where it had to be, keeps every one
of them true under a rule version.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.core import Bilingual
from rules_engine.params import GameData
from rules_engine.submarine_attack.engine import SubmarineAttack


@dataclass(frozen=True)
class Clue:
    """A fact the seed states that the reconstructed card data must keep true."""

    id: str
    holds: bool
    text: Bilingual
    detail: str


def scorable_survivors(engine: SubmarineAttack) -> set[tuple[int, ...]]:
    """Every set of surviving ships (sorted) a player can score with in a 2-player round.

    A player scores only if the opponent has not sunk `round_end_ships` of theirs, so the
    lost columns must hold fewer ships than that.
    """
    import itertools

    placed_n = engine.transports_placed
    limit = engine.round_end_ships
    found: set[tuple[int, ...]] = set()
    for chosen in set(itertools.combinations(engine.ships_hand, placed_n)):
        for k in range(placed_n + 1):
            for lost in set(itertools.combinations(chosen, k)):
                if sum(lost) < limit:
                    rest = list(chosen)
                    for x in lost:
                        rest.remove(x)
                    found.add(tuple(sorted(rest)))
    return found


def check_clues(game: GameData, version: str | None = None) -> list[Clue]:
    """The seed's clues about the missing card pictures, checked for one rule version."""
    engine = SubmarineAttack(game, version)
    cards = engine.cards
    torpedoes = {c.grade: c for c in cards.values() if c.kind == "torpedo"}
    evasions = {c.grade: c for c in cards.values() if c.kind == "evasion"}
    clues: list[Clue] = []

    def add(clue_id: str, holds: bool, ja: str, en: str, detail: str) -> None:
        clues.append(Clue(clue_id, holds, Bilingual(ja, en), detail))

    if "B" in torpedoes:
        b = torpedoes["B"].dice
        add(
            "torpedo-b-dice",
            b == 4,
            "魚雷Bはダイス4個。",
            "Torpedo B rolls 4 dice.",
            f"B rolls {b}",
        )
    if "S" in torpedoes:
        s = torpedoes["S"].dice
        add(
            "torpedo-s-attack-1",
            s > engine.faces and engine.five_any,
            "魚雷Sは1回目に出せば確実に効果を発揮する。",
            "Torpedo S in attack 1 is certain to take effect.",
            f"S rolls {s} dice on {engine.faces} faces; five_or_more={engine.options['five_or_more']}",
        )
        if "B" in evasions:
            left = max(s - evasions["B"].cancel, 0)
            add(
                "evasion-b-vs-torpedo-s",
                left == 0,
                "魚雷Sに回避Bをぶつけるとダイスが1個も振れない。",
                "Evasion B against torpedo S leaves not a single die.",
                f"{s} - {evasions['B'].cancel} leaves {left}",
            )
    if "C" in torpedoes and "A" in evasions:
        c = torpedoes["C"].dice
        weakest = c == min(t.dice for t in torpedoes.values())
        add(
            "torpedo-c-weak",
            weakest,
            "回避Aに対しては性能の悪い魚雷Cをぶつけたい。",
            "Against evasion A you would rather spend the weak torpedo C.",
            f"C rolls {c}, evasion A cancels {evasions['A'].cancel}",
        )
    sets = scorable_survivors(engine)
    for survivors, ja, en in (
        ((1, 5), "輸送船数5と1が残れば6勝利ポイント。", "Survivors 5 and 1 score 6 points."),
        (
            (1, 1, 2),
            "輸送船数2と1と1が残れば4勝利ポイント。",
            "Survivors 2, 1 and 1 score 4 points.",
        ),
    ):
        add(
            "survivors-" + "-".join(map(str, sorted(survivors, reverse=True))),
            survivors in sets,
            ja,
            en,
            f"fleet {' '.join(map(str, engine.ships_hand))}, {engine.transports_placed} placed, "
            f"round ends at {engine.round_end_ships} ships",
        )
    old = (
        SubmarineAttack(game, game.info.rule_versions[0].id) if game.info.rule_versions else engine
    )
    recommended = [1, 1, 1, 2, 2, 3]
    rest = list(old.ships_hand)
    fits = True
    for x in recommended:
        if x in rest:
            rest.remove(x)
        else:
            fits = False
    add(
        "old-fleet-1-1-1-2-2-3",
        fits,
        "最初のルールでは「1」「1」「1」「2」「2」「3」の組み合わせが有利だった。",
        'Under the first rules the fleet "1, 1, 1, 2, 2, 3" was the one to play.',
        f"rules {old.version} fleet {' '.join(map(str, old.ships_hand))}",
    )
    return clues
