"""Compiled kernels: the search players' hot loops, compiled to C by mypyc when the project is
set up (`make` runs `printgen.compile_kernels`), used only while they match their sources.

A kernel (`KERNELS`: the search players' playouts of Submarine Attack, S.U.B.Z.E.R.O.,
SQUARES II and KILL SHOT) is written once, in Python, in its game's package.  Setting up
compiles it as it is into `rules_engine/native/lib/` (not on the import path), beside the
digest of what it was compiled from: the game's package and the engine's shared modules
(`source_digest`).  `install` (run when `rules_engine` is imported) puts a finder first on
the import path: importing the kernel loads the compiled module instead of the Python one
while the digest still matches, else the import goes on as usual.
So a changed rule is played at once (by the Python kernel, slower, until `make` compiles it
again); a machine without a C compiler plays the Python kernel; `PRINTGEN_PURE_PYTHON=1`
asks for it.  Both play the same games from the same generator (tests hold them to it).

Only the standard library is imported here (the compiler is printgen's set-up step).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

KERNELS: Final = (
    "rules_engine.submarine_attack.kernel",
    "rules_engine.subzero.kernel",
    "rules_engine.squares2.playouts",
    "rules_engine.kill_shot.kernel",
)
"""The modules compiled when the project is set up."""

PURE_ENV: Final = "PRINTGEN_PURE_PYTHON"
"""Set (to anything but 0): every kernel is its Python module, compiled or not."""

SHARED: Final = "__mypyc"
"""mypyc puts a compiled module's code in a library of that name plus this suffix."""

ENGINE: Final = Path(__file__).resolve().parent.parent  # rules_engine/
LIB: Final = Path(__file__).resolve().parent / "lib"  # the compiled modules, by their names

_chosen: dict[str, tuple[ModuleType | None, str]] = {}


def compiled_file(name: str) -> Path | None:
    """The extension module compiled for the module `name`, if there is one."""
    stem = LIB.joinpath(*name.split("."))
    for suffix in EXTENSION_SUFFIXES:
        path = stem.with_name(stem.name + suffix)
        if path.is_file():
            return path
    return None


def digest_file(source: str) -> Path:
    """Where the digest of what `source` was compiled from is kept."""
    return LIB.joinpath(*source.split(".")).with_suffix(".sha256")


def kept_digest(source: str) -> str | None:
    """The digest of the sources `source`'s compiled module was compiled from, or None when
    there is no compiled module (or no digest beside it: a compile that failed leaves none)."""
    if compiled_file(source) is None:
        return None
    try:
        return digest_file(source).read_text(encoding="ascii").strip()
    except OSError:
        return None


def source_files(source: str) -> list[Path]:
    """What a kernel (`rules_engine.<game>.kernel`) is compiled from, in order: the engine's
    shared modules (`rules_engine/*.py`) and every module of its game's package."""
    package = ENGINE.joinpath(*source.split(".")[1:-1])
    return sorted(ENGINE.glob("*.py")) + sorted(package.glob("*.py"))


def source_digest(source: str) -> str:
    """The SHA-256 of `source_files` (their names relative to rules_engine/ and contents)."""
    digest = hashlib.sha256()
    for path in source_files(source):
        digest.update(path.relative_to(ENGINE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _load(source: str) -> tuple[ModuleType | None, str]:
    """The compiled module of `source`, loaded, if it is to be used; and how `source` is
    played, in words."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None, f"Python ({PURE_ENV} is set)"
    kept = kept_digest(source)
    path = compiled_file(source)
    if kept is None or path is None:
        return None, "Python (not compiled: `make` compiles it)"
    if kept != source_digest(source):
        return None, "Python (its sources changed since it was compiled: `make` compiles it)"
    loader = ExtensionFileLoader(source, str(path))
    spec = ModuleSpec(source, loader, origin=str(path))
    try:
        module = loader.create_module(spec)
        loader.exec_module(module)
    except Exception as exc:  # compiled for another interpreter, or for other modules
        return None, f"Python (the compiled module did not load: {exc})"
    return module, "compiled (mypyc)"


class _Ready:
    """A loader that gives the import system a module loaded already."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass


class CompiledKernels:
    """Finds a kernel's compiled module (and the library mypyc put its code in) when it is
    to be used; leaves every other import, and a kernel that is not, to the usual finders."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname.endswith(SHARED) and fullname.removesuffix(SHARED) in KERNELS:
            file = compiled_file(fullname)
            if file is None:
                return None
            return ModuleSpec(fullname, ExtensionFileLoader(fullname, str(file)), origin=str(file))
        if fullname not in KERNELS:
            return None
        found = _chosen.get(fullname)
        if found is None:
            # (Were it imported again while its compiled module loads: the Python module.)
            _chosen[fullname] = (None, "Python (imported while its compiled module loaded)")
            found = _chosen[fullname] = _load(fullname)
        module = found[0]
        if module is None:
            return None
        ready = cast("Loader", _Ready(module))  # (importlib.abc is slow to import)
        return ModuleSpec(fullname, ready, origin=getattr(module, "__file__", None))


def install() -> None:
    """Put the finder of compiled kernels first on this process's import path (once)."""
    if not any(isinstance(finder, CompiledKernels) for finder in sys.meta_path):
        sys.meta_path.insert(0, CompiledKernels())


def status(source: str) -> str:
    """How the kernel `source` is played in this process, in words (it is imported)."""
    importlib.import_module(source)
    found = _chosen.get(source)
    return found[1] if found is not None else "Python"
