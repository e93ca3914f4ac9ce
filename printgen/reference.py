"""The authoring reference and the JSON Schemas, generated from the models themselves.

Every key a designer writes in YAML is a field of a pydantic model (`printgen.model`,
`printgen.layouts`, `printgen.examples`, `printgen.rulebook.book`) with a description.
From them `printgen docs` writes the Markdown reference in `docs/` (one page per file
kind, the layout element types with a picture each drawn by printgen's own renderer, the
template names of card layouts and rulebook texts, the rulebook block types), and
`printgen schema` writes one JSON Schema per file kind in `schemas/` for editors (the
YAML language server's `# yaml-language-server: $schema=` line).  Both are committed and
tests fail when they differ from what the code makes now, so they cannot go stale.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import os
import re
import tempfile
import textwrap
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, TypeAdapter, WithJsonSchema
from pydantic.fields import FieldInfo

from printgen import templating
from printgen.errors import PrintgenError
from printgen.examples import ExampleSpec
from printgen.files import give_usual_mode
from printgen.layouts import (
    Element,
    FontSpec,
    IconShape,
    LayoutFile,
    LayoutLibrary,
    PresetsFile,
    load_library,
)
from printgen.model import ComponentFile, Game, GameInfo, load_game
from printgen.rulebook.book import BlockKind, Book, Glossary, Section
from printgen.units import LENGTH_JSON_SCHEMA
from printgen.vendors import VendorFile

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
PICTURE_DPI = 150


@dataclass(frozen=True)
class FileKind:
    """One kind of YAML file a designer writes."""

    key: str  # schemas/<key>.schema.json
    page: str  # docs/<page>.md
    title: str
    where: str  # where such files live
    root: Any  # the type the whole file validates as
    intro: str

    @property
    def schema_name(self) -> str:
        return f"{self.key}.schema.json"


FILE_KINDS: tuple[FileKind, ...] = (
    FileKind(
        "game",
        "game",
        "game.yaml",
        "components/<game>/game.yaml",
        GameInfo,
        "One per game: its title, credits, player count, rule parameters, dated rule "
        "versions and rule options. The folder's name is the game's id.",
    ),
    FileKind(
        "components",
        "components",
        "Component files",
        "components/<game>/*.yaml",
        ComponentFile,
        "The physical pieces: `decks:` (groups sharing a back) and `components:` (each kind "
        "of piece with its count, layout and printed values). Every YAML file of the game's "
        "folder but game.yaml is one, whatever its name (cards.yaml, board.yaml): a game may "
        "split them over several files.",
    ),
    FileKind(
        "layout",
        "layouts",
        "Layouts",
        "layouts/<game>/<name>.yaml",
        LayoutFile,
        "How a face is drawn: its size, bleed and safe zone, fonts, colours, fixed copy, "
        "and the elements drawn in order. A component names its layout by its path without "
        "`.yaml` (`layout: mygame/card`); `extends: base/card` inherits another layout.",
    ),
    FileKind(
        "presets",
        "presets",
        "presets.yaml",
        "layouts/presets.yaml",
        PresetsFile,
        "Named piece and paper sizes, and the settings of the print sheets.",
    ),
    FileKind(
        "fonts",
        "fonts",
        "fonts.yaml",
        "layouts/fonts.yaml",
        dict[str, FontSpec],
        "The fonts layouts may use, by key (`gothic: {file: ..., licence: ...}`); the font "
        "files are vendored under layouts/ with their licences.",
    ),
    FileKind(
        "icons",
        "icons",
        "icons.yaml",
        "layouts/icons.yaml",
        dict[str, list[IconShape]],
        "Icons drawn as shapes in a unit square (0..1, y down), by name: a list of shapes "
        "each. Text uses them inline as `:name:`; `type: icon` elements draw them. An icon "
        "may also be an SVG file: `layouts/icons/<name>.svg` for every game, "
        "`layouts/<game>/icons/<name>.svg` for one game (a game's icon shadows a shared one "
        "of the same name, and an SVG icon one of icons.yaml). SVG icons print as vectors; "
        "`fill=\"currentColor\"` takes the text's or the element's colour. Art works the "
        'same way: `type: image` with `image: "art/{{ values.art }}.svg"` (SVG, PNG or '
        "JPEG, from the game's folder, `layouts/<game>/` or `layouts/`); a PNG or JPEG "
        "printed under 300 DPI is a warning. SVG files may not link other files, hold "
        "text, scripts or gradients, or exceed 5 MB.",
    ),
    FileKind(
        "example",
        "examples",
        "Worked examples",
        "components/<game>/examples/*.yaml",
        ExampleSpec,
        "A piece of play and the facts that must hold after each step. Every build "
        "replays them with the game's rules engine; the rulebook prints them.\n\n"
        "The engine tags every step with the rule clauses it applied (`clauses:` in "
        "game.yaml): `printgen examples log GAME [EXAMPLE]` prints that event log, "
        "`printgen check --coverage [--strict]` lists each clause with the examples that "
        "show it (the rulebook links both ways, with pages), and `printgen examples suggest "
        "GAME [--rule ID] [--from EXAMPLE]` lets the engine find a short play for a rule no "
        "example shows and write it as a draft example (every `expect` filled, the `say` "
        "told with the phrases of `narration:` in game.yaml), which holds as written.",
    ),
    FileKind(
        "book",
        "book",
        "Rulebook: book.yaml",
        "components/<game>/rulebook/book.yaml",
        Book,
        "The rulebook's contents in order: written sections and blocks generated from the "
        "game data.",
    ),
    FileKind(
        "section",
        "sections",
        "Rulebook sections",
        "components/<game>/rulebook/<id>.yaml",
        Section,
        "One section of the rulebook: its title and its text in Japanese and English "
        "(Markdown, with templates that quote the game data).",
    ),
    FileKind(
        "glossary",
        "glossary",
        "Rulebook glossary",
        "components/<game>/rulebook/glossary.yaml",
        Glossary,
        "The terms the `glossary` block prints, each in both languages.",
    ),
    FileKind(
        "vendor",
        "vendors",
        "Vendor presets",
        "layouts/vendors/<vendor>.yaml",
        VendorFile,
        "What a print shop wants (`printgen build GAME --vendor NAME`): its products' trim, "
        "bleed and safe zone, pixel sizes for image uploads, one PNG per face or one PDF per "
        "deck, page order, RGB or CMYK with an ink limit, PDF/X, and how much each preflight "
        "finding matters. Every number names its source in a comment.",
    ),
)


def kind_of(rel: str) -> FileKind | None:
    """The kind of a project file from its path relative to the project (`components/x/game.yaml`),
    or None for a file that is no YAML file printgen reads."""
    parts = rel.split("/")
    by_key = {k.key: k for k in FILE_KINDS}
    if not rel.endswith(".yaml"):
        return None
    if parts[0] == "components" and len(parts) >= 3:
        if len(parts) == 3:
            return by_key["game"] if parts[2] == "game.yaml" else by_key["components"]
        if len(parts) == 4 and parts[2] == "examples":
            return by_key["example"]
        if len(parts) == 4 and parts[2] == "rulebook":
            names = {"book.yaml": "book", "glossary.yaml": "glossary"}
            return by_key[names.get(parts[3], "section")]
        return None
    if parts[0] == "layouts":
        if len(parts) == 2:
            names = {"presets.yaml": "presets", "fonts.yaml": "fonts", "icons.yaml": "icons"}
            return by_key[names[parts[1]]] if parts[1] in names else None
        if parts[1] == "vendors" and len(parts) == 3:
            return by_key["vendor"]
        if parts[1] != "rulebook":
            return by_key["layout"]
    return None


# ----------------------------------------------------------------------------- models


def _args(annotation: Any) -> tuple[Any, ...]:
    return typing.get_args(annotation)


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The models a type refers to (inside lists, mappings, unions, Annotated)."""
    if _is_model(annotation):
        yield annotation
        return
    for arg in _args(annotation):
        if not isinstance(arg, str | int | float | bool | FieldInfo) and arg is not None:
            yield from models_in(arg)


