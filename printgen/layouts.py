"""Layouts as data: card faces and backs, icons, fonts, sizes and papers, all from `layouts/`.

A layout is a YAML file `layouts/<name>.yaml`, named by its path without `.yaml`
(`submarine-attack/torpedo`).  `extends: base/card` inherits everything from
another layout: keys given again override, and elements are merged by `id`
(an element with a parent's id changes that element; a new id is appended;
`remove: [id, ...]` drops parent elements).  Any string value may be a Jinja
template (`"{{ values.dice }}"`) evaluated per card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from PIL import ImageColor
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from printgen.errors import ErrorList, Location, PrintgenError
from printgen.files import check_inside, project_file
from printgen.geometry import MAX_SIDE_MM
from printgen.source import Document, load_yaml, validate
from printgen.textlayout import MIN_LEADING
from printgen.units import Length, parse_length

Scalar = str | float | int
BoxSpec = Literal["bleed", "trim", "safe"] | list[Scalar]


def _not_negative(value: float) -> float:
    if value < 0:
        raise ValueError("must not be negative")
    if value > 100:
        raise ValueError("must be at most 100 mm")
    return value


Margin = Annotated[Length, AfterValidator(_not_negative)]


def _positive_size(value: tuple[float, float]) -> tuple[float, float]:
    for side in value:
        if side <= 0:
            raise ValueError("sides must be more than zero")
        if side > MAX_SIDE_MM:
            raise ValueError(f"sides must be at most {MAX_SIDE_MM:g} mm")
    return value


Size = Annotated[tuple[Length, Length], AfterValidator(_positive_size)]


class Strict(BaseModel):
    # Each field's docstring is its description in the authoring reference and the JSON
    # Schemas; printgen/reference.py reads them when it writes those (reading every model's
    # source here would slow every command's start).
    model_config = ConfigDict(extra="forbid", frozen=True)


class Element(Strict):
    """One drawn thing on a face. Which keys apply depends on `type`.

    Text is `role: body` (the default: what a player reads to play, never under 7 pt) or
    `role: secondary` (footers, labels, captions, reminders: never under 6 pt). `size` is
    the size wanted; if the text does not fit, it shrinks in half points down to
    `min_size`, and never below its role's floor (a `min_size` under the floor counts as
    the floor). A `size` under the floor, or text that does not fit at the floor, is an
    error naming the piece and the layout line: change the layout (a bigger box, fewer
    lines, two columns), do not shrink it. `leading` (line pitch in font sizes) is at
    least 1.15 so that lines never touch.
    """

    id: str | None = None
    """A name for the element; a layout that `extends` this one changes the element by giving the
    same id (or drops it with `remove`)."""
    type: Literal["rect", "ellipse", "line", "polygon", "text", "icon", "image"] | None = None
    """What to draw: rect, ellipse, line, polygon, text, icon or image. Needed unless the id names
    a parent's element."""
    when: str | None = None
    """A template: the element is drawn only when it gives something other than empty, false, 0,
    none or no (`"{{ values.dice > 4 }}"`)."""
    box: BoxSpec = "trim"
    """Where it is drawn: `trim` (the default: the card's edge), `bleed`, `safe`, or `[x, y, width,
    height]` from the top-left of the trim (`[4mm, 10mm, 55mm, 20mm]`; negative x/y count from
    the right/bottom edge). Each may be a share of the card: `[5%, 5%, 90%, 20%]` (x and width
    of its width, y and height of its height), so one layout fits several card sizes."""
    points: list[list[Scalar]] | None = None
    """line, polygon: the points `[[x, y], ...]`, relative to the box's top-left (lengths, mm by
    default, or shares of the box: `[[0, 0], [100%, 0], [50%, 100%]]`)."""
    fill: str | None = None
    """Fill colour: `#rrggbb`, a CSS name or a name from the layout's `colours`; none: no fill (may
    be a template)."""
    stroke: str | None = None
    """Outline colour (as `fill`); none: no outline."""
    stroke_width: Scalar = "0.3mm"
    """Outline width, a length (default `0.3mm`)."""
    radius: Scalar = 0
    """rect: corner radius, a length or a share of the box's shorter side (`10%`; default 0:
    square corners)."""
    dash: list[float] | None = None
    """rect, line, polygon: a dashed outline, dash and gap lengths in mm (`[2, 1]`)."""
    text: str | None = None
    """text: what to print, a template (`"{{ t(name) }}"`); `:dice:` puts the icon `dice` in the
    line, a line break starts a new line."""
    font: str = "regular"
    """text: a font role of the layout's `fonts` (`regular`, `bold`) or a key of
    layouts/fonts.yaml; default `regular`."""
    size: Scalar = "9pt"
    """text: the font size wanted (default `9pt`); text that does not fit shrinks in half points
    down to `min_size`."""
    min_size: Scalar | None = None
    """text: the smallest size the text may shrink to (never under its role's floor)."""
    role: Literal["body", "secondary"] = Field(
        "body",
        description="body: text read to play (at least 7 pt); secondary: footers, labels, "
        "captions and reminders (at least 6 pt)",
    )
    leading: float = 1.2
    """text: line pitch in font sizes, from 1.15 to 5 (default 1.2)."""
    align: Literal["left", "center", "right"] = "left"
    """Horizontal alignment: left (default), center or right; a centred repeated shape is centred
    as a row."""
    valign: Literal["top", "middle", "bottom"] = "top"
    """text: vertical alignment in the box: top (default), middle or bottom."""
    colour: str = "#000000"
    """text, icon: the ink colour (default `#000000`)."""
    icon: str | None = None
    """icon: the icon's name from icons.yaml (may be a template: `"{{ values.action }}"`)."""
    image: str | None = None
    """image: a PNG or JPEG file, looked up in the game's folder, then in layouts/ (may be a
    template)."""
    repeat: Scalar | list[Scalar] = 1
    """Draw the element n times (`repeat: 3`, or a template) side by side, or `[cols, rows]` as a
    grid; each copy sees `i`, `col`, `row`."""
    step: list[Scalar] | None = None
    """The offset `[dx, dy]` between repeated copies, lengths or shares of the box (`[150%, 0]`;
    default: the box's width, and height for a grid)."""
    each: str | None = None
    """An expression giving a list (`values.dice_faces`): the element is drawn once per item, which
    it sees as `item` (and `i`)."""

    @field_validator("dash")
    @classmethod
    def _dash(cls, value: list[float] | None) -> list[float] | None:
        if value is not None and (not value or any(not 0 < d <= 100 for d in value)):
            raise ValueError("must be dash and gap lengths in mm, each more than 0 and at most 100")
        return value

    @field_validator("leading")
    @classmethod
    def _leading(cls, value: float) -> float:
        if not MIN_LEADING <= value <= 5:
            raise ValueError(
                f"must be between {MIN_LEADING:g} and 5 (times the font size): closer lines touch"
            )
        return value


