"""Print-shop presets (--vendor): every size, box, colour and ink claim measured from the
files themselves (Pillow for PNGs, pikepdf for PDFs, Ghostscript to rasterise CMYK)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PIL import Image
from tests_support import run_printgen

from printgen.build import BuildOptions, Project, build
from printgen.units import PT_PER_MM
from printgen.vendors import finish_pdfx, limit_cmyk, load_vendor, slot_for, to_cmyk_pdfx

# One process builds Submarine Attack for the print shops, once for every test here
# (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("vendors")
ROOT = Path(__file__).resolve().parent.parent
GS = shutil.which("gs")
NEEDS_GS = pytest.mark.skipif(
    GS is None,
    reason="CMYK and PDF/X need Ghostscript (Debian: apt-get install ghostscript; .ci/run "
    "installs it)",
)
IN = 72.0  # points per inch
GAME = "submarine-attack"


@pytest.fixture(scope="module")
def vendor_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """submarine-attack with The Game Crafter, DriveThruCards and pdf-x (when gs is here)."""
    out = tmp_path_factory.mktemp("vendors")
    vendors = ("thegamecrafter", "drivethrucards", "pdf-x") if GS else ("thegamecrafter",)
    opts = BuildOptions(papers=("a4",), png=False, rulebooks=False, jobs=1, vendors=vendors)
    build(Project(ROOT), [GAME], out, opts)
    return out / GAME


def manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return data


def test_tgc_one_png_per_face_at_their_pixel_size(vendor_build: Path) -> None:
    m = manifest(vendor_build)
    record = m["vendors"]["thegamecrafter"]
    assert record["ok"], record["errors"]
    cards = [c for c in m["components"] if c["kind"] == "card"]
    # every card face (front, and back when it has one), nothing else; mats fit no product
    expected = {f"thegamecrafter/{c['id']}-front.png" for c in cards}
    card_pdf = next(f for f in m["files"] if f["kind"] == "card-pdf")
    backs = {i["component"] for p in card_pdf["pages"] for i in p["items"] if i["face"] == "back"}
    expected |= {f"thegamecrafter/{c['id']}-back.png" for c in cards if c["id"] in backs}
    pngs = {
        str(p.relative_to(vendor_build)) for p in (vendor_build / "thegamecrafter").glob("*.png")
    }
    assert pngs == expected
    assert sorted(record["skipped"]) == sorted(
        c["id"] for c in m["components"] if c["kind"] == "mat"
    )
    for rel in pngs:
        with Image.open(vendor_build / rel) as image:
            assert image.size == (825, 1125), rel
            assert image.mode == "RGB"
    entries = {f["path"]: f for f in m["files"] if f["kind"] == "vendor-image"}
    assert {e["copies"] for e in entries.values()} <= {c["count"] for c in cards}


def test_tgc_bleed_is_drawn_not_white(vendor_build: Path) -> None:
    """The outermost pixels are the card's background (its bleed), not paper white."""
    with Image.open(vendor_build / "thegamecrafter" / "torpedo-a-red-front.png") as image:
        rgb = image.convert("RGB")
        edge = [rgb.getpixel((x, 0)) for x in range(0, 825, 50)]
        edge += [rgb.getpixel((0, y)) for y in range(0, 1125, 50)]
    assert all(pixel != (255, 255, 255) for pixel in edge)


def pdfs(folder: Path, vendor: str) -> list[Path]:
    found = sorted((folder / vendor).glob("*.pdf"))
    assert found, f"no PDF in {vendor}/"
    return found


def box(page: Any, name: str) -> list[float]:
    return [float(v) for v in page.obj[name]]


