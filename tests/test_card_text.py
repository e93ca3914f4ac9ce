"""Card text that reads at arm's length, on every face of every piece of every game, in
every language mode: body text at least 7 pt, secondary text at least 6 pt, Japanese never
smaller than English in the same field, lines that never touch, and line breaks where a
reader expects them (Japanese between BudouX phrases, English at spaces, kinsoku kept)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from printgen import fonts
from printgen.build import Project, load_all
from printgen.errors import PrintgenError
from printgen.jatext import breakable_units, has_japanese, unfold
from printgen.ops import Face, TextRun
from printgen.render import FLOOR_PT, LANG_CHOICES, FaceRequest, FieldText, render_face
from printgen.textlayout import (
    MIN_LEADING,
    NO_LINE_END,
    NO_LINE_START,
    WORD_JOINER,
    Line,
    layout_text,
)
from printgen.units import pt_to_mm

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot")
CASES = [(game, lang) for game in GAMES for lang in LANG_CHOICES]
IDS = [f"{game}-{lang}" for game, lang in CASES]

Laid = list[tuple[str, Face, list[FieldText]]]
ICON = re.compile(r":[a-z0-9-]+:")
ICON_END = re.compile(r":[a-z0-9-]+:$")


@functools.cache
def laid_out(game_id: str, lang: str) -> Laid:
    """Every face of every piece of a game in one language mode, with its text fields."""
    lib, (game,) = load_all(Project(ROOT), [game_id])
    out: Laid = []
    for piece in game.pieces:
        for side in ["front"] + (["back"] if piece.back_layout else []):
            fields: list[FieldText] = []
            req = FaceRequest(piece, side, lang)
            face = render_face(lib, game, req, None, fields)
            out.append((req.key, face, fields))
    return out


def name(key: str, field: FieldText) -> str:
    return f"{key} field '{field.id}' ({field.where})"


def line_text(line: Line) -> str:
    return "".join(r.value if r.kind == "text" else f":{r.value}:" for r in line.runs).strip()


@pytest.mark.parametrize(("game", "lang"), CASES, ids=IDS)
def test_no_text_under_6_pt_and_body_text_at_least_7_pt(game: str, lang: str) -> None:
    small = []
    for key, face, fields in laid_out(game, lang):
        assert fields or not any(isinstance(op, TextRun) for op in face.ops)
        for op in face.ops:
            if isinstance(op, TextRun) and op.size_pt < FLOOR_PT["secondary"]:
                small.append(f"{key}: {op.text!r} at {op.size_pt:g}pt")
        for field in fields:
            floor = FLOOR_PT[field.role]
            if field.fitted.size_pt < floor:
                small.append(f"{name(key, field)}: {field.role} at {field.fitted.size_pt:g}pt")
    assert not small, "\n".join(small[:30])


def language_runs(fitted_size: float, field: FieldText) -> Iterator[tuple[str, float]]:
    for line in field.fitted.lines:
        for run in line.runs:
            if run.kind != "text":
                continue
            if has_japanese(run.value):
                yield "ja", fitted_size
            elif re.search("[A-Za-z]", run.value):
                yield "en", fitted_size


@pytest.mark.parametrize(("game", "lang"), CASES, ids=IDS)
def test_japanese_is_never_smaller_than_english_in_the_same_field(game: str, lang: str) -> None:
    """A field (one instance of a repeated one) and its language twins (`effect-ja` and
    `effect-en`) on one face."""
    wrong = []
    for key, _face, fields in laid_out(game, lang):
        sizes: dict[str, dict[str, list[float]]] = {}
        for field in fields:
            group = f"{re.sub(r'-(ja|en)$', '', field.id or '')}[{field.instance}]"
            for language, size in language_runs(field.fitted.size_pt, field):
                sizes.setdefault(group, {}).setdefault(language, []).append(size)
        for group, by_lang in sizes.items():
            if "ja" in by_lang and "en" in by_lang and min(by_lang["ja"]) < max(by_lang["en"]):
                wrong.append(
                    f"{key} field '{group}': Japanese {min(by_lang['ja']):g}pt, "
                    f"English {max(by_lang['en']):g}pt"
                )
    assert not wrong, "\n".join(wrong[:30])


@pytest.mark.parametrize(("game", "lang"), CASES, ids=IDS)
def test_lines_never_touch(game: str, lang: str) -> None:
    close = []
    for key, _face, fields in laid_out(game, lang):
        for field in fields:
            em = pt_to_mm(field.fitted.size_pt)
            baselines = [line.baseline for line in field.fitted.lines]
            for a, b in itertools.pairwise(baselines):
                if b - a < MIN_LEADING * em - 1e-6:
                    close.append(f"{name(key, field)}: pitch {(b - a) / em:.2f} x size")
    assert not close, "\n".join(close[:30])


def paragraphs(field: FieldText) -> Iterator[tuple[str, list[str]]]:
    """Each paragraph of a field's text (white space collapsed, as laid out) with its lines."""
    lines = [line_text(line) for line in field.fitted.lines]
    k = 0
    for raw in field.text.split("\n"):
        text = re.sub(r"\s+", " ", unfold(raw).replace(WORD_JOINER, "")).strip()
        mine: list[str] = []
        laid = ""
        while k < len(lines) and (not mine or len(laid) < len(text.replace(" ", ""))):
            mine.append(lines[k])
            laid += lines[k].replace(" ", "")
            k += 1
        assert laid == text.replace(" ", ""), (field.id, raw, mine)
        yield text, mine
    assert k == len(lines), (field.id, lines)


def break_problems(field: FieldText) -> Iterator[str]:
    size = field.fitted.size_pt
    for text, lines in paragraphs(field):
        for n, line in enumerate(lines):
            chars = ICON.sub("\ufffc", line)  # an icon is no character
            if n > 0 and chars and chars[0] in NO_LINE_START:
                yield f"line starts with {chars[0]!r}: {line!r}"
            if n < len(lines) - 1 and chars and chars[-1] in NO_LINE_END:
                yield f"line ends with {chars[-1]!r}: {line!r}"
        pos = 0
        for left, right in itertools.pairwise(lines):
            pos = text.index(left, pos) + len(left)
            if text[pos : pos + 1] == " " or ICON_END.search(left) or ICON.match(right):
                continue  # at a space, after or before an icon
            before, after = text[pos - 1], text[pos]
            if not (has_japanese(before) or has_japanese(after)):
                if not (before == "-" and text[pos - 2 : pos - 1].isalpha()):
                    yield f"word split: {left!r} / {right!r}"
                continue
            # Japanese: between the BudouX phrases of the text between two icons
            start = max((m.end() for m in ICON.finditer(text, 0, pos)), default=0)
            after_icon = ICON.search(text, pos)
            segment = text[start : after_icon.start() if after_icon else len(text)]
            offset = start
            for unit in breakable_units(segment):
                if offset < pos < offset + len(unit):
                    width = fonts.string_width_mm(unit.strip(), field.font_name, size)
                    if width <= field.width + 1e-6:
                        yield f"phrase {unit!r} broken: {left!r} / {right!r}"
                    break
                offset += len(unit)


@pytest.mark.parametrize(("game", "lang"), CASES, ids=IDS)
def test_lines_break_between_words_and_phrases_with_kinsoku(game: str, lang: str) -> None:
    """English only at spaces (or after a hyphen), Japanese only between BudouX phrases
    (unless one phrase is wider than the line), no line starting with a closing mark or
    small kana, none ending with an opening bracket."""
    bad: list[str] = []
    for key, _face, fields in laid_out(game, lang):
        for field in fields:
            bad.extend(f"{name(key, field)}: {problem}" for problem in break_problems(field))
    assert not bad, "\n".join(sorted(set(bad))[:30])


