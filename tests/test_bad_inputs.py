"""Bad inputs, one at a time: every one is answered with one clear error line.

Each case copies the project's data, breaks one thing (a template, a file outside the
project, a bomb, geometry that cannot be printed, a rulebook or worked example, an
operating-system error or a command-line argument) and runs `printgen` as a user does.
It must exit with status 1 (2 for usage errors), print no traceback and exactly one
`error: ` line naming the file and line (or the argument), leave `out/` as it was, and
finish within 5 seconds.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
GAME = "submarine-attack"
BUILD = ("build", GAME, "--paper", "a4", "--no-png", "--no-rulebook")
VALIDATE = ("validate", GAME)
SECONDS = 15.0  # wall time a bad input may take, start-up included (a bomb that expands
# would take minutes; the margin is for a busy machine, not a speed aim)
HANG = 60.0  # a run still going after this long is stopped (and fails)

# The files the cases break (relative to the project folder).
CARDS = f"components/{GAME}/cards.yaml"
GAME_YAML = f"components/{GAME}/game.yaml"
BOOK = f"components/{GAME}/rulebook/book.yaml"
OVERVIEW = f"components/{GAME}/rulebook/overview.yaml"
TORPEDOES = f"components/{GAME}/rulebook/torpedoes.yaml"
GAME_END = f"components/{GAME}/rulebook/game-end.yaml"
TIPS = f"components/{GAME}/rulebook/tips.yaml"
MAKING = f"components/{GAME}/rulebook/making-the-cards.yaml"
EXAMPLE_01 = f"components/{GAME}/examples/01-pair-sinks-its-column.yaml"
EXAMPLE_07 = f"components/{GAME}/examples/07-seed-round-won-by-sinkings.yaml"
EXAMPLE_10 = f"components/{GAME}/examples/10-five-of-a-kind-reading.yaml"
BASE_CARD = "layouts/base/card.yaml"
BASE_BACK = "layouts/base/back.yaml"
TORPEDO = f"layouts/{GAME}/torpedo.yaml"
TRANSPORT = f"layouts/{GAME}/transport.yaml"
EVASION = f"layouts/{GAME}/evasion.yaml"
BACK = f"layouts/{GAME}/back.yaml"
MAT = f"layouts/{GAME}/mat.yaml"
FONTS = "layouts/fonts.yaml"
ICONS = "layouts/icons.yaml"
PRESETS = "layouts/presets.yaml"

# What a message says, loosely (the wording is still being polished).
SANDBOX = r"(?i:refus|not allowed|unsafe|may not|forbidden|insecure|unknown name|undefined)"
BOUNDED = r"(?i:too |more|at most|limit|large|long|slow|memory|deep|exceed|big|huge|width)"
OUTSIDE = r"(?i:outside|absolute)"
TAG = r"(?i:tag)"
SYNTAX = r"(?i:syntax)"
SIZE = r"(?i:size|side|zero|positive|negative)"


def at(path: str, *keys: str) -> str:
    """A message line naming `path` (the end of a project path) with a line number,
    and matching each regex of `keys`, anywhere in the line."""
    where = rf"(?<![\w.-]){re.escape(path)}:\d+"
    return "".join(f"(?=.*{key})" for key in (where, *keys))


def arg(name: str) -> str:
    """A message line naming a command-line argument."""
    return f"(?=.*{re.escape(name)}(?![\\w-]))"


def did_you_mean(name: str) -> str:
    return rf"(?i:did you mean)\W+{re.escape(name)}\b"


# ---------------------------------------------------------------------------------------
# Mutations: each changes the project copy at `root`; `root.parent / "elsewhere"` is a
# folder outside the project.

Mutation = Callable[[Path], None]


def elsewhere(root: Path) -> Path:
    folder = root.parent / "elsewhere"
    folder.mkdir(exist_ok=True)
    return folder


def edit(rel: str, old: str, new: str) -> Mutation:
    """Replace the first `old` in a file by `new` (the old text must be there)."""

    def apply(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"mutation does not apply: {old!r} is not in {rel}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return apply


def append(rel: str, extra: str) -> Mutation:
    def apply(root: Path) -> None:
        path = root / rel
        assert path.is_file(), f"mutation does not apply: no {rel}"
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")

    return apply


def put(rel: str, data: Callable[[], bytes]) -> Mutation:
    """Write a (new) file inside the project."""

    def apply(root: Path) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data())

    return apply


def put_outside(name: str, data: Callable[[], bytes]) -> Mutation:
    def apply(root: Path) -> None:
        (elsewhere(root) / name).write_bytes(data())

    return apply


def copy_outside(rel: str, name: str) -> Mutation:
    """A copy of a project file outside the project."""

    def apply(root: Path) -> None:
        assert (root / rel).is_file(), f"mutation does not apply: no {rel}"
        shutil.copyfile(root / rel, elsewhere(root) / name)

    return apply


def move_outside(rel: str) -> Mutation:
    """Move a project file out of the project and leave a symbolic link to it in its place."""

    def apply(root: Path) -> None:
        path = root / rel
        assert path.is_file(), f"mutation does not apply: no {rel}"
        target = elsewhere(root) / path.name
        shutil.move(path, target)
        path.symlink_to(target)

    return apply


def link_outside(rel: str, name: str) -> Mutation:
    """A symbolic link inside the project to the file `name` outside it."""

    def apply(root: Path) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(elsewhere(root) / name)

    return apply


def read_only_out(root: Path) -> None:
    out = root / "out"
    assert out.is_dir(), "mutation does not apply: no out/"
    out.chmod(0o500)


def image_element(name: str) -> Mutation:
    """An image element on the Submarine Attack back (every card's back) naming `name`."""
    return edit(
        BACK,
        "  - id: fleet\n",
        f'  - id: logo\n    type: image\n    image: "{name}"\n    box: [20mm, 40mm, 20mm, 20mm]\n'
        "  - id: fleet\n",
    )


# ---------------------------------------------------------------------------------------
# File contents.


def text(value: str) -> Callable[[], bytes]:
    return lambda: value.encode()


def image(fmt: str, size: tuple[int, int] = (8, 8), mode: str = "RGB") -> Callable[[], bytes]:
    def make() -> bytes:
        out = io.BytesIO()
        Image.new(mode, size, 0).save(out, fmt)
        return out.getvalue()

    return make


def truncated_png() -> bytes:
    noise = random.Random(0).randbytes(96 * 96 * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (96, 96), noise).save(out, "PNG")
    data = out.getvalue()
    return data[: len(data) * 2 // 3]


def png_claiming(width: int, height: int) -> Callable[[], bytes]:
    """A small PNG whose header says it is `width` x `height` pixels (CRC fixed)."""

    def make() -> bytes:
        data = image("PNG", (1, 1))()
        assert data[12:16] == b"IHDR"
        header = struct.pack(">II", width, height) + data[24:29]
        crc = struct.pack(">I", zlib.crc32(b"IHDR" + header))
        return data[:16] + header + crc + data[33:]

    return make


def alias_bomb() -> str:
    """Billion laughs: 9 levels of lists of 10 aliases (10**9 values once expanded)."""
    lines = ["bomb:", "  - &a0 [" + ", ".join(["lol"] * 10) + "]"]
    lines += [f"  - &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


def padding(mib: int) -> str:
    line = "# " + "padding " * 12 + "\n"
    return line * (mib * 2**20 // len(line) + 1)


DICE_TEXT = (
    '    box: [5mm, 39mm, 53mm, 9mm]\n    text: ":dice: × {{ values.dice }}"\n'
    "    font: bold\n    size: 14pt\n    min_size: 8pt\n    align: center\n"
)


def dice_text_box(box: str) -> str:
    """The torpedo's dice line right-aligned in `box` (its right edge is x + width)."""
    return DICE_TEXT.replace("[5mm, 39mm, 53mm, 9mm]", box).replace("center", "right")


MACRO_BOMB = (
    "{% macro d(s, n) %}{% if n %}{{ d(s ~ s, n - 1) }}{% else %}{{ s }}{% endif %}"
    "{% endmacro %}{{ d('x', 64) }}"
)
NESTED_LOOPS = "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}"


# ---------------------------------------------------------------------------------------
# The cases.


@dataclass(frozen=True)
class Case:
    id: str
    command: tuple[str, ...]
    pattern: str
    mutations: tuple[Mutation, ...] = ()
    status: int = 1
    not_as_root: bool = False  # chmod does not stop root


def case(
    name: str,
    command: tuple[str, ...],
    pattern: str,
    *mutations: Mutation,
    status: int = 1,
    not_as_root: bool = False,
) -> Case:
    return Case(name, command, pattern, mutations, status, not_as_root)


TEMPLATES = [
    # Sandbox escapes, in every kind of template.
    case(
        "template/mro-in-layout-text",
        BUILD,
        at("torpedo.yaml", SANDBOX),
        edit(TORPEDO, 'text: "{{ values.grade }}"', "text: \"{{ ''.__class__.__mro__ }}\""),
    ),
    case(
        "template/cycler-globals-in-layout-fill",
        VALIDATE,
        at("base/card.yaml", SANDBOX),
        edit(
            BASE_CARD,
            "fill: \"{{ deck.colour if deck else '#555555' }}\"",
            'fill: "{{ cycler.__init__.__globals__ }}"',
        ),
    ),
    case(
        "template/joiner-popen-in-layout-when",
        VALIDATE,
        at("transport.yaml", SANDBOX),
        edit(
            TRANSPORT,
            "  - id: number-label\n    type: text\n",
            "  - id: number-label\n    type: text\n"
            "    when: \"{{ joiner.__init__.__globals__.os.popen('id').read() }}\"\n",
        ),
    ),
    case(
        "template/subclasses-in-layout-each",
        VALIDATE,
        at("evasion.yaml", SANDBOX),
        edit(
            EVASION,
            "  - id: note\n",
            "  - id: probe\n    type: text\n    box: [6mm, 70mm, 51mm, 8mm]\n"
            "    each: \"''.__class__.__base__.__subclasses__()\"\n"
            '    text: "{{ item }}"\n  - id: note\n',
        ),
    ),
    case(
        "template/namespace-globals-in-component-text",
        VALIDATE,
        at("cards.yaml", SANDBOX),
        edit(
            CARDS,
            'en: "The torpedo revealed against this card rolls {{ values.cancel_dice }} fewer',
            'en: "{{ namespace.__init__.__globals__ }} The torpedo revealed against this card '
            "rolls {{ values.cancel_dice }} fewer",
        ),
    ),
    case(
        "template/lipsum-globals-in-layout-strings",
        VALIDATE,
        at("transport.yaml", SANDBOX),
        edit(
            TRANSPORT, '"Scores {{ values.ships }}', '"{{ lipsum.__globals__ }} {{ values.ships }}'
        ),
    ),
    case(
        "template/template-reference-context-in-rulebook-section",
        VALIDATE,
        at("overview.yaml", SANDBOX),
        edit(
            OVERVIEW,
            "reveal the {{ rules.actions_placed }} attacks",
            "reveal the {{ self._TemplateReference__context }} attacks",
        ),
    ),
    case(
        "template/attr-class-in-option-text",
        VALIDATE,
        at("game.yaml", SANDBOX),
        edit(
            GAME_YAML,
            "{{ rules.round_end_ships }} ships.",
            "{{ ''|attr('__class__') }} ships.",
        ),
    ),
    case(
        "template/list-append-in-layout-text",
        BUILD,
        at(f"{GAME}/back.yaml", SANDBOX),
        edit(BACK, "{{ deck.name.ja }} · ", "{{ [].append(1) }}{{ deck.name.ja }} · "),
    ),
    case(
        "template/values-update-in-layout-text",
        VALIDATE,
        at("torpedo.yaml", SANDBOX),
        edit(
            TORPEDO,
            'text: ":dice: × {{ values.dice }}"',
            "text: \":dice: × {{ values.update({'dice': 99}) }}{{ values.dice }}\"",
        ),
    ),
    case(
        "template/str-format-attribute-in-rulebook-section",
        VALIDATE,
        at("torpedoes.yaml", SANDBOX),
        edit(
            TORPEDOES,
            "When you play a torpedo,",
            "{{ '{0.__class__.__mro__}'.format(1) }} When you play a torpedo,",
        ),
    ),
    case(
        "template/mro-in-rulebook-caption",
        VALIDATE,
        at("book.yaml", SANDBOX),
        edit(
            BOOK,
            'en: "Transport columns on top, action slots below."',
            "en: \"{{ ''.__class__.__mro__ }}\"",
        ),
    ),
    # Work without end.
    case(
        "template/repeat-text-1e9-in-layout-text",
        BUILD,
        at("transport.yaml", BOUNDED),
        edit(TRANSPORT, 'text: "{{ values.ships }}"', "text: \"{{ 'x' * 10**9 }}\""),
    ),
    case(
        "template/power-2-to-1e8-in-component-text",
        VALIDATE,
        at("cards.yaml", BOUNDED),
        edit(
            CARDS, 'ja: "同時に出た相手の魚雷は', 'ja: "{{ 2 ** (10 ** 8) }}同時に出た相手の魚雷は'
        ),
    ),
    case(
        "template/center-1e9-in-layout-strings",
        VALIDATE,
        at("evasion.yaml", BOUNDED),
        edit(EVASION, "en: No attack this slot", "en: \"{{ 'x'|center(10**9) }}\""),
    ),
    case(
        "template/percent-format-width-in-rulebook-section",
        VALIDATE,
        at("game-end.yaml", BOUNDED),
        edit(GAME_END, "Keep playing rounds.", "{{ '%999999999d' % 1 }} Keep playing rounds."),
    ),
    case(
        "template/nested-range-loops-in-layout-text",
        BUILD,
        at("base/back.yaml", BOUNDED),
        edit(
            BASE_BACK,
            'text: "{{ game.title.ja }}\\n',
            f'text: "{NESTED_LOOPS}{{{{ game.title.ja }}}}\\n',
        ),
    ),
    case(
        "template/recursive-macro-doubling-in-rulebook-section",
        VALIDATE,
        at("tips.yaml", BOUNDED),
        edit(TIPS, "- A transport with a big ship number", f"- {MACRO_BOMB} A transport"),
    ),
    # Undefined values: the message suggests the right name.
    case(
        "template/undefined-value-dcie-in-layout-text",
        VALIDATE,
        at("torpedo.yaml", did_you_mean("dice")),
        edit(TORPEDO, ":dice: × {{ values.dice }}", ":dice: × {{ values.dcie }}"),
    ),
    case(
        "template/undefined-name-valeus-in-layout-strings",
        VALIDATE,
        at("torpedo.yaml", did_you_mean("values")),
        edit(TORPEDO, '"Roll {{ values.dice }} dice.', '"Roll {{ valeus.dice }} dice.'),
    ),
    case(
        "template/undefined-value-in-component-text",
        VALIDATE,
        at("cards.yaml", did_you_mean("cancel_dice")),
        edit(
            CARDS,
            "rolls {{ values.cancel_dice }} fewer dice.",
            "rolls {{ values.cancel_dcie }} fewer dice.",
        ),
    ),
    case(
        "template/undefined-value-in-rulebook-section",
        VALIDATE,
        at("torpedoes.yaml", did_you_mean("dice")),
        edit(TORPEDOES, "B {{ values('torpedo-b').dice }}", "B {{ values('torpedo-b').dcie }}"),
    ),
    # Template syntax errors.
    case(
        "template/syntax-error-in-layout-text",
        BUILD,
        at("torpedo.yaml", SYNTAX),
        edit(TORPEDO, 'text: "{{ values.grade }}"', 'text: "{{ values.grade "'),
    ),
    case(
        "template/syntax-error-in-component-text",
        VALIDATE,
        at("cards.yaml", SYNTAX),
        edit(CARDS, "{{ values.cancel_dice }}個", "{{ values.cancel_dice }個"),
    ),
    case(
        "template/syntax-error-in-rulebook-section",
        VALIDATE,
        at("overview.yaml", SYNTAX),
        edit(
            OVERVIEW,
            "has {{ rules.target_points }} or more",
            "has {% if rules.target_points %} or more",
        ),
    ),
    case(
        "template/syntax-error-in-option-text",
        VALIDATE,
        at("game.yaml", SYNTAX),
        edit(GAME_YAML, "{{ rules.round_end_ships }}隻以上", "{{ rules.round_end_ships }隻以上"),
    ),
]

FILES = [
    # Paths that lead outside the project.
    case(
        "files/image-path-climbs-out",
        BUILD,
        at(f"{GAME}/back.yaml", OUTSIDE),
        image_element("../../../../../../../../../../etc/passwd"),
    ),
    case(
        "files/image-absolute-path",
        VALIDATE,
        at(f"{GAME}/back.yaml", OUTSIDE),
        image_element("/etc/hostname"),
    ),
    case(
        "files/image-symlink-to-outside",
        VALIDATE,
        at(f"{GAME}/back.yaml", OUTSIDE),
        put_outside("logo.png", image("PNG")),
        link_outside(f"components/{GAME}/art/logo.png", "logo.png"),
        image_element("art/logo.png"),
    ),
    case(
        "files/font-file-climbs-out",
        VALIDATE,
        at("fonts.yaml", OUTSIDE),
        copy_outside("layouts/fonts/BIZUDPGothic-Regular.ttf", "gothic.ttf"),
        edit(FONTS, "file: fonts/BIZUDPGothic-Regular.ttf", "file: ../../elsewhere/gothic.ttf"),
    ),
    case(
        "files/font-licence-absolute-path",
        VALIDATE,
        at("fonts.yaml", OUTSIDE),
        edit(FONTS, "licence: fonts/OFL-BIZUDPMincho.txt", "licence: /etc/hostname"),
    ),
    case(
        "files/font-file-symlink-to-outside",
        BUILD,
        at("fonts.yaml", OUTSIDE),
        move_outside("layouts/fonts/BIZUDPGothic-Bold.ttf"),
    ),
    case(
        "files/component-file-symlink-to-outside",
        VALIDATE,
        at("extra.yaml", OUTSIDE),
        put(f"components/{GAME}/extra.yaml", text("components: []\n")),
        move_outside(f"components/{GAME}/extra.yaml"),
    ),
    case(
        "files/game-file-symlink-to-outside",
        BUILD,
        at("game.yaml", OUTSIDE),
        move_outside(GAME_YAML),
    ),
    case(
        "files/layout-file-symlink-to-outside",
        VALIDATE,
        at("torpedo.yaml", OUTSIDE),
        move_outside(TORPEDO),
    ),
    case(
        "files/rulebook-section-symlink-to-outside",
        VALIDATE,
        at("tips.yaml", OUTSIDE),
        move_outside(TIPS),
    ),
    case(
        "files/example-symlink-to-outside",
        VALIDATE,
        at("01-pair-sinks-its-column.yaml", OUTSIDE),
        move_outside(EXAMPLE_01),
    ),
    # Images that are not what they claim, or too large.
    case(
        "files/image-text-file-named-png",
        VALIDATE,
        at(f"{GAME}/back.yaml", r"logo\.png"),
        put(f"components/{GAME}/art/logo.png", text("this is not a picture\n")),
        image_element("art/logo.png"),
    ),
    case(
        "files/image-truncated-png",
        BUILD,
        at(f"{GAME}/back.yaml", r"logo\.png"),
        put(f"components/{GAME}/art/logo.png", truncated_png),
        image_element("art/logo.png"),
    ),
    case(
        "files/image-decompression-bomb-30000x30000",
        BUILD,
        at(f"{GAME}/back.yaml", r"logo\.png"),
        put(f"components/{GAME}/art/logo.png", png_claiming(30000, 30000)),
        image_element("art/logo.png"),
    ),
    case(
        "files/image-absurd-dimensions-30000x1",
        VALIDATE,
        at(f"{GAME}/back.yaml", r"logo\.png"),
        put(f"components/{GAME}/art/logo.png", image("PNG", (30000, 1), "L")),
        image_element("art/logo.png"),
    ),
    case(
        "files/image-gif",
        VALIDATE,
        at(f"{GAME}/back.yaml", r"logo\.gif"),
        put(f"components/{GAME}/art/logo.gif", image("GIF")),
        image_element("art/logo.gif"),
    ),
    case(
        "files/image-bmp",
        VALIDATE,
        at(f"{GAME}/back.yaml", r"logo\.bmp"),
        put(f"components/{GAME}/art/logo.bmp", image("BMP")),
        image_element("art/logo.bmp"),
    ),
]

BOUNDED_WORK = [
    case(
        "bounded/yaml-alias-bomb-in-component-file",
        BUILD,
        at("cards.yaml", BOUNDED),
        append(CARDS, alias_bomb()),
    ),
    case(
        "bounded/yaml-nested-100-levels-in-game-file",
        VALIDATE,
        at("game.yaml", BOUNDED),
        edit(GAME_YAML, "\nrules:\n", "\nrules:\n  deep: " + "[" * 100 + "]" * 100 + "\n"),
    ),
    case(
        "bounded/yaml-file-over-8-mib-layout",
        VALIDATE,
        at("torpedo.yaml", r"(?i:mib|mb|large|size|bytes)"),
        append(TORPEDO, padding(9)),
    ),
    case(
        "bounded/integer-of-5000-digits-in-component-file",
        VALIDATE,
        at("cards.yaml"),
        edit(CARDS, "grade: S, dice: 7}", "grade: S, dice: 7" + "0" * 4999 + "}"),
    ),
    case(
        "bounded/integer-of-5000-digits-in-icons",
        VALIDATE,
        at("icons.yaml"),
        edit(ICONS, "radius: 0.16,", "radius: 1" + "0" * 4999 + ","),
    ),
    case(
        "bounded/huge-count",
        BUILD,
        at("cards.yaml", r"(?i:count)"),
        edit(
            CARDS,
            "    count: 3\n    values: {ships: 1}",
            "    count: 10000000\n    values: {ships: 1}",
        ),
    ),
    case(
        "bounded/huge-repeat",
        BUILD,
        at("mat.yaml", r"(?i:repeat|instances)"),
        edit(MAT, "repeat: [4, 2]", "repeat: [100000, 100000]"),
    ),
    case(
        "bounded/huge-repeat-from-component-values",
        BUILD,
        r"(?=.*(?<![\w.-])(transport|cards)\.yaml:\d+)(?=.*(?i:repeat|instances))",
        edit(CARDS, "values: {ships: 5}", "values: {ships: 5000000}"),
    ),
    case(
        "bounded/too-many-pieces",
        VALIDATE,
        at("cards.yaml", r"(?i:pieces)"),
        edit(
            CARDS, "    count: 3\n    values: {ships: 1}", "    count: 1000\n    values: {ships: 1}"
        ),
        edit(
            CARDS, "    count: 2\n    values: {ships: 2}", "    count: 1000\n    values: {ships: 2}"
        ),
        edit(CARDS, "    count: 3\n    values: {action", "    count: 1000\n    values: {action"),
    ),
    # YAML tags.
    case(
        "bounded/yaml-python-object-tag-in-game-file",
        BUILD,
        at("game.yaml", TAG),
        edit(
            GAME_YAML,
            "play_time_min: 20",
            'play_time_min: !!python/object/apply:os.system ["echo pwned"]',
        ),
    ),
    case(
        "bounded/yaml-python-name-tag-in-layout",
        VALIDATE,
        at("base/card.yaml", TAG),
        edit(BASE_CARD, "radius: 2mm", "radius: !!python/name:os.system ''"),
    ),
    case(
        "bounded/yaml-custom-tag-on-scalar",
        VALIDATE,
        at("cards.yaml", TAG),
        edit(
            CARDS,
            "    count: 3\n    values: {ships: 1}",
            "    count: !custom 3\n    values: {ships: 1}",
        ),
    ),
    case(
        "bounded/yaml-set-tag-on-mapping-in-presets",
        BUILD,
        at("presets.yaml", TAG),
        edit(PRESETS, "\npapers:\n", "\npapers: !!set\n"),
    ),
    case(
        "bounded/yaml-custom-tag-on-mapping-in-icons",
        VALIDATE,
        at("icons.yaml", TAG),
        edit(
            ICONS, "  - {type: rect, box: [0.06, 0.06", "  - !shape {type: rect, box: [0.06, 0.06"
        ),
    ),
    case(
        "bounded/yaml-tag-on-list-in-example",
        VALIDATE,
        at("01-pair-sinks-its-column.yaml", TAG),
        edit(EXAMPLE_01, "red: [2, 1, 5, 3, 1, 4]", "red: !fleet [2, 1, 5, 3, 1, 4]"),
    ),
]

TORPEDO_S = "    values: {action: torpedo, grade: S, dice: 7}\n"

GEOMETRY = [
    case(
        "geometry/zero-component-size",
        VALIDATE,
        at("cards.yaml", SIZE),
        edit(CARDS, TORPEDO_S, TORPEDO_S + "    size: [0mm, 88mm]\n"),
    ),
    case(
        "geometry/negative-component-size",
        BUILD,
        at("cards.yaml", SIZE),
        edit(CARDS, TORPEDO_S, TORPEDO_S + "    size: [63mm, -88mm]\n"),
    ),
    case(
        "geometry/negative-size-preset",
        VALIDATE,
        at("presets.yaml", SIZE),
        edit(PRESETS, "poker: [63mm, 88mm]", "poker: [63mm, -88mm]"),
    ),
    case(
        "geometry/zero-paper-preset",
        BUILD,
        at("presets.yaml", SIZE),
        edit(PRESETS, "a4: [210mm, 297mm]", "a4: [0mm, 297mm]"),
    ),
    case(
        "geometry/negative-layout-size",
        VALIDATE,
        at("base/card.yaml", SIZE),
        edit(BASE_CARD, "size: poker", "size: [63mm, -88mm]"),
    ),
    case(
        "geometry/negative-safe-margin",
        VALIDATE,
        at("base/card.yaml", r"(?i:safe)"),
        edit(BASE_CARD, "safe: 3mm", "safe: -3mm"),
    ),
    case(
        "geometry/bleed-over-a-quarter-of-the-card",
        BUILD,
        at("torpedo.yaml", r"(?i:bleed)"),
        edit(TORPEDO, "extends: base/card\n", "extends: base/card\nbleed: 30mm\n"),
    ),
    case(
        "geometry/element-entirely-outside-its-card",
        VALIDATE,
        at("torpedo.yaml"),
        edit(TORPEDO, "box: [28mm, 18mm, 28mm, 18mm]", "box: [500mm, 500mm, 10mm, 10mm]"),
    ),
    case(
        "geometry/component-size-differs-from-its-layout",
        BUILD,
        at("cards.yaml", SIZE),
        edit(CARDS, "size: [394mm, 280mm]", "size: [390mm, 280mm]"),
    ),
    case(
        "geometry/text-in-the-bleed",
        VALIDATE,
        at("torpedo.yaml", r"(?i:bleed)"),
        edit(TORPEDO, DICE_TEXT, dice_text_box("[12mm, 39mm, 52.5mm, 9mm]")),
    ),
    case(
        "geometry/text-in-the-safe-margin-with-strict",
        (*VALIDATE, "--strict"),
        at("torpedo.yaml", r"(?i:safe)"),
        edit(TORPEDO, DICE_TEXT, dice_text_box("[10mm, 39mm, 52mm, 9mm]")),
    ),
]

VALIDATE_LIKE_BUILD = [
    case(
        "validate/rulebook-section-unknown-rule",
        VALIDATE,
        at("overview.yaml", did_you_mean("target_points")),
        edit(OVERVIEW, "has {{ rules.target_points }}", "has {{ rules.target_pionts }}"),
    ),
    case(
        "validate/rulebook-section-unknown-component-in-count",
        VALIDATE,
        at("making-the-cards.yaml", "nope"),
        edit(MAKING, "count('transport-1', 'transport-2'", "count('nope', 'transport-2'"),
    ),
    case(
        "validate/book-names-a-missing-section",
        VALIDATE,
        at("book.yaml", "tipps"),
        edit(BOOK, "  - section: tips\n", "  - section: tipps\n"),
    ),
    case(
        "validate/book-lists-a-missing-example",
        VALIDATE,
        at("book.yaml", "09-torpedo-s-always-sink"),
        edit(BOOK, "{file: 09-torpedo-s-always-sinks,", "{file: 09-torpedo-s-always-sink,"),
    ),
    case(
        "validate/book-picture-of-an-unknown-piece",
        VALIDATE,
        at("book.yaml", "placement-mat-green"),
        edit(BOOK, "piece: placement-mat-red", "piece: placement-mat-green"),
    ),
    case(
        "validate/example-yaml-syntax-error",
        VALIDATE,
        at("01-pair-sinks-its-column.yaml", SYNTAX),
        edit(EXAMPLE_01, "  first: red\n", "  first: [red\n"),
    ),
    case(
        "validate/example-unknown-notation",
        VALIDATE,
        at("01-pair-sinks-its-column.yaml", r"\brol\b"),
        edit(EXAMPLE_01, "  - do: roll 3 3 5 6", "  - do: rol 3 3 5 6"),
    ),
    case(
        "validate/example-unknown-option-name",
        VALIDATE,
        at("10-five-of-a-kind-reading.yaml", "five_or_mor\\b"),
        edit(EXAMPLE_10, "options: {five_or_more: miss}", "options: {five_or_mor: miss}"),
    ),
    case(
        "validate/example-unknown-option-value",
        VALIDATE,
        at("10-five-of-a-kind-reading.yaml", "sometimes"),
        edit(EXAMPLE_10, "options: {five_or_more: miss}", "options: {five_or_more: sometimes}"),
    ),
    case(
        "validate/example-expectation-does-not-hold",
        VALIDATE,
        at("07-seed-round-won-by-sinkings.yaml"),
        edit(EXAMPLE_07, "round_points: {red: 6, blue: 0}", "round_points: {red: 7, blue: 0}"),
    ),
]

SYSTEM_AND_ARGUMENTS = [
    # Operating-system errors: exit 1.
    case(
        "system/out-is-a-regular-file",
        (*BUILD, "--out", "afile"),
        arg("afile"),
        put("afile", text("not a folder\n")),
    ),
    case(
        "system/out-inside-a-regular-file",
        (*BUILD, "--out", "afile/inside"),
        arg("afile"),
        put("afile", text("not a folder\n")),
    ),
    case(
        "system/out-name-too-long",
        (*BUILD, "--out", "x" * 300),
        arg("x" * 20),
    ),
    case(
        "system/read-only-out-folder",
        (*BUILD, "--force"),
        r"(?=.*\bout\b)",
        read_only_out,
        not_as_root=True,
    ),
    case("arguments/unknown-game", ("build", "no-such-game"), arg("no-such-game")),
    # Usage errors: exit 2.
    case("arguments/unknown-option", (*BUILD, "--bogus"), arg("--bogus"), status=2),
    case("arguments/bad-paper", (*BUILD, "--paper", "a5"), arg("--paper"), status=2),
    case("arguments/bad-lang", (*BUILD, "--lang", "fr"), arg("--lang"), status=2),
    case("arguments/bad-duplex", (*BUILD, "--duplex", "sideways"), arg("--duplex"), status=2),
    case(
        "arguments/bad-duplex-offset",
        (*BUILD, "--duplex-offset", "one,two"),
        arg("--duplex-offset"),
        status=2,
    ),
    case(
        "arguments/duplex-offset-not-a-number",
        (*BUILD, "--duplex-offset", "nan,0"),
        arg("--duplex-offset"),
        status=2,
    ),
    case("arguments/jobs-zero", (*BUILD, "--jobs", "0"), arg("--jobs"), status=2),
    case("arguments/jobs-not-a-number", (*BUILD, "--jobs", "many"), arg("--jobs"), status=2),
    case("arguments/out-without-a-value", (*BUILD, "--out"), arg("--out"), status=2),
    case("arguments/validate-bad-lang", (*VALIDATE, "--lang", "xx"), arg("--lang"), status=2),
    case("arguments/unknown-command", ("bild", GAME), arg("bild"), status=2),
    case(
        "arguments/rulebook-sync-without-a-section",
        ("rulebook-sync", GAME),
        r"(?=.*(?i:section))",
        status=2,
    ),
    case(
        "arguments/root-is-a-file",
        ("--root", "afile", "list"),
        arg("--root"),
        put("afile", text("not a folder\n")),
        status=2,
    ),
]

CASES = TEMPLATES + FILES + BOUNDED_WORK + GEOMETRY + VALIDATE_LIKE_BUILD + SYSTEM_AND_ARGUMENTS
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _params() -> list[object]:
    params: list[object] = []
    for c in CASES:
        marks = [pytest.mark.skipif(AS_ROOT, reason="root writes into read-only folders")]
        params.append(pytest.param(c, id=c.id, marks=marks if c.not_as_root else ()))
    return params


# ---------------------------------------------------------------------------------------
# Running printgen.


def copy_project(tmp_path: Path) -> Path:
    """The project's data (components with their examples and rulebooks, and layouts)
    in `tmp_path/project`; `tmp_path/elsewhere` is outside it."""
    root = tmp_path / "project"
    for name in ("components", "layouts"):
        shutil.copytree(ROOT / name, root / name)
    return root


def printgen(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the command as a user does; gives the result and the wall time in seconds."""
    started = time.monotonic()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "printgen", "--root", str(root), *args],
            capture_output=True,
            text=True,
            cwd=root,
            check=False,
            timeout=HANG,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"printgen {' '.join(args)[:80]} still ran after {HANG:g} s")
    return result, time.monotonic() - started


def snapshot(folder: Path) -> dict[str, bytes] | None:
    """Every file below `folder` with its bytes (None when there is no such folder)."""
    if not folder.exists():
        return None
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def message_lines(stderr: str) -> list[str]:
    """The lines of stderr that are not blank and not warnings."""
    return [
        line for line in stderr.splitlines() if line.strip() and not line.startswith("warning:")
    ]


def problems_with(result: subprocess.CompletedProcess[str], seconds: float, c: Case) -> list[str]:
    problems = []
    if result.returncode != c.status:
        problems.append(f"exit status {result.returncode}, expected {c.status}")
    if "Traceback" in result.stderr:
        problems.append("a traceback")
    lines = message_lines(result.stderr)
    if len(lines) != 1:
        problems.append(f"{len(lines)} message lines, expected 1")
    elif not lines[0].startswith("error: "):
        problems.append("the message line does not start with 'error: '")
    elif not re.match(c.pattern, lines[0]):
        problems.append(f"the message does not match {c.pattern}")
    if seconds >= SECONDS:
        problems.append(f"took {seconds:.1f} s (at most {SECONDS:g} s)")
    return problems


@pytest.mark.parametrize("c", _params())
def test_bad_input_gives_one_error_line_and_changes_nothing(tmp_path: Path, c: Case) -> None:
    root = copy_project(tmp_path)
    if c.command[0] == "build":
        good, _ = printgen(root, *BUILD)
        assert good.returncode == 0, f"the good build before the mutation failed: {good.stderr}"
    out = root / "out"
    before = snapshot(out)
    for mutate in c.mutations:
        mutate(root)
    try:
        result, seconds = printgen(root, *c.command)
    finally:
        if out.is_dir():
            out.chmod(0o755)
    problems = problems_with(result, seconds, c)
    if snapshot(out) != before:
        problems.append("out/ changed")
    if out.is_dir():
        hidden = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
        if hidden:
            problems.append(f"left in out/: {', '.join(hidden)}")
    assert not problems, (
        "; ".join(problems) + f"\n--- stderr ---\n{result.stderr}--- stdout ---\n{result.stdout}"
    )


def test_there_are_enough_cases_of_every_kind() -> None:
    groups = {c.id.split("/")[0] for c in CASES}
    assert {"template", "files", "bounded", "geometry", "validate", "system", "arguments"} <= groups
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)


def test_the_unchanged_copy_validates_and_builds(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    validated, _ = printgen(root, *VALIDATE, "--strict")
    assert validated.returncode == 0, validated.stderr
    built, _ = printgen(root, *BUILD)
    assert built.returncode == 0, built.stderr


def test_text_in_the_safe_margin_is_only_a_warning_without_strict(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    edit(TORPEDO, DICE_TEXT, dice_text_box("[10mm, 39mm, 52mm, 9mm]"))(root)
    result, _ = printgen(root, *VALIDATE)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings and re.match(at("torpedo.yaml", r"(?i:safe)"), warnings[0]), result.stderr
