"""The README's "A short tour" is a test: every command of its ```sh blocks runs, in order,
on a copy of the project, and what the README shows must really happen.

How the README is read (the section from "## A short tour" to the next "## " heading):

- A ```sh block holds commands, one a line; `#` starts a comment. Every line that is not
  blank or a comment must be a `printgen` (or `.venv/bin/printgen`) command of a kind
  this test knows how to run, else the test fails: a command added to the tour is run or
  refused, never skipped. A trailing `# exit status N` gives the expected status (else 0).
- A ```text block shows output of the last command (or, for `watch` and `preview`, what
  they print after the last edit or Ctrl-C): each shown line must match a real line,
  in order; lines shown one after another must be adjacent in the real output unless a
  line `...` separates them; `...` inside a line stands for any text. Clock times,
  durations ("in 0.4 s"), sizes in MB (which any change of a layout or font moves) and
  the preview's port are compared as placeholders, runs of whitespace as one space.
- `<!-- tour: VERB ARGS -->` comments (invisible on GitHub) are the steps a reader does by
  hand, and the checks of files the tour talks about:
  - `replace FILE OLD NEW [after LINE]`: edit FILE; OLD must occur once in it, or, after
    `after LINE`, it is the first OLD after the one line that reads LINE (stripped).
  - `json FILE`: the next ```json block is an excerpt of FILE (every key shown has the
    value shown; a list shown holds elements matching the real list's, in order).
  - `file FILE [TEXT...]`: FILE exists and holds each TEXT (an HTML file: its text).
  - `same-as-first-build DIR`: every file DIR/manifest.json lists has the bytes the first
    build of DIR made (its manifest's sha256 then and the file's bytes now).
  - `page PATH TEXT...`: the running `preview` serves PATH with each TEXT in its text.
  - `ctrl-c`: stop the running `watch` or `preview` as Ctrl-C does.

`watch` and `preview` run in the background while the tour's edits are made; each ```text
block after them is waited for. `preview` is given `--port 0` (any free port) so the test
never collides with a real preview on 8765.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TOUR_HEADING = "## A short tour"

# What the test knows how to run: printgen's commands that end by themselves, and those
# that run until Ctrl-C.
FINISHING = {"list", "build", "check", "validate", "rulebook-sync", "examples", "balance"}
LONG_RUNNING = {"watch", "preview"}
PROGRAMS = {"printgen", ".venv/bin/printgen"}
VERBS = {"replace", "json", "file", "same-as-first-build", "page", "ctrl-c"}
# Code blocks the tour may hold: commands, their output, a checked excerpt of a JSON file,
# and YAML showing an edit (which a `replace` comment makes). Any other block could hide
# a command the test would not run.
BLOCKS = {"sh", "text", "json", "yaml"}
SHELL_OPERATORS = {"&&", "||", "|", ";", "&", ">", ">>", "<", "2>&1"}

COMMAND_TIMEOUT = 600  # s, one finishing command (a full build is ~15 s, `check` with its
# claims ~30 s on an idle machine; the margin is for a busy one)
WAIT_TIMEOUT = 120  # s, for a shown line of watch/preview to come out

pytestmark = pytest.mark.xdist_group("tour")


# --------------------------------------------------------------------------- reading the tour


@dataclass
class Command:
    line: int
    argv: list[str]  # after the program name
    name: str  # the printgen command: build, watch, ...
    status: int

    @property
    def long_running(self) -> bool:
        return self.name in LONG_RUNNING


@dataclass
class Output:
    line: int
    lines: list[str]


@dataclass
class Directive:
    line: int
    verb: str
    args: list[str]
    body: str = ""  # the ```json block of a `json` directive


Step = Command | Output | Directive


def tour_section(text: str) -> tuple[int, list[str]]:
    """The tour's lines and the README line number of the first."""
    lines = text.splitlines()
    start = lines.index(TOUR_HEADING)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start + 1, lines[start:end]


