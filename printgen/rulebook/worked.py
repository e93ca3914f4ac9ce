"""Worked examples in the book: their numbers, the rules they are played under said in
words, the rule sections each shows (cross-referenced both ways with page numbers), and
each step's narrative beside the engine's diagram of the state after it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from printgen.errors import PrintgenError
from printgen.model import Text
from printgen.rulebook.book import PrintedExample, Rulebook
from printgen.rulebook.diagrams import Drawing, diagram_html
from printgen.rulebook.text import TextContext, prose, render_text
from printgen.templating import suggestion


@dataclass
class Shown:
    """A printed example: its number in the book, its replay, the sections it shows."""

    number: int
    result: Any
    shows: list[str]
    game: Any = None
    current_version: str = ""
    rules: list[str] = field(default_factory=list)  # the clause ids its replay applied
    everywhere: frozenset[str] = frozenset()  # clauses every printed example shows

    @property
    def anchor(self) -> str:
        return f"ex-{self.number}"

    def name(self, lang: str) -> str:
        """ "プレイ例3" / "Example 3"."""
        return f"プレイ例{self.number}" if lang == "ja" else f"Example {self.number}"

    def ref(self, lang: str) -> Markup:
        """The example's name with its page number."""
        return page_ref(self.anchor, self.name(lang))


def rule_anchor(rule: str) -> str:
    """The anchor of a rule clause's entry in the book (`rule-2-3-1`)."""
    return "rule-" + re.sub(r"[^A-Za-z0-9]+", "-", rule).strip("-")


def clause_label(clause: Any, lang: str, game: Any) -> Markup:
    """What a clause says, as the book names it (its id is for the designer's tools: the
    book's sections are not numbered); a title may quote the rules like any rulebook text
    (`{{ rules.target_points }} victory points end the game`)."""
    return prose(clause_title(game, clause, lang), lang)


def clause_title(game: Any, clause: Any, lang: str) -> str:
    """A clause's title in `lang`, its templates rendered with the game's rules."""
    k = next(i for i, c in enumerate(game.info.clauses) if c.id == clause.id)
    where = game.where("clauses", k, "title", lang)
    return render_text(clause.title[lang], TextContext(game, lang), where)


def example_refs(examples: list[Shown], lang: str) -> Markup:
    """`Examples 1 (p. 12), 3 (p. 14)` / `プレイ例1（12ページ）、3（14ページ）`."""
    head = "プレイ例" if lang == "ja" else "Example " if len(examples) == 1 else "Examples "
    refs = [page_ref(ex.anchor, str(ex.number)) for ex in examples]
    return Markup(head) + Markup("、" if lang == "ja" else ", ").join(refs)


def page_ref(anchor: str, text: Markup | str) -> Markup:
    """A cross-reference: the target's name and its page number (CSS target-counter)."""
    return Markup(f'<a class="pref" href="#{escape(anchor)}">{text}</a>')


def reading(result: Any, options: tuple[Any, ...], lang: str, ctx: TextContext) -> str:
    """The rules an example is played under, in words: each option it sets by its
    explained text (which may quote the data, like every rulebook text)."""
    parts = []
    by_name = {o.name: o for o in options}
    for name, value in result.options.items():
        opt = by_name.get(name)
        if opt is None:
            continue
        k = next((n for n, o in enumerate(ctx.game.info.options) if o.name == name), 0)
        said = render_text(
            str(opt.explain[lang]), ctx, ctx.game.where("options", k, "explain", lang)
        )
        said = re.sub(r"\s*[(（][^)）]*[)）]\s*$", "", said.strip().rstrip("。."))
        choice = opt.choices.get(value)
        if choice is None:
            parts.append(f"{said}: {value}" if lang == "en" else f"{said}：{value}")
            continue
        where = ctx.game.where("options", k, "choices", str(value).lower(), lang)
        chosen = render_text(str(choice[lang]), ctx, where).strip()
        # A short choice ("In play.") needs its option's name to say anything.
        if len(chosen) < (12 if lang == "ja" else 24):
            chosen = f"{said}: {chosen}" if lang == "en" else f"{said}：{chosen}"
        parts.append(chosen)
    return " / ".join(parts)


def _version_line(result: Any, current: str, lang: str) -> str:
    if not result.version or result.version == current:
        return ""
    return (
        f"ver {result.version} のルールで"
        if lang == "ja"
        else f"Under the rules of ver {result.version}"
    )


