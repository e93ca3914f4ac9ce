"""Errors a user can act on: every one names a place (file, line, column) or a build target."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file; line and column count from 1."""

    file: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        name = display_path(self.file)
        if self.line:
            return f"{name}:{self.line}:{self.column}" if self.column else f"{name}:{self.line}"
        return name


def display_path(path: Path) -> str:
    """A path relative to the working directory when it lies below it (a link is named as
    it is, not by where it points)."""
    here = Path(os.path.abspath(path))
    for cwd in (Path(os.path.abspath(Path.cwd())), Path.cwd().resolve()):
        if here.is_relative_to(cwd):
            return str(here.relative_to(cwd))
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


class PrintgenError(Exception):
    """Bad input or a failed build step: shown to the user as one line, never as a traceback."""

    def __init__(self, message: str, where: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ErrorList(PrintgenError):
    """Several independent problems found in one pass (all of a file's validation errors)."""

    def __init__(self, errors: list[PrintgenError]) -> None:
        # The same problem found by several checks (one card value every example's engine
        # refuses) is said once.
        errors = list({str(e): e for e in errors}.values())
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
