"""End to end: the add_custom expert solution builds and gives numpy's x + y on the case's static
shapes (bfloat16 through float32, rounded to nearest even as the kernel's CAST_RINT does)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npukernelbench.spec import load_spec
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

CASE = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"


def to_bf16(a: np.ndarray) -> np.ndarray:
    u = a.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_add_custom_solution_matches_numpy(sim, index):
    spec = load_spec(CASE)
    case = spec.cases[index]
    dt = case.types["T"]
    params = tuple(ParamSlot(d.name, role, "REQUIRED", dt)
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    build = sim.build(KernelProject(op=spec.op, kernel=spec.kernel, files=spec.solution, params=params))
    assert build.ok, build.diagnostics
    shape = tuple(case.shapes["x"])
    rng = np.random.default_rng(case.seed)
    x32, y32 = (rng.uniform(-10, 10, shape).astype(np.float32) for _ in range(2))
    if dt == "bfloat16":
        x, y = to_bf16(x32), to_bf16(y32)
        expected = from_bf16(to_bf16(from_bf16(x) + from_bf16(y)))
    else:
        x, y = x32.astype(dt), y32.astype(dt)
        expected = x + y
    result = sim.run(build, Launch(inputs=(TensorArg("x", dt, x), TensorArg("y", dt, y)),
                                   outputs=(TensorArg("z", dt, shape=shape),), attrs={}))
    assert result.ok, result.message
    z = result.outputs["z"]
    got = from_bf16(z) if dt == "bfloat16" else z
    assert z.shape == shape
    np.testing.assert_array_equal(got, expected)
    assert result.inputs_after == {}             # inputs left as they were are not handed back
    assert result.time_us is not None and result.time_us > 3.0
    assert 1 <= result.details["block_dim"] <= 48


def test_an_input_the_kernel_changed_is_handed_back_and_only_that_one(sim):
    spec = load_spec(CASE)
    case = next(c for c in spec.cases if c.types["T"] == "float32")
    store = "DataCopyPad(zGm[tile * tileLength], zLocal, params);"
    files = dict(spec.solution)
    kernel = next(name for name in files if name.startswith("op_kernel/") and store in files[name])
    files[kernel] = files[kernel].replace(store, store + " DataCopyPad(yGm[tile * tileLength], zLocal, params);")
    params = tuple(ParamSlot(d.name, role, "REQUIRED", "float32")
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    build = sim.build(KernelProject(op=spec.op, kernel=spec.kernel, files=files, params=params))
    assert build.ok, build.diagnostics
    shape = tuple(case.shapes["x"])
    rng = np.random.default_rng(1)
    x, y = (rng.uniform(-10, 10, shape).astype(np.float32) for _ in range(2))
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", x), TensorArg("y", "float32", y)),
                                   outputs=(TensorArg("z", "float32", shape=shape),), attrs={}))
    assert result.ok, result.message
    assert set(result.inputs_after) == {"y"}                   # x still holds exactly what was sent
    assert np.array_equal(result.inputs_after["y"], x + y) and np.array_equal(result.outputs["z"], x + y)
