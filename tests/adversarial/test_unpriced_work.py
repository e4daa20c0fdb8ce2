"""Issue 25's unpriced work (class 7) and the device side of its hidden code (class 4), re-created on
add_custom and fed through the real evaluate pipeline. Device code has no C library and no threads: a
kernel that copies its inputs with a C library call, or starts a thread, does not build. Everything a
kernel does costs something: scalar loops over local arrays and the compiler's own block copies of big
structs are priced, so none of these variants beats the expert."""

from __future__ import annotations

import numpy as np
import pytest
from add_custom_variants import VARIANTS, estimate

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.layouts.case_toml.checker import project_for
from npukernelbench.result import Status
from npukernelbench.toolchains.base import Launch, TensorArg

SPEED = EvalOptions(shapes="static", seeds=1, run_timeout_s=300.0)


def run(spec, toolchain, name: str):
    files = VARIANTS[name].make(spec.solution)
    result = evaluate(spec, Completion(task=spec.case_id, sample=0, files=files), toolchain, SPEED)
    assert VARIANTS[name].gaming
    assert result.speedup is None or result.speedup < 1.0, (name, result.speedup, result.message)
    return result


def cost_of_one_run(spec, toolchain, name: str, n: int = 4096) -> dict:
    """details["cost"] of one float16 launch of variant ``name`` on n elements (outputs checked)."""
    build = toolchain.build(project_for(spec, VARIANTS[name].make(spec.solution),
                                        {"x": "float16", "y": "float16", "z": "float16"}))
    assert build.ok, build.diagnostics
    x = (np.arange(n) % 7).astype(np.float16)
    y = (np.arange(n) % 5).astype(np.float16)
    result = toolchain.run(build, Launch(inputs=(TensorArg("x", "float16", x), TensorArg("y", "float16", y)),
                                         outputs=(TensorArg("z", "float16", shape=(n,)),), attrs={}))
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["z"], x + y)
    return result.details["cost"]


@pytest.mark.parametrize("name,call", [("libc_copy_in", "memcpy"), ("libc_wide_copy_in", "wmemcpy")])
def test_input_copies_through_the_c_library_do_not_build(add_spec, toolchain, name: str, call: str) -> None:
    result = run(add_spec, toolchain, name)
    assert result.status is Status.BUILD_ERROR, (result.status, result.message)
    assert f"error: device code calls '{call}': there is no C library on the AI core" in result.message, result.message
    assert "op_kernel/add_custom.cpp:" in result.message, result.message


@pytest.mark.parametrize("name,call", [("thread_gthread", "pthread_create"),
                                       ("thread_glibc_entry", "__pthread_create_2_1")])
def test_a_kernel_starting_a_thread_does_not_build(add_spec, toolchain, name: str, call: str) -> None:
    result = run(add_spec, toolchain, name)
    assert result.status is Status.BUILD_ERROR, (result.status, result.message)
    assert "op_kernel/add_custom.cpp:" in result.message and f"device code calls '{call}'" in result.message, \
        result.message


def test_scalar_loops_over_local_arrays_are_priced(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "local_array_loop")
    assert result.status is Status.PASSED, result.message
    assert not result.suspect and result.speedup is not None, result.message
    # the same UB accesses as the raw UB pointer loop, plus the local arrays and two more loops: dearer
    _, local = estimate(add_spec, toolchain, VARIANTS["local_array_loop"].make(add_spec.solution))
    _, raw = estimate(add_spec, toolchain, VARIANTS["ub_raw_pointers"].make(add_spec.solution))
    assert local > 1.2 * raw, (local, raw)
    cost = cost_of_one_run(add_spec, toolchain, "local_array_loop")
    assert cost["scalar_blocks"] >= 3 * 4096 and cost["raw_local_accesses"] >= 5 * 4096, cost


def test_compiler_copies_of_big_structs_are_priced(add_spec, toolchain) -> None:
    result = run(add_spec, toolchain, "struct_copy_in")
    assert result.status is Status.PASSED, result.message
    n = 65536                               # 48 cores, about 2.7 KiB of each input per core: 512-byte blocks
    cost = cost_of_one_run(add_spec, toolchain, "struct_copy_in", n)
    words = 2 * (2 * n - 48 * 512) // 8     # both inputs, 2 bytes an element, less at most a block per core
    assert cost["raw_gm_accesses"] >= words, cost           # read from GM by the scalar unit
    # stored into the local structs a word at a time, read back a byte at a time
    assert cost["raw_local_accesses"] >= words + 8 * words, cost
