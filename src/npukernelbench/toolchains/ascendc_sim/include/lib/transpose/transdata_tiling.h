// lib/transpose/transdata_tiling.h -- host helper of the TransData kernel API: GetTransDataMaxMinTmpSize
// (the maximum equals the minimum). It returns false for a conversion the page does not list (NCDHW to
// and from NDC1HWC0 / FRACTAL_Z_3D), a data type outside half / float / uint16_t / int16_t, or shapes that
// do not match the formats. Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/transform_tmp_sizes.h.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"
#include "npukb_sim/data_format.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/transform_tmp_sizes.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, const ge::DataType dataType, const TransDataConfig& config,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)platform;
  if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_FLOAT && dataType != ge::DT_UINT16 && dataType != ge::DT_INT16) {
    return false;
  }
  const bool forward = config.srcFormat == DataFormat::NCDHW;
  const DataFormat other = forward ? config.dstFormat : config.srcFormat;
  if ((!forward && config.dstFormat != DataFormat::NCDHW) ||
      (other != DataFormat::NDC1HWC0 && other != DataFormat::FRACTAL_Z_3D)) {
    return false;
  }
  const bool fz = other == DataFormat::FRACTAL_Z_3D;
  const std::vector<uint32_t> nc = npukb_lib::ShapeDims(forward ? srcShape : dstShape);
  const std::vector<uint32_t> ot = npukb_lib::ShapeDims(forward ? dstShape : srcShape);
  if (nc.size() != 5 || ot.size() != (fz ? 7u : 6u)) return false;
  for (uint32_t v : nc) {
    if (v == 0) return false;
  }
  const uint32_t c1 = (nc[1] + 15) / 16, n1 = (nc[0] + 15) / 16;
  const bool match = fz ? (ot[0] == nc[2] && ot[1] == c1 && ot[2] == nc[3] && ot[3] == nc[4] && ot[4] == n1 &&
                           ot[5] == 16 && ot[6] == 16)
                        : (ot[0] == nc[0] && ot[1] == nc[2] && ot[2] == c1 && ot[3] == nc[3] && ot[4] == nc[4] &&
                           ot[5] == 16);
  if (!match) return false;
  minValue = npukb_lib::TransDataTmpBytes(nc[0], nc[1], nc[2], nc[3] * nc[4],
                                          static_cast<uint32_t>(ge::GetSizeByDataType(dataType)), fz);
  maxValue = minValue;
  return true;
}

}  // namespace AscendC
