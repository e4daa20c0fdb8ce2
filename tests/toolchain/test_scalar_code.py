"""Scalar code is priced (docs/cost-model.md, "Scalar code"): every basic block of the kernel's own code
that runs costs the scalar unit 4 cycles, every 8-byte access to its own memory (stack, local arrays)
2 cycles, deterministically; the simulator's own code (the APIs, with their own costs) adds nothing."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

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
class ScalarProbe : public OpDef {
 public:
  explicit ScalarProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ScalarProbe);
}  // namespace ops
"""

# 16 rounds per element over a local array, then y = x (one GM read and write per element).
KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scalar_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  uint32_t n = *reinterpret_cast<__gm__ uint32_t*>(tiling);
  __gm__ float* px = (__gm__ float*)x;
  __gm__ float* py = (__gm__ float*)y;
  uint32_t ring[64] = {};
  for (uint32_t i = 0; i < 16 * n; ++i) {
    ring[i & 63] = ring[(i + 1) & 63] + i;
  }
  uint32_t mix = 0;
  for (uint32_t i = 0; i < n; ++i) {
    mix ^= ring[i & 63];
    py[i] = px[i];
  }
  if (mix == 0x9e3779b9u) {   // never, for the sizes here: keeps the ring alive
    py[0] = -1.0f;
  }
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]
BLOCK_CYCLES, LOCAL_CYCLES, GM_CYCLES = 4.0, 2.0, 200.0


@pytest.fixture(scope="module")
def probe_build(sim, make_project):
    build = sim.build(make_project("ScalarProbe", "scalar_probe", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, n: int):
    x = np.arange(n, dtype=np.float32)
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),),
                                   outputs=(TensorArg("y", "float32", shape=(n,)),), attrs={}))
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], x)
    return result


def test_the_kernels_scalar_code_is_counted(sim, probe_build) -> None:
    cost = run(sim, probe_build, 256).details["cost"]
    assert cost["scalar_blocks"] >= 16 * 256 + 256, cost              # a block per round at least
    assert cost["raw_local_accesses"] >= 2 * 16 * 256, cost           # a load and a store of the ring per round
    assert cost["raw_gm_accesses"] == 1 + 2 * 256, cost               # the tiling word, x and y


def test_scalar_code_costs_its_blocks_and_accesses_on_the_scalar_unit(sim, probe_build) -> None:
    # no API call at all: the block's time is exactly its scalar code, its local and its GM accesses
    cost = run(sim, probe_build, 256).details["cost"]
    expected = (BLOCK_CYCLES * cost["scalar_blocks"] + LOCAL_CYCLES * cost["raw_local_accesses"]
                + GM_CYCLES * cost["raw_gm_accesses"])
    assert cost["slowest_block_cycles"] == pytest.approx(expected), cost
    assert cost["pipe_cycles"]["S"] == pytest.approx(LOCAL_CYCLES * cost["raw_local_accesses"]
                                                     + GM_CYCLES * cost["raw_gm_accesses"]), cost


def test_more_scalar_work_costs_more(sim, probe_build) -> None:
    small, large = (run(sim, probe_build, n).details["cost"] for n in (128, 512))
    assert large["scalar_blocks"] > 3.5 * small["scalar_blocks"], (small, large)
    assert large["slowest_block_cycles"] > 3.5 * small["slowest_block_cycles"], (small, large)


def test_the_estimate_is_deterministic(sim, probe_build) -> None:
    first, second = (run(sim, probe_build, 300) for _ in range(2))
    assert first.details["cost"] == second.details["cost"]
    assert first.time_us == second.time_us
