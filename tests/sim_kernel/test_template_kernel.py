"""Template kernels of Tiling模板编程 (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL, ASCENDC_TPL_SEL_PARAM), built
and run end to end: the op's tiling-key header, included by the host tiling and by the kernel, declares
a DATATYPE, a UINT (list and range selections) and a BOOL parameter; the tiling function picks the
values from an attribute with ASCENDC_TPL_SEL_PARAM; the kernel is `template <...> __global__ __aicore__`
and each launch must run the instantiation its values select (each writes its own template arguments).
A combination no ASCENDC_TPL_ARGS_SEL allows stops the launch with a clear message; malformed tables and
type parameters are build errors. Kernels written for these tests, from the Tiling模板编程 doc pages."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim import template_kernel
from npukernelbench.toolchains.base import Launch, TensorArg

KEY_HEADER = r"""
#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
#define TPL_MODE_SUM 0
#define TPL_MODE_MAX 1
ASCENDC_TPL_ARGS_DECL(TplCustom,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT, C_DT_INT32),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_MIX, 1, 1, 4, 8, 16),
    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_INT32),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_RANGE, 1, 2, 4),
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_INT32),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 16),
        ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 1)));
"""

HOST = r"""
#include "register/op_def_registry.h"
#include "tiling_key_tpl_custom.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  const int64_t* pick = ctx->GetAttrs()->GetListInt(0)->GetData();
  uint32_t dtype = static_cast<uint32_t>(ctx->GetInputDesc(0)->GetDataType());
  uint32_t tile = static_cast<uint32_t>(pick[0]), split = static_cast<uint32_t>(pick[1]);
  ASCENDC_TPL_SEL_PARAM(ctx, dtype, tile, split);
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class TplCustom : public OpDef {
 public:
  explicit TplCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Attr("pick").AttrType(REQUIRED).ListInt();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(TplCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
#include "tiling_key_tpl_custom.h"
using namespace AscendC;
template <int D_T_X, uint32_t TILE_NUM, bool IS_SPLIT>
__global__ __aicore__ void tpl_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GlobalTensor<int32_t> in, out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x), 16);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 16);
  out.SetValue(0, D_T_X);
  out.SetValue(1, static_cast<int32_t>(TILE_NUM));
  out.SetValue(2, IS_SPLIT ? 1 : 0);
  int32_t acc = 0;
  for (uint32_t i = 0; i < TILE_NUM && i < 16; ++i) acc += in.GetValue(i);
  out.SetValue(3, acc);
}
"""

PARAMS = [("x", "input", "REQUIRED", "int32"), ("y", "output", "REQUIRED", "int32")]
FILES = {"op_host/tiling_key_tpl_custom.h": KEY_HEADER, "op_kernel/tiling_key_tpl_custom.h": KEY_HEADER}


@pytest.fixture(scope="module")
def tpl_build(sim, make_project):
    build = sim.build(make_project("TplCustom", "tpl_custom", HOST, KERNEL, PARAMS, FILES))
    assert build.ok, build.diagnostics
    return build


def run(sim, build, tile: int, split: int):
    x = np.arange(1, 17, dtype=np.int32)
    return sim.run(build, Launch(inputs=(TensorArg("x", "int32", x),),
                                 outputs=(TensorArg("y", "int32", np.zeros(16, np.int32), shape=(16,)),),
                                 attrs={"pick": ("list_int", [tile, split])}))


@pytest.mark.api("ASCENDC_TPL_SEL_PARAM", "GET_TPL_TILING_KEY", "模板参数定义")
@pytest.mark.parametrize("tile, split", [(2, 0), (3, 1), (4, 0), (16, 1)])
def test_each_launch_runs_the_instantiation_its_values_select(sim, tpl_build, tile, split) -> None:
    result = run(sim, tpl_build, tile, split)
    assert result.ok, result.message
    got = result.outputs["y"][:4].tolist()
    assert got == [3, tile, split, sum(range(1, tile + 1))]      # C_DT_INT32 is 3


@pytest.mark.parametrize("tile, split", [(16, 0), (1, 0), (8, 1)])
def test_values_no_combination_selects_stop_the_launch(sim, tpl_build, tile, split) -> None:
    result = run(sim, tpl_build, tile, split)
    assert not result.ok
    assert "matches none of the template kernel's 8 instantiations" in result.message, result.message


def _build(sim, make_project, header: str = KEY_HEADER, kernel: str = KERNEL):
    files = {"op_host/tiling_key_tpl_custom.h": KEY_HEADER, "op_kernel/tiling_key_tpl_custom.h": header}
    return sim.build(make_project("TplCustom", "tpl_custom", HOST, kernel, PARAMS, files))


@pytest.mark.parametrize("change, message", [
    (("ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 16)", "ASCENDC_TPL_UINT_SEL(TILE_NUM, 16)"),
     template_kernel.PROBLEMS[5]),
    (("ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 1)", "ASCENDC_TPL_BOOL_SEL(IS_SPLITS, 1)"), template_kernel.PROBLEMS[7]),
    (("ASCENDC_TPL_UI_RANGE, 1, 2, 4)", "ASCENDC_TPL_UI_RANGE, 1, 4, 2)"), template_kernel.PROBLEMS[6]),
    (("ASCENDC_TPL_UI_RANGE, 1, 2, 4)", "ASCENDC_TPL_UI_RANGE, 1, 2, 4, 16)"), template_kernel.PROBLEMS[6]),
    (("ASCENDC_TPL_UI_RANGE, 1, 2, 4)", "ASCENDC_TPL_UI_RANGE, 2, 2, 4)"), template_kernel.PROBLEMS[6]),
    (("ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_INT32)",
      "ASCENDC_TPL_DATATYPE_SEL(D_T_X, ASCENDC_TPL_INPUT(0))"),
     "leaves a parameter as ASCENDC_TPL_INPUT"),
    ((",\n    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1));", ");"), "a different number of parameters"),
])
def test_tables_the_build_cannot_instantiate_are_build_errors(sim, make_project, change, message) -> None:
    old, new = change
    assert old in KEY_HEADER
    build = _build(sim, make_project, header=KEY_HEADER.replace(old, new))
    assert not build.ok and message in build.diagnostics, build.diagnostics


def test_a_type_parameter_is_refused_with_one_line(sim, make_project) -> None:
    kernel = KERNEL.replace("template <int D_T_X, uint32_t TILE_NUM, bool IS_SPLIT>",
                            "template <typename T, uint32_t TILE_NUM, bool IS_SPLIT>").replace("D_T_X", "3")
    build = _build(sim, make_project, kernel=kernel)
    assert not build.ok and "takes value parameters" in build.diagnostics, build.diagnostics


def test_entry_parsing() -> None:
    found = template_kernel.entry(KERNEL, "tpl_custom")
    assert found is not None
    assert [(p.type, p.name) for p in found.params] == [("int", "D_T_X"), ("uint32_t", "TILE_NUM"),
                                                       ("bool", "IS_SPLIT")]
    assert template_kernel.entry(KERNEL, "other") is None
    plain = 'extern "C" __global__ __aicore__ void tpl_custom(GM_ADDR x) {}'
    assert template_kernel.entry(plain, "tpl_custom") is None
