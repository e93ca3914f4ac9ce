"""Reading YAML while remembering where every value came from.

Validation errors are reported as `file:line:column: message`; this module keeps the
line and column of every mapping key and value so a pydantic error location
(`components.3.count`) can be turned back into a place in the file.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import marshal
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from printgen.cache import KeptFolder
from printgen.errors import ErrorList, Location, PrintgenError
from printgen.files import check_inside

Key = tuple[str | int, ...]

M = TypeVar("M", bound=BaseModel)

MAX_FILE_BYTES = 8 * 1024 * 1024  # a game folder is untrusted: its files are bounded


@dataclass
class Document:
    """A parsed YAML file: its data and the place of every node in it."""

    path: Path
    data: Any
    places: dict[Key, Location] = field(default_factory=dict)
    key_places: dict[Key, Location] = field(default_factory=dict)

    def where(self, key: Key) -> Location:
        """The place of the value at `key`, or of its nearest enclosing value."""
        for end in range(len(key), -1, -1):
            prefix = key[:end]
            if prefix in self.places:
                return self.places[prefix]
        return Location(self.path)

    def where_key(self, key: Key) -> Location:
        """The place of a mapping key itself (for unknown keys)."""
        return self.key_places.get(key) or self.where(key)


def load_yaml(path: Path, inside: Sequence[Path] = ()) -> Document:
    """Parse one YAML file; syntax errors and duplicate keys become PrintgenErrors.
    With `inside`, the file must lie in one of those folders (links are followed)."""
    if inside:
        check_inside(path, inside, Location(path, 1, 1), "file")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PrintgenError(
                f"file is {size / 1e6:.1f} MB, more than the {MAX_FILE_BYTES // 2**20} MiB a "
                "game's YAML file may hold: split it or remove what does not belong",
                Location(path, 1, 1),
            )
        raw = path.read_bytes()
        # as read_text reads it: universal newlines
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except FileNotFoundError:
        raise PrintgenError("file not found", Location(path)) from None
    except IsADirectoryError:
        raise PrintgenError("a folder where a YAML file was expected", Location(path)) from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise PrintgenError(
            f"not UTF-8 text ({exc.reason}): save the file as UTF-8", Location(path, line, 1)
        ) from None
    except OSError as exc:
        raise PrintgenError(f"cannot read the file: {exc.strerror}", Location(path)) from None
    kept = _kept_name(raw)
    doc = _kept_document(path, kept)
    if doc is not None:
        return doc
    from printgen.yamlparse import parse  # PyYAML is loaded only for a file not kept

    doc = parse(path, text)
    _keep_document(doc, kept)
    return doc


# --- files read before -------------------------------------------------------------------------
#
# A large file (a deck of hundreds of cards) takes libyaml and the walk of
# printgen/yamlparse.py tens of milliseconds; what they made of it is kept in printgen's
# cache folder by a digest of its bytes (and of the reading code and PyYAML), and read back
# in a tenth of the time.  Small files are kept too: a build whose every file is kept never
# loads PyYAML (7 ms of a build's start).  A file with an error is never kept: it is read
# anew and reports its error each time.

_KEPT = KeptFolder("yaml", 2_000, 256 * 2**20)  # files kept, and the bytes they may hold


def _kept_name(raw: bytes) -> str:
    digest = hashlib.sha256(_code_salt())
    digest.update(raw)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _code_salt() -> bytes:
    """What the readings depend on besides the file: this module, the parser's and PyYAML's
    own package file (which states its version), found without loading PyYAML."""
    spec = importlib.util.find_spec("yaml")
    package = Path(spec.origin).read_bytes() if spec and spec.origin else b"no PyYAML"
    here = Path(__file__).parent
    code = b"".join((here / name).read_bytes() for name in ("source.py", "yamlparse.py"))
    return hashlib.sha256(package).digest() + code


def _kept_document(path: Path, kept: str | None) -> Document | None:
    data = _KEPT.read(kept) if kept is not None else None
    if data is None:
        return None
    try:
        value, places, key_places = marshal.loads(data)
        doc = Document(path, value)
        doc.places = {k: Location(path, line, column) for k, line, column in places}
        doc.key_places = {k: Location(path, line, column) for k, line, column in key_places}
    except (EOFError, ValueError, TypeError):
        return None
    return doc


def _keep_document(doc: Document, kept: str | None) -> None:
    if kept is None:
        return
    places = [(k, at.line, at.column) for k, at in doc.places.items()]
    key_places = [(k, at.line, at.column) for k, at in doc.key_places.items()]
    try:
        payload = marshal.dumps((doc.data, places, key_places))
    except ValueError:
        return  # a value marshal cannot keep: the file is read anew next time
    _KEPT.write(kept, payload)


def validate(model: type[M], doc: Document, data: Any = None, prefix: Key = ()) -> M:
    """Validate `data` (default: the whole document) against a pydantic model.

    Every validation error becomes one `file:line:column: message` line.
    """
    payload = doc.data if data is None else data
    try:
        return model.model_validate(payload, context={"doc": doc, "prefix": prefix})
    except ValidationError as exc:
        raise ErrorList(_translate_all(model, doc, prefix, exc.errors(), payload)) from None


def _field_names(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys allowed in the mapping at `loc` (best effort, for 'did you mean')."""
    current: Any = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            current = None
            continue
        current = _inner_model(fields[part].annotation)
    fields = getattr(current, "model_fields", None)
    if not fields:
        return []
    return [f.alias or name for name, f in fields.items()]


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _clean_loc(loc: tuple[Any, ...], data: Any) -> Key:
    """The keys of `loc` that lead into the data: pydantic also names the branches of a
    union (`str`, `tuple[...]`, `function-after[...]`), which are not keys in the file."""
    out: list[str | int] = []
    current = data
    for part in loc:
        if (isinstance(current, dict) and part in current) or (
            isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        ):
            current = current[part]
        elif not isinstance(part, int) and _is_branch(part):
            continue
        else:
            current = None
        out.append(part)
    return tuple(out)


