"""Bilingual rulebooks: section texts and generated blocks -> Jinja2 HTML -> WeasyPrint PDF.

A game's rulebook lives in `components/<game>/rulebook/`: `book.yaml` orders the
contents (written sections and generated blocks) and each `<section>.yaml` holds a
section's text in Japanese and English.  Texts are Markdown with Jinja expressions
that quote the game data (`{{ rules.target_points }}`, `{{ count('torpedo-s') }}`), so a
number is typed once, in the game's YAML.  Worked examples come from the rules engine
and a failing example stops the build.
"""

from __future__ import annotations

import base64
import hashlib
import io
import logging
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape
from pydantic import Field

from printgen import fonts
from printgen.errors import ErrorList, Location, PrintgenError
from printgen.layouts import Font, LayoutLibrary
from printgen.model import Game, Identifier, Strict, Text
from printgen.ops import Face, Op, Polygon, Rect, TextRun
from printgen.raster import draw_face
from printgen.source import Document, load_yaml, validate
from printgen.templating import (
    RULES_ORIGIN,
    Origin,
    ProjectSandbox,
    TemplateFailure,
    data_view,
    render,
    suggestion,
)
from printgen.units import MM_PER_POINT as MM_PER_PT
from printgen.units import Length

EDITIONS = ("ja", "en", "ja-en")
PICTURE_DPI = 110
PICTURE_SCHEME = "printgen-picture"
FONT_SCHEME = "printgen-font"  # a font of layouts/fonts/, replaced by its subset before PDF


class SectionText(Strict):
    text: str
    translates: str | None = None  # fingerprint of the other language's text it translates


class Section(Strict):
    title: Text
    ja: SectionText
    en: SectionText


class Entry(Strict):
    """One item of the contents: a written section or a generated block."""

    section: Identifier | None = None
    block: (
        Literal["components", "examples", "clarifications", "history", "picture", "toc"] | None
    ) = None
    piece: str | None = None
    caption: Text | None = None
    title: Text | None = None
    width: Length | None = None  # of a picture, in mm (default: the column width)


class Book(Strict):
    paper: Literal["a5", "a4"] = "a5"
    contents: list[Entry]
    quick_reference: Identifier | None = None
    examples: list[str] | None = None  # example file names (without .yaml) to print; default all
    running_title: Text | None = None
    labels: dict[str, Text] = Field(default_factory=dict)


@dataclass
class LoadedSection:
    id: str
    section: Section
    doc: Document

    def fingerprint(self, lang: str) -> str:
        return fingerprint(self.section.ja.text if lang == "ja" else self.section.en.text)

    def stale(self) -> list[str]:
        """Languages whose text no longer matches the counterpart it was translated from."""
        out = []
        ja, en = self.section.ja, self.section.en
        if en.translates != self.fingerprint("ja"):
            out.append("en")
        if ja.translates != self.fingerprint("en"):
            out.append("ja")
        return out


def fingerprint(text: str) -> str:
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


@dataclass
class Rulebook:
    game: Game
    book: Book
    folder: Path
    sections: dict[str, LoadedSection] = field(default_factory=dict)
    doc: Document | None = None  # book.yaml, for the places of its entries

    def where(self, *key: str | int) -> Location:
        return self.doc.where(key) if self.doc else Location(self.folder / "book.yaml")

    def stale_report(self) -> list[str]:
        lines = []
        for sec in self.sections.values():
            for lang in sec.stale():
                other = "ja" if lang == "en" else "en"
                where = sec.doc.where((lang,))
                lines.append(
                    f"{where}: section '{sec.id}': the {lang} text is stale (its {other} counterpart "
                    f"changed); update it, then run `printgen rulebook-sync {self.game.id} {sec.id}`"
                )
        return lines


def has_rulebook(game: Game) -> bool:
    return (game.folder / "rulebook" / "book.yaml").is_file()


def load_rulebook(game: Game) -> Rulebook:
    folder = game.folder / "rulebook"
    doc = load_yaml(folder / "book.yaml", [game.folder])
    book = validate(Book, doc)
    rb = Rulebook(game, book, folder, doc=doc)
    errors: list[PrintgenError] = []
    wanted = [e.section for e in book.contents if e.section]
    if book.quick_reference:
        wanted.append(book.quick_reference)
    for i, entry in enumerate(book.contents):
        if (entry.section is None) == (entry.block is None):
            errors.append(
                PrintgenError(
                    "each entry names a 'section' or a 'block'", doc.where(("contents", i))
                )
            )
    for name in wanted:
        path = folder / f"{name}.yaml"
        if not path.is_file():
            errors.append(
                PrintgenError(f"no section file rulebook/{name}.yaml", doc.where(("contents",)))
            )
            continue
        sdoc = load_yaml(path, [game.folder])
        try:
            rb.sections[name] = LoadedSection(name, validate(Section, sdoc), sdoc)
        except ErrorList as exc:
            errors.extend(exc.errors)
    if errors:
        raise ErrorList(errors)
    return rb


