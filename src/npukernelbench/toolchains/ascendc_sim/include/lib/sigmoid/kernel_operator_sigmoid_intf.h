// lib/sigmoid/kernel_operator_sigmoid_intf.h -- include name of CANN's Sigmoid header; the simulator
// declares every kernel API in kernel_operator.h. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "kernel_operator.h"
