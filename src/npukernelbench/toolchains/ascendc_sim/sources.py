"""Where the simulator's own C++ sources live, and the hash that versions them."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
INCLUDE_DIR = ROOT / "include"
RUNTIME_DIR = ROOT / "runtime"
# The launcher, one file per concern (runtime/launcher_internal.h lists them): main() first.
LAUNCHER_SOURCES = tuple(RUNTIME_DIR / f"{name}.cpp" for name in (
    "launcher", "launcher_io", "launcher_memory", "launcher_scheduler", "launcher_crash", "launcher_boundary",
    "launcher_opdef", "launcher_describe", "launcher_infer", "launcher_steps", "launcher_cost"))
# Compiled once per machine and linked into every simulator executable.
RUNTIME_SOURCES = (*LAUNCHER_SOURCES, RUNTIME_DIR / "host_api.cpp", RUNTIME_DIR / "cube_engine.cpp",
                   RUNTIME_DIR / "matmul_tiling.cpp", RUNTIME_DIR / "scalar_division.cpp",
                   RUNTIME_DIR / "raw_access.cpp", RUNTIME_DIR / "soc.cpp")
# Mangled-name prefixes of the runtime's internal namespaces, shared between its objects but never
# exported to the candidate (left out of the launcher's dynamic symbols, its API stub and the device
# and host libraries): npukb::launcher (launcher_internal.h, hidden visibility).
RUNTIME_INTERNAL_PREFIXES = ("_ZN5npukb8launcher",)
# What a CPU-twin program (CPU孪生调试: a user's host main with GmAlloc / ICPU_RUN_KF, tikicpulib.h) links
# instead of the launcher; never part of a candidate's build (docs/simulator.md, "CPU-twin debugging").
CPU_TWIN_SOURCES = (RUNTIME_DIR / "cpu_twin.cpp", RUNTIME_DIR / "cube_engine.cpp", RUNTIME_DIR / "soc.cpp")
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
