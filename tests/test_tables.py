"""Card lists from a spreadsheet: CSV and XLSX rows build into the same components as the
equivalent YAML, and every mistake names its file and cell (or the table's YAML place)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from printgen.errors import PrintgenError
from printgen.model import Game, load_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny-game"

DECKS = """\
decks:
  - id: stars
    name: {ja: 星, en: Stars}
    back: tiny-game/mini-back
  - id: moons
    name: {ja: 月, en: Moons}
    back: tiny-game/mini-back
"""

YAML_CARDS = (
    DECKS
    + """\
components:
  - id: fire
    kind: card
    layout: tiny-game/mini-card
    deck: stars
    count: 2
    name: {ja: 火, en: Fire}
    values: {points: 3, effect: burn}
    text: {ja: 燃やす, en: Burn it}
  - id: water
    kind: card
    layout: tiny-game/mini-card
    deck: stars
    name: {ja: 水, en: Water}
    values: {points: 1.5}
    source: reconstructed
    note: {ja: 推定, en: Guessed}
  - id: year
    kind: card
    layout: tiny-game/mini-card
    deck: moons
    count: 3
    name: {ja: "1984", en: "1984"}
    values: {points: -2, effect: "007x"}
"""
)

TABLE_CARDS = (
    DECKS
    + """\
tables:
  - file: FILE
    kind: card
    layout: tiny-game/mini-card
    deck: stars
    columns:
      ID: id
      Copies: count
      名前: name.ja
      Name: name.en
      Points: values.points
      Effect: values.effect
      Text JA: text.ja
      Text EN: text.en
      Deck: deck
      Source: source
      Note JA: note.ja
      Note EN: note.en
    ignore: [Designer notes]
