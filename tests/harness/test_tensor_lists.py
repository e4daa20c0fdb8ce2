"""Tensor lists end to end: spec defaults and errors, dynamic list shapes, per-tensor inputs, list
comparison, and real runs of list kernels through the ascendc-sim toolchain (in-place lists,
scalar lists, a kernel that mishandles one tensor)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from npukernelbench.compare import compare_outputs, same_bits
from npukernelbench.evaluate import EvalOptions
from npukernelbench.inputs import make_inputs
from npukernelbench.layouts.case_toml.checker import CaseTomlChecker, project_for
from npukernelbench.result import Status
from npukernelbench.shapes import ShapeCase, case_strategy, static_cases
from npukernelbench.spec import SpecError, load_spec

ROOT = Path(__file__).resolve().parents[2]
FOREACH = ROOT / "benchmark_cases" / "level2" / "foreach"

SPEC = """
op = "ListOp"
kernel = "list_op"
level = 2
category = "Foreach"

[types]
T = ["float16", "float32"]

[[inputs]]
name = "x1"
dtype = "T"
kind = "list"

[[inputs]]
name = "x2"
dtype = "T"
kind = "list"

[[inputs]]
name = "scalars"
dtype = "float32"
kind = "scalar_list"

[[inputs]]
name = "alpha"
dtype = "float32"
kind = "scalar"

[[outputs]]
name = "y"
dtype = "T"
kind = "list"

{cases}

