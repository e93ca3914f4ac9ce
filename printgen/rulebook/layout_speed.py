"""WeasyPrint's per-line, per-box and per-property work done once (issue 18): the same
pages, the same bytes, about a quarter less of a rulebook's time.

Where a rulebook's time went, once its page references were mended (pagination.py):
- each line of text gets a Pango layout of its own, and each layout a new Pango context,
  font description and language built from the style, although a book has a few dozen
  distinct text styles and some ten thousand lines: `Layout.setup` now takes them from
  what the font configuration keeps for the same style values;
- after a line is laid out, WeasyPrint drops its Pango layout ("deactivate") and, to draw
  the line, builds it again and shapes its text again ("reactivate"): a layout is now kept
  for drawing while it is the one drawing would build (the same style, no justification
  spacing), with its width (its text fitted in one line within it);
- drawing puts each layout in single-paragraph mode, which has Pango lay the line out once
  more: a layout whose text has no paragraph or line break is in that mode from the start
  (`Layout.set_text`), where it lays out alike;
- a style computes each property on first reading (`ComputedStyle.__missing__`), through
  the cascade's general case, for every box: a property the box's rules do not set now
  takes its parent's value (inherited) or its initial value at once, as the general case
  would (the general case still serves every property a rule sets, a logical property
  such as `margin-inline-start` stands for, `display`, `float`, `position`, `page`, text
  decorations and any value holding a math function);
- each box's margins, paddings, sizes and borders were resolved one property at a time
  against its containing block (`resolve_percentages`), its corners and background
  likewise (`layout_box_backgrounds`): a box whose lengths are all fixed (no percentage,
  no math function), or that paints nothing behind it, takes what was made once for the
  same values; the others take the general case;
- the height of a line's strut was looked up by a text written from sixteen style values
  at every line (`strut`): it is looked up by the values themselves;
- WeasyPrint's own style sheet gives every element a `::marker`, footnote and note
  pseudo-elements, whose styles were computed for every element: they are computed when
  asked for (a list item's marker, a footnote's call);
- a line was drawn glyph by glyph, reading each glyph's number, width and offsets from
  Pango one field at a time through cffi: each run's glyphs are now read at once
  (`draw_first_line`; a line with an ellipsis, a raised or lowered glyph, a glyph its font
  lacks or an emoji font takes the general case);
- whether a box is in the normal flow, asked of every box at every step of the layout, was
  five methods each reading the style: it reads the box's float and position once each;
- tinyhtml5, which reads the HTML, keeps the regular expression it reads text with up to
  given characters under the wrong key (its chained assignment binds the key's name
  first), so it wrote one anew at every call: it is kept under the right key.

Each step keeps WeasyPrint's result exactly; tests/test_layout_speed.py lays out pages of
everything the rulebooks use, and of what takes the general case, with and without them and
compares the bytes. Like pagination.py, this mends the WeasyPrint that constraints.txt pins
(70): another major version is left as it is.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from operator import itemgetter
from typing import Any

from printgen.rulebook.pagination import WEASYPRINT_MAJOR

_SPECIAL = frozenset({"float", "display", "position", "page"})
"""Properties the general case treats apart (specified values, the page's propagation)."""

_originals: dict[str, Any] = {}

_KEPT_LIMIT = 10_000  # sets of values a shortcut keeps what it made of (then starts anew)
_UNHASHABLE: Any = object()  # what `_made_once` gives for a key that does not hash


def _made_once(kept: dict[Any, Any], key: Any, make: Callable[[Any], Any], arg: Any) -> Any:
    """What `make(arg)` gave when `key` was last asked for, made now if it was not (`kept`
    starts anew at `_KEPT_LIMIT` entries), or `_UNHASHABLE` when a value of the key does
    not hash (the caller takes the general case)."""
    try:
        found = kept.get(key, _UNHASHABLE)
    except TypeError:
        return _UNHASHABLE
    if found is _UNHASHABLE:
        if len(kept) >= _KEPT_LIMIT:
            kept.clear()
        found = kept[key] = make(arg)
    return found


def install() -> None:
    """Install the shortcuts in this process's WeasyPrint (once)."""
    import weasyprint

    if _originals or weasyprint.__version__.split(".")[0] != WEASYPRINT_MAJOR:
        return
    _originals.update({name: getattr(*places[0]) for name, places in _places().items()})
    _apply()


def _places() -> dict[str, tuple[tuple[Any, str], ...]]:
    """Where each function goes: its name here, and the classes or modules and the attribute
    it replaces (the first holds the original; a function that modules import by name is
    replaced in each of them)."""
    from tinyhtml5.inputstream import HTMLUnicodeInputStream
    from weasyprint.css import ComputedStyle, StyleFor
    from weasyprint.draw import text
    from weasyprint.formatting_structure.boxes import Box
    from weasyprint.layout import (
        absolute,
        background,
        block,
        column,
        grid,
        inline,
        page,
        percent,
        table,
    )
    from weasyprint.layout import (
        float as floats,
    )
    from weasyprint.text import line_break
    from weasyprint.text.line_break import Layout

    resolving = (percent, absolute, block, column, floats, grid, inline, page, table)
    return {
        "setup": ((Layout, "setup"),),
        "deactivate": ((Layout, "deactivate"),),
        "reactivate": ((Layout, "reactivate"),),
        "set_text": ((Layout, "set_text"),),
        "missing": ((ComputedStyle, "__missing__"),),
        "percentages": tuple((module, "resolve_percentages") for module in resolving),
        "backgrounds": ((background, "layout_box_backgrounds"),),
        "strut": ((line_break, "strut"), (inline, "strut")),
        "set_computed_styles": ((StyleFor, "set_computed_styles"),),
        "style_for": ((StyleFor, "__call__"),),
        "draw_first_line": ((text, "draw_first_line"),),
        "in_normal_flow": ((Box, "is_in_normal_flow"),),
        "chars_until": ((HTMLUnicodeInputStream, "chars_until"),),
    }


def _put(functions: dict[str, Any]) -> None:
    for name, places in _places().items():
        for owner, attribute in places:
            setattr(owner, attribute, functions[name])


def _apply() -> None:
    _put(
        {
            "setup": _kept_setup(_originals["setup"]),
            "deactivate": _keep,
            "reactivate": _kept_reactivate(_originals["reactivate"]),
            "set_text": _one_paragraph_set_text(_originals["set_text"]),
            "missing": _quick_missing(_originals["missing"]),
            "percentages": _quick_percentages(_originals["percentages"]),
            "backgrounds": _quick_backgrounds(_originals["backgrounds"]),
            "strut": _kept_strut(_originals["strut"]),
            "set_computed_styles": _later_pseudo_styles(_originals["set_computed_styles"]),
            "style_for": _pseudo_style_when_asked(
                _originals["style_for"], _originals["set_computed_styles"]
            ),
            "draw_first_line": _quick_first_line(_originals["draw_first_line"]),
            "in_normal_flow": _in_normal_flow,
            "chars_until": _kept_until(_originals["chars_until"]),
        }
    )


@contextmanager
def plain_weasyprint() -> Iterator[None]:
    """WeasyPrint as it is, for as long as the block runs (the tests' reference)."""
    if not _originals:
        yield
        return
    _put(_originals)
    try:
        yield
    finally:
        _apply()


# --- a line's Pango layout --------------------------------------------------------------------

_SETUP_KEYS = (
    "font_family",
    "font_style",
    "font_stretch",
    "font_weight",
    "font_size",
    "font_variant_caps",
    "font_variation_settings",
    "font_kerning",
    "font_variant_ligatures",
    "font_variant_position",
    "font_variant_numeric",
    "font_variant_alternates",
    "font_variant_east_asian",
    "font_feature_settings",
    "font_language_override",
    "direction",
    "lang",
    "text_decoration_line",
)
"""Every style value `Layout.setup` reads."""


def _kept_setup(original: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    from weasyprint.text.constants import PANGO_DIRECTION
    from weasyprint.text.ffi import FROM_UNITS, ffi, gobject, pango, unicode_to_char_p
    from weasyprint.text.fonts import font_features, get_font_description

    def made(style: Any) -> tuple[Any, ...] | None:
        """What `Layout.setup` makes of these style values and keeps in no layout: the Pango
        context, language and font description, and the decorations' metrics; None where
        it gives the layout font features (an attribute list that setting the text
        changes) or a language of its own (`font-language-override`)."""
        features = font_features(
            style["font_kerning"],
            style["font_variant_ligatures"],
            style["font_variant_position"],
            style["font_variant_caps"],
            style["font_variant_numeric"],
            style["font_variant_alternates"],
            style["font_variant_east_asian"],
            style["font_feature_settings"],
        )
        if features or style["font_language_override"] != "normal":
            return None
        if isinstance(style["font_family"], str):
            return None  # WeasyPrint's own setup refuses it
        context = ffi.gc(
            pango.pango_font_map_create_context(style.font_config.font_map),
            gobject.g_object_unref,
        )
        pango.pango_context_set_round_glyph_positions(context, False)
        pango.pango_context_set_base_dir(context, PANGO_DIRECTION[style["direction"]])
        if style["lang"]:
            lang_p, _lang = unicode_to_char_p(style["lang"])
            language = pango.pango_language_from_string(lang_p)
            pango.pango_context_set_language(context, language)
        else:
            language = pango.pango_language_get_default()
        description = get_font_description(style)
        decoration = None
        if style["text_decoration_line"] != "none":
            metrics = ffi.gc(
                pango.pango_context_get_metrics(context, description, language),
                pango.pango_font_metrics_unref,
            )
            decoration = (
                FROM_UNITS * pango.pango_font_metrics_get_ascent(metrics),
                FROM_UNITS * pango.pango_font_metrics_get_underline_position(metrics),
                FROM_UNITS * pango.pango_font_metrics_get_strikethrough_position(metrics),
                FROM_UNITS * pango.pango_font_metrics_get_underline_thickness(metrics),
                FROM_UNITS * pango.pango_font_metrics_get_strikethrough_thickness(metrics),
            )
        return context, language, description, decoration

    read = itemgetter(*_SETUP_KEYS)

    def setup(self: Any, style: Any) -> None:
        kept = style.font_config.__dict__.setdefault("printgen_layouts", {})
        recipe = _made_once(kept, read(style), made, style)
        if recipe is None or recipe is _UNHASHABLE:
            original(self, style)
            return
        context, language, description, decoration = recipe
        self.style = style
        self.first_line_direction = 0
        self.language = language
        layout = self.layout = ffi.gc(pango.pango_layout_new(context), gobject.g_object_unref)
        pango.pango_layout_set_auto_dir(layout, False)
        pango.pango_layout_set_font_description(layout, description)
        if decoration is None:
            self.ascent = self.underline_position = self.strikethrough_position = None
        else:
            (
                self.ascent,
                self.underline_position,
                self.strikethrough_position,
                self.underline_thickness,
                self.strikethrough_thickness,
            ) = decoration

    return setup


def _keep(self: Any) -> None:
    """`Layout.deactivate`, which dropped the Pango layout: kept, and marked as laid out."""
    self.printgen_kept = True


def _kept_reactivate(original: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    def reactivate(self: Any, style: Any) -> None:
        """The layout drawing would build (`setup(style)`, the text set with the
        justification's spacing, no width): the kept one when it is that, else built. The
        kept one keeps its width: its text was laid out in one line within it (a line that
        was split is set anew with no width), so the line drawn is the same, and Pango
        does not lay it out again."""
        if (
            getattr(self, "printgen_kept", False)
            and self.style is style
            and not self.justification_spacing
        ):
            return
        original(self, style)

    return reactivate


_PARAGRAPH_BREAKS = frozenset("\n\r\x0b\x0c\x85\u2028\u2029")
"""Characters Pango may end a paragraph or a line at by themselves."""


def _one_paragraph_set_text(original: Callable[..., None]) -> Callable[..., None]:
    from weasyprint.text.ffi import pango

    def set_text(self: Any, text: str, justify: bool = False) -> None:
        """`Layout.set_text`, the layout in single-paragraph mode when the text has no
        paragraph or line break (else not, as WeasyPrint lays it out): drawing puts every
        layout in that mode, which, changed, has Pango lay the line out anew; a text
        without such breaks lays out alike in either mode."""
        original(self, text, justify)
        pango.pango_layout_set_single_paragraph_mode(
            self.layout, _PARAGRAPH_BREAKS.isdisjoint(self.text)
        )

    return set_text


# --- the HTML read --------------------------------------------------------------------------


def _kept_until(original: Callable[..., str]) -> Callable[..., str]:
    from tinyhtml5 import inputstream

    regexes = getattr(inputstream, "characters_until_regex", None)
    if not isinstance(regexes, dict):  # another tinyhtml5: as it is
        return original

    def chars_until(self: Any, characters: Any, opposite: bool = False) -> str:
        """`chars_until` of tinyhtml5's input stream, which reads the HTML up to one of
        `characters` with a regular expression it means to keep by `(characters,
        opposite)`, but files under the expression itself (its chained assignment binds
        `characters` first), so it wrote the expression anew at every call: it is filed
        here under the key the method looks up, made as the method makes it."""
        key = (characters, opposite)
        if key not in regexes:
            pattern = "".join([f"\\x{ord(character):02x}" for character in characters])
            regexes[key] = re.compile(f"[{pattern}]+" if opposite else f"[^{pattern}]+")
        return original(self, characters, opposite)

    return chars_until


# --- a box in the flow ------------------------------------------------------------------------

_FLOATS_OUT = frozenset({"left", "right", "inline-start", "inline-end", "footnote"})
_POSITIONS_OUT = frozenset({"absolute", "fixed"})
_FUNCTIONS_OUT = frozenset({"running()", "note()"})


def _in_normal_flow(self: Any) -> bool:
    """`Box.is_in_normal_flow`, asked of every box at every step of the layout, with its
    style read once for each property rather than through five methods: not floated nor a
    footnote, not positioned absolutely or fixed, not a running element nor a note."""
    style = self.style
    if style["float"] in _FLOATS_OUT:
        return False
    position = style["position"]
    return position not in _POSITIONS_OUT and position[0] not in _FUNCTIONS_OUT


# --- a line drawn -----------------------------------------------------------------------------

_GLYPH = struct.Struct("=IiiiI")
"""Pango's PangoGlyphInfo: the glyph, its geometry (width, x and y offsets), its flags."""


def _quick_first_line(original: Callable[..., Any]) -> Callable[..., Any]:
    from weasyprint.text.ffi import FROM_UNITS, ffi, pango

    if ffi.sizeof("PangoGlyphInfo") != _GLYPH.size:  # another layout: as it is
        return original
    empty, unknown = pango.PANGO_GLYPH_EMPTY, pango.PANGO_GLYPH_UNKNOWN_FLAG
    old_pango = pango.pango_version() < 14802

    def draw_first_line(
        stream: Any, textbox: Any, text_overflow: str, block_ellipsis: Any, matrix: Any
    ) -> Any:
        """`draw_first_line`, each run's glyphs read from Pango's array at once rather than
        one field at a time through cffi (five to ten reads a glyph). A line with an
        ellipsis, a glyph raised or lowered or missing from its font, or a font drawn as
        pictures (emoji) takes the general case; the others write the same text operators."""
        if text_overflow == "ellipsis" or block_ellipsis != "none":
            return original(stream, textbox, text_overflow, block_ellipsis, matrix)
        if not textbox.text.strip() or textbox.style["font_size"] < 1e-6:
            return []
        layout = textbox.pango_layout
        pango.pango_layout_set_single_paragraph_mode(layout.layout, True)
        first_line, _index = layout.get_first_line()
        runs = []
        run = first_line.runs[0]
        while run != ffi.NULL:
            glyph_item = run.data
            run = run.next
            glyphs = glyph_item.glyphs
            count = glyphs.num_glyphs
            infos = list(_GLYPH.iter_unpack(ffi.buffer(glyphs.glyphs, count * _GLYPH.size)))
            pango_font = glyph_item.item.analysis.font
            font, font_size = stream.add_font(pango_font)  # as the general case, in order
            if font.svg or font.png or font.colr:
                return original(stream, textbox, text_overflow, block_ellipsis, matrix)
            for glyph, _width, _x, rise, _flags in infos:
                if rise or glyph & unknown:
                    return original(stream, textbox, text_overflow, block_ellipsis, matrix)
            runs.append((glyph_item, infos, pango_font, font, font_size))
        stream.set_text_matrix(*matrix.values)
        previous_pango_font = None
        string = ""
        utf8_text = None
        font_size = 0.0
        for glyph_item, infos, pango_font, font, its_size in runs:
            if pango_font != previous_pango_font:  # the size read with the font, as before
                previous_pango_font = pango_font
                font_size = textbox.style["font_size"] if old_pango else its_size
                if string:
                    stream.show_text(string)
                string = ""
                stream.set_font_size(font.hash, 1 if font.bitmap else font_size)
            string += "<"
            widths = font.widths
            to_unicode = font.to_unicode
            digits = "02x" if font.bitmap else "04x"
            count = len(infos)
            for i, (glyph, width, x_offset, _rise, _flags) in enumerate(infos):
                if glyph == empty:
                    string += f">{-width / font_size}<"
                    continue
                if glyph not in to_unicode:
                    item = glyph_item.item
                    clusters = glyph_item.glyphs.log_clusters
                    t1 = clusters[i]
                    if item.analysis.level % 2:  # right to left
                        t2 = item.length if i == 0 else clusters[i - 1]
                    else:
                        t2 = item.length if i == count - 1 else clusters[i + 1]
                    utf8_text = utf8_text or layout.text.encode()
                    to_unicode[glyph] = utf8_text[item.offset + t1 : item.offset + t2].decode()
                offset = x_offset / font_size
                if offset:
                    string += f">{-offset}<"
                string += format(glyph, digits)
                logical_width = widths.get(glyph)
                if logical_width is None:
                    pango.pango_font_get_glyph_extents(
                        pango_font, glyph, stream.ink_rect, stream.logical_rect
                    )
                    logical_width = widths[glyph] = round(
                        stream.logical_rect.width * 1000 * FROM_UNITS / font_size
                    )
                kerning = logical_width + offset - width * 1000 * FROM_UNITS / font_size
                if kerning:
                    string += f">{int(kerning)}<"
            if string[-1] == "<":
                string = string[:-1]
            else:
                string += ">"
        stream.show_text(string)
        return []

    return draw_first_line


# --- a style's properties ---------------------------------------------------------------------


def _quick_missing(original: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    from weasyprint.css.computed_values import COMPUTER_FUNCTIONS, PHYSICAL_FUNCTIONS
    from weasyprint.css.functions import check_math
    from weasyprint.css.properties import (
        INHERITED,
        INITIAL_NOT_COMPUTED,
        INITIAL_VALUES,
        Dimension,
    )

    def plain(key: str) -> bool:
        return key not in _SPECIAL and not key.startswith(("text_decoration_", "__"))

    inherited = frozenset(k for k in INHERITED if plain(k))
    # Not inherited: the initial value as it is, or computed (INITIAL_NOT_COMPUTED).
    initial = frozenset(k for k in INITIAL_VALUES if plain(k) and k not in INHERITED)
    logical: dict[tuple[str, str], str] = {}
    unset = object()
    never_math = frozenset({str, int, float, bool, type(None), Dimension})

    def missing(self: Any, key: str) -> Any:
        """`ComputedStyle.__missing__`: a property no rule of the box sets, at once."""
        cascaded = self.cascaded
        if key not in cascaded:
            to_logical = PHYSICAL_FUNCTIONS.get(key)
            if to_logical is not None:
                direction = self["direction"]  # read first, as the general case does
                name = logical.get((key, direction))
                if name is None:
                    name = logical[key, direction] = to_logical(block="ttb", inline=direction)
                if name in cascaded:  # set by its logical name
                    return original(self, key)
            value: Any = unset
            if key in inherited:
                parent = self.parent_style
                if parent is not None:
                    value = parent[key]
            elif key in initial:
                value = INITIAL_VALUES[key]
            if value is not unset and (type(value) in never_math or not check_math(value)):
                if key in INITIAL_NOT_COMPUTED and key in initial:
                    function = COMPUTER_FUNCTIONS.get(key)
                    if function is not None:
                        value = function(self, key, value)
                self[key] = value
                return value
        return original(self, key)

    return missing


# --- a box's used lengths ---------------------------------------------------------------------

_LENGTHS = (
    "margin_left",
    "margin_right",
    "margin_top",
    "margin_bottom",
    "padding_left",
    "padding_right",
    "padding_top",
    "padding_bottom",
    "width",
    "min_width",
    "max_width",
    "height",
    "min_height",
    "max_height",
)
"""The lengths `resolve_percentages` sets, in the order it reads them."""
_BORDERS = ("border_top_width", "border_right_width", "border_bottom_width", "border_left_width")


def _fixed_lengths(values: tuple[Any, ...]) -> dict[str, Any] | None:
    """The used values of `_LENGTHS` for these computed values when none of them refers to
    the containing block (each `auto` or in px: no percentage, no math function), as
    `resolve_percentages` sets them whatever the block's size; else None."""
    used: dict[str, Any] = {}
    for name, value in zip(_LENGTHS, values, strict=True):
        if isinstance(value, str) and value == "auto":
            used[name] = 0 if name in ("min_width", "min_height") else "auto"
        elif getattr(value, "unit", None) == "px":  # a Dimension in px
            used[name] = value.value
        else:
            return None
    return used


def _quick_percentages(original: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    from weasyprint.formatting_structure.boxes import Box
    from weasyprint.layout.percent import adjust_box_sizing

    read = itemgetter(*_LENGTHS, "border_collapse", *_BORDERS, "box_sizing")
    kept: dict[tuple[Any, ...], dict[str, Any] | None] = {}
    borders = len(_LENGTHS) + 1

    def resolve_percentages(box: Any, containing_block: Any) -> None:
        """`resolve_percentages`: a box whose lengths are all fixed (most boxes) takes them
        at once, made once per set of values. (What stands for a box taken out of the flow,
        which passes what is set on it to the box, takes the general case.)"""
        if not isinstance(box, Box):
            original(box, containing_block)
            return
        values = read(box.style)
        lengths = values[: len(_LENGTHS)]
        fixed = _made_once(kept, lengths, _fixed_lengths, lengths)
        if fixed is None or fixed is _UNHASHABLE:
            original(box, containing_block)
            return
        box.__dict__.update(fixed)
        collapse = values[len(_LENGTHS)] == "collapse"
        for name, width in zip(_BORDERS, values[borders : borders + 4], strict=True):
            # a collapsed border's width is set by the table's border resolution
            if not (collapse and hasattr(box, name)):
                setattr(box, name, width)
        if values[-1] != "content-box":
            adjust_box_sizing(box, "width")
            adjust_box_sizing(box, "height")

    return resolve_percentages


# --- a box's background ----------------------------------------------------------------------

_RADII = (
    "border_top_left_radius",
    "border_top_right_radius",
    "border_bottom_right_radius",
    "border_bottom_left_radius",
)
_PAINT = (
    "border_image_source",
    "mask_border_source",
    "visibility",
    "background_image",
    "background_color",
    "box_shadow",
)
_COLOUR = len(_RADII) + _PAINT.index("background_color")  # its place in the values read


def _transparent(colour: Any) -> bool:
    """A background colour that paints nothing (`currentcolor`, a text, may paint)."""
    return not isinstance(colour, str) and getattr(colour, "alpha", None) == 0


def _paints_nothing(values: tuple[Any, ...]) -> bool:
    """Whether a box with these style values (`_RADII`, then `_PAINT`) has square corners and
    nothing behind it: no border or mask image, no background image, a transparent
    background colour (not `currentcolor`), no shadow, and is not hidden."""
    radii, (border_image, mask, visibility, images, colour, shadow) = values[:4], values[4:]
    return (
        all((0, "px") in corner for corner in radii)
        and border_image[0] == "none"
        and mask[0] == "none"
        and visibility != "hidden"
        and all(layer == ("none", None) for layer in images)
        and _transparent(colour)
        and not shadow
    )


def _quick_backgrounds(original: Callable[..., None]) -> Callable[..., None]:
    from weasyprint.formatting_structure.boxes import Box

    read = itemgetter(*_RADII, *_PAINT)
    kept: dict[tuple[Any, ...], bool] = {}
    square = dict.fromkeys(_RADII, (0, 0))

    def paints_nothing(box: Any) -> bool:
        values = read(box.style)
        # A colour that is not transparent paints: no need to look further. A transparent
        # one is left out of the table's key (the answer is the same for each; a colour
        # hashes by the text it writes of itself, at a cost).
        if not _transparent(values[_COLOUR]):
            return False
        key = values[:_COLOUR] + values[_COLOUR + 1 :]
        return _made_once(kept, key, _paints_nothing, values) is True

    def layout_box_backgrounds(
        page: Any,
        box: Any,
        get_image_from_uri: Any,
        layout_children: bool = True,
        style: Any = None,
    ) -> None:
        """`layout_box_backgrounds`: a box that paints nothing behind it (most boxes) gets
        its square corners and no background at once; its children are laid out first, in
        the same order (the pictures they fetch keep their order). The page, a background
        drawn with another box's style and what stands for a box taken out of the flow take
        the general case."""
        general = style is not None or box is page or not isinstance(box, Box)
        if general or not paints_nothing(box):
            original(page, box, get_image_from_uri, layout_children, style)
            return
        box.__dict__.update(square)
        if layout_children:
            for child in box.all_children():
                layout_box_backgrounds(page, child, get_image_from_uri)
        box.background = None

    return layout_box_backgrounds


# --- a line's height --------------------------------------------------------------------------

_STRUT_KEYS = (
    "font_size",
    "line_height",
    "font_family",
    "font_style",
    "font_stretch",
    "font_weight",
    "font_variant_ligatures",
    "font_variant_position",
    "font_variant_caps",
    "font_variant_numeric",
    "font_variant_alternates",
    "font_variant_east_asian",
    "font_feature_settings",
    "font_variation_settings",
    "font_language_override",
    "lang",
)
"""Every style value `strut` reads (its own cache's key)."""


def _kept_strut(original: Callable[[Any], tuple[float, float]]) -> Callable[[Any], Any]:
    read = itemgetter(*_STRUT_KEYS)

    def strut(style: Any) -> tuple[float, float]:
        """`strut`: what it made of the same values, found by the values themselves, not by
        the text of them that it writes for its own cache at every call."""
        kept = style.font_config.__dict__.setdefault("printgen_struts", {})
        found: tuple[float, float] = _made_once(kept, read(style), original, style)
        if found is _UNHASHABLE:
            return original(style)
        return found

    return strut


# --- pseudo-elements' styles ------------------------------------------------------------------

_WHEN_ASKED = frozenset(
    {"marker", "footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback"}
)
"""Pseudo-elements that WeasyPrint's own style sheet gives every element, and that only a list
item, a footnote or a note asks the style of."""
_PENDING = "printgen_pending"  # in a StyleFor: what each style not computed yet is made from


def _later_pseudo_styles(original: Callable[..., None]) -> Callable[..., None]:
    def set_computed_styles(
        self: Any,
        element: Any,
        parent: Any,
        root: Any = None,
        pseudo_type: str | None = None,
        base_url: Any = None,
        target_collector: Any = None,
    ) -> None:
        """`StyleFor.set_computed_styles`: the style of a pseudo-element of `_WHEN_ASKED` is
        computed when it is first asked for (`_pseudo_style_when_asked`), from the same
        cascaded values and parent, not for each of the document's elements. (One whose
        rules set an anchor is computed now: its anchor is collected now.)"""
        cascaded = self.get_cascaded_styles().get((element, pseudo_type))
        if pseudo_type in _WHEN_ASKED and cascaded is not None and "anchor" not in cascaded:
            pending = self.__dict__.setdefault(_PENDING, {})
            pending[element, pseudo_type] = (cascaded, parent, root, base_url, target_collector)
            return
        original(self, element, parent, root, pseudo_type, base_url, target_collector)

    return set_computed_styles


def _pseudo_style_when_asked(
    original: Callable[..., Any], set_computed_styles: Callable[..., None]
) -> Callable[..., Any]:
    def style_for(self: Any, element: Any, pseudo_type: str | None = None) -> Any:
        """`StyleFor.__call__`: a pseudo-element's style left for later is computed now."""
        if pseudo_type is not None:
            pending = self.__dict__.get(_PENDING)
            made = pending.pop((element, pseudo_type), None) if pending else None
            if made is not None:
                cascaded, parent, root, base_url, target_collector = made
                cascading = self.get_cascaded_styles()
                cascading[element, pseudo_type] = cascaded
                try:
                    set_computed_styles(
                        self, element, parent, root, pseudo_type, base_url, target_collector
                    )
                finally:
                    del cascading[element, pseudo_type]
        return original(self, element, pseudo_type)

    return style_for
