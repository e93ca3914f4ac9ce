"""Tabletop Simulator export (`printgen build --tts`): deck sheets, boards, tokens and a
"Saved Objects" file that Tabletop Simulator loads.

What Tabletop Simulator reads, as found in public material (no official schema exists):

- A saved object is a save file with its outer fields empty and the objects in
  `ObjectStates` (TTS Mod Manager, "saved-object-feature.md", argonui/TTSModManager).
- A custom deck is an object named "DeckCustom" with `DeckIDs` (one per card, in deck
  order, each `deck id * 100 + index in the sheet`), `CustomDeck` ({"<id>": {"FaceURL",
  "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}}) and
  `ContainedObjects` (one "Card" per card with its `CardID`); see the exports of
  1j01/card-game-generator (e.g. 1j01/systemocracy data/export/Systemocracy.json, a 10 x 7
  sheet) and @typed-tabletop-simulator/lib (forge/deck.js: Type, UniqueBack, BackIsHidden).
- A sheet has at most 10 columns and 7 rows; 69 different cards at most, since the last
  cell of the grid is the hidden card's face (shown for cards in another player's hand
  when `BackIsHidden` is false); with `BackIsHidden` true the back is shown instead.
  `UniqueBack` makes `BackURL` a sheet in the same grid, one back per card.
- "Custom_Board" and "Custom_Token" objects take their picture in `CustomImage.ImageURL`
  (a token's outline is the picture's opaque part, hence the transparent corners of round
  tokens), `ImageSecondaryURL` for the other side.
- Images: Tabletop Simulator loads a URL (http(s), its Steam Cloud) or a file of its
  `Mods/Images` folder named by its file name alone ("Modding File Management - Creating
  mods that last forever", a Steam guide); a `file:///` path works only on the machine
  that made it. The JSON names each image by its file name (prefixed with the game's id,
  so the games' images can share that folder): copy `tts/*.png` into
  `Tabletop Simulator/Mods/Images/`, or upload them and replace each name by its URL.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from PIL import Image, ImageDraw

from printgen.errors import PrintgenError
from printgen.model import Piece
from printgen.ops import Face
from printgen.pdfdraw import face_form_name
from printgen.raster import draw_face

MAX_COLUMNS = 10
MAX_ROWS = 7
MIN_GRID = 2  # Tabletop Simulator's deck import takes 2 to 10 columns and 2 to 7 rows
MAX_SHEET_PX = 4096  # widest (and tallest) sheet
MAX_IMAGE_PX = 4096  # longest side of a board's or token's picture
DECK_KINDS = ("card", "tile")
BOARD_KINDS = ("board", "mat")
TOKEN_KINDS = ("token", "marker", "pawn")
HIDDEN_GREY = (128, 128, 128)
CARD_MM = 63.0  # a deck at scale 1 shows cards of about this width
SUPERSAMPLE = 2  # faces are drawn at twice the sheet's resolution, then scaled down


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int

    @property
    def hidden(self) -> int:
        """The hidden card's cell: the grid's last."""
        return self.columns * self.rows - 1


def grid_for(cards: int) -> Grid:
    """A sheet grid (at most 10 x 7, at least 2 x 2) holding `cards` cards and the hidden card
    after them: as few rows as that takes, and as few columns on those rows."""
    if not 1 <= cards <= MAX_COLUMNS * MAX_ROWS - 1:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS - 1} cards, not {cards}")
    rows = max(MIN_GRID, math.ceil((cards + 1) / MAX_COLUMNS))
    return Grid(max(MIN_GRID, math.ceil((cards + 1) / rows)), rows)


def cell_size(face: Face, grid: Grid, dpi: int) -> tuple[int, int]:
    """A card's pixels on its sheet: its trim size at `dpi`, scaled down (aspect kept) so the
    sheet stays within 4096 px each way."""
    w = face.width * dpi / 25.4
    h = face.height * dpi / 25.4
    scale = min(1.0, (MAX_SHEET_PX // grid.columns) / w, (MAX_SHEET_PX // grid.rows) / h)
    return max(1, math.floor(w * scale)), max(1, math.floor(h * scale))


def trim_image(face: Face, size: tuple[int, int], supersample: int = SUPERSAMPLE) -> Image.Image:
    """The face's trim area (no bleed) at `size` pixels: drawn at `supersample` times the
    resolution that size means, cut to the trim line, scaled down."""
    dpi = size[0] / face.width * 25.4 * supersample
    drawn = draw_face(face, max(1, round(dpi)))
    scale = round(dpi) / 25.4
    box = (
        round(face.bleed * scale),
        round(face.bleed * scale),
        round((face.bleed + face.width) * scale),
        round((face.bleed + face.height) * scale),
    )
    return drawn.crop(box).resize(size, Image.Resampling.LANCZOS)


def image_size(face: Face, dpi: int) -> tuple[int, int]:
    """A board's or token's picture: its trim size at `dpi`, its longest side 4096 px at most."""
    w = face.width * dpi / 25.4
    h = face.height * dpi / 25.4
    scale = min(1.0, MAX_IMAGE_PX / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


def round_cut(image: Image.Image) -> Image.Image:
    """A round token: transparent outside the ellipse (its outline in Tabletop Simulator)."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, image.width - 1, image.height - 1), fill=255)
    out = image.convert("RGBA")
    out.putalpha(mask)
    return out