def _is_branch(part: Any) -> bool:
    text = str(part)
    return (
        text.startswith(("function-", "union[", "tuple[", "list[", "dict[", "literal[", "lax-"))
        or text in {"str", "int", "float", "bool", "none", "list", "dict", "tuple"}
        or text[:1].isupper()  # a model's name
    )


# What a value must be, by pydantic's error type: words for the user, not type names.
_EXPECTED = {
    "dict_type": "a mapping (key: value)",
    "model_type": "a mapping (key: value)",
    "model_attributes_type": "a mapping (key: value)",
    "list_type": "a list",
    "tuple_type": "a list",
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "none_required": "empty (null)",
}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _expectation(err: Any) -> str | None:
    kind = err["type"]
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind == "literal_error":
        return "one of " + str(err.get("ctx", {}).get("expected", "the allowed values"))
    if kind in ("too_long", "too_short"):
        ctx = err.get("ctx", {})
        count = ctx.get("max_length") if kind == "too_long" else ctx.get("min_length")
        return f"a list of {'at most' if kind == 'too_long' else 'at least'} {count} items"
    return None


def _translate_all(
    model: type[BaseModel], doc: Document, prefix: Key, errors: list[Any], payload: Any
) -> list[PrintgenError]:
    """One message per place: the branches of a union that all failed become one
    "must be A or B" message."""
    grouped: dict[Key, list[Any]] = {}
    for err in errors:
        grouped.setdefault(_clean_loc(tuple(err["loc"]), payload), []).append(err)
    out = []
    for loc, group in grouped.items():
        expected = [_expectation(e) for e in group]
        deeper = any(other[: len(loc)] == loc and len(other) > len(loc) for other in grouped)
        if deeper and all(expected):
            continue  # a union's other branch failed deeper inside: that message says more
        if len(group) > 1 and all(expected):
            name = str(loc[-1]) if loc else "value"
            label = name if not name.isdigit() else "item"
            wanted = " or ".join(dict.fromkeys(e for e in expected if e))
            got = _short(group[0].get("input"))
            out.append(
                PrintgenError(f"{label} must be {wanted}, got {got}", doc.where((*prefix, *loc)))
            )
            continue
        out.append(_translate(model, doc, prefix, loc, group[0]))
    return out


def _translate(
    model: type[BaseModel], doc: Document, prefix: Key, loc: Key, err: Any
) -> PrintgenError:
    full = (*prefix, *loc)
    kind = err["type"]
    name = str(loc[-1]) if loc else "value"
    given = err.get("input")
    label = name if not name.isdigit() else "item"
    if kind == "extra_forbidden":
        allowed = _field_names(model, loc[:-1])
        hint = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
        valid = f" (valid keys: {', '.join(sorted(allowed))})" if allowed else ""
        return PrintgenError(f"unknown key '{name}'{suggestion}{valid}", doc.where_key(full))
    if kind == "missing":
        return PrintgenError(f"missing required key '{name}'", doc.where(full[:-1]))
    expected = _expectation(err)
    if expected:
        return PrintgenError(f"{label} must be {expected}, got {_short(given)}", doc.where(full))
    message = str(err["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    elif message.startswith("Assertion failed, "):
        message = message[len("Assertion failed, ") :]
    else:
        message = message[0].lower() + message[1:]
    got = "" if "got " in message or isinstance(given, dict | list) else f", got {_short(given)}"
    return PrintgenError(f"{label} {message}{got}", doc.where(full))
