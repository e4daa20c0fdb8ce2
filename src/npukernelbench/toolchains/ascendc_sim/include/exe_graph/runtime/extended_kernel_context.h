// exe_graph/runtime/extended_kernel_context.h -- gert::ExtendedKernelContext, the part every operator
// context (tiling, tiling parse, infer shape, infer data type, infer shape range) shares: the compute
// node's name, type, attributes and input/output tensor descriptions.
// Part of the ascendc-sim clean-room simulator. The launcher fills one NpukbIoTable per case from the
// task's shapes, dtypes and attributes.
//
// Indexing follows the real API: GetInputDesc(i) indexes the flattened *present* input instances (a
// DYNAMIC list contributes one instance per tensor, an absent OPTIONAL input none);
// GetOptionalInputDesc(ir) and GetDynamicInputDesc(ir, k) index OpDef inputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/types.h"

namespace gert {

// The compute node seen by every context (launcher side).
class NpukbIoTable {
 public:
  std::vector<Tensor> inputs;                    // present input instances, flattened
  std::vector<std::vector<int>> input_ir;        // OpDef input index -> instance indices
  std::vector<Tensor> outputs;
  std::vector<std::vector<int>> output_ir;
  RuntimeAttrs attrs;
  std::string node_name;
  std::string node_type;

  // Out of line (runtime/host_api.cpp).
  NpukbIoTable();
  NpukbIoTable(const NpukbIoTable& other);
  NpukbIoTable& operator=(const NpukbIoTable& other);
  ~NpukbIoTable();
  const Tensor* Input(size_t i) const;
  const Tensor* Output(size_t i) const;
  Tensor* MutableOutput(size_t i);
  const Tensor* InputIr(size_t ir_index, size_t relative) const;
  size_t InputCount() const;
  size_t OutputCount() const;
  const char* NodeName() const;
  const char* NodeType() const;
};

// Derives from KernelContext first and without virtual functions, as the real class, so that a
// context's address is also its KernelContext's (KernelRunContextHolder::GetContext<T>()).
class ExtendedKernelContext : public KernelContext {
 public:
  explicit ExtendedKernelContext(NpukbIoTable* io) : io_(io) {}
  ExtendedKernelContext(const ExtendedKernelContext& other) = delete;
  ExtendedKernelContext& operator=(const ExtendedKernelContext& other) = delete;

  const CompileTimeTensorDesc* GetInputDesc(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? &t->NpukbDesc() : nullptr;
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
    return t ? &t->NpukbDesc() : nullptr;
  }
  const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir_index, size_t relative_index) const {
    const Tensor* t = io_->InputIr(ir_index, relative_index);
    return t ? &t->NpukbDesc() : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputDesc(size_t index) const {
    const Tensor* t = io_->Output(index);
    return t ? &t->NpukbDesc() : nullptr;
  }
  size_t GetComputeNodeInputNum() const { return io_->InputCount(); }
  size_t GetComputeNodeOutputNum() const { return io_->OutputCount(); }
  const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }
  const char* GetNodeName() const { return io_->NodeName(); }
  const char* GetNodeType() const { return io_->NodeType(); }

 protected:
  NpukbIoTable* io_;
};

}  // namespace gert
