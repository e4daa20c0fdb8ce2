#ifndef INPLACE_FUSED_MATMUL_SOFTMAX_GRAD_TILING_H
#define INPLACE_FUSED_MATMUL_SOFTMAX_GRAD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InplaceFusedMatmulSoftmaxGradTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);         // batch * M
    TILING_DATA_FIELD_DEF(uint32_t, m);            // rows per batch
    TILING_DATA_FIELD_DEF(uint32_t, n);            // softmax length (rows of values)
    TILING_DATA_FIELD_DEF(uint32_t, k);            // inner dim (multiple of 8, <= 64)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);   // cores that take one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InplaceFusedMatmulSoftmaxGrad, InplaceFusedMatmulSoftmaxGradTilingData)
}  // namespace optiling
#endif
