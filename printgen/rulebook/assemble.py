"""Assembling the book: every entry of the contents as a block with both languages' HTML
(written sections, components, pictures, rule history, clarifications, worked examples),
then the HTML of each edition (Japanese, English, both side by side) from the Jinja2
template in layouts/rulebook/."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from printgen.errors import Location, PrintgenError
from printgen.layouts import Font, LayoutLibrary
from printgen.model import Text
from printgen.ops import Face
from printgen.rulebook.book import Entry, Rulebook
from printgen.rulebook.diagrams import Drawing, default_font, diagram_html, picture_uri, tint
from printgen.rulebook.font_subsets import FONT_SCHEME, embed_fonts
from printgen.rulebook.text import TextContext, autospace, markdown_blocks, render_text
from printgen.templating import ProjectSandbox, suggestion

EDITIONS = ("ja", "en", "ja-en")


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
    drawing = Drawing(pictures, palette, font or default_font())
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
        raise PrintgenError(f"rule options: {exc}", game.where("options")) from None
    blocks = assemble(rb, faces, results, options, pictures, lib.fonts["gothic"])
    pages = {edition: html_of(rb, blocks, edition, lib.root) for edition in editions}
    return embed_fonts(pages, lib.root, pictures) if embed else pages
