// exe_graph/runtime/continuous_vector.h -- gert::ContinuousVector (list attributes, workspace sizes)
// and gert::ContinuousVectorVector (list-of-list attributes).
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

// A list of ContinuousVectors (list-of-list attributes): a header, then one byte offset (from the start
// of this object) per element, each leading to a ContinuousVector with its elements.
class ContinuousVectorVector {
 public:
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return capacity_; }
  const ContinuousVector* Get(size_t index) const {
    if (index >= size_) {
      return nullptr;
    }
    const size_t* offsets = reinterpret_cast<const size_t*>(reinterpret_cast<const uint8_t*>(this) +
                                                            sizeof(ContinuousVectorVector));
    return reinterpret_cast<const ContinuousVector*>(reinterpret_cast<const uint8_t*>(this) + offsets[index]);
  }
  void Init(size_t capacity) {
    capacity_ = capacity;
    size_ = 0;
  }
  void SetSize(size_t size) { size_ = size; }

 private:
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace gert
