"""Diagrams for the rulebook: a state drawn as the battle zone and the player boards.

The grids are plain data (`rules_engine.core.DiagramGrid`); printgen draws them.  A diagram
shows the state it is given, and says in its caption when that is, by the state's own
counters:

- after a step resolved (the last action was the step's last reveal): the turn and step
  that resolved (`last_step`; the state's `turn` and `slot` have already moved on), the
  moves as solid arrows, the balls as dashed arrows to the square they hit (or the last
  square in range), the pawns hit; on the player boards the cards of that step, face up
  and highlighted, and the HIT tokens just placed, highlighted;
- during a step (some cards of the step revealed): the moves and balls revealed so far as
  dotted arrows (they happen when the step's last card is revealed), the cards revealed
  highlighted, the cards not yet revealed face down;
- before a step (programs laid down): every program card face down;
- between turns (refilling the hands, programming): the hands, the draw pile and the
  discards;
- while the pawns are placed: the battle zone.

Everything is in players' words: pawns by their colour and symbol, cards and tokens as
pictures of the pieces (`DiagramCell.piece`), no notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramArrow, DiagramCell, DiagramGrid
from rules_engine.subzero.actions import PLACE, REVEAL, YOUNGEST, Reveal
from rules_engine.subzero.state import SubzeroState

if TYPE_CHECKING:
    from rules_engine.subzero.engine import Subzero

Row = tuple[Mapping[str, str], tuple[DiagramCell, ...]]

# --- when a state is drawn ------------------------------------------------------------------

AFTER, DURING, BEFORE, BETWEEN, SETUP = "after", "during", "before", "between", "setup"


def moment(state: SubzeroState) -> tuple[str, int, int]:
    """What a diagram of `state` shows, and when: (kind, turn, step) by the state's own
    counters; step 0 when no step is meant (between turns, setting up)."""
    s = state
    last = s.history[-1] if s.history else None
    if s.phase in (YOUNGEST, PLACE):
        return SETUP, 0, 0
    if s.phase == REVEAL and s.step_reveals:
        return DURING, s.turn, s.slot + 1
    if isinstance(last, Reveal):
        turn, step = s.last_step
        return AFTER, turn, step
    if s.phase == REVEAL:
        return BEFORE, s.turn, s.slot + 1
    return BETWEEN, s.turn, 0


def caption(kind: str, turn: int, step: int) -> dict[str, str]:
    """The battle zone's caption: when the drawn state is, by the engine's turn and step
    (short: the diagram is printed about 60 mm wide, both languages side by side in the
    bilingual edition)."""
    if kind == AFTER:
        return {
            "ja": f"ターン{turn}・ステップ{step}の解決後",
            "en": f"Turn {turn}, step {step}, resolved",
        }
    if kind == DURING:
        return {
            "ja": f"ターン{turn}・ステップ{step}の途中",
            "en": f"Turn {turn}, step {step}, under way",
        }
    if kind == BEFORE:
        return {"ja": f"ターン{turn}・ステップ{step}の前", "en": f"Turn {turn}, before step {step}"}
    return {"ja": "駒の配置", "en": "Placing the pawns"}


# --- the diagram ------------------------------------------------------------------------------


def diagram(g: Subzero, state: Any) -> Diagram:
    """The battle zone and the player boards of a state, or the hands between turns."""
    if not isinstance(state, SubzeroState):
        raise TypeError("not a S.U.B.Z.E.R.O. state")
    s = state
    kind, turn, step = moment(s)
    if kind == BETWEEN:
        return (hands(g, s, turn),)
    if kind == SETUP:
        return (battle_zone(g, s, caption(SETUP, 0, 0), (), set()),)
    if kind == AFTER:
        arrows = resolved_arrows(g, s)
        hit = {b for _, b, _ in s.last_hits}
        # where a pawn was hit that has left the board since (dropped out)
        hit_squares = {end for _, _, end, t in s.last_shots if t >= 0 and s.pos[t] < 0}
        title = caption(AFTER, turn, step)
        board = battle_zone(g, s, title, arrows, hit, hit_squares)
    else:
        arrows = planned_arrows(g, s) if kind == DURING else ()
        title = caption(kind, turn, step)
        board = battle_zone(g, s, title, arrows, set())
    return (board, player_boards(g, s, kind, step))


def _cell(g: Subzero, square: int) -> tuple[int, int]:
    """A square's (row, column) in the battle zone grid (north row first)."""
    return g.height - 1 - square // g.width, square % g.width


def battle_zone(
    g: Subzero,
    s: SubzeroState,
    title: Mapping[str, str],
    arrows: Sequence[DiagramArrow],
    hit: set[int],
    hit_squares: set[int] | None = None,
) -> DiagramGrid:
    """The board: each pawn as its colour's symbol on its colour; a pawn just hit (or the
    square where a pawn that has since dropped out was hit) marked `hit`."""
    w = g.width
    marked = hit_squares or set()
    rows: list[Row] = []
    for row in range(g.height - 1, -1, -1):
        cells = []
        for c in range(w):
            q = c + row * w
            p = s.at[q]
            if p >= 0:
                cells.append(DiagramCell(g.symbols[p], "hit" if p in hit else g.names[p]))
            elif q in marked:
                cells.append(DiagramCell("", "hit"))
            else:
                cells.append(DiagramCell())
        label = g.row_labels[row]
        rows.append(({"ja": label, "en": label}, tuple(cells)))
    return DiagramGrid(title, g.column_labels, tuple(rows), tuple(arrows))