def sync_section(game: Game, section_id: str) -> None:
    """Record that both languages of a section match now (after a translator's update)."""
    path = game.folder / "rulebook" / f"{section_id}.yaml"
    rb = load_rulebook(game)
    if section_id not in rb.sections:
        raise PrintgenError(f"no section '{section_id}' in {game.id}'s rulebook")
    sec = rb.sections[section_id]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for lang, other in (("ja", "en"), ("en", "ja")):
        stamp = f"translates: {sec.fingerprint(other)}\n"
        head = next(i for i, line in enumerate(lines) if line.rstrip() == f"{lang}:")
        end = next(
            (
                i
                for i in range(head + 1, len(lines))
                if lines[i].strip() and not lines[i][0].isspace()
            ),
            len(lines),
        )
        found = next(
            (i for i in range(head + 1, end) if re.match(r"^  translates:", lines[i])), None
        )
        if found is None:
            lines.insert(head + 1, f"  {stamp}")
        else:
            lines[found] = f"  {stamp}"
    path.write_text("".join(lines), encoding="utf-8")


# --- text -----------------------------------------------------------------------------

_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
_CJK = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
_LATIN = r"[A-Za-z0-9]"
_TAG = re.compile(r"(<[^>]+>)")


def autospace(html: str) -> str:
    """A quarter-em space between Japanese and Latin runs (outside tags)."""
    parts = _TAG.split(html)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(rf"({_CJK})({_LATIN})", "\\1\u2005\\2", parts[i])
        parts[i] = re.sub(rf"({_LATIN})({_CJK})", "\\1\u2005\\2", parts[i])
    return "".join(parts)


def markdown_blocks(text: str) -> list[Markup]:
    """Markdown split into top-level blocks (paragraphs, lists, tables), each as HTML."""
    blocks: list[str] = []
    current: list[str] = []
    for line in text.strip().splitlines():
        if not line.strip():
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        starts_item = line.lstrip().startswith(("- ", "* ", "|")) or re.match(r"\s*\d+\. ", line)
        continues = (
            current and (starts_item or line.startswith("  ")) and _is_list_or_table(current[0])
        )
        if current and not continues and starts_item:
            blocks.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return [Markup(autospace(_md.render(block))) for block in blocks]


def _is_list_or_table(line: str) -> bool:
    return bool(line.lstrip().startswith(("- ", "* ", "|")) or re.match(r"\s*\d+\. ", line))


