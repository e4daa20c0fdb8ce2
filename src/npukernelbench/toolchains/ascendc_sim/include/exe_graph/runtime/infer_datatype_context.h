// exe_graph/runtime/infer_datatype_context.h -- gert::InferDataTypeContext, the argument of an
// operator's InferDataType function. Part of the ascendc-sim clean-room simulator.
//
// The launcher runs a registered InferDataType before tiling with every output data type
// DT_UNDEFINED and compares what it sets with the output dtypes the task passes.
#pragma once
#include <cstddef>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/types.h"

namespace gert {

class InferDataTypeContext : public ExtendedKernelContext {
 public:
  explicit InferDataTypeContext(NpukbIoTable* io) : ExtendedKernelContext(io) {}

  ge::DataType GetInputDataType(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetRequiredInputDataType(size_t ir_index) const { return GetOptionalInputDataType(ir_index); }
  ge::DataType GetDynamicInputDataType(size_t ir_index, size_t relative_index) const {
    const Tensor* t = io_->InputIr(ir_index, relative_index);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOutputDataType(size_t index) const {
    const Tensor* t = io_->Output(index);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(size_t index, ge::DataType dt) {
    Tensor* t = io_->MutableOutput(index);
    if (t == nullptr) {
      return ge::GRAPH_FAILED;
    }
    t->NpukbDesc().SetDataType(dt);
    return ge::GRAPH_SUCCESS;
  }
};

}  // namespace gert
