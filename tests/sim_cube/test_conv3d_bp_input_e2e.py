"""Conv3DBackpropInput through the whole toolchain: an operator whose host tiling function fills a
Conv3DBackpropInputTilingData with ConvBackpropApi::Conv3DBpInputTiling inside its own tiling-data class
(TILING_DATA_FIELD_DEF_STRUCT), and whose kernel (a cube kernel, inferred from its use of
ConvBackpropApi::Conv3DBackpropInput) splits the GradInput depths over two cores, one round (Iterate /
GetTensorC until done, then ctx.isFirstIter_ = true) per depth; compared with a numpy input gradient."""

from __future__ import annotations

import numpy as np
import pytest
from conv_testkit import (
    SAVE_TILING,
    build_operator,
    from_ndc1hwc0,
    op_def,
    out_shape,
    tiling_header,
    to_fractal_z_3d,
    to_ndc1hwc0,
)
from test_conv3d_bp_input_api import conv3d_bp_input_ref

from npukernelbench.toolchains.base import Launch, TensorArg

# N=2, Cin=18, D=5, H=6, W=7; Cout=20, kernel 3x2x3; pads (1,0,1,1,0,2); strides (1,2,1); dilations (2,1,1)
SHAPE = dict(n=2, cin=18, d=5, h=6, w=7, cout=20, k=(3, 2, 3), pads=(1, 0, 1, 1, 0, 2), stride=(1, 2, 1),
             dil=(2, 1, 1))

TILING_H = tiling_header("Conv3dDxE2eTiling", "Conv3dDxE2e", [
    "TILING_DATA_FIELD_DEF(uint32_t, coreDin)", "TILING_DATA_FIELD_DEF_STRUCT(Conv3DBackpropInputTilingData, dx)"])
PARAMS = [("dy", "input", "float16"), ("w", "input", "float16"), ("dx", "output", "float16")]

HOST = r"""
#include "conv3d_dx_e2e_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  Conv3dDxE2eTiling td;
  auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  ConvBackpropApi::Conv3DBpInputTiling t(plat);
  const int64_t dout = (5 + 1 + 0 - 2 * (3 - 1) - 1) / 1 + 1, hout = (6 + 1 + 1 - 2) / 2 + 1,
                wout = (7 + 0 + 2 - 3) / 1 + 1;
  t.SetWeightType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  ConvCommonApi::ConvDtype::FLOAT16);
  t.SetGradOutputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,
                      ConvCommonApi::ConvDtype::FLOAT16);
  t.SetInputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,
                 ConvCommonApi::ConvDtype::FLOAT16);
  t.SetWeightShape(20, 18, 3, 2, 3);
  t.SetInputShape(2, 18, 5, 6, 7);
  t.SetGradOutputShape(2, 20, dout, hout, wout);
  t.SetPadding(1, 0, 1, 1, 0, 2);
  t.SetStride(1, 2, 1);
  t.SetDilation(2, 1, 1);
  if (t.GetTiling(td.dx) == -1) return ge::GRAPH_FAILED;
  td.set_coreDin(3);
  context->SetBlockDim(2);
""" + SAVE_TILING + r"""
}
}  // namespace optiling
""" + op_def("Conv3dDxE2e", PARAMS)