class TextContext:
    """What section texts may quote: the game data, never typed-in numbers."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game = game
        self.lang = lang

    def data(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": g.info,
            "title": g.info.title[self.lang],
            "rules": data_view(g.rule_params(), RULES_ORIGIN),
            "version": g.version(),
            "versions": g.info.rule_versions,
            "decks": list(g.decks.values()),
            "count": self.count,
            "per_deck": self.per_deck,
            "values": self.values,
            "name": self.name,
            "lang": self.lang,
        }

    def _matching(self, component_id: str) -> list[Any]:
        found = [
            p for p in self.game.pieces if p.component.id == component_id or p.id == component_id
        ]
        if not found:
            known = sorted({p.component.id for p in self.game.pieces})
            raise TemplateFailure(
                f"no component '{component_id}' in {self.game.id}{suggestion(component_id, known)}"
            )
        return found

    def count(self, *component_ids: str) -> int:
        """Copies of these components over all decks."""
        return sum(p.count for cid in component_ids for p in self._matching(cid))

    def per_deck(self, *component_ids: str) -> int:
        """Copies of these components in one deck (one player's set)."""
        total = 0
        for cid in component_ids:
            pieces = self._matching(cid)
            first_deck = pieces[0].deck.id if pieces[0].deck else None
            total += sum(p.count for p in pieces if (p.deck.id if p.deck else None) == first_deck)
        return total

    def values(self, component_id: str) -> dict[str, Any]:
        piece = self._matching(component_id)[0]
        origin = Origin(f"component {piece.id}", "value", piece.place("values"))
        view: dict[str, Any] = data_view(dict(piece.values), origin)
        return view

    def name(self, component_id: str) -> str:
        text: Text = self._matching(component_id)[0].component.name
        return text[self.lang]


def render_text(source: str, ctx: TextContext, where: Location) -> str:
    from printgen.render import template_error

    try:
        return render(source, ctx.data())
    except TemplateFailure as exc:
        raise template_error(exc, where, f"rulebook text ({ctx.lang})") from None


# --- assembling the book ---------------------------------------------------------------


@dataclass
class Block:
    """A part of the book: a heading and bilingual content pairs (ja, en)."""

    id: str
    title: Text
    pairs: list[tuple[Markup, Markup]]
    kind: str = "section"
    # For the side-by-side edition, rows of (ja, en, full width) when the pairs would repeat
    # a language-neutral picture in both columns (worked examples' diagrams).
    sbs: list[tuple[Markup, Markup, Markup]] | None = None


def picture_uri(face: Face, folder: Path | None = None) -> str:
    """A piece's picture for the rulebook, as JPEG (PDF embeds it as it is)."""
    out = io.BytesIO()
    draw_face(face, PICTURE_DPI).save(out, format="JPEG", quality=88, optimize=False)
    return stored(out.getvalue(), "jpg", folder)


def stored(data: bytes, ext: str, folder: Path | None) -> str:
    """An image for the rulebook: a file in `folder` (quick for WeasyPrint to parse), named
    by its content and reached through the fetcher so no path enters the PDF; without a
    folder, a data: URI."""
    if folder is None:
        kind = {"jpg": "image/jpeg", "ttf": "font/ttf"}.get(ext, f"image/{ext}")
        return f"data:{kind};base64," + base64.b64encode(data).decode("ascii")
    name = f"{hashlib.sha256(data).hexdigest()[:24]}.{ext}"
    path = folder / name
    if not path.exists():
        path.write_bytes(data)
    return f"{PICTURE_SCHEME}:{name}"


@dataclass(frozen=True)
class Drawing:
    """How example diagrams are drawn: where images go, deck colours, the font."""

    pictures: Path | None
    palette: dict[str, str]
    font: Font


def _pair_blocks(ja: list[Markup], en: list[Markup]) -> list[tuple[Markup, Markup]]:
    n = max(len(ja), len(en))
    return [
        (ja[i] if i < len(ja) else Markup(""), en[i] if i < len(en) else Markup(""))
        for i in range(n)
    ]


GeneratedBlock = Callable[[Entry, int], Block]


def assemble(
    rb: Rulebook,
    faces: dict[str, dict[str, Face]],
    examples: list[Any],
    options: tuple[Any, ...],
    pictures: Path | None = None,
    font: Font | None = None,
) -> list[Block]:
    """Every block of the book, in order, with both languages' HTML."""
    game = rb.game
    ctx = {lang: TextContext(game, lang) for lang in ("ja", "en")}
    label = rb.book.labels

    def lab(key: str, ja: str, en: str) -> Text:
        return label.get(key) or Text(ja=ja, en=en)

    def section(entry: Entry, i: int) -> Block:
        assert entry.section
        sec = rb.sections[entry.section]
        for lang in ("ja", "en"):
            if re.search(r"!\[[^\]]*\]\(", getattr(sec.section, lang).text):
                raise PrintgenError(
                    "images in section text are not read (a rulebook reads project files "
                    "only): show a piece with a 'picture' block in book.yaml",
                    sec.doc.where((lang, "text")),
                )
        parts = {
            lang: markdown_blocks(
                render_text(
                    getattr(sec.section, lang).text, ctx[lang], sec.doc.where((lang, "text"))
                )
            )
            for lang in ("ja", "en")
        }
        title = Text(
            ja=render_text(sec.section.title.ja, ctx["ja"], sec.doc.where(("title",))),
            en=render_text(sec.section.title.en, ctx["en"], sec.doc.where(("title",))),
        )
        return Block(entry.section, title, _pair_blocks(parts["ja"], parts["en"]))

    def components(entry: Entry, i: int) -> Block:
        rows: dict[str, list[Any]] = {}
        for piece in game.pieces:
            rows.setdefault(piece.component.id, []).append(piece)
        pairs = []
        for pieces in rows.values():
            first = pieces[0]
            total = sum(p.count for p in pieces)
            cells = {}
            for lang in ("ja", "en"):
                face = faces[lang][f"{first.id}.front.{lang}"]
                decks = ""
                if len(pieces) > 1:
                    sep = "、" if lang == "ja" else ", "
                    per = sep.join(f"{p.deck.name[lang]} {p.count}" for p in pieces if p.deck)
                    decks = f" ({per})"
                name = escape(first.component.name[lang])
                count = f"{total}枚" if lang == "ja" else f"× {total}"
                scale = min(1.0, 30.0 / face.width, 42.0 / face.height)
                cells[lang] = Markup(
                    f'<figure class="piece"><img src="{picture_uri(face, pictures)}" alt="{name}" '
                    f'style="width:{face.width * scale:.1f}mm"/>'
                    f"<figcaption><b>{name}</b><br/>{escape(count)}{escape(decks)}</figcaption></figure>"
                )
            pairs.append((cells["ja"], cells["en"]))
        grouped = [
            (
                Markup("").join(p[0] for p in pairs[k : k + 3]),
                Markup("").join(p[1] for p in pairs[k : k + 3]),
            )
            for k in range(0, len(pairs), 3)
        ]
        return Block(
            "components",
            entry.title or lab("components", "内容物", "Components"),
            grouped,
            "components",
        )

    def picture(entry: Entry, i: int) -> Block:
        assert entry.piece
        piece = game.piece(entry.piece)
        cells = {}
        for lang in ("ja", "en"):
            face = faces[lang][f"{piece.id}.front.{lang}"]
            caption = (
                escape(
                    render_text(
                        entry.caption[lang], ctx[lang], rb.where("contents", i, "caption", lang)
                    )
                )
                if entry.caption
                else ""
            )
            style = f' style="width:{entry.width:.1f}mm"' if entry.width else ""
            cells[lang] = Markup(
                f'<figure class="picture"><img src="{picture_uri(face, pictures)}" alt="{caption}"{style}/>'
                f"<figcaption>{caption}</figcaption></figure>"
            )
        title = entry.title or entry.caption or Text(ja="図", en="Figure")
        return Block(f"picture-{i}", title, [(cells["ja"], cells["en"])], "picture")

    def history(entry: Entry, i: int) -> Block:
        pairs = []
        for v in reversed(game.info.rule_versions):
            cells = {}
            for lang in ("ja", "en"):
                mark = " *" if v.source == "reconstructed" else ""
                note = f'<div class="note">{escape(v.note[lang])}</div>' if v.note else ""
                ver = f"ver {v.id}"
                cells[lang] = Markup(
                    f'<div class="version"><b>{escape(v.date)}</b> {escape(ver)}{mark}: '
                    f"{escape(v.changes[lang])}{note}</div>"
                )
            pairs.append((cells["ja"], cells["en"]))
        return Block(
            "history",
            entry.title or lab("history", "ルールの改訂履歴", "Rule history"),
            pairs,
            "history",
        )

    def clarifications(entry: Entry, i: int) -> Block:
        pairs = []
        for opt in options:
            k = next((n for n, o in enumerate(game.info.options) if o.name == opt.name), 0)
            cells = {}
            for lang in ("ja", "en"):
                choice = opt.choices.get(opt.default)
                # Option texts may quote the data too: "{{ rules.row_limit }}".
                said = render_text(
                    opt.explain[lang], ctx[lang], game.where("options", k, "explain", lang)
                )
                chosen = (
                    "<br/><i>"
                    + escape(
                        render_text(
                            choice[lang],
                            ctx[lang],
                            game.where("options", k, "choices", str(opt.default).lower(), lang),
                        )
                    )
                    + "</i>"
                    if choice
                    else ""
                )
                users = [r for r in examples if r.options.get(opt.name, opt.default) != opt.default]
                uses = ""
                if users:
                    names = ", ".join(escape(r.title[lang]) for r in users if r.title)
                    uses = (
                        f"<div class='note'>別の読み方を使う例: {names}</div>"
                        if lang == "ja"
                        else f"<div class='note'>Examples that use another reading: {names}</div>"
                    )
                cells[lang] = Markup(
                    f'<div class="clar"><b>{escape(said)}</b> '
                    f'<span class="opt">[{escape(opt.name)}]</span>{chosen}{uses}</div>'
                )
            pairs.append((cells["ja"], cells["en"]))
        recon = [p for p in game.pieces if p.component.source == "reconstructed"]
        if recon:
            recon_names = {
                lang: ("、" if lang == "ja" else ", ").join(
                    dict.fromkeys(p.component.name[lang] for p in recon)
                )
                for lang in ("ja", "en")
            }
            pairs.append(
                (
                    Markup(
                        f"<div class='clar'>原本の図版が失われているため、次の部品の値は再構成したものです: {escape(recon_names['ja'])}</div>"
                    ),
                    Markup(
                        f"<div class='clar'>The original pictures are lost; these pieces' values are reconstructed: {escape(recon_names['en'])}</div>"
                    ),
                )
            )
        return Block(
            "clarifications",
            entry.title or lab("clarifications", "ルールの明確化", "Clarifications"),
            pairs,
            "clarifications",
        )

    def examples_block(entry: Entry, i: int) -> Block:
        pairs = []
        rows: list[tuple[Markup, Markup, Markup]] = []
        for result in examples:
            cells = {}
            for lang in ("ja", "en"):
                cells[lang] = example_html(result, lang, drawing)
            pairs.append((cells["ja"], cells["en"]))
            rows.extend(example_rows(result, drawing))
        title = entry.title or lab("examples", "プレイ例", "Worked examples")
        return Block("examples", title, pairs, "examples", rows)

    palette = {deck_id: tint(deck.colour) for deck_id, deck in game.decks.items()}
    drawing = Drawing(pictures, palette, font or _default_font())
    makers: dict[str, GeneratedBlock] = {
        "components": components,
        "picture": picture,
        "history": history,
        "clarifications": clarifications,
        "examples": examples_block,
    }
    blocks = []
    for i, entry in enumerate(rb.book.contents):
        if entry.section:
            blocks.append(section(entry, i))
        elif entry.block == "toc":
            blocks.append(Block("toc", entry.title or lab("toc", "目次", "Contents"), [], "toc"))
        elif entry.block:
            made = makers[entry.block](entry, i)
            if made.pairs:  # a game with no engine yet has no examples to show
                blocks.append(made)
    if rb.book.quick_reference:
        quick = section(Entry(section=rb.book.quick_reference), len(blocks))
        quick.kind = "quick"
        blocks.append(quick)
    return blocks


def tint(colour: str, keep: float = 0.35) -> str:
    """A light version of a colour for a diagram cell's fill."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - v) * keep) for v in (r, g, b)))


def example_rows(result: Any, drawing: Drawing) -> list[tuple[Markup, Markup, Markup]]:
    """An example for the side-by-side edition: narratives in two columns, each step's
    diagram once, across both, with labels in both languages."""
    rows: list[tuple[Markup, Markup, Markup]] = []
    head = {}
    for lang in ("ja", "en"):
        reading = f"ルール {result.version}" if lang == "ja" else f"rules {result.version}"
        if result.options:
            reading += ", " + ", ".join(f"{k} = {v}" for k, v in result.options.items())
        head[lang] = Markup(
            f'<div class="ex-title">{escape(result.title[lang])}</div><div class="ex-reading">{escape(reading)}</div>'
        )
    rows.append((head["ja"], head["en"], Markup("")))
    for step in result.steps:
        says = {
            lang: Markup(
                autospace(
                    f'<div class="ex-say"><span class="ex-n">{step.index}</span> {escape(step.say[lang])}</div>'
                )
            )
            for lang in ("ja", "en")
        }
        code = ""
        if step.notation and step.notation != "exhaust chance":
            code = f'<div class="ex-code">{escape(step.notation)}</div>'
        drawn = "".join(diagram_html(grid, "ja-en", drawing) for grid in step.diagram or ())
        rows.append(
            (
                says["ja"],
                says["en"],
                Markup(f'<div class="ex-step">{code}<div class="diagrams">{drawn}</div></div>'),
            )
        )
    return rows


def _label(text: Any, lang: str) -> str:
    if lang == "ja-en":
        return str(text["ja"]) if text["ja"] == text["en"] else f"{text['ja']} / {text['en']}"
    return str(text[lang])


def example_html(result: Any, lang: str, drawing: Drawing) -> Markup:
    reading = f"ルール {result.version}" if lang == "ja" else f"rules {result.version}"
    if result.options:
        reading += ", " + ", ".join(f"{k} = {v}" for k, v in result.options.items())
    out = [f'<div class="example"><div class="ex-title">{escape(result.title[lang])}</div>']
    out.append(f'<div class="ex-reading">{escape(reading)}</div>')
    for step in result.steps:
        out.append('<div class="ex-step">')
        out.append(
            f'<div class="ex-say"><span class="ex-n">{step.index}</span> {escape(step.say[lang])}</div>'
        )
        if step.notation and step.notation != "exhaust chance":
            out.append(f'<div class="ex-code">{escape(step.notation)}</div>')
        for grid in step.diagram or ():
            out.append(diagram_html(grid, lang, drawing))
        out.append("</div>")
    out.append("</div>")
    return Markup(autospace("".join(out)))


DIAGRAM_CELL = 5.0  # mm
DIAGRAM_LABEL = 16.0  # mm for row labels
MARK_FILL = {"sunk": "#b8322a", "active": "#ffe58a", "hit": "#b8322a", "empty": "#eeeeee"}
MARK_INK = {"sunk": "#ffffff", "hit": "#ffffff"}


def _text_mm(text: str, size: float) -> float:
    """A generous width estimate for SVG text (wide for CJK, narrow for Latin)."""
    return sum(size if ord(ch) > 0x2E7F else size * 0.6 for ch in text)


DIAGRAM_DPI = 300


def diagram_face(grid: Any, lang: str, drawing: Drawing) -> Face:
    """A diagram grid as drawing operations (mm, y down): labels, marked cells, grid lines,
    the cells' text. Columns widen to fit their heading and contents."""
    font_name = fonts.pdf_font_name(drawing.font.key, drawing.font.path)

    def width(text: str, size_mm: float) -> float:
        return fonts.string_width_mm(text, font_name, size_mm / MM_PER_PT)

    def text(
        x: float, baseline: float, value: str, size_mm: float, ink: str, anchor: str = "start"
    ) -> TextRun:
        shift = {"start": 0.0, "middle": width(value, size_mm) / 2, "end": width(value, size_mm)}[
            anchor
        ]
        return TextRun(
            x - shift,
            baseline,
            value,
            drawing.font.key,
            drawing.font.path,
            size_mm / MM_PER_PT,
            ink,
        )

    cols = max(len(cells) for _label, cells in grid.rows)
    widths = [DIAGRAM_CELL] * cols
    for c in range(cols):
        contents = [grid.columns[c]] if c < len(grid.columns) else []
        contents += [cells[c].text for _label, cells in grid.rows if c < len(cells)]
        widths[c] = max(DIAGRAM_CELL, *(width(t, 2.4) + 1.2 for t in contents))
    starts = [sum(widths[:c]) for c in range(cols)]
    labels = [_label(label, lang) for label, _cells in grid.rows]
    title = _label(grid.title, lang)
    cell, top = DIAGRAM_CELL, 8.0
    left = max(DIAGRAM_LABEL / 2, *(width(t, 2.2) + 2 for t in labels))
    total_w = max(left + sum(widths) + 1, width(title, 2.6) + 1)
    total_h = top + len(grid.rows) * cell + 1
    ops: list[Op] = [text(0, 3, title, 2.6, "#333333")]
    ops += [
        text(left + starts[c] + widths[c] / 2, top - 1, label, 2.2, "#888888", "middle")
        for c, label in enumerate(grid.columns[:cols])
    ]
    lines: list[Op] = []
    texts: list[Op] = []
    for r, (_row, cells) in enumerate(grid.rows):
        y = top + r * cell
        texts.append(text(left - 1, y + cell * 0.68, labels[r], 2.2, "#666666", "end"))
        span = sum(widths[: len(cells)])
        if cells:
            lines.append(Polygon(((left, y), (left + span, y)), None, "#888888", 0.15, False))
            lines.append(
                Polygon(((left, y + cell), (left + span, y + cell)), None, "#888888", 0.15, False)
            )
            for c in range(len(cells) + 1):
                x = left + (starts[c] if c < len(cells) else span)
                lines.append(Polygon(((x, y), (x, y + cell)), None, "#888888", 0.15, False))
        for c, item in enumerate(cells):
            x, w = left + starts[c], widths[c]
            fill = MARK_FILL.get(item.mark) or drawing.palette.get(item.mark)
            if fill:
                ops.append(Rect(x, y, w, cell, fill, None, 0.0))
            if item.mark in ("sunk", "hit"):
                ops.append(
                    Polygon(
                        ((x + 0.6, y + cell - 0.6), (x + w - 0.6, y + 0.6)),
                        None,
                        "#ffffff",
                        0.3,
                        False,
                    )
                )
            if item.text:
                ink = MARK_INK.get(item.mark, "#111111")
                texts.append(text(x + w / 2, y + cell * 0.68, item.text, 2.4, ink, "middle"))
    return Face("diagram", total_w, total_h, 0.0, tuple(ops + lines + texts))


def diagram_html(grid: Any, lang: str, drawing: Drawing) -> str:
    """A diagram as a 300 DPI image (many small vector shapes and texts made the rulebook
    slow to lay out; a picture is one box)."""
    face = diagram_face(grid, lang, drawing)
    out = io.BytesIO()
    draw_face(face, DIAGRAM_DPI).save(
        out, format="PNG", dpi=(DIAGRAM_DPI, DIAGRAM_DPI), compress_level=1
    )
    alt = escape(_label(grid.title, lang))
    return (
        f'<img class="diagram" src="{stored(out.getvalue(), "png", drawing.pictures)}" alt="{alt}" '
        f'style="width:{face.width:.2f}mm"/>'
    )


def _default_font() -> Font:
    root = Path(__file__).resolve().parent.parent / "layouts" / "fonts"
    return Font("gothic", root / "BIZUDPGothic-Regular.ttf", root / "OFL-BIZUDPGothic.txt")


# --- rendering --------------------------------------------------------------------------


class _WarningTrap(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        # Subsetting with fontTools instead of HarfBuzz is slower, not wrong: not an error.
        if "HarfBuzz-Subset" not in message:
            self.messages.append(message)


def _fetcher(allowed: Path, extra: Path | None = None) -> Any:
    """WeasyPrint may read data: URIs and files under `allowed` (fonts), nothing else:
    no network, nothing outside the project."""
    from urllib.parse import unquote, urlparse

    from weasyprint.urls import URLFetcher, URLFetcherResponse

    roots = [allowed.resolve()] + ([extra.resolve()] if extra else [])

    class ProjectOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith(f"{PICTURE_SCHEME}:") and extra is not None:
                name = url.split(":", 1)[1]
                path = extra / name
                if "/" in name or not path.is_file():
                    raise ValueError(f"no picture {name}")
                kind = {"png": "image/png", "ttf": "font/ttf"}.get(
                    name.rsplit(".", 1)[-1], "image/jpeg"
                )
                return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})
            if url.startswith("file:"):
                path = Path(unquote(urlparse(url).path)).resolve()
                if not (any(path.is_relative_to(r) for r in roots) and path.is_file()):
                    raise ValueError(f"refused to read {url}: outside the project's layouts/")
            elif not url.startswith("data:"):
                raise ValueError(f"refused to fetch {url}: rulebooks use project files only")
            return super().fetch(url, headers)

    return ProjectOnly(fail_on_errors=True, allowed_protocols=("file", "data", PICTURE_SCHEME))


