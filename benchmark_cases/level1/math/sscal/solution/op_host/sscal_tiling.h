#ifndef SSCAL_TILING_H
#define SSCAL_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Sscal, L1EltTilingData)
}  // namespace optiling
#endif
