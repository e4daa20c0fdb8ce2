// npukb_aclnn_shim.h -- what the generated aclnn API of an operator calls (benchmarks/third_party.py).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aclnn/aclnn_base.h"

namespace npukb_acl {

enum Kind { TENSOR, TENSOR_LIST, ATTR_INT, ATTR_FLOAT, ATTR_BOOL, ATTR_STR, ATTR_LIST_INT, ATTR_LIST_FLOAT,
            ATTR_LIST_BOOL };

struct Arg {
  const char* role;        // "input" | "output" | "attr"
  const char* name;
  Kind kind;
  const void* handle;      // aclTensor*, aclTensorList*, aclIntArray*, ... (nullptr: absent)
  int64_t i;
  double f;
  const char* s;
};

aclnnStatus get_workspace(const char* op, const Arg* args, size_t count, uint64_t* workspaceSize,
                          aclOpExecutor** executor);
aclnnStatus execute(aclOpExecutor* executor);

}  // namespace npukb_acl
