"""The toolchain's self-test: a fixed, known-good operator that every machine's compiler must build.

A verdict blames the candidate only if the machinery that judged it works. The build's boundary checks
(the device-symbol check, the host-symbol check) read what the machine's compiler emitted, and a
compiler can emit calls the code never wrote: a distribution's default hardening makes every function
with a local array call ``__stack_chk_fail`` and every bounded copy call ``__memcpy_chk``. Such a host
would reject every kernel and blame each candidate in turn. So before the first build with a compiler
and simulator version, the builder builds this operator through the same steps and checks as a
candidate's (builder.py); when it does not build, the machine is at fault and every build reports an
infrastructure error instead of a verdict. The result is kept beside the runtime it was made with,
so it is decided once per compiler and simulator version.

The operator is ordinary AscendC that real kernels are made of -- queues and double buffering, a tiling
structure, a local array indexed at run time, struct copies, scalar division, half conversion, a
constant-size ``memcpy`` -- and host code that uses the C++ standard library as tiling code does.
Nothing here names the checks or their symbols: a candidate cannot make its own code pass for this one.
"""

from __future__ import annotations

import os
from pathlib import Path

from npukernelbench.infrastructure import InfrastructureError, disk_error
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

OP = "NpukbSelfTest"
KERNEL = "npukb_self_test"

HOST = r"""#include <cstring>
#include <string>
#include <vector>
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SelfTestTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, tile);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NpukbSelfTest, SelfTestTiling)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  const uint32_t cores = platform.GetCoreNumAiv();
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  std::vector<uint32_t> candidates = {256, 128, 64};
  char name[32];
  const std::string label = "tile";
  std::memcpy(name, label.c_str(), label.size() + 1);
  const uint32_t tile = name[0] == 't' ? candidates[1] : candidates[0];
  uint32_t blocks = 1;
  while (blocks * 2 <= cores && total % (blocks * 2 * tile) == 0) blocks *= 2;
  SelfTestTiling tiling;
  tiling.set_total(total);
  tiling.set_perCore(total / blocks);
  tiling.set_tile(tile);
  context->SetBlockDim(blocks);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class NpukbSelfTest : public OpDef {
 public:
  explicit NpukbSelfTest(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(NpukbSelfTest);
}  // namespace ops
"""

KERNEL_SOURCE = r"""#include "kernel_operator.h"
using namespace AscendC;

struct Window {
  uint32_t offset;
  uint32_t length;
  float weights[8];
};

class SelfTestKernel {
 public:
  __aicore__ inline SelfTestKernel() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perCore, uint32_t tile) {
    Window w{};
    w.offset = perCore * GetBlockIdx();
    w.length = perCore;
    for (int i = 0; i < 8; ++i) w.weights[i] = static_cast<float>(i + 1);
    window_ = w;                                        // a struct copy
    tile_ = tile;
    tiles_ = perCore / tile;
    xGm_.SetGlobalBuffer((__gm__ float*)x + window_.offset, window_.length);
    yGm_.SetGlobalBuffer((__gm__ float*)y + window_.offset, window_.length);
    zGm_.SetGlobalBuffer((__gm__ float*)z + window_.offset, window_.length);
    pipe_.InitBuffer(inX_, 2, tile * sizeof(float));
    pipe_.InitBuffer(inY_, 2, tile * sizeof(float));
    pipe_.InitBuffer(outZ_, 2, tile * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < tiles_; ++t) {
      LocalTensor<float> x = inX_.AllocTensor<float>();
      LocalTensor<float> y = inY_.AllocTensor<float>();
      DataCopy(x, xGm_[t * tile_], tile_);
      DataCopy(y, yGm_[t * tile_], tile_);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<float>();
      y = inY_.DeQue<float>();
      LocalTensor<float> z = outZ_.AllocTensor<float>();
      Add(z, x, y, tile_);
      const half h = static_cast<half>(window_.weights[t % 8]);        // exact: small integers
      Muls(z, z, static_cast<float>(h) / window_.weights[t % 8], tile_);   // times one
      outZ_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.DeQue<float>();
      DataCopy(zGm_[t * tile_], z, tile_);
      outZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inX_, inY_;
  TQue<TPosition::VECOUT, 2> outZ_;
  GlobalTensor<float> xGm_, yGm_, zGm_;
  Window window_;
  uint32_t tile_ = 0;
  uint32_t tiles_ = 0;
};

extern "C" __global__ __aicore__ void npukb_self_test(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  uint32_t shape[4];
  memcpy(shape, &td, sizeof(shape) - sizeof(uint32_t));   // a constant-size copy
  SelfTestKernel op;
  op.Init(x, y, z, shape[2], shape[1]);
  op.Process();
}
"""


ELEMENTS = 4096


def record_pass(mark: Path, text: str, what: str) -> None:
    """Write ``mark`` (a pass of the self-test's ``what``) atomically; a failure to write is the disk's."""
    partial = mark.with_name(f"{mark.name}.{os.getpid()}")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, mark)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise disk_error(exc, f"cannot record the toolchain's {what}", mark.parent) or \
            InfrastructureError(f"cannot record the toolchain's {what} in {mark.parent}: {exc}") from exc


def launch() -> Launch:
    """The self-test's launch: z = x + y on fixed data (exact in float32)."""
    import numpy as np

    x = np.arange(ELEMENTS, dtype=np.float32) * 0.25 - 300.0
    y = np.full(ELEMENTS, 1.5, dtype=np.float32)
    return Launch(inputs=(TensorArg("x", "float32", x), TensorArg("y", "float32", y)),
                  outputs=(TensorArg("z", "float32", shape=(ELEMENTS,)),), attrs={})


def wrong_output(outputs: dict, sent: Launch) -> str | None:
    """Why the self-test run's outputs are not x + y, or None when they are."""
    import numpy as np

    got = outputs.get("z")
    want = sent.inputs[0].data + sent.inputs[1].data
    if got is None or np.shape(got) != want.shape:
        return f"output z has shape {None if got is None else np.shape(got)}, expected {want.shape}"
    bad = int(np.count_nonzero(np.asarray(got) != want))
    return f"{bad} of {want.size} elements of z differ from x + y" if bad else None


def project() -> KernelProject:
    """The self-test operator as a build takes it."""
    params = (ParamSlot("x", "input", "REQUIRED", "float32"), ParamSlot("y", "input", "REQUIRED", "float32"),
              ParamSlot("z", "output", "REQUIRED", "float32"))
    return KernelProject(op=OP, kernel=KERNEL, files={f"op_host/{KERNEL}.cpp": HOST,
                                                      f"op_kernel/{KERNEL}.cpp": KERNEL_SOURCE}, params=params)
