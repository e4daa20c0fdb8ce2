// utils/debug/asc_assert.h -- the Utils API debugging header (调测接口): the simulator declares these in
// kernel_operator.h (npukb_sim/kernel/debug_utils.h, assert in npukb_sim/kernel/debug.h). Clean-room part of ascendc-sim.
#pragma once
#include "kernel_operator.h"