[dynamic]
ranks = [1, 3]
dim = [1, 64]
max_elements = 3000
list_len = [1, 9]
"""


def write_case(tmp_path: Path, cases: str) -> Path:
    folder = tmp_path / "list_op"
    folder.mkdir(parents=True)
    (folder / "api_desc.md").write_text("# ListOp\n")
    (folder / "reference.py").write_text("def reference(x1, x2, scalars, alpha):\n"
                                         "    return [a + s * b for a, b, s in zip(x1, x2, scalars.tolist())]\n")
    (folder / "case.toml").write_text(SPEC.format(cases=cases))
    return folder


def test_static_case_defaults_pair_lists_and_size_scalars(tmp_path):
    spec = load_spec(write_case(tmp_path, '[[cases]]\nshapes = { x1 = [[3, 5], [1], [7]] }\ntypes = { T = "float16" }'))
    shapes = spec.cases[0].shapes
    assert shapes["x2"] == [[3, 5], [1], [7]]
    assert shapes["scalars"] == [3]
    assert shapes["alpha"] == [1]
    project = project_for(spec, {}, {"x1": "float16", "x2": "float16", "scalars": "float32", "alpha": "float32",
                                     "y": "float16"})
    assert [p.param_type for p in project.params] == ["DYNAMIC", "DYNAMIC", "REQUIRED", "REQUIRED", "DYNAMIC"]


@pytest.mark.parametrize("shapes, field, problem", [
    ("{ x1 = [[3], [4]], x2 = [[3]] }", "shapes.x2", "same length"),
    ("{ x1 = [[3], [4]], scalars = [3] }", "shapes.scalars", "shape [2] expected"),
    ("{ x1 = [[3]], alpha = [2] }", "shapes.alpha", "shape [1]"),
    ("{ x1 = [3, 4] }", "shapes.x1", "list of shapes"),
])
def test_static_case_errors_name_the_field(tmp_path, shapes, field, problem):
    folder = write_case(tmp_path, f'[[cases]]\nshapes = {shapes}\ntypes = {{ T = "float16" }}')
    with pytest.raises(SpecError) as info:
        load_spec(folder)
    assert info.value.field == f"cases[0].{field}"
    assert problem in info.value.problem


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=__import__("hypothesis").strategies.data())
def test_dynamic_lists_are_paired_independent_and_bounded(data, tmp_path_factory):
    spec = load_spec(write_case(tmp_path_factory.mktemp("dyn"),
                                '[[cases]]\nshapes = { x1 = [[3]] }\ntypes = { T = "float16" }'))
    case: ShapeCase = data.draw(case_strategy(spec))
    x1 = case.shapes["x1"]
    assert 1 <= len(x1) <= 9
    assert case.shapes["x2"] == x1
    assert case.shapes["scalars"] == [len(x1)]
    assert case.shapes["alpha"] == [1]
    total = sum(int(np.prod(s)) for s in x1)
    assert total <= 3000 + 32 * len(x1)          # budget per tensor, plus tiny tensors
    assert all(1 <= len(s) <= 3 for s in x1)


def test_dynamic_lists_reach_both_ends_of_the_length_range_and_tiny_tensors(tmp_path):
    from hypothesis import find

    spec = load_spec(write_case(tmp_path, '[[cases]]\nshapes = { x1 = [[3]] }\ntypes = { T = "float16" }'))
    strategy = case_strategy(spec)
    settings_ = settings(max_examples=400, database=None, derandomize=True)
    assert len(find(strategy, lambda c: len(c.shapes["x1"]) == 9, settings=settings_).shapes["x1"]) == 9
    assert len(find(strategy, lambda c: len(c.shapes["x1"]) == 1, settings=settings_).shapes["x1"]) == 1
    mixed = find(strategy, lambda c: len({tuple(s) for s in c.shapes["x1"]}) >= 3
                 and any(int(np.prod(s)) < 16 for s in c.shapes["x1"]), settings=settings_)
    assert any(int(np.prod(s)) < 16 for s in mixed.shapes["x1"])


def test_list_inputs_are_drawn_per_tensor_and_reproducible(tmp_path):
    spec = load_spec(write_case(tmp_path, '[[cases]]\nshapes = { x1 = [[3]] }\ntypes = { T = "float16" }'))
    types = {"T": "float32"}
    a = make_inputs(spec.inputs, {"x1": [[4], [5]], "x2": [[4], [5]], "scalars": [2], "alpha": [1]}, types, 7)
    b = make_inputs(spec.inputs, {"x1": [[4], [5]], "x2": [[4], [5]], "scalars": [2], "alpha": [1]}, types, 7)
    c = make_inputs(spec.inputs, {"x1": [[4], [9]], "x2": [[4], [9]], "scalars": [2], "alpha": [1]}, types, 7)
    assert isinstance(a["x1"], list) and [t.shape for t in a["x1"]] == [(4,), (5,)]
    assert a["scalars"].shape == (2,) and a["alpha"].shape == (1,)
    assert same_bits(a["x1"], b["x1"])
    assert same_bits(a["x1"][0], c["x1"][0])           # tensor 0 does not depend on tensor 1's shape
    assert not same_bits(a["x1"][0], a["x2"][0])       # paired lists get their own values


def test_list_outputs_compare_tensor_by_tensor(tmp_path):
    spec = load_spec(write_case(tmp_path, '[[cases]]\nshapes = { x1 = [[3]] }\ntypes = { T = "float16" }'))
    dtypes = {"y": "float32"}
    expected = {"y": [np.ones(3, np.float32), np.full((2, 2), 2.0, np.float32)]}
    good = {"y": [np.ones(3, np.float32), np.full((2, 2), 2.0, np.float32)]}
    assert compare_outputs(spec, good, expected, dtypes).ok
    bad = {"y": [np.ones(3, np.float32), np.array([[2.0, 2.0], [2.0, 5.0]], np.float32)]}
    verdict = compare_outputs(spec, bad, expected, dtypes)
    assert not verdict.ok and verdict.output == "y[1]" and verdict.index == (1, 1)
    assert "output 'y[1]'" in verdict.message and "got 5" in verdict.message
    short = compare_outputs(spec, {"y": good["y"][:1]}, expected, dtypes)
    assert not short.ok and "tensor list of 1 but 2 expected" in short.message


# ---- real runs through the simulator ---------------------------------------------------------------

@pytest.fixture(scope="module")
def sim():
    from npukernelbench.toolchains import get_toolchain

    toolchain = get_toolchain("ascendc-sim")
    reason = toolchain.unavailable_reason()
    if reason:
        pytest.fail(f"ascendc-sim cannot run here: {reason}", pytrace=False)
    return toolchain


def small(spec, shapes: list[list[int]], dtype: str) -> ShapeCase:
    first = spec.inputs[0].name
    base = static_cases(spec)[0]
    full = {first: shapes}
    for d in spec.inputs[1:]:
        full[d.name] = shapes if d.kind == "list" else [1] if d.kind == "scalar" else [len(shapes)]
    return ShapeCase(shapes=full, types={"T": dtype}, attrs=dict(base.attrs), label="test")


OPTS = EvalOptions(shapes="static", seeds=3, speed=False)


def test_scalar_list_kernel_passes_on_ragged_lists(sim):
    spec = load_spec(FOREACH / "foreach_addcmul_scalar_list", ROOT / "benchmark_cases")
    checker = CaseTomlChecker(spec, sim, spec.solution, OPTS)
    outcome = checker.check(small(spec, [[3, 7], [1], [40], [2, 2, 9]], "float16"))
    assert outcome.status is Status.PASSED, outcome.message


def test_kernel_that_reads_the_wrong_scalar_fails_on_that_tensor(sim):
    spec = load_spec(FOREACH / "foreach_mul_scalar_list", ROOT / "benchmark_cases")
    files = dict(spec.solution)
    base = "op_kernel/foreach_kernel.h"
    assert "s = ReadScalar(scalars, t);" in files[base]
    files[base] = files[base].replace("s = ReadScalar(scalars, t);", "s = ReadScalar(scalars, 0);")
    outcome = CaseTomlChecker(spec, sim, files, OPTS).check(small(spec, [[33], [17]], "float32"))
    assert outcome.status is Status.WRONG
    assert "output 'y[1]'" in outcome.message


def test_in_place_list_output_is_read_from_the_input_buffers(sim):
    spec = load_spec(FOREACH / "foreach_zero_inplace", ROOT / "benchmark_cases")
    checker = CaseTomlChecker(spec, sim, spec.solution, OPTS)
    assert checker.check(small(spec, [[5, 3], [64], [1]], "bfloat16")).status is Status.PASSED
    # A kernel that leaves the last tensor alone fails on exactly that tensor.
    files = dict(spec.solution)
    kernel = "op_kernel/foreach_zero_inplace.cpp"
    files[kernel] = files[kernel].replace("Duplicate(out, 0.0f, n);", "Duplicate(out, n > 1 ? 0.0f : 1.0f, n);")
    outcome = CaseTomlChecker(spec, sim, files, OPTS).check(small(spec, [[5, 3], [64], [1]], "float32"))
    assert outcome.status is Status.WRONG and "output 'y[2]'" in outcome.message


def test_kernel_that_writes_an_input_list_is_caught(sim):
    spec = load_spec(FOREACH / "foreach_abs", ROOT / "benchmark_cases")
    files = dict(spec.solution)
    kernel = "op_kernel/foreach_abs.cpp"
    # Write |x| into x as well (an extra output-style pass over the input list).
    entry = "foreach::RunLists<DTYPE_X, AbsOp>({x}, y, tiling);"
    assert entry in files[kernel]
    files[kernel] = files[kernel].replace(entry, entry + "\n    foreach::RunLists<DTYPE_X, AbsOp>({x}, x, tiling);")
    outcome = CaseTomlChecker(spec, sim, files, OPTS).check(small(spec, [[40], [3, 3]], "float32"))
    assert outcome.status is Status.WRONG and "input 'x' was modified" in outcome.message


def test_dynamic_search_over_lists_passes_the_expert_solution(sim):
    spec = load_spec(FOREACH / "foreach_add_list", ROOT / "benchmark_cases")
    checker = CaseTomlChecker(spec, sim, spec.solution, EvalOptions(shapes="dynamic", seeds=1, speed=False,
                                                                  determinism=False))
    outcome = checker.check_dynamic(examples=4, seed=3)
    assert outcome.status is Status.PASSED, outcome.message
    assert checker.shapes_checked >= 4

