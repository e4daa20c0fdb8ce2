"""What the launcher refuses or reports: invalid block dims, tiling overflow, hangs, GM out of
bounds (API, block and source line named), crashes and endless loops. One build, one run per
failure mode (the attribute ``mode`` selects it)."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

HOST = r"""
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(HugeTiling)
  TILING_DATA_FIELD_DEF_ARR(uint8_t, 70000, pad);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SomeOtherOp, HugeTiling)

static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t mode = *ctx->GetAttrs()->GetInt(0);
  uint32_t* t = ctx->GetTilingData<uint32_t>();
  *t = static_cast<uint32_t>(mode);
  ctx->SetBlockDim(mode == 1 ? 0 : mode == 2 ? 257 : mode == 12 || mode == 13 ? 48 : 4);
  if (mode == 3) {
    HugeTiling huge;
    huge.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  }
  if (mode == 9) {
    return ge::GRAPH_FAILED;
  }
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class ErrCustom : public OpDef {
 public:
  explicit ErrCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ErrCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct ModeTiling { uint32_t mode; };

extern "C" __global__ __aicore__ void err_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  uint32_t idx = GetBlockIdx();
  if (t.mode == 4) {                       // block 3 leaves early: the others wait in SyncAll forever
    if (idx == 3) return;
    SyncAll();  // SYNC-LINE
  } else if (t.mode == 5 && idx == 1) {    // reads 64 floats from 8 before the end of x
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> l = buf.Get<float>();
    DataCopy(l, g[1024 - 8], 64);  // OOB-LINE
  } else if (t.mode == 6 && idx == 2) {
    volatile int* p = nullptr;
    *p = 1;
  } else if (t.mode == 7) {
    volatile uint64_t spin = 0;
    while (true) { spin = spin + 1; }
  } else if (t.mode == 8) {
    CrossCoreWaitFlag(3);  // WAIT-LINE
  } else if (t.mode == 13) {             // 48 blocks on 40 cores: the second wave never reaches the barrier
    SyncAll();
  } else if (t.mode == 12) {             // 48 logical blocks: each writes its index and the block count
    reinterpret_cast<float*>(y)[512 + idx] = static_cast<float>(GetBlockNum());
  } else if (t.mode == 14 && idx == 0) {  // runs past its 256-byte buffer, inside UB: a warning
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> l = buf.Get<float>();
    Duplicate(l, 1.0f, 128);  // OVERRUN-LINE
  } else if (t.mode == 10) {             // every block meets the barrier twice: fine
    SyncAll();
    SyncAll();
  }
  reinterpret_cast<float*>(y)[idx] = static_cast<float>(idx);
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


@pytest.fixture(scope="module")
def err_build(sim, make_project):
    build = sim.build(make_project("ErrCustom", "err_custom", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, mode: int, timeout_s: float = 30.0):
    x = np.zeros(1024, np.float32)
    return sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),),
                                 outputs=(TensorArg("y", "float32", shape=(1024,)),),
                                 attrs={"mode": ("int", mode)}, timeout_s=timeout_s))


@pytest.mark.parametrize(("mode", "text"), [(1, "blockDim 0 outside 1..256"), (2, "blockDim 257 outside 1..256")])
def test_block_dim_out_of_range(sim, err_build, mode, text):
    result = run(sim, err_build, mode)
    assert not result.ok and text in result.message


def test_tiling_data_larger_than_capacity(sim, err_build):
    result = run(sim, err_build, 3)
    assert not result.ok
    assert "tiling data of 70000 bytes does not fit" in result.message


def test_tiling_function_failure(sim, err_build):
    result = run(sim, err_build, 9)
    assert not result.ok and "TilingFunc returned failure" in result.message


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(KERNEL.splitlines(), 1) if marker in text)


def test_sync_all_deadlock_is_a_hang(sim, err_build):
    result = run(sim, err_build, 4)
    assert not result.ok and not result.timed_out
    assert "hang" in result.message and "SyncAll" in result.message
    assert "finished without reaching the barrier" in result.message
    assert f"waits in SyncAll at op_kernel/err_custom.cpp:{_line('SYNC-LINE')}" in result.message


def test_wait_on_a_flag_nobody_sets_is_a_hang(sim, err_build):
    result = run(sim, err_build, 8)
    assert not result.ok and "CrossCoreWaitFlag(3)" in result.message
    assert f"CrossCoreWaitFlag(3) at op_kernel/err_custom.cpp:{_line('WAIT-LINE')}" in result.message


