// kernel_operator_intf.h -- the AscendC basic API under its interface include name. Part of the
// ascendc-sim clean-room simulator: everything is in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
