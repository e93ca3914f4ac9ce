"""Japanese text for print: the spaces a folded YAML line leaves between Japanese
characters removed, and phrase-aware line breaking (BudouX) so that a line never breaks
inside a word (`出せな/い`), for cards and for the rulebook alike.

JLREQ basics kept here:
- no space between two Japanese characters (a YAML `>` fold turns a line end into one);
- a line breaks between phrases (文節), not inside one; punctuation that may not start a
  line (kinsoku: 、。」）ー and small kana) stays with the phrase before it, which BudouX
  already does and which the renderers' own line breaking (UAX #14) enforces too.

The rulebook's HTML marks phrases with spans (`phrase_html`, styled `nowrap`); the PDF
renderer gets them joined by WORD JOINERs instead (`joined_phrases`): the same rule, with
none of the inline boxes that made a Japanese page slow to lay out.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import marshal
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from printgen.cache import cache_dir, file_digest, keep_newest, read_entry, write_entry

# Japanese characters: kana, CJK ideographs, CJK symbols and punctuation, full-width forms.
JA = "\u3000-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_JA_CHAR = re.compile(f"[{JA}]")
_FOLD_SPACE = re.compile(f"(?<=[{JA}])[ \t\r\n]+(?=[{JA}])")

MAX_PHRASE = 14  # characters: a longer "phrase" may break inside (a narrow column must fit)


def has_japanese(text: str) -> bool:
    return _JA_CHAR.search(text) is not None


def unfold(text: str) -> str:
    """Remove white space between two Japanese characters (where a folded YAML line or
    a careless edit left it); keep the spaces around Latin words."""
    return _FOLD_SPACE.sub("", text)


@lru_cache(maxsize=1)
def _parser() -> Any:
    import budoux

    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=4096)
def phrases(text: str) -> tuple[str, ...]:
    """Japanese text split into phrases that a line may break between (BudouX); text with
    no Japanese is one phrase."""
    if not has_japanese(text):
        return (text,)
    kept = _kept_phrases()
    found = kept.get(text)
    if found is None:
        found = kept[text] = tuple(_parser().parse(text))
        _new_phrases.append(text)
    return found


# --- phrases kept between runs -----------------------------------------------------------------
#
# BudouX splits a text in 0.1 to 0.2 ms (a Python loop over its characters): the 400 texts of
# a 200-card Japanese deck took a tenth of its build. What it makes of a text depends on the
# text, BudouX's parser and its Japanese model alone, so the phrases are kept in printgen's
# cache folder (printgen/cache.py): one file, named by the digest of the parser's and the
# model's files, checked by its sha256 before use, written again when a run split new texts
# (the newest `PHRASES_KEPT`; of older BudouX versions, one file stays). A build whose texts
# are all kept does not load BudouX. Without the folder, every text is split again; either
# way the phrases are BudouX's.

PHRASES_KEPT = 50_000
_kept: dict[str, tuple[str, ...]] | None = None
_new_phrases: list[str] = []


def _phrases_file() -> Path | None:
    folder = cache_dir()
    spec = importlib.util.find_spec("budoux")
    if folder is None or spec is None or not spec.origin:
        return None
    package = Path(spec.origin).parent
    digest = hashlib.sha256()
    for name in ("parser.py", "models/ja.json"):
        digest.update(file_digest(package / name).encode("ascii"))
    return folder / "phrases" / f"{digest.hexdigest()[:32]}.marshal"


def _kept_phrases() -> dict[str, tuple[str, ...]]:
    global _kept
    if _kept is None:
        _kept = {}
        data = read_entry(_phrases_file())
        if data is not None:
            try:
                stored = marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                stored = None
            if isinstance(stored, dict):
                _kept = stored
        atexit.register(_keep_phrases)
    return _kept


def _keep_phrases() -> None:
    """Write the phrases kept again when this run split new texts (at exit)."""
    if not _new_phrases or _kept is None:
        return
    newest = list(_kept.items())[-PHRASES_KEPT:]
    try:
        data = marshal.dumps(dict(newest))
    except ValueError:
        return
    where = _phrases_file()
    if where is not None:
        write_entry(where, data)
        keep_newest(where.parent, 2)  # this one and the last of another BudouX
    _new_phrases.clear()


def breakable_units(text: str) -> list[str]:
    """Units for a line breaker: Japanese phrases (each kept whole unless over-long), Latin
    words with their trailing space. Joining them gives the text back."""
    units: list[str] = []
    for phrase in phrases(text):
        if len(phrase) > MAX_PHRASE:
            units.extend(_split_long(phrase))
        else:
            units.append(phrase)
    out: list[str] = []
    for unit in units:
        # A phrase holding Latin words ("C2からの", "MOVE 3で") may break at its spaces.
        pieces = re.split(r"(?<= )", unit)
        out.extend(p for p in pieces if p)
    return out


def _split_long(phrase: str) -> list[str]:
    return [phrase[i : i + MAX_PHRASE] for i in range(0, len(phrase), MAX_PHRASE)]


_TAG = re.compile(r"(<[^>]+>|&[#a-zA-Z0-9]+;)")  # tags and entities stay whole


def phrase_html(html: str) -> str:
    """HTML whose Japanese text runs are wrapped phrase by phrase in `<span class="ph">`
    (styled `white-space: nowrap`), so the renderer breaks lines only between phrases.
    Tags and text without Japanese are left as they are."""
    parts = _TAG.split(html)
    for i in range(0, len(parts), 2):
        text = parts[i]
        if not has_japanese(text):
            continue
        out = []
        for unit in phrases(text):
            if len(unit) < 2 or len(unit) > MAX_PHRASE or unit.isspace():
                out.append(unit)
            else:
                out.append(f'<span class="ph">{unit}</span>')
        parts[i] = "".join(out)
    return "".join(parts)


WORD_JOINER = "\u2060"
_PHRASE_SPAN = re.compile(r'<span class="ph">([^<]*)</span>')
_ZWJ = "\u200d"


def joined_phrases(html: str) -> str:
    """`phrase_html`'s HTML for the PDF renderer: each phrase's span replaced by its
    characters joined with WORD JOINERs (U+2060), which allow no line break between them as
    `white-space: nowrap` does, without an inline box per phrase (WeasyPrint lays out a
    Japanese rulebook in about 60% of the time). The same lines; the joiners have no glyph
    and do not enter the PDF's text."""
    return _PHRASE_SPAN.sub(lambda found: _joined(found[1]), html)


def _joined(text: str) -> str:
    core = text.strip()
    if not core:
        return text
    start = text.index(core)
    # white space at a phrase's ends stays outside the joined part (a line may end there)
    return text[:start] + _join_characters(core) + text[start + len(core) :]


def _join_characters(text: str) -> str:
    out: list[str] = []
    for char in text:
        # no joiner inside a character's cluster: before a combining mark or a variation
        # selector (category M*), or around a zero width joiner
        if out and out[-1] != _ZWJ and char != _ZWJ and unicodedata.category(char)[0] != "M":
            out.append(WORD_JOINER)
        out.append(char)
    return "".join(out)
