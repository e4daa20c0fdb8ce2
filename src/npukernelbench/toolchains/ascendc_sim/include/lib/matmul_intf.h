// lib/matmul_intf.h -- the Matmul high-level API as seen by kernels built with ascendc-sim: the Matmul
// object (lib/matmul/matmul_impl.h), its type and policy parameters (matmul_type.h), the template
// configuration (matmul_config.h) and REGIST_MATMUL_OBJ (matmul_server.h). Clean-room implementation
// written from the public API documentation; see docs/simulator.md.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_impl.h"
#include "lib/matmul/matmul_server.h"
#include "lib/matmul/matmul_type.h"

// The library's namespace sees the whole AscendC API, so a kernel's `using namespace matmul;` brings it
// too (real kernels call GetSysWorkSpacePtr() and friends unqualified after only that directive).
namespace matmul {
using namespace AscendC;
}  // namespace matmul

using matmul::MatmulType;

namespace AscendC {
using ::BatchMode;
using ::BatchOutMode;
using ::CubeFormat;
using ::IterateMode;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulApiStaticTiling;
using ::MatmulBatchParams;
using ::MatmulConfig;
using ::MatmulConfigMode;
using ::MatmulFuncParams;
using ::MatmulQuantParams;
using ::MatmulShapeParams;
using ::ScheduleType;
using matmul::DataCopyOutParams;
using matmul::Matmul;
using matmul::MatmulCallBackFunc;
using matmul::MatmulImpl;
using matmul::MatmulType;
using matmul::MatrixOffset;
}  // namespace AscendC
