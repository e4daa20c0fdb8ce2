// lib/math/kernel_operator_fmod_intf.h -- include name of CANN's advanced math API headers; the
// simulator declares every kernel API in kernel_operator.h. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "kernel_operator.h"
