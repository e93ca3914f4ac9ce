"""Shared fixtures: the project root, and one real build of Submarine Attack per session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from printgen.build import BuildOptions, Project, build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def sub_build(tmp_path_factory: pytest.TempPathFactory, project: Project) -> Path:
    """out/submarine-attack/ from a default build (A4 and Letter, PNGs)."""
    out = tmp_path_factory.mktemp("out")
    build(project, ["submarine-attack"], out, BuildOptions(jobs=1, rulebooks=False))
    return out / "submarine-attack"


@pytest.fixture(scope="session")
def sub_manifest(sub_build: Path) -> dict[str, Any]:
    return json.loads((sub_build / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture()
def project_copy(tmp_path: Path) -> Path:
    """A writable copy of the project's data (components with their worked examples, and
    layouts) for bad-input tests."""
    for name in ("components", "layouts"):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path
