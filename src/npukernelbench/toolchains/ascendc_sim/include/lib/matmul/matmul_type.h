// lib/matmul/matmul_type.h -- the Matmul type parameters: MatmulType (position, format, element type,
// transpose, layout, IBShare, source position), MatmulCallBackFunc (user copy functions for A and B into
// L1 and C out of CO1, with DataCopyOutParams), the MatmulPolicy strategies, and MatrixOffset
// (GetOffsetC). Clean-room part of ascendc-sim, written from the public API documentation.
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "lib/matmul/matmul_config.h"

namespace matmul {

using AscendC::TPosition;

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
};

// The copy-out parameters the Matmul hands a DataCopyOut callback for one C block (simulator's fill,
// docs/simulator.md): cBurstNum = N size of the block, burstLen = M size, srcStride = the block's rows
// rounded to 16 (the distance of its Z columns in L0C, in 16-element units), dstStride = the row length
// of C in GM (elements), oriNSize = N of the whole C.
struct DataCopyOutParams {
  std::uint16_t cBurstNum = 0;
  std::uint16_t burstLen = 0;
  std::uint16_t srcStride = 0;
  std::uint32_t dstStride = 0;
  std::uint16_t oriNSize = 0;
  bool enUnitFlag = false;
  std::uint64_t quantScalar = 0;
  std::uint64_t cbufWorkspaceAddr = 0;
};

using DataCopyOutFunc = void (*)(const __gm__ void* gm, const AscendC::LocalTensor<std::int8_t>& co1Local,
                                 const void* dataCopyOutParams, const std::uint64_t tilingPtr, const std::uint64_t dataPtr);
using CopyA1Func = void (*)(const AscendC::LocalTensor<std::int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                            int useM, int useK, const std::uint64_t tilingPtr, const std::uint64_t dataPtr);
using CopyB1Func = void (*)(const AscendC::LocalTensor<std::int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                            int useK, int useN, const std::uint64_t tilingPtr, const std::uint64_t dataPtr);

// Function pointers replacing the Matmul's own copies (nullptr: the default copy).
template <DataCopyOutFunc DataCopyOut = nullptr, CopyA1Func CopyA1 = nullptr, CopyB1Func CopyB1 = nullptr>
struct MatmulCallBackFunc {
  static constexpr DataCopyOutFunc dataCopyOut = DataCopyOut;
  static constexpr CopyA1Func copyA1 = CopyA1;
  static constexpr CopyB1Func copyB1 = CopyB1;
};

// GetOffsetC: where the current block lies in C (element offset, block row / column, its size).
struct MatrixOffset {
  std::int32_t offset;
  std::int32_t row, col;
  std::int32_t height, width;
};

}  // namespace matmul

// MatmulPolicy strategies (the last Matmul template parameter): the default, the upper / lower
// triangular ones (base blocks of C below / above the diagonal are neither computed nor written) and
// NBuffer33 (3 x 3 base blocks of A kept in L1; MDL, GM inputs, IterateAll only).
namespace AscendC {
namespace Impl {
namespace Detail {
template <const auto& MM_CFG, typename... Rest>
struct MatmulPolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kNBuffer33 = false;
};
template <const auto& MM_CFG, typename... Rest>
struct TrianUpperMatmulPolicy {
  static constexpr int kTriangle = 1;
  static constexpr bool kNBuffer33 = false;
};
template <const auto& MM_CFG, typename... Rest>
struct TrianLowerMatmulPolicy {
  static constexpr int kTriangle = -1;
  static constexpr bool kNBuffer33 = false;
};
template <const auto& MM_CFG, typename... Rest>
struct NBuffer33MatmulPolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kNBuffer33 = true;
};
}  // namespace Detail
}  // namespace Impl
using Impl::Detail::MatmulPolicy;
using Impl::Detail::NBuffer33MatmulPolicy;
using Impl::Detail::TrianLowerMatmulPolicy;
using Impl::Detail::TrianUpperMatmulPolicy;
}  // namespace AscendC

#define MATMUL_POLICY_DEFAULT_OF(DEFAULT)        \
  template <const auto& = MM_CFG, typename...> \
  class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT
