"""Build orchestration: load, render every face, impose, write, swap into place atomically.

Nothing is written until every requested game has loaded and every face has rendered,
and each game's files are written to a staging folder first: a failed build leaves the
previous output exactly as it was.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import math
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, BinaryIO

from printgen.cache import file_digest
from printgen.errors import ErrorList, Location, PrintgenError, display_path
from printgen.exports import FaceUse, PngFile, card_pages, drawing_of, plan_pngs, render_pngs
from printgen.files import check_inside, give_usual_mode
from printgen.geometry import SafeZoneReport
from printgen.imposition import Item, Page, duplex_pages, fold_pages, make_grid, tiled_pages
from printgen.layouts import LayoutLibrary, load_library
from printgen.model import Game, Piece, find_games, load_game
from printgen.ops import Face
from printgen.pdfdraw import FacesInUse, face_form_name
from printgen.render import faces_of, piece_size
from printgen.sheets import (
    SheetInfo,
    checklist_rows_per_page,
    note_rows,
    sheet_notes,
    sheet_pages,
    write_calibration,
)
from printgen.templating import reset_budget

if TYPE_CHECKING:  # the rules engines and the rulebook renderer load when a build needs them
    from concurrent.futures import ProcessPoolExecutor

    from printgen.rulebook import Rulebook

Progress = Callable[[str, int], None]  # (step description, units of work done)


@dataclass(frozen=True)
class BuildOptions:
    papers: tuple[str, ...] = ("a4", "letter")
    lang: str = "both"
    duplex: str = "long"  # long, short, off
    fold: bool = False
    offset: tuple[float, float] = (0.0, 0.0)
    png: bool = True
    tts: bool = False  # Tabletop Simulator export in tts/ (printgen/tts.py)
    rulebooks: bool = True
    strict: bool = False
    draft: bool = False  # failing examples: rebuild the rulebooks marked DRAFT
    version: str | None = None  # an older rule version (out/<game>@<version>/)
    dpi: int = 300
    jobs: int = max(1, min(2, os.cpu_count() or 1))
    vendors: tuple[str, ...] = ()  # print-shop presets (layouts/vendors/), see vendors.py

    @property
    def mode(self) -> str:
        if self.fold:
            return "fold"
        return "fronts" if self.duplex == "off" else f"duplex-{self.duplex}"


@dataclass
class Project:
    """Where games and layouts live."""

    root: Path

    @property
    def components(self) -> Path:
        return self.root / "components"

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    def game_ids(self) -> list[str]:
        return [p.name for p in find_games(self.components)]

    def select(self, names: tuple[str, ...] | list[str]) -> list[str]:
        known = self.game_ids()
        if not known:
            raise PrintgenError(
                f"no games found: {display_path(self.components)}/ has no <game>/game.yaml. "
                "Run printgen in a project folder (one holding components/ and layouts/), or "
                "name it: printgen --root PROJECT_FOLDER ..."
            )
        unknown = [n for n in names if n not in known]
        if unknown:
            raise PrintgenError(f"unknown game '{unknown[0]}' (games: {', '.join(known)})")
        return list(names) or known


@dataclass
class Rendered:
    game: Game
    faces: dict[str, Face]
    rulebook: Rulebook | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass
class GameOutput:
    game: str
    folder: Path
    files: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    up_to_date: bool = False
    examples: list[dict[str, Any]] = field(default_factory=list)  # each example's result
    draft: bool = False  # the rulebooks were built marked DRAFT
    stale: list[dict[str, str]] = field(default_factory=list)  # files kept though out of date
    written: list[str] = field(default_factory=list)  # files made anew (others were linked)
    # What changed since the last settled build (see `settled`), for changes.json and the
    # summary; of that, the rules and components; and since the build just before this one.
    changes: list[str] = field(default_factory=list)
    changed_data: list[str] = field(default_factory=list)
    changes_since_last: list[str] = field(default_factory=list)
    since: str = "the last build"  # what `changes` counts from, in words
    source: Path | None = None  # the game's folder
    manifest: dict[str, Any] = field(default_factory=dict)


def load_all(
    project: Project, names: list[str], version: str | None = None
) -> tuple[LayoutLibrary, list[Game]]:
    """The layouts and the named games (at an older rule `version`, if given)."""
    errors: list[PrintgenError] = []
    lib = load_library(project.layouts)
    games: list[Game] = []
    for name in names:
        try:
            folder = project.components / name
            check_inside(
                folder, [project.root], Location(folder / "game.yaml", 1, 1), "game folder"
            )
            game = load_game(folder)
            games.append(game.at_version(version) if version else game)
        except ErrorList as exc:
            errors.extend(exc.errors)
        except PrintgenError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors)
    return lib, games


def render_all(
    lib: LayoutLibrary, games: list[Game], lang: str, rulebooks: bool = False, strict: bool = False
) -> list[Rendered]:
    """Each game's faces (and rulebook, when asked), with its warnings (`strict`: they are
    to be reported as errors, so they do not say that --strict would make them one)."""
    return list(render_each(lib, games, lang, rulebooks, strict))


def render_each(
    lib: LayoutLibrary, games: list[Game], lang: str, rulebooks: bool = False, strict: bool = False
) -> Iterator[Rendered]:
    """`render_all`, one game at a time."""
    for game in games:
        yield rendered(lib, game, book_of(game) if rulebooks else None, lang, strict)


def book_of(game: Game) -> Rulebook | None:
    """The game's rulebook (its file looked for here: a game without one needs no rulebook
    code)."""
    if not (game.folder / "rulebook" / "book.yaml").is_file():
        return None
    from printgen.rulebook import load_rulebook

    return load_rulebook(game)


def rendered(
    lib: LayoutLibrary, game: Game, book: Rulebook | None, lang: str, strict: bool = False
) -> Rendered:
    """The game's faces drawn, with their warnings."""
    reset_budget()
    report = SafeZoneReport()
    faces = faces_of(game, lib, lang, report)
    undated = game.undated_warning()
    if undated and not strict:
        undated += " (--strict makes this an error)"
    return Rendered(game, faces, book, ([undated] if undated else []) + report.lines())


@dataclass
class Validated:
    """What `validate` found in one game: a summary, its warnings, and the errors of its
    rulebook and worked examples (reported after the warnings, which stay true)."""

    game: str
    summary: str
    warnings: list[str]
    errors: list[PrintgenError]