class LayoutString(Strict):
    """Card copy in both languages; may hold templates (`{{ values.dice }}`)."""

    ja: str
    """The Japanese copy (may be a template)."""
    en: str
    """The English copy (may be a template)."""


class LayoutFile(Strict):
    extends: str | None = None
    """The layout this one builds on (`base/card`): it inherits everything, keys given here
    override, elements merge by `id`."""
    description: str | None = None
    """What this layout is for (a note for designers; not printed)."""
    size: str | list[Scalar] | None = None
    """The trim size: a preset from presets.yaml (`poker`) or `[width, height]` (`[63mm, 88mm]`)."""
    sizes: list[str | list[Scalar]] | None = None
    """Other sizes this layout is made for besides `size` (presets or `[width, height]`):
    a component may state any of them (`size: mini`). A layout whose boxes are in % fits
    them all; a component stating a size its layout is not made for is an error."""
    bleed: Margin | None = None
    """Bleed around the trim, a length (default from presets.yaml `sheet.bleed`, 3mm); at most 100
    mm."""
    safe: Margin | None = None
    """Safe margin inside the trim that text should keep out of, a length (default `sheet.safe`,
    3mm)."""
    fonts: dict[str, str] = Field(default_factory=dict)
    """Font roles: role name to a key of layouts/fonts.yaml
    (`{regular: gothic, bold: gothic-bold}`)."""
    colours: dict[str, str] = Field(default_factory=dict)
    """Named colours the elements may use (`{navy: "#1b2a49"}`)."""
    strings: dict[str, LayoutString] = Field(default_factory=dict)
    """Fixed copy in both languages, by name (`{title: {ja: ..., en: ...}}`); templates read it as
    `s.title`."""
    remove: list[str] = Field(default_factory=list)
    """Ids of the parent layout's elements to drop."""
    elements: list[Element] = Field(default_factory=list)
    """What is drawn, in order (later elements on top)."""


