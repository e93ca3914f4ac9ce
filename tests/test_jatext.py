"""Japanese text for print: folded-line spaces removed, lines broken between phrases."""

from __future__ import annotations

import re

from printgen.jatext import breakable_units, phrase_html, phrases, unfold
from printgen.rulebook.text import markdown_blocks, prose


def test_a_folded_line_leaves_no_space_between_japanese_characters() -> None:
    assert unfold("めくる前に 見ると、西の\nチャールズ") == "めくる前に見ると、西のチャールズ"
    # Spaces around Latin words stay: they are real word gaps.
    assert unfold("MOVE 3 で D1 から") == "MOVE 3 で D1 から"


def test_markdown_soft_breaks_and_emphasis_leave_no_space() -> None:
    html = "".join(
        markdown_blocks("1. **カードを並べる。** 各プレイヤーは\n手札から選びます。", "ja")
    )
    text = re.sub(r"<[^>]+>", "", html)
    assert "並べる。各プレイヤーは手札から選びます。" in text
    # A Japanese name inside English text loses its space too.
    assert "上野宏之" in prose("Hiroyuki Ueno (上野 宏之)", "en")


def test_phrases_are_kept_whole_and_give_the_text_back() -> None:
    text = "アントニーが出せないカードを押すと、D4のバーバラは射程外です。"
    found = phrases(text)
    assert "".join(found) == text
    assert not any(p.endswith("出せな") or p.endswith("押") for p in found)
    assert "".join(breakable_units(text)) == text
    html = phrase_html(text)
    assert re.sub(r"<[^>]+>", "", html) == text
    assert '<span class="ph">' in html


def test_tags_and_entities_are_never_split() -> None:
    html = phrase_html('<b class="x">西の</b>チャールズ&amp;アントニー')
    assert '<b class="x">' in html and "&amp;" in html
    assert re.sub(r"<[^>]+>", "", html) == "西のチャールズ&amp;アントニー"


def test_a_latin_colon_after_japanese_becomes_a_full_width_one() -> None:
    html = "".join(markdown_blocks("**勝利**: 中央の列を取る。", "ja"))
    assert re.sub(r"<[^>]+>", "", html).strip() == "勝利：中央の列を取る。"
    assert ": the" in "".join(markdown_blocks("**Win**: the centre", "en"))
    # The colon inside the bold, then a space: neither survives.
    html = "".join(markdown_blocks("**目的:** 盤の中央。", "ja"))
    assert re.sub(r"<[^>]+>", "", html).strip() == "目的：盤の中央。"