def validate_games(
    project: Project, names: list[str], lang: str, version: str | None = None, strict: bool = False
) -> list[Validated]:
    """Everything `build` checks, with nothing written: the data, every face, the rulebook
    (its templates, references and pictures) and the worked examples it quotes."""
    from printgen.engines import engine_entry
    from printgen.rulebook import rulebook_html

    lib, games = load_all(project, names, version)
    report = []
    for r in render_all(lib, games, lang, rulebooks=True, strict=strict):
        warnings = list(r.warnings)
        errors: list[PrintgenError] = []
        books = ""
        if r.rulebook is not None:
            warnings.extend(r.rulebook.stale_report())
            with tempfile.TemporaryDirectory(prefix="printgen-validate-") as folder:
                try:
                    rulebook_html(lib, r.rulebook, pictures=Path(folder), embed=False)
                except ErrorList as exc:
                    errors.extend(exc.errors)
                except PrintgenError as exc:
                    errors.append(exc)
            books = (
                ", rulebook and worked examples"
                if engine_entry(r.game)
                else ", rulebook (no rules engine plays this game: no examples to check)"
            )
        copies = sum(p.count for p in r.game.pieces)
        summary = f"{len(r.game.pieces)} components, {copies} pieces, {len(r.faces)} faces{books}"
        report.append(Validated(r.game.id, summary, warnings, errors))
    return report


def items_of(lib: LayoutLibrary, r: Rendered) -> list[list[Item]]:
    """Physical copies grouped by size (each size is imposed on its own pages)."""
    groups: dict[tuple[float, float], list[Item]] = {}
    for piece in r.game.pieces:
        w, h = piece_size(lib, piece)
        front = f"{piece.id}.front.{_lang_of(r)}"
        back = f"{piece.id}.back.{_lang_of(r)}" if piece.back_layout else None
        for copy in range(1, piece.count + 1):
            groups.setdefault((round(w, 3), round(h, 3)), []).append(
                Item(piece.id, copy, front, back, w, h, piece.component.cut)
            )
    return list(groups.values())


def _lang_of(r: Rendered) -> str:
    return next(iter(r.faces)).rsplit(".", 1)[1]


def impose(lib: LayoutLibrary, r: Rendered, paper: str, opts: BuildOptions) -> list[Page]:
    """Every page of a sheets PDF: the checklist first, then each size group of pieces;
    pieces larger than the paper are tiled. With duplex backs, pages holding only
    single-sided pieces (and board tiles) come last with no blank reverse pages, to be
    printed one-sided; the checklist says which pages print how."""
    s = lib.presets.sheet
    size = lib.paper(paper)
    duplex = "off" if opts.fold else opts.duplex
    backs = duplex in ("long", "short")
    body: list[Page] = []
    one_sided: list[Page] = []
    for group in items_of(lib, r):
        bleed = r.faces[group[0].front].bleed
        try:
            grid = make_grid(size, (group[0].width, group[0].height), s, bleed)
        except ValueError:
            for item in group:
                (one_sided if backs else body).extend(tiled_pages(item, size, bleed, s))
            continue
        if opts.fold:
            body.extend(fold_pages(group, size, bleed, s))
            continue
        for page in duplex_pages(group, grid, bleed, s, opts.duplex, opts.offset):
            (one_sided if page.role == "single" else body).append(page)
    pieces = r.game.pieces
    names = {piece.id: piece.component.name.en for piece in pieces}
    mode = "fold" if opts.fold else opts.duplex
    notes = sheet_notes(body, one_sided, paper, mode, names)
    per_page = checklist_rows_per_page(size[1], s)
    n_check = max(1, math.ceil((len(pieces) + note_rows(len(notes))) / per_page))
    # The double-sided pages must start on the front of a sheet.
    n_lead = n_check + (1 if backs and body and n_check % 2 else 0)
    body += one_sided
    for i, page in enumerate(body):
        page.number = n_lead + i + 1
    where: dict[str, list[int]] = {}
    for page in body:
        for placed in page.placements:
            if placed.side == "front":
                where.setdefault(placed.piece_id, []).append(page.number)
    rows = [checklist_row(lib, piece, where.get(piece.id, [])) for piece in pieces]
    checklist: list[Page] = []
    for k in range(n_check):
        page = Page(len(checklist) + 1, size[0], size[1], "checklist")
        page.table = rows[k * per_page : (k + 1) * per_page]
        checklist.append(page)
    checklist[-1].notes = sheet_notes(
        body[: len(body) - len(one_sided)], one_sided, paper, mode, names
    )
    if n_lead > n_check:
        checklist.append(Page(len(checklist) + 1, size[0], size[1], "blank"))
    return checklist + body


def checklist_row(lib: LayoutLibrary, piece: Piece, pages: list[int]) -> tuple[str, ...]:
    name = piece.component.name
    mark = " *" if piece.component.source == "reconstructed" else ""
    deck = f" ({piece.deck.name.ja} / {piece.deck.name.en})" if piece.deck else ""
    w, h = piece_size(lib, piece)
    return (
        f"{name.ja} / {name.en}{deck}{mark}",
        KIND_NAMES[piece.kind],
        str(piece.count),
        f"{w:g} × {h:g}",
        page_ranges(pages),
    )


KIND_NAMES = {
    "card": "カード card",
    "tile": "タイル tile",
    "token": "トークン token",
    "pawn": "コマ pawn",
    "marker": "マーカー marker",
    "board": "ボード board",
    "mat": "シート mat",
}


def page_ranges(pages: list[int]) -> str:
    """[3, 4, 5, 9] -> '3–5, 9'."""
    runs: list[list[int]] = []
    for n in sorted(set(pages)):
        if runs and n - runs[-1][-1] <= 2 and n - runs[-1][-1] >= 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(*parts: object) -> str:
    """A fingerprint of several inputs (texts, bytes or anything with a stable repr)."""
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def page_signature(page: Page, faces: dict[str, Face]) -> str:
    """What one sheet page shows: its layout and the drawing of every face on it."""
    drawn = [face_form_name(faces[p.face]) for p in page.placements if p.face in faces]
    return digest(repr(page), drawn)[:16]


def page_entry(page: Page, faces: dict[str, Face] | None = None) -> dict[str, Any]:
    return {
        "number": page.number,
        "size_mm": [round(page.width, 3), round(page.height, 3)],
        "role": page.role,
        **({"sha256": page_signature(page, faces)} if faces is not None else {}),
        "items": [
            {
                "component": p.piece_id,
                "copy": p.copy,
                "face": p.side,
                "trim_mm": [round(p.x, 3), round(p.y, 3), round(p.width, 3), round(p.height, 3)],
                **(
                    {"window_mm": [round(v, 3) for v in p.clip], "tile": list(p.tile)}
                    if p.clip is not None and p.tile is not None
                    else {}
                ),
            }
            for p in page.placements
        ],
    }


