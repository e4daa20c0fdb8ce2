// npukb_sim/kernel/types.h -- scalar types, enums and parameter structs of the AscendC kernel API.
// Clean-room part of the ascendc-sim simulator (written from the public API documentation).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npukb_sim/data_format.h"   // DataFormat, TransDataConfig
#include "npukb_sim/runtime.h"

// ---- half / bfloat16_t -------------------------------------------------------------------------
// half is a built-in 16-bit float type on the device compiler; GCC 12 provides _Float16, which keeps
// template deduction and arithmetic (promotion to float in mixed expressions) close to bisheng.
using half = _Float16;
using float16_t = half;
using float32_t = float;

namespace npukb {
namespace detail {
NPUKB_VALUE_FN inline std::uint32_t f32_bits(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }
NPUKB_VALUE_FN inline float bits_f32(std::uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
}  // namespace detail

// bfloat16: 1 sign, 8 exponent, 7 mantissa bits; conversion from float rounds to nearest even.
class bf16 {
 public:
  bf16() = default;
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U> || std::is_same_v<U, _Float16>>>
  NPUKB_VALUE_FN bf16(U v) : bits_(from_float(static_cast<float>(v))) {}  // NOLINT: implicit like the device type
  NPUKB_VALUE_FN operator float() const { return detail::bits_f32(static_cast<std::uint32_t>(bits_) << 16); }
  NPUKB_VALUE_FN static bf16 from_bits(std::uint16_t b) { bf16 r; r.bits_ = b; return r; }
  NPUKB_VALUE_FN std::uint16_t bits() const { return bits_; }
  NPUKB_VALUE_FN bf16& operator+=(float o) { *this = bf16(float(*this) + o); return *this; }
  NPUKB_VALUE_FN bf16& operator-=(float o) { *this = bf16(float(*this) - o); return *this; }
  NPUKB_VALUE_FN bf16& operator*=(float o) { *this = bf16(float(*this) * o); return *this; }
  NPUKB_VALUE_FN bf16& operator/=(float o) { *this = bf16(float(*this) / o); return *this; }
  NPUKB_VALUE_FN bf16 operator-() const { return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u)); }

  NPUKB_VALUE_FN static std::uint16_t from_float(float f) {
    std::uint32_t u = detail::f32_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
    std::uint32_t lsb = (u >> 16) & 1u;
    u += 0x7fffu + lsb;
    return static_cast<std::uint16_t>(u >> 16);
  }

 private:
  std::uint16_t bits_;
};
}  // namespace npukb

using bfloat16_t = npukb::bf16;

namespace AscendC {

// Scalar conversions of the public API under their names before CANN 9 (now Cast, sys_var.h).
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }

struct int4b_t { std::uint8_t storage; };  // packed 4-bit integers (storage only in the simulator)
// The Ascend 950 scale type of 8 exponent bits (MX formats). Storage only: on the A2 / A3 series it is named
// by AscendAntiQuant's PER_GROUP float4 form, which is documented for the Ascend 950PR / 950DT only.
struct fp8_e8m0_t { std::uint8_t storage; };

// ---- positions and pipes -------------------------------------------------------------------------
enum class TPosition : std::uint8_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
  C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;

enum class Hardware : std::uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

enum class HardEvent : std::uint8_t {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
  MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3,
  MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX,
};

enum class RoundMode : std::uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

enum class CMPMODE : std::uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : std::uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : std::uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : std::uint8_t { NORMAL = 0, COUNTER };
// L2 cache mode of a GlobalTensor (SetL2CacheHint); CACHE_MODE_LAST is kept for older kernels.
enum class CacheMode : std::uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2,
                                      CACHE_MODE_PERSISTENT = 4 };
