// lib/matmul/matmul_impl.h -- the Matmul object (matmul::Matmul, also AscendC::Matmul / MatmulImpl).
//
// Model: C (singleCoreM x singleCoreN) = A (x K) B + bias, in base blocks of baseM x baseN visited in
// the tiling's iterateOrder. A and B come from GM, UB (VECIN/VECOUT/VECCALC) or L1 (TSCM), in ND or NZ,
// optionally transposed (MatmulType ISTRANS + SetTensorA/B), or as a scalar (SetTensorA/B(scalar)), or
// through the user's CopyA1/CopyB1 callbacks (MatmulCallBackFunc); C goes to GM (ND, NZ), UB (ND,
// ND_ALIGN, NZ), workspace (the GetTensorC / GetBatchTensorC forms returning a GlobalTensor) or the
// user's CO1 tensor (Iterate with a CO1 tensor), or through the DataCopyOut callback. Each block is
// computed when it is fetched (fp32 accumulation, int32 for int8 inputs, in increasing k order;
// optionally HF32-rounded float inputs); int32 / float results are quantised to half / int8 with
// SetQuantScalar / SetQuantVector. Batch forms (IterateBatch, IterateNBatch) use the NORMAL layout
// (batchA / batchB matrices, the smaller count broadcast block-wise). The tiling is checked against the
// cube core's L1 / L0 capacities at Init; the MatmulConfig fields Atlas A2/A3 do not support are
// compile-time errors. Clean-room part of ascendc-sim, written from the public API documentation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_server.h"
#include "lib/matmul/matmul_type.h"
#include "npukb_sim/cube_engine.h"

namespace matmul {
namespace sim {

template <typename T>
constexpr npukb::CubeInput input_of() {
  if constexpr (std::is_same_v<T, half>) return npukb::CubeInput::F16;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return npukb::CubeInput::BF16;
  else if constexpr (std::is_same_v<T, float>) return npukb::CubeInput::F32;
  else return npukb::CubeInput::S8;
}

constexpr bool is_ub(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }
constexpr bool is_l1(TPosition p) { return p == TPosition::TSCM || p == TPosition::A1 || p == TPosition::B1; }

// Where an operand lives: a pointer into GM or into a local tensor, or a scalar broadcast.
struct Operand {
  const void* ptr = nullptr;
  bool gm = true;
  bool set = false;
  bool scalar = false;
  float scalar_value = 0.0f;
  std::uint64_t local_bytes = 0;   // local tensors: bytes from ptr to the end of the tensor
};

// The policy's triangle (0 none, 1 upper, -1 lower), 0 for policies that do not name one.
template <typename P, typename = void>
struct TriangleOf {
  static constexpr int value = 0;
};
template <typename P>
struct TriangleOf<P, std::void_t<decltype(P::kTriangle)>> {
  static constexpr int value = P::kTriangle;
};

}  // namespace sim

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
class Matmul {
 public:
  using AType = A_TYPE;
  using BType = B_TYPE;
  using CType = C_TYPE;
  using BiasType = BIAS_TYPE;
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = std::conditional_t<std::is_same_v<SrcAT, std::int8_t>, std::int32_t, float>;
  static constexpr const MatmulConfig& kCfg = sim::cfg_of(MM_CFG);
  static constexpr int kTriangle = sim::TriangleOf<MATMUL_POLICY<MM_CFG>>::value;
  // With copy callbacks the work goes block by block (the callbacks move base blocks).
  static constexpr bool kByBlock = kTriangle != 0 || MM_CB::copyA1 != nullptr || MM_CB::copyB1 != nullptr ||
                                   MM_CB::dataCopyOut != nullptr;

  static_assert(std::is_same_v<SrcAT, SrcBT>, "Matmul: A and B must have the same element type");
  static_assert(std::is_same_v<SrcAT, half> || std::is_same_v<SrcAT, bfloat16_t> || std::is_same_v<SrcAT, float> ||
                    std::is_same_v<SrcAT, std::int8_t>,
                "Matmul: A/B types supported here: half, bfloat16_t, float, int8_t (int4b_t is not modelled)");
  static_assert((std::is_same_v<L0cT, float> && (std::is_same_v<DstT, float> || std::is_same_v<DstT, half> ||
                                                  std::is_same_v<DstT, bfloat16_t> ||
                                                  (std::is_same_v<DstT, std::int8_t> && !std::is_same_v<SrcAT, float>))) ||
                    (std::is_same_v<L0cT, std::int32_t> &&
                     (std::is_same_v<DstT, std::int32_t> || std::is_same_v<DstT, half> || std::is_same_v<DstT, std::int8_t>)),
                "Matmul: unsupported C type for these inputs (half/bfloat16 inputs give float, half, bfloat16_t or "
                "int8_t, float inputs float, half or bfloat16_t; int8 inputs give int32_t, or half / int8_t with "
                "SetQuantScalar / SetQuantVector)");
  // The bias type (BIAS_TYPE defaults to C_TYPE) is checked where a bias is set: half/float for
  // half/bfloat16_t/float inputs, int32_t for int8_t inputs (table 2 of the Matmul usage page).
  static constexpr bool kBiasTypeOk = std::is_same_v<SrcAT, std::int8_t>
                                          ? std::is_same_v<BiasT, std::int32_t>
                                          : (std::is_same_v<BiasT, float> || std::is_same_v<BiasT, half>);
  static_assert(A_TYPE::pos == TPosition::GM || sim::is_ub(A_TYPE::pos) || sim::is_l1(A_TYPE::pos),
                "Matmul: A lives in GM, UB (VECIN/VECOUT/VECCALC) or L1 (TSCM)");
  static_assert(B_TYPE::pos == TPosition::GM || sim::is_ub(B_TYPE::pos) || sim::is_l1(B_TYPE::pos),
                "Matmul: B lives in GM, UB (VECIN/VECOUT/VECCALC) or L1 (TSCM)");
  static_assert(A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ ||
                    A_TYPE::format == CubeFormat::VECTOR || A_TYPE::format == CubeFormat::SCALAR,
                "Matmul: A is ND, NZ, VECTOR or SCALAR");
  static_assert(B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ || B_TYPE::format == CubeFormat::SCALAR,
                "Matmul: B is ND or NZ");
  static_assert(C_TYPE::pos == TPosition::GM || sim::is_ub(C_TYPE::pos) || C_TYPE::pos == TPosition::CO1,
                "Matmul: C goes to GM, UB (VECIN/VECOUT/VECCALC) or a user CO1 tensor");
  static_assert(C_TYPE::pos != TPosition::CO1 || (C_TYPE::format == CubeFormat::NZ && std::is_same_v<DstT, L0cT>),
                "Matmul: a CO1 C is NZ and float (int32_t for int8_t inputs)");
  static_assert(!kCfg.enVecND2NZ, "MatmulConfig.enVecND2NZ is not supported on Atlas A2/A3");
  static_assert(!kCfg.enableL1CacheUB, "MatmulConfig.enableL1CacheUB is not supported on Atlas A2/A3");
  static_assert(!kCfg.intraBlockPartSum, "MatmulConfig.intraBlockPartSum is not supported on Atlas A2/A3");
  static_assert(!kCfg.isCO1Shared, "MatmulConfig.isCO1Shared is not supported on Atlas A2/A3");
  static_assert(!kCfg.enableL1BankConflictOptimise,
                "MatmulConfig.enableL1BankConflictOptimise is not supported on Atlas A2/A3");
  static_assert(!kCfg.enableRelu, "MatmulConfig.enableRelu is not supported on Atlas A2/A3");
  static_assert(!(kCfg.doBasicBlock && std::is_same_v<SrcAT, std::int8_t>),
                "the BasicBlock template takes half/float/bfloat16_t A and B");
  static_assert(!(kCfg.doSpecialMDL && kCfg.doMultiDataLoad), "SpecialMDL needs doMultiDataLoad = false");

  Matmul() = default;

