// matmul_tiling.cpp -- the Matmul tiling calculators of tiling/matmul_tiling.h (MatmulApiTiling,
// MultiCoreMatmulTiling). Part of the ascendc-sim clean-room simulator.
//
// Choice of a single core's tiling (this simulator's own rule, documented in docs/simulator.md):
//  * baseM x baseN: the largest block of 16-multiples, at most 128 x 256, whose float (int32) result
//    fits L0C (128 KiB), shrunk to the 16-aligned problem; SetFixSplit overrides;
//  * baseK: the largest multiple of k0 (32 bytes of the input type), at most 256, for which A and B
//    base blocks fit L0A / L0B twice (double buffering), shrunk to the aligned K;
//  * stepKa = stepKb: the most K blocks (a power of two) whose A and B panels fit L1 twice (depthA1 =
//    depthB1 = 2 x step), with the bias row;
//  * MultiCoreMatmulTiling: mDim x nDim <= dim cores minimising the largest per-core block area.
#include "tiling/matmul_tiling.h"

#include <algorithm>
#include <cstring>

namespace matmul_tiling {
namespace {

std::int32_t bytes_of(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
    case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_INT4: case DataType::DT_BOOL: return 1;
    case DataType::DT_INT64: case DataType::DT_UINT64: case DataType::DT_DOUBLE: return 8;
    default: return 2;
  }
}

std::int32_t ceil_div(std::int32_t a, std::int32_t b) { return (a + b - 1) / b; }
std::int32_t align_up(std::int32_t a, std::int32_t b) { return ceil_div(a, b) * b; }

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() = default;

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
  std::uint64_t v = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
  if (v) l1_ = static_cast<std::int64_t>(v);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
  if (v) l0c_ = static_cast<std::int64_t>(v);
}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  l1_ = static_cast<std::int64_t>(platform.l1Size);
  l0c_ = static_cast<std::int64_t>(platform.l0CSize);
  l0a_ = static_cast<std::int64_t>(platform.l0ASize);
  l0b_ = static_cast<std::int64_t>(platform.l0BSize);
}

