"""Checks a policy cannot predict (issue 25, class 6), on a task of the upstream layout
(tests/data/npkb_tree/level1/Math/AddCustom: rows [128] float32 and [4, 40] float16).

Two kernels that game a check whose shapes and data are known in advance:

- one hard-codes the CSV rows' shapes (its tiling ignores the input shape): it passes the rows
  themselves, and fails on the rows drawn from them (``row_variants``);
- one hard-codes the row's output data for the input seed the row number used to determine: it
  passes when the data is the one it predicted, and fails with the run's data seed.

Each test fails when its protection is removed: with upstream tasks checked on their rows only, the
first kernel passes; with input seeds derived from the row number again, the second one does. And
when the second kernel does predict the data, the speed floors (``speed_audit``), which hold upstream
tasks as they hold ours, mark it suspect: it never reads its inputs.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from npukernelbench.cases import load_case
from npukernelbench.evaluate import EvalOptions, checker_for, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.layouts.upstream.task import upstream_task
from npukernelbench.result import Status
from npukernelbench.shapes import static_cases

TASK = Path(__file__).resolve().parents[1] / "data" / "npkb_tree" / "level1" / "Math" / "AddCustom"
KERNEL = "op_kernel/add_custom.cpp"
TILING = "op_host/add_custom_tiling.cpp"
FIXED = EvalOptions(shapes="static", seeds=1, speed=False, data_seed=2024)

# The rows' element counts, chosen by the input's rank: right on both rows, on nothing else.
ROW_SHAPES = ("    uint32_t dims = context->GetInputShape(0)->GetStorageShape().GetDimNum();\n"
              "    tiling.set_totalLength(dims == 1 ? 128 : 160);\n")

TABLE_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 128;
static const float TABLE[N] = {VALUES};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float*)z, N);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    LocalTensor<float> zl = buf.Get<float>();
    for (uint32_t i = 0; i < N; ++i) {
        zl.SetValue(i, TABLE[i]);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, N);
}
"""


@pytest.fixture(scope="module")
def spec():
    return load_case(TASK)


def _run(spec, sim, files, options):
    return evaluate(spec, Completion(spec.case_id, 0, files=files), sim, options)


def _row_shapes(spec) -> dict[str, str]:
    files = dict(spec.solution)
    line = "    tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());\n"
    assert line in files[TILING]
    files[TILING] = files[TILING].replace(line, ROW_SHAPES)
    return files


def test_a_kernel_hard_coding_the_rows_shapes_fails_on_drawn_rows(spec, sim):
    files = _row_shapes(spec)
    rows_only = _run(spec, sim, files, FIXED)
    assert rows_only.status is Status.PASSED, rows_only.message          # what checking the rows alone misses
    drawn = _run(spec, sim, files, EvalOptions(shapes="both", seeds=1, speed=False, data_seed=2024,
                                                determinism=False, shape_examples=4, shape_seed=0, shrink_budget=4))
    assert drawn.status is not Status.PASSED
    assert "minimal failing dynamic case: drawn case" in drawn.message and "replay with shape seed 0" in drawn.message


def _table_kernel(spec, seed: int) -> dict[str, str]:
    """The expert's host code and a kernel that writes x + y for the inputs of ``seed`` on row 0."""
    inputs = upstream_task(spec.folder, spec.op, spec.kernel).make_inputs(spec.cases[0].row, seed)
    x, y = inputs.args
    values = ", ".join(f"{float(v):.9g}f" for v in (x + y).flatten().tolist())
    return {**dict(spec.solution), KERNEL: TABLE_KERNEL.replace("VALUES", values)}


def test_a_kernel_hard_coding_the_rows_data_fails_with_the_runs_data_seed(spec, sim):
    spec = dataclasses.replace(spec, cases=spec.cases[:1])               # the [128] float32 row
    case = static_cases(spec)[0]
    # the kernel can pass: when it knows the data, it is right
    predicted = checker_for(spec, sim, spec.solution, FIXED).input_seed(case, 0)
    assert _run(spec, sim, _table_kernel(spec, predicted), FIXED).status is Status.PASSED
    # the data the row number determined (row 0, first seed) is not the data the run checks
    by_row = _run(spec, sim, _table_kernel(spec, case.seed * 1000), FIXED)
    assert by_row.status is Status.WRONG, by_row.message
    assert "data seed 2024" in by_row.message


def test_the_data_seed_replays_and_varies(spec, sim):
    case = static_cases(spec)[0]
    seeds = [checker_for(spec, sim, spec.solution, dataclasses.replace(FIXED, data_seed=d)).input_seed(case, 0)
             for d in (1, 1, 2)]
    assert seeds[0] == seeds[1] != seeds[2]
    fresh = {EvalOptions().data_seed for _ in range(4)}
    assert len(fresh) > 1                                                 # drawn per run, not a constant


def test_a_kernel_that_predicts_the_data_is_suspect_by_the_floors(spec, sim):
    spec = dataclasses.replace(spec, cases=spec.cases[:1])
    case = static_cases(spec)[0]
    predicted = checker_for(spec, sim, spec.solution, FIXED).input_seed(case, 0)
    result = _run(spec, sim, _table_kernel(spec, predicted), FIXED)
    assert result.status is Status.PASSED and result.suspect and result.speedup is None, result.message
    assert "counted GM reads (0 bytes) do not cover its inputs (1024 bytes)" in result.message, result.message
    expert = _run(spec, sim, dict(spec.solution), FIXED)
    assert expert.status is Status.PASSED and not expert.suspect, expert.message
