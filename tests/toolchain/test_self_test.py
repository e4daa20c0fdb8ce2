"""The toolchain's self-test (docs/simulator.md, "The toolchain's self-test"): a known-good operator is
built with every compiler and simulator version before a candidate's build is judged, so that a machine
whose compiler breaks the build's checks (a distribution's default hardening, a broken installation)
reports an infrastructure error instead of blaming every candidate in turn."""

from __future__ import annotations

import shutil
import stat

import numpy as np
import pytest

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.toolchains.ascendc_sim import builder, self_test
from npukernelbench.toolchains.ascendc_sim.build_cache import BuildCache
from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.base import Launch, TensorArg


def test_the_self_test_operator_is_known_good(sim) -> None:
    """It builds, and it computes what it claims (z = x + y), split over cores and tiles."""
    result = sim.build(self_test.project())
    assert result.ok, result.diagnostics
    rng = np.random.default_rng(7)
    x = rng.standard_normal(4096).astype(np.float32)
    y = rng.standard_normal(4096).astype(np.float32)
    run = sim.run(result, Launch(inputs=(TensorArg("x", "float32", x), TensorArg("y", "float32", y)),
                                 outputs=(TensorArg("z", "float32", shape=(4096,)),), attrs={}))
    assert run.ok, run.message
    np.testing.assert_array_equal(run.outputs["z"], x + y)


def test_the_runtime_in_use_has_passed_the_self_test(sim) -> None:
    found = find_compiler()
    assert not isinstance(found, str), found
    parts = builder.runtime(found, sim.cache)
    assert (parts.launcher.parent / builder.SELF_TEST_MARK).is_file()
    assert builder.runtime_ready(found, sim.cache)


def _hardened(tmp_path, real: str):
    """A compiler whose own defaults the build cannot undo: the hardening comes after the build's flags."""
    wrapper = tmp_path / "toolchain" / "bin" / "hardened-g++"
    wrapper.parent.mkdir(parents=True)
    wrapper.write_text(f'#!/bin/sh\nexec {real} "$@" -fstack-protector-all\n', encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return wrapper


def test_a_compiler_that_breaks_the_checks_is_the_machines_fault(sim, tmp_path, monkeypatch) -> None:
    real = find_compiler()
    assert not isinstance(real, str), real
    monkeypatch.setenv("NPUKB_CXX", str(_hardened(tmp_path, real.path)))
    hardened = find_compiler()
    assert not isinstance(hardened, str) and hardened.path != real.path, hardened
    # the runtime of the machine's own compiler (its objects are what the checks link against); the
    # hardened compiler then builds the known-good operator, which its canaries make call the C library
    parts = builder.runtime(real, sim.cache)
    cache = BuildCache(tmp_path / "cache")
    runtime_folder = tmp_path / "runtime"
    runtime_folder.mkdir()
    shutil.copy2(parts.launcher, runtime_folder / builder.LAUNCHER)
    own = builder.Runtime(launcher=runtime_folder / builder.LAUNCHER, api_stub=parts.api_stub, objects=parts.objects)
    for attempt in range(2):            # decided once per process: the second attempt repeats the reason
        with pytest.raises(InfrastructureError) as caught:
            builder._self_test(hardened, cache, own)
        message = str(caught.value)
        assert "fails the toolchain's self-test" in message and "__stack_chk_fail" in message, (attempt, message)
        assert "\n" not in message
    assert not (runtime_folder / builder.SELF_TEST_MARK).exists()
    # the same check passes with the machine's compiler: it is the compiler that failed, not the operator
    builder._SELF_TEST_FAILED.pop(runtime_folder, None)
    builder._self_test(real, cache, own)
    assert (runtime_folder / builder.SELF_TEST_MARK).is_file()
    assert sorted(p.name for p in runtime_folder.iterdir()) == sorted([builder.LAUNCHER, builder.SELF_TEST_MARK])



def test_a_run_that_fails_on_this_machine_is_the_machines_fault(sim, monkeypatch) -> None:
    """A machine (or confinement) that leaves a run too little memory fails every kernel after it loaded:
    the self-test run makes that the machine's fault, once per process, and records nothing."""
    from npukernelbench.toolchains.ascendc_sim import toolchain as sim_toolchain

    found = find_compiler()
    assert not isinstance(found, str), found
    # a copy of this machine's launcher in a folder of its own, so that its record is this test's alone
    folder = sim.cache.scratch("self-test-launcher-")
    real = folder / builder.LAUNCHER
    shutil.copy2(builder.runtime(found, sim.cache).launcher, real)
    mark = real.parent / sim_toolchain.SELF_TEST_RUN_MARK
    monkeypatch.setattr(sim_toolchain, "RUN_MEMORY_BYTES", 64 << 20)
    monkeypatch.setattr(sim_toolchain, "_SELF_TEST_RUN_FAILED", {})
    for _ in range(2):
        with pytest.raises(InfrastructureError) as caught:
            sim._self_test_run(found, real)
        message = str(caught.value)
        assert "fails the toolchain's self-test run" in message and "failed to run" in message, message
    assert not mark.exists()
    monkeypatch.setattr(sim_toolchain, "RUN_MEMORY_BYTES", 8 << 30)
    monkeypatch.setattr(sim_toolchain, "_SELF_TEST_RUN_FAILED", {})
    sim._self_test_run(found, real)
    assert mark.is_file()
    shutil.rmtree(folder, ignore_errors=True)


def test_the_self_test_run_checks_what_the_operator_computed() -> None:
    sent = self_test.launch()
    x, y = sent.inputs[0].data, sent.inputs[1].data
    assert self_test.wrong_output({"z": x + y}, sent) is None
    wrong = (x + y).copy()
    wrong[7] += 1.0
    assert self_test.wrong_output({"z": wrong}, sent) == "1 of 4096 elements of z differ from x + y"
    assert "shape" in self_test.wrong_output({"z": (x + y)[:100]}, sent)
    assert "shape None" in self_test.wrong_output({}, sent)
