"""Card lists from a spreadsheet: a component file's `tables:` read from CSV or XLSX.

A table names a file inside the game's folder, maps its column headers to component keys
(`Cost: values.cost`) and gives what every row shares (`kind`, `layout`, `deck`...). Each
data row becomes one component, exactly as if written in YAML: `read_table` builds a
`Document` whose data is `{"components": [...]}` and whose places are the rows' cells, so
the model validates it like any component file and every error names its cell
(`cards.xlsx:Cards!C7`, `cards.csv:7:3`).

The file is untrusted: it must lie inside the game's folder, and its size, rows and
columns are bounded. XLSX files are read with openpyxl in read-only mode, formulas by the
value the spreadsheet program saved with them.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import difflib
import io
import math
import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from printgen.errors import ErrorList, Location, PrintgenError, display_path
from printgen.files import project_file
from printgen.source import Document, Key

MAX_ROWS = 5_000  # data rows of one table
MAX_COLUMNS = 200
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_SCANNED_ROWS = 50_000  # rows looked at, blank ones included

# Keys a column may fill: text keys keep a number's digits as text (a name "1984").
TEXT_KEYS = (
    "id",
    "name.ja",
    "name.en",
    "text.ja",
    "text.en",
    "note.ja",
    "note.en",
    "source",
    "deck",
    "layout",
    "back",
)
PAIRS = ("name", "text", "note")  # given in both languages or not at all
COLUMN_KEYS = (*TEXT_KEYS, "count", "values.<key>")
# What a table may give every one of its rows (a row's own cell wins).
SHARED_KEYS = ("kind", "layout", "back", "size", "deck", "decks", "cut", "source")
_VALUE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_XLSX_ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


class Table(BaseModel):
    """A card list in a spreadsheet: each data row of `file` becomes one component."""

    # Each field's docstring is its description in the authoring reference and the JSON
    # Schemas; printgen/reference.py reads them when it writes those (reading every model's
    # source here would slow every command's start).
    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    """The CSV or XLSX file, relative to the game's folder (`cards.xlsx`, `data/cards.csv`). Its
    first non-blank row holds the column headers."""
    sheet: str | None = None
    """XLSX only: the sheet's name (default: the first sheet)."""
    columns: dict[str, str]
    """Column header -> component key: `id`, `count`, `name.ja`, `name.en`, `text.ja`, `text.en`,
    `note.ja`, `note.en`, `source`, `deck`, `layout`, `back` or `values.<key>`. `id`, `name.ja` and
    `name.en` are needed."""
    ignore: list[str] = Field(default_factory=list)
    """Column headers the table does not read (the designer's own notes); every other header
    must be in `columns`."""
    kind: str
    """What every row is: card, tile, token, pawn, marker, board or mat."""
    layout: str | None = None
    """The face layout of every row (`mygame/card`); a `layout` column may set it per row."""
    back: str | None = None
    """The back layout of every row (default: its deck's back)."""
    size: str | list[Any] | None = None
    """The trim size of every row: a preset (`poker`) or `[width, height]`."""
    deck: str | None = None
    """The deck every row belongs to; a `deck` column may set it per row."""
    decks: list[str] | None = None
    """One copy set of every row per deck (`[red, blue]`); a row's `deck` cell replaces it."""
    cut: str | None = None
    """The cut outline of every row: `rect` or `circle`."""
    source: str | None = None
    """`stated` or `reconstructed` for every row; a `source` column may set it per row."""

    @field_validator("columns", mode="before")
    @classmethod
    def _headers_as_text(cls, value: object) -> object:
        if isinstance(value, dict):  # YAML reads a header `2024:` as a number
            return {k if isinstance(k, str) else str(k): v for k, v in value.items()}
        return value


@dataclass(frozen=True)
class CellLocation(Location):
    """A cell of a spreadsheet: `line` is its row, `column` its column (from 1); shown as
    `cards.xlsx:Cards!C7`, or `cards.csv:7:3` without a sheet."""

    sheet: str = ""

    def __str__(self) -> str:
        if not self.sheet:
            return super().__str__()
        name = display_path(self.file)
        sheet = self.sheet if re.fullmatch(r"\w+", self.sheet) else f"'{self.sheet}'"
        if not self.line:
            return f"{name}:{sheet}"
        return f"{name}:{sheet}!{column_letter(self.column or 1)}{self.line}"


