"""reportlab's reading of a font, kept in the user's cache folder between runs
(printgen/fonts.py): the same TTFont and the same PDF bytes whether it comes from the file or
the cache, and a damaged or unwritable cache only costs the time."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFile

from printgen import fonts
from printgen.build import Project, load_all, render_all
from printgen.cache import cache_dir
from printgen.exports import card_pages

ROOT = Path(__file__).resolve().parent.parent
FONT = ROOT / "layouts" / "fonts" / "BIZUDPGothic-Regular.ttf"


def _read(font: TTFont) -> dict[str, object]:
    """What reportlab reads of the face (a face from the cache unpacks a table when asked)."""
    face = font.face
    unread = dict(getattr(face, "_packed", {}))
    read = {name: getattr(face, name) for name in unread}
    return {k: v for k, v in vars(face).items() if k not in ("_pdfScale", "_packed")} | read


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(folder))
    return folder


def test_a_font_from_the_cache_is_the_font_read_from_its_file(cache: Path) -> None:
    fresh = TTFont("fresh", str(FONT))
    cold = fonts._tt_font("cold", FONT)  # read from the file, and kept
    kept = list((cache / "fonts").iterdir())
    assert len(kept) == 1 and kept[0].name.endswith(".marshal")
    warm = fonts._tt_font("warm", FONT)
    assert "glyphToChar" not in vars(warm.face)  # unpacked only if asked for
    assert _read(cold) == _read(fresh) == _read(warm)
    assert {type(v) for v in _read(warm).values()} == {type(v) for v in _read(fresh).values()}
    assert warm.face.name.ustr == fresh.face.name.ustr
    assert set(vars(warm)) == set(vars(fresh))
    assert warm.shapable == fresh.shapable
    for v in (0, 1000, 2048, 77.5):
        assert warm.face._pdfScale(v) == fresh.face._pdfScale(v)
    text = "Submarine 潜水艦 attack!"
    assert warm.stringWidth(text, 9) == fresh.stringWidth(text, 9)


def _card_pages(project: Project) -> bytes:
    lib, games = load_all(project, ["submarine-attack"])
    (r,) = render_all(lib, games, "ja")
    faces = list(r.faces.values())[:12]
    out = io.BytesIO()
    list(card_pages([(f"card-{i}", f) for i, f in enumerate(faces)], "t", lib.fonts["gothic"], out))
    return out.getvalue()


def test_the_pdf_is_the_same_bytes_with_a_cold_or_a_warm_cache(cache: Path) -> None:
    project = Project(ROOT)
    fonts._registered.clear()  # every font registered anew, read from its file
    cold = _card_pages(project)
    assert any((cache / "fonts").iterdir())
    fonts._registered.clear()  # and again, from the cache
    warm = _card_pages(project)
    assert cold == warm
    # the cache's files are what this run wrote: none left half-written
    assert not [p for p in (cache / "fonts").iterdir() if p.name.startswith(".")]
    fonts._registered.clear()
    assert pdfmetrics.getFont(fonts.pdf_font_name("gothic", FONT)).face.numGlyphs > 1000


def test_a_damaged_cache_file_is_read_past_and_made_again(cache: Path) -> None:
    fonts._tt_font("first", FONT)
    (kept,) = (cache / "fonts").iterdir()
    good = kept.read_bytes()
    kept.write_bytes(good[:-10] + b"0123456789")  # another payload than its digest says
    again = fonts._tt_font("again", FONT)
    assert _read(again) == _read(TTFont("fresh", str(FONT)))
    assert kept.read_bytes() == good


def test_no_cache_folder_to_write_fonts_are_read_from_their_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(blocker / "cache"))
    font = fonts._tt_font("nowhere", FONT)
    assert _read(font) == _read(TTFont("fresh", str(FONT)))
    monkeypatch.delenv("PRINTGEN_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    assert cache_dir() is None
    assert _read(fonts._tt_font("homeless", FONT)) == _read(font)
    assert os.environ.get("HOME") is None


def test_a_subset_from_the_cache_is_the_subset_cut_anew(cache: Path) -> None:
    characters = "".join(sorted(set("Submarine Attack 潜水艦ゲーム 0123456789")))
    fonts.subset_font.cache_clear()
    cut = fonts.subset_font(FONT, characters)
    (kept,) = (cache / "subsets").iterdir()
    assert kept.read_bytes()[32:] == cut
    fonts.subset_font.cache_clear()
    assert fonts.subset_font(FONT, characters) == cut == fonts._cut(FONT, characters)
    kept.write_bytes(kept.read_bytes()[:-4] + b"\0\0\0\0")  # damaged: cut again
    fonts.subset_font.cache_clear()
    assert fonts.subset_font(FONT, characters) == cut
    assert kept.read_bytes()[32:] == cut
    fonts.subset_font.cache_clear()
    other = fonts.subset_font(FONT, characters + "!")
    assert other != cut and len(list((cache / "subsets").iterdir())) == 2


def test_a_file_digest_is_read_again_when_the_file_changes(cache: Path, tmp_path: Path) -> None:
    import hashlib
    import json
    import time

    from printgen import cache as kept

    target = tmp_path / "layout.yaml"
    target.write_text("a: 1\n")
    assert kept.file_digest(target) == hashlib.sha256(b"a: 1\n").hexdigest()
    target.write_text("a: 2\n")  # the same size, maybe the same times: just written
    assert kept.file_digest(target) == hashlib.sha256(b"a: 2\n").hexdigest()
    assert str(target.absolute()) not in kept._digests  # too fresh to be remembered
    old = time.time() - 60
    os.utime(target, (old, old))  # left alone for a minute
    assert kept.file_digest(target) == hashlib.sha256(b"a: 2\n").hexdigest()
    assert str(target.absolute()) in kept._digests
    kept._save_store()  # what the process leaves for the next one
    stored = json.loads((cache / "digests.json").read_text())
    assert stored[str(target.absolute())][4] == hashlib.sha256(b"a: 2\n").hexdigest()
    target.write_text("a: 3\n")
    os.utime(target, (old + 1, old + 1))  # changed: another size or other times
    assert kept.file_digest(target) == hashlib.sha256(b"a: 3\n").hexdigest()
    (cache / "digests.json").write_text("{not json")  # a damaged store is read past
    kept._stored = None
    kept._digests.clear()
    assert kept.file_digest(target) == hashlib.sha256(b"a: 3\n").hexdigest()


def test_the_cache_keeps_the_newest_entries(tmp_path: Path) -> None:
    from printgen.cache import keep_newest

    folder = tmp_path / "subsets"
    folder.mkdir()
    for i in range(6):
        entry = folder / f"{i}.ttf"
        entry.write_bytes(b"x")
        os.utime(entry, (1_000_000 + i, 1_000_000 + i))
    keep_newest(folder, 4)
    assert sorted(p.name for p in folder.iterdir()) == ["2.ttf", "3.ttf", "4.ttf", "5.ttf"]
    keep_newest(tmp_path / "no-such-folder", 4)  # nothing to do, no error


def test_the_glyph_table_read_in_place_is_the_tables_bytes(cache: Path) -> None:
    """A cached face gives its subsets the glyph table where it lies in the font file's
    bytes (no copy of the whole table per subset): each run of it is the table's bytes."""
    fonts._registered.clear()
    fonts._tt_font("printgen-test-gothic", FONT)  # reads the font, keeps its reading
    face = fonts._tt_font("printgen-test-gothic", FONT).face  # the reading from the cache
    assert isinstance(face, fonts._KeptFace)
    table = face.get_table("glyf")
    start, length = face.get_table_pos("glyf")
    whole = face._ttf_data[start : start + length]
    assert len(table) == len(whole) == length
    for begin, end in ((0, 0), (0, 12), (100, 260), (length - 8, length), (length - 4, length + 9)):
        assert table[begin:end] == whole[begin:end]
    assert face.get_table("head") == TTFontFile(str(FONT)).get_table("head")