def test_balanced_sync_all_runs(sim, err_build):
    result = run(sim, err_build, 10)
    assert result.ok, result.message
    assert list(result.outputs["y"][:4]) == [0, 1, 2, 3]
    assert result.time_us is not None and result.time_us > 0


def test_gm_out_of_bounds_names_api_block_and_line(sim, err_build):
    line = KERNEL.splitlines().index(next(ln for ln in KERNEL.splitlines() if "OOB-LINE" in ln)) + 1
    result = run(sim, err_build, 5)
    assert not result.ok
    assert "DataCopy" in result.message
    assert "block 1" in result.message
    assert f"op_kernel/err_custom.cpp:{line}" in result.message
    assert result.details["violation"]["block"] == 1
    violation = result.details["violation"]
    assert (violation["file"], violation["line"]) == ("op_kernel/err_custom.cpp", line)


def test_segfault_is_a_runtime_error_naming_the_signal(sim, err_build):
    result = run(sim, err_build, 6)
    assert not result.ok and not result.timed_out
    assert "SIGSEGV" in result.message and "block 2" in result.message


def test_endless_loop_times_out(sim, err_build):
    result = run(sim, err_build, 7, timeout_s=2.0)
    assert not result.ok and result.timed_out
    assert result.message.startswith("timeout: the simulated run exceeded its limit of 2 s of CPU time"), result.message
    assert "--npukb-run-timeout" in result.message


def test_a_kernel_that_would_wait_without_cpu_does_not_build(sim, make_project):
    """Only the wall-clock limit could stop a kernel that sleeps (no CPU used): device code has no C
    library, so such a kernel is a build error naming the call and its line (the wall-clock limit itself
    is tested on a sleeping command in tests/sandbox)."""
    kernel = KERNEL.replace('using namespace AscendC;\n',
                            'using namespace AscendC;\nextern "C" unsigned int sleep(unsigned int seconds);\n', 1)
    kernel = kernel.replace("  } else if (t.mode == 13) {",
                            "  } else if (t.mode == 11) {\n    sleep(120);  // SLEEP-LINE\n"
                            "  } else if (t.mode == 13) {", 1)
    build = sim.build(make_project("ErrCustom", "err_custom", HOST, kernel, PARAMS))
    assert not build.ok
    line = kernel.splitlines().index("    sleep(120);  // SLEEP-LINE") + 1
    assert f"op_kernel/err_custom.cpp:{line}: error: device code calls 'sleep'" in build.diagnostics, build.diagnostics


def test_more_blocks_than_vector_cores_run_in_waves(sim, err_build):
    """blockDim is logical on the device: 48 blocks on the 910B3's 40 vector cores all run, each with its
    own GetBlockIdx() and GetBlockNum() == 48."""
    result = run(sim, err_build, 12)
    assert result.ok, result.message
    y = result.outputs["y"]
    assert list(y[:48]) == list(range(48)) and set(y[512:560]) == {48.0}
    assert result.details["block_dim"] == 48


def test_sync_all_with_blocks_in_waves_is_reported(sim, err_build):
    result = run(sim, err_build, 13)
    assert not result.ok
    assert "blockDim 48 exceeds the 40 vector cores" in result.message and "SyncAll" in result.message


def test_an_output_initialised_before_the_launch_keeps_what_the_kernel_does_not_write(sim, err_build):
    """Mode 10: the 4 blocks write y[0..3] only. An output whose buffer the binding zeroed (data given)
    keeps its zeros elsewhere; a fresh one (no data) holds the poison there."""
    x = np.zeros(1024, np.float32)
    start = np.full(1024, 5.0, np.float32)
    given = sim.run(err_build, Launch(inputs=(TensorArg("x", "float32", x),),
                                      outputs=(TensorArg("y", "float32", start, shape=(1024,)),),
                                      attrs={"mode": ("int", 10)}))
    assert given.ok, given.message
    assert given.outputs["y"][:4].tolist() == [0, 1, 2, 3] and (given.outputs["y"][4:] == 5.0).all()
    fresh = run(sim, err_build, 10)
    assert fresh.ok and not (fresh.outputs["y"][4:] == 5.0).any() and not (fresh.outputs["y"][4:] == 0).all()


def test_an_overrun_inside_ub_runs_on_with_a_kernel_warning(sim, err_build):
    result = run(sim, err_build, 14)
    assert result.ok, result.message
    (warning,) = result.details["kernel_warnings"]
    line = next(i for i, ln in enumerate(KERNEL.splitlines(), 1) if "OVERRUN-LINE" in ln)
    assert warning.startswith("Duplicate: UB overflow: dst access of 512 bytes") and f":{line})" in warning
    assert run(sim, err_build, 10).details["kernel_warnings"] == []