@NEEDS_GS
@pytest.mark.parametrize("vendor", ["drivethrucards", "pdf-x"])
def test_pdfx_intent_and_boxes_on_every_page(vendor_build: Path, vendor: str) -> None:
    """DriveThruCards: their 2.5 x 3.5 in poker card with 1/8 in bleed; pdf-x: each
    component at its own size with 3 mm bleed. Measured from every page of every file."""
    m = manifest(vendor_build)
    sizes = {c["id"]: c["size_mm"] for c in m["components"]}
    entries = [f for f in m["files"] if f["kind"] == "vendor-pdf" and f["vendor"] == vendor]
    assert {vendor_build / e["path"] for e in entries} == set(pdfs(vendor_build, vendor))
    for entry in entries:
        if vendor == "drivethrucards":
            trim_pt, bleed_pt = (2.5 * IN, 3.5 * IN), 0.125 * IN
        else:
            w, h = sizes[entry["components"][0]]
            trim_pt, bleed_pt = (w * PT_PER_MM, h * PT_PER_MM), 3 * PT_PER_MM
        with pikepdf.open(vendor_build / entry["path"]) as pdf:
            intents = pdf.Root.OutputIntents
            assert len(intents) == 1
            assert intents[0].S == pikepdf.Name.GTS_PDFX
            profile = intents[0].DestOutputProfile
            assert int(profile.N) == 4 and len(profile.read_bytes()) > 1000
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
            assert pdf.docinfo["/Trapped"] == pikepdf.Name.False_
            assert len(pdf.pages) == entry["pages"]
            for page in pdf.pages:
                trim, bleed = box(page, "/TrimBox"), box(page, "/BleedBox")
                assert trim[2] - trim[0] == pytest.approx(trim_pt[0], abs=0.05)
                assert trim[3] - trim[1] == pytest.approx(trim_pt[1], abs=0.05)
                assert trim[0] - bleed[0] == pytest.approx(bleed_pt, abs=0.05)
                assert trim[1] - bleed[1] == pytest.approx(bleed_pt, abs=0.05)
                assert bleed[2] - trim[2] == pytest.approx(bleed_pt, abs=0.05)
                assert bleed[3] - trim[3] == pytest.approx(bleed_pt, abs=0.05)
                assert box(page, "/MediaBox") == bleed


RGB_OPERATORS = {"rg", "RG"}


def colour_problems(pdf: Any) -> list[str]:
    """RGB colour operators, 3-component colours and RGB images in any content stream."""
    problems: list[str] = []
    seen: set[tuple[int, int]] = set()

    def space_is_rgb(space: Any) -> bool:
        if space is None:
            return False
        if isinstance(space, pikepdf.Name):
            return space in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB)
        kind = space[0]
        if kind == pikepdf.Name.ICCBased:
            return int(space[1].N) == 3
        if kind == pikepdf.Name.Indexed:
            return space_is_rgb(space[1])
        return kind in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB)

    def walk(holder: Any, where: str) -> None:
        for instruction in pikepdf.parse_content_stream(holder):
            if not isinstance(instruction, pikepdf.ContentStreamInstruction):
                continue
            op = str(instruction.operator)
            if op in RGB_OPERATORS or (
                op in {"sc", "SC", "scn", "SCN"} and len(instruction.operands) == 3
            ):
                problems.append(f"{where}: {op}")
        resources = holder.get("/Resources")
        if resources is None:
            return
        for space in (resources.get("/ColorSpace") or {}).values():
            if space_is_rgb(space):
                problems.append(f"{where}: colour space {space}")
        for name, xobject in (resources.get("/XObject") or {}).items():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.Subtype == pikepdf.Name.Image:
                if space_is_rgb(xobject.get("/ColorSpace")):
                    problems.append(f"{where}: image {name} is RGB")
            else:
                walk(xobject, f"{where} {name}")

    for number, page in enumerate(pdf.pages, 1):
        walk(page.obj, f"page {number}")
    return problems


@NEEDS_GS
@pytest.mark.parametrize("vendor", ["drivethrucards", "pdf-x"])
def test_no_rgb_left(vendor_build: Path, vendor: str) -> None:
    for path in pdfs(vendor_build, vendor):
        with pikepdf.open(path) as pdf:
            assert colour_problems(pdf) == [], path.name


@NEEDS_GS
@pytest.mark.parametrize(("vendor", "limit"), [("drivethrucards", 240), ("pdf-x", 300)])
def test_total_ink_within_the_vendors_limit(
    vendor_build: Path, vendor: str, limit: int, tmp_path: Path
) -> None:
    """Rasterised to CMYK by Ghostscript: no pixel's C+M+Y+K is over the limit."""
    assert GS is not None
    path = max(pdfs(vendor_build, vendor), key=lambda p: len(pikepdf.open(p).pages))
    subprocess.run(
        [
            GS,
            *("-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r40"),
            *("-dFirstPage=1", "-dLastPage=6", f"-sOutputFile={tmp_path}/p%d.tif", str(path)),
        ],
        check=True,
    )
    pages = sorted(tmp_path.glob("p*.tif"))
    assert len(pages) == 6
    worst = 0.0
    inked = 0
    for page in pages:
        with Image.open(page) as image:
            assert image.mode == "CMYK"
            for c, m, y, k in image.get_flattened_data():
                total = (c + m + y + k) / 255 * 100
                worst = max(worst, total)
                inked += total > 100
    assert inked > 0  # the sample has dark colours to hold back
    assert worst <= limit + 1.5  # 8-bit rounding


