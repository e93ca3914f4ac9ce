"""The rulebook's pictures (diagrams, pieces, covers) kept in printgen's cache folder
between runs (printgen/rulebook/diagrams.py: `remembered`): the next process takes them
from there instead of drawing them again, the same bytes; a damaged entry, other code or no
cache folder only costs the time; the folder is trimmed to its bounds."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from printgen import build
from printgen.cache import keep_newest
from printgen.rulebook import diagrams
from printgen.rulebook.diagrams import Drawing, default_font, diagram_html, forget_pictures
from rules_engine.core import DiagramCell, DiagramGrid

GRID = DiagramGrid(
    {"ja": "盤", "en": "Board"},
    ("1", "2"),
    (({"ja": "行", "en": "Row"}, (DiagramCell(text="A", mark="active"), DiagramCell())),),
)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(folder))
    return folder


@pytest.fixture()
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a diagram is drawn (rasterised), counted."""
    counted: list[int] = []
    real = diagrams.draw_face

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(diagrams, "draw_face", counting)
    return counted


def _picture(tmp_path: Path, name: str) -> tuple[str, bytes]:
    """The diagram's HTML and its picture's bytes, as a new process makes them (nothing
    kept in memory)."""
    forget_pictures()
    folder = tmp_path / name
    folder.mkdir()
    html = diagram_html(GRID, "en", Drawing(folder, {}, default_font()))
    (picture,) = folder.iterdir()
    return html, picture.read_bytes()


def test_the_next_run_takes_a_picture_from_the_cache(
    cache: Path, draws: list[int], tmp_path: Path
) -> None:
    first = _picture(tmp_path, "first")
    assert len(draws) == 1
    kept = list((cache / "pictures").iterdir())
    assert len(kept) == 1
    assert _picture(tmp_path, "again") == first
    assert len(draws) == 1  # not drawn again


def test_a_damaged_picture_is_drawn_again(cache: Path, draws: list[int], tmp_path: Path) -> None:
    first = _picture(tmp_path, "first")
    (kept,) = (cache / "pictures").iterdir()
    data = bytearray(kept.read_bytes())
    data[-10] ^= 0xFF
    kept.write_bytes(bytes(data))
    assert _picture(tmp_path, "again") == first
    assert len(draws) == 2


def test_pictures_drawn_by_other_code_are_not_taken(
    cache: Path, draws: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _picture(tmp_path, "first")
    monkeypatch.setattr(build, "_code_print", ["another version of printgen"])
    assert _picture(tmp_path, "again") == first
    assert len(draws) == 2
    assert len(list((cache / "pictures").iterdir())) == 2


def test_without_a_cache_folder_pictures_are_drawn_each_run(
    draws: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PRINTGEN_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    first = _picture(tmp_path, "first")
    assert _picture(tmp_path, "again") == first
    assert len(draws) == 2


def test_a_long_session_trims_the_pictures_as_it_goes(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """printgen watch writes pictures edit after edit: the folder is trimmed every
    `TRIM_EVERY` pictures, not only when the process ends."""
    monkeypatch.setattr(diagrams, "TRIM_EVERY", 2)
    monkeypatch.setattr(diagrams, "PICTURES_KEPT", 1)
    monkeypatch.setattr(diagrams, "_written", [0])
    for text in ("A", "B", "C", "D"):
        forget_pictures()
        cells = (DiagramCell(text=text), DiagramCell())
        grid = DiagramGrid(GRID.title, GRID.columns, (({"ja": "行", "en": "Row"}, cells),))
        diagram_html(grid, "en", Drawing(tmp_path, {}, default_font()))
    assert len(list((cache / "pictures").iterdir())) == 1


def test_the_cache_keeps_the_newest_entries_within_its_bounds(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    for i in range(6):
        path = folder / f"entry-{i}"
        path.write_bytes(b"x" * 100)
        os.utime(path, ns=(i * 10**9, i * 10**9))  # entry-5 the newest
    keep_newest(folder, 5)
    assert sorted(p.name for p in folder.iterdir()) == [f"entry-{i}" for i in range(1, 6)]
    keep_newest(folder, 5, kept_bytes=250)
    assert sorted(p.name for p in folder.iterdir()) == ["entry-4", "entry-5"]
