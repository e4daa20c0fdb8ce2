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
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor.h"
#include "exe_graph/runtime/tiling_data.h"
#include "graph/types.h"
#include "platform/platform_infos_def.h"

namespace gert {

class TilingContext : public ExtendedKernelContext {
 public:
  explicit TilingContext(NpukbIoTable* io, TilingData* raw, fe::PlatFormInfos* platform,
                         const void* compile_info = nullptr);
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
  const Tensor* GetInputTensor(size_t index) const { return io_->Input(index); }
  const Tensor* GetOptionalInputTensor(size_t ir_index) const {
    return io_->InputIr(ir_index, 0);
  }
  const Tensor* GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return io_->InputIr(ir_index, relative_index);
  }
  // The object the op's TilingParse function filled (IMPL_OP_OPTILING(...).TilingParse<T>(...)), or
  // nullptr when the op registers no TilingParse.
  const void* GetCompileInfo() const { return compile_info_; }
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(compile_info_);
  }

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
  // Sizes of the workspaces the kernel gets. In a context built with ContextBuilder::Workspace(ws) they
  // live in ws (nullptr when workspace_count exceeds its capacity); otherwise the launcher keeps them.
  size_t* GetWorkspaceSizes(size_t workspace_count);
  size_t GetWorkspaceNum() const { return external_workspace_ != nullptr ? external_workspace_->GetSize()
                                                                          : workspace_.size(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
  int32_t GetDeterministic() const { return 0; }

  // Launcher / ContextBuilder side.
  void NpukbSetWorkspace(ContinuousVector* workspace) { external_workspace_ = workspace; }
  bool NpukbBlockDimSet() const { return block_dim_set_; }
  const std::vector<size_t>& NpukbWorkspace() const { return workspace_; }

 private:
  TilingData* raw_;
  fe::PlatFormInfos* platform_;
  const void* compile_info_;
  uint32_t block_dim_ = 0;
  bool block_dim_set_ = false;
  uint64_t tiling_key_ = 0;
  uint32_t schedule_mode_ = 0;
  bool need_atomic_ = false;
  std::vector<size_t> workspace_;
  ContinuousVector* external_workspace_ = nullptr;
};

}  // namespace gert
