"""Home printing, checked from the PDFs themselves: --fold never fails, no blank backs page,
crop marks outside every piece's printed bleed, and a calibration page whose labels never
overlap. Geometry is read from the sheets' content streams (clip boxes of the placed
faces, stroked segments) and text positions, not from printgen's own numbers."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printgen.build import BuildOptions, Project, build, impose, load_all, render_all

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny-game"
GAMES = ["kill-shot", "squares2", "submarine-attack", "subzero", "susumuka-modoruka"]
MM = 72 / 25.4
TOL = 0.05  # mm

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
Segment = tuple[float, float, float, float]


@dataclass
class Drawn:
    """What a page draws at page level: the clip box of every placed face (its printed
    trim plus bleed) and every stroked straight segment, in mm."""

    boxes: list[Rect] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    forms: int = 0


def _mul(m: list[float], n: list[float]) -> list[float]:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    ]


def _apply(m: list[float], x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4]) / MM, (m[1] * x + m[3] * y + m[5]) / MM


def drawn(reader: PdfReader, index: int) -> Drawn:
    page = reader.pages[index]
    out = Drawn()
    ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    stack: list[list[float]] = []
    rect: Rect | None = None
    clip = False
    path: list[Segment] = []
    last: tuple[float, float] | None = None
    in_text = False
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        args = [float(v) for v in operands] if op not in (b"Do", b"Tj", b"TJ", b"Tf", b"d") else []
        if op == b"BT":
            in_text = True
        elif op == b"ET":
            in_text = False
        elif in_text:
            continue
        elif op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(args, ctm)
        elif op == b"re":
            x, y, w, h = args
            (x0, y0), (x1, y1) = _apply(ctm, x, y), _apply(ctm, x + w, y + h)
            rect = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        elif op in (b"W", b"W*"):
            clip = True
        elif op == b"n":
            if clip and rect is not None:
                out.boxes.append(rect)
            clip, rect, path, last = False, None, [], None
        elif op == b"m":
            last = _apply(ctm, *args)
        elif op == b"l" and last is not None:
            end = _apply(ctm, *args)
            path.append((*last, *end))
            last = end
        elif op in (b"S", b"s"):
            out.segments.extend(path)
            path, last, rect = [], None, None
        elif op in (b"f", b"f*", b"B", b"B*", b"b", b"b*"):
            path, last, rect = [], None, None
        elif op == b"Do":
            out.forms += 1
    return out


def enters(seg: Segment, box: Rect) -> bool:
    """Does the segment pass through the box's interior (more than TOL inside)?"""
    x1, y1, x2, y2 = seg
    lo_x, hi_x = min(x1, x2), max(x1, x2)
    lo_y, hi_y = min(y1, y2), max(y1, y2)
    return (
        lo_x < box[2] - TOL and hi_x > box[0] + TOL and lo_y < box[3] - TOL and hi_y > box[1] + TOL
    )


