// graph/tensor.h -- ge::Shape, the graph-level shape the AscendC host tiling helpers take
// (SoftMaxTilingFunc, GetSoftMaxMaxTmpSize, ...). Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/types.h"

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}

  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  graphStatus SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) {
      return GRAPH_FAILED;
    }
    dims_[idx] = value;
    return GRAPH_SUCCESS;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  // Product of the dims; 0 for a shape without dims, -1 when a dim is unknown (negative).
  int64_t GetShapeSize() const {
    if (dims_.empty()) {
      return 0;
    }
    int64_t size = 1;
    for (int64_t d : dims_) {
      if (d < 0) {
        return UNKNOWN_DIM;
      }
      size *= d;
    }
    return size;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
