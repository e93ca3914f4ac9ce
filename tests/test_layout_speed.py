"""WeasyPrint's shortcuts (printgen/rulebook/layout_speed.py) change no byte: pages of what
the rulebooks use, and of what the shortcuts leave to WeasyPrint's general case, laid out with
and without them, give the same PDF; and they are taken."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from printgen.rulebook import layout_speed
from printgen.rulebook.pdf import render_pdf_pages

ROOT = Path(__file__).resolve().parent.parent

STYLE = """
@page { size: A6; margin: 10mm; @bottom-center { content: counter(page); }
  @top-center { content: element(header); } }
.header { position: running(header); font-size: 6pt; }
.aside { float: right; width: 20mm; margin-left: 2mm; }
.fn { float: footnote; }
body { font-size: 8pt; }
[lang="en"] { hyphens: auto; line-height: 1.45; }
.logical { margin-inline-start: 4mm; padding-inline-end: 2mm; border-inline-start: 1pt solid; }
.justify { text-align: justify; }
.spaced { letter-spacing: 0.5pt; word-spacing: 2pt; }
.features { font-feature-settings: "liga" 0; font-variant-caps: small-caps; }
.override { font-language-override: "TRK"; }
.math { margin-left: calc(2mm + 1%); width: calc(100% - 6mm); }
.rtl { direction: rtl; }
a { text-decoration: underline; }
.through { text-decoration: line-through; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
td { border: 0.4pt solid #999; padding: 1mm; vertical-align: top; }
figure { display: inline-block; width: 30%; margin: 0 1%; }
.note::after { content: " (" counter(page) ")"; }
pre { tab-size: 4; }
.lines { white-space: pre-line; width: 40%; }
.boxed { box-sizing: border-box; width: 80%; padding: 2mm 5%; margin: 1mm 3% 2mm; min-height: 8mm; }
.painted { background: #eef; border-radius: 2mm; box-shadow: 1pt 1pt #999; }
.hidden { visibility: hidden; }
li::marker { color: #c00; }
.pinned { position: absolute; right: 4mm; top: 4mm; width: 20mm; overflow: hidden; }
.cut { width: 25mm; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
"""

BODY = """
<p class="header" lang="en">A running header</p>
<h1>Heading <span lang="ja">見出し</span></h1>
<p class="aside" lang="en">A box floated to the right of the text beside it.</p>
<p lang="en">Text with a footnote<span class="fn">The footnote, at the page's foot.</span>
that flows around the floated box.</p>
<p lang="ja">手番のプレイヤーはカードを1枚選び、場に出します。ダイスを振り、出た目の数だけ進みます。\
同じ目が2つ出たら、もう一度振ることができます。</p>
<p lang="en">The player whose turn it is picks one card and plays it; then rolls the dice \
and moves that many squares. Extraordinarily uncharacteristically long words hyphenate.</p>
<p lang="en" class="justify">Justified text spreads its words across the whole line, so \
that every line but the last ends at the right margin, as a novel is printed.</p>
<p lang="en" class="logical">A paragraph set off by logical margins, padding and border.</p>
<p lang="en" class="spaced">Letter and word spacing on a short line of text.</p>
<p lang="en" class="features">Features: office, affluent, small capitals.</p>
<p lang="en" class="override">A language override.</p>
<div class="math" lang="en">Widths and margins from math functions.</div>
<p class="rtl" lang="en">Right to left, as a reader of Hebrew would see it.</p>
<p lang="en">A <a href="#t{n}">link, underlined</a>, and <span class="through">struck</span> text,
<b>bold</b>, <i>italic</i> and <span class="note">a note</span>.</p>
<pre>tab\tstop\tend</pre>
<table id="t{n}"><tr><td lang="ja">左の列の文章</td><td lang="en">The right column's text, \
long enough to wrap onto a second line.</td></tr></table>
<figure><figcaption lang="en">A figure</figcaption></figure>\
<figure><figcaption lang="ja">図</figcaption></figure>
<p class="lines" lang="en">First line of a poem, long enough to wrap in its narrow box
second line
third line, which also runs on past the width of the box it sits in</p>
<div class="boxed painted" lang="en">Sized by its border box, with percentages in its
padding and margins, a background, round corners and a shadow.</div>
<p class="boxed" lang="en">Its border box alone.</p>
<p class="hidden" lang="en">Hidden, but laid out.</p>
<div class="pinned" lang="en"><p>Taken out of the flow and pinned to a corner.</p></div>
<ol lang="en"><li>A numbered step</li><li>and the next, whose markers are styled</li></ol>
<ul lang="ja"><li>箇条書き</li></ul>
<p class="cut" lang="en">A line too long for its box, which ends in an ellipsis</p>
<p lang="en">Marks placed above and below their letter: q\u0307\u0323 x\u0302\u0323 e\u0301</p>
"""


def page() -> str:
    body = "".join(BODY.replace("{n}", str(n)) for n in range(3))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
        f"<style>{STYLE}</style></head><body>{body}</body></html>"
    )


def test_the_shortcuts_change_no_byte() -> None:
    html = page()
    quick, quick_pages = render_pdf_pages(html, ROOT / "layouts", "shortcuts")
    with layout_speed.plain_weasyprint():
        plain, plain_pages = render_pdf_pages(html, ROOT / "layouts", "shortcuts")
    assert len(plain_pages) > 1
    assert quick_pages == plain_pages
    assert quick == plain


COUNTED = (
    "setup",
    "missing",
    "percentages",
    "backgrounds",
    "strut",
    "set_computed_styles",
    "draw_first_line",
)


def test_the_shortcuts_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """With them, WeasyPrint's own setup of a line's layout serves only the styles they leave
    to it (font features, a language override), and its own property lookup far fewer
    readings than without them."""
    render_pdf_pages(page(), ROOT / "layouts", "shortcuts")  # installs them
    counts = dict.fromkeys(COUNTED, 0)

    def counted(name: str) -> Any:
        original = layout_speed._originals[name]

        def call(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)

        return call

    for name in COUNTED:
        monkeypatch.setitem(layout_speed._originals, name, counted(name))
    layout_speed._apply()
    try:
        render_pdf_pages(page(), ROOT / "layouts", "shortcuts")
        quick = dict(counts)
        counts.update(dict.fromkeys(COUNTED, 0))
        with layout_speed.plain_weasyprint():
            render_pdf_pages(page(), ROOT / "layouts", "shortcuts")
    finally:
        monkeypatch.undo()
        layout_speed._apply()
    assert 0 < quick["setup"] < counts["setup"] / 5
    assert 0 < quick["missing"] < counts["missing"] / 3
    # the boxes with percentages, a background or hidden take the general case, no other
    for name in ("percentages", "backgrounds"):
        assert 0 < quick[name] < counts[name] / 4
    assert 0 < quick["strut"] < counts["strut"] / 4
    # the styles of list items' markers are computed, not those of every element's
    assert 0 < quick["set_computed_styles"] < counts["set_computed_styles"] / 2
    # a line with an ellipsis is drawn by the general case, the others not
    assert 0 < quick["draw_first_line"] < counts["draw_first_line"] / 4


def test_the_html_reader_keeps_its_expressions() -> None:
    """tinyhtml5 files each expression it reads the HTML with under the key it looks up
    (its own code files it under the expression itself, and so made it at every call)."""
    from tinyhtml5 import inputstream

    render_pdf_pages(page(), ROOT / "layouts", "shortcuts")  # installs them
    inputstream.characters_until_regex.clear()
    render_pdf_pages(page(), ROOT / "layouts", "shortcuts")
    keys = list(inputstream.characters_until_regex)
    assert keys
    assert not any(isinstance(characters, re.Pattern) for characters, _opposite in keys)
