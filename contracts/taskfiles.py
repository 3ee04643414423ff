"""Reading and writing task files (.json, .jsonl, or a folder of them) with clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from pydantic import ValidationError

from contracts.errors import InputError

from .task import Task


class TaskFileError(InputError, ValueError):
    """A task file that cannot be read; the message names the file, line and field."""


def _read_text(path: Path) -> str:
    """The file as UTF-8 text; TaskFileError naming the line and byte offset of the first bad byte."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise TaskFileError(f"{path}:{line}: byte {data[err.start]:#04x} at offset {err.start} is not UTF-8; "
                            "save the file as UTF-8") from None


def load_tasks(path: Path | str) -> list[Task]:
    """Every task in a .json file, a .jsonl file, or a folder of them (sorted by name)."""
    path = Path(path)
    if not path.exists():
        raise TaskFileError(f"{path}: no such file or folder")
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl"))
        if not files:
            raise TaskFileError(f"{path}: no .json or .jsonl task files in this folder")
        return [t for f in files for t in load_tasks(f)]
    if path.suffix == ".jsonl":
        tasks = []
        for n, line in enumerate(_read_text(path).splitlines(), start=1):
            if line.strip():
                tasks.append(_parse(line, f"{path}:{n}"))
        return tasks
    return [_parse(_read_text(path), str(path))]


def _parse(text: str, where: str) -> Task:
    try:
        return Task.model_validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(document)"
        raise TaskFileError(f"{where}: {loc}: {first['msg']} ({err.error_count()} error(s))") from None


def save_tasks(tasks: Iterable[Task], path: Path | str) -> int:
    """Write tasks as JSONL; returns how many."""
    n = 0
    with open(path, "w") as f:
        for task in tasks:
            f.write(task.model_dump_json() + "\n")
            n += 1
    return n