# --- what each output is made from -----------------------------------------------------------

LIBRARIES = (
    "reportlab",
    "pillow",
    "weasyprint",
    "pydyf",
    "jinja2",
    "markdown-it-py",
    "pyyaml",
    "pydantic",
    "budoux",
    "fonttools",
    "svglib",
    "lxml",
    "openpyxl",
)
BOOK_KINDS = ("rulebook", "player-aid", "rulebook-html", "rulebook-asset")
_code_print: list[str] = []


def files_digest(folder: Path, skip: Callable[[PurePosixPath], bool] = lambda _p: False) -> str:
    """The names and bytes of every file below `folder` (but those `skip` names)."""
    h = hashlib.sha256()
    found: list[list[str]] = []
    # os.walk, not Path.rglob: a fingerprint is taken of the code and of every game's folder
    # at the start of each build, and rglob made and tested a Path for every file, the
    # Python caches' included (a tenth of a small build's work)
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name != "__pycache__"]
        inside = Path(top).relative_to(folder).parts
        for name in files:
            # an office program's lock file beside an open spreadsheet is not an input
            if not name.startswith(("~$", ".~lock.")) and os.path.isfile(os.path.join(top, name)):
                found.append([*inside, name])
    for parts in sorted(found):  # as Paths sort: part by part
        rel = PurePosixPath(*parts)
        if not skip(rel):
            h.update(rel.as_posix().encode() + b"\0" + file_digest(folder / rel).encode())
    return h.hexdigest()


def code_fingerprint() -> str:
    """printgen's and the engines' code and the libraries' versions (once per process)."""
    if not _code_print:
        import printgen
        import rules_engine
        from rules_engine import native

        versions = installed_versions()
        engine = Path(rules_engine.__file__).parent
        # Not the kernels compiled from the engine's sources (`rules_engine.native`): they
        # play the same games, and their bytes differ from one machine's compiler to another.
        compiled = native.LIB.relative_to(engine.resolve()).parts
        _code_print.append(
            digest(
                files_digest(Path(printgen.__file__).parent),
                files_digest(engine, lambda rel: rel.parts[: len(compiled)] == compiled),
                [versions.get(_dist_key(name), "-") for name in LIBRARIES],
            )
        )
    return _code_print[0]


