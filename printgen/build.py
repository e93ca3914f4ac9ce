"""Build orchestration: load, render every face, impose, write, swap into place atomically.

Nothing is written until every requested game has loaded and every face has rendered,
and each game's files are written to a staging folder first: a failed build leaves the
previous output exactly as it was.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.errors import ErrorList, Location, PrintgenError
from printgen.exports import render_pngs, write_card_pdf
from printgen.files import check_inside
from printgen.geometry import SafeZoneReport
from printgen.imposition import Item, Page, duplex_pages, fold_pages, make_grid, tiled_pages
from printgen.layouts import LayoutLibrary, load_library
from printgen.model import Game, Piece, find_games, load_game
from printgen.ops import Face
from printgen.pdfdraw import face_form_name
from printgen.render import faces_of, piece_size
from printgen.rulebook import (
    Rulebook,
    has_rulebook,
    load_rulebook,
    make_rulebooks,
    render_pdf,
    rulebook_html,
)
from printgen.rulebook.assemble import AIDS, EDITIONS
from printgen.sheets import SheetInfo, checklist_rows_per_page, write_calibration, write_sheets
from printgen.templating import reset_budget

Progress = Callable[[str, int], None]  # (step description, units of work done)


@dataclass(frozen=True)
class BuildOptions:
    papers: tuple[str, ...] = ("a4", "letter")
    lang: str = "both"
    duplex: str = "long"  # long, short, off
    fold: bool = False
    offset: tuple[float, float] = (0.0, 0.0)
    png: bool = True
    rulebooks: bool = True
    strict: bool = False
    dpi: int = 300
    jobs: int = max(1, min(2, os.cpu_count() or 1))

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
            raise PrintgenError(f"no games found: {self.components} has no <game>/game.yaml")
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


def load_all(project: Project, names: list[str]) -> tuple[LayoutLibrary, list[Game]]:
    errors: list[PrintgenError] = []
    lib = load_library(project.layouts)
    games: list[Game] = []
    for name in names:
        try:
            folder = project.components / name
            check_inside(
                folder, [project.root], Location(folder / "game.yaml", 1, 1), "game folder"
            )
            games.append(load_game(folder))
        except ErrorList as exc:
            errors.extend(exc.errors)
        except PrintgenError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors)
    return lib, games


def render_all(
    lib: LayoutLibrary, games: list[Game], lang: str, rulebooks: bool = False
) -> list[Rendered]:
    rendered = []
    for game in games:
        reset_budget()
        book = load_rulebook(game) if rulebooks and has_rulebook(game) else None
        report = SafeZoneReport()
        faces = faces_of(game, lib, lang, report)
        rendered.append(Rendered(game, faces, book, report.lines()))
    return rendered


def validate_games(
    project: Project, names: list[str], lang: str
) -> list[tuple[str, str, list[str]]]:
    """Everything `build` checks, with nothing written: the data, every face, the rulebook
    (its templates, references and pictures) and the worked examples it quotes.
    Gives (game, summary, warnings) per game."""
    lib, games = load_all(project, names)
    report = []
    for r in render_all(lib, games, lang, rulebooks=True):
        warnings = list(r.warnings)
        books = ""
        if r.rulebook is not None:
            warnings.extend(r.rulebook.stale_report())
            with tempfile.TemporaryDirectory(prefix="printgen-validate-") as folder:
                rulebook_html(lib, r.rulebook, pictures=Path(folder), embed=False)
            books = ", rulebook and worked examples"
        copies = sum(p.count for p in r.game.pieces)
        summary = f"{len(r.game.pieces)} components, {copies} pieces, {len(r.faces)} faces{books}"
        report.append((r.game.id, summary, warnings))
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
    pieces larger than the paper are tiled."""
    s = lib.presets.sheet
    size = lib.paper(paper)
    duplex = "off" if opts.fold else opts.duplex
    body: list[Page] = []
    for group in items_of(lib, r):
        bleed = r.faces[group[0].front].bleed
        try:
            grid = make_grid(size, (group[0].width, group[0].height), s, bleed)
        except ValueError:
            for item in group:
                body.extend(tiled_pages(item, size, bleed, s, duplex))
            continue
        if opts.fold:
            body.extend(fold_pages(group, size, bleed, s))
        else:
            body.extend(duplex_pages(group, grid, bleed, s, opts.duplex, opts.offset))
    per_page = checklist_rows_per_page(size[1], s)
    pieces = r.game.pieces
    n_check = max(1, math.ceil(len(pieces) / per_page))
    step = 2 if duplex in ("long", "short") else 1
    for i, page in enumerate(body):
        page.number = n_check * step + i + 1
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
        if step == 2:
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


