// kernel_operator.h -- the AscendC kernel API as seen by operators compiled with ascendc-sim.
// Clean-room implementation (see npukb_sim/kernel/*.h); mirrors the real header's name and namespace.
#pragma once

#include "npukb_sim/kernel/device_libc.h"  // first: device code has no C library
#include "npukb_sim/kernel_macros.h"
#include "npukb_sim/runtime.h"
#include "npukb_sim/kernel/types.h"
#include "npukb_sim/kernel/device_math.h"
#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/tensor.h"
#include "npukb_sim/kernel/pipe.h"
#include "npukb_sim/kernel/data_copy.h"
#include "npukb_sim/kernel/data_copy_layout.h"
#include "npukb_sim/kernel/vec_engine.h"
#include "npukb_sim/kernel/vec_elementwise_common.h"
#include "npukb_sim/kernel/vec_binary.h"
#include "npukb_sim/kernel/vec_unary.h"
#include "npukb_sim/kernel/vec_binary_scalar.h"
#include "npukb_sim/kernel/vec_fill.h"
#include "npukb_sim/kernel/vec_ternary.h"
#include "npukb_sim/kernel/vec_fused.h"
#include "npukb_sim/kernel/vec_copy.h"
#include "npukb_sim/kernel/cast.h"
#include "npukb_sim/kernel/compare_select.h"
#include "npukb_sim/kernel/vec_operators.h"
#include "npukb_sim/kernel/reduce.h"
#include "npukb_sim/kernel/vec_gather.h"
#include "npukb_sim/kernel/vec_bilinear.h"
#include "npukb_sim/kernel/vec_transpose.h"
#include "npukb_sim/kernel/gather_mask.h"
#include "npukb_sim/kernel/lib_math.h"
#include "npukb_sim/kernel/broadcast.h"
#include "npukb_sim/kernel/trans_data.h"
#include "npukb_sim/kernel/lib_softmax.h"
#include "npukb_sim/kernel/vec_mask.h"
#include "npukb_sim/kernel/sync.h"
#include "npukb_sim/kernel/sys_var.h"
#include "npukb_sim/kernel/debug.h"
#include "npukb_sim/kernel/cube_cores.h"
#include "npukb_sim/kernel/debug_utils.h"  // after cube_cores.h: __cbuf__ / __cc__
#include "ascendc/host_api/tiling/template_argument.h"  // the constants (the definitions are read by the build)
#include "npukb_sim/kernel/cube_copy.h"
#include "npukb_sim/kernel/cube_mmad.h"
#include "npukb_sim/kernel/cube_fixpipe.h"
#include "npukb_sim/kernel/intrinsics.h"
#include "npukb_sim/kernel/raw_access.h"
// AscendC::Std: the C++ standard library of the Utils API (type traits, tuple, integer sequences, max /
// min / abs / sqrt).
#include "npukb_sim/kernel/std_library.h"
// Coordinate, Layout and TensorTrait (auxiliary data structures), on AscendC::Std::tuple.
#include "npukb_sim/kernel/tensor_layout.h"

#if __has_include("npukb_sim/list_tensor_desc.h")
#include "npukb_sim/list_tensor_desc.h"
#endif
#if __has_include("npukb_sim/tiling_kernel.h")
#include "npukb_sim/tiling_kernel.h"
#endif
#include "npukb_sim/kernel/lib_layernorm.h"
#include "npukb_sim/kernel/lib_norm.h"
#include "npukb_sim/kernel/lib_welford.h"
#include "npukb_sim/kernel/lib_quant.h"
// The sort, reduction, index, data-filter and tensor-transform libraries.
#include "npukb_sim/kernel/lib_sort.h"
#include "npukb_sim/kernel/lib_reduce.h"
#include "npukb_sim/kernel/lib_index.h"
#include "npukb_sim/kernel/lib_filter.h"
#include "npukb_sim/kernel/lib_transform.h"
// The rest of the cube family: Load3D and its registers, sparse loads, AIPP image loads.
#include "npukb_sim/kernel/cube_load3d.h"
#include "npukb_sim/kernel/cube_sparse.h"
#include "npukb_sim/kernel/cube_aipp.h"
#include "npukb_sim/kernel/cube_group.h"
