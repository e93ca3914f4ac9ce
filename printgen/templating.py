"""The one template environment: every Jinja template of a game folder renders here.

Layout fields, component texts, layout strings, rulebook sections, captions and
option texts come from game folders, which are untrusted input (a co-designer's zip,
a downloaded print-and-play).  They all render in one sandbox that:

- refuses Python internals (`__class__`, `__globals__`, `cycler.__init__`, ...) and
  changes to lists and dicts (Jinja's immutable sandbox);
- bounds the work a template may ask for: texts, repetitions and numbers stay small,
  and the steps a render takes (each item a loop goes through, each call, weighed by the
  size of what it is handed) are counted: a render may take `MAX_STEPS`, and all renders
  of one game `STEP_BUDGET`.  Counted, not timed, so that a template fails or passes
  alike on every machine, however busy; the time a render takes (`TIME_LIMIT`) and all
  of them (`TIME_BUDGET`) is only a last stop for work no step counts;
- turns an undefined value into a message that names what is missing, where the data
  lies, and the closest known key.

Errors come out as `TemplateFailure`; callers add the piece and the file:line.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import marshal
import re
import signal
import threading
import time
import types
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import jinja2
from jinja2 import meta, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import LoopContext, Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment

from printgen.cache import KeptFolder
from printgen.errors import Location, PrintgenError

MAX_TEXT = 100_000  # characters a template, or one value inside it, may produce
MAX_ARGUMENT_TEXT = 10_000  # characters of a text handed to a filter or function
MAX_NUMBER_ARGUMENT = 100_000  # a width, a count or a repeat handed to a filter or function
MAX_INT_BITS = 4_096  # integers computed in a template
MAX_RANGE = 10_000  # items `range()` may produce
MAX_STEPS = 1_000_000  # steps one render may take (about a second of work)
STEP_BUDGET = 20_000_000  # steps all renders of one game may take (a real card or section
# template takes at most a few hundred; 5,000 cards of ten such fields stay well under)
TEXT_PER_STEP = 64  # characters of a text handed to a call that count as one more step
MACRO_CALL = 5  # steps a call of a macro (or a recursive loop's `loop()`) counts
TIME_LIMIT = 5.0  # seconds one render may take (a last stop: the steps come first)
TIME_BUDGET = 60.0  # seconds all renders of one game may take (the same; the five games'
# renders take about a second in all; timed by the monotonic clock, which a busy machine
# reads in a tenth of a microsecond where its CPU clocks took tens)

T = TypeVar("T")

_WIDE_FORMAT = re.compile(r"\d{6,}")


class TemplateFailure(Exception):
    """A template could not be rendered; the message is for the user as it is."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(frozen=True)
class Origin:
    """Where a mapping handed to templates comes from: what it is, and its place."""

    label: str  # "component torpedo-a (copies 1-2)"
    noun: str  # "value": "component torpedo-a has no value 'dice'"
    where: Location | None


class DataDict(dict[str, Any]):
    """Game data for templates: keys read as attributes (`rules.target_points`), and
    `rules.values` is the `values` key, never dict.values. Knows its origin, so a missing
    key names the YAML that should hold it."""

    __slots__ = ("_origin",)

    def __init__(self, data: dict[str, Any], origin: Origin | None = None) -> None:
        super().__init__(data)
        self._origin = origin

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        return super().__getattribute__(name)


RULES_ORIGIN = Origin("the game's rules (game.yaml, rules:)", "rule", None)


def data_view(value: Any, origin: Origin | None = None) -> Any:
    """Plain YAML data as template data (mappings as DataDicts, all the way down)."""
    if isinstance(value, dict):
        return DataDict({str(k): data_view(v) for k, v in value.items()}, origin)
    if isinstance(value, list):
        return [data_view(v) for v in value]
    return value


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


def _describe(owner: Any) -> str:
    if isinstance(owner, dict):
        return "this mapping"
    if isinstance(owner, list | tuple):
        return "this list"
    if isinstance(owner, str):
        return "this text"
    if isinstance(owner, bool | int | float):
        return f"the number {owner}"
    if owner is None:
        return "an empty value (null)"
    return "this value"


def keys_of(owner: Any) -> list[str]:
    """The names a template can read from `owner` (for 'did you mean')."""
    keys = getattr(owner, "template_keys", None)
    if callable(keys):
        return sorted(str(k) for k in keys())
    if isinstance(owner, dict):
        return sorted(str(k) for k in owner)
    fields = getattr(type(owner), "model_fields", None)
    if isinstance(fields, dict):
        return sorted(fields)
    return []


