"""The host C++ compiler the simulator builds with: clang++ when present, else g++; ``NPUKB_CXX``
overrides. Compile flags live here too, so that they enter every build's cache key."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

# -O1: measured as the best cold-build vs run-time trade-off for kernel TUs (docs/simulator.md).
FLAGS: tuple[str, ...] = ("-std=c++17", "-O1", "-g0", "-pthread", "-fno-strict-aliasing", "-fmax-errors=10")
# The kernel TU is compiled as bisheng compiles the vector part of an operator for Ascend 910B (dav-c220):
# the predefined macros that select a chip's code path in real kernels (`#if __CCE_AICORE__ == 220`).
# Neither ASCENDC_CPU_DEBUG nor __CCE_KT_TEST__ is defined: they select CPU-debug code paths, and
# real kernels skip device behaviour (SyncAll, GetAccVal) under them.
KERNEL_DEFINES: tuple[str, ...] = ("-D__CCE_AICORE__=220", "-D__NPU_ARCH__=2201")
KERNEL_FLAGS: tuple[str, ...] = FLAGS + KERNEL_DEFINES
# Host TUs (tiling function + OpDef) run once per launch: no optimisation, fastest to compile.
HOST_FLAGS: tuple[str, ...] = ("-std=c++17", "-O0", "-g0", "-pthread", "-fno-strict-aliasing", "-fmax-errors=10")
LINK_FLAGS: tuple[str, ...] = ("-pthread",)


@dataclass(frozen=True)
class Compiler:
    path: str
    version: str          # first line of ``--version``; part of every cache key
    identity: str = ""    # version, resolved binary, its size and modification time: the cache key's part


def _identity(path: str, version: str) -> str:
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return f"{version}|{real}"
    return f"{version}|{real}|{st.st_size}|{st.st_mtime_ns}"


def _candidates() -> list[str]:
    override = os.environ.get("NPUKB_CXX")
    if override:
        return [override]
    return [name for name in ("clang++", "g++") if shutil.which(name)]


@functools.lru_cache(maxsize=4)
def _probe(path: str) -> Compiler | str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return (f"C++ compiler {path!r} cannot run: {exc}; install g++ (`apt-get install g++`) or clang++, "
                "or set NPUKB_CXX to an installed C++17 compiler")
    if out.returncode != 0:
        return f"C++ compiler {path!r} failed on --version: {out.stderr.strip()[:200]}"
    first = (out.stdout.strip().splitlines() or ["unknown"])[0]
    resolved = shutil.which(path) or path
    return Compiler(path=resolved, version=first, identity=_identity(resolved, first))


def find_compiler() -> Compiler | str:
    """The compiler to use, or a sentence saying why none is usable."""
    names = _candidates()
    if not names:
        return ("no C++17 compiler found: install clang++ or g++ (e.g. `apt-get install g++`) "
                "or point NPUKB_CXX at one")
    return _probe(names[0])