def page_texts(reader: PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


def sheets_files(folder: Path) -> list[dict[str, Any]]:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [f for f in manifest["files"] if f["kind"] == "sheets"]


@pytest.fixture(scope="module")
def fold_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fold")
    opts = BuildOptions(papers=("a4", "letter"), fold=True, png=False, rulebooks=False, jobs=1)
    build(Project(ROOT), GAMES, out, opts)
    return out


@pytest.fixture(scope="module")
def duplex_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("duplex")
    opts = BuildOptions(papers=("a4", "letter"), png=False, rulebooks=False, jobs=1)
    build(Project(ROOT), GAMES, out, opts)
    return out


PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.mark.parametrize("game", GAMES)
def test_fold_builds_on_a4_and_letter_with_each_back_beside_its_front(
    fold_out: Path, game: str
) -> None:
    files = sheets_files(fold_out / game)
    assert sorted(f["paper"] for f in files) == ["a4", "letter"]
    for entry in files:
        reader = PdfReader(fold_out / game / entry["path"])
        assert len(reader.pages) == len(entry["pages"])
        paper = PAPERS_MM[entry["paper"]]
        for index, info in enumerate(entry["pages"]):
            page = reader.pages[index]
            size = sorted((float(page.mediabox.width) / MM, float(page.mediabox.height) / MM))
            assert abs(size[0] - min(paper)) < 0.1 and abs(size[1] - max(paper)) < 0.1
            if info["role"] != "fold":
                continue
            found = drawn(reader, index)
            assert found.forms == len(info["items"])  # every face is drawn
            fronts = {
                (i["component"], i["copy"]): i["trim_mm"]
                for i in info["items"]
                if i["face"] == "front"
            }
            for item in (i for i in info["items"] if i["face"] == "back"):
                fx, fy, fw, fh = fronts[(item["component"], item["copy"])]
                bx, by, _bw, bh = item["trim_mm"]
                # Side by side or one above the other, sharing the fold edge.
                assert (abs(bx - (fx + fw)) < 0.01 and abs(by - fy) < 0.01) or (
                    abs(by + bh - fy) < 0.01 and abs(bx - fx) < 0.01
                )
                # The printed boxes (from the PDF) meet at the fold: the fold is a trim line.
                front_box = next(
                    b
                    for b in found.boxes
                    if b[0] - TOL <= fx
                    and fx + fw <= b[2] + TOL
                    and b[1] - TOL <= fy
                    and fy + fh <= b[3] + TOL
                )
                assert abs(front_box[2] - (fx + fw)) < TOL or abs(front_box[1] - fy) < TOL


@pytest.mark.parametrize("paper", ["a3", "b4"])
def test_fold_imposes_every_game_on_a3_and_b4(paper: str) -> None:
    lib, games = load_all(Project(ROOT), GAMES)
    for rendered in render_all(lib, games, "en"):
        pages = impose(lib, rendered, paper, BuildOptions(papers=(paper,), fold=True))
        copies = sum(piece.count for piece in rendered.game.pieces)
        placed = {(p.piece_id, p.copy) for page in pages for p in page.placements}
        assert len(placed) == copies, rendered.game.id


@pytest.mark.parametrize("mode", ["duplex", "fold"])
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_lie_outside_every_printed_bleed(
    duplex_out: Path, fold_out: Path, game: str, mode: str
) -> None:
    folder = (duplex_out if mode == "duplex" else fold_out) / game
    for entry in sheets_files(folder):
        reader = PdfReader(folder / entry["path"])
        for index, info in enumerate(entry["pages"]):
            if info["role"] not in ("fronts", "single", "fold"):
                continue
            found = drawn(reader, index)
            assert len(found.boxes) == len(info["items"])
            for item in info["items"]:
                x, y, w, h = item["trim_mm"]
                # Each face's printed box (from the PDF) holds its trim (from the manifest).
                assert any(
                    b[0] - TOL <= x
                    and x + w <= b[2] + TOL
                    and b[1] - TOL <= y
                    and y + h <= b[3] + TOL
                    for b in found.boxes
                ), (game, entry["path"], index + 1, item)
            width = float(reader.pages[index].mediabox.width) / MM
            height = float(reader.pages[index].mediabox.height) / MM
            marks = [
                s
                for s in found.segments
                if (abs(s[0] - s[2]) < 1e-3 or abs(s[1] - s[3]) < 1e-3)
                and min(s[0], s[2]) >= 5 - TOL
                and max(s[0], s[2]) <= width - 5 + TOL
                and min(s[1], s[3]) >= 5 - TOL
                and max(s[1], s[3]) <= height - 5 + TOL
            ]
            for seg in found.segments:
                for box in found.boxes:
                    assert not enters(seg, box), (game, entry["path"], index + 1, seg, box)
            # Every trim edge line still gets a mark, in line with it.
            for item in info["items"]:
                x, y, w, h = item["trim_mm"]
                for vx in (x, x + w):
                    vertical = [m for m in marks if abs(m[0] - vx) < 0.01 and abs(m[2] - vx) < 0.01]
                    assert vertical or info["role"] == "fold", (game, index + 1, vx)
                for hy in (y, y + h):
                    horizontal = [
                        m for m in marks if abs(m[1] - hy) < 0.01 and abs(m[3] - hy) < 0.01
                    ]
                    assert horizontal or info["role"] == "fold", (game, index + 1, hy)


def tiny_project(tmp_path: Path) -> Project:
    """The made-up game, with many single-sided pieces and two double-sided mats: one whose
    front-and-back pair fits A4 only turned, one too big to fold at all."""
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(FIXTURE / "layouts" / "tiny-game", tmp_path / "layouts" / "tiny-game")
    shutil.copytree(FIXTURE / "components", tmp_path / "components")
    pieces = tmp_path / "components" / "tiny-game" / "pieces.yaml"
    text = pieces.read_text(encoding="utf-8").replace("    count: 12\n", "    count: 80\n")
    text += """  - id: plain-card
    kind: card
    name: {ja: 白いカード, en: Plain card}
    layout: tiny-game/mini-card
    deck: stars
    back: none
    count: 30
    values: {points: 1}
  - id: banner
    kind: mat
    name: {ja: 旗, en: Banner}
    layout: tiny-game/sheet
    back: tiny-game/sheet
    size: [100mm, 150mm]
  - id: poster
    kind: mat
    name: {ja: ポスター, en: Poster}
    layout: tiny-game/sheet
    back: tiny-game/sheet
    size: [150mm, 200mm]
"""
    pieces.write_text(text, encoding="utf-8")
    (tmp_path / "layouts" / "tiny-game" / "sheet.yaml").write_text(
        "bleed: 3mm\nfonts: {regular: gothic}\nelements:\n"
        "  - {type: rect, box: bleed, fill: '#c8d8f0'}\n"
        "  - {type: text, box: trim, text: '{{ name.en }}', size: 20pt, align: center, valign: middle}\n",
        encoding="utf-8",
    )
    return Project(tmp_path)


def test_single_sided_pieces_leave_no_blank_backs_page(tmp_path: Path) -> None:
    opts = BuildOptions(papers=("a4",), png=False, rulebooks=False, jobs=1)
    (result,) = build(tiny_project(tmp_path), ["tiny-game"], tmp_path / "out", opts)
    (entry,) = sheets_files(result.folder)
    reader = PdfReader(result.folder / entry["path"])
    texts = page_texts(reader)
    roles = [p["role"] for p in entry["pages"]]
    # Only duplex parity keeps a blank: the reverse of the one checklist page.
    blanks = [i for i, t in enumerate(texts) if "intentionally blank" in t]
    assert blanks == [1] and roles[:2] == ["checklist", "blank"]
    assert drawn(reader, 1).forms == 0
    # Every other page but the checklist prints pieces (read from the PDF).
    for index in range(2, len(reader.pages)):
        assert drawn(reader, index).forms > 0, (index + 1, roles[index])
    # Double-sided pages first, fronts on odd pages and each backs page right after its
    # fronts; then the single-sided pages, with no reverse page at all.
    last_backs = max(i for i, r in enumerate(roles) if r == "backs")
    assert all(r in ("fronts", "backs") for r in roles[2 : last_backs + 1])
    for i in range(2, last_backs + 1, 2):
        assert (roles[i], roles[i + 1]) == ("fronts", "backs") and (i + 1) % 2 == 1
        assert drawn(reader, i + 1).forms > 0
    rest = roles[last_backs + 1 :]
    assert rest and all(r in ("single", "tile") for r in rest)
    assert all("single-sided" in texts[i] for i in range(last_backs + 1, len(roles)))
    # 30 plain cards, 80 coins and the map's tiles did that; the checklist says how to print.
    assert sum(1 for r in rest if r == "single") >= 3
    checklist = texts[0].replace("\n", " ")
    assert f"Print pages 1–{last_backs + 1} double-sided" in checklist
    assert f"Pages {last_backs + 2}–{len(roles)}" in checklist
    # Single-sided cards fill the room left on the last double-sided page of their size.
    star_page = next(
        p for p in entry["pages"] if any(i["component"] == "star-card" for i in p["items"])
    )
    assert any(i["component"] == "plain-card" for i in star_page["items"])


def test_fold_turns_a_pair_that_fits_only_turned_and_prints_a_too_big_one_on_facing_pages(
    tmp_path: Path,
) -> None:
    opts = BuildOptions(papers=("a4", "letter"), fold=True, png=False, rulebooks=False, jobs=1)
    (result,) = build(tiny_project(tmp_path), ["tiny-game"], tmp_path / "out", opts)
    for entry in sheets_files(result.folder):
        reader = PdfReader(result.folder / entry["path"])
        pages = entry["pages"]
        texts = page_texts(reader)
        # The banner's pair (200 x 150 mm) fits A4 only on a landscape page (Letter either way).
        (banner,) = [
            i for i, p in enumerate(pages) if any(it["component"] == "banner" for it in p["items"])
        ]
        page = reader.pages[banner]
        assert entry["paper"] == "letter" or float(page.mediabox.width) > float(
            page.mediabox.height
        )
        assert pages[banner]["role"] == "fold" and len(pages[banner]["items"]) == 2
        # The poster (150 x 200 mm) folds no way round: fronts, then backs on the next page,
        # mirrored so the two pages glued back to back put each back behind its front.
        where = [
            i for i, p in enumerate(pages) if any(it["component"] == "poster" for it in p["items"])
        ]
        assert len(where) == 2 and where[1] == where[0] + 1
        assert [pages[i]["role"] for i in where] == ["fronts", "backs"]
        front_box = drawn(reader, where[0]).boxes
        back_box = drawn(reader, where[1]).boxes
        assert len(front_box) == len(back_box) == 1
        width = float(reader.pages[where[0]].mediabox.width) / MM
        f, b = front_box[0], back_box[0]
        assert abs(b[0] - (width - f[2])) < TOL and abs(b[2] - (width - f[0])) < TOL
        assert abs(b[1] - f[1]) < TOL and abs(b[3] - f[3]) < TOL
        assert "glue the next page behind" in texts[where[0]]
        assert "glue behind the previous page" in texts[where[1]]
        checklist = texts[0].replace("\n", " ")
        assert "Too big to fold" in checklist and "Poster (pages" in checklist
        assert "intentionally blank" not in "".join(texts)


def _labels(reader: PdfReader, index: int) -> list[tuple[str, Rect]]:
    """Every text run on a page with a generous box (mm): 1 em for CJK characters and
    0.62 em for others, 0.2 em below the baseline to 0.9 em above."""
    found: list[tuple[str, Rect]] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, size: float) -> None:
        text = text.strip("\n")
        if not text.strip():
            return
        m = _mul(tm, cm)
        x, y = m[4] / MM, m[5] / MM
        scale = size * (m[0] ** 2 + m[1] ** 2) ** 0.5 / MM
        width = sum(1.0 if ord(ch) > 0x2E80 else 0.62 for ch in text) * scale
        found.append((text.strip(), (x, y - 0.2 * scale, x + width, y + 0.9 * scale)))

    reader.pages[index].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_page_has_five_targets_with_zero_directions_and_no_overlap(
    duplex_out: Path, paper: str
) -> None:
    reader = PdfReader(duplex_out / "submarine-attack" / f"calibration-{paper}.pdf")
    width, height = (float(v) / MM for v in reader.pages[0].mediabox.upper_right)
    labels = _labels(reader, 0)
    texts = [t for t, _box in labels]
    assert texts.count("0") == 5
    for direction in ("+X", "−X", "+Y", "−Y", "+10", "-10", "+20", "-20"):
        assert texts.count(direction) >= 5, direction
    for i, (text_a, a) in enumerate(labels):
        assert a[0] >= 5 and a[1] >= 5 and a[2] <= width - 5 and a[3] <= height - 5, text_a
        for text_b, b in labels[i + 1 :]:
            overlap = a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
            assert not overlap, (text_a, a, text_b, b)

    # Targets: 40 mm rulers crossing at each zero, in the four corners and the centre.
    def centres(index: int) -> list[tuple[float, float]]:
        segs = drawn(reader, index).segments
        across = [s for s in segs if abs(s[1] - s[3]) < 1e-3 and abs(abs(s[2] - s[0]) - 40) < 0.01]
        return sorted((round((s[0] + s[2]) / 2, 2), round(s[1], 2)) for s in across)

    front = centres(0)
    assert len(front) == 5
    xs = sorted({x for x, _y in front})
    ys = sorted({y for _x, y in front})
    assert len(xs) == 3 and len(ys) == 3
    assert abs(xs[1] - width / 2) < TOL and abs(ys[1] - height / 2) < TOL
    assert (
        xs[0] < width / 4
        and xs[2] > 3 * width / 4
        and ys[0] < height / 4
        and ys[2] > 3 * height / 4
    )
    # The back's crosses land behind the front's zeros once the sheet turns on its long edge.
    back = centres(1)
    assert back == sorted((round(width - x, 2), y) for x, y in front)
