"""Conv3D through the whole toolchain: an operator whose host tiling function fills a TConv3DApiTiling with
Conv3dTilingApi::Conv3dTiling inside its own tiling-data class (TILING_DATA_FIELD_DEF_STRUCT), and whose
kernel (a cube kernel, inferred from its use of Conv3dApi::Conv3D) splits the output depth over two cores
with SetInputStartPosition / SetSingleOutputShape; compared with a numpy 3-D convolution."""

from __future__ import annotations

import numpy as np
import pytest
from conv_testkit import SAVE_TILING, build_operator, from_ndc1hwc0, op_def, tiling_header, to_fractal_z_3d, to_ndc1hwc0
from test_conv3d_api import conv3d_ref

from npukernelbench.toolchains.base import Launch, TensorArg

# N=2, Cin=18, D=5, H=6, W=7; Cout=20, kernel 3x2x3; pads (1,0,1,1,0,2); strides (1,2,1); dilations (2,1,1)
SHAPE = dict(n=2, cin=18, d=5, h=6, w=7, cout=20, k=(3, 2, 3), pads=(1, 0, 1, 1, 0, 2), stride=(1, 2, 1),
             dil=(2, 1, 1))

TILING_H = tiling_header("Conv3dE2eTiling", "Conv3dE2e", [
    "TILING_DATA_FIELD_DEF(uint32_t, batch)", "TILING_DATA_FIELD_DEF(uint32_t, coreDo)",
    "TILING_DATA_FIELD_DEF_STRUCT(TConv3DApiTiling, conv)"])
PARAMS = [("x", "input", "float16"), ("w", "input", "float16"), ("b", "input", "float16"), ("y", "output", "float16")]

HOST = r"""
#include "conv3d_e2e_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  Conv3dE2eTiling td;
  auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  Conv3dTilingApi::Conv3dTiling t(plat);
  const int64_t dout = (5 + 1 + 0 - 2 * (3 - 1) - 1) / 1 + 1, hout = (6 + 1 + 1 - 2) / 2 + 1,
                wout = (7 + 0 + 2 - 3) / 1 + 1;
  const int64_t coreDo = (dout + 1) / 2;
  t.SetOrgWeightShape(20, 3, 2, 3);
  t.SetOrgInputShape(18, 5, 6, 7);
  t.SetPadding(1, 0, 1, 1, 0, 2);
  t.SetStride(1, 2, 1);
  t.SetDilation(2, 1, 1);
  t.SetSingleWeightShape(18, 3, 2, 3);
  t.SetSingleOutputShape(20, coreDo, hout * wout);
  t.SetInputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, ConvCommonApi::ConvDtype::FLOAT16);
  t.SetWeightType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  ConvCommonApi::ConvDtype::FLOAT16);
  t.SetOutputType(ConvCommonApi::TPosition::CO1, ConvCommonApi::ConvFormat::NDC1HWC0,
                  ConvCommonApi::ConvDtype::FLOAT16);
  t.SetBiasType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::ND, ConvCommonApi::ConvDtype::FLOAT16);
  if (t.GetTiling(td.conv) == -1) return ge::GRAPH_FAILED;
  td.set_batch(2);
  td.set_coreDo(static_cast<uint32_t>(coreDo));
  context->SetBlockDim(2);
""" + SAVE_TILING + r"""
}
}  // namespace optiling
""" + op_def("Conv3dE2e", PARAMS)

KERNEL = r"""
#include "kernel_operator.h"
#include "lib/conv/conv3d/conv3d_api.h"
using namespace AscendC;
using inputType = ConvApi::ConvType<AscendC::TPosition::GM, ConvFormat::NDC1HWC0, half>;
using weightType = ConvApi::ConvType<AscendC::TPosition::GM, ConvFormat::FRACTAL_Z_3D, half>;
using outputType = ConvApi::ConvType<AscendC::TPosition::GM, ConvFormat::NDC1HWC0, half>;
using biasType = ConvApi::ConvType<AscendC::TPosition::GM, ConvFormat::ND, half>;
extern "C" __global__ __aicore__ void conv3d_e2e(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  const TConv3DApiTiling& t = td.conv;
  const uint64_t c1 = (t.orgCi + 15) / 16, co1 = (t.orgCo + 15) / 16, howo = t.orgHo * t.orgWo;
  const uint64_t inBatch = t.orgDi * c1 * t.orgHi * t.orgWi * 16, outBatch = t.orgDo * co1 * howo * 16;
  const uint64_t do0 = GetBlockIdx() * td.coreDo;
  if (do0 >= t.orgDo) return;
  const uint64_t doCount = t.orgDo - do0 < td.coreDo ? t.orgDo - do0 : td.coreDo;
  GlobalTensor<half> xg, wg, bg, yg;
  xg.SetGlobalBuffer((__gm__ half*)x);
  wg.SetGlobalBuffer((__gm__ half*)w);
  bg.SetGlobalBuffer((__gm__ half*)b);
  yg.SetGlobalBuffer((__gm__ half*)y);
  TPipe pipe;
  Conv3dApi::Conv3D<inputType, weightType, outputType, biasType> conv3dApi;
  conv3dApi.Init(&t);
  conv3dApi.SetWeight(wg);
  conv3dApi.SetBias(bg);
  conv3dApi.SetInputStartPosition(static_cast<int64_t>(do0 * t.strideD), 0);
  conv3dApi.SetSingleOutputShape(t.orgCo, doCount, howo);
  for (uint32_t n = 0; n < td.batch; ++n) {
    conv3dApi.SetInput(xg[n * inBatch]);
    conv3dApi.IterateAll(yg[n * outBatch + do0 * co1 * howo * 16]);
    conv3dApi.End();
  }
}
"""


@pytest.fixture(scope="module")
def conv_build(sim, make_project):
    return build_operator(sim, make_project, "Conv3dE2e", "conv3d_e2e", HOST, KERNEL, PARAMS, TILING_H)


@pytest.mark.api("Conv3D Kernel侧接口/Init", "Conv3D Kernel侧接口/IterateAll",
                 "Conv3D Kernel侧接口/SetInputStartPosition", "Conv3D Tiling侧接口/GetTiling",
                 "Conv3D Tiling侧接口/TConv3DApiTiling结构体")
def test_conv3d_operator_two_cores(sim, conv_build) -> None:
    s = SHAPE
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (s["n"], s["cin"], s["d"], s["h"], s["w"])).astype(np.float16)
    w = rng.uniform(-1, 1, (s["cout"], s["cin"], *s["k"])).astype(np.float16)
    b = rng.uniform(-1, 1, s["cout"]).astype(np.float16)
    want = conv3d_ref(x.astype(np.float64), w.astype(np.float64), b, s["pads"], s["stride"], s["dil"])
    _, _, od, oh, ow = want.shape
    co1 = -(-s["cout"] // 16)
    inputs = (TensorArg("x", "float16", to_ndc1hwc0(x).reshape(-1)), TensorArg("w", "float16",
              to_fractal_z_3d(w).reshape(-1)), TensorArg("b", "float16", b))
    outputs = (TensorArg("y", "float16", shape=(s["n"] * od * co1 * oh * ow * 16,)),)
    result = sim.run(conv_build, Launch(inputs=inputs, outputs=outputs, attrs={}))
    assert result.ok, result.message
    got = from_ndc1hwc0(result.outputs["y"].reshape(s["n"], od, co1, oh, ow, 16).astype(np.float32), s["cout"])
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=4e-2)
    assert result.time_us is not None and result.time_us > 0