  // ---- set-up --------------------------------------------------------------------------------------
  void Init(const TCubeTiling* __restrict cubeTiling, AscendC::TPipe* tpipe = nullptr) { NPUKB_CALLER;
    (void)tpipe;
    if (cubeTiling == nullptr && !static_complete()) {
      npukb::violation("Matmul::Init", "the tiling pointer is null (only a fully constant tiling, GetMatmulApiTiling "
                       "with the single-core shape, may omit it)", file, line);
    }
    TCubeTiling t{};
    if (cubeTiling != nullptr) t = *cubeTiling;
    apply_static(t);
    tiling_ = t;
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

  void SetTensorA(const AscendC::GlobalTensor<SrcAT>& gm, bool isTransposeA = false) { NPUKB_CALLER;
    check_trans("SetTensorA", A_TYPE::isTrans, isTransposeA, file, line);
    a_ = sim::Operand{gm.GetPhyAddr(), true, true, false, 0.0f, 0};
    trans_a_ = isTransposeA;
    reset_iteration();
  }
  void SetTensorA(const AscendC::LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) { NPUKB_CALLER;
    check_trans("SetTensorA", A_TYPE::isTrans, isTransposeA, file, line);
    a_ = local_operand(leftMatrix);
    trans_a_ = isTransposeA;
    reset_iteration();
  }
  void SetTensorA(SrcAT aScalar) {
    static_assert(std::is_same_v<SrcAT, half> || std::is_same_v<SrcAT, float>, "SetTensorA(scalar) takes half or float");
    a_ = sim::Operand{nullptr, false, true, true, static_cast<float>(aScalar), 0};
    trans_a_ = false;
    reset_iteration();
  }
  void SetTensorB(const AscendC::GlobalTensor<SrcBT>& gm, bool isTransposeB = false) { NPUKB_CALLER;
    check_trans("SetTensorB", B_TYPE::isTrans, isTransposeB, file, line);
    b_ = sim::Operand{gm.GetPhyAddr(), true, true, false, 0.0f, 0};
    trans_b_ = isTransposeB;
    reset_iteration();
  }
  void SetTensorB(const AscendC::LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) { NPUKB_CALLER;
    check_trans("SetTensorB", B_TYPE::isTrans, isTransposeB, file, line);
    b_ = local_operand(rightMatrix);
    trans_b_ = isTransposeB;
    reset_iteration();
  }
  void SetTensorB(SrcBT bScalar) {
    static_assert(std::is_same_v<SrcBT, half> || std::is_same_v<SrcBT, float>, "SetTensorB(scalar) takes half or float");
    b_ = sim::Operand{nullptr, false, true, true, static_cast<float>(bScalar), 0};
    trans_b_ = false;
    reset_iteration();
  }
  void SetBias(const AscendC::GlobalTensor<BiasT>& biasGlobal) { NPUKB_CALLER;
    static_assert(kBiasTypeOk, "Matmul::SetBias: the bias is half or float (int32_t for int8_t A/B)");
    require_bias_tiling(file, line);
    bias_ = sim::Operand{biasGlobal.GetPhyAddr(), true, true, false, 0.0f, 0};
    bias_enabled_ = true;
  }
  void SetBias(const AscendC::LocalTensor<BiasT>& inputBias) { NPUKB_CALLER;
    static_assert(kBiasTypeOk, "Matmul::SetBias: the bias is half or float (int32_t for int8_t A/B)");
    require_bias_tiling(file, line);
    bias_ = local_operand(inputBias);
    bias_enabled_ = true;
  }
  void DisableBias() { bias_enabled_ = false; }
  void ClearBias() { bias_enabled_ = false; }

  void SetQuantScalar(const std::uint64_t quantScalar) {
    quant_scalar_ = AscendC::sim::quant_scale(quantScalar);
    quant_vector_ = nullptr;
    quant_set_ = true;
  }
  void SetQuantVector(const AscendC::GlobalTensor<std::uint64_t>& quantTensor) {
    quant_vector_ = quantTensor.GetPhyAddr();
    quant_gm_ = true;
    quant_set_ = true;
  }
  void SetQuantVector(const AscendC::LocalTensor<std::uint64_t>& quantTensor) { NPUKB_CALLER;
    if (quantTensor.loc().hw != AscendC::Hardware::L1) {
      npukb::violation("Matmul::SetQuantVector", "the local quant tensor must be in L1", file, line);
    }
    quant_vector_ = quantTensor.ptr();
    quant_gm_ = false;
    quant_set_ = true;
  }
  template <class T>
  void SetWorkspace(const AscendC::GlobalTensor<T>& addr) {
    workspace_ = reinterpret_cast<std::uint8_t*>(addr.GetPhyAddr());
    workspace_bytes_ = addr.GetSize() * sizeof(T);
  }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    workspace_ = reinterpret_cast<std::uint8_t*>(const_cast<T*>(addr));
    workspace_bytes_ = static_cast<std::uint64_t>(size < 0 ? 0 : size);
  }
  void SetLocalWorkspace(const AscendC::LocalTensor<std::uint8_t>&) {}
  void SetSubBlockIdx(std::uint8_t subBlockIdx) {
    sub_block_ = subBlockIdx;
    sub_block_set_ = true;
  }
  std::uint8_t GetSubBlockIdx() const {
    return sub_block_set_ ? sub_block_ : static_cast<std::uint8_t>(npukb::block().sub_block_idx);
  }
  void SetHF32(bool enableHF32 = false, std::int32_t transMode = 0) { NPUKB_CALLER;
    if (sim::mixed_client()) {
      npukb::violation("Matmul::SetHF32", "SetHF32 is supported in cube-only kernels (no AIV client)", file, line);
    }
    hf32_ = enableHF32 ? (transMode == 1 ? 2 : 1) : 0;
  }
  void SetBatchNum(std::int32_t batchA, std::int32_t batchB) { NPUKB_CALLER;
    if (sim::mixed_client()) {
      npukb::violation("Matmul::SetBatchNum", "SetBatchNum is supported in cube-only kernels", file, line);
    }
    batch_a_ = batchA;
    batch_b_ = batchB;
  }
  void SetUserDefInfo(const std::uint64_t tilingPtr) { user_tiling_ = tilingPtr; }
  void SetSelfDefineData(const std::uint64_t dataPtr) { user_data_ = dataPtr; }
  // 4:2 sparse B (dense K/2 x N rows, ND) with its 2-bit index (the Zn layout of LoadDataWithSparse).
  void SetSparseIndex(const AscendC::GlobalTensor<std::uint8_t>& indexGlobal) { NPUKB_CALLER;
    static_assert(std::is_same_v<SrcAT, std::int8_t>, "SetSparseIndex: the sparse Matmul is int8");
    if (!kCfg.doMultiDataLoad || sim::mixed_client()) {
      npukb::violation("Matmul::SetSparseIndex", "the sparse Matmul runs with the MDL template in cube-only kernels",
                       file, line);
    }
    sparse_index_ = indexGlobal.GetPhyAddr();
  }

  // ---- whole-matrix results --------------------------------------------------------------------------
  template <bool sync = true>
  void IterateAll(const AscendC::GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    require_ready("Matmul::IterateAll", file, line);
    partial_sum_ = false;
    double end = 0.0;
    if (!kByBlock) {
      end = compute_to_gm(gm.GetPhyAddr(), 0, 0, single_m_, single_n_, enAtomic, false, file, line);
    } else {
      for_each_block([&](int m0, int n0, int bm, int bn) {
        end = std::max(end, compute_to_gm(gm.GetPhyAddr(), m0, n0, bm, bn, enAtomic, false, file, line));
      });
    }
    finish(end, sync);
  }
  template <bool sync = true>
  void IterateAll(const AscendC::LocalTensor<DstT>& ubCmatrix, std::uint8_t enAtomic = 0) { NPUKB_CALLER;
    require_ready("Matmul::IterateAll", file, line);
    if (kCfg.doIBShareNorm && A_TYPE::ibShare && B_TYPE::ibShare) {
      npukb::violation("Matmul::IterateAll", "with A and B both IBShare the result can only go to GM", file, line);
    }
    partial_sum_ = false;
    const int stride = ub_stride(single_n_);
    double end = 0.0;
    if (!kByBlock) {
      end = compute_to_local(ubCmatrix, 0, 0, single_m_, single_n_, stride, enAtomic, true, file, line);
    } else {
      for_each_block([&](int m0, int n0, int bm, int bn) {
        end = std::max(end, compute_to_local(ubCmatrix, m0, n0, bm, bn, stride, enAtomic, true, file, line));
      });
    }
    finish(end, sync);
  }
  void WaitIterateAll() { sim::wait_until(pending_); }

