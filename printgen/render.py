"""From a layout and a piece's data to drawing operations (see `printgen.ops`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printgen import fonts
from printgen.errors import Location, PrintgenError
from printgen.files import check_image, project_file
from printgen.geometry import (
    EPSILON,
    SafeZoneReport,
    TextPlacement,
    box_on_face,
    check_box_on_face,
    check_margins,
    check_size,
    text_extent,
    text_margins,
)
from printgen.languages import LANG_CHOICES as LANG_CHOICES  # where callers look for it
from printgen.layouts import Element, IconShape, Layout, LayoutLibrary, Scalar, colour
from printgen.memo import ByIdentity
from printgen.model import Deck, Game, GameInfo, Piece, Text
from printgen.ops import Ellipse, Face, Op, Picture, Polygon, Rect, TextRun, Vector
from printgen.templating import (
    RULES_ORIGIN,
    Origin,
    TemplateFailure,
    data_view,
    evaluate,
    is_template,
    pure_function,
    render,
    render_field,
    stable_type,
    template_error,
)
from printgen.textlayout import Fitted, TextDoesNotFit, layout_text, unknown_icons
from printgen.units import parse_length, pt_to_mm

# The smallest text a player can read at arm's length, by the field's `role`.
FLOOR_PT = {"body": 7.0, "secondary": 6.0}
MAX_FIELD_TEXT = 5_000  # characters in one text field of a piece
MAX_FONT_PT = 400.0
MIN_IMAGE_DPI = 300  # a raster image printed at fewer pixels per inch looks soft: a warning


def pick(value: Any, lang: str) -> str:
    """A bilingual value in the chosen language; `both` stacks Japanese over English (once
    when the two are the same, as "HP +10")."""
    if isinstance(value, Text):
        if lang == "both" and value.ja != value.en:
            return f"{value.ja}\n{value.en}"
        return value.en if lang == "en" else value.ja
    if isinstance(value, dict) and set(value) >= {"ja", "en"}:
        return pick(Text(ja=str(value["ja"]), en=str(value["en"])), lang)
    return "" if value is None else str(value)


@dataclass(frozen=True)
class FaceRequest:
    """Which face of which piece, in which language."""

    piece: Piece
    side: str  # "front" or "back"
    lang: str

    @property
    def key(self) -> str:
        return f"{self.piece.id}.{self.side}.{self.lang}"


@dataclass(frozen=True)
class FieldText:
    """One text field as laid out on a face (for checks: sizes, line breaks, pitch)."""

    id: str | None
    instance: int  # which one of a repeated field (`repeat`, `each`)
    role: str
    text: str  # the field's text before line breaking
    width: float  # of its box, mm
    leading: float
    fitted: Fitted
    font_name: str
    where: Location | None


def face_layout(lib: LayoutLibrary, req: FaceRequest) -> tuple[str, Location]:
    if req.side == "front":
        return req.piece.component.layout, req.piece.where
    back = req.piece.back_layout
    if back is None:
        raise PrintgenError(f"{req.piece.id} has no back", req.piece.where)
    return back, req.piece.where


def piece_size(lib: LayoutLibrary, piece: Piece) -> tuple[float, float]:
    """The trim size of a piece: its own `size`, else its layout's. A size the component
    states must be one the layout is made for (its `size` or one of its `sizes`, its own
    or inherited): a size written twice that differs is a mistake in one of them."""
    layout = lib.layout(piece.component.layout, piece.where)
    comp = piece.component
    where = piece.place("size") if comp.size is not None else layout.size_where or layout.where
    size = lib.size_of(comp.size if comp.size is not None else layout.size, where)
    check_size(*size, where, f"component {piece.id}:")
    if comp.size is not None and layout.size is not None:
        at = layout.size_where or layout.where
        made_for = [lib.size_of(s, at) for s in [layout.size, *layout.sizes]]
        if not any(
            all(abs(a - b) <= EPSILON for a, b in zip(size, other, strict=True))
            for other in made_for
        ):
            listed = ", ".join(f"{w:g} x {h:g} mm" for w, h in made_for)
            raise PrintgenError(
                f"component {piece.id} is {size[0]:g} x {size[1]:g} mm but its layout "
                f"{layout.name} is made for {listed} (at {at}): leave out the component's "
                "size to take the layout's, or add this size to the layout's sizes: [...] "
                "(with its boxes in % it fits every size it lists)",
                piece.place("size"),
            )
    return size


def piece_label(piece: Piece) -> str:
    """`component torpedo-a (copies 1-2)`: which piece a message is about."""
    return f"component {piece.id} ({copies_text(piece.count)})"


class _Picker:
    """`t(value)` in templates: a bilingual value in the face's language (see `pick`)."""

    __slots__ = ("lang",)

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, value: Any) -> str:
        return pick(value, self.lang)


