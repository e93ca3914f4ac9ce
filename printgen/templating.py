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

Jinja itself, and the sandbox built on it, are in printgen/sandbox.py, loaded by the first
template that needs them: a template that only reads a value (`{{ values.colour }}`) or
hands one to a function of printgen's (`{{ t(name) }}`) is read here, by the same rules
(a deck of such cards is printed without loading Jinja, a tenth of a small build's time).
"""

from __future__ import annotations

import difflib
import importlib
import re
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

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


_TOO_MUCH_IN_ALL = (
    f"the templates repeat their work more than {STEP_BUDGET:,} times in all "
    "(loop items and calls): simplify their loops"
)


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
                raise TemplateFailure(_TOO_MUCH_IN_ALL)
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
    except TemplateFailure:
        raise
    except RecursionError:
        raise TemplateFailure("the template calls itself too deeply") from None
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise TemplateFailure(f"template error: {_plain(str(exc))}", _template_line(exc)) from None
    except MemoryError:
        raise TemplateFailure("the template asked for more memory than a card needs") from None
    except Exception as exc:
        # Jinja's own errors (a missing value, a refused reach, a syntax error) can only
        # come from a template Jinja ran: printgen/sandbox.py words them
        jinja = sys.modules.get("printgen.sandbox")
        failure = jinja.failure(exc, data) if jinja is not None else None
        if failure is None:
            raise
        raise failure from None


class MissingFailure(TemplateFailure):
    """An undefined value; `where` is the data's place when it is known."""

    def __init__(self, message: str, line: int, where: Location | None) -> None:
        super().__init__(message, line)
        self.where = where


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


# `{{ name }}`, `{{ name.key.key }}` or `{{ f(name.key) }}`: most card templates (a deck's
# colour, a value, a bilingual text in the face's language) only read a value, or hand it
# to a function of printgen's (`t`).  Such a template is read here as its compiled code reads
# it (the sandbox's rules for `.key`, the call's checks and steps, then `str`), without Jinja
# and without making a template context for it.  Whatever this cannot tell (a missing value,
# an internal name, a value other than text or a number, a call that fails) is left to the
# full render, which gives Jinja's text or error.
_LOOKUP = re.compile(r"\{\{-?\s*([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)\s*-?\}\}")
_CALL = re.compile(r"\{\{-?\s*([A-Za-z_]\w*)\(\s*([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)\s*\)\s*-?\}\}")
# Words that are not names in a Jinja expression
_KEYWORDS = frozenset(
    ["true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if", "else"]
)
_Quick = tuple[str | None, str, tuple[str, ...]]  # the function, the name, its keys
_lookups: dict[str, _Quick | None] = {}
_LOOKUPS_MAX = 8192
# Objects that are not attributes' owners a template may read (their attributes are the
# sandbox's "internal" ones: a function's globals, a frame, ...)
_INTERNAL_OWNERS = (
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    type,
    types.TracebackType,
    types.FrameType,
    types.CodeType,
    types.GeneratorType,
    types.CoroutineType,
    types.AsyncGeneratorType,
)
_NOT_READ = object()


def _quick_form(source: str) -> _Quick | None:
    if source in _lookups:
        return _lookups[source]
    found: _Quick | None = None
    match = _LOOKUP.fullmatch(source)
    if match:
        found = (None, match[1], tuple(match[2].split(".")[1:]))
    else:
        match = _CALL.fullmatch(source)
        if match:
            found = (match[1], match[2], tuple(match[3].split(".")[1:]))
    if found is not None and (found[0] in _KEYWORDS or found[1] in _KEYWORDS):
        found = None
    if len(_lookups) < _LOOKUPS_MAX:
        _lookups[source] = found
    return found


def _attribute(owner: Any, name: str) -> Any:
    """`owner.name` as the sandbox reads it (the attribute, else the item), or `_NOT_READ`
    when that is not a plain read: a name the sandbox refuses, nothing found, a method."""
    if name.startswith("_") or isinstance(owner, _INTERNAL_OWNERS):
        return _NOT_READ
    try:
        value = getattr(owner, name)
    except AttributeError:
        try:
            return owner[name]
        except Exception:
            return _NOT_READ
    except Exception:
        return _NOT_READ
    return _NOT_READ if callable(value) else value


def _looked_up(source: str, data: dict[str, Any]) -> str | None:
    """The template's text when it only reads a value that `data` holds, or hands it to a
    function of printgen's (`pure_function`), else None (the template is rendered the
    whole way: a missing value's error, say)."""
    found = _quick_form(source)
    if found is None or found[1] not in data:
        return None
    function_name, name, keys = found
    value = data[name]
    for key in keys:
        value = _attribute(value, key)
        if value is _NOT_READ:
            return None
    steps = 0
    if function_name is not None:
        function: Any = data.get(function_name)
        if type(function) not in _PURE_FUNCTIONS:
            return None
        steps = 1 + _check_argument(value)  # the sandbox's call: the same checks and steps
        try:
            value = function(value)
        except Exception:
            return None
        _check_result(value)
    if type(value) not in _PLAIN_OUTPUT:
        return None
    text = str(value)
    if len(text) > MAX_TEXT:
        return None
    if steps:
        _spent["steps"] += steps
        if _spent["steps"] > STEP_BUDGET:
            raise TemplateFailure(_TOO_MUCH_IN_ALL)
    return text


_PLAIN_OUTPUT = (str, int, float, bool)  # values whose text is their `str`, as Jinja's
_PURE_FUNCTIONS: set[type] = set()


def pure_function(cls: type[T]) -> type[T]:
    """Mark a class of printgen's whose objects templates call (`t`), as functions of their
    argument alone that change nothing: `{{ t(name) }}` is then read without Jinja."""
    _PURE_FUNCTIONS.add(cls)
    return cls


def render(source: str, data: dict[str, Any]) -> str:
    """Render a template source with `data`; bounded, sandboxed (see the module's doc)."""
    if not is_template(source):
        return source
    quick = _looked_up(source, data)
    if quick is not None:
        return quick
    text: str = _jinja().render(source, data)
    return text


def _jinja() -> types.ModuleType:
    """printgen/sandbox.py: Jinja and the sandbox, loaded by the first template needing them."""
    from printgen import sandbox

    return sandbox


# Memoized renders. A template reading only values that never change once made (text,
# numbers, and the frozen objects registered with `stable_type`: a deck, the game's info)
# gives the same text for the same values: the deck colour of 1,000 cards is rendered
# once per deck. Objects are told apart by identity, and kept with the result so that an
# identity is not reused while its entry lives. Failures are not kept (they fail again).
_STABLE_TYPES: set[type] = {str, int, float, bool, type(None)}
_SCALARS = (str, int, float, bool, type(None))
_rendered: dict[tuple[Any, ...], tuple[tuple[Any, ...], str]] = {}
_RENDERED_MAX = 20_000
_RENDERED_TEXT = 4_096  # characters: a longer text is made again (the memo stays small)


def stable_type(cls: type[T]) -> type[T]:
    """Mark a class whose objects never change once made (frozen), so that a render that
    reads only such objects (and text and numbers) may be reused for the same objects."""
    _STABLE_TYPES.add(cls)
    return cls


def evaluate(source: str, data: dict[str, Any]) -> Any:
    """Evaluate a Jinja expression (`each:`), bounded and sandboxed like `render`."""
    expression = _guarded(lambda: _jinja().compile_expression(source), data, counted=False)
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
