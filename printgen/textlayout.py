"""Fitting text into a box: line breaking with kinsoku, inline icons, shrink to a minimum.

Japanese breaks between BudouX phrases (`printgen.jatext`), never inside one unless the
phrase alone is wider than the box; English breaks at spaces (or after the hyphen of a
hyphenated word), never inside a word.

Works on measurements only (reportlab font metrics), so the PDF and the PNG renderer
place every run at the same position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from printgen.jatext import JA, breakable_units, has_japanese, unfold

# Characters that may not begin a line (closing brackets, Japanese full stops and
# commas, small kana, prolonged sound mark) and that may not end one (opening brackets).
NO_LINE_START = frozenset(
    "、。，．,.・：；:;？！?!゛゜ヽヾゝゞ々ー―‐〜～）)］]｝}」』】〕〉》”’…‥"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
)
NO_LINE_END = frozenset("（(［[｛{「『【〔〈《“‘")

ICON = re.compile(r":([a-z0-9-]+):")
MIN_LEADING = 1.15  # line pitch in font sizes: closer lines touch
# U+2060 (word joiner) between two characters: never break there. For where BudouX cuts
# a word it does not know (縦横な|なめ: write "縦横な\u2060なめ"); it is not drawn.
WORD_JOINER = "\u2060"


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
    """Text as units a line may break between: Japanese phrases (BudouX), English words
    (and the parts of a hyphenated word), icons, spaces and forced line breaks. Spaces
    that a folded YAML line left between Japanese characters are removed first."""
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
    for i, paragraph in enumerate(text.split("\n")):
        if i:
            yield Token("newline", "\n")
        for unit in units(paragraph):
            yield Token("space", " ") if unit == " " else Token("text", unit)


def units(text: str) -> list[str]:
    """One paragraph as unbreakable units and single spaces (`" "`): a line may break at
    a space and between two units, nowhere else. Japanese breaks between BudouX phrases,
    English at spaces and after the hyphen of a hyphenated word, never inside a word;
    a word joiner (U+2060) joins the units on either side of it."""
    if WORD_JOINER not in text and not has_japanese(text):
        return _latin_units(text)
    return _general_units(text)


def _general_units(text: str) -> list[str]:
    pieces: list[str] = []
    for unit in breakable_units(unfold(text)):
        for part in _SPACES.split(unit):
            if not part:
                continue
            if part.isspace():
                if not pieces or pieces[-1] != " ":
                    pieces.append(" ")
            elif pieces and pieces[-1] != " " and _joined(pieces[-1][-1], part[0]):
                pieces[-1] += part
            else:
                pieces.append(part)
    # A one-character Japanese phrase ("番" of 毎手番, "か" of かがんで) is most often
    # BudouX cutting a word: it stays with its neighbour.
    i = 0
    while i < len(pieces) - 1:
        left, right = pieces[i], pieces[i + 1]
        if " " not in (left, right) and _one_japanese(left, right):
            pieces[i : i + 2] = [left + right]
        else:
            i += 1
    out: list[str] = []
    for piece in pieces:
        piece = piece.replace(WORD_JOINER, "")
        if not piece:
            continue
        out.extend([piece] if has_japanese(piece) else (p for p in _HYPHEN.split(piece) if p))
    return out


def _latin_units(text: str) -> list[str]:
    """`units` of a paragraph with no Japanese and no word joiner, the short way (most
    card text in English): words (split after the hyphen of a hyphenated word) and
    single spaces between them."""
    out: list[str] = []
    for part in _SPACES.split(text):
        if not part:
            continue
        if part.isspace():
            if not out or out[-1] != " ":
                out.append(" ")
        elif "-" in part:
            out.extend(p for p in _HYPHEN.split(part) if p)
        else:
            out.append(part)
    return out


def _one_japanese(left: str, right: str) -> bool:
    def single(piece: str) -> bool:
        return len(piece.replace(WORD_JOINER, "")) == 1 and has_japanese(piece)

    return (single(left) and has_japanese(right[0])) or (single(right) and has_japanese(left[-1]))


_SPACES = re.compile(r"(\s+)")
_HYPHEN = re.compile(r"(?<=[A-Za-z]-)(?=[A-Za-z])")  # after the hyphen in "face-down"


def _joined(before: str, after: str) -> bool:
    """Whether two characters must stay on one line: inside a Latin word or number, or
    kinsoku (a closing mark never starts a line, an opening one never ends one)."""
    if WORD_JOINER in (before, after):
        return True
    latin = not (has_japanese(before) or has_japanese(after))
    return latin or after in NO_LINE_START or before in NO_LINE_END


def _split_long(value: str) -> list[str]:
    """An over-long phrase as pieces a line may break between: single Japanese
    characters and whole Latin runs, with kinsoku (closing marks stay with the character
    before them, opening ones with the character after)."""
    pieces: list[str] = []
    for char in _CHARS.findall(value):
        if pieces and (char[0] in NO_LINE_START or pieces[-1][-1] in NO_LINE_END):
            pieces[-1] += char
        else:
            pieces.append(char)
    return pieces


_CHARS = re.compile(f"[^\\s{JA}]+|.", re.S)


def break_lines(
    tokens: list[Token], width: float, measure: Callable[[str], float], em: float
) -> list[list[Token]] | None:
    """Greedy line breaking between units, with kinsoku; a Japanese phrase wider than the
    box breaks inside; None when an English word (or an icon) is wider than the box."""

    def size(tok: Token) -> float:
        return em if tok.kind == "icon" else measure(tok.value)

    lines: list[list[Token]] = [[]]
    used = 0.0
    queue = list(reversed(tokens))
    while queue:
        tok = queue.pop()
        line = lines[-1]
        if tok.kind == "newline":
            lines.append([])
            used = 0.0
            continue
        if tok.kind == "space" and not line:
            continue
        w = size(tok)
        if w > width + 1e-9 and tok.kind == "text" and has_japanese(tok.value):
            pieces = _split_long(tok.value)
            if len(pieces) > 1:
                queue.extend(Token("text", p) for p in reversed(pieces))
                continue
        if used + w > width + 1e-9 and any(t.kind != "space" for t in line):
            if tok.kind == "space":
                lines.append([])
                used = 0.0
                continue
            carry: list[Token] = []
            # Oidashi: a line may not start with a closing mark, nor end with an opening one.
            if tok.kind == "text" and tok.value[0] in NO_LINE_START:
                # Pull down the previous unit too, and more while the carried part
                # would itself start with a closing mark (as in "）。").
                while len(line) > 1:
                    carry.insert(0, line.pop())
                    if not (carry[0].kind == "text" and carry[0].value[0] in NO_LINE_START):
                        break
            while len(line) > 1 and line[-1].kind == "text" and line[-1].value[-1] in NO_LINE_END:
                carry.insert(0, line.pop())
            while line and line[-1].kind == "space":
                line.pop()
            while carry and carry[0].kind == "space":
                carry.pop(0)
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
        at_size = _measured_at(measure, size)
        lines = break_lines(tokens, box_w, at_size, em)
        line_h = em * leading
        if lines is not None:
            block = (len(lines) - 1) * line_h + em
            if block <= box_h + 1e-9:
                if align == "center":
                    lines = balance_lines(tokens, box_w, at_size, em)
                return _place(
                    lines, box_w, box_h, size, em, line_h, block, align, valign, measure, ascent
                )
        if size <= min_pt + 1e-9:
            detail = "a word is wider than the box" if lines is None else f"{len(lines)} lines"
            raise TextDoesNotFit(f"{detail} at the minimum size {min_pt:g}pt")
        size = max(min_pt, size - 0.5)


def balance_lines(
    tokens: list[Token], width: float, measure: Callable[[str], float], em: float
) -> list[list[Token]]:
    """Centred text: each paragraph broken into as many lines as at the full width, but
    at the narrowest width that keeps that count, so the lines come out about equally
    long (no lone word or 扱う。 on a last line)."""
    paragraphs: list[list[Token]] = [[]]
    for tok in tokens:
        if tok.kind == "newline":
            paragraphs.append([])
        else:
            paragraphs[-1].append(tok)
    out: list[list[Token]] = []
    for paragraph in paragraphs:
        lines = break_lines(paragraph, width, measure, em)
        assert lines is not None  # the whole text fits at this width
        if len(lines) > 1:
            narrow, wide = 0.0, width
            for _ in range(16):
                middle = (narrow + wide) / 2
                trial = break_lines(paragraph, middle, measure, em)
                if trial is not None and len(trial) <= len(lines):
                    wide = middle
                else:
                    narrow = middle
            lines = break_lines(paragraph, wide, measure, em) or lines
        out.extend(lines)
    return out


def _measured_at(measure: Callable[[str, float], float], size: float) -> Callable[[str], float]:
    """`measure` at one size, each text measured once (a plain dict: making an lru_cache
    for each text fitted cost more than the measuring it saved)."""
    widths: dict[str, float] = {}

    def at_size(text: str) -> float:
        width = widths.get(text)
        if width is None:
            width = widths[text] = measure(text, size)
        return width

    return at_size


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
