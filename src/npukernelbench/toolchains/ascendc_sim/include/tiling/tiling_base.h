// tiling/tiling_base.h -- optiling::TilingBaseClass, the template-method base class of the
// "tiling template" style of host code: DoTiling() runs GetShapeAttrsInfo, GetPlatformInfo,
// IsCapable, DoOpTiling, DoLibApiTiling, GetWorkspaceSize and PostTiling in that order, then sets
// the tiling key from GetTilingKey() and calls DumpTilingInfo(). A template that is not capable of
// the case makes DoTiling return GRAPH_PARAM_INVALID, so that TilingRegistry tries the next one
// (tiling/tiling_templates_registry.h). Brings <array>, <sstream> and the log/check macros of
// log/ops_log.h, which template-style tiling code uses without including them.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "log/ops_log.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

struct AiCoreParams {
  uint64_t ubSize;
  uint64_t blockDim;
  uint64_t aicNum;
  uint64_t l1Size;
  uint64_t l0aSize;
  uint64_t l0bSize;
  uint64_t l0cSize;
};

class TilingBaseClass {
 public:
  explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
  TilingBaseClass() = default;
  virtual ~TilingBaseClass() = default;

  ge::graphStatus DoTiling() {
    ge::graphStatus ret = GetShapeAttrsInfo();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    ret = GetPlatformInfo();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    if (!IsCapable()) {
      return ge::GRAPH_PARAM_INVALID;
    }
    ret = DoOpTiling();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    ret = DoLibApiTiling();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    ret = GetWorkspaceSize();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    ret = PostTiling();
    if (ret != ge::GRAPH_SUCCESS) {
      return ret;
    }
    context_->SetTilingKey(GetTilingKey());
    DumpTilingInfo();
    return ge::GRAPH_SUCCESS;
  }

  virtual void Reset(gert::TilingContext* context) { context_ = context; }

 protected:
  virtual bool IsCapable() = 0;
  // Platform figures (core count, UB size) into aicoreParams_ / the op's own fields.
  virtual ge::graphStatus GetPlatformInfo() = 0;
  // Input shapes, dtypes and attributes.
  virtual ge::graphStatus GetShapeAttrsInfo() = 0;
  // The op's own tiling.
  virtual ge::graphStatus DoOpTiling() = 0;
  // Tiling of the AscendC library APIs the kernel uses (Matmul, SoftMax, ...).
  virtual ge::graphStatus DoLibApiTiling() = 0;
  virtual uint64_t GetTilingKey() const = 0;
  virtual ge::graphStatus GetWorkspaceSize() = 0;
  // Block dim, workspace sizes and the tiling data into the context.
  virtual ge::graphStatus PostTiling() = 0;
  virtual void DumpTilingInfo() {}

  gert::TilingContext* context_ = nullptr;
  std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
  uint32_t blockDim_{0};
  uint64_t workspaceSize_{0};
  uint64_t tilingKey_{0};
  AiCoreParams aicoreParams_{0, 0, 0, 0, 0, 0, 0};
};

}  // namespace optiling
