"""The command line as a user runs it: clear one-line errors, exit 1, out/ untouched."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from tests_support import run_printgen

ROOT = Path(__file__).resolve().parent.parent


printgen = run_printgen


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture()
def built(project_copy: Path) -> Path:
    result = printgen(
        project_copy, "build", "submarine-attack", "--paper", "a4", "--no-png", "--no-rulebook"
    )
    assert result.returncode == 0, result.stderr
    assert "submarine-attack:" in result.stdout and "manifest.json" in result.stdout
    return project_copy


def _break(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES = {
    "yaml syntax": (
        "components/submarine-attack/cards.yaml",
        "  - id: red\n",
        "  - id: [red\n",
        r"cards.yaml:\d+:\d+: YAML syntax error",
    ),
    "unknown key": (
        "components/submarine-attack/cards.yaml",
        "    values: {ships: 1}",
        "    valeus: {ships: 1}",
        r"cards.yaml:\d+:5: unknown key 'valeus'; did you mean 'values'\?",
    ),
    "negative count": (
        "components/submarine-attack/cards.yaml",
        "count: 2",
        "count: -2",
        r"cards.yaml:\d+:12: count must be a positive integer \(or 0: no copies at the current rules\), got -2",
    ),
    "missing font": (
        "layouts/fonts.yaml",
        "fonts/BIZUDPGothic-Bold.ttf",
        "fonts/Missing-Bold.ttf",
        r"fonts.yaml:\d+:\d+: font file 'fonts/Missing-Bold.ttf' not found",
    ),
    "missing image": (
        "layouts/submarine-attack/back.yaml",
        "  - id: fleet\n",
        "  - id: logo\n    type: image\n    image: art/logo.png\n    box: [20mm, 40mm, 20mm, 20mm]\n"
        "  - id: fleet\n",
        r"back.yaml:\d+:\d+: submarine-attack/back: image 'art/logo.png' not found",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_clear_line_and_leaves_out_untouched(built: Path, case: str) -> None:
    rel, old, new, pattern = CASES[case]
    before = snapshot(built / "out")
    _break(built, rel, old, new)
    result = printgen(
        built, "build", "submarine-attack", "--paper", "a4", "--no-png", "--no-rulebook"
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    import re

    assert re.search(pattern, lines[0]), lines[0]
    assert snapshot(built / "out") == before
    assert not [p for p in (built / "out").iterdir() if p.name.startswith(".")]


def test_text_that_cannot_fit_names_game_component_and_field(project_copy: Path) -> None:
    _break(
        project_copy,
        "layouts/submarine-attack/transport.yaml",
        '    text: "{{ t(s.score) }}"\n    size: 7.5pt\n',
        '    text: "{{ t(s.score) }}"\n    size: 40pt\n    min_size: 30pt\n',
    )
    result = printgen(project_copy, "validate", "submarine-attack")
    assert result.returncode == 1
    assert (
        "text does not fit: game submarine-attack, component transport-1-red, copies 1-3"
        in result.stderr
    )
    assert "field 'score'" in result.stderr and "Traceback" not in result.stderr


def test_list_validate_and_unknown_game(project_copy: Path) -> None:
    listed = printgen(project_copy, "list")
    assert (
        listed.returncode == 0
        and "submarine-attack" in listed.stdout
        and "36 card" in listed.stdout
    )
    ok = printgen(project_copy, "validate")
    assert ok.returncode == 0 and "ok submarine-attack" in ok.stdout
    bad = printgen(project_copy, "build", "no-such-game")
    assert bad.returncode == 1 and "unknown game 'no-such-game'" in bad.stderr


def test_options_select_paper_language_and_modes(project_copy: Path) -> None:
    result = printgen(
        project_copy,
        "build",
        "submarine-attack",
        "--paper",
        "letter",
        "--lang",
        "ja",
        "--duplex",
        "short",
        "--no-png",
        "--no-rulebook",
        "--out",
        "elsewhere",
    )
    assert result.returncode == 0, result.stderr
    files = {p.name for p in (project_copy / "elsewhere" / "submarine-attack").iterdir()}
    assert files == {
        "sheets-letter-duplex-short.pdf",
        "calibration-letter.pdf",
        "cards.pdf",
        "manifest.json",
    }
    fold = printgen(
        project_copy,
        "build",
        "submarine-attack",
        "--paper",
        "a4",
        "--fold",
        "--no-png",
        "--no-rulebook",
    )
    assert (
        fold.returncode == 0
        and (project_copy / "out" / "submarine-attack" / "sheets-a4-fold.pdf").exists()
    )
    # the output is made in a temporary folder and renamed into place, with the modes any
    # new folder and file get (not the 0700 and 0600 of a temporary one)
    umask = os.umask(0o022)
    os.umask(umask)
    for path in (
        project_copy / "elsewhere" / "submarine-attack",
        project_copy / "elsewhere" / "submarine-attack" / "cards.pdf",
        project_copy / "out" / "submarine-attack",
    ):
        usual = (0o777 if path.is_dir() else 0o666) & ~umask
        assert stat.S_IMODE(path.stat().st_mode) == usual, (path, oct(path.stat().st_mode))
    bad = printgen(project_copy, "build", "--duplex-offset", "one,two")
    assert bad.returncode == 2 and "X,Y in millimetres" in bad.stderr


def test_check_replays_examples_and_fails_on_a_wrong_expectation(project_copy: Path) -> None:
    ok = printgen(project_copy, "check", "submarine-attack", "--no-claims")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("\nok ") + ok.stdout.startswith("ok ") >= 5 and "FAIL" not in ok.stdout
    target = (
        project_copy
        / "components"
        / "submarine-attack"
        / "examples"
        / "07-seed-round-won-by-sinkings.yaml"
    )
    text = target.read_text(encoding="utf-8")
    target.write_text(
        text.replace("round_points: {red: 6, blue: 0}", "round_points: {red: 7, blue: 0}"),
        encoding="utf-8",
    )
    bad = printgen(project_copy, "check", "submarine-attack", "--no-claims")
    assert bad.returncode == 1
    assert "FAIL" in bad.stdout and "07-seed-round-won-by-sinkings.yaml" in bad.stdout
    assert "Traceback" not in bad.stderr


def test_a_read_only_output_folder_is_one_line_and_exit_1(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """chmod does not stop root (CI runs as root), so the operating system's refusal is
    simulated where printgen first writes: the staging folder inside out/."""
    import errno
    import os

    from printgen import build as build_module
    from printgen.cli import main

    before = snapshot(built / "out")

    def refuse(*_args: object, **kwargs: object) -> str:
        folder = str(kwargs.get("dir", "out"))
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), folder)

    monkeypatch.setattr(build_module.tempfile, "mkdtemp", refuse)
    monkeypatch.chdir(built)
    with pytest.raises(SystemExit) as stopped:
        main(["--root", str(built), "build", "submarine-attack", "--force", "--no-png"])
    assert stopped.value.code == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Permission denied" in lines[0] and "out" in lines[0], lines
    assert snapshot(built / "out") == before


def test_the_command_tunes_the_cycle_collector_a_caller_of_main_keeps_its_own() -> None:
    """The `printgen` process collects young cycles every 200,000 new objects and leaves what the
    imports made out of its collections; a program calling `main` in its own process (as
    these tests do) keeps the collector as it set it."""
    import gc
    import subprocess
    import sys

    from printgen.cli import main

    before = (gc.get_threshold(), gc.get_freeze_count())
    with pytest.raises(SystemExit):
        main(["--root", str(ROOT), "list", "--bogus"])
    main(["--root", str(ROOT), "list"])
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    code = (  # the command ends the process: what it leaves is read by an exit handler
        "import atexit, gc, sys\n"
        "from printgen.cli import command\n"
        f"sys.argv = ['printgen', '--root', {str(ROOT)!r}, 'list']\n"
        "atexit.register(lambda: print(gc.get_threshold()[0], gc.get_freeze_count() > 0))\n"
        "command()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.splitlines()[-1] == "200000 True"


def test_the_command_ends_without_teardown_yet_as_sys_exit_would(tmp_path: Path) -> None:
    """The `printgen` process ends at once when its work is done (no taking the
    interpreter apart), with the status, the output and the exit handlers' work a normal
    exit gives: printgen's digest store is saved, a usage mistake says so with status 2,
    output piped into a reader that stops early ends the command quietly."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PRINTGEN_CACHE_DIR": str(tmp_path / "cache")}

    def printgen(*args: str) -> subprocess.CompletedProcess[str]:
        return run_printgen(ROOT, *args, env=env)

    built = printgen(
        "build", "kill-shot", "--out", str(tmp_path / "out"), "--no-png", "--no-rulebook"
    )
    assert built.returncode == 0, built.stderr
    assert "kill-shot:" in built.stdout and "manifest.json" in built.stdout
    assert (tmp_path / "cache" / "digests.json").is_file()  # an exit handler's work
    wrong = printgen("build", "--paper", "a5")
    assert wrong.returncode == 2 and "a5" in wrong.stderr and "Traceback" not in wrong.stderr
    listed = printgen("list")
    assert listed.returncode == 0 and "submarine-attack" in listed.stdout
    piped = subprocess.run(
        f"{sys.executable} -m printgen --root {ROOT} list | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert piped.returncode == 0 and len(piped.stdout) == 10 and "Traceback" not in piped.stderr
