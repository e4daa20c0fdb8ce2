"""The public NPUKernelBench layout end to end on ascendc-sim, on our own small tasks
(tests/data/npkb_tree): every task collects, the expert projects pass (host files with free names,
an operator-API source that must not be built, attributes, an extra output), and a wrong kernel
fails the task's tuple-returning custom_check_precision."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from npukernelbench.cases import discover
from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.result import Stage, Status

DATA = Path(__file__).resolve().parents[1] / "data" / "npkb_tree"
OPTIONS = EvalOptions(shapes="static", speed=False, seeds=2)
pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def specs():
    return {s.case_id: s for s in discover([DATA])}


def run(spec, sim, files=None):
    return evaluate(spec, Completion(spec.case_id, 0, files=dict(files or spec.solution)), sim, OPTIONS)


@pytest.mark.parametrize("task", ["level1/Math/AddCustom", "level2/Norm/ScaleShiftCustom",
                                  "level1/Activation/ReluCustom"])
def test_expert_project_passes(specs, sim, task):
    result = run(specs[task], sim)
    assert result.status is Status.PASSED, result.message
    assert result.stage is Stage.MATCHED and result.shapes_checked == 2
    assert not result.suspect, result.message              # the speed floors hold it, and it is above them


def test_wrong_kernel_fails_the_tuple_returning_custom_check(specs, sim):
    spec = specs["level1/Activation/ReluCustom"]
    files = dict(spec.solution)
    kernel = "op_kernel/relu_custom.cpp"
    assert "    Relu(v, v, n);\n" in files[kernel]
    files[kernel] = files[kernel].replace("    Relu(v, v, n);\n", "")                  # copies x through
    result = run(spec, sim, files)
    assert result.status is Status.WRONG, result.message
    assert "custom_check_precision failed" in result.message and result.stage is Stage.RAN_CLEANLY


def test_opdef_that_does_not_fit_the_binding_is_a_build_error(specs, sim):
    spec = specs["level2/Norm/ScaleShiftCustom"]
    files = dict(spec.solution)
    host = "op_host/scale_shift_custom.cpp"
    files[host] = files[host].replace('        this->Attr("shift").AttrType(OPTIONAL).Float(0.0);\n', "")
    result = run(spec, sim, files)
    assert result.status is Status.BUILD_ERROR and "takes inputs (x), attributes (scale)" in result.message
    assert result.stage is Stage.HOST_BUILT


def test_plugin_runs_the_public_tree(pytester, sim):
    shutil.copytree(DATA, pytester.path / "tasks")
    shutil.rmtree(pytester.path / "tasks" / "level1" / "Activation" / "ReluCustom" / "answer")   # a withheld answer
    env = {"NPUKB_CACHE_DIR": os.environ.get("NPUKB_CACHE_DIR", str(sim.cache.root))}
    for key, value in env.items():
        pytester._monkeypatch.setenv(key, value)
    res = pytester.runpytest_subprocess("tasks", "--model=reference",
                                        "--shapes=static", "--npukb-out=out", "-v")
    res.assert_outcomes(passed=2, skipped=1)


def test_speed_is_estimated_against_the_expert_answer(specs, sim):
    spec = specs["level1/Math/AddCustom"]
    files = dict(spec.solution)
    files["op_kernel/add_custom.cpp"] = "// same kernel, another build\n" + files["op_kernel/add_custom.cpp"]
    result = evaluate(spec, Completion(spec.case_id, 0, files=files), sim,
                      EvalOptions(shapes="static", seeds=1, determinism=False))
    assert result.status is Status.PASSED, result.message
    assert result.speed_kind == "estimated" and result.speedup == pytest.approx(1.0, rel=0.05)


def _task_whose_model_upcasts(tmp_path: Path):
    """AddCustom with a Model that returns float32 for its float16 row (as a scipy reference does),
    while the binding still allocates a float16 output."""
    root = tmp_path / "tree"
    shutil.copytree(DATA / "level1" / "Math" / "AddCustom", root / "level1" / "Math" / "AddCustom")
    module = root / "level1" / "Math" / "AddCustom" / "validation" / "module.py"
    module.write_text(module.read_text().replace("        return x + y\n", "        return (x + y).float()\n"))
    return {s.case_id: s for s in discover([root])}["level1/Math/AddCustom"]


def test_an_output_dtype_the_binding_chose_is_compared_element_by_element(tmp_path, sim):
    spec = _task_whose_model_upcasts(tmp_path)
    result = run(spec, sim)
    assert result.status is Status.PASSED, result.message
    files = dict(spec.solution)
    kernel = "op_kernel/add_custom.cpp"
    assert "Add(" in files[kernel]
    files[kernel] = files[kernel].replace("Add(", "Sub(", 1)                     # a wrong kernel still fails
    result = run(spec, sim, files)
    assert result.status is Status.WRONG and "outside rtol" in result.message, result.message


IN_PLACE_HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class DoubleInPlace : public OpDef {
 public:
  explicit DoubleInPlace(const char* name) : OpDef(name) {
    this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(DoubleInPlace);
}  // namespace ops
"""

IN_PLACE_KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void double_in_place(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
  ListTensorDesc list(reinterpret_cast<__gm__ void*>(x));
  for (uint32_t t = 0; t < list.GetSize(); ++t) {
    uint64_t dims[8];
    TensorDesc<float> desc;
    desc.SetShapeAddr(dims);
    list.GetDesc(desc, t);
    uint64_t n = 1;
    for (uint32_t d = 0; d < desc.GetDim(); ++d) n *= desc.GetShape(d);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(list.GetDataPtr<float>(t), n);
    for (uint64_t i = 0; i < n; ++i) g.SetValue(i, g.GetValue(i) * 2.0f);
  }
}
"""


def test_an_operator_without_outputs_updates_its_input_list_in_place(sim):
    # ForeachNonFiniteCheckAndUnscale's shape: EXEC_NPU_CMD passes only inputs, the kernel updates the
    # tensors of a list in place, and the binding returns those tensors
    import torch

    from npukernelbench.layouts.upstream import op_call
    from npukernelbench.toolchains.base import KernelProject

    files = {"op_host/double_in_place.cpp": IN_PLACE_HOST, "op_kernel/double_in_place.cpp": IN_PLACE_KERNEL}
    described = sim.describe(KernelProject(op="DoubleInPlace", kernel="double_in_place", files=files, params=()))
    assert described.ok, described.diagnostics
    runner = op_call.OpRunner(toolchain=sim, signature=op_call.pick_signature(described.signatures, "double_in_place"),
                              kernel="double_in_place", files=files)
    a, b = torch.arange(5, dtype=torch.float32), torch.full((2, 3), 3.0)
    runner.call("aclnnDoubleInPlace", [("tensor_list", [a, b])])
    assert torch.equal(a, torch.arange(5, dtype=torch.float32) * 2) and torch.equal(b, torch.full((2, 3), 6.0))


def test_a_floating_output_gets_no_finer_tolerance_than_the_tasks_floating_inputs(specs, sim):
    # DeepNormGrad: a float32 gradient summed from float16 inputs is held to float16's tolerance;
    # integer outputs stay exact
    import torch

    from npukernelbench.layouts.upstream.checker import UpstreamChecker, _floating_dtypes

    spec = specs["level1/Math/AddCustom"]
    checker = UpstreamChecker(spec, sim, spec.solution)
    f16, f32 = spec.tolerance_for("float16"), spec.tolerance_for("float32")
    assert f16.rtol > f32.rtol
    assert checker._looser_tolerance("float32") == f32
    assert checker._looser_tolerance("float32", "float32", "float16", "float32") == f16
    assert checker._looser_tolerance("int32", "int64") is None
    args = (torch.zeros(2, dtype=torch.float16), [torch.zeros(1), torch.zeros(1, dtype=torch.int32)],
            {"k": torch.zeros(1, dtype=torch.bfloat16)}, 3.0)
    assert _floating_dtypes(args) == ("float16", "float32", "bfloat16")


@pytest.mark.parametrize(("offset", "passes"), [("0.0005", True), ("0.01", False)])
def test_a_task_without_its_own_check_is_judged_by_upstreams_fixed_limits(specs, sim, offset, passes):
    # AddCustom defines no custom_check_precision: upstream then fails an element only when its absolute
    # and its relative error both exceed 1e-3. A kernel 5e-4 off everywhere passes (float32's own
    # tolerance, 1e-5 + 1.3e-6 |ref|, would fail it); one 1e-2 off fails.
    spec = specs["level1/Math/AddCustom"]
    files = dict(spec.solution)
    kernel = "op_kernel/add_custom.cpp"
    files[kernel] = files[kernel].replace("Add(zl, xl, yl, count);",
                                          f"Add(zl, xl, yl, count);\n            Adds(zl, zl, (T){offset}, count);")
    result = run(spec, sim, files)
    if passes:
        assert result.status is Status.PASSED, result.message
    else:
        assert result.status is Status.WRONG, result.message
        assert "limits (abs 0.001 or rel 0.001)" in result.message, result.message


FIXTURE_TESTS = '''
import pytest

WRONG = {"op_kernel/add_custom.cpp": "SOURCE"}


@pytest.mark.npukb_case("tasks/level1/Math/AddCustom")
def test_upstream_expert(npukb_checker, npukb_kernel):
    assert npukb_kernel.ok
    npukb_checker.assert_correct()


@pytest.mark.npukb_case("cases/add_custom")
def test_case_toml_expert(npukb_checker):
    npukb_checker.assert_correct(shapes="static")


@pytest.mark.npukb_case("tasks/level1/Math/AddCustom")
@pytest.mark.npukb_files(FILES)
def test_upstream_wrong(npukb_checker):
    npukb_checker.assert_correct(shapes="static")
'''


def test_the_checker_fixture_serves_both_layouts(pytester, sim):
    """``npukb_checker`` (and ``npukb_kernel``) check a hand-written project against a task of either
    layout; a wrong kernel fails the test that uses it."""
    shutil.copytree(DATA, pytester.path / "tasks")
    shutil.copytree(Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom",
                    pytester.path / "cases" / "add_custom")
    spec = {s.case_id: s for s in discover([DATA])}["level1/Math/AddCustom"]
    files = dict(spec.solution)
    files["op_kernel/add_custom.cpp"] = files["op_kernel/add_custom.cpp"].replace("Add(", "Sub(", 1)
    pytester.makepyfile(test_fixtures=FIXTURE_TESTS.replace("FILES", repr(files)))
    pytester._monkeypatch.setenv("NPUKB_CACHE_DIR", os.environ.get("NPUKB_CACHE_DIR", str(sim.cache.root)))
    res = pytester.runpytest_subprocess("test_fixtures.py", "--npukb-shape-examples=2", "-p", "no:cacheprovider",
                                        "-v")
    res.assert_outcomes(passed=2, failed=1)
    res.stdout.fnmatch_lines(["*test_upstream_wrong*FAILED*", "*wrong*outside rtol*data seed*"])


@pytest.mark.parametrize("task", ["level1/Math/AddCustom", "level2/Norm/ScaleShiftCustom"])
def test_expert_project_passes_on_drawn_rows(specs, sim, task):
    """The expert projects handle any length (sizes 1, tails, attributes drawn from the rows). Until
    drawn rows were checked, ScaleShiftCustom's used DataCopy, right only for 32-byte multiples."""
    result = evaluate(specs[task], Completion(task, 0, files=dict(specs[task].solution)), sim,
                      EvalOptions(shapes="dynamic", seeds=1, speed=False, shape_examples=4))
    assert result.status is Status.PASSED, result.message
    assert result.shapes_checked >= 1                 # drawn rows the task accepts were checked
