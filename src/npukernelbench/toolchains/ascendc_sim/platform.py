"""The simulated device: a SoC profile (``npukernelbench.soc_profiles``, the one table of names and core
counts, which the runtime receives in the run's request) checked against the memory sizes the
simulator's headers compile in (``npukb_sim/runtime.h``), and the public header names a kernel
project may include."""

from __future__ import annotations

import functools
import re

from npukernelbench.hardware import Hardware
from npukernelbench.soc_profiles import SocProfile, soc_profile
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

RUNTIME_HEADER = INCLUDE_DIR / "npukb_sim" / "runtime.h"
INTERNAL_DIR = "npukb_sim"               # the simulator's internals: not part of the AscendC API
_CONSTANT = re.compile(r"constexpr\s+[\w:]+\s+(k\w+)\s*=\s*([0-9][0-9.]*)\s*;")
# Compile-time figures of the headers: every profile must have these (soc_profiles.py).
_MEMORIES = {"ub_bytes": "kUbBytes", "l1_bytes": "kL1Bytes", "l0a_bytes": "kL0aBytes", "l0b_bytes": "kL0bBytes",
             "l0c_bytes": "kL0cBytes"}
# The profile a program without a request runs (the CPU twin): the default profile's core counts.
_DEFAULT_CORES = {"vector_cores": "kDefaultVectorCores", "cube_cores": "kDefaultCubeCores"}


@functools.lru_cache(maxsize=1)
def header_constants() -> dict[str, int]:
    """The figures ``npukb_sim/runtime.h`` compiles in, by profile field."""
    constants = dict(_CONSTANT.findall(RUNTIME_HEADER.read_text(encoding="utf-8")))
    wanted = {**_MEMORIES, **_DEFAULT_CORES}
    missing = [name for name in wanted.values() if name not in constants]
    if missing:
        raise RuntimeError(f"{RUNTIME_HEADER} no longer defines {', '.join(missing)}: update {__name__}")
    return {field: int(constants[name]) for field, name in wanted.items()}


def check_profile(profile: SocProfile) -> SocProfile:
    """``profile`` when the simulator's compiled-in memories are its own; RuntimeError otherwise (a
    profile with other memories needs the headers to take them as build flags, and the build key with them)."""
    compiled = header_constants()
    wrong = [f"{field} {getattr(profile, field)} != {compiled[field]}" for field in _MEMORIES
             if getattr(profile, field) != compiled[field]]
    if wrong:
        raise RuntimeError(f"SoC profile {profile.name}: the simulator is compiled for other memories "
                           f"({'; '.join(wrong)})")
    return profile


def simulated_hardware(soc: str | None = None) -> Hardware:
    """The device of profile ``soc`` (None: the default profile), as the prompt describes it."""
    return check_profile(soc_profile(soc)).hardware()


@functools.lru_cache(maxsize=1)
def public_headers() -> frozenset[str]:
    """Every header a kernel project may include from the simulator (``kernel_operator.h``,
    ``lib/matmul_intf.h``, ``register/op_def_registry.h``, ...), as include names."""
    return frozenset(p.relative_to(INCLUDE_DIR).as_posix() for p in INCLUDE_DIR.rglob("*")
                     if p.is_file() and p.relative_to(INCLUDE_DIR).parts[0] != INTERNAL_DIR)