def png(image: Image.Image) -> bytes:
    """PNG bytes with no timestamp or other varying chunk: equal images, equal bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


# --- what goes where ---------------------------------------------------------------------------


@dataclass
class Sheet:
    """One CustomDeck: up to 69 pieces' faces on a grid, and their backs."""

    number: int  # the CustomDeck id
    pieces: list[Piece]
    grid: Grid
    cell: tuple[int, int]
    face_file: str
    back_file: str
    unique_back: bool


@dataclass
class DeckPlan:
    name: str
    nickname: str
    kind: str
    width_mm: float
    sheets: list[Sheet] = field(default_factory=list)


def deck_groups(
    pieces: list[Piece], size: Callable[[Piece], tuple[float, float]]
) -> list[tuple[str, list[Piece]]]:
    """Cards and tiles grouped into decks: by kind, deck and size, in the game's order."""
    groups: dict[tuple[str, str, tuple[float, float]], list[Piece]] = {}
    for piece in pieces:
        if piece.kind in DECK_KINDS and piece.count > 0:
            w, h = size(piece)
            key = (piece.kind, piece.deck.id if piece.deck else "", (round(w, 3), round(h, 3)))
            groups.setdefault(key, []).append(piece)
    named: list[tuple[str, list[Piece]]] = []
    seen: set[str] = set()
    for (kind, deck, (w, h)), members in groups.items():
        name = f"{deck or kind}"
        if name in seen:
            name = f"{name}-{kind}-{w:g}x{h:g}"
        seen.add(name)
        named.append((name, members))
    return named


def guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID (Tabletop Simulator's form) per object."""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:6]


def transform(x: float, z: float, scale: float = 1.0, face_down: bool = False) -> dict[str, float]:
    return {
        "posX": round(x, 3),
        "posY": 1.0,
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(scale, 4),
        "scaleY": 1.0,
        "scaleZ": round(scale, 4),
    }


def base_object(name: str, nickname: str, place: dict[str, float], key: str) -> dict[str, Any]:
    return {
        "GUID": guid(name, key),
        "Name": name,
        "Transform": place,
        "Nickname": nickname,
        "Description": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
    }


def piece_name(piece: Piece, with_deck: bool = False) -> str:
    """The piece's name in both languages (and its deck's, for a piece on its own: the red
    and the blue HIT tokens are told apart)."""
    name = piece.component.name
    text = name.en if name.en == name.ja else f"{name.en} / {name.ja}"
    deck = piece.deck
    if with_deck and deck is not None:
        text += f" ({deck.name.en if deck.name.en == deck.name.ja else deck.name.en + ' / ' + deck.name.ja})"
    return text


def deck_object(plan: DeckPlan, x: float) -> dict[str, Any]:
    """The DeckCustom: its cards in deck order, every copy (a one-card deck is a Card)."""
    scale = plan.width_mm / CARD_MM
    custom: dict[str, dict[str, Any]] = {}
    cards: list[dict[str, Any]] = []
    for sheet in plan.sheets:
        entry = {
            "FaceURL": sheet.face_file,
            "BackURL": sheet.back_file,
            "NumWidth": sheet.grid.columns,
            "NumHeight": sheet.grid.rows,
            "BackIsHidden": True,
            "UniqueBack": sheet.unique_back,
            "Type": 0,
        }
        custom[str(sheet.number)] = entry
        for index, piece in enumerate(sheet.pieces):
            for copy in range(1, piece.count + 1):
                card = base_object(
                    "Card", piece_name(piece), transform(x, 0.0, scale, True), f"{piece.id}-{copy}"
                )
                card["CardID"] = sheet.number * 100 + index
                card["CustomDeck"] = {str(sheet.number): entry}
                card["Description"] = piece.id
                cards.append(card)
    if len(cards) == 1:  # Tabletop Simulator has no one-card deck: a Card
        return {**cards[0], "Nickname": piece_name(plan.sheets[0].pieces[0], True)}
    deck = base_object("DeckCustom", plan.nickname, transform(x, 0.0, scale, True), plan.name)
    deck["SidewaysCard"] = False
    deck["DeckIDs"] = [c["CardID"] for c in cards]
    deck["CustomDeck"] = custom
    deck["ContainedObjects"] = cards
    return deck


def board_object(
    piece: Piece, w: float, image: str, back: str, x: float, z: float
) -> dict[str, Any]:
    obj = base_object("Custom_Board", piece_name(piece, True), transform(x, z, w / 254.0), piece.id)
    obj["Description"] = piece.id
    obj["CustomImage"] = {
        "ImageURL": image,
        "ImageSecondaryURL": back,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
    }
    return obj


def token_object(
    piece: Piece, w: float, image: str, back: str, x: float, z: float, copy: int
) -> dict[str, Any]:
    obj = base_object(
        "Custom_Token", piece_name(piece, True), transform(x, z, w / 25.4), f"{piece.id}-{copy}"
    )
    obj["Description"] = piece.id
    obj["CustomImage"] = {
        "ImageURL": image,
        "ImageSecondaryURL": back,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomToken": {
            "Thickness": 0.2,
            "MergeDistancePixels": 15.0,
            "StandUp": piece.kind == "pawn",
            "Stackable": piece.kind != "pawn",
        },
    }
    return obj


