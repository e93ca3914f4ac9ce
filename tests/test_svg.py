"""SVG icons and art per game: vectors in the PDF, the same picture in the PNGs, a game's
icons shadowing shared ones, art chosen by a card's value, low-DPI raster art warned
about, and SVG files that reach outside themselves refused."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter
from pypdf import PdfReader

from printgen.build import BuildOptions, GameOutput, Project, build
from printgen.errors import ErrorList, PrintgenError
from printgen.layouts import load_library
from printgen.svg import MAX_SVG_BYTES, load_svg

ROOT = Path(__file__).resolve().parent.parent
GAME = "submarine-attack"
INK = (0x22, 0x22, 0x22)  # base/card's `ink`, the colour of the dice text
GREEN = (0x00, 0xA0, 0x00)

DICE = (  # a die in currentColor with two holes (even-odd): takes the text's colour
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="currentColor" '
    'fill-rule="evenodd" d="M4 2h16a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4a2 2 0 0 '
    '1 2-2zM8 6a2 2 0 1 0 0.01 0zM16 16a2 2 0 1 0 0.01 0z"/></svg>\n'
)
TORPEDO = (  # its own colours
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect x="2" y="5" width="30" '
    'height="10" rx="5" fill="#00a000"/><circle cx="34" cy="10" r="5" fill="#ff8800" '
    'stroke="#000000" stroke-width="1"/></svg>\n'
)
ART = (  # a clipped ellipse and a half-transparent triangle
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">'
    '<defs><clipPath id="c"><rect x="0" y="0" width="50" height="50"/></clipPath></defs>'
    '<g clip-path="url(#c)"><ellipse cx="50" cy="25" rx="45" ry="20" fill="#3060c0"/></g>'
    '<polygon points="60,5 95,25 60,45" fill="#c03030" fill-opacity="0.5"/></svg>\n'
)
STAR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>\n'
ART_ELEMENT = (
    '  - id: art\n    type: image\n    image: "art/{{ values.action }}.{ext}"\n'
    "    box: [5mm, 3mm, 53mm, 12mm]\n"
)


def make_project(root: Path, art_ext: str = "svg") -> Path:
    """Submarine Attack in a project of its own, with SVG icons (the game's `dice` and
    `torpedo` shadow the shared icons.yaml ones) and art on every torpedo card chosen by
    its `action` value (art/torpedo.<ext>)."""
    shutil.copytree(ROOT / "components" / GAME, root / "components" / GAME)
    shutil.copytree(ROOT / "layouts", root / "layouts")
    icons = root / "layouts" / GAME / "icons"
    icons.mkdir()
    (icons / "dice.svg").write_text(DICE, encoding="utf-8")
    (icons / "torpedo.svg").write_text(TORPEDO, encoding="utf-8")
    (root / "layouts" / "icons").mkdir()
    (root / "layouts" / "icons" / "star.svg").write_text(STAR, encoding="utf-8")
    art = root / "components" / GAME / "art"
    art.mkdir()
    (art / "torpedo.svg").write_text(ART, encoding="utf-8")
    layout = root / "layouts" / GAME / "torpedo.yaml"
    text = layout.read_text(encoding="utf-8")
    assert "  - id: dice\n" in text
    element = ART_ELEMENT.replace("{ext}", art_ext)
    layout.write_text(text.replace("  - id: dice\n", element + "  - id: dice\n", 1), "utf-8")
    return root


def run(root: Path, out: Path, **options: Any) -> list[GameOutput]:
    opts = BuildOptions(**{"papers": ("a4",), "rulebooks": False, "jobs": 1, **options})
    return build(Project(root), [GAME], out, opts)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("svg"))
    run(root, root / "out")
    return root


def torpedo_page(reader: PdfReader) -> int:
    for i, page in enumerate(reader.pages):
        if "Torpedo A" in (page.extract_text() or ""):
            return i
    raise AssertionError("no page shows Torpedo A")


def xobjects(resources: Any) -> list[Any]:
    """Every XObject a page draws, forms' own ones included."""
    found = []
    xo = resources.get("/XObject") if resources else None
    for ref in (xo.get_object() if xo else {}).values():
        obj = ref.get_object()
        found.append(obj)
        if obj.get("/Subtype") == "/Form":
            found.extend(xobjects(obj.get("/Resources")))
    return found


