#ifndef SASUM_TILING_H
#define SASUM_TILING_H
#include "l1_reduce_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Sasum, L1ReduceTilingData)
}  // namespace optiling
#endif
