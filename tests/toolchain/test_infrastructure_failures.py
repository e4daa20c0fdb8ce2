"""Failures of our own machinery, injected for real, are InfrastructureErrors: never build_error,
runtime_error or wrong, retried once, and never cached.

- a compiler that crashes (``NPUKB_CXX`` pointing at a script of ours that kills itself with
  SIGSEGV or SIGKILL, or reports an internal compiler error);
- a full scratch disk (a small tmpfs in a private mount namespace, filled up);
- a request file the simulator cannot read (the harness's own bug);
- a confinement wrapper that fails, end to end through pytest: tests/adversarial/test_infrastructure_runs.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from npukernelbench import infrastructure
from npukernelbench.cases import load_case
from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.layouts.case_toml.checker import project_for
from npukernelbench.result import Status
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain, builder, launch_files
from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler

ROOT = Path(__file__).resolve().parents[2]
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"
KERNEL = "op_kernel/add_custom.cpp"
STATIC = EvalOptions(shapes="static", speed=False)

# A g++ of ours: it misbehaves as its MODE says for the kernel TU (op_kernel/add_custom.cpp) and is
# the real g++ for everything else. The mode is written into the script itself: inside the sandbox
# (bubblewrap: private /tmp) the script is the one file of ours it can be sure to read.
FAKE_CXX = r"""#!/bin/sh
mode='{mode}'
case "$*" in
  *op_kernel/add_custom.cpp*)
    case "$mode" in
      segv) kill -SEGV $$ ;;
      kill) kill -KILL $$ ;;
      ice) echo "op_kernel/add_custom.cpp:1:1: internal compiler error: Segmentation fault" >&2; exit 4 ;;
    esac ;;
esac
exec '{gxx}' "$@"
"""


def _spec():
    return load_case(ADD_CUSTOM)


def _variant(spec, tag: str) -> dict[str, str]:
    """The expert solution with a comment: the same kernel, a new build key (a real build)."""
    return {name: (f"// {tag}\n{text}" if name == KERNEL else text) for name, text in spec.solution.items()}


def _dtypes(spec) -> dict[str, str]:
    return {d.name: "float32" for d in (*spec.inputs, *spec.outputs)}


def _cached_builds(cache: Path) -> list[Path]:
    return sorted((cache / "builds").glob("*/*/build.json"))


class FakeMode:
    """The fake g++'s mode: setting it rewrites the script."""

    def __init__(self, script: Path, gxx: str):
        self.script, self.gxx, self.mode = script, gxx, "ok"

    def write_text(self, mode: str) -> None:
        self.mode = mode.strip()
        self.script.write_text(FAKE_CXX.format(mode=self.mode, gxx=self.gxx))

    def read_text(self) -> str:
        return self.mode


