"""Compile the rules engines' kernels with mypyc (a set-up step: `make` runs it).

    python -m printgen.compile_kernels [--force]

Each kernel of `rules_engine.native.KERNELS` is compiled as it is, by mypyc (part of mypy, a
development dependency), into rules_engine/native/lib/, with the digest of the sources it was
compiled from (`rules_engine.native.source_digest`) beside it; `rules_engine.native` loads
it in place of the Python module while that digest matches.  A kernel compiled from the same
sources already is left as it is, so the step costs nothing when nothing changed.  Without
mypyc or a C compiler it says so and ends well: the engines play their Python kernels, the
same games, slower.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rules_engine.native import KERNELS, LIB, digest_file, kept_digest, source_digest

ROOT = Path(__file__).resolve().parent.parent

SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

build, lib, *paths = sys.argv[1:]
del sys.argv[1:]
setup(
    name="printgen-kernels",
    ext_modules=mypycify(paths, opt_level="3", separate=True, target_dir=build + "/c"),
    script_args=["build_ext", "--build-temp", build + "/temp", "--build-lib", lib,
                 "--parallel", "2"],
)
"""


def up_to_date(source: str, digest: str) -> bool:
    """`source` was compiled from these sources already."""
    return kept_digest(source) == digest


def compile_kernels(force: bool = False) -> None:
    """Compile the kernels that need it (or say why they cannot be)."""
    todo = {}
    for source in KERNELS:
        digest = source_digest(source)
        if force or not up_to_date(source, digest):
            todo[source] = digest
    if not todo:
        return
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        print("note: mypyc is not installed; the engines play their Python kernels (slower)")
        return
    for source in todo:
        digest_file(source).unlink(missing_ok=True)
    names = ", ".join(source.split(".")[1] for source in todo)
    print(f"compiling the engines' kernels ({names}) with mypyc ...", flush=True)
    build = Path(tempfile.mkdtemp(prefix="printgen-kernels-"))
    try:
        (build / "setup.py").write_text(SETUP, encoding="utf-8")
        paths = [str(Path(*source.split(".")).with_suffix(".py")) for source in todo]
        run = subprocess.run(
            [sys.executable, str(build / "setup.py"), str(build), str(LIB), *paths],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    finally:
        shutil.rmtree(build, ignore_errors=True)
    if run.returncode != 0:
        lines = (run.stdout + run.stderr).strip().splitlines()
        errors = [line for line in lines if "error:" in line] or lines[-5:]
        print(
            "\n".join(errors[-5:]) + "\nnote: the kernels could not be compiled (above); the "
            "engines play their Python kernels: the same games, slower"
        )
        return
    for source, digest in todo.items():
        digest_file(source).write_text(digest + "\n", encoding="ascii")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="compile even if up to date")
    compile_kernels(parser.parse_args().force)


if __name__ == "__main__":
    main()
