"""Raw-access costing (docs/cost-model.md): the kernel's own loads and stores through raw pointers
into GM or UB are counted and cost what GetValue/SetValue on that memory costs; the simulator's own
code (every API, the value types' conversions aside) costs nothing extra; a raw GM access just outside
a tensor is the GM violation it is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npukernelbench.layouts.case_toml.checker import project_for
from npukernelbench.spec import load_spec
from npukernelbench.toolchains.base import Launch, TensorArg

ROOT = Path(__file__).resolve().parents[2]

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  uint32_t* n = ctx->GetTilingData<uint32_t>();
  *n = static_cast<uint32_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize());
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class RawProbe : public OpDef {
 public:
  explicit RawProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RawProbe);
}  // namespace ops
"""

HEAD = r"""
#include <algorithm>
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  uint32_t n = *reinterpret_cast<__gm__ uint32_t*>(tiling);
  __gm__ DTYPE_X* px = (__gm__ DTYPE_X*)x;
  __gm__ DTYPE_Y* py = (__gm__ DTYPE_Y*)y;
"""

KERNELS = {
    # one GM scalar read (the tiling word) + n element copies (a read and a write each)
    "gm_loop": "  for (uint32_t i = 0; i < n; ++i) py[i] = px[i];\n}\n",
    # the C++ library's code called by the kernel is the kernel's own: std::copy costs like the loop
    "std_copy": "  std::copy(px, px + n, py);\n}\n",
    # DataCopy in, one raw UB read (it waits for the copy to land), DataCopy out
    "ub_read": r"""
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 * 1024);
  LocalTensor<DTYPE_X> t = buf.Get<DTYPE_X>();
  GlobalTensor<DTYPE_X> gx;
  GlobalTensor<DTYPE_Y> gy;
  gx.SetGlobalBuffer(px, n);
  gy.SetGlobalBuffer(py, n);
  DataCopy(t, gx, n);
  DTYPE_X* u = reinterpret_cast<DTYPE_X*>(t.GetPhyAddr());
  volatile float first = static_cast<float>(u[0]);
  (void)first;
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, t, n);
}
""",
    # a namespace-scope object with a dynamic initialiser (the compiler wraps such initialisers in
    # init-order hooks): the kernel links and runs, and the initialiser's own stores are not counted
    "global_init": """  for (uint32_t i = 0; i < n; ++i) py[i] = px[i] * g_scale.value;
}
""",
    # reads one element past the end of x
    "past_end": "  for (uint32_t i = 0; i < n; ++i) py[i] = px[i + 1];\n}\n",
    # a mixed launch (one cube core, two vector cores): the cube core copies with raw pointers. Its code
    # is compiled in the cube (AIC) pass, with its own prelude: both must be costed as the kernel's.
    "aic_loop": """  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    for (uint32_t i = 0; i < n; ++i) py[i] = px[i];
  }
}
""",
}

PARAMS = {"float32": [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")],
          "bfloat16": [("x", "input", "REQUIRED", "bfloat16"), ("y", "output", "REQUIRED", "bfloat16")]}


GLOBAL_INIT = """
struct Scale { float value; };
static volatile int g_two = 2;
static Scale g_scale{static_cast<float>(g_two)};   // reads a volatile: initialised at load time
"""


def probe(sim, make_project, kernel: str, dtype: str = "float32", n: int = 64):
    source = (GLOBAL_INIT if kernel == "global_init" else "") + HEAD + KERNELS[kernel]
    proj = make_project("RawProbe", "raw_probe", HOST, source, PARAMS[dtype])
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    storage = np.float32 if dtype == "float32" else np.uint16
    x = np.arange(n).astype(np.float32).astype(storage) if dtype == "float32" else np.full(n, 0x3F80, np.uint16)
    result = sim.run(build, Launch(inputs=(TensorArg("x", dtype, x),), outputs=(TensorArg("y", dtype, shape=(n,)),),
                                   attrs={}))
    return x, result


@pytest.mark.parametrize("kernel,accesses", [("gm_loop", 2 * 64),    # a 4-byte read and write per element
                                             ("std_copy", 2 * 32)])   # memmove: 8-byte words read and written
def test_raw_gm_accesses_are_counted_and_costed(sim, make_project, kernel: str, accesses: int) -> None:
    x, result = probe(sim, make_project, kernel)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x)
    cost = result.details["cost"]
    assert result.details["raw_access_costed"] is True
    assert cost["raw_gm_accesses"] == 1 + accesses, cost        # + the tiling word
    assert cost["raw_ub_accesses"] == 0, cost
    assert cost["pipe_cycles"]["S"] == pytest.approx(200.0 * (1 + accesses)), cost   # as GetValue/SetValue on GM
    assert cost["gm_read_bytes"] == 4 + 4 * 64 and cost["gm_write_bytes"] == 4 * 64, cost


