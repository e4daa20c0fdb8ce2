// tiling/tiling_api.h -- host-side tiling helpers of the AscendC library.
// Part of the ascendc-sim clean-room simulator. Matmul tiling (optiling::TCubeTiling, MatmulApiTiling,
// MultiCoreMatmulTiling) is in tiling/matmul_tiling.h.
#pragma once
#include "graph/types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/matmul_tiling.h"
