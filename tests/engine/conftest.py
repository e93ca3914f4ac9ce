from __future__ import annotations

from pathlib import Path

import pytest

from printgen.model import Game, load_game

ROOT = Path(__file__).resolve().parents[2]
GAME_FOLDER = ROOT / "components" / "submarine-attack"


@pytest.fixture(scope="session")
def game() -> Game:
    return load_game(GAME_FOLDER)
