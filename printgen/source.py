"""Reading YAML while remembering where every value came from.

Validation errors are reported as `file:line:column: message`; this module keeps the
line and column of every mapping key and value so a pydantic error location
(`components.3.count`) can be turned back into a place in the file.
"""

from __future__ import annotations

import difflib
import hashlib
import marshal
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from printgen.cache import KeptFolder
from printgen.errors import ErrorList, Location, PrintgenError
from printgen.files import check_inside

Key = tuple[str | int, ...]

# libyaml's loader when PyYAML was built with it (three times faster), else the pure one.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
M = TypeVar("M", bound=BaseModel)

# A game folder is untrusted: a file, and what its anchors and aliases expand to, are bounded.
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NODES = 500_000
MAX_DEPTH = 64

_CORE = "tag:yaml.org,2002:"
# The YAML core schema: strings, numbers, booleans, null, lists and mappings. PyYAML also
# reads unquoted dates (`2002-11-02`); here they stay the text they are.
_SCALAR_TAGS = {f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null")}
_DATE_TAG = f"{_CORE}timestamp"


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


def _mark(path: Path, node: yaml.Node) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


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
    kept = _kept_name(raw) if len(raw) >= KEPT_FROM_BYTES else None
    doc = _kept_document(path, kept)
    if doc is not None:
        return doc
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        doc = Document(path, None)
        budget = _Budget()
        doc.data = _build(loader, root, (), doc, budget) if root is not None else None
        _keep_document(doc, kept)
        return doc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        problem = exc.problem or exc.context or "invalid YAML"
        raise PrintgenError(f"YAML syntax error: {problem}; fix the YAML here", where) from None
    except yaml.YAMLError as exc:
        raise PrintgenError(f"YAML error: {exc}", Location(path)) from None
    finally:
        loader.dispose()


# --- files read before -------------------------------------------------------------------------
#
# A large file (a deck of hundreds of cards) takes libyaml and the walk above tens of
# milliseconds; what they made of it is kept in printgen's cache folder by a digest of its
# bytes (and of this module and PyYAML), and read back in a tenth of the time.  A file with
# an error is never kept: it is read anew and reports its error each time.

KEPT_FROM_BYTES = 8 * 1024  # smaller files are read faster than they are looked up
_KEPT = KeptFolder("yaml", 2_000, 256 * 2**20)  # files kept, and the bytes they may hold


def _kept_name(raw: bytes) -> str:
    digest = hashlib.sha256(_code_salt())
    digest.update(raw)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _code_salt() -> bytes:
    return f"{yaml.__version__}\0{Path(__file__).read_text(encoding='utf-8')}\0".encode()


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


@dataclass
class _Budget:
    """Values built so far: aliases may repeat a subtree, but not without end."""

    nodes: int = 0


def _check_tag(node: yaml.Node, path: Path) -> None:
    tag = node.tag
    allowed = (
        tag == f"{_CORE}map"
        if isinstance(node, yaml.MappingNode)
        else tag == f"{_CORE}seq"
        if isinstance(node, yaml.SequenceNode)
        else tag in _SCALAR_TAGS or tag == _DATE_TAG
    )
    if not allowed:
        name = tag.replace(_CORE, "!!") if tag.startswith(_CORE) else tag
        raise PrintgenError(
            f"YAML tag '{name}' is not allowed: game files are plain YAML (text, numbers, "
            "true/false, null, lists and mappings); remove the tag",
            _mark(path, node),
        )


def _build(
    loader: yaml.SafeLoader, node: yaml.Node, key: Key, doc: Document, budget: _Budget
) -> Any:
    budget.nodes += 1
    if budget.nodes > MAX_NODES:
        raise PrintgenError(
            f"the YAML expands to more than {MAX_NODES:,} values (anchors and aliases "
            "repeated inside each other?): write the data out, or split the file",
            _mark(doc.path, node),
        )
    if len(key) > MAX_DEPTH:
        raise PrintgenError(
            f"the YAML is nested more than {MAX_DEPTH} levels deep", _mark(doc.path, node)
        )
    _check_tag(node, doc.path)
    doc.places[key] = _mark(doc.path, node)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise PrintgenError("mapping keys must be names", _mark(doc.path, key_node))
            name = _scalar(loader, key_node, doc.path)
            if not isinstance(name, str | int):
                raise PrintgenError("mapping keys must be names", _mark(doc.path, key_node))
            if name in result:
                raise PrintgenError(
                    f"duplicate key '{name}': each key may appear once in a mapping",
                    _mark(doc.path, key_node),
                )
            doc.key_places[(*key, name)] = _mark(doc.path, key_node)
            result[name] = _build(loader, value_node, (*key, name), doc, budget)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, (*key, i), doc, budget) for i, item in enumerate(node.value)]
    return _scalar(loader, node, doc.path)


def _scalar(loader: yaml.SafeLoader, node: yaml.Node, path: Path) -> Any:
    tag = node.tag
    if tag == _STR_TAG and isinstance(node, yaml.ScalarNode):
        return node.value  # what the constructor makes of a text, without its bookkeeping
    _check_tag(node, path)
    if tag == _DATE_TAG:
        return str(node.value)
    try:
        value = loader.construct_object(node, deep=True)
        if isinstance(value, float) and not math.isfinite(value):
            raise PrintgenError(
                f"'{node.value}' is not a number a game can use: write a finite number",
                _mark(path, node),
            )
        return value
    except ValueError as exc:  # an integer of thousands of digits, say
        raise PrintgenError(f"value cannot be read: {exc}", _mark(path, node)) from None


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
