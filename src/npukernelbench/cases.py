"""Discover case folders and load them as TaskSpecs, in every registered layout
(:mod:`npukernelbench.layouts`: our ``case.toml`` format, the upstream NPUKernelBench layout, and any
installed one).

Case ids are the folder path relative to the case root, where the root is the parent of the
``level1``/``level2``/``level3`` folder above the case (else the case folder's parent), so
``pytest benchmark_cases`` and ``pytest benchmark_cases/level1/math/add_custom`` name a case alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from npukernelbench.layouts import detect
from npukernelbench.spec import SpecError, TaskSpec

LEVEL_DIR = re.compile(r"^level([123])$")
_SKIP_DIRS = {"__pycache__", ".git", "solution", "template", "question", "answer", "validation", "_shared",
              "node_modules", ".hypothesis", ".pytest_cache"}


def is_case_dir(folder: Path) -> bool:
    """Whether ``folder`` is a task folder of some registered layout."""
    return detect(folder) is not None


def case_root(folder: Path) -> Path:
    folder = folder.resolve()
    for parent in folder.parents:
        if LEVEL_DIR.match(parent.name):
            return parent.parent
    return folder.parent


def find_case_dirs(path: Path) -> list[Path]:
    """Case folders at or below ``path``, sorted."""
    path = Path(path).resolve()
    if is_case_dir(path):
        return [path]
    if not path.is_dir():
        return []
    found: list[Path] = []

    def walk(folder: Path) -> None:
        for child in sorted(folder.iterdir()):
            if child.is_file() and is_case_dir(child):      # a layout whose tasks are files (mkb)
                found.append(child)
                continue
            if not child.is_dir() or child.name in _SKIP_DIRS or child.name.startswith("."):
                continue
            if is_case_dir(child):
                found.append(child)
            else:
                walk(child)

    walk(path)
    return found


def load_case(folder: Path, root: Path | None = None) -> TaskSpec:
    folder = Path(folder).resolve()
    root = Path(root).resolve() if root else case_root(folder)
    layout = detect(folder)
    if layout is None:
        raise SpecError(folder, "<folder>", "not a case folder: expected case.toml, or api_desc.md with validation/")
    return layout.load(folder, root)


def discover(paths: Iterable[Path | str]) -> list[TaskSpec]:
    """Every case under ``paths`` (case roots or single case folders, any layout), deduplicated."""
    seen: set[Path] = set()
    specs = []
    for p in paths:
        for folder in find_case_dirs(Path(p)):
            if folder in seen:
                continue
            seen.add(folder)
            specs.append(load_case(folder))
    return specs