_PICKERS = {lang: _Picker(lang) for lang in LANG_CHOICES}
# What templates read that never changes once made (frozen models, the pickers): a render
# that reads only these, text and numbers is reused (the deck's colour on its cards).
for _frozen in (Deck, GameInfo, Text, _Picker):
    stable_type(_frozen)
pure_function(_Picker)  # `{{ t(name) }}` is read without Jinja (printgen/templating.py)


def _rules_view(game: Game) -> Any:
    return data_view(game.rule_params(), RULES_ORIGIN)


# The game's rule parameters as template data (`rules.target_points`), made once per game:
# every face reads them, and every text of its rulebook (which made the same view 3,600
# times, a quarter of the books' HTML). Templates change no data (the sandbox is immutable),
# so one view serves them all.
rules_view: ByIdentity[Game, Any] = ByIdentity(_rules_view, 16)


def context(game: Game, piece: Piece, lang: str) -> dict[str, Any]:
    comp = piece.component
    label = piece_label(piece)
    values = data_view(dict(comp.values), Origin(label, "value", piece.place("values")))
    deck_values = data_view(
        dict(piece.deck.values) if piece.deck else {},
        Origin(
            f"deck {piece.deck.id}" if piece.deck else f"{label}, which has no deck,",
            "value",
            piece.deck_where if piece.deck else piece.where,
        ),
    )
    base = {
        "values": values,
        "deck": piece.deck,
        "deck_values": deck_values,
        "game": game.info,
        "rules": rules_view(game),
    }
    text = None
    if comp.text is not None:
        where = piece.place("text")
        text = Text(
            ja=render_field(comp.text.ja, base, where, f"{label}, text.ja"),
            en=render_field(comp.text.en, base, where, f"{label}, text.en"),
        )
    return {
        **base,
        "name": comp.name,
        "text": text,
        "kind": comp.kind,
        "component": comp,
        "piece_id": piece.id,
        "decks": game.decks,
        "lang": lang,
        "t": _PICKERS.get(lang) or _Picker(lang),
    }


def render_face(
    lib: LayoutLibrary,
    game: Game,
    req: FaceRequest,
    report: SafeZoneReport | None = None,
    fields: list[FieldText] | None = None,
) -> Face:
    """Evaluate every element of the face's layout for this piece; text that reaches into
    the safe margin is noted in `report`, and each text field as laid out in `fields`."""
    layout_name, where = face_layout(lib, req)
    layout = lib.layout(layout_name, where)
    w, h = piece_size(lib, req.piece)
    bleed_where = layout.bleed_where or layout.where
    check_margins(w, h, layout.bleed, layout.safe, bleed_where, layout.name)
    ctx = context(game, req.piece, req.lang)
    ctx["side"] = req.side
    drawer = _FaceDrawer(lib, game, layout, req, ctx, w, h)
    drawer.report = report
    drawer.fields = fields
    for element in layout.elements:
        drawer.element(element)
    return Face(req.key, w, h, layout.bleed, tuple(drawer.ops))


# Text laid out by `_FaceDrawer.fit`, with the icon names it was tokenized with (a name
# that is not an icon stays text); bounded, as a long-running process renders many games.
_FITTED: dict[tuple[Any, ...], tuple[frozenset[str], Fitted]] = {}
_FITTED_MAX = 20_000
_ICON_OPS: dict[tuple[int, float, float, float, float, str], tuple[list[Any], tuple[Op, ...]]] = {}
_ICON_OPS_MAX = 4096  # icons in their places, kept with the shapes they were made from


