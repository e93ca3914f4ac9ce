"""Diagrams: a state drawn for the rulebook's worked examples, in players' language.

The board is drawn seen from orange's side (row 1, orange's camp, at the bottom; columns
a to e from orange's left), every tile as a small picture of its face that is up (the
printed front, or the printed back when it shows its back); the two columns at the right
give each player's total in every row (shaded in the player's colour).  What the step just
did is highlighted: the squares the last action (or the tile returned to hand) touched,
and a tile's move as an arrow (a Tsunami push: the pushed tile's way, over what it jumps).
Tiles that went back to hand in this step are drawn below the board, per owner.

The caption says when, by the state's own count: the turn of the game's last action
(`Squares2State.acted`), who did what, and a win; before any action, the turn about to be
played and who plays it.

A `Squares2` method, written here as a function of the engine (`self`) and bound in its
class body (`engine.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_engine.core import Diagram, DiagramArrow, DiagramCell, DiagramGrid
from rules_engine.squares2.actions import Move, Place, Return, Use
from rules_engine.squares2.state import Squares2State
from rules_engine.squares2.turn import OVER, START

SETUP_TILE = "setup-tile-"  # as engine.SETUP_TILE (a tile a setup states)

if TYPE_CHECKING:
    from rules_engine.squares2.engine import Squares2

TOTAL_HEADING = "Σ"  # the row-total columns (language-neutral)


def diagram(self: Squares2, state: Any) -> Diagram:
    """The board after the state's last step (with both players' row totals), and the
    tiles that step sent back to hand, if any."""
    if not isinstance(state, Squares2State):
        raise TypeError("not a SQUARES II state")
    s = state
    last = s.history[-1] if s.acted and s.history else None
    touched = s.touched if last is not None else ()
    over = [set(s.rows_over(p)) for p in range(2)]
    totals = [s.totals(p) for p in range(2)]
    height = self.rows
    rows: list[tuple[Mapping[str, str], tuple[DiagramCell, ...]]] = []
    for r in reversed(range(self.rows)):
        cells: list[DiagramCell] = []
        camp_of = next((p for p in range(2) if self.camp[p] == r), -1)
        for sq in self.row_squares[r]:
            mark = "active" if sq in touched else ""
            c = s.cell[sq]
            if c < 0:
                cells.append(DiagramCell("", mark or (self.names[camp_of] if camp_of >= 0 else "")))
                continue
            p, face = c >> 7, c & 127
            cells.append(_tile_cell(self, p, face, mark))
        for p in range(2):
            cells.append(
                DiagramCell(str(totals[p][r]), "active" if r in over[p] else self.names[p])
            )
        rows.append((_row_label(self, r), tuple(cells)))
    arrows: tuple[DiagramArrow, ...] = ()
    if isinstance(last, Move | Use) and len(touched) >= 2:
        src, dst = touched[-2], touched[-1]  # a push: the pushed tile's way
        arrows = (
            DiagramArrow(
                _cell_of(self, src, height),
                _cell_of(self, dst, height),
                "move",
                colour=self.names[_mover(self, s, last, dst)],
            ),
        )
    board = DiagramGrid(
        _caption(self, s, last),
        (*(chr(ord("a") + c) for c in range(self.columns)), TOTAL_HEADING, TOTAL_HEADING),
        tuple(rows),
        arrows,
    )
    back = _back_to_hand(self, s, last)
    return (board, back) if back is not None else (board,)


def piece_id(self: Squares2, player: int, tile: int) -> str:
    """A tile as printgen names the piece: its component id and the player's deck ("" for
    a tile of another set that a setup states: no piece of the game shows it)."""
    tile_id = self.sets[player][tile].id
    if tile_id.startswith(SETUP_TILE):
        return ""
    return f"{tile_id}-{self.names[player]}"


def _tile_cell(self: Squares2, player: int, face: int, mark: str) -> DiagramCell:
    """A tile in a diagram: its value and picture (a tile a setup states: its value only)."""
    piece = self.piece_id(player, face >> 1)
    return DiagramCell(str(self.fval[player][face]), mark, piece=piece, back=bool(face & 1))


def _row_label(self: Squares2, r: int) -> Mapping[str, str]:
    """The row's number, the same in both languages (a side-by-side edition prints it
    once); the centre row adds its markers' label (`3 C`). The camps are shaded in their
    owners' colours instead."""
    label = str(r + 1)
    if r == self.centre_row:
        markers = self.params["board"].get("markers", ())
        marked = sorted({str(m["label"]) for m in markers if int(m["row"]) == r + 1})
        if len(marked) == 1:
            label = f"{label} {marked[0]}"
    return {"ja": label, "en": label}


