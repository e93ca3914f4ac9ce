"""Jinja and the sandbox every template of a game folder renders in (see
printgen/templating.py, which says what the sandbox refuses and bounds, and reads the
templates that need no Jinja: this module is loaded by the first template that does).
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import re
import types
from collections.abc import MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast

import jinja2
from jinja2 import meta, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import LoopContext, Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment

from printgen.cache import KeptFolder
from printgen.errors import Location
from printgen.templating import (
    _RENDERED_MAX,
    _RENDERED_TEXT,
    _SCALARS,
    _STABLE_TYPES,
    MACRO_CALL,
    MAX_INT_BITS,
    MAX_TEXT,
    TEXT_PER_STEP,
    DataDict,
    MissingFailure,
    Origin,
    TemplateFailure,
    _bounded,
    _check_argument,
    _check_format,
    _check_result,
    _describe,
    _guarded,
    _meters,
    _one_by_one,
    _plain,
    _range,
    _rendered,
    _spend,
    _template_line,
    _weight,
    by_id,
    keys_of,
    suggestion,
)


class MissingValue(jinja2.UndefinedError):
    """An undefined value was used; carries what was looked up and in what."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.owner = getattr(message, "owner", None)
        self.name = getattr(message, "name", None)


class _Message(str):
    owner: Any
    name: Any


class _Missing(jinja2.StrictUndefined):
    """StrictUndefined whose error carries the object and the missing name."""

    __slots__ = ()

    def __init__(
        self,
        hint: str | None = None,
        obj: Any = jinja2.utils.missing,
        name: str | None = None,
        exc: type[jinja2.TemplateRuntimeError] = MissingValue,
    ) -> None:
        super().__init__(hint, obj, name, exc)

    @property
    def _undefined_message(self) -> str:
        message = _Message(self._undefined_hint or f"'{self._undefined_name}' is undefined")
        message.owner = self._undefined_obj
        message.name = self._undefined_name
        return message


def missing_message(exc: MissingValue, names: list[str]) -> tuple[str, Location | None]:
    """What a user reads for an undefined value, and the data's place when it is known
    (a component's values: the mistake is probably there, not in the layout)."""
    name = str(exc.name)
    owner = exc.owner
    if owner is jinja2.utils.missing or isinstance(owner, jinja2.Undefined):
        return f"unknown name '{name}'{suggestion(name, names)} (known: {', '.join(names)})", None
    known = keys_of(owner)
    listed = f" ({', '.join(known)})" if known else ""
    origin = getattr(owner, "_origin", None) if isinstance(owner, DataDict) else None
    if isinstance(origin, Origin):
        noun = f"{origin.noun} '{name}'"
        listed = f" (its {origin.noun}s: {', '.join(known)})" if known else ""
        return f"{origin.label} has no {noun}{suggestion(name, known)}{listed}", origin.where
    label = getattr(owner, "template_label", None)
    if isinstance(label, str):
        return f"{label} has no '{name}'{suggestion(name, known)}{listed}", None
    keys = f" (keys: {', '.join(known)})" if known else ""
    return f"no '{name}' in {_describe(owner)}{suggestion(name, known)}{keys}", None


def failure(exc: Exception, data: dict[str, Any]) -> TemplateFailure | None:
    """Jinja's error `exc`, raised rendering over `data`, in words for the user (None: not
    one of Jinja's)."""
    if isinstance(exc, MissingValue):
        names = sorted(data)
        message, where = missing_message(exc, names)
        return MissingFailure(message, _template_line(exc), where)
    if isinstance(exc, jinja2.exceptions.SecurityError):
        found = re.search(r"attribute '([^']+)'", str(exc))
        what = f"'{found.group(1)}'" if found else "Python internals"
        return TemplateFailure(
            f"refused: a template may not reach {what} (templates only read the game's data, "
            "and change nothing)",
            _template_line(exc),
        )
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return TemplateFailure(f"template syntax error: {exc.message}", exc.lineno)
    if isinstance(exc, jinja2.TemplateError):
        return TemplateFailure(f"template error: {_plain(str(exc))}", _template_line(exc))
    return None


_MACROS = (Macro, LoopContext)


class _BoundedCode(CodeGenerator):
    """Template code whose `~` results are checked like every other operator's, and whose
    loops count their items as steps."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_text(")
        super().visit_Concat(node, frame)
        self.write(")")

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        # Jinja allows no node types of one's own: the loop's items are wrapped as they
        # are written out (`visit` below).
        self._loop_items = [*getattr(self, "_loop_items", []), node.iter]
        super().visit_For(node, frame)

    def visit(self, node: nodes.Node, *args: Any, **kwargs: Any) -> Any:
        if any(node is items for items in getattr(self, "_loop_items", ())):
            self.write("environment.counted(")
            super().visit(node, *args, **kwargs)
            self.write(")")
            return None
        return super().visit(node, *args, **kwargs)

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        if not isinstance(node.arg, nodes.Slice):  # others go through `getitem`
            super().visit_Getitem(node, frame)
            return
        self.write("environment.sliced(")
        super().visit_Getitem(node, frame)
        self.write(")")

    def visit_Operand(self, node: nodes.Operand, frame: Frame) -> None:
        if node.op not in ("in", "notin"):
            super().visit_Operand(node, frame)
            return
        # `x in items` goes through the items: as many steps
        self.write(f" {'in' if node.op == 'in' else 'not in'} environment.searched(")
        self.visit(node.expr, frame)
        self.write(")")


class ProjectSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with bounded work (see the module's doc)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _BoundedCode

    def __init__(self, **options: Any) -> None:
        options.setdefault("autoescape", False)
        super().__init__(undefined=_Missing, **options)
        self.filters = {name: _bounded(f) for name, f in self.filters.items()}
        # No lipsum (text without end), cycler, joiner or namespace (a namespace lets a loop
        # grow a value step after step).
        self.globals = {"range": _range, "dict": dict, "by_id": by_id}

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain mapping, not Jinja's ChainMap over the
        environment's: every render makes a context from them, and a ChainMap is slow to
        go through (a tenth of a card's render). The environment's globals are set once,
        above, and never changed after."""
        return {**self.globals, **(d or {})}

    def bounded_text(self, value: Any) -> Any:
        """Every `a ~ b` of a template goes through here (see _BoundedCode)."""
        if isinstance(value, str):
            _spend(1 + len(value) // TEXT_PER_STEP)
        return _check_result(value)

    def counted(self, items: Any) -> Any:
        """What a `for` loop goes through: each item a step (charged at once when the
        number of items is known, else as they come)."""
        meter = getattr(_meters, "meter", None)
        if meter is None or isinstance(items, jinja2.Undefined):
            return items
        try:
            size = len(items)
        except TypeError:
            return _one_by_one(items, meter)
        _spend(size)
        return items

    def searched(self, items: Any) -> Any:
        """The right side of every `in` of a template (see _BoundedCode)."""
        _spend(1 + _weight(items))
        return items

    def sliced(self, found: Any) -> Any:
        """Every `items[a:b]` of a template (a slice copies its items; see _BoundedCode)."""
        _spend(1 + _weight(found))
        return found

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "**":
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and right > 0
                and max(left.bit_length(), 1) * right > MAX_INT_BITS
            ):
                raise TemplateFailure(f"{left} ** {right} is too large to compute")
        elif operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if (
                    isinstance(seq, str | list | tuple)
                    and isinstance(times, int)
                    and len(seq) * times > MAX_TEXT
                ):
                    raise TemplateFailure(
                        f"repeating a value {times:,} times makes more than {MAX_TEXT:,} items"
                    )
        elif operator_name == "%" and isinstance(left, str):
            _check_format(left)
        result = _check_result(self.binop_table[operator_name](left, right))
        _spend(1 + _weight(result))
        return result

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        # a macro's call (a frame of its own, its arguments bound) costs a few steps
        steps = MACRO_CALL if type(__obj) in _MACROS else 1
        for value in (*args, *kwargs.values()):
            steps += _check_argument(value)
        _spend(steps)
        if args and type(__obj) is LoopContext:  # `loop(children)` of a recursive loop
            args = (__self.counted(args[0]), *args[1:])
        owner = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)
        if isinstance(owner, str):
            _check_format(owner)
        return _check_result(super().call(__context, __obj, *args, **kwargs))


ENV = ProjectSandbox()


@lru_cache(maxsize=8192)
def compile_template(source: str) -> jinja2.Template:
    """The template of `source`, its Python code compiled by Jinja once per machine (kept in
    printgen's cache folder, as Jinja's own bytecode cache keeps a loaded template's):
    parsing and generating the code of the 920 texts and fields of the five games took
    0.7 s of a build's CPU."""
    code = _kept_code.code(source)
    if code is None:
        code = ENV.compile(source)
        _kept_code.put(source, code=code)
    return ENV.template_class.from_code(ENV, code, ENV.make_globals(None), None)


_Names = tuple[str, ...] | Literal[False]  # the names a template reads; False: it uses `random`


