// tiling/conv_backprop/conv3d_bp_filter_tiling.h -- the include path the Conv3DBackpropFilter tiling pages'
// examples use: the host tiling of lib/conv_backprop/conv3d_bp_filter_tiling.h. Clean-room part of ascendc-sim.
#pragma once
#include "lib/conv_backprop/conv3d_bp_filter_tiling.h"