def parse_command(number: int, text: str) -> Command:
    words = shlex.split(text, comments=True)
    assert words and words[0] in PROGRAMS, (
        f"README.md:{number}: the tour test does not know how to run {text.strip()!r}: "
        f"a tour command must be a printgen command ({', '.join(sorted(PROGRAMS))})"
    )
    operators = SHELL_OPERATORS.intersection(words)
    assert not operators, (
        f"README.md:{number}: the tour test does not know how to run {text.strip()!r}: "
        f"one printgen command a line, without {' '.join(sorted(operators))}"
    )
    argv = words[1:]
    name = next((w for w in argv if not w.startswith("-")), None)
    assert name is not None and name in FINISHING | LONG_RUNNING, (
        f"README.md:{number}: the tour test does not know how to run `printgen {name}` "
        f"(it knows {', '.join(sorted(FINISHING | LONG_RUNNING))}): teach it in "
        "tests/test_readme_tour.py"
    )
    comment = text.partition("#")[2]
    status = re.search(r"exit status (\d+)", comment)
    return Command(number, argv, name, int(status[1]) if status else 0)


def parse_tour(text: str) -> list[Step]:
    first, lines = tour_section(text)
    steps: list[Step] = []
    i = 0
    while i < len(lines):
        number, line = first + i, lines[i]
        fence = re.fullmatch(r"```(\w*)\s*", line)
        if fence:
            lang = fence[1]
            assert lang in BLOCKS, (
                f"README.md:{number}: the tour test does not know ```{lang} blocks (it knows "
                f"{', '.join(sorted(BLOCKS))}): commands go in ```sh, their output in ```text"
            )
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            assert end is not None, f"README.md:{number}: code block never closed"
            body = lines[i + 1 : end]
            if lang == "sh":
                for k, cmd in enumerate(body):
                    if cmd.strip() and not cmd.lstrip().startswith("#"):
                        steps.append(parse_command(number + 1 + k, cmd))
            elif lang == "text":
                steps.append(Output(number, body))
            elif lang == "json":
                last = steps[-1] if steps else None
                assert isinstance(last, Directive) and last.verb == "json" and not last.body, (
                    f"README.md:{number}: a ```json block in the tour must follow a "
                    "<!-- tour: json FILE --> comment, which the test checks it against"
                )
                last.body = "\n".join(body)
            i = end + 1
            continue
        if line.lstrip().startswith("<!-- tour"):
            comment = re.fullmatch(r"\s*<!-- tour: (.*?) -->\s*", line)
            assert comment, f"README.md:{number}: cannot read {line.strip()!r}"
            words = shlex.split(comment[1])
            assert words[0] in VERBS, (
                f"README.md:{number}: unknown tour step {words[0]!r} (known: "
                f"{', '.join(sorted(VERBS))})"
            )
            steps.append(Directive(number, words[0], words[1:]))
        i += 1
    return steps


# --------------------------------------------------------------------------- matching output


def normalise(line: str) -> str:
    line = re.sub(r"\b\d{2}:\d{2}:\d{2}\b", "HH:MM:SS", line)
    line = re.sub(r"\bin \d+(?:\.\d+)? s\b", "in N s", line)
    line = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", line)
    line = re.sub(r"\b\d+(?:\.\d+)? MB\b", "N MB", line)
    return " ".join(line.split())


def line_pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in normalise(shown).split("...")))


def groups_of(shown: list[str]) -> list[list[re.Pattern[str]]]:
    """Shown lines in runs that must be adjacent; `...` lines separate the runs."""
    groups: list[list[re.Pattern[str]]] = [[]]
    for line in shown:
        if not line.strip():
            continue
        if line.strip() == "...":
            groups.append([])
        else:
            groups[-1].append(line_pattern(line))
    return [g for g in groups if g]