class _FaceDrawer:
    def __init__(
        self,
        lib: LayoutLibrary,
        game: Game,
        layout: Layout,
        req: FaceRequest,
        ctx: dict[str, Any],
        w: float,
        h: float,
    ) -> None:
        self.lib, self.game, self.layout, self.req, self.ctx = lib, game, layout, req, ctx
        self.w, self.h = w, h
        self.ops: list[Op] = []
        self.where: Location | None = layout.where
        self.element_now: Element | None = None
        self.report: SafeZoneReport | None = None
        self.fields: list[FieldText] | None = None
        self.limit = game.info.limits.repeat
        # the game's own SVG icons shadow shared ones
        self.icons, self.icon_names = lib.icons_and_names(game.id)
        ctx["s"] = _Strings(self)

    def about(self, what: str) -> str:
        """`component torpedo-a (copies 1-2), front (en), field 'dice'` for messages."""
        req = self.req
        name = self.element_now.id if self.element_now and self.element_now.id else None
        field_name = f"field '{name}' ({what})" if name else what
        return f"{piece_label(req.piece)}, {req.side} ({req.lang}), {field_name}"

    def value(self, raw: Any, what: str, where: Location | None = None) -> Any:
        if is_template(raw):
            try:
                return render(raw, self.ctx)
            except TemplateFailure as exc:
                # The place and the name of the field are worked out for the message only.
                here = where or self.layout.field_where(self.element_now, what.split(".")[0])
                raise template_error(exc, here, self.about(what)) from None
        return raw

    def length(self, raw: Any, what: str, of: float | None = None) -> float:
        """A length of the layout in mm; with `of`, a share in % of it is allowed too."""
        value = self.value(raw, what)
        try:
            return parse_length(value, of)
        except ValueError as exc:
            here = self.layout.field_where(self.element_now, what)
            raise PrintgenError(f"{self.layout.name}: {what} {exc}", here) from None

    def colour(self, raw: str | None, what: str) -> str | None:
        if raw is None or raw == "none":
            return None
        if is_template(raw):
            return colour(str(self.value(raw, what)), self.layout.colours, self.where)
        key = ("colour", raw)  # the same for every face of the layout: worked out once
        found: str | None = self.layout.static.get(key)
        if found is None:
            found = self.layout.static[key] = colour(raw, self.layout.colours, self.where)
        return found

    def box(self, element: Element) -> tuple[float, float, float, float]:
        """The element's box on this face; one without templates is worked out once per
        layout and card size."""
        key = ("box", id(element), self.w, self.h)
        found: tuple[float, float, float, float] | None = self.layout.static.get(key)
        if found is not None:
            return found
        box = self._box(element)
        spec = element.box
        if isinstance(spec, str) or not any(is_template(v) for v in spec):
            self.layout.static[key] = box
        return box

    def _box(self, element: Element) -> tuple[float, float, float, float]:
        spec = element.box
        b, s = self.layout.bleed, self.layout.safe
        if spec == "bleed":
            return (-b, -b, self.w + 2 * b, self.h + 2 * b)
        if spec == "trim":
            return (0.0, 0.0, self.w, self.h)
        if spec == "safe":
            return (s, s, self.w - 2 * s, self.h - 2 * s)
        if len(spec) != 4:
            raise PrintgenError(
                f"{self.layout.name}: box must be [x, y, width, height]", self.where
            )
        # Lengths in mm, or in % of the card's trim width (x, width) and height (y, height):
        # a layout in % fits cards of any size. Negative x/y count from the right/bottom edge.
        x, y, bw, bh = (
            self.length(v, "box", of) for v, of in zip(spec, (self.w, self.h) * 2, strict=True)
        )
        return (self.w + x - bw if x < 0 else x, self.h + y - bh if y < 0 else y, bw, bh)

    def element(self, element: Element) -> None:
        """Draw an element once, or once per instance: `repeat: n` or `[cols, rows]` with
        `step`, or `each: <expression>` over a list from the data. Each instance sees
        `i` (0-based), `col`, `row` and, with `each`, `item` in its templates."""
        self.where = self.layout.places.get(id(element), self.layout.where)
        self.element_now = element
        if element.each is not None:
            items = self.expression(element.each, "each")
            where = self.layout.field_where(element, "each")
            if not isinstance(items, list | tuple):
                raise PrintgenError(
                    f"{self.about('each')}: each must give a list, got {str(items)[:60]!r}", where
                )
            self.check_instances(len(items), "each", element)
            step = self.step(element) if element.step else (0.0, 0.0)
            for i, item in enumerate(items):
                self.instance(element, i, i, 0, {"item": item}, (i * step[0], i * step[1]))
            return
        raw = element.repeat
        cols, rows = (raw if isinstance(raw, list) else [raw, 1])[:2]
        n_cols, n_rows = self.count(cols), self.count(rows)
        self.check_instances(n_cols * n_rows, "repeat", element)
        _x, _y, bw, bh = self.box(element)
        if element.step:
            dx, dy = self.step(element)
        else:
            dx, dy = bw, (bh if isinstance(raw, list) else 0.0)
        shift = (0.0, 0.0)
        if n_cols > 1 and n_rows == 1 and element.align == "center" and element.type != "text":
            shift = (-(n_cols - 1) * dx / 2, -(n_cols - 1) * dy / 2)
        for row in range(max(n_rows, 0)):
            for col in range(max(n_cols, 0)):
                offset = (col * dx, row * dy) if isinstance(raw, list) else (col * dx, col * dy)
                i = row * n_cols + col
                self.instance(
                    element, i, col, row, {}, (shift[0] + offset[0], shift[1] + offset[1])
                )

    def step(self, element: Element) -> tuple[float, float]:
        """The shift from one instance to the next: mm, or % of the element's box."""
        _x, _y, bw, bh = self.box(element)
        where = self.layout.field_where(element, "step")
        if len(element.step or []) != 2:
            raise PrintgenError(f"{self.about('step')}: step is [x, y], got {element.step}", where)
        steps = zip(element.step or [], (bw, bh), strict=True)
        dx, dy = (self.length(v, "step", of) for v, of in steps)
        return dx, dy

    def count(self, raw: Scalar) -> int:
        """A repeat count: a whole number, 0 or more (it may come from a template)."""
        value = self.value(raw, "repeat")
        if type(value) is int and value >= 0:
            return value
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = -1.0
        if not math.isfinite(number) or number < 0 or number != int(number):
            raise PrintgenError(
                f"{self.about('repeat')}: repeat must be a whole number (0 or more), got {value!r}",
                self.layout.field_where(self.element_now, "repeat"),
            )
        return int(number)

    def check_instances(self, n: int, what: str, element: Element) -> None:
        """At most the game's `limits.repeat` instances of `element` (its `what`: each or
        repeat) on one face."""
        if n > self.limit:
            raise PrintgenError(
                f"{self.about(what)}: {n:,} instances on one face, more than {self.limit:,}: "
                "lower it, or raise limits: {repeat: N} in game.yaml",
                self.layout.field_where(element, what),
            )

    def instance(
        self,
        element: Element,
        i: int,
        col: int,
        row: int,
        extra: dict[str, Any],
        offset: tuple[float, float],
    ) -> None:
        self.ctx.update({"i": i, "col": col, "row": row, **extra})
        if element.when is not None:
            shown = self.value(element.when, "when")
            if str(shown).strip().lower() in ("", "false", "0", "none", "no"):
                return
        x, y, bw, bh = self.box(element)
        x, y = x + offset[0], y + offset[1]
        if (
            element.type != "line"
            and element.type != "polygon"
            and not box_on_face((x, y, bw, bh), self.w, self.h, self.layout.bleed)
        ):
            check_box_on_face(
                (x, y, bw, bh),
                self.w,
                self.h,
                self.layout.bleed,
                self.layout.field_where(element, "box"),
                f"{self.about('box')}",
            )
        self.draw(element, x, y, bw, bh)

    def expression(self, source: str, what: str) -> Any:
        try:
            return evaluate(source, self.ctx)
        except TemplateFailure as exc:
            here = self.layout.field_where(self.element_now, what)
            raise template_error(exc, here, self.about(what)) from None

    def draw(self, e: Element, x: float, y: float, w: float, h: float) -> None:
        fill = self.colour(e.fill, "fill")
        stroke = self.colour(e.stroke, "stroke")
        sw = self.length(e.stroke_width, "stroke_width")
        if e.type == "rect":
            dash = tuple(e.dash) if e.dash else None
            self.ops.append(
                Rect(x, y, w, h, fill, stroke, sw, self.length(e.radius, "radius", min(w, h)), dash)
            )
        elif e.type == "ellipse":
            self.ops.append(Ellipse(x, y, w, h, fill, stroke, sw))
        elif e.type in ("polygon", "line"):
            where = self.layout.field_where(e, "points")
            if any(len(p) != 2 for p in e.points or []):
                raise PrintgenError(
                    f"{self.layout.name}: each point is [x, y], got {e.points}", where
                )
            # mm from the box's corner, or % of the box's width and height
            pts = tuple(
                (x + self.length(p[0], "points", w), y + self.length(p[1], "points", h))
                for p in e.points or []
            )
            if len(pts) < 2:
                raise PrintgenError(
                    f"{self.layout.name}: {e.type} needs at least two points", where
                )
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            extent = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            if not box_on_face(extent, self.w, self.h, self.layout.bleed):
                check_box_on_face(
                    extent, self.w, self.h, self.layout.bleed, where, self.about("points")
                )
            dash = tuple(e.dash) if e.dash else None
            self.ops.append(Polygon(pts, fill, stroke, sw, e.type == "polygon", dash))
        elif e.type == "icon":
            name = str(self.value(e.icon or "", "icon"))
            self.icon(name, x, y, w, h, self.colour(e.colour, "colour") or "#000000")
        elif e.type == "image":
            self.image(str(self.value(e.image or "", "image")), x, y, w, h)
        elif e.type == "text":
            self.text(e, x, y, w, h)

    def icon(self, name: str, x: float, y: float, w: float, h: float, ink: str) -> None:
        shapes = self.icons.get(name)
        if shapes is None:
            known = ", ".join(sorted(self.icons))
            raise PrintgenError(
                f"{self.layout.name}: unknown icon '{name}' (icons: {known})", self.where
            )
        if isinstance(shapes, list):
            # The same icon in the same place on every card of a layout: its operations,
            # which never change, are made once and shared by the faces.
            key = (id(shapes), x, y, w, h, ink)
            found = _ICON_OPS.get(key)
            if found is None or found[0] is not shapes:
                if len(_ICON_OPS) >= _ICON_OPS_MAX:
                    _ICON_OPS.clear()
                found = _ICON_OPS[key] = (shapes, tuple(icon_ops(shapes, x, y, w, h, ink)))
            self.ops.extend(found[1])
            return
        from printgen import svg  # svglib: for SVG icons and art only

        drawing = svg.load_svg(shapes, self.where, ink)
        ink_used = ink if drawing.uses_current else None
        self.ops.append(Vector(*svg.fit(drawing, x, y, w, h), shapes, drawing.digest, ink_used))

    def image(self, name: str, x: float, y: float, w: float, h: float) -> None:
        where = self.layout.field_where(self.element_now, "image")
        # the game's folder, then its own layouts folder, then the shared layouts/
        roots = [self.game.folder, self.lib.root / self.game.id, self.lib.root]
        path = project_file(name, roots, where, "image")
        if path is None:
            raise PrintgenError(
                f"{self.layout.name}: image '{name}' not found in {self.game.folder.name}/, "
                f"layouts/{self.game.id}/ or layouts/",
                where,
            )
        from printgen import svg

        if svg.is_svg(path):
            drawing = svg.load_svg(path, where)
            self.ops.append(Vector(*svg.fit(drawing, x, y, w, h), path, drawing.digest))
            return
        checked = check_image(path, where)
        if self.report is not None and w > 0 and h > 0:
            # pixels per inch at the printed size (the image is stretched to its box)
            dpi = min(checked.width / (w / 25.4), checked.height / (h / 25.4))
            if dpi < MIN_IMAGE_DPI - 0.5:
                self.report.add_dpi(where, name, dpi, piece_label(self.req.piece))
        self.ops.append(Picture(x, y, w, h, checked.path, checked.digest))

    def text(self, e: Element, x: float, y: float, w: float, h: float) -> None:
        content = str(self.value(e.text or "", "text"))
        if not content.strip():
            return
        if len(content) > MAX_FIELD_TEXT:
            raise PrintgenError(
                f"{self.about('text')}: {len(content):,} characters, more than the "
                f"{MAX_FIELD_TEXT:,} a piece's text field may hold",
                self.layout.field_where(e, "text"),
            )
        missing = unknown_icons(content, self.icons)
        if missing:
            raise PrintgenError(
                f"{self.layout.name}: unknown icon ':{missing[0]}:' in text", self.where
            )
        font = self.lib.font(self.layout, str(self.value(e.font, "font")), self.where)
        font_name = fonts.pdf_font_name(font.key, font.path)
        size = round(self.length(e.size, "size") / pt_to_mm(1), 4)
        floor = FLOOR_PT[e.role]
        if not 0 < size <= MAX_FONT_PT:
            raise PrintgenError(
                f"{self.about('size')}: size {size:g}pt must be more than 0 and at most "
                f"{MAX_FONT_PT:g}pt",
                self.layout.field_where(e, "size"),
            )
        if size < floor:
            raise PrintgenError(
                f"{self.about('size')}: size {size:g}pt is under the {floor:g}pt floor for "
                f"{e.role} text (role: {e.role}): enlarge it and make room on the layout",
                self.layout.field_where(e, "size"),
            )
        min_size = (
            round(self.length(e.min_size, "min_size") / pt_to_mm(1), 4) if e.min_size else floor
        )
        if not 0 < min_size <= size:
            raise PrintgenError(
                f"{self.about('size')}: size {size:g}pt and min_size {min_size:g}pt must satisfy "
                f"0 < min_size <= size <= {MAX_FONT_PT:g}pt",
                self.layout.field_where(e, "size"),
            )
        min_size = max(min_size, floor)  # shrinking never goes under the role's floor
        ink = self.colour(e.colour, "colour") or "#000000"
        try:
            fitted = self.fit(content, w, h, size, min_size, e, font_name, font.path)
        except TextDoesNotFit as exc:
            field_name = e.id or "text"
            raise PrintgenError(
                f"text does not fit: game {self.game.id}, component {self.req.piece.id}, "
                f"{copies_text(self.req.piece.count)}, {self.req.side} ({self.req.lang}), "
                f"field '{field_name}' ({e.role} text, floor {floor:g}pt): {exc.needed}; "
                "make room on the layout (a bigger box, fewer lines, two columns) or shorten "
                "the text",
                self.where,
            ) from None
        if self.fields is not None:
            self.fields.append(
                FieldText(
                    e.id,
                    int(self.ctx.get("i", 0)),
                    e.role,
                    content,
                    w,
                    e.leading,
                    fitted,
                    font_name,
                    self.where,
                )
            )
        em = pt_to_mm(fitted.size_pt)
        ascent = fonts.ascent_ratio(font_name) * em
        placed = [
            TextPlacement(
                x + run.x,
                y + line.baseline - ascent,
                x + run.x + run.width,
                y + line.baseline + em - ascent,
            )
            for line in fitted.lines
            for run in line.runs
            if run.kind == "icon" or run.value.strip()
        ]
        self.check_text(e, text_extent(placed))
        for line in fitted.lines:
            for run in line.runs:
                if run.kind == "icon":
                    top = y + line.baseline - em * 0.85
                    self.icon(run.value, x + run.x, top, em, em, ink)
                else:
                    self.ops.append(
                        TextRun(
                            x + run.x,
                            y + line.baseline,
                            run.value,
                            font.key,
                            font.path,
                            fitted.size_pt,
                            ink,
                        )
                    )

    def fit(
        self,
        content: str,
        w: float,
        h: float,
        size: float,
        min_size: float,
        e: Element,
        font_name: str,
        font_path: Path,
    ) -> Fitted:
        """The text laid out in its box: the same text in the same box and font (a name on
        both faces, a deck's label, a copy's sentence) is laid out once in a process."""
        key = (content, w, h, size, min_size, e.leading, e.align, e.valign, font_name, font_path)
        icon_names = self.icon_names
        found = _FITTED.get(key)
        if found is not None and found[0] == icon_names:
            return found[1]
        fitted = layout_text(
            content,
            w,
            h,
            size,
            min_size,
            e.leading,
            e.align,
            e.valign,
            lambda s, pt: fonts.string_width_mm(s, font_name, pt),
            fonts.ascent_ratio(font_name),
            icon_names,
        )
        if len(_FITTED) >= _FITTED_MAX:
            _FITTED.clear()
        _FITTED[key] = (icon_names, fitted)
        return fitted

    def check_text(self, e: Element, extent: TextPlacement | None) -> None:
        """Text in the bleed is cut off: an error. Text in the safe margin may be: noted."""
        if extent is None:
            return
        beyond, into_safe = text_margins(extent, self.w, self.h, self.layout.safe)
        where = self.layout.field_where(e, "box")
        if beyond > EPSILON:
            raise PrintgenError(
                f"{self.about('text')}: the text reaches {beyond:.1f} mm past the trim edge, "
                "into the bleed that is cut off: move its box inside the card",
                where,
            )
        if into_safe > 0.05 and self.report is not None:
            name = f"field '{e.id}'" if e.id else "a text field"
            self.report.add(where, name, into_safe, piece_label(self.req.piece))


