"""Synchronisation between blocks (核间同步) and inside a block (核内同步), run by the real launcher
(blocks scheduled cooperatively, one build, one run per mode): the soft SyncAll over a GM workspace,
SyncAll<false>() in a vector-only kernel, blocks that return before a barrier, IBSet / IBWait,
InitDetermineComputeWorkspace / NotifyNextBlock / WaitPreBlock, DataSyncBarrier, TQueSync, a second
SetFlag before its WaitFlag, SetNextTaskStart / WaitPreTaskEnd. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

from npukernelbench.toolchains.base import Launch, TensorArg

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t mode = *ctx->GetAttrs()->GetInt(0);
  uint32_t* t = ctx->GetTilingData<uint32_t>();
  *t = static_cast<uint32_t>(mode);
  ctx->SetBlockDim(mode == 12 ? 48 : 4);
  size_t* ws = ctx->GetWorkspaceSizes(1);
  ws[0] = 16384;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class SyncCustom : public OpDef {
 public:
  explicit SyncCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SyncCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct ModeTiling { uint32_t mode; };
constexpr SyncAllConfig kMte3Trigger = {PIPE_MTE3, PIPE_ALL};

extern "C" __global__ __aicore__ void sync_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  const int32_t idx = static_cast<int32_t>(GetBlockIdx());
  GlobalTensor<int32_t> out, ws;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 256);
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(GetUserWorkspace(workspace)), 4096);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 1024);
  LocalTensor<int32_t> work = ub.Get<int32_t>();
  if (t.mode == 1 || t.mode == 2 || t.mode == 3) {     // soft SyncAll: each block zeroes its own slot
    if (t.mode != 3) ws.SetValue(idx * 8, 0);
    out.SetValue(idx, idx + 10);
    if (t.mode == 2 && idx == 2) return;                // block 2 leaves before the barrier
    SyncAll(ws, work);  // SOFT-LINE
    out.SetValue(8 + idx, out.GetValue((idx + 1) % 4));  // everybody's value is there after the barrier
    SyncAll(ws, work);                                  // a second round on the same workspace
    out.SetValue(16 + idx, out.GetValue(8 + (idx + 3) % 4));
  } else if (t.mode == 4) {                             // block 1 waits for block 0's event 2
    if (idx == 0) {
      out.SetValue(0, 41);
      IBSet(ws, work, 0, 2);
    } else if (idx == 1) {
      IBWait(ws, work, 0, 2);
      out.SetValue(1, out.GetValue(0) + 1);
    }
  } else if (t.mode == 5) {                             // an event nobody sets
    if (idx == 3) IBWait(ws, work, 1, 0);  // IBWAIT-LINE
  } else if (t.mode == 6) {                             // deterministic order, two rounds
    InitDetermineComputeWorkspace(ws, work);
    for (int r = 0; r < 2; ++r) {
      WaitPreBlock(ws, work);
      int32_t n = out.GetValue(100);
      out.SetValue(n, idx);
      out.SetValue(100, n + 1);
      NotifyNextBlock(ws, work);
    }
  } else if (t.mode == 7) {
    SyncAll<false>();  // HARD-LINE
  } else if (t.mode == 8 && idx == 0) {
    SetFlag<HardEvent::V_MTE3>(1);
    SetFlag<HardEvent::V_MTE3>(1);  // SETFLAG-LINE
  } else if (t.mode == 9) {                             // in-block synchronisation and task-level no-ops
    WaitPreTaskEnd();
    TQueSync<PIPE_V, PIPE_MTE3> sync;
    Duplicate(work, idx, 64);
    sync.SetFlag(0);
    sync.WaitFlag(0);
    DataCopy(out[idx * 64], work, 64);
    DataSyncBarrier<MemDsbT::ALL>();
    DataSyncBarrier<MemDsbT::DDR>();
    DataSyncBarrier<MemDsbT::UB>();
    SetNextTaskStart();
  } else if (t.mode == 10 && idx == 0) {
    SyncAll(ws, work, 5);                               // more cores than the launch has
  } else if (t.mode == 12) {                            // 48 blocks on 40 cores: the later wave never comes
    IBWait(ws, work, 47, 0);
  } else if (t.mode == 13) {                            // the hard SyncAll, its config spelt out
    out.SetValue(idx, idx + 20);
    SyncAll<true, DEFAULT_SYNC_ALL_CONFIG>();
    out.SetValue(8 + idx, out.GetValue((idx + 1) % 4));
    SyncAll();
  } else if (t.mode == 14) {
    SyncAll<true, kMte3Trigger>();  // CONFIG-LINE
  }
}
"""

PARAMS = [("x", "input", "REQUIRED", "int32"), ("y", "output", "REQUIRED", "int32")]