def column_letter(column: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True)
class _Row:
    number: int  # the row (XLSX) or the line it starts on (CSV)
    cells: tuple[Any, ...]


class _Sheet:
    """Rows of one CSV file or XLSX sheet, each cell already a Python value."""

    def __init__(self, path: Path, sheet: str) -> None:
        self.path = path
        self.sheet = sheet  # "" for CSV

    def cell(self, row: int, column: int) -> CellLocation:
        return CellLocation(self.path, row, column, self.sheet)

    def place(self) -> CellLocation:
        return CellLocation(self.path, 0, 0, self.sheet)


def read_table(table: Table, folder: Path, doc: Document, key: Key) -> Document:
    """The components `table` (written at `key` of `doc`) makes, as a document whose
    places are the cells; bad mappings and bad cells are PrintgenErrors."""
    path = project_file(table.file, [folder], doc.where((*key, "file")), "table file")
    if path is None:
        raise PrintgenError(
            f"table file '{table.file}' not found in {display_path(folder)}/: the path is "
            "relative to the game's folder",
            doc.where((*key, "file")),
        )
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise PrintgenError(
            f"table file '{table.file}' is not .csv or .xlsx: save the spreadsheet as an Excel "
            "workbook (.xlsx) or as CSV UTF-8",
            doc.where((*key, "file")),
        )
    if suffix == ".csv" and table.sheet is not None:
        raise PrintgenError(
            "sheet: is for XLSX files only (a CSV file has one sheet): remove it",
            doc.where((*key, "sheet")),
        )
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise PrintgenError(
            f"table file '{table.file}' is {size / 2**20:.1f} MiB, more than "
            f"{MAX_FILE_BYTES // 2**20} MiB: split it, or remove what does not belong",
            doc.where((*key, "file")),
        )
    _check_mapping(table, doc, key)
    if suffix == ".csv":
        sheet = _Sheet(path, "")
        return _build(table, doc, key, sheet, _csv_rows(path, sheet))
    with contextlib.ExitStack() as opened, warnings.catch_warnings():
        # openpyxl warns of what it does not read (data validation, styles): not ours to say
        warnings.simplefilter("ignore")
        sheet, rows = _xlsx_rows(path, table, doc, key, opened)
        return _build(table, doc, key, sheet, rows)


def _check_mapping(table: Table, doc: Document, key: Key) -> None:
    """Every column key known, none twice, the needed ones there."""
    errors: list[PrintgenError] = []
    seen: dict[str, str] = {}
    for header, target in table.columns.items():
        at = doc.where((*key, "columns", header))
        if target.startswith("values."):
            name = target.removeprefix("values.")
            if not _VALUE_NAME.fullmatch(name):
                errors.append(
                    PrintgenError(
                        f"'{target}': a value's name is letters, digits, '_' and '-' "
                        "(values.cost), one level deep",
                        at,
                    )
                )
                continue
        elif target not in (*TEXT_KEYS, "count"):
            hint = difflib.get_close_matches(target, [*TEXT_KEYS, "count"], n=1, cutoff=0.6)
            also = f"; did you mean '{hint[0]}'?" if hint else ""
            errors.append(
                PrintgenError(
                    f"column '{header}' maps to unknown key '{target}'{also} (keys: "
                    f"{', '.join(COLUMN_KEYS)})",
                    at,
                )
            )
            continue
        if target in seen:
            errors.append(
                PrintgenError(
                    f"columns '{seen[target]}' and '{header}' both map to {target}: map each "
                    "key from one column",
                    at,
                )
            )
        seen[target] = header
    for header in table.ignore:
        if header in table.columns:
            errors.append(
                PrintgenError(
                    f"column '{header}' is both in columns and in ignore: keep one",
                    doc.where((*key, "ignore")),
                )
            )
    if not errors:
        targets = set(seen)
        at = doc.where((*key, "columns"))
        for needed in ("id", "name.ja", "name.en"):
            if needed not in targets:
                errors.append(
                    PrintgenError(
                        f"no column maps to {needed}: every row needs an id and a name in both "
                        f"languages (add `<header>: {needed}` to columns)",
                        at,
                    )
                )
        for pair in ("text", "note"):
            given = [f"{pair}.{lang}" for lang in ("ja", "en") if f"{pair}.{lang}" in targets]
            if len(given) == 1:
                other = f"{pair}.en" if given[0].endswith(".ja") else f"{pair}.ja"
                errors.append(
                    PrintgenError(
                        f"a column maps to {given[0]} but none to {other}: {pair} is written "
                        "in both languages",
                        at,
                    )
                )
        if table.layout is None and "layout" not in targets:
            errors.append(
                PrintgenError(
                    "no layout: give the table `layout: <game>/<layout>` (or map a column to "
                    "layout)",
                    doc.where(key),
                )
            )
    if errors:
        raise ErrorList(errors)


