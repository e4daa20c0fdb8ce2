"""Kernel Tiling macros, each checked against its doc page with the real launcher: GET_TILING_DATA_PTR_WITH_
STRUCT, COPY_TILING_WITH_STRUCT (a nested struct), COPY_TILING_WITH_ARRAY, GET_TILING_DATA_MEMBER,
TILING_KEY_IS / TILING_KEY_LIST, REGISTER_NONE_TILING, and a copy that runs past the tiling bytes.
Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

COMMON = r"""
struct Inner { int32_t a; int32_t b; };
struct Outer { int32_t n; Inner inner; int32_t arr[6]; };
"""

HOST = r"""
#include "register/op_def_registry.h"
""" + COMMON + r"""
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  int64_t key = *ctx->GetAttrs()->GetInt(0);
  Outer* t = ctx->GetTilingData<Outer>();
  t->n = 6;
  t->inner.a = 100;
  t->inner.b = 200;
  for (int i = 0; i < 6; ++i) t->arr[i] = 10 * (i + 1);
  ctx->SetTilingKey(static_cast<uint64_t>(key));
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class TilingCustom : public OpDef {
 public:
  explicit TilingCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Attr("key").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(TilingCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
""" + COMMON + r"""
extern "C" __global__ __aicore__ void tiling_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  REGISTER_NONE_TILING;
  GlobalTensor<int32_t> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 16);
  GET_TILING_DATA_PTR_WITH_STRUCT(Outer, t, tiling);
  if (TILING_KEY_IS(1)) {
    COPY_TILING_WITH_STRUCT(Inner, &t->inner, inner);
    COPY_TILING_WITH_ARRAY(int32_t, 6, t->arr, arr);
    out.SetValue(0, t->n);
    out.SetValue(1, inner->a + inner->b);
    for (int i = 0; i < 6; ++i) out.SetValue(2 + i, arr[i]);
    GET_TILING_DATA_MEMBER(Outer, inner, member, tiling);
    out.SetValue(8, member.b);
  } else if (TILING_KEY_LIST(2, 3)) {
    out.SetValue(0, 23);
  } else if (TILING_KEY_IS(4)) {
    COPY_TILING_WITH_ARRAY(int32_t, 200, t->arr, too_far);  // COPY-LINE (past the 512-byte granule)
    out.SetValue(0, too_far[0]);
  }
}
"""

PARAMS = [("x", "input", "REQUIRED", "int32"), ("y", "output", "REQUIRED", "int32")]


@pytest.fixture(scope="module")
def tiling_build(sim, make_project):
    build = sim.build(make_project("TilingCustom", "tiling_custom", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, key: int):
    return sim.run(build, Launch(inputs=(TensorArg("x", "int32", np.zeros(16, np.int32)),),
                                 outputs=(TensorArg("y", "int32", np.zeros(16, np.int32), shape=(16,)),),
                                 attrs={"key": ("int", key)}))


@pytest.mark.api("GET_TILING_DATA_PTR_WITH_STRUCT", "COPY_TILING_WITH_STRUCT", "COPY_TILING_WITH_ARRAY",
                 "GET_TILING_DATA_MEMBER", "TILING_KEY_IS", "REGISTER_NONE_TILING")
def test_tiling_pointer_and_copies(sim, tiling_build) -> None:
    result = run(sim, tiling_build, 1)
    assert result.ok, result.message
    assert result.outputs["y"][:9].tolist() == [6, 300, 10, 20, 30, 40, 50, 60, 200]


@pytest.mark.api("TILING_KEY_LIST")
def test_tiling_key_list(sim, tiling_build) -> None:
    for key in (2, 3):
        result = run(sim, tiling_build, key)
        assert result.ok and result.outputs["y"][0] == 23, result.message
    other = run(sim, tiling_build, 5)
    assert other.ok and other.outputs["y"][0] == 0


@pytest.mark.api("COPY_TILING_WITH_ARRAY")
def test_a_copy_past_the_tiling_bytes_is_reported(sim, tiling_build) -> None:
    result = run(sim, tiling_build, 4)
    assert not result.ok and "COPY_TILING_WITH_ARRAY" in result.message
    line = next(i for i, text in enumerate(KERNEL.splitlines(), 1) if "COPY-LINE" in text)
    assert f"op_kernel/tiling_custom.cpp:{line}" in result.message
