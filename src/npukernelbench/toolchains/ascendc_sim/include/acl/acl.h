// acl/acl.h -- the parts of the AscendCL host runtime header that kernel sources may include. Kernel
// sources built by ascendc-sim never call the runtime; this gives them the types they name. Part of
// the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <cstdint>

typedef int aclError;
typedef void* aclrtStream;
constexpr aclError ACL_SUCCESS = 0;
