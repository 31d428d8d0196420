"""Error types: every failure the user can cause names the file and line or the config key."""

from __future__ import annotations

from pathlib import Path


class MteError(Exception):
    """Base class of the errors this package raises on purpose."""


class InputError(MteError):
    """A data file cannot be read as its format says; names the file and (1-based) line."""

    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


class ConfigError(MteError):
    """The configuration asks for something that cannot be run; names the config key."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"config key '{key}': {message}")


class IntegrityError(MteError):
    """Predictions and gold examples do not match one to one, or a label is unknown."""
