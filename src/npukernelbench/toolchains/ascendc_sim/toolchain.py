"""AscendCSimToolchain: build and run AscendC operator projects on the CPU simulator.

Speeds are **estimates** from the simulator's cost model (``speed_kind = "estimated"``).

``build`` and ``run`` raise :class:`~npukernelbench.infrastructure.InfrastructureError` for what only
the harness can cause: no usable compiler, a crashed compiler, a failed confinement wrapper, a
full scratch disk, the out-of-memory killer while the kernel was far below its limits, a launch the
harness made that the simulator rejects as a malformed request before it loaded the candidate's code,
a build artifact that went missing. Once the launcher has said "candidate" on the phase channel (it
is about to load the candidate's shared object), everything that goes wrong is the candidate's.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from npukernelbench import scrub
from npukernelbench.hardware import Hardware
from npukernelbench.infrastructure import InfrastructureError, disk_error, disk_trouble
from npukernelbench.sandbox import Limits, Request, clean_env, run_confined
from npukernelbench.spec import TaskSpec
from npukernelbench.toolchains.ascendc_sim import builder, call_sites, launch_files, self_test, tiling_fields
from npukernelbench.toolchains.ascendc_sim.build_cache import BuildCache, default_root
from npukernelbench.toolchains.ascendc_sim.compiler import Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.platform import public_headers, simulated_hardware
from npukernelbench.toolchains.ascendc_sim.run_limit import run_limit
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import (
    BuildResult,
    HostCompiler,
    HostDescription,
    KernelProject,
    Launch,
    Preprocessing,
    RunResult,
)

SELF_TEST_RUN_MARK = "self_test_run.passed"
_SELF_TEST_RUN_FAILED: dict[Path, str] = {}     # per runtime: why its self-test run failed (once per process)
RUN_MEMORY_BYTES = 8 << 30        # address space of one simulated run (48 block stacks + GM)
EXIT_REQUEST = 2                  # the launcher could not read the harness's request or write its files
EXIT_VIOLATION = 3
EXIT_LAUNCH = 4


class AscendCSimToolchain:
    name = "ascendc-sim"
    speed_kind = "estimated"

    def __init__(self, cache_dir: str | Path | None = None, keep_runs: bool = False, raw_access_costing: bool = True):
        """``raw_access_costing`` False builds kernels without the raw-access instrumentation (the
        kernel's own loads and stores through raw pointers then cost nothing): only for showing that
        the cost rule matters (tests), never for results."""
        self.cache = BuildCache(Path(cache_dir) if cache_dir is not None else default_root())
        scrub.add_public_root(INCLUDE_DIR)        # messages name the simulator's headers as kernels include them
        self.keep_runs = keep_runs
        self.raw_access_costing = raw_access_costing

    # -- availability -------------------------------------------------------------------------

    def _compiler(self) -> Compiler | str:
        return find_compiler()

    def unavailable_reason(self) -> str | None:
        found = self._compiler()
        return found if isinstance(found, str) else None

    def prepare(self, specs: Sequence[TaskSpec], report: Callable[[str], None]) -> bool:
        """Once per run, before any item: build the simulator runtime and the precompiled headers
        the tasks' expert solutions use (time a first run on a machine spends here, measured by
        benchmarks/setup_time.py, which would otherwise pass in silence inside the first items).
        Returns whether it built anything."""
        found = self._compiler()
        if isinstance(found, str):
            raise InfrastructureError(f"ascendc-sim has no usable C++ compiler: {found}")
        return builder.prepare(found, self.cache, [dict(s.solution) for s in specs if s.solution], report,
                               raw_access=self.raw_access_costing)

    def include_allowlist(self) -> frozenset[str]:
        return public_headers()

    def hardware(self, soc: str | None = None) -> Hardware:
        return simulated_hardware(soc)

    def preprocessing(self) -> Preprocessing:
        """The clean-room headers, as the build includes them (no defines)."""
        found = self._compiler()
        return Preprocessing(compiler=None if isinstance(found, str) else found.path, include_dirs=(INCLUDE_DIR,))

    def host_compiler(self) -> HostCompiler:
        found = self._compiler()
        if isinstance(found, str):
            raise InfrastructureError(f"ascendc-sim has no host C++ compiler: {found}")
        return HostCompiler(path=found.path, version=found.version)

    def cache_root(self) -> Path:
        return self.cache.root

    def cache_report(self) -> list[str]:
        return self.cache.info().lines()

    def clear_cache(self) -> int:
        return self.cache.clear()

    # -- build --------------------------------------------------------------------------------

    def build(self, project: KernelProject) -> BuildResult:
        found = self._compiler()
        if isinstance(found, str):
            raise InfrastructureError(f"ascendc-sim has no usable C++ compiler: {found}")
        return builder.build(project, found, self.cache, raw_access=self.raw_access_costing)

    def describe(self, project: KernelProject) -> HostDescription:
        """Compile and run the host code alone: the OpDefs it registers (cached per host sources)."""
        found = self._compiler()
        if isinstance(found, str):          # our machinery: never the host code's fault
            raise InfrastructureError(f"ascendc-sim has no usable C++ compiler: {found}")
        return builder.describe(project, found, self.cache)

    # -- run ----------------------------------------------------------------------------------

    def run(self, build: BuildResult, launch: Launch) -> RunResult:
        if not build.ok or build.artifact is None:
            return RunResult(ok=False, message="nothing to run: the build failed")
        exe = Path(build.artifact)
        try:
            meta = json.loads((exe.parent / "build.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InfrastructureError(f"the build artifact {exe} went missing or is unreadable (cache cleared "
                                      f"meanwhile?): {exc}") from exc
        found = self._compiler()
        if isinstance(found, str):
            raise InfrastructureError(f"ascendc-sim has no usable C++ compiler: {found}")
        launcher = builder.runtime(found, self.cache).launcher
        self._self_test_run(found, launcher)
        folder = self._run_folder("run-")
        try:
            return self._run_in(folder, launcher, exe, meta["op"], launch, bool(meta.get("raw_access_costed")))
        finally:
            if not self.keep_runs:
                shutil.rmtree(folder, ignore_errors=True)

    def _run_folder(self, prefix: str) -> Path:
        try:
            return self.cache.scratch(prefix)
        except OSError as exc:
            raise disk_error(exc, "cannot create a run folder") or \
                InfrastructureError(f"cannot create a run folder under {self.cache.root}: {exc}") from exc

    def _self_test_run(self, found: Compiler, launcher: Path) -> None:
        """Run the self-test operator (self_test.py) on fixed data before the first run with this runtime:
        a run that fails, or computes a wrong result, is this machine's fault (InfrastructureError), not
        the candidates'. Recorded beside the runtime once it passed; one attempt per process."""
        mark = launcher.parent / SELF_TEST_RUN_MARK
        if mark.is_file():
            return
        why = _SELF_TEST_RUN_FAILED.get(mark)
        if why is None:
            why, timed_out = self._self_test_run_problem(found, launcher)
            if why is not None and not timed_out:      # a loaded machine may do better next time
                _SELF_TEST_RUN_FAILED[mark] = why
        if why is not None:
            raise InfrastructureError("ascendc-sim: the simulator fails the toolchain's self-test run on this "
                                      f"machine, so no run here can be judged: the known-good operator {why}")
        self_test.record_pass(mark, "passed\n", "self-test run")

    def _self_test_run_problem(self, found: Compiler, launcher: Path) -> tuple[str | None, bool]:
        """Why the self-test run failed (None when it passed), and whether it timed out."""
        built = builder.build(self_test.project(), found, self.cache, raw_access=self.raw_access_costing)
        if not built.ok or built.artifact is None:
            return "did not build: " + " ".join(built.diagnostics.split())[:400], built.timed_out
        sent = self_test.launch()
        folder = self._run_folder("self-test-run-")
        try:
            result = self._run_in(folder, launcher, Path(built.artifact), self_test.OP, sent,
                                  self.raw_access_costing)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if not result.ok:
            return "failed to run: " + " ".join((result.message or "").split())[:400], result.timed_out
        wrong = self_test.wrong_output(dict(result.outputs), sent)
        return (f"ran but computed a wrong result: {wrong}" if wrong else None), False

    def _run_in(self, folder: Path, launcher: Path, exe: Path, op: str, launch: Launch,
                raw_access_costed: bool) -> RunResult:
        try:
            launch_files.write_request(folder, op, launch)
        except OSError as exc:
            raise disk_error(exc, "cannot write the simulator's request", folder) or \
                InfrastructureError(f"cannot write the simulator's request in {folder}: {exc}") from exc
        except (launch_files.LaunchError, KeyError, IndexError, ValueError) as exc:
            raise InfrastructureError(f"the harness made an invalid launch: {exc}") from exc
        limit = run_limit(launch)
        limits = Limits(cpu_s=max(1, math.ceil(limit.cpu_s)), memory_bytes=RUN_MEMORY_BYTES, wall_s=limit.wall_s,
                        file_bytes=4 << 30)
        outcome = run_confined(Request(argv=[str(launcher), "run", str(folder), str(exe)], cwd=folder, limits=limits,
                                       env=clean_env({"MALLOC_ARENA_MAX": "2"}), phase_to_command=True))
        if outcome.infrastructure:
            raise InfrastructureError(f"ascendc-sim run: {outcome.infrastructure}")
        loaded = outcome.reached("candidate")
        result = call_sites.resolve_result(launch_files.read_result(folder) or {},
                                           lambda offsets: _addr2line(exe, folder, offsets))
        if not outcome.ok and not outcome.timed_out:
            disk = disk_trouble(folder, outcome.stderr)
            if disk:
                raise InfrastructureError(f"ascendc-sim run: {disk}")
        if not loaded:
            # the launcher ended before it loaded the candidate's code: the request it rejected (only the
            # harness writes it) or its own failure, never the candidate's
            if outcome.returncode == EXIT_REQUEST and result.get("status") == "request_error":
                raise InfrastructureError(f"ascendc-sim run: the simulator rejected the harness's request: "
                                          f"{result.get('message') or outcome.stderr[-500:]}")
            raise InfrastructureError(f"ascendc-sim run: the launcher failed before it loaded the candidate's code "
                                      f"({outcome.signal_name or f'exit status {outcome.returncode}'}): "
                                      f"{outcome.stderr.strip()[-500:]}")
        details = {k: result[k] for k in ("block_dim", "tiling_key", "workspace_bytes", "tiling_bytes", "tiling_hex",
                                          "cost", "violation", "status", "kernel_type", "cores", "host_warnings",
                                          "kernel_warnings", "phase_seconds", "launcher_cpu_seconds",
                                          "launcher_peak_rss_kb")
                   if k in result}
        if "tiling_hex" in result:
            fields = tiling_fields.decode_run(exe.parent, op, result)
            if fields is not None:
                details["tiling_fields"] = fields        # the tiling class's values, by field name
        details["log"] = result.get("log", "")
        details["speed_kind"] = self.speed_kind
        details["raw_access_costed"] = raw_access_costed
        details["run_seconds"] = round(outcome.seconds, 3)
        if outcome.timed_out:
            return RunResult(ok=False, timed_out=True, details=details,
                             message=f"timeout: the simulated run exceeded its limit of {limit.describe()}"
                                     + (f" or {limit.wall_s:g} s of wall-clock time" if outcome.limit == "wall-clock"
                                        else "")
                                     + " (an endless loop in the kernel or the tiling function? --npukb-run-timeout "
                                       "sets the base limit)")
        if outcome.signal_name:
            return RunResult(ok=False, details=details,
                             message=f"runtime_error: the kernel process died of {outcome.signal_name}"
                                     + builder.death_note(outcome.signal_name, outcome.stderr))
        if outcome.returncode in (EXIT_VIOLATION, EXIT_LAUNCH):
            return RunResult(ok=False, details=details, message=result.get("message") or outcome.stderr[-2000:])
        if outcome.returncode != 0 or result.get("status") != "ok":
            tail = (result.get("message") or outcome.stderr[-2000:] or outcome.stdout[-2000:]).strip()
            return RunResult(ok=False, details=details,
                             message=f"runtime_error: the simulator exited with status {outcome.returncode}: {tail}")
        try:
            outputs = launch_files.read_tensors(folder, result.get("outputs", []), launch.outputs)
            inputs_after = launch_files.read_tensors(folder, result.get("inputs_after", []), launch.inputs)
        except (OSError, ValueError) as exc:
            disk = disk_trouble(folder, str(exc))
            if disk:
                raise InfrastructureError(f"ascendc-sim run: {disk}") from exc
            # written by the launcher after the kernel ran in its process: a kernel that corrupts
            # the simulator's memory can cause this
            return RunResult(ok=False, details=details, message=f"runtime_error: unreadable outputs: {exc}")
        return RunResult(ok=True, outputs=outputs, inputs_after=inputs_after, time_us=result.get("time_us"),
                         details=details)


def _addr2line(exe: Path, folder: Path, offsets: Sequence[int]) -> str:
    """``addr2line`` on the candidate's executable (confined: it parses the candidate's binary), its
    output or "" when it cannot run (reports then name no line; the verdict does not depend on it)."""
    tool = shutil.which("addr2line")
    if tool is None:
        return ""
    outcome = run_confined(Request(argv=call_sites.addr2line_argv(tool, str(exe), offsets), cwd=folder,
                                   limits=Limits(cpu_s=20, wall_s=20.0, memory_bytes=2 << 30), env=clean_env()))
    return outcome.stdout if outcome.ok else ""

