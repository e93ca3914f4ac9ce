"""Bilingual rulebooks: section texts and generated blocks -> Jinja2 HTML -> WeasyPrint PDF.

A game's rulebook lives in `components/<game>/rulebook/`: `book.yaml` orders the
contents (written sections and generated blocks) and each `<section>.yaml` holds a
section's text in Japanese and English.  Texts are Markdown with Jinja expressions
that quote the game data (`{{ rules.target_points }}`, `{{ count('torpedo-s') }}`), so a
number is typed once, in the game's YAML.  Worked examples come from the rules engine;
while one fails, the books are not rebuilt (or, asked for, rebuilt marked DRAFT, listing
the failing examples on their first page). The turn summary is also printed as a player aid,
one per player.

The rooms, in the order the data flows through them (each imports only those above it):

- `book`: the models of `book.yaml` and the section files (Book, Entry, Section),
  loading them, which translations are stale, and `printgen rulebook-sync`.
- `text`: section texts as Markdown blocks of HTML set for print (no space between
  Japanese characters, lines broken between phrases, a quarter-em space between Japanese
  and Latin runs), and what a text may quote (TextContext, render_text).
- `diagrams`: pictures in the book: pieces' faces and worked examples' diagrams (grids
  with die faces, pieces' pictures and arrows; timelines) drawn as images, and the
  content-named files they are stored in.
- `pictures`: pictures made of the game's pieces: cards inside diagrams, the cover.
- `worked`: worked examples in the book: numbered, their rules said in words, the
  sections each shows, each step's narrative beside the diagram of the state after it.
- `font_subsets`: each game's fonts cut to the characters its editions use, so the PDF is
  the same bytes on every machine.
- `assemble`: the blocks of the book (sections, components, pictures, setup diagram,
  turn summary, worked examples, glossary, clarifications, rule history) and the HTML
  of each edition and of the player aid.
- `pagination`: WeasyPrint's page references (the contents' and cross-references' page
  numbers) resolved without laying each page out again and again.
- `layout_speed`: WeasyPrint's per-line Pango set-up, the lines' layouts kept for drawing
  and the properties no rule sets, each done once (the same bytes).
- `pdf`: HTML to PDF with WeasyPrint behind a project-only URL fetcher, and
  make_rulebooks, the whole way from a loaded rulebook to the PDF of each edition.
"""

from printgen.rulebook.assemble import rulebook_html
from printgen.rulebook.book import Rulebook, has_rulebook, load_rulebook, sync_section
from printgen.rulebook.pdf import make_rulebooks, render_pdf

__all__ = [
    "Rulebook",
    "has_rulebook",
    "load_rulebook",
    "make_rulebooks",
    "render_pdf",
    "rulebook_html",
    "sync_section",
]
