// npukb_sim/kernel/cube_types.h -- parameter structs and enums of the AscendC cube path (data movement
// into L1/L0, Mmad, Fixpipe) and the core-type constants of mixed AIC/AIV kernels. Clean-room part of
// ascendc-sim, written from the public API documentation (field names, units and value ranges).
#pragma once
#include <cstdint>

// Quantisation modes of Fixpipe (a device built-in enum on the real toolchain, hence global scope).
// Values follow the QuantPRE encoding of the L0C copy instruction.
enum QuantMode_t : std::uint64_t {
  NoQuant = 0,
  F322F16 = 1,
  VREQ8 = 8,
  REQ8 = 9,
  VDEQF16 = 10,
  DEQF16 = 11,
  F322BF16 = 16,
  VQF322B8_PRE = 23,
  QF322B8_PRE = 24,
};

namespace AscendC {

// Core types of g_coreType (the kernel source is compiled once per core type of the launch).
constexpr std::int32_t MIX = 0;
constexpr std::int32_t AIC = 1;
constexpr std::int32_t AIV = 2;

constexpr std::int32_t BLOCK_CUBE_SIZE = 16;       // rows/cols of a cube fractal
constexpr std::int32_t CUBE_MAX_SIZE = 256;        // elements of a 16 x 16 fractal
constexpr std::int32_t ONE_FRACTAL_BYTES = 512;

// GM (ND) -> L1 (NZ) with on-the-fly format conversion. Units: ndNum/nValue/dValue in elements and
// rows; srcNdMatrixStride, srcDValue, dstNzMatrixStride in elements; dstNzC0Stride, dstNzNStride in
// C0 blocks (32 bytes).
struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(std::uint16_t ndNumIn, std::uint16_t nValueIn, std::uint16_t dValueIn, std::uint16_t srcNdMatrixStrideIn,
              std::uint16_t srcDValueIn, std::uint16_t dstNzC0StrideIn, std::uint16_t dstNzNStrideIn,
              std::uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  std::uint16_t ndNum = 0;
  std::uint16_t nValue = 0;
  std::uint16_t dValue = 0;
  std::uint16_t srcNdMatrixStride = 0;
  std::uint16_t srcDValue = 0;
  std::uint16_t dstNzC0Stride = 0;
  std::uint16_t dstNzNStride = 0;
  std::uint16_t dstNzMatrixStride = 0;
};

// L1 (NZ) -> GM (ND) (DataCopy with Nz2NdParamsFull). srcNdMatrixStride in 256 elements, srcNStride
// in 16 elements, dstDStride and dstNdMatrixStride in elements.
struct Nz2NdParamsFull {
  Nz2NdParamsFull() = default;
  Nz2NdParamsFull(std::uint16_t ndNumIn, std::uint16_t nValueIn, std::uint16_t dValueIn,
                  std::uint16_t srcNdMatrixStrideIn, std::uint16_t srcNStrideIn, std::uint16_t dstDStrideIn,
                  std::uint16_t dstNdMatrixStrideIn)
      : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
        srcNStride(srcNStrideIn), dstDStride(dstDStrideIn), dstNdMatrixStride(dstNdMatrixStrideIn) {}
  std::uint16_t ndNum = 1;
  std::uint16_t nValue = 0;
  std::uint16_t dValue = 0;
  std::uint16_t srcNdMatrixStride = 1;
  std::uint16_t srcNStride = 0;
  std::uint16_t dstDStride = 0;
  std::uint16_t dstNdMatrixStride = 1;
};

// L1 -> L0A/L0B (Load2D). Fractal units of 512 bytes: source fractal of repeat r is
// startIndex + r * srcStride; destination fractal r starts (dstGap + 1) * r fractals after dst.
struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(std::uint16_t startIndexIn, std::uint8_t repeatTimesIn, std::uint16_t srcStrideIn, std::uint8_t sidIn,
                   std::uint16_t dstGapIn, bool ifTransposeIn, std::uint8_t addrModeIn)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), sid(sidIn), dstGap(dstGapIn),
        ifTranspose(ifTransposeIn), addrMode(addrModeIn) {}
  std::uint16_t startIndex = 0;
  std::uint16_t dstGap = 0;
  std::uint16_t srcStride = 0;
  bool ifTranspose = false;
  std::uint8_t repeatTimes = 0;
  std::uint8_t sid = 0;
  std::uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

