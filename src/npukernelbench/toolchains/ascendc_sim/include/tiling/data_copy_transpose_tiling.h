// Part of the ascendc-sim clean-room simulator.
#pragma once
#include "tiling/tiling_api.h"
