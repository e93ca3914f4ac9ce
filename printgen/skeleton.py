"""`printgen new GAME`: a game skeleton that builds at once and passes `printgen validate`.

The files are templates under `printgen/skeleton/` (`components/` for the game folder,
`layouts/` for its layouts), filled with `string.Template` from a few computed values (the
game id, the players, the card size's boxes, the first rule version's date), so the same
arguments give the same bytes. Every YAML file starts with the YAML language server's line
naming the JSON Schema of its kind in `schemas/`, relative to the file. The rulebook
sections start in sync (`translates:` set as `printgen rulebook-sync` sets it).
Nothing is overwritten: both folders are written beside their place and moved in whole.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

import yaml

from printgen.errors import PrintgenError, display_path
from printgen.layouts import PresetsFile
from printgen.rulebook.book import fingerprint
from printgen.source import load_yaml, validate

GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
MAX_ID_LENGTH = 40
# the smallest card the skeleton's face can hold (name, a star with the points, a text)
MIN_CARD_MM = (40.0, 60.0)
BOARD_MM = (420.0, 297.0)
MAX_PLAYERS = 8
MARKER_COLOURS = [
    ("#c0392b", "赤", "Red"),
    ("#2471a3", "青", "Blue"),
    ("#229954", "緑", "Green"),
    ("#d4ac0d", "黄", "Yellow"),
    ("#7d3c98", "紫", "Purple"),
    ("#ca6f1e", "橙", "Orange"),
    ("#17a589", "青緑", "Teal"),
    ("#566573", "灰", "Grey"),
]

# file in the skeleton -> (where it goes, under components/GAME or layouts/GAME; its kind)
GAME_FILES = [
    ("game.yaml", "game"),
    ("cards.yaml", "components"),
    ("board.yaml", "components"),
    ("rulebook/book.yaml", "book"),
    ("rulebook/overview.yaml", "section"),
    ("rulebook/how-to-play.yaml", "section"),
    ("rulebook/glossary.yaml", "glossary"),
    ("README.md", None),
]
LAYOUT_FILES = ["card.yaml", "back.yaml", "board.yaml", "token.yaml"]
SECTIONS = ["overview", "how-to-play"]


@dataclass(frozen=True)
class NewGame:
    """What `printgen new` was asked for."""

    game: str
    players: tuple[int, int] = (2, 4)
    card_size: str = "poker"
    date: str = ""  # of the first rule version; default: today


def parse_players(value: str) -> tuple[int, int]:
    """`3` or `2-4`: the players a game is for."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", value)
    if not match:
        raise PrintgenError(f"--players '{value}': give a number of players (3) or a range (2-4)")
    low = int(match[1])
    high = int(match[2]) if match[2] else low
    if not 1 <= low <= high <= MAX_PLAYERS:
        raise PrintgenError(
            f"--players '{value}': give players from 1 to {MAX_PLAYERS}, the smaller first "
            f"(the skeleton has one score marker per player, in {MAX_PLAYERS} colours)"
        )
    return (low, high)


def _mm(value: float) -> str:
    return f"{round(value, 2):g}mm"


def _pt(mm: float) -> str:
    return f"{round(mm * 72 / 25.4):d}pt"


def _check_date(value: str) -> str:
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise PrintgenError(f"--date '{value}': give a date as YYYY-MM-DD") from None
    return value


def _presets(root: Path) -> PresetsFile:
    layouts = root / "layouts"
    missing = [
        name
        for name in ("presets.yaml", "base/card.yaml", "base/back.yaml")
        if not (layouts / name).is_file()
    ]
    if missing:
        raise PrintgenError(
            f"{display_path(layouts)}/ has no {', '.join(missing)}: run printgen new in a "
            "project folder (one holding components/ and layouts/), or name it: "
            "printgen --root PROJECT_FOLDER new GAME"
        )
    doc = load_yaml(layouts / "presets.yaml", [layouts])
    return validate(PresetsFile, doc)


