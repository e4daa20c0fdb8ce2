// npukb_sim/lib_host_shape.h -- how the host helpers of the sort, reduction, filter and transform
// families read a ge::Shape: its dims as unsigned values, and a [first, last] view (the product of the
// leading dims, the last dim). Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/tensor.h"

namespace npukb_lib {

struct FirstLast {
  uint32_t first = 0;
  uint32_t last = 0;
};

// The dims of a shape; an unknown (negative) dim reads as 0.
inline std::vector<uint32_t> ShapeDims(const ge::Shape& shape) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    const int64_t d = shape.GetDim(i);
    out.push_back(d < 0 ? 0u : static_cast<uint32_t>(d));
  }
  return out;
}

// A shape of any rank as [rows, last dim]; a shape without dims is [0, 0].
inline FirstLast ReadFirstLast(const ge::Shape& shape) {
  const std::vector<uint32_t> d = ShapeDims(shape);
  FirstLast fl;
  if (d.empty()) return fl;
  fl.first = 1;
  for (size_t i = 0; i + 1 < d.size(); ++i) fl.first *= d[i];
  fl.last = d.back();
  return fl;
}

}  // namespace npukb_lib
