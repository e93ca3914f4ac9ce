"""Data flows one way: printgen reads the YAML and hands the engine plain parameters;
the engine imports nothing from printgen, and nothing outside the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "rules_engine"


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def test_the_engine_imports_no_printer_and_only_the_standard_library() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5
    for path in files:
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top != "printgen", f"{path.relative_to(ENGINE.parent)} imports {module}"
            assert top == "rules_engine" or top in sys.stdlib_module_names, (
                f"{path.relative_to(ENGINE.parent)} imports {module}, which is not in the "
                "standard library"
            )
