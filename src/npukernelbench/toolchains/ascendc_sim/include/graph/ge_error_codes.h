// graph/ge_error_codes.h -- graph status codes. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "graph/types.h"
