"""Japanese text for print: folded-line spaces removed, lines broken between phrases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printgen.jatext import (
    WORD_JOINER,
    breakable_units,
    joined_phrases,
    phrase_html,
    phrases,
    unfold,
)
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


def test_the_pdf_renderer_gets_phrases_joined_not_spanned() -> None:
    """`joined_phrases`: each phrase span becomes its characters joined by WORD JOINERs
    (no break inside, as `nowrap` gave, without an inline box per phrase); white space at a
    phrase's ends stays outside; no joiner inside a character's cluster."""
    wj = WORD_JOINER
    html = phrase_html("同時に出た魚雷は") + '<span class="ph">MOVE 3で </span><b>x</b>'
    joined = joined_phrases(html)
    assert "ph" not in joined and joined.endswith("<b>x</b>")
    assert joined.replace(wj, "") == re.sub(r"</?span[^>]*>", "", html)
    assert f"同{wj}時{wj}に" in joined and f"E{wj} {wj}3{wj}で " in joined
    assert joined_phrases('<span class="ph">が\u3099き\u200dく</span>') == f"が\u3099{wj}き\u200dく"
    assert joined_phrases('<span class="ph">：\n</span>') == "：\n"
    assert joined_phrases("<p>no phrases</p>") == "<p>no phrases</p>"


def test_joined_phrases_break_lines_where_spans_did_and_leave_no_joiner_in_the_pdf() -> None:
    import io

    import weasyprint
    from pypdf import PdfReader
    from weasyprint.formatting_structure import boxes

    font = Path(__file__).resolve().parents[1] / "layouts" / "fonts" / "BIZUDPGothic-Regular.ttf"
    style = (
        f"@font-face {{ font-family: G; src: url({font.as_uri()}); }} .ph {{ white-space: nowrap; }}"
        " body { font-family: G; font-size: 12pt; width: 30mm; }"
    )
    body = phrase_html("同時に出た相手の魚雷はすべて無効になる。必ずどれかの目がそろいます。")

    def lines(html: str) -> tuple[list[str], str]:
        document = weasyprint.HTML(string=f"<style>{style}</style><p>{html}</p>").render()
        found = [
            "".join(t.text for t in box.descendants() if isinstance(t, boxes.TextBox))
            for page in document.pages
            for box in page._page_box.descendants()
            if isinstance(box, boxes.LineBox)
        ]
        text = PdfReader(io.BytesIO(document.write_pdf())).pages[0].extract_text()
        return [line.replace(WORD_JOINER, "") for line in found], text

    spanned, _ = lines(body)
    joined, text = lines(joined_phrases(body))
    assert len(joined) > 3  # the column is narrow: the paragraph takes several lines
    assert joined == spanned
    assert WORD_JOINER not in text
    assert "無効になる。" in text.replace("\n", "")


def test_phrases_are_kept_between_runs_as_budoux_splits_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A run's new phrases are written to the cache folder at its end; the next run reads
    them there instead of splitting the texts again (BudouX not called), the same phrases.
    A damaged file, or no cache folder, only means splitting again."""
    from printgen import jatext

    texts = ["カードを1枚引いて、相手の山札の上に置く。", "好きなカードを出してもよい。"]
    expected = [tuple(jatext._parser().parse(t)) for t in texts]

    def new_run() -> None:  # what a new process starts from
        monkeypatch.setattr(jatext, "_kept", None)
        monkeypatch.setattr(jatext, "_new_phrases", [])
        jatext.phrases.cache_clear()

    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("atexit.register", lambda *_: None)  # kept below, by hand
    new_run()
    assert [phrases(t) for t in texts] == expected
    jatext._keep_phrases()
    (kept,) = (tmp_path / "phrases").iterdir()

    new_run()
    real_parser = jatext._parser()

    def no_split() -> None:
        raise AssertionError("a kept text was split again")

    monkeypatch.setattr(jatext, "_parser", no_split)
    assert [phrases(t) for t in texts] == expected
    monkeypatch.setattr(jatext, "_parser", lambda: real_parser)

    kept.write_bytes(kept.read_bytes()[:-3] + b"xyz")  # damaged: its checksum fails
    new_run()
    assert [phrases(t) for t in texts] == expected
    monkeypatch.delenv("PRINTGEN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", "")
    new_run()
    assert jatext._phrases_file() is None and [phrases(t) for t in texts] == expected
    new_run()  # (no phrase split here stays in `phrases`' memory for the tests after)