def check_request(root: Path, request: NewGame) -> tuple[float, float]:
    """Refuse what `new` cannot make, before writing anything; the card size in mm."""
    game = request.game
    if not GAME_ID.fullmatch(game) or len(game) > MAX_ID_LENGTH:
        raise PrintgenError(
            f"'{game}' is not a game id: use lower-case letters, digits and '-' (starting with "
            f"a letter or digit, at most {MAX_ID_LENGTH} characters), like 'my-game'"
        )
    presets = _presets(root)
    sizes = presets.sizes
    if request.card_size not in sizes:
        raise PrintgenError(
            f"unknown card size '{request.card_size}': use one of {', '.join(sizes)} "
            f"(the sizes in {display_path(root / 'layouts' / 'presets.yaml')})"
        )
    w, h = sizes[request.card_size]
    if w < MIN_CARD_MM[0] or h < MIN_CARD_MM[1]:
        fit = [n for n, (sw, sh) in sizes.items() if sw >= MIN_CARD_MM[0] and sh >= MIN_CARD_MM[1]]
        raise PrintgenError(
            f"card size '{request.card_size}' ({w:g} x {h:g} mm) is too small for the "
            f"skeleton's card (at least {MIN_CARD_MM[0]:g} x {MIN_CARD_MM[1]:g} mm): use one "
            f"of {', '.join(fit)}"
        )
    for folder in (root / "components" / game, root / "layouts" / game):
        if folder.exists() or folder.is_symlink():
            raise PrintgenError(
                f"{display_path(folder)} already exists: printgen new never overwrites a "
                "game; choose another id, or remove that folder first"
            )
    return (w, h)


def _values(request: NewGame, card: tuple[float, float]) -> dict[str, str]:
    """The template values: names, players, and the boxes of a card of this size."""
    w, h = card
    title = request.game.replace("-", " ").title()
    lo, hi = request.players
    body = h - 26  # between the rule under the name (15 mm) and the footer
    star = min(0.5 * body, w - 16)
    star_x, star_y = (w - star) / 2, 17.5
    label_y = star_y + star + 0.5
    text_y = label_y + 5.5
    markers = []
    for n, (colour, ja, en) in enumerate(MARKER_COLOURS[:hi], start=1):
        markers.append(
            f"  - id: marker-{n}\n"
            "    kind: token\n"
            f"    name: {{ja: マーカー({ja}), en: {en} marker}}\n"
            f"    layout: {request.game}/token\n"
            "    cut: circle\n"
            "    count: 1\n"
            f'    values: {{colour: "{colour}"}}'
        )
    pile_w, pile_h = w + 4, h + 4
    gap = 30.0
    pile_y = (80 + 265 - pile_h - 13) / 2  # centred between the track and the turn line
    back_star = min(w - 24, h * 0.3)
    return {
        "game": request.game,
        "title_ja": json.dumps(f"{title}(仮)", ensure_ascii=False),
        "title_en": json.dumps(title, ensure_ascii=False),
        "players_min": str(lo),
        "players_max": str(hi),
        "date": request.date,
        "card_size": request.card_size,
        "card_w": f"{w:g}",
        "card_h": f"{h:g}",
        "board_size": f"{BOARD_MM[0]:g} x {BOARD_MM[1]:g} mm",
        "panel_w": _mm(w - 6),
        "panel_h": _mm(h - 6),
        "inner_w": _mm(w - 10),
        "rule_w": _mm(w - 12),
        "footer_y": _mm(h - 8.5),
        "star_x": _mm(star_x),
        "star_y": _mm(star_y),
        "star_s": _mm(star),
        "points_y": _mm(star_y + star * 0.12),
        "points_h": _mm(star * 0.8),
        "points_size": _pt(star * 0.3),
        "label_y": _mm(label_y),
        "text_y": _mm(text_y),
        "text_w": _mm(w - 12),
        "text_h": _mm(h - 9.5 - text_y),
        "frame_w": _mm(w - 8),
        "frame_h": _mm(h - 8),
        "back_star_s": _mm(back_star),
        "back_star_x": _mm((w - back_star) / 2),
        "back_star_y": _mm(h * 0.14),
        "back_title_y": _mm(h * 0.14 + back_star + 4),
        "back_title_w": _mm(w - 12),
        "back_title_h": _mm(h * 0.3),
        "markers": "\n".join(markers),
        "draw_x": _mm(BOARD_MM[0] / 2 - gap / 2 - pile_w),
        "discard_x": _mm(BOARD_MM[0] / 2 + gap / 2),
        "pile_y": _mm(pile_y),
        "pile_w": _mm(pile_w),
        "pile_h": _mm(pile_h),
        "pile_label_y": _mm(pile_y + pile_h + 3),
    }