def test_pdf_draws_svg_icons_and_art_as_vectors(built: Path) -> None:
    reader = PdfReader(built / "out" / GAME / "cards.pdf")
    page = reader.pages[torpedo_page(reader)]
    objects = xobjects(page["/Resources"])
    assert objects and not [o for o in objects if o.get("/Subtype") == "/Image"]
    drawn = b"".join(o.get_data() for o in objects if o.get("/Subtype") == "/Form")
    assert b"0 .627451 0 rg" in drawn  # the torpedo's own green (#00a000), as a fill colour
    assert b" c\n" in drawn or b" c " in drawn  # Bézier curves: the paths themselves
    # the art's fill-opacity is a graphics state the form has among its resources
    forms = [o for o in objects if o.get("/Subtype") == "/Form"]
    assert any("/ExtGState" in o["/Resources"] for o in forms)


def ink_square(image: Image.Image, box: tuple[int, int, int, int], rgb: tuple[int, ...]) -> bool:
    """Some 21 x 21 px square in `box` is all of colour `rgb` (text strokes are thinner)."""
    region = image.convert("RGB").crop(box)
    r, g, b = ImageChops.difference(region, Image.new("RGB", region.size, rgb)).split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v <= 8 else 0)
    return mask.filter(ImageFilter.MinFilter(21)).getbbox() is not None


def px(mm: float) -> int:
    return round((mm + 3) * 300 / 25.4)  # 3 mm bleed, 300 DPI


def test_png_shows_the_svg_icons_and_art(built: Path) -> None:
    with Image.open(built / "out" / GAME / "png" / "torpedo-a-red.png") as image:
        rgb = image.convert("RGB")
        # the torpedo element (box 28, 18, 28 x 18 mm): the SVG's green body, fitted
        assert rgb.getpixel((px(39.9), px(27))) == GREEN
        # inline :dice: in the dice text takes the text's colour (currentColor)
        assert ink_square(rgb, (px(5), px(39), px(58), px(48)), INK)
        # the art (box 5, 3, 53 x 12 mm): the clipped blue ellipse, the translucent red
        blue = rgb.getpixel((px(27), px(9)))
        assert blue == (0x30, 0x60, 0xC0)
        # the art is 24 x 12 mm from x = 19.5 mm; the triangle at x 36.3 mm (60 + 10 units)
        r, g, b = rgb.getpixel((px(36.3), px(9)))
        assert abs(r - 224) <= 3 and abs(g - 152) <= 3 and abs(b - 152) <= 3  # 50% on white


def test_the_shared_icon_is_drawn_where_the_game_has_none(built: Path) -> None:
    lib = load_library(built / "layouts")
    ours, theirs = lib.icons_for(GAME), lib.icons_for("squares2")
    assert isinstance(ours["dice"], Path) and ours["dice"].parent.name == "icons"
    assert isinstance(theirs["dice"], list)  # icons.yaml's: no game icon shadows it
    assert isinstance(theirs["star"], Path)  # layouts/icons/star.svg shadows icons.yaml's
    assert theirs["star"] == ours["star"] == built / "layouts" / "icons" / "star.svg"
    # without the game's dice.svg the torpedo card draws icons.yaml's die (white inside)
    (built / "layouts" / GAME / "icons" / "torpedo.svg").rename(built / "torpedo.svg.away")
    try:
        lib = load_library(built / "layouts")
        assert isinstance(lib.icons_for(GAME)["torpedo"], list)
    finally:
        (built / "torpedo.svg.away").rename(built / "layouts" / GAME / "icons" / "torpedo.svg")