def reachable(root: Any) -> list[type[BaseModel]]:
    """Every model reachable from a file kind's type, in the order a reader meets them."""
    found: list[type[BaseModel]] = []
    todo = list(models_in(root))
    while todo:
        model = todo.pop(0)
        if model in found:
            continue
        found.append(model)
        for info in model.model_fields.values():
            todo.extend(m for m in models_in(info.annotation) if m not in found)
    return found


def all_models() -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    for kind in FILE_KINDS:
        found.extend(m for m in reachable(kind.root) if m not in found)
    return found


def field_docstrings(model: type[BaseModel]) -> dict[str, str]:
    """The docstring under each field of the model's own class body (as pydantic's
    `use_attribute_docstrings` reads them: the string right after the field)."""
    try:
        source = textwrap.dedent(inspect.getsource(model))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body
    if not body or not isinstance(body[0], ast.ClassDef):
        return {}
    found: dict[str, str] = {}
    statements = body[0].body
    for field, after in itertools.pairwise(statements):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[field.target.id] = inspect.cleandoc(after.value.value)
    return found


def _describe_fields() -> None:
    """Give every model's fields their docstrings as descriptions, and build the models'
    schemas again with them (the leaves first, so that the models holding them see them).
    Done once, when this module is loaded: only the reference and the schemas need them."""
    models = _printgen_models()
    for model in models:
        for cls in model.__mro__:  # the class's own docstring first, then its bases'
            if not (isinstance(cls, type) and issubclass(cls, BaseModel)) or cls is BaseModel:
                continue
            docs = field_docstrings(cls)
            for name, info in model.__pydantic_fields__.items():
                if info.description is None and name in docs:
                    info.description = docs[name]
    for model in models:  # each after the models its fields hold
        model.model_rebuild(force=True)


def _printgen_models() -> list[type[BaseModel]]:
    """Every model printgen defines, each after the models its fields hold."""
    found: list[type[BaseModel]] = []
    todo: list[type[BaseModel]] = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("printgen.") and cls not in found:
            found.append(cls)
    ordered: list[type[BaseModel]] = []

    def visit(model: type[BaseModel], path: tuple[type[BaseModel], ...]) -> None:
        if model in ordered or model in path:
            return
        for info in model.__pydantic_fields__.values():
            for held in models_in(info.annotation):
                visit(held, (*path, model))
        ordered.append(model)

    for model in sorted(found, key=lambda m: (m.__module__, m.__qualname__)):
        visit(model, ())
    return ordered


def undescribed() -> list[str]:
    """`Model.field` for each field a designer writes that has no description."""
    return [
        f"{model.__name__}.{name}"
        for model in all_models()
        for name, info in model.model_fields.items()
        if not (info.description or "").strip()
    ]


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


# ----------------------------------------------------------------------------- schemas


