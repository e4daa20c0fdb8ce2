"""Mixed AIC/AIV kernels through the real toolchain: the build compiles the kernel once per core type,
the launcher starts blockDim cube cores plus two vector cores each, cross-core flags block for real,
and misuse (a missing flag, a wait nobody satisfies, cube instructions on a vector core, too many
cores) is reported with a clear message. One build, one run per mode (attribute ``mode``)."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

CORES = 3
ROWS = 16 * CORES
HOST = r"""
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t mode = *ctx->GetAttrs()->GetInt(0);
  uint32_t* t = ctx->GetTilingData<uint32_t>();
  t[0] = static_cast<uint32_t>(mode);
  ctx->SetBlockDim(mode == 5 ? 21 : @CORES@);
  size_t* ws = ctx->GetWorkspaceSizes(1);
  ws[0] = @ROWS@ * 32 * sizeof(float);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class CubeMix : public OpDef {
 public:
  explicit CubeMix(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CubeMix);
}  // namespace ops
""".replace("@CORES@", str(CORES)).replace("@ROWS@", str(ROWS))

# Every AI core multiplies its 16 rows of A by B into the workspace (cube), then its two vector cores
# each add 1 to 8 of those rows and write them out.
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct ModeTiling { uint32_t mode; };
constexpr uint16_t READY = 3;

extern "C" __global__ __aicore__ void cube_mix(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> ws, gy;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  ws.SetGlobalBuffer((__gm__ float*)workspace);
  gy.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  if ASCEND_IS_AIC {
    uint32_t core = GetBlockIdx();
    TBuf<TPosition::A1> a1; TBuf<TPosition::B1> b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 16 * 32 * 2); pipe.InitBuffer(b1, 32 * 32 * 2); pipe.InitBuffer(a2, 16 * 32 * 2);
    pipe.InitBuffer(b2, 32 * 32 * 2); pipe.InitBuffer(c1, 16 * 32 * 4);
    LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    DataCopy(la1, ga[core * 16 * 32], Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0));
    DataCopy(lb1, gb, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(0);
    WaitFlag<HardEvent::MTE2_MTE1>(0);
    LoadData(la2, la1, LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    for (uint32_t kb = 0; kb < 2; ++kb) LoadData(lb2[kb * 2 * 256], lb1, LoadData2DParams(kb, 2, 2, 0, 0, true, 0));
    SetFlag<HardEvent::MTE1_M>(0);
    WaitFlag<HardEvent::MTE1_M>(0);
    MmadParams mp; mp.m = 16; mp.n = 32; mp.k = 32;
    Mmad(lc, la2, lb2, mp);
    SetFlag<HardEvent::M_FIX>(0);
    WaitFlag<HardEvent::M_FIX>(0);
    Fixpipe(ws[core * 16 * 32], lc, FixpipeParamsV220(32, 16, 16, 32, false));
    if (t.mode != 3) CrossCoreSetFlag<2, PIPE_FIX>(READY);
  }
  if ASCEND_IS_AIV {
    uint32_t row0 = GetBlockIdx() * 8;
    if (t.mode == 4) {   // cube instruction on a vector core
      LocalTensor<float> c; LocalTensor<half> x;
      MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
      Mmad(c, x, x, mp);
    }
    if (t.mode != 1) CrossCoreWaitFlag(READY);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * 32 * 4);
    LocalTensor<float> x = buf.Get<float>();
    DataCopy(x, ws[row0 * 32], 8 * 32);
    PipeBarrier<PIPE_ALL>();
    Adds(x, x, 1.0f, 8 * 32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy[row0 * 32], x, 8 * 32);
    if (t.mode == 6 && GetBlockIdx() == 0) {   // integer division by zero: no trap on the device
      volatile uint32_t zero = t.mode - 6;
      uint32_t seven = 7;
      gy.SetValue(0, static_cast<float>(seven % zero));
      gy.SetValue(1, static_cast<float>(seven / zero));
    }
  }
}
"""

PARAMS = [("a", "input", "REQUIRED", "float16"), ("b", "input", "REQUIRED", "float16"),
          ("y", "output", "REQUIRED", "float32")]


@pytest.fixture(scope="module")
def mix_build(sim, make_project):
    build = sim.build(make_project("CubeMix", "cube_mix", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def _run(sim, build, mode: int, seed: int = 0):
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (ROWS, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    launch = Launch(inputs=(TensorArg("a", "float16", a), TensorArg("b", "float16", b)),
                    outputs=(TensorArg("y", "float32", shape=(ROWS, 32)),), attrs={"mode": ("int", mode)},
                    poison_seed=seed, timeout_s=60)
    return sim.run(build, launch), a.astype(np.float32) @ b.astype(np.float32) + 1


@pytest.mark.api("CrossCoreSetFlag(ISASI)", "CrossCoreWaitFlag(ISASI)")
@pytest.mark.parametrize("seed", [0, 1])
def test_mixed_kernel_runs_on_cube_and_vector_cores(sim, mix_build, seed):
    result, ref = _run(sim, mix_build, 0, seed)
    assert result.ok, result.message
    np.testing.assert_allclose(result.outputs["y"], ref, rtol=1e-5, atol=1e-5)
    assert result.details["kernel_type"] == 5
    assert result.details["cores"] == {"aic": CORES, "aiv": 2 * CORES}
    assert result.details["cost"]["pipe_cycles"]
    assert result.time_us > 3.0


@pytest.mark.api("CrossCoreSetFlag(ISASI)", "CrossCoreWaitFlag(ISASI)")
def test_missing_cross_core_flag_gives_wrong_results(sim, mix_build):
    # Vector cores first (even poison seed): without the wait they read the workspace before the cube
    # core wrote it -- as on hardware, where nothing orders them.
    result, ref = _run(sim, mix_build, 1, seed=0)
    assert result.ok, result.message
    assert not np.allclose(result.outputs["y"], ref)


@pytest.mark.api("CrossCoreSetFlag(ISASI)", "CrossCoreWaitFlag(ISASI)")
def test_wait_nobody_satisfies_is_a_deadlock_report(sim, mix_build):
    result, _ = _run(sim, mix_build, 3)
    assert not result.ok and not result.timed_out
    assert "deadlock" in result.message and "CrossCoreWaitFlag(3)" in result.message
    assert "AIV 0 waits" in result.message and "no core can set the awaited flag" in result.message


def test_cube_instruction_on_a_vector_core_is_reported(sim, mix_build):
    result, _ = _run(sim, mix_build, 4)
    assert not result.ok
    assert "Mmad: cube instruction on an AI vector core (AIV)" in result.message
    assert "(AIV 0, op_kernel/cube_mix.cpp:" in result.message


def test_more_cube_cores_than_the_chip_has_is_refused(sim, mix_build):
    result, _ = _run(sim, mix_build, 5)
    assert not result.ok and "blockDim 21 outside 1..20" in result.message


def test_integer_division_by_zero_does_not_trap(sim, mix_build):
    result, ref = _run(sim, mix_build, 6)
    assert result.ok, result.message
    assert list(result.outputs["y"].ravel()[:2]) == [7.0, np.float32(2.0**32)]   # remainder 7, quotient ~0u
    np.testing.assert_allclose(result.outputs["y"].ravel()[2:], ref.ravel()[2:], rtol=1e-5, atol=1e-5)
