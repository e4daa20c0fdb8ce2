// exe_graph/runtime/runtime_attrs.h -- gert::RuntimeAttrs (operator attributes seen by tiling).
// Part of the ascendc-sim clean-room simulator. Attributes are indexed in OpDef declaration order;
// int attributes are stored as int64_t, float as float, bool as bool, str as a NUL-terminated string,
// lists as a ContinuousVector of int64_t / float / bool, lists of int lists as a ContinuousVectorVector,
// lists of strings as a ContinuousVector whose size is the string count and whose data are the strings,
// each NUL-terminated, one after the other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "exe_graph/runtime/continuous_vector.h"

namespace gert {

class RuntimeAttrs {
 public:
  template <typename T>
  const T* GetAttrPointer(size_t index) const {
    if (index >= values_.size() || values_[index].empty()) {
      return nullptr;
    }
    return reinterpret_cast<const T*>(values_[index].data());
  }
  const int64_t* GetInt(size_t index) const { return GetAttrPointer<int64_t>(index); }
  const float* GetFloat(size_t index) const { return GetAttrPointer<float>(index); }
  const bool* GetBool(size_t index) const { return GetAttrPointer<bool>(index); }
  const char* GetStr(size_t index) const { return GetAttrPointer<char>(index); }
  // Typed lists: GetData() gives the elements with their type (usable as a plain ContinuousVector).
  const TypedContinuousVector<int64_t>* GetListInt(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
  }
  const TypedContinuousVector<float>* GetListFloat(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<float>>(index);
  }
  const TypedContinuousVector<bool>* GetListBool(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<bool>>(index);
  }
  const ContinuousVectorVector* GetListListInt(size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  size_t GetAttrNum() const { return values_.size(); }

  // Launcher side: append the raw bytes of the next attribute (8-byte aligned storage).
  void NpukbAppend(const void* data, size_t bytes);   // runtime/host_api.cpp
  void NpukbAppendAbsent();
  RuntimeAttrs();
  RuntimeAttrs(const RuntimeAttrs& other);
  RuntimeAttrs& operator=(const RuntimeAttrs& other);
  ~RuntimeAttrs();

 private:
  std::vector<std::vector<uint64_t>> values_;
};

}  // namespace gert
