// npukb_sim/data_format.h -- AscendC::DataFormat (the tensor data formats the kernel API names, with the
// documented enumerators and order) and TransDataConfig (the source and destination formats of
// TransData), shared by the kernel headers and the host helper GetTransDataMaxMinTmpSize. Part of the
// ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

namespace AscendC {

enum class DataFormat : std::uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

}  // namespace AscendC
