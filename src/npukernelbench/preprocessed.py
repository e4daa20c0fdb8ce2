"""A project's translation units as the toolchain's compiler sees them: preprocessed with its include
directories and defines (``Toolchain.preprocessing()``), in a confined child process, and cut into the
lines that come from the project's own files.

Used by the static checks (:mod:`npukernelbench.checks`): names a candidate builds with macros (token
pasting included) appear spelled out here, on the candidate's line that expands the macro (GCC's line
markers attribute expanded text to the line of the macro's use). Text of the toolchain's and the
standard library's headers is not the candidate's and is skipped.
"""

from __future__ import annotations

import functools
import posixpath
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from npukernelbench.extract import host_sources
from npukernelbench.sandbox import Limits, Request, clean_env, run_confined
from npukernelbench.toolchains.base import Preprocessing

LIMITS = Limits(cpu_s=60, memory_bytes=2 << 30, wall_s=60.0, file_bytes=64 << 20)
_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)", re.MULTILINE)
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".inc", ".ipp", ".tpp")


@dataclass(frozen=True)
class Line:
    path: str          # project file the text comes from
    line: int          # its line there
    text: str          # the preprocessed text (macros expanded)


def translation_units(files: Mapping[str, str]) -> list[str]:
    """The files the build compiles as translation units: host sources (not the operator-API library's)
    and op_kernel/*.cpp."""
    units = host_sources(files)
    units += [p for p in files if PurePosixPath(p).parent.as_posix() == "op_kernel" and p.endswith(".cpp")]
    return sorted(units)


def is_source(path: str) -> bool:
    return path.endswith(SOURCE_SUFFIXES)


@functools.lru_cache(maxsize=4)
def toolchain_macros(include_dirs: tuple[Path, ...]) -> frozenset[str]:
    """Names of the macros the toolchain's headers under ``include_dirs`` define (API macros such as
    GET_TILING_DATA)."""
    names: set[str] = set()
    for folder in include_dirs:
        for path in Path(folder).rglob("*.h"):
            names.update(_DEFINE.findall(path.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")))
    return frozenset(names)


@functools.lru_cache(maxsize=4)
def system_include_dirs(cxx: str | None) -> tuple[Path, ...]:
    """The compiler's system header search path (where ``<unistd.h>``, ``<fstream>`` live)."""
    dirs: list[Path] = []
    if cxx is not None:
        try:
            out = subprocess.run([cxx, "-x", "c++", "-E", "-v", "-"], input="", capture_output=True, text=True,
                                 timeout=30).stderr
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        inside = False
        for line in out.splitlines():
            if line.startswith("#include <...> search starts here"):
                inside = True
            elif line.startswith("End of search list"):
                inside = False
            elif inside and line.strip():
                dirs.append(Path(line.strip()))
    return tuple(dirs) or (Path("/usr/local/include"), Path("/usr/include"))


def system_header(name: str, cxx: str | None) -> bool:
    """Whether ``name`` is found on the system header search path of the compiler ``cxx``."""
    rel = PurePosixPath(name)
    return not rel.is_absolute() and ".." not in rel.parts and any((d / rel).is_file()
                                                                   for d in system_include_dirs(cxx))


def candidate_lines(files: Mapping[str, str], preprocessing: Preprocessing) -> Iterator[Line]:
    """Every line of preprocessed text that comes from a project file, over all translation units.
    A unit the preprocessor rejects (a missing include, ``#error``) is skipped: the build reports it."""
    cxx = preprocessing.compiler
    units = translation_units(files)
    if cxx is None or not units:
        return
    includes = [arg for folder in preprocessing.include_dirs for arg in ("-I", str(folder))]
    defines = [f"-D{d}" for d in preprocessing.defines]
    folder = Path(tempfile.mkdtemp(prefix="npukb-pp-"))
    try:
        src = folder / "src"
        for name, text in files.items():
            rel = PurePosixPath(name)
            if rel.is_absolute() or ".." in rel.parts:
                continue
            path = src.joinpath(*rel.parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        for unit in units:
            side = PurePosixPath(unit).parts[0]
            result = src / ".npukb-preprocessed.i"
            result.unlink(missing_ok=True)
            out = run_confined(Request(argv=[cxx, "-std=c++17", "-E", *defines, *includes, "-I", side, unit,
                                             "-o", result.name], cwd=src, limits=LIMITS, env=clean_env()))
            if not out.ok or not result.is_file():
                continue
            yield from _project_lines(result.read_text(encoding="utf-8", errors="replace"), files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _project_lines(text: str, files: Mapping[str, str]) -> Iterator[Line]:
    current: str | None = None
    number = 0
    for raw in text.splitlines():
        if raw.startswith("#"):
            m = _MARKER.match(raw)
            if m:
                number = int(m.group(1))
                name = posixpath.normpath(m.group(2).encode().decode("unicode_escape"))
                current = name if name in files else None
            continue
        if current is not None and raw.strip():
            yield Line(current, number, raw)
        number += 1
