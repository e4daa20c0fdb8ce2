// npukb_sim/norm_tiling_structs.h -- kernel-side plain structs of the normalization tiling data
// (LayerNormSeparateTiling, LayerNormGradTiling, LayerNormGradBetaTiling, RmsNormTiling,
// BatchNormTiling, DeepNormTiling, GroupNormTiling; LayerNormTiling is in kernel_tiling/kernel_tiling.h)
// with the documented fields and zero initialisers, at global scope and in AscendC::tiling like the
// other library tilings. Generated from npukb_sim/norm_tiling_fields.h, so that the host-side
// tiling-data classes of lib/normalization/ have the same byte layout. Part of the ascendc-sim
// clean-room simulator; included by kernel_tiling/kernel_tiling.h.
#pragma once
#include <cstdint>

#include "npukb_sim/norm_tiling_fields.h"

struct LayerNormSeparateTiling {
  NPUKB_LAYER_NORM_SEPARATE_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct LayerNormGradTiling {
  NPUKB_LAYER_NORM_GRAD_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct LayerNormGradBetaTiling {
  NPUKB_LAYER_NORM_GRAD_BETA_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct RmsNormTiling {
  NPUKB_RMS_NORM_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct BatchNormTiling {
  NPUKB_BATCH_NORM_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct DeepNormTiling {
  NPUKB_DEEP_NORM_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct GroupNormTiling {
  NPUKB_GROUP_NORM_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using ::BatchNormTiling;
using ::DeepNormTiling;
using ::GroupNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormSeparateTiling;
using ::RmsNormTiling;
}  // namespace tiling
}  // namespace AscendC
