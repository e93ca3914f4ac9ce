"""Assembling the book: every entry of the contents as a block with both languages' HTML
(written sections, components, pictures, rule history, clarifications, worked examples),
then the HTML of each edition (Japanese, English, both side by side) from the Jinja2
template in layouts/rulebook/."""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from printgen.errors import ErrorList, Location, PrintgenError
from printgen.layouts import LayoutLibrary
from printgen.model import Text
from printgen.ops import Face
from printgen.rulebook.book import Entry, Rulebook
from printgen.rulebook.diagrams import (
    Drawing,
    default_font,
    diagram_html,
    picture_uri,
    tint,
)
from printgen.rulebook.font_subsets import FONT_SCHEME, embed_fonts
from printgen.rulebook.pictures import cover_picture, ink, piece_images
from printgen.rulebook.text import TextContext, markdown_blocks, prose, render_text
from printgen.rulebook.worked import (
    Shown,
    check_clause_sections,
    example_html,
    example_rows,
    failure_line,
    page_ref,
    printed_examples,
    rules_of_section,
)
from printgen.sandbox import ProjectSandbox
from printgen.templating import suggestion

EDITIONS = ("ja", "en", "ja-en")
AIDS = ("aid-ja", "aid-en")  # the quick reference as a player aid, one per player


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
    # For the side-by-side edition, one language-neutral content across both columns
    # (pieces with captions in both languages) instead of the pairs.
    wide: Markup | None = None


def _pair_blocks(ja: list[Markup], en: list[Markup]) -> list[tuple[Markup, Markup]]:
    n = max(len(ja), len(en))
    return [
        (ja[i] if i < len(ja) else Markup(""), en[i] if i < len(en) else Markup(""))
        for i in range(n)
    ]


GeneratedBlock = Callable[[Entry, int], Block]


def _label(labels: dict[str, Text], key: str, ja: str, en: str) -> Text:
    return labels.get(key) or Text(ja=ja, en=en)


