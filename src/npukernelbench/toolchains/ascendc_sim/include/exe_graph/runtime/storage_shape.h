// exe_graph/runtime/storage_shape.h -- gert::StorageShape. Part of the ascendc-sim simulator.
#pragma once
#include "exe_graph/runtime/shape.h"
