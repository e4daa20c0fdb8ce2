"""Cube group management (Atlas A2) through the real toolchain: a mixed launch of 3 AI cores whose AICs 1
and 2 form one CubeResGroupHandle serving 5 message queues (AIVs 0..4; AIC 1 gets queues 0..2, AIC 2
queues 3 and 4). Each message asks the serving AIC for one 16-row tile C = A_tile @ B, computed there
with the Matmul API; merged messages (PostFakeMsg + SetSkipMsg), polling Wait, quitting queues, the
GroupBarrier and the documented misuse are one mode each (attribute ``mode``). Written from the
pages under SIMD-API/基础API/cube_group_mgmt_ISASI."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

CORES = 3
TILES = 10                       # 16-row tiles of A / C: two per queue
HOST = r"""
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t mode = *ctx->GetAttrs()->GetInt(0);
  uint32_t* t = ctx->GetTilingData<uint32_t>();
  t[0] = static_cast<uint32_t>(mode);
  ctx->SetBlockDim(@CORES@);
  size_t* ws = ctx->GetWorkspaceSizes(1);
  ws[0] = 8192;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class CubeGroup : public OpDef {
 public:
  explicit CubeGroup(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CubeGroup);
}  // namespace ops
""".replace("@CORES@", str(CORES))

KERNEL = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;
struct ModeTiling { uint32_t mode; };

struct Msg {
  CubeGroupMsgHead head;
  uint8_t funcId;      // 0: one tile; 1: this tile and the next skipCnt queues' tiles (merged)
  uint8_t skipCnt;
  uint32_t tile;       // 16-row tile of A / C
  uint64_t a, b, c;    // GM addresses
  uint8_t pad[32];
};

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulShapeParams kShape = {16, 32, 32, 16, 32, 32};
constexpr MatmulConfig kCfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(kShape);
constexpr MatmulApiStaticTiling kTiling = GetMatmulApiTiling<AT, AT, CT, CT>(kCfg);
using MM = Matmul<AT, AT, CT, CT, kTiling>;

static uint32_t g_mode = 0;

static void Tile(MM& mm, const Msg* m, uint32_t tile) {
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(m->a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(m->b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(m->c));
  mm.SetTensorA(ga[tile * 16 * 32]);
  mm.SetTensorB(gb);
  mm.IterateAll(gc[tile * 16 * 32]);
}

template <class MatmulApiCfg, typename CubeMsgBody>
struct Serve {
  template <int32_t funcId>
  static typename IsEqual<funcId, 0>::Type Do(MatmulApiCfg& mm, __gm__ CubeMsgBody* msg,
                                              CubeResGroupHandle<CubeMsgBody>& handle) {
    Tile(mm, msg, msg->tile);
    if (g_mode != 3) handle.FreeMessage(msg);                 // mode 3: the callback forgets it
  }
  template <int32_t funcId>
  static typename IsEqual<funcId, 1>::Type Do(MatmulApiCfg& mm, __gm__ CubeMsgBody* msg,
                                              CubeResGroupHandle<CubeMsgBody>& handle) {
    for (uint32_t i = 0; i <= msg->skipCnt; ++i) Tile(mm, msg, msg->tile + i);
    handle.FreeMessage(msg, CubeMsgState::VALID);
    for (uint32_t i = 1; i <= msg->skipCnt; ++i) handle.FreeMessage(msg + i, CubeMsgState::FAKE);
    handle.SetSkipMsg(g_mode == 6 ? 3 : msg->skipCnt);      // mode 6: past the AIC's last queue
  }
  static void Call(MatmulApiCfg& mm, __gm__ CubeMsgBody* msg, CubeResGroupHandle<CubeMsgBody>& handle) {
    if (msg->funcId == 0) Do<0>(mm, msg, handle);
    else Do<1>(mm, msg, handle);
  }
  static void Init(Serve<MatmulApiCfg, CubeMsgBody>& self, MatmulApiCfg& mm, GM_ADDR tiling) {
    (void)self;
    (void)tiling;
    mm.Init(nullptr);
  }
};

extern "C" __global__ __aicore__ void cube_group(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  const uint32_t mode = t.mode;
  g_mode = mode;
  GlobalTensor<int32_t> gz, gw;
  gz.SetGlobalBuffer((__gm__ int32_t*)z);
  gw.SetGlobalBuffer((__gm__ int32_t*)workspace);
  TPipe pipe;
  // The message area must be cleared before the group uses it.
  if (mode != 11 && ASCEND_IS_AIV && GetBlockIdx() == 0) {
    for (int i = 0; i < 2048; ++i) gw.SetValue(i, 0);
  }
  SyncAll<false>();
  if (mode == 7 && ASCEND_IS_AIV) {     // REGIST_MATMUL_OBJ next to the group API
    MM other;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), other);
  }
  if (mode == 8 || mode == 9 || mode == 15) {     // GroupBarrier: AIVs 0, 1 arrive, AIVs 2..5 wait
    GroupBarrier<PipeMode::MTE3_MODE> bar(workspace + 4096, 2, 4);
    if (mode == 15) {
      if (ASCEND_IS_AIV && GetBlockIdx() == 0) gz.SetValue(0, static_cast<int32_t>(bar.GetWorkspaceLen()));
      return;
    }
    if ASCEND_IS_AIV {
      const uint32_t id = GetBlockIdx();
      for (int32_t round = 1; round <= 3; ++round) {
        if (id < 2) {
          gz.SetValue(id, round * 10 + static_cast<int32_t>(id));
          if (!(mode == 9 && id == 1 && round == 3)) bar.Arrive(id);
        } else {
          bar.Wait(id - 2);
          gz.SetValue(8 + (id - 2) * 4 + round, gz.GetValue(0) + gz.GetValue(1));
        }
        if (id < 2) {      // the next round's values wait for every waiter (a second barrier the other way,
                           // past the first one's GetWorkspaceLen() = 4 x 512 bytes)
          GroupBarrier<PipeMode::MTE3_MODE> back(workspace + 6144, 4, 2);
          back.Wait(id);
        } else {
          GroupBarrier<PipeMode::MTE3_MODE> back(workspace + 6144, 4, 2);
          back.Arrive(id - 2);
        }
      }
    }
    return;
  }
  if (mode == 14 || mode == 16) {     // KfcWorkspace managed by hand (the constructor form of the handle)
    KfcWorkspace desc(workspace);
    desc.UpdateKfcWorkspace(1024);
    if (ASCEND_IS_AIV && GetBlockIdx() == 0) gz.SetValue(0, static_cast<int32_t>(desc.GetKfcWorkspace() - workspace));
    desc.UpdateKfcWorkspace(512);
    if (ASCEND_IS_AIV && GetBlockIdx() == 0) gz.SetValue(1, static_cast<int32_t>(desc.GetKfcWorkspace() - workspace));
    CubeResGroupHandle<Msg> manual(desc.GetKfcWorkspace(), 2, 4, 5, 0);
    if (ASCEND_IS_AIV && GetBlockIdx() == 0) {
      manual.AssignQueue(0);
      Msg* first = manual.AllocMessage();
      gz.SetValue(2, static_cast<int32_t>(reinterpret_cast<GM_ADDR>(first) - workspace));
    }
    if (mode == 16) {
      auto bad = CreateCubeResGroup<2, MM, Serve, Msg>(desc, 2, 4, 5, tiling);
      (void)bad;
    }
    return;
  }
  KfcWorkspace desc(workspace);
  const uint8_t start = mode == 10 ? 1 : 2;
  auto handle = CreateCubeResGroup<1, MM, Serve, Msg>(desc, start, 4, 5, tiling);
  // From here on the cube cores only return (the AIV-side calls do nothing there).
  const uint32_t q = GetBlockIdx();
  if (ASCEND_IS_AIC) {
    handle.AssignQueue(0);
    Msg none{};
    handle.PostMessage(handle.AllocMessage(), none);
    return;
  }
  if (q >= 5 && mode != 5) return;
  if (mode == 13) handle.FreeMessage(nullptr);
  handle.AssignQueue(mode == 4 ? 5 : (mode == 5 && q == 5 ? 4 : q));
  for (uint32_t round = 0; round < 2; ++round) {
    Msg m{};
    m.head = {CubeMsgState::VALID, static_cast<uint8_t>(q)};
    m.tile = q + 5 * round;
    m.a = reinterpret_cast<uint64_t>(a);
    m.b = reinterpret_cast<uint64_t>(b);
    m.c = reinterpret_cast<uint64_t>(y);
    auto* slot = handle.AllocMessage();
    uint16_t off;
    if ((mode == 1 || mode == 6) && round == 1 && q < 3) {   // merged: queue 0 speaks for queues 1 and 2
      if (q == 0) {
        m.funcId = 1;
        m.skipCnt = 2;
        off = handle.PostMessage(slot, m);
      } else {
        off = handle.PostFakeMsg(slot);
      }
    } else {
      off = handle.PostMessage(slot, m);
    }
    gz.SetValue(q * 2 + round, off);
    if (mode == 12) handle.Wait(off + 1);
    if (round == 0) {
      handle.Wait(off);
    } else {
      uint32_t polls = 0;
      while (!handle.template Wait<false>(off)) ++polls;
      gz.SetValue(16 + q, polls > 0 ? 1 : 0);
    }
  }
  if (!(mode == 2 && q == 4)) handle.SetQuit(handle.AllocMessage());   // mode 2: queue 4 never quits
}
"""

