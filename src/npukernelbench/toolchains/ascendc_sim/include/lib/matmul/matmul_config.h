// lib/matmul/matmul_config.h -- the Matmul template configuration: MatmulConfig and its enums, the
// template getters (GetNormalConfig, GetMDLConfig, GetSpecialMDLConfig, GetIBShareNormConfig,
// GetBasicConfig, GetMMConfig with its sub-configs), the predefined CFG_* templates, and the constant
// tiling (MatmulApiStaticTiling, GetMatmulApiTiling). Clean-room part of ascendc-sim, written from the
// public API documentation.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"

enum class CubeFormat : std::uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode : std::uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode : std::uint8_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode : std::uint8_t { SINGLE_BATCH = 0, MULTI_BATCH };
enum class IterateOrder : std::uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : std::uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
enum class IterateMode : std::uint8_t { ITERATE_MODE_NORMAL = 1, ITERATE_MODE_ALL = 2, ITERATE_MODE_BATCH = 4,
                                        ITERATE_MODE_N_BATCH = 8, ITERATE_MODE_DEFAULT = 255 };
enum class MatmulVersion : std::uint8_t { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };
enum class MatmulConfigMode : std::uint8_t { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

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
  bool isCO1Shared = false;
  std::uint32_t sharedCO1BufferSize = 64 * 1024;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
};

constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false, const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true, const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
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
  c.bmmOutMode = bmmOutMode;
  return c;
}

constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const std::uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false, const bool enUnitFlag = false,
                                    const bool isMsgReuse = true, const bool enableUBReuse = true,
                                    const bool enableL1CacheUB = false, const bool enableMixDualMaster = false,
                                    const bool enableKdimReorderLoad = false) {
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

constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                           const std::uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.doMultiDataLoad = false;   // SpecialMDL is its own template: doMultiDataLoad must be false
  c.doSpecialMDL = true;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                            const bool isVecND2NZ = false, const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false, const bool enUnitFlag = true) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doNorm = false;
  c.doIBShareNorm = true;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig GetBasicConfig(const std::uint32_t basicM, const std::uint32_t basicN, const std::uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  return c;
}

// ---- GetMMConfig: a template (configMode) adjusted by any of four sub-configs, in any order ----------
struct MatmulShapeParams {
  std::uint32_t singleCoreM;
  std::uint32_t singleCoreN;
  std::uint32_t singleCoreK;
  std::uint32_t basicM;
  std::uint32_t basicN;
  std::uint32_t basicK;
};
struct MatmulQuantParams {
  bool isPerTensor;
  bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsLimit;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  std::uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
};

namespace matmul {
namespace sim {
constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM;
  c.singleCoreN = p.singleCoreN;
  c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM;
  c.basicN = p.basicN;
  c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor;
  c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) {
  c.isNBatch = p.isNBatch;
  c.batchMode = p.batchMode;
  c.isBiasBatch = p.isBiasBatch;
  c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
  c.intrinsicsCheck = p.intrinsicsLimit;
  c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache;
  c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload;
  c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType;
  c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse;
  c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared;
  c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
}
template <typename P>
constexpr bool is_mm_sub_config = std::is_same_v<P, MatmulShapeParams> || std::is_same_v<P, MatmulQuantParams> ||
                                  std::is_same_v<P, MatmulBatchParams> || std::is_same_v<P, MatmulFuncParams>;
}  // namespace sim
}  // namespace matmul

template <MatmulConfigMode configMode, typename... ArgTypes>
inline constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  static_assert((matmul::sim::is_mm_sub_config<std::remove_cv_t<std::remove_reference_t<ArgTypes>>> && ...),
                "GetMMConfig takes MatmulShapeParams, MatmulQuantParams, MatmulBatchParams and MatmulFuncParams");
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL         ? GetMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                       : GetNormalConfig();
  (matmul::sim::apply(c, args), ...);
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// ---- constant tiling --------------------------------------------------------------------------------
// The tiling fields the template fixes at compile time (-1: not fixed, taken from the runtime tiling).
struct MatmulApiStaticTiling {
  std::int32_t M = -1, N = -1, Ka = -1, Kb = -1;
  std::int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  std::int32_t baseM = -1, baseN = -1, baseK = -1;
  std::int32_t depthA1 = -1, depthB1 = -1;
  std::int32_t stepM = -1, stepN = -1, stepKa = -1, stepKb = -1;
  std::int32_t isBias = -1, transLength = -1, iterateOrder = -1;
  std::int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
  std::int32_t shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
  std::int32_t batchM = -1, batchN = -1, singleBatchM = -1, singleBatchN = -1;
  std::int32_t mxTypePara = -1;
  MatmulConfig cfg{};
};

