// tiling/matmul_tiling.h -- host-side Matmul tiling: optiling::TCubeTiling (the tiling-data class of
// TCubeTiling, same byte layout as the kernel struct in kernel_tiling/kernel_tiling.h), and the tiling
// calculators matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling. Part of the ascendc-sim clean-room
// simulator; the calculators are defined in runtime/matmul_tiling.cpp (compiled once per machine). The
// tiling they produce fits the Ascend 910B cube core (L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB); the
// choice of base blocks is this simulator's, documented in docs/simulator.md.
#pragma once
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
  TILING_DATA_FIELD_DEF(int32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF(int32_t, M);
  TILING_DATA_FIELD_DEF(int32_t, N);
  TILING_DATA_FIELD_DEF(int32_t, Ka);
  TILING_DATA_FIELD_DEF(int32_t, Kb);
  TILING_DATA_FIELD_DEF(int32_t, singleCoreM);
  TILING_DATA_FIELD_DEF(int32_t, singleCoreN);
  TILING_DATA_FIELD_DEF(int32_t, singleCoreK);
  TILING_DATA_FIELD_DEF(int32_t, baseM);
  TILING_DATA_FIELD_DEF(int32_t, baseN);
  TILING_DATA_FIELD_DEF(int32_t, baseK);
  TILING_DATA_FIELD_DEF(int32_t, depthA1);
  TILING_DATA_FIELD_DEF(int32_t, depthB1);
  TILING_DATA_FIELD_DEF(int32_t, stepM);
  TILING_DATA_FIELD_DEF(int32_t, stepN);
  TILING_DATA_FIELD_DEF(int32_t, isBias);
  TILING_DATA_FIELD_DEF(int32_t, transLength);
  TILING_DATA_FIELD_DEF(int32_t, iterateOrder);
  TILING_DATA_FIELD_DEF(int32_t, shareMode);
  TILING_DATA_FIELD_DEF(int32_t, shareL1Size);
  TILING_DATA_FIELD_DEF(int32_t, shareL0CSize);
  TILING_DATA_FIELD_DEF(int32_t, shareUbSize);
  TILING_DATA_FIELD_DEF(int32_t, batchM);
  TILING_DATA_FIELD_DEF(int32_t, batchN);
  TILING_DATA_FIELD_DEF(int32_t, singleBatchM);
  TILING_DATA_FIELD_DEF(int32_t, singleBatchN);
  TILING_DATA_FIELD_DEF(int32_t, stepKa);
  TILING_DATA_FIELD_DEF(int32_t, stepKb);
  TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB);
  TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB);
  TILING_DATA_FIELD_DEF(int32_t, dbL0A);
  TILING_DATA_FIELD_DEF(int32_t, dbL0B);
  TILING_DATA_FIELD_DEF(int32_t, dbL0C);
  TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB);
  TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS);
  TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN);
  TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG);
  TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD);
  TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB);
  TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS);
  TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN);
  TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG);
  TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD);
  TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB);
  TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1);
  TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN);
  TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG);
  TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2);
  TILING_DATA_FIELD_DEF(int32_t, BatchNum);
  TILING_DATA_FIELD_DEF(int32_t, reserved);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;
}  // namespace optiling

namespace matmul_tiling {

enum class TPosition : std::int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                       SHM = SPM, TSCM, MAX };
enum class CubeFormat : std::int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
// Values of ge::DataType.
enum class DataType : std::int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
  DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_INT4 = 29, DT_UNDEFINED = 28,
};
enum class MatrixTraverse : std::int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : std::int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : std::int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : std::int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  std::uint64_t l1Size = 524288;
  std::uint64_t l0CSize = 131072;
  std::uint64_t ubSize = 196608;
  std::uint64_t l0ASize = 65536;
  std::uint64_t l0BSize = 65536;
};

