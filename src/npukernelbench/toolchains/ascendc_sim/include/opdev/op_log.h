// opdev/op_log.h -- the opdev logging macros under their short include path.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include "aclnn/opdev/op_log.h"
