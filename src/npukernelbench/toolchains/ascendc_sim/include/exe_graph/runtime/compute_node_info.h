// exe_graph/runtime/compute_node_info.h -- gert::ComputeNodeInfo, the description of the compute node
// (name, type, IR input/output counts, tensor descriptions, attributes) behind an operator context.
// Part of the ascendc-sim clean-room simulator: a view on the node table the context was built from
// (context_ascendc::ContextBuilder; KernelRunContextHolder::MutableComputeNodeInfo).
#pragma once
#include <cstddef>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

class ComputeNodeInfo {
 public:
  ComputeNodeInfo(NpukbIoTable* io, size_t ir_inputs, size_t ir_outputs)
      : io_(io), ir_inputs_(ir_inputs), ir_outputs_(ir_outputs) {}
  ComputeNodeInfo(const ComputeNodeInfo& other) = delete;
  ComputeNodeInfo& operator=(const ComputeNodeInfo& other) = delete;

  const char* GetNodeName() const { return io_->NodeName(); }
  const char* GetNodeType() const { return io_->NodeType(); }
  // IR inputs / outputs (NodeIoNum) and the instances they expand to (IrInstanceNum).
  size_t GetIrInputsNum() const { return ir_inputs_; }
  size_t GetIrOutputsNum() const { return ir_outputs_; }
  size_t GetInputsNum() const { return io_->InputCount(); }
  size_t GetOutputsNum() const { return io_->OutputCount(); }
  const CompileTimeTensorDesc* GetInputTdInfo(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? &t->NpukbDesc() : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputTdInfo(size_t index) const {
    const Tensor* t = io_->Output(index);
    return t ? &t->NpukbDesc() : nullptr;
  }
  const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }

 private:
  NpukbIoTable* io_;
  size_t ir_inputs_;
  size_t ir_outputs_;
};

}  // namespace gert
