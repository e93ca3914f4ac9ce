"""Fitting text into a box: line breaking with kinsoku, inline icons, shrink to a minimum.

Works on measurements only (reportlab font metrics), so the PDF and the PNG renderer
place every run at the same position.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Characters that may not begin a line (closing brackets, Japanese full stops and
# commas, small kana, prolonged sound mark) and that may not end one (opening brackets).
NO_LINE_START = frozenset(
    "、。，．,.・：；:;？！?!゛゜ヽヾゝゞ々ー―‐〜～）)］]｝}」』】〕〉》”’…‥"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
)
NO_LINE_END = frozenset("（(［[｛{「『【〔〈《“‘")

ICON = re.compile(r":([a-z0-9-]+):")
_WORD = re.compile(r"[^\s\u3000-\u9fff\uff00-\uffef]+|\s+|.", re.S)


@dataclass(frozen=True)
class Token:
    kind: str  # "text", "space", "icon", "newline"
    value: str


@dataclass(frozen=True)
class Run:
    """A piece of one line: text drawn at x, or an icon occupying one em at x."""

    x: float
    kind: str
    value: str
    width: float


@dataclass(frozen=True)
class Line:
    baseline: float
    runs: tuple[Run, ...]


@dataclass(frozen=True)
class Fitted:
    size_pt: float
    lines: tuple[Line, ...]


class TextDoesNotFit(Exception):
    """Raised when even the minimum size overflows the box."""

    def __init__(self, needed: str) -> None:
        super().__init__(needed)
        self.needed = needed


def tokenize(text: str, icons: Iterable[str]) -> list[Token]:
    known = set(icons)
    tokens: list[Token] = []
    pos = 0
    for match in ICON.finditer(text):
        if match.group(1) not in known:
            continue
        tokens.extend(_plain(text[pos : match.start()]))
        tokens.append(Token("icon", match.group(1)))
        pos = match.end()
    tokens.extend(_plain(text[pos:]))
    return tokens


def unknown_icons(text: str, icons: Iterable[str]) -> list[str]:
    known = set(icons)
    return [m.group(1) for m in ICON.finditer(text) if m.group(1) not in known]


def _plain(text: str) -> Iterable[Token]:
    for piece in _WORD.findall(text):
        if "\n" in piece:
            for i, part in enumerate(piece.split("\n")):
                if i:
                    yield Token("newline", "\n")
                if part.strip() == "" and part:
                    yield Token("space", " ")
            continue
        if piece.isspace():
            yield Token("space", " ")
        else:
            yield Token("text", piece)


def break_lines(
    tokens: list[Token], width: float, measure: Callable[[str], float], em: float
) -> list[list[Token]] | None:
    """Greedy line breaking with kinsoku; None when a single token is wider than the box."""

    def size(tok: Token) -> float:
        return em if tok.kind == "icon" else measure(tok.value)

    lines: list[list[Token]] = [[]]
    used = 0.0
    for tok in tokens:
        line = lines[-1]
        if tok.kind == "newline":
            lines.append([])
            used = 0.0
            continue
        if tok.kind == "space" and not line:
            continue
        w = size(tok)
        if used + w > width + 1e-9 and any(t.kind != "space" for t in line):
            if tok.kind == "space":
                lines.append([])
                used = 0.0
                continue
            carry: list[Token] = []
            # Oidashi: a line may not start with a closing mark, nor end with an opening one.
            if tok.kind == "text" and tok.value[0] in NO_LINE_START:
                # Pull down the previous character too, and more while the carried part
                # would itself start with a closing mark (as in "）。").
                while len(line) > 1:
                    carry.insert(0, line.pop())
                    if not (carry[0].kind == "text" and carry[0].value[0] in NO_LINE_START):
                        break
            while len(line) > 1 and line[-1].kind == "text" and line[-1].value[-1] in NO_LINE_END:
                carry.insert(0, line.pop())
            while line and line[-1].kind == "space":
                line.pop()
            lines.append(carry)
            line = lines[-1]
            used = sum(size(t) for t in line)
        if w > width + 1e-9:
            return None
        line.append(tok)
        used += w
    for line in lines:
        while line and line[-1].kind == "space":
            line.pop()
    return lines


def layout_text(
    text: str,
    box_w: float,
    box_h: float,
    size_pt: float,
    min_pt: float,
    leading: float,
    align: str,
    valign: str,
    measure: Callable[[str, float], float],
    ascent: float,
    icons: Iterable[str],
) -> Fitted:
    """Fit `text` into a box (mm); the largest size from `size_pt` down to `min_pt` wins."""
    tokens = tokenize(text, icons)
    size = size_pt
    while True:
        em = size * 25.4 / 72.0
        lines = break_lines(tokens, box_w, functools.partial(_measure_at, measure, size), em)
        line_h = em * leading
        if lines is not None:
            block = (len(lines) - 1) * line_h + em
            if block <= box_h + 1e-9:
                return _place(
                    lines, box_w, box_h, size, em, line_h, block, align, valign, measure, ascent
                )
        if size <= min_pt + 1e-9:
            detail = "a word is wider than the box" if lines is None else f"{len(lines)} lines"
            raise TextDoesNotFit(f"{detail} at the minimum size {min_pt:g}pt")
        size = max(min_pt, size - 0.5)


def _measure_at(measure: Callable[[str, float], float], size: float, text: str) -> float:
    return measure(text, size)


def _place(
    lines: list[list[Token]],
    box_w: float,
    box_h: float,
    size: float,
    em: float,
    line_h: float,
    block: float,
    align: str,
    valign: str,
    measure: Callable[[str, float], float],
    ascent: float,
) -> Fitted:
    top = {"top": 0.0, "middle": (box_h - block) / 2, "bottom": box_h - block}[valign]
    # Centre the em box on the line: baseline sits at the font's ascent within one em.
    first_baseline = top + em * ascent
    placed: list[Line] = []
    for n, line in enumerate(lines):
        runs: list[Run] = []
        x = 0.0
        pending = ""
        for tok in line:
            if tok.kind == "icon":
                if pending:
                    w = measure(pending, size)
                    runs.append(Run(x, "text", pending, w))
                    x += w
                    pending = ""
                runs.append(Run(x, "icon", tok.value, em))
                x += em
            else:
                pending += tok.value
        if pending:
            w = measure(pending, size)
            runs.append(Run(x, "text", pending, w))
            x += w
        shift = {"left": 0.0, "center": (box_w - x) / 2, "right": box_w - x}[align]
        shifted = tuple(Run(r.x + shift, r.kind, r.value, r.width) for r in runs)
        placed.append(Line(first_baseline + n * line_h, shifted))
    return Fitted(size, tuple(placed))