def assemble(
    rb: Rulebook,
    faces: dict[str, dict[str, Face]],
    examples: list[Any],
    options: tuple[Any, ...],
    pictures: Path | None = None,
    shown: list[Shown] | None = None,
    setups: dict[str, Any] | None = None,
    drawing: Drawing | None = None,
) -> list[Block]:
    """Every block of the book, in order, with both languages' HTML."""
    game = rb.game
    ctx = {lang: TextContext(game, lang) for lang in ("ja", "en")}
    labels = rb.book.labels
    shown = (
        shown if shown is not None else [Shown(n, r, [], game) for n, r in enumerate(examples, 1)]
    )
    setups = setups or {}
    section_titles: dict[str, Text] = {}
    for sid, sec in rb.sections.items():
        section_titles[sid] = Text(
            ja=render_text(sec.section.title.ja, ctx["ja"], sec.doc.where(("title",))),
            en=render_text(sec.section.title.en, ctx["en"], sec.doc.where(("title",))),
        )

    def lab(key: str, ja: str, en: str) -> Text:
        return _label(labels, key, ja, en)

    def examples_of(section_id: str) -> dict[str, Markup]:
        """Under a rule section, in each language: its rule clauses, each with the examples
        that show it ('2-3-1 ...: Example 3 (p. 12)'), and 'See Example 5 (p. 14)' for an
        example book.yaml says shows the section (`shows:`) without a clause of it."""
        of_rules = {c.id for c in game.info.clauses if c.section == section_id}
        mine = [ex for ex in shown if section_id in ex.shows and not of_rules & set(ex.rules)]
        out = {}
        for lang in ("ja", "en"):
            parts = [rules_of_section(section_id, game, shown, lang)]
            if mine:
                refs = ("、" if lang == "ja" else ", ").join(ex.ref(lang) for ex in mine)
                head = "この規則の例: " if lang == "ja" else "See "
                parts.append(Markup(f'<p class="xref">{head}{refs}</p>'))
            joined = Markup("").join(parts)
            if joined:
                out[lang] = joined
        return out

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
                ),
                lang,
            )
            for lang in ("ja", "en")
        }
        refs = examples_of(entry.section)
        for lang in refs:  # with the last paragraph: a reference never starts a page
            if parts[lang]:
                parts[lang][-1] = Markup(parts[lang][-1] + refs[lang])
            else:
                parts[lang].append(refs[lang])
        return Block(
            entry.section, section_titles[entry.section], _pair_blocks(parts["ja"], parts["en"])
        )

    def components(entry: Entry, i: int) -> Block:
        rows: dict[str, list[Any]] = {}
        for piece in game.pieces:
            rows.setdefault(piece.component.id, []).append(piece)
        pairs = []
        both: list[Markup] = []  # the side-by-side edition: one figure, both languages
        for pieces in rows.values():
            first = pieces[0]
            total = sum(p.count for p in pieces)
            captions = {}
            cells = {}
            for lang in ("ja", "en"):
                face = faces[lang][f"{first.id}.front.{lang}"]
                decks = ""
                if len(pieces) > 1:
                    sep = "、" if lang == "ja" else ", "
                    per = sep.join(f"{p.deck.name[lang]} {p.count}" for p in pieces if p.deck)
                    decks = f"({per})" if lang == "ja" else f" ({per})"
                name = prose(first.component.name[lang], lang)
                count = f"×{total}" if lang == "ja" else f"× {total}"
                scale = min(1.0, 26.0 / face.width, 36.0 / face.height)
                captions[lang] = Markup(
                    f"<b>{name}</b> {escape(count)}<br/><span class='decks'>{prose(decks, lang)}</span>"
                )
                cells[lang] = Markup(
                    f'<figure class="piece"><img src="{picture_uri(face, pictures)}" alt="{escape(first.component.name[lang])}" '
                    f'style="width:{face.width * scale:.1f}mm"/>'
                    f"<figcaption><b>{name}</b> {escape(count)}<br/><span class='decks'>{prose(decks, lang)}</span></figcaption></figure>"
                )
            pairs.append((cells["ja"], cells["en"]))
            face = faces["ja"][f"{first.id}.front.ja"]
            scale = min(1.0, 24.0 / face.width, 34.0 / face.height)
            both.append(
                Markup(
                    f'<figure class="piece both"><img src="{picture_uri(face, pictures)}" alt="{escape(first.component.name["ja"])}" '
                    f'style="width:{face.width * scale:.1f}mm"/><figcaption><span lang="ja">{captions["ja"]}</span>'
                    f'<br/><span lang="en">{captions["en"]}</span></figcaption></figure>'
                )
            )
        grouped = [
            (
                Markup("").join(p[0] for p in pairs[k : k + 4]),
                Markup("").join(p[1] for p in pairs[k : k + 4]),
            )
            for k in range(0, len(pairs), 4)
        ]
        return Block(
            "components",
            entry.title or lab("components", "内容物", "Components"),
            grouped,
            "components",
            wide=Markup("").join(both),
        )

    def picture(entry: Entry, i: int) -> Block:
        assert entry.piece
        piece = game.piece(entry.piece)
        cells = {}
        for lang in ("ja", "en"):
            face = faces[lang][f"{piece.id}.front.{lang}"]
            caption = (
                render_text(
                    entry.caption[lang], ctx[lang], rb.where("contents", i, "caption", lang)
                )
                if entry.caption
                else ""
            )
            # A piece is never shown larger than it is (a card at its real size).
            style = f' style="width:{entry.width or face.width:.1f}mm"'
            cells[lang] = Markup(
                f'<figure class="picture"><img src="{picture_uri(face, pictures)}" alt="{escape(caption)}"{style}/>'
                f"<figcaption>{prose(caption, lang)}</figcaption></figure>"
            )
        title = entry.title or entry.caption or Text(ja="図", en="Figure")
        return Block(f"picture-{i}", title, [(cells["ja"], cells["en"])], "picture")

    def setup_diagram(entry: Entry, i: int) -> Block:
        if not entry.example or entry.example not in setups:
            known = sorted(setups)
            raise PrintgenError(
                f"setup-diagram: no example '{entry.example}' in examples/"
                f"{suggestion(entry.example or '', known)} (examples: {', '.join(known)})",
                rb.where("contents", i, "example" if entry.example else "block"),
            )
        drawn = setups[entry.example]
        cells = {}
        for lang in ("ja", "en"):
            caption = (
                render_text(
                    entry.caption[lang], ctx[lang], rb.where("contents", i, "caption", lang)
                )
                if entry.caption
                else ""
            )
            assert drawing is not None
            images = "".join(diagram_html(grid, lang, drawing) for grid in drawn or ())
            cells[lang] = Markup(
                f'<figure class="setup"><div class="diagrams">{images}</div>'
                f"<figcaption>{prose(caption, lang)}</figcaption></figure>"
            )
        title = entry.title or lab("setup-diagram", "準備ができたところ", "Ready to play")
        return Block(f"setup-diagram-{i}", title, [(cells["ja"], cells["en"])], "setup-diagram")

    def turn_summary(entry: Entry, i: int) -> Block:
        if not rb.book.quick_reference:
            raise PrintgenError(
                "a 'turn-summary' block prints the quick-reference section: name it with "
                "'quick_reference: <section id>' in book.yaml",
                rb.where("contents", i, "block"),
            )
        quick = section(Entry(section=rb.book.quick_reference), i)
        quick.kind = "quick"
        quick.id = "turn-summary"
        if entry.title:
            quick.title = entry.title
        return quick

    def glossary(entry: Entry, i: int) -> Block:
        assert rb.glossary is not None and rb.glossary_doc is not None
        gdoc = rb.glossary_doc
        pairs = []
        for k, term in enumerate(rb.glossary.terms):
            if term.section and term.section not in rb.sections:
                raise PrintgenError(
                    f"glossary: no section '{term.section}' in this book"
                    f"{suggestion(term.section, sorted(rb.sections))}",
                    gdoc.where(("terms", k, "section")),
                )
            cells = {}
            for lang in ("ja", "en"):
                other = "en" if lang == "ja" else "ja"
                name = render_text(
                    term.term[lang], ctx[lang], gdoc.where(("terms", k, "term", lang))
                )
                alt = render_text(
                    term.term[other], ctx[other], gdoc.where(("terms", k, "term", other))
                )
                means = render_text(
                    term.means[lang], ctx[lang], gdoc.where(("terms", k, "means", lang))
                )
                ref = ""
                if term.section:
                    ref = " " + page_ref(term.section, "→")
                cells[lang] = Markup(
                    f'<div class="term"><b>{prose(name, lang)}</b> <span class="alt" lang="{other}">'
                    f"{prose(alt, other)}</span>: {prose(means, lang)}{ref}</div>"
                )
            pairs.append((cells["ja"], cells["en"]))
        return Block(
            "glossary", entry.title or lab("glossary", "用語集", "Glossary"), pairs, "glossary"
        )

    def history(entry: Entry, i: int) -> Block:
        pairs = []
        undated = game.undated_changes()
        if undated:  # rules: changed since the newest dated version
            listed = {
                lang: "; ".join(
                    f"{escape(c.key.replace('_', ' '))}: {escape(_shown_param(c.stated))} → "
                    f"{escape(_shown_param(c.now))}"
                    for c in undated
                )
                for lang in ("ja", "en")
            }
            pairs.append(
                (
                    Markup(
                        f'<div class="version undated"><b>日付未定</b> ver '
                        f"{escape(game.info.rule_version)}以降の変更: {listed['ja']}</div>"
                    ),
                    Markup(
                        f'<div class="version undated"><b>Not yet dated</b> changes since ver '
                        f"{escape(game.info.rule_version)}: {listed['en']}</div>"
                    ),
                )
            )
        for v in reversed(game.history()):
            cells = {}
            for lang in ("ja", "en"):
                mark = " *" if v.source == "reconstructed" else ""
                note = f'<div class="note">{prose(v.note[lang], lang)}</div>' if v.note else ""
                ver = f"ver {v.id}"
                cells[lang] = Markup(
                    f'<div class="version"><b>{escape(v.date)}</b> {escape(ver)}{mark}: '
                    f"{prose(v.changes[lang], lang)}{note}</div>"
                )
            pairs.append((cells["ja"], cells["en"]))
        if any(v.source == "reconstructed" for v in game.history()):
            pairs.append(
                (
                    Markup("<div class='note'>* 日付や内容を推定で補った版です。</div>"),
                    Markup("<div class='note'>* Reconstructed: date or content inferred.</div>"),
                )
            )
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
                    Markup("<br/><span class='chosen'>")
                    + prose(
                        render_text(
                            choice[lang],
                            ctx[lang],
                            game.where("options", k, "choices", str(opt.default).lower(), lang),
                        ),
                        lang,
                    )
                    + Markup("</span>")
                    if choice
                    else Markup("")
                )
                users = [
                    ex
                    for ex in shown
                    if ex.result.options.get(opt.name, opt.default) != opt.default
                ]
                uses = ""
                if users:
                    refs = ", ".join(ex.ref(lang) for ex in users)
                    uses = (
                        f"<div class='note'>別の読み方で遊ぶ例: {refs}</div>"
                        if lang == "ja"
                        else f"<div class='note'>Played another way in: {refs}</div>"
                    )
                cells[lang] = Markup(
                    f'<div class="clar"><b>{prose(said, lang)}</b>{chosen}{uses}</div>'
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
                    Markup("<div class='clar'>%s</div>")
                    % prose(
                        f"原本の図版が失われているため、次の部品の値は再構成したものです：{recon_names['ja']}",
                        "ja",
                    ),
                    Markup("<div class='clar'>%s</div>")
                    % prose(
                        f"The original pictures are lost; these pieces' values are reconstructed: {recon_names['en']}",
                        "en",
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
        assert drawing is not None
        pairs = []
        rows: list[tuple[Markup, Markup, Markup]] = []
        for ex in shown:
            cells = {}
            for lang in ("ja", "en"):
                cells[lang] = example_html(ex, lang, drawing, options, section_titles)
            pairs.append((cells["ja"], cells["en"]))
            rows.extend(example_rows(ex, drawing, options, section_titles))
        title = entry.title or lab("examples", "プレイ例", "Worked examples")
        return Block("examples", title, pairs, "examples", rows)

    makers: dict[str, GeneratedBlock] = {
        "components": components,
        "picture": picture,
        "history": history,
        "clarifications": clarifications,
        "examples": examples_block,
        "setup-diagram": setup_diagram,
        "turn-summary": turn_summary,
        "glossary": glossary,
    }
    blocks = []
    for i, entry in enumerate(rb.book.contents):
        if entry.section:
            blocks.append(section(entry, i))
        elif entry.block == "toc":
            blocks.append(Block("toc", entry.title or lab("toc", "目次", "Contents"), [], "toc"))
        elif entry.block:
            made = makers[entry.block](entry, i)
            if made.pairs or made.sbs:  # a game with no engine yet has no examples to show
                blocks.append(made)
    return blocks


class ExamplesFailed(ErrorList):
    """Worked examples that do not hold: the rulebook would teach what the engine refutes
    (one error per example, at its file:line)."""

    def __init__(self, game_id: str, failed: list[Any]) -> None:
        super().__init__(
            [
                PrintgenError(
                    f"worked example does not hold, so the rulebooks of {game_id} are not "
                    f"built: {r.detail()} (printgen build --draft builds them marked DRAFT)",
                    r.where or Location(r.file),
                )
                for r in failed
            ]
        )
        self.game_id = game_id
        self.failed = failed


def _shown_param(value: Any) -> str:
    """A rule parameter's value as a reader reads it: 15, S A B C, none."""
    if value is None or value == []:
        return "—"
    if isinstance(value, list):
        return " ".join(_shown_param(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown_param(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


_environments: dict[str, jinja2.Environment] = {}


def _environment(layouts: Path) -> jinja2.Environment:
    """The templates of layouts/rulebook/, compiled once per process (a template saved
    anew is read again: Jinja checks each file's time of change)."""
    folder = str(layouts / "rulebook")
    if folder not in _environments:
        _environments[folder] = ProjectSandbox(
            loader=jinja2.FileSystemLoader(folder), autoescape=True
        )
    return _environments[folder]


REPLAYS_KEPT = 8
_replays: OrderedDict[str, list[Any]] = OrderedDict()


def replayed_examples(game: Any) -> list[Any]:
    """Every worked example of the game played by its engine; played again only when the
    game's files (but its rulebook's) or the rules it is built at changed since this process
    last played them: a rebuild after a rulebook edit (printgen watch) prints the same
    results without playing them again."""
    from printgen.examples import check_game

    rules = (game.folder, game.info.rule_version, game.newest, game.rule_params())
    h = hashlib.sha256(repr(rules).encode())
    for path in sorted(p for p in game.folder.rglob("*") if p.is_file()):
        rel = path.relative_to(game.folder)
        if rel.parts[0] == "rulebook" or "__pycache__" in rel.parts:
            continue
        h.update(rel.as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    key = h.hexdigest()
    if key in _replays:
        _replays.move_to_end(key)
        return _replays[key]
    results = check_game(game, bad_input_raises=True)
    _replays[key] = results
    while len(_replays) > REPLAYS_KEPT:
        _replays.popitem(last=False)
    return results


def html_of(
    rb: Rulebook,
    blocks: list[Block],
    edition: str,
    layouts: Path,
    cover: str,
    failed: list[Any] | None = None,
) -> str:
    env = _environment(layouts)
    aid = edition.startswith("aid-")
    template = env.get_template("aid.html.j2" if aid else "book.html.j2")
    lang = edition.removeprefix("aid-")
    langs = ("ja", "en") if edition == "ja-en" else (lang,)
    info = rb.game.info
    html = template.render(
        game=info,
        title={k: prose(info.title[k], k) for k in ("ja", "en")},
        subtitle={k: prose(info.subtitle[k], k) for k in ("ja", "en")} if info.subtitle else None,
        designer={k: prose(info.designer[k], k) for k in ("ja", "en")},
        book=rb.book,
        blocks=blocks,
        edition=edition,
        langs=langs,
        lang="ja" if lang != "en" else "en",
        cover=cover,
        copies=info.players.max,
        font_uri=lambda name: f"{FONT_SCHEME}:{name}",
        draft=[failure_line(r, rb.game.folder) for r in failed or []],
    )
    return unique_ids(html)


def unique_ids(html: str) -> str:
    """The side-by-side edition holds both languages' parts, each with the same anchors:
    only the first of each `id` is kept (a link goes to the first, the Japanese side)."""
    seen: set[str] = set()

    def once(match: re.Match[str]) -> str:
        if match.group(1) in seen:
            return ""
        seen.add(match.group(1))
        return match.group(0)

    return re.sub(r' id="([^"]+)"', once, html)


def faces_for_rulebook(
    lib: LayoutLibrary, rb: Rulebook, drawn: Mapping[str, Face] | None = None
) -> dict[str, dict[str, Face]]:
    """The fronts the rulebook shows: the first piece of each component and every piece a
    picture block names, in Japanese and in English (those in `drawn` as they are there)."""
    from printgen.render import FaceRequest, face_for

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
            faces[lang][req.key] = face_for(lib, game, req, drawn)
    return faces


def check_texts(rb: Rulebook, options: tuple[Any, ...]) -> None:
    """Render every text of the book once (sections, option texts, glossary), so that a
    template error is reported at once, not after the examples are replayed and drawn."""
    game = rb.game
    for lang in ("ja", "en"):
        ctx = TextContext(game, lang)
        for sec in rb.sections.values():
            render_text(getattr(sec.section, lang).text, ctx, sec.doc.where((lang, "text")))
            render_text(sec.section.title[lang], ctx, sec.doc.where(("title",)))
        for opt in options:
            k = next((n for n, o in enumerate(game.info.options) if o.name == opt.name), 0)
            render_text(opt.explain[lang], ctx, game.where("options", k, "explain", lang))
            for value, choice in opt.choices.items():
                where = game.where("options", k, "choices", str(value).lower(), lang)
                render_text(choice[lang], ctx, where)
        if rb.glossary is not None and rb.glossary_doc is not None:
            for k, term in enumerate(rb.glossary.terms):
                for key in ("term", "means"):
                    where = rb.glossary_doc.where(("terms", k, key, lang))
                    render_text(getattr(term, key)[lang], ctx, where)


def rulebook_html(
    lib: LayoutLibrary,
    rb: Rulebook,
    editions: tuple[str, ...] = EDITIONS + AIDS,
    pictures: Path | None = None,
    embed: bool = True,
    draft: bool = False,
    results: list[Any] | None = None,
    drawn: Mapping[str, Face] | None = None,
) -> dict[str, str]:
    """The HTML of each edition (and of the player aids); every worked example is checked
    first and failing ones stop the build (ExamplesFailed, naming each example and its
    step), unless `draft`: then the books are marked DRAFT, list the failing examples on
    their first page and print each failing example as a note of what no longer holds.
    Pictures go to `pictures` (a folder that must outlive the PDF rendering) or inline.
    `drawn`: faces the build has drawn already, by their request's key (its sheets'), which
    the book shows as they are instead of drawing them again."""
    from printgen.engines import engine_entry, rule_options

    game = rb.game
    entry = engine_entry(game)
    try:
        options = rule_options(game)
    except ValueError as exc:  # the game's data does not fit its engine
        raise PrintgenError(f"rule options: {exc}", game.where("options")) from None
    check_texts(rb, options)  # a typo in a text is reported before the slow work
    check_clause_sections(rb)
    if results is None:  # (else the build checked them already)
        results = replayed_examples(game) if entry else []  # no engine yet: no examples
    failed = [r for r in results if not r.ok]
    if failed and not draft:
        raise ExamplesFailed(game.id, failed)
    shown = printed_examples(rb, results) if entry is not None else []
    setups = {r.file.stem: r.setup_diagram for r in results}
    known = dict(drawn or {})
    faces = faces_for_rulebook(lib, rb, known)
    for by_key in faces.values():  # the pictures in diagrams show the same faces
        known.update(by_key)
    palette = {deck_id: tint(deck.colour) for deck_id, deck in game.decks.items()}
    inks = {deck_id: ink(deck.colour) for deck_id, deck in game.decks.items()}
    pieces = piece_images(lib, rb, known)
    drawing = Drawing(
        pictures,
        palette,
        lib.fonts["gothic"] or default_font(),
        inks,
        pieces,
        pieces.key,
        piece_size=pieces.size,
    )
    blocks = assemble(
        rb, faces, [s.result for s in shown], options, pictures, shown, setups, drawing
    )
    cover = cover_picture(lib, rb, pictures)
    pages = {}
    for edition in editions:
        if edition.startswith("aid-"):
            if not rb.book.quick_reference:
                continue
            quick = [b for b in blocks if b.kind == "quick"]
            if not quick:
                quick = [assemble_quick(rb, faces, options, pictures, drawing)]
            pages[edition] = html_of(rb, quick, edition, lib.root, cover, failed)
        else:
            pages[edition] = html_of(rb, blocks, edition, lib.root, cover, failed)
    return embed_fonts(pages, lib.root, pictures) if embed else pages


def assemble_quick(
    rb: Rulebook,
    faces: dict[str, dict[str, Face]],
    options: tuple[Any, ...],
    pictures: Path | None,
    drawing: Drawing,
) -> Block:
    """The quick-reference section alone (a book with no turn-summary block), for the aid."""
    book = rb.book.model_copy(update={"contents": [Entry(block="turn-summary")]})
    lone = Rulebook(rb.game, book, rb.folder, rb.sections, rb.doc, rb.glossary, rb.glossary_doc)
    return assemble(lone, faces, [], options, pictures, [], {}, drawing)[0]