@pytest.fixture(scope="module")
def fake_cxx(tmp_path_factory):
    """(toolchain, FakeMode) with NPUKB_CXX at the fake g++; the runtime objects and precompiled
    headers are built once for the module (the mode is "ok" meanwhile)."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.fail("g++ is needed (apt-get install g++)", pytrace=False)
    root = tmp_path_factory.mktemp("fake-cxx")
    script = root / "g++"
    mode = FakeMode(script, gxx)
    mode.write_text("ok")
    script.chmod(0o755)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NPUKB_CXX", str(script))
        toolchain = AscendCSimToolchain(cache_dir=root / "cache")
        assert toolchain.unavailable_reason() is None
        spec = _spec()
        warm = toolchain.build(project_for(spec, _variant(spec, "warm-up"), _dtypes(spec)))
        assert warm.ok, warm.diagnostics
        yield toolchain, mode


@pytest.mark.parametrize("mode, cause", [
    ("segv", "the compiler died of SIGSEGV"),
    ("kill", "the compiler died of SIGKILL"),
    ("ice", "internal compiler error"),
])
def test_crashing_compiler_is_an_infrastructure_failure_and_not_cached(fake_cxx, mode, cause) -> None:
    toolchain, mode_file = fake_cxx
    spec = _spec()
    mode_file.write_text(mode)
    try:
        before = _cached_builds(toolchain.cache.root)
        project = project_for(spec, _variant(spec, f"crash {mode}"), _dtypes(spec))
        with pytest.raises(InfrastructureError, match=cause) as caught:
            toolchain.build(project)
        assert "compiling op_kernel/add_custom.cpp" in caught.value.cause
        # the whole sample: retried once, then the error, naming the cause; never a build_error
        with pytest.raises(InfrastructureError, match="after one retry") as again:
            evaluate(spec, Completion(spec.case_id, 0, files=_variant(spec, f"crash {mode}")), toolchain, STATIC)
        assert cause in again.value.cause
        assert _cached_builds(toolchain.cache.root) == before, "an infrastructure failure was cached"
        assert list((toolchain.cache.root / "tmp").glob(f"{builder.build_key(project, find_compiler())[:12]}-*")) == []
    finally:
        mode_file.write_text("ok\n")


def test_transient_compiler_crash_is_retried_and_the_sample_counts(fake_cxx, monkeypatch) -> None:
    toolchain, mode_file = fake_cxx
    spec = _spec()
    pauses: list[float] = []

    def recover(seconds: float) -> None:        # the machine recovers during the retry's pause
        pauses.append(seconds)
        mode_file.write_text("ok")

    monkeypatch.setattr(infrastructure, "time", type("Clock", (), {"sleep": staticmethod(recover)}))
    mode_file.write_text("segv")
    try:
        result = evaluate(spec, Completion(spec.case_id, 0, files=_variant(spec, "transient")), toolchain, STATIC)
        assert pauses, "the crash was not injected (no retry happened)"
        assert result.status is Status.PASSED, result.message
    finally:
        mode_file.write_text("ok\n")


def test_genuine_compile_error_is_still_a_cached_build_error(fake_cxx) -> None:
    toolchain, _ = fake_cxx
    spec = _spec()
    files = _variant(spec, "broken")
    files[KERNEL] = files[KERNEL].replace("Add(zLocal", "AddNotAnApi(zLocal", 1)
    result = evaluate(spec, Completion(spec.case_id, 0, files=files), toolchain, STATIC)
    assert result.status is Status.BUILD_ERROR
    project = project_for(spec, files, _dtypes(spec))
    first = toolchain.build(project)
    assert not first.ok and toolchain.build(project).cached


# -- a malformed request: only the harness writes it -----------------------------------------------
def test_malformed_request_is_an_infrastructure_failure(sim, monkeypatch) -> None:
    spec = _spec()
    real = launch_files.write_request

    def malformed(folder: Path, op: str, launch) -> None:
        real(folder, op, launch)
        request = folder / launch_files.REQUEST
        request.write_text(request.read_text().replace("\nend\n", "\nnot-a-request-line 1 2\nend\n"))

    monkeypatch.setattr(launch_files, "write_request", malformed)
    with pytest.raises(InfrastructureError, match="rejected the harness's request"):
        evaluate(spec, Completion(spec.case_id, 0, files=dict(spec.solution)), sim, STATIC)


def test_launch_errors_of_the_candidate_stay_kernel_outcomes(sim) -> None:
    """The tiling function failing is the candidate's doing: a runtime_error, not infrastructure."""
    spec = _spec()
    files = dict(spec.solution)
    host = next(name for name in files if name.startswith("op_host/") and name.endswith(".cpp"))
    files[host] = files[host].replace("return ge::GRAPH_SUCCESS;", "return ge::GRAPH_FAILED;", 1)
    assert files[host] != spec.solution[host]
    result = evaluate(spec, Completion(spec.case_id, 0, files=files), sim, STATIC)
    assert result.status is Status.RUNTIME_ERROR and "TilingFunc returned failure" in result.message


# -- a full scratch disk -----------------------------------------------------------------------------
DISK_WORKER = Path(__file__).with_name("full_disk_worker.py")


def _can_mount_tmpfs(tmp_path: Path) -> str | None:
    unshare = shutil.which("unshare")
    if unshare is None:
        return "util-linux unshare is not installed"
    probe = subprocess.run([unshare, "--user", "--map-root-user", "--mount", "sh", "-c",
                            f"mount -t tmpfs -o size=1m tmpfs {tmp_path}"], capture_output=True, text=True)
    return None if probe.returncode == 0 else f"cannot mount a tmpfs in a user namespace: {probe.stderr.strip()}"


def test_full_scratch_disk_is_an_infrastructure_failure_and_not_cached(tmp_path) -> None:
    mount = tmp_path / "disk"
    mount.mkdir()
    why = _can_mount_tmpfs(mount)
    if why:
        pytest.skip(f"a real full disk needs a private tmpfs: {why}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    script = (f"mount -t tmpfs -o size=192m tmpfs {mount} && "
              f"exec {sys.executable} {DISK_WORKER} {mount} {ADD_CUSTOM}")
    proc = subprocess.run([shutil.which("unshare"), "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["warm"] == "passed"
    assert report["free_bytes"] < infrastructure.DISK_MARGIN_BYTES
    build, run = report["build"], report["run"]
    assert build["error"] == "InfrastructureError" and "scratch disk" in build["cause"], build
    assert build["new_builds"] == 0, "a build that failed for lack of disk space was cached"
    assert run["error"] == "InfrastructureError" and "scratch disk" in run["cause"], run


def test_missing_compiler_is_infrastructure_for_build_and_describe(tmp_path, monkeypatch) -> None:
    """The public layout describes the host code before any build: a missing compiler there is ours
    too, never a build_error of the candidate's host code."""
    monkeypatch.setenv("NPUKB_CXX", "/nonexistent/g++")
    toolchain = AscendCSimToolchain(cache_dir=tmp_path / "cache")
    spec = _spec()
    project = project_for(spec, dict(spec.solution), _dtypes(spec))
    for step in (toolchain.describe, toolchain.build):
        with pytest.raises(InfrastructureError, match="no usable C\\+\\+ compiler"):
            step(project)
    assert not (tmp_path / "cache" / "builds").exists()
