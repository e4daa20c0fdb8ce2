// npukb_sim/list_tensor_desc.h -- AscendC::ListTensorDesc / TensorDesc<T>: kernel-side view of a
// DYNAMIC (tensor list) input. Part of the ascendc-sim clean-room simulator; include after
// GlobalTensor is declared (kernel_operator.h does).
//
// GM layout of a list descriptor (built by the launcher, as the real runtime lays it out):
//   uint64 word 0      : byte offset of the data-pointer table from the start of the descriptor
//   per tensor i       : one uint64 whose low 32 bits hold the tensor's rank r_i, then r_i uint64 dims
//   data-pointer table : one uint64 address per tensor (tensor order)
// The number of tensors is the number of shape records found before the data-pointer table.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel_macros.h"
#include "npukb_sim/runtime.h"

namespace AscendC {

template <typename T>
class GlobalTensor;

template <class T>
class TensorDesc {
 public:
  TensorDesc() = default;
  ~TensorDesc() = default;
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    if (shape_ == nullptr) {
      ::npukb::violation("TensorDesc::GetShape", "no shape buffer: call SetShapeAddr before ListTensorDesc::GetDesc",
                         nullptr, 0);
    }
    if (offset >= dim_) {
      ::npukb::violation("TensorDesc::GetShape", "dimension " + std::to_string(offset) + " outside a tensor of rank " +
                                                     std::to_string(dim_), nullptr, 0);
    }
    return shape_[offset];
  }
  T* GetDataPtr() { return data_; }
  GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> obj;
    uint64_t elems = 1;
    for (uint64_t i = 0; i < dim_ && shape_ != nullptr; ++i) {
      elems *= shape_[i];
    }
    obj.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(data_), elems);
    return obj;
  }

  // Filled by ListTensorDesc::GetDesc.
  void NpukbSet(uint64_t dim, uint64_t index, T* data) {
    dim_ = dim;
    index_ = index;
    data_ = data;
  }
  uint64_t* NpukbShapeAddr() { return shape_; }

 private:
  uint64_t* shape_ = nullptr;
  uint64_t dim_ = 0;
  uint64_t index_ = 0;
  T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  // User-provided, so that clearing the simulator's tensor table (8 KiB, far more than the device's
  // descriptor) is the simulator's own code, not the kernel's scalar work (docs/cost-model.md).
  ListTensorDesc() {}
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }

  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) { NPUKB_CALLER;
    base_ = static_cast<const uint64_t*>(data);
    ::npukb::check_gm(base_, sizeof(uint64_t), false, "ListTensorDesc::Init", file, line);
    uint64_t table_offset = base_[0];
    if (table_offset % sizeof(uint64_t) != 0 || table_offset < sizeof(uint64_t)) {
      ::npukb::violation("ListTensorDesc::Init", "not a tensor-list descriptor (bad data-pointer offset " +
                                                     std::to_string(table_offset) + ")", file, line);
    }
    ::npukb::check_gm(base_, table_offset, false, "ListTensorDesc::Init", file, line);
    uint64_t words = table_offset / sizeof(uint64_t);
    count_ = 0;
    for (uint64_t w = 1; w < words; ++count_) {
      shape_words_[count_ < kMaxTensors ? count_ : kMaxTensors - 1] = w;
      w += 1 + (base_[w] & 0xffffffffULL);
    }
    ptrs_ = base_ + words;
    ::npukb::check_gm(ptrs_, count_ * sizeof(uint64_t), false, "ListTensorDesc::Init", file, line);
    if (length != 0xffffffffU && length != table_offset + count_ * sizeof(uint64_t)) {
      ::npukb::violation("ListTensorDesc::Init", "length " + std::to_string(length) +
                                                     " does not match the descriptor's size " +
                                                     std::to_string(table_offset + count_ * sizeof(uint64_t)), file, line);
    }
    if (shapeSize != 0xffffffffU && shapeSize != count_) {
      ::npukb::violation("ListTensorDesc::Init", "shapeSize " + std::to_string(shapeSize) +
                                                     " does not match the list's " + std::to_string(count_) +
                                                     " tensors", file, line);
    }
  }

  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) { NPUKB_CALLER;
    Check("ListTensorDesc::GetDesc", index, file, line);
    if (desc.NpukbShapeAddr() == nullptr) {
      ::npukb::violation("ListTensorDesc::GetDesc", "call TensorDesc::SetShapeAddr before GetDesc", file, line);
    }
    const uint64_t* rec = base_ + shape_words_[index];
    uint64_t dim = rec[0] & 0xffffffffULL;
    for (uint64_t i = 0; i < dim; ++i) {
      desc.NpukbShapeAddr()[i] = rec[1 + i];
    }
    desc.NpukbSet(dim, index, reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index])));
  }

  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) { NPUKB_CALLER;
    Check("ListTensorDesc::GetDataPtr", index, file, line);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(ptrs_[index]));
  }

  uint32_t GetSize() { return static_cast<uint32_t>(count_); }

 private:
  static constexpr uint64_t kMaxTensors = 1024;
  void Check(const char* api, uint32_t index, const char* file, int line) const {
    if (base_ == nullptr) {
      ::npukb::violation(api, "ListTensorDesc used before Init", file, line);
    }
    if (index >= count_) {
      ::npukb::violation(api, "index " + std::to_string(index) + " outside a tensor list of " +
                                  std::to_string(count_) + " tensors", file, line);
    }
  }
  const uint64_t* base_ = nullptr;
  const uint64_t* ptrs_ = nullptr;
  uint64_t count_ = 0;
  uint64_t shape_words_[kMaxTensors] = {};
};

}  // namespace AscendC
