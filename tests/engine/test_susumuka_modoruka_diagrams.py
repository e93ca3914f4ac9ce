"""What Susumuka & Modoruka's rulebook diagrams show: for every step of every printed
example, the turn its caption names is the engine's (the turn the step's last action
belongs to, even when that action ended the turn), no text in a diagram is notation, and
what the step did is what is drawn: moves as arrows, dice as die faces, cards as pictures."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from printgen.engines import game_data
from printgen.model import Game
from rules_engine.core import DiagramGrid, IllegalActionError, apply_step, parse_step
from rules_engine.susumuka_modoruka import SusumukaModoruka, SusumukaState

from . import example_texts as ex

FOLDER = ex.game_folder("susumuka-modoruka")
PRINTED = ex.printed_paths(FOLDER)
ALL = ex.example_paths(FOLDER)

sm = ex.game_fixture(FOLDER)


class Step:
    """A replayed step: its number, its state after it, whose turn (and which turn of the
    game) its last action belonged to (before any action: the turn about to start), and
    its diagram."""

    def __init__(
        self,
        index: int,
        state: SusumukaState,
        turn: tuple[int, int] | None,
        grids: tuple[Any, ...],
    ) -> None:
        self.index = index
        self.state = state
        self.started = turn is not None
        self.round, self.player = turn or (state.round, state.cur)
        self.grids = grids


def replayed(sm: Game, source: Path) -> tuple[SusumukaModoruka, list[Step]]:
    """The setup (step 0) and every step of an example, with the turn each belongs to as
    the state counted it just before the step's last action (a refused action counts as
    nothing done: the turn of the last action done, or the one about to start)."""
    data = ex.load_data(source)
    engine = SusumukaModoruka(game_data(sm), data.get("version"), data.get("options"))
    state = engine.setup_state(data.get("setup", {}))
    turn: tuple[int, int] | None = None
    steps = [Step(0, state.clone(), turn, engine.diagram(state))]
    for i, step in enumerate(data["steps"], 1):
        for text in ex.do_texts(step.get("do")):
            before = (state.round, state.cur)
            try:
                apply_step(state, parse_step(engine, text))
            except IllegalActionError:
                continue
            turn = before
        steps.append(Step(i, state.clone(), turn, engine.diagram(state)))
    return engine, steps


def _texts(grid: Any) -> Iterator[str]:
    if isinstance(grid, DiagramGrid):
        yield from grid.title.values()
        yield from grid.columns
        for label, cells in grid.rows:
            yield from label.values()
            yield from (cell.text for cell in cells)
    else:
        yield from grid.title.values()
        for event in grid.events:
            yield from event.label.values()


@pytest.mark.parametrize("source", PRINTED, ids=[p.stem for p in PRINTED])
def test_captions_name_the_engines_turn(sm: Game, source: Path) -> None:
    engine, steps = replayed(sm, source)
    for step in steps:
        # the caption is the first grid's title (the track's, or, when nothing on the
        # track changed, that of what did change, after the caption and a colon)
        title = step.grids[0].title
        caption = {
            "ja": title["ja"].split("：")[0],
            "en": title["en"].split(": ")[0] if "game over" not in title["en"] else title["en"],
        }
        name = engine.player_labels[step.player]
        assert re.match(r"Turn (\d+)", caption["en"])[1] == str(step.round), (step.index, title)
        assert caption["ja"].startswith(f"{step.round}ターン目"), (step.index, title)
        if step.state.is_terminal():
            assert caption == {
                "ja": f"{step.round}ターン目・ゲーム終了",
                "en": f"Turn {step.round}: game over",
            }
        elif not step.started:
            assert caption == {
                "ja": f"{step.round}ターン目・{name['ja']}の手番の前",
                "en": f"Turn {step.round}, {name['en']} to play",
            }
        else:
            assert caption == {
                "ja": f"{step.round}ターン目・{name['ja']}の手番",
                "en": f"Turn {step.round}, {name['en']}'s turn",
            }, step.index


def test_a_step_that_ends_a_turn_is_captioned_with_that_turn(sm: Game) -> None:
    # Pink's investigation ends turn 5: the state counts turn 6 already, Yellow to play
    _engine, steps = replayed(sm, FOLDER / "examples" / "04-return-and-escape.yaml")
    step = steps[3]
    assert (step.state.round, step.state.cur) == (6, 0)
    # nothing on the track changed: the caption heads what did change, Pink's hand
    assert step.grids[0].title == {
        "ja": "5ターン目・桃の手番：アイテムと手札",
        "en": "Turn 5, Pink's turn: items and hands",
    }
    # and what it did is marked: the two cards drawn into Pink's hand, face up
    cards = _grid(step, "items and hands")
    hand = dict((label["en"], cells) for label, cells in cards.rows)["Pink's hand"]
    assert [(c.piece, c.back, c.mark) for c in hand] == [
        ("pit-trap", False, "active"),
        ("slime", False, "active"),
    ]
    # Yellow's next step leaves the cards held as they were: the track and the combat
    assert [g.title["en"] for g in steps[4].grids] == [
        "Turn 6, Yellow's turn",
        "Combat: Tsuchikappa (row 0+) vs Yellow",
    ]
    # on Yellow's turn, Pink's hand is hidden: backs
    cards = _grid(steps[7], "items and hands")
    hand = dict((label["en"], cells) for label, cells in cards.rows)["Pink's hand"]
    assert all(c.back and not c.mark for c in hand)


@pytest.mark.parametrize("source", ALL, ids=[p.stem for p in ALL])
def test_no_diagram_text_is_notation(sm: Game, source: Path) -> None:
    engine, steps = replayed(sm, source)
    pattern = engine.notation_pattern()
    ids = {c.id for c in engine.dungeon} | set(engine.items) | set(engine.names)
    for step in steps:
        for grid in step.grids:
            for text in _texts(grid):
                assert not pattern.search(text), (step.index, text)
                assert not set(re.findall(r"[a-z][a-z-]+", text)) & ids, (step.index, text)


def _grid(step: Step, what: str) -> Any:
    """The grid whose title tells `what` it draws (after the caption, if it carries it)."""
    return next(g for g in step.grids if what.lower() in g.title["en"].lower())


def test_moves_are_arrows_and_a_possible_win_is_dotted(sm: Game) -> None:
    _engine, steps = replayed(sm, FOLDER / "examples" / "01-tsuchikappa-depth-0.yaml")
    # step 3: Yellow fights at depth 0; a win would take her to depth 5 (dotted)
    track = steps[3].grids[0]
    (arrow,) = track.arrows
    zero, five = track.columns.index("0"), track.columns.index("5")
    assert (arrow.kind, arrow.start, arrow.end) == ("planned", (0, zero), (0, five))
    # step 4: she lost: no move, her HP 13 marked, the die shows 5
    track = steps[4].grids[0]
    assert track.arrows == ()
    hp = track.columns.index("HP")
    assert (track.rows[0][1][hp].text, track.rows[0][1][hp].mark) == ("13", "active")
    combat = _grid(steps[4], "Combat")
    ((_label, cells),) = combat.rows
    assert [c.text or c.die for c in cells[1:]] == ["3", "+4", "=7", "=", 5, "+2", "=7"]
    assert [c.text for c in cells if c.mark] == ["=7"]  # the card's 7: a tie loses
    # step 7: Pink won and walked from depth 0 to depth 5
    track = steps[7].grids[0]
    (arrow,) = track.arrows
    zero, five = track.columns.index("0"), track.columns.index("5")
    assert (arrow.kind, arrow.start, arrow.end) == ("move", (1, zero), (1, five))
    assert track.rows[1][1][five].text == "●" and track.rows[1][1][five].mark == "active"


def test_the_deck_is_face_down_until_the_card_is_turned_up(sm: Game) -> None:
    _engine, steps = replayed(sm, FOLDER / "examples" / "01-tsuchikappa-depth-0.yaml")
    deck = _grid(steps[1], "dungeon deck")
    ((label, (cell,)),) = deck.rows
    assert label["en"] == "1 card left" and cell.back
    turned = _grid(steps[2], "The card turned up")
    ((label, (cell,)),) = turned.rows
    assert label["en"] == "Tsuchikappa" and cell.piece == "tsuchikappa" and not cell.back
    ((label, (cell,)),) = _grid(steps[5], "dungeon deck").rows
    assert label == {"ja": "残り38枚", "en": "38 cards left"}


def test_a_death_an_escape_and_the_winner_are_marked(sm: Game) -> None:
    _engine, steps = replayed(sm, FOLDER / "examples" / "06-death-and-lost-property.yaml")
    track = steps[2].grids[0]
    twelve = track.columns.index("12")
    assert (track.rows[0][1][twelve].text, track.rows[0][1][twelve].mark) == ("×", "sunk")
    assert track.arrows == ()  # starting again outside is no walk
    lost = _grid(steps[2], "lost property")
    assert [
        c.piece for c in dict((lb["en"], c) for lb, c in lost.rows)["Yellow's lost property"]
    ] == [
        "bronze-sword",
        "earth-charm",
    ]
    _engine, steps = replayed(sm, FOLDER / "examples" / "04-return-and-escape.yaml")
    track = steps[6].grids[0]
    (arrow,) = track.arrows
    assert arrow.end == (0, track.columns.index("0"))
    ten = track.columns.index("10")
    assert (track.rows[0][1][ten].text, track.rows[0][1][ten].mark) == ("★", "active")
    assert _grid(steps[6], "Escape").rows[0][1][0].back
    # the item drawn is the step's only mark
    items = _grid(steps[7], "Items")
    assert [(c.piece, c.mark) for c in items.rows[0][1]] == [
        ("bronze-sword", ""),
        ("potion", "active"),
        ("silver-sword", ""),
    ]
    assert steps[7].grids[0].arrows == ()
    _engine, steps = replayed(sm, FOLDER / "examples" / "08-game-end.yaml")
    track = steps[-1].grids[0]
    labels = [label["en"] for label, _cells in track.rows]
    assert labels == ["Yellow", "Pink (wins)", "White"]