def saved_object(objects: list[dict[str, Any]], title: str) -> bytes:
    """The "Saved Objects" file: a save with its outer fields empty, keys in a fixed order."""
    data = {
        "SaveName": title,
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": objects,
    }
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# --- writing -----------------------------------------------------------------------------------


class Writer(Protocol):
    """Where write_tts puts its files (build.Staging): a file kept from the last build when
    made from the same inputs, else written."""

    def reuse(self, rel: str, inputs: str) -> bool: ...

    def put(self, rel: str, data: bytes, entry: dict[str, Any], inputs: str = "") -> None: ...


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = repr(part).encode("utf-8")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def write_tts(
    staging: Writer,
    game_id: str,
    title: str,
    pieces: list[Piece],
    faces: dict[str, Face],
    lang: str,
    size: Callable[[Piece], tuple[float, float]],
    dpi: int,
    faces_base: str,
    progress: Callable[[str, int], None],
) -> None:
    """Write tts/: deck sheets and backs, boards, tokens and tts/<game>.json into `staging`
    (a build.Staging: each image is kept from the last build when made from the same
    faces), each listed in the manifest as `tts-sheet` or `tts-json`."""
    folder = "tts"

    def key(piece: Piece, side: str) -> str | None:
        k = f"{piece.id}.{side}.{lang}"
        return k if k in faces else None

    def made_of(*parts: object) -> str:
        return _digest(faces_base, "tts", *parts)

    used: set[str] = set()

    def image_file(
        name: str, inputs: str, draw: Callable[[], Image.Image], entry: dict[str, Any]
    ) -> str:
        rel = f"{folder}/{game_id}-{name}.png"
        if rel in used:  # deck and piece ids cannot make one name twice; guard all the same
            raise PrintgenError(
                f"{game_id}: two Tabletop Simulator images would both be {rel}: give the decks "
                "or components behind them different ids"
            )
        used.add(rel)
        if not staging.reuse(rel, inputs):
            picture = draw()
            full = {"kind": "tts-sheet", **entry, "size_px": [picture.width, picture.height]}
            staging.put(rel, png(picture), full, inputs)
        return rel.rsplit("/", 1)[1]

    objects: list[dict[str, Any]] = []
    x = 0.0
    number = 0
    for name, members in deck_groups(pieces, size):
        first = faces[f"{members[0].id}.front.{lang}"]
        plan = DeckPlan(name, _deck_nickname(members, name), members[0].kind, first.width)
        per_sheet = MAX_COLUMNS * MAX_ROWS - 1
        chunks = [members[i : i + per_sheet] for i in range(0, len(members), per_sheet)]
        for k, chunk in enumerate(chunks, start=1):
            number += 1
            grid = grid_for(len(chunk))
            cell = cell_size(first, grid, dpi)
            fronts = [faces[f"{p.id}.front.{lang}"] for p in chunk]
            back_keys = [key(p, "back") for p in chunk]
            backs = [faces[b] if b else None for b in back_keys]
            drawn_backs = {face_form_name(b) if b else "" for b in backs}
            unique = len(drawn_backs) > 1
            suffix = f"-{k}" if len(chunks) > 1 else ""
            shared_back = next((b for b in backs if b is not None), None)

            hidden = None if unique else shared_back
            face_file = image_file(
                f"{name}.deck-faces{suffix}",
                made_of(
                    "faces",
                    [(f.width, f.height, face_form_name(f)) for f in fronts],
                    face_form_name(hidden) if hidden else "",
                    grid,
                    cell,
                ),
                partial(_sheet, fronts, grid, cell, hidden),
                {
                    "role": "faces",
                    "deck": name,
                    "columns": grid.columns,
                    "rows": grid.rows,
                    "cards": [p.id for p in chunk],
                    "hidden_cell": grid.hidden,
                },
            )
            if unique:
                back_file = image_file(
                    f"{name}.deck-backs{suffix}",
                    made_of("backs", [face_form_name(b) if b else "" for b in backs], grid, cell),
                    partial(_sheet, backs, grid, cell, None),
                    {
                        "role": "backs",
                        "deck": name,
                        "columns": grid.columns,
                        "rows": grid.rows,
                        "cards": [p.id for p in chunk],
                    },
                )
            else:
                back_file = image_file(
                    f"{name}.deck-back{suffix}",
                    made_of("back", face_form_name(shared_back) if shared_back else "", cell),
                    partial(_card_image, shared_back, cell),
                    {"role": "back", "deck": name},
                )
            plan.sheets.append(Sheet(number, chunk, grid, cell, face_file, back_file, unique))
            progress(f"{game_id}: Tabletop Simulator sheets", 0)
        objects.append(deck_object(plan, x))
        x += plan.width_mm / CARD_MM * 3.0

    z = -12.0
    x = 0.0
    for piece in pieces:
        if piece.kind not in BOARD_KINDS + TOKEN_KINDS or piece.count < 1:
            continue
        front = faces[f"{piece.id}.front.{lang}"]
        back_key = key(piece, "back")
        round_piece = piece.component.cut == "circle" and piece.kind in TOKEN_KINDS
        role = "board" if piece.kind in BOARD_KINDS else "token"

        def inputs(face: Face, role: str = role, round_piece: bool = round_piece) -> str:
            return made_of(role, face.width, face.height, face_form_name(face), round_piece, dpi)

        image = image_file(
            f"{piece.id}",
            inputs(front),
            partial(_piece_image, front, dpi, round_piece),
            {"role": role, "component": piece.id},
        )
        back = ""
        if back_key:
            bface = faces[back_key]
            back = image_file(
                f"{piece.id}.back",
                inputs(bface),
                partial(_piece_image, bface, dpi, round_piece),
                {"role": f"{role}-back", "component": piece.id},
            )
        w = size(piece)[0]
        if role == "board":
            objects.append(board_object(piece, w, image, back, x, z))
        elif piece.count == 1:
            objects.append(token_object(piece, w, image, back, x, z, 1))
        else:
            bag = base_object("Bag", piece_name(piece, True), transform(x, z), f"{piece.id}-bag")
            bag["Description"] = f"{piece.id} x {piece.count}"
            bag["ContainedObjects"] = [
                token_object(piece, w, image, back, x, z, copy)
                for copy in range(1, piece.count + 1)
            ]
            objects.append(bag)
        x += max(w / 25.4, 2.0) + 1.0
        progress(f"{game_id}: Tabletop Simulator pieces", 0)

    data = saved_object(objects, title)
    staging.put(
        f"{folder}/{game_id}.json",
        data,
        {"kind": "tts-json", "objects": len(objects)},
        _digest(data),
    )