@NEEDS_GS
def test_drivethrucards_deck_order_is_back_then_front(vendor_build: Path) -> None:
    m = manifest(vendor_build)
    entries = [
        f for f in m["files"] if f["kind"] == "vendor-pdf" and f["vendor"] == "drivethrucards"
    ]
    counts = {c["id"]: c["count"] for c in m["components"]}
    assert sum(e["pages"] for e in entries) == 2 * sum(
        counts[c] for e in entries for c in e["components"]
    )
    for entry in entries:
        assert entry["page_order"] == "back-front"
        with pikepdf.open(vendor_build / entry["path"]) as pdf:
            assert len(pdf.pages) == entry["pages"]

            # every back page draws the same thing (the deck's back); fronts differ from it
            def drawn(n: int) -> bytes:
                instructions = pikepdf.parse_content_stream(pdf.pages[n])
                return bytes(pikepdf.unparse_content_stream(instructions))

            backs = {drawn(n) for n in range(0, len(pdf.pages), 2)}
            assert len(backs) == 1
            assert drawn(1) not in backs


@NEEDS_GS
def test_cmyk_files_are_reproducible(tmp_path: Path) -> None:
    """The same input makes the same bytes (no dates, no random ids)."""
    vendor = load_vendor(ROOT / "layouts", "drivethrucards")
    slot = slot_for(vendor, 63, 88)
    assert slot is not None and slot.product == "poker"
    from printgen.build import load_all, render_all
    from printgen.vendors import rgb_deck_pdf

    lib, games = load_all(Project(ROOT), [GAME])
    faces = render_all(lib, games, "both")[0].faces
    pages = [f for k, f in sorted(faces.items()) if k.startswith("torpedo-a-red")]
    rgb = rgb_deck_pdf(pages, slot, "t", lib)
    assert to_cmyk_pdfx(rgb, vendor, slot, "t") == to_cmyk_pdfx(rgb, vendor, slot, "t")


def test_limit_cmyk_holds_total_ink_and_keeps_black() -> None:
    assert limit_cmyk(0.75, 0.68, 0.67, 0.9, 2.4) == pytest.approx(
        (0.75 * 1.5 / 2.1, 0.68 * 1.5 / 2.1, 0.67 * 1.5 / 2.1, 0.9)
    )
    assert sum(limit_cmyk(1, 1, 1, 1, 2.4)) == pytest.approx(2.4)
    assert limit_cmyk(0.2, 0.1, 0, 0.5, 2.4) == (0.2, 0.1, 0, 0.5)
    assert finish_pdfx  # used by to_cmyk_pdfx


def test_slots_match_sizes_and_turn_with_the_piece() -> None:
    tgc = load_vendor(ROOT / "layouts", "thegamecrafter")
    poker = slot_for(tgc, 63, 88)
    assert poker is not None and poker.pixels == (825, 1125)
    assert poker.trim == pytest.approx((63.5, 88.9))
    landscape = slot_for(tgc, 88, 63)
    assert landscape is not None and landscape.pixels == (1125, 825)
    assert slot_for(tgc, 394, 280) is None  # a mat: no card product
    generic = load_vendor(ROOT / "layouts", "pdf-x")
    own = slot_for(generic, 394, 280)
    assert own is not None and own.trim == (394, 280) and own.scale == 1


printgen_cli = run_printgen


def test_unknown_vendor_is_named(project_copy: Path) -> None:
    done = printgen_cli(project_copy, "build", GAME, "--vendor", "kinkos")
    assert done.returncode == 1
    assert "unknown vendor 'kinkos'" in done.stderr
    assert "thegamecrafter" in done.stderr and "Traceback" not in done.stderr


def test_preflight_error_stops_that_vendor_only(project_copy: Path) -> None:
    """A layout without bleed: The Game Crafter's files are not made, with the layout's
    file and line; the rest of the build is made."""
    card = project_copy / "layouts" / "base" / "card.yaml"
    text = card.read_text(encoding="utf-8")
    assert "bleed: 3mm\n" in text
    card.write_text(text.replace("bleed: 3mm\n", "bleed: 0mm\n", 1), encoding="utf-8")
    line = text.splitlines().index("bleed: 3mm") + 1
    done = printgen_cli(
        project_copy,
        "build",
        GAME,
        "--no-png",
        "--no-rulebook",
        "--paper",
        "a4",
        "--vendor",
        "thegamecrafter",
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "thegamecrafter: preflight failed" in done.stderr
    assert f"card.yaml:{line}" in done.stderr
    assert "Traceback" not in done.stderr
    folder = project_copy / "out" / GAME
    assert (folder / "cards.pdf").is_file()
    assert not list((folder / "thegamecrafter").glob("*.png"))
    report = (folder / "thegamecrafter" / "preflight.txt").read_text(encoding="utf-8")
    assert "error:" in report and "torpedo-a-red" in report
