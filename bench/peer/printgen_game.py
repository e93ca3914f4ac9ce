"""The peer deck as a printgen game: a project folder a user could have written by hand.

`write_project(root, count, lang, backs)` makes `root/layouts/` (a copy of the repository's,
plus `peer/card.yaml` and `peer/back.yaml`) and `root/components/<game>/` (game.yaml and
cards.yaml), which `python -m printgen --root ROOT build <game>` builds like any game.  The
layouts' boxes and sizes come from deck.py, as the protograf and floor scripts' do.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import deck as d
import yaml

REPO = Path(__file__).resolve().parents[2]


def game_id(lang: str) -> str:
    return f"peer-deck-{lang}"


def _box(box: tuple[float, float, float, float]) -> list[str]:
    return [f"{v:g}mm" for v in box]


def layout() -> dict[str, Any]:
    """The card layout: colour to the bleed edge, panel, name, number, sentence."""
    colour = "{{ values.colour }}"
    return {
        "size": "poker",
        "bleed": "3mm",
        "safe": "3mm",
        "fonts": {"regular": "gothic", "bold": "gothic-bold"},
        "elements": [
            {"id": "frame", "type": "rect", "box": "bleed", "fill": colour},
            {
                "id": "panel",
                "type": "rect",
                "box": _box(d.PANEL),
                "fill": d.PAPER,
                "radius": f"{d.PANEL_RADIUS_MM:g}mm",
            },
            {
                "id": "name",
                "type": "text",
                "box": _box(d.NAME_BOX),
                "text": "{{ t(name) }}",
                "font": "bold",
                "size": f"{d.NAME_PT:g}pt",
                "align": "center",
                "valign": "middle",
                "colour": colour,
            },
            {
                "id": "number",
                "type": "text",
                "box": _box(d.NUMBER_BOX),
                "text": "{{ values.n }}",
                "font": "bold",
                "size": f"{d.NUMBER_PT:g}pt",
                "align": "center",
                "valign": "middle",
                "colour": colour,
            },
            {
                "id": "sentence",
                "type": "text",
                "box": _box(d.TEXT_BOX),
                "text": "{{ t(text) }}",
                "size": f"{d.TEXT_PT:g}pt",
                "leading": d.LEADING,
                "colour": d.INK,
            },
        ],
    }


def _dump(data: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    path.write_text(text, encoding="utf-8")


def back_layout() -> dict[str, Any]:
    """The back all cards share in the duplex case: dark, a white frame, a title."""
    return {
        "size": "poker",
        "bleed": "3mm",
        "fonts": {"regular": "gothic", "bold": "gothic-bold"},
        "elements": [
            {"id": "background", "type": "rect", "box": "bleed", "fill": d.BACK_COLOUR},
            {
                "id": "frame",
                "type": "rect",
                "box": _box(d.BACK_FRAME),
                "stroke": d.PAPER,
                "stroke_width": f"{d.BACK_FRAME_WIDTH_MM:g}mm",
                "radius": f"{d.BACK_FRAME_RADIUS_MM:g}mm",
            },
            {
                "id": "title",
                "type": "text",
                "box": _box(d.BACK_TITLE_BOX),
                "text": d.BACK_TITLE,
                "font": "bold",
                "size": f"{d.BACK_TITLE_PT:g}pt",
                "align": "center",
                "valign": "middle",
                "colour": d.PAPER,
            },
        ],
    }


def write_project(root: Path, count: int, lang: str, backs: bool = False) -> str:
    """Write the project under `root` (which must not exist yet); returns the game's id.
    With `backs`, the cards form one deck whose back is `peer/back`."""
    shutil.copytree(REPO / "layouts", root / "layouts")
    _dump(layout(), root / "layouts" / "peer" / "card.yaml")
    _dump(back_layout(), root / "layouts" / "peer" / "back.yaml")
    game = game_id(lang) + ("-duplex" if backs else "")
    info = {
        "id": game,
        "title": {"ja": "ピア・ベンチマーク", "en": "Peer benchmark"},
        "designer": {"ja": "printgen", "en": "printgen"},
        "players": {"min": 2, "max": 4},
        "play_time_min": 20,
        "rule_version": "1",
    }
    deck = {"deck": "peer"} if backs else {}
    components = [
        {
            "id": f"card-{card.n:04d}",
            "kind": "card",
            # Both languages say the same thing: the build prints `lang` only.
            "name": {"ja": card.name, "en": card.name},
            "layout": "peer/card",
            **deck,
            "values": {"n": card.n, "colour": card.colour},
            "text": {"ja": card.sentence, "en": card.sentence},
        }
        for card in d.cards(count, lang)
    ]
    decks = [
        {
            "id": "peer",
            "name": {"ja": "ピア", "en": "Peer"},
            "colour": d.BACK_COLOUR,
            "back": "peer/back",
        }
    ]
    _dump(info, root / "components" / game / "game.yaml")
    _dump(
        {"decks": decks if backs else [], "components": components},
        root / "components" / game / "cards.yaml",
    )
    return game
