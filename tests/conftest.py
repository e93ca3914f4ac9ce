"""Shared fixtures: the project root, and one real build of Submarine Attack per session."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from printgen.build import BuildOptions, Project, build

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """The tests keep printgen's cache (fonts as reportlab read them) in a folder of their
    own, for the commands they run too, not in the user's cache folder."""
    if "PRINTGEN_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="printgen-test-cache-")
        os.environ["PRINTGEN_CACHE_DIR"] = folder
        config.stash[_CACHE_KEY] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CACHE_KEY, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("PRINTGEN_CACHE_DIR", None)


_CACHE_KEY = pytest.StashKey[str]()


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


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
BROWSER_REASON = (
    "needs Debian's chromium and chromium-driver (apt install chromium chromium-driver) "
    "and selenium"
)


@pytest.fixture()
def browser(tmp_path: Path) -> Iterator[Any]:
    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        pytest.skip(BROWSER_REASON)
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip(BROWSER_REASON)
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,1000",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
