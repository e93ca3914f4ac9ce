"""The compiled kernels (`rules_engine.native`): loaded only while they match their sources,
and playing the same games as the Python kernels, from the same generator."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from printgen.engines import game_data
from printgen.model import load_game
from rules_engine import native
from rules_engine.submarine_attack import SubmarineAttack
from rules_engine.subzero import DEATHMATCH, Subzero

ROOT = Path(__file__).resolve().parents[2]

# Plays seeded games with each kernel's two drivers (the engine's `play_random` and a search
# player's `playout`) and prints a digest of every final state's history and scores, with how
# the kernels were played.
GAMES = """
import hashlib, json, random, sys
from pathlib import Path
from printgen.engines import game_data
from printgen.model import load_game
from rules_engine import native
from rules_engine.kill_shot import KillShot
from rules_engine.squares2 import Squares2
from rules_engine.submarine_attack import SubmarineAttack
from rules_engine.subzero import Subzero

root = Path(sys.argv[1])
engines = [
    SubmarineAttack(game_data(load_game(root / "components" / "submarine-attack"))),
    Subzero(game_data(load_game(root / "components" / "subzero")), None, {"players": 4}),
    Subzero(game_data(load_game(root / "components" / "subzero")), None,
            {"players": 3, "ending": "all-out-attack"}),
]
digest = hashlib.sha256()
for engine in engines:
    for seed in range(60):
        for driver in ("play_random", "playout"):
            state = engine.new_initial_state()
            getattr(state, driver)(random.Random(seed))
            digest.update(repr((state.history, state.returns())).encode())
# The kernels of SQUARES II and KILL SHOT are their playouts (a KILL SHOT game runs to some
# 100,000 actions: its first 20,000 of each seed, then a whole one).
played = [(Squares2(game_data(load_game(root / "components" / "squares2"))), 40, 100_000)]
kill_shot = KillShot(game_data(load_game(root / "components" / "kill-shot")))
played += [(kill_shot, 5, 20_000), (kill_shot, 1, 1_000_000)]
for engine, seeds, steps in played:
    for seed in range(seeds):
        state = engine.new_initial_state()
        actions = state.playout(random.Random(seed), steps)
        digest.update(repr((actions, state.history, state.is_terminal())).encode())
print(json.dumps({"digest": digest.hexdigest(),
                  "status": [native.status(k) for k in native.KERNELS]}))
"""


def played(pure: bool) -> dict[str, object]:
    env = {**os.environ, native.PURE_ENV: "1" if pure else "0"}
    run = subprocess.run(
        [sys.executable, "-c", GAMES, str(ROOT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, object] = json.loads(run.stdout)
    return found


def test_the_compiled_kernels_play_the_python_kernels_games() -> None:
    compiled = played(pure=False)
    if not all(str(s).startswith("compiled") for s in compiled["status"]):  # type: ignore[attr-defined]
        pytest.skip(f"the kernels are not compiled here: {compiled['status']}")
    python = played(pure=True)
    assert all(str(s).startswith("Python") for s in python["status"])  # type: ignore[attr-defined]
    assert compiled["digest"] == python["digest"]


def test_a_kernel_is_played_in_python_unless_compiled_from_its_sources(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = "rules_engine.subzero.kernel"
    monkeypatch.setenv(native.PURE_ENV, "1")
    module, why = native._load(source)
    assert module is None and native.PURE_ENV in why
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(native, "LIB", tmp_path)  # nothing compiled there
    module, why = native._load(source)
    assert module is None and "not compiled" in why
    # A compiled module whose digest is not that of the sources now (a rule edited since).
    compiled = tmp_path.joinpath(*source.split(".")).with_suffix(".so")
    compiled.parent.mkdir(parents=True)
    compiled.write_bytes(b"not loaded")
    monkeypatch.setattr(native, "EXTENSION_SUFFIXES", [".so"])
    native.digest_file(source).write_text(hashlib.sha256(b"older").hexdigest() + "\n")
    module, why = native._load(source)
    assert module is None and "sources changed" in why
    # Its digest right but the file not a module of this interpreter: the Python kernel.
    native.digest_file(source).write_text(native.source_digest(source) + "\n")
    module, why = native._load(source)
    assert module is None and "did not load" in why


def test_the_digest_covers_the_game_package_and_the_shared_modules() -> None:
    files = {
        p.relative_to(native.ENGINE).as_posix()
        for p in native.source_files("rules_engine.submarine_attack.kernel")
    }
    assert {"core.py", "submarine_attack/kernel.py", "submarine_attack/actions.py"} <= files
    assert not any(f.startswith(("subzero/", "native/")) for f in files)


def test_engines_pickle_with_either_kernel() -> None:
    """An engine and its states pickle (and play on) whichever kernel is loaded: the kernel's
    tables are left out and made again."""
    sub = Subzero(
        game_data(load_game(ROOT / "components" / "subzero")), None, {"ending": DEATHMATCH}
    )
    sa = SubmarineAttack(game_data(load_game(ROOT / "components" / "submarine-attack")))
    for engine in (sub, sa):
        state = engine.new_initial_state()
        state.playout(random.Random(3), 40)
        copy = pickle.loads(pickle.dumps(state))
        assert copy.history == state.history
        state.playout(random.Random(4))
        copy.playout(random.Random(4))
        assert copy.history == state.history and copy.returns() == state.returns()


def test_the_compiled_kernels_are_no_input_of_a_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """The code's fingerprint (in every manifest, and the key of every cached picture) is
    that of the engine's sources, not of what a machine's compiler made of them: a build is
    the same with the kernels compiled or not."""
    from printgen import build

    monkeypatch.setattr(build, "_code_print", [])
    before = build.code_fingerprint()
    stray = native.LIB / "rules_engine" / f"kernel-{os.getpid()}.cpython-311-x86_64-linux-gnu.so"
    stray.parent.mkdir(parents=True, exist_ok=True)
    try:
        stray.write_bytes(b"another compiler's bytes")
        monkeypatch.setattr(build, "_code_print", [])
        assert build.code_fingerprint() == before
    finally:
        stray.unlink()


def test_setting_up_compiles_only_kernels_whose_sources_changed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`make` runs the compile step every time: with every kernel compiled from the sources
    as they are, it starts no compiler; a kernel without its digest is compiled again."""
    from printgen import compile_kernels

    if not all(compile_kernels.up_to_date(k, native.source_digest(k)) for k in native.KERNELS):
        pytest.skip("the kernels are not compiled here")

    def no_compiler(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a compiler was started")

    monkeypatch.setattr(compile_kernels.subprocess, "run", no_compiler)
    compile_kernels.compile_kernels()
    monkeypatch.setattr(native, "digest_file", lambda source: tmp_path / "none")
    assert not compile_kernels.up_to_date(
        native.KERNELS[0], native.source_digest(native.KERNELS[0])
    )