std::int32_t MatmulApiTilingBase::SetAType(TPosition, CubeFormat, DataType dataType, bool isTrans) {
  a_bytes_ = bytes_of(dataType);
  trans_a_ = isTrans;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBType(TPosition, CubeFormat, DataType dataType, bool isTrans) {
  b_bytes_ = bytes_of(dataType);
  trans_b_ = isTrans;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetCType(TPosition, CubeFormat, DataType dataType) {
  c_bytes_ = bytes_of(dataType);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBiasType(TPosition, CubeFormat, DataType dataType) {
  bias_bytes_ = bytes_of(dataType);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetDequantType(DequantType) { return 0; }
std::int32_t MatmulApiTilingBase::SetShape(std::int32_t m, std::int32_t n, std::int32_t k) {
  m_ = m;
  n_ = n;
  k_ = k;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetOrgShape(std::int32_t orgMIn, std::int32_t orgNIn, std::int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
std::int32_t MatmulApiTilingBase::SetOrgShape(std::int32_t orgMIn, std::int32_t orgNIn, std::int32_t orgKaIn,
                                              std::int32_t orgKbIn) {
  org_m_ = orgMIn;
  org_n_ = orgNIn;
  org_ka_ = orgKaIn;
  org_kb_ = orgKbIn;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
  bias_ = isBiasIn;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetFixSplit(std::int32_t baseMIn, std::int32_t baseNIn, std::int32_t baseKIn) {
  fix_m_ = baseMIn;
  fix_n_ = baseNIn;
  fix_k_ = baseKIn;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBufferSpace(std::int32_t l1Size, std::int32_t l0CSize, std::int32_t, std::int32_t) {
  if (l1Size > 0) l1_ = std::min<std::int64_t>(l1Size, 524288);
  if (l0CSize > 0) l0c_ = std::min<std::int64_t>(l0CSize, 131072);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetMadType(MatrixMadType) { return 0; }
std::int32_t MatmulApiTilingBase::SetSplitRange(std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                                                std::int32_t) {
  return 0;
}
std::int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool, bool) { return 0; }
std::int32_t MatmulApiTilingBase::SetMatmulConfigParams(std::int32_t, bool, ScheduleType, MatrixTraverse traverseIn, bool) {
  if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
  return 0;
}

bool MatmulApiTilingBase::Compute(std::int32_t m, std::int32_t n, std::int32_t k, std::int32_t cores, ::TCubeTiling& t) {
  if (m <= 0 || n <= 0 || k <= 0) return false;
  const std::int32_t k0 = 32 / std::max(1, a_bytes_);
  const std::int32_t acc = 4;                                 // float / int32 in L0C
  const std::int32_t m16 = align_up(m, 16), n16 = align_up(n, 16), kal = align_up(k, k0);
  std::int32_t bm = fix_m_ > 0 ? fix_m_ : std::min(m16, 128);
  std::int32_t bn = fix_n_ > 0 ? fix_n_ : std::min(n16, 256);
  if (fix_m_ <= 0 && bn < 256) bm = std::min(m16, std::max(16, static_cast<std::int32_t>(l0c_ / acc / bn) / 16 * 16));
  if (fix_m_ <= 0) bm = std::min(bm, 256);
  if (fix_n_ <= 0) bn = std::min(n16, std::max(16, static_cast<std::int32_t>(l0c_ / acc / bm) / 16 * 16));
  if (fix_n_ <= 0) bn = std::min(bn, 256);
  if (bm % 16 != 0 || bn % 16 != 0 || static_cast<std::int64_t>(bm) * bn * acc > l0c_) return false;
  std::int32_t bk = fix_k_;
  if (bk <= 0) {
    bk = std::min(kal, 256 / k0 * k0);
    while (bk > k0 && (static_cast<std::int64_t>(bm) * bk * a_bytes_ * 2 > l0a_ ||
                       static_cast<std::int64_t>(bn) * bk * b_bytes_ * 2 > l0b_)) {
      bk -= k0;
    }
  }
  if (bk % k0 != 0 || static_cast<std::int64_t>(bm) * bk * a_bytes_ > l0a_ ||
      static_cast<std::int64_t>(bn) * bk * b_bytes_ > l0b_) {
    return false;
  }
  const bool db_a = static_cast<std::int64_t>(bm) * bk * a_bytes_ * 2 <= l0a_;
  const bool db_b = static_cast<std::int64_t>(bn) * bk * b_bytes_ * 2 <= l0b_;
  const bool db_c = static_cast<std::int64_t>(bm) * bn * acc * 2 <= l0c_;
  const std::int64_t panel = static_cast<std::int64_t>(bm) * bk * a_bytes_ + static_cast<std::int64_t>(bn) * bk * b_bytes_;
  const std::int64_t bias = bias_ ? static_cast<std::int64_t>(bn) * bias_bytes_ : 0;
  const std::int32_t kblocks = ceil_div(k, bk);
  std::int32_t step = 1;
  while (step * 2 <= kblocks && panel * step * 2 * 2 + bias <= l1_) step *= 2;
  std::int32_t depth = panel * step * 2 + bias <= l1_ ? step * 2 : step;
  if (panel * depth + bias > l1_) return false;
  std::memset(&t, 0, sizeof t);
  t.usedCoreNum = cores;
  t.M = org_m_ > 0 ? org_m_ : m;
  t.N = org_n_ > 0 ? org_n_ : n;
  t.Ka = org_ka_ > 0 ? org_ka_ : k;
  t.Kb = org_kb_ > 0 ? org_kb_ : k;
  t.singleCoreM = m;
  t.singleCoreN = n;
  t.singleCoreK = k;
  t.baseM = bm;
  t.baseN = bn;
  t.baseK = bk;
  t.depthA1 = depth;
  t.depthB1 = depth;
  t.stepM = 1;
  t.stepN = 1;
  t.stepKa = step;
  t.stepKb = step;
  t.isBias = bias_ ? 1 : 0;
  t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  t.shareL1Size = static_cast<std::int32_t>(panel * depth + bias);
  t.shareL0CSize = bm * bn * acc * (db_c ? 2 : 1);
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.dbL0A = db_a ? 2 : 1;
  t.dbL0B = db_b ? 2 : 1;
  t.dbL0C = db_c ? 2 : 1;
  t.BatchNum = 1;
  base_m_ = bm;
  base_n_ = bn;
  base_k_ = bk;
  return true;
}

bool MatmulApiTilingBase::Plan(::TCubeTiling& out) { return Compute(m_, n_, k_, 1, out); }

std::int64_t MatmulApiTilingBase::GetTiling(::TCubeTiling& tiling) {
  ::TCubeTiling t{};
  if (!Plan(t)) return -1;
  tiling = t;
  return 0;
}

std::int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& tiling) {
  ::TCubeTiling t{};
  if (!Plan(t)) return -1;
  tiling.set_usedCoreNum(t.usedCoreNum);
  tiling.set_M(t.M);
  tiling.set_N(t.N);
  tiling.set_Ka(t.Ka);
  tiling.set_Kb(t.Kb);
  tiling.set_singleCoreM(t.singleCoreM);
  tiling.set_singleCoreN(t.singleCoreN);
  tiling.set_singleCoreK(t.singleCoreK);
  tiling.set_baseM(t.baseM);
  tiling.set_baseN(t.baseN);
  tiling.set_baseK(t.baseK);
  tiling.set_depthA1(t.depthA1);
  tiling.set_depthB1(t.depthB1);
  tiling.set_stepM(t.stepM);
  tiling.set_stepN(t.stepN);
  tiling.set_isBias(t.isBias);
  tiling.set_transLength(t.transLength);
  tiling.set_iterateOrder(t.iterateOrder);
  tiling.set_shareMode(t.shareMode);
  tiling.set_shareL1Size(t.shareL1Size);
  tiling.set_shareL0CSize(t.shareL0CSize);
  tiling.set_shareUbSize(t.shareUbSize);
  tiling.set_batchM(t.batchM);
  tiling.set_batchN(t.batchN);
  tiling.set_singleBatchM(t.singleBatchM);
  tiling.set_singleBatchN(t.singleBatchN);
  tiling.set_stepKa(t.stepKa);
  tiling.set_stepKb(t.stepKb);
  tiling.set_depthAL1CacheUB(t.depthAL1CacheUB);
  tiling.set_depthBL1CacheUB(t.depthBL1CacheUB);
  tiling.set_dbL0A(t.dbL0A);
  tiling.set_dbL0B(t.dbL0B);
  tiling.set_dbL0C(t.dbL0C);
  tiling.set_BatchNum(t.BatchNum);
  return 0;
}

std::int32_t MultiCoreMatmulTiling::SetDim(std::int32_t dim) {
  dim_ = std::max(1, dim);
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetShape(std::int32_t m, std::int32_t n, std::int32_t k) {
  m_ = m;
  n_ = n;
  k_ = k;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetSingleShape(std::int32_t singleMIn, std::int32_t singleNIn, std::int32_t singleKIn) {
  single_m_ = singleMIn;
  single_n_ = singleNIn;
  single_k_ = singleKIn;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetSingleRange(std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                                                   std::int32_t) {
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetAlignSplit(std::int32_t, std::int32_t, std::int32_t) { return 0; }
std::int32_t MultiCoreMatmulTiling::EnableMultiCoreSplitK(bool flag) {
  split_k_ = flag;
  return 0;
}

bool MultiCoreMatmulTiling::Plan(::TCubeTiling& out) {
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return false;
  std::int32_t sm = single_m_, sn = single_n_;
  if (sm <= 0 || sn <= 0) {
    long long best = -1;
    for (std::int32_t md = 1; md <= dim_; ++md) {
      const std::int32_t nd = dim_ / md;
      const std::int32_t cm = align_up(ceil_div(m_, md), 16), cn = align_up(ceil_div(n_, nd), 16);
      const long long area = static_cast<long long>(cm) * cn;
      if (best < 0 || area < best) {
        best = area;
        sm = cm;
        sn = cn;
      }
    }
  }
  sm = std::min(sm, m_);
  sn = std::min(sn, n_);
  m_dim_ = ceil_div(m_, sm);
  n_dim_ = ceil_div(n_, sn);
  const std::int32_t sk = single_k_ > 0 ? std::min(single_k_, k_) : k_;
  if (org_m_ <= 0) SetOrgShape(m_, n_, k_, k_);
  return Compute(sm, sn, sk, m_dim_ * n_dim_, out);
}

std::int32_t MultiCoreMatmulTiling::GetSingleShape(std::int32_t& shapeM, std::int32_t& shapeN, std::int32_t& shapeK) {
  ::TCubeTiling t{};
  if (!Plan(t)) return -1;
  shapeM = t.singleCoreM;
  shapeN = t.singleCoreN;
  shapeK = t.singleCoreK;
  return 0;
}

std::int32_t MultiCoreMatmulTiling::GetCoreNum(std::int32_t& dim, std::int32_t& mDim, std::int32_t& nDim) {
  ::TCubeTiling t{};
  if (!Plan(t)) return -1;
  dim = m_dim_ * n_dim_;
  mDim = m_dim_;
  nDim = n_dim_;
  return 0;
}

}  // namespace matmul_tiling