def _shows_line(ex: Shown, titles: dict[str, Text], lang: str) -> Markup:
    """The rules the example shows (from its replay's event log; not those every printed
    example shows), grouped by the section that states them, each section with its page: `Rules shown: Torpedoes and dice (p. 6):
    a pair sinks its column · ...; End of a round (p. 8): ...`; then any further section
    book.yaml names (`shows:`)."""
    clauses = {c.id: c for c in ex.game.info.clauses} if ex.game is not None else {}
    groups: dict[str, list[Markup]] = {}
    for rule in ex.rules:
        if rule in ex.everywhere:  # shown by every printed example: it tells nothing here
            continue
        clause = clauses[rule]
        groups.setdefault(clause.section, []).append(clause_label(clause, lang, ex.game))
    for sid in ex.shows:
        groups.setdefault(sid, [])
    colon = "：" if lang == "ja" else ": "
    parts = [
        page_ref(sid, prose(titles[sid][lang], lang))
        + (Markup(colon) + Markup(" · ").join(said) if said else Markup(""))
        for sid, said in groups.items()
        if sid in titles
    ]
    if not parts:
        return Markup("")
    head = "この例の規則: " if lang == "ja" else "Rules shown: "
    joined = Markup("。" if lang == "ja" else "; ").join(parts)
    return Markup(f'<div class="ex-shows">{head}{joined}</div>')


def _example_head(
    ex: Shown, lang: str, options: tuple[Any, ...], titles: dict[str, Text], anchor: bool
) -> Markup:
    result = ex.result
    number = ex.name(lang)
    sep = "：" if lang == "ja" else ": "
    ident = f' id="{ex.anchor}"' if anchor else ""
    head = [
        f'<div class="ex-title"{ident}>{escape(number)}{sep}{prose(result.title[lang], lang)}</div>'
    ]
    said = reading(result, options, lang, TextContext(ex.game, lang))
    version = _version_line(result, ex.current_version, lang)
    if said or version:
        line = (" / " if said and version else "").join(x for x in (version, said) if x)
        head.append(f'<div class="ex-reading">{prose(line, lang)}</div>')
    head.append(_shows_line(ex, titles, lang))
    return Markup("".join(head))


def failure_line(result: Any, folder: Any) -> str:
    """`examples/04-x.yaml:12:5: step 2: dice: expected 5, got 6`: the place inside the
    game's folder (the same wherever the project lies) and what does not hold."""
    rec = result.record(folder)
    place = rec["file"] + (f":{rec['line']}:{rec['column']}" if rec["line"] else "")
    return f"{place}: {rec['detail']}"


def failed_html(ex: Shown, lang: str, anchor: bool = True) -> Markup:
    """A worked example that does not hold (a DRAFT book only): its name and title, and
    what the engine found instead, where its steps and diagrams would be."""
    result = ex.result
    sep = "：" if lang == "ja" else ": "
    title = prose(result.title[lang], lang) if result.title else escape(result.file.stem)
    said = (
        "この例は現在のルールでは成り立ちません（下書き）。"
        if lang == "ja"
        else "This example does not hold under the current rules (draft)."
    )
    detail = failure_line(result, ex.game.folder)
    ident = f' id="{ex.anchor}"' if anchor else ""
    return Markup(
        f'<div class="example ex-failed"><div class="ex-title"{ident}>'
        f"{escape(ex.name(lang))}{sep}{title}</div>"
        f'<div class="ex-say"><b>{said}</b></div><div class="ex-fail" lang="en">'
        f"{escape(detail)}</div></div>"
    )


def _start_text(result: Any, lang: str) -> Markup:
    # The label runs on into the text (a boxed label would leave a gap that reads as a
    # space between two Japanese characters).
    label = "はじめ：" if lang == "ja" else "At the start: "
    about = prose(result.about[lang], lang) if getattr(result, "about", None) else Markup("")
    return Markup(f'<div class="ex-say"><b class="ex-start">{label}</b>{about}</div>')


def example_rows(
    ex: Shown, drawing: Drawing, options: tuple[Any, ...], titles: dict[str, Text]
) -> list[tuple[Markup, Markup, Markup]]:
    """An example for the side-by-side edition: rows of (ja, en, diagram), each step's
    diagram once, beside both narratives, with labels in both languages."""
    result = ex.result
    if not result.ok:
        return [(failed_html(ex, "ja"), failed_html(ex, "en", anchor=False), Markup(""))]
    rows: list[tuple[Markup, Markup, Markup]] = []
    rows.append(
        (
            _example_head(ex, "ja", options, titles, True),
            _example_head(ex, "en", options, titles, False),
            Markup("head"),
        )
    )
    before = None
    if result.setup_diagram and result.about:
        drawn = "".join(diagram_html(g, "ja-en", drawing) for g in result.setup_diagram)
        rows.append((_start_text(result, "ja"), _start_text(result, "en"), Markup(drawn)))
        before = result.setup_diagram
    for step in result.steps:
        says = {
            lang: Markup(
                f'<div class="ex-say"><span class="ex-n">{step.index}</span>'
                f"{prose(step.say[lang], lang)}</div>"
            )
            for lang in ("ja", "en")
        }
        drawn = ""
        if step.diagram != before:  # a step that changed nothing shows no picture again
            drawn = "".join(diagram_html(grid, "ja-en", drawing) for grid in step.diagram or ())
            before = step.diagram
        rows.append((says["ja"], says["en"], Markup(drawn)))
    if len(rows) > 1:  # the head rides with the first row: a title never ends a page alone
        (hja, hen, _), (ja, en, fig) = rows[0], rows[1]
        rows[:2] = [(Markup(hja + ja), Markup(hen + en), fig)]
    return rows