def copies_text(count: int) -> str:
    """Which copies a face message is about (copies of a piece are drawn alike)."""
    return "copy 1" if count == 1 else f"copies 1-{count}"


class _Strings:
    """The layout's `strings`, each rendered when used, so it sees the instance's `i`."""

    def __init__(self, drawer: _FaceDrawer) -> None:
        self._drawer = drawer

    template_label = "the layout's strings"

    def template_keys(self) -> list[str]:
        return list(self._drawer.layout.strings)

    def __getattr__(self, key: str) -> Text:
        text = self._drawer.layout.strings.get(key)
        if text is None:
            raise AttributeError(key)
        places = self._drawer.layout.string_places
        return Text(
            ja=self._drawer.value(text.ja, f"strings.{key}.ja", places.get(f"{key}.ja")),
            en=self._drawer.value(text.en, f"strings.{key}.en", places.get(f"{key}.en")),
        )

    __getitem__ = __getattr__


def icon_ops(shapes: list[IconShape], x: float, y: float, w: float, h: float, ink: str) -> list[Op]:
    """An icon's shapes (drawn in a unit box) scaled into a box; `current` is the ink colour."""

    def ink_of(value: str | None) -> str | None:
        if value is None or value == "none":
            return None
        return ink if value == "current" else colour(value, {}, None)

    ops: list[Op] = []
    scale = min(w, h)
    for s in shapes:
        fill, stroke, sw = ink_of(s.fill), ink_of(s.stroke), s.stroke_width * scale
        if s.type in ("rect", "ellipse") and s.box:
            bx, by, bw, bh = s.box
            rx, ry = x + bx * w, y + by * h
            if s.type == "rect":
                ops.append(Rect(rx, ry, bw * w, bh * h, fill, stroke, sw, s.radius * scale))
            else:
                ops.append(Ellipse(rx, ry, bw * w, bh * h, fill, stroke, sw))
        elif s.points:
            pts = tuple((x + px * w, y + py * h) for px, py in s.points)
            ops.append(Polygon(pts, fill, stroke, sw, s.type == "polygon"))
    return ops


def face_for(
    lib: LayoutLibrary, game: Game, req: FaceRequest, drawn: Mapping[str, Face] | None = None
) -> Face:
    """The face of `req`: as it is in `drawn` (faces drawn already, by their request's key),
    else drawn now."""
    found = drawn.get(req.key) if drawn else None
    return found if found is not None else render_face(lib, game, req)


def faces_of(
    game: Game, lib: LayoutLibrary, lang: str, report: SafeZoneReport | None = None
) -> dict[str, Face]:
    """Every face of every piece of a game, rendered once (copies share their faces)."""
    faces: dict[str, Face] = {}
    for piece in game.pieces:
        sides = ["front"] + (["back"] if piece.back_layout else [])
        for side in sides:
            req = FaceRequest(piece, side, lang)
            faces[req.key] = render_face(lib, game, req, report)
    return faces