def page_entry(page: Page) -> dict[str, Any]:
    return {
        "number": page.number,
        "size_mm": [round(page.width, 3), round(page.height, 3)],
        "role": page.role,
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


def write_game(
    lib: LayoutLibrary,
    r: Rendered,
    opts: BuildOptions,
    staging: Path,
    progress: Progress,
    rulebooks: Callable[[], dict[str, bytes]] | None = None,
    inputs: str = "",
) -> GameOutput:
    """Write one game's files into `staging`; `rulebooks` gives its rulebook PDFs (built
    in another process while the sheets are drawn here)."""
    game = r.game
    out = GameOutput(game.id, staging)
    font = lib.fonts["gothic"]

    def put(rel: str, data: bytes, entry: dict[str, Any]) -> None:
        path = staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        out.files.append({"path": rel, **entry, "sha256": sha256(data)})

    title = game.info.title.en
    for paper in opts.papers:
        pages = impose(lib, r, paper, opts)
        info = SheetInfo(title, paper, "fold" if opts.fold else opts.duplex)
        data = write_sheets(pages, r.faces, info, lib.presets.sheet, font)
        put(
            f"sheets-{paper}-{opts.mode}.pdf",
            data,
            {
                "kind": "sheets",
                "paper": paper,
                "mode": opts.mode,
                "lang": opts.lang,
                "pages": [page_entry(p) for p in pages],
            },
        )
        if opts.duplex != "off" and not opts.fold:
            cal = write_calibration(lib.paper(paper), paper, opts.duplex, opts.offset, font, title)
            put(
                f"calibration-{paper}.pdf",
                cal,
                {"kind": "calibration", "paper": paper, "mode": opts.mode},
            )
        progress(f"{game.id}: {paper} sheets", 1)
    copies = [item for group in items_of(lib, r) for item in group]
    card_pages: list[tuple[str, Face]] = []
    page_items: list[dict[str, Any]] = []
    for item in copies:
        for side, key in (("front", item.front), ("back", item.back)):
            if key is None:
                continue
            card_pages.append((f"{item.piece_id}-{item.copy}-{side}", r.faces[key]))
            face = r.faces[key]
            page_items.append(
                {
                    "number": len(card_pages),
                    "size_mm": [
                        round(face.width + 2 * face.bleed, 3),
                        round(face.height + 2 * face.bleed, 3),
                    ],
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
    put(
        "cards.pdf",
        write_card_pdf(card_pages, title, font),
        {"kind": "card-pdf", "lang": opts.lang, "pages": page_items},
    )
    progress(f"{game.id}: card pages", 1)
    if opts.png:
        # Faces drawn alike (a deck's backs) are rendered once and written for every copy.
        users: dict[str, list[tuple[Item, str, str]]] = {}
        for item in copies:
            for side, key in (("front", item.front), ("back", item.back)):
                if key is not None:
                    users.setdefault(face_form_name(r.faces[key]), []).append((item, side, key))
        distinct = [r.faces[group[0][2]] for group in users.values()]
        by_key = {face.key: face_form_name(face) for face in distinct}
        for key, data in render_pngs(distinct, opts.dpi, opts.jobs):
            progress(f"{game.id}: PNG", 1)
            for item, side, _face in users[by_key[key]]:
                folder = "png" if side == "front" else "png/backs"
                put(
                    f"{folder}/{item.piece_id}-{item.copy}{'' if side == 'front' else '-back'}.png",
                    data,
                    {
                        "kind": "card-image",
                        "component": item.piece_id,
                        "copy": item.copy,
                        "face": side,
                        "dpi": opts.dpi,
                        "bleed_mm": r.faces[key].bleed,
                        "lang": opts.lang,
                    },
                )
    out.warnings.extend(r.warnings)
    if r.rulebook is not None:
        out.warnings.extend(r.rulebook.stale_report())
    if out.warnings and opts.strict:
        raise ErrorList([PrintgenError(w) for w in out.warnings])
    if r.rulebook is not None:
        books = rulebooks() if rulebooks else make_rulebooks(lib, r.rulebook)
        for edition, data in books.items():
            if edition.startswith("aid-"):  # the player aid: A5 halves of A4 sheets
                lang = edition.removeprefix("aid-")
                put(
                    f"player-aid-{lang}.pdf",
                    data,
                    {"kind": "player-aid", "lang": lang, "paper": "a4"},
                )
                continue
            put(
                f"rulebook-{edition}.pdf",
                data,
                {
                    "kind": "rulebook",
                    "edition": edition,
                    "paper": r.rulebook.book.paper if edition != "ja-en" else "a4",
                },
            )
        progress(f"{game.id}: rulebooks", 1)
    manifest = {
        "game": game.id,
        "inputs_sha256": inputs,
        "title": {"ja": game.info.title.ja, "en": game.info.title.en},
        "rule_version": game.info.rule_version,
        "components": [
            {
                "id": piece.id,
                "kind": piece.kind,
                "count": piece.count,
                "size_mm": [round(v, 3) for v in piece_size(lib, piece)],
                "name": {"ja": piece.component.name.ja, "en": piece.component.name.en},
                "deck": piece.deck.id if piece.deck else None,
                "source": piece.component.source,
            }
            for piece in game.pieces
        ],
        "files": sorted(out.files, key=lambda f: str(f["path"])),
    }
    data = (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    (staging / "manifest.json").write_bytes(data)
    return out


def work_units(r: Rendered, opts: BuildOptions) -> int:
    pngs = len({k for k in r.faces}) if opts.png else 0
    return len(opts.papers) + 1 + pngs + (1 if r.rulebook else 0)


def swap_in(staging: Path, final: Path) -> None:
    """Replace `final` with `staging` in two renames; the old folder is removed after."""
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    if final.exists():
        final.rename(old)
    staging.rename(final)
    if old.exists():
        shutil.rmtree(old)


def inputs_fingerprint(project: Project, game: Game, opts: BuildOptions) -> str:
    """Everything a game's output depends on: its data, the layouts and fonts, the code,
    the libraries' versions and the options. Equal fingerprints mean equal outputs."""
    from importlib.metadata import version

    import printgen
    import rules_engine

    digest = hashlib.sha256()
    folders = [
        game.folder,
        project.layouts,
        Path(printgen.__file__).parent,
        Path(rules_engine.__file__).parent,
    ]
    for folder in folders:
        for path in sorted(
            p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    libraries = (
        "reportlab",
        "pillow",
        "weasyprint",
        "pydyf",
        "jinja2",
        "markdown-it-py",
        "pyyaml",
        "pydantic",
    )
    digest.update(repr([version(name) for name in libraries]).encode())
    settings = {k: v for k, v in dataclasses.asdict(opts).items() if k != "jobs"}
    digest.update(repr(sorted(settings.items())).encode())
    return digest.hexdigest()


def up_to_date(folder: Path, fingerprint: str) -> bool:
    """The folder holds a complete build made from exactly these inputs."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if manifest.get("inputs_sha256") != fingerprint:
        return False
    return all((folder / str(f["path"])).is_file() for f in manifest.get("files", []))


def _pdf_job(html: str, layouts: Path, title: str, pictures: Path) -> bytes:
    """In a worker process: one rulebook edition, HTML to PDF."""
    return render_pdf(html, layouts, title, pictures)


def build(
    project: Project,
    names: list[str],
    out_root: Path,
    opts: BuildOptions,
    progress: Progress | None = None,
    on_rendered: Callable[[list[Rendered]], None] | None = None,
    force: bool = False,
) -> list[GameOutput]:
    """Build the named games into `out_root/<game>/`; games whose inputs did not change
    since the last build are left as they are (unless `force`)."""
    report: Progress = progress or (lambda _step, _n: None)
    lib, games = load_all(project, names)
    prints = {g.id: inputs_fingerprint(project, g, opts) for g in games}
    results: list[GameOutput] = []
    todo = []
    for game in games:
        if not force and up_to_date(out_root / game.id, prints[game.id]):
            results.append(GameOutput(game.id, out_root / game.id, up_to_date=True))
        else:
            todo.append(game)
    rendered = render_all(lib, todo, opts.lang, opts.rulebooks)
    if on_rendered:
        on_rendered(rendered)
    if opts.strict:  # warnings are errors: say so before the slow rulebook work
        warned = [
            w
            for r in rendered
            for w in r.warnings + (r.rulebook.stale_report() if r.rulebook else [])
        ]
        if warned:
            raise ErrorList([PrintgenError(w) for w in warned])
    out_root.mkdir(parents=True, exist_ok=True)
    stagings: list[tuple[Path, Path]] = []
    books = [r for r in rendered if r.rulebook is not None]
    # One job per edition, the largest (side by side) first, spread over the worker processes
    # while this process draws the sheets.
    pool = ProcessPoolExecutor(max_workers=opts.jobs) if books and opts.jobs > 1 else None
    pictures = Path(tempfile.mkdtemp(prefix=".pictures-", dir=out_root))
    try:
        futures = {}
        if pool:
            # Examples are checked and the HTML assembled here; the worker processes turn
            # it into PDF (the slow part) while this process goes on to draw the sheets.
            for r in books:
                assert r.rulebook is not None
                pages = rulebook_html(lib, r.rulebook, pictures=pictures)
                for edition in sorted(pages, key=lambda e: e != "ja-en"):
                    title = f"{r.game.id} ({edition})"
                    futures[(r.game.id, edition)] = pool.submit(
                        _pdf_job, pages[edition], lib.root, title, pictures
                    )

        def collect(game_id: str) -> Callable[[], dict[str, bytes]] | None:
            if not pool:
                return None
            return lambda: {
                e: futures[(game_id, e)].result()
                for e in EDITIONS + AIDS
                if (game_id, e) in futures
            }

        for r in rendered:
            staging = Path(tempfile.mkdtemp(prefix=f".{r.game.id}.tmp-", dir=out_root))
            stagings.append((staging, out_root / r.game.id))
            results.append(
                write_game(lib, r, opts, staging, report, collect(r.game.id), prints[r.game.id])
            )
    except BaseException:
        for staging, _final in stagings:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
        shutil.rmtree(pictures, ignore_errors=True)
    built = [r for r in results if not r.up_to_date]
    for (staging, final), result in zip(stagings, built, strict=True):
        swap_in(staging, final)
        result.folder = final
    order = {name: i for i, name in enumerate(names or [g.id for g in games])}
    return sorted(results, key=lambda r: order.get(r.game, 0))