// Load2D with a square-block transpose (LoadDataWithTranspose).
struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(std::uint16_t startIndexIn, std::uint8_t repeatTimesIn, std::uint16_t srcStrideIn,
                            std::uint16_t dstGapIn, std::uint16_t dstFracGapIn, std::uint8_t addrModeIn)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
        dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
  LoadData2dTransposeParams(std::uint16_t startIndexIn, std::uint8_t repeatTimesIn, std::uint16_t srcStrideIn,
                            std::uint16_t dstGapIn, std::uint16_t dstFracGapIn)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
        dstFracGap(dstFracGapIn) {}
  std::uint16_t startIndex = 0;
  std::uint8_t repeatTimes = 0;
  std::uint16_t srcStride = 0;
  std::uint16_t dstGap = 0;
  std::uint16_t dstFracGap = 0;
  std::uint8_t addrMode = 0;
};

// InitConstValue: repeatTimes repeats of blockNum blocks (32 bytes in L1, 512-byte fractals in L0A/L0B)
// filled with initValue; dstGap blocks are skipped between repeats.
template <typename T>
struct InitConstValueParams {
  InitConstValueParams() = default;
  InitConstValueParams(std::uint16_t repeatTimesIn, std::uint16_t blockNumIn, std::uint16_t dstGapIn, T initValueIn)
      : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
  std::uint16_t repeatTimes = 0;
  std::uint16_t blockNum = 0;
  std::uint16_t dstGap = 0;
  T initValue = 0;
};

