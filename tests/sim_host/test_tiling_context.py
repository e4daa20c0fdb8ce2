"""gert::TilingContext, attributes, platform figures and tensor lists as the TilingFunc and the
kernel see them. The TilingFunc records what it observes into a plain tiling struct; the kernel
copies that struct (GET_TILING_DATA_WITH_STRUCT) and the tensor-list descriptor into its output."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

PROBE_H = r"""
#pragma once
#include <cstdint>
struct ProbeTiling {
  int64_t v[64];
};
"""

HOST = r"""
#include "probe_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include <cstring>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ProbeTiling* t = ctx->GetTilingData<ProbeTiling>();
  int64_t* v = t->v;
  const gert::Shape& xs = ctx->GetInputShape(0)->GetStorageShape();
  v[0] = xs.GetDimNum();
  v[1] = xs.GetDim(0);
  v[2] = xs.GetDim(1);
  v[3] = xs.GetShapeSize();
  v[4] = ctx->GetInputShape(0)->GetOriginShape().GetShapeSize();
  v[5] = ctx->GetInputDesc(0)->GetDataType();
  uint32_t len = 0;
  ge::TypeUtils::GetDataTypeLength(ctx->GetInputDesc(0)->GetDataType(), len);
  v[6] = len;
  v[7] = ctx->GetOptionalInputShape(1) == nullptr ? 0 : 1;
  v[8] = ctx->GetDynamicInputShape(2, 0)->GetStorageShape().GetShapeSize();
  v[9] = ctx->GetDynamicInputShape(2, 1)->GetStorageShape().GetDim(1);
  v[10] = ctx->GetDynamicInputShape(2, 2) == nullptr ? 0 : 1;
  v[11] = ctx->GetOutputShape(0)->GetStorageShape().GetShapeSize();
  const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
  v[12] = static_cast<int64_t>(*attrs->GetAttrPointer<float>(0) * 1000);
  v[13] = *attrs->GetInt(1);
  v[14] = *attrs->GetBool(2) ? 1 : 0;
  v[15] = std::strlen(attrs->GetStr(3));
  const gert::ContinuousVector* axes = attrs->GetListInt(4);
  v[16] = axes->GetSize();
  v[17] = reinterpret_cast<const int64_t*>(axes->GetData())[2];
  v[18] = *attrs->GetInt(5);                        // default value of an attr the case omits
  auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
  v[19] = plat.GetCoreNum();
  v[20] = plat.GetCoreNumAic();
  v[21] = plat.GetCoreNumAiv();
  uint64_t ub = 0, l1 = 0, l0c = 0;
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
  v[22] = ub;
  v[23] = l1;
  v[24] = l0c;
  v[25] = plat.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B ? 1 : 0;
  v[26] = plat.GetLibApiWorkSpaceSize();
  v[27] = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv();
  v[28] = std::strcmp(ctx->GetNodeName(), "ProbeCustom") == 0 ? 1 : 0;
  v[29] = ctx->GetInputTensor(0)->GetData<float>()[3] == 3.0f ? 1 : 0;    // x is ValueDepend
  v[35] = ctx->GetInputTensor(1)->GetData<float>() == nullptr ? 1 : 0;     // xs[0] is not: no data
  v[34] = ctx->GetInputTensor(1)->GetShapeSize();
  v[30] = ctx->GetRawTilingData()->GetCapacity();
  v[31] = ge::DT_BF16;
  v[32] = plat.CalcTschBlockDim(10, 1, 2);
  v[33] = attrs->GetListInt(4)->GetData()[1];   // typed list: const int64_t*
  ctx->SetBlockDim(1);
  ctx->SetTilingKey(7);
  size_t* ws = ctx->GetWorkspaceSizes(1);
  ws[0] = plat.GetLibApiWorkSpaceSize() + 1024;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ProbeCustom : public OpDef {
 public:
  explicit ProbeCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND}).ValueDepend(REQUIRED);
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64, ge::DT_INT64})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(REQUIRED).Float();
    this->Attr("n").AttrType(OPTIONAL).Int(1);
    this->Attr("flag").AttrType(OPTIONAL).Bool(false);
    this->Attr("mode").AttrType(OPTIONAL).String("none");
    this->Attr("axes").AttrType(OPTIONAL).ListInt({});
    this->Attr("unset").AttrType(OPTIONAL).Int(42);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ProbeCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