namespace AscendC {
namespace Impl {
constexpr std::int32_t L1_SIZE = 512 * 1024;
constexpr std::int32_t L0A_SIZE = 64 * 1024;
constexpr std::int32_t L0B_SIZE = 64 * 1024;
constexpr std::int32_t L0C_SIZE = 128 * 1024;
}  // namespace Impl
}  // namespace AscendC

namespace matmul {
namespace sim {
constexpr const MatmulConfig& cfg_of(const MatmulConfig& c) { return c; }
constexpr const MatmulConfig& cfg_of(const MatmulApiStaticTiling& t) { return t.cfg; }
constexpr std::int32_t cmin(std::int32_t a, std::int32_t b) { return a < b ? a : b; }
constexpr std::int32_t cdiv(std::int32_t a, std::int32_t b) { return (a + b - 1) / b; }
}  // namespace sim
}  // namespace matmul

// The constant tiling of a template whose base block (basicM/N/K) and optionally single-core shape
// (singleCoreM/N/K) are fixed: the L1 depths and steps are the simulator's choice (the most K blocks of
// A and B, as a power of two, that fit l1Size twice), documented in docs/simulator.md.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
inline constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                          std::int32_t l1Size = AscendC::Impl::L1_SIZE) {
  MatmulApiStaticTiling t{};
  t.cfg = mmCFG;
  const std::int32_t bm = static_cast<std::int32_t>(mmCFG.basicM), bn = static_cast<std::int32_t>(mmCFG.basicN),
                     bk = static_cast<std::int32_t>(mmCFG.basicK);
  if (bm <= 0 || bn <= 0 || bk <= 0) return t;
  t.baseM = bm;
  t.baseN = bn;
  t.baseK = bk;
  if (mmCFG.singleCoreM > 0 && mmCFG.singleCoreN > 0 && mmCFG.singleCoreK > 0) {
    t.singleCoreM = static_cast<std::int32_t>(mmCFG.singleCoreM);
    t.singleCoreN = static_cast<std::int32_t>(mmCFG.singleCoreN);
    t.singleCoreK = static_cast<std::int32_t>(mmCFG.singleCoreK);
    t.M = t.singleCoreM;
    t.N = t.singleCoreN;
    t.Ka = t.Kb = t.singleCoreK;
  }
  const std::int32_t sa = static_cast<std::int32_t>(sizeof(typename A_TYPE::T));
  const std::int32_t sb = static_cast<std::int32_t>(sizeof(typename B_TYPE::T));
  const std::int32_t panel = bm * bk * sa + bk * bn * sb;
  const std::int32_t kblocks = t.singleCoreK > 0 ? matmul::sim::cdiv(t.singleCoreK, bk) : 8;
  std::int32_t step = 1;
  while (step * 2 <= kblocks && panel * step * 2 * 2 <= l1Size) step *= 2;
  t.stepKa = t.stepKb = step;
  t.depthA1 = t.depthB1 = panel * step * 2 <= l1Size ? step * 2 : step;
  t.stepM = t.stepN = 1;
  t.isBias = 0;
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
  t.dbL0A = bm * bk * sa * 2 <= AscendC::Impl::L0A_SIZE ? 2 : 1;
  t.dbL0B = bk * bn * sb * 2 <= AscendC::Impl::L0B_SIZE ? 2 : 1;
  t.dbL0C = bm * bn * 4 * 2 <= AscendC::Impl::L0C_SIZE ? 2 : 1;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  return t;
}
