// lib/matrix/matmul/tiling.h -- kernel-side Matmul tiling types (TCubeTiling). Part of the ascendc-sim
// clean-room simulator.
#pragma once
#include "kernel_tiling/kernel_tiling.h"
