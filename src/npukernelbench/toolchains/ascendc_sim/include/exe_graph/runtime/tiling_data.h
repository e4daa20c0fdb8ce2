// exe_graph/runtime/tiling_data.h -- gert::TilingData (the raw tiling buffer handed to TilingFunc).
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "graph/types.h"

namespace gert {

class TilingData {
 public:
  TilingData(void* data, size_t capacity) : data_(data), capacity_(capacity) {}
  void* GetData() { return data_; }
  const void* GetData() const { return data_; }
  size_t GetCapacity() const { return capacity_; }
  size_t GetDataSize() const { return data_size_; }
  // A size above the capacity is recorded as is; the launcher rejects it after TilingFunc returns.
  void SetDataSize(size_t size) { data_size_ = size; }
  template <typename T>
  ge::graphStatus Append(const T& value) {
    if (data_size_ + sizeof(T) > capacity_) {
      overflow_ = true;
      return ge::GRAPH_FAILED;
    }
    std::memcpy(static_cast<uint8_t*>(data_) + data_size_, &value, sizeof(T));
    data_size_ += sizeof(T);
    return ge::GRAPH_SUCCESS;
  }
  template <typename T>
  ge::graphStatus Append(const T* values, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      if (Append(values[i]) != ge::GRAPH_SUCCESS) {
        return ge::GRAPH_FAILED;
      }
    }
    return ge::GRAPH_SUCCESS;
  }
  bool NpukbOverflowed() const { return overflow_; }

 private:
  void* data_;
  size_t capacity_;
  size_t data_size_ = 0;
  bool overflow_ = false;
};

}  // namespace gert