def match(shown: list[str], real: list[str], start: int) -> int | None:
    """Where the shown lines end in `real` (matched from `start`), or None. Each run of
    adjacent lines is placed as early as it fits, which never loses a match."""
    lines = [normalise(r) for r in real]
    pos = start
    for group in groups_of(shown):
        found = next(
            (
                i
                for i in range(pos, len(lines) - len(group) + 1)
                if all(p.fullmatch(lines[i + k]) for k, p in enumerate(group))
            ),
            None,
        )
        if found is None:
            return None
        pos = found + len(group)
    return pos


def mismatch(where: str, shown: list[str], real: list[str]) -> str:
    return (
        f"{where}: the output the README shows is not what printgen printed.\n"
        "--- README shows:\n" + "\n".join(shown) + "\n--- printgen printed:\n" + "\n".join(real)
    )


def subset(shown: Any, real: Any, where: str = "$") -> None:
    """`shown` is an excerpt of `real` (see the module's docstring)."""
    if isinstance(shown, dict):
        assert isinstance(real, dict), f"{where}: expected an object, got {real!r}"
        for key, value in shown.items():
            assert key in real, f"{where}: no key {key!r} (keys: {sorted(real)})"
            subset(value, real[key], f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(real, list), f"{where}: expected a list, got {real!r}"
        pos = 0
        for n, item in enumerate(shown):
            for i in range(pos, len(real)):
                try:
                    subset(item, real[i], f"{where}[{i}]")
                except AssertionError:
                    continue
                pos = i + 1
                break
            else:
                raise AssertionError(
                    f"{where}: no element (after {pos}) like shown item {n}: {item!r}"
                )
    else:
        assert shown == real, f"{where}: README shows {shown!r}, the file has {real!r}"


def page_text(markup: str) -> str:
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


# --------------------------------------------------------------------------- running the tour


@dataclass
class Running:
    """A `watch` or `preview` in the background, its output read line by line."""

    command: Command
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    seen: int = 0  # lines already matched by a shown block
    stopped: bool = False

    def start_reading(self) -> None:
        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line.rstrip("\n"))

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()

    def wait_for(self, block: Output) -> None:
        deadline = time.monotonic() + WAIT_TIMEOUT
        while True:
            end = match(block.lines, list(self.lines), self.seen)
            if end is not None:
                self.seen = end
                return
            if time.monotonic() > deadline or (
                self.process.poll() is not None and not self.reader.is_alive()
            ):
                where = f"README.md:{block.line} (after README.md:{self.command.line})"
                raise AssertionError(mismatch(where, block.lines, list(self.lines)))
            time.sleep(0.1)

    def port(self) -> int:
        for line in self.lines:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                return int(found[1])
        raise AssertionError(f"no preview address in {self.lines}")

    def interrupt(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(
                f"README.md:{self.command.line}: Ctrl-C did not stop it in 30 s"
            ) from None
        self.reader.join(timeout=10)
        self.stopped = True
        assert status == self.command.status, (
            f"README.md:{self.command.line}: exit status {status} after Ctrl-C, the README "
            f"says {self.command.status}\n" + "\n".join(self.lines)
        )

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


class Tour:
    def __init__(self, project: Path) -> None:
        self.project = project
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.last: Command | None = None
        self.output: list[str] = []  # the last finishing command's output
        self.seen = 0
        self.running: Running | None = None
        self.first_build: dict[str, dict[str, str]] = {}  # folder -> path -> sha256

    def argv(self, command: Command) -> list[str]:
        argv = list(command.argv)
        if command.name == "preview":
            if "--port" in argv:
                argv[argv.index("--port") + 1] = "0"
            else:
                argv += ["--port", "0"]
        return [sys.executable, "-m", "printgen", *argv]

    def run(self, command: Command) -> None:
        assert self.running is None or self.running.stopped, (
            f"README.md:{command.line}: the tour starts a command while "
            f"README.md:{self.running.command.line} still runs: stop it first "
            "(<!-- tour: ctrl-c -->)"
        )
        self.running, self.last = None, command
        how: dict[str, Any] = {
            "cwd": self.project,
            "env": self.env,
            "stdout": subprocess.PIPE,
            "stderr": subprocess.STDOUT,
            "text": True,
            "encoding": "utf-8",
        }
        if command.long_running:
            self.running = Running(command, subprocess.Popen(self.argv(command), **how))
            self.running.start_reading()
            return
        done = subprocess.run(self.argv(command), timeout=COMMAND_TIMEOUT, check=False, **how)
        self.output, self.seen = done.stdout.splitlines(), 0
        assert done.returncode == command.status, (
            f"README.md:{command.line}: `printgen {shlex.join(command.argv)}` exited with "
            f"{done.returncode}, the README says {command.status}:\n{done.stdout}"
        )
        self.remember_first_builds()

    def remember_first_builds(self) -> None:
        out = self.project / "out"
        for manifest in sorted(out.glob("*/manifest.json")) if out.is_dir() else []:
            folder = manifest.parent.relative_to(self.project).as_posix()
            if folder not in self.first_build:
                self.first_build[folder] = self.file_hashes(manifest)

    @staticmethod
    def file_hashes(manifest: Path) -> dict[str, str]:
        files = json.loads(manifest.read_text("utf-8"))["files"]
        return {f["path"]: f["sha256"] for f in files}

    def show(self, block: Output) -> None:
        if self.running is not None:
            self.running.wait_for(block)
            return
        assert self.last is not None, f"README.md:{block.line}: output shown before any command"
        end = match(block.lines, self.output, self.seen)
        where = f"README.md:{block.line} (after README.md:{self.last.line})"
        assert end is not None, mismatch(where, block.lines, self.output)
        self.seen = end

    def do(self, step: Directive) -> None:
        getattr(self, "do_" + step.verb.replace("-", "_"))(step)

    def path(self, step: Directive, name: str) -> Path:
        path = (self.project / name).resolve()
        assert path.is_relative_to(self.project.resolve()), f"README.md:{step.line}: {name}"
        return path

    def do_replace(self, step: Directive) -> None:
        name, old, new, *rest = step.args
        path = self.path(step, name)
        text = path.read_text("utf-8")
        where = f"README.md:{step.line}: in {name}"
        if rest:
            assert len(rest) == 2 and rest[0] == "after", f"{where}: after LINE expected"
            starts = [m.start() for m in re.finditer(r"^.*$", text, re.M)]
            anchors = [s for s in starts if text[s:].split("\n", 1)[0].strip() == rest[1]]
            assert len(anchors) == 1, f"{where}: {len(anchors)} lines read {rest[1]!r}"
            at = text.find(old, anchors[0])
            assert at >= 0, f"{where}: no {old!r} after {rest[1]!r}"
        else:
            assert text.count(old) == 1, f"{where}: {old!r} occurs {text.count(old)} times"
            at = text.index(old)
        path.write_text(text[:at] + new + text[at + len(old) :], "utf-8")

    def do_json(self, step: Directive) -> None:
        assert step.body, f"README.md:{step.line}: no ```json block follows"
        real = json.loads(self.path(step, step.args[0]).read_text("utf-8"))
        try:
            subset(json.loads(step.body), real)
        except AssertionError as e:
            raise AssertionError(f"README.md:{step.line}: {step.args[0]}: {e}") from None

    def do_file(self, step: Directive) -> None:
        name, *texts = step.args
        path = self.path(step, name)
        assert path.is_file(), f"README.md:{step.line}: no {name}"
        if texts:
            content = path.read_text("utf-8")
            if path.suffix == ".html":
                content = page_text(content)
            for text in texts:
                assert text in content, f"README.md:{step.line}: {text!r} not in {name}"

    def do_same_as_first_build(self, step: Directive) -> None:
        folder = step.args[0].rstrip("/")
        assert folder in self.first_build, f"README.md:{step.line}: {folder} never built"
        manifest = self.path(step, folder) / "manifest.json"
        now = self.file_hashes(manifest)
        before = self.first_build[folder]
        assert now == before, (
            f"README.md:{step.line}: {folder} differs from its first build: "
            f"{sorted(p for p in now.keys() | before.keys() if now.get(p) != before.get(p))}"
        )
        for rel, sha in now.items():
            data = (manifest.parent / rel).read_bytes()
            assert hashlib.sha256(data).hexdigest() == sha, (
                f"README.md:{step.line}: {folder}/{rel} was changed"
            )

    def do_page(self, step: Directive) -> None:
        assert self.running is not None and not self.running.stopped, (
            f"README.md:{step.line}: no preview runs"
        )
        path, *texts = step.args
        url = f"http://127.0.0.1:{self.running.port()}{path}"
        with urllib.request.urlopen(url, timeout=30) as response:
            text = page_text(response.read().decode("utf-8"))
        for shown in texts:
            assert shown in text, f"README.md:{step.line}: {shown!r} not on {url}:\n{text}"

    def do_ctrl_c(self, step: Directive) -> None:
        assert self.running is not None and not self.running.stopped, (
            f"README.md:{step.line}: Ctrl-C, but nothing runs"
        )
        self.running.interrupt()

    def close(self) -> None:
        if self.running is not None:
            self.running.kill()


# --------------------------------------------------------------------------- the tests


def test_tour_parses_and_every_command_is_known() -> None:
    """Fast: the tour reads, and refuses what the test could not run."""
    steps = parse_tour(README.read_text("utf-8"))
    commands = [s for s in steps if isinstance(s, Command)]
    assert commands, "the tour shows no command"
    assert {c.name for c in commands} >= {"list", "build", "check", "watch", "preview"}
    assert any(c.status == 1 for c in commands), "the tour shows no failing build"
    assert any("--draft" in c.argv for c in commands)
    refused = [
        ("```sh\nls out/\n```", "does not know how to run"),
        ("```sh\n.venv/bin/printgen render x\n```", "does not know how to run `printgen render`"),
        ("```sh\nprintgen build x && ls out/\n```", "does not know how to run"),
        ("```console\n$ printgen build x\n```", "does not know ```console blocks"),
        ("```\nerror: ...\n```", "does not know ``` blocks"),
        ("<!-- tour: delete x -->", "unknown tour step"),
    ]
    for text, message in refused:
        with pytest.raises(AssertionError, match=message):
            parse_tour(f"{TOUR_HEADING}\n\n{text}\n")


def test_output_matching() -> None:
    real = ["12:00:01 a: made 3 in 0.4 s", "b", "c 1", "d", "e ... f"]
    assert match(["23:59:59 a: made 3 in 9.9 s", "b"], real, 0) == 2
    assert match(["a: made 3 in 0.4 s"], real, 0) is None  # a line is matched whole
    assert match(["...a: made ... s"], real, 0) == 1
    assert match(["b", "d"], real, 0) is None  # shown adjacent, not adjacent in real
    assert match(["b", "...", "d"], real, 0) == 4
    assert match(["d", "...", "b"], real, 0) is None  # order counts
    assert match(["e ... f"], real, 0) == 5
    subset({"a": [{"x": 1}, {"x": 3}]}, {"a": [{"x": 1, "y": 2}, {"x": 2}, {"x": 3}], "b": 0})
    with pytest.raises(AssertionError):
        subset({"a": [{"x": 3}, {"x": 1}]}, {"a": [{"x": 1}, {"x": 3}]})


def test_readme_tour(tmp_path: Path) -> None:
    """Run the tour on a copy of the project's games and layouts."""
    steps = parse_tour(README.read_text("utf-8"))
    project = tmp_path / "project"
    for name in ("components", "layouts"):
        shutil.copytree(ROOT / name, project / name)
    tour = Tour(project)
    try:
        for step in steps:
            if isinstance(step, Command):
                tour.run(step)
            elif isinstance(step, Output):
                tour.show(step)
            else:
                tour.do(step)
        assert tour.running is None or tour.running.stopped, (
            f"README.md:{tour.running.command.line}: the tour ends with it still running: "
            "stop it (<!-- tour: ctrl-c -->)"
        )
    finally:
        tour.close()
