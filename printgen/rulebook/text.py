"""Section texts: Markdown split into blocks of HTML, a quarter-em space between
Japanese and Latin runs, and the template context that lets a text quote the game data
(`{{ rules.target_points }}`, `{{ count('torpedo-s') }}`)."""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from printgen.errors import Location
from printgen.jatext import JA, phrase_html, unfold
from printgen.model import Game, Text
from printgen.render import rules_view
from printgen.templating import (
    Origin,
    TemplateFailure,
    data_view,
    render_field,
    suggestion,
)

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


def typeset(html: str, lang: str) -> str:
    """HTML set for print: a quarter-em space between Japanese and Latin runs, and in
    Japanese text each phrase kept whole on a line (BudouX)."""
    if lang == "ja":  # `**勝利**: 中央の…` typed the Latin way: a full-width colon, no space
        html = _JA_COLON.sub("\\1：", html)
    html = _JA_GAP.sub(r"\1\2", html)  # Japanese inside English text too (a name)
    spaced = autospace(html)
    return phrase_html(spaced) if lang == "ja" else spaced


# White space between two Japanese characters with tags between them (`。** 各` in the
# Markdown became `。</strong> 各`): a JLREQ text has none.
_JA_COLON = re.compile(f"(?<=[{JA}])((?:</[a-z]+>)*):[ \\t]*(?=\\S)")
_JA_GAP = re.compile(f"(?<=[{JA}])((?:<[^>]+>)*)[ \t\n]+((?:<[^>]+>)*)(?=[{JA}])")


def prose(text: str, lang: str) -> Markup:
    """A plain text (a narrative, a caption, a name) as HTML set for print; Japanese text
    loses the spaces a folded YAML line left between its characters."""
    return Markup(typeset(str(escape(unfold(text))), lang))


def markdown_blocks(text: str, lang: str = "en") -> list[Markup]:
    """Markdown split into top-level blocks (paragraphs, lists, tables), each as HTML set
    for print (see `typeset`); Japanese text is unfolded first."""
    text = "\n".join(unfold(line) if line.strip() else line for line in _join_folds(text))
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
    return [Markup(typeset(_md.render(block), lang)) for block in blocks]


def _join_folds(text: str) -> list[str]:
    """Lines of a Japanese Markdown text with a soft line break between two Japanese
    characters joined (Markdown would print it as a space); list items and paragraphs
    stay apart."""
    out: list[str] = []
    for line in text.splitlines():
        if (
            out
            and out[-1].strip()
            and line.strip()
            and not _is_list_or_table(line)
            and not line.lstrip().startswith("#")
            and _ends_ja(out[-1])
            and _starts_ja(line)
        ):
            out[-1] = out[-1] + line.lstrip()
        else:
            out.append(line)
    return out


def _ends_ja(line: str) -> bool:
    return bool(re.search(f"[{JA}]$", line.rstrip()))


def _starts_ja(line: str) -> bool:
    return bool(re.match(f"[{JA}]", line.lstrip()))


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
            "rules": rules_view(g),
            "version": g.version(),
            "versions": g.info.rule_versions,
            "decks": list(g.decks.values()),
            "count": self.count,
            "per_deck": self.per_deck,
            "components": self.components,
            "values": self.values,
            "name": self.name,
            "lang": self.lang,
        }

    def _matching(self, component_id: str) -> list[Any]:
        """The pieces of a component (or the one piece of that id); a component with no
        copies at this rule version is known, and counts 0."""
        pieces = self.game.defined or self.game.pieces
        found = [p for p in pieces if p.component.id == component_id or p.id == component_id]
        if not found:
            known = sorted({p.component.id for p in pieces})
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

    def components(self, kind: str | None = None, **values: Any) -> list[str]:
        """The ids of the components printed at this rule version (in file order) of that
        kind and with those values (a list: any of them): `components(action='torpedo')`
        lists the torpedoes in play, whichever rule version the book is built for."""

        def fits(value: Any, wanted: Any) -> bool:
            return value in wanted if isinstance(wanted, list | tuple) else bool(value == wanted)

        ids: list[str] = []
        for p in self.game.pieces:
            if p.component.id in ids or (kind is not None and p.kind != kind):
                continue
            if all(fits(p.values.get(k), v) for k, v in values.items()):
                ids.append(p.component.id)
        return ids

    def values(self, component_id: str) -> dict[str, Any]:
        piece = self._matching(component_id)[0]
        origin = Origin(f"component {piece.id}", "value", piece.place("values"))
        view: dict[str, Any] = data_view(dict(piece.values), origin)
        return view

    def name(self, component_id: str) -> str:
        text: Text = self._matching(component_id)[0].component.name
        return text[self.lang]


def render_text(source: str, ctx: TextContext, where: Location) -> str:
    return render_field(source, ctx.data(), where, f"rulebook text ({ctx.lang})")