def json_schema(kind: FileKind) -> dict[str, Any]:
    """The JSON Schema of one file kind, with every field's description."""
    schema = TypeAdapter(kind.root).json_schema(mode="validation")
    _tidy(schema)
    head = {
        "$schema": SCHEMA_DIALECT,
        "title": f"printgen: {kind.title}",
        "description": f"{_one_line(kind.intro)} ({kind.where})",
    }
    schema.pop("title", None)
    schema.pop("description", None)
    return {**head, **schema}


def _tidy(node: Any) -> None:
    """Descriptions on one line each (they come from wrapped docstrings)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                node[key] = _one_line(value)
            else:
                _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)


def schema_files() -> dict[str, bytes]:
    """`<kind>.schema.json` -> its bytes."""
    return {
        kind.schema_name: (
            json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"
        ).encode("utf-8")
        for kind in FILE_KINDS
    }


def write_files(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Write each file (relative path -> bytes) under `out` atomically; a file already
    holding those bytes is left alone. Returns the paths written."""
    written = []
    for rel, data in sorted(files.items()):
        path = out / rel
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            give_usual_mode(Path(tmp))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(path)
    return written


# ----------------------------------------------------------------------------- types


def type_name(annotation: Any, metadata: list[Any] | None = None) -> str:
    """A field's type in the designer's words: text, whole number, length, list of ..."""
    for item in metadata or []:
        if isinstance(item, WithJsonSchema) and item.json_schema == LENGTH_JSON_SCHEMA:
            return "length"
    origin = typing.get_origin(annotation)
    args = _args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0], list(args[1:]))
    if annotation is type(None):
        return "none"
    if annotation is Any:
        return "any value"
    if annotation is str:
        return "text"
    if annotation is bool:
        return "true/false"
    if annotation is int:
        return "whole number"
    if annotation is float:
        return "number"
    if _is_model(annotation):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    if origin is Literal:
        return " | ".join(f"`{a}`" for a in args)
    if origin in (Union, types.UnionType):
        names = [type_name(a) for a in args if a is not type(None)]
        unique = list(dict.fromkeys(names))
        if set(unique) >= {"text", "number", "whole number"}:
            unique = [n for n in unique if n not in ("number", "whole number")]
            unique[unique.index("text")] = "text or number"
        return " or ".join(unique)
    if origin is list:
        inner = type_name(args[0])
        return f"list of ({inner})" if " or " in inner else f"list of {inner}"
    if origin is tuple:
        return "[" + ", ".join(type_name(a) for a in args) + "]"
    if origin is dict:
        return f"mapping of names to {type_name(args[1])}"
    return str(annotation)


