"""A build's host step is published like describe()'s (docs/simulator.md, "Build"): the next build with the
same op_host sources (another dtype, another kernel: the RL and kernel-only shapes) reuses its host objects
and registration output instead of compiling and describing again; other host sources do not."""

from __future__ import annotations

import dataclasses
import uuid

import numpy as np

from npukernelbench.toolchains.ascendc_sim import self_test
from npukernelbench.toolchains.base import Launch, TensorArg


def _variant(host_note: str, kernel_note: str):
    base = self_test.project()
    files = dict(base.files)
    files[f"op_host/{base.kernel}.cpp"] += f"\n// {host_note}\n"
    files[f"op_kernel/{base.kernel}.cpp"] += f"\n// {kernel_note}\n"
    return dataclasses.replace(base, files=files)


def _adds(sim, result) -> None:
    x = np.arange(2048, dtype=np.float32)
    run = sim.run(result, Launch(inputs=(TensorArg("x", "float32", x), TensorArg("y", "float32", x)),
                                 outputs=(TensorArg("z", "float32", shape=(2048,)),), attrs={}))
    assert run.ok, run.message
    np.testing.assert_array_equal(run.outputs["z"], x + x)


def test_the_second_kernel_of_the_same_host_sources_reuses_the_host_step(sim) -> None:
    host = uuid.uuid4().hex
    first = sim.build(_variant(host, "first kernel"))
    assert first.ok and not first.cached, first.diagnostics
    assert "host" in first.steps and "describe" in first.steps, first.steps
    second = sim.build(_variant(host, "second kernel"))
    assert second.ok and not second.cached, second.diagnostics
    assert "kernel" in second.steps
    assert "host" not in second.steps and "describe" not in second.steps, second.steps
    _adds(sim, second)
    # describe() finds what the build published
    assert sim.describe(_variant(host, "any kernel")).cached
    # other host sources are compiled and described again
    third = sim.build(_variant(uuid.uuid4().hex, "second kernel"))
    assert third.ok and "host" in third.steps and "describe" in third.steps, third.steps


def test_a_host_step_that_fails_is_not_published_for_reuse(sim) -> None:
    base = self_test.project()
    files = dict(base.files)
    files[f"op_host/{base.kernel}.cpp"] += f"\n// {uuid.uuid4().hex}\nstatic_assert(false, \"broken host\");\n"
    broken = dataclasses.replace(base, files=files)
    for _ in range(2):
        result = sim.build(broken)
        assert not result.ok and "broken host" in result.diagnostics
    files[f"op_kernel/{base.kernel}.cpp"] += "\n// another kernel\n"
    again = sim.build(dataclasses.replace(base, files=files))
    assert not again.ok and "broken host" in again.diagnostics and "host" in again.steps, again.steps
