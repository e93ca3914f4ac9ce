"""The floor: the peer deck drawn by a bare reportlab script, and nothing else.

    python floor.py --cards 200 --lang en --out DIR

The same cards as printgen and protograf print (deck.py): on A4, 3 x 3 cards a page with
their bleeds meeting, the colour to the bleed edge, a white rounded panel, the name and the
number in bold, a sentence wrapped greedily (at spaces, or between any two characters of
Japanese), crop marks around the grid; with --backs, each fronts page is followed by its
backs page.  No validation, no layout engine, no text fitting, no checklist, no card pages:
what drawing these cards costs at the least, which printgen's sheets are measured against.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import deck as d
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MARK_MM = 5.0  # crop mark length, outside the grid
MARK_GAP_MM = 1.0  # between the outer bleed edge and a mark


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Lines of `text` no wider than `width` points: at spaces if it has any, else anywhere."""
    words = text.split(" ") if " " in text else list(text)
    sep = " " if " " in text else ""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line}{sep}{word}" if line else word
        if line and pdfmetrics.stringWidth(candidate, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def in_card(
    x: float, top: float, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """A box (x, y, width, height in mm from the trim's top-left corner) of the card whose
    trim's top-left corner is (x, top), as reportlab's (x, y, width, height) in points."""
    return x + box[0] * mm, top - (box[1] + box[3]) * mm, box[2] * mm, box[3] * mm


def centred(c: Canvas, text: str, font: str, size: float, rect: tuple[float, ...]) -> None:
    """One line centred in rect (x, y, width, height), middle of the em on the middle."""
    bx, by, bw, bh = rect
    c.setFont(font, size)
    c.drawCentredString(bx + bw / 2, by + bh / 2 - 0.35 * size, text)


def bleed(c: Canvas, colour: str, x: float, top: float) -> None:
    """The card's colour over its trim and bleed."""
    b = d.BLEED_MM * mm
    c.setFillColor(colour)
    w, h = d.CARD_W_MM * mm + 2 * b, d.CARD_H_MM * mm + 2 * b
    c.rect(x - b, top - d.CARD_H_MM * mm - b, w, h, stroke=0, fill=1)


def draw_card(c: Canvas, card: d.Card, x: float, top: float) -> None:
    """One card's face whose trim's top-left corner is (x, top), in points (y grows up)."""
    bleed(c, card.colour, x, top)
    c.setFillColor(d.PAPER)
    c.roundRect(*in_card(x, top, d.PANEL), d.PANEL_RADIUS_MM * mm, stroke=0, fill=1)
    c.setFillColor(card.colour)
    centred(c, card.name, "bold", d.NAME_PT, in_card(x, top, d.NAME_BOX))
    centred(c, str(card.n), "bold", d.NUMBER_PT, in_card(x, top, d.NUMBER_BOX))
    c.setFillColor(d.INK)
    c.setFont("regular", d.TEXT_PT)
    bx, by, bw, bh = in_card(x, top, d.TEXT_BOX)
    baseline = by + bh - d.TEXT_PT
    for line in wrap(card.sentence, "regular", d.TEXT_PT, bw):
        c.drawString(bx, baseline, line)
        baseline -= d.TEXT_PT * d.LEADING


def draw_back(c: Canvas, x: float, top: float) -> None:
    """The back every card shares, placed as draw_card places a face."""
    bleed(c, d.BACK_COLOUR, x, top)
    c.setStrokeColor(d.PAPER)
    c.setLineWidth(d.BACK_FRAME_WIDTH_MM * mm)
    c.roundRect(*in_card(x, top, d.BACK_FRAME), d.BACK_FRAME_RADIUS_MM * mm, stroke=1, fill=0)
    c.setFillColor(d.PAPER)
    centred(c, d.BACK_TITLE, "bold", d.BACK_TITLE_PT, in_card(x, top, d.BACK_TITLE_BOX))


def crop_marks(c: Canvas, left: float, top: float) -> None:
    """Marks in line with every trim edge, outside the grid's bleed."""
    gap, b, length = MARK_GAP_MM * mm, d.BLEED_MM * mm, MARK_MM * mm
    pitch_x, pitch_y = (d.CARD_W_MM + 2 * d.BLEED_MM) * mm, (d.CARD_H_MM + 2 * d.BLEED_MM) * mm
    right = left + d.COLS * pitch_x - 2 * b
    bottom = top - d.ROWS * pitch_y + 2 * b
    c.setLineWidth(0.25)
    c.setStrokeColor("#000000")
    for col in range(d.COLS):
        for edge in (left + col * pitch_x, left + col * pitch_x + d.CARD_W_MM * mm):
            c.line(edge, top + b + gap, edge, top + b + gap + length)
            c.line(edge, bottom - b - gap, edge, bottom - b - gap - length)
    for row in range(d.ROWS):
        for edge in (top - row * pitch_y, top - row * pitch_y - d.CARD_H_MM * mm):
            c.line(left - b - gap, edge, left - b - gap - length, edge)
            c.line(right + b + gap, edge, right + b + gap + length, edge)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--fonts", type=Path, required=True, help="folder of the TTF files")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder of peer-floor.pdf")
    parser.add_argument(
        "--backs", action="store_true", help="a backs page after each fronts page (long edge)"
    )
    args = parser.parse_args()

    pdfmetrics.registerFont(TTFont("regular", str(args.fonts / d.FONT_REGULAR)))
    pdfmetrics.registerFont(TTFont("bold", str(args.fonts / d.FONT_BOLD)))
    page_w, page_h = d.PAPER_MM[0] * mm, d.PAPER_MM[1] * mm
    c = Canvas(str(args.out / "peer-floor.pdf"), pagesize=(page_w, page_h))
    pitch_x, pitch_y = (d.CARD_W_MM + 2 * d.BLEED_MM) * mm, (d.CARD_H_MM + 2 * d.BLEED_MM) * mm
    left = (page_w - d.COLS * pitch_x) / 2 + d.BLEED_MM * mm
    top = page_h - (page_h - d.ROWS * pitch_y) / 2 - d.BLEED_MM * mm
    per_page = d.COLS * d.ROWS
    the_cards = d.cards(args.cards, args.lang)
    for start in range(0, len(the_cards), per_page):
        page = the_cards[start : start + per_page]
        for i, card in enumerate(page):
            row, col = divmod(i, d.COLS)
            draw_card(c, card, left + col * pitch_x, top - row * pitch_y)
        crop_marks(c, left, top)
        c.showPage()
        if args.backs:  # flipped on the long edge: columns mirrored
            for i in range(len(page)):
                row, col = divmod(i, d.COLS)
                draw_back(c, left + (d.COLS - 1 - col) * pitch_x, top - row * pitch_y)
            crop_marks(c, left, top)
            c.showPage()
    c.save()


if __name__ == "__main__":
    main()
