"""Pictures made from the game's own pieces: the small pictures of cards in example
diagrams, the cover (the pieces laid out as on a table), and deck colours as inks."""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from printgen.errors import PrintgenError
from printgen.layouts import LayoutLibrary
from printgen.ops import Face
from printgen.rulebook.book import Rulebook
from printgen.rulebook.diagrams import picture_key, remembered, stored
from printgen.templating import suggestion


def ink(colour: str) -> str:
    """A deck's colour as a line on white paper: a very light colour (a white player) is
    darkened until it shows."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    if 0.299 * r + 0.587 * g + 0.114 * b < 170:
        return colour
    return "#{:02x}{:02x}{:02x}".format(*(round(v * 0.55) for v in (r, g, b)))


PIECE_DPI = 120  # a piece drawn in a diagram is a few millimetres wide: 120 DPI is plenty
PIECES_KEPT = 512  # pieces' pictures kept between builds of one process (printgen watch)
_drawn_pieces: OrderedDict[str, Image.Image] = OrderedDict()


class PieceImages:
    """Pictures of pieces for example diagrams, by piece id (or a component id: its first
    piece), front or back, in a language: the trim area at the diagrams' resolution. `key`
    names what a picture is drawn from (the diagrams that show it are kept by it); a
    picture drawn from the same face is drawn once per process."""

    def __init__(
        self, lib: LayoutLibrary, rb: Rulebook, drawn: Mapping[str, Face] | None = None
    ) -> None:
        self.lib = lib
        self.game = rb.game
        self.drawn = drawn or {}  # faces drawn already, by their request's key
        self.faces: dict[tuple[str, bool, str], tuple[Face, str]] = {}
        # The printed pieces, then those with no copies at this rule version (an example of
        # an older version shows its cards: torpedo D of the first rules).
        pieces = self.game.pieces + (self.game.defined or [])
        self.by_id: dict[str, Any] = {}
        for p in pieces:
            self.by_id.setdefault(p.id, p)
        for p in pieces:
            self.by_id.setdefault(p.component.id, p)

    def face(self, piece_id: str, back: bool, lang: str) -> tuple[Face, str]:
        """The face drawn and its key."""
        from printgen.render import FaceRequest, face_for

        wanted = (piece_id, back, lang)
        if wanted not in self.faces:
            piece = self.by_id.get(piece_id)
            if piece is None:
                raise PrintgenError(
                    f"{self.game.id}'s engine draws piece '{piece_id}', which is not in its "
                    f"components{suggestion(piece_id, sorted(self.by_id))}"
                )
            side = "back" if back and piece.back_layout else "front"
            face = face_for(self.lib, self.game, FaceRequest(piece, side, lang), self.drawn)
            self.faces[wanted] = (face, picture_key("piece", PIECE_DPI, face))
        return self.faces[wanted]

    def key(self, piece_id: str, back: bool, lang: str) -> str:
        return self.face(piece_id, back, lang)[1]

    def size(self, piece_id: str, back: bool, lang: str) -> tuple[int, int]:
        """The picture's size in pixels, known without drawing it (a diagram's rows are
        sized by its pieces' pictures also when the diagram itself is in the cache)."""
        from printgen.raster import pixel_size

        face = self.face(piece_id, back, lang)[0]
        width, height = pixel_size(face, PIECE_DPI)
        px = _bleed_pixels(face)
        return width - 2 * px, height - 2 * px

    def __call__(self, piece_id: str, back: bool, lang: str) -> Image.Image:
        from printgen.raster import draw_face

        face, key = self.face(piece_id, back, lang)
        image = _drawn_pieces.get(key)
        if image is None:
            drawn = draw_face(face, PIECE_DPI)
            px = _bleed_pixels(face)
            image = drawn.crop((px, px, drawn.width - px, drawn.height - px))
            _drawn_pieces[key] = image
            while len(_drawn_pieces) > PIECES_KEPT:
                _drawn_pieces.popitem(last=False)
        else:
            _drawn_pieces.move_to_end(key)
        return image


def _bleed_pixels(face: Face) -> int:
    """The bleed's width in the picture's pixels (the picture is the trim area)."""
    return round(face.bleed * PIECE_DPI / 25.4)


def piece_images(
    lib: LayoutLibrary, rb: Rulebook, drawn: Mapping[str, Face] | None = None
) -> PieceImages:
    """The pictures of the game's pieces for example diagrams (see PieceImages)."""
    return PieceImages(lib, rb, drawn)


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
    back_face = render_face(lib, game, FaceRequest(big[0], "front", "ja")) if big else None
    fan = [render_face(lib, game, FaceRequest(p, "front", "ja")) for p in small[:7]]

    def make() -> bytes:
        canvas_w, canvas_h = 120.0, 80.0
        k = dpi / 25.4
        out = Image.new("RGB", (round(canvas_w * k), round(canvas_h * k)), "#f4f1ea")

        def pic(face: Face) -> Image.Image:
            im = draw_face(face, dpi)
            px = round(face.bleed * k)
            return im.crop((px, px, im.width - px, im.height - px)).convert("RGBA")

        if back_face is not None:
            im = pic(back_face)
            fit = min(canvas_w * 0.95 * k / im.width, canvas_h * 0.95 * k / im.height)
            im = im.resize(
                (round(im.width * fit), round(im.height * fit)), Image.Resampling.LANCZOS
            )
            out.paste(im, ((out.width - im.width) // 2, (out.height - im.height) // 2))
        n = len(fan)
        for j, face in enumerate(fan):
            im = pic(face)
            fit = (canvas_h * 0.5 * k) / max(im.width, im.height)
            im = im.resize(
                (round(im.width * fit), round(im.height * fit)), Image.Resampling.LANCZOS
            )
            angle = (j - (n - 1) / 2) * -9.0
            rotated = im.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
            cx = out.width / 2 + (j - (n - 1) / 2) * out.width * 0.11
            cy = out.height * 0.52 + abs(j - (n - 1) / 2) ** 2 * out.height * 0.015
            out.paste(
                rotated, (round(cx - rotated.width / 2), round(cy - rotated.height / 2)), rotated
            )
        buf = io.BytesIO()
        out.save(buf, format="JPEG", quality=88, optimize=False)
        return buf.getvalue()

    data = remembered(picture_key("cover", dpi, back_face, fan), make)
    return stored(data, "jpg", pictures)