  // ---- block iteration -----------------------------------------------------------------------------
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) { NPUKB_CALLER;
    require_ready("Matmul::Iterate", file, line);
    no_dual_master("Matmul::Iterate", file, line);
    const bool more = next_block();
    partial_sum_ = enPartialSum;
    return more;
  }
  // The user manages CO1: the block's product goes into localCmatrix (NZ), added to it with enPartialSum.
  template <bool sync = true, typename T>
  bool Iterate(bool enPartialSum, const AscendC::LocalTensor<T>& localCmatrix) { NPUKB_CALLER;
    static_assert(C_TYPE::pos == TPosition::CO1 && std::is_same_v<T, L0cT>,
                  "Iterate with a CO1 tensor needs C = MatmulType<TPosition::CO1, CubeFormat::NZ, float (int32_t)>");
    require_ready("Matmul::Iterate", file, line);
    if (!next_block()) return false;
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    const std::uint64_t m16 = (bm + 15) / 16 * 16, n16 = (bn + 15) / 16 * 16;
    AscendC::sim::check_cube_operand("Matmul::Iterate", "localCmatrix", localCmatrix, m16 * n16 * sizeof(L0cT),
                                     {AscendC::Hardware::L0C}, file, line);
    std::vector<L0cT> c;
    product(c, m0, n0, bm, bn, file, line);
    L0cT* d = localCmatrix.ptr();
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) {
        L0cT& cell = d[(static_cast<std::size_t>(j) / 16) * m16 * 16 + static_cast<std::size_t>(i) * 16 + j % 16];
        const L0cT v = c[static_cast<std::size_t>(i) * bn + j] + bias_at(n0 + j, file, line);
        cell = enPartialSum ? static_cast<L0cT>(cell + v) : v;
      }
    }
    finish(sim::charge(cost_of(bm, bn, false)), sync);
    return true;
  }

  template <bool sync = true>
  void GetTensorC(const AscendC::GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0, bool enSequentialWrite = false) { NPUKB_CALLER;
    require_block("Matmul::GetTensorC", file, line);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    if (kCfg.enableMixDualMaster) no_dual_master("Matmul::GetTensorC", file, line);
    finish(compute_to_gm(gm.GetPhyAddr(), m0, n0, bm, bn, enAtomic, enSequentialWrite, file, line), sync);
  }
  template <bool sync = true, bool doPad = false>
  void GetTensorC(const AscendC::LocalTensor<DstT>& c, std::uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  std::uint32_t height = 0, std::uint32_t width = 0, std::uint32_t srcGap = 0, std::uint32_t dstGap = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    (void)height;
    (void)width;
    (void)srcGap;
    (void)dstGap;
    require_block("Matmul::GetTensorC", file, line);
    no_dual_master("Matmul::GetTensorC", file, line);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    const int stride = ub_stride(std::max(1, tiling_.baseN));
    finish(compute_to_local(c, m0, n0, bm, bn, stride, enAtomic, false, file, line), sync);
  }
  template <bool sync = true>
  void GetTensorC(const AscendC::GlobalTensor<DstT>& gm, const AscendC::LocalTensor<DstT>& co2Local,
                  std::uint8_t enAtomic = 0, bool enSequentialWrite = false) { NPUKB_CALLER;
    if (!sim::mixed_client()) {
      npukb::violation("Matmul::GetTensorC", "the GM + VECIN form is not available in cube-only kernels", file, line);
    }
    GetTensorC<sync>(co2Local, enAtomic, enSequentialWrite, 0, 0, 0, 0);
    GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
  }
  // The block in the workspace (SetWorkspace), baseM x baseN row-major; the caller reads it from there.
  template <bool sync = true>
  AscendC::GlobalTensor<DstT> GetTensorC(std::uint8_t enAtomic = 0, bool enSequentialWrite = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    require_block("Matmul::GetTensorC", file, line);
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    DstT* ws = workspace_for("Matmul::GetTensorC", static_cast<std::uint64_t>(tiling_.baseM) * tiling_.baseN, file, line);
    finish(compute_to_gm_dense(ws, m0, n0, bm, bn, tiling_.baseN, enAtomic, file, line), sync);
    AscendC::GlobalTensor<DstT> g;
    g.SetGlobalBuffer(ws, static_cast<std::uint64_t>(tiling_.baseM) * tiling_.baseN);
    return g;
  }
  void WaitGetTensorC() { sim::wait_until(pending_); }
  void AsyncGetTensorC(const AscendC::LocalTensor<DstT>& c) { NPUKB_CALLER;
    GetTensorC<false>(c, 0, false, 0, 0, 0, 0);
  }
  MatrixOffset GetOffsetC() const {
    int m0, n0, bm, bn;
    block_extent(m0, n0, bm, bn);
    MatrixOffset o{};
    o.offset = m0 * static_cast<int>(ldc()) + n0;
    o.row = cur_m_;
    o.col = cur_n_;
    o.height = bm;
    o.width = bn;
    return o;
  }

  // ---- batches (NORMAL layout) ---------------------------------------------------------------------
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateBatch(const AscendC::GlobalTensor<DstT>& gm, std::uint32_t batchA, std::uint32_t batchB, bool enSequentialWrite,
                    const std::uint32_t matrixStrideA = 0, const std::uint32_t matrixStrideB = 0,
                    const std::uint32_t matrixStrideC = 0, const bool enPartialSum = false, const std::uint8_t enAtomic = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    const double end = batch_to_gm(gm.GetPhyAddr(), batchA, batchB, matrixStrideA, matrixStrideB, matrixStrideC,
                                   enPartialSum, enAtomic, file, line);
    finish(end, sync);
  }
  template <bool sync = true>
  void IterateBatch(const AscendC::LocalTensor<DstT>& ubCmatrix, std::uint32_t batchA, std::uint32_t batchB,
                    bool enSequentialWrite, const std::uint32_t matrixStrideA = 0, const std::uint32_t matrixStrideB = 0,
                    const std::uint32_t matrixStrideC = 0, const bool enPartialSum = false,
                    const std::uint8_t enAtomic = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    (void)matrixStrideC;
    if (!sync) npukb::violation("Matmul::IterateBatch", "the asynchronous mode cannot write the batches to UB", file, line);
    batch_to_local(ubCmatrix, batchA, batchB, matrixStrideA, matrixStrideB, enPartialSum, enAtomic, file, line);
  }
  // Cube-only forms: the batch counts come from SetBatchNum.
  void IterateBatch(const AscendC::GlobalTensor<DstT>& gm, bool enPartialSum, std::uint8_t enAtomic, bool enSequentialWrite,
                    const std::uint32_t matrixStrideA = 0, const std::uint32_t matrixStrideB = 0,
                    const std::uint32_t matrixStrideC = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    finish(batch_to_gm(gm.GetPhyAddr(), batch_a_, batch_b_, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum,
                       enAtomic, file, line), true);
  }
  void IterateBatch(const AscendC::LocalTensor<DstT>& ubCmatrix, bool enPartialSum, std::uint8_t enAtomic,
                    bool enSequentialWrite, const std::uint32_t matrixStrideA = 0, const std::uint32_t matrixStrideB = 0,
                    const std::uint32_t matrixStrideC = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    (void)matrixStrideC;
    batch_to_local(ubCmatrix, batch_a_, batch_b_, matrixStrideA, matrixStrideB, enPartialSum, enAtomic, file, line);
  }
  void WaitIterateBatch() { sim::wait_until(pending_); }

  // batchLoop groups of batches: A/B advance by a group each time; the results queue up in the workspace
  // (max(batchA, batchB) matrices of singleM x singleN per group) for GetBatchTensorC / GetBatchC.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const std::uint32_t batchLoop, std::uint32_t batchA, std::uint32_t batchB, bool enSequentialWrite,
                     const std::uint32_t matrixStrideA = 0, const std::uint32_t matrixStrideB = 0,
                     const std::uint32_t matrixStrideC = 0) { NPUKB_CALLER;
    (void)enSequentialWrite;
    if (!kCfg.isNBatch) {
      npukb::violation("Matmul::IterateNBatch", "IterateNBatch needs MatmulConfig.isNBatch (batchLoop = true)", file, line);
    }
    require_ready("Matmul::IterateNBatch", file, line);
    const std::uint32_t batch = batch_count("Matmul::IterateNBatch", batchA, batchB, file, line);
    const std::uint64_t mn = matrixStrideC ? matrixStrideC : static_cast<std::uint64_t>(single_m_) * single_n_;
    DstT* ws = workspace_for("Matmul::IterateNBatch", mn * batch * batchLoop, file, line);
    const sim::Operand a0 = a_, b0 = b_;
    const std::uint64_t sa = matrixStrideA ? matrixStrideA : static_cast<std::uint64_t>(single_m_) * single_k_;
    const std::uint64_t sb = matrixStrideB ? matrixStrideB : static_cast<std::uint64_t>(single_k_) * single_n_;
    double end = 0.0;
    for (std::uint32_t l = 0; l < batchLoop; ++l) {
      a_.ptr = advance<SrcAT>(a0.ptr, sa * batchA * l);
      b_.ptr = advance<SrcBT>(b0.ptr, sb * batchB * l);
      end = std::max(end, batch_to_gm(ws + mn * batch * l, batchA, batchB, matrixStrideA, matrixStrideB,
                                      static_cast<std::uint32_t>(mn), false, 0, file, line));
    }
    a_ = a0;
    b_ = b0;
    nbatch_results_ = batchLoop;
    nbatch_next_ = 0;
    nbatch_group_ = batch;
    nbatch_mn_ = mn;
    finish(end, sync);
  }
  template <bool sync = true>
  AscendC::GlobalTensor<DstT> GetBatchTensorC(std::uint32_t batchA, std::uint32_t batchB, bool enSequentialWrite = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    return next_batch_group("Matmul::GetBatchTensorC", batchA, batchB, file, line);
  }
  template <bool sync = true>
  void GetBatchTensorC(const AscendC::LocalTensor<DstT>& c, std::uint32_t batchA, std::uint32_t batchB,
                       bool enSequentialWrite = false) { NPUKB_CALLER;
    (void)enSequentialWrite;
    const AscendC::GlobalTensor<DstT> g = next_batch_group("Matmul::GetBatchTensorC", batchA, batchB, file, line);
    group_to_local(c, g, file, line);
  }
  template <bool sync = true>
  AscendC::GlobalTensor<DstT> GetBatchC(std::uint32_t batchA, std::uint32_t batchB, bool enSequentialWrite = false) { NPUKB_CALLER;
    return GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite);
  }
  template <bool sync = true>
  void GetBatchC(const AscendC::LocalTensor<DstT>& c, std::uint32_t batchA, std::uint32_t batchB,
                 bool enSequentialWrite = false) { NPUKB_CALLER;
    GetBatchTensorC<sync>(c, batchA, batchB, enSequentialWrite);
  }

  void End() {
    reset_iteration();
    a_ = {};
    b_ = {};
    bias_ = {};
  }

 private:
  // ---- tiling -------------------------------------------------------------------------------------
  static constexpr bool static_complete() {
    if constexpr (std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(MM_CFG)>>, MatmulApiStaticTiling>) {
      return MM_CFG.baseM > 0 && MM_CFG.singleCoreM > 0 && MM_CFG.singleCoreN > 0 && MM_CFG.singleCoreK > 0;
    } else {
      return false;
    }
  }
  static void apply_static(TCubeTiling& t) {
    if constexpr (std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(MM_CFG)>>, MatmulApiStaticTiling>) {
      const MatmulApiStaticTiling& s = MM_CFG;
      auto put = [](std::int32_t& dst, std::int32_t v) {
        if (v >= 0) dst = v;
      };
      put(t.M, s.M);
      put(t.N, s.N);
      put(t.Ka, s.Ka);
      put(t.Kb, s.Kb);
      put(t.singleCoreM, s.singleCoreM);
      put(t.singleCoreN, s.singleCoreN);
      put(t.singleCoreK, s.singleCoreK);
      put(t.baseM, s.baseM);
      put(t.baseN, s.baseN);
      put(t.baseK, s.baseK);
      put(t.depthA1, s.depthA1);
      put(t.depthB1, s.depthB1);
      put(t.stepM, s.stepM);
      put(t.stepN, s.stepN);
      put(t.stepKa, s.stepKa);
      put(t.stepKb, s.stepKb);
      put(t.iterateOrder, s.iterateOrder);
      put(t.dbL0A, s.dbL0A);
      put(t.dbL0B, s.dbL0B);
      put(t.dbL0C, s.dbL0C);
    } else {
      (void)t;
    }
  }
  void check_tiling(const char* file, int line) const {
    const TCubeTiling& t = tiling_;
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0) {
      npukb::violation("Matmul::Init", "tiling baseM/baseN/baseK must be positive (got " + npukb::kern::num(t.baseM) + ", " +
                       npukb::kern::num(t.baseN) + ", " + npukb::kern::num(t.baseK) + "): fill it with MatmulApiTiling::GetTiling",
                       file, line);
    }
    if (kCfg.doBasicBlock && (static_cast<int>(kCfg.basicM) != t.baseM || static_cast<int>(kCfg.basicN) != t.baseN ||
                              static_cast<int>(kCfg.basicK) != t.baseK)) {
      npukb::violation("Matmul::Init", "the BasicBlock template's basicM/N/K (" + npukb::kern::num(kCfg.basicM) + ", " +
                       npukb::kern::num(kCfg.basicN) + ", " + npukb::kern::num(kCfg.basicK) + ") differ from the tiling's "
                       "baseM/N/K", file, line);
    }
    const long long sa = sizeof(SrcAT), sc = sizeof(L0cT);
    if (kCfg.isA2B2Shared && (static_cast<long long>(t.baseM) * t.baseK * sa > 32768 ||
                              static_cast<long long>(t.baseK) * t.baseN * sa > 32768)) {
      npukb::violation("Matmul::Init", "isA2B2Shared needs A and B base blocks of at most 32 KiB", file, line);
    }
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

  // ---- state checks --------------------------------------------------------------------------------
  static void check_trans(const char* api, bool allowed, bool requested, const char* file, int line) {
    if (requested && !allowed) trans_violation(api, file, line);
  }
  // Out of line: the message's string building stays out of the kernel's own functions (inlined into
  // them, its line table may name the kernel's line, and the device-symbol check would blame the kernel).
  [[noreturn, gnu::noinline, gnu::cold]] static void trans_violation(const char* api, const char* file, int line) {
    npukb::violation(std::string("Matmul::").append(api).c_str(), "transposition needs MatmulType ISTRANS = true",
                     file, line);
  }
  template <typename T>
  static sim::Operand local_operand(const AscendC::LocalTensor<T>& t) {
    sim::Operand o{t.ptr(), false, true, false, 0.0f, 0};
    o.local_bytes = static_cast<std::uint64_t>(t.GetSize()) * sizeof(T);
    return o;
  }
  void require_bias_tiling(const char* file, int line) const {
    if (inited_ && tiling_.isBias == 0) {
      npukb::violation("Matmul::SetBias", "the tiling has isBias = 0: enable the bias on the host (SetBias(true) / "
                       "EnableBias(true)) before calling SetBias", file, line);
    }
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
  static void no_dual_master(const char* api, const char* file, int line) {
    if (kCfg.enableMixDualMaster) {
      npukb::violation(api, "with enableMixDualMaster the result is fetched with IterateAll only", file, line);
    }
  }
  void reset_iteration() {
    next_block_ = 0;
    have_block_ = false;
  }

  // ---- blocks ----------------------------------------------------------------------------------------
  int m_blocks() const { return (single_m_ + std::max(1, tiling_.baseM) - 1) / std::max(1, tiling_.baseM); }
  int n_blocks() const { return (single_n_ + std::max(1, tiling_.baseN) - 1) / std::max(1, tiling_.baseN); }
  // Blocks the triangular policies leave out (below / above the block diagonal).
  static bool skipped(int mb, int nb) { return (kTriangle > 0 && mb > nb) || (kTriangle < 0 && mb < nb); }
  bool next_block() {
    const int mblocks = m_blocks(), nblocks = n_blocks();
    const bool order_n = tiling_.iterateOrder == 1;
    while (next_block_ < mblocks * nblocks) {
      cur_m_ = order_n ? next_block_ / nblocks : next_block_ % mblocks;
      cur_n_ = order_n ? next_block_ % nblocks : next_block_ / mblocks;
      ++next_block_;
      if (skipped(cur_m_, cur_n_)) continue;
      have_block_ = true;
      return true;
    }
    have_block_ = false;
    return false;
  }
  template <typename F>
  void for_each_block(F&& f) {
    const int mblocks = m_blocks(), nblocks = n_blocks();
    const bool order_n = tiling_.iterateOrder == 1;
    for (int idx = 0; idx < mblocks * nblocks; ++idx) {
      const int mb = order_n ? idx / nblocks : idx % mblocks, nb = order_n ? idx % nblocks : idx / mblocks;
      if (skipped(mb, nb)) continue;
      const int m0 = mb * tiling_.baseM, n0 = nb * tiling_.baseN;
      f(m0, n0, std::min(tiling_.baseM, single_m_ - m0), std::min(tiling_.baseN, single_n_ - n0));
    }
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
  // Rows of a C block in UB are whole 32-byte blocks, ND and ND_ALIGN alike: N rounded up to 32 bytes
  // (the pages state a 32-byte N requirement for a VECIN ND C only on other chips; the simulator pads).
  static int ub_stride(int n) {
    constexpr int c0 = static_cast<int>(32 / sizeof(DstT));
    return (n + c0 - 1) / c0 * c0;
  }

  template <typename T>
  static const void* advance(const void* p, std::uint64_t elems) {
    return p == nullptr ? nullptr : static_cast<const T*>(p) + elems;
  }

  // ---- operands --------------------------------------------------------------------------------------
  // One element of A (row i, column p of the single-core A) / B (row p, column j).
  template <typename T>
  static T read_elem(const sim::Operand& o, CubeFormat fmt, bool trans, long long rows, long long cols, long long ld,
                     long long r, long long c, const char* what, const char* file, int line) {
    if (o.scalar) return static_cast<T>(o.scalar_value);
    long long idx;
    if (fmt == CubeFormat::NZ) {
      // stored (trans ? cols x rows : rows x cols) as column blocks of c0 over 16-aligned rows
      constexpr long long c0 = 32 / sizeof(T);
      const long long sr = trans ? c : r, sc = trans ? r : c, srows = trans ? cols : rows;
      const long long r16 = (srows + 15) / 16 * 16;
      idx = ((sc / c0) * r16 + sr) * c0 + sc % c0;
    } else {
      idx = trans ? c * ld + r : r * ld + c;
    }
    const T* p = static_cast<const T*>(o.ptr) + idx;
    if (o.gm) {
      npukb::check_gm(p, sizeof(T), false, what, file, line);
    } else if (static_cast<std::uint64_t>(idx + 1) * sizeof(T) > o.local_bytes) {
      npukb::violation(what, "the local tensor holds " + npukb::kern::num(static_cast<long long>(o.local_bytes)) +
                       " bytes but element " + npukb::kern::num(idx) + " is read", file, line);
    }
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }

  // A contiguous run of `len` elements of an operand: inside GM tensors, or inside the local tensor.
  template <typename T>
  static void check_run(const sim::Operand& o, const T* p, int len, const char* what, const char* file, int line) {
    if (o.gm) {
      npukb::check_gm(p, static_cast<std::size_t>(len) * sizeof(T), false, what, file, line);
      return;
    }
    const std::uint64_t end = static_cast<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(p + len) -
                                                        static_cast<const std::uint8_t*>(o.ptr));
    if (p < static_cast<const T*>(o.ptr) || end > o.local_bytes) {
      npukb::violation(what, "the read runs past the local tensor of " + npukb::kern::num(static_cast<long long>(o.local_bytes)) +
                       " bytes", file, line);
    }
  }

  // A tile: rows [m0, m0 + bm) x all single K, row-major.
  void tile_a(std::vector<SrcAT>& out, int m0, int bm, const char* file, int line) {
    const int k = single_k_;
    out.resize(static_cast<std::size_t>(bm) * k);
    if constexpr (MM_CB::copyA1 != nullptr) {
      callback_tile_a(out, m0, bm, file, line);
      return;
    }
    const CubeFormat fmt = A_TYPE::format == CubeFormat::NZ ? CubeFormat::NZ : CubeFormat::ND;
    if (fmt == CubeFormat::ND && !a_.scalar) {    // rows (or, transposed, columns) are contiguous
      const SrcAT* a = static_cast<const SrcAT*>(a_.ptr);
      const int runs = trans_a_ ? k : bm, len = trans_a_ ? bm : k;
      for (int r = 0; r < runs; ++r) {
        const SrcAT* src = trans_a_ ? a + static_cast<long long>(r) * lda() + m0 : a + (static_cast<long long>(m0) + r) * lda();
        check_run(a_, src, len, "Matmul (A)", file, line);
        if (!trans_a_) {
          std::memcpy(out.data() + static_cast<std::size_t>(r) * k, src, sizeof(SrcAT) * len);
        } else {
          for (int i = 0; i < bm; ++i) out[static_cast<std::size_t>(i) * k + r] = src[i];
        }
      }
      return;
    }
    for (int i = 0; i < bm; ++i) {
      for (int p = 0; p < k; ++p) {
        out[static_cast<std::size_t>(i) * k + p] =
            read_elem<SrcAT>(a_, fmt, trans_a_, org_m_, org_ka_, lda(), m0 + i, p, "Matmul (A)", file, line);
      }
    }
  }
  // B tile: all single K x columns [n0, n0 + bn), row-major.
  void tile_b(std::vector<SrcBT>& out, int n0, int bn, const char* file, int line) {
    const int k = single_k_;
    out.assign(static_cast<std::size_t>(k) * bn, SrcBT(0));
    if constexpr (MM_CB::copyB1 != nullptr) {
      callback_tile_b(out, n0, bn, file, line);
      return;
    }
    if (sparse_index_ != nullptr) {
      sparse_tile_b(out, n0, bn, file, line);
      return;
    }
    const CubeFormat fmt = B_TYPE::format == CubeFormat::NZ ? CubeFormat::NZ : CubeFormat::ND;
    if (fmt == CubeFormat::ND && !b_.scalar) {
      const SrcBT* b = static_cast<const SrcBT*>(b_.ptr);
      const int runs = trans_b_ ? bn : k, len = trans_b_ ? k : bn;
      for (int r = 0; r < runs; ++r) {
        const SrcBT* src = trans_b_ ? b + (static_cast<long long>(n0) + r) * ldb() : b + static_cast<long long>(r) * ldb() + n0;
        check_run(b_, src, len, "Matmul (B)", file, line);
        if (!trans_b_) {
          std::memcpy(out.data() + static_cast<std::size_t>(r) * bn, src, sizeof(SrcBT) * len);
        } else {
          for (int p = 0; p < k; ++p) out[static_cast<std::size_t>(p) * bn + r] = src[p];
        }
      }
      return;
    }
    for (int p = 0; p < k; ++p) {
      for (int j = 0; j < bn; ++j) {
        out[static_cast<std::size_t>(p) * bn + j] =
            read_elem<SrcBT>(b_, fmt, trans_b_, org_kb_, org_n_, ldb(), p, n0 + j, "Matmul (B)", file, line);
      }
    }
  }

  // The user's CopyA1 fills an L1 block (NZ, rows padded to 16) per (M block, K block) of baseM x baseK.
  std::uint8_t* scratch_l1(std::uint64_t bytes, AscendC::LocalTensor<std::int8_t>& t, const char* file, int line) {
    std::uint8_t* base = nullptr;
    std::uint32_t region = 0;
    AscendC::sim::hw_region(AscendC::Hardware::L1, base, region);
    if (bytes > region) npukb::violation("Matmul (callback)", "the block does not fit L1", file, line);
    AscendC::sim::LocalLoc loc;
    loc.base = base;
    loc.region_bytes = region;
    loc.addr = static_cast<std::uint32_t>((region - bytes) / 512 * 512);   // the top of L1
    loc.hw = AscendC::Hardware::L1;
    loc.pos = TPosition::A1;
    t = AscendC::LocalTensor<std::int8_t>::make(loc, static_cast<std::uint32_t>(bytes));
    return base + loc.addr;
  }
  void callback_tile_a(std::vector<SrcAT>& out, int m0, int bm, const char* file, int line) {
    constexpr int c0 = static_cast<int>(32 / sizeof(SrcAT));
    const int bk = std::max(1, tiling_.baseK), k = single_k_;
    const int m16 = (bm + 15) / 16 * 16;
    for (int k0 = 0, col = 0; k0 < k; k0 += bk, ++col) {
      const int use_k = std::min(bk, k - k0), k16 = (use_k + c0 - 1) / c0 * c0;
      AscendC::LocalTensor<std::int8_t> t;
      std::uint8_t* l1 = scratch_l1(static_cast<std::uint64_t>(m16) * k16 * sizeof(SrcAT), t, file, line);
      MM_CB::copyA1(t, a_.ptr, m0 / std::max(1, tiling_.baseM), col, bm, use_k, user_tiling_, user_data_);
      const SrcAT* nz = reinterpret_cast<const SrcAT*>(l1);
      for (int i = 0; i < bm; ++i) {
        for (int p = 0; p < use_k; ++p) out[static_cast<std::size_t>(i) * k + k0 + p] = nz[((p / c0) * m16 + i) * c0 + p % c0];
      }
    }
  }
  void callback_tile_b(std::vector<SrcBT>& out, int n0, int bn, const char* file, int line) {
    constexpr int c0 = static_cast<int>(32 / sizeof(SrcBT));
    const int bk = std::max(1, tiling_.baseK), k = single_k_;
    for (int k0 = 0, row = 0; k0 < k; k0 += bk, ++row) {
      const int use_k = std::min(bk, k - k0), k16 = (use_k + 15) / 16 * 16, n_al = (bn + c0 - 1) / c0 * c0;
      AscendC::LocalTensor<std::int8_t> t;
      std::uint8_t* l1 = scratch_l1(static_cast<std::uint64_t>(k16) * n_al * sizeof(SrcBT), t, file, line);
      MM_CB::copyB1(t, b_.ptr, row, n0 / std::max(1, tiling_.baseN), use_k, bn, user_tiling_, user_data_);
      const SrcBT* nz = reinterpret_cast<const SrcBT*>(l1);
      for (int p = 0; p < use_k; ++p) {
        for (int j = 0; j < bn; ++j) out[static_cast<std::size_t>(k0 + p) * bn + j] = nz[((j / c0) * k16 + p) * c0 + j % c0];
      }
    }
  }
  // SetSparseIndex: B holds K/2 dense rows (ND); entry (kd, j) of the Zn index picks the A column of its
  // group of four (cube_engine.cpp's rule), so the full B is rebuilt and multiplied densely.
  void sparse_tile_b(std::vector<SrcBT>& out, int n0, int bn, const char* file, int line) {
    const int kd = (single_k_ + 1) / 2, n1 = (org_n_ + 15) / 16;
    for (int j = 0; j < bn; ++j) {
      const int col = n0 + j;
      for (int g = 0; 2 * g < kd; ++g) {
        int sel[2] = {0, 0};
        SrcBT bv[2] = {SrcBT(0), SrcBT(0)};
        for (int h = 0; h < 2; ++h) {
          const int p = 2 * g + h;
          if (p >= kd) continue;
          bv[h] = read_elem<SrcBT>(b_, CubeFormat::ND, false, kd, org_n_, org_n_, p, col, "Matmul (B)", file, line);
          const std::size_t e = (static_cast<std::size_t>(p / 32) * n1 + col / 16) * 512 + (col % 16) * 32 + p % 32;
          npukb::check_gm(sparse_index_ + e / 4, 1, false, "Matmul (sparse index)", file, line);
          sel[h] = (sparse_index_[e / 4] >> (2 * (e % 4))) & 3;
        }
        const int first = sel[0], second = std::max(first, 1 + sel[1]);
        const int rows[2] = {4 * g + first, 4 * g + second};
        for (int h = 0; h < 2; ++h) {
          if (rows[h] < single_k_) {
            SrcBT& cell = out[static_cast<std::size_t>(rows[h]) * bn + j];
            cell = static_cast<SrcBT>(cell + bv[h]);
          }
        }
      }
    }
  }

  // C block [m0, +bm) x [n0, +bn) in the L0C type (bias not added).
  void product(std::vector<L0cT>& c, int m0, int n0, int bm, int bn, const char* file, int line) {
    std::vector<SrcAT> ta;
    std::vector<SrcBT> tb;
    tile_a(ta, m0, bm, file, line);
    tile_b(tb, n0, bn, file, line);
    npukb::GemmJob job;
    job.input = sim::input_of<SrcAT>();
    job.a = ta.data();
    job.lda = single_k_;
    job.b = tb.data();
    job.ldb = bn;
    job.m = bm;
    job.n = bn;
    job.k = single_k_;
    job.hf32 = hf32_;
    c.resize(static_cast<std::size_t>(bm) * bn);
    job.c = c.data();
    npukb::cube_gemm(job);
  }

  float scale_at(int col, const char* file, int line) const {
    if (quant_vector_ == nullptr) return quant_scalar_;
    const std::uint64_t* p = quant_vector_ + col;
    if (quant_gm_) npukb::check_gm(p, 8, false, "Matmul (quant vector)", file, line);
    return AscendC::sim::quant_scale(*p);
  }
  DstT convert(L0cT v, int col, const char* file, int line) const {
    if constexpr (std::is_same_v<L0cT, DstT>) {
      (void)col;
      (void)file;
      (void)line;
      return v;
    } else if constexpr (std::is_same_v<DstT, bfloat16_t>) {
      return bfloat16_t(static_cast<float>(v));
    } else if constexpr (std::is_same_v<L0cT, float> && std::is_same_v<DstT, half>) {
      return static_cast<half>(v);
    } else if constexpr (std::is_same_v<DstT, half>) {                 // int32 -> half, dequant
      return static_cast<half>(static_cast<float>(v) * scale_at(col, file, line));
    } else {                                                          // -> int8 with a scale
      return AscendC::sim::to_int8<DstT>(static_cast<float>(v) * scale_at(col, file, line));
    }
  }
  L0cT bias_at(int col, const char* file, int line) const {
    if (!bias_enabled_ || !bias_.set) return L0cT(0);
    const BiasT* p = static_cast<const BiasT*>(bias_.ptr) + bias_batch_ * single_n_ + col;
    if (bias_.gm) npukb::check_gm(p, sizeof(BiasT), false, "Matmul (bias)", file, line);
    BiasT v;
    std::memcpy(&v, p, sizeof(BiasT));
    return static_cast<L0cT>(static_cast<float>(v));
  }
  void check_quant(const char* file, int line) const {
    constexpr bool needs = !std::is_same_v<DstT, L0cT> && !std::is_same_v<DstT, bfloat16_t> &&
                           !(std::is_same_v<L0cT, float> && std::is_same_v<DstT, half>);
    if (needs && !quant_set_) {
      npukb::violation("Matmul", "this C type needs SetQuantScalar or SetQuantVector before the computation", file, line);
    }
  }

  sim::ServerCost cost_of(int bm, int bn, bool out_gm) const {
    sim::ServerCost c;
    constexpr int k0 = 32 / sizeof(SrcAT);
    const int bk = std::max(1, tiling_.baseK);
    const int kblocks = (single_k_ + bk - 1) / bk;
    c.cube = (kblocks * (npukb::kern::kMmadStartCycles / 4) + ((bm + 15) / 16) * ((bn + 15) / 16) * ((single_k_ + k0 - 1) / k0)) /
             (hf32_ != 0 ? 2.0 : 1.0);
    c.read = (static_cast<std::uint64_t>(bm) + bn) * single_k_ * sizeof(SrcAT);
    c.mte2 = npukb::kern::dma_cycles(c.read, static_cast<std::uint32_t>(bm + bn), false, true);
    c.written = static_cast<std::uint64_t>(bm) * bn * sizeof(DstT);
    c.fix = out_gm ? npukb::kern::dma_cycles(c.written, static_cast<std::uint32_t>(bm), true, true)
                   : npukb::kern::kFixStartCycles + c.written / npukb::kern::kFixBytesPerCycle;
    if (!out_gm) c.written = 0;
    return c;
  }

  // atomic (enAtomic): 0 store, 1 add, 2 max, 3 min against what the destination holds (GM, or the local
  // tensor's values); integers combine exactly, floating types through float.
  void store(DstT* dst, const L0cT* row, int col0, int count, int atomic, const char* file, int line) const {
    if (atomic < 0 || atomic > 3) {
      npukb::violation("Matmul", "enAtomic is 0 (off), 1 (AtomicAdd), 2 (AtomicMax) or 3 (AtomicMin), not " +
                       std::to_string(atomic), file, line);
    }
    for (int j = 0; j < count; ++j) {
      DstT v = convert(row[j], col0 + j, file, line);
      if (atomic) {
        DstT old;
        std::memcpy(&old, dst + j, sizeof(DstT));
        if constexpr (std::is_integral_v<DstT>) {
          const long long o = old, n = v;
          const long long r = atomic == 1 ? o + n : (atomic == 2 ? std::max(o, n) : std::min(o, n));
          v = static_cast<DstT>(static_cast<std::make_unsigned_t<DstT>>(static_cast<unsigned long long>(r)));
        } else {
          const float o = static_cast<float>(old), n = static_cast<float>(v);
          v = static_cast<DstT>(atomic == 1 ? o + n : (atomic == 2 ? std::max(o, n) : std::min(o, n)));
        }
      }
      std::memcpy(dst + j, &v, sizeof(DstT));
    }
  }

  // The region in pieces of at most 256 x 256 (bounds the scratch memory); sink(i, j0, row, count) gets
  // row i of the region from column j0, with the bias added.
  template <typename Sink>
  double compute_region(int m0, int n0, int bm, int bn, const char* file, int line, Sink&& sink, bool out_gm) {
    check_quant(file, line);
    const int tm = kByBlock ? bm : std::max(16, std::min(bm, 256)), tn = kByBlock ? bn : std::max(16, std::min(bn, 256));
    double end = 0.0;
    std::vector<L0cT> c, row(static_cast<std::size_t>(tn));
    const bool keep = partial_sum_;
    for (int i0 = 0; i0 < bm; i0 += tm) {
      for (int j0 = 0; j0 < bn; j0 += tn) {
        const int cm = std::min(tm, bm - i0), cn = std::min(tn, bn - j0);
        product(c, m0 + i0, n0 + j0, cm, cn, file, line);
        for (int i = 0; i < cm; ++i) {
          for (int j = 0; j < cn; ++j) {
            L0cT v = c[static_cast<std::size_t>(i) * cn + j] + bias_at(n0 + j0 + j, file, line);
            if (keep) v = static_cast<L0cT>(v + partial_at(m0 + i0 + i, n0 + j0 + j));
            row[j] = v;
          }
          remember(m0 + i0, n0 + j0, i, cm, cn, row.data());
          sink(i0 + i, j0, row.data(), cn);
        }
        end = std::max(end, sim::charge(cost_of(cm, cn, out_gm)));
      }
    }
    return end;
  }
  // enPartialSum: the previous fetch of the same block position is kept and added.
  L0cT partial_at(int r, int c) const {
    if (r < part_m0_ || r >= part_m0_ + part_m_ || c < part_n0_ || c >= part_n0_ + part_n_) return L0cT(0);
    return part_[static_cast<std::size_t>(r - part_m0_) * part_n_ + (c - part_n0_)];
  }
  void remember(int m0, int n0, int i, int cm, int cn, const L0cT* row) {
    if (i == 0 && !(m0 == part_m0_ && n0 == part_n0_ && cm == part_m_ && cn == part_n_)) {
      part_m0_ = m0;
      part_n0_ = n0;
      part_m_ = cm;
      part_n_ = cn;
      part_.assign(static_cast<std::size_t>(cm) * cn, L0cT(0));
    }
    std::memcpy(part_.data() + static_cast<std::size_t>(i) * cn, row, sizeof(L0cT) * cn);
  }

  // Where element (r, c) of C lies from the C pointer, by C's format.
  std::uint64_t c_index(long long r, long long c) const {
    if constexpr (C_TYPE::format == CubeFormat::NZ) {
      constexpr long long w = sizeof(DstT) == 1 ? 32 : 16;
      const long long m16 = (static_cast<long long>(org_m_) + 15) / 16 * 16;
      return static_cast<std::uint64_t>(((c / w) * m16 + r) * w + c % w);
    } else {
      return static_cast<std::uint64_t>(r * ldc() + c);
    }
  }
  double compute_to_gm(DstT* cptr, int m0, int n0, int bm, int bn, std::uint8_t atomic, bool sequential, const char* file,
                       int line) {
    if (sequential) return compute_to_gm_dense(cptr, m0, n0, bm, bn, tiling_.baseN, atomic, file, line);
    if constexpr (MM_CB::dataCopyOut != nullptr) return callback_out(cptr, m0, n0, bm, bn, file, line);
    return compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      if constexpr (C_TYPE::format == CubeFormat::NZ) {
        for (int j = 0; j < count; ++j) {
          DstT* dst = cptr + c_index(m0 + i, n0 + j0 + j);
          npukb::check_gm(dst, sizeof(DstT), true, "Matmul (C)", file, line);
          store(dst, row + j, n0 + j0 + j, 1, atomic, file, line);
        }
      } else {
        DstT* dst = cptr + c_index(m0 + i, n0 + j0);
        npukb::check_gm(dst, count * sizeof(DstT), true, "Matmul (C)", file, line);
        store(dst, row, n0 + j0, count, atomic, file, line);
      }
    }, true);
  }
  // The block alone, rows of `stride` elements from cptr (enSequentialWrite and the workspace forms).
  double compute_to_gm_dense(DstT* cptr, int m0, int n0, int bm, int bn, int stride, std::uint8_t atomic, const char* file,
                             int line) {
    return compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      DstT* dst = cptr + static_cast<long long>(i) * stride + j0;
      npukb::check_gm(dst, count * sizeof(DstT), true, "Matmul (C)", file, line);
      store(dst, row, n0 + j0, count, atomic, file, line);
    }, true);
  }
  // The user's DataCopyOut gets each block in a CO1 tensor (NZ, L0C type) and copies it out itself.
  double callback_out(DstT* cptr, int m0, int n0, int bm, int bn, const char* file, int line) {
    const int m16 = (bm + 15) / 16 * 16, n16 = (bn + 15) / 16 * 16;
    std::uint8_t* base = nullptr;
    std::uint32_t region = 0;
    AscendC::sim::hw_region(AscendC::Hardware::L0C, base, region);
    if (static_cast<std::uint64_t>(m16) * n16 * sizeof(L0cT) > region) {
      npukb::violation("Matmul (DataCopyOut)", "the block does not fit L0C", file, line);
    }
    L0cT* nz = reinterpret_cast<L0cT*>(base);
    const double end = compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      for (int j = 0; j < count; ++j) nz[((j0 + j) / 16) * m16 * 16 + i * 16 + (j0 + j) % 16] = row[j];
    }, true);
    AscendC::sim::LocalLoc loc;
    loc.base = base;
    loc.region_bytes = region;
    loc.hw = AscendC::Hardware::L0C;
    loc.pos = TPosition::CO1;
    const AscendC::LocalTensor<std::int8_t> co1 =
        AscendC::LocalTensor<std::int8_t>::make(loc, static_cast<std::uint32_t>(m16) * n16 * sizeof(L0cT));
    DataCopyOutParams params;
    params.cBurstNum = static_cast<std::uint16_t>(bn);
    params.burstLen = static_cast<std::uint16_t>(bm);
    params.srcStride = static_cast<std::uint16_t>(m16);
    params.dstStride = static_cast<std::uint32_t>(ldc());
    params.oriNSize = static_cast<std::uint16_t>(org_n_);
    params.quantScalar = 0;
    MM_CB::dataCopyOut(cptr + c_index(m0, n0), co1, &params, user_tiling_, user_data_);
    return end;
  }
  double compute_to_local(const AscendC::LocalTensor<DstT>& ub, int m0, int n0, int bm, int bn, int stride,
                          std::uint8_t atomic, bool whole, const char* file, int line) {
    if (ub.loc().base == nullptr) npukb::violation("Matmul::GetTensorC", "the C LocalTensor was never allocated", file, line);
    const int r0 = whole ? m0 : 0, c0 = whole ? n0 : 0;   // a block alone starts at the tensor's start
    std::uint64_t need;
    if constexpr (C_TYPE::format == CubeFormat::NZ) {
      const std::uint64_t rows16 = ((whole ? single_m_ : bm) + 15) / 16 * 16;
      need = ((static_cast<std::uint64_t>(c0 + bn) + 15) / 16) * rows16 * 16 * sizeof(DstT);
    } else {
      need = (static_cast<std::uint64_t>(r0 + bm - 1) * stride + c0 + bn) * sizeof(DstT);
    }
    if (need > static_cast<std::uint64_t>(ub.GetSize()) * sizeof(DstT)) {
      npukb::violation("Matmul::GetTensorC", std::string(AscendC::sim::hw_name(ub.loc().hw)) + " overflow: the result needs " +
                       npukb::kern::num(static_cast<long long>(need)) + " bytes but the LocalTensor holds " +
                       npukb::kern::num(static_cast<long long>(ub.GetSize()) * static_cast<long long>(sizeof(DstT))) +
                       " bytes", file, line);
    }
    DstT* base = ub.ptr();
    const std::uint64_t rows16 = ((whole ? single_m_ : bm) + 15) / 16 * 16;
    const double end = compute_region(m0, n0, bm, bn, file, line, [&](int i, int j0, const L0cT* row, int count) {
      if constexpr (C_TYPE::format == CubeFormat::NZ) {
        for (int j = 0; j < count; ++j) {
          const std::uint64_t cc = static_cast<std::uint64_t>(c0 + j0 + j);
          store(base + ((cc / 16) * rows16 + r0 + i) * 16 + cc % 16, row + j, n0 + j0 + j, 1, atomic, file, line);
        }
      } else {
        store(base + static_cast<long long>(r0 + i) * stride + c0 + j0, row, n0 + j0, count, atomic, file, line);
      }
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

  DstT* workspace_for(const char* api, std::uint64_t elems, const char* file, int line) const {
    if (workspace_ == nullptr) npukb::violation(api, "this form keeps its results in the workspace: call SetWorkspace first", file, line);
    if (elems * sizeof(DstT) > workspace_bytes_ && workspace_bytes_ != 0) {
      npukb::violation(api, "the workspace of " + npukb::kern::num(static_cast<long long>(workspace_bytes_)) +
                       " bytes cannot hold " + npukb::kern::num(static_cast<long long>(elems * sizeof(DstT))), file, line);
    }
    return reinterpret_cast<DstT*>(workspace_);
  }

  // ---- batches -------------------------------------------------------------------------------------
  std::uint32_t batch_count(const char* api, std::uint32_t batchA, std::uint32_t batchB, const char* file, int line) const {
    if (A_TYPE::layout != LayoutMode::NONE && A_TYPE::layout != LayoutMode::NORMAL) {
      npukb::violation(api, "the BSNGD / SBNGD / BNGS1S2 layouts are not modelled by the simulator (NORMAL only)", file, line);
    }
    if (A_TYPE::layout != B_TYPE::layout) npukb::violation(api, "A and B must have the same layout", file, line);
    if (batchA == 0 || batchB == 0 || (std::max(batchA, batchB) % std::min(batchA, batchB)) != 0) {
      npukb::violation(api, "batchA (" + npukb::kern::num(batchA) + ") and batchB (" + npukb::kern::num(batchB) +
                       ") must be positive multiples of each other", file, line);
    }
    if (quant_set_) npukb::violation(api, "the batch forms do not take SetQuantScalar / SetQuantVector", file, line);
    return std::max(batchA, batchB);
  }
  // Batch b of max(batchA, batchB): A matrix b / (batch / batchA), B matrix b / (batch / batchB).
  template <typename Run>
  double for_each_batch(const char* api, std::uint32_t batchA, std::uint32_t batchB, std::uint32_t strideA,
                        std::uint32_t strideB, bool enPartialSum, const char* file, int line, Run&& run) {
    no_dual_master(api, file, line);
    require_ready(api, file, line);
    const std::uint32_t batch = batch_count(api, batchA, batchB, file, line);
    const std::uint64_t sa = strideA ? strideA : static_cast<std::uint64_t>(single_m_) * single_k_;
    const std::uint64_t sb = strideB ? strideB : static_cast<std::uint64_t>(single_k_) * single_n_;
    const sim::Operand a0 = a_, b0 = b_;
    double end = 0.0;
    partial_sum_ = enPartialSum;
    for (std::uint32_t b = 0; b < batch; ++b) {
      a_.ptr = advance<SrcAT>(a0.ptr, sa * (b / (batch / batchA)));
      b_.ptr = advance<SrcBT>(b0.ptr, sb * (b / (batch / batchB)));
      bias_batch_ = kCfg.isBiasBatch ? static_cast<int>(b) : 0;
      end = std::max(end, run(b));
    }
    a_ = a0;
    b_ = b0;
    bias_batch_ = 0;
    partial_sum_ = false;
    return end;
  }
  double batch_to_gm(DstT* c, std::uint32_t batchA, std::uint32_t batchB, std::uint32_t strideA, std::uint32_t strideB,
                     std::uint32_t strideC, bool enPartialSum, std::uint8_t enAtomic, const char* file, int line) {
    const std::uint64_t sc = strideC ? strideC : static_cast<std::uint64_t>(single_m_) * single_n_;
    return for_each_batch("Matmul::IterateBatch", batchA, batchB, strideA, strideB, enPartialSum, file, line,
                          [&](std::uint32_t b) {
      double end = 0.0;
      for_each_block([&](int m0, int n0, int bm, int bn) {
        end = std::max(end, compute_to_gm_dense(c + sc * b + static_cast<std::uint64_t>(m0) * single_n_ + n0, m0, n0, bm, bn,
                                                single_n_, enAtomic, file, line));
      });
      return end;
    });
  }
  void batch_to_local(const AscendC::LocalTensor<DstT>& ub, std::uint32_t batchA, std::uint32_t batchB, std::uint32_t strideA,
                      std::uint32_t strideB, bool enPartialSum, std::uint8_t enAtomic, const char* file, int line) {
    const int stride = ub_stride(single_n_);
    const std::uint64_t per = static_cast<std::uint64_t>(single_m_) * stride;
    const double end = for_each_batch("Matmul::IterateBatch", batchA, batchB, strideA, strideB, enPartialSum, file, line,
                                      [&](std::uint32_t b) {
      const AscendC::LocalTensor<DstT> part = ub[static_cast<std::uint32_t>(per * b)];
      double e = 0.0;
      for_each_block([&](int m0, int n0, int bm, int bn) {
        e = std::max(e, compute_to_local(part, m0, n0, bm, bn, stride, enAtomic, true, file, line));
      });
      return e;
    });
    finish(end, true);
  }
  AscendC::GlobalTensor<DstT> next_batch_group(const char* api, std::uint32_t batchA, std::uint32_t batchB, const char* file,
                                               int line) {
    if (nbatch_next_ >= nbatch_results_) {
      npukb::violation(api, "no IterateNBatch result is left to fetch", file, line);
    }
    if (std::max(batchA, batchB) != nbatch_group_) {
      npukb::violation(api, "batchA / batchB differ from the IterateNBatch call's", file, line);
    }
    DstT* ws = reinterpret_cast<DstT*>(workspace_) + nbatch_mn_ * nbatch_group_ * nbatch_next_;
    ++nbatch_next_;
    AscendC::GlobalTensor<DstT> g;
    g.SetGlobalBuffer(ws, nbatch_mn_ * nbatch_group_);
    sim::wait_until(pending_);
    return g;
  }
  void group_to_local(const AscendC::LocalTensor<DstT>& c, const AscendC::GlobalTensor<DstT>& g, const char* file, int line) {
    const int stride = ub_stride(single_n_);
    const std::uint64_t rows = static_cast<std::uint64_t>(nbatch_group_) * single_m_;
    if ((rows - 1) * stride + single_n_ > c.GetSize()) {
      npukb::violation("Matmul::GetBatchTensorC", "the local tensor cannot hold the batch group", file, line);
    }
    for (std::uint64_t r = 0; r < rows; ++r) {
      const std::uint64_t batch = r / single_m_, i = r % single_m_;
      std::memcpy(c.ptr() + r * stride, g.GetPhyAddr() + batch * nbatch_mn_ + i * single_n_, single_n_ * sizeof(DstT));
    }
  }

  TCubeTiling tiling_{};
  bool inited_ = false;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  sim::Operand a_{}, b_{}, bias_{};
  bool trans_a_ = false, trans_b_ = false, bias_enabled_ = false;
  int bias_batch_ = 0;
  float quant_scalar_ = 1.0f;
  const std::uint64_t* quant_vector_ = nullptr;
  bool quant_gm_ = true, quant_set_ = false;
  int hf32_ = 0;
  int batch_a_ = 1, batch_b_ = 1;
  int next_block_ = 0, cur_m_ = 0, cur_n_ = 0;
  bool have_block_ = false, partial_sum_ = false;
  double pending_ = 0.0;
  std::uint8_t* workspace_ = nullptr;
  std::uint64_t workspace_bytes_ = 0;
  std::uint8_t sub_block_ = 0;
  bool sub_block_set_ = false;
  std::uint64_t user_tiling_ = 0, user_data_ = 0;
  const std::uint8_t* sparse_index_ = nullptr;
  std::uint32_t nbatch_results_ = 0, nbatch_next_ = 0, nbatch_group_ = 0;
  std::uint64_t nbatch_mn_ = 0;
  int part_m0_ = -1, part_n0_ = -1, part_m_ = 0, part_n_ = 0;
  std::vector<L0cT> part_;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

}  // namespace matmul