class FontSpec(Strict):
    file: str
    """The TrueType font file (.ttf), relative to layouts/ (`fonts/BIZUDPGothic-Regular.ttf`)."""
    licence: str
    """The font's licence file, relative to layouts/; fonts are vendored with their licences."""
    family: str | None = None
    """The font family's name (optional), used by the rulebook's CSS."""


class IconShape(Strict):
    type: Literal["rect", "ellipse", "polygon", "line"]
    """The shape: rect, ellipse, polygon or line."""
    box: list[float] | None = None
    """rect, ellipse: `[x, y, width, height]` in the icon's unit square (0..1, y down)."""
    points: list[list[float]] | None = None
    """polygon, line: `[[x, y], ...]` in the unit square."""
    fill: str | None = None
    """Fill colour; `current`: the surrounding text or element colour."""
    stroke: str | None = None
    """Outline colour; `current`: the surrounding colour."""
    stroke_width: float = 0.0
    """Outline width in units of the icon's size (0.08: 8% of it); default 0."""
    radius: float = 0.0
    """rect: corner radius in units of the icon's size; default 0."""


class SheetSettings(Strict):
    margin: Margin = 5.0
    """Nothing is printed closer to the paper edge than this, a length (default 5mm)."""
    mark_length: Margin = 2.0
    """Room kept outside the trim for crop marks, a length (default 2mm)."""
    mark_width_pt: Annotated[float, Field(gt=0, le=5)] = 0.25
    """Crop mark line width in points (default 0.25, at most 5)."""
    band: Margin = 5.0
    """Height of the band holding the instruction line and scale bar, a length (default 5mm)."""
    bleed: Margin = 3.0
    """Default bleed of a layout, a length (default 3mm)."""
    safe: Margin = 3.0
    """Default safe margin of a layout, a length (default 3mm)."""
    scale_bar: Annotated[Length, Field(gt=0, le=200)] = 50.0
    """Length of the scale bar printed to check the print scale (default 50mm)."""


class PresetsFile(Strict):
    sizes: dict[str, Size]
    """Named piece sizes: `name: [width, height]` (`poker: [63mm, 88mm]`)."""
    papers: dict[str, Size]
    """Named paper sizes: `name: [width, height]` (`a4: [210mm, 297mm]`)."""
    sheet: SheetSettings = SheetSettings()
    """Settings of the print sheets: margins, crop marks, default bleed and safe zone."""


@dataclass(frozen=True)
class Font:
    key: str
    path: Path
    licence: Path


