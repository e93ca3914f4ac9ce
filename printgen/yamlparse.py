"""YAML text to data, remembering where every value came from (`source.load_yaml` calls
this for a file it has not read before: PyYAML is loaded only then).

Only plain YAML is read: text, numbers, booleans, null, lists and mappings; the values that
anchors and aliases expand to, and the nesting, are bounded (a game folder is untrusted).
"""

from __future__ import annotations

import math
from collections.abc import Callable
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
    """The document of `text` (the file at `path`); its errors as PrintgenErrors.

    The data is built as libyaml reads the file (`_Events`), without PyYAML's graph of every
    node first (a node and two marks for every value: ~20 MB for a 2,000-card file).
    A file with anchors, aliases or merge keys (`<<`) is read through the graph (`_build`),
    which expands them."""
    try:
        return _parse(path, text, _from_events)
    except _NeedsNodes:
        return _parse(path, text, _from_nodes)


def _parse(path: Path, text: str, build: Callable[[yaml.SafeLoader, Document], Any]) -> Document:
    loader = _Loader(text)
    try:
        doc = Document(path, None)
        doc.data = build(loader, doc)
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


def _from_nodes(loader: yaml.SafeLoader, doc: Document) -> Any:
    root = loader.get_single_node()
    return _build(loader, root, (), doc, _Budget()) if root is not None else None


def _from_events(loader: yaml.SafeLoader, doc: Document) -> Any:
    """The document's data, as `_from_nodes` builds it (the same values, places, checks and
    errors), from libyaml's events."""
    events = _Events(loader, doc)
    events.get_event()  # the stream's start
    if events.check_event(yaml.StreamEndEvent):
        return None
    events.get_event()  # the document's start
    try:
        value = events.value(())
    except PrintgenError:
        # The graph is built before it is walked: a YAML syntax error anywhere in the file
        # is what it reports first, and so is a second document. Read on to find them.
        events.read_rest()
        events.end_of_stream()
        raise
    events.end_of_stream()
    return value


class _NeedsNodes(Exception):
    """The file has an anchor, an alias or a merge key: `_from_events` does not expand them."""


_GRAPH_ONLY = {f"{_CORE}merge", f"{_CORE}value"}  # the tags of `<<` and `=` keys


def _unanchored(event: Any) -> Any:
    """`event`, which starts a value that is neither an alias nor anchored (else the graph
    reads the file, which expands them)."""
    if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
        raise _NeedsNodes
    return event


