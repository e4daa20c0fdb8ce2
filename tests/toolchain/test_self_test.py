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