def _csv_rows(path: Path, sheet: _Sheet) -> Iterator[_Row]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PrintgenError(
            f"not UTF-8 text ({exc.reason}): save the file as CSV UTF-8", sheet.cell(line, 0)
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise PrintgenError(
                f"the CSV cannot be read here ({exc}): check its quotes", sheet.cell(start, 0)
            ) from None
        yield _Row(start, tuple(_csv_value(cell) for cell in record))
        start = reader.line_num + 1


def _csv_value(cell: str) -> Any:
    """An integer-looking cell is an int, a decimal one a float, else text."""
    text = cell.replace("\r\n", "\n").strip()
    if not text:
        return None
    if _INT.fullmatch(text):
        return _Raw(text, int(text))
    if _FLOAT.fullmatch(text):
        number = float(text)
        if math.isfinite(number):
            return _Raw(text, number)
    return text


@dataclass(frozen=True)
class _Raw:
    """A CSV number with the text it was written as (for keys that are text)."""

    text: str
    number: int | float


def _xlsx_rows(
    path: Path, table: Table, doc: Document, key: Key, opened: contextlib.ExitStack
) -> tuple[_Sheet, Iterator[_Row]]:
    """The sheet's rows, two workbooks read side by side: the values saved with the cells,
    and what was written in them (to tell a formula without a saved value from an empty
    cell). Both are closed when `opened` is."""
    import openpyxl

    try:
        values = openpyxl.load_workbook(path, read_only=True, data_only=True)
        opened.callback(values.close)
        formulas = openpyxl.load_workbook(path, read_only=True, data_only=False)
        opened.callback(formulas.close)
    except Exception as exc:  # a damaged workbook fails in many ways inside openpyxl
        raise PrintgenError(
            f"table file '{table.file}' is not an XLSX workbook printgen can read ({exc}): "
            "save it again as an Excel workbook (.xlsx)",
            doc.where((*key, "file")),
        ) from None
    names = list(values.sheetnames)
    if not names:
        raise PrintgenError(f"'{table.file}' has no sheet", doc.where((*key, "file")))
    name = names[0] if table.sheet is None else table.sheet
    if name not in names:
        hint = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        also = f"; did you mean '{hint[0]}'?" if hint else ""
        raise PrintgenError(
            f"'{table.file}' has no sheet '{name}'{also} (sheets: {', '.join(names)})",
            doc.where((*key, "sheet")),
        )
    sheet = _Sheet(path, name)

    def rows() -> Iterator[_Row]:
        try:
            pairs = zip(
                values[name].iter_rows(values_only=True, max_col=MAX_COLUMNS + 1),
                formulas[name].iter_rows(values_only=True, max_col=MAX_COLUMNS + 1),
                strict=False,
            )
            for number, (cells, written) in enumerate(pairs, start=1):
                yield _Row(
                    number,
                    tuple(
                        _xlsx_value(value, formula, sheet.cell(number, column))
                        for column, (value, formula) in enumerate(
                            zip(cells, written, strict=False), start=1
                        )
                    ),
                )
        except PrintgenError:
            raise
        except Exception as exc:  # a damaged sheet, found while reading it
            raise PrintgenError(
                f"sheet '{name}' cannot be read ({exc}): save the file again as an Excel "
                "workbook (.xlsx)",
                sheet.place(),
            ) from None

    return sheet, rows()


def _xlsx_value(value: Any, formula: Any, where: Location) -> Any:
    is_formula = isinstance(formula, str) and formula.startswith("=")
    if is_formula and value is None:
        raise PrintgenError(
            f"the formula {formula} has no saved value: open the file in Excel or LibreOffice "
            "and save it (printgen reads the values a spreadsheet program saved)",
            where,
        )
    if isinstance(value, str):
        if is_formula and value in _XLSX_ERRORS:
            raise PrintgenError(f"the formula {formula} gives {value}: fix it", where)
        return value.replace("\r\n", "\n").strip() or None
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise PrintgenError(f"{value} is not a number a game can use", where)
        return int(value) if value.is_integer() else value
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if value is None or isinstance(value, int):
        return value
    return str(value)


def _blank(cells: Sequence[Any]) -> bool:
    return all(cell is None for cell in cells)


def _build(table: Table, doc: Document, key: Key, sheet: _Sheet, rows: Iterator[_Row]) -> Document:
    """The rows after the header as components, each key placed at its cell."""
    errors: list[PrintgenError] = []
    header: dict[int, str] = {}  # column (from 1) -> header, of the mapped columns
    headed: set[int] = set()  # every column with a header (mapped or ignored)
    header_row = 0
    scanned = 0
    out = Document(sheet.path, {"components": []})
    out.places[("components",)] = doc.where(key)
    components: list[dict[str, Any]] = out.data["components"]
    for row in rows:
        scanned += 1
        if scanned > MAX_SCANNED_ROWS:
            raise PrintgenError(
                f"more than {MAX_SCANNED_ROWS:,} rows (blank ones included): delete the empty "
                "rows at the end, or split the list",
                sheet.cell(row.number, 1),
            )
        if _blank(row.cells):
            continue
        wide = [i for i, cell in enumerate(row.cells, start=1) if cell is not None]
        if wide[-1] > MAX_COLUMNS:
            raise PrintgenError(
                f"more than {MAX_COLUMNS} columns: a table may have at most {MAX_COLUMNS}",
                sheet.cell(row.number, wide[-1]),
            )
        if not header_row:
            header_row = row.number
            header, headed = _header(table, doc, key, sheet, row)
            continue
        if len(components) >= MAX_ROWS:
            raise PrintgenError(
                f"more than {MAX_ROWS:,} rows: a table may have at most {MAX_ROWS:,}; split the "
                "list into several tables",
                sheet.cell(row.number, 1),
            )
        try:
            components.append(
                _component(table, doc, key, sheet, (header, headed), row, len(components), out)
            )
        except ErrorList as exc:
            errors.extend(exc.errors)
        except PrintgenError as exc:
            errors.append(exc)
    if not header_row:
        raise PrintgenError(
            f"'{table.file}' is empty: its first row should hold the column headers",
            doc.where((*key, "file")),
        )
    if errors:
        raise ErrorList(errors)
    return out


def _header(
    table: Table, doc: Document, key: Key, sheet: _Sheet, row: _Row
) -> tuple[dict[int, str], set[int]]:
    """The header row's mapped columns (column -> header) and every column with a header,
    checked against `columns:` and `ignore:`."""
    errors: list[PrintgenError] = []
    found: dict[str, int] = {}
    for column, cell in enumerate(row.cells, start=1):
        if cell is None:
            continue
        text = cell.text if isinstance(cell, _Raw) else str(cell)
        if text in found:
            errors.append(
                PrintgenError(
                    f"header '{text}' is also column {_column_name(sheet, found[text])}: give "
                    "each column its own header",
                    sheet.cell(row.number, column),
                )
            )
            continue
        found[text] = column
        if text not in table.columns and text not in table.ignore:
            errors.append(
                PrintgenError(
                    f"header '{text}' is not in the table's columns: map it (`{text}: "
                    f"values.<key>`) or list it under ignore:",
                    sheet.cell(row.number, column),
                )
            )
    for wanted in [*table.columns, *table.ignore]:
        if wanted not in found:
            hint = difflib.get_close_matches(wanted, list(found), n=1, cutoff=0.6)
            also = f"; did you mean '{hint[0]}'?" if hint else ""
            at = (
                doc.where_key((*key, "columns", wanted))
                if wanted in table.columns
                else doc.where((*key, "ignore", table.ignore.index(wanted)))
            )
            errors.append(
                PrintgenError(
                    f"'{table.file}' has no column headed '{wanted}'{also} (headers, row "
                    f"{row.number}: {', '.join(found)})",
                    at,
                )
            )
    if errors:
        raise ErrorList(errors)
    return {column: text for text, column in found.items() if text in table.columns}, set(
        found.values()
    )


def _column_name(sheet: _Sheet, column: int) -> str:
    return column_letter(column) if sheet.sheet else str(column)


def _component(
    table: Table,
    doc: Document,
    key: Key,
    sheet: _Sheet,
    columns_of: tuple[dict[int, str], set[int]],
    row: _Row,
    index: int,
    out: Document,
) -> dict[str, Any]:
    """One row as a component mapping; its places go into `out`."""
    header, headed = columns_of
    base: Key = ("components", index)
    columns = {table.columns[name]: column for column, name in header.items()}
    data: dict[str, Any] = {}
    for name in SHARED_KEYS:
        if name in table.model_fields_set and getattr(table, name) is not None:
            data[name] = getattr(table, name)
            out.places[(*base, name)] = doc.where((*key, name))
            if name == "decks":
                for j in range(len(table.decks or ())):
                    out.places[(*base, name, j)] = doc.where((*key, name, j))
    for column, cell in enumerate(row.cells, start=1):
        if cell is not None and column not in headed:
            raise PrintgenError(
                "this column has no header: give it one (and map it in columns or list it "
                "under ignore), or empty the cell",
                sheet.cell(row.number, column),
            )
    cells: dict[str, tuple[Any, Location]] = {}
    for column, name in header.items():
        target = table.columns[name]
        cell = row.cells[column - 1] if column <= len(row.cells) else None
        if cell is None:
            continue
        cells[target] = (_typed(target, cell), sheet.cell(row.number, column))
    id_column = columns["id"]
    row_place = sheet.cell(row.number, id_column)
    out.places[base] = row_place
    if "id" not in cells:
        raise PrintgenError(
            "the id cell is empty: every row needs an id (or delete the row)", row_place
        )
    if "name.ja" not in cells and "name.en" not in cells:
        raise PrintgenError(
            "the name cells are empty: every row needs a name in both languages",
            sheet.cell(row.number, columns["name.ja"]),
        )
    for pair in PAIRS:
        given = [lang for lang in ("ja", "en") if f"{pair}.{lang}" in cells]
        if len(given) == 1:
            other = "en" if given[0] == "ja" else "ja"
            raise PrintgenError(
                f"{pair}.{other} is empty but {pair}.{given[0]} is given: write {pair} in both "
                "languages",
                sheet.cell(row.number, columns[f"{pair}.{other}"]),
            )
    if "deck" in cells:
        data.pop("decks", None)
    for target, (value, where) in cells.items():
        parts = target.split(".", 1)
        if len(parts) == 1:
            data[target] = value
            out.places[(*base, target)] = where
            continue
        group, sub = parts
        data.setdefault(group, {})[sub] = value
        out.places.setdefault((*base, group), where)
        out.places[(*base, group, sub)] = where
        out.key_places[(*base, group, sub)] = where
    return data


def _typed(target: str, cell: Any) -> Any:
    """A cell's value for `target`: text keys take a number's digits as text."""
    if target in TEXT_KEYS:
        if isinstance(cell, _Raw):
            return cell.text
        if isinstance(cell, int | float) and not isinstance(cell, bool):
            return str(cell)
        return cell
    return cell.number if isinstance(cell, _Raw) else cell
