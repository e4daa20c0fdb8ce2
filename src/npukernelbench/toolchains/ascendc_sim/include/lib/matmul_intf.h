// lib/matmul_intf.h -- the Matmul high-level API (matmul::Matmul, MatmulType, MatmulConfig,
// REGIST_MATMUL_OBJ) as seen by kernels built with ascendc-sim. Clean-room implementation written from
// the public API documentation.
//
// Model: in a mixed kernel the vector cores (AIV) drive the Matmul objects and the cube core (AIC) of
// their AI core serves them; REGIST_MATMUL_OBJ returns on the AIC, as the real library's server does
// once its clients end. The simulator computes each request synchronously on the calling core (fp32
// accumulation, or int32 for 8-bit inputs, in increasing k order) and charges the cube time to the
// AIC of that core (two AIVs share it); the AIV waits for the result at the synchronous calls or at
// WaitIterateAll. In a cube-only kernel the AIC computes and is charged itself. The tiling
// (TCubeTiling) is checked against the cube core's L1/L0 capacities at Init.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/cube_engine.h"

enum class CubeFormat : std::uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode : std::uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode : std::uint8_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder : std::uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : std::uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class IterateMode : std::uint8_t { ITERATE_MODE_NORMAL = 1, ITERATE_MODE_ALL = 2, ITERATE_MODE_BATCH = 4,
                                        ITERATE_MODE_N_BATCH = 8, ITERATE_MODE_DEFAULT = 255 };
enum class MatmulVersion : std::uint8_t { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };

struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  std::uint32_t basicM = 0;
  std::uint32_t basicN = 0;
  std::uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  std::uint32_t doMTE2Preload = 0;
  std::uint32_t singleCoreM = 0;
  std::uint32_t singleCoreN = 0;
  std::uint32_t singleCoreK = 0;
  std::uint32_t stepM = 0;
  std::uint32_t stepN = 0;
  std::uint32_t baseMN = 0;
  std::uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  std::uint8_t iterateMode = static_cast<std::uint8_t>(IterateMode::ITERATE_MODE_DEFAULT);
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
};

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, std::uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false) {
  MatmulConfig c{};
  c.doNorm = false;
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           std::uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.doSpecialMDL = true;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doNorm = false;
  c.doIBShareNorm = true;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig GetBasicConfig(std::uint32_t basicM, std::uint32_t basicN, std::uint32_t basicK,
                                      bool intrinsicsLimit = false, bool batchLoop = false,
                                      BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

namespace matmul {

// The library's namespace sees the whole AscendC API, so a kernel's `using namespace matmul;` brings it
// too (real kernels call GetSysWorkSpacePtr() and friends unqualified after only that directive).
using namespace AscendC;
using AscendC::TPosition;

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

template <void (*DataCopyOut)(const __gm__ void*, const std::uint32_t*, const void*) = nullptr,
          void (*CopyA1)(const void*, const __gm__ void*, int, int, int, int, int, int) = nullptr,
          void (*CopyB1)(const void*, const __gm__ void*, int, int, int, int, int, int) = nullptr>
struct MatmulCallBackFunc {};

namespace sim {

template <typename T>
constexpr npukb::CubeInput input_of() {
  if constexpr (std::is_same_v<T, half>) return npukb::CubeInput::F16;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return npukb::CubeInput::BF16;
  else if constexpr (std::is_same_v<T, float>) return npukb::CubeInput::F32;
  else if constexpr (std::is_same_v<T, std::int8_t>) return npukb::CubeInput::S8;
  else return npukb::CubeInput::U8;
}

constexpr bool is_ub(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }

// Where an operand lives: GM (a pointer into a GM tensor) or a local tensor (UB, ND).
struct Operand {
  const void* ptr = nullptr;
  bool gm = true;
  bool set = false;
};

struct ServerCost {
  double cube = 0.0, mte2 = 0.0, fix = 0.0;
  std::uint64_t read = 0, written = 0;
};

// Charge one Matmul request; returns the time its result is ready (cycles of the requester's clock).
inline double charge(const ServerCost& c) {
  npukb::kern::KState& s = npukb::kern::state();
  s.issue += npukb::kern::kIssueCycles;
  const double span = std::max(c.cube, std::max(c.mte2, c.fix)) + 200.0;   // pipes overlap; fill/drain latency
  npukb::BlockState* aic = npukb::cube_partner();
  if (aic != nullptr) {                      // AIV client: the AIC of this core serves requests in order
    const double start = std::max(s.issue, aic->server_until);
    const double end = start + span;
    aic->server_until = end;
    aic->finish_cycles = std::max(aic->finish_cycles, end);
    aic->pipe_cycles[npukb::PIPE_ID_M] += c.cube;
    aic->pipe_cycles[npukb::PIPE_ID_MTE2] += c.mte2;
    aic->pipe_cycles[npukb::PIPE_ID_FIX] += c.fix;
    aic->gm_read_bytes += c.read;
    aic->gm_write_bytes += c.written;
    return end;
  }
  const double start = std::max(s.issue, std::max(s.pipe[npukb::PIPE_ID_M], s.pipe[npukb::PIPE_ID_FIX]));
  const double end = start + span;
  s.pipe[npukb::PIPE_ID_M] = s.pipe[npukb::PIPE_ID_MTE2] = s.pipe[npukb::PIPE_ID_FIX] = end;
  s.blk->pipe_cycles[npukb::PIPE_ID_M] += c.cube;
  s.blk->pipe_cycles[npukb::PIPE_ID_MTE2] += c.mte2;
  s.blk->pipe_cycles[npukb::PIPE_ID_FIX] += c.fix;
  s.blk->gm_read_bytes += c.read;
  s.blk->gm_write_bytes += c.written;
  npukb::kern::publish(s);
  return end;
}

inline void wait_until(double t) {
  npukb::kern::KState& s = npukb::kern::state();
  s.issue = std::max(s.issue, t);
  npukb::kern::publish(s);
}

}  // namespace sim

template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, typename C_TYPE::T>,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>, class... Rest>
class Matmul {
 public:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = std::conditional_t<std::is_same_v<SrcAT, std::int8_t> || std::is_same_v<SrcAT, std::uint8_t>, std::int32_t, float>;

  static_assert(std::is_same_v<SrcAT, SrcBT>, "Matmul: A and B must have the same element type");
  static_assert(std::is_same_v<SrcAT, half> || std::is_same_v<SrcAT, bfloat16_t> || std::is_same_v<SrcAT, float> ||
                    std::is_same_v<SrcAT, std::int8_t>,
                "Matmul: A/B types supported here: half, bfloat16_t, float, int8_t");
  static_assert((std::is_same_v<L0cT, float> && (std::is_same_v<DstT, float> || std::is_same_v<DstT, half> ||
                                                  std::is_same_v<DstT, bfloat16_t>)) ||
                    (std::is_same_v<L0cT, std::int32_t> && (std::is_same_v<DstT, std::int32_t> || std::is_same_v<DstT, half> ||
                                                            std::is_same_v<DstT, std::int8_t>)),
                "Matmul: unsupported C type for these inputs (half/bfloat16/float inputs give float, half or bfloat16_t; "
                "int8 inputs give int32_t, or half / int8_t with SetQuantScalar / SetQuantVector)");
  static_assert(A_TYPE::pos == TPosition::GM || sim::is_ub(A_TYPE::pos), "Matmul: A must be in GM or UB (VECIN/VECOUT/VECCALC)");
  static_assert(B_TYPE::pos == TPosition::GM || sim::is_ub(B_TYPE::pos), "Matmul: B must be in GM or UB (VECIN/VECOUT/VECCALC)");
  static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND,
                "Matmul: the simulator supports ND-format A and B");

  Matmul() = default;

  void Init(const TCubeTiling* cubeTiling, AscendC::TPipe* tpipe = nullptr) { NPUKB_CALLER;
    (void)tpipe;
    if (cubeTiling == nullptr) npukb::violation("Matmul::Init", "the tiling pointer is null", file, line);
    tiling_ = *cubeTiling;
    check_tiling(file, line);
    inited_ = true;
    org_m_ = tiling_.M;
    org_n_ = tiling_.N;
    org_ka_ = tiling_.Ka;
    org_kb_ = tiling_.Kb;
    org_kc_ = 0;
    single_m_ = tiling_.singleCoreM > 0 ? tiling_.singleCoreM : tiling_.M;
    single_n_ = tiling_.singleCoreN > 0 ? tiling_.singleCoreN : tiling_.N;
    single_k_ = tiling_.singleCoreK > 0 ? tiling_.singleCoreK : tiling_.Ka;
    bias_enabled_ = tiling_.isBias != 0;
    reset_iteration();
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, 0); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
    org_kb_ = orgKb;
    org_kc_ = orgKc;
  }
  void SetSingleShape(int singleM, int singleN, int singleK) {
    single_m_ = singleM;
    single_n_ = singleN;
    single_k_ = singleK;
    reset_iteration();
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) single_m_ = tailM;
    if (tailN > 0) single_n_ = tailN;
    if (tailK > 0) single_k_ = tailK;
    reset_iteration();
  }

  void SetTensorA(const AscendC::GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    a_ = {gm.GetPhyAddr(), true, true};
    trans_a_ = isTransposeA;
    reset_iteration();
  }
  void SetTensorA(const AscendC::LocalTensor<SrcAT>& local, bool isTransposeA = false) {
    a_ = {local.ptr(), false, true};
    a_local_elems_ = local.GetSize();
    trans_a_ = isTransposeA;
    reset_iteration();
  }
  void SetTensorB(const AscendC::GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    b_ = {gm.GetPhyAddr(), true, true};
    trans_b_ = isTransposeB;
    reset_iteration();
  }
  void SetTensorB(const AscendC::LocalTensor<SrcBT>& local, bool isTransposeB = false) {
    b_ = {local.ptr(), false, true};
    b_local_elems_ = local.GetSize();
    trans_b_ = isTransposeB;
    reset_iteration();
  }
  void SetBias(const AscendC::GlobalTensor<BiasT>& gm) {
    bias_ = {gm.GetPhyAddr(), true, true};
    bias_enabled_ = true;
  }
  void SetBias(const AscendC::LocalTensor<BiasT>& local) {
    bias_ = {local.ptr(), false, true};
    bias_enabled_ = true;
  }
  void DisableBias() { bias_enabled_ = false; }
  void ClearBias() { bias_enabled_ = false; }
  void SetQuantScalar(std::uint64_t quantScalar) {
    quant_scalar_ = AscendC::sim::quant_scale(quantScalar);
    quant_vector_ = nullptr;
  }
  void SetQuantVector(const AscendC::GlobalTensor<std::uint64_t>& quantTensor) { quant_vector_ = quantTensor.GetPhyAddr(); }
  void SetWorkspace(__gm__ const std::uint8_t*, int) {}
  template <class T>
  void SetWorkspace(const AscendC::GlobalTensor<T>&) {}
  void SetLocalWorkspace(const AscendC::LocalTensor<std::uint8_t>&) {}
  void SetSubBlockIdx(std::uint8_t) {}
  void SetHF32(bool, std::int32_t = 0) {}
  void SetBatchNum(std::int32_t batchA, std::int32_t batchB) {
    batch_a_ = batchA;
    batch_b_ = batchB;
  }

  // Whole single-core result to GM (ND, row stride orgN or orgKc); enAtomic 1 adds into GM.
  template <bool sync = true>
  void IterateAll(const AscendC::GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    require_ready("Matmul::IterateAll", file, line);
    const double end = compute_to_gm(gm.GetPhyAddr(), 0, 0, single_m_, single_n_, enAtomic, file, line);
    finish(end, sync);
  }
  template <bool sync = true>
  void IterateAll(const AscendC::LocalTensor<DstT>& ub, std::uint8_t enAtomic = 0) { NPUKB_CALLER;
    require_ready("Matmul::IterateAll", file, line);
    // In UB the result is ND with rows padded to whole 32-byte blocks.
    constexpr int c0 = static_cast<int>(32 / sizeof(DstT));
    const int stride = (single_n_ + c0 - 1) / c0 * c0;
    const double end = compute_to_local(ub, 0, 0, single_m_, single_n_, stride, enAtomic, file, line);
    finish(end, sync);
  }
  void WaitIterateAll() { sim::wait_until(pending_); }

  // One baseM x baseN block per call (all of K); false when every block was produced.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) { NPUKB_CALLER;
    (void)enPartialSum;
    require_ready("Matmul::Iterate", file, line);
    const int bm = std::max(1, tiling_.baseM), bn = std::max(1, tiling_.baseN);
    const int mblocks = (single_m_ + bm - 1) / bm, nblocks = (single_n_ + bn - 1) / bn;
    if (next_block_ >= mblocks * nblocks) return false;
    const bool order_n = tiling_.iterateOrder == 1;
    cur_m_ = order_n ? next_block_ / nblocks : next_block_ % mblocks;
    cur_n_ = order_n ? next_block_ % nblocks : next_block_ / mblocks;
    ++next_block_;
    have_block_ = true;
    return true;
  }
  template <bool sync = true>
  void GetTensorC(const AscendC::GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0, bool enSequentialWrite = false) { NPUKB_CALLER;
    require_block("Matmul::GetTensorC", file, line);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    if (enSequentialWrite) {   // blocks written one after the other, each [baseM, baseN] dense
      const double end = compute_to_gm_dense(gm.GetPhyAddr(), m0, n0, bm, bn, tiling_.baseN, enAtomic, file, line);
      finish(end, sync);
    } else {
      const double end = compute_to_gm(gm.GetPhyAddr(), m0, n0, bm, bn, enAtomic, file, line);
      finish(end, sync);
    }
  }
  template <bool sync = true>
  void GetTensorC(const AscendC::LocalTensor<DstT>& ub, std::uint8_t enAtomic = 0, bool enSequentialWrite = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    require_block("Matmul::GetTensorC", file, line);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    const double end = compute_to_local(ub, m0, n0, bm, bn, tiling_.baseN, enAtomic, file, line);
    finish(end, sync);
  }
  template <bool sync = true>
  void GetTensorC(const AscendC::GlobalTensor<DstT>& gm, const AscendC::LocalTensor<DstT>& ub, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) { NPUKB_CALLER;
    GetTensorC<sync>(ub, enAtomic, enSequentialWrite);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    const double end = compute_to_gm(gm.GetPhyAddr(), m0, n0, bm, bn, enAtomic, file, line);
    finish(end, sync);
  }

  void End() {
    reset_iteration();
    a_ = {};
    b_ = {};
    bias_ = {};
  }

 private:
  void check_tiling(const char* file, int line) const {
    const TCubeTiling& t = tiling_;
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0) {
      npukb::violation("Matmul::Init", "tiling baseM/baseN/baseK must be positive (got " + npukb::kern::num(t.baseM) + ", " +
                       npukb::kern::num(t.baseN) + ", " + npukb::kern::num(t.baseK) + "): fill it with MatmulApiTiling::GetTiling",
                       file, line);
    }
    const long long sa = sizeof(SrcAT), sc = sizeof(L0cT);
    const long long l0a = static_cast<long long>(t.baseM) * t.baseK * sa * std::max(1, t.dbL0A);
    const long long l0b = static_cast<long long>(t.baseK) * t.baseN * sa * std::max(1, t.dbL0B);
    const long long l0c = static_cast<long long>(t.baseM) * t.baseN * sc * std::max(1, t.dbL0C);
    const long long l1 = static_cast<long long>(std::max(1, t.depthA1)) * t.baseM * t.baseK * sa +
                         static_cast<long long>(std::max(1, t.depthB1)) * t.baseK * t.baseN * sa +
                         (t.isBias ? static_cast<long long>(t.baseN) * sizeof(BiasT) : 0);
    auto over = [&](const char* buf, long long need, long long have) {
      if (need > have) {
        npukb::violation("Matmul::Init", std::string(buf) + " overflow: the tiling needs " + npukb::kern::num(need) +
                         " bytes of " + buf + " but the cube core has " + npukb::kern::num(have) + " (baseM=" +
                         npukb::kern::num(t.baseM) + ", baseN=" + npukb::kern::num(t.baseN) + ", baseK=" +
                         npukb::kern::num(t.baseK) + ", depthA1=" + npukb::kern::num(t.depthA1) + ", depthB1=" +
                         npukb::kern::num(t.depthB1) + ")", file, line);
      }
    };
    over("L0A", l0a, static_cast<long long>(npukb::kL0aBytes));
    over("L0B", l0b, static_cast<long long>(npukb::kL0bBytes));
    over("L0C", l0c, static_cast<long long>(npukb::kL0cBytes));
    over("L1", l1, static_cast<long long>(npukb::kL1Bytes));
  }

  void require_ready(const char* api, const char* file, int line) const {
    if (!inited_) npukb::violation(api, "the Matmul object was never initialised (Init or REGIST_MATMUL_OBJ with a tiling)", file, line);
    if (!a_.set || !b_.set) npukb::violation(api, "SetTensorA and SetTensorB must be called first", file, line);
    if (single_m_ <= 0 || single_n_ <= 0 || single_k_ <= 0) {
      npukb::violation(api, "the single-core shape is empty (M=" + npukb::kern::num(single_m_) + ", N=" +
                       npukb::kern::num(single_n_) + ", K=" + npukb::kern::num(single_k_) + ")", file, line);
    }
  }
  void require_block(const char* api, const char* file, int line) const {
    if (!have_block_) npukb::violation(api, "no block to fetch: call Iterate() first and stop when it returns false", file, line);
  }
  void reset_iteration() {
    next_block_ = 0;
    have_block_ = false;
  }
  void block_extent(int& m0, int& n0, int& bm, int& bn) const {
    m0 = cur_m_ * tiling_.baseM;
    n0 = cur_n_ * tiling_.baseN;
    bm = std::min(tiling_.baseM, single_m_ - m0);
    bn = std::min(tiling_.baseN, single_n_ - n0);
  }
  void finish(double end, bool sync) {
    if (sync) sim::wait_until(end);
    else pending_ = std::max(pending_, end);
  }

  long long lda() const { return trans_a_ ? org_m_ : org_ka_; }
  long long ldb() const { return trans_b_ ? org_kb_ : org_n_; }
  long long ldc() const { return org_kc_ > 0 ? org_kc_ : org_n_; }

  // C block [m0, m0 + bm) x [n0, n0 + bn) of the single-core result, in the L0C type.
  std::vector<L0cT>& product(int m0, int n0, int bm, int bn, const char* file, int line) {
    const SrcAT* a = static_cast<const SrcAT*>(a_.ptr);
    const SrcBT* b = static_cast<const SrcBT*>(b_.ptr);
    const long long la = lda(), lb = ldb();
    const SrcAT* ablk = trans_a_ ? a + m0 : a + static_cast<long long>(m0) * la;
    const SrcBT* bblk = trans_b_ ? b + static_cast<long long>(n0) * lb : b + n0;
    // GM bounds of every row read.
    if (a_.gm) {
      const int rows = trans_a_ ? single_k_ : bm, len = trans_a_ ? bm : single_k_;
      for (int r = 0; r < rows; ++r) npukb::check_gm(ablk + r * la, len * sizeof(SrcAT), false, "Matmul (A)", file, line);
    }
    if (b_.gm) {
      const int rows = trans_b_ ? bn : single_k_, len = trans_b_ ? single_k_ : bn;
      for (int r = 0; r < rows; ++r) npukb::check_gm(bblk + r * lb, len * sizeof(SrcBT), false, "Matmul (B)", file, line);
    }
    npukb::GemmJob job;
    job.input = sim::input_of<SrcAT>();
    job.a = ablk;
    job.lda = la;
    job.trans_a = trans_a_;
    job.b = bblk;
    job.ldb = lb;
    job.trans_b = trans_b_;
    job.m = bm;
    job.n = bn;
    job.k = single_k_;
    buf_.resize(static_cast<std::size_t>(bm) * bn);
    job.c = buf_.data();
    npukb::cube_gemm(job);
    return buf_;
  }

  DstT convert(L0cT v, int col) const {
    if constexpr (std::is_same_v<L0cT, std::int32_t> && !std::is_same_v<DstT, std::int32_t>) {
      float scale = quant_scalar_;
      if (quant_vector_ != nullptr) scale = AscendC::sim::quant_scale(quant_vector_[col]);
      if constexpr (std::is_same_v<DstT, half>) return static_cast<half>(static_cast<float>(v) * scale);
      else return AscendC::sim::to_int8<DstT>(static_cast<float>(v) * scale);
    } else if constexpr (std::is_same_v<DstT, bfloat16_t>) {
      return bfloat16_t(static_cast<float>(v));
    } else {
      (void)col;
      return static_cast<DstT>(v);
    }
  }

  L0cT bias_at(int col, const char* file, int line) const {
    if (!bias_enabled_ || !bias_.set) return L0cT(0);
    const BiasT* p = static_cast<const BiasT*>(bias_.ptr) + col;
    if (bias_.gm) npukb::check_gm(p, sizeof(BiasT), false, "Matmul (bias)", file, line);
    BiasT v;
    std::memcpy(&v, p, sizeof(BiasT));
    return static_cast<L0cT>(static_cast<float>(v));
  }

  sim::ServerCost cost_of(int bm, int bn, bool out_gm) const {
    sim::ServerCost c;
    constexpr int k0 = 32 / sizeof(SrcAT);
    const int bk = std::max(1, tiling_.baseK);
    const int kblocks = (single_k_ + bk - 1) / bk;
    c.cube = kblocks * (npukb::kern::kMmadStartCycles / 4) + ((bm + 15) / 16) * ((bn + 15) / 16) * ((single_k_ + k0 - 1) / k0);
    c.read = (static_cast<std::uint64_t>(bm) + bn) * single_k_ * sizeof(SrcAT);
    c.mte2 = npukb::kern::dma_cycles(c.read, static_cast<std::uint32_t>(bm + bn), false, true);
    c.written = static_cast<std::uint64_t>(bm) * bn * sizeof(DstT);
    c.fix = out_gm ? npukb::kern::dma_cycles(c.written, static_cast<std::uint32_t>(bm), true, true)
                   : npukb::kern::kFixStartCycles + c.written / npukb::kern::kFixBytesPerCycle;
    if (!out_gm) c.written = 0;
    return c;
  }

  // Compute the region in base-block pieces (bounds the scratch memory) and write it to GM.
  double compute_to_gm(DstT* c, int m0, int n0, int bm, int bn, std::uint8_t atomic, const char* file, int line) {
    return compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      DstT* dst = c + (static_cast<long long>(m0) + i) * ldc() + n0 + j0;
      npukb::check_gm(dst, count * sizeof(DstT), true, "Matmul (C)", file, line);
      store(dst, row, n0 + j0, count, atomic, file, line);
    }, true);
  }
  double compute_to_gm_dense(DstT* c, int m0, int n0, int bm, int bn, int stride, std::uint8_t atomic, const char* file,
                             int line) {
    (void)m0;
    (void)n0;
    return compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      DstT* dst = c + static_cast<long long>(i) * stride + j0;
      npukb::check_gm(dst, count * sizeof(DstT), true, "Matmul (C)", file, line);
      store(dst, row, n0 + j0, count, atomic, file, line);
    }, true);
  }
  double compute_to_local(const AscendC::LocalTensor<DstT>& ub, int m0, int n0, int bm, int bn, int stride,
                          std::uint8_t atomic, const char* file, int line) {
    const std::uint64_t need = (static_cast<std::uint64_t>(bm - 1) * stride + bn) * sizeof(DstT);
    if (ub.loc().base == nullptr) npukb::violation("Matmul::GetTensorC", "the C LocalTensor was never allocated", file, line);
    if (need > static_cast<std::uint64_t>(ub.GetSize()) * sizeof(DstT)) {
      npukb::violation("Matmul::GetTensorC", std::string(AscendC::sim::hw_name(ub.loc().hw)) + " overflow: the block needs " +
                       npukb::kern::num(static_cast<long long>(need)) + " bytes but the LocalTensor holds " +
                       npukb::kern::num(static_cast<long long>(ub.GetSize()) * static_cast<long long>(sizeof(DstT))) +
                       " bytes", file, line);
    }
    DstT* base = ub.ptr();
    const double end = compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      store(base + static_cast<long long>(i) * stride + j0, row, n0 + j0, count, atomic ? 2 : 0, file, line);
    }, false);
    if (ub.loc().hw == AscendC::Hardware::UB) {     // the result lands in UB when the cube work ends
      const npukb::kern::Span sp = AscendC::sim::span_of(ub, 0, need);
      npukb::kern::KState& s = npukb::kern::state();
      for (std::uint32_t blk = sp.begin / 32; blk < (sp.end + 31) / 32 && blk < npukb::kern::kUbBlocks; ++blk) {
        s.ub_ready[blk] = std::max(s.ub_ready[blk], end);
      }
    }
    return end;
  }

  // atomic: 0 store, 1 GM atomic add (honours SetAtomicAdd-free enAtomic), 2 local add.
  void store(DstT* dst, const L0cT* row, int col0, int count, int atomic, const char* file, int line) {
    (void)file;
    (void)line;
    for (int j = 0; j < count; ++j) {
      DstT v = convert(row[j], col0 + j);
      if (atomic) {
        DstT old;
        std::memcpy(&old, dst + j, sizeof(DstT));
        v = static_cast<DstT>(static_cast<float>(old) + static_cast<float>(v));
      }
      std::memcpy(dst + j, &v, sizeof(DstT));
    }
  }

  template <typename Sink>
  double compute_region(int m0, int n0, int bm, int bn, const char* file, int line, Sink&& sink, bool out_gm) {
    const int tm = std::max(16, std::min(bm, 256)), tn = std::max(16, std::min(bn, 256));
    double end = 0.0;
    std::vector<L0cT> row(static_cast<std::size_t>(tn));
    for (int i0 = 0; i0 < bm; i0 += tm) {
      for (int j0 = 0; j0 < bn; j0 += tn) {
        const int cm = std::min(tm, bm - i0), cn = std::min(tn, bn - j0);
        std::vector<L0cT>& c = product(m0 + i0, n0 + j0, cm, cn, file, line);
        for (int i = 0; i < cm; ++i) {
          for (int j = 0; j < cn; ++j) row[j] = c[static_cast<std::size_t>(i) * cn + j] + bias_at(n0 + j0 + j, file, line);
          sink(i0 + i, j0, row.data(), cn);
        }
        end = std::max(end, sim::charge(cost_of(cm, cn, out_gm)));
      }
    }
    return end;
  }

  TCubeTiling tiling_{};
  bool inited_ = false;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  sim::Operand a_{}, b_{}, bias_{};
  std::uint32_t a_local_elems_ = 0, b_local_elems_ = 0;
  bool trans_a_ = false, trans_b_ = false, bias_enabled_ = false;
  float quant_scalar_ = 1.0f;
  const std::uint64_t* quant_vector_ = nullptr;
  int batch_a_ = 1, batch_b_ = 1;
  int next_block_ = 0, cur_m_ = 0, cur_n_ = 0;
  bool have_block_ = false;
  double pending_ = 0.0;
  std::vector<L0cT> buf_;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, typename C_TYPE::T>,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

