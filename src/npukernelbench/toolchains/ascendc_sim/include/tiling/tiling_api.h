// tiling/tiling_api.h -- host-side tiling helpers of the AscendC library.
// Part of the ascendc-sim clean-room simulator. Brings ge::Shape, the platform, the tiling-data
// macros, the SoftMax and Mean helpers (namespace AscendC) and, like CANN's header, the standard
// headers host code uses from it. Matmul tiling (optiling::TCubeTiling, MatmulApiTiling,
// MultiCoreMatmulTiling) is in tiling/matmul_tiling.h.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/activation/softmax_tiling.h"
#include "lib/reduce/mean_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/matmul_tiling.h"

// The normalization and quantization families' host helpers.
#include "lib/normalization/batchnorm_tiling.h"
#include "lib/normalization/deepnorm_tiling.h"
#include "lib/normalization/groupnorm_tiling.h"
#include "lib/normalization/layernorm_grad_beta_tiling.h"
#include "lib/normalization/layernorm_grad_tiling.h"
#include "lib/normalization/layernorm_tiling.h"
#include "lib/normalization/normalize_tiling.h"
#include "lib/normalization/rmsnorm_tiling.h"
#include "lib/normalization/welford_tiling.h"
#include "lib/quantization/ascend_antiquant_tiling.h"
#include "lib/quantization/ascend_dequant_tiling.h"
#include "lib/quantization/ascend_quant_tiling.h"
#include "lib/quantization/antiquantize_tiling.h"
#include "lib/quantization/dequantize_tiling.h"
#include "lib/quantization/quantize_tiling.h"
// The high-level math and activation helpers (temporary-space sizes, LogSoftMax tiling).
#include "lib/activation/activation_tiling.h"
#include "lib/activation/logsoftmax_tiling.h"
#include "lib/math/math_tiling.h"
// The sort, reduction, index, data-filter and tensor-transform families' host helpers.
#include "lib/broadcast/broadcast_tiling.h"
#include "lib/filter/dropout_tiling.h"
#include "lib/filter/select_tiling.h"
#include "lib/index/arange_tiling.h"
#include "lib/pad/pad_tiling.h"
#include "lib/reduce/reduce_tiling.h"
#include "lib/reduce/reduce_xor_sum_tiling.h"
#include "lib/reduce/sum_tiling.h"
#include "lib/sort/sort_tiling.h"
#include "lib/sort/topk_tiling.h"
#include "lib/transpose/confusion_transpose_tiling.h"
#include "lib/transpose/transdata_tiling.h"
#include "ascendc/host_api/tiling/template_argument.h"
// The convolution tiling (Conv3dTilingApi::Conv3dTiling, optiling::TConv3DApiTiling).
#include "lib/conv/conv3d/conv3d_tiling.h"
// The Conv3DBackpropFilter tiling (ConvBackpropApi::Conv3dBpFilterTiling, optiling::Conv3DBackpropFilterTilingData).
#include "lib/conv_backprop/conv3d_bp_filter_tiling.h"
// The Conv3DBackpropInput tiling (ConvBackpropApi::Conv3DBpInputTiling).
#include "lib/conv_backprop/conv3d_bp_input_tiling.h"
