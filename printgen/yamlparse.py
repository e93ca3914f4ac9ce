"""YAML text to data, remembering where every value came from (`source.load_yaml` calls
this for a file it has not read before: PyYAML is loaded only then).

Only plain YAML is read: text, numbers, booleans, null, lists and mappings; the values that
anchors and aliases expand to, and the nesting, are bounded (a game folder is untrusted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from printgen.errors import Location, PrintgenError
from printgen.source import Document, Key

# libyaml's loader when PyYAML was built with it (three times faster), else the pure one.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
# A game folder is untrusted: a file, and what its anchors and aliases expand to, are bounded.
MAX_NODES = 500_000
MAX_DEPTH = 64

_CORE = "tag:yaml.org,2002:"
# The YAML core schema: strings, numbers, booleans, null, lists and mappings. PyYAML also
# reads unquoted dates (`2002-11-02`); here they stay the text they are.
_SCALAR_TAGS = {f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null")}
_DATE_TAG = f"{_CORE}timestamp"


def parse(path: Path, text: str) -> Document:
    """The document of `text` (the file at `path`); its errors as PrintgenErrors."""
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        doc = Document(path, None)
        budget = _Budget()
        doc.data = _build(loader, root, (), doc, budget) if root is not None else None
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


def _mark(path: Path, node: yaml.Node) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


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
