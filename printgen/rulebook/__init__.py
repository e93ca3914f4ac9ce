"""Bilingual rulebooks: section texts and generated blocks -> Jinja2 HTML -> WeasyPrint PDF.

A game's rulebook lives in `components/<game>/rulebook/`: `book.yaml` orders the
contents (written sections and generated blocks) and each `<section>.yaml` holds a
section's text in Japanese and English.  Texts are Markdown with Jinja expressions
that quote the game data (`{{ rules.target_points }}`, `{{ count('torpedo-s') }}`), so a
number is typed once, in the game's YAML.  Worked examples come from the rules engine
and a failing example stops the build.

The rooms, in the order the data flows through them (each imports only those above it):

- `book`: the models of `book.yaml` and the section files (Book, Entry, Section),
  loading them, which translations are stale, and `printgen rulebook-sync`.
- `text`: section texts as Markdown blocks of HTML, the quarter-em space between
  Japanese and Latin, and what a text may quote (TextContext, render_text).
- `diagrams`: pictures in the book: pieces' faces and worked examples' diagrams drawn
  as images, deck tints, and the content-named files they are stored in.
- `font_subsets`: each edition's fonts cut to the characters it uses, so the PDF is the
  same bytes on every machine.
- `assemble`: the blocks of the book (sections, components, pictures, rule history,
  clarifications, worked examples) and the HTML of each edition.
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