def test_building_twice_gives_the_same_bytes(built: Path, tmp_path: Path) -> None:
    run(built, tmp_path / "again")
    first, second = built / "out" / GAME, tmp_path / "again" / GAME
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.suffix in (".pdf", ".png"))
    assert len(files) > 25  # 3 PDFs and one PNG per distinct face
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_png_art_under_300_dpi_is_a_warning_and_strict_an_error(tmp_path: Path) -> None:
    root = make_project(tmp_path, art_ext="png")
    # 53 x 12 mm at 100 DPI: 209 x 47 pixels
    buf = io.BytesIO()
    Image.new("RGB", (209, 47), (200, 40, 40)).save(buf, "PNG")
    (root / "components" / GAME / "art" / "torpedo.png").write_bytes(buf.getvalue())
    results = run(root, root / "out", png=False)
    warnings = [w for r in results for w in r.warnings if "DPI" in w]
    assert len(warnings) == 1, warnings
    assert re.search(
        r"torpedo\.yaml:\d+:\d+: image art/torpedo\.png prints at (99|100) DPI, under 300 "
        r"\(component torpedo-\S+ \(copy 1|copies 1-\d\) and 7 more\)",
        warnings[0],
    ), warnings[0]
    with pytest.raises(ErrorList) as caught:
        run(root, root / "out2", png=False, strict=True)
    assert any(re.search("prints at (99|100) DPI", str(e)) for e in caught.value.errors)


EVIL = {
    "external entity": (
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><desc>&secret;</desc>'
        "</svg>\n",
        "declares a DTD or entities",
    ),
    "use of a file outside": (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'viewBox="0 0 10 10"><use xlink:href="../../../../secret.svg#a"/></svg>\n',
        "may refer only to its own parts",
    ),
    "linked image": (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<image href="file:///etc/hostname" width="10" height="10"/></svg>\n',
        "raster image",
    ),
    "css url": (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect width="10" height="10" style="fill: url(http://example.com/x.svg#p)"/></svg>\n',
        "may refer only to its own parts",
    ),
    "text": (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>A</text></svg>\n',
        "convert the text to paths",
    ),
    "gradient": (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient '
        'id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>'
        '</linearGradient></defs><rect width="10" height="10" fill="url(#g)"/></svg>\n',
        "gradient",
    ),
    "huge": (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        + "<!--"
        + "x" * MAX_SVG_BYTES
        + "-->"
        + "</svg>\n",
        "more than 5 MB",
    ),
}


@pytest.mark.parametrize("case", sorted(EVIL))
def test_an_unsafe_svg_is_a_clear_error(tmp_path: Path, case: str) -> None:
    content, expected = EVIL[case]
    path = tmp_path / "evil.svg"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PrintgenError) as caught:
        load_svg(path, None)
    assert expected in str(caught.value), str(caught.value)
    assert "root:" not in str(caught.value)  # the content of no other file


def test_an_unsafe_svg_icon_stops_the_build_naming_file_and_layout_line(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    content, _expected = EVIL["use of a file outside"]
    (root / "layouts" / GAME / "icons" / "torpedo.svg").write_text(content, encoding="utf-8")
    with pytest.raises((PrintgenError, ErrorList)) as caught:
        run(root, root / "out", png=False)
    message = str(caught.value)
    assert re.search(r"torpedo\.yaml:\d+:\d+: SVG \S*torpedo\.svg: <use> refers to", message), (
        message
    )


def test_an_svg_icon_name_text_cannot_use_is_an_error(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    (tmp_path / "layouts" / GAME / "icons").mkdir()
    (tmp_path / "layouts" / GAME / "icons" / "Big_Star.svg").write_text(STAR, encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_library(tmp_path / "layouts")
    assert "icon file Big_Star.svg: name SVG icons with lower-case letters" in str(caught.value)