def render_pdf(html: str, layouts: Path, title: str, pictures: Path | None = None) -> bytes:
    """HTML to PDF with WeasyPrint; any warning (a missing glyph, a bad style) is an error."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError

    logger = logging.getLogger("weasyprint")
    trap = _WarningTrap()
    logger.addHandler(trap)
    propagate, logger.propagate = (
        logger.propagate,
        False,
    )  # reported by us, once, not as a traceback
    try:
        document = weasyprint.HTML(
            string=html, base_url=str(layouts.resolve()), url_fetcher=_fetcher(layouts, pictures)
        )
        # The identifier hashes the document, not where its picture files happen to be.
        pdf: bytes = document.write_pdf(
            pdf_identifier=hashlib.sha256(html.encode()).hexdigest()[:32].encode(),
            full_fonts=True,  # the fonts are subsets already (see embed_fonts)
        )
    except (Exception, FatalURLFetchingError) as exc:  # the fatal fetch error is no Exception
        reason = exc.__cause__ if isinstance(exc, FatalURLFetchingError) and exc.__cause__ else exc
        raise PrintgenError(f"rulebook {title}: {reason}") from None
    finally:
        logger.removeHandler(trap)
        logger.propagate = propagate
    if trap.messages:
        raise PrintgenError(f"rulebook {title}: WeasyPrint warned: {trap.messages[0]}")
    return pdf


def html_of(rb: Rulebook, blocks: list[Block], edition: str, layouts: Path) -> str:
    env = ProjectSandbox(loader=jinja2.FileSystemLoader(str(layouts / "rulebook")), autoescape=True)
    template = env.get_template("book.html.j2")
    return template.render(
        game=rb.game.info,
        book=rb.book,
        blocks=blocks,
        edition=edition,
        langs=("ja", "en") if edition == "ja-en" else (edition,),
        lang="ja" if edition != "en" else "en",
        font_uri=lambda name: f"{FONT_SCHEME}:{name}",
    )


def faces_for_rulebook(lib: LayoutLibrary, rb: Rulebook) -> dict[str, dict[str, Face]]:
    """The fronts the rulebook shows: the first piece of each component and every piece a
    picture block names, in Japanese and in English."""
    from printgen.render import FaceRequest, render_face

    game = rb.game
    shown: dict[str, Any] = {}
    for piece in game.pieces:
        shown.setdefault(piece.component.id, piece)
    wanted = {p.id: p for p in shown.values()}
    for i, entry in enumerate(rb.book.contents):
        if entry.block == "picture" and entry.piece:
            try:
                wanted[entry.piece] = game.piece(entry.piece)
            except KeyError:
                ids = [p.id for p in game.pieces]
                raise PrintgenError(
                    f"picture block: no piece '{entry.piece}' in {game.id}"
                    f"{suggestion(entry.piece, ids)} (pieces: {', '.join(ids[:12])}, ...)",
                    rb.where("contents", i, "piece"),
                ) from None
    faces: dict[str, dict[str, Face]] = {}
    for lang in ("ja", "en"):
        faces[lang] = {}
        for piece in wanted.values():
            req = FaceRequest(piece, "front", lang)
            faces[lang][req.key] = render_face(lib, game, req)
    return faces


def rulebook_html(
    lib: LayoutLibrary,
    rb: Rulebook,
    editions: tuple[str, ...] = EDITIONS,
    pictures: Path | None = None,
    embed: bool = True,
) -> dict[str, str]:
    """The HTML of each edition; every worked example is checked first and a failing one
    stops the build, naming the example and the step. Pictures go to `pictures` (a
    folder that must outlive the PDF rendering) or inline."""
    from printgen.engines import engine_entry, rule_options
    from printgen.examples import check_game

    game = rb.game
    entry = engine_entry(game)
    results = check_game(game) if entry else []  # no engine yet: no examples to print
    for result in results:
        if not result.ok:
            detail = result.line().split(": ", 1)[1] if ": " in result.line() else result.message
            raise PrintgenError(
                f"worked example does not hold, so the rulebook of {game.id} is not built: "
                f"{detail}",
                result.where or Location(result.file),
            )
    if rb.book.examples is not None and entry is not None:
        known = {r.file.stem: r for r in results}
        missing = [name for name in rb.book.examples if name not in known]
        if missing:
            raise PrintgenError(
                f"book.yaml lists example '{missing[0]}', which is not in examples/"
                f"{suggestion(missing[0], sorted(known))} (examples: {', '.join(sorted(known))})",
                rb.where("examples", rb.book.examples.index(missing[0])),
            )
        results = [known[name] for name in rb.book.examples]
    faces = faces_for_rulebook(lib, rb)
    try:
        options = rule_options(game)
    except ValueError as exc:  # the game's data does not fit its engine
        raise PrintgenError(f"rule options: {exc}", game.place("options")) from None
    blocks = assemble(rb, faces, results, options, pictures, lib.fonts["gothic"])
    pages = {edition: html_of(rb, blocks, edition, lib.root) for edition in editions}
    return embed_fonts(pages, lib.root, pictures) if embed else pages


def embed_fonts(pages: dict[str, str], layouts: Path, pictures: Path | None) -> dict[str, str]:
    """Point each edition's @font-face rules at subsets of the fonts cut to the characters
    of that edition: WeasyPrint embeds them unchanged, so the PDFs are the same bytes on
    every machine (its own subsetting differs with the system's HarfBuzz)."""
    folder = (layouts / "fonts").resolve()
    pattern = re.compile(rf"{FONT_SCHEME}:([^\s\"')]+)")
    out = {}
    for edition, page in pages.items():
        characters = "".join(sorted(set(page) | set(fonts.LAYOUT_CHARACTERS)))
        uris: dict[str, str] = {}
        for name in sorted(set(pattern.findall(page))):
            path = (folder / name).resolve()
            if not path.is_relative_to(folder) or not path.is_file():
                raise PrintgenError(f"rulebook font '{name}' is not a file in layouts/fonts/")
            uris[name] = stored(fonts.subset_font(path, characters), "ttf", pictures)
        out[edition] = pattern.sub(lambda m, found=uris: found[m.group(1)], page)  # type: ignore[misc]
    return out


def make_rulebooks(
    lib: LayoutLibrary, rb: Rulebook, editions: tuple[str, ...] = EDITIONS
) -> dict[str, bytes]:
    """Editions of a game's rulebook as PDF (default all three)."""
    with tempfile.TemporaryDirectory(prefix="printgen-pictures-") as folder:
        pictures = Path(folder)
        pages = rulebook_html(lib, rb, editions, pictures)
        return {
            e: render_pdf(html, lib.root, f"{rb.game.id} ({e})", pictures)
            for e, html in pages.items()
        }