@dataclass
class Layout:
    """A fully resolved layout (inheritance applied)."""

    name: str
    size: str | list[Scalar] | None
    bleed: float
    safe: float
    fonts: dict[str, str]
    colours: dict[str, str]
    strings: dict[str, LayoutString]
    elements: list[Element]
    places: dict[int, Location] = field(default_factory=dict)
    where: Location | None = None
    own_size: str | list[Scalar] | None = None  # the size this layout's own file states
    sizes: list[str | list[Scalar]] = field(default_factory=list)  # others it is made for
    size_where: Location | None = None  # where the size in force is written
    bleed_where: Location | None = None  # where the bleed in force is written
    # id(element) -> its keys' places (a merged element keeps its parent's for keys it
    # did not set); a string's place by "key.lang"
    field_places: dict[int, dict[str, Location]] = field(default_factory=dict)
    string_places: dict[str, Location] = field(default_factory=dict)
    # What the faces drawn with this layout work out alike, worked out once: the boxes and
    # colours of elements without templates, by `printgen.render` (not part of equality).
    static: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def field_where(self, element: Element | None, key: str) -> Location | None:
        """The place of one key of an element (else of the element, else of the layout)."""
        if element is None:
            return self.where
        found = self.field_places.get(id(element), {}).get(key)
        return found or self.places.get(id(element), self.where)