def _schema_line(kind: str, depth: int) -> str:
    """The YAML language server's line for a file `depth` folders below the project."""
    return f"# yaml-language-server: $schema={'../' * depth}schemas/{kind}.schema.json\n"


def _render(name: str, values: dict[str, str]) -> str:
    source = resources.files("printgen").joinpath("skeleton", name).read_text(encoding="utf-8")
    return Template(source).substitute(values)


def _sync_sections(files: dict[str, str]) -> None:
    """Stamp each section's languages with the fingerprint of the other (as
    `printgen rulebook-sync` does), so that a new section starts in sync."""
    for section in SECTIONS:
        path = f"rulebook/{section}.yaml"
        data = yaml.safe_load(files[path])
        lines = files[path].splitlines(keepends=True)
        for lang, other in (("ja", "en"), ("en", "ja")):
            head = lines.index(f"{lang}:\n")
            stamp = fingerprint(data[other]["text"])
            lines.insert(head + 1, f"  translates: {stamp}\n")
        files[path] = "".join(lines)


def skeleton_files(request: NewGame, card: tuple[float, float]) -> dict[str, str]:
    """Every file of the skeleton, by its path in the project, and its text."""
    values = _values(request, card)
    game_files: dict[str, str] = {}
    for name, kind in GAME_FILES:
        text = _render(f"components/{name}", values)
        if kind is not None:
            text = _schema_line(kind, 2 + name.count("/")) + text
        game_files[name] = text
    _sync_sections(game_files)
    out = {f"components/{request.game}/{k}": v for k, v in game_files.items()}
    for name in LAYOUT_FILES:
        text = _schema_line("layout", 2) + _render(f"layouts/{name}", values)
        out[f"layouts/{request.game}/{name}"] = text
    return out


def write_schemas(root: Path) -> list[Path]:
    """The JSON Schemas the skeleton's files point at, when `schemas/` is missing: written
    by `printgen schema`'s own code (printgen.reference)."""
    if (root / "schemas").exists():
        return []
    from printgen import reference

    return reference.write_files(root / "schemas", reference.schema_files())


def new_game(root: Path, request: NewGame) -> list[Path]:
    """Write the skeleton of a new game into the project at `root`; the files written."""
    if not request.date:
        request = NewGame(
            request.game, request.players, request.card_size, datetime.date.today().isoformat()
        )
    _check_date(request.date)
    card = check_request(root, request)
    files = skeleton_files(request, card)
    for path, text in files.items():
        if path.endswith(".yaml"):
            try:
                yaml.safe_load(text)
            except yaml.YAMLError as exc:  # a skeleton that does not parse is printgen's bug
                raise PrintgenError(f"skeleton file {path} does not parse: {exc}") from None
    staged: list[tuple[Path, Path]] = []
    try:
        for top in ("components", "layouts"):
            parent = root / top
            parent.mkdir(parents=True, exist_ok=True)
            stage = Path(tempfile.mkdtemp(prefix=f".new-{request.game}-", dir=parent))
            staged.append((stage, parent / request.game))
            prefix = f"{top}/{request.game}/"
            for path, text in files.items():
                if path.startswith(prefix):
                    target = stage / path.removeprefix(prefix)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(text, encoding="utf-8", newline="\n")
            os.chmod(stage, 0o755)
        moved: list[Path] = []
        try:
            for stage, final in staged:
                if final.exists():
                    raise PrintgenError(
                        f"{display_path(final)} appeared while writing; not replaced"
                    )
                os.rename(stage, final)
                moved.append(final)
        except BaseException:
            for final in moved:
                shutil.rmtree(final, ignore_errors=True)
            raise
    finally:
        for stage, _final in staged:
            shutil.rmtree(stage, ignore_errors=True)
    written = [root / path for path in files]
    written.extend(write_schemas(root))
    return written