KERNEL = r"""
#include "kernel_operator.h"
#include "lib/conv_backprop/conv3d_bp_input_api.h"
using namespace AscendC;
using ConvCommonApi::ConvFormat;
using weightDxType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvFormat::FRACTAL_Z_3D, half>;
using inputSizeDxType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvFormat::ND, int32_t>;
using gradOutputDxType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvFormat::NDC1HWC0, half>;
using gradInputDxType = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvFormat::NDC1HWC0, half>;
extern "C" __global__ __aicore__ void conv3d_dx_e2e(GM_ADDR dy, GM_ADDR w, GM_ADDR dx, GM_ADDR workspace,
                                                    GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  const Conv3DBackpropInputTilingData* tilingData = &td.dx;
  const TConv3DBackpropInputTiling& t = tilingData->conv3DDxTiling;
  const uint64_t hiwi = uint64_t(t.hi) * t.wi, k = uint64_t(t.cout1) * t.hk * t.wk * t.c0;
  const uint64_t goBatch = uint64_t(t.dout) * t.cout1 * t.ho * t.wo * t.c0;
  const uint64_t dxBatch = uint64_t(t.di) * t.cin1 * hiwi * t.c0;
  const uint32_t din0 = GetBlockIdx() * td.coreDin;
  if (din0 >= t.di) return;
  const uint32_t dinEnd = din0 + td.coreDin < t.di ? din0 + td.coreDin : t.di;
  GlobalTensor<half> dyGm, wGm, dxGm;
  dyGm.SetGlobalBuffer((__gm__ half*)dy);
  wGm.SetGlobalBuffer((__gm__ half*)w);
  dxGm.SetGlobalBuffer((__gm__ half*)dx);
  TPipe pipe;
  ConvBackpropApi::Conv3DBackpropInput<weightDxType, inputSizeDxType, gradOutputDxType, gradInputDxType> gradInput_;
  gradInput_.Init(&(tilingData->conv3DDxTiling));
  gradInput_.SetWeight(wGm);
  for (uint32_t n = 0; n < t.batch; ++n) {
    gradInput_.SetGradOutput(dyGm[n * goBatch]);
    for (uint32_t din = din0; din < dinEnd; ++din) {
      gradInput_.SetSingleShape(hiwi, k, t.cin);
      gradInput_.SetStartPosition(din, -t.backpropPadUp);
      while (gradInput_.Iterate()) {
        gradInput_.GetTensorC(dxGm[n * dxBatch + din * t.cin1 * hiwi * t.c0]);
      }
      gradInput_.ctx.isFirstIter_ = true;
    }
  }
  gradInput_.End();
}
"""


@pytest.fixture(scope="module")
def dx_build(sim, make_project):
    return build_operator(sim, make_project, "Conv3dDxE2e", "conv3d_dx_e2e", HOST, KERNEL, PARAMS, TILING_H)


@pytest.mark.api("Conv3DBackpropInput Kernel侧接口/Init", "Conv3DBackpropInput Kernel侧接口/Iterate",
                 "Conv3DBackpropInput Kernel侧接口/GetTensorC", "Conv3DBackpropInput Kernel侧接口/SetStartPosition",
                 "Conv3DBackpropInput Tiling侧接口/GetTiling",
                 "Conv3DBackpropInput Tiling侧接口/TConv3DBackpropInputTiling结构体")
def test_conv3d_backprop_input_operator_two_cores(sim, dx_build) -> None:
    s = SHAPE
    rng = np.random.default_rng(7)
    od, oh, ow = out_shape((s["d"], s["h"], s["w"]), s["k"], s["pads"], s["stride"], s["dil"])
    dy = rng.uniform(-1, 1, (s["n"], s["cout"], od, oh, ow)).astype(np.float16)
    w = rng.uniform(-1, 1, (s["cout"], s["cin"], *s["k"])).astype(np.float16)
    want = conv3d_bp_input_ref(dy.astype(np.float64), w.astype(np.float64), (s["d"], s["h"], s["w"]), s["pads"],
                               s["stride"], s["dil"])
    c1 = -(-s["cin"] // 16)
    inputs = (TensorArg("dy", "float16", to_ndc1hwc0(dy).reshape(-1)),
              TensorArg("w", "float16", to_fractal_z_3d(w).reshape(-1)))
    outputs = (TensorArg("dx", "float16", shape=(s["n"] * s["d"] * c1 * s["h"] * s["w"] * 16,)),)
    result = sim.run(dx_build, Launch(inputs=inputs, outputs=outputs, attrs={}))
    assert result.ok, result.message
    got = from_ndc1hwc0(result.outputs["dx"].reshape(s["n"], s["d"], c1, s["h"], s["w"], 16).astype(np.float32),
                        s["cin"])
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=4e-2)
    assert result.time_us is not None and result.time_us > 0


def test_the_kernel_is_inferred_a_cube_kernel() -> None:
    from npukernelbench.toolchains.ascendc_sim.kernel_passes import AIC_ONLY, AIV_ONLY, infer_type
    assert infer_type(KERNEL) == AIC_ONLY
    assert infer_type(KERNEL.replace("ConvBackpropApi::Conv3DBackpropInput<", "Other<")) == AIV_ONLY
