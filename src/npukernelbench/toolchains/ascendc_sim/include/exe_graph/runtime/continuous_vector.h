// exe_graph/runtime/continuous_vector.h -- gert::ContinuousVector (list attributes).
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gert {

// A header followed in memory by its elements (the launcher allocates header + data together).
class ContinuousVector {
 public:
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return capacity_; }
  const void* GetData() const { return reinterpret_cast<const uint8_t*>(this) + sizeof(ContinuousVector); }
  void* MutableData() { return reinterpret_cast<uint8_t*>(this) + sizeof(ContinuousVector); }
  void Init(size_t capacity) {
    capacity_ = capacity;
    size_ = 0;
  }
  void SetSize(size_t size) { size_ = size; }

 private:
  size_t capacity_ = 0;
  size_t size_ = 0;
};

template <typename T>
class TypedContinuousVector : public ContinuousVector {
 public:
  const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
  T* MutableData() { return static_cast<T*>(ContinuousVector::MutableData()); }
};

}  // namespace gert
