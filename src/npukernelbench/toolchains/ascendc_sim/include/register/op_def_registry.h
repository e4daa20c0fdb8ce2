// register/op_def_registry.h -- what op_host sources include to declare an OpDef (OP_ADD) and use
// gert::TilingContext. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "graph/utils/type_utils.h"
#include "register/op_def.h"
#include "register/tilingdata_base.h"