def suggestion(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


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


def _check_argument(value: Any) -> int:
    """Refuse an argument too large to hand to a filter or function; gives its weight in
    steps (what working through it costs: its items, or its text by `TEXT_PER_STEP`)."""
    if isinstance(value, list | tuple | dict):
        items = list(value.values()) if isinstance(value, dict) else value
        if len(items) > MAX_TEXT:
            raise TemplateFailure(f"a list of {len(items):,} items is handed to a function")
        text = sum(len(v) for v in items if isinstance(v, str))
        if text > MAX_TEXT * 10:
            raise TemplateFailure(f"a list holding {text:,} characters is handed to a function")
        return len(items) + text // TEXT_PER_STEP
    if isinstance(value, str):
        if len(value) > MAX_ARGUMENT_TEXT:
            raise TemplateFailure(
                f"a text of {len(value):,} characters is handed to a function (at most "
                f"{MAX_ARGUMENT_TEXT:,})"
            )
        return len(value) // TEXT_PER_STEP
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER_ARGUMENT:
        raise TemplateFailure(
            f"the number {value} is handed to a function (at most {MAX_NUMBER_ARGUMENT:,}): "
            "templates work on a card's data, not on large amounts"
        )
    return _weight(value)


def _check_result(value: Any) -> Any:
    if isinstance(value, str | list | tuple) and len(value) > MAX_TEXT:
        raise TemplateFailure(
            f"a template made a value of {len(value):,} items (at most {MAX_TEXT:,})"
        )
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise TemplateFailure("a template made a number too large to print")
    return value


def _check_format(fmt: Any) -> None:
    if isinstance(fmt, str) and _WIDE_FORMAT.search(fmt):
        raise TemplateFailure("a format asks for a width or precision of 100,000 or more")


def _bounded(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or test whose arguments and result are checked."""

    def checked(*args: Any, **kwargs: Any) -> Any:
        steps = 1
        for value in (*args, *kwargs.values()):
            steps += _check_argument(value)
        _spend(steps)
        if getattr(function, "__name__", "") == "do_format" and args:
            _check_format(args[0])
        return _check_result(function(*args, **kwargs))

    checked.__name__ = getattr(function, "__name__", "filter")
    for marker in ("jinja_pass_arg",):
        if hasattr(function, marker):
            setattr(checked, marker, getattr(function, marker))
    return checked


def by_id(items: Any) -> DataDict:
    """A list of mappings with `id` keys as one mapping by id: `by_id(rules.optional_rules)`
    (templates change no data, so they cannot build such an index themselves)."""
    if not isinstance(items, list | tuple):
        raise TemplateFailure(
            f"by_id() takes a list of mappings with an 'id', got {_describe(items)}"
        )
    found: dict[str, Any] = {}
    for item in items:
        key = item.get("id") if isinstance(item, dict) else getattr(item, "id", None)
        if key is None:
            raise TemplateFailure("by_id(): an item of the list has no 'id'")
        found[str(key)] = item
    return DataDict(found)


class _Meter:
    """The steps left to the render under way (one per thread: the preview renders in
    threads of its own)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


_meters = threading.local()
_MACROS = (Macro, LoopContext)
_TOO_MANY_STEPS = (
    f"the template repeats its work more than {MAX_STEPS:,} times (loop items and calls): "
    "simplify its loops"
)


def _spend(steps: int) -> None:
    meter: _Meter | None = getattr(_meters, "meter", None)
    if meter is not None:
        meter.left -= steps
        if meter.left < 0:
            raise TemplateFailure(_TOO_MANY_STEPS)


def _weight(value: Any) -> int:
    """The steps going through `value` costs: its items, or its text by `TEXT_PER_STEP`."""
    if isinstance(value, str):
        return len(value) // TEXT_PER_STEP
    if isinstance(value, list | tuple | dict | range | set | frozenset):
        return len(value)
    return 0


def _one_by_one(items: Any, meter: _Meter) -> Any:
    for item in items:
        meter.left -= 1
        if meter.left < 0:
            raise TemplateFailure(_TOO_MANY_STEPS)
        yield item


def _range(*args: int) -> range:
    found = range(*args)
    if len(found) > MAX_RANGE:
        raise TemplateFailure(f"range() of {len(found):,} items (at most {MAX_RANGE:,})")
    return found


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


def is_template(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


class _Timeout(BaseException):
    """Raised by the alarm inside a render that ran too long (not an Exception, so no
    template code can swallow it)."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Timeout


_active = threading.local()
# `signal.signal` without its wrapper, which converts arguments and result to enums and
# costs more than the rest of a short render; handlers come back as they went in.
_set_handler: Callable[[int, Any], Any] = importlib.import_module("_signal").signal
_SIGALRM = int(signal.SIGALRM)


def _arm(seconds: float) -> Any:
    """Start the alarm of one render; returns the previous SIGALRM handler (in a tuple: it
    may itself be None) for `_disarm` to put back, or None when the alarm is not ours to
    set: not the main thread, where signals arrive, or a render inside a render, which runs
    under the outer deadline."""
    if getattr(_active, "on", False) or threading.current_thread() is not threading.main_thread():
        return None
    previous = _set_handler(_SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _active.on = True
    return (previous,)


def _disarm(armed: Any) -> None:
    if armed is None:
        return
    _active.on = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    _set_handler(_SIGALRM, armed[0])


_spent = {"steps": 0, "seconds": 0.0}


def reset_budget() -> None:
    """Start a new budget of steps and time (once per game, so a long-running process, a
    test session say, does not add up the renders of unrelated games)."""
    _spent["steps"] = 0
    _spent["seconds"] = 0.0


def _guarded(work: Callable[[], Any], data: dict[str, Any], counted: bool = True) -> Any:
    """Run `work` (a render of a template over `data`) under the deadline, its steps
    counted (`counted`: a compile is not the template's work), its failures as
    `TemplateFailure`. A render inside a render spends the outer one's steps."""
    meter = None
    if counted and getattr(_meters, "meter", None) is None:
        meter = _meters.meter = _Meter(MAX_STEPS)
        started = time.perf_counter()
    try:
        armed = _arm(TIME_LIMIT)
        try:
            result = work()
        finally:
            _disarm(armed)
            if meter is not None:
                _meters.meter = None
        if meter is not None:
            _spent["steps"] += MAX_STEPS - meter.left
            _spent["seconds"] += time.perf_counter() - started
            if _spent["steps"] > STEP_BUDGET:
                raise TemplateFailure(
                    f"the templates repeat their work more than {STEP_BUDGET:,} times in all "
                    "(loop items and calls): simplify their loops"
                )
            if _spent["seconds"] > TIME_BUDGET:
                raise TemplateFailure(
                    f"the templates have worked for more than {TIME_BUDGET:g} s in all: "
                    "simplify their loops"
                )
        return result
    except _Timeout:
        raise TemplateFailure(
            f"the template ran longer than {TIME_LIMIT:g} s: simplify its loops"
        ) from None
    except MissingValue as exc:
        names = sorted(data)
        message, _where = missing_message(exc, names)
        raise MissingFailure(message, exc, names) from None
    except jinja2.exceptions.SecurityError as exc:
        found = re.search(r"attribute '([^']+)'", str(exc))
        what = f"'{found.group(1)}'" if found else "Python internals"
        raise TemplateFailure(
            f"refused: a template may not reach {what} (templates only read the game's data, "
            "and change nothing)",
            _template_line(exc),
        ) from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateFailure(f"template syntax error: {exc.message}", exc.lineno) from None
    except jinja2.TemplateError as exc:
        raise TemplateFailure(f"template error: {_plain(str(exc))}", _template_line(exc)) from None
    except RecursionError:
        raise TemplateFailure("the template calls itself too deeply") from None
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise TemplateFailure(f"template error: {_plain(str(exc))}", _template_line(exc)) from None
    except MemoryError:
        raise TemplateFailure("the template asked for more memory than a card needs") from None


class MissingFailure(TemplateFailure):
    """An undefined value; `where` is the data's place when it is known."""

    def __init__(self, message: str, exc: MissingValue, names: list[str]) -> None:
        super().__init__(message, _template_line(exc))
        self.where = missing_message(exc, names)[1]


def _template_line(exc: BaseException) -> int:
    """The template line an error arose on (from the traceback of compiled template code)."""
    tb = exc.__traceback__
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


_CLASS_NAMES = re.compile(r"'?<?(\w+) object>?'?")


def _plain(message: str) -> str:
    """Jinja's and Python's messages without internal class names."""
    message = re.sub(r"<[^<>]* object at 0x[0-9a-f]+>", "this value", message)
    message = message.replace("'dict object'", "this mapping").replace("'list object'", "this list")
    message = message.replace("'str object'", "this text").replace("'int object'", "this number")
    return _CLASS_NAMES.sub("this value", message) if " object" in message else message


# `{{ name }}` or `{{ name.key.key }}`: most card templates (a deck's colour, a value) only
# read a value.  Such a template is read here as its compiled code reads it (the sandbox's
# `getattr`, then `str`), without making a template context for it.
_LOOKUP = re.compile(r"\{\{-?\s*([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)\s*-?\}\}")
_lookups: dict[str, tuple[str, tuple[str, ...]] | None] = {}


def _looked_up(source: str, data: dict[str, Any]) -> str | None:
    """The template's text when it only reads a value that `data` holds, else None (the
    template is rendered the whole way: a missing value's error, say)."""
    if source in _lookups:
        found = _lookups[source]
    else:
        match = _LOOKUP.fullmatch(source)
        found = (match[1], tuple(match[2].split(".")[1:])) if match else None
        if len(_lookups) < _COMPILED_MAX:
            _lookups[source] = found
    if found is None or found[0] not in data:
        return None
    value = data[found[0]]
    for key in found[1]:
        value = ENV.getattr(value, key)
    if isinstance(value, jinja2.Undefined) or type(value) not in _PLAIN_OUTPUT:
        return None
    text = str(value)
    return text if len(text) <= MAX_TEXT else None


_PLAIN_OUTPUT = (str, int, float, bool)  # values whose text is their `str`, as Jinja's


def render(source: str, data: dict[str, Any]) -> str:
    """Render a template source with `data`; bounded, sandboxed (see the module's doc)."""
    if not is_template(source):
        return source
    quick = _looked_up(source, data)
    if quick is not None:
        return quick
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


# Memoized renders. A template reading only values that never change once made (text,
# numbers, and the frozen objects registered with `stable_type`: a deck, the game's info)
# gives the same text for the same values: the deck colour of 1,000 cards is rendered
# once per deck. Objects are told apart by identity, and kept with the result so that an
# identity is not reused while its entry lives. Failures are not kept (they fail again).
_STABLE_TYPES: set[type] = {str, int, float, bool, type(None)}
_SCALARS = (str, int, float, bool, type(None))
_read_names: dict[str, tuple[str, ...] | None] = {}
_rendered: dict[tuple[Any, ...], tuple[tuple[Any, ...], str]] = {}
_RENDERED_MAX = 20_000
_RENDERED_TEXT = 4_096  # characters: a longer text is made again (the memo stays small)


def stable_type(cls: type[T]) -> type[T]:
    """Mark a class whose objects never change once made (frozen), so that a render that
    reads only such objects (and text and numbers) may be reused for the same objects."""
    _STABLE_TYPES.add(cls)
    return cls


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


def evaluate(source: str, data: dict[str, Any]) -> Any:
    """Evaluate a Jinja expression (`each:`), bounded and sandboxed like `render`."""
    expression = _guarded(lambda: compile_expression(source), data, counted=False)
    return _guarded(lambda: expression(data), data)


def place(where: Location | None, line: int) -> Location | None:
    """The place of a template's line `line` inside a YAML value at `where` (a spreadsheet
    cell's lines are not its file's: the cell is the place)."""
    if where is None or line <= 1 or not where.line or type(where) is not Location:
        return where
    return Location(where.file, where.line + line - 1, 0)


def render_field(source: str, data: dict[str, Any], where: Location | None, what: str) -> str:
    """Render one templated field; errors name `what` (the piece and the field) and the
    template's place, or the data's place when the data lacks a value the field uses."""
    try:
        return render(source, data)
    except TemplateFailure as exc:
        raise template_error(exc, where, what) from None


def template_error(exc: TemplateFailure, where: Location | None, what: str) -> PrintgenError:
    at = place(where, exc.line)
    if isinstance(exc, MissingFailure) and exc.where is not None:
        # The data lacks what the template reads: point at the data, name the reader.
        reader = what.split(", ", 1)[1] if what.startswith("component ") and ", " in what else what
        return PrintgenError(f"{exc.message}; {at} reads it ({reader})", exc.where)
    return PrintgenError(f"{what}: {exc.message}", at)
