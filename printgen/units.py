"""Lengths: the data speaks millimetres, inches and points; everything inside is millimetres."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema

MM_PER_INCH = 25.4
MM_PER_POINT = MM_PER_INCH / 72.0
PT_PER_MM = 72.0 / MM_PER_INCH

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt|%)?\s*$")
_FACTORS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_POINT}


@lru_cache(maxsize=4096)
def _split(value: str) -> tuple[float, str] | None:
    """`3mm` -> (3.0, "mm"), `50%` -> (50.0, "%"), a bare number -> mm; None if it is none
    of these. Remembered: a layout's lengths are the same text on every card it draws."""
    match = _LENGTH.match(value)
    if match is None:
        return None
    return float(match.group(1)), match.group(2) or "mm"


def parse_length(value: Any, of: float | None = None) -> float:
    """`3mm`, `0.25in`, `12pt`, `1.5cm` or a bare number (millimetres) -> millimetres;
    `50%` is a share of `of` (the card or the element's box), where a share is allowed."""
    if isinstance(value, str):
        split = _split(value)
        if split is not None and split[1] == "%":
            if of is None:
                raise ValueError(
                    f"must be a length such as 3mm, 0.25in or 12pt, got {value!r}: a share in % "
                    "is allowed only in a box, points, step and radius"
                )
            return split[0] * of / 100.0
        if split is not None:
            length = split[0] * _FACTORS[split[1]]
            if abs(length) <= 1e6:
                return length
    elif (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= 1e6
    ):
        return float(value)
    wanted = "a length such as 3mm, 0.25in or 12pt" + (" or 50%" if of is not None else "")
    raise ValueError(f"must be {wanted}, got {value!r}")


# What a schema says a length is (for editors): a number of millimetres or a text with a unit.
LENGTH_JSON_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "number"},
        {"type": "string", "pattern": r"^\s*-?\d+(\.\d+)?\s*(mm|cm|in|pt)?\s*$"},
    ],
    "description": "A length: 3mm, 1.5cm, 0.25in, 12pt, or a number (millimetres).",
}

Length = Annotated[float, BeforeValidator(parse_length), WithJsonSchema(LENGTH_JSON_SCHEMA)]
"""A pydantic field type: any accepted length, stored in millimetres."""


def mm_to_pt(mm: float) -> float:
    return mm / MM_PER_POINT


def pt_to_mm(pt: float) -> float:
    return pt * MM_PER_POINT
