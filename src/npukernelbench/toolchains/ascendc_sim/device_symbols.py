"""Device code is device code: a compiled kernel object may call only what the AI core has.

On the device there is no C library, no C++ runtime (allocator, exceptions, RTTI), no threads, no I/O and
no system calls: the device toolchain links a kernel against the AscendC API's implementation and the
compiler's own support routines, nothing else. This check gives a kernel built here the same boundary,
by construction rather than by a list of forbidden names. The **device library** is

* every symbol the simulator's device runtime objects define (the AscendC API implementation and what it
  needs; not the host API);
* every routine of the compiler's support library (libgcc: half-precision and 128-bit arithmetic
  helpers, which the device compiler has too);
* the four memory functions the compiler itself calls for the block copies it emits (struct
  assignments, array initialisers, the builtins behind ``std::copy``): ``memcpy``, ``memmove``,
  ``memset``, ``memcmp``, which a freestanding environment must provide; the build points them at the
  runtime's costed versions (builder.py).

Every other undefined symbol of the kernel object is traced to the code that refers to it
(symbol_trace.py): a call from the simulator's own headers is the device runtime's business (its
messages build strings on the host); a call from the kernel's own files is a ``build_error`` naming the
function and the kernel line, as the device linker would refuse it.

The C library's memory functions called by name are the case the compiler splits:
``npukb_sim/kernel/device_libc.h`` turns a call with a constant size into the compiler builtin (inline
moves, as the device compiler folds it), and a call whose size is known only at run time into
``npukb_libc_<name>``, which no device library defines: reported under the C name.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from npukernelbench.toolchains.ascendc_sim import host_symbols, sources, symbol_trace

# The runtime objects that implement the device side (sources.RUNTIME_SOURCES): the launcher's, raw
# access, the cube unit, scalar division, the SoC profile; host_api and matmul_tiling are the host's.
DEVICE_RUNTIME = (*(src.stem for src in sources.LAUNCHER_SOURCES), "raw_access", "cube_engine", "scalar_division",
                  "soc")
LIBC_STANDIN = "npukb_libc_"            # device_libc.h: a C memory function called with a run-time size
DEVICE_LIBC_HEADER = "npukb_sim/kernel/device_libc.h"
COMPILER_LIBCALLS = frozenset({"memcpy", "memmove", "memset", "memcmp"})
LINKER_DEFINED = frozenset({"_GLOBAL_OFFSET_TABLE_"})
MAX_REPORTED = 8


@dataclass(frozen=True)
class DeviceCall:
    """A call the kernel's own code makes that the device cannot link."""

    symbol: str          # as in the object
    name: str            # as the source spells it (demangled; the C name of an npukb_libc_ stand-in)
    location: str        # "op_kernel/x.cpp:12", "" when the object does not say

    def message(self) -> str:
        where = f"{self.location}: " if self.location else ""
        what = ("there is no C++ runtime (allocator, exceptions, threads, I/O) on the AI core"
                if self.symbol.startswith("_Z") else "there is no C library on the AI core")
        return f"{where}error: device code calls '{self.name}': {what}"


@functools.lru_cache(maxsize=8)
def _runtime_exports(objects: tuple[tuple[str, int], ...]) -> frozenset[str]:
    names: set[str] = set()
    for path, _mtime in objects:
        names |= symbol_trace.defined_globals(Path(path))
    return frozenset(n for n in names if not n.startswith((LIBC_STANDIN, *sources.RUNTIME_INTERNAL_PREFIXES)))


def device_library(runtime_objects: Iterable[Path], support_library: frozenset[str]) -> frozenset[str]:
    """What device code may link: the device runtime's exports (not the C library stand-ins), the
    compiler's support routines and the compiler's own memory libcalls."""
    picked = tuple((str(p), p.stat().st_mtime_ns) for p in runtime_objects if p.stem in DEVICE_RUNTIME)
    return _runtime_exports(picked) | support_library | COMPILER_LIBCALLS | LINKER_DEFINED


def device_calls(obj: Path, work: Path, library: frozenset[str], host_library: frozenset[str],
                 roles: symbol_trace.SourceRoles, run: symbol_trace.Run, tools: dict[str, str]) -> list[DeviceCall]:
    """The calls of the kernel's own code in ``obj`` that the device cannot link (first ones first). The
    dynamic initialisation of the kernel file's namespace-scope objects (``<iostream>``'s
    ``ios_base::Init``) runs when the simulator loads the object, on the host, never on the device: it is
    held to what host code may link (``host_library``, host_symbols.py) instead."""
    suspects = symbol_trace.undefined_symbols(obj) - library
    found = symbol_trace.foreign_calls(obj, work, suspects, roles, run, tools)
    calls = [(s, loc) for s, loc, role in found
             if role != "load-time" or not host_symbols.permitted(s, host_library)]
    calls = sorted(set(calls), key=lambda c: (c[1] == "", symbol_trace.line_key(c[1]), c[0]))
    if not calls:
        return []
    names = symbol_trace.demangle({s for s, _ in calls}, run, tools)
    return [DeviceCall(symbol=s, name=s[len(LIBC_STANDIN):] if s.startswith(LIBC_STANDIN) else names[s], location=loc)
            for s, loc in calls]


def report(calls: Sequence[DeviceCall], what: str) -> str:
    """The build_error text: one diagnostic line per call (the first MAX_REPORTED), then what the device has."""
    lines = [c.message() for c in calls[:MAX_REPORTED]]
    if len(calls) > MAX_REPORTED:
        lines.append(f"... and {len(calls) - MAX_REPORTED} more")
    lines.append(f"note: {what}: device code links only the AscendC API and compiler builtins (a memcpy or memset "
                 "with a constant size, struct copies and array initialisers are builtins; no C library, "
                 "allocator, exceptions, threads, I/O or system calls)")
    return "\n".join(lines)
