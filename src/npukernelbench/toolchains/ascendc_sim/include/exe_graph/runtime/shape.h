// exe_graph/runtime/shape.h -- gert::Shape. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace gert {

class Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = INT64_MIN;

  Shape() = default;
  Shape(std::initializer_list<int64_t> args) {
    for (int64_t d : args) {
      AppendDim(d);
    }
  }

  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(size_t dim_num) { dim_num_ = dim_num > kMaxDimNum ? kMaxDimNum : dim_num; }
  int64_t GetDim(size_t idx) const { return idx < dim_num_ ? dims_[idx] : kInvalidDimValue; }
  void SetDim(size_t idx, int64_t value) {
    if (idx < kMaxDimNum) {
      dims_[idx] = value;
    }
  }
  Shape& AppendDim(int64_t value) {
    if (dim_num_ < kMaxDimNum) {
      dims_[dim_num_++] = value;
    }
    return *this;
  }
  int64_t GetShapeSize() const {
    int64_t size = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] < 0) {
        return -1;
      }
      size *= dims_[i];
    }
    return size;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  const int64_t& operator[](size_t idx) const { return dims_[idx]; }
  int64_t& operator[](size_t idx) { return dims_[idx]; }
  bool operator==(const Shape& other) const {
    if (dim_num_ != other.dim_num_) {
      return false;
    }
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] != other.dims_[i]) {
        return false;
      }
    }
    return true;
  }
  bool operator!=(const Shape& other) const { return !(*this == other); }

 private:
  size_t dim_num_ = 0;
  int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
 public:
  StorageShape() = default;
  StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
      : origin_shape_(origin), storage_shape_(storage) {}
  const Shape& GetOriginShape() const { return origin_shape_; }
  const Shape& GetStorageShape() const { return storage_shape_; }
  Shape& MutableOriginShape() { return origin_shape_; }
  Shape& MutableStorageShape() { return storage_shape_; }
  bool operator==(const StorageShape& other) const {
    return origin_shape_ == other.origin_shape_ && storage_shape_ == other.storage_shape_;
  }
  bool operator!=(const StorageShape& other) const { return !(*this == other); }

 private:
  Shape origin_shape_;
  Shape storage_shape_;
};

}  // namespace gert
