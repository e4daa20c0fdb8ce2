// exe_graph/runtime/range.h -- gert::Range<T>, a [min, max] pair of pointers (shape ranges).
// Part of the ascendc-sim clean-room simulator.
#pragma once

namespace gert {

template <typename T>
class Range {
 public:
  Range() = default;
  Range(T* min, T* max) : min_(min), max_(max) {}
  explicit Range(T* same) : min_(same), max_(same) {}
  const T* GetMin() const { return min_; }
  const T* GetMax() const { return max_; }
  T* GetMin() { return min_; }
  T* GetMax() { return max_; }
  void SetMin(T* min) { min_ = min; }
  void SetMax(T* max) { max_ = max; }
  bool operator==(const Range& other) const { return min_ == other.min_ && max_ == other.max_; }

 private:
  T* min_ = nullptr;
  T* max_ = nullptr;
};

}  // namespace gert
