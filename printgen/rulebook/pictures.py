"""Pictures made from the game's own pieces: the small pictures of cards in example
diagrams, the cover (the pieces laid out as on a table), and deck colours as inks."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from printgen.errors import PrintgenError
from printgen.layouts import LayoutLibrary
from printgen.rulebook.book import Rulebook
from printgen.rulebook.diagrams import stored
from printgen.templating import suggestion


def ink(colour: str) -> str:
    """A deck's colour as a line on white paper: a very light colour (a white player) is
    darkened until it shows."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    if 0.299 * r + 0.587 * g + 0.114 * b < 170:
        return colour
    return "#{:02x}{:02x}{:02x}".format(*(round(v * 0.55) for v in (r, g, b)))


PIECE_DPI = 120  # a piece drawn in a diagram is a few millimetres wide: 120 DPI is plenty


def piece_images(lib: LayoutLibrary, rb: Rulebook) -> Callable[[str, bool, str], Image.Image]:
    """Pictures of pieces for example diagrams, by piece id (or a component id: its first
    piece), front or back, in a language: the trim area at the diagrams' resolution."""
    from printgen.raster import draw_face
    from printgen.render import FaceRequest, render_face

    game = rb.game
    cache: dict[tuple[str, bool, str], Image.Image] = {}
    by_id = {p.id: p for p in game.pieces}
    for p in game.pieces:
        by_id.setdefault(p.component.id, p)

    def image(piece_id: str, back: bool, lang: str) -> Image.Image:
        key = (piece_id, back, lang)
        if key not in cache:
            piece = by_id.get(piece_id)
            if piece is None:
                raise PrintgenError(
                    f"{game.id}'s engine draws piece '{piece_id}', which is not in its "
                    f"components{suggestion(piece_id, sorted(by_id))}"
                )
            side = "back" if back and piece.back_layout else "front"
            face = render_face(lib, game, FaceRequest(piece, side, lang))
            drawn = draw_face(face, PIECE_DPI)
            px = round(face.bleed * PIECE_DPI / 25.4)
            cache[key] = drawn.crop((px, px, drawn.width - px, drawn.height - px))
        return cache[key]

    return image


def cover_picture(lib: LayoutLibrary, rb: Rulebook, pictures: Path | None) -> str:
    """The cover: the game's own pieces laid out as on a table (the largest one, a board
    or mat, behind; a fan of different cards or tiles in front), as one image."""
    from printgen.raster import draw_face
    from printgen.render import FaceRequest, piece_size, render_face

    game = rb.game
    dpi = 110
    seen: dict[str, Any] = {}
    for piece in game.pieces:
        seen.setdefault(piece.component.id, piece)
    pieces = list(seen.values())

    def area(p: Any) -> float:
        w, h = piece_size(lib, p)
        return w * h

    pieces.sort(key=area, reverse=True)
    big = [p for p in pieces if area(p) > 150 * 150]
    small = [p for p in pieces if area(p) <= 150 * 150]
    # Variety first: one piece of each layout, then the rest.
    looks: dict[str, Any] = {}
    for p in small:
        looks.setdefault(p.component.layout, p)
    small = list(looks.values()) + [p for p in small if p not in looks.values()]
    canvas_w, canvas_h = 120.0, 80.0
    k = dpi / 25.4
    out = Image.new("RGB", (round(canvas_w * k), round(canvas_h * k)), "#f4f1ea")

    def pic(p: Any) -> Image.Image:
        face = render_face(lib, game, FaceRequest(p, "front", "ja"))
        im = draw_face(face, dpi)
        px = round(face.bleed * k)
        return im.crop((px, px, im.width - px, im.height - px)).convert("RGBA")

    if big:
        im = pic(big[0])
        fit = min(canvas_w * 0.95 * k / im.width, canvas_h * 0.95 * k / im.height)
        im = im.resize((round(im.width * fit), round(im.height * fit)), Image.Resampling.LANCZOS)
        out.paste(im, ((out.width - im.width) // 2, (out.height - im.height) // 2))
    fan = small[:7]
    n = len(fan)
    for j, p in enumerate(fan):
        im = pic(p)
        fit = (canvas_h * 0.5 * k) / max(im.width, im.height)
        im = im.resize((round(im.width * fit), round(im.height * fit)), Image.Resampling.LANCZOS)
        angle = (j - (n - 1) / 2) * -9.0
        rotated = im.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
        cx = out.width / 2 + (j - (n - 1) / 2) * out.width * 0.11
        cy = out.height * 0.52 + abs(j - (n - 1) / 2) ** 2 * out.height * 0.015
        out.paste(rotated, (round(cx - rotated.width / 2), round(cy - rotated.height / 2)), rotated)
    buf = io.BytesIO()
    out.save(buf, format="JPEG", quality=88, optimize=False)
    return stored(buf.getvalue(), "jpg", pictures)