@dataclass
class LayoutLibrary:
    """Everything under `layouts/`: layouts, icons, fonts, size and paper presets."""

    root: Path
    presets: PresetsFile
    fonts: dict[str, Font]
    icons: dict[str, list[IconShape]]
    files: dict[str, Path]
    # SVG icons by name: "" the shared ones (layouts/icons/*.svg), else a game's own
    # (layouts/<game>/icons/*.svg), which shadow shared icons of the same name
    svg_icons: dict[str, dict[str, Path]] = field(default_factory=dict)
    _parsed: dict[str, tuple[LayoutFile, Document]] = field(default_factory=dict)
    _resolved: dict[str, Layout] = field(default_factory=dict)
    _icons: dict[str, tuple[dict[str, list[IconShape] | Path], frozenset[str]]] = field(
        default_factory=dict
    )

    def icons_for(self, game_id: str) -> dict[str, list[IconShape] | Path]:
        """The icons a game's faces may use: icons.yaml, then the shared SVG icons, then
        the game's own SVG icons (a later one shadows an earlier one of the same name)."""
        return self.icons_and_names(game_id)[0]

    def icons_and_names(
        self, game_id: str
    ) -> tuple[dict[str, list[IconShape] | Path], frozenset[str]]:
        """`icons_for` and the set of their names, made once per game (every face of the
        game draws with them, and each text laid out keeps the names it was laid out
        with: one set for all, not one per face)."""
        found = self._icons.get(game_id)
        if found is None:
            icons: dict[str, list[IconShape] | Path] = {**self.icons}
            icons.update(self.svg_icons.get("", {}))
            icons.update(self.svg_icons.get(game_id, {}))
            found = self._icons[game_id] = (icons, frozenset(icons))
        return found

    def parsed(self, name: str) -> tuple[LayoutFile, Document]:
        """A layout file, read and validated the first time a piece needs it."""
        if name not in self._parsed:
            doc = load_yaml(self.files[name], [self.root])
            self._parsed[name] = (validate(LayoutFile, doc), doc)
        return self._parsed[name]

    def layout(self, name: str, where: Location | None = None) -> Layout:
        if name not in self._resolved:
            self._resolved[name] = self._resolve(name, where, ())
        return self._resolved[name]

    def _resolve(self, name: str, where: Location | None, chain: tuple[str, ...]) -> Layout:
        if name not in self.files:
            known = ", ".join(sorted(self.files))
            raise PrintgenError(
                f"unknown layout '{name}': add layouts/{name}.yaml or use one of: {known}", where
            )
        if name in chain:
            raise PrintgenError(
                f"layout '{name}' extends itself through {' -> '.join(chain)}", where
            )
        spec, doc = self.parsed(name)
        here = doc.where(())
        if spec.extends:
            base = self._resolve(spec.extends, doc.where(("extends",)), (*chain, name))
        else:
            sheet = self.presets.sheet
            base = Layout(name, None, sheet.bleed, sheet.safe, {}, {}, {}, [])
        elements = [e for e in base.elements if e.id is None or e.id not in spec.remove]
        places = {id(e): base.places[id(e)] for e in elements if id(e) in base.places}
        field_places = {
            id(e): base.field_places[id(e)] for e in elements if id(e) in base.field_places
        }
        for i, element in enumerate(spec.elements):
            element_where = doc.where(("elements", i))
            own = {k: doc.where(("elements", i, k)) for k in element.model_fields_set}
            match = next(
                (k for k, e in enumerate(elements) if element.id and e.id == element.id), None
            )
            if match is None:
                if element.type is None:
                    raise PrintgenError(
                        f"element '{element.id}' needs a type (rect, ellipse, line, polygon, text, "
                        "icon, image), or the id of a parent element to change",
                        element_where,
                    )
                elements.append(element)
                places[id(element)] = element_where
                field_places[id(element)] = own
                continue
            parent = elements[match]
            merged = parent.model_copy(update=element.model_dump(exclude_unset=True))
            elements[match] = merged
            places[id(merged)] = element_where
            field_places[id(merged)] = {**field_places.get(id(parent), {}), **own}
        return Layout(
            name=name,
            size=spec.size if spec.size is not None else base.size,
            bleed=spec.bleed if spec.bleed is not None else base.bleed,
            safe=spec.safe if spec.safe is not None else base.safe,
            fonts={**base.fonts, **spec.fonts},
            colours={**base.colours, **spec.colours},
            strings={**base.strings, **spec.strings},
            elements=elements,
            places=places,
            where=here,
            own_size=spec.size,
            sizes=list(spec.sizes) if spec.sizes is not None else base.sizes,
            size_where=doc.where(("size",)) if spec.size is not None else base.size_where,
            bleed_where=doc.where(("bleed",)) if spec.bleed is not None else base.bleed_where,
            field_places=field_places,
            string_places={
                **base.string_places,
                **{
                    f"{key}.{lang}": doc.where(("strings", key, lang))
                    for key in spec.strings
                    for lang in ("ja", "en")
                },
            },
        )

    def size_of(
        self, size: str | list[Scalar] | tuple[float, float] | None, where: Location | None
    ) -> tuple[float, float]:
        if size is None:
            raise PrintgenError("no size given: set 'size' on the component or its layout", where)
        if isinstance(size, str):
            if size not in self.presets.sizes:
                known = ", ".join(sorted(self.presets.sizes))
                raise PrintgenError(f"unknown size preset '{size}' (known: {known})", where)
            w, h = self.presets.sizes[size]
            return (w, h)
        if len(size) != 2:
            raise PrintgenError(f"size must be [width, height], got {size!r}", where)
        try:
            return (parse_length(size[0]), parse_length(size[1]))
        except ValueError as exc:
            raise PrintgenError(f"size {exc}", where) from None

    def paper(self, name: str) -> tuple[float, float]:
        if name not in self.presets.papers:
            raise PrintgenError(f"unknown paper '{name}' (known: {', '.join(self.presets.papers)})")
        w, h = self.presets.papers[name]
        return (w, h)

    def font(self, layout: Layout, key: str, where: Location | None) -> Font:
        """A layout's font role (`regular`, `bold`) or a font key from layouts/fonts.yaml."""
        font_key = layout.fonts.get(key, key)
        if font_key not in self.fonts:
            roles = ", ".join(sorted(layout.fonts)) or "none"
            raise PrintgenError(
                f"unknown font '{key}' (layout roles: {roles}; fonts: {', '.join(sorted(self.fonts))})",
                where,
            )
        return self.fonts[font_key]


