// exe_graph/runtime/infer_shape_context.h -- part of the ascendc-sim clean-room simulator.
#pragma once
#include "exe_graph/runtime/tiling_context.h"
