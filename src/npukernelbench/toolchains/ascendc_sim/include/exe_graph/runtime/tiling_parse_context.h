// exe_graph/runtime/tiling_parse_context.h -- gert::TilingParseContext, the argument of an operator's
// TilingParse (TilingPrepare) function. Part of the ascendc-sim clean-room simulator.
//
// As CANN does, the launcher runs a registered TilingParse once before the first tiling: it creates
// the compile-info object of the type named in TilingParse<T>(...) (value-initialised), hands it and
// the platform to the function, and then passes the same object to every TilingContext
// (GetCompileInfo).
#pragma once
#include "exe_graph/runtime/extended_kernel_context.h"
#include "platform/platform_infos_def.h"

namespace gert {

class TilingParseContext : public ExtendedKernelContext {
 public:
  TilingParseContext(NpukbIoTable* io, const char* compiled_json, void* compiled_info,
                     fe::PlatFormInfos* platform)
      : ExtendedKernelContext(io), json_(compiled_json), info_(compiled_info), platform_(platform) {}

  // The op's compile-time JSON. AscendC operators compiled by the simulator have no compile-time
  // parameters: "{}".
  const char* GetCompiledJson() const { return json_; }
  template <typename T>
  T* GetCompiledInfo() {
    return static_cast<T*>(info_);
  }
  fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }

 private:
  const char* json_;
  void* info_;
  fe::PlatFormInfos* platform_;
};

}  // namespace gert
