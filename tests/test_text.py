"""Text fitting: kinsoku line breaking, inline icons, shrinking to the minimum size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen import textlayout
from printgen.textlayout import NO_LINE_END, NO_LINE_START, TextDoesNotFit, layout_text
from printgen.units import parse_length


def measure(text: str, size: float) -> float:
    """A monospaced stand-in: every character is one em wide."""
    return len(text) * size * 25.4 / 72.0


def fit(
    text: str, width_em: float, lines: int = 10, size: float = 10.0, min_size: float = 10.0
) -> list[str]:
    em = size * 25.4 / 72.0
    fitted = layout_text(
        text,
        width_em * em,
        lines * em * 1.2,
        size,
        min_size,
        1.2,
        "left",
        "top",
        measure,
        0.88,
        ["dice"],
    )
    return [
        "".join(r.value if r.kind == "text" else f":{r.value}:" for r in line.runs)
        for line in fitted.lines
    ]


def test_no_line_starts_with_a_closing_mark_or_small_kana() -> None:
    lines = fit("ダイスを四個振りました。次へ", 11)
    # Lines break between phrases (BudouX), never inside a word: not 振りまし / た。
    assert lines == ["ダイスを", "四個振りました。次へ"]
    for line in fit("かっこいいゃっょ、「カード」です。", 5):
        assert line[0] not in NO_LINE_START


def test_no_line_ends_with_an_opening_bracket() -> None:
    for line in fit("これは「カード」の説明文です", 3):
        assert line[-1] not in NO_LINE_END


def test_latin_words_are_not_split_and_icons_flow_with_text() -> None:
    assert fit("Roll seven dice now", 11) == ["Roll seven", "dice now"]
    assert fit(":dice: × 7", 10) == [":dice: × 7"]


def test_text_shrinks_to_fit_then_fails_below_the_minimum() -> None:
    em10 = 10 * 25.4 / 72.0
    fitted = layout_text("ABCDEFGHIJ", 5 * em10, em10, 10, 4, 1.2, "left", "top", measure, 0.88, [])
    assert fitted.size_pt == 5.0 and len(fitted.lines) == 1
    with pytest.raises(TextDoesNotFit):
        layout_text("ABCDEFGHIJ", 5 * em10, em10, 10, 8, 1.2, "left", "top", measure, 0.88, [])


def test_centred_lines_are_centred() -> None:
    em = 10 * 25.4 / 72.0
    fitted = layout_text("AB", 10 * em, 2 * em, 10, 10, 1.2, "center", "middle", measure, 0.88, [])
    (run,) = fitted.lines[0].runs
    assert abs(run.x - 4 * em) < 1e-9


@pytest.mark.parametrize(
    ("text", "mm"), [("3mm", 3.0), ("0.25in", 6.35), ("72pt", 25.4), ("1.5cm", 15.0), (2, 2.0)]
)
def test_lengths_accept_units(text: str | int, mm: float) -> None:
    assert abs(parse_length(text) - mm) < 1e-9


def test_two_closing_marks_in_a_row_never_start_a_line() -> None:
    for width in range(3, 12):
        for line in fit("斜めには移動できない（ななめ不可）。次の文。", width):
            assert line[0] not in NO_LINE_START, (width, line)


# --- the short way for text with no Japanese ----------------------------------------------

LATIN_TEXT = st.text(alphabet=st.sampled_from(list("ab-Z9 .,\t\u00a0'()#")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(LATIN_TEXT)
def test_latin_units_are_the_general_units(text: str) -> None:
    """A paragraph with no Japanese is cut into the same units the short way as the
    general way (BudouX phrases, kinsoku, word joiners) cuts it."""
    assert textlayout._latin_units(text) == textlayout._general_units(text)
    assert textlayout.units(text) == textlayout._general_units(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Draw two cards.", ["Draw", " ", "two", " ", "cards."]),
        ("  face-down  card ", [" ", "face-", "down", " ", "card", " "]),
        ("x-1 3-D", ["x-1", " ", "3-D"]),
    ],
)
def test_latin_units(text: str, expected: list[str]) -> None:
    assert textlayout.units(text) == expected