struct MatmulConfigParams {
  std::int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(std::int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT, MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                     bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
        traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

// What a tiling occupies (MatmulGetTmpBufSize and friends).
struct SysTilingTempBufSize {
  std::int32_t ubSize = 0;
  std::int32_t l1Size = 0;
  std::int32_t l0cSize = 0;
};

// The calculators. A setter returns 0, or -1 for a value the Atlas A2/A3 Matmul cannot take (then nothing
// changes); GetTiling returns -1 when no tiling satisfies the settings and the buffer capacities.
class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase() = default;

  std::int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  std::int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  std::int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  std::int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  std::int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false);
  std::int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true);
  std::int32_t SetDequantType(DequantType dequantType);
  virtual std::int32_t SetShape(std::int32_t m, std::int32_t n, std::int32_t k);
  std::int32_t SetOrgShape(std::int32_t orgMIn, std::int32_t orgNIn, std::int32_t orgKIn);
  std::int32_t SetOrgShape(std::int32_t orgMIn, std::int32_t orgNIn, std::int32_t orgKaIn, std::int32_t orgKbIn);
  std::int32_t SetBias(bool isBiasIn = false);
  std::int32_t EnableBias(bool isBiasIn = false);
  std::int32_t SetFixSplit(std::int32_t baseMIn = -1, std::int32_t baseNIn = -1, std::int32_t baseKIn = -1);
  std::int32_t SetBufferSpace(std::int32_t l1Size = -1, std::int32_t l0CSize = -1, std::int32_t ubSize = -1,
                              std::int32_t btSize = -1);
  std::int32_t SetTraverse(MatrixTraverse traverse);
  std::int32_t SetMadType(MatrixMadType madType);
  std::int32_t SetSplitRange(std::int32_t maxBaseM = -1, std::int32_t maxBaseN = -1, std::int32_t maxBaseK = -1,
                             std::int32_t minBaseM = -1, std::int32_t minBaseN = -1, std::int32_t minBaseK = -1);
  std::int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
  void SetMatmulConfigParams(std::int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false);
  void SetMatmulConfigParams(const MatmulConfigParams& configParams);
  std::int32_t SetSparse(bool isSparseIn = false);
  // The layouts of A, B and C (BSNGD, SBNGD, BNGS1S2) and the batch count of a batched Matmul (IterateBatch /
  // IterateNBatch): members of every tiling class, as the pages' examples use them on MultiCoreMatmulTiling.
  std::int32_t SetALayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d);
  std::int32_t SetBLayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d);
  std::int32_t SetCLayout(std::int32_t b, std::int32_t s, std::int32_t n, std::int32_t g, std::int32_t d);
  std::int32_t SetBatchNum(std::int32_t batch);
  std::int32_t SetBatchInfoForNormal(std::int32_t batchA, std::int32_t batchB, std::int32_t m, std::int32_t n, std::int32_t k);
  std::int64_t GetTiling(optiling::TCubeTiling& tiling);
  std::int64_t GetTiling(::TCubeTiling& tiling);
  std::int32_t GetBaseM() const { return base_m_; }
  std::int32_t GetBaseN() const { return base_n_; }
  std::int32_t GetBaseK() const { return base_k_; }
  // The L1 bank-conflict optimisation is not available on Atlas A2/A3: false.
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  // Fills `out` for single-core shape (m, n, k); false when no tiling fits.
  bool Compute(std::int32_t m, std::int32_t n, std::int32_t k, std::int32_t cores, ::TCubeTiling& out);
  virtual bool Plan(::TCubeTiling& out);

  std::int32_t m_ = -1, n_ = -1, k_ = -1;
  std::int32_t org_m_ = -1, org_n_ = -1, org_ka_ = -1, org_kb_ = -1;
  std::int32_t a_bytes_ = 2, b_bytes_ = 2, c_bytes_ = 4, bias_bytes_ = 4;
  bool a_int4_ = false;
  bool trans_a_ = false, trans_b_ = false, bias_ = false, sparse_ = false, hf32_ = false;
  std::int32_t fix_m_ = -1, fix_n_ = -1, fix_k_ = -1;
  std::int32_t max_bm_ = -1, max_bn_ = -1, max_bk_ = -1, min_bm_ = -1, min_bn_ = -1, min_bk_ = -1;
  bool db_a_ = true, db_b_ = true, db_c_ = true;
  std::int64_t l1_ = 524288, l0c_ = 131072, l0a_ = 65536, l0b_ = 65536, ub_ = 196608, bt_ = 1024;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  std::int32_t mm_config_type_ = 1;
  ScheduleType schedule_ = ScheduleType::INNER_PRODUCT;
  std::int32_t base_m_ = 0, base_n_ = 0, base_k_ = 0;
  // layout and batch information (SetALayout ... SetBatchInfoForNormal), copied into the tiling
  std::int32_t a_layout_[5] = {0, 0, 0, 0, 0}, b_layout_[5] = {0, 0, 0, 0, 0}, c_layout_[5] = {0, 0, 0, 0, 0};
  std::int32_t batch_num_ = 1, batch_a_ = 1, batch_b_ = 1;
};

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
};

