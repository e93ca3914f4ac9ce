"""What a reader of the fifteen editions sees, read back from the PDFs: no engine notation,
no stray space between Japanese characters, each language in its own font, compact books,
and a player aid per player."""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from printgen.build import BuildOptions, Project, build
from printgen.engines import game_data
from printgen.model import load_game
from printgen.rulebook import assemble
from rules_engine.registry import engine_for

# One worker builds the five books once for every test here (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("books")
ROOT = Path(__file__).resolve().parent.parent
GAMES = ("subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot")
EDITIONS = ("ja", "en", "ja-en")
JA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e\u3001-\u303f"
JA_SPACE = re.compile(f"[{JA}][ \u00a0\t\n]+[{JA}]")
# Page counts before the rulebooks were made compact.
BEFORE = {
    "subzero": {"ja": 42, "en": 43, "ja-en": 28},
    "squares2": {"ja": 27, "en": 29, "ja-en": 24},
    # +1: the side-by-side edition gained each section's rules with their examples, and
    # each example the rules it shows (rule coverage), in both languages.
    "submarine-attack": {"ja": 25, "en": 26, "ja-en": 19},
    "susumuka-modoruka": {"ja": 44, "en": 48, "ja-en": 38},
    "kill-shot": {"ja": 29, "en": 30, "ja-en": 26},
}


HTML: dict[tuple[str, str], str] = {}  # (game, edition) -> the HTML the PDF was made from


@pytest.fixture(scope="session")  # once, even when other tests run between these
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """All five games built with their rulebooks (in this process, keeping each edition's
    HTML as it went to WeasyPrint)."""
    out = tmp_path_factory.mktemp("books")
    opts = BuildOptions(papers=(), png=False, rulebooks=True, jobs=1)  # books only
    original = assemble.html_of

    def keep(rb: Any, blocks: Any, edition: str, layouts: Path, *rest: Any) -> str:
        html = original(rb, blocks, edition, layouts, *rest)
        HTML[(rb.game.id, edition)] = html
        return html

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assemble, "html_of", keep)
        build(Project(ROOT), list(GAMES), out, opts)
    return out


BLOCK_TAGS = re.compile(
    r"<(/?)(p|li|ul|ol|div|td|th|tr|table|h[1-6]|figure|figcaption|br|section|style|head)\b[^>]*>"
)


def typeset_text(html: str) -> str:
    """The text of an edition as the reader sees it: block boundaries as a mark no space
    can cross, inline tags gone (white space, line ends too, between inline elements
    stays: it prints as a space)."""
    body = html.split("<body", 1)[1]
    body = BLOCK_TAGS.sub("\x00", body)
    return unescape(re.sub(r"<[^>]+>", "", body))


def player_files(books: Path, game: str) -> list[Path]:
    folder = books / game
    return [folder / f"rulebook-{e}.pdf" for e in EDITIONS] + sorted(
        folder.glob("player-aid-*.pdf")
    )