def example_html(
    ex: Shown, lang: str, drawing: Drawing, options: tuple[Any, ...], titles: dict[str, Text]
) -> Markup:
    """An example in one language: its head, then each step's narrative beside the
    diagram of the state after it."""
    result = ex.result
    if not result.ok:
        return failed_html(ex, lang)
    rows: list[str] = []

    def row(text: Markup, drawn: str) -> None:
        if drawn:
            rows.append(f'<tr><td class="ex-text">{text}</td><td class="ex-fig">{drawn}</td></tr>')
        else:
            rows.append(f'<tr><td class="ex-text" colspan="2">{text}</td></tr>')

    before = None
    if result.setup_diagram and result.about:
        row(
            _start_text(result, lang),
            "".join(diagram_html(g, lang, drawing) for g in result.setup_diagram),
        )
        before = result.setup_diagram
    for step in result.steps:
        text = Markup(
            f'<div class="ex-say"><span class="ex-n">{step.index}</span>'
            f"{prose(step.say[lang], lang)}</div>"
        )
        drawn = ""
        if step.diagram != before:  # a step that changed nothing shows no picture again
            drawn = "".join(diagram_html(grid, lang, drawing) for grid in step.diagram or ())
            before = step.diagram
        row(text, drawn)
    # The head and the first row stay together (a title never ends a page alone).
    head = _example_head(ex, lang, options, titles, True)
    out = [f'<div class="example"><div class="ex-keep">{head}']
    out.append(f'<table class="ex-steps">{"".join(rows[:1])}</table></div>')
    if rows[1:]:
        out.append(f'<table class="ex-steps">{"".join(rows[1:])}</table>')
    out.append("</div>")
    return Markup("".join(out))


def printed_examples(rb: Rulebook, results: list[Any]) -> list[Shown]:
    """The examples the book prints, numbered, with the sections each shows (checked)."""
    chosen = rb.book.printed_examples()
    known = {r.file.stem: r for r in results}
    if chosen is None:
        chosen = [PrintedExample(file=stem) for stem in known]
    shown = []
    for k, ex in enumerate(chosen):
        if ex.file not in known:
            raise PrintgenError(
                f"book.yaml lists example '{ex.file}', which is not in examples/"
                f"{suggestion(ex.file, sorted(known))} (examples: {', '.join(sorted(known))})",
                rb.where("examples", k),
            )
        for j, sid in enumerate(ex.shows):
            if sid not in rb.sections:
                raise PrintgenError(
                    f"example '{ex.file}' shows section '{sid}', which is not in this book"
                    f"{suggestion(sid, sorted(rb.sections))}",
                    rb.where("examples", k, "shows", j),
                )
        result = known[ex.file]
        applied = set(result.rules) if result.ok else set()
        rules = [c.id for c in rb.game.info.clauses if c.id in applied]
        shown.append(
            Shown(
                k + 1,
                result,
                list(ex.shows),
                rb.game,
                rb.game.info.rule_version,
                rules,
            )
        )
    if len(shown) > 1:
        common = frozenset.intersection(*(frozenset(x.rules) for x in shown))
        for x in shown:
            x.everywhere = common
    return shown


def check_clause_sections(rb: Rulebook) -> None:
    """Every clause names a section of this book (where its entry and examples are listed)."""
    for k, clause in enumerate(rb.game.info.clauses):
        if clause.section not in rb.sections:
            raise PrintgenError(
                f"rule {clause.id} names section '{clause.section}', which is not in this "
                f"book{suggestion(clause.section, sorted(rb.sections))} "
                f"(sections: {', '.join(rb.sections)})",
                rb.game.where("clauses", k, "section"),
            )


def rules_of_section(section_id: str, game: Any, shown: list[Shown], lang: str) -> Markup:
    """A section's rule clauses that printed examples show, each with its anchor and those
    examples (with their pages), run in as one compact paragraph."""
    items = []
    for clause in game.info.clauses:
        if clause.section != section_id:
            continue
        mine = [ex for ex in shown if clause.id in ex.rules]
        if not mine:  # (no printed example: nothing to point to)
            continue
        sep = "：" if lang == "ja" else ": "
        items.append(
            f'<span class="rule" id="{escape(rule_anchor(clause.id))}">'
            f"{clause_label(clause, lang, game)}{sep}{example_refs(mine, lang)}</span>"
        )
    if not items:
        return Markup("")
    head = "この節の規則のプレイ例：" if lang == "ja" else "Examples of this section's rules: "
    joined = ("。" if lang == "ja" else "; ").join(items)
    return Markup(f'<p class="xref rules"><b>{head}</b>{joined}</p>')