#include "probe_tiling.h"

extern "C" __global__ __aicore__ void probe_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR xs, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ProbeTiling, t, tiling);
  int64_t* out = reinterpret_cast<int64_t*>(y);
  for (int i = 0; i < 40; ++i) out[i] = t.v[i];
  AscendC::ListTensorDesc list(reinterpret_cast<__gm__ void*>(xs));
  out[40] = list.GetSize();
  uint64_t shape[8] = {};
  AscendC::TensorDesc<float> desc;
  desc.SetShapeAddr(shape);
  list.GetDesc(desc, 1);
  out[41] = desc.GetDim();
  out[42] = desc.GetShape(0);
  out[43] = desc.GetShape(1);
  out[44] = static_cast<int64_t>(list.GetDataPtr<float>(1)[5]);
  out[45] = static_cast<int64_t>(desc.GetDataPtr()[5]);
  out[46] = TILING_KEY_IS(7) ? 1 : 0;
  out[47] = TILING_KEY_IS(8) ? 1 : 0;
  out[48] = bias == nullptr ? 1 : 0;
  out[49] = (DTYPE_X)0.5f == 0.5f ? 1 : 0;
#if ORIG_DTYPE_X == DT_FLOAT
  out[50] = 1;
#else
  out[50] = 0;
#endif
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("bias", "input", "OPTIONAL", "float32"),
          ("xs", "input", "DYNAMIC", "float32"), ("y", "output", "REQUIRED", "int64")]


@pytest.fixture(scope="module")
def observed(sim, make_project):
    proj = make_project("ProbeCustom", "probe_custom", HOST, KERNEL, PARAMS,
                   {"op_host/probe_tiling.h": PROBE_H, "op_kernel/probe_tiling.h": PROBE_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    lists = [np.ones((5,), np.float32), np.arange(12, dtype=np.float32).reshape(3, 4)]
    launch = Launch(
        inputs=(TensorArg("x", "float32", x), TensorArg("bias", "float32", None), TensorArg("xs", "float32", lists)),
        outputs=(TensorArg("y", "int64", shape=(64,)),),
        attrs={"alpha": ("float", 0.25), "n": ("int", -3), "flag": ("bool", True), "mode": ("str", "fast mode"),
               "axes": ("list_int", [4, 5, 6])})
    result = sim.run(build, launch)
    assert result.ok, result.message
    return result


def test_shapes_dtypes_and_optional_inputs(observed):
    v = observed.outputs["y"]
    assert list(v[:12]) == [2, 4, 6, 24, 24, 0, 4, 0, 5, 4, 0, 64]


def test_attributes_in_opdef_order(observed):
    v = observed.outputs["y"]
    assert list(v[12:19]) == [250, -3, 1, len("fast mode"), 3, 6, 42]
    assert v[33] == 5


@pytest.mark.api("PlatformAscendC/GetCoreNum", "GetCoreNumAic", "GetCoreNumAiv", "GetCoreMemSize")
def test_platform_is_ascend910b(observed):
    v = observed.outputs["y"]
    assert list(v[19:28]) == [40, 20, 40, 196608, 524288, 131072, 1, 16 << 20, 40]
    assert v[28] == 1 and v[29] == 1
    assert v[30] >= 16 * 1024
    assert v[31] == 27 and v[32] == 5


def test_host_sees_input_data_only_for_value_depend_inputs(observed):
    v = observed.outputs["y"]
    assert v[29] == 1, "a ValueDepend input's values reach the TilingFunc"
    assert v[35] == 1, "an input without ValueDepend has no data on the host (as in CANN)"
    assert v[34] == 5, "... but its shape"


def test_tensor_list_descriptor_in_kernel(observed):
    v = observed.outputs["y"]
    assert list(v[40:46]) == [2, 2, 3, 4, 5, 5]


def test_tiling_key_absent_input_and_dtype_macros(observed):
    v = observed.outputs["y"]
    assert list(v[46:51]) == [1, 0, 1, 1, 1]
    assert observed.details["tiling_key"] == 7
    assert observed.details["block_dim"] == 1
    assert observed.details["workspace_bytes"] == (16 << 20) + 1024
    assert observed.details["tiling_bytes"] == 64 * 8


def test_inputs_the_kernel_left_unchanged_are_not_handed_back(observed):
    assert observed.inputs_after == {}
