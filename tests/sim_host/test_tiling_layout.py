"""Legacy tiling classes (BEGIN_TILING_DATA_DEF ...): the bytes SaveToBuffer writes on the host are
the struct GET_TILING_DATA declares in the kernel, nested structs and arrays included."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

TILING_H = r"""
#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
  TILING_DATA_FIELD_DEF(uint8_t, flag);
  TILING_DATA_FIELD_DEF(uint64_t, big);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayoutTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_ARR(int16_t, 3, arr);
  TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
  TILING_DATA_FIELD_DEF(int32_t, last);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayoutCustom, LayoutTiling)
}  // namespace optiling
"""

HOST = r"""
#include "layout_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  LayoutTiling t;
  t.set_n(static_cast<uint32_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  t.set_scale(*ctx->GetAttrs()->GetFloat(0));
  int16_t arr[3] = {-1, 2, 300};
  t.set_arr(arr);
  t.inner.set_flag(7);
  t.inner.set_big(1ULL << 40);
  t.set_last(-5);
  ctx->SetBlockDim(3);
  t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class LayoutCustom : public OpDef {
 public:
  explicit LayoutCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LayoutCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void layout_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  const LayoutTiling* typed = &td;   // the generated struct carries the registered class's name
  int b = AscendC::GetBlockIdx(), nb = AscendC::GetBlockNum();
  const float* xs = reinterpret_cast<const float*>(x);
  float* ys = reinterpret_cast<float*>(y);
  uint32_t per = (typed->n + nb - 1) / nb;
  for (uint32_t i = b * per; i < td.n && i < (b + 1) * per; ++i) {
    ys[i] = xs[i] * td.scale + td.arr[2] + td.inner.flag + static_cast<float>(td.inner.big >> 40) + td.last;
  }
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


@pytest.mark.api("TilingData结构定义", "TilingData结构注册", "GET_TILING_DATA")
def test_legacy_tiling_class_round_trip(sim, make_project):
    proj = make_project("LayoutCustom", "layout_custom", HOST, KERNEL, PARAMS,
                        {"op_host/layout_custom_tiling.h": TILING_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    x = np.arange(10, dtype=np.float32)
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),),
                                   outputs=(TensorArg("y", "float32", shape=(10,)),),
                                   attrs={"scale": ("float", 2.0)}))
    assert result.ok, result.message
    assert np.array_equal(result.outputs["y"], x * 2 + 300 + 7 + 1 - 5)
    # Host bytes: n@0 scale@4 arr@8..14 inner@16 (flag@16, big@24) last@32, size 40 (8-aligned).
    raw = bytes.fromhex(result.details["tiling_hex"])
    assert len(raw) == 40 == result.details["tiling_bytes"]
    assert struct.unpack_from("<If3h", raw, 0) == (10, 2.0, -1, 2, 300)
    assert raw[16] == 7 and struct.unpack_from("<Q", raw, 24)[0] == 1 << 40
    assert struct.unpack_from("<i", raw, 32)[0] == -5
    # The same values by field name, decoded with the layout the build kept.
    assert result.details["tiling_fields"] == {"n": 10, "scale": 2.0, "arr": [-1, 2, 300],
                                               "inner": {"flag": 7, "big": 1 << 40}, "last": -5}


@pytest.mark.api("TilingData结构注册")
def test_get_tiling_data_without_registered_class_fails_to_build(sim, make_project):
    host = HOST.replace('#include "layout_custom_tiling.h"', '#include "register/tilingdata_base.h"\n'
                        + TILING_H.replace("REGISTER_TILING_DATA_CLASS(LayoutCustom, LayoutTiling)", ""))
    proj = make_project("LayoutCustom", "layout_custom", host, KERNEL, PARAMS)
    build = sim.build(proj)
    assert not build.ok
    assert "no tiling data class is registered" in build.diagnostics
