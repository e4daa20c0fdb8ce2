// lib/conv/conv_common_types.h -- the data formats and data types of the convolution high-level APIs
// (ConvCommonApi::ConvFormat / ConvDtype), shared by the host tiling and the kernel side. The position
// type ConvCommonApi::TPosition is AscendC::TPosition on the kernel side (lib/conv/conv3d/conv3d_api.h)
// and a host enum on the tiling side (lib/conv/conv3d/conv3d_tiling.h). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#if defined(__CCE_AICORE__)
#include "kernel_operator.h"
namespace ConvCommonApi {
using TPosition = AscendC::TPosition;
}  // namespace ConvCommonApi
#else
namespace ConvCommonApi {
enum class TPosition : std::int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                      SHM = SPM, TSCM, MAX };
}  // namespace ConvCommonApi
#endif

namespace ConvCommonApi {
enum class ConvFormat : std::uint8_t { ND = 0, NCHW, NHWC, HWCN, NCDHW, NDHWC, DHWCN, NDC1HWC0, FRACTAL_Z_3D };
// FLOAT and FLOAT32 name the same type (the Conv3D pages write FLOAT, the backprop pages FLOAT32).
enum class ConvDtype : std::uint8_t { FLOAT16 = 0, FLOAT32, FLOAT = FLOAT32, BF16, INT8, UINT8, INT64, UINT64, INT4,
                                      INT16, INT32, CONVDTYPEMAX };
}  // namespace ConvCommonApi
