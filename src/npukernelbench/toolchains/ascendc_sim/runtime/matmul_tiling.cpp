// matmul_tiling.cpp -- the Matmul tiling calculators of tiling/matmul_tiling.h (MatmulApiTiling,
// MultiCoreMatmulTiling, BatchMatmulTiling) and the tiling buffer-size queries. Part of the ascendc-sim
// clean-room simulator.
//
// Choice of a single core's tiling (this simulator's own rule, documented in docs/simulator.md; every
// result satisfies the documented TCubeTiling constraints):
//  * baseM x baseN: the largest block of 16-multiples, at most 128 x 256, whose float (int32) result
//    fits L0C, shrunk to the 16-aligned problem and clamped to SetSplitRange; SetFixSplit overrides;
//  * baseK: the largest multiple of the K alignment (C0 when A is not transposed and B is; otherwise
//    16 and C0), at most 256, for which A and B base blocks fit L0A / L0B twice (double buffering);
//  * stepKa = stepKb: the most K blocks (a power of two) whose A and B panels fit L1 twice (depthA1 =
//    depthB1 = 2 x step, or 1 x step without room or with SetDoubleBuffer(false, ...)), with the bias row;
//  * MultiCoreMatmulTiling: mDim x nDim (x kDim with split K) <= dim cores minimising the per-core MAC
//    work (singleCoreM x singleCoreN x singleCoreK), then the per-core operand traffic (M x K + K x N),
//    honouring SetSingleShape / SetSingleRange / SetAlignSplit.
#include "tiling/matmul_tiling.h"

#include "npukb_sim/soc.h"

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

bool ab_type_ok(DataType t) {
  return t == DataType::DT_FLOAT16 || t == DataType::DT_BF16 || t == DataType::DT_FLOAT || t == DataType::DT_INT8 ||
         t == DataType::DT_INT4;
}
bool ab_pos_ok(TPosition p) {
  return p == TPosition::GM || p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC ||
         p == TPosition::TSCM;
}
bool ab_format_ok(CubeFormat f) {
  return f == CubeFormat::ND || f == CubeFormat::NZ || f == CubeFormat::VECTOR || f == CubeFormat::SCALAR;
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() = default;

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
  std::uint64_t v = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
  if (v) l1_ = static_cast<std::int64_t>(v);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
  if (v) l0c_ = static_cast<std::int64_t>(v);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v);
  if (v) l0a_ = static_cast<std::int64_t>(v);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v);
  if (v) l0b_ = static_cast<std::int64_t>(v);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
  if (v) ub_ = static_cast<std::int64_t>(v);
}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  l1_ = static_cast<std::int64_t>(platform.l1Size);
  l0c_ = static_cast<std::int64_t>(platform.l0CSize);
  l0a_ = static_cast<std::int64_t>(platform.l0ASize);
  l0b_ = static_cast<std::int64_t>(platform.l0BSize);
  ub_ = static_cast<std::int64_t>(platform.ubSize);
}

