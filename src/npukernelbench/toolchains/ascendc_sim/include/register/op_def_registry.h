// register/op_def_registry.h -- what op_host sources include to declare an OpDef (OP_ADD), register
// op implementations (IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE) and use the gert contexts.
// Part of the ascendc-sim clean-room simulator.
//
// Like CANN's header it brings the standard library headers real op_host code relies on without
// including them itself (<iostream> for std::cout, <cstdio> for printf, <cstring>, <map>, <memory>).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "graph/utils/type_utils.h"
#include "register/device_op_impl_registry.h"
#include "register/op_def.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
