"""Where the simulator's own C++ sources live, and the hash that versions them."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
INCLUDE_DIR = ROOT / "include"
RUNTIME_DIR = ROOT / "runtime"
LAUNCHER_SOURCE = RUNTIME_DIR / "launcher.cpp"
# Compiled once per machine and linked into every simulator executable.
RUNTIME_SOURCES = (LAUNCHER_SOURCE, RUNTIME_DIR / "host_api.cpp", RUNTIME_DIR / "cube_engine.cpp",
                   RUNTIME_DIR / "matmul_tiling.cpp", RUNTIME_DIR / "scalar_division.cpp",
                   RUNTIME_DIR / "raw_access.cpp")
# What a CPU-twin program (CPU孪生调试: a user's host main with GmAlloc / ICPU_RUN_KF, tikicpulib.h) links
# instead of the launcher; never part of a candidate's build (docs/simulator.md, "CPU-twin debugging").
CPU_TWIN_SOURCES = (RUNTIME_DIR / "cpu_twin.cpp", RUNTIME_DIR / "cube_engine.cpp")
# Extra flags per runtime source (after the common ones): the cube arithmetic is optimised and never
# contracts a*b+c into fma, so its results are the same bits on every machine.
RUNTIME_EXTRA_FLAGS = {"cube_engine": ("-O2", "-ffp-contract=off")}


@functools.lru_cache(maxsize=1)
def simulator_version() -> str:
    """sha256 over every header and runtime source (path and content): changes whenever the
    simulator changes, so cached builds made with older headers are never reused."""
    digest = hashlib.sha256()
    for folder in (INCLUDE_DIR, RUNTIME_DIR):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(ROOT).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()
