"""The peer benchmark's deck, stated once for the three programs that print it.

printgen (as a game folder), protograf (as a script) and the raw reportlab floor all read
their cards and their geometry from here, so the three draw the same faces: a poker card
(63 x 88 mm, 3 mm bleed) in its deck's colour, a white rounded panel, the card's name in
bold and its colour, a large number, and a sentence of text; and, printed duplex, one back
for all.  The module uses the standard
library only: protograf's script imports it from protograf's own virtual environment.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD_W_MM, CARD_H_MM, BLEED_MM = 63.0, 88.0, 3.0
COLS, ROWS = 3, 3  # 9 cards a page, A4 portrait
PAPER_MM = (210.0, 297.0)
FONT_REGULAR = "BIZUDPGothic-Regular.ttf"  # in printgen's layouts/fonts/
FONT_BOLD = "BIZUDPGothic-Bold.ttf"
INK = "#222222"
PAPER = "#ffffff"
COLOURS = ("#1f3a66", "#a3262a", "#2e6b3a", "#a86b12")

# Boxes (x, y, width, height) in mm from the top-left corner of the trim.
PANEL = (3.0, 3.0, 57.0, 82.0)
PANEL_RADIUS_MM = 2.0
NAME_BOX = (5.0, 5.0, 53.0, 9.0)
NAME_PT = 11.0
NUMBER_BOX = (5.0, 18.0, 53.0, 24.0)
NUMBER_PT = 48.0
TEXT_BOX = (7.0, 48.0, 49.0, 30.0)
TEXT_PT = 9.0
LEADING = 1.3  # line pitch in font sizes

# The back every card shares (duplex case): dark to the bleed edge, a white frame, a title.
BACK_COLOUR = "#444444"
BACK_FRAME = (4.0, 4.0, 55.0, 80.0)
BACK_FRAME_RADIUS_MM = 3.0
BACK_FRAME_WIDTH_MM = 0.6
BACK_TITLE = "PEER"
BACK_TITLE_BOX = (8.0, 34.0, 47.0, 20.0)
BACK_TITLE_PT = 24.0


@dataclass(frozen=True)
class Card:
    """One card's printed values."""

    n: int
    name: str
    sentence: str
    colour: str


def cards(count: int, lang: str) -> list[Card]:
    """`count` distinct cards in English (`en`) or Japanese (`ja`), four colours in turn."""
    result = []
    for i in range(count):
        n, k = i + 1, 1 + i % 9
        if lang == "ja":
            name = f"指令カード{n:04d}"
            sentence = f"第{n}号の指令。相手の魚雷はダイスを{k}個減らして振る。"
        else:
            name = f"Order #{n:04d}"
            sentence = f"Order no. {n}: the torpedo facing this card rolls {k} fewer dice."
        result.append(Card(n, name, sentence, COLOURS[i % len(COLOURS)]))
    return result
