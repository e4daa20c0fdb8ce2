// lib/transpose/confusion_transpose_tiling.h -- host helpers of the high-level Transpose kernel API:
// GetTransposeMaxMinTmpSize and GetTransposeTilingInfo (ConfusionTransposeTiling), and their deprecated
// names GetConfusionTransposeMaxMinTmpSize, GetConfusionTransposeTilingInfo and
// GetConfusionTransposeOnlyTilingInfo (the two-dimensional transpose, scenario 7). srcShape is [B, N, S,
// H/N] for scenarios 1 to 6 and [H, W] for 7. A transposeTypeIn outside 1 to 7 (13 to 16 are Ascend 950
// scenarios) reports 0 and leaves an empty tiling, which the kernel API refuses. Part of the ascendc-sim
// clean-room simulator; figures in npukb_sim/transform_tmp_sizes.h, fields in npukb_sim/lib_tiling_fields.h.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/lib_tiling_fields.h"
#include "npukb_sim/transform_tmp_sizes.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
bool NpukbBuiltin() const override { return true; }
NPUKB_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUKB_TILING_DATA_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling

namespace npukb_lib {

inline bool TransposeShapeOk(const std::vector<uint32_t>& s, uint32_t type) {
  if (type >= 1 && type <= 6) return s.size() == 4;
  return type == 7 && s.size() == 2;
}

inline void FillConfusionTranspose(const ge::Shape& srcShape, uint32_t stack, uint32_t type_size, uint32_t type,
                                   ::ConfusionTransposeTiling& t) {
  t = ::ConfusionTransposeTiling{};
  const std::vector<uint32_t> s = ShapeDims(srcShape);
  if (!TransposeShapeOk(s, type)) return;
  t.transposeType = type;
  t.shapeDimNum = static_cast<uint32_t>(s.size());
  t.srcDim0 = s[0];
  t.srcDim1 = s[1];
  t.srcDim2 = s.size() > 2 ? s[2] : 0;
  t.srcDim3 = s.size() > 3 ? s[3] : 0;
  t.typeSize = type_size;
  t.tmpBufferSize = stack;
}

#define NPUKB_CT_TO_CLASS(type, name) dst.set_##name(src.name);
inline void ToClass(const ::ConfusionTransposeTiling& src, optiling::ConfusionTransposeTiling& dst) {
  NPUKB_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUKB_CT_TO_CLASS)
}
#undef NPUKB_CT_TO_CLASS

}  // namespace npukb_lib

namespace AscendC {

inline void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                                      uint32_t& maxValue, uint32_t& minValue) {
  const std::vector<uint32_t> s = npukb_lib::ShapeDims(srcShape);
  maxValue = minValue = 0;
  if (!npukb_lib::TransposeShapeOk(s, transposeTypeIn)) return;
  minValue = npukb_lib::TransposeTmpBytes(transposeTypeIn, s.size() > 2 ? s[2] : 0, typeSize);
  maxValue = minValue;
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
  GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling) {
  npukb_lib::FillConfusionTranspose(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
  ::ConfusionTransposeTiling plain{};
  npukb_lib::FillConfusionTranspose(srcShape, stackBufferSize, typeSize, transposeTypeIn, plain);
  npukb_lib::ToClass(plain, tiling);
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, AscendC::tiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling);
}

}  // namespace AscendC