def text_of(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def option_ids(game_id: str) -> list[str]:
    """Option names and values as the engine knows them (`end_square`, `five_or_more`):
    words with an underscore never belong in a player's text."""
    game = load_game(ROOT / "components" / game_id)
    entry = engine_for(game_id)
    assert entry is not None
    ids = []
    for opt in entry.options_for(game_data(game)):
        ids += [opt.name, *(str(v) for v in opt.allowed)]
    return sorted({i for i in ids if "_" in i})


@pytest.mark.parametrize("game", GAMES)
def test_no_engine_notation_in_any_player_edition(books: Path, game: str) -> None:
    loaded = load_game(ROOT / "components" / game)
    entry = engine_for(game)
    assert entry is not None
    engine = entry.load(game_data(loaded))
    pattern = engine.notation_pattern()
    ids = option_ids(game)
    for pdf in player_files(books, game):
        text = text_of(pdf)
        flat = re.sub(r"-\n", "", text)  # a hyphenated line end joins again
        found = pattern.search(flat)
        assert found is None, f"{pdf.name}: notation {found.group(0)!r}"
        for name in ids:
            assert name not in flat, f"{pdf.name}: option id {name!r}"
        found = re.search(r"\b[a-z_]+ = \w+", flat)  # `players = 2`, not `3 + 4 = 7`
        assert found is None, f"{pdf.name}: 'key = value' notation {found.group(0)!r}"


@pytest.mark.parametrize("game", GAMES)
def test_no_space_between_two_japanese_characters(books: Path, game: str) -> None:
    editions = [e for g, e in HTML if g == game]
    assert set(editions) >= {"ja", "en", "ja-en", "aid-ja", "aid-en"}
    for edition in editions:
        text = typeset_text(HTML[(game, edition)])
        found = JA_SPACE.search(text)
        assert found is None, f"{edition}: {text[found.start() - 20 : found.end() + 20]!r}"


def real_names(pdf: Path) -> dict[str, str]:
    """Each embedded font's name in the PDF -> the full name inside its font file (a
    synthesised bold or oblique keeps the regular file under a bold or italic name)."""
    names: dict[str, str] = {}
    for page in PdfReader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            base = str(font["/BaseFont"]).split("+")[-1]
            if "/DescendantFonts" in font:
                font = font["/DescendantFonts"][0].get_object()
            descriptor = font["/FontDescriptor"].get_object()
            data = descriptor["/FontFile2"].get_object().get_data()
            names[base] = str(TTFont(io.BytesIO(data))["name"].getDebugName(4))
    return names


def letters_by_font(pdf: Path) -> Counter[tuple[str, str]]:
    """How many Latin letters and Japanese characters each font sets: (font, script)."""
    counts: Counter[tuple[str, str]] = Counter()

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if not font or not text:
            return
        name = str(font.get("/BaseFont", "")).split("+")[-1]
        counts[(name, "latin")] += len(re.findall(r"[A-Za-z]", text))
        counts[(name, "ja")] += len(re.findall(f"[{JA}]", text))

    for page in PdfReader(pdf).pages:
        page.extract_text(visitor_text=visit)
    return counts


@pytest.mark.parametrize("game", GAMES)
def test_each_language_is_set_in_its_own_font(books: Path, game: str) -> None:
    for edition in EDITIONS:
        pdf = books / game / f"rulebook-{edition}.pdf"
        real = real_names(pdf)
        for base, name in real.items():  # true bold and italic, never synthesised
            for style in ("Bold", "Italic"):
                if style in base:
                    assert style in name, f"{edition}: {base} is {name}: a fake {style.lower()}"
        counts = letters_by_font(pdf)
        latin = {real.get(f, f): n for (f, script), n in counts.items() if script == "latin" and n}
        ja = {real.get(f, f): n for (f, script), n in counts.items() if script == "ja" and n}
        assert not any("Mincho" in f for f in latin), f"{edition}: Latin letters in Mincho"
        assert not any("Noto" in f for f in ja), f"{edition}: Japanese in the Latin font"
        if edition != "ja":  # headings are in the Gothic, running text in the serif
            serif = sum(n for f, n in latin.items() if f.startswith("Noto Serif"))
            assert serif > 0.7 * sum(latin.values()), f"{edition}: {latin}"
        if edition != "en":
            assert any("Mincho" in f for f in ja), f"{edition}: {ja}"


@pytest.mark.parametrize("game", GAMES)
def test_no_edition_is_longer_than_before(books: Path, game: str) -> None:
    """The books gained a cover picture, a setup diagram, a turn summary page, a glossary
    and a diagram beside every step, and still take no more pages than before."""
    for edition in EDITIONS:
        pages = len(PdfReader(books / game / f"rulebook-{edition}.pdf").pages)
        assert pages <= BEFORE[game][edition], f"{edition}: {pages} pages"


def baselines(reader: PdfReader) -> list[float]:
    """The height above the page's foot of every line of text, in points."""
    found: list[float] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            found.append(cm[5] + tm[5] * cm[3])

    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_player_aid_for_each_player(books: Path, game: str) -> None:
    players = load_game(ROOT / "components" / game).info.players.max
    for lang in ("ja", "en"):
        reader = PdfReader(books / game / f"player-aid-{lang}.pdf")
        assert len(reader.pages) == math.ceil(players / 2)  # two A5 aids per A4 sheet
        box = reader.pages[0].mediabox
        assert round(float(box.width) * 25.4 / 72) == 297
        assert round(float(box.height) * 25.4 / 72) == 210
        lowest = min(baselines(reader))  # no line runs off the foot of its A5 half
        assert lowest > 8 * 72 / 25.4, f"{lang}: text runs off the aid"


@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_links_rules_and_examples_both_ways(books: Path, game: str) -> None:
    """Each section lists its rule clauses, each with the printed examples that show it;
    each printed example lists the rules it shows, by section; every link has a target,
    and the side-by-side edition has each anchor once."""
    clauses = load_game(ROOT / "components" / game).info.clauses
    for edition in EDITIONS:
        html = HTML[(game, edition)]
        ids = re.findall(r' id="([^"]+)"', html)
        assert len(ids) == len(set(ids)), edition
        anchors = set(ids)
        entries = [
            (m.group(1), m.group(2))
            for m in re.finditer(
                r'<span class="rule" id="rule-([^"]+)">(.*?)(?=<span class="rule"|</p>)', html
            )
        ]
        assert entries, edition
        declared = {re.sub(r"[^A-Za-z0-9]+", "-", c.id).strip("-") for c in clauses}
        assert {rule for rule, _ in entries} <= declared
        assert all('href="#ex-' in entry for _, entry in entries), edition  # each has examples
        entries = [entry for _, entry in entries]
        heads = re.findall(r'<div class="ex-shows">.*?</div>', html)
        assert heads, edition
        for part in entries + heads:
            for target in re.findall(r'href="#([^"]+)"', part):
                assert target in anchors, (edition, target)
