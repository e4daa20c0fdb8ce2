// tiling/tiling_type.h -- the types of the tiling-template framework (TilingBaseClass, AiCoreParams)
// under the header name template-style host code includes next to tiling/tiling_base.h.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include "tiling/tiling_base.h"
