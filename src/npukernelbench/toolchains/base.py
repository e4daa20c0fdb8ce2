"""The Toolchain protocol: build an operator project, run it on concrete tensors.

Toolchains never import torch: tensors travel as numpy arrays of the dtype's storage type
(``npukernelbench.dtypes``; bfloat16 as uint16 bits). Builds and runs happen in child processes
(see ``npukernelbench.sandbox``); nothing a candidate wrote runs in the caller's process.

Besides building and running, a toolchain hands generic code what it needs to know about it, so
that nothing outside a toolchain's own package imports that package: how its compiler preprocesses
a project (the static checks read the candidate's code as that compiler sees it,
:class:`Preprocessing`), the host C++ compiler that builds task-side host code (the public layout's
``pybind.cpp``, :class:`HostCompiler`), and where it caches what it builds (``cache_root``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from npukernelbench.hardware import Hardware
from npukernelbench.result import ErrorCategory


@dataclass(frozen=True)
class ParamSlot:
    """One kernel parameter of the OpDef, in kernel argument order (inputs then outputs)."""

    name: str
    role: str                 # "input" | "output"
    param_type: str           # "REQUIRED" | "OPTIONAL" | "DYNAMIC"
    dtype: str                # concrete dtype for this build (DTYPE_<NAME> macro)


@dataclass(frozen=True)
class KernelProject:
    """Source files of one candidate operator project plus what the build needs to know."""

    op: str                               # OpDef type name (AddCustom)
    kernel: str                           # kernel entry (add_custom)
    files: Mapping[str, str]              # "op_host/add_custom.cpp" -> text, ...
    params: tuple[ParamSlot, ...]         # concrete dtypes of this build


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    artifact: Path | None                 # what run() needs (an executable for ascendc-sim)
    key: str                              # content hash of everything that went into the build
    diagnostics: str = ""                 # trimmed compiler output
    error_category: ErrorCategory | None = None
    seconds: float = 0.0
    cached: bool = False
    timed_out: bool = False
    steps: Mapping[str, float] = field(default_factory=dict)   # wall seconds per build step (none when cached)


@dataclass(frozen=True)
class TensorArg:
    """An input (or an output slot of ``shape``) handed to the kernel. ``data`` is an array, a list of
    arrays for DYNAMIC tensor lists, or None for an absent optional input. An output's ``data`` is what
    its buffer holds before the launch (a binding that zeroes it, as CoalesceSparse's does); None: a
    fresh buffer, filled with poison. Outputs with ``alias`` reuse that input's buffer (in-place
    operators)."""

    name: str
    dtype: str
    data: np.ndarray | list[np.ndarray] | None = None
    shape: tuple[int, ...] | list[tuple[int, ...]] | None = None
    alias: str | None = None


@dataclass(frozen=True)
class Launch:
    inputs: tuple[TensorArg, ...]
    outputs: tuple[TensorArg, ...]
    attrs: Mapping[str, tuple[str, Any]]  # name -> (attr type, value)
    timeout_s: float = 60.0
    poison_seed: int = 0
    soc: str | None = None                # SoC profile to simulate (npukernelbench.soc_profiles); None: the default


@dataclass(frozen=True)
class RunResult:
    ok: bool
    outputs: Mapping[str, np.ndarray | list[np.ndarray]] = field(default_factory=dict)
    inputs_after: Mapping[str, np.ndarray | list[np.ndarray]] = field(default_factory=dict)
    message: str = ""                     # why it failed: violation, signal, limit
    timed_out: bool = False
    time_us: float | None = None          # kernel time: estimated (simulator) or measured (hardware)
    details: Mapping[str, Any] = field(default_factory=dict)   # block_dim, tiling_key, cost breakdown


@dataclass(frozen=True)
class OpParam:
    """An input or output of a registered OpDef, as its host code declares it."""

    name: str
    role: str                             # "input" | "output"
    param_type: str                       # "REQUIRED" | "OPTIONAL" | "DYNAMIC"
    dtypes: tuple[str, ...]               # dtype name per DataType column ("" where unknown here)
    any_column: bool = False              # DataTypeList: each of ``dtypes`` fits every column
    formats: tuple[int, ...] = ()         # ge::Format value per column (Format), or one for all (FormatList)
    value_depend: str = ""                # inputs: ValueDepend's option (REQUIRED / OPTIONAL), "" if none


@dataclass(frozen=True)
class OpAttr:
    """An attribute of a registered OpDef."""

    name: str
    type: str                             # float | int | bool | str | list_int | list_float | list_bool | ...
    required: bool
    has_default: bool = False
    default: Any = None


@dataclass(frozen=True)
class OpSignature:
    """One registered OpDef: what the aclnn API generated for it takes, in its order (inputs, then
    attributes, then outputs)."""

    op: str
    inputs: tuple[OpParam, ...]
    outputs: tuple[OpParam, ...]
    attrs: tuple[OpAttr, ...]

    @property
    def columns(self) -> int:
        """Number of DataType columns (dtype combinations) the OpDef supports."""
        return max((len(p.dtypes) for p in (*self.inputs, *self.outputs) if not p.any_column), default=1)


@dataclass(frozen=True)
class HostDescription:
    """What the project's host code registers, from compiling and running it (``describe``)."""

    ok: bool
    signatures: tuple[OpSignature, ...] = ()
    diagnostics: str = ""                 # why the host code did not build or describe
    error_category: ErrorCategory | None = None
    timed_out: bool = False
    cached: bool = False

    def signature(self, op: str) -> OpSignature | None:
        return next((s for s in self.signatures if s.op == op), None)


