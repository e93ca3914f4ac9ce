"""What the KILL SHOT rules say, stated as behaviour; the worked examples; recorded hunts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from printgen.engines import game_data
from printgen.examples import check_game, example_files
from printgen.model import Game, load_game
from rules_engine.core import (
    CHANCE,
    DiagramArrow,
    DiagramCell,
    DiagramGrid,
    IllegalActionError,
    NotationError,
    OptionError,
    format_step,
    parse_step,
    random_step,
    replay,
)
from rules_engine.kill_shot import (
    GO,
    PICK,
    PLAY,
    REVEAL,
    TURN,
    Draw,
    KillShot,
    KillShotState,
    Pick,
    Reveal,
    check_record,
)
from rules_engine.registry import engine_for

from .test_examples import _expect_values, _passes, _set

FOLDER = Path(__file__).resolve().parents[2] / "components" / "kill-shot"
FILES = sorted((FOLDER / "examples").glob("*.yaml"))


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(FOLDER)


def at_play(
    game: Game,
    pile: list[str],
    hands: dict[str, list[str]],
    ready: dict[str, int] | None = None,
    *,
    terrorists: tuple[str, ...] = ("viper",),
    clock: int = 0,
    extra: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[KillShot, KillShotState]:
    """A real-time position: `ready` gives when each player acts next (default: in seat
    order 100 ms apart, after the clock)."""
    engine = KillShot(game_data(game), None, options)
    if ready is None:
        ready = {name: clock + 100 * (i + 1) for i, name in enumerate(engine.names)}
    setup: dict[str, Any] = {
        "terrorists": list(terrorists),
        "hands": hands,
        "clock": clock,
        "ready": ready,
    }
    setup.update(extra or {})
    if "piles" not in setup:
        setup["pile"] = pile
    return engine, engine.setup_state(setup)


def do(engine: KillShot, state: KillShotState, *texts: str) -> None:
    for text in texts:
        step = parse_step(engine, text)
        if isinstance(step, tuple) and not hasattr(step, "_fields"):
            state.apply_joint(step)
        else:
            state.apply(step)  # type: ignore[arg-type]


def refused(engine: KillShot, state: KillShotState, text: str) -> str:
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        do(engine, state, text)
    assert state == before
    return str(info.value)


def q(engine: KillShot, state: KillShotState, name: str) -> Any:
    return engine.query(state, name)


# --- the data -------------------------------------------------------------------------------


def test_numbers_come_from_the_data(game: Game) -> None:
    engine = KillShot(game_data(game))
    assert engine.hand_size == 6 and engine.hand_limit == 6
    assert (engine.first_number, engine.kill_shot, engine.last_number) == (1, 9, 9)
    assert engine.follow == (0, 1)
    assert engine.levels_removed == 2
    assert len(engine.colours) == 5
    assert [len(c) for c in engine.colour_cards] == [20] * 5
    assert sum(engine.total) == 100
    assert len(engine.terrorists) == 10 and engine.hunts == 10
    room = KillShot(game_data(game), None, {"game_type": "situation-room"})
    assert room.hand_size == 9 and room.hand_limit == 9 and room.follow == (-1, 0, 1)
    assert KillShot(game_data(game), None, {"terror_threat": True}).hunts == 4
    assert {t.ability for t in engine.terrorists} == {
        "none",
        "claimer-extra-cards",
        "second-kill-shot",
        "short-hand",
        "cease-fire-discard",
        "special-card-discard",
    }


def test_options_are_checked(game: Game) -> None:
    with pytest.raises(OptionError):
        KillShot(game_data(game), None, {"players": 6})
    with pytest.raises(OptionError):
        KillShot(game_data(game), None, {"game_type": "blitz"})
    with pytest.raises(OptionError):
        KillShot(game_data(game), None, {"no_such_option": 1})
    entry = engine_for("kill-shot")
    assert entry is not None
    names = {o.name for o in entry.options_for(game_data(game))}
    assert {
        "simultaneous_plays",
        "kill_shot_tie",
        "bad_intel_levels",
        "bad_intel_removed",
        "points_tie",
        "final_tie",
        "briefing",
        "deadline",
        "taliban",
        "night_mission",
        "one_shot_one_kill",
        "terror_threat",
    } <= names
    for option in entry.options_for(game_data(game)):
        assert option.explain.ja and option.explain.en


# --- the hunt pile ----------------------------------------------------------------------------


HANDS = {
    "alpha": ["r1", "r2", "r9", "rB", "rJ", "g5"],
    "bravo": ["b1", "b2", "b3", "b8", "b9", "y4"],
    "charlie": ["g1", "g2", "g7", "g8", "g9", "gJ"],
    "delta": ["y1", "y2", "y3", "y8", "p9", "yB"],
}


def test_a_hunt_starts_with_a_1_then_n_or_n_plus_1(game: Game) -> None:
    engine, state = at_play(game, [], HANDS)
    assert "starts with a 1, not a 2" in refused(engine, state, "alpha plays r2")
    do(engine, state, "alpha plays r1", "react alpha 1000")
    assert "a 3 cannot follow a 1: on a 1 bravo may play a 1 or a 2" in refused(
        engine, state, "bravo plays b3"
    )
    do(engine, state, "bravo plays b1", "react bravo 1000")  # the same number
    do(engine, state, "charlie plays g2", "react charlie 1000")  # one more
    assert q(engine, state, "pile") == ["r1", "b1", "g2"]


def test_a_kill_shot_only_follows_a_firefight_and_claims(game: Game) -> None:
    engine, state = at_play(game, ["r1", "b2", "g3", "y4", "p5", "r6", "b7"], HANDS)
    assert "a 9 cannot follow a 7" in refused(engine, state, "alpha plays r9")
    assert "a 8 " not in refused(engine, state, "alpha plays r9")
    engine, state = at_play(game, ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"], HANDS)
    do(engine, state, "alpha plays r9")
    assert q(engine, state, "captured")["alpha"] == ["viper"]
    assert q(engine, state, "phase") == "reveal"


def test_no_turns_the_earliest_reaction_acts(game: Game) -> None:
    engine, state = at_play(
        game, [], HANDS, {"alpha": 900, "bravo": 300, "charlie": 500, "delta": 700}
    )
    assert state.current_players() == (1,)
    assert "alpha is not ready yet" in refused(engine, state, "alpha plays r1")
    do(engine, state, "bravo plays b1")
    assert state.current_players() == (CHANCE,)
    do(engine, state, "react bravo 150")
    assert state.current_players() == (1,)  # 300 + 150 < 500
    assert q(engine, state, "clock") == 300


# --- reload and the deck ------------------------------------------------------------------------


def test_reload_discards_and_refills_to_the_hand_limit(game: Game) -> None:
    engine, state = at_play(game, ["r1"], {**HANDS, "alpha": ["r5", "r6"]})
    do(engine, state, "alpha reload r5")
    draw = state.legal_actions(CHANCE)
    assert state.draws == [[0, 5]]
    assert all(isinstance(a, Draw) and len(a.cards) == 5 for a in draw[:20])
    assert "alpha draws 5 card(s), got 2" in refused(engine, state, "draw alpha g3 g4")
    do(engine, state, "draw alpha r3 b4 g5 y6 p7")
    assert q(engine, state, "hands")["alpha"] == ["r6", "r3", "b4", "g5", "y6", "p7"]
    assert q(engine, state, "discards") == ["r5"]


def test_a_full_hand_must_discard_to_reload(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS)
    assert "discard at least one" in refused(engine, state, "alpha reload")
    assert "alpha holds no more b1" in refused(engine, state, "alpha reload b1")


def test_a_drawn_card_must_be_in_the_deck(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS)  # alpha holds the other r1
    do(engine, state, "alpha reload r2")
    assert "r1 is not in the deck" in refused(engine, state, "draw alpha r1")


def test_the_discards_become_the_deck_when_it_runs_out(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS, extra={"deck": ["p5", "p6"]})
    assert q(engine, state, "deck_size") == 2
    do(engine, state, "alpha reload r2 r9 rB")
    # p5 and p6 empty the deck; the discards (73 + 3 cards) are turned over for the third
    do(engine, state, "draw alpha p6 p5 r2")
    assert q(engine, state, "deck_size") == 100 - 24 - 1 - 2 + 3 - 1
    assert q(engine, state, "discards") == []


# --- Bad Intel ----------------------------------------------------------------------------------


def test_bad_intel_on_a_1_empties_the_pile_and_needs_a_pile(game: Game) -> None:
    engine, state = at_play(game, [], HANDS)
    assert "the hunt pile is empty" in refused(engine, state, "alpha plays rB")
    engine, state = at_play(game, ["b1", "g1"], HANDS)
    do(engine, state, "alpha plays rB")
    assert q(engine, state, "pile") == []
    assert q(engine, state, "phase") == "countdown"
    assert state.current_players() == (CHANCE,)


def test_bad_intel_readings_differ_when_a_pile_went_down(game: Game) -> None:
    pile = ["r1", "b2", "r3", "b4", "r5", "g4", "g3"]  # charlie (Taliban) took it back down
    hands = {"alpha": ["rB"], "bravo": ["b6"], "charlie": ["g2"]}
    setup = {"taliban": "charlie"}
    engine, state = at_play(
        game, pile, hands, terrorists=("viper",), extra=setup, taliban=True, players=3
    )
    do(engine, state, "alpha plays rB")
    assert q(engine, state, "pile") == ["r1", "b4", "r5", "g4"]  # every 3 and every 2
    engine, state = at_play(
        game,
        pile,
        hands,
        extra=setup,
        taliban=True,
        players=3,
        bad_intel_levels="runs",
        bad_intel_removed="set_aside",
    )
    do(engine, state, "alpha plays rB")
    assert q(engine, state, "pile") == ["r1", "b2", "r3", "b4", "r5"]  # the runs g3, g4
    assert q(engine, state, "set_aside") == ["g4", "g3"]
    assert q(engine, state, "discards") == {"alpha": ["rB"], "bravo": [], "charlie": []}


def test_bad_intel_restarts_everyone_after_the_countdown(game: Game) -> None:
    engine, state = at_play(game, ["r1", "b2"], HANDS, clock=1000)
    do(engine, state, "alpha plays rB")
    assert state.phase == GO
    do(engine, state, "go alpha 300 bravo 400 charlie 500 delta 600")
    assert q(engine, state, "ready") == {
        "alpha": 1100 + 3000 + 300,
        "bravo": 1100 + 3000 + 400,
        "charlie": 1100 + 3000 + 500,
        "delta": 1100 + 3000 + 600,
    }


# --- Jam ----------------------------------------------------------------------------------


def test_jam_targets(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS)
    assert "another player" in refused(engine, state, "alpha plays rJ at alpha")
    assert "a Jam is played at a player" in refused(engine, state, "alpha plays rJ")
    do(engine, state, "alpha plays rJ at bravo", "react alpha 500")
    assert "bravo is jammed" in refused(engine, state, "bravo plays b2")
    do(engine, state, "bravo wait", "react bravo 1000")  # only playing is blocked
    assert "bravo is already jammed" in refused(engine, state, "charlie plays gJ at bravo")


def test_a_jammed_player_may_play_specials_under_hunt_cards(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS, jam_blocks="hunt_cards")
    do(engine, state, "alpha plays rJ at delta", "react alpha 4000")
    do(engine, state, "bravo wait", "react bravo 4000", "charlie wait", "react charlie 4000")
    assert "jammed" in refused(engine, state, "delta plays y1")
    do(engine, state, "delta plays yB")
    assert q(engine, state, "pile") == []


def test_saying_the_drill_takes_the_drill_time(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS)
    do(engine, state, "alpha plays rJ at bravo", "react alpha 1000", "bravo clear")
    do(engine, state, "react bravo 200")
    assert q(engine, state, "ready")["bravo"] == 200 + engine.drill_ms + 200
    assert "charlie is not jammed" in refused(engine, state, "charlie clear")


# --- terrorist abilities ------------------------------------------------------------------------


def test_the_brokers_claimer_gets_two_more_cards(game: Game) -> None:
    pile = ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"]
    for limit_too, limit in ((False, 6), (True, 8)):
        engine, state = at_play(
            game,
            pile,
            HANDS,
            terrorists=("broker",),
            extra={"remaining": ["viper"]},
            extra_cards_limit="limit_too" if limit_too else "deal_only",
        )
        do(engine, state, "alpha plays r9", "reveal viper")
        assert state.draws[0] == [0, 8]
        assert state.draws[1] == [1, 6]
        assert q(engine, state, "limits")["alpha"] == limit


def test_the_ghosts_first_kill_shot_reading(game: Game) -> None:
    pile = ["r1 alpha", "b2", "g3", "y4", "p5", "r6", "b7", "g8", "g9 charlie"]
    engine, state = at_play(
        game, pile, HANDS, terrorists=("ghost",), second_kill_shot_claimer="first"
    )
    do(engine, state, "alpha plays r9")
    assert q(engine, state, "captured")["charlie"] == ["ghost"]


def test_a_bad_intel_takes_a_first_kill_shot_away(game: Game) -> None:
    pile = ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8", "g9"]
    engine, state = at_play(game, pile, HANDS, terrorists=("ghost",))
    assert q(engine, state, "kill_shots") == [1]
    do(engine, state, "alpha plays rB")
    assert q(engine, state, "kill_shots") == [0]
    assert q(engine, state, "top") == 7


def test_no_ability_changes_nothing(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS, terrorists=("cobalt",))
    do(engine, state, "alpha plays rJ at bravo")
    assert state.phase == PLAY and not state.discard_rounds


# --- ten hunts and the score ----------------------------------------------------------------------


def test_a_game_is_ten_hunts_and_the_most_points_win(game: Game) -> None:
    engine = KillShot(game_data(game))
    state = engine.new_initial_state()
    state.play_random(random.Random(5))
    assert len(state.results) == 10 and state.hunt == 10
    top = max(state.scores)
    assert state.winners == tuple(p for p in range(4) if state.scores[p] == top)
    assert q(engine, state, "winner") in (*engine.names, "draw")
    assert state.returns()[state.winners[0]] in (0.0, 1.0)


def test_a_tie_at_the_end(game: Game) -> None:
    for option, winner in (("draw", "draw"), ("most_captures", "alpha")):
        engine = KillShot(game_data(game), None, {"final_tie": option, "players": 2})
        state = engine.setup_state(
            {
                "terrorists": ["viper"],
                "remaining": [],
                "captured": {"alpha": ["architect"], "bravo": ["cobalt"]},
                "escaped": [
                    "cartographer",
                    "nightjar",
                    "broker",
                    "ghost",
                    "sandstorm",
                    "red-mirage",
                    "black-lotus",
                ],
                "pile": ["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"],
                "hands": {"alpha": ["r9"], "bravo": ["b9"]},
                "ready": {"alpha": 10, "bravo": 20},
            }
        )
        do(engine, state, "alpha plays r9")  # viper (1): alpha 2 + 1 = 3, bravo 3
        assert state.is_terminal()
        assert q(engine, state, "scores") == {"alpha": 3, "bravo": 3}
        assert q(engine, state, "winner") == winner


# --- Tactical Engagement ------------------------------------------------------------------------


def test_tactical_engagement_the_most_points_claim(game: Game) -> None:
    pile = ["r1", "b1", "r2", "b3", "r4", "b4", "r5", "b6", "r7", "b8", "r8"]
    engine, state = at_play(
        game,
        pile,
        {"alpha": ["r9"], "bravo": ["b9"]},
        {"alpha": 200, "bravo": 100},
        game_type="tactical-engagement",
        players=2,
    )
    assert q(engine, state, "pile_points") == {"alpha": 12, "bravo": 9}
    do(engine, state, "bravo plays b9")  # the Kill Shot is worth 4: 12 to 13
    result = q(engine, state, "last_result")
    assert result["totals"] == {"alpha": 12, "bravo": 13}
    assert (result["winner"], result["how"]) == ("bravo", "points")


def test_tactical_engagement_tie_on_the_lowest_number_too(game: Game) -> None:
    # both played a 1: alpha 1+1+1+2+2+3 = 10, bravo 1+2+3 + the Kill Shot 4 = 10
    pile = ["r1", "b1", "r2", "r3", "b4", "r5", "r6", "r7", "b8"]
    for option, winner, how in (
        ("earliest", "alpha", "tie-earliest"),
        ("escapes", None, "escaped-tie"),
    ):
        engine, state = at_play(
            game,
            pile,
            {"alpha": ["r9"], "bravo": ["b9"]},
            {"alpha": 200, "bravo": 100},
            game_type="tactical-engagement",
            players=2,
            points_tie=option,
        )
        do(engine, state, "bravo plays b9")
        result = q(engine, state, "last_result")
        assert result["totals"] == {"alpha": 10, "bravo": 10}
        assert (result["winner"], result["how"]) == (winner, how)


def test_tactical_engagement_uses_own_colour_decks(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"game_type": "tactical-engagement", "players": 3})
    state = engine.new_initial_state()
    rng = random.Random(1)
    while state.phase != PLAY:
        random_step(state, rng)
    for p in range(3):
        assert {engine.colour_of[c] for c in state.hands[p]} == {p}
    assert len(state.decks) == 3 and all(len(d) == 14 for d in state.decks)


# --- Situation Room -------------------------------------------------------------------------------


def room(game: Game, **options: Any) -> tuple[KillShot, KillShotState]:
    engine = KillShot(
        game_data(game), None, {"game_type": "situation-room", "players": 3, **options}
    )
    state = engine.setup_state(
        {
            "terrorists": ["viper"],
            "pile": ["r1", "b2", "g3", "y4", "p5", "r6", "b7"],
            "hands": {
                "alpha": ["r8", "g9", "g8", "b6", "r5", "rB", "p1", "p2", "y3"],
                "bravo": ["b8", "b9", "y8", "y7", "bJ", "g1", "g2", "b3", "p4"],
                "charlie": ["g5", "g6", "g7", "p8", "p9", "r2", "y1", "y2", "b4"],
            },
            "turn": "alpha",
        }
    )
    return engine, state


def test_situation_room_a_kill_shot_ends_the_play(game: Game) -> None:
    engine, state = room(game)
    assert state.phase == TURN and state.current_players() == (0, 1, 2)
    assert "the Kill Shot that ends the hunt is the last card played" in refused(
        engine, state, "alpha plays r8 g9 g8 ; bravo pass ; charlie pass"
    )
    do(engine, state, "alpha plays r8 g8 g9 ; bravo pass ; charlie pass")
    assert q(engine, state, "captured")["alpha"] == ["viper"]


def test_situation_room_specials_only_end_another_players_turn(game: Game) -> None:
    engine, state = room(game)
    assert "played on another player" in refused(
        engine, state, "alpha plays rB ; bravo pass ; charlie pass"
    )
    assert "only Jam or Bad Intel played at alpha" in refused(
        engine, state, "alpha plays r8 ; bravo plays b8 ; charlie pass"
    )
    do(engine, state, "alpha plays r8 ; bravo plays bJ at alpha ; charlie pass")
    assert q(engine, state, "voided") == ["alpha plays r8"]
    assert q(engine, state, "top") == 7 and q(engine, state, "turn") == "bravo"


def test_situation_room_reload_may_discard_nothing_but_pass_is_for_deadline(game: Game) -> None:
    engine, state = room(game)
    assert "discard and refill" in refused(engine, state, "alpha pass ; bravo pass ; charlie pass")
    do(engine, state, "alpha reload ; bravo pass ; charlie pass")
    assert q(engine, state, "turn") == "bravo" and not state.draws


def test_situation_room_night_mission_plays_one_card_at_a_time(game: Game) -> None:
    engine, state = room(game, night_mission=True)
    assert "one card at a time" in refused(
        engine, state, "alpha plays r8 g8 ; bravo pass ; charlie pass"
    )
    assert state.own_hand(0)[0] == "r8"  # looking is free during one's turn


# --- optional rules -------------------------------------------------------------------------------


def test_briefing_shows_the_hand_before_the_countdown(game: Game) -> None:
    for briefing in (False, True):
        engine = KillShot(game_data(game), None, {"briefing": briefing})
        state = engine.new_initial_state()
        rng = random.Random(2)
        while state.phase != GO or state.draws:
            random_step(state, rng)
        hand = state.player_view(0).hand
        assert len(hand) == 6
        assert (set(hand) == {"?"}) is not briefing
        random_step(state, rng)
        assert "?" not in state.player_view(0).hand


def test_deadline_deals_one_of_each_number_and_three_chosen(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"deadline": True, "players": 3})
    state = engine.new_initial_state()
    state.apply(Reveal((0,)))
    assert state.phase == PICK and state.current_players() == (0, 1, 2)
    assert [engine.codes[c] for c in state.hands[0]] == [f"r{n}" for n in range(1, 10)]
    assert len(state.legal_actions(0)) == 165  # 3 of the 11 other red cards
    do(engine, state, "alpha picks r9 rB rJ ; bravo picks b1 b2 b3 ; charlie picks g7 g8 g9")
    assert state.phase == GO and [len(h) for h in state.hands] == [12, 12, 12]
    do(engine, state, "go alpha 100 bravo 200 charlie 300")
    assert "no cards are drawn" in refused(engine, state, "alpha reload r1")


def test_deadline_sandstorm_picks_fewer(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"deadline": True, "players": 2})
    state = engine.new_initial_state()
    state.apply(Reveal((engine.terrorist("sandstorm"),)))
    assert state.pick_sizes == [1, 1]
    assert isinstance(state.legal_actions(0)[0], Pick)


def test_taliban_is_chosen_by_chance_and_plays_down(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"taliban": True, "players": 3})
    state = engine.new_initial_state()
    assert state.current_players() == (CHANCE,)
    do(engine, state, "taliban bravo")
    assert q(engine, state, "taliban") == "bravo" and state.phase == REVEAL
    assert engine.per_colour


def test_one_shot_one_kill_forbids_the_same_number(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS, one_shot_one_kill=True)
    assert "rule one-shot-one-kill: a 1 cannot follow a 1" in refused(
        engine, state, "alpha plays r1"
    )
    do(engine, state, "alpha plays r2")


def test_night_mission_hides_unseen_cards(game: Game) -> None:
    engine, state = at_play(
        game, ["r1"], HANDS, night_mission=True, extra={"known": {"alpha": [2]}}
    )
    assert state.player_view(0).hand == ("?", "r2", "?", "?", "?", "?")
    do(engine, state, "alpha looks #1")
    assert state.player_view(0).hand == ("r1", "r2", "?", "?", "?", "?")
    assert state.player_view(1).hand == ("?",) * 6
    assert "a look is" not in refused(engine, state, "bravo plays b2")


def test_terror_threat_reveals_three_and_plays_on_any_pile(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"terror_threat": True})
    state = engine.new_initial_state()
    outcomes = state.legal_actions(CHANCE)
    assert len(outcomes) == 10 * 9 * 8
    engine, state = at_play(
        game,
        [],
        HANDS,
        terrorists=("viper", "cobalt", "nightjar"),
        terror_threat=True,
        extra={"piles": [["r1"], [], ["b1", "b2"]]},
    )
    assert "there is no hunt pile 4" in refused(engine, state, "alpha plays r2 on 4")
    do(engine, state, "alpha plays r2 on 3")
    assert q(engine, state, "tops") == [1, 0, 2]


def test_terror_threat_a_claim_leaves_the_other_piles(game: Game) -> None:
    engine, state = at_play(
        game,
        [],
        HANDS,
        terrorists=("viper", "cobalt", "nightjar"),
        terror_threat=True,
        extra={"piles": [["r1", "b2", "g3", "y4", "p5", "r6", "b7", "g8"], ["g1"], ["y1"]]},
    )
    do(engine, state, "alpha plays r9 on 1")
    assert q(engine, state, "open_piles") == [False, True, True]
    assert q(engine, state, "piles")[0] == []  # its cards went to the discards
    assert state.phase == PLAY


# --- recorded hunts ---------------------------------------------------------------------------


RECORD_HANDS = {
    "alpha": ["r1", "r2", "b4", "g5", "y7", "p9"],
    "bravo": ["b1", "g3", "y3", "r6", "p8", "rJ"],
    "charlie": ["g2", "p4", "b5", "y6", "g8", "r9"],
}


def record_start(game: Game) -> tuple[KillShot, KillShotState]:
    engine = KillShot(game_data(game), None, {"players": 3})
    state = engine.setup_state({"terrorists": ["architect"], "hands": RECORD_HANDS, "clock": 0})
    return engine, state


def test_a_legal_record_is_accepted(game: Game) -> None:
    engine, state = record_start(game)
    result = check_record(
        engine,
        state,
        [
            "0.90 bravo plays b1",
            "1.20 alpha plays r2",
            "1.20 charlie plays g2",
            "2.00 bravo plays g3",
        ],
    )
    assert result.ok, result.message
    assert q(engine, result.state, "pile") == ["b1", "r2", "g2", "g3"]
    assert state.history == []  # the start is not changed


def test_a_record_cannot_play_during_the_drill_or_the_countdown(game: Game) -> None:
    engine, state = record_start(game)
    result = check_record(
        engine, state, ["0.50 bravo plays rJ at alpha", "0.80 alpha clear", "2.00 alpha plays r1"]
    )
    assert not result.ok and result.line == 3
    assert (
        "alpha cannot act before 3.30 s (saying the clearing drill takes 2.50 s)" in result.message
    )
    engine, state = at_play(game, ["r1", "b2"], HANDS, players=4)
    result = check_record(engine, state, ["0.10 alpha plays rB", "2.00 bravo plays b2"])
    assert not result.ok and result.line == 2
    assert "cease" not in result.message and "countdown" in result.message


def test_a_record_reports_bad_lines(game: Game) -> None:
    engine, state = record_start(game)
    result = check_record(engine, state, ["alpha plays r1"])
    assert not result.ok and "needs its time" in result.message
    result = check_record(engine, state, ["0.50 alpha flies"])
    assert not result.ok and result.line == 1 and "cannot read" in result.message
    result = check_record(engine, state, ["0.50 alpha plays b1"])
    assert not result.ok and "alpha holds no b1" in result.message


def test_simultaneous_record_lines_are_one_step_ordered_as_written(game: Game) -> None:
    engine, state = record_start(game)
    result = check_record(
        engine, state, ["0.90 bravo plays b1", "1.50 alpha plays r1", "1.50 charlie plays g2"]
    )
    assert result.ok
    # alpha's 1 then charlie's 2: both land (chance ordered them as written)
    assert q(engine, result.state, "pile") == ["b1", "r1", "g2"]
    result = check_record(
        engine, state, ["0.90 bravo plays b1", "1.50 charlie plays g2", "1.50 alpha plays r2"]
    )
    assert q(engine, result.state, "pile") == ["b1", "g2", "r2"]


# --- notation and views -------------------------------------------------------------------------


def test_notation_round_trips_and_errors(game: Game) -> None:
    engine = KillShot(game_data(game), None, {"night_mission": True, "terror_threat": True})
    for text in (
        "taliban charlie",
        "reveal ghost viper red-mirage",
        "first bravo",
        "draw alpha r1 b5 pB",
        "go alpha 650 bravo 0 charlie 540 delta 4000",
        "react alpha 480 delta 10",
        "order bravo alpha",
        "claim alpha",
        "alpha plays r5 on 2",
        "alpha plays r4 b5 g4",
        "alpha plays gJ at bravo",
        "alpha reload #2 #5",
        "alpha reload r5 b3",
        "alpha reload",
        "alpha discards #3",
        "alpha discards r5",
        "alpha picks r1 rB rJ",
        "alpha looks #3",
        "alpha clear",
        "alpha wait",
        "alpha pass",
    ):
        action = engine.parse_action(text)
        assert engine.parse_action(engine.format_action(action)) == action
    assert engine.format_action(engine.parse_action("alpha reload b3 r5")) == "alpha reload r5 b3"
    for bad in ("", "alpha jumps", "draw alpha x9", "go alpha 10", "alpha plays", "alpha looks 3"):
        with pytest.raises(NotationError):
            engine.parse_action(bad)
    with pytest.raises(NotationError, match="unknown player 'omega'"):
        engine.parse_action("claim omega")


def test_a_view_hides_other_hands_and_coming_times(game: Game) -> None:
    engine = KillShot(game_data(game))
    state = engine.new_initial_state()
    rng = random.Random(4)
    while len(state.history) < 60:
        random_step(state, rng)
    view = state.player_view(0)
    text = repr(view)
    for p in (1, 2, 3):
        for c in state.hands[p]:
            assert f"draw {engine.names[p]} " + engine.codes[c] not in text
    assert all(entry == "go" or not entry.startswith("go ") for entry in view.log)
    assert not any(entry.startswith("react ") and entry[-1].isdigit() for entry in view.log)


def test_legal_actions_are_legal_and_samples_are_legal(game: Game) -> None:
    for options in ({}, {"game_type": "situation-room"}, {"night_mission": True}):
        engine = KillShot(game_data(game), None, options)
        state = engine.new_initial_state()
        rng = random.Random(9)
        for _ in range(300):
            if state.is_terminal():
                break
            players = state.current_players()
            if players != (CHANCE,):
                for p in players:
                    actions = state.legal_actions(p)
                    assert actions and all(state.is_legal(p, a) for a in actions[:200])
                    assert state.sample_action(p, rng) in actions
            random_step(state, rng)


def test_replay_and_initial(game: Game) -> None:
    engine, state = at_play(game, ["r1"], HANDS)
    do(engine, state, "alpha plays r2", "react alpha 100")
    again = replay(state.initial(), state.history)
    assert again == state
    assert [format_step(engine, s) for s in state.history] == ["alpha plays r2", "react alpha 100"]


def test_diagram_draws_the_pile_and_hands_as_pieces(game: Game) -> None:
    engine, state = at_play(game, ["r1", "b2"], HANDS)
    (table,) = engine.diagram(state)
    assert isinstance(table, DiagramGrid)
    pile = table.rows[0][1]
    assert [c.piece for c in pile] == ["viper", "hunt-1-red", "hunt-2-blue"]
    assert all(not c.text for _label, cells in table.rows for c in cells)
    assert [c.mark for c in pile] == ["", "", ""]  # nothing happened yet
    assert [label["en"] for label, _cells in table.rows] == [
        "Hunt pile",
        "Alpha",
        "Bravo",
        "Charlie",
        "Delta",
    ]
    do(engine, state, "alpha plays r2")
    (table,) = engine.diagram(state)
    pile = table.rows[0][1]
    assert pile[-1] == DiagramCell(mark="active", piece="hunt-2-red")
    assert [label["en"] for label, _cells in table.rows] == ["Hunt pile", "Alpha"]
    alpha = table.rows[1][1]
    assert alpha[1].mark == "empty"  # where the 2 was
    assert table.title == {"ja": "1回目の捜索・0.10秒", "en": "Hunt 1 at 0.10 s"}
    refused(engine, state, "bravo plays b1")
    (table,) = engine.diagram(state)  # a refused action: nothing new on the table
    assert all(c.mark != "active" for _label, cells in table.rows for c in cells)
    assert table.arrows == ()


def test_diagram_arrows_go_from_the_hand_to_where_the_card_went(game: Game) -> None:
    engine, state = at_play(game, ["r1"], {**HANDS, "alpha": ["r9", "r2"]})
    engine.diagram(state)
    do(engine, state, "alpha plays r2")
    (table,) = engine.diagram(state)
    assert table.arrows == (DiagramArrow((1, 1), (0, 2), "move", colour="red"),)
    # an arrow that would cross another card is left out (the empty place says enough)
    engine, state = at_play(game, ["r1"], HANDS)
    engine.diagram(state)
    do(engine, state, "alpha plays r1")
    (table,) = engine.diagram(state)
    assert table.arrows == ()
    assert table.rows[1][1][0].mark == "empty"


def test_simultaneous_plays_to_be_ordered_are_dotted_arrows(game: Game) -> None:
    ready = {"alpha": 100, "bravo": 100, "charlie": 300, "delta": 400}
    engine, state = at_play(game, ["r1", "b2"], HANDS, ready)
    engine.diagram(state)
    do(engine, state, "alpha plays r2 ; bravo plays b2")
    (table,) = engine.diagram(state)
    assert table.title["en"] == "Hunt 1 at 0.10 s: which landed first?"
    assert [a.kind for a in table.arrows] == ["planned", "planned"]
    assert {a.end for a in table.arrows} == {(0, 3)}  # the empty place on the pile
    assert table.rows[0][1][3].mark == "empty"


def test_setup_errors(game: Game) -> None:
    engine = KillShot(game_data(game))
    with pytest.raises(Exception, match="unknown setup key"):
        engine.setup_state({"terrorists": ["viper"], "piel": []})
    with pytest.raises(Exception, match="too many r1"):
        engine.setup_state({"terrorists": ["viper"], "pile": ["r1", "r1", "r1"]})
    with pytest.raises(Exception, match="unknown terrorist"):
        engine.setup_state({"terrorists": ["nobody"]})


# --- worked examples ------------------------------------------------------------------------------


def test_every_example_replays(game: Game) -> None:
    assert len(FILES) >= 3
    results = check_game(game)
    assert [r.file for r in results] == example_files(game)
    assert [r.line() for r in results if not r.ok] == []
    for result in results:
        assert all(step.say.ja and step.say.en for step in result.steps)
        assert all(step.diagram for step in result.steps if step.notation != "exhaust chance")
    titles = " ".join(r.title.en for r in results if r.title)
    for needed in ("Bad Intel on a 5", "Tactical Engagement tie", "Situation Room: several cards"):
        assert needed in titles


@pytest.mark.parametrize("source", FILES, ids=[p.name for p in FILES])
def test_changing_any_expected_value_makes_the_check_fail(
    game: Game, source: Path, tmp_path: Path
) -> None:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    copy = tmp_path / source.name
    paths = [p for p, _ in _expect_values(data)]
    assert paths, f"{source.name} expects nothing"
    survivors = []
    for path in paths:
        changed = yaml.safe_load(source.read_text(encoding="utf-8"))
        _set(changed, path)
        copy.write_text(yaml.safe_dump(changed, allow_unicode=True), encoding="utf-8")
        if _passes(game, copy):
            survivors.append(path)
    assert survivors == [], f"changing these expected values went unnoticed: {survivors}"