"""
)

HEADER = [
    "ID",
    "Copies",
    "名前",
    "Name",
    "Points",
    "Effect",
    "Text JA",
    "Text EN",
    "Deck",
    "Source",
    "Note JA",
    "Note EN",
    "Designer notes",
]
ROWS: list[list[Any]] = [
    ["fire", 2, "火", "Fire", 3, "burn", "燃やす", "Burn it", None, None, None, None, "hot"],
    [None] * 13,  # a blank row is skipped
    ["water", None, "水", "Water", 1.5, None, None, None, None, "reconstructed", "推定", "Guessed"],
    ["year", 3, 1984, 1984, -2, "007x", None, None, "moons", None, None, None, None],
]


def game_folder(tmp_path: Path, cards: str) -> Path:
    """A copy of the tiny test game whose only component file is `cards`."""
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(FIXTURE / "layouts" / "tiny-game", tmp_path / "layouts" / "tiny-game")
    shutil.copytree(FIXTURE / "components", tmp_path / "components")
    folder = tmp_path / "components" / "tiny-game"
    (folder / "pieces.yaml").unlink()
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def csv_text(rows: list[list[Any]]) -> str:
    def cell(value: Any) -> str:
        return "" if value is None else str(value)

    return "\n".join(",".join(cell(v) for v in row) for row in rows) + "\n"


def write_xlsx(path: Path, rows: list[list[Any]], sheet: str = "Cards") -> None:
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Cover"
    first["A1"] = "not the card list"
    ws = book.create_sheet(sheet)
    for row in rows:
        ws.append(row)
    book.save(path)


def pieces(game: Game) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(p.id, p.deck.id if p.deck else None, p.component.model_dump()) for p in game.defined]


def table_game(tmp_path: Path, name: str, rows: list[list[Any]], **extra: str) -> Path:
    cards = TABLE_CARDS.replace("FILE", name)
    for key, value in extra.items():
        cards = cards.replace("    kind: card\n", f"    kind: card\n    {key}: {value}\n", 1)
    folder = game_folder(tmp_path, cards)
    if name.endswith(".csv"):
        (folder / name).write_text(csv_text(rows), encoding="utf-8")
    else:
        write_xlsx(folder / name, rows)
    return folder


def error_of(folder: Path) -> str:
    with pytest.raises(PrintgenError) as caught:
        load_game(folder)
    return str(caught.value)


def test_csv_and_xlsx_build_the_same_components_as_yaml(tmp_path: Path) -> None:
    expected = pieces(load_game(game_folder(tmp_path / "yaml", YAML_CARDS)))
    from_csv = load_game(table_game(tmp_path / "csv", "cards.csv", [HEADER, *ROWS]))
    # integer-valued floats from XLSX are ints; the table's sheet is not the first one
    xlsx_rows = [HEADER, *[[2.0 if v == 2 else v for v in r] for r in ROWS]]
    from_xlsx = load_game(table_game(tmp_path / "xlsx", "cards.xlsx", xlsx_rows, sheet="Cards"))
    assert pieces(from_csv) == expected
    assert pieces(from_xlsx) == expected
    fire = from_xlsx.piece("fire")
    assert fire.count == 2 and isinstance(fire.count, int)
    assert fire.values["points"] == 3 and isinstance(fire.values["points"], int)
    assert from_csv.piece("water").values["points"] == 1.5
    assert from_csv.piece("year").component.name.en == "1984"  # a text key keeps text
    assert "effect" not in from_csv.piece("water").values  # empty cell: key absent
    # a table-made piece's places are its row and cells
    assert str(fire.where).endswith("cards.xlsx:Cards!A2")
    assert str(fire.place("values.points")).endswith("cards.xlsx:Cards!E2")
    water = from_csv.piece("water")
    assert str(water.where).endswith("cards.csv:4:1")  # line 3 is blank
    assert str(water.place("source")).endswith("cards.csv:4:10")
    assert str(water.place("layout")).endswith("cards.yaml:11:13")  # shared by the table


def test_validate_passes_on_a_game_using_a_table(tmp_path: Path) -> None:
    """The tiny game's own pieces.yaml (its rulebook quotes them) beside a table whose rows
    join its deck."""
    folder = table_game(tmp_path, "cards.xlsx", [HEADER, *ROWS], sheet="Cards")
    shutil.copy(FIXTURE / "components" / "tiny-game" / "pieces.yaml", folder)
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[text.index("tables:") :].replace("Deck: deck", "Deck: values.deck"))
    root = folder.parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "printgen", "--root", str(root), "validate", "tiny-game"],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def one_line(message: str, pattern: str) -> None:
    assert "\n" not in message, message
    assert "Traceback" not in message
    assert re.search(pattern, message), message


def test_bad_count_names_the_cell(tmp_path: Path) -> None:
    rows = [HEADER, *ROWS]
    rows[3] = [*rows[3]]
    rows[3][1] = "two"
    csv_message = error_of(table_game(tmp_path / "c", "cards.csv", rows))
    one_line(csv_message, r"cards\.csv:4:2: count must be a whole number, got 'two'$")
    xlsx_message = error_of(table_game(tmp_path / "x", "cards.xlsx", rows, sheet="Cards"))
    one_line(xlsx_message, r"cards\.xlsx:Cards!B4: count must be a whole number, got 'two'$")
    rows[3][1] = 0.5
    one_line(
        error_of(table_game(tmp_path / "h", "cards.xlsx", rows, sheet="Cards")),
        r"cards\.xlsx:Cards!B4: count must be a whole number, got 0\.5$",
    )


def test_header_not_in_the_file_names_the_yaml_place(tmp_path: Path) -> None:
    rows = [[("Cost" if h == "Points" else h) for h in HEADER], *ROWS]
    message = error_of(table_game(tmp_path, "cards.csv", rows))
    lines = message.splitlines()
    assert len(lines) == 2, message
    one_line(lines[0], r"cards\.csv:1:5: header 'Cost' is not in the table's columns")
    one_line(lines[1], r"cards\.yaml:\d+:7: 'cards\.csv' has no column headed 'Points'")


def test_unknown_key_names_the_yaml_place(tmp_path: Path) -> None:
    folder = table_game(tmp_path, "cards.csv", [HEADER, *ROWS])
    cards = folder / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("Copies: count", "Copies: cuont"), "utf-8"
    )
    one_line(
        error_of(folder),
        r"cards\.yaml:15:15: column 'Copies' maps to unknown key 'cuont'; did you mean 'count'",
    )


def test_missing_id_column_names_the_columns(tmp_path: Path) -> None:
    folder = table_game(tmp_path, "cards.csv", [HEADER, *ROWS])
    cards = folder / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("ID: id", "ID: values.code"), "utf-8"
    )
    one_line(error_of(folder), r"cards\.yaml:14:7: no column maps to id")


def test_empty_id_cell_and_half_a_name(tmp_path: Path) -> None:
    rows = [HEADER, *[list(r) for r in ROWS]]
    rows[1][0] = None
    rows[3][3] = None
    message = error_of(table_game(tmp_path, "cards.xlsx", rows, sheet="Cards"))
    assert message.splitlines() == [
        f"{folder_name(tmp_path)}cards.xlsx:Cards!A2: the id cell is empty: every row needs "
        "an id (or delete the row)",
        f"{folder_name(tmp_path)}cards.xlsx:Cards!D4: name.en is empty but name.ja is given: "
        "write name in both languages",
    ]


def folder_name(tmp_path: Path) -> str:
    from printgen.errors import display_path

    return display_path(tmp_path / "components" / "tiny-game") + "/"


def test_formula_without_a_saved_value(tmp_path: Path) -> None:
    rows = [HEADER, *[list(r) for r in ROWS]]
    rows[1][4] = "=1+2"
    folder = table_game(tmp_path, "cards.xlsx", rows, sheet="Cards")
    one_line(
        error_of(folder),
        r"cards\.xlsx:Cards!E2: the formula =1\+2 has no saved value: open the file in Excel "
        r"or LibreOffice and save it",
    )
    # as Excel saves it: the formula with its value, which is what is read
    path = folder / "cards.xlsx"
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    sheet = "xl/worksheets/sheet2.xml"
    assert b"<f>1+2</f><v></v>" in parts[sheet]
    parts[sheet] = parts[sheet].replace(b"<f>1+2</f><v></v>", b"<f>1+2</f><v>3</v>")
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    assert load_game(folder).piece("fire").values["points"] == 3


def test_file_outside_the_game_folder(tmp_path: Path) -> None:
    folder = table_game(tmp_path, "../outside.csv", [HEADER, *ROWS])
    (folder.parent / "outside.csv").write_text(csv_text([HEADER, *ROWS]), encoding="utf-8")
    one_line(
        error_of(folder),
        r"cards\.yaml:9:11: table file '\.\./outside\.csv' leads outside .*tiny-game/",
    )


def test_too_many_rows(tmp_path: Path) -> None:
    row = ["c", 1, "c", "C", 1, None, None, None, None, None, None, None, None]
    rows = [HEADER, *[[f"c{i}", *row[1:]] for i in range(5_001)]]
    one_line(
        error_of(table_game(tmp_path, "cards.csv", rows)),
        r"cards\.csv:5002:1: more than 5,000 rows: a table may have at most 5,000",
    )


def test_missing_sheet_and_csv_with_a_sheet(tmp_path: Path) -> None:
    one_line(
        error_of(table_game(tmp_path / "x", "cards.xlsx", [HEADER, *ROWS], sheet="Card")),
        r"cards\.yaml:\d+:12: 'cards\.xlsx' has no sheet 'Card'; did you mean 'Cards'\? "
        r"\(sheets: Cover, Cards\)",
    )
    one_line(
        error_of(table_game(tmp_path / "c", "cards.csv", [HEADER, *ROWS], sheet="Cards")),
        r"cards\.yaml:\d+:12: sheet: is for XLSX files only",
    )


def test_default_sheet_is_the_first_and_cells_without_header(tmp_path: Path) -> None:
    folder = table_game(tmp_path, "cards.xlsx", [HEADER, *ROWS])
    # the first sheet ("Cover") has no ID header
    assert "has no column headed 'ID'" in error_of(folder)
    rows = [[*HEADER], *[list(r) for r in ROWS]]
    rows[1].append("stray")
    one_line(
        error_of(table_game(tmp_path / "s", "cards.csv", rows)),
        r"cards\.csv:2:14: this column has no header",
    )


def test_unreadable_files_are_errors_not_tracebacks(tmp_path: Path) -> None:
    folder = table_game(tmp_path / "x", "cards.xlsx", [HEADER, *ROWS])
    (folder / "cards.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    one_line(
        error_of(folder),
        r"cards\.yaml:9:11: table file 'cards\.xlsx' is not an XLSX workbook printgen can read",
    )
    folder = table_game(tmp_path / "c", "cards.csv", [HEADER, *ROWS])
    (folder / "cards.csv").write_bytes(csv_text([HEADER, *ROWS]).encode("utf-8") + b"\xff,x\n")
    one_line(error_of(folder), r"cards\.csv:6: not UTF-8 text .*: save the file as CSV UTF-8")
    (folder / "cards.csv").unlink()
    one_line(error_of(folder), r"cards\.yaml:9:11: table file 'cards\.csv' not found in")
    folder = table_game(tmp_path / "o", "cards.ods", [HEADER, *ROWS])
    one_line(error_of(folder), r"cards\.yaml:9:11: table file 'cards\.ods' is not \.csv or \.xlsx")
