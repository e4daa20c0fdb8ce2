"""A kernel file written the way real (expert) kernels are, built and run end to end: the device-build
macros (``__CCE_AICORE__ == 220``), a host-side launch wrapper with ``<<<...>>>`` under ``#ifndef
ASCENDC_CPU_DEBUG``, ``[aicore]``-style qualifiers, ASSERT, and the GM rules real code meets: a read or
a write may run into the last 32-byte block of a tensor (its allocation's padding); a write through a
GlobalTensor that leaves its own tensor is reported as an out-of-bounds write naming the tensor and the
kernel line, even when the address lands inside another tensor. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t mode = *ctx->GetAttrs()->GetInt(0);
  uint32_t* t = ctx->GetTilingData<uint32_t>();
  *t = static_cast<uint32_t>(mode);
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class DialectCustom : public OpDef {
 public:
  explicit DialectCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(DialectCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct ModeTiling { uint32_t mode; };

extern "C" __global__ __aicore__ void dialect_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ModeTiling, t, tiling);
  ASSERT(GetBlockNum() != 0 && "never compiled in a device build");
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x, 100);
  yg.SetGlobalBuffer((__gm__ float*)y, 100);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> l = buf.Get<float>();
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
  Duplicate(l, 1.0f, 128);
#else
  Duplicate(l, -1.0f, 128);
#endif
  if (t.mode == 1) {
    DataCopy(l, xg, 104);               // 400-byte tensor: its last 32-byte block ends at 416
  } else if (t.mode == 2) {
    DataCopy(l, xg, 136);               // past the 512-byte allocation granule  READ-LINE
  } else if (t.mode == 3) {
    __gm__ float* wp = (__gm__ float*)w;
    int64_t into_w = wp - (__gm__ float*)y;
    yg.SetValue(into_w, 5.0f);          // lands in w, outside y  WRITE-LINE
  }
  DataCopy(yg, l, 96);
  if (likely(t.mode != 4)) {
    for (int i = 96; i < 100; ++i) yg.SetValue(i, l.GetValue(i));
  } else {
    DataCopy(yg[96], l[96], 8);         // 32 bytes from byte 384: the last block of y, past its end (400)
  }
}

#ifndef ASCENDC_CPU_DEBUG
void dialect_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* w, uint8_t* y,
                       uint8_t* workspace, uint8_t* tiling) {
  dialect_custom<<<blockDim, l2ctrl, stream>>>(x, w, y, workspace, tiling);
}
#endif
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("w", "input", "REQUIRED", "float32"),
          ("y", "output", "REQUIRED", "float32")]


@pytest.fixture(scope="module")
def dialect_build(sim, make_project):
    build = sim.build(make_project("DialectCustom", "dialect_custom", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, mode: int):
    x = np.arange(100, dtype=np.float32)
    w = np.zeros(100, np.float32)
    return sim.run(build, Launch(inputs=(TensorArg("x", "float32", x), TensorArg("w", "float32", w)),
                                 outputs=(TensorArg("y", "float32", shape=(100,)),),
                                 attrs={"mode": ("int", mode)}, timeout_s=30.0))


def line_of(marker: str) -> int:
    return next(i for i, ln in enumerate(KERNEL.splitlines(), start=1) if marker in ln)


def test_device_build_path_and_launch_wrapper_compile_and_run(sim, dialect_build):
    result = run(sim, dialect_build, 0)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], np.ones(100, np.float32))


def test_read_into_the_last_32_byte_block_is_legal(sim, dialect_build):
    result = run(sim, dialect_build, 1)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], np.arange(100, dtype=np.float32))


def test_read_past_the_allocation_granule_is_a_violation(sim, dialect_build):
    result = run(sim, dialect_build, 2)
    assert not result.ok
    assert "DataCopy" in result.message and "'x'" in result.message and "runs past its end" in result.message
    assert f"dialect_custom.cpp:{line_of('READ-LINE')}" in result.message


def test_write_outside_its_tensor_is_reported_even_inside_another_tensor(sim, dialect_build):
    result = run(sim, dialect_build, 3)
    assert not result.ok
    assert "GlobalTensor::SetValue" in result.message and "'y'" in result.message
    assert "write" in result.message and "was modified" not in result.message
    assert f"dialect_custom.cpp:{line_of('WRITE-LINE')}" in result.message


def test_write_into_the_last_32_byte_block_is_legal(sim, dialect_build):
    result = run(sim, dialect_build, 4)
    assert result.ok, result.message
    np.testing.assert_array_equal(result.outputs["y"], np.ones(100, np.float32))