namespace sim {
inline void register_objects(AscendC::TPipe*, __gm__ std::uint8_t*) {}
template <class M>
inline void register_objects(AscendC::TPipe* pipe, __gm__ std::uint8_t* ws, M& obj) {
  (void)pipe;
  (void)ws;
  (void)obj;
}
template <class M, class... Rest>
inline void register_objects(AscendC::TPipe* pipe, __gm__ std::uint8_t* ws, M& obj, const TCubeTiling* tiling, Rest&&... rest) {
  if (tiling != nullptr) obj.Init(tiling, pipe);
  register_objects(pipe, ws, rest...);
}
// A cube core of a mixed launch only serves the vector cores' requests.
inline bool serves_only() {
  const npukb::BlockState& b = npukb::block();
  return b.core_type == npukb::CORE_AIC && (b.kernel_type == 4 || b.kernel_type == 5);
}
}  // namespace sim

}  // namespace matmul

using matmul::MatmulType;

namespace AscendC {
using ::CubeFormat;
using ::LayoutMode;
using ::MatmulConfig;
using matmul::Matmul;
using matmul::MatmulType;
}  // namespace AscendC

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                     \
  if (::matmul::sim::serves_only()) {                                \
    return;                                                          \
  }                                                                  \
  ::matmul::sim::register_objects((tpipe), (workspace), __VA_ARGS__)
