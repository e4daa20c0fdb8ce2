// tiling/context/context_builder.h -- the tiling debugging API (namespace context_ascendc):
// ContextBuilder, which builds a gert::TilingContext (for a Tiling function) or a gert::KernelContext
// (for a TilingParse function) by hand, KernelRunContextHolder, which owns what it built, and
// OpTilingRegistry, which finds an operator's Tiling function by op type.
// Part of the ascendc-sim clean-room simulator; the members are defined in runtime/host_api.cpp.
//
// What the simulator does where the real library touches files or devices:
// * AddInputTd(..., filePath): host code here opens no files (docs/security.md). The input gets its
//   description (dtype, formats, shape) but no data (GetInputTensor(i)->GetData() is nullptr, as for
//   an input that is not value-dependent) and a warning on stderr says so. Pass the values with the
//   void* overload instead.
// * AddPlatformInfo(soc): every processor name, and nullptr (the current one), is the simulated
//   Ascend 910B, as for fe::PlatformInfoManager.
// * OpTilingRegistry::LoadTilingLibrary(path): host code here loads no shared objects. The operator
//   tiling code compiled into this program (OpDef AICore().SetTiling, IMPL_OP_OPTILING(...).Tiling)
//   stands for the library: the call reports on stderr that it opens nothing and returns whether this
//   program registers any Tiling function.
// Misuse the documentation rules out (AddInputTd before NodeIoNum / IrInstanceNum, an index beyond the
// declared instances, an attribute added twice, IrInstanceNum not matching NodeIoNum) is reported on
// stderr, and BuildTilingContext / BuildKernelRunContext then return nullptr.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/kernel_context.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "graph/types.h"

namespace context_ascendc {

// What a holder owns: the node table, the context object and every buffer they point into.
class ValueHolderImpl;
// The built context. Opaque here: the object behind it is the context itself (a gert::TilingContext
// from BuildTilingContext, a gert::TilingParseContext -- a KernelContext -- from BuildKernelRunContext),
// which GetContext<T>() hands back.
struct KernelRunContext;

struct KernelRunContextHolder {
  KernelRunContextHolder();
  ~KernelRunContextHolder();
  template <typename T>
  T* GetContext() const {
    return reinterpret_cast<T*>(context);
  }
  gert::ComputeNodeInfo* MutableComputeNodeInfo() {
    return reinterpret_cast<gert::ComputeNodeInfo*>(computeNodeExtendHolder.get());
  }
  std::unique_ptr<ValueHolderImpl> valueHolder;
  std::unique_ptr<uint8_t[]> computeNodeExtendHolder;
  KernelRunContext* context{nullptr};
};

class NpukbBuilderState;

class ContextBuilder {
 public:
  ContextBuilder();
  ContextBuilder(const ContextBuilder& other);
  ContextBuilder& operator=(const ContextBuilder& other);
  ~ContextBuilder();

  // KernelContext (TilingParse): the input and output values, one pointer each. For a TilingParse
  // context input 0 is the compiled JSON (const char*, may be nullptr), input 1 the fe::PlatFormInfos,
  // output 0 the compile-info object.
  ContextBuilder& Inputs(std::vector<void*> inputs);
  ContextBuilder& Outputs(std::vector<void*> outputs);
  std::shared_ptr<KernelRunContextHolder> BuildKernelRunContext();

  // TilingContext: the compute node.
  ContextBuilder& NodeIoNum(size_t inputNum, size_t outputNum);
  ContextBuilder& SetOpNameType(const std::string& opName, const std::string& opType);
  ContextBuilder& IrInstanceNum(std::vector<uint32_t> instanceNum);
  ContextBuilder& AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat, ge::Format storageFormat,
                             gert::StorageShape storageShape);
  ContextBuilder& AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat, ge::Format storageFormat,
                             gert::StorageShape storageShape, void* constValues);
  ContextBuilder& AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat, ge::Format storageFormat,
                             gert::StorageShape storageShape, const std::string& filePath);
  ContextBuilder& AddOutputTd(int32_t index, ge::DataType dtype, ge::Format originFormat, ge::Format storageFormat,
                              gert::StorageShape storageShape);
  ContextBuilder& AddAttr(const std::string& attrName, int64_t attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, bool attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::string& attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, float attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::vector<float>& attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::vector<bool>& attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::vector<int64_t>& attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::vector<std::string>& attrValue);
  ContextBuilder& AddAttr(const std::string& attrName, const std::vector<std::vector<int64_t>>& attrValue);
  // TilingContext: what the Tiling function reads and writes besides the node.
  ContextBuilder& CompileInfo(void* compileInfo);
  ContextBuilder& PlatformInfo(void* platformInfo);
  ContextBuilder& AddPlatformInfo(const char* customSocVersion);
  ContextBuilder& TilingData(void* tilingData);
  ContextBuilder& Workspace(gert::ContinuousVector* workspace);
  std::shared_ptr<KernelRunContextHolder> BuildTilingContext();

 private:
  std::unique_ptr<NpukbBuilderState> state_;
};

using TilingFunc = uint32_t (*)(gert::TilingContext*);

class OpTilingRegistry {
 public:
  OpTilingRegistry();
  ~OpTilingRegistry();
  // The Tiling function registered for opType (the OpDef's AICore().SetTiling, else
  // IMPL_OP_OPTILING(opType).Tiling), or nullptr.
  TilingFunc GetTilingFunc(const char* opType) const;
  bool LoadTilingLibrary(const char* tilingSoPath) const;
};

}  // namespace context_ascendc