def _card_image(face: Face | None, cell: tuple[int, int]) -> Image.Image:
    """A card's cell: its face, or plain grey for none."""
    return trim_image(face, cell) if face is not None else Image.new("RGB", cell, HIDDEN_GREY)


def _piece_image(face: Face, dpi: int, round_piece: bool) -> Image.Image:
    """A board's or token's picture (a round token's corners transparent)."""
    image = trim_image(face, image_size(face, dpi), 1)
    return round_cut(image) if round_piece else image


def _deck_nickname(members: list[Piece], name: str) -> str:
    deck = members[0].deck
    if deck is None:
        return name
    return deck.name.en if deck.name.en == deck.name.ja else f"{deck.name.en} / {deck.name.ja}"


def _sheet(
    faces: list[Face] | list[Face | None],
    grid: Grid,
    cell: tuple[int, int],
    hidden: Face | None,
) -> Image.Image:
    """A sheet: each face in its cell, left to right and top to bottom; the hidden card's
    cell holds `hidden` (the deck's back) or plain grey; unused cells are white."""
    cw, ch = cell
    sheet = Image.new("RGB", (cw * grid.columns, ch * grid.rows), "white")
    drawn: dict[str, Image.Image] = {}
    for index, face in enumerate(faces):
        if face is None:
            picture = Image.new("RGB", cell, HIDDEN_GREY)
        else:
            name = face_form_name(face)
            if name not in drawn:
                drawn[name] = trim_image(face, cell)
            picture = drawn[name]
        sheet.paste(picture, ((index % grid.columns) * cw, (index // grid.columns) * ch))
    last = grid.hidden
    filler = trim_image(hidden, cell) if hidden is not None else Image.new("RGB", cell, HIDDEN_GREY)
    sheet.paste(filler, ((last % grid.columns) * cw, (last // grid.columns) * ch))
    return sheet