def default_text(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    if info.default_factory is not None:
        value: Any = info.default_factory()  # type: ignore[call-arg]
    else:
        value = info.default
    if value is None:
        return "none"
    if isinstance(value, BaseModel):
        return "see " + f"[{type(value).__name__}](#{type(value).__name__.lower()})"
    if isinstance(value, str):
        return f"`{value}`"
    if type_name(info.annotation, list(info.metadata)) == "length" and isinstance(value, float):
        return f"`{value:g}mm`"
    return f"`{json.dumps(value)}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def model_table(model: type[BaseModel]) -> list[str]:
    lines = [f"### {model.__name__}", ""]
    doc = _one_line(model.__doc__) if model.__doc__ and model.__doc__ != BaseModel.__doc__ else ""
    if doc:
        lines += [doc, ""]
    lines += ["| key | type | default | what it is |", "|---|---|---|---|"]
    for name, info in model.model_fields.items():
        kind = type_name(info.annotation, list(info.metadata))
        lines.append(
            f"| `{name}` | {_cell(kind)} | {_cell(default_text(info))} | "
            f"{_cell(_one_line(info.description))} |"
        )
    return [*lines, ""]


# ----------------------------------------------------------------------------- pictures

DEMO_SIZE = "[40mm, 28mm]"

# Each element type (and a few options), drawn on a 40 x 28 mm card: the YAML shown in the
# reference is exactly the element drawn in its picture.
DEMOS: dict[str, str] = {
    "rect": '{type: rect, box: [4mm, 4mm, 32mm, 20mm], fill: "#f2c14e", stroke: "#333333", '
    "stroke_width: 0.5mm, radius: 3mm}",
    "ellipse": '{type: ellipse, box: [8mm, 4mm, 24mm, 20mm], fill: "#5b8e7d", stroke: navy, '
    "stroke_width: 0.6mm}",
    "line": "{type: line, box: [4mm, 6mm, 32mm, 16mm], points: [[0, 16mm], [10mm, 0], "
    '[20mm, 16mm], [32mm, 4mm]], stroke: "#c0392b", stroke_width: 0.8mm, dash: [2, 1]}',
    "polygon": "{type: polygon, box: [10mm, 3mm, 20mm, 22mm], points: [[10mm, 0], [20mm, 22mm], "
    '[0, 22mm]], fill: "#1b2a49", stroke: "#f2c14e", stroke_width: 0.6mm}',
    "text": '{type: text, box: safe, text: "{{ t(name) }}\\nroll {{ values.dice }} :dice:", '
    "size: 11pt, align: center, valign: middle}",
    "icon": '{type: icon, icon: torpedo, box: [3mm, 8mm, 11mm, 11mm], repeat: 3, colour: "#1b2a49"}',
    "image": "{type: image, image: art.png, box: [4mm, 4mm, 32mm, 20mm]}",
    "repeat": "{type: ellipse, box: [3mm, 3mm, 5mm, 5mm], repeat: [5, 3], step: [7mm, 8mm], "
    'fill: "#c0392b", when: "{{ i < values.dice * 2 }}"}',
    "each": '{type: text, box: [3mm, 3mm, 34mm, 6mm], each: "values.moves", step: [0, 7mm], '
    'text: "{{ i + 1 }}. {{ item }}", size: 9pt}',
}

DEMO_VALUES = {"dice": 4, "moves": ["advance", "turn", "fire"]}


def _art_png() -> bytes:
    """A small picture for the `image` demo: a gradient, made the same way everywhere."""
    import io

    from PIL import Image

    image = Image.new("RGB", (160, 100))
    image.putdata([(40 + x, 90 + y, 200 - x // 2) for y in range(100) for x in range(160)])
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(300, 300))
    return out.getvalue()


def demo_project(layouts_root: Path, folder: Path) -> tuple[LayoutLibrary, Game]:
    """A tiny game in `folder` (one 40 x 28 mm card per demo) drawn with the project's
    fonts, icons and presets."""
    real = load_library(layouts_root)
    game_dir = folder / "components" / "demo"
    layouts = folder / "layouts"
    (layouts / "demo").mkdir(parents=True)
    game_dir.mkdir(parents=True)
    (layouts / "presets.yaml").write_bytes((layouts_root / "presets.yaml").read_bytes())
    (layouts / "fonts.yaml").write_text("{}\n", encoding="utf-8")
    (layouts / "icons.yaml").write_text("{}\n", encoding="utf-8")
    (game_dir / "art.png").write_bytes(_art_png())
    (game_dir / "game.yaml").write_text(
        "id: demo\ntitle: {ja: 見本, en: Sample}\ndesigner: {ja: 見本, en: Sample}\n"
        "players: {min: 2, max: 4}\nplay_time_min: 20\nrule_version: '1'\n",
        encoding="utf-8",
    )
    cards = []
    for name, element in DEMOS.items():
        (layouts / "demo" / f"{name}.yaml").write_text(
            f"size: {DEMO_SIZE}\nbleed: 0\nsafe: 2mm\n"
            "fonts: {regular: gothic}\ncolours: {navy: '#1b2a49'}\nelements:\n"
            "  - {type: rect, box: trim, stroke: '#999999', stroke_width: 0.3mm}\n"
            f"  - {element}\n",
            encoding="utf-8",
        )
        cards.append(
            f"  - {{id: {name}, kind: card, name: {{ja: 魚雷, en: Torpedo}}, "
            f"layout: demo/{name}, values: {json.dumps(DEMO_VALUES)}}}"
        )
    (game_dir / "cards.yaml").write_text(
        "components:\n" + "\n".join(cards) + "\n", encoding="utf-8"
    )
    lib = load_library(layouts)
    lib.fonts.update(real.fonts)  # the vendored font files, where they are
    lib.icons.update(real.icons)
    return lib, load_game(game_dir)


def pictures(layouts_root: Path) -> dict[str, bytes]:
    """`pictures/<demo>.png` -> the PNG of each demo, drawn by printgen's renderer."""
    from printgen.raster import png_bytes
    from printgen.render import FaceRequest, render_face

    with tempfile.TemporaryDirectory() as tmp:
        lib, game = demo_project(layouts_root, Path(tmp))
        return {
            f"pictures/{piece.id}.png": png_bytes(
                render_face(lib, game, FaceRequest(piece, "front", "en")), PICTURE_DPI
            )
            for piece in game.pieces
        }


def live_names(layouts_root: Path) -> tuple[set[str], set[str]]:
    """The names card templates and rulebook texts see now (read from the code that
    renders them), to check the reference lists every one."""
    from printgen.render import context
    from printgen.rulebook.text import TextContext
    from printgen.sandbox import ENV

    with tempfile.TemporaryDirectory() as tmp:
        _lib, game = demo_project(layouts_root, Path(tmp))
        card = set(context(game, game.pieces[0], "en")) | set(ENV.globals)
        text = set(TextContext(game, "en").data()) | set(ENV.globals)
    return card, text


# ----------------------------------------------------------------------------- pages

ELEMENT_TYPES: dict[str, tuple[str, list[str]]] = {
    "rect": (
        "A rectangle filling its box, with rounded corners if `radius` is given.",
        ["fill", "stroke", "stroke_width", "radius", "dash"],
    ),
    "ellipse": (
        "An ellipse (a circle in a square box) inside its box.",
        ["fill", "stroke", "stroke_width"],
    ),
    "line": (
        "An open line through `points`, measured from the box's top-left corner.",
        ["points", "stroke", "stroke_width", "dash"],
    ),
    "polygon": (
        "A closed shape through `points`, measured from the box's top-left corner.",
        ["points", "fill", "stroke", "stroke_width", "dash"],
    ),
    "text": (
        "Text fitted into its box: it breaks lines (Japanese between phrases, English between "
        "words) and shrinks in half points down to `min_size` if it does not fit; `:name:` "
        "puts an icon in the line. `role: body` text never goes under 7 pt, `secondary` "
        "under 6 pt: text that does not fit is an error naming the piece and the line.",
        ["text", "font", "size", "min_size", "role", "leading", "align", "valign", "colour"],
    ),
    "icon": ("An icon from icons.yaml, drawn in its box in the ink `colour`.", ["icon", "colour"]),
    "image": (
        "A PNG or JPEG picture stretched to its box; the file is looked up in the game's "
        "folder, then in layouts/.",
        ["image"],
    ),
}

COMMON_KEYS = ["id", "type", "when", "box", "repeat", "step", "each"]

# name -> (what it is, an example)
CARD_NAMES: dict[str, tuple[str, str]] = {
    "values": (
        "The piece's printed values, its deck's overlaid with its own.",
        '"{{ values.dice }}"',
    ),
    "deck_values": ("The values of the piece's deck alone.", '"{{ deck_values.player }}"'),
    "deck": (
        "The piece's deck (`id`, `name`, `colour`, `values`), or none.",
        '"{{ deck.colour }}"',
    ),
    "decks": ("Every deck of the game, by id.", '"{{ t(decks.red.name) }}"'),
    "name": ("The component's name in both languages (print it with `t()`).", '"{{ t(name) }}"'),
    "text": (
        "The component's `text` in both languages, its templates already filled in; none if it has none.",
        '"{{ t(text) }}"',
    ),
    "kind": ("The component's kind: card, tile, token, ...", "when: \"{{ kind == 'card' }}\""),
    "component": (
        "The whole component as written (`count`, `size`, `cut`, ...).",
        '"{{ component.count }}"',
    ),
    "piece_id": (
        "The piece's id (`torpedo-a-red` for a component with `decks:`).",
        '"{{ piece_id }}"',
    ),
    "game": (
        "game.yaml as written (`title`, `players`, `play_time_min`, `rule_version`, ...).",
        '"{{ game.players.min }}-{{ game.players.max }}"',
    ),
    "rules": (
        "The rule parameters (`rules:` of game.yaml) at the version built.",
        '"{{ rules.hand_size }}"',
    ),
    "lang": ("The language being printed: `ja`, `en` or `both`.", "when: \"{{ lang != 'ja' }}\""),
    "t": (
        "`t(x)`: a text in both languages (`{ja, en}`) in the language printed; `both` stacks Japanese over English.",
        '"{{ t(name) }}"',
    ),
    "s": (
        "The layout's `strings`, each rendered when used: `s.title` is a `{ja, en}` text.",
        '"{{ t(s.title) }}"',
    ),
    "side": ("`front` or `back`.", "when: \"{{ side == 'front' }}\""),
    "i": ("In a repeated element: which copy, from 0.", 'when: "{{ i < values.dice }}"'),
    "col": (
        "In a `repeat: [cols, rows]` grid: the column, from 0.",
        "fill: \"{{ 'red' if col == 0 else 'blue' }}\"",
    ),
    "row": ("In a `repeat: [cols, rows]` grid: the row, from 0.", 'when: "{{ row > 0 }}"'),
    "item": ("In an `each` element: the list item drawn.", '"{{ item }}"'),
    "range": ("`range(n)`: the numbers 0 to n-1 (at most 10,000).", 'each: "range(values.dice)"'),
    "dict": ("`dict(a=1)`: a mapping.", 'each: "[dict(n=1), dict(n=2)]"'),
    "by_id": (
        "`by_id(list)`: a list of mappings with an `id` as one mapping by id.",
        '"{{ by_id(rules.roles).spy.power }}"',
    ),
}
CARD_ONLY_IN_ELEMENTS = {"s", "side", "i", "col", "row", "item"}

TEXT_NAMES: dict[str, tuple[str, str]] = {
    "rules": ("The rule parameters at the version built.", "{{ rules.target_points }}"),
    "game": ("game.yaml as written.", "{{ game.play_time_min }}"),
    "title": ("The game's title in the language of the text.", "{{ title }}"),
    "version": ("The rule version built (`id`, `date`, `changes`).", "{{ version.id }}"),
    "versions": ("Every dated rule version, oldest first.", "{{ versions | length }}"),
    "decks": (
        "The decks, in file order (`id`, `name`, `colour`, `values`).",
        "{{ decks | length }}",
    ),
    "count": (
        "`count(id, ...)`: copies of these components over all decks.",
        "{{ count('torpedo-s') }}",
    ),
    "per_deck": (
        "`per_deck(id, ...)`: copies of these components in one deck (one player's set).",
        "{{ per_deck('torpedo-a', 'torpedo-b') }}",
    ),
    "components": (
        "`components(kind, key=value)`: ids of the components printed at this version of that "
        "kind and with those values (a list: any of them).",
        "{{ components(action='torpedo') | length }}",
    ),
    "values": ("`values(id)`: a component's printed values.", "{{ values('torpedo-a').dice }}"),
    "name": (
        "`name(id)`: a component's name in the language of the text.",
        "{{ name('torpedo-a') }}",
    ),
    "lang": ("The language of the text: `ja` or `en`.", "{% if lang == 'ja' %}…{% endif %}"),
    "range": ("`range(n)`: the numbers 0 to n-1.", "{% for n in range(3) %}{{ n }} {% endfor %}"),
    "dict": ("`dict(a=1)`: a mapping.", "{{ dict(a=1).a }}"),
    "by_id": (
        "`by_id(list)`: a list of mappings with an `id` as one mapping by id.",
        "{{ by_id(rules.roles).spy.power }}",
    ),
}

BLOCKS: dict[str, tuple[str, str]] = {
    "toc": ("The table of contents with page numbers.", "- block: toc"),
    "components": (
        "The components list: every piece and how many, from the component files.",
        "- block: components",
    ),
    "picture": (
        "A picture of one piece's face (`piece:` its id), with `caption` and `width`.",
        "- block: picture\n  piece: placement-mat-red\n  caption: {ja: 配置シート, en: The placement mat}",
    ),
    "setup-diagram": (
        "The position a worked example's `setup` makes, drawn by the game's engine "
        "(`example:` the file name without .yaml), with a `caption`.",
        "- block: setup-diagram\n  example: 01-pair-sinks-its-column",
    ),
    "examples": (
        "The worked examples (book.yaml `examples:` chooses and orders them; default all), "
        "each checked by the rules engine, cross-referenced with the sections they show.",
        "- block: examples",
    ),
    "clarifications": (
        "The rule options of game.yaml: each question and its default reading.",
        "- block: clarifications",
    ),
    "history": (
        "The dated rule versions and what each changed, and changes not dated yet.",
        "- block: history",
    ),
    "glossary": ("The terms of rulebook/glossary.yaml, with page references.", "- block: glossary"),
    "turn-summary": (
        "The `quick_reference` section on a page of its own (also printed as the player aids).",
        "- block: turn-summary",
    ),
}


def _check_documented() -> None:
    blocks = set(typing.get_args(BlockKind))
    if blocks != set(BLOCKS):
        raise PrintgenError(
            "printgen/reference.py BLOCKS does not match the rulebook's block types "
            f"({', '.join(sorted(blocks ^ set(BLOCKS)))}): describe each block type"
        )
    missing = {*ELEMENT_TYPES} ^ set(
        typing.get_args(typing.get_args(Element.model_fields["type"].annotation)[0])
    )
    if missing:
        raise PrintgenError(
            f"printgen/reference.py ELEMENT_TYPES differs: {', '.join(sorted(missing))}"
        )
    keys = {k for _d, ks in ELEMENT_TYPES.values() for k in ks} | set(COMMON_KEYS)
    unknown = keys - set(Element.model_fields)
    if unknown:
        raise PrintgenError(f"printgen/reference.py names unknown element keys: {sorted(unknown)}")


def _names_table(names: dict[str, tuple[str, str]], live: set[str]) -> list[str]:
    missing = sorted(live - set(names))
    if missing:
        raise PrintgenError(
            f"template names {', '.join(missing)} are not described in printgen/reference.py: "
            "add each with an example"
        )
    lines = ["| name | what it is | example |", "|---|---|---|"]
    for name, (what, example) in names.items():
        lines.append(f"| `{name}` | {_cell(what)} | `{_cell(example)}` |")
    return [*lines, ""]


HEADER = "<!-- Generated by `printgen docs` from the models in printgen/: do not edit by hand. -->"


def _kind_page(kind: FileKind, extra: list[str] | None = None) -> str:
    lines = [
        HEADER,
        "",
        f"# {kind.title}",
        "",
        _one_line(kind.intro),
        "",
        f"Where: `{kind.where}`. JSON Schema: `schemas/{kind.schema_name}` (for editor "
        f"completion, put `# yaml-language-server: $schema=<path to schemas/{kind.schema_name}>` "
        "on the file's first line).",
        "",
    ]
    if kind.key == "fonts":
        lines += ["The file maps each font key to a [FontSpec](#fontspec).", ""]
    if kind.key == "icons":
        lines += ["The file maps each icon name to a list of [IconShape](#iconshape)s.", ""]
    lines += [
        "Lengths are written `3mm`, `1.5cm`, `0.25in`, `12pt`, or as a bare number "
        "(millimetres). Texts in both languages are `{ja: ..., en: ...}`.",
        "",
        "## Keys",
        "",
    ]
    for model in reachable(kind.root):
        lines += model_table(model)
    lines += extra or []
    return "\n".join(lines).rstrip() + "\n"


def _layout_extra(card_live: set[str]) -> list[str]:
    lines = [
        "## Element types",
        "",
        "Every element has the keys " + ", ".join(f"`{k}`" for k in COMMON_KEYS) + "; "
        "each type reads the keys listed with it (see [Element](#element) for each key). "
        "The pictures are drawn by printgen from exactly the YAML shown, on a 40 x 28 mm "
        "card whose edge is drawn in grey.",
        "",
    ]
    for name, (what, keys) in ELEMENT_TYPES.items():
        lines += [
            f"### `{name}`",
            "",
            what,
            "",
            "Keys: " + ", ".join(f"`{k}`" for k in keys) + ".",
            "",
            "```yaml",
            f"- {DEMOS[name]}",
            "```",
            "",
            f"![{name}](pictures/{name}.png)",
            "",
        ]
    lines += [
        "## Options of every element",
        "",
        "- `box`: `trim` (the card's edge, the default), `bleed` (out to the bleed), `safe` "
        "(inside the safe margin) or `[x, y, width, height]` from the trim's top-left; "
        "a negative x or y counts from the right or bottom edge. Each value may be a template, "
        "and a length or a share of the card in % (`[5%, 5%, 90%, 20%]`: x and width of its "
        "width, y and height of its height), so that one layout fits several sizes (list them "
        "in the layout's `sizes`).",
        "- `when`: a template; the element is drawn only when it gives something other than "
        "empty, `false`, `0`, `none` or `no`.",
        "- `repeat`: `n` copies side by side (each moved by the box's width, or by `step`), or "
        "`[cols, rows]` as a grid; each copy sees `i` (from 0), `col` and `row`. A centred "
        "(`align: center`) row of shapes is centred on its box.",
        "- `each`: an expression giving a list (`values.moves`, `range(values.dice)`); the "
        "element is drawn once per item, moved by `step` each time, and sees `item` and `i`.",
        "- `step`: `[dx, dy]`, the move between copies (lengths, or shares of the box: "
        "`[150%, 0]`). Polygon and line `points` and a rect's `radius` may be shares of the "
        "box too.",
        "- `id`: names the element so that a layout which `extends` this one can change it "
        "(give the same id and the keys to change) or drop it (`remove: [id]`).",
        "",
        "A grid of `repeat` with `when` (the first `values.dice * 2` dots of a 5 x 3 grid; "
        "this card's `dice` is 4):",
        "",
        "```yaml",
        f"- {DEMOS['repeat']}",
        "```",
        "",
        "![repeat](pictures/repeat.png)",
        "",
        "One line per item of a list with `each` (this card's `moves` are advance, turn, fire):",
        "",
        "```yaml",
        f"- {DEMOS['each']}",
        "```",
        "",
        "![each](pictures/each.png)",
        "",
        "## Templates in layouts",
        "",
        "Any text value of a layout or a component may be a Jinja template: `{{ ... }}` "
        "prints a value, `{% if ... %}...{% endif %}` chooses. Templates run in a sandbox: "
        "they read the data and change nothing; a missing value is an error naming the "
        "piece, the file:line and the closest known name. Jinja's filters work "
        "(`{{ values.name | upper }}`, `{{ '%02d' % values.n }}`, `{{ list | join(', ') }}`).",
        "",
        "A template's work is bounded, and counted rather than timed, so that it passes or "
        "fails alike on every machine: each item a `for` loop goes through, each call of a "
        "filter, function or macro (a long text or list handed to it counts for more), each "
        "`in` and slice is a step; one render may take "
        f"{templating.MAX_STEPS:,} steps and all the renders of one game "
        f"{templating.STEP_BUDGET:,}. A card's template takes a few dozen.",
        "",
        "The names a card template sees ("
        + ", ".join(f"`{n}`" for n in sorted(CARD_ONLY_IN_ELEMENTS))
        + " only in layout elements):",
        "",
    ]
    lines += _names_table(CARD_NAMES, card_live | CARD_ONLY_IN_ELEMENTS)
    lines += [
        "Fixed copy belongs in the layout's `strings` (`strings: {fire: {ja: 発射, en: Fire}}`, "
        "used as `{{ t(s.fire) }}`); values shared by a deck in the deck's `values` (read as "
        "`values.*` or `deck_values.*`, and the deck itself as `deck`).",
        "",
    ]
    return lines


def _sections_extra(text_live: set[str]) -> list[str]:
    return [
        "## Writing a section",
        "",
        "`text` is Markdown (CommonMark with tables): paragraphs, `**bold**`, lists, "
        "`| tables |`. A Japanese text may be folded over several YAML lines: the line breaks "
        "between Japanese characters are dropped. A section's text never types in a number "
        "the data holds: it quotes it with a template, so the book follows the data.",
        "",
        "```yaml",
        "title: {ja: 魚雷, en: Torpedoes}",
        "ja:",
        "  text: |",
        "    魚雷Aはダイスを{{ values('torpedo-a').dice }}個振ります。",
        "en:",
        "  text: |",
        "    Torpedo A rolls {{ values('torpedo-a').dice }} dice;",
        "    each player has {{ per_deck('torpedo-a') }} of them.",
        "```",
        "",
        "After a translator has brought one language up to date with the other, "
        "`printgen rulebook-sync GAME SECTION` records it (`translates:`); a later change to "
        "one language marks the other stale.",
        "",
        "## Template names in rulebook texts",
        "",
        *_names_table(TEXT_NAMES, text_live),
    ]


def _book_extra() -> list[str]:
    lines = [
        "## Block types",
        "",
        "Each entry of `contents` is either `section: <id>` (the file rulebook/<id>.yaml) "
        "or `block: <type>`, generated from the game's data. Any block takes `title` "
        "(`{ja, en}`) to replace its heading; `labels:` in book.yaml replaces headings and "
        "words book-wide.",
        "",
    ]
    for name, (what, example) in BLOCKS.items():
        lines += [f"### `{name}`", "", what, "", "```yaml", example, "```", ""]
    return lines


def _index() -> str:
    lines = [
        HEADER,
        "",
        "# printgen authoring reference",
        "",
        "Everything a game is made of is YAML: this reference lists every key of every file, "
        "generated from printgen's own models, so it always says what the code reads. "
        "Regenerate it with `printgen docs` (and the JSON Schemas with `printgen schema`); "
        "a test fails when the committed pages differ.",
        "",
        "| file | where | reference | schema |",
        "|---|---|---|---|",
    ]
    for kind in FILE_KINDS:
        lines.append(
            f"| {kind.title} | `{_cell(kind.where)}` | [{kind.page}.md]({kind.page}.md) | "
            f"`schemas/{kind.schema_name}` |"
        )
    lines += [
        "",
        "## Starting a game",
        "",
        "`printgen new mygame --players 2-4 --card-size poker` writes a game that builds at "
        "once: `components/mygame/` (game.yaml, cards.yaml with a deck and its back, a board "
        "larger than A4 with tokens, a rulebook of two sections in Japanese and English, a "
        "README) and `layouts/mygame/` (card, back, board, token). Change its texts and "
        "values, then `printgen validate mygame`, `printgen build mygame`, or `printgen "
        "preview mygame` to see every change as you save. Cards may come from a spreadsheet "
        "(`tables:` in a [component file](components.md)), icons and art from SVG files "
        "([icons](icons.md)), and one layout may serve several card sizes with boxes in % "
        "([layouts](layouts.md)).",
        "",
        "Then read [game.yaml](game.md) and [component files](components.md), then "
        "[layouts](layouts.md) (every element type with a picture, and the template names "
        "of card layouts), the [rulebook](book.md) and its [sections](sections.md) (with "
        "the template names of rulebook texts).",
        "",
        "## Balance and claims",
        "",
        "`printgen balance GAME` plays the game thousands of times with players that try to "
        "win (`--bots`: `random`; `heuristic`, the game's rule-of-thumb player; `mcts` or "
        "`mcts:N`, an information-set tree search with N playouts per decision that sees only "
        "what its player may see) and reports, each with its 95% interval: each seat's and "
        "the first player's win rate, draws, game length in actions, turns and rounds, "
        "scores, the game's own measures, and for each card or action how often a player "
        "plays it and how the win rate of players who do compares. Several `--version`, "
        "`--option NAME=VALUE` or `--players` are compared figure by figure (higher, lower or "
        "no clear change). It also measures the search player against random players, prints "
        "the engine's exact odds and checks the claims; the report with plots goes to "
        "`out/<game>/balance/report.html` and `report.pdf`. Games run on every core "
        "(`--workers`) or on a Dask cluster (`--scheduler tcp://host:8786`): a seed plays the "
        "same games either way.",
        "",
        "A designer's claims are data: `claims:` in [game.yaml](game.md#claim), each with "
        "bounds on figures of a simulation (`first_player_win: [0.45, 0.55]`, with its "
        "bots, games and seed; `rounds.change: [null, 0]` against a `baseline:` version) "
        "or, with `exact: true`, on the exact chance of one roll from a position "
        "(`sinks_any: [0, 1/2]`). `printgen check` checks them with the examples (`--no-"
        "claims` skips them); one the simulation refutes stays as a finding under "
        "`refuted:` until it holds.",
        "",
        "## Editor completion",
        "",
        "With the YAML language server (VS Code's YAML extension and others), a first line "
        "`# yaml-language-server: $schema=../../schemas/game.schema.json` (the path from the "
        "file to the schema) gives completion, the descriptions on hover, and errors as you "
        "type. `printgen new` writes that line in every file it makes.",
        "",
    ]
    return "\n".join(lines)


def doc_files(layouts_root: Path) -> dict[str, bytes]:
    """`docs/` as relative path -> bytes: the pages and the pictures."""
    _check_documented()
    card_live, text_live = live_names(layouts_root)
    extra = {
        "layout": _layout_extra(card_live),
        "section": _sections_extra(text_live),
        "book": _book_extra(),
    }
    pages = {"README.md": _index()}
    for kind in FILE_KINDS:
        pages[f"{kind.page}.md"] = _kind_page(kind, extra.get(kind.key))
    files = {name: text.encode("utf-8") for name, text in pages.items()}
    files.update(pictures(layouts_root))
    return files


def leftovers(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Files under `out` that an earlier run generated and this one no longer makes: pages
    with the generated header, pictures, schemas."""
    if not out.is_dir():
        return []
    found = []
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if not path.is_file() or rel in files:
            continue
        made = rel.endswith(".schema.json") or (
            rel.startswith("pictures/") and rel.endswith(".png")
        )
        if rel.endswith(".md"):
            made = path.read_text(encoding="utf-8", errors="replace").startswith(HEADER)
        if made:
            found.append(path)
    return found


def write_generated(out: Path, files: dict[str, bytes], what: str) -> None:
    """Write generated files, remove those no longer made, and say what changed."""
    import click

    from printgen.errors import display_path

    written = write_files(out, files)
    removed = leftovers(out, files)
    for path in removed:
        path.unlink()
    click.echo(
        f"{what}: {len(files)} files in {display_path(out)}/: {len(written)} written, "
        f"{len(removed)} removed, {len(files) - len(written)} unchanged"
    )


def differences(out: Path, files: dict[str, bytes]) -> list[str]:
    """What differs between `out` and `files` (relative paths): the staleness check."""
    differ = [
        rel
        for rel, data in sorted(files.items())
        if not (out / rel).is_file() or (out / rel).read_bytes() != data
    ]
    return differ + [p.relative_to(out).as_posix() for p in leftovers(out, files)]


# ----------------------------------------------------------------------------- help pages

_HELP_PAGE = re.compile(r"[A-Za-z0-9-]+\.md")
_HELP_PICTURE = re.compile(r"pictures/[a-z0-9-]+\.png")
_HEADING = re.compile(r"<(h[1-3])>(.*?)</h[1-3]>")
HELP_CSS = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;"
    "color:#1d2327}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d8dee3;"
    "padding:.2rem .45rem;vertical-align:top;text-align:left}code{background:#f1f3f5;"
    "padding:0 .2rem}pre{background:#f1f3f5;padding:.5rem;overflow-x:auto}img{border:1px solid "
    "#d8dee3}nav{margin-bottom:1rem}"
)


def _anchor(match: re.Match[str]) -> str:
    tag, inner = match.group(1), match.group(2)
    slug = re.sub(r"[^a-z0-9-]", "", re.sub(r"<[^>]+>", "", inner).lower().replace(" ", "-"))
    return f'<{tag} id="{slug}">{inner}</{tag}>'


def help_file(docs_root: Path, name: str) -> tuple[str, bytes] | None:
    """One page of the reference for the preview's /help/: (content type, body), the
    Markdown as HTML; a picture as it is; None for any other name."""
    from markdown_it import MarkdownIt

    name = name or "README.md"
    if _HELP_PICTURE.fullmatch(name):
        path = docs_root / name
        return ("image/png", path.read_bytes()) if path.is_file() else None
    if not _HELP_PAGE.fullmatch(name) or not (docs_root / name).is_file():
        return None
    source = (docs_root / name).read_text(encoding="utf-8").replace(HEADER, "", 1)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = _HEADING.sub(_anchor, md.render(source))
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>printgen reference: {name}</title><style>{HELP_CSS}</style></head><body>"
        '<nav><a href="/">All games</a> · <a href="/help/">Reference</a></nav>'
        f"{body}</body></html>"
    )
    return ("text/html; charset=utf-8", html.encode("utf-8"))


_describe_fields()
