"""Layouts that scale: lengths in % of the card (boxes) or of the element's box (points,
step, radius); one layout made for several sizes; a component's size is its layout's unless
it states one the layout is made for."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from printgen.build import BuildOptions, Project, build, load_all
from printgen.errors import PrintgenError
from printgen.ops import Polygon, Rect
from printgen.render import faces_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny-game"

SCALED = """\
size: poker
sizes: [mini]
elements:
  - id: frame
    type: rect
    box: [5%, 5%, 90%, 90%]
    stroke: "#333333"
    radius: 10%
  - id: mark
    type: polygon
    box: [10%, -20%, 20%, 10%]
    points: [[0, 0], [100%, 0], [50%, 100%]]
    fill: "#aa3333"
  - id: pips
    type: ellipse
    box: [10%, 40%, 10%, 7%]
    repeat: 3
    step: [150%, 0]
    fill: "#333333"
"""

CARDS = """\
components:
  - id: big
    kind: card
    name: {ja: 大, en: Big}
    layout: tiny-game/scaled
    count: 1
  - id: small
    kind: card
    name: {ja: 小, en: Small}
    layout: tiny-game/scaled
    size: mini
    count: 1
"""


def project(tmp_path: Path, layout: str = SCALED, cards: str = CARDS) -> Project:
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    shutil.copytree(FIXTURE / "layouts" / "tiny-game", tmp_path / "layouts" / "tiny-game")
    shutil.copytree(FIXTURE / "components", tmp_path / "components")
    (tmp_path / "layouts" / "tiny-game" / "scaled.yaml").write_text(layout, encoding="utf-8")
    (tmp_path / "components" / "tiny-game" / "scaled.yaml").write_text(cards, encoding="utf-8")
    return Project(tmp_path)


def test_one_layout_in_percent_fits_two_card_sizes(tmp_path: Path) -> None:
    lib, [game] = load_all(project(tmp_path), ["tiny-game"])
    faces = faces_of(game, lib, "en")
    for piece, (w, h) in (("big", (63.0, 88.0)), ("small", (44.0, 63.0))):
        face = faces[f"{piece}.front.en"]
        assert (face.width, face.height) == (w, h)
        frame = next(op for op in face.ops if isinstance(op, Rect) and op.stroke == "#333333")
        assert frame.x == pytest.approx(0.05 * w) and frame.y == pytest.approx(0.05 * h)
        assert frame.w == pytest.approx(0.9 * w) and frame.h == pytest.approx(0.9 * h)
        assert frame.radius == pytest.approx(0.1 * min(0.9 * w, 0.9 * h))
        # a negative y counts from the bottom edge; points are % of the element's box
        [mark] = [op for op in face.ops if isinstance(op, Polygon) and op.fill == "#aa3333"]
        top = h + (-0.2 * h) - 0.1 * h
        assert mark.points[0] == pytest.approx((0.1 * w, top))
        assert mark.points[1] == pytest.approx((0.1 * w + 0.2 * w, top))
        assert mark.points[2] == pytest.approx((0.1 * w + 0.1 * w, top + 0.1 * h))
    # the cards build, each at its own size
    [result] = build(
        project(tmp_path / "b"), ["tiny-game"], tmp_path / "out", BuildOptions(papers=("a4",))
    )
    sizes = {c["id"]: c["size_mm"] for c in result.manifest["components"]}
    assert sizes["big"] == [63.0, 88.0] and sizes["small"] == [44.0, 63.0]


def test_a_repeat_steps_in_percent_of_its_box(tmp_path: Path) -> None:
    lib, [game] = load_all(project(tmp_path), ["tiny-game"])
    face = faces_of(game, lib, "en")["small.front.en"]
    pips = [op for op in face.ops if type(op).__name__ == "Ellipse" and op.fill == "#333333"]
    assert [round(p.x, 3) for p in pips] == [round(4.4 + i * 1.5 * 4.4, 3) for i in range(3)]


@pytest.mark.parametrize(
    ("layout", "cards", "message"),
    [
        (
            SCALED,
            CARDS.replace("size: mini", "size: tarot"),
            r"scaled\.yaml:\d+:\d+: component small is 70 x 120 mm but its layout "
            r"tiny-game/scaled is made for 63 x 88 mm, 44 x 63 mm",
        ),
        (
            SCALED.replace("sizes: [mini]\n", ""),
            CARDS,
            r"component small is 44 x 63 mm but its layout tiny-game/scaled is made for "
            r"63 x 88 mm \(at .*scaled\.yaml:1:7\)",
        ),
        (
            SCALED.replace("    radius: 10%", "    stroke_width: 2%"),
            CARDS,
            r"scaled\.yaml:\d+:\d+: .*stroke_width must be a length such as 3mm, 0\.25in or "
            r"12pt, got '2%': a share in % is allowed only in a box, points, step and radius",
        ),
    ],
)
def test_sizes_and_shares_that_do_not_fit_are_errors(
    tmp_path: Path, layout: str, cards: str, message: str
) -> None:
    lib, [game] = load_all(project(tmp_path, layout, cards), ["tiny-game"])
    with pytest.raises(PrintgenError) as err:
        faces_of(game, lib, "en")
    assert re.search(message, str(err.value)), str(err.value)