def test_the_checks_see_a_broken_word_and_a_broken_phrase() -> None:
    """The break checks themselves: a field laid out with a word and a phrase cut."""
    from printgen.textlayout import Fitted, Run

    def field(text: str, lines: list[str]) -> FieldText:
        fitted = Fitted(
            8.0, tuple(Line(3.0 * i, (Run(0.0, "text", s, 1.0),)) for i, s in enumerate(lines))
        )
        return FieldText("f", 0, "body", text, 40.0, 1.2, fitted, "Helvetica", None)

    assert list(break_problems(field("Roll seven dice", ["Roll sev", "en dice"])))
    assert not list(break_problems(field("Roll seven dice", ["Roll seven", "dice"])))
    assert list(break_problems(field("手札から出せない", ["手札から出せな", "い"])))
    assert not list(break_problems(field("手札から出せない", ["手札から", "出せない"])))
    assert list(break_problems(field("雪玉を作る。次へ", ["雪玉を作る", "。次へ"])))


def mono(text: str, size: float) -> float:
    """A monospaced stand-in: every character is one em wide."""
    return len(text) * pt_to_mm(size)


def fit(text: str, width_em: float, align: str = "left") -> list[str]:
    em = pt_to_mm(10)
    fitted = layout_text(
        text, width_em * em, 50 * em, 10, 10, 1.2, align, "top", mono, 0.88, ["dice"]
    )
    return [line_text(line) for line in fitted.lines]


def test_japanese_breaks_between_phrases_and_english_between_words() -> None:
    assert fit("ダイスを四個振りました。次へ", 11) == ["ダイスを", "四個振りました。次へ"]
    assert fit("Roll seven dice now", 11) == ["Roll seven", "dice now"]
    assert fit("Turn it face-down now", 13) == ["Turn it face-", "down now"]
    # a phrase wider than the line breaks inside it, and kinsoku still holds
    lines = fit("ゾロ目が出たらそのカラムを撃破する。", 4)
    assert all(line[0] not in NO_LINE_START for line in lines[1:])
    # spaces a folded YAML line left between Japanese characters are not drawn
    assert fit("雪玉を 作る。", 20) == ["雪玉を作る。"]
    # a word joiner keeps two units together and is not drawn
    cut = ["1球ごとに縦横な", "なめ8方向から選ぶ。"]  # BudouX does not know ななめ
    assert fit("1球ごとに縦横ななめ8方向から選ぶ。", 10) == cut
    joined = fit("1球ごとに縦横な\u2060なめ8方向から選ぶ。", 10)
    assert joined == ["1球ごとに", "縦横ななめ8方向から", "選ぶ。"]


def test_centred_text_is_balanced() -> None:
    assert fit("Move one more square and stop", 24, "center") == [
        "Move one more",
        "square and stop",
    ]


def layout_error(root: Path, rel: str, old: str, new: str, game: str) -> str:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(PrintgenError) as caught:
        lib, (loaded,) = load_all(Project(root), [game])
        for piece in loaded.pieces:
            for side in ["front"] + (["back"] if piece.back_layout else []):
                render_face(lib, loaded, FaceRequest(piece, side, "both"))
    return str(caught.value)


def test_text_that_does_not_fit_at_the_floor_is_an_error_at_its_layout_line(
    project_copy: Path,
) -> None:
    message = layout_error(
        project_copy,
        "layouts/squares2/tile.yaml",
        "box: [3mm, 17.2mm, 34mm, 19.8mm]",
        "box: [3mm, 17.2mm, 34mm, 12mm]",
        "squares2",
    )
    assert re.search(r"layouts/squares2/tile\.yaml:\d+", message), message
    assert "text does not fit" in message and "component tsunami-" in message
    assert "field 'rule' (body text, floor 7pt)" in message


def test_a_size_under_the_floor_is_an_error_at_its_layout_line(project_copy: Path) -> None:
    message = layout_error(
        project_copy,
        "layouts/base/card.yaml",
        "    role: secondary\n    size: 6pt",
        "    role: secondary\n    size: 5pt",
        "submarine-attack",
    )
    assert re.search(r"layouts/base/card\.yaml:\d+", message), message
    assert "5pt is under the 6pt floor for secondary text" in message


def test_lines_closer_than_1_15_are_refused(project_copy: Path) -> None:
    message = layout_error(
        project_copy, "layouts/squares2/tile.yaml", "leading: 1.15", "leading: 1.05", "squares2"
    )
    assert re.search(r"layouts/squares2/tile\.yaml:\d+", message), message
    assert "leading" in message and "1.15" in message
