// exe_graph/runtime/infer_shape_context.h -- gert::InferShapeContext, the argument of an operator's
// InferShape function. Part of the ascendc-sim clean-room simulator.
//
// The launcher runs a registered InferShape before tiling with every output shape empty (rank 0) and
// compares what it writes with the output shapes the task passes. Inputs index the flattened present
// instances, as in TilingContext.
#pragma once
#include <cstddef>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

class InferShapeContext : public ExtendedKernelContext {
 public:
  explicit InferShapeContext(NpukbIoTable* io) : ExtendedKernelContext(io) {}

  const Shape* GetInputShape(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? &t->GetOriginShape() : nullptr;
  }
  const Shape* GetOptionalInputShape(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
    return t ? &t->GetOriginShape() : nullptr;
  }
  const Shape* GetDynamicInputShape(size_t ir_index, size_t relative_index) const {
    const Tensor* t = io_->InputIr(ir_index, relative_index);
    return t ? &t->GetOriginShape() : nullptr;
  }
  const Shape* GetRequiredInputShape(size_t ir_index) const { return GetOptionalInputShape(ir_index); }
  Shape* GetOutputShape(size_t index) {
    Tensor* t = io_->MutableOutput(index);
    return t ? &t->MutableShape().MutableOriginShape() : nullptr;
  }
  // Value-dependent inputs (OpDef ValueDepend) carry their data.
  const Tensor* GetInputTensor(size_t index) const { return io_->Input(index); }
  const Tensor* GetOptionalInputTensor(size_t ir_index) const { return io_->InputIr(ir_index, 0); }
  const Tensor* GetRequiredInputTensor(size_t ir_index) const { return io_->InputIr(ir_index, 0); }
  const Tensor* GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return io_->InputIr(ir_index, relative_index);
  }
};

}  // namespace gert
