"""Issue 17's table of ways to game the estimated speedup on add_custom, each re-created and fed
through the real evaluate pipeline: every gaming variant ends rejected, failed or suspect with a
reason, none gets a speedup above 1.0x, and double buffering is estimated faster than a depth-1 queue."""

from __future__ import annotations

import numpy as np
import pytest
from add_custom_variants import VARIANTS, estimate

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.layouts.case_toml.checker import project_for
from npukernelbench.result import Stage, Status
from npukernelbench.toolchains.base import Launch, TensorArg

SPEED = EvalOptions(shapes="static", seeds=1, run_timeout_s=120.0)


def run(spec, toolchain, name: str, options: EvalOptions = SPEED):
    files = VARIANTS[name].make(spec.solution)
    result = evaluate(spec, Completion(task=spec.case_id, sample=0, files=files), toolchain, options)
    if VARIANTS[name].gaming:   # the acceptance of issue 17: no way to game beats the expert
        assert result.speedup is None or result.speedup < 1.0, (name, result.speedup, result.message)
    return result


def test_raw_gm_pointer_loop_costs_scalar_gm_accesses(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "gm_raw_pointers")
    assert result.status is Status.PASSED, result.message
    assert not result.suspect, result.message
    assert result.speedup is not None and result.speedup < 0.01, result.speedup


def test_raw_ub_pointer_loop_costs_like_get_value(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "ub_raw_pointers")
    assert result.status is Status.PASSED, result.message
    assert result.speedup is not None and result.speedup < 0.05, result.speedup
    _, raw = estimate(add_spec, toolchain, VARIANTS["ub_raw_pointers"].make(add_spec.solution))
    _, get_value = estimate(add_spec, toolchain, VARIANTS["ub_get_value"].make(add_spec.solution))
    assert raw == pytest.approx(get_value, rel=0.05), (raw, get_value)


def test_host_reading_input_data_fails_with_the_reason(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "host_computes")
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "TilingFunc" in result.message and "ValueDepend" in result.message, result.message


def test_host_computing_value_depend_inputs_is_suspect(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "host_computes_value_depend")
    assert result.status is Status.PASSED, result.message
    assert result.suspect and result.speedup is None, (result.suspect, result.speedup)
    assert "counted GM reads" in result.message and "do not cover its inputs" in result.message, result.message


@pytest.mark.parametrize("name,rule", [("tls_zeroing", "thread-storage"), ("state_zeroing", "simulator-internals")])
def test_zeroing_the_cost_state_is_rejected(add_spec, toolchain, name: str, rule: str) -> None:
    result = run(add_spec, toolchain, name)      # rejected by the static checks, before anything is built
    assert result.status is Status.REJECTED and result.details["rule"] == rule, result.message
    assert result.stage is Stage.COLLECTED, result.stage                  # never reached the build


def test_zeroing_the_cost_state_past_the_checks_is_a_violation(add_spec, toolchain) -> None:
    # as if the static checks had missed it: the kernel's own stores into its block's clocks trap
    files = VARIANTS["state_zeroing"].make(add_spec.solution)
    build = toolchain.build(project_for(add_spec, files, {"x": "float16", "y": "float16", "z": "float16"}))
    assert build.ok, build.diagnostics
    x = np.ones(2048, np.float16)
    run_ = toolchain.run(build, Launch(inputs=(TensorArg("x", "float16", x), TensorArg("y", "float16", x)),
                                       outputs=(TensorArg("z", "float16", shape=(2048,)),), attrs={}))
    assert not run_.ok
    assert "simulator's own state" in run_.message and "cost-model clocks" in run_.message, run_.message


def test_single_buffered_queues_are_estimated_slower(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "depth_1")
    assert result.status is Status.PASSED, result.message
    assert result.details["launch_overhead_us"] > 0
    _, expert = estimate(add_spec, toolchain, VARIANTS["expert"].make(add_spec.solution))
    assert result.details["kernel_time_us"] > expert, (result.details, expert)
    assert result.speedup is None or result.speedup <= 1.0, result.speedup


def test_an_honest_memory_bound_kernel_on_the_roofline_is_not_suspect(add_spec, toolchain) -> None:
    # 512-byte-aligned core splits: the big shape's estimate sits exactly on the HBM roofline
    result = run(add_spec, toolchain, "split_512")
    assert result.status is Status.PASSED, result.message
    assert not result.suspect, result.message
    assert result.speedup is not None and result.speedup >= 1.0, result.speedup