struct MmadParams {
  MmadParams() = default;
  MmadParams(std::uint16_t mIn, std::uint16_t nIn, std::uint16_t kIn, bool isBiasIn, std::int32_t fmOffsetIn,
             bool enSsparseIn, bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
  MmadParams(std::uint16_t mIn, std::uint16_t nIn, std::uint16_t kIn, std::uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn) {}
  std::uint16_t m = 0;
  std::uint16_t n = 0;
  std::uint16_t k = 0;
  bool isBias = false;              // deprecated: true accumulates into C (C += A B)
  std::int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  std::uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;       // initial C from the bias table (C2)
  bool cmatrixInitVal = true;       // true: C starts at 0
};

// ---- Load3D (LoadData with LoadData3DParamsV1/V2/V2Pro) and its registers ---------------------------
constexpr std::int32_t PAD_SIZE = 4;   // padList: left, right, top, bottom

// Whether Load3D writes the feature-map (l1H, l1W, padList) and padding-value registers from its
// parameters (true) or uses what SetFmatrix / SetLoadDataPaddingValue set (false).
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : std::uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

// Load3Dv1 (not available on Atlas A2/A3; declared for source compatibility).
template <typename T>
struct LoadData3DParamsV1 {
  std::uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
  std::uint16_t l1H = 0;
  std::uint16_t l1W = 0;
  std::uint16_t c1Index = 0;
  std::uint8_t fetchFilterW = 0;
  std::uint8_t fetchFilterH = 0;
  std::int16_t leftTopW = 0;
  std::int16_t leftTopH = 0;
  std::uint8_t strideW = 0;
  std::uint8_t strideH = 0;
  std::uint8_t filterW = 0;
  std::uint8_t filterH = 0;
  std::uint8_t dilationFilterW = 0;
  std::uint8_t dilationFilterH = 0;
  std::uint8_t jumpStride = 0;
  std::uint8_t repeatMode = 0;
  std::uint8_t repeatTime = 0;
  std::uint8_t cSize = 0;
  T padValue = 0;
};

// Load3Dv2: img2col of an NC1HWC0 feature map in L1 (l1H x l1W pixels, channelSize channels), then the
// [mStartPt, +mExtension) x [kStartPt, +kExtension) window of the img2col matrix into L0A / L0B.
template <typename T>
struct LoadData3DParamsV2 {
  std::uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
  std::uint16_t l1H = 0;
  std::uint16_t l1W = 0;
  std::uint16_t channelSize = 0;
  std::uint16_t kExtension = 0;
  std::uint16_t mExtension = 0;
  std::uint16_t kStartPt = 0;
  std::uint16_t mStartPt = 0;
  std::uint8_t strideW = 1;
  std::uint8_t strideH = 1;
  std::uint8_t filterW = 1;
  std::uint8_t filterH = 1;
  std::uint8_t dilationFilterW = 1;
  std::uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

// Load3Dv2Pro: the same instruction with the window and the filter packed into two words; the feature
// map and the padding value come from the registers (SetFmatrix, SetLoadDataPaddingValue).
struct LoadData3DParamsV2Pro {
  std::uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  std::uint64_t extConfig = 0;                 // mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
  std::uint64_t filterConfig = 0X10101010101;  // dilH << 40 | dilW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW
};

// SetLoadDataRepeat: repeatTime windows, repeatStride apart along the height (repeatMode 0) or the width
// (1) of the img2col matrix, in units of 32 / sizeof(T) elements on Atlas A2/A3.
struct LoadDataRepeatParam {
  LoadDataRepeatParam() = default;
  LoadDataRepeatParam(std::uint16_t repeatStrideIn, std::uint8_t repeatTimeIn, std::uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  std::uint16_t repeatStride = 0;
  std::uint8_t repeatTime = 1;
  std::uint8_t repeatMode = 0;
};

// ---- L0C copy-out ------------------------------------------------------------------------------------
enum class CO2Layout : std::uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB = false;   // the destination is UB (L0C -> UB exists on other chips only)
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

// The L0C -> GM / L1 DataCopy (the instruction under Fixpipe): quantisation, ReLU and NZ2ND come from
// these fields plus the fixpipe registers (SetFixpipePreQuantFlag, SetFixPipeConfig, SetFixpipeNz2ndFlag).
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(std::uint16_t nSizeIn, std::uint16_t mSizeIn, std::uint32_t dstStrideIn, std::uint16_t srcStrideIn,
                        QuantMode_t quantPreIn, std::uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
        reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
  std::uint8_t sid = 0;
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint32_t dstStride = 0;
  std::uint16_t srcStride = 0;
  std::uint8_t unitFlag = 0;
  std::uint8_t clipReluPre = 0;
  std::uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

// The other chips' Fixpipe parameter blocks (Ascend 950: FixpipeParamsArch3510; Atlas 200I/500 A2:
// FixpipeParamsM300). Declared so that sources naming them compile; Atlas A2/A3 reject them at run time.
struct Nz2NdParams {
  std::uint16_t ndNum = 1;
  std::uint16_t srcNdStride = 0;
  std::uint32_t dstNdStride = 0;
};
struct Nz2DnParams {
  std::uint16_t dnNum = 1;
  std::uint16_t srcNzMatrixStride = 0;
  std::uint32_t dstDnMatrixStride = 0;
  std::uint16_t srcNzC0Stride = 0;
};
template <CO2Layout format>
struct TransformParams {};
template <>
struct TransformParams<CO2Layout::NZ> {
  TransformParams() {}
  using PARAMS = std::uint8_t;
};
template <>
struct TransformParams<CO2Layout::ROW_MAJOR> {
  TransformParams() {}
  using PARAMS = Nz2NdParams;
};
template <>
struct TransformParams<CO2Layout::COLUMN_MAJOR> {
  TransformParams() {}
  using PARAMS = Nz2DnParams;
};
template <CO2Layout format>
struct FixpipeParamsArch3510 {
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint16_t srcStride = 0;
  std::uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint64_t deqScalar = 0;
  bool reluEn = false;
  std::uint8_t unitFlag = 0;
  typename TransformParams<format>::PARAMS params{};
  std::uint8_t dualDstCtrl = 0;
  bool subBlockId = false;
  bool isChannelSplit = false;
};
struct FixpipeParamsM300 {
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint16_t srcStride = 0;
  std::uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint64_t deqScalar = 0;
  bool reluEn = false;
  std::uint8_t unitFlag = 0;
  std::uint16_t ndNum = 1;
  std::uint16_t srcNdStride = 0;
  std::uint16_t dstNdStride = 0;
};

// CO1 (L0C, NZ) -> GM / L1. srcStride: distance between adjacent 16-column (Z) blocks of the source in
// C0 rows (16 elements); dstStride: ND row length in elements (NZ2ND) or the distance between Z blocks
// of the destination in 32-byte blocks (NZ); srcNdStride in 1024 bytes; dstNdStride in elements.
struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(std::uint16_t nSizeIn, std::uint16_t mSizeIn, std::uint16_t srcStrideIn, std::uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(std::uint16_t nSizeIn, std::uint16_t mSizeIn, std::uint16_t srcStrideIn, std::uint32_t dstStrideIn,
                    bool reluEnIn, std::uint16_t ndNumIn, std::uint16_t srcNdStrideIn, std::uint16_t dstNdStrideIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn), reluEn(reluEnIn) {}
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint16_t srcStride = 0;
  std::uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint64_t deqScalar = 0;
  std::uint16_t ndNum = 1;
  std::uint16_t srcNdStride = 0;
  std::uint16_t dstNdStride = 0;
  bool reluEn = false;
  std::uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

}  // namespace AscendC
