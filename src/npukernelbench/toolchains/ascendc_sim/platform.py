"""The simulated device, read from the simulator's own headers (one source of truth for the C++
runtime and for Python): the hardware figures of ``npukb_sim/runtime.h`` and the public header names
a kernel project may include."""

from __future__ import annotations

import functools
import re

from npukernelbench.hardware import Hardware
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

SOC = "Ascend910B"                       # what the simulated platform reports (SocVersion::ASCEND910B)
RUNTIME_HEADER = INCLUDE_DIR / "npukb_sim" / "runtime.h"
INTERNAL_DIR = "npukb_sim"               # the simulator's internals: not part of the AscendC API
_CONSTANT = re.compile(r"constexpr\s+[\w:]+\s+(k\w+)\s*=\s*([0-9][0-9.]*)\s*;")
_FIELDS = {"vector_cores": "kVectorCores", "cube_cores": "kCubeCores", "ub_bytes": "kUbBytes",
           "l1_bytes": "kL1Bytes", "l0a_bytes": "kL0aBytes", "l0b_bytes": "kL0bBytes", "l0c_bytes": "kL0cBytes"}


@functools.lru_cache(maxsize=1)
def simulated_hardware() -> Hardware:
    constants = dict(_CONSTANT.findall(RUNTIME_HEADER.read_text(encoding="utf-8")))
    missing = [name for name in _FIELDS.values() if name not in constants]
    if missing:
        raise RuntimeError(f"{RUNTIME_HEADER} no longer defines {', '.join(missing)}: update {__name__}")
    return Hardware(soc=SOC, **{field: int(constants[name]) for field, name in _FIELDS.items()})


@functools.lru_cache(maxsize=1)
def public_headers() -> frozenset[str]:
    """Every header a kernel project may include from the simulator (``kernel_operator.h``,
    ``lib/matmul_intf.h``, ``register/op_def_registry.h``, ...), as include names."""
    return frozenset(p.relative_to(INCLUDE_DIR).as_posix() for p in INCLUDE_DIR.rglob("*")
                     if p.is_file() and p.relative_to(INCLUDE_DIR).parts[0] != INTERNAL_DIR)