enum CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
enum class AtomicDtype : std::uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp : std::uint8_t { ATOMIC_SUM = 0, ATOMIC_MAX, ATOMIC_MIN };
enum class BlockMode : std::uint8_t { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL, BLOCK_MODE_DEPTHWISE };
// The shape a LocalTensor carries (SetShapeInfo / GetShapeInfo): the library APIs that take no
// explicit shape (SoftMax family) read the rows from it. shape: the laid-out (padded) dims;
// originalShape: the valid ones. K_MAX_DIM is the documented bound of both arrays. (Operators define
// the macro K_MAX_SHAPE_DIM themselves, to 0 before the include to shrink LocalTensor on the device;
// this header neither defines nor uses that name.)
constexpr std::int32_t K_MAX_DIM = 8;
struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(const std::uint8_t inputShapeDim, const std::uint32_t inputShape[], const std::uint8_t inputOriginalShapeDim,
            const std::uint32_t inputOriginalShape[], const DataFormat inputFormat)
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    for (std::uint32_t i = 0; i < shapeDim && i < static_cast<std::uint32_t>(K_MAX_DIM); ++i) shape[i] = inputShape[i];
    for (std::uint32_t i = 0; i < originalShapeDim && i < static_cast<std::uint32_t>(K_MAX_DIM); ++i) originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(const std::uint8_t inputShapeDim, const std::uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(const std::uint8_t inputShapeDim, const std::uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}
  std::uint8_t shapeDim = 0;
  std::uint8_t originalShapeDim = 0;
  std::uint32_t shape[K_MAX_DIM] = {};
  std::uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};

// The product of a ShapeInfo's dims (its shape, not its original shape).
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int size = 1;
  for (std::uint32_t i = 0; i < shapeInfo.shapeDim && i < static_cast<std::uint32_t>(K_MAX_DIM); ++i) {
    size *= static_cast<int>(shapeInfo.shape[i]);
  }
  return size;
}

enum class TransposeType : std::uint8_t { TRANSPOSE_TYPE_NONE, TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213, TRANSPOSE_NZ2NZ_012_WITH_N, TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N, TRANSPOSE_ND2ND_ONLY, TRANSPOSE_ND_UB_GM, TRANSPOSE_GRAD_ND_UB_GM, TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW, TRANSPOSE_ND2ND_021, TRANSPOSE_ND2ND_102, TRANSPOSE_ND2ND_210, TRANSPOSE_ND2NZ_WITH_INTLV };

using TEventID = std::int8_t;
using TTagType = std::int32_t;
// A queue buffer's handle (uint8_t* on the device): here the address of the buffer's first byte.
using TBufHandle = std::uint8_t*;
constexpr std::int32_t MASK_PLACEHOLDER = 0;
constexpr std::int32_t ONE_BLK_SIZE = 32;
constexpr std::int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr std::int32_t DEFAULT_BLK_NUM = 8;
constexpr std::int32_t DEFAULT_BLK_STRIDE = 1;
constexpr std::int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr std::int32_t MAX_REPEAT_TIMES = 255;
constexpr std::int32_t TOTAL_UB_SIZE = 196608;
// The other on-chip memories of the 910B (real kernels size whole buffers with these).
constexpr std::int32_t TOTAL_VEC_LOCAL_SIZE = 196608;
constexpr std::int32_t TOTAL_L1_SIZE = 524288;
constexpr std::int32_t TOTAL_L0A_SIZE = 65536;
constexpr std::int32_t TOTAL_L0B_SIZE = 65536;
constexpr std::int32_t TOTAL_L0C_SIZE = 131072;
constexpr std::uint32_t QUE_MAX_EVENT = 8;
constexpr std::int32_t ONE_BLK_FLOAT_NUM = 8;        // float elements per 32-byte block
constexpr std::int32_t ONE_BLK_HALF_NUM = 16;        // half elements per 32-byte block
constexpr std::int32_t ONE_REPEAT_FLOAT_SIZE = 64;   // float elements per 256-byte repeat
constexpr std::int32_t ONE_REPEAT_HALF_SIZE = 128;   // half elements per 256-byte repeat
constexpr std::int32_t BRCB_BROADCAST_NUMBER = 8;    // elements Brcb reads per repeat
constexpr std::int32_t VECTOR_REG_WIDTH = 256;       // bytes of one vector repeat

