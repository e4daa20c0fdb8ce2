// ops_error.h -- error/ops_error.h under the short include path op_host code also uses.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include "error/ops_error.h"