class _Events:
    """`_build`, walking libyaml's events instead of nodes: each value is checked, placed
    and built as its events arrive."""

    def __init__(self, loader: yaml.SafeLoader, doc: Document) -> None:
        self.loader = loader
        self.doc = doc
        self.nodes = 0
        # the loader's event calls (untyped in PyYAML's stubs)
        self.get_event: Callable[[], Any] = loader.get_event
        self.peek_event: Callable[[], Any] = loader.peek_event
        self.check_event: Callable[..., bool] = loader.check_event  # of the exact classes
        self.resolve: Callable[[type[yaml.Node], str | None, Any], str] = loader.resolve

    def node(self, kind: type[yaml.Node]) -> yaml.Node:
        """The next value's node, without its children (a scalar's has its text)."""
        event = _unanchored(self.get_event())
        tag = event.tag
        if kind is yaml.ScalarNode:
            if tag is None or tag == "!":
                tag = self.resolve(kind, event.value, event.implicit)
            if tag in _GRAPH_ONLY:
                raise _NeedsNodes
            return yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
        if tag is None or tag == "!":
            tag = self.resolve(kind, None, event.implicit)
        return kind(tag, [], event.start_mark, event.end_mark)

    def kind(self) -> type[yaml.Node]:
        """The kind of node the next event starts."""
        event = _unanchored(self.peek_event())
        if isinstance(event, yaml.MappingStartEvent):
            return yaml.MappingNode
        return yaml.SequenceNode if isinstance(event, yaml.SequenceStartEvent) else yaml.ScalarNode

    def end_of_stream(self) -> None:
        """The document's end, and no other document after it."""
        end = self.get_event()
        if not self.check_event(yaml.StreamEndEvent):
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                end.start_mark,
                "but found another document",
                self.get_event().start_mark,
            )

    def read_rest(self) -> None:
        """The document's events left, read for their syntax errors (an anchor, an alias or
        a merge key among them: the graph reads the file)."""
        while not self.check_event(yaml.DocumentEndEvent):
            if self.check_event(yaml.MappingEndEvent, yaml.SequenceEndEvent):
                self.get_event()
            else:
                self.node(self.kind())

    def here(self) -> Location:
        """The place of the next event."""
        at = self.peek_event().start_mark
        return Location(self.doc.path, at.line + 1, at.column + 1)

    def value(self, key: Key) -> Any:
        doc = self.doc
        self.nodes += 1
        beyond = _beyond_bounds(self.nodes, key)
        if beyond:
            self.kind()  # an anchor or alias: the graph's walk reports it as it finds it
            raise PrintgenError(beyond, self.here())
        node = self.node(self.kind())
        _check_tag(node, doc.path)
        doc.places[key] = _mark(doc.path, node)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(self.loader, node, doc.path)
        if isinstance(node, yaml.SequenceNode):
            items: list[Any] = []
            while not self.check_event(yaml.SequenceEndEvent):
                items.append(self.value((*key, len(items))))
            self.get_event()
            return items
        result: dict[Any, Any] = {}
        while not self.check_event(yaml.MappingEndEvent):
            if self.kind() is not yaml.ScalarNode:
                raise PrintgenError("mapping keys must be names", self.here())
            inner = _key(self.loader, self.node(yaml.ScalarNode), key, result, doc)
            result[inner[-1]] = self.value(inner)
        self.get_event()
        return result


def _mark(path: Path, node: yaml.Node) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


@dataclass
class _Budget:
    """Values built so far: aliases may repeat a subtree, but not without end."""

    nodes: int = 0


def _beyond_bounds(values: int, key: Key) -> str:
    """What is wrong when the file has grown past its bounds at its `values`-th value, at
    `key` ('' if nothing is)."""
    if values > MAX_NODES:
        return (
            f"the YAML expands to more than {MAX_NODES:,} values (anchors and aliases "
            "repeated inside each other?): write the data out, or split the file"
        )
    if len(key) > MAX_DEPTH:
        return f"the YAML is nested more than {MAX_DEPTH} levels deep"
    return ""


def _key(
    loader: yaml.SafeLoader, key_node: yaml.Node, key: Key, mapping: dict[Any, Any], doc: Document
) -> Key:
    """The key of the value that `key_node` names in the `mapping` at `key`: a name (text or
    a whole number) the mapping does not have yet. Its place is kept."""
    name = _scalar(loader, key_node, doc.path)
    if not isinstance(name, str | int):
        raise PrintgenError("mapping keys must be names", _mark(doc.path, key_node))
    if name in mapping:
        raise PrintgenError(
            f"duplicate key '{name}': each key may appear once in a mapping",
            _mark(doc.path, key_node),
        )
    inner = (*key, name)
    doc.key_places[inner] = _mark(doc.path, key_node)
    return inner


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
    beyond = _beyond_bounds(budget.nodes, key)
    if beyond:
        raise PrintgenError(beyond, _mark(doc.path, node))
    _check_tag(node, doc.path)
    doc.places[key] = _mark(doc.path, node)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise PrintgenError("mapping keys must be names", _mark(doc.path, key_node))
            inner = _key(loader, key_node, key, result, doc)
            result[inner[-1]] = _build(loader, value_node, inner, doc, budget)
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
        # the scalar's constructor itself: construct_object would keep every node it made
        value = loader.yaml_constructors[tag](loader, node)
        if isinstance(value, float) and not math.isfinite(value):
            raise PrintgenError(
                f"'{node.value}' is not a number a game can use: write a finite number",
                _mark(path, node),
            )
        return value
    except ValueError as exc:  # an integer of thousands of digits, say
        raise PrintgenError(f"value cannot be read: {exc}", _mark(path, node)) from None