def test_a_kernel_file_with_a_dynamically_initialised_global_links_and_runs(sim, make_project) -> None:
    x, result = probe(sim, make_project, "global_init")
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x * 2)
    assert result.details["cost"]["raw_gm_accesses"] == 1 + 2 * 64, result.details["cost"]


def test_the_cube_pass_is_costed_like_the_vector_pass(sim, make_project) -> None:
    x, result = probe(sim, make_project, "aic_loop")
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x)
    assert result.details["cores"] == {"aic": 1, "aiv": 2}, result.details
    cost = result.details["cost"]
    # the tiling word and a read and a write per element on the cube core (the vector pass never uses
    # the tiling word: ASCEND_IS_AIC is a constant there, and the compiler drops the load)
    assert cost["raw_gm_accesses"] == 1 + 2 * 64, cost
    assert cost["pipe_cycles"]["S"] == pytest.approx(200.0 * (1 + 2 * 64)), cost
    assert cost["gm_read_bytes"] == 4 + 4 * 64 and cost["gm_write_bytes"] == 4 * 64, cost


def test_bfloat16_conversions_count_as_the_kernels_accesses(sim, make_project) -> None:
    # bfloat16_t is a simulator class: its conversions must not hide the accesses they make
    x, result = probe(sim, make_project, "gm_loop", dtype="bfloat16", n=16)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x)
    assert result.details["cost"]["raw_gm_accesses"] == 1 + 2 * 16


def test_a_raw_ub_read_waits_for_the_copy_and_costs_a_scalar_access(sim, make_project) -> None:
    x, result = probe(sim, make_project, "ub_read", n=1024)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x)
    cost = result.details["cost"]
    assert cost["raw_ub_accesses"] == 1 and cost["raw_gm_accesses"] == 1, cost
    cycles = cost["pipe_cycles"]
    # the read waits for MTE2, the copy out waits for the read (barrier): nothing overlaps
    assert cost["slowest_block_cycles"] >= cycles["MTE2"] + 12 + cycles["MTE3"], cost


def test_a_raw_gm_read_past_a_tensor_is_a_gm_violation(sim, make_project) -> None:
    # 128 floats fill the tensor's 512-byte allocation granule: the read of element 128 is past it
    _, result = probe(sim, make_project, "past_end", n=128)
    assert not result.ok
    assert "raw pointer access" in result.message and "past its end" in result.message, result.message


def test_the_simulators_own_code_makes_no_raw_accesses(sim) -> None:
    # the expert add_custom: every access inside DataCopyPad, Add, Cast, queues is the simulator's
    spec = load_spec(ROOT / "benchmark_cases" / "level1" / "math" / "add_custom", ROOT / "benchmark_cases")
    for dt in ("float16", "bfloat16"):
        build = sim.build(project_for(spec, spec.solution, {"x": dt, "y": dt, "z": dt}))
        assert build.ok, build.diagnostics
        storage = np.float16 if dt == "float16" else np.uint16
        x = np.ones((3, 777), storage)
        result = sim.run(build, Launch(inputs=(TensorArg("x", dt, x), TensorArg("y", dt, x)),
                                       outputs=(TensorArg("z", dt, shape=(3, 777)),), attrs={}))
        assert result.ok, result.message
        cost = result.details["cost"]
        assert cost["raw_gm_accesses"] == 0 and cost["raw_ub_accesses"] == 0, cost
        # the scalar unit's only memory work: the kernel's own locals (its class members on the stack)
        assert cost["pipe_cycles"]["S"] <= 2.0 * cost["raw_local_accesses"], cost