def _cell_of(self: Squares2, square: int, height: int) -> tuple[int, int]:
    """A square's (row, column) in the drawn grid (row 1 at the bottom)."""
    return (height - 1 - self.row_of[square], square % self.columns)


def _mover(self: Squares2, s: Squares2State, action: Move | Use, dst: int) -> int:
    """Whose tile went along the arrow: the actor's, or for a push the pushed tile's owner."""
    if isinstance(action, Use) and self.abilities[action.ability].effect == "push-forward":
        for b in s.battles:
            if b.square == dst:
                return b.arriving[0]
        if s.cell[dst] >= 0:
            return s.cell[dst] >> 7
    return action.player


def _caption(self: Squares2, s: Squares2State, last: Any) -> dict[str, str]:
    """What is drawn and when, short: the turn (the state's count) and what happened in
    it (`Turn 1: Orange's Tsunami`), or the turn about to be played."""
    ja_names = [d.ja for d in self.display]
    en_names = [d.en for d in self.display]
    game_ja, game_en = "", ""
    if self.games > 1:
        number = len(s.results) + (0 if s.phase == OVER else 1)
        game_ja, game_en = f"第{number}ゲーム ", f"Game {number}, "
    if s.phase == START:
        return {
            "ja": f"{game_ja}先番を決める前",
            "en": _head(game_en, "before choosing who starts"),
        }
    if last is None:
        n = s.turn + 1
        return {"ja": f"{game_ja}{n}手番目の前", "en": _head(game_en, f"before turn {n}")}
    n, p = s.acted, last.player
    ja, en = ja_names[p], en_names[p]
    if s.phase == OVER and s.winner >= 0:
        what_ja, what_en = f"{ja_names[s.winner]}の勝利", f"{en_names[s.winner]} wins"
    elif s.phase == OVER:
        what_ja, what_en = "引き分け", "a draw"
    elif isinstance(last, Return):
        what_ja, what_en = f"{ja}が戻す", f"{en} returns"
    elif isinstance(last, Place):
        what_ja, what_en = f"{ja}が出す", f"{en} places"
    elif isinstance(last, Move):
        what_ja, what_en = f"{ja}が動かす", f"{en} moves"
    elif isinstance(last, Use):
        name = self.abilities[last.ability].name
        what_ja, what_en = f"{ja}の{name.ja}", f"{en}'s {name.en}"
    else:
        what_ja, what_en = f"{ja}は何もできない", f"{en} cannot act"
    return {"ja": f"{game_ja}{n}手番目：{what_ja}", "en": _head(game_en, f"turn {n}: {what_en}")}


def _head(game: str, text: str) -> str:
    """`Game 2, turn 1: ...`, or `Turn 1: ...` in a single game."""
    return f"{game}{text}" if game else text[0].upper() + text[1:]


def _back_to_hand(self: Squares2, s: Squares2State, last: Any) -> DiagramGrid | None:
    """The tiles this step sent back to their owners' hands (drawn with the face they
    showed), one row per owner."""
    if last is None:
        return None
    gone = s.returned[-1:] if isinstance(last, Return) else list(s.returned)
    if not gone:
        return None
    rows = []
    for p in range(2):
        cells = tuple(_tile_cell(self, p, face, "") for q, face in gone if q == p)
        if cells:
            rows.append(({"ja": self.display[p].ja, "en": self.display[p].en}, cells))
    width = max(len(cells) for _, cells in rows)
    return DiagramGrid(
        {"ja": "手元に戻ったコマ", "en": "Back to hand"},
        ("",) * width,  # no headings (blank ones: a column is never without contents)
        tuple(rows),
    )
