"""Conv3DBackpropFilter through the whole toolchain: an operator whose host tiling function fills a
Conv3DBackpropFilterTilingData with ConvBackpropApi::Conv3dBpFilterTiling inside its own tiling-data class
(TILING_DATA_FIELD_DEF_STRUCT), and whose kernel (a cube kernel, inferred from its use of
ConvBackpropApi::Conv3DBackpropFilter) splits the GradOutput rows (Ho) over two cores with SetSingleShape /
SetStartPosition, both adding their blocks into the zero-initialised GradWeight (GetTensorC's default
enAtomic); compared with a numpy 3-D convolution weight gradient."""

from __future__ import annotations

import numpy as np
import pytest
from conv_testkit import (
    SAVE_TILING,
    build_operator,
    from_fractal_z_3d,
    op_def,
    out_shape,
    tiling_header,
    to_ndc1hwc0,
)
from test_conv3d_bp_filter_api import conv3d_dw_ref

from npukernelbench.toolchains.base import Launch, TensorArg

# N=2, Cin=18, D=5, H=7, W=6; Cout=20, kernel 3x2x3; pads (1,0,1,1,0,2); strides (1,2,1); dilations (2,1,1)
SHAPE = dict(n=2, cin=18, d=5, h=7, w=6, cout=20, k=(3, 2, 3), pads=(1, 0, 1, 1, 0, 2), stride=(1, 2, 1),
             dil=(2, 1, 1))
OD, OH, OW = out_shape((5, 7, 6), (3, 2, 3), (1, 0, 1, 1, 0, 2), (1, 2, 1), (2, 1, 1))

TILING_H = tiling_header("BpFilterE2eTiling", "BpFilterE2e", [
    "TILING_DATA_FIELD_DEF(uint32_t, coreHo)", "TILING_DATA_FIELD_DEF_STRUCT(Conv3DBackpropFilterTilingData, bp)"])
PARAMS = [("x", "input", "float16"), ("dy", "input", "float16"), ("dw", "output", "float32")]

HOST = r"""
#include "bp_filter_e2e_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/conv_backprop/conv3d_bp_filter_tiling.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  BpFilterE2eTiling td;
  auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  ConvBackpropApi::Conv3dBpFilterTiling t(plat);
  t.SetWeightType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  ConvCommonApi::ConvDtype::FLOAT32);
  t.SetInputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, ConvCommonApi::ConvDtype::FLOAT16);
  t.SetGradOutputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,
                      ConvCommonApi::ConvDtype::FLOAT16);
  const int64_t dout = (5 + 1 + 0 - 2 * (3 - 1) - 1) / 1 + 1, hout = (7 + 1 + 1 - 2) / 2 + 1,
                wout = (6 + 0 + 2 - 3) / 1 + 1;
  t.SetGradOutputShape(2, 20, dout, hout, wout);
  t.SetInputShape(2, 18, 5, 7, 6);
  t.SetWeightShape(20, 18, 3, 2, 3);
  t.SetPadding(1, 0, 1, 1, 0, 2);
  t.SetStride(1, 2, 1);
  t.SetDilation(2, 1, 1);
  if (t.GetTiling(td.bp) == -1) return ge::GRAPH_FAILED;
  td.set_coreHo(static_cast<uint32_t>((hout + 1) / 2));
  context->SetBlockDim(2);
""" + SAVE_TILING + r"""
}
}  // namespace optiling
""" + op_def("BpFilterE2e", PARAMS, init_zero=("dw",))

KERNEL = r"""
#include "kernel_operator.h"
#include "lib/conv_backprop/conv3d_bp_filter_api.h"
using namespace AscendC;
using inputType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, half>;
using weightSizeType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::ND, int32_t>;
using gradOutputType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,
                                                 half>;
using gradWeightType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                                                 float>;
extern "C" __global__ __aicore__ void bp_filter_e2e(GM_ADDR x, GM_ADDR dy, GM_ADDR dw, GM_ADDR workspace,
                                                    GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  const TConv3DBpFilterTiling& t = tilingData.bp.dwTiling;
  const uint32_t ho0 = GetBlockIdx() * tilingData.coreHo;
  if (ho0 >= t.ho) return;
  const uint32_t hoCount = t.ho - ho0 < tilingData.coreHo ? t.ho - ho0 : tilingData.coreHo;
  GlobalTensor<half> inputGm, gradOutputGm;
  GlobalTensor<float> gradWeightGm;
  inputGm.SetGlobalBuffer((__gm__ half*)x);
  gradOutputGm.SetGlobalBuffer((__gm__ half*)dy);
  gradWeightGm.SetGlobalBuffer((__gm__ float*)dw);
  ConvBackpropApi::Conv3DBackpropFilter<inputType, weightSizeType, gradOutputType, gradWeightType> gradWeight_;
  gradWeight_.Init(&(tilingData.bp.dwTiling));
  gradWeight_.SetGradOutput(gradOutputGm);
  gradWeight_.SetInput(inputGm);
  gradWeight_.SetSingleShape(t.singleCoreM, t.singleCoreN, static_cast<uint64_t>(hoCount) * t.wo);
  gradWeight_.SetStartPosition(ho0);
  while (gradWeight_.Iterate()) {
    gradWeight_.GetTensorC(gradWeightGm);
  }
  gradWeight_.End();
}
"""


@pytest.fixture(scope="module")
def bp_build(sim, make_project):
    return build_operator(sim, make_project, "BpFilterE2e", "bp_filter_e2e", HOST, KERNEL, PARAMS, TILING_H)


@pytest.mark.api("Conv3DBackpropFilter Kernel侧接口/Init", "Conv3DBackpropFilter Kernel侧接口/Iterate",
                 "Conv3DBackpropFilter Kernel侧接口/GetTensorC", "Conv3DBackpropFilter Kernel侧接口/SetStartPosition",
                 "Conv3DBackpropFilter Tiling侧接口/GetTiling",
                 "Conv3DBackpropFilter Tiling侧接口/TConv3DBpFilterTiling结构体")
def test_conv3d_bp_filter_operator_two_cores(sim, bp_build) -> None:
    s = SHAPE
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (s["n"], s["cin"], s["d"], s["h"], s["w"])).astype(np.float16)
    dy = rng.uniform(-1, 1, (s["n"], s["cout"], OD, OH, OW)).astype(np.float16)
    want = conv3d_dw_ref(x.astype(np.float64), dy.astype(np.float64), s["k"], s["pads"], s["stride"], s["dil"])
    c1, n1 = -(-s["cin"] // 16), -(-s["cout"] // 16)
    size = s["k"][0] * c1 * s["k"][1] * s["k"][2] * n1 * 256
    inputs = (TensorArg("x", "float16", to_ndc1hwc0(x).reshape(-1)), TensorArg("dy", "float16",
              to_ndc1hwc0(dy).reshape(-1)))
    outputs = (TensorArg("dw", "float32", shape=(size,)),)
    result = sim.run(bp_build, Launch(inputs=inputs, outputs=outputs, attrs={}))
    assert result.ok, result.message
    got = from_fractal_z_3d(result.outputs["dw"].astype(np.float32), s["cout"], s["cin"], s["k"])
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-2)
    assert result.time_us is not None and result.time_us > 0