@pytest.fixture(scope="module")
def sync_build(sim, make_project):
    build = sim.build(make_project("SyncCustom", "sync_custom", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, mode: int):
    y = np.zeros(256, np.int32)
    return sim.run(build, Launch(inputs=(TensorArg("x", "int32", np.zeros(256, np.int32)),),
                                 outputs=(TensorArg("y", "int32", y, shape=(256,)),), attrs={"mode": ("int", mode)}))


def line(marker: str) -> int:
    return next(i for i, text in enumerate(KERNEL.splitlines(), 1) if marker in text)


@pytest.mark.api("SyncAll")
def test_soft_sync_all_is_a_barrier_over_gm(sim, sync_build) -> None:
    result = run(sim, sync_build, 1)
    assert result.ok, result.message
    y = result.outputs["y"]
    assert y[:4].tolist() == [10, 11, 12, 13]
    assert y[8:12].tolist() == [11, 12, 13, 10]
    assert y[16:20].tolist() == [10, 11, 12, 13]


@pytest.mark.api("SyncAll")
def test_a_block_that_returns_before_the_barrier_hangs_the_others(sim, sync_build) -> None:
    """The documented protocol polls every block's slot: a block that returned never writes its own, so
    the others wait forever on the device; here a deadlock report names them and the line."""
    result = run(sim, sync_build, 2)
    assert not result.ok and not result.timed_out
    assert "deadlock" in result.message and f"waits in SyncAll at op_kernel/sync_custom.cpp:{line('SOFT-LINE')}" \
        in result.message


@pytest.mark.api("SyncAll")
def test_soft_sync_all_needs_a_zeroed_workspace(sim, sync_build) -> None:
    result = run(sim, sync_build, 3)
    assert not result.ok and "gmWorkspace must be initialised to 0" in result.message


@pytest.mark.api("SyncAll")
def test_soft_sync_all_used_cores_within_the_launch(sim, sync_build) -> None:
    result = run(sim, sync_build, 10)
    assert not result.ok and "usedCores 5 exceeds the 4 vector blocks" in result.message


@pytest.mark.api("SyncAll")
def test_sync_all_of_every_core_in_a_vector_only_kernel_hangs(sim, sync_build) -> None:
    result = run(sim, sync_build, 7)
    assert not result.ok and "SyncAll<false>() in a vector-only kernel" in result.message
    assert f"op_kernel/sync_custom.cpp:{line('HARD-LINE')}" in result.message


@pytest.mark.api("SyncAll")
def test_hard_sync_all_with_the_default_config_is_a_barrier(sim, sync_build) -> None:
    result = run(sim, sync_build, 13)
    assert result.ok, result.message
    y = result.outputs["y"]
    assert y[:4].tolist() == [20, 21, 22, 23] and y[8:12].tolist() == [21, 22, 23, 20]


@pytest.mark.api("SyncAll")
def test_sync_all_config_other_than_the_default_is_not_for_910b(sim, sync_build, tmp_path) -> None:
    """The config prototype is documented for other chips only: a config naming other pipes is reported at
    its line; pipes other than MTE2, MTE3 and ALL do not compile."""
    result = run(sim, sync_build, 14)
    assert not result.ok and "SyncAllConfig other than DEFAULT_SYNC_ALL_CONFIG" in result.message
    assert f"op_kernel/sync_custom.cpp:{line('CONFIG-LINE')}" in result.message
    bad = syntax_check('#include "kernel_operator.h"\nconstexpr AscendC::SyncAllConfig c = {PIPE_V, PIPE_ALL};\n'
                       "void f() { AscendC::SyncAll<true, c>(); }\n", tmp_path)
    assert not bad.ok and "config.triggerPipe and config.waitPipe are PIPE_MTE2, PIPE_MTE3 or PIPE_ALL" in bad.stderr


@pytest.mark.api("IBSet", "IBWait")
def test_ibset_releases_ibwait(sim, sync_build) -> None:
    result = run(sim, sync_build, 4)
    assert result.ok, result.message
    assert result.outputs["y"][:2].tolist() == [41, 42]
    hang = run(sim, sync_build, 5)
    assert not hang.ok and f"waits in IBWait at op_kernel/sync_custom.cpp:{line('IBWAIT-LINE')}" in hang.message
    waves = run(sim, sync_build, 12)
    assert not waves.ok and "IBWait: blockDim 48 exceeds the 40 vector cores" in waves.message


@pytest.mark.api("InitDetermineComputeWorkspace", "NotifyNextBlock", "WaitPreBlock")
def test_deterministic_order_of_blocks(sim, sync_build) -> None:
    result = run(sim, sync_build, 6)
    assert result.ok, result.message
    y = result.outputs["y"]
    assert y[:8].tolist() == [0, 1, 2, 3, 0, 1, 2, 3] and y[100] == 8


@pytest.mark.api("SetFlag/WaitFlag(ISASI)")
def test_a_second_set_flag_before_its_wait_is_reported(sim, sync_build) -> None:
    """Undefined by the documentation, done by hardware-checked kernels: a kernel warning naming the line."""
    result = run(sim, sync_build, 8)
    assert result.ok, result.message
    (warning,) = result.details["kernel_warnings"]
    assert "already set: SetFlag twice" in warning and f"sync_custom.cpp:{line('SETFLAG-LINE')}" in warning


@pytest.mark.api("核内同步/SetFlag/WaitFlag", "DataSyncBarrier(ISASI)", "SetNextTaskStart", "WaitPreTaskEnd")
def test_in_block_synchronisation(sim, sync_build) -> None:
    result = run(sim, sync_build, 9)
    assert result.ok, result.message
    y = result.outputs["y"]
    assert [int(y[b * 64 + 5]) for b in range(4)] == [0, 1, 2, 3]