// Splits M and N of the whole problem over `dim` cores (and K with EnableMultiCoreSplitK / SetSplitK),
// then tiles one core's share.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  std::int32_t SetDim(std::int32_t dim);
  std::int32_t SetShape(std::int32_t m, std::int32_t n, std::int32_t k) override;
  std::int32_t SetSingleShape(std::int32_t singleMIn = -1, std::int32_t singleNIn = -1, std::int32_t singleKIn = -1);
  std::int32_t SetSingleRange(std::int32_t maxM = -1, std::int32_t maxN = -1, std::int32_t maxK = -1,
                              std::int32_t minM = -1, std::int32_t minN = -1, std::int32_t minK = -1);
  std::int32_t SetAlignSplit(std::int32_t alignM, std::int32_t alignN, std::int32_t alignK);
  std::int32_t GetSingleShape(std::int32_t& shapeM, std::int32_t& shapeN, std::int32_t& shapeK);
  std::int32_t GetCoreNum(std::int32_t& dim, std::int32_t& mDim, std::int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag);
  void SetSplitK(bool flag);

 protected:
  bool Plan(::TCubeTiling& out) override;

  std::int32_t dim_ = 1, single_m_ = -1, single_n_ = -1, single_k_ = -1;
  std::int32_t max_sm_ = -1, max_sn_ = -1, max_sk_ = -1, min_sm_ = -1, min_sn_ = -1, min_sk_ = -1;
  std::int32_t align_m_ = 0, align_n_ = 0, align_k_ = 0;
  std::int32_t m_dim_ = 1, n_dim_ = 1, k_dim_ = 1;
  bool split_k_ = false, planned_ = false;
};

// Batched Matmul (IterateBatch / IterateNBatch): the layouts and batch count (set through the base class)
// go into the tiling; each core computes whole batches (batchCoreM of the `dim` cores along the batches).
class BatchMatmulTiling : public MultiCoreMatmulTiling {
 public:
  BatchMatmulTiling() = default;
  explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MultiCoreMatmulTiling(ascendcPlatform) {}
  using MultiCoreMatmulTiling::GetCoreNum;
  std::int32_t GetCoreNum(std::int32_t& dim, std::int32_t& mDim, std::int32_t& nDim, std::int32_t& batchCoreM,
                          std::int32_t& batchCoreN);

 protected:
  bool Plan(::TCubeTiling& out) override;
  std::int32_t batch_core_m_ = 1;
};

// The buffer use of a tiling (the simulator's figures: L1 = its A/B panels and bias, L0C = its C blocks,
// UB = transLength).
std::int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);
std::int32_t MatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);
std::int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);
std::int32_t MultiCoreMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);
std::int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);
std::int32_t BatchMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, SysTilingTempBufSize& bufSize);

}  // namespace matmul_tiling
