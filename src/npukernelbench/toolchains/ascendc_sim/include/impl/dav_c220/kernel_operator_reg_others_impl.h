// impl/dav_c220/kernel_operator_reg_others_impl.h -- include name of CANN's Ascend 910B (dav-c220)
// register-level helpers (GetAccVal, AscendCUtils::SetMask, ...); the simulator declares them with the
// rest of the kernel API in kernel_operator.h. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "kernel_operator.h"
