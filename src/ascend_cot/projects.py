"""Operator projects the kernel-level and project-level stages read.

- From benchmark cases: the expert solution exported as a self-contained op project, shared kernel
  bases (``solution_files``) included as project files, exactly as the benchmark builds it.
- From a folder of op projects: every folder holding ``op_host/`` and ``op_kernel/`` (no case: their
  samples are verified by building only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".inc")


class ProjectsError(ValueError):
    pass


@dataclass(frozen=True)
class OpProject:
    name: str                         # case id, or the folder path relative to the given root
    files: dict[str, str]             # op_host/..., op_kernel/...
    spec: Any = None                  # the TaskSpec when the project is a case's solution

    @property
    def task(self) -> str:
        return self.spec.case_id if self.spec is not None else ""


def load_cases(paths: Sequence[Path]) -> list[Any]:
    """TaskSpecs of every case under ``paths`` (case roots or case folders, either layout)."""
    from npukernelbench.cases import discover
    from npukernelbench.spec import SpecError

    try:
        return discover(paths)
    except SpecError as exc:
        raise ProjectsError(f"invalid case: {exc}") from None


def case_projects(specs: Sequence[Any]) -> list[OpProject]:
    """The expert solutions of ``specs`` (cases without one are skipped)."""
    return [OpProject(s.case_id, dict(s.solution), s) for s in specs if s.solution]


def folder_projects(roots: Sequence[Path]) -> list[OpProject]:
    projects = []
    for root in roots:
        root = Path(root)
        candidates = [root] if (root / "op_host").is_dir() else sorted(
            p.parent for p in root.rglob("op_host") if p.is_dir() and (p.parent / "op_kernel").is_dir())
        for folder in candidates:
            files = {}
            for sub in ("op_host", "op_kernel"):
                for path in sorted((folder / sub).rglob("*")):
                    if path.is_file() and path.suffix in SOURCE_SUFFIXES:
                        files[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
            if files:
                name = folder.relative_to(root).as_posix() if folder != root else root.name
                projects.append(OpProject(name, files))
    return projects
