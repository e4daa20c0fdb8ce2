// npukb_sim/lib_tiling_structs.h -- kernel-side plain structs of the sort and tensor-transform tiling
// data (TopkTiling, PadTiling, UnPadTiling, ConfusionTransposeTiling) with zero initialisers, at global
// scope and in AscendC::tiling like the other library tilings. Generated from
// npukb_sim/lib_tiling_fields.h, so that the host-side tiling-data classes have the same byte layout.
// Part of the ascendc-sim clean-room simulator; included by kernel_tiling/kernel_tiling.h.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tiling_fields.h"

struct TopkTiling {
  NPUKB_TOPK_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct PadTiling {
  NPUKB_PAD_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct UnPadTiling {
  NPUKB_UNPAD_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};
struct ConfusionTransposeTiling {
  NPUKB_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUKB_PLAIN_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using ::ConfusionTransposeTiling;
using ::PadTiling;
using ::TopkTiling;
using ::UnPadTiling;
}  // namespace tiling
}  // namespace AscendC
