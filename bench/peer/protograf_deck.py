"""The peer deck as a protograf script (run by protograf's own virtual environment).

    python protograf_deck.py --cards 200 --lang en --out DIR

Written as a protograf user would write it: Create, Data (one row per card), Deck (poker
cards, 3 x 3 on A4, 3 mm bleed between them, grid marks as crop marks), Card with
templated text, Save.  protograf finds fonts by family name among the installed ones, so
the benchmark puts BIZ UDPGothic in the HOME it gives this process (~/.fonts).
"""

from __future__ import annotations

import argparse
import sys

import deck as d

# fontconfig lists the family under its English or its Japanese name, depending on the
# machine's locale; protograf takes the first name it finds.
REGULAR = ["BIZ UDPGothic", "BIZ UDPゴシック"]
BOLD = ["BIZ UDPGothic Bold", "BIZ UDPゴシック Bold"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--out", default=".", help="folder of the PDF (peer-protograf.pdf)")
    parser.add_argument("--backs", action="store_true", help="a backs page after each fronts page")
    args = parser.parse_args()
    sys.argv = sys.argv[:1]  # Create() parses the command line for its own options

    from protograf import Card, CardBack, Create, Data, Deck, Save, T, rectangle, text

    gap = 2 * d.BLEED_MM  # the bleeds of neighbouring cards meet
    margin_x = (d.PAPER_MM[0] - d.COLS * d.CARD_W_MM - (d.COLS - 1) * gap) / 2
    margin_y = (d.PAPER_MM[1] - d.ROWS * d.CARD_H_MM - (d.ROWS - 1) * gap) / 2
    Create(
        filename="peer-protograf.pdf",
        paper="A4",
        units="mm",
        margin_left=margin_x,
        margin_right=margin_x,
        margin_top=margin_y,
        margin_bottom=margin_y,
    )
    the_cards = d.cards(args.cards, args.lang)
    Data(data_list=[["n", "name", "sentence"]] + [[c.n, c.name, c.sentence] for c in the_cards])
    Deck(
        width=d.CARD_W_MM,
        height=d.CARD_H_MM,
        rows=d.ROWS,
        cols=d.COLS,
        spacing=gap,
        fill=None,
        stroke=None,
        grid_marks=True,
    )

    def text_in(content: object, box: tuple[float, float, float, float], **style: object) -> object:
        """A text element filling `box` (x, y, width, height in mm), wrapped inside it."""
        x, y, width, height = box
        return text(text=content, x=x, y=y, width=width, height=height, wrap=True, **style)

    def heading(
        content: object, box: tuple[float, float, float, float], size: float, colour: str
    ) -> object:
        return text_in(
            content,
            box,
            align="centre",
            valign="centre",
            font_name=BOLD,
            font_size=size,
            stroke=colour,
        )

    def rect_in(box: tuple[float, float, float, float], **style: object) -> object:
        """A rectangle on `box` (x, y, width, height in mm from the card's top-left corner)."""
        x, y, width, height = box
        return rectangle(x=x, y=y, width=width, height=height, **style)

    bleed = d.BLEED_MM
    whole = (-bleed, -bleed, d.CARD_W_MM + 2 * bleed, d.CARD_H_MM + 2 * bleed)
    for colour in d.COLOURS:
        Card(
            [c.n for c in the_cards if c.colour == colour],
            rectangle(x=0, y=0, width=d.CARD_W_MM, height=d.CARD_H_MM, fill=colour, stroke=None),
            rect_in(d.PANEL, rounding=d.PANEL_RADIUS_MM, fill=d.PAPER, stroke=None),
            heading(T("{{ name }}"), d.NAME_BOX, d.NAME_PT, colour),
            heading(T("{{ n }}"), d.NUMBER_BOX, d.NUMBER_PT, colour),
            bleed_fill=colour,
            bleed=d.BLEED_MM,
        )
    Card(
        "all",
        text_in(
            T("{{ sentence }}"),
            d.TEXT_BOX,
            align="left",
            valign="top",
            font_name=REGULAR,
            font_size=d.TEXT_PT,
            line_height=d.LEADING,
            stroke=d.INK,
        ),
    )
    if args.backs:  # protograf puts each backs page after its fronts page, aligned
        CardBack(
            "all",
            rect_in(whole, fill=d.BACK_COLOUR, stroke=None),
            rect_in(
                d.BACK_FRAME,
                rounding=d.BACK_FRAME_RADIUS_MM,
                fill=None,
                stroke=d.PAPER,
                stroke_width=d.BACK_FRAME_WIDTH_MM * 72 / 25.4,
            ),
            heading(d.BACK_TITLE, d.BACK_TITLE_BOX, d.BACK_TITLE_PT, d.PAPER),
        )
    Save(directory=args.out)


if __name__ == "__main__":
    main()
