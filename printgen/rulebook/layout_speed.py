"""WeasyPrint's per-line and per-property work done once (issue 18): the same pages, the
same bytes, about a seventh less of a rulebook's time.

Where a rulebook's time went, once its page references were mended (pagination.py):
- each line of text gets a Pango layout of its own, and each layout a new Pango context,
  font description and language built from the style, although a book has a few dozen
  distinct text styles and some ten thousand lines: `Layout.setup` now takes them from
  what the font configuration keeps for the same style values;
- after a line is laid out, WeasyPrint drops its Pango layout ("deactivate") and, to draw
  the line, builds it again and shapes its text again ("reactivate"): a layout is now kept
  for drawing while it is the one drawing would build (the same style, no justification
  spacing; its width unset, as the rebuilt one has none), else rebuilt as before;
- a style computes each property on first reading (`ComputedStyle.__missing__`), through
  the cascade's general case, for every box: a property the box's rules do not set now
  takes its parent's value (inherited) or its initial value at once, as the general case
  would (the general case still serves every property a rule sets, a logical property
  such as `margin-inline-start` stands for, `display`, `float`, `position`, `page`, text
  decorations and any value holding a math function).

Each step keeps WeasyPrint's result exactly; tests/test_layout_speed.py lays out pages of
everything the rulebooks use, and of what takes the general case, with and without them and
compares the bytes. Like pagination.py, this mends the WeasyPrint that constraints.txt pins
(70): another major version is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from printgen.rulebook.pagination import WEASYPRINT_MAJOR

_SPECIAL = frozenset({"float", "display", "position", "page"})
"""Properties the general case treats apart (specified values, the page's propagation)."""

_originals: dict[str, Any] = {}


def install() -> None:
    """Install the three shortcuts in this process's WeasyPrint (once)."""
    import weasyprint

    if _originals or weasyprint.__version__.split(".")[0] != WEASYPRINT_MAJOR:
        return
    _originals.update(
        {name: getattr(owner, attribute) for name, (owner, attribute) in _places().items()}
    )
    _apply()


def _places() -> dict[str, tuple[type, str]]:
    """Where each function goes: its name here, and the class and attribute it replaces."""
    from weasyprint.css import ComputedStyle
    from weasyprint.text.line_break import Layout

    return {
        "setup": (Layout, "setup"),
        "deactivate": (Layout, "deactivate"),
        "reactivate": (Layout, "reactivate"),
        "missing": (ComputedStyle, "__missing__"),
    }


def _put(functions: dict[str, Any]) -> None:
    for name, (owner, attribute) in _places().items():
        setattr(owner, attribute, functions[name])


def _apply() -> None:
    _put(
        {
            "setup": _kept_setup(_originals["setup"]),
            "deactivate": _keep,
            "reactivate": _kept_reactivate(_originals["reactivate"]),
            "missing": _quick_missing(_originals["missing"]),
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

    def setup(self: Any, style: Any) -> None:
        try:
            key = tuple([style[name] for name in _SETUP_KEYS])
            kept = style.font_config.__dict__.setdefault("printgen_layouts", {})
            recipe = kept.get(key, False)
        except TypeError:  # a value that does not hash
            original(self, style)
            return
        if recipe is False:
            recipe = kept[key] = made(style)
        if recipe is None:
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
    from weasyprint.text.ffi import pango

    def reactivate(self: Any, style: Any) -> None:
        """The layout drawing would build (`setup(style)`, the text set with the
        justification's spacing, no width): the kept one when it is that, else built."""
        if (
            getattr(self, "printgen_kept", False)
            and self.style is style
            and not self.justification_spacing
        ):
            pango.pango_layout_set_width(self.layout, -1)  # as the rebuilt one: none set
            return
        original(self, style)

    return reactivate


# --- a style's properties ---------------------------------------------------------------------


def _quick_missing(original: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    from weasyprint.css.computed_values import COMPUTER_FUNCTIONS, PHYSICAL_FUNCTIONS
    from weasyprint.css.functions import check_math
    from weasyprint.css.properties import INHERITED, INITIAL_NOT_COMPUTED, INITIAL_VALUES

    def plain(key: str) -> bool:
        return key not in _SPECIAL and not key.startswith(("text_decoration_", "__"))

    inherited = frozenset(k for k in INHERITED if plain(k))
    # Not inherited: the initial value as it is, or computed (INITIAL_NOT_COMPUTED).
    initial = frozenset(k for k in INITIAL_VALUES if plain(k) and k not in INHERITED)
    logical: dict[tuple[str, str], str] = {}
    unset = object()

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
            if value is not unset and not check_math(value):
                if key in INITIAL_NOT_COMPUTED and key in initial:
                    function = COMPUTER_FUNCTIONS.get(key)
                    if function is not None:
                        value = function(self, key, value)
                self[key] = value
                return value
        return original(self, key)

    return missing
