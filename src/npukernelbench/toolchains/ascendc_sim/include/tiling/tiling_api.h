// tiling/tiling_api.h -- host-side tiling helpers of the AscendC library.
// Part of the ascendc-sim clean-room simulator. Matmul (TCubeTiling, MultiCoreMatmulTiling) and the
// high-level API tmp-size helpers arrive with the cube issue; this header gives the common includes.
#pragma once
#include "graph/types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
