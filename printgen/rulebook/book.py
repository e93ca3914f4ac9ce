"""The book and its sections: `book.yaml` (the contents, in order: written sections and
generated blocks) and each `<section>.yaml` (a section's text in Japanese and English),
loaded and validated; which translations are stale, and `printgen rulebook-sync`, which
records that both languages of a section match again."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from printgen.errors import ErrorList, Location, PrintgenError
from printgen.model import Game, Identifier, Strict, Text
from printgen.source import Document, load_yaml, validate
from printgen.units import Length


class SectionText(Strict):
    text: str
    """The section's text in Markdown; may quote the game data with templates (`{{
    rules.target_points }}`)."""
    translates: str | None = None  # fingerprint of the other language's text it translates
    """Written by `printgen rulebook-sync`: the fingerprint of the other language's text this one
    translates. Do not edit."""


class Section(Strict):
    title: Text
    """The section's heading in both languages."""
    ja: SectionText
    """The Japanese text (`text:`, and `translates:` kept by rulebook-sync)."""
    en: SectionText
    """The English text (`text:`, and `translates:` kept by rulebook-sync)."""


BlockKind = Literal[
    "components",
    "examples",
    "clarifications",
    "history",
    "picture",
    "toc",
    "setup-diagram",
    "turn-summary",
    "glossary",
]


class Entry(Strict):
    """One item of the contents: a written section or a generated block."""

    section: Identifier | None = Field(None, description="a section file rulebook/<id>.yaml")
    block: BlockKind | None = Field(None, description="a block generated from the data")
    piece: str | None = Field(None, description="picture: the piece shown")
    example: str | None = Field(
        None, description="setup-diagram: the example file whose setup is drawn"
    )
    caption: Text | None = None
    """picture, setup-diagram: the caption under the picture, in both languages."""
    title: Text | None = None
    """A heading in both languages replacing the block's default one."""
    width: Length | None = None  # of a picture, in mm (default: the column width)
    """picture: its width, a length (default: the column width)."""


class PrintedExample(Strict):
    """A worked example the book prints, and the rule sections it shows (cross-referenced
    both ways with page numbers)."""

    file: str = Field(description="the example file's name in examples/, without .yaml")
    shows: list[Identifier] = Field(
        default_factory=list, description="ids of the rule sections this example shows"
    )


class Term(Strict):
    """A glossary entry: the term in both languages, what it means, where its rule is."""

    term: Text
    """The term in both languages."""
    means: Text
    """What it means, in both languages."""
    section: Identifier | None = None
    """The id of the section where its rule is (optional; printed as a page reference)."""


class Glossary(Strict):
    terms: list[Term]
    """The glossary's entries, each `{term: {ja, en}, means: {ja, en}, section: id}`."""


class Book(Strict):
    paper: Literal["a5", "a4"] = "a5"
    """Page size of the rulebook: `a5` (default) or `a4`."""
    contents: list[Entry]
    """The book's contents in order: each entry a written `section: <id>` (rulebook/<id>.yaml) or a
    generated `block: <type>`."""
    quick_reference: Identifier | None = None
    """The id of the section printed as the one-page turn summary (the `turn-summary` block and the
    player aids)."""
    # The worked examples to print (every file in examples/ is checked either way); default all.
    examples: list[str | PrintedExample] | None = None
    """The worked examples to print, by file name in examples/ without .yaml, or `{file, shows:
    [section ids]}`; default: all."""
    running_title: Text | None = None
    """The title in the page headers, in both languages (default: the game's title)."""
    labels: dict[str, Text] = Field(default_factory=dict)
    """Headings and words the book prints replaced, by key (`{components: {ja: ..., en: ...}}`)."""

    def printed_examples(self) -> list[PrintedExample] | None:
        if self.examples is None:
            return None
        return [
            e if isinstance(e, PrintedExample) else PrintedExample(file=e) for e in self.examples
        ]


@dataclass
class LoadedSection:
    id: str
    section: Section
    doc: Document

    def fingerprint(self, lang: str) -> str:
        return fingerprint(self.section.ja.text if lang == "ja" else self.section.en.text)

    def stale(self) -> list[str]:
        """Languages whose text no longer matches the counterpart it was translated from.
        A section never synced (no `translates:` on either side: both written together, as
        a new section is) is not stale; after its first `printgen rulebook-sync`, it is
        tracked."""
        ja, en = self.section.ja, self.section.en
        if ja.translates is None and en.translates is None:
            return []
        out = []
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
    glossary: Glossary | None = None
    glossary_doc: Document | None = None

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
    return (game.folder / "rulebook" / "book.yaml").is_file()  # printgen.build's render_all too


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
    if any(e.block == "glossary" for e in book.contents):
        path = folder / "glossary.yaml"
        if not path.is_file():
            errors.append(
                PrintgenError(
                    "a 'glossary' block needs rulebook/glossary.yaml (terms: a list of "
                    "{term: {ja, en}, means: {ja, en}, section: id})",
                    doc.where(("contents",)),
                )
            )
        else:
            gdoc = load_yaml(path, [game.folder])
            try:
                rb.glossary = validate(Glossary, gdoc)
                rb.glossary_doc = gdoc
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
