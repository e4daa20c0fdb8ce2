#ifndef SASUM_TILING_H
#define SASUM_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Sasum, L1ReduceTilingData)
}  // namespace optiling
#endif