@dataclass(frozen=True)
class Preprocessing:
    """How a toolchain's compiler preprocesses a project's translation units: the static checks run
    ``compiler -E`` with these include directories and defines to see macro-built names spelled out.
    ``compiler`` None: no preprocessor is available, and only the checks on the raw text run."""

    compiler: str | None
    include_dirs: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()          # NAME or NAME=VALUE, as -D takes them


@dataclass(frozen=True)
class HostCompiler:
    """The C++ compiler that builds host-side code on this machine (a task's ``pybind.cpp``)."""

    path: str
    version: str                           # first line of ``--version``: part of cache keys


@runtime_checkable
class Toolchain(Protocol):
    name: str
    speed_kind: str                       # "estimated" | "measured"

    def unavailable_reason(self) -> str | None:
        """None when usable here, else why not (the plugin skips with this text)."""

    def include_allowlist(self) -> frozenset[str]:
        """Include names of the toolchain's own public headers that a candidate may include
        (``kernel_operator.h``, ...). The static checks allow these besides the project's own files and
        a short list of standard headers; a name found nowhere is left to the build to report."""

    def hardware(self, soc: str | None = None) -> Hardware:
        """The device the toolchain builds for, as the project-level prompt describes it: SoC profile
        ``soc`` (``--npukb-soc``, a layout's default; None: the toolchain's default). A toolchain
        that targets one device may ignore ``soc``."""

    def preprocessing(self) -> Preprocessing:
        """How this toolchain's compiler preprocesses a project (for the static checks)."""

    def host_compiler(self) -> HostCompiler:
        """The host C++ compiler; raises :class:`~npukernelbench.infrastructure.InfrastructureError`
        when there is none (the machine's problem, never a candidate's or a task's)."""

    def cache_root(self) -> Path:
        """Where this toolchain caches builds; task-side artifacts built for it (the public layout's
        compiled bindings) are cached below it too."""

    def build(self, project: KernelProject) -> BuildResult: ...

    def run(self, build: BuildResult, launch: Launch) -> RunResult: ...


@runtime_checkable
class HostDescriber(Protocol):
    """A toolchain that can compile a project's host code alone and report the OpDefs it registers
    (needed by tasks that bind the operator through its OpDef, such as the public NPUKernelBench
    layout). The ``project.params`` of such a call are empty: no dtype binding exists yet."""

    def describe(self, project: KernelProject) -> HostDescription: ...


@runtime_checkable
class CacheKeeper(Protocol):
    """A toolchain whose build cache ``npukb cache info`` reports on and ``npukb cache clear`` empties."""

    def cache_report(self) -> list[str]:
        """Lines saying what the cache holds (its root first)."""

    def clear_cache(self) -> int:
        """Delete what the cache holds; the bytes freed."""