def colour(value: str, palette: dict[str, str], where: Location | None) -> str:
    """A colour as `#rrggbb`: hex, a CSS name, or a name from the layout's `colours`."""
    value = palette.get(value, value).strip()
    try:
        rgb = ImageColor.getrgb(value)
    except ValueError:
        raise PrintgenError(
            f"unknown colour '{value}': use #rrggbb, a CSS colour name or one of the layout's colours",
            where,
        ) from None
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def load_library(root: Path) -> LayoutLibrary:
    """Read and validate every file under `layouts/`; missing font files are errors here."""
    errors: list[PrintgenError] = []
    presets_doc = load_yaml(root / "presets.yaml", [root])
    presets = validate(PresetsFile, presets_doc)
    fonts_doc = load_yaml(root / "fonts.yaml", [root])
    fonts: dict[str, Font] = {}
    for key, value in _mapping(fonts_doc, "fonts.yaml maps font keys to {file, licence}").items():
        try:
            spec = validate(FontSpec, fonts_doc, value, (key,))
        except ErrorList as exc:
            errors.extend(exc.errors)
            continue
        found: dict[str, Path] = {}
        for field_name, name in (("file", spec.file), ("licence", spec.licence)):
            where = fonts_doc.where((key, field_name))
            try:
                path = project_file(name, [root], where, f"font {field_name}")
                if path is None:
                    raise PrintgenError(
                        f"font {field_name} '{name}' not found in layouts/: vendor the file or "
                        "correct the path",
                        where,
                    )
                if field_name == "file":
                    _check_truetype(path, where)
                found[field_name] = path
            except PrintgenError as exc:
                errors.append(exc)
        if len(found) == 2:
            fonts[key] = Font(key, found["file"], found["licence"])
    icons_doc = load_yaml(root / "icons.yaml", [root])
    icons: dict[str, list[IconShape]] = {}
    for key, shapes in _mapping(icons_doc, "icons.yaml maps icon names to lists of shapes").items():
        if not isinstance(shapes, list):
            errors.append(
                PrintgenError(f"icon '{key}' must be a list of shapes", icons_doc.where((key,)))
            )
            continue
        try:
            icons[key] = [validate(IconShape, icons_doc, s, (key, i)) for i, s in enumerate(shapes)]
        except ErrorList as exc:
            errors.extend(exc.errors)
    files: dict[str, Path] = {}
    for path in sorted(root.rglob("*.yaml")):
        try:
            check_inside(path, [root], Location(path, 1, 1), "layout file")
        except PrintgenError as exc:
            errors.append(exc)
            continue
        rel = path.relative_to(root)
        if len(rel.parts) >= 2 and rel.parts[0] != "rulebook":
            files[rel.with_suffix("").as_posix()] = path
    svg_icons: dict[str, dict[str, Path]] = {}
    for path in sorted(root.glob("icons/*.svg")) + sorted(root.glob("*/icons/*.svg")):
        try:
            check_inside(path, [root], Location(path, 1, 1), "icon file")
        except PrintgenError as exc:
            errors.append(exc)
            continue
        if not re.fullmatch(r"[a-z0-9-]+", path.stem):
            errors.append(
                PrintgenError(
                    f"icon file {path.name}: name SVG icons with lower-case letters, digits "
                    "and '-' only (the name is what :name: in text uses)",
                    Location(path, 1, 1),
                )
            )
            continue
        rel = path.relative_to(root)
        svg_icons.setdefault("" if len(rel.parts) == 2 else rel.parts[0], {})[path.stem] = path
    if errors:
        raise ErrorList(errors)
    return LayoutLibrary(root, presets, fonts, icons, files, svg_icons)


def _mapping(doc: Document, what: str) -> dict[str, object]:
    if doc.data is None:
        return {}
    if not isinstance(doc.data, dict):
        raise PrintgenError(f"expected a mapping: {what}", doc.where(()))
    return {str(k): v for k, v in doc.data.items()}


def _check_truetype(path: Path, where: Location | None) -> None:
    """reportlab embeds TrueType outlines only: say so before it fails deep inside."""
    with path.open("rb") as f:
        magic = f.read(4)
    if magic == b"OTTO":
        raise PrintgenError(
            f"font file {path.name} has PostScript (CFF) outlines: use a TrueType (.ttf) font",
            where,
        )
    if magic not in (b"\x00\x01\x00\x00", b"true"):
        raise PrintgenError(f"{path.name} is not a TrueType font file (.ttf)", where)


def default_root() -> Path:
    """`layouts/` of the working directory, where the project's layouts live."""
    return Path.cwd() / "layouts"
