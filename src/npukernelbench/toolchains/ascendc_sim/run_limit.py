"""How long one simulated run may take: the limit a run is killed at and judged a timeout by.

The limit is CPU time (the launcher simulates one core at a time, so an endless loop burns CPU at the
rate of one core): the run's base limit (``--npukb-run-timeout``, 60 s by default) plus
:data:`SECONDS_PER_GIB` for every GiB of tensors the launch hands the kernel, since simulating a kernel
over a GiB of data takes the CPU simulator minutes: ``benchmarks/run_limit_rate.py`` measured 10 CPU
s/GiB for an add and 372 for Spence's polynomial (docs/simulator.md), and the constant leaves 1.6
times the heavier one. A large case is run, never skipped: it is where 32-bit offset bugs
show. The wall-clock limit is :data:`WALL_FACTOR` times the CPU limit: a loaded machine slows a run
down without it being the kernel's fault, and a kernel that sleeps or blocks is still stopped."""

from __future__ import annotations

import math
from dataclasses import dataclass

from npukernelbench.dtypes import dtype
from npukernelbench.toolchains.ascendc_sim.launch_files import tensor_shapes
from npukernelbench.toolchains.base import Launch, TensorArg

SECONDS_PER_GIB = 600.0      # CPU seconds added per GiB of launch tensors (see the module docstring)
WALL_FACTOR = 3.0            # wall-clock limit = WALL_FACTOR x the CPU-time limit


@dataclass(frozen=True)
class RunLimit:
    base_s: float            # the run's base limit (the option)
    data_bytes: int          # bytes of the tensors the launch hands the kernel (in-place outputs once)
    extra_s: float           # CPU seconds added for them

    @property
    def cpu_s(self) -> float:
        return self.base_s + self.extra_s

    @property
    def wall_s(self) -> float:
        return WALL_FACTOR * self.cpu_s

    def describe(self) -> str:
        """The limit in words, for a timeout's message."""
        text = f"{self.cpu_s:g} s of CPU time"
        if self.extra_s > 0:
            text += (f" ({self.base_s:g} s + {self.extra_s:g} s for its {self.data_bytes / 2**30:.2f} GiB of "
                     "tensors)")
        return text


def _nbytes(arg: TensorArg, output: bool) -> int:
    if output and arg.alias is not None:
        return 0                                   # the input's buffer, counted with the input
    size = dtype(arg.dtype).itemsize
    return sum(math.prod(s) * size for s in tensor_shapes(arg) or ())


def data_bytes(launch: Launch) -> int:
    """Bytes of every input and output buffer of ``launch`` (an in-place output is its input's buffer)."""
    return sum(_nbytes(a, False) for a in launch.inputs) + sum(_nbytes(a, True) for a in launch.outputs)


def run_limit(launch: Launch) -> RunLimit:
    if not launch.timeout_s > 0:
        raise ValueError(f"a launch's time limit must be > 0 s, got {launch.timeout_s}")
    size = data_bytes(launch)
    return RunLimit(base_s=launch.timeout_s, data_bytes=size, extra_s=float(round(SECONDS_PER_GIB * size / 2**30)))
