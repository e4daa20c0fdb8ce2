// tiling/conv_backprop/conv3d_bp_input_tiling.h -- the Conv3DBackpropInput host tiling under the include
// path the usage page's sample names (the calculator is lib/conv_backprop/conv3d_bp_input_tiling.h).
// Clean-room part of ascendc-sim.
#pragma once
#include "lib/conv_backprop/conv3d_bp_input_tiling.h"
