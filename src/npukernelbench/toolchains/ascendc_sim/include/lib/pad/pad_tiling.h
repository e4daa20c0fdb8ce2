// lib/pad/pad_tiling.h -- host helpers of the Pad and UnPad kernel APIs: GetPadMaxMinTmpSize,
// PadTilingFunc (optiling::PadTiling, AscendC::tiling::PadTiling), GetUnPadMaxMinTmpSize and
// UnPadTilingFunc (UnPadTiling). The tilings carry the shapes the kernel APIs read ([height, width],
// Pad's valid width), the work buffer they were planned for and the rows per 16-row pass that fit it.
// Part of the ascendc-sim clean-room simulator; figures in npukb_sim/transform_tmp_sizes.h, fields in
// npukb_sim/lib_tiling_fields.h.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/lib_tiling_fields.h"
#include "npukb_sim/transform_tmp_sizes.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
bool NpukbBuiltin() const override { return true; }
NPUKB_PAD_TILING_FIELDS(NPUKB_TILING_DATA_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(UnPadTiling)
bool NpukbBuiltin() const override { return true; }
NPUKB_UNPAD_TILING_FIELDS(NPUKB_TILING_DATA_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling

namespace npukb_lib {

// Rows per pass: whole 16-row groups of `row_bytes` that fit the buffer (at least one group), at most h.
inline void SplitRows(uint32_t h, uint64_t row_bytes, uint32_t buffer, uint32_t& rows, uint32_t& loops, uint32_t& tail) {
  uint64_t fit = row_bytes == 0 ? h : buffer / row_bytes / 16 * 16;
  if (fit < 16) fit = 16;
  rows = static_cast<uint32_t>(fit < h ? fit : h);
  loops = rows == 0 ? 0 : (h + rows - 1) / rows;
  tail = loops == 0 ? 0 : h - (loops - 1) * rows;
}

inline void FillPad(const ge::Shape& srcShape, const ge::Shape& oriSrcShape, uint32_t stack, uint32_t type_size,
                    ::PadTiling& t) {
  t = ::PadTiling{};
  const std::vector<uint32_t> s = ShapeDims(srcShape), o = ShapeDims(oriSrcShape);
  if (s.size() != 2 || type_size == 0) return;
  t.srcHeight = s[0];
  t.srcWidth = s[1];
  t.srcOriWidth = o.size() == 2 ? o[1] : s[1];
  t.dstWidth = PadAlignedWidth(s[1], type_size);
  t.tmpBufferSize = stack;
  const bool aligned = s[1] * type_size % kBlockBytes == 0;
  SplitRows(s[0], aligned ? 0 : static_cast<uint64_t>(t.dstWidth) * type_size, stack, t.rowsPerLoop, t.loopCount,
            t.tailRows);
}

inline void FillUnPad(const ge::Shape& srcShape, uint32_t stack, uint32_t type_size, ::UnPadTiling& t) {
  t = ::UnPadTiling{};
  const std::vector<uint32_t> s = ShapeDims(srcShape);
  if (s.size() != 2 || type_size == 0) return;
  t.srcHeight = s[0];
  t.srcWidth = s[1];
  t.tmpBufferSize = stack;
  SplitRows(s[0], static_cast<uint64_t>(s[1]) * type_size, stack, t.rowsPerLoop, t.loopCount, t.tailRows);
}

#define NPUKB_PAD_TO_CLASS(type, name) dst.set_##name(src.name);
inline void ToClass(const ::PadTiling& src, optiling::PadTiling& dst) { NPUKB_PAD_TILING_FIELDS(NPUKB_PAD_TO_CLASS) }
inline void ToClass(const ::UnPadTiling& src, optiling::UnPadTiling& dst) { NPUKB_UNPAD_TILING_FIELDS(NPUKB_PAD_TO_CLASS) }
#undef NPUKB_PAD_TO_CLASS

}  // namespace npukb_lib

namespace AscendC {

inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  const std::vector<uint32_t> s = npukb_lib::ShapeDims(srcShape);
  maxValue = minValue = 0;
  if (s.size() != 2 || typeSize == 0) return;
  maxValue = npukb_lib::PadTmpBytes(s[0], s[1], typeSize, true);
  minValue = npukb_lib::PadTmpBytes(s[0], s[1], typeSize, false);
}

inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
  npukb_lib::FillPad(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
  ::PadTiling plain{};
  npukb_lib::FillPad(srcShape, oriSrcShape, stackBufferSize, typeSize, plain);
  npukb_lib::ToClass(plain, tiling);
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  const std::vector<uint32_t> s = npukb_lib::ShapeDims(srcShape);
  maxValue = minValue = 0;
  if (s.size() != 2 || typeSize == 0) return;
  maxValue = npukb_lib::UnPadTmpBytes(s[0], s[1], typeSize, true);
  minValue = npukb_lib::UnPadTmpBytes(s[0], s[1], typeSize, false);
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            AscendC::tiling::UnPadTiling& tiling) {
  npukb_lib::FillUnPad(srcShape, stackBufferSize, typeSize, tiling);
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
  ::UnPadTiling plain{};
  npukb_lib::FillUnPad(srcShape, stackBufferSize, typeSize, plain);
  npukb_lib::ToClass(plain, tiling);
}

}  // namespace AscendC
