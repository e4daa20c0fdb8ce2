"""The parts of the public-layout path that need no compiler: typed CSV rows, the upstream precision
helper and verdicts, the CPU shims, and the binding of EXEC_NPU_CMD arguments onto an OpDef."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import torch
from harness_paths import DATA

from npukernelbench import npu_shims as shims
from npukernelbench.layouts.upstream import op_call
from npukernelbench.layouts.upstream.precision import VerdictError, check_precision, verdict_of
from npukernelbench.layouts.upstream.rows import read_rows
from npukernelbench.layouts.upstream.task import UpstreamTask
from npukernelbench.toolchains.base import OpAttr, OpParam, OpSignature

# -- rows ----------------------------------------------------------------------------------------------

def test_rows_are_typed_as_upstream_reads_them(tmp_path):
    csv = tmp_path / "test_cases.csv"
    csv.write_text("case_id;shape;flag;alpha;n;dtype;opt\n"
                   "0;[4, 3];True;0.5;2.0;float16;None\n"
                   "1;[8];false;1;3.0;bfloat16;x\n")
    rows = read_rows(csv)
    first = rows[0]
    assert first["case_id"] == 0 and first["shape"] == "[4, 3]" and first["dtype"] == "float16"
    assert first["flag"] == 1 and rows[1]["flag"] == 0           # a bool column is numeric: 0/1 integers
    assert first["alpha"] == 0.5 and rows[1]["alpha"] == 1.0
    assert first["n"] == 2 and isinstance(first["n"], int)        # integral floats become integers
    assert np.isnan(first["opt"]) and rows[1]["opt"] == "x"       # pandas' missing-value markers
    assert first.get("absent", "d") == "d"


def test_all_numeric_rows_share_one_dtype(tmp_path):
    csv = tmp_path / "test_cases.csv"
    csv.write_text("case_id;n;eps\n0;16;1e-5\n")
    row = read_rows(csv)[0]
    assert isinstance(row["n"], np.float64) and row["n"] == 16.0   # ints and floats: a float64 row
    csv.write_text("case_id;n\n0;16\n")
    assert isinstance(read_rows(csv)[0]["n"], np.int64)


# -- precision -----------------------------------------------------------------------------------------

def test_check_precision_fails_only_where_both_errors_exceed():
    ref = torch.tensor([1.0, 100.0, 0.0])
    ok, abs_diff, rel_diff = check_precision(ref, ref + torch.tensor([0.005, 0.5, 0.0]), 0.01, 0.01)
    assert ok == 1 and abs_diff.shape == (3,) and rel_diff.shape == (3,)
    ok, _, _ = check_precision([ref], [ref + torch.tensor([0.0, 2.0, 0.0])], 0.01, 0.01)
    assert ok == 0


def test_check_precision_sees_every_chunk_of_a_large_output():
    from npukernelbench.layouts.upstream import precision

    n = 2 * precision._CHUNK + 3
    ref = torch.linspace(1.0, 2.0, n).half().reshape(-1, 1)
    new = ref.float()
    ok, abs_diff, rel_diff = check_precision(ref, new, 0.01, 0.01)
    assert ok == 1 and abs_diff.shape == (n,) and rel_diff.dtype == torch.float32
    new.view(-1)[precision._CHUNK + 5] += 0.5                 # only in the second chunk
    ok, abs_diff, _ = check_precision(ref, new, 0.01, 0.01)
    assert ok == 0 and float(abs_diff[precision._CHUNK + 5]) == pytest.approx(0.5, abs=1e-3)


def test_check_precision_differences_are_computed_only_when_the_task_uses_them():
    ref = torch.tensor([[1.0, 100.0], [0.0, -2.0]])
    new = ref + torch.tensor([[0.005, 0.5], [0.0, 1.0]])
    ok, abs_diff, rel_diff = check_precision([ref, ref], [new, ref], 0.01, 0.01)
    assert ok == 0 and verdict_of((ok, abs_diff, rel_diff)) is False
    assert not abs_diff.materialised and not rel_diff.materialised     # the verdict needed neither
    eager_abs = torch.cat([(ref - new).abs().reshape(-1), torch.zeros(4)])
    eager_rel = eager_abs / (torch.cat([ref.abs().reshape(-1)] * 2) + 1e-7)
    # what task code does with them: methods, operators, torch and numpy functions, indexing, printing
    assert torch.equal(torch.cat([abs_diff]), eager_abs) and torch.equal(rel_diff * 1, eager_rel)
    assert abs_diff.materialised and rel_diff.materialised
    assert float(abs_diff.max()) == float(eager_abs.max()) and int((abs_diff > 0.01).sum()) == 2
    assert abs_diff.shape == (8,) and len(rel_diff) == 8 and float(abs_diff[3]) == pytest.approx(1.0)
    assert np.array_equal(np.asarray(abs_diff), eager_abs.numpy()) and f"{abs_diff.max():.1f}" == "1.0"
    assert torch.equal(-abs_diff, -eager_abs) and repr(abs_diff) == repr(eager_abs)


@pytest.mark.parametrize("value, verdict", [
    ((1, torch.zeros(1), torch.zeros(1)), True), ((0, torch.zeros(1), torch.zeros(1)), False),
    ((False, 0.1, 0.2), False), (True, True), (0, False), (torch.tensor([True, False]), False),
    (torch.tensor(1), True), ([np.bool_(True)], True),
])
def test_verdict_is_the_first_element(value, verdict):
    assert verdict_of(value) is verdict


def test_a_non_verdict_is_an_error():
    with pytest.raises(VerdictError):
        verdict_of("passed")


# -- shims ---------------------------------------------------------------------------------------------

def test_shims_exist_only_while_importing():
    with shims.import_shims():
        import torch_npu
        from framework.utils import check_precision as imported
        from torch_npu.contrib import transfer_to_npu  # noqa: F401

        assert imported is check_precision and torch_npu.npu.is_available() is False
        with pytest.raises(shims.ShimError, match="CPU shim"):
            torch_npu.npu_rms_norm  # noqa: B018
    assert "torch_npu" not in sys.modules and "framework.utils" not in sys.modules


def test_npu_device_maps_to_cpu_and_is_restored():
    to = torch.Tensor.to
    with shims.npu_on_cpu():
        t = torch.ones(2, device="npu").npu().to("npu:0")
        torch.npu.synchronize()
        assert t.device.type == "cpu"
    assert torch.Tensor.to is to and not hasattr(torch.Tensor, "npu") and not hasattr(torch, "npu")
    with pytest.raises(RuntimeError):
        torch.ones(2, device="npu")


def test_task_reference_imports_under_the_shims():
    task = UpstreamTask(DATA / "npkb_tree" / "level1" / "Activation" / "ReluCustom", "ReluCustom", "relu_custom")
    inputs = task.make_inputs(task.rows[1], seed=3)
    again = task.make_inputs(task.rows[1], seed=3)
    assert inputs.args[0].shape == (8, 64) and torch.equal(inputs.args[0], again.args[0])
    assert torch.equal(task.reference(task.rows[1], inputs), torch.relu(inputs.args[0]))
    assert task.custom_check is not None


# -- binding EXEC_NPU_CMD onto an OpDef ----------------------------------------------------------------

SIG = OpSignature(
    op="ScaleAdd",
    inputs=(OpParam("x", "input", "REQUIRED", ("float32", "float16")),
            OpParam("bias", "input", "OPTIONAL", ("float32", "float16")),
            OpParam("alpha", "input", "REQUIRED", ("float32", "float32"))),
    outputs=(OpParam("y", "output", "REQUIRED", ("float32", "float16")),),
    attrs=(OpAttr("mode", "str", False, True, "fast"), OpAttr("axes", "list_int", False)),
)


def t(*shape, dtype=torch.float16):
    return torch.zeros(shape, dtype=dtype)


def test_bind_orders_inputs_attrs_outputs_and_picks_the_column():
    x, y = t(4), t(4)
    bound = op_call.bind(SIG, "aclnnScaleAdd", [("tensor", x), ("tensor", None), ("scalar", 2.5, "float64"),
                                                ("str", "slow"), ("int_array", [0, 1]), ("tensor", y)])
    assert bound.inputs["bias"] is None and bound.outputs["y"] is y and not bound.aliases
    assert bound.scalars["alpha"].tolist() == [2.5]
    assert bound.attrs == {"mode": ("str", "slow"), "axes": ("list_int", [0, 1])}
    assert bound.dtypes == {"x": "float16", "bias": "float16", "alpha": "float32", "y": "float16"}


def test_an_output_that_is_an_input_is_in_place():
    x = t(4)
    bound = op_call.bind(SIG, "aclnnScaleAdd", [("tensor", x), ("tensor", None), ("scalar", 1.0, "float64"),
                                                ("none", None), ("none", None), ("tensor", x)])
    assert bound.aliases == {"y": "x"} and "mode" not in bound.attrs


INPLACE = OpSignature(
    op="InplaceAdd",
    inputs=(OpParam("x1", "input", "REQUIRED", ("float16",)), OpParam("x2", "input", "REQUIRED", ("float16",))),
    outputs=(OpParam("x1", "output", "REQUIRED", ("float16",)), OpParam("rstd", "output", "REQUIRED", ("float32",))),
    attrs=(OpAttr("eps", "float", False),),
)


def test_an_output_named_like_an_input_is_a_ref_parameter_passed_once():
    x1, x2, rstd = t(4), t(4), t(1, dtype=torch.float32)
    bound = op_call.bind(INPLACE, "aclnnInplaceAdd", [("tensor", x1), ("tensor", x2), ("float", 1e-6),
                                                      ("tensor", rstd)])
    assert bound.outputs["x1"] is x1 and bound.outputs["rstd"] is rstd and bound.aliases == {"x1": "x1"}
    assert bound.dtypes == {"x1": "float16", "x2": "float16", "rstd": "float32"}
    # passed again explicitly, it is the same in-place tensor
    again = op_call.bind(INPLACE, "aclnnInplaceAdd", [("tensor", x1), ("tensor", x2), ("float", 1e-6),
                                                      ("tensor", x1), ("tensor", rstd)])
    assert again.aliases == {"x1": "x1"}
    with pytest.raises(op_call.SignatureMismatch, match="takes 4 or 5"):
        op_call.bind(INPLACE, "aclnnInplaceAdd", [("tensor", x1), ("tensor", x2), ("float", 1e-6)])


def test_a_task_calling_another_operator_is_the_tasks_fault_unless_the_candidate_renamed_its_own():
    runner = op_call.OpRunner(toolchain=None, signature=SIG, kernel="scale_add", files={})  # type: ignore[arg-type]
    with pytest.raises(op_call.TaskCallsOtherOp, match="calls aclnnScale, not its own operator ScaleAdd"):
        runner.call("aclnnScale", [])
    renamed = op_call.OpRunner(toolchain=None, signature=SIG, kernel="scale", files={})  # type: ignore[arg-type]
    with pytest.raises(op_call.SignatureMismatch, match="candidate's operator is ScaleAdd"):
        renamed.call("aclnnScale", [])


@pytest.mark.parametrize("args, problem", [
    ([("tensor", t(4)), ("tensor", t(4))], "passes 2 argument"),
    ([("tensor", None), ("tensor", None), ("scalar", 1.0, "float64"), ("none", None), ("none", None),
      ("tensor", t(4))], "no tensor for input 'x'"),
    ([("tensor", t(4)), ("tensor", None), ("scalar", 1.0, "float64"), ("int", 3), ("none", None),
      ("tensor", t(4))], "attribute 'mode' of OpDef ScaleAdd is str"),
    ([("tensor", t(4, dtype=torch.int32)), ("tensor", None), ("scalar", 1.0, "float64"), ("none", None),
      ("none", None), ("tensor", t(4))], "no DataType column"),
    ([("tensor_list", [t(4)]), ("tensor", None), ("scalar", 1.0, "float64"), ("none", None), ("none", None),
      ("tensor", t(4))], "DYNAMIC"),
])
def test_a_call_that_does_not_fit_the_opdef_is_the_candidates_fault(args, problem):
    with pytest.raises(op_call.SignatureMismatch, match=problem):
        op_call.bind(SIG, "aclnnScaleAdd", args)


def test_the_operator_is_the_opdef_named_after_the_kernel():
    other = OpSignature("Helper", (), (), ())
    assert op_call.pick_signature([other, SIG], "scale_add") is SIG
    assert op_call.pick_signature([SIG], "anything") is SIG
    with pytest.raises(op_call.SignatureMismatch, match="none named after"):
        op_call.pick_signature([other, OpSignature("Other", (), (), ())], "scale_add")


# -- op projects ---------------------------------------------------------------------------------------

def test_a_project_has_free_host_file_names():
    from npukernelbench.extract import ParseError, extract_files, is_host_source

    text = "".join(f"=== {p} ===\n```cpp\nint {n};\n```\n" for n, p in enumerate(
        ["op_host/x_tiling.h", "op_host/x_tiling.cpp", "op_host/x_def.cpp", "op_host/aclnn_x.cpp",
         "op_kernel/x.cpp", "op_kernel/x_impl.h"]))
    files = extract_files(text, ("op_kernel/x.cpp",))
    assert sorted(p for p in files if is_host_source(p)) == ["op_host/x_def.cpp", "op_host/x_tiling.cpp"]
    with pytest.raises(ParseError, match="no host source"):
        extract_files("=== op_kernel/x.cpp ===\n```cpp\nint a;\n```\n"
                      "=== op_host/aclnn_x.cpp ===\n```cpp\nint b;\n```\n", ("op_kernel/x.cpp",))
    with pytest.raises(ParseError, match="op_kernel/x.cpp is missing"):
        extract_files("=== op_host/x.cpp ===\n```cpp\nint a;\n```\n", ("op_kernel/x.cpp",))


def test_outputs_may_differ_from_the_reference_only_in_unit_dimensions():
    from npukernelbench.layouts.upstream.checker import _same_but_unit_dims

    assert _same_but_unit_dims((1,), ()) and _same_but_unit_dims((4, 1, 3), (4, 3))
    assert not _same_but_unit_dims((3, 4), (4, 3)) and not _same_but_unit_dims((2,), ())


def test_fresh_binding_outputs_are_told_apart_from_initialised_ones():
    with op_call.marked_uninitialised_memory():
        fresh = [torch.empty(5, dtype=dt) for dt in (torch.float16, torch.bfloat16, torch.float32, torch.int32,
                                                     torch.int64, torch.uint8, torch.bool)]
        zeroed = torch.empty(5).zero_()
    assert all(op_call.uninitialised(f) for f in fresh)
    assert not op_call.uninitialised(zeroed) and not op_call.uninitialised(torch.full((3,), 7, dtype=torch.int32))
    assert not torch.are_deterministic_algorithms_enabled()          # restored after the block


def test_uninitialised_looks_at_every_chunk(monkeypatch):
    monkeypatch.setattr(op_call, "_MARK_CHUNK", 2)
    marked = torch.full((2, 3), float("nan"))
    assert op_call.uninitialised(marked)
    marked[1, 2] = 0.0                                  # only the last chunk holds a written value
    assert not op_call.uninitialised(marked)
    ints = torch.full((5,), torch.iinfo(torch.int16).max, dtype=torch.int16)
    assert op_call.uninitialised(ints)
    ints[4] = 0
    assert not op_call.uninitialised(ints)
