"""The operators of a third-party AscendC corpus (cann-ops, EvoKernel) as op projects the toolchain builds.

An operator is a folder holding ``op_host/`` and ``op_kernel/``. Its project files are every source
and header under those two folders (any depth), keyed by their path relative to the operator folder,
exactly what the toolchain's ``KernelProject.files`` takes; nothing outside the operator folder is
read (a helper a repository keeps in a sibling folder is, for the op project, a missing file). The
source is the top folder the operator lives under (``cann-ops`` or ``EvoKernel``).

The kernel entry follows CANN's convention: the op type ``AddCustom`` is built from
``op_kernel/add_custom.cpp`` (names compared without case and underscores). :func:`pair_kernel`
picks the registered OpDef and the kernel file that belong together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".h", ".hh", ".hpp", ".hxx", ".inc", ".inl", ".ipp", ".tcc")
PROJECT_FOLDERS = ("op_host", "op_kernel")
SOURCES = ("cann-ops", "EvoKernel")
MAX_FILE_BYTES = 2 << 20


@dataclass(frozen=True)
class Operator:
    """One operator project of the corpus."""

    source: str                       # "cann-ops" | "EvoKernel"
    name: str                         # path of the operator folder relative to the corpus root
    folder: Path
    files: dict[str, str] = field(repr=False, hash=False, compare=False)

    @property
    def short(self) -> str:
        return self.folder.name

    def kernel_files(self) -> list[str]:
        """Stems of the kernel translation units candidates: ``op_kernel/<stem>.cpp``."""
        return sorted(p[len("op_kernel/"):-len(".cpp")] for p in self.files
                      if p.startswith("op_kernel/") and p.count("/") == 1 and p.endswith(".cpp"))


def normalized(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def source_of(root: Path, folder: Path) -> str:
    rel = folder.relative_to(root).parts
    for part in rel:
        for source in SOURCES:
            if part.lower() == source.lower():
                return source
    return rel[0] if rel else "?"


def read_project(folder: Path) -> dict[str, str]:
    """Every source and header under ``op_host/`` and ``op_kernel/`` of ``folder``."""
    files: dict[str, str] = {}
    for top in PROJECT_FOLDERS:
        base = folder / top
        for path in sorted(base.rglob("*")):
            if not path.is_file() or path.suffix not in SOURCE_SUFFIXES or path.stat().st_size > MAX_FILE_BYTES:
                continue
            rel = path.relative_to(folder).as_posix()
            files[rel] = path.read_text(encoding="utf-8", errors="replace")
    return files


def load_operator(base: Path, folder: Path) -> Operator:
    """The operator in ``folder``, named relative to ``base``."""
    name = folder.relative_to(base).as_posix() if folder != base else folder.name
    return Operator(source_of(base, folder), name, folder, read_project(folder))


def find_operators(root: Path, keyword: str = "") -> list[Operator]:
    """Every operator folder under ``root`` (or ``root`` itself), sorted by name; ``keyword`` keeps those
    whose name contains it (case-insensitive)."""
    root = root.resolve()
    folders = {p.parent for p in root.rglob("op_kernel") if p.is_dir() and (p.parent / "op_host").is_dir()}
    if (root / "op_kernel").is_dir() and (root / "op_host").is_dir():
        folders.add(root)
    base = root if len(folders) > 1 or root not in folders else root.parent
    ops = []
    for folder in sorted(folders):
        name = folder.relative_to(base).as_posix() if folder != base else folder.name
        if keyword and keyword.lower() not in name.lower():
            continue
        ops.append(load_operator(base, folder))
    return ops


@dataclass(frozen=True)
class Pairing:
    """The OpDef and kernel file of an operator, or why none could be paired."""

    op: str = ""
    kernel: str = ""
    problem: str = ""


def pair_kernel(op_types: Sequence[str], kernels: Sequence[str], folder_name: str = "") -> Pairing:
    """The registered op type and the kernel file built for it: the OpDef whose name is a kernel file's
    (CANN's convention), else the one named after the operator folder when a single kernel file exists,
    else a single OpDef with a single kernel file."""
    if not op_types:
        return Pairing(problem="the host code registers no OpDef (OP_ADD)")
    if not kernels:
        return Pairing(problem="op_kernel/ holds no .cpp kernel file")
    by_name = {normalized(k): k for k in kernels}
    matches = [(t, by_name[normalized(t)]) for t in op_types if normalized(t) in by_name]
    if len(matches) == 1 or (matches and len({t for t, _ in matches}) == 1):
        return Pairing(matches[0][0], matches[0][1])
    if len(matches) > 1:
        named = [m for m in matches if normalized(m[0]) == normalized(folder_name)]
        if named:
            return Pairing(*named[0])
        return Pairing(*matches[0])
    if len(kernels) == 1:
        named = [t for t in op_types if normalized(t) == normalized(folder_name)]
        if len(op_types) == 1 or named:
            op = named[0] if named else op_types[0]
            return Pairing(op, kernels[0])
    return Pairing(problem=f"no kernel file named after the OpDef {', '.join(op_types)} "
                          f"(op_kernel/{', op_kernel/'.join(k + '.cpp' for k in kernels)})")
