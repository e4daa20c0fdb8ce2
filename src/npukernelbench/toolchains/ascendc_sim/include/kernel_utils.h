// kernel_utils.h -- include name of CANN's kernel utility header (AscendCUtils, alignment helpers); the
// simulator declares them with the rest of the kernel API in kernel_operator.h. Part of the ascendc-sim
// clean-room simulator.
#pragma once
#include "kernel_operator.h"