def _dist_key(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def installed_versions() -> dict[str, str]:
    """Each installed distribution's version by its normalised name, the first one on
    `sys.path` as `importlib.metadata.version` finds it, read off the names of the
    `NAME-VERSION.dist-info` folders (without importlib.metadata's parsing of every
    package's metadata, which a build would wait for)."""
    import sys

    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info") and "-" in folder:
                name, version = folder[: -len(".dist-info")].rsplit("-", 1)
                found.setdefault(_dist_key(name), version)
    return found


def _data_file(rel: PurePosixPath) -> bool:
    return rel.suffix in (".yaml", ".yml")


def faces_fingerprint(project: Project, game: Game) -> str:
    """What drawing a face reads besides what the face's own operations say: the code, the
    fonts and the images (a face names an image by its path, not by its bytes)."""
    return digest(
        code_fingerprint(),
        files_digest(project.layouts, lambda rel: _data_file(rel) or rel.parts[0] == "rulebook"),
        files_digest(
            game.folder, lambda rel: _data_file(rel) or rel.parts[0] in ("rulebook", "examples")
        ),
    )


def examples_fingerprint(game: Game) -> str:
    """What checking the worked examples reads: the game's data and examples, the code."""
    return digest(
        code_fingerprint(),
        files_digest(game.folder, lambda rel: rel.parts[0] == "rulebook"),
        game.info.rule_version,
    )


def rulebook_sources(project: Project, game: Game, opts: BuildOptions) -> str:
    """Everything a rulebook may read: the whole game folder, the layouts, the code. Equal
    means the books need not even be assembled again."""
    return digest(
        code_fingerprint(),
        files_digest(game.folder),
        files_digest(project.layouts),
        game.info.rule_version,
        opts.draft,
    )


def inputs_fingerprint(project: Project, game: Game, opts: BuildOptions) -> str:
    """Everything a game's output depends on: its data, the layouts and fonts, the code,
    the libraries' versions and the options. Equal fingerprints mean equal outputs."""
    settings = {k: v for k, v in dataclasses.asdict(opts).items() if k != "jobs"}
    return digest(
        code_fingerprint(),
        files_digest(game.folder),
        files_digest(project.layouts),
        sorted(settings.items()),
        game.info.rule_version,
    )


class Previous:
    """The last build of a game's folder: its manifest and the files it lists."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        try:
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
        self.manifest: dict[str, Any] = manifest if isinstance(manifest, dict) else {}
        self.files: dict[str, dict[str, Any]] = {
            str(f["path"]): f
            for f in self.manifest.get("files", [])
            if isinstance(f, dict) and "path" in f
        }

    def reusable(self, path: str, inputs: str) -> dict[str, Any] | None:
        """The entry of a file made from exactly these inputs and still as it was written."""
        entry = self.files.get(path)
        if not entry or entry.get("inputs_sha256") != inputs:
            return None
        return entry if self.intact(path) else None

    def intact(self, path: str) -> bool:
        entry = self.files.get(path)
        try:
            data = (self.folder / path).read_bytes()
        except OSError:
            return False
        return entry is not None and sha256(data) == entry.get("sha256")


@dataclass(frozen=True)
class Written:
    """A file `Staging.write` makes: its writer takes the open file and writes it a page at
    a time, yielding the share written after each page."""

    rel: str
    writer: Callable[[BinaryIO], Iterator[float]]
    entry: dict[str, Any]
    inputs: str = ""
    faces: tuple[Face, ...] = ()  # each face it shows, as often as it shows it


class Staging:
    """A game's new folder being filled: files written anew or linked from the last build."""

    def __init__(self, folder: Path, previous: Previous | None, jobs: int = 1) -> None:
        self.folder = folder
        self.previous = previous
        self.jobs = jobs
        self.files: list[dict[str, Any]] = []
        self.written: list[str] = []  # paths made anew by this build
        self.kept: list[str] = []

    def put(self, rel: str, data: bytes, entry: dict[str, Any], inputs: str = "") -> None:
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self._written(rel, sha256(data), entry, inputs)

    def write(self, jobs: list[Written]) -> None:
        """`put` files that their writers make a page at a time (`_write_group`); with two
        processes allowed (`--jobs`) and a deck's worth of faces to show, in two groups,
        one written by a forked copy of this process (`_two_sides`). Each file is its own
        document: its bytes are the same either way."""
        groups = _two_groups(jobs) if self.jobs > 1 else None
        if groups is None or not _two_sides(self, *groups):
            self._write_group(jobs)
        for job in jobs:
            with (self.folder / job.rel).open("rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
            self._written(job.rel, digest, job.entry, job.inputs)

    def _write_group(self, jobs: list[Written]) -> None:
        """Write the files side by side (`_side_by_side`). A deck's sheets on every paper
        and its card pages show much the same faces in much the same order, so a face
        compiled for one of them is kept only until the others have shown it too
        (`pdfdraw.FacesInUse`), and no file is ever whole in memory."""
        with FacesInUse(face for job in jobs for face in job.faces):
            self._side_by_side(jobs)

    def _side_by_side(self, jobs: list[Written]) -> None:
        """The one furthest behind writes its next page, until all are written."""
        with contextlib.ExitStack() as files:
            steps: list[Iterator[float]] = []
            for job in jobs:
                path = self.folder / job.rel
                path.parent.mkdir(parents=True, exist_ok=True)
                steps.append(job.writer(files.enter_context(path.open("wb"))))
            done = [0.0] * len(jobs)
            going = set(range(len(jobs)))
            while going:
                behind = min(going, key=lambda i: (done[i], i))
                try:
                    done[behind] = next(steps[behind])
                except StopIteration:
                    going.discard(behind)

    def put_file(self, rel: str, source: Path, entry: dict[str, Any]) -> None:
        """`put` a file's bytes, named by their digest (its inputs): the file is linked in
        place when it lies on the same disk (the rulebooks' pictures, which the PDF workers
        read from the build's picture folder: a thousand files, written once, not twice)."""
        data = source.read_bytes()
        digest = sha256(data)
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, path)
        except OSError:
            path.write_bytes(data)
        self._written(rel, digest, entry, digest)

    def _written(self, rel: str, digest: str, entry: dict[str, Any], inputs: str) -> None:
        extra = {"inputs_sha256": inputs} if inputs else {}
        self.files.append({"path": rel, **entry, "sha256": digest, **extra})
        self.written.append(rel)

    def keep(self, rel: str, entry: dict[str, Any]) -> None:
        """Take the last build's file as it is (a hard link: no copy, no rewrite)."""
        assert self.previous is not None
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(self.previous.folder / rel, path)
        except OSError:
            shutil.copyfile(self.previous.folder / rel, path)
        self.files.append(dict(entry))
        self.kept.append(rel)

    def drop(self, rel: str) -> None:
        """Take back a file put or kept by this build."""
        (self.folder / rel).unlink()
        self.files = [f for f in self.files if f["path"] != rel]
        self.written = [p for p in self.written if p != rel]
        self.kept = [p for p in self.kept if p != rel]

    def reuse(self, rel: str, inputs: str, fresh: dict[str, Any] | None = None) -> bool:
        """Keep the last build's file when it was made from these inputs (with the fields
        of its entry that do not change its bytes, `fresh`, as they are now)."""
        entry = self.previous.reusable(rel, inputs) if self.previous else None
        if entry is None:
            return False
        self.keep(rel, {**entry, **(fresh or {})})
        return True


FORK_FACES = 100
"""Faces a build's files show from which they are written by two processes: fewer, and a
fork costs more than it saves (a 200-card deck's build, its sheets and card pages written
so: 7 to 9% less time from start to end, 5 to 8% more CPU)."""


def _two_groups(jobs: list[Written]) -> tuple[list[Written], list[Written]] | None:
    """The files in two groups that show about as many faces, or None when they are too
    few to share out (one file, or under `FORK_FACES` faces shown) or this process cannot
    be copied (`can_fork`)."""
    if len(jobs) < 2 or sum(len(job.faces) for job in jobs) < FORK_FACES or not can_fork():
        return None
    groups: tuple[list[Written], list[Written]] = ([], [])
    shown = [0, 0]
    for job in sorted(jobs, key=lambda j: -len(j.faces)):  # the largest first
        lighter = 0 if shown[0] <= shown[1] else 1
        groups[lighter].append(job)
        shown[lighter] += len(job.faces)
    return groups


def can_fork() -> bool:
    """Whether this process may write files in a forked copy of itself: it can fork (not on
    macOS, where a copy of a process that loaded the system's frameworks may hang, as
    Python's own pools say), and every other thread is a daemon (a progress bar's refresh),
    which the copy never needs. A thread that does work (a pool's manager) keeps the files
    in one process."""
    if not hasattr(os, "fork") or sys.platform == "darwin":
        return False
    main = threading.main_thread()
    return all(t is main or t.daemon for t in threading.enumerate())


def _two_sides(staging: Staging, mine: list[Written], theirs: list[Written]) -> bool:
    """Write `theirs` in a forked copy of this process while this one writes `mine`; False
    when the fork failed and nothing was written. When the copy fails (an error, a signal),
    its files are written again here, which reports the error as a build in one process
    does."""
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:  # the copy: writes its files, then ends at once (the exit handlers and
        status = 1  # the output are the parent's: a progress bar's lock may be held)
        try:
            sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
            staging._write_group(theirs)
            status = 0
        finally:
            os._exit(status)
    try:
        staging._write_group(mine)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    _, status = os.waitpid(pid, 0)
    if status != 0:
        staging._write_group(theirs)
    return True


# --- the worked examples and the rulebooks ----------------------------------------------------


@dataclass
class ExampleReport:
    """The worked examples' results: checked now (`results`) or as the last build found."""

    inputs: str
    records: list[dict[str, Any]]
    results: list[Any] | None = None  # ExampleResult, when checked by this build

    @property
    def failing(self) -> list[dict[str, Any]]:
        return [r for r in self.records if not r.get("ok")]


def check_examples(game: Game, previous: Previous | None) -> ExampleReport:
    from rules_engine.registry import engine_for

    inputs = examples_fingerprint(game)
    if previous and previous.manifest.get("examples_sha256") == inputs:
        return ExampleReport(inputs, list(previous.manifest.get("examples", [])))
    if not engine_for(game.id):  # no engine plays it: no example to check
        return ExampleReport(inputs, [])
    from printgen.examples import check_game

    results = check_game(game, bad_input_raises=True)
    return ExampleReport(inputs, [r.record(game.folder) for r in results], results)


@dataclass
class BookJob:
    """One rulebook file of this build: made now (`html` -> PDF in a worker) or kept."""

    path: str
    entry: dict[str, Any]
    inputs: str
    html: str = ""
    future: Any = None  # a Future of (pdf bytes, page signatures)


@dataclass
class BookPlan:
    sources: str
    jobs: list[BookJob] = field(default_factory=list)
    keep_all: bool = False  # the last build's books, unchanged
    stale: str = ""  # why the last build's books are kept although the rules changed
    draft: bool = False
    pictures: Path | None = None


def plan_rulebooks(
    project: Project,
    lib: LayoutLibrary,
    r: Rendered,
    opts: BuildOptions,
    previous: Previous | None,
    examples: ExampleReport,
    pictures: Path,
    submit: Callable[[str, str], Any],
) -> BookPlan | None:
    """Which rulebook files to make, keep or leave stale: books are rebuilt only when what
    they read changed, and each edition only when its HTML did; with failing examples the
    books are rebuilt marked DRAFT (`--draft`) or kept as they were and called stale."""
    if r.rulebook is None:
        return None
    plan = BookPlan(rulebook_sources(project, r.game, opts), pictures=pictures)
    old = previous_books(previous)
    if books_current(previous, plan.sources, check_files=True):
        plan.keep_all = True
        return plan
    if not opts.rulebooks or (examples.failing and not opts.draft):
        plan.keep_all = True
        if not old:
            return plan
        n = len(examples.failing)
        plan.stale = (
            "not rebuilt (--no-rulebook)"
            if not opts.rulebooks
            else f"not rebuilt: {n} worked example{'s' if n != 1 else ''} do not hold"
        )
        return plan
    from printgen.rulebook import rulebook_html

    plan.draft = bool(examples.failing)
    pages = rulebook_html(
        lib,
        r.rulebook,
        pictures=pictures,
        draft=plan.draft,
        results=examples.results,
        drawn=r.faces,
    )
    code = code_fingerprint()
    for edition in sorted(pages, key=lambda e: e != "ja-en"):  # the largest first
        html = pages[edition]
        inputs = digest(code, html)
        if edition.startswith("aid-"):
            lang = edition.removeprefix("aid-")
            path = f"player-aid-{lang}.pdf"
            entry: dict[str, Any] = {"kind": "player-aid", "lang": lang, "paper": "a4"}
        else:
            path = f"rulebook-{edition}.pdf"
            paper = r.rulebook.book.paper if edition != "ja-en" else "a4"
            entry = {"kind": "rulebook", "edition": edition, "paper": paper}
            plan.jobs.append(
                BookJob(
                    f"html/rulebook-{edition}.html",
                    {"kind": "rulebook-html", "edition": edition},
                    inputs,
                    html,
                )
            )
        entry["draft"] = plan.draft
        job = BookJob(path, entry, inputs, html)
        reused = previous.reusable(path, inputs) if previous else None
        if reused is None or reused.get("draft") != plan.draft:
            job.future = submit(html, f"{r.game.id} ({edition})")
        plan.jobs.append(job)
    return plan


def previous_books(previous: Previous | None) -> list[dict[str, Any]]:
    """The rulebook files of the last build, as its manifest lists them."""
    return [f for f in (previous.files.values() if previous else []) if f.get("kind") in BOOK_KINDS]


def books_current(previous: Previous | None, sources: str, check_files: bool = False) -> bool:
    """The last build's books were made from these sources (and, `check_files`, are still
    as it wrote them): they need not even be assembled again."""
    old = previous_books(previous)
    return bool(old) and all(
        f.get("sources_sha256") == sources
        and previous is not None
        and (not check_files or previous.intact(str(f["path"])))
        for f in old
    )


def books_due(
    project: Project, game: Game, opts: BuildOptions, out_root: Path, force: bool
) -> bool:
    """Whether building `game` will likely lay out rulebooks (a game with a book whose
    sources changed since its last build): the build then starts its PDF worker processes
    at once, to load WeasyPrint while it reads and draws the games."""
    if not opts.rulebooks or not (game.folder / "rulebook" / "book.yaml").is_file():
        return False
    if force:
        return True
    previous = Previous(game_folder(out_root, game, opts))
    return not books_current(previous, rulebook_sources(project, game, opts))


def picture_uri() -> re.Pattern[str]:
    """A picture's address in a book's HTML (the rulebook renderer loads when asked)."""
    from printgen.rulebook.diagrams import PICTURE_SCHEME

    return re.compile(rf"{PICTURE_SCHEME}:([0-9a-f]+\.[a-z]+)")


def write_rulebooks(staging: Staging, plan: BookPlan, previous: Previous | None) -> list[str]:
    """Put the rulebook files in place; gives the stale notes of books kept as they were."""
    stale: list[str] = []
    if plan.keep_all:
        for entry in previous.files.values() if previous else []:
            if entry.get("kind") in BOOK_KINDS and previous and previous.intact(entry["path"]):
                staging.keep(str(entry["path"]), entry)
                if entry.get("sources_sha256") != plan.sources and entry.get("kind") != (
                    "rulebook-asset"
                ):
                    stale.append(str(entry["path"]))
        return stale
    assets: dict[str, str] = {}
    for job in plan.jobs:
        extra = {**job.entry, "sources_sha256": plan.sources}
        if job.entry["kind"] == "rulebook-html":
            names = sorted(set(picture_uri().findall(job.html)))
            html = picture_uri().sub(lambda m: f"pictures/{m.group(1)}", job.html)
            staging.put(job.path, html.encode("utf-8"), extra, job.inputs)
            for name in names:
                assets.setdefault(f"html/pictures/{name}", name)
            continue
        if job.future is None:
            assert previous is not None
            staging.keep(job.path, {**previous.files[job.path], "sources_sha256": plan.sources})
            continue
        data, signatures = job.future.result()
        staging.put(job.path, data, {**extra, "page_signatures": signatures}, job.inputs)
    for rel, name in sorted(assets.items()):
        assert plan.pictures is not None
        entry = {"kind": "rulebook-asset", "sources_sha256": plan.sources}
        staging.put_file(rel, plan.pictures / name, entry)
    return stale


# --- one game's folder ------------------------------------------------------------------------


def write_game(
    lib: LayoutLibrary,
    r: Rendered,
    opts: BuildOptions,
    folder: Path,
    progress: Progress,
    books: BookPlan | None = None,
    inputs: str = "",
    previous: Previous | None = None,
    examples: ExampleReport | None = None,
    faces_base: str = "",
) -> GameOutput:
    """Write one game's files into the staging `folder`: each output is made anew only when
    what it is made from changed since the `previous` build, else linked from it. Without
    `books`, the rulebooks are made here (in this process)."""
    game = r.game
    out = GameOutput(game.id, folder)
    staging = Staging(folder, previous, opts.jobs)
    font = lib.fonts["gothic"]
    title = game.info.title.en
    face_print = {key: face_form_name(face) for key, face in r.faces.items()}
    documents: list[Written] = []  # written side by side (Staging.write)
    for paper in opts.papers:
        pages = impose(lib, r, paper, opts)
        rel = f"sheets-{paper}-{opts.mode}.pdf"
        made_of = digest(
            faces_base,
            "sheets",
            paper,
            opts.mode,
            opts.offset,
            title,
            repr(lib.presets.sheet),
            [page_signature(p, r.faces) for p in pages],
        )
        if not staging.reuse(rel, made_of):
            info = SheetInfo(title, paper, "fold" if opts.fold else opts.duplex)
            entry: dict[str, Any] = {
                "kind": "sheets",
                "paper": paper,
                "mode": opts.mode,
                "lang": opts.lang,
                "pages": [page_entry(p, r.faces) for p in pages],
            }
            writer = functools.partial(sheet_pages, pages, r.faces, info, lib.presets.sheet, font)
            shown = tuple(r.faces[p.face] for page in pages for p in page.placements)
            documents.append(Written(rel, writer, entry, made_of, shown))
        if opts.duplex != "off" and not opts.fold:
            rel = f"calibration-{paper}.pdf"
            made_of = digest(faces_base, "calibration", paper, opts.duplex, opts.offset, title)
            if not staging.reuse(rel, made_of):
                cal = write_calibration(
                    lib.paper(paper), paper, opts.duplex, opts.offset, font, title
                )
                entry = {"kind": "calibration", "paper": paper, "mode": opts.mode}
                staging.put(rel, cal, entry, made_of)
    copies = [item for group in items_of(lib, r) for item in group]
    card_faces: list[tuple[str, Face]] = []
    page_items: list[dict[str, Any]] = []
    for item in copies:
        for side, key in (("front", item.front), ("back", item.back)):
            if key is None:
                continue
            card_faces.append((f"{item.piece_id}-{item.copy}-{side}", r.faces[key]))
            face = r.faces[key]
            page_items.append(
                {
                    "number": len(card_faces),
                    "size_mm": [
                        round(face.width + 2 * face.bleed, 3),
                        round(face.height + 2 * face.bleed, 3),
                    ],
                    "sha256": face_print[key][1:],
                    "items": [
                        {
                            "component": item.piece_id,
                            "copy": item.copy,
                            "face": side,
                            "trim_mm": [face.bleed, face.bleed, face.width, face.height],
                        }
                    ],
                }
            )
    made_of = digest(faces_base, "cards", title, [(n, face_form_name(f)) for n, f in card_faces])
    if not staging.reuse("cards.pdf", made_of):
        entry = {"kind": "card-pdf", "lang": opts.lang, "pages": page_items}
        writer = functools.partial(card_pages, card_faces, title, font)
        shown = tuple(face for _label, face in card_faces)
        documents.append(Written("cards.pdf", writer, entry, made_of, shown))
    staging.write(documents)
    for paper in opts.papers:
        progress(f"{game.id}: {paper} sheets", 1)
    progress(f"{game.id}: card pages", 1)
    images: dict[str, dict[str, str]] = {}
    if opts.png:
        write_pngs(staging, r, opts, faces_base, images, progress)
    if opts.tts:  # the Tabletop Simulator export (printgen/tts.py)
        from printgen.tts import write_tts

        write_tts(
            staging,
            game.id,
            title,
            game.pieces,
            r.faces,
            _lang_of(r),
            lambda piece: piece_size(lib, piece),
            opts.dpi,
            faces_base,
            progress,
        )
    vendors: dict[str, Any] = {}
    if opts.vendors:  # print-shop files under <vendor>/, after each vendor's preflight
        from printgen.vendors import write_vendors

        vendors, vendor_warnings = write_vendors(
            lib, game, r.faces, _lang_of(r), opts.vendors, staging.put
        )
        out.warnings.extend(vendor_warnings)
    out.warnings.extend(r.warnings)
    if r.rulebook is not None:
        out.warnings.extend(r.rulebook.stale_report())
    if out.warnings and opts.strict:
        raise ErrorList([PrintgenError(w) for w in out.warnings])
    if examples is None:
        examples = check_examples(game, None)
    if books is None and r.rulebook is not None:
        from printgen.rulebook.pdf import render_pdf_pages

        with tempfile.TemporaryDirectory(prefix="printgen-pictures-") as pictures:

            def here(html: str, name: str) -> Any:
                return _Done(render_pdf_pages(html, lib.root, name, Path(pictures)))

            books = plan_rulebooks(
                Project(lib.root.parent), lib, r, opts, previous, examples, Path(pictures), here
            )
            assert books is not None
            stale = write_rulebooks(staging, books, previous)
    elif books is not None:
        stale = write_rulebooks(staging, books, previous)
    else:
        stale = []
    if books is not None and not books.keep_all:
        progress(f"{game.id}: rulebooks", 1)
    out.examples = examples.records
    out.draft = bool(books and books.draft)
    out.stale = [{"path": path, "reason": books.stale if books else ""} for path in stale]
    files = sorted(staging.files, key=lambda f: str(f["path"]))
    manifest: dict[str, Any] = {
        "game": game.id,
        "inputs_sha256": inputs,
        "title": {"ja": game.info.title.ja, "en": game.info.title.en},
        "rule_version": game.info.rule_version,
        "rules": game.rule_params(),
        "undated_rule_changes": [c.key for c in game.undated_changes()],
        "components": [
            {
                "id": piece.id,
                "kind": piece.kind,
                "count": piece.count,
                "size_mm": [round(v, 3) for v in piece_size(lib, piece)],
                "name": {"ja": piece.component.name.ja, "en": piece.component.name.en},
                "deck": piece.deck.id if piece.deck else None,
                "source": piece.component.source,
                "values": piece.values,
                "images": {
                    "front": images.get(piece.id, {}).get("front"),
                    "back": images.get(piece.id, {}).get("back"),
                },
            }
            for piece in game.pieces
        ],
        # False: a components-only build (--no-rulebook, or watch's first step); the next
        # build's changes.json then adds to this one's, so nothing seen is lost.
        "complete": opts.rulebooks,
        "examples_sha256": examples.inputs,
        "examples": examples.records,
        "draft": out.draft,
        "stale": out.stale,
        "files": files,
        **({"vendors": vendors} if vendors else {}),
    }
    out.files = files
    out.written = staging.written
    out.manifest = manifest
    return out


def write_pngs(
    staging: Staging,
    r: Rendered,
    opts: BuildOptions,
    faces_base: str,
    images: dict[str, dict[str, str]],
    progress: Progress,
) -> None:
    """One PNG per distinct face (copies, and components drawn alike, share it), each
    listed with the sides it stands for and their copies; `images` gets each component's
    {face: path}. A PNG whose drawing did not change since the last build is kept as it
    was (only its entry's counts are brought up to date)."""
    sides: list[tuple[FaceUse, Face]] = []
    lang = _lang_of(r)
    for piece in r.game.pieces:
        deck = piece.deck.id if piece.deck else None
        for side in ("front", "back") if piece.back_layout else ("front",):
            face = r.faces[f"{piece.id}.{side}.{lang}"]
            sides.append((FaceUse(piece.id, deck, side, piece.count), face))
    todo: dict[str, tuple[PngFile, str, dict[str, Any]]] = {}
    plan = plan_pngs(sides)
    for png in plan:
        for use in png.uses:
            images.setdefault(use.component, {})[use.face] = png.path
        first = png.uses[0]
        entry: dict[str, Any] = {
            "kind": "card-image",
            "component": first.component,
            "face": first.face,
            "copies": png.copies,
            "faces": png.stands_for(),
            "dpi": opts.dpi,
            "bleed_mm": png.face.bleed,
            "lang": opts.lang,
        }
        made_of = digest(faces_base, "png", png.drawing, opts.dpi)
        if staging.reuse(png.path, made_of, entry):
            continue
        todo[png.face.key] = (png, made_of, entry)
    for key, data in render_pngs([png.face for png, _m, _e in todo.values()], opts.dpi, opts.jobs):
        progress(f"{r.game.id}: PNG", 1)
        png, made_of, entry = todo[key]
        staging.put(png.path, data, entry, made_of)
    # Drawings that still make the same pixels (operations that differ where nothing
    # shows) share the first one's file.
    entries = {str(f["path"]): f for f in staging.files if f.get("kind") == "card-image"}
    first_of: dict[str, str] = {}
    for png in plan:
        entry = entries[png.path]
        keep = first_of.setdefault(str(entry["sha256"]), png.path)
        if keep == png.path:
            continue
        target = entries[keep]
        target["faces"] = [*target["faces"], *entry["faces"]]
        target["copies"] += entry["copies"]
        for use in png.uses:
            images[use.component][use.face] = keep
        staging.drop(png.path)


class _Done:
    """A result already made, in the shape of a Future."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_listing(folder / "manifest.json", manifest)


_ONE_LINE = json.JSONEncoder(ensure_ascii=False, default=str, separators=(", ", ": "))


def listing_lines(data: dict[str, Any]) -> Iterator[str]:
    """A manifest or a change report as JSON to read and to diff, a line at a time (each
    with its line end): a key a line, and each entry of a list (a component, a file, a
    change) on a line of its own. Written by json's C encoder one entry at a time:
    indenting every level went through Python's encoder (81 ms of a 2,000-card build, this
    way 20) and wrote twice the bytes."""
    yield "{\n"
    last = len(data) - 1
    for i, (key, value) in enumerate(data.items()):
        comma = "," if i < last else ""
        name = _ONE_LINE.encode(str(key))
        if isinstance(value, list) and value:
            yield f"  {name}: [\n"
            end = len(value) - 1
            for j, entry in enumerate(value):
                yield f"    {_ONE_LINE.encode(entry)}{',' if j < end else ''}\n"
            yield f"  ]{comma}\n"
        else:
            yield f"  {name}: {_ONE_LINE.encode(value)}{comma}\n"
    yield "}\n"


def write_listing(path: Path, data: dict[str, Any]) -> None:
    """`listing_lines` into the file at `path`, a line at a time: a large deck's manifest is
    megabytes, and is never whole in memory (nor in three copies: lines, text, bytes)."""
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(listing_lines(data))


def work_units(r: Rendered, opts: BuildOptions) -> int:
    pngs = len({drawing_of(face) for face in r.faces.values()}) if opts.png else 0
    return len(opts.papers) + 1 + pngs + (1 if r.rulebook else 0)


KEPT_ACROSS_BUILDS = ("balance",)
"""Folders of OUT/<game>/ that other commands write (`printgen balance`'s report): a build
carries them over."""


def swap_in(staging: Path, final: Path) -> None:
    """Replace `final` with `staging` in two renames; the old folder is removed after (the
    folders of `KEPT_ACROSS_BUILDS` move over first)."""
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    for name in KEPT_ACROSS_BUILDS:
        if (final / name).is_dir() and not (staging / name).exists():
            (final / name).rename(staging / name)
    give_usual_mode(staging)
    if final.exists():
        final.rename(old)
    staging.rename(final)
    if old.exists():
        shutil.rmtree(old)


def settled(manifest: dict[str, Any]) -> bool:
    """A build that left nothing pending: the rulebooks were built (not --no-rulebook or
    watch's first step), none is kept stale, and every worked example holds or the books
    say DRAFT. A build after one that is not settled reports it again: its failing
    examples and what changed since the last settled build."""
    if manifest.get("complete") is False or manifest.get("stale"):
        return False
    examples = manifest.get("examples") or []
    return bool(manifest.get("draft")) or all(isinstance(e, dict) and e.get("ok") for e in examples)


def up_to_date(folder: Path, fingerprint: str) -> bool:
    """The folder holds a settled build made from exactly these inputs."""
    previous = Previous(folder)
    if previous.manifest.get("inputs_sha256") != fingerprint or not settled(previous.manifest):
        return False
    return all((folder / path).is_file() for path in previous.files)


def game_folder(out_root: Path, game: Game, opts: BuildOptions) -> Path:
    """out/<game>/, or out/<game>@<version>/ for an older rule version."""
    return out_root / (game.id if game.newest else f"{game.id}@{game.info.rule_version}")


def _pdf_job(html: str, layouts: Path, title: str, pictures: Path) -> tuple[bytes, list[str]]:
    """In a worker process: one rulebook edition, HTML to PDF."""
    from printgen.rulebook.pdf import render_pdf_pages

    return render_pdf_pages(html, layouts, title, pictures)


def build(
    project: Project,
    names: list[str],
    out_root: Path,
    opts: BuildOptions,
    progress: Progress | None = None,
    on_rendered: Callable[[list[Rendered]], None] | None = None,
    force: bool = False,
) -> list[GameOutput]:
    """Build the named games into `out_root/<game>/`. A game whose inputs did not change
    since the last build is left as it is (unless `force`); otherwise each of its outputs
    is made anew only if what it is made from changed, and the folder is replaced at once."""
    report: Progress = progress or (lambda _step, _n: None)
    lib, games = load_all(project, names, opts.version)
    prints = {g.id: inputs_fingerprint(project, g, opts) for g in games}
    results: list[GameOutput] = []
    todo = []
    for game in games:
        final = game_folder(out_root, game, opts)
        if not force and up_to_date(final, prints[game.id]):
            results.append(GameOutput(game.id, final, up_to_date=True))
        else:
            todo.append(game)
    workers = _BookWorkers(lib.root, opts.jobs)
    stagings: list[tuple[Path, Path]] = []
    built: list[GameOutput] = []
    pictures: Path | None = None
    try:
        if any(books_due(project, g, opts, out_root, force) for g in todo):
            workers.start()
        # Each game's books' HTML is made and handed to the worker processes first, and its
        # faces drawn after (the workers lay out the books meanwhile), game after game, so
        # that they start on the first book early; with --strict (warnings are errors: say
        # so before the slow rulebook work), every game's faces come first.
        # `on_rendered` hears of the games drawn so far after each.
        each: list[Rendered] = []
        if opts.strict:
            each = list(render_each(lib, todo, opts.lang, True, opts.strict))
            warned = [
                w
                for r in each
                for w in r.warnings + (r.rulebook.stale_report() if r.rulebook else [])
            ]
            if warned:
                raise ErrorList([PrintgenError(w) for w in warned])
        out_root.mkdir(parents=True, exist_ok=True)
        pictures = Path(tempfile.mkdtemp(prefix=".pictures-", dir=out_root))
        submit = functools.partial(workers.submit, pictures=pictures)
        plans = []
        for i, game in enumerate(todo):
            reset_budget()  # the book's templates: a budget of their own
            r = each[i] if opts.strict else Rendered(game, {}, book_of(game), [])
            final = game_folder(out_root, game, opts)
            previous = None if force else Previous(final)
            examples = check_examples(game, previous)
            books = plan_rulebooks(project, lib, r, opts, previous, examples, pictures, submit)
            if not opts.strict:  # its faces, drawn while the workers lay out its books
                r = rendered(lib, game, r.rulebook, opts.lang)
            plans.append((r, final, previous, examples, books))
            if on_rendered:
                on_rendered([plan[0] for plan in plans])
        for r, final, previous, examples, books in plans:
            staging = Path(tempfile.mkdtemp(prefix=f".{r.game.id}.tmp-", dir=out_root))
            stagings.append((staging, final))
            result = write_game(
                lib,
                r,
                opts,
                staging,
                report,
                books,
                prints[r.game.id],
                previous,
                examples,
                faces_fingerprint(project, r.game),
            )
            before = Previous(final) if final.is_dir() else None
            record_changes(before, result, staging)
            result.source = r.game.folder
            write_manifest(staging, result.manifest)
            built.append(result)
    except BaseException:
        for staging, _final in stagings:
            shutil.rmtree(staging, ignore_errors=True)
        workers.end(failed=True)
        raise
    finally:
        if pictures is not None:
            shutil.rmtree(pictures, ignore_errors=True)
    workers.end(failed=False)
    for (staging, final), result in zip(stagings, built, strict=True):
        swap_in(staging, final)
        result.folder = final
    results.extend(built)
    order = {name: i for i, name in enumerate(names or [g.id for g in games])}
    return sorted(results, key=lambda r: order.get(r.game, 0))


class _BookWorkers:
    """Where a build's books are laid out: in this process (`--jobs 1`), else in PDF worker
    processes: printgen watch's kept ones, or the build's own, started on the first book or
    at once (`start`: books are due, and the workers load WeasyPrint while the games are
    read and drawn)."""

    def __init__(self, layouts: Path, jobs: int) -> None:
        self.layouts = layouts
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None
        self.used = False  # a book was handed to the pool

    def start(self) -> None:
        if self.jobs > 1 and self.pool is None:
            from printgen.rulebook.pdf import pdf_pool

            self.pool = pdf_pool(self.jobs, started=True)

    def submit(self, html: str, title: str, pictures: Path) -> Any:
        from printgen.rulebook.pdf import pdf_pool, render_pdf_pages

        if self.jobs <= 1:
            return _Done(render_pdf_pages(html, self.layouts, title, pictures))
        if self.pool is None:
            self.pool = pdf_pool(self.jobs)  # kept between builds by printgen watch
        self.used = True
        return self.pool.submit(_pdf_job, html, self.layouts, title, pictures)

    def end(self, failed: bool) -> None:
        """The build is over: the workers are stopped at once when it failed or had no
        book for them, else when their books are done."""
        if self.pool is not None:
            from printgen.rulebook.pdf import end_pool

            end_pool(self.pool, at_once=failed or not self.used)


BASE = "changes/base-manifest.json"  # the manifest of the last settled build, while unsettled


def record_changes(before: Previous | None, result: GameOutput, staging: Path) -> None:
    """Write changes.json: what changed since the last settled build (after a fork or a
    components-only build, the next report still counts from the last settled one, whose
    manifest is kept in changes/base-manifest.json until a build settles), and keep that
    build's pictures of the faces that changed in changes/before/. Sets the result's
    summaries."""
    from printgen.changes import compare, data_summary, summary

    if before is None or not before.manifest:
        return
    base, carried = before.manifest, False
    if not settled(before.manifest):
        try:
            kept = json.loads((before.folder / BASE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = None
        if isinstance(kept, dict) and kept.get("game") == result.manifest.get("game"):
            base, carried = kept, True
    report = compare(base, result.manifest)
    result.changes_since_last = (
        summary(compare(before.manifest, result.manifest)) if carried else summary(report)
    )
    if carried:
        result.since = "the last complete build"
    for image in report.get("images", []):
        # The base build's picture: in the folder, or carried in changes/before/ when a
        # build since then changed it.
        old = before.folder / image["before"]
        if not (carried and old.is_file()):
            old = before.folder / str(image["before"]).removeprefix("changes/before/")
        if old.is_file() and old.resolve().is_relative_to(before.folder.resolve()):
            target = staging / image["before"]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(old, target)
    if not settled(result.manifest):
        (staging / BASE).parent.mkdir(parents=True, exist_ok=True)
        write_listing(staging / BASE, base)
    write_listing(staging / "changes.json", report)
    result.changes, result.changed_data = list(report["summary"]), data_summary(report)