std::int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  if (!ab_type_ok(dataType) || !ab_pos_ok(pos) || !ab_format_ok(type)) return -1;
  a_bytes_ = bytes_of(dataType);
  a_int4_ = dataType == DataType::DT_INT4;
  trans_a_ = isTrans;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  if (!ab_type_ok(dataType) || !ab_pos_ok(pos) || !ab_format_ok(type) || type == CubeFormat::VECTOR) return -1;
  b_bytes_ = bytes_of(dataType);
  trans_b_ = isTrans;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  const bool type_ok = dataType == DataType::DT_FLOAT16 || dataType == DataType::DT_FLOAT || dataType == DataType::DT_BF16 ||
                       dataType == DataType::DT_INT32 || dataType == DataType::DT_INT8;
  const bool pos_ok = pos == TPosition::GM || pos == TPosition::VECIN || pos == TPosition::VECOUT ||
                      pos == TPosition::VECCALC || pos == TPosition::CO1;
  const bool fmt_ok = type == CubeFormat::ND || type == CubeFormat::NZ || type == CubeFormat::ND_ALIGN;
  if (!type_ok || !pos_ok || !fmt_ok) return -1;
  c_bytes_ = bytes_of(dataType);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  const bool type_ok = dataType == DataType::DT_FLOAT16 || dataType == DataType::DT_FLOAT || dataType == DataType::DT_INT32;
  const bool pos_ok = pos == TPosition::GM || pos == TPosition::VECIN || pos == TPosition::VECOUT ||
                      pos == TPosition::VECCALC || pos == TPosition::TSCM;
  if (!type_ok || !pos_ok || type != CubeFormat::ND) return -1;
  bias_bytes_ = bytes_of(dataType);
  return 0;
}
// The scale matrices of MxMatmul (Ascend 950 only).
std::int32_t MatmulApiTilingBase::SetScaleAType(TPosition, CubeFormat, bool) { return -1; }
std::int32_t MatmulApiTilingBase::SetScaleBType(TPosition, CubeFormat, bool) { return -1; }
std::int32_t MatmulApiTilingBase::SetDequantType(DequantType dequantType) {
  return dequantType == DequantType::SCALAR || dequantType == DequantType::TENSOR ? 0 : -1;
}
std::int32_t MatmulApiTilingBase::SetShape(std::int32_t m, std::int32_t n, std::int32_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return -1;
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
  if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
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
std::int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) { return SetBias(isBiasIn); }
std::int32_t MatmulApiTilingBase::SetFixSplit(std::int32_t baseMIn, std::int32_t baseNIn, std::int32_t baseKIn) {
  auto bad = [](std::int32_t v) { return v == 0 || v < -1; };
  if (bad(baseMIn) || bad(baseNIn) || bad(baseKIn)) return -1;
  fix_m_ = baseMIn;
  fix_n_ = baseNIn;
  fix_k_ = baseKIn;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBufferSpace(std::int32_t l1Size, std::int32_t l0CSize, std::int32_t ubSize,
                                                 std::int32_t btSize) {
  auto bad = [](std::int32_t v, std::int64_t cap) { return v == 0 || v < -1 || v > cap; };
  if (bad(l1Size, 524288) || bad(l0CSize, 131072) || bad(ubSize, 196608) || bad(btSize, 1024)) return -1;
  if (l1Size > 0) l1_ = l1Size;
  if (l0CSize > 0) l0c_ = l0CSize;
  if (ubSize > 0) ub_ = ubSize;
  if (btSize > 0) bt_ = btSize;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  if (traverse != MatrixTraverse::FIRSTM && traverse != MatrixTraverse::FIRSTN) return -1;
  traverse_ = traverse;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  if (madType == MatrixMadType::MXMODE) return -1;   // MxMatmul: Ascend 950 only
  hf32_ = madType == MatrixMadType::HF32;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetSplitRange(std::int32_t maxBaseM, std::int32_t maxBaseN, std::int32_t maxBaseK,
                                                std::int32_t minBaseM, std::int32_t minBaseN, std::int32_t minBaseK) {
  auto bad = [](std::int32_t v) { return v == 0 || v < -1; };
  if (bad(maxBaseM) || bad(maxBaseN) || bad(maxBaseK) || bad(minBaseM) || bad(minBaseN) || bad(minBaseK)) return -1;
  auto inverted = [](std::int32_t lo, std::int32_t hi) { return lo > 0 && hi > 0 && lo > hi; };
  if (inverted(minBaseM, maxBaseM) || inverted(minBaseN, maxBaseN) || inverted(minBaseK, maxBaseK)) return -1;
  max_bm_ = maxBaseM;
  max_bn_ = maxBaseN;
  max_bk_ = maxBaseK;
  min_bm_ = minBaseM;
  min_bn_ = minBaseN;
  min_bk_ = minBaseK;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetDoubleBuffer(bool a, bool b, bool c, bool, bool, bool) {
  db_a_ = a;
  db_b_ = b;
  db_c_ = c;
  return 0;
}
void MatmulApiTilingBase::SetMatmulConfigParams(std::int32_t mmConfigTypeIn, bool enableL1CacheUBIn,
                                                ScheduleType scheduleTypeIn, MatrixTraverse traverseIn, bool enVecND2NZIn) {
  SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn, traverseIn, enVecND2NZIn));
}
void MatmulApiTilingBase::SetMatmulConfigParams(const MatmulConfigParams& configParams) {
  if (configParams.mmConfigType == 0 || configParams.mmConfigType == 1) mm_config_type_ = configParams.mmConfigType;
  schedule_ = configParams.scheduleType;
  if (configParams.traverse != MatrixTraverse::NOSET) traverse_ = configParams.traverse;
}
std::int32_t MatmulApiTilingBase::SetSparse(bool isSparseIn) {
  sparse_ = isSparseIn;
  return 0;
}

bool MatmulApiTilingBase::Compute(std::int32_t m, std::int32_t n, std::int32_t k, std::int32_t cores, ::TCubeTiling& t) {
  if (m <= 0 || n <= 0 || k <= 0) return false;
  const std::int32_t c0 = a_int4_ ? 64 : 32 / std::max(1, a_bytes_);
  // baseK alignment: C0 when A is not transposed and B is, else 16 (and C0)
  const std::int32_t k_al = (!trans_a_ && trans_b_) ? c0 : std::max(16, c0);
  const std::int32_t acc = 4;                                 // float / int32 in L0C
  const std::int32_t m16 = align_up(m, 16), n16 = align_up(n, 16), kal = align_up(k, k_al);
  auto clamp = [](std::int32_t v, std::int32_t lo, std::int32_t hi, std::int32_t al) {
    if (hi > 0) v = std::min(v, std::max(al, hi / al * al));
    if (lo > 0) v = std::max(v, align_up(lo, al));
    return v;
  };
  std::int32_t bm = fix_m_ > 0 ? fix_m_ : std::min(m16, 128);
  std::int32_t bn = fix_n_ > 0 ? fix_n_ : std::min(n16, 256);
  if (fix_m_ <= 0 && bn < 256) bm = std::min(m16, std::max(16, static_cast<std::int32_t>(l0c_ / acc / bn) / 16 * 16));
  if (fix_m_ <= 0) bm = clamp(std::min(bm, 256), min_bm_, max_bm_, 16);
  if (fix_n_ <= 0) bn = std::min(n16, std::max(16, static_cast<std::int32_t>(l0c_ / acc / bm) / 16 * 16));
  if (fix_n_ <= 0) bn = clamp(std::min(bn, 256), min_bn_, max_bn_, 16);
  // documented SetFixSplit limits: baseM <= singleM aligned to 16, baseN <= singleN aligned to C0
  if (fix_m_ > 0 && fix_m_ > m16) return false;
  if (fix_n_ > 0 && fix_n_ > align_up(n, c0)) return false;
  if (bm % 16 != 0 || bn % 16 != 0) return false;
  const std::int32_t dbc = db_c_ && static_cast<std::int64_t>(bm) * bn * acc * 2 <= l0c_ ? 2 : 1;
  if (static_cast<std::int64_t>(bm) * bn * acc > l0c_) return false;
  if (bias_ && static_cast<std::int64_t>(bn) * 4 > bt_) return false;   // the bias row in the bias table
  std::int32_t bk = fix_k_;
  if (bk <= 0) {
    bk = std::min(kal, 256 / k_al * k_al);
    bk = clamp(bk, min_bk_, max_bk_, k_al);
    while (bk > k_al && (static_cast<std::int64_t>(bm) * bk * a_bytes_ * 2 > l0a_ ||
                         static_cast<std::int64_t>(bn) * bk * b_bytes_ * 2 > l0b_)) {
      bk -= k_al;
    }
  }
  if (bk % k_al != 0 || static_cast<std::int64_t>(bm) * bk * a_bytes_ > l0a_ ||
      static_cast<std::int64_t>(bn) * bk * b_bytes_ > l0b_) {
    return false;
  }
  const std::int32_t dba = db_a_ && static_cast<std::int64_t>(bm) * bk * a_bytes_ * 2 <= l0a_ ? 2 : 1;
  const std::int32_t dbb = db_b_ && static_cast<std::int64_t>(bn) * bk * b_bytes_ * 2 <= l0b_ ? 2 : 1;
  const std::int64_t panel = static_cast<std::int64_t>(bm) * bk * a_bytes_ + static_cast<std::int64_t>(bn) * bk * b_bytes_;
  const std::int64_t bias = bias_ ? static_cast<std::int64_t>(bn) * bias_bytes_ : 0;
  const std::int32_t kblocks = ceil_div(k, bk);
  const std::int32_t l1db = db_a_ && db_b_ ? 2 : 1;
  std::int32_t step = 1;
  while (step * 2 <= kblocks && panel * step * 2 * l1db + bias <= l1_) step *= 2;
  const std::int32_t depth = panel * step * l1db + bias <= l1_ ? step * l1db : step;
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
  t.shareL0CSize = bm * bn * acc * dbc;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.dbL0A = dba;
  t.dbL0B = dbb;
  t.dbL0C = dbc;
  t.ALayoutInfoB = a_layout_[0];
  t.ALayoutInfoS = a_layout_[1];
  t.ALayoutInfoN = a_layout_[2];
  t.ALayoutInfoG = a_layout_[3];
  t.ALayoutInfoD = a_layout_[4];
  t.BLayoutInfoB = b_layout_[0];
  t.BLayoutInfoS = b_layout_[1];
  t.BLayoutInfoN = b_layout_[2];
  t.BLayoutInfoG = b_layout_[3];
  t.BLayoutInfoD = b_layout_[4];
  t.CLayoutInfoB = c_layout_[0];
  t.CLayoutInfoS1 = c_layout_[1];
  t.CLayoutInfoN = c_layout_[2];
  t.CLayoutInfoG = c_layout_[3];
  t.CLayoutInfoS2 = c_layout_[4];
  t.BatchNum = batch_num_;
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
  tiling.set_ALayoutInfoB(t.ALayoutInfoB);
  tiling.set_ALayoutInfoS(t.ALayoutInfoS);
  tiling.set_ALayoutInfoN(t.ALayoutInfoN);
  tiling.set_ALayoutInfoG(t.ALayoutInfoG);
  tiling.set_ALayoutInfoD(t.ALayoutInfoD);
  tiling.set_BLayoutInfoB(t.BLayoutInfoB);
  tiling.set_BLayoutInfoS(t.BLayoutInfoS);
  tiling.set_BLayoutInfoN(t.BLayoutInfoN);
  tiling.set_BLayoutInfoG(t.BLayoutInfoG);
  tiling.set_BLayoutInfoD(t.BLayoutInfoD);
  tiling.set_CLayoutInfoB(t.CLayoutInfoB);
  tiling.set_CLayoutInfoS1(t.CLayoutInfoS1);
  tiling.set_CLayoutInfoN(t.CLayoutInfoN);
  tiling.set_CLayoutInfoG(t.CLayoutInfoG);
  tiling.set_CLayoutInfoS2(t.CLayoutInfoS2);
  tiling.set_BatchNum(t.BatchNum);
  return 0;
}

// ---- MultiCoreMatmulTiling ----------------------------------------------------------------------------
std::int32_t MultiCoreMatmulTiling::SetDim(std::int32_t dim) {
  if (dim <= 0 || dim > npukb::vector_cores()) return -1;
  dim_ = dim;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetShape(std::int32_t m, std::int32_t n, std::int32_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return -1;
  m_ = m;
  n_ = n;
  k_ = k;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetSingleShape(std::int32_t singleMIn, std::int32_t singleNIn, std::int32_t singleKIn) {
  auto bad = [](std::int32_t v) { return v == 0 || v < -1; };
  if (bad(singleMIn) || bad(singleNIn) || bad(singleKIn)) return -1;
  single_m_ = singleMIn;
  single_n_ = singleNIn;
  single_k_ = singleKIn;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetSingleRange(std::int32_t maxM, std::int32_t maxN, std::int32_t maxK,
                                                   std::int32_t minM, std::int32_t minN, std::int32_t minK) {
  auto bad = [](std::int32_t v) { return v == 0 || v < -1; };
  if (bad(maxM) || bad(maxN) || bad(maxK) || bad(minM) || bad(minN) || bad(minK)) return -1;
  auto inverted = [](std::int32_t lo, std::int32_t hi) { return lo > 0 && hi > 0 && lo > hi; };
  if (inverted(minM, maxM) || inverted(minN, maxN) || inverted(minK, maxK)) return -1;
  max_sm_ = maxM;
  max_sn_ = maxN;
  max_sk_ = maxK;
  min_sm_ = minM;
  min_sn_ = minN;
  min_sk_ = minK;
  return 0;
}
std::int32_t MultiCoreMatmulTiling::SetAlignSplit(std::int32_t alignM, std::int32_t alignN, std::int32_t alignK) {
  if (alignM < -1 || alignN < -1 || alignK < -1) return -1;
  align_m_ = std::max(0, alignM);
  align_n_ = std::max(0, alignN);
  align_k_ = std::max(0, alignK);
  return 0;
}
void MultiCoreMatmulTiling::EnableMultiCoreSplitK(bool flag) { split_k_ = flag; }
void MultiCoreMatmulTiling::SetSplitK(bool flag) { split_k_ = flag; }

bool MultiCoreMatmulTiling::Plan(::TCubeTiling& out) {
  planned_ = false;
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return false;
  auto aligned = [](std::int32_t v, std::int32_t al) { return al > 1 ? align_up(v, al) : v; };
  auto ranged = [](std::int32_t v, std::int32_t lo, std::int32_t hi) {
    if (hi > 0) v = std::min(v, hi);
    if (lo > 0) v = std::max(v, lo);
    return v;
  };
  const std::int32_t m_al = std::max(align_m_, 16), n_al = std::max(align_n_, 16);
  std::int32_t sm = single_m_, sn = single_n_, sk = single_k_ > 0 ? std::min(single_k_, k_) : k_;
  std::int32_t kd = 1;
  if (sm <= 0 || sn <= 0) {
    long long best = -1, best_traffic = 0;
    const std::int32_t kmax = split_k_ ? dim_ : 1;
    for (std::int32_t kdim = 1; kdim <= kmax; ++kdim) {
      for (std::int32_t md = 1; md * kdim <= dim_; ++md) {
        const std::int32_t nd = dim_ / (md * kdim);
        if (nd < 1) continue;
        const std::int32_t cm = ranged(aligned(ceil_div(m_, md), m_al), min_sm_, max_sm_);
        const std::int32_t cn = ranged(aligned(ceil_div(n_, nd), n_al), min_sn_, max_sn_);
        const std::int32_t ck = aligned(ceil_div(k_, kdim), std::max(align_k_, 1));
        // Least per-core MAC work first; among equal work, least operand traffic per core.
        const long long work = static_cast<long long>(cm) * cn * ck;
        const long long traffic = static_cast<long long>(cm) * ck + static_cast<long long>(ck) * cn;
        if (best < 0 || work < best || (work == best && traffic < best_traffic)) {
          best = work;
          best_traffic = traffic;
          if (single_m_ <= 0) sm = cm;
          if (single_n_ <= 0) sn = cn;
          if (split_k_ && single_k_ <= 0) sk = ck;
          kd = kdim;
        }
      }
    }
  }
  sm = std::min(sm, m_);
  sn = std::min(sn, n_);
  sk = std::min(sk, k_);
  m_dim_ = ceil_div(m_, sm);
  n_dim_ = ceil_div(n_, sn);
  k_dim_ = split_k_ ? ceil_div(k_, sk) : 1;
  (void)kd;
  if (m_dim_ * n_dim_ * k_dim_ > npukb::vector_cores()) return false;   // more cores than the chip has
  if (org_m_ <= 0) {
    org_m_ = m_;
    org_n_ = n_;
    org_ka_ = org_kb_ = k_;
  }
  const bool ok = Compute(sm, sn, sk, m_dim_ * n_dim_ * k_dim_, out);
  planned_ = ok;
  return ok;
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
  dim = m_dim_ * n_dim_ * k_dim_;
  mDim = m_dim_;
  nDim = n_dim_;
  return 0;
}

// ---- BatchMatmulTiling ----------------------------------------------------------------------------------
namespace {
bool layout_ok(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d) {
  return b > 0 && s > 0 && n > 0 && g > 0 && d > 0;
}
}  // namespace

std::int32_t MatmulApiTilingBase::SetALayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d) {
  if (!layout_ok(b, s, n, g, d)) return -1;
  const std::int32_t v[5] = {b, s, n, g, d};
  std::memcpy(a_layout_, v, sizeof v);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBLayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d) {
  if (!layout_ok(b, s, n, g, d)) return -1;
  const std::int32_t v[5] = {b, s, n, g, d};
  std::memcpy(b_layout_, v, sizeof v);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetCLayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d) {
  if (!layout_ok(b, s, n, g, d)) return -1;
  const std::int32_t v[5] = {b, s, n, g, d};
  std::memcpy(c_layout_, v, sizeof v);
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBatchNum(std::int32_t batch) {
  if (batch <= 0) return -1;
  batch_num_ = batch;
  return 0;
}
std::int32_t MatmulApiTilingBase::SetBatchInfoForNormal(std::int32_t batchA, std::int32_t batchB, std::int32_t m,
                                                      std::int32_t n, std::int32_t k) {
  if (batchA <= 0 || batchB <= 0 || std::max(batchA, batchB) % std::min(batchA, batchB) != 0) return -1;
  if (SetShape(m, n, k) != 0) return -1;
  batch_a_ = batchA;
  batch_b_ = batchB;
  batch_num_ = std::max(batchA, batchB);
  a_layout_[0] = batchA;
  b_layout_[0] = batchB;
  c_layout_[0] = batch_num_;
  return 0;
}
bool BatchMatmulTiling::Plan(::TCubeTiling& out) {
  planned_ = false;
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return false;
  batch_core_m_ = std::max(1, std::min(dim_, batch_num_));
  m_dim_ = n_dim_ = k_dim_ = 1;
  if (org_m_ <= 0) {
    org_m_ = m_;
    org_n_ = n_;
    org_ka_ = org_kb_ = k_;
  }
  const bool ok = Compute(m_, n_, k_, batch_core_m_, out);
  planned_ = ok;
  return ok;
}
std::int32_t BatchMatmulTiling::GetCoreNum(std::int32_t& dim, std::int32_t& mDim, std::int32_t& nDim,
                                           std::int32_t& batchCoreM, std::int32_t& batchCoreN) {
  ::TCubeTiling t{};
  if (!Plan(t)) return -1;
  mDim = m_dim_;
  nDim = n_dim_;
  batchCoreM = batch_core_m_;
  batchCoreN = 1;
  dim = batchCoreM * batchCoreN * mDim * nDim;
  return 0;
}

// ---- buffer use of a tiling --------------------------------------------------------------------------
namespace {
std::int32_t buf_size(const ::TCubeTiling& t, SysTilingTempBufSize& bufSize) {
  if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.shareL1Size <= 0 || t.shareL0CSize <= 0) return -1;
  bufSize.l1Size = t.shareL1Size;
  bufSize.l0cSize = t.shareL0CSize;
  bufSize.ubSize = t.transLength;
  return 0;
}
::TCubeTiling from_optiling(optiling::TCubeTiling& o) {
  ::TCubeTiling t{};
  t.baseM = o.get_baseM();
  t.baseN = o.get_baseN();
  t.baseK = o.get_baseK();
  t.shareL1Size = o.get_shareL1Size();
  t.shareL0CSize = o.get_shareL0CSize();
  t.transLength = o.get_transLength();
  return t;
}
}  // namespace

std::int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
  return buf_size(from_optiling(tiling), bufSize);
}
std::int32_t MatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) { return buf_size(tiling, bufSize); }
std::int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
  return buf_size(from_optiling(tiling), bufSize);
}
std::int32_t MultiCoreMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
  return buf_size(tiling, bufSize);
}
std::int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
  return buf_size(from_optiling(tiling), bufSize);
}
std::int32_t BatchMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
  return buf_size(tiling, bufSize);
}

}  // namespace matmul_tiling
