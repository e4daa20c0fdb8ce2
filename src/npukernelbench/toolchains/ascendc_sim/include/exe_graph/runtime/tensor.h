// exe_graph/runtime/tensor.h -- gert::Tensor and gert::CompileTimeTensorDesc as seen by tiling code.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {

class StorageFormat {
 public:
  StorageFormat() = default;
  StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
  ge::Format GetOriginFormat() const { return origin_; }
  ge::Format GetStorageFormat() const { return storage_; }
  void SetOriginFormat(ge::Format f) { origin_ = f; }
  void SetStorageFormat(ge::Format f) { storage_ = f; }

 private:
  ge::Format origin_ = ge::FORMAT_ND;
  ge::Format storage_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
 public:
  ge::DataType GetDataType() const { return data_type_; }
  void SetDataType(ge::DataType dt) { data_type_ = dt; }
  ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
  const StorageFormat& GetFormat() const { return format_; }
  void SetOriginFormat(ge::Format f) { format_.SetOriginFormat(f); }
  void SetStorageFormat(ge::Format f) { format_.SetStorageFormat(f); }

 private:
  ge::DataType data_type_ = ge::DT_UNDEFINED;
  StorageFormat format_;
};

class Tensor {
 public:
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  const StorageShape& GetShape() const { return shape_; }
  StorageShape& MutableShape() { return shape_; }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return desc_.GetDataType(); }
  const StorageFormat& GetFormat() const { return desc_.GetFormat(); }
  ge::Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return desc_.GetStorageFormat(); }
  template <typename T>
  const T* GetData() const { return static_cast<const T*>(data_); }
  const void* GetAddr() const { return data_; }
  size_t GetSize() const { return size_; }

  // Launcher side.
  void NpukbSet(const StorageShape& shape, ge::DataType dt, const void* data, size_t size) {
    shape_ = shape;
    desc_.SetDataType(dt);
    data_ = data;
    size_ = size;
  }
  CompileTimeTensorDesc& NpukbDesc() { return desc_; }
  const CompileTimeTensorDesc& NpukbDesc() const { return desc_; }

 private:
  StorageShape shape_;
  CompileTimeTensorDesc desc_;
  const void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gert
