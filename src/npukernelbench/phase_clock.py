"""Where the time of one evaluation goes: wall and CPU seconds per phase (``EvalOptions.profile``).

A :class:`PhaseClock` times named phases (``with clock("reference"): ...``). Phases nest: a phase's
figures exclude the phases inside it, so the phases of one evaluation add up to its total. CPU
seconds are this process's plus those of the child processes it reaped; children run under
bubblewrap are not reaped by this process, so their CPU is missing there (the launcher reports its
own, ``run:launcher_cpu``). :func:`timed` wraps a toolchain so that its builds and runs are timed
too, split into the steps the toolchain reports (``BuildResult.steps``, the run's ``phase_seconds``).
Informational only: nothing here takes part in a verdict.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from npukernelbench.toolchains.base import BuildResult, KernelProject, Launch, RunResult


def _peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _cpu() -> float:
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + child.ru_utime + child.ru_stime


@dataclass
class _Frame:
    name: str
    wall: float
    cpu: float
    peak_kb: int = 0
    inner_wall: float = 0.0
    inner_cpu: float = 0.0
    inner_peak_kb: int = 0


@dataclass
class PhaseClock:
    """Seconds per phase: ``wall[name]``, ``cpu[name]``; ``counts[name]``: how often it ran;
    ``figures["peak_rss_raised_kb:NAME"]``: by how much the phase raised this process's peak resident
    memory (the phases inside it excluded), so that the phases that set the peak can be named."""

    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)   # other measurements (peak RSS, KB)
    prefix: str = ""
    _stack: list[_Frame] = field(default_factory=list)

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        frame = _Frame(self.prefix + name, time.monotonic(), _cpu(), _peak_rss_kb())
        self._stack.append(frame)
        try:
            yield
        finally:
            self._stack.pop()
            wall, cpu = time.monotonic() - frame.wall, _cpu() - frame.cpu
            raised = _peak_rss_kb() - frame.peak_kb
            self.add(frame.name, wall - frame.inner_wall, cpu - frame.inner_cpu)
            if raised - frame.inner_peak_kb > 0:
                key = f"peak_rss_raised_kb:{frame.name}"
                self.figures[key] = self.figures.get(key, 0.0) + raised - frame.inner_peak_kb
            if self._stack:
                self._stack[-1].inner_wall += wall
                self._stack[-1].inner_cpu += cpu
                self._stack[-1].inner_peak_kb += raised

    @contextmanager
    def section(self, prefix: str) -> Iterator[None]:
        """Phases inside are named ``prefix:name`` (the expert solution's builds and runs: ``baseline:``)."""
        before, self.prefix = self.prefix, f"{self.prefix}{prefix}:"
        try:
            yield
        finally:
            self.prefix = before

    def add(self, name: str, wall: float, cpu: float = 0.0) -> None:
        self.wall[name] = self.wall.get(name, 0.0) + max(wall, 0.0)
        self.cpu[name] = self.cpu.get(name, 0.0) + max(cpu, 0.0)
        self.counts[name] = self.counts.get(name, 0) + 1

    def split(self, name: str, parts: Mapping[str, float]) -> None:
        """Move wall seconds of the phase ``name`` (already recorded) into its sub-steps ``name:part``
        (what remains stays under ``name``). CPU stays with ``name``."""
        full = self.prefix + name
        if full not in self.wall:
            return
        for part, seconds in parts.items():
            moved = min(max(float(seconds), 0.0), self.wall.get(full, 0.0))
            self.wall[full] = self.wall.get(full, 0.0) - moved
            self.wall[f"{full}:{part}"] = self.wall.get(f"{full}:{part}", 0.0) + moved
            self.cpu.setdefault(f"{full}:{part}", 0.0)
            self.counts[f"{full}:{part}"] = self.counts.get(f"{full}:{part}", 0) + 1

    def peak(self, name: str, value: float) -> None:
        self.figures[name] = max(self.figures.get(name, 0.0), float(value))

    def to_json(self) -> dict[str, Any]:
        return {"wall": {k: round(v, 4) for k, v in self.wall.items()},
                "cpu": {k: round(v, 4) for k, v in self.cpu.items()},
                "counts": dict(self.counts), "figures": dict(self.figures)}


class TimedToolchain:
    """A toolchain whose ``build``, ``run`` and ``describe`` are timed on ``clock``; everything else is
    the wrapped toolchain's (attribute for attribute)."""

    def __init__(self, toolchain: Any, clock: PhaseClock):
        self._toolchain = toolchain
        self._clock = clock

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._toolchain, name)
        if name == "describe":
            return self._timed_describe(attr)
        return attr

    def build(self, project: KernelProject) -> BuildResult:
        with self._clock("build"):
            result = self._toolchain.build(project)
        if result.cached:
            self._clock.split("build", {"cached": float("inf")})
        else:
            self._clock.split("build", result.steps)
        return result

    def run(self, build: BuildResult, launch: Launch) -> RunResult:
        with self._clock("run"):
            result = self._toolchain.run(build, launch)
        phases = result.details.get("phase_seconds")
        if isinstance(phases, Mapping):
            self._clock.split("run", {f"launcher_{k}": v for k, v in phases.items()
                                      if isinstance(v, (int, float))})
        cpu = result.details.get("launcher_cpu_seconds")
        if isinstance(cpu, (int, float)):
            self._clock.peak(self._clock.prefix + "run:launcher_cpu_seconds_max", cpu)
            self._clock.cpu[self._clock.prefix + "run:launcher_cpu"] = \
                self._clock.cpu.get(self._clock.prefix + "run:launcher_cpu", 0.0) + float(cpu)
        rss = result.details.get("launcher_peak_rss_kb")
        if isinstance(rss, (int, float)):
            self._clock.peak("simulator_peak_rss_kb", rss)
        return result

    def _timed_describe(self, describe: Callable[[KernelProject], Any]) -> Callable[[KernelProject], Any]:
        def timed_describe(project: KernelProject) -> Any:
            with self._clock("describe"):
                return describe(project)
        return timed_describe


def timed(toolchain: Any, clock: PhaseClock) -> Any:
    """``toolchain`` with its builds, runs and host descriptions timed on ``clock``."""
    return TimedToolchain(toolchain, clock)
