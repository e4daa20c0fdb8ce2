// exe_graph/runtime/kernel_context.h -- gert::KernelContext, the base of every operator context
// (ExtendedKernelContext, TilingContext, TilingParseContext, ...). Part of the ascendc-sim clean-room
// simulator.
//
// A kernel context holds a list of input values and a list of output values. Here each value is a
// pointer (what context_ascendc::ContextBuilder::Inputs / Outputs hand in); the contexts the launcher
// builds for an operator's own functions keep their data in their typed members and hold no values
// here (GetInputNum() == GetOutputNum() == 0).
#pragma once
#include <cstddef>

namespace gert {

class KernelContext {
 public:
  KernelContext() = default;
  KernelContext(const KernelContext& other) = delete;
  KernelContext& operator=(const KernelContext& other) = delete;

  size_t GetInputNum() const { return input_num_; }
  size_t GetOutputNum() const { return output_num_; }
  // The pointer held as input / output `index`, typed; nullptr past the end.
  template <typename T>
  const T* GetInputPointer(size_t index) const {
    return index < input_num_ ? static_cast<const T*>(inputs_[index]) : nullptr;
  }
  template <typename T>
  T* GetOutputPointer(size_t index) const {
    return index < output_num_ ? static_cast<T*>(outputs_[index]) : nullptr;
  }

  // Builder side: the value lists (owned by whoever built the context).
  void NpukbSetValues(void* const* inputs, size_t input_num, void* const* outputs, size_t output_num) {
    inputs_ = inputs;
    input_num_ = input_num;
    outputs_ = outputs;
    output_num_ = output_num;
  }

 private:
  void* const* inputs_ = nullptr;
  size_t input_num_ = 0;
  void* const* outputs_ = nullptr;
  size_t output_num_ = 0;
};

}  // namespace gert
