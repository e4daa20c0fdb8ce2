// exe_graph/runtime/tiling_context.h -- gert::TilingContext, the argument of an operator's TilingFunc.
// Part of the ascendc-sim clean-room simulator. The launcher fills one from the case's shapes, dtypes
// and attributes and runs the registered TilingFunc with it for real.
//
// Indexing follows the real API: GetInputShape(i) / GetInputDesc(i) / GetInputTensor(i) index the
// flattened *present* input instances (a DYNAMIC list contributes one instance per tensor, an absent
// OPTIONAL input none); GetOptionalInputShape(ir) and GetDynamicInputShape(ir, k) index OpDef inputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"
#include "exe_graph/runtime/tiling_data.h"
#include "graph/types.h"
#include "platform/platform_infos_def.h"

namespace gert {

// Shared by the tiling, infer-shape and infer-datatype contexts.
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

class TilingContext {
 public:
  explicit TilingContext(NpukbIoTable* io, TilingData* raw, fe::PlatFormInfos* platform);
  TilingContext(const TilingContext& other) = delete;
  TilingContext& operator=(const TilingContext& other) = delete;
  ~TilingContext();

  const StorageShape* GetInputShape(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? &t->GetShape() : nullptr;
  }
  const StorageShape* GetOptionalInputShape(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
    return t ? &t->GetShape() : nullptr;
  }
  const StorageShape* GetDynamicInputShape(size_t ir_index, size_t relative_index) const {
    const Tensor* t = io_->InputIr(ir_index, relative_index);
    return t ? &t->GetShape() : nullptr;
  }
  const StorageShape* GetOutputShape(size_t index) const {
    const Tensor* t = io_->Output(index);
    return t ? &t->GetShape() : nullptr;
  }
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
  const Tensor* GetInputTensor(size_t index) const { return io_->Input(index); }
  const Tensor* GetOptionalInputTensor(size_t ir_index) const {
    return io_->InputIr(ir_index, 0);
  }
  const Tensor* GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return io_->InputIr(ir_index, relative_index);
  }
  size_t GetComputeNodeInputNum() const { return io_->InputCount(); }
  size_t GetComputeNodeOutputNum() const { return io_->OutputCount(); }
  const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }
  const char* GetNodeName() const { return io_->NodeName(); }
  const char* GetNodeType() const { return io_->NodeType(); }

  ge::graphStatus SetBlockDim(uint32_t block_dim) {
    block_dim_ = block_dim;
    block_dim_set_ = true;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return block_dim_; }
  ge::graphStatus SetTilingKey(uint64_t key) {
    tiling_key_ = key;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return tiling_key_; }
  ge::graphStatus SetScheduleMode(uint32_t mode) {
    schedule_mode_ = mode;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetScheduleMode() const { return schedule_mode_; }
  ge::graphStatus SetNeedAtomic(bool atomic) {
    need_atomic_ = atomic;
    return ge::GRAPH_SUCCESS;
  }
  bool NeedAtomic() const { return need_atomic_; }
  TilingData* GetRawTilingData() { return raw_; }
  // Plain-struct tiling: the struct lives at the start of the raw tiling buffer; its size becomes the
  // tiling data size.
  template <typename T>
  T* GetTilingData() {
    if (sizeof(T) > raw_->GetCapacity()) {
      raw_->SetDataSize(sizeof(T));
      return nullptr;
    }
    if (raw_->GetDataSize() < sizeof(T)) {
      raw_->SetDataSize(sizeof(T));
    }
    return static_cast<T*>(raw_->GetData());
  }
  size_t* GetWorkspaceSizes(size_t workspace_count);
  size_t GetWorkspaceNum() const { return workspace_.size(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
  int32_t GetDeterministic() const { return 0; }

  // Launcher side.
  bool NpukbBlockDimSet() const { return block_dim_set_; }
  const std::vector<size_t>& NpukbWorkspace() const { return workspace_; }

 private:
  NpukbIoTable* io_;
  TilingData* raw_;
  fe::PlatFormInfos* platform_;
  uint32_t block_dim_ = 0;
  bool block_dim_set_ = false;
  uint64_t tiling_key_ = 0;
  uint32_t schedule_mode_ = 0;
  bool need_atomic_ = false;
  std::vector<size_t> workspace_;
};

class InferShapeContext {
 public:
  explicit InferShapeContext(NpukbIoTable* io) : io_(io) {}
  const Shape* GetInputShape(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? &t->GetStorageShape() : nullptr;
  }
  const Shape* GetOptionalInputShape(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
    return t ? &t->GetStorageShape() : nullptr;
  }
  const Shape* GetDynamicInputShape(size_t ir_index, size_t relative_index) const {
    const Tensor* t = io_->InputIr(ir_index, relative_index);
    return t ? &t->GetStorageShape() : nullptr;
  }
  Shape* GetOutputShape(size_t index) {
    Tensor* t = io_->MutableOutput(index);
    return t ? &t->MutableShape().MutableStorageShape() : nullptr;
  }
  const Tensor* GetInputTensor(size_t index) const { return io_->Input(index); }
  const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }
  const char* GetNodeName() const { return io_->NodeName(); }
  const char* GetNodeType() const { return io_->NodeType(); }

 private:
  NpukbIoTable* io_;
};

class InferDataTypeContext {
 public:
  explicit InferDataTypeContext(NpukbIoTable* io) : io_(io) {}
  ge::DataType GetInputDataType(size_t index) const {
    const Tensor* t = io_->Input(index);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t ir_index) const {
    const Tensor* t = io_->InputIr(ir_index, 0);
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
  const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }
  const char* GetNodeName() const { return io_->NodeName(); }

 private:
  NpukbIoTable* io_;
};

}  // namespace gert
