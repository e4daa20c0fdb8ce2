"""Sanity floors on a run's speed, computed by the harness, and the speedup verdict.

A speed estimate is a reward signal, so the harness does not take it on trust. For every timed run
it knows, from its own tensors, how many bytes the kernel must move: every byte of every output it
owns (outputs aliasing an input excluded) and every byte of every input the case reads in full
(inputs marked ``partial_read`` excluded: gather tables, sliced inputs, ValueDepend parameters).
A run is ``suspect`` (kept out of every speedup figure, with the reason in its message) when

* its kernel time is below the HBM roofline for those bytes at the published 1.6 TB/s, or
* the GM bytes its data-movement APIs counted do not cover its outputs (writes) or its fully read
  inputs (reads): output produced without writing it, input used without reading it.

Speedups compare kernel times without the toolchain's fixed launch overhead (reported separately),
so that a fixed cost cannot flatten the difference between kernels; a speedup above
:data:`SUSPECT_SPEEDUP` is suspect as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npukernelbench.spec import TaskSpec

# Ascend 910B aggregate HBM bandwidth (published figure): 1.6 TB/s = 1.6e6 bytes per microsecond.
HBM_BYTES_PER_US = 1.6e6
SUSPECT_SPEEDUP = 10.0
# A memory-bound estimate sits exactly on the roofline; times travel as JSON with 6 decimals.
ROOFLINE_SLACK_US = 1e-5


@dataclass(frozen=True)
class Traffic:
    """Bytes a run must move, from the harness's own tensors."""

    output_bytes: int        # outputs the kernel owns (not aliasing an input): written in full
    input_bytes: int         # inputs the case reads in full

    @property
    def roofline_us(self) -> float:
        return (self.output_bytes + self.input_bytes) / HBM_BYTES_PER_US


@dataclass(frozen=True)
class RunCost:
    """What a toolchain reported for one run."""

    time_us: float
    launch_overhead_us: float = 0.0
    gm_read_bytes: int | None = None     # counted by the data-movement APIs; None: not reported
    gm_write_bytes: int | None = None

    @property
    def kernel_us(self) -> float:
        return max(self.time_us - self.launch_overhead_us, 0.0)


def combined(costs: Sequence[RunCost]) -> RunCost:
    """Several kernel launches of one call (a public-layout Model) as one cost; counts are None when
    any launch did not report them."""
    def total(values: list[int | None]) -> int | None:
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)

    return RunCost(time_us=sum(c.time_us for c in costs), launch_overhead_us=sum(c.launch_overhead_us for c in costs),
                   gm_read_bytes=total([c.gm_read_bytes for c in costs]),
                   gm_write_bytes=total([c.gm_write_bytes for c in costs]))


def _nbytes(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, list | tuple):
        return sum(int(np.asarray(v).nbytes) for v in value)
    return int(np.asarray(value).nbytes)


def traffic_of(spec: TaskSpec, inputs: Mapping[str, Any], outputs: Mapping[str, Any]) -> Traffic:
    """``inputs`` as handed to the kernel, ``outputs`` as read back (harness-shaped storage arrays)."""
    aliased = {d.name for d in spec.outputs if d.inplace}
    out = sum(_nbytes(outputs.get(d.name)) for d in spec.outputs if d.name not in aliased)
    inp = sum(_nbytes(inputs.get(d.name)) for d in spec.inputs if not d.partial_read)
    return Traffic(output_bytes=out, input_bytes=inp)


def cost_of(time_us: float, details: Mapping[str, Any]) -> RunCost:
    """The run's cost from a toolchain's ``RunResult`` (``details["cost"]`` when it reports one)."""
    cost = details.get("cost") or {}

    def count(key: str) -> int | None:
        value = cost.get(key)
        return int(value) if isinstance(value, int | float) else None

    return RunCost(time_us=float(time_us), launch_overhead_us=float(cost.get("launch_overhead_us") or 0.0),
                   gm_read_bytes=count("gm_read_bytes"), gm_write_bytes=count("gm_write_bytes"))


def floor_violations(traffic: Traffic, cost: RunCost) -> tuple[str, ...]:
    """Why a run is below a sanity floor (empty when it is not)."""
    found = []
    if traffic.roofline_us > 0 and cost.kernel_us < traffic.roofline_us * (1 - 1e-9) - ROOFLINE_SLACK_US:
        found.append(f"estimated kernel time {cost.kernel_us:.3f} us is below the HBM roofline "
                     f"{traffic.roofline_us:.3f} us for the {traffic.output_bytes + traffic.input_bytes} bytes "
                     "its outputs and inputs must move at 1.6 TB/s")
    if cost.gm_write_bytes is not None and cost.gm_write_bytes < traffic.output_bytes:
        found.append(f"the kernel's counted GM writes ({cost.gm_write_bytes} bytes) do not cover its outputs "
                     f"({traffic.output_bytes} bytes)")
    if cost.gm_read_bytes is not None and cost.gm_read_bytes < traffic.input_bytes:
        found.append(f"the kernel's counted GM reads ({cost.gm_read_bytes} bytes) do not cover its inputs "
                     f"({traffic.input_bytes} bytes)")
    return tuple(found)


@dataclass(frozen=True)
class SpeedVerdict:
    speedup: float | None          # baseline kernel time / candidate kernel time; None when not comparable
    suspect: bool
    reasons: tuple[str, ...]


def verdict(kernel_us: Sequence[float], baseline_kernel_us: Sequence[float], floor_reasons: Sequence[str],
            suspect_speedup: float = SUSPECT_SPEEDUP) -> SpeedVerdict:
    """The speedup over the timed cases (sums of kernel times) and whether it is suspect. A run below
    a floor gets no speedup at all."""
    if floor_reasons:
        return SpeedVerdict(None, True, tuple(floor_reasons))
    cand, base = sum(kernel_us), sum(baseline_kernel_us)
    if not kernel_us or cand <= 0:
        return SpeedVerdict(None, False, ())
    speedup = round(base / cand, 4)
    if speedup > suspect_speedup:
        return SpeedVerdict(speedup, True, (f"speedup {speedup:g}x is above the audit threshold "
                                            f"{suspect_speedup:g}x",))
    return SpeedVerdict(speedup, False, ())
