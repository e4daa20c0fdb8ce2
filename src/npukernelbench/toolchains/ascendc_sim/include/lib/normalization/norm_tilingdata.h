// lib/normalization/norm_tilingdata.h -- the host tiling-data classes of the normalization kernel APIs
// (optiling::LayerNormTiling, LayerNormSeparateTiling, LayerNormGradTiling, LayerNormGradBetaTiling,
// RmsNormTiling, BatchNormTiling, DeepNormTiling, GroupNormTiling), usable as
// TILING_DATA_FIELD_DEF_STRUCT members of an op's tiling class. Each has the byte layout of the
// kernel-side struct of the same name (kernel_tiling/kernel_tiling.h), which the kernel prelude uses
// instead of generating one. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/norm_tiling_fields.h"
#include "register/tilingdata_base.h"

#define NPUKB_BUILTIN_TILING_CLASS(NAME, FIELDS)            \
  BEGIN_TILING_DATA_DEF(NAME)                               \
  bool NpukbBuiltin() const override { return true; }       \
  FIELDS(NPUKB_TILING_DATA_FIELD)                           \
  END_TILING_DATA_DEF

namespace optiling {
NPUKB_BUILTIN_TILING_CLASS(LayerNormTiling, NPUKB_LAYER_NORM_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(LayerNormSeparateTiling, NPUKB_LAYER_NORM_SEPARATE_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(LayerNormGradTiling, NPUKB_LAYER_NORM_GRAD_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(LayerNormGradBetaTiling, NPUKB_LAYER_NORM_GRAD_BETA_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(RmsNormTiling, NPUKB_RMS_NORM_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(BatchNormTiling, NPUKB_BATCH_NORM_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(DeepNormTiling, NPUKB_DEEP_NORM_TILING_FIELDS)
NPUKB_BUILTIN_TILING_CLASS(GroupNormTiling, NPUKB_GROUP_NORM_TILING_FIELDS)
}  // namespace optiling

#undef NPUKB_BUILTIN_TILING_CLASS

namespace npukb_norm {
// Plain struct -> tiling-data class, field by field.
#define NPUKB_TILING_COPY(NAME, FIELDS) \
  inline void ToClass(const ::NAME& src, optiling::NAME& dst) { FIELDS(NPUKB_TILING_TO_CLASS) }
NPUKB_TILING_COPY(LayerNormTiling, NPUKB_LAYER_NORM_TILING_FIELDS)
NPUKB_TILING_COPY(LayerNormSeparateTiling, NPUKB_LAYER_NORM_SEPARATE_TILING_FIELDS)
NPUKB_TILING_COPY(LayerNormGradTiling, NPUKB_LAYER_NORM_GRAD_TILING_FIELDS)
NPUKB_TILING_COPY(LayerNormGradBetaTiling, NPUKB_LAYER_NORM_GRAD_BETA_TILING_FIELDS)
NPUKB_TILING_COPY(RmsNormTiling, NPUKB_RMS_NORM_TILING_FIELDS)
NPUKB_TILING_COPY(BatchNormTiling, NPUKB_BATCH_NORM_TILING_FIELDS)
NPUKB_TILING_COPY(DeepNormTiling, NPUKB_DEEP_NORM_TILING_FIELDS)
NPUKB_TILING_COPY(GroupNormTiling, NPUKB_GROUP_NORM_TILING_FIELDS)
#undef NPUKB_TILING_COPY
}  // namespace npukb_norm
