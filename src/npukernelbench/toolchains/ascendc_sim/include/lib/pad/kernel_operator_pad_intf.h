// lib/pad/kernel_operator_pad_intf.h -- include name of CANN's Pad / UnPad kernel API header (real
// kernels include it); the simulator declares every kernel API in kernel_operator.h. Part of the
// ascendc-sim clean-room simulator.
#pragma once
#include "kernel_operator.h"
