// tiling/tiling_templates_registry.h -- optiling::TilingRegistry and REGISTER_TILING_TEMPLATE: the
// tiling templates (TilingBaseClass subclasses) an op registers, tried in priority order (smaller
// number first) by DoTilingImpl until one is capable of the case.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "tiling/tiling_base.h"

namespace optiling {

using TilingClassCase = std::unique_ptr<TilingBaseClass> (*)(gert::TilingContext*);

class TilingRegistry {
 public:
  static TilingRegistry& GetInstance() {
    static TilingRegistry instance;
    return instance;
  }

  template <typename T>
  static std::unique_ptr<TilingBaseClass> NpukbCreate(gert::TilingContext* context) {
    return std::unique_ptr<TilingBaseClass>(new T(context));
  }

  template <typename T>
  void RegisterTilingImpl(const std::string& op_type, int32_t priority) {
    templates_[op_type][priority] = &NpukbCreate<T>;
  }

  // Runs the op's templates (op type = the context's node type) by ascending priority; the first
  // capable one decides. GRAPH_FAILED when none is registered or none is capable.
  ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
    auto it = templates_.find(context->GetNodeType());
    if (it == templates_.end()) {
      return ge::GRAPH_FAILED;
    }
    for (const auto& kv : it->second) {
      std::unique_ptr<TilingBaseClass> impl = kv.second(context);
      ge::graphStatus ret = impl->DoTiling();
      if (ret != ge::GRAPH_PARAM_INVALID) {
        return ret;
      }
    }
    return ge::GRAPH_FAILED;
  }

  // Only the templates with the given priorities, in the order given.
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
    auto it = templates_.find(context->GetNodeType());
    if (it == templates_.end()) {
      return ge::GRAPH_FAILED;
    }
    for (int32_t p : priorities) {
      auto t = it->second.find(p);
      if (t == it->second.end()) {
        continue;
      }
      ge::graphStatus ret = t->second(context)->DoTiling();
      if (ret != ge::GRAPH_PARAM_INVALID) {
        return ret;
      }
    }
    return ge::GRAPH_FAILED;
  }

 private:
  TilingRegistry() = default;
  std::map<std::string, std::map<int32_t, TilingClassCase>> templates_;
};

template <typename T>
class NpukbTilingTemplateRegisterer {
 public:
  NpukbTilingTemplateRegisterer(const char* op_type, int32_t priority) { TilingRegistry::GetInstance().RegisterTilingImpl<T>(op_type, priority); }
};

}  // namespace optiling

#define NPUKB_TILING_TEMPLATE_CAT2(a, b) a##b
#define NPUKB_TILING_TEMPLATE_CAT(a, b) NPUKB_TILING_TEMPLATE_CAT2(a, b)
#define REGISTER_TILING_TEMPLATE(op_type, class_name, priority)                                         \
  static ::optiling::NpukbTilingTemplateRegisterer<class_name> NPUKB_TILING_TEMPLATE_CAT(g_npukb_tiling_template_, __COUNTER__)( \
      op_type, priority)