class _KeptCode:
    """Templates' compiled code, and the data names each reads (`_names_read`), kept in the
    cache folder, a file each (a build reads only the templates it renders), named by the
    digest of the source and of what makes the code (this Jinja, this Python and this module,
    whose sandbox generates it). The code is what the sandbox's code generator made of the
    text: run from here it is bounded and checked at every step as when compiled anew."""

    FOLDER = KeptFolder("templates", 20_000, 128 * 2**20)  # files kept, the bytes they hold

    def __init__(self) -> None:
        self.maker: str | None = None

    def _entry(self, source: str, kind: str) -> str:
        if self.maker is None:
            maker = hashlib.sha256(Path(__file__).read_bytes())
            maker.update(f"{jinja2.__version__} {importlib.util.MAGIC_NUMBER.hex()}".encode())
            self.maker = maker.hexdigest()[:16]
        return f"{self.maker}-{_source_key(source)}.{kind}"

    def _read(self, source: str, kind: str) -> Any:
        data = self.FOLDER.read(self._entry(source, kind))
        try:
            return marshal.loads(data) if data else None
        except (EOFError, ValueError, TypeError):
            return None

    def code(self, source: str) -> types.CodeType | None:
        code = self._read(source, "code")
        return code if isinstance(code, types.CodeType) else None

    def read_names(self, source: str) -> _Names | None:
        """The names `source` reads, False if it reads `random`, None if not known."""
        names = self._read(source, "names")
        if names is False or (isinstance(names, tuple) and all(type(n) is str for n in names)):
            return cast(_Names, names)
        return None

    def put(
        self, source: str, code: types.CodeType | None = None, names: _Names | None = None
    ) -> None:
        if code is not None:
            self.FOLDER.write(self._entry(source, "code"), marshal.dumps(code))
        if names is not None:
            self.FOLDER.write(self._entry(source, "names"), marshal.dumps(names))


def _source_key(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


_kept_code = _KeptCode()


@lru_cache(maxsize=2048)
def compile_expression(source: str) -> Any:
    return ENV.compile_expression(source, undefined_to_none=False)


# Templates already compiled, looked up without entering the guard (a compile that failed
# is not kept, so it fails again, guarded, the next time).
_compiled: dict[str, jinja2.Template] = {}
_COMPILED_MAX = 8192


def render(source: str, data: dict[str, Any]) -> str:
    """`templating.render` of a template it could not read without Jinja."""
    # Compiling (once per source) is not the template's work: only rendering is counted.
    template = _compiled.get(source)
    if template is None:
        template = _guarded(lambda: compile_template(source), data, counted=False)
        if len(_compiled) >= _COMPILED_MAX:
            _compiled.clear()
        _compiled[source] = template
    key = _memo_key(source, data)
    if key is not None:
        found = _rendered.get(key[0])
        if found is not None and all(a is b for a, b in zip(found[0], key[1], strict=True)):
            return found[1]

    def work() -> str:
        total = 0
        parts: list[str] = []
        for chunk in template.generate(data):
            total += len(chunk)
            if total > MAX_TEXT:
                raise TemplateFailure(f"the template makes more than {MAX_TEXT:,} characters")
            parts.append(chunk)
        return "".join(parts)

    result: str = _guarded(work, data)
    if key is not None and len(result) <= _RENDERED_TEXT:
        if len(_rendered) >= _RENDERED_MAX:
            _rendered.clear()
        _rendered[key[0]] = (key[1], result)
    return result


_read_names: dict[str, tuple[str, ...] | None] = {}


def _names_read(source: str) -> tuple[str, ...] | None:
    """The data names a (compiled) template reads, or None when its output may change
    with something other than them (the `random` filter)."""
    if source not in _read_names:
        kept = _kept_code.read_names(source)
        if kept is None:
            ast = ENV.parse(source)
            uses_random = any(f.name == "random" for f in ast.find_all(nodes.Filter))
            kept = False if uses_random else tuple(sorted(meta.find_undeclared_variables(ast)))
            _kept_code.put(source, names=kept)
        _read_names[source] = None if kept is False else kept
    return _read_names[source]


def _memo_key(source: str, data: dict[str, Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """The key of a render in `_rendered` and the objects it was made from, or None when
    the render may not be reused (it reads a value that may change, or a missing one)."""
    names = _names_read(source)
    if names is None:
        return None
    parts: list[Any] = [source]
    objects: list[Any] = []
    for name in names:
        if name not in data:
            return None
        value = data[name]
        kind = type(value)
        if kind not in _STABLE_TYPES:
            return None
        if kind in _SCALARS:
            # 1, 1.0 and True are equal as keys but render differently: the type is kept too
            parts.append((kind, value))
        else:
            parts.append((kind, id(value)))
            objects.append(value)
    return tuple(parts), tuple(objects)