// ---- repeat parameters ---------------------------------------------------------------------------
struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(std::uint8_t dstBlkStrideIn, std::uint8_t src0BlkStrideIn, std::uint8_t src1BlkStrideIn,
                     std::uint8_t dstRepStrideIn, std::uint8_t src0RepStrideIn, std::uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
  std::uint32_t blockNumber = DEFAULT_BLK_NUM;
  std::uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  std::uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  std::uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  std::uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  std::uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  std::uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(std::uint16_t dstBlkStrideIn, std::uint16_t srcBlkStrideIn, std::uint8_t dstRepStrideIn,
                    std::uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  // halfBlock: which half of the destination block a CastDequant result goes to.
  UnaryRepeatParams(std::uint16_t dstBlkStrideIn, std::uint16_t srcBlkStrideIn, std::uint8_t dstRepStrideIn,
                    std::uint8_t srcRepStrideIn, bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn) {}
  std::uint32_t blockNumber = DEFAULT_BLK_NUM;
  std::uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  std::uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  std::uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  std::uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(std::uint16_t dstBlkStrideIn, std::uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  std::uint32_t blockNumber = DEFAULT_BLK_NUM;
  std::uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  std::uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

// Copy (vector-unit UB -> UB move): block strides in 32-byte blocks inside a repeat, repeat strides in
// 32-byte blocks between repeats.
struct CopyRepeatParams {
  CopyRepeatParams() = default;
  CopyRepeatParams(std::uint16_t dstStrideIn, std::uint16_t srcStrideIn, std::uint16_t dstRepeatSizeIn,
                   std::uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}
  std::uint16_t dstStride = DEFAULT_BLK_STRIDE;
  std::uint16_t srcStride = DEFAULT_BLK_STRIDE;
  std::uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  std::uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

struct GatherRepeatParams {
  GatherRepeatParams() = default;
  GatherRepeatParams(std::uint8_t dstBlkStrideIn, std::uint8_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  std::uint32_t blockNumber = DEFAULT_BLK_NUM;
  std::uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  std::uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
};

// ---- data movement parameters ---------------------------------------------------------------------
// DataCopyParams: blockLen and strides in 32-byte units for DataCopy; for DataCopyPad blockLen is bytes.
// The gaps between blocks have two names: srcStride/dstStride (the CANN 8.x pages and the code written
// against them) and srcGap/dstGap (the current reference's tables); each pair names one field.
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(std::uint16_t count, std::uint16_t len, std::uint16_t srcStrideIn, std::uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  std::uint16_t blockCount = 1;
  std::uint16_t blockLen = 0;
  union {
    std::uint16_t srcStride = 0;
    std::uint16_t srcGap;
  };
  union {
    std::uint16_t dstStride = 0;
    std::uint16_t dstGap;
  };
};

// DataCopyExtParams (DataCopyPad): blockLen in bytes; GM-side stride in bytes, UB-side stride in 32-byte blocks.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(std::uint16_t count, std::uint32_t len, std::uint32_t srcStrideIn, std::uint32_t dstStrideIn,
                    std::uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  std::uint16_t blockCount = 1;
  std::uint32_t blockLen = 0;
  std::uint32_t srcStride = 0;
  std::uint32_t dstStride = 0;
  std::uint32_t rsv = 0;
};

struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool isPadIn, std::uint8_t left, std::uint8_t right, std::uint64_t value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  std::uint8_t leftPadding = 0;
  std::uint8_t rightPadding = 0;
  std::uint64_t paddingValue = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() : isPad(false), leftPadding(0), rightPadding(0), paddingValue(0) {}
  DataCopyPadExtParams(bool isPadIn, std::uint8_t left, std::uint8_t right, T value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad;
  std::uint8_t leftPadding;
  std::uint8_t rightPadding;
  T paddingValue;
};

struct DataCopyEnhancedParams {
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  std::uint8_t deqScale = 0;
  std::uint64_t deqValue = 0;
  std::uint8_t sidStoreMode = 0;
  bool isRelu = false;
  std::uint8_t padMode = 0;
  std::uint64_t deqTensorAddr = 0;
};

}  // namespace AscendC

// Device-compiler built-in enums (global namespace on the real toolchain).
enum pipe_t : std::uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX };
enum event_t : std::uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