PARAMS = [("a", "input", "REQUIRED", "float16"), ("b", "input", "REQUIRED", "float16"),
          ("y", "output", "REQUIRED", "float32"), ("z", "output", "REQUIRED", "int32")]


@pytest.fixture(scope="module")
def group_build(sim, make_project):
    build = sim.build(make_project("CubeGroup", "cube_group", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def _run(sim, build, mode: int, seed: int = 0):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (TILES * 16, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    y0 = np.zeros((TILES * 16, 32), np.float32)
    launch = Launch(inputs=(TensorArg("a", "float16", a), TensorArg("b", "float16", b)),
                    outputs=(TensorArg("y", "float32", y0), TensorArg("z", "int32", np.zeros(32, np.int32))),
                    attrs={"mode": ("int", mode)}, poison_seed=seed, timeout_s=120)
    return sim.run(build, launch), a.astype(np.float32) @ b.astype(np.float32)


@pytest.mark.api("KfcWorkspace/构造函数与析构函数", "CreateCubeResGroup", "AssignQueue", "AllocMessage", "PostMessage",
     "CubeResGroupHandle/Wait", "FreeMessage", "SetQuit")
@pytest.mark.parametrize("seed", [0, 1])
def test_group_serves_every_queue(sim, group_build, seed):
    result, ref = _run(sim, group_build, 0, seed)
    assert result.ok, result.message
    np.testing.assert_allclose(result.outputs["y"], ref, rtol=1e-5, atol=1e-5)
    z = result.outputs["z"]
    # PostMessage returns the message's offset from its queue's first message: row x queues of the AIC
    # (AIC 1 serves 3 queues, AIC 2 two).
    assert list(z[:10]) == [0, 3, 0, 3, 0, 3, 0, 2, 0, 2]
    assert result.details["cores"] == {"aic": CORES, "aiv": 2 * CORES}


@pytest.mark.api("PostFakeMsg", "SetSkipMsg", "FreeMessage")
def test_merged_messages(sim, group_build):
    result, ref = _run(sim, group_build, 1)
    assert result.ok, result.message
    np.testing.assert_allclose(result.outputs["y"], ref, rtol=1e-5, atol=1e-5)
    assert list(result.outputs["z"][:6]) == [0, 3, 0, 3, 0, 3]


def test_queue_that_never_quits_hangs(sim, group_build):
    result, _ = _run(sim, group_build, 2)
    assert not result.ok and "deadlock" in result.message
    assert "AIC 2 waits in the AIC server of a cube group (waiting for queue 4, message 2)" in result.message


def test_callback_that_never_frees_hangs(sim, group_build):
    result, _ = _run(sim, group_build, 3)
    assert not result.ok and "deadlock" in result.message
    assert "waits in Wait (queue 0, message 0 not processed yet)" in result.message


@pytest.mark.api("AssignQueue")
def test_assign_queue_checks(sim, group_build):
    result, _ = _run(sim, group_build, 4)
    assert not result.ok and "queueIdIn = 5 outside [0, msgQueueSize - 1 = 4]" in result.message
    result, _ = _run(sim, group_build, 5)
    assert not result.ok and "queue 4 is already bound to AIV" in result.message


@pytest.mark.api("SetSkipMsg")
def test_skip_never_crosses_a_row(sim, group_build):
    result, _ = _run(sim, group_build, 6)
    assert not result.ok and "skipCnt = 3 from queue 0 runs past the last queue of this AIC" in result.message


@pytest.mark.api("CreateCubeResGroup", "CubeResGroupHandle构造函数")
def test_group_constraints(sim, group_build):
    result, _ = _run(sim, group_build, 7)
    assert not result.ok and "REGIST_MATMUL_OBJ" in result.message
    result, _ = _run(sim, group_build, 10)
    assert not result.ok and "blockStart = 1 and blockSize = 4 must be even" in result.message
    result, _ = _run(sim, group_build, 11)
    assert not result.ok and "was not cleared" in result.message


@pytest.mark.api("GroupBarrier构造函数", "Arrive", "GroupBarrier/Wait", "GetWorkspaceLen")
def test_group_barrier(sim, group_build):
    result, _ = _run(sim, group_build, 8)
    assert result.ok, result.message
    z = result.outputs["z"]
    for w in range(4):   # waiter w saw both arrivers' values of every round: 10r + 0 + 10r + 1
        assert list(z[8 + w * 4 + 1: 8 + w * 4 + 4]) == [21, 41, 61]
    result, _ = _run(sim, group_build, 9)
    assert not result.ok and "deadlock" in result.message and "GroupBarrier::Wait (round 3" in result.message
    result, _ = _run(sim, group_build, 15)
    assert result.ok, result.message
    assert result.outputs["z"][0] == 4 * 512          # 512 bytes per Wait-group member


@pytest.mark.api("CubeResGroupHandle/Wait", "FreeMessage")
def test_wait_and_free_checks(sim, group_build):
    result, _ = _run(sim, group_build, 12)
    assert not result.ok and "offset 1 is no message of this queue" in result.message
    result, _ = _run(sim, group_build, 13)
    assert not result.ok and "an AIC-side call" in result.message


@pytest.mark.api("UpdateKfcWorkspace", "GetKfcWorkspace", "CubeResGroupHandle构造函数")
def test_kfc_workspace_by_hand(sim, group_build):
    result, _ = _run(sim, group_build, 14)
    assert result.ok, result.message
    assert list(result.outputs["z"][:3]) == [1024, 1536, 1536]   # queue 0's first message opens the area
    result, _ = _run(sim, group_build, 16)
    assert not result.ok
    assert "CreateCubeResGroup: not with UpdateKfcWorkspace / GetKfcWorkspace" in result.message


# ---- the pages' examples ------------------------------------------------------------------------------
# A mixed launch of 4 AI cores (AIVs 0..7) running the examples of the pages under cube_group_mgmt_ISASI
# as written there: the usage guide's message struct (the PostMessage / Wait pages name it
# AscendC::CubeMsgBody, so it is declared in that namespace) and callback, one group of AIC 0 serving the
# 6 queues of AIVs 0..5 (AIV 0's message stands for queues 0..3, whose AIVs post fake messages; then a
# polled round and SetQuit), the constructor form of the handle on a KfcWorkspace managed by hand, and
# the GroupBarrier pages' 2-arrive / 6-wait barrier. Where a page's example does not compile as printed
# (the usage guide reads `rcvMsg->funcId` of a struct whose field is `funcID`; the constructor page
# calls `CubeResGroupHandle<MatmulApiType, MyCallbackFunc, CubeMsgBody>(desc.GetMsgStart(), ...)`, neither
# of which its own prototypes declare), the documented prototype is followed.
DOC_CORES = 4
DOC_HOST = HOST.replace("CubeGroup", "CubeGroupDoc").replace("ws[0] = 8192;", "ws[0] = 16384;").replace(
    f"SetBlockDim({CORES})", f"SetBlockDim({DOC_CORES})")

DOC_KERNEL = r"""
#include "kernel_operator.h"
#include <type_traits>
using namespace AscendC;
struct ModeTiling { uint32_t mode; };

namespace AscendC {
struct CubeMsgBody {
   CubeGroupMsgHead head;
   uint8_t funcID;
   uint8_t skipCnt;
   uint32_t value;
   bool isTransA;
   bool isTransB;
   bool isAtomic;
   bool isLast;
   int32_t tailM;
   int32_t tailN;
   int32_t tailK;
   uint64_t aAddr;
   uint64_t bAddr;
   uint64_t cAddr;
   uint64_t aGap;
   uint64_t bGap;
};
}  // namespace AscendC
static_assert(sizeof(CubeMsgBody) == 64, "the usage guide's message is 64 bytes");

// The documented prototypes, exactly.
using Handle = CubeResGroupHandle<CubeMsgBody>;
using Bar = GroupBarrier<PipeMode::MTE3_MODE>;
static_assert(std::is_same<decltype(&Handle::AssignQueue), void (Handle::*)(uint8_t)>::value, "AssignQueue");
static_assert(std::is_same<decltype(&Handle::AllocMessage<PipeMode::MTE3_MODE>),
                           __gm__ CubeMsgBody* (Handle::*)()>::value, "AllocMessage");
static_assert(std::is_same<decltype(&Handle::PostMessage<PipeMode::SCALAR_MODE>),
                           uint16_t (Handle::*)(__gm__ CubeMsgBody*, CubeMsgBody&)>::value, "PostMessage");
static_assert(std::is_same<decltype(&Handle::PostFakeMsg), uint16_t (Handle::*)(__gm__ CubeMsgBody*)>::value,
              "PostFakeMsg");
static_assert(std::is_same<decltype(&Handle::SetQuit), void (Handle::*)(__gm__ CubeMsgBody*)>::value, "SetQuit");
static_assert(std::is_same<decltype(&Handle::Wait<false>), bool (Handle::*)(uint16_t)>::value, "Wait");
static_assert(std::is_same<decltype(static_cast<uint16_t (Handle::*)(__gm__ CubeMsgBody*)>(&Handle::FreeMessage)),
                           uint16_t (Handle::*)(__gm__ CubeMsgBody*)>::value, "FreeMessage");
using FreeWait = uint16_t (Handle::*)(__gm__ CubeMsgBody*, CubeMsgState);
static_assert(std::is_same<decltype(static_cast<FreeWait>(&Handle::FreeMessage)), FreeWait>::value, "FreeMessage");
static_assert(std::is_same<decltype(&Handle::SetSkipMsg), void (Handle::*)(uint8_t)>::value, "SetSkipMsg");
static_assert(std::is_same<decltype(&Bar::Arrive), void (Bar::*)(uint32_t)>::value, "Arrive");
static_assert(std::is_same<decltype(&Bar::Wait), void (Bar::*)(uint32_t)>::value, "GroupBarrier::Wait");
static_assert(std::is_same<decltype(&Bar::GetWorkspaceLen), uint64_t (Bar::*)()>::value, "GetWorkspaceLen");
static_assert(std::is_same<decltype(&KfcWorkspace::UpdateKfcWorkspace), void (KfcWorkspace::*)(uint32_t)>::value,
              "UpdateKfcWorkspace");
static_assert(std::is_same<decltype(&KfcWorkspace::GetKfcWorkspace), GM_ADDR (KfcWorkspace::*)()>::value, "Get");
static_assert(std::is_default_constructible<Handle>::value && !std::is_default_constructible<KfcWorkspace>::value,
              "constructors");

// Step 1: the AIC's compute object (a user-defined type).
struct MatmulApiType { uint32_t calls; };

// Step 4: the callback (CubeResGroupHandle使用说明; FreeMessage and SetSkipMsg pages). The callback writes
// each message's value at cAddr[aivID] (the merged one also for the skipped queues) and counts its calls.
template<class MatmulApiCfg, typename CubeMsgBody>
struct MyCallbackFunc
{
    template<int32_t funcId>
    __aicore__ inline static typename IsEqual<funcId, 0>::Type CubeGroupCallBack(
        MatmulApiCfg &mm, __gm__ CubeMsgBody *rcvMsg, CubeResGroupHandle<CubeMsgBody> &handle)
    {
        GlobalTensor<int64_t> msgGlobal;
        msgGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *> (rcvMsg) + sizeof(int64_t));
        DataCacheCleanAndInvalid<int64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT> (msgGlobal);
        Record(mm, rcvMsg, 0);
        auto skipNum = 0;
        for (int i = 0; i < skipNum + 1; ++i)
        {
            auto tmpId = handle.FreeMessage(rcvMsg + i); // msgPtr process is complete
            (void)tmpId;
        }
        handle.SetSkipMsg(skipNum);
    }
    template<int32_t funcId>
    __aicore__ inline static typename IsEqual<funcId, 1>::Type CubeGroupCallBack(
        MatmulApiCfg &mm, __gm__ CubeMsgBody *rcvMsg, CubeResGroupHandle<CubeMsgBody> &handle)
    {
        GlobalTensor<int64_t> msgGlobal;
        msgGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *> (rcvMsg) + sizeof(int64_t));
        DataCacheCleanAndInvalid<int64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT> (msgGlobal);
        auto skipNum = 3;
        Record(mm, rcvMsg, skipNum);
        auto tmpId = handle.FreeMessage(rcvMsg, CubeMsgState::VALID);
        for (int i = 1; i < skipNum + 1; ++i)
        {
            auto tmpId = handle.FreeMessage(rcvMsg + i, CubeMsgState::FAKE);
            (void)tmpId;
        }
        (void)tmpId;
        handle.SetSkipMsg(skipNum); // notify the cube not to process
    }
    __aicore__ inline static void Call(MatmulApiCfg &mm, __gm__ CubeMsgBody *rcvMsg,
                                       CubeResGroupHandle<CubeMsgBody> &handle)
    {
        if (rcvMsg->funcID == 0)
        {
            CubeGroupCallBack<0> (mm, rcvMsg, handle);
        }
        else if(rcvMsg->funcID == 1)
        {
            CubeGroupCallBack<1> (mm, rcvMsg, handle);
        }
    }
    __aicore__ inline static void Init(MyCallbackFunc<MatmulApiCfg, CubeMsgBody> &foo, MatmulApiCfg &mm,
                                       GM_ADDR tilingGM)
    {
        auto tempTilingGM = (__gm__ uint32_t*)tilingGM;
        foo.tiling = *tempTilingGM;
        mm.calls = 0;
    }
    static void Record(MatmulApiCfg &mm, __gm__ CubeMsgBody *rcvMsg, int skipNum)
    {
        auto* out = reinterpret_cast<__gm__ int32_t*>(rcvMsg->cAddr);
        for (int i = 0; i <= skipNum; ++i) out[rcvMsg->head.aivID + i] = static_cast<int32_t>(rcvMsg->value);
        mm.calls += 1;
        reinterpret_cast<__gm__ int32_t*>(rcvMsg->aAddr)[6] = static_cast<int32_t>(mm.calls);
    }
    uint32_t tiling;
};

extern "C" __global__ __aicore__ void cube_group_doc(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  (void)a;
  (void)b;
  (void)y;
  GlobalTensor<int32_t> gz, gw;
  gz.SetGlobalBuffer((__gm__ int32_t*)z);
  gw.SetGlobalBuffer((__gm__ int32_t*)workspace);
  // "创建KfcWorkspace对象前，需要对该workspaceGM清零" (the barriers' space too)
  if (ASCEND_IS_AIV && GetBlockIdx() == 0) {
    for (int i = 0; i < 4096; ++i) gw.SetValue(i, 0);
  }
  SyncAll<false>();
  GM_ADDR workspaceGM = workspace;
  GM_ADDR tilingGM = tiling;

  // Steps 2 and 5: KfcWorkspace, CreateCubeResGroup (AIC 0, 6 queues); AIC 0 serves until every queue quit.
  AscendC::KfcWorkspace desc(workspaceGM);
  auto handle = AscendC::CreateCubeResGroup<1, MatmulApiType, MyCallbackFunc, CubeMsgBody> (desc, 0, 2, 6, tilingGM);
  if ASCEND_IS_AIC {
    return;
  }
  auto queIdx = AscendC::GetBlockIdx();
  if (queIdx < 6) {
    // Step 6 (AssignQueue) and step 7 (AllocMessage, PostMessage, PostFakeMsg, Wait).
    handle.AssignQueue(queIdx);
    CubeGroupMsgHead head = {CubeMsgState::VALID, (uint8_t)queIdx};
    CubeMsgBody aCubeMsgBody {head, 0, 0, 0, false, false, false, false, 0, 0, 0, 0, 0, 0, 0, 0};
    CubeMsgBody bCubeMsgBody {head, 1, 0, 0, false, false, false, false, 0, 0, 0, 0, 0, 0, 0, 0};
    aCubeMsgBody.value = 100 + queIdx;
    bCubeMsgBody.value = 200;
    aCubeMsgBody.aAddr = bCubeMsgBody.aAddr = aCubeMsgBody.cAddr = bCubeMsgBody.cAddr = reinterpret_cast<uint64_t>(z);
    auto offset = 0;
    bool waitState = false;
    if (GetBlockIdx() == 0)
    {
        auto msgPtr = handle.template AllocMessage(); // alloc for queue space
        offset = handle.template PostMessage(msgPtr, bCubeMsgBody); // post true msgPtr
        waitState = handle.template Wait<true> (offset); // wait until the msgPtr is processed
    }
    else if (GetBlockIdx() < 4)
    {
        auto msgPtr = handle.AllocMessage();
        offset = handle.PostFakeMsg(msgPtr); // post fake msgPtr
        waitState = handle.template Wait<true> (offset); // wait until the msgPtr is processed
    }
    else
    {
        auto msgPtr = handle.template AllocMessage();
        offset = handle.template PostMessage(msgPtr, aCubeMsgBody);
        waitState = handle.template Wait<true> (offset); // wait until the msgPtr is processed
    }
    // The Wait page: a second message, polled with Wait<false>.
    AscendC::CubeGroupMsgHead headA = {AscendC::CubeMsgState::VALID, (uint8_t)queIdx};
    AscendC::CubeMsgBody msgA = {headA, 0, 0, 0, false, false, false, false, 0, 0, 0, 0, 0, 0, 0, 0};
    msgA.value = 300 + queIdx;
    msgA.aAddr = reinterpret_cast<uint64_t>(z);
    msgA.cAddr = reinterpret_cast<uint64_t>(z + 24 * sizeof(int32_t));
    auto msgPtr = handle.AllocMessage();
    auto offset2 = handle.PostMessage(msgPtr, msgA);
    gz.SetValue(8 + queIdx, offset2);
    bool done = handle.template Wait<false>(offset2);
    while (!done) done = handle.template Wait<false>(offset2);
    gz.SetValue(32 + queIdx, (waitState ? 1 : 0) + (done ? 2 : 0));
    // Step 8: leave the queue.
    auto quitPtr = handle.AllocMessage();        // 获取消息空间指针msgPtr
    handle.SetQuit(quitPtr);              // 发送退出消息
  }

  // The KfcWorkspace pages and the constructor page: a workspace managed by hand.
  {
    AscendC::KfcWorkspace desc(workspaceGM + 4096);
    desc.UpdateKfcWorkspace(1024);
    GM_ADDR ws = desc.GetKfcWorkspace();
    uint8_t blockStart = 4;
    uint8_t blockSize = 4;
    uint8_t msgQueueSize = 10;
    uint8_t evtIDIn = 0; //用户自行管理事件ID
    AscendC::CubeResGroupHandle<CubeMsgBody> handle;
    handle = AscendC::CubeResGroupHandle<CubeMsgBody>(desc.GetKfcWorkspace(), blockStart, blockSize, msgQueueSize,
                                                      evtIDIn);
    if (GetBlockIdx() == 0) {
      gz.SetValue(40, static_cast<int32_t>(ws - workspaceGM));
      handle.AssignQueue(0);
      auto first = handle.AllocMessage();
      gz.SetValue(41, static_cast<int32_t>(reinterpret_cast<GM_ADDR>(first) - workspaceGM));
    }
  }

  // The GroupBarrier pages.
  constexpr int32_t ARRIVE_NUM = 2; // Arrive组的AIV个数
  constexpr int32_t WAIT_NUM = 6; // Wait组的AIV个数
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barA(workspaceGM + 8192, ARRIVE_NUM, WAIT_NUM);
  auto id = static_cast<int32_t>(AscendC::GetBlockIdx());
  if (id >= 0 && id < ARRIVE_NUM) {
    gz.SetValue(48 + id, 7 + id);
    barA.Arrive(id);
  } else if(id >= ARRIVE_NUM && id < ARRIVE_NUM + WAIT_NUM){
    barA.Wait(id - ARRIVE_NUM);
    gz.SetValue(50 + id - ARRIVE_NUM, gz.GetValue(48) * 100 + gz.GetValue(49));
  }
  if (id == 0) {
    GM_ADDR startAddr = workspaceGM + 12288;
    AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barA(startAddr, 3, 6);
    uint64_t offset = barA.GetWorkspaceLen(); // 返回barA所占用的GlobalMemory空间。
    gz.SetValue(56, static_cast<int32_t>(offset));
  }
}
"""


@pytest.mark.api("CubeResGroupHandle构造函数", "CreateCubeResGroup", "AssignQueue", "AllocMessage", "PostMessage",
                 "PostFakeMsg", "SetQuit", "CubeResGroupHandle/Wait", "FreeMessage", "SetSkipMsg",
                 "GroupBarrier构造函数", "Arrive", "GroupBarrier/Wait", "GetWorkspaceLen",
                 "KfcWorkspace/构造函数与析构函数", "UpdateKfcWorkspace", "GetKfcWorkspace")
def test_documented_examples(sim, make_project):
    build = sim.build(make_project("CubeGroupDoc", "cube_group_doc", DOC_HOST, DOC_KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    launch = Launch(inputs=(TensorArg("a", "float16", np.zeros((16, 32), np.float16)),
                            TensorArg("b", "float16", np.zeros((32, 32), np.float16))),
                    outputs=(TensorArg("y", "float32", np.zeros((16, 32), np.float32)),
                             TensorArg("z", "int32", np.zeros(64, np.int32))),
                    attrs={"mode": ("int", 5)}, timeout_s=120)
    result = sim.run(build, launch)
    assert result.ok, result.message
    assert result.details["cores"] == {"aic": DOC_CORES, "aiv": 2 * DOC_CORES}
    z = result.outputs["z"]
    # Round 1: AIV 0's message (funcID 1, skipping the 3 fake ones) answers queues 0..3; queues 4, 5 their own.
    assert list(z[:6]) == [200, 200, 200, 200, 104, 105]
    assert z[6] == 3 + 6                      # callback calls: 3 messages in round 1 (3 fakes skipped), 6 in round 2
    assert list(z[24:30]) == [300 + q for q in range(6)]
    assert list(z[8:14]) == [6] * 6           # the second message of a queue: row 1 of AIC 0's 6 queues
    assert list(z[32:38]) == [3] * 6          # Wait<true> and the polled Wait<false> both saw it processed
    assert z[40] == 4096 + 1024               # UpdateKfcWorkspace(1024) moved GetKfcWorkspace's address
    assert z[41] == 4096 + 1024               # the constructor's area starts there: queue 0's first message
    assert list(z[48:50]) == [7, 8]
    assert list(z[50:56]) == [708] * 6        # every waiter saw both arrivers' values
    assert z[56] == 6 * 512                   # the GetWorkspaceLen page: 3072