def _path_arrow(g: Subzero, walk: Sequence[int], kind: str, colour: str) -> DiagramArrow:
    """An arrow along a walk of neighbouring squares, through the squares where it turns."""
    corners = []
    for i in range(1, len(walk) - 1):
        before = walk[i] - walk[i - 1]
        after = walk[i + 1] - walk[i]
        if before != after:
            corners.append(_cell(g, walk[i]))
    return DiagramArrow(_cell(g, walk[0]), _cell(g, walk[-1]), kind, tuple(corners), colour)


def resolved_arrows(g: Subzero, s: SubzeroState) -> tuple[DiagramArrow, ...]:
    """The last step's moves (solid) and balls (dashed, to where each hit or left range)."""
    arrows = [_path_arrow(g, walk, "move", g.names[p]) for p, walk in s.last_moves if len(walk) > 1]
    for p, origin, end, _ in s.last_shots:
        arrow = DiagramArrow(_cell(g, origin), _cell(g, end), "shot", (), g.names[p])
        if end != origin and arrow not in arrows:  # two balls on one line: one arrow
            arrows.append(arrow)
    return tuple(arrows)


def planned_arrows(g: Subzero, s: SubzeroState) -> tuple[DiagramArrow, ...]:
    """The moves and balls revealed so far in this step (dotted), as revealed: the path
    each move takes if nothing is in its way (bumps happen when the step resolves), and
    the line each ball flies along, to the first pawn on it now that is not ducking (or
    the last square in range)."""
    arrows: list[DiagramArrow] = []
    end_of: dict[int, int] = {}
    for r in s.step_reveals:
        if r.move < 0:
            continue
        start = s.pos[r.player]
        steps = g.card_move[g.card_index[r.card]]
        walk = (start, *g.path(start, r.move, steps, r.turn))
        end_of[r.player] = walk[-1]
        if len(walk) > 1:
            arrows.append(_path_arrow(g, walk, "planned", g.names[r.player]))
    for r in s.step_reveals:
        if not r.shots:
            continue
        p = r.player
        origin = s.pos[p] if g.shoot_first else end_of.get(p, s.pos[p])
        for d in sorted(set(r.shots)):
            line = g.lines[origin][d]
            if not line:
                continue
            end = line[-1]
            for q in line:
                o = s.at[q]
                if o >= 0 and o != p and not s.ducking[o]:
                    end = q
                    break
            arrows.append(DiagramArrow(_cell(g, origin), _cell(g, end), "planned", (), g.names[p]))
    return tuple(arrows)


# --- the player boards and the hands ----------------------------------------------------------


def _label(g: Subzero, p: int, s: SubzeroState, start: bool = False) -> dict[str, str]:
    name = g.colour_names[p]
    ja, en = f"{g.symbols[p]}{name.ja}", f"{g.symbols[p]} {name.en}"
    if p in s.out:
        ja, en = ja + "（脱落）", en + " (out)"
    elif start:
        ja, en = ja + "（スタート）", en + " (start)"
    return {"ja": ja, "en": en}


def player_boards(g: Subzero, s: SubzeroState, kind: str, step: int) -> DiagramGrid:
    """The player boards, one column per player (headed by the colour's symbol): the card
    of this step (face up once revealed, highlighted when revealed in this step; face down
    before), the snowballs in hand, and the HIT tokens received, by shooter's symbol (the
    ones placed in the step just resolved highlighted)."""
    revealed = {r.player for r in (s.last_reveals if kind == AFTER else s.step_reveals)}
    if kind == BEFORE:
        revealed = set()
    turn_over = kind == AFTER and not any(s.programs)
    programs = s.last_programs if turn_over else s.programs
    hit_now = {t for _, t, placed in s.last_hits if placed} if kind == AFTER else set()
    cards: list[DiagramCell] = []
    balls: list[DiagramCell] = []
    tokens: list[DiagramCell] = []
    for p in range(s.n):
        colour = "empty" if p in s.out else g.names[p]
        program = programs[p] if p < len(programs) else ()
        if step - 1 < len(program):
            piece = g.card_pieces[program[step - 1]]
            up = p in revealed
            cards.append(DiagramCell("", "active" if up else "", piece=piece, back=not up))
        else:
            cards.append(DiagramCell())
        balls.append(DiagramCell(str(s.balls[p]), colour))
        by = " ".join(f"{g.symbols[sh]}{k}" for sh, k in enumerate(s.boards[p]) if k)
        tokens.append(DiagramCell(by, "active" if p in hit_now else colour))
    rows: list[Row] = [
        ({"ja": "カード", "en": "Card"}, tuple(cards)),
        ({"ja": "雪玉", "en": "Snowballs"}, tuple(balls)),
        ({"ja": "ヒット駒", "en": "HIT tokens"}, tuple(tokens)),
    ]
    title = {"ja": "プレイヤー用ボード", "en": "Player boards"}
    if s.out:
        out_ja = "・".join(g.colour_names[p].ja for p in s.out)
        out_en = " and ".join(g.colour_names[p].en for p in s.out)
        title = {
            "ja": f"プレイヤー用ボード（{out_ja}は脱落）",
            "en": f"Player boards ({out_en} out)",
        }
    return DiagramGrid(title, tuple(g.symbols[: s.n]), tuple(rows))


def hands(g: Subzero, s: SubzeroState, turn: int) -> DiagramGrid:
    """Between turns: every hand as card pictures, the start player named, the cards left
    in the draw pile."""
    rows: list[Row] = []
    for p in range(s.n):
        cells = tuple(DiagramCell(piece=g.card_pieces[k]) for k in s.hands[p])
        rows.append((_label(g, p, s, p == s.start), cells))
    title = {
        "ja": f"ターン{turn}の前の手札（山札{s.pile_total}枚）",
        "en": f"Hands before turn {turn} (draw pile: {s.pile_total})",
    }
    return DiagramGrid(title, (), tuple(rows))
