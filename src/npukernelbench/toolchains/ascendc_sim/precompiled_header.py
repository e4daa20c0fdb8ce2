"""Per-machine precompiled headers (g++ ``.gch``) for the simulator's own headers.

A host or kernel TU spends most of its compile time parsing the simulator headers and the standard
library behind them. The builder therefore force-includes (``-include``) a precompiled stub that
includes exactly the simulator headers the project's files include themselves (found by a textual
scan), so the TU sees the same declarations as without it. One PCH per (compiler, simulator version,
flags, header set), built once per machine under a file lock (safe for concurrent pytest-xdist
workers) and published with an atomic rename. Anything unusual disables it silently and the TU is
compiled exactly as before:

- no simulator header is included by the project's files (nothing to precompile);
- a project file ``#define``s, before its last simulator include (anywhere in a file without one), a
  name that occurs in the simulator headers the project includes, directly or through other simulator
  headers (the PCH would be parsed before that definition, unlike the real include order);
- the PCH failed to build on this machine (a genuine compiler error is remembered and not retried;
  a time-out, a compiler crash or a failure of the machinery is not remembered) or g++ finds it
  invalid (it then reads the stub header as text: same result, no speed-up).

Known leniency: a TU that uses a simulator header it includes only *after* its first use, or a
standard-library name before including the header that declares it, compiles here and not with the
real toolchain.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from npukernelbench.infrastructure import disk_trouble
from npukernelbench.sandbox import Limits, Request, clean_env, run_confined
from npukernelbench.toolchains.ascendc_sim.build_cache import BuildCache
from npukernelbench.toolchains.ascendc_sim.compiler import Compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, simulator_version

STUB = "npukb_pch.h"
FAILED = "FAILED"
PCH_LIMITS = Limits(cpu_s=120, memory_bytes=6 << 30, wall_s=180.0)
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)
_DEFINE = re.compile(r"^\s*#\s*(?:define|undef)\s+([A-Za-z_]\w*)", re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_]\w*")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# Headers every TU of a folder sees before anything else (the kernel prelude includes them first too):
# device code's C library memory functions must be declared before the C library's headers.
FIRST_HEADERS: dict[str, tuple[str, ...]] = {"op_kernel": ("npukb_sim/kernel/device_libc.h",)}


@functools.lru_cache(maxsize=256)
def _file_words_and_includes(path: Path) -> tuple[frozenset[str], tuple[str, ...]]:
    """Identifiers of one simulator header and the simulator headers it includes."""
    code = _COMMENT.sub("", path.read_text(encoding="utf-8", errors="replace"))
    includes = tuple(m.group(1) for m in _INCLUDE.finditer(code) if (INCLUDE_DIR / m.group(1)).is_file())
    return frozenset(_WORD.findall(code)), includes


@functools.lru_cache(maxsize=64)
def _header_words(headers: tuple[str, ...]) -> frozenset[str]:
    """Every identifier that occurs in ``headers`` or the simulator headers they include, transitively."""
    words: set[str] = set()
    seen: set[str] = set()
    todo = list(headers)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        file_words, includes = _file_words_and_includes(INCLUDE_DIR / rel)
        words |= file_words
        todo.extend(includes)
    return frozenset(words)


def simulator_includes(files: Mapping[str, str], folder: str) -> tuple[str, ...] | None:
    """The simulator headers that the project's files under ``folder`` include (sorted), or None when
    a precompiled header must not be used for them."""
    found: set[str] = set()
    defines: list[tuple[str, ...]] = []     # per file: names it defines where the PCH would differ
    for name, text in files.items():
        parts = PurePosixPath(name).parts
        if not parts or parts[0] != folder:
            continue
        code = _COMMENT.sub("", text)
        last = 0                    # end of the file's last simulator include
        for match in _INCLUDE.finditer(code):
            rel = PurePosixPath(match.group(1))
            if ".." not in rel.parts and not rel.is_absolute() and (INCLUDE_DIR / rel).is_file():
                found.add(rel.as_posix())
                last = match.end()
        # A definition before the file's last simulator include (or anywhere in a file without one,
        # which may be included first) of a name the headers use would change what they declare.
        defines.append(tuple(m.group(1) for m in _DEFINE.finditer(code) if not last or m.start() < last))
    if not found:
        return None
    words = _header_words(tuple(sorted(found)))
    if any(name in words for names in defines for name in names):
        return None
    first = FIRST_HEADERS.get(folder, ())
    return (*first, *(h for h in sorted(found) if h not in first))


def _usable(compiler: Compiler) -> bool:
    return os.path.basename(compiler.path).startswith("g++") or "g++" in compiler.version.lower()


def _target(compiler: Compiler, cache: BuildCache, flags: Sequence[str], headers: Sequence[str]) -> Path:
    # The include folder's path too: the PCH's line tables name it, and the build's symbol checks tell the
    # simulator's code from the project's by it (two checkouts of the same simulator share no PCH).
    key = hashlib.sha256("\0".join([compiler.identity or compiler.version, compiler.path, simulator_version(),
                                    str(INCLUDE_DIR), *flags, "|", *headers]).encode()).hexdigest()[:24]
    return cache.root / "pch" / key


def settled(compiler: Compiler, cache: BuildCache, flags: Sequence[str], headers: Sequence[str]) -> bool:
    """Whether this PCH exists, or is known not to build, or is not used with this compiler."""
    target = _target(compiler, cache, flags, headers)
    return not _usable(compiler) or (target / FAILED).exists() or (target / f"{STUB}.gch").is_file()


def precompiled_header(compiler: Compiler, cache: BuildCache, flags: Sequence[str],
                       headers: Sequence[str]) -> Path | None:
    """The stub header to ``-include`` (its ``.gch`` lies next to it), or None when none is usable."""
    if not _usable(compiler):
        return None                 # clang's PCH works differently (-include-pch); not used
    target = _target(compiler, cache, flags, headers)
    root, key = target.parent, target.name
    if (target / FAILED).exists():
        return None
    if (target / f"{STUB}.gch").is_file():
        return target / STUB
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)            # one builder per key; the others wait, then reuse
        try:
            if not target.exists():
                _build(compiler, cache, flags, headers, target)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return target / STUB if (target / f"{STUB}.gch").is_file() else None


def _build(compiler: Compiler, cache: BuildCache, flags: Sequence[str], headers: Sequence[str],
           target: Path) -> None:
    try:
        folder = cache.scratch("pch-")
        stub = "// ascendc-sim precompiled header: the simulator headers this project includes.\n" + "".join(
            f'#include "{h}"\n' for h in headers)
        (folder / STUB).write_text(stub, encoding="utf-8")
    except OSError:
        return                          # no PCH this time (a full disk shows in the build itself)
    out = run_confined(Request(argv=[compiler.path, *flags, "-I", str(INCLUDE_DIR), "-x", "c++-header", STUB,
                                     "-o", f"{STUB}.gch"], cwd=folder, limits=PCH_LIMITS, env=clean_env()))
    if not out.ok:
        if out.timed_out or out.infrastructure or out.signal_name or out.returncode == 4 \
                or disk_trouble(folder, out.stderr):
            # the machine's load or our machinery, not the headers: no PCH now, try again next time
            shutil.rmtree(folder, ignore_errors=True)
            return
        (folder / f"{STUB}.gch").unlink(missing_ok=True)
        (folder / FAILED).write_text(out.stderr[-4000:], encoding="utf-8")
    try:
        os.rename(folder, target)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
