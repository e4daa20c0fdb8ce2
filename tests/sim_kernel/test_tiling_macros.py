"""Kernel Tiling macros, each checked against its doc page with the real launcher: GET_TILING_DATA_PTR_WITH_
STRUCT, COPY_TILING_WITH_STRUCT (a nested struct), COPY_TILING_WITH_ARRAY, GET_TILING_DATA_MEMBER,
TILING_KEY_IS / TILING_KEY_LIST, REGISTER_NONE_TILING, a copy that runs past the tiling bytes, and a second
kernel with REGISTER_TILING_DEFAULT / REGISTER_TILING_FOR_TILINGKEY, GET_TILING_DATA_WITH_STRUCT and the
kernel types (KERNEL_TASK_TYPE_DEFAULT, KERNEL_TASK_TYPE per tiling key). Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

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


# A vector-only kernel by default; tiling key 2 is a mixed kernel (1 AIC : 2 AIV). Every vector block writes
# what it read from the tiling at its block index, the cube core 1000 at index 8.
TYPED_KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
""" + COMMON + r"""
extern "C" __global__ __aicore__ void tiling_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(Outer);
  REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 2) && (TILING_KEY_VAR <= 3)", Outer);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KERNEL_TASK_TYPE(2, KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA_WITH_STRUCT(Outer, t, tiling);
  GlobalTensor<int32_t> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 16);
  if ASCEND_IS_AIC {
    out.SetValue(8, 1000);
  } else {
    out.SetValue(GetBlockIdx(), t.n + t.inner.a + t.arr[5]);
  }
}
"""


@pytest.fixture(scope="module")
def typed_build(sim, make_project):
    build = sim.build(make_project("TilingCustom", "tiling_custom", HOST, TYPED_KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


@pytest.mark.api("GET_TILING_DATA_WITH_STRUCT", "REGISTER_TILING_DEFAULT", "REGISTER_TILING_FOR_TILINGKEY",
                 "设置Kernel类型")
def test_registered_structs_and_kernel_types(sim, typed_build) -> None:
    """GET_TILING_DATA_WITH_STRUCT fills the named struct from the tiling bytes (6 + 100 + 60); the default
    type KERNEL_TYPE_AIV_ONLY starts blockDim (1) vector cores only, KERNEL_TYPE_MIX_AIC_1_2 for key 2 one
    cube core and two vector cores."""
    vector_only = run(sim, typed_build, 1)
    assert vector_only.ok, vector_only.message
    assert vector_only.outputs["y"][:9].tolist() == [166, 0, 0, 0, 0, 0, 0, 0, 0]
    mixed = run(sim, typed_build, 2)
    assert mixed.ok, mixed.message
    assert mixed.outputs["y"][:9].tolist() == [166, 166, 0, 0, 0, 0, 0, 0, 1000]


@pytest.mark.api("REGISTER_TILING_DEFAULT", "REGISTER_TILING_FOR_TILINGKEY")
@pytest.mark.parametrize("line", ["REGISTER_TILING_DEFAULT(v);",
                                  "REGISTER_TILING_FOR_TILINGKEY(TILING_KEY_VAR == 1, Outer);",
                                  "REGISTER_TILING_FOR_TILINGKEY(\"TILING_KEY_VAR == 1\", v);"])
def test_registrations_take_a_struct_and_a_string(tmp_path, line: str) -> None:
    """The registered TilingData is a struct type and the key condition a string; a variable or a bare
    expression does not compile."""
    good = syntax_check('#include "kernel_operator.h"\n' + COMMON + "void f() {\n"
                        "  REGISTER_TILING_DEFAULT(Outer);\n"
                        "  REGISTER_TILING_FOR_TILINGKEY(\"TILING_KEY_VAR == 1\", Inner);\n}\n", tmp_path / "good")
    assert good.ok, good.stderr
    bad = syntax_check('#include "kernel_operator.h"\n' + COMMON + "void f() {\n  int v = 0;\n  (void)v;\n  "
                       + line + "\n}\n", tmp_path / "bad")
    assert not bad.ok
