"""The Conv3DBackpropInput high-level API, host and kernel side, against the pages of 高阶API/卷积计算: the
host Conv3DBpInputTiling (its constructors, every setter, both GetTiling forms, the documented constraints
as GetTiling -1) and the kernel Conv3DBackpropInput object (Init, SetGradOutput, SetWeight, SetSingleShape,
SetStartPosition, Iterate, GetTensorC, End) computing the input gradient of NDC1HWC0 grad outputs and
FRACTAL_Z_3D weights with padding, stride and dilation, compared with a numpy input gradient computed here;
the tiling the host program returns is the tiling the kernel runs with. The documented misuse stops the
kernel with a violation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conv_testkit import (
    HostProgram,
    bf16_bits,
    bf16_float,
    bf16_round,
    build_host_program,
    from_ndc1hwc0,
    out_shape,
    run_host_program,
    tiling_objects,
    to_fractal_z_3d,
    to_ndc1hwc0,
)
from cube_program import CubeProgram, output
from simkit import syntax_check
from test_conv3d_api import conv3d_ref

FIELDS = ["batch", "cin", "cout", "cout1", "cin1", "cout1G", "cin1G", "c0", "c0Bits", "dout", "ho", "wo", "di", "hi",
          "wi", "dk", "hk", "wk", "group", "strideD", "strideH", "strideW", "padFront", "padBack", "padUp", "padDown",
          "padLeft", "padRight", "backpropPadTail", "backpropPadUp", "backpropPadDown", "backpropPadLeft",
          "backpropPadRight", "dilationD", "dilationH", "dilationW", "al0Pbuffer", "bl0Pbuffer", "cl0Pbuffer",
          "al1Pbuffer", "bl1Pbuffer", "singleCoreGroup", "singleCoreCout", "singleCoreCout1", "singleCoreCin1",
          "singleCoreDin", "singleCoreHo", "baseM", "baseK", "baseN", "baseD", "baseBatch", "baseGroup", "stepM",
          "stepN", "stepKa", "stepKb", "stepBatch", "stepGroup", "iterateOrder", "hf32Flag", "initOutputFlag",
          "reserved", "singleCoreBatch", "singleCoreM", "singleCoreCin"]

HOST = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "tiling/tiling_api.h"
#include "tiling/conv_backprop/conv3d_bp_input_tiling.h"
using namespace ConvCommonApi;

#define NPUKB_FIELDS(X) X(batch) X(cin) X(cout) X(cout1) X(cin1) X(cout1G) X(cin1G) X(c0) X(c0Bits) X(dout) X(ho) \
  X(wo) X(di) X(hi) X(wi) X(dk) X(hk) X(wk) X(group) X(strideD) X(strideH) X(strideW) X(padFront) X(padBack)      \
  X(padUp) X(padDown) X(padLeft) X(padRight) X(backpropPadTail) X(backpropPadUp) X(backpropPadDown)                \
  X(backpropPadLeft) X(backpropPadRight) X(dilationD) X(dilationH) X(dilationW) X(al0Pbuffer) X(bl0Pbuffer)        \
  X(cl0Pbuffer) X(al1Pbuffer) X(bl1Pbuffer) X(singleCoreGroup) X(singleCoreCout) X(singleCoreCout1)                \
  X(singleCoreCin1) X(singleCoreDin) X(singleCoreHo) X(baseM) X(baseK) X(baseN) X(baseD) X(baseBatch) X(baseGroup) \
  X(stepM) X(stepN) X(stepKa) X(stepKb) X(stepBatch) X(stepGroup) X(iterateOrder) X(hf32Flag) X(initOutputFlag)    \
  X(reserved) X(singleCoreBatch) X(singleCoreM) X(singleCoreCin)

// argv: dt n cin di hi wi cout kd kh kw pads[6] strides[3] dilations[3] outpad[3] go[5] skip bad l1 wcin
int main(int argc, char** argv) {
  long long a[40] = {0};
  for (int i = 1; i < argc && i <= 40; ++i) a[i - 1] = std::atoll(argv[i]);
  const ConvDtype dt = a[0] == 0 ? ConvDtype::FLOAT16 : ConvDtype::BF16;
  const long long skip = a[30], bad = a[31];
""" + tiling_objects("ConvBackpropApi", "Conv3DBpInputTiling", 32) + r"""
  using Base = ConvBackpropApi::Conv3DBpInputTilingBase;
  Base& tl = a[32] > 0 ? static_cast<Base&>(byInfo) : (skip & 16) ? byNone : byPlat;
  int sw = -1, si = -1, sg = -1, so = -1;
  if (!(skip & 2)) sw = tl.SetWeightShape(a[6], a[33] > 0 ? a[33] : a[2], a[7], a[8], a[9]);
  if (!(skip & 1)) si = tl.SetInputShape(a[1], a[2], a[3], a[4], a[5]);
  if (!(skip & 4)) sg = tl.SetGradOutputShape(a[25], a[26], a[27], a[28], a[29]);
  if (skip & 32) so = tl.SetOutputPadding(a[22], a[23], a[24]);
  tl.SetPadding(a[10], a[11], a[12], a[13], a[14], a[15]);
  tl.SetStride(a[16], a[17], a[18]);
  tl.SetDilation(a[19], a[20], a[21]);
  if (!(skip & 8)) {
    const ConvDtype other = dt == ConvDtype::FLOAT16 ? ConvDtype::BF16 : ConvDtype::FLOAT16;
    tl.SetWeightType(bad == 1 ? TPosition::CO1 : TPosition::GM,
                     bad == 2 ? ConvFormat::NDC1HWC0 : ConvFormat::FRACTAL_Z_3D,
                     bad == 6 ? ConvDtype::FLOAT32 : dt);
    tl.SetGradOutputType(bad == 8 ? TPosition::VECIN : TPosition::GM,
                         bad == 3 ? ConvFormat::NCDHW : ConvFormat::NDC1HWC0,
                         bad == 5 ? other : bad == 6 ? ConvDtype::FLOAT32 : dt);
    tl.SetInputType(bad == 4 ? TPosition::CO1 : TPosition::GM, bad == 7 ? ConvFormat::ND : ConvFormat::NDC1HWC0,
                    bad == 9 ? other : bad == 6 ? ConvDtype::FLOAT32 : dt);
  }
  AscendC::tiling::Conv3DBackpropInputTilingData t;
  std::memset(&t, 0, sizeof t);
  const long long r1 = tl.GetTiling(t);
  std::printf("%lld", r1);
#define NPUKB_PRINT(f) std::printf(" %lld", (long long)t.conv3DDxTiling.f);
  NPUKB_FIELDS(NPUKB_PRINT)
  std::printf("\n");
  optiling::Conv3DBackpropInputTilingData o;
  const long long r2 = tl.GetTiling(o);
  const std::vector<std::uint8_t> bytes = o.NpukbBytes();
  std::printf("forms %lld %zu %zu %d\n", r2, bytes.size(), sizeof t,
              r1 == 0 && bytes.size() == sizeof t && std::memcmp(bytes.data(), &t, sizeof t) == 0 ? 1 : 0);
  std::printf("set %d %d %d %d\n", sw, si, sg, so);
  return 0;
}
"""


class HostTiling(HostProgram):
    """The host program: one run per scenario, the tiling fields by name."""

    def get(self, dt=0, n=2, cin=20, din=6, hin=9, win=10, cout=24, k=(3, 3, 3), pads=(1, 1, 1, 1, 1, 1),
            stride=(1, 2, 1), dil=(1, 1, 2), outpad=(0, 0, 0), go=None, skip=0, bad=0, l1=0, wcin=0
            ) -> tuple[int, dict, str, list[int]]:
        if go is None:
            od, oh, ow = out_shape((din, hin, win), k, pads, tuple(max(v, 1) for v in stride), dil)
            go = (n, cout, od, oh, ow)
        args = [dt, n, cin, din, hin, win, cout, *k, *pads, *stride, *dil, *outpad, *go, skip, bad, l1, wcin]
        result, fields, (forms, sets) = run_host_program(self.exe, args, FIELDS)
        return result, fields, forms, [int(v) for v in sets.split()[1:]]


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> HostTiling:
    return HostTiling(build_host_program(tmp_path_factory, "conv3d_bp_input_tiling", HOST))


# ---- the numpy reference (written from the page's formula: dL/dX from dL/dY and the forward W) --------

def conv3d_bp_input_ref(dy, w, in_dhw, pads, stride, dil):
    """dy (N, Cout, Do, Ho, Wo), w (Cout, Cin, KD, KH, KW) -> dx (N, Cin, D, H, W) in float64: every output
    position scatters dy * W back to the input positions its window read."""
    n, _, od, oh, ow = dy.shape
    _, cin, kd, kh, kw = w.shape
    d, h, wd = in_dhw
    big = [in_dhw[i] + pads[2 * i] + pads[2 * i + 1] + stride[i] + dil[i] * 3 for i in range(3)]
    dxp = np.zeros((n, cin, *big))
    for a in range(kd):
        for b in range(kh):
            for c in range(kw):
                dxp[:, :, a * dil[0]:a * dil[0] + stride[0] * (od - 1) + 1:stride[0],
                    b * dil[1]:b * dil[1] + stride[1] * (oh - 1) + 1:stride[1],
                    c * dil[2]:c * dil[2] + stride[2] * (ow - 1) + 1:stride[2]] += np.einsum(
                        "nodhw,oi->nidhw", dy, w[:, :, a, b, c].astype(np.float64))
    return dxp[:, :, pads[0]:pads[0] + d, pads[2]:pads[2] + h, pads[4]:pads[4] + wd]


def test_reference_is_the_adjoint_of_the_forward_convolution():
    # <conv(x), dy> == <x, dx(dy)> for every x: the reference is the gradient of the forward convolution
    rng = np.random.default_rng(3)
    pads, stride, dil = (1, 0, 2, 1, 0, 1), (2, 1, 2), (1, 2, 1)
    x = rng.standard_normal((2, 5, 6, 7, 8))
    w = rng.standard_normal((4, 5, 2, 3, 2))
    y = conv3d_ref(x, w, None, pads, stride, dil)
    dy = rng.standard_normal(y.shape)
    dx = conv3d_bp_input_ref(dy, w, (6, 7, 8), pads, stride, dil)
    assert dx.shape == x.shape
    np.testing.assert_allclose(np.sum(y * dy), np.sum(x * dx), rtol=1e-10)


BODY = r"""
#include "lib/conv_backprop/conv3d_bp_input_api.h"
using WH = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D, half>;
using SZ = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::ND, int32_t>;
using GH = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, half>;
using WB = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D, bfloat16_t>;
using GB = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, bfloat16_t>;
using DxH = ConvBackpropApi::Conv3DBackpropInput<WH, SZ, GH, GH>;
using DxB = ConvBackpropApi::Conv3DBackpropInput<WB, SZ, GB, GB>;

// P[2..67] the tiling fields; P[68] batches; P[69] split (1: one object, every depth; 2: four objects,
// halves of Hi and of Cin (the first 16 channels and the rest)); P[70] misuse selector.
static TConv3DBackpropInputTiling make_tiling() {
  TConv3DBackpropInputTiling t{};
  static_assert(sizeof(TConv3DBackpropInputTiling) == 272, "layout");
  uint32_t* u = reinterpret_cast<uint32_t*>(&t);
  for (int i = 0; i < 64; ++i) u[i] = static_cast<uint32_t>(P[2 + i]);   // batch .. singleCoreBatch
  t.singleCoreM = static_cast<uint64_t>(P[66]);
  t.singleCoreCin = static_cast<uint32_t>(P[67]);
  return t;
}

template <class Dx, typename T>
static void run(const TConv3DBackpropInputTiling& t) {
  const uint64_t hiwi = uint64_t(t.hi) * t.wi, k = uint64_t(t.cout1) * t.hk * t.wk * 16;
  const uint64_t goBatch = uint64_t(t.dout) * t.cout1 * t.ho * t.wo * 16, dxBatch = uint64_t(t.di) * t.cin1 * hiwi * 16;
  const int batches = P[68], split = P[69], misuse = P[70];
  GlobalTensor<T> dy = gin<T>(1), w = gin<T>(2);
  GlobalTensor<T> dx = gout<T>(0, batches * dxBatch);
  for (int part = 0; part < (split == 1 ? 1 : 4); ++part) {
    const bool hh = part & 1, ch = part & 2;
    const uint64_t h0 = split == 1 ? 0 : (hh ? t.hi / 2 : 0);
    const uint64_t hn = split == 1 ? t.hi : (hh ? t.hi - t.hi / 2 : t.hi / 2);
    const uint64_t c1 = split == 1 ? 0 : (ch ? 1 : 0);
    const uint32_t cn = split == 1 ? t.cin : (ch ? t.cin - 16 : 16);
    Dx dxApi;
    dxApi.Init(&t);
    if (misuse == 4) dxApi.Init(&t);
    if (misuse == 3) dxApi.End();
    dxApi.SetWeight(w[c1 * t.hk * t.wk * t.cout1 * 256]);
    for (int b = 0; b < batches; ++b) {
      if (misuse != 2) dxApi.SetGradOutput(dy[b * goBatch]);
      for (uint32_t din = 0; din < t.di; ++din) {
        if (misuse != 6) {
          dxApi.SetStartPosition(din, static_cast<int32_t>(h0) - t.backpropPadUp);
          dxApi.SetSingleShape(hn * t.wi, k, cn);
        }
        while (dxApi.Iterate()) {
          dxApi.GetTensorC(dx[b * dxBatch + ((din * t.cin1 + c1) * hiwi + h0 * t.wi) * 16]);
          if (misuse == 5) dxApi.GetTensorC(dx);
        }
        if (misuse == 1) dxApi.Iterate();
        dxApi.ctx.isFirstIter_ = true;
        if (misuse == 6) break;
      }
      if (misuse == 6) break;
    }
    dxApi.End();
  }
}

static void body(void*) {
  Bufs bufs(false);
  const TConv3DBackpropInputTiling t = make_tiling();
  const uint64_t k = uint64_t(t.cout1) * t.hk * t.wk * 16;
  switch (P[0]) {
    case 1: run<DxH, half>(t); break;
    case 2: run<DxB, bfloat16_t>(t); break;
    case 3: { DxH c; c.Init(nullptr); break; }
    case 4: { DxH c; TConv3DBackpropInputTiling z{}; c.Init(&z); break; }
    case 5: { DxH c; c.SetWeight(gin<half>(2)); break; }
    case 6: { DxH c; c.Init(&t); c.SetSingleShape(uint64_t(t.hi) * t.wi + 1, k, t.cin); break; }
    case 7: { DxH c; c.Init(&t); c.SetSingleShape(16, k + 16, t.cin); break; }
    case 8: { DxH c; c.Init(&t); c.SetStartPosition(t.di, 0); break; }
    case 9: { DxH c; c.Init(&t); c.SetStartPosition(0, static_cast<int32_t>(t.hi) - t.backpropPadUp); break; }
    case 10: { DxH c; c.Init(&t); c.SetGradOutput(gin<half>(1)); c.SetWeight(gin<half>(2));
               c.SetStartPosition(0, static_cast<int32_t>(t.hi) - 1 - t.backpropPadUp);
               c.SetSingleShape(2 * t.wi, k, t.cin); c.Iterate(); break; }
    case 11: { DxH c; c.Init(&t); c.SetGradOutput(gin<half>(1)); c.Iterate(); break; }
  }
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("conv3d_bp_input_api"), sim_cache)


RNG = np.random.default_rng(24)
SHAPE = {"cin": 20, "din": 6, "hin": 9, "win": 10, "cout": 24, "k": (3, 3, 3), "pads": (1, 1, 1, 1, 1, 1),
         "stride": (1, 2, 1), "dil": (1, 1, 2)}


def dx_case(host, prog, case, dt, batches=2, split=1, misuse=0, **shape):
    s = {**SHAPE, **shape}
    ret, t, _, _ = host.get(dt=dt, n=batches, cin=s["cin"], din=s["din"], hin=s["hin"], win=s["win"], cout=s["cout"],
                            k=s["k"], pads=s["pads"], stride=s["stride"], dil=s["dil"])
    assert ret == 0
    od, oh, ow = t["dout"], t["ho"], t["wo"]
    dy = RNG.uniform(-1, 1, (batches, s["cout"], od, oh, ow)).astype(np.float32)
    w = RNG.uniform(-1, 1, (s["cout"], s["cin"], *s["k"])).astype(np.float32)
    if dt == 0:
        dy, w = dy.astype(np.float16), w.astype(np.float16)
        dyin, win = to_ndc1hwc0(dy), to_fractal_z_3d(w)
    else:
        dy, w = bf16_round(dy), bf16_round(w)
        dyin, win = bf16_bits(to_ndc1hwc0(dy)), bf16_bits(to_fractal_z_3d(w))
    want = conv3d_bp_input_ref(dy.astype(np.float64), w.astype(np.float64), (s["din"], s["hin"], s["win"]),
                               s["pads"], s["stride"], s["dil"])
    extra = (*[t[f] for f in FIELDS], batches, split, misuse)
    d = prog.ok(case, dyin, win, extra=extra)
    c1 = -(-s["cin"] // 16)
    raw = output(d, 0, np.uint16 if dt == 1 else np.float16)
    got = (bf16_float(raw) if dt == 1 else raw.astype(np.float32)).reshape(batches, s["din"], c1, s["hin"],
                                                                          s["win"], 16)
    return from_ndc1hwc0(got, s["cin"]), want, t


@pytest.mark.api("Conv3DBackpropInput Kernel侧接口/Init", "Conv3DBackpropInput Kernel侧接口/SetGradOutput",
                 "Conv3DBackpropInput Kernel侧接口/SetWeight", "Conv3DBackpropInput Kernel侧接口/SetSingleShape",
                 "Conv3DBackpropInput Kernel侧接口/SetStartPosition", "Conv3DBackpropInput Kernel侧接口/Iterate",
                 "Conv3DBackpropInput Kernel侧接口/GetTensorC", "Conv3DBackpropInput Kernel侧接口/End",
                 "Conv3DBackpropInput Tiling侧接口/Conv3DBackpropInput Tiling构造函数",
                 "Conv3DBackpropInput Tiling侧接口/GetTiling")
def test_half_input_gradient_with_padding_stride_dilation(host, prog):
    got, want, _ = dx_case(host, prog, 1, 0)
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=4e-2)


@pytest.mark.api("Conv3DBackpropInput Kernel侧接口/Iterate", "Conv3DBackpropInput Kernel侧接口/GetTensorC")
def test_bf16_input_gradient(host, prog):
    got, want, _ = dx_case(host, prog, 2, 1, cin=33, cout=17, k=(2, 1, 3), pads=(0, 1, 2, 0, 0, 1),
                           stride=(2, 1, 2), dil=(1, 1, 1))
    np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-1)


@pytest.mark.api("Conv3DBackpropInput Kernel侧接口/SetStartPosition", "Conv3DBackpropInput Kernel侧接口/SetSingleShape")
def test_four_objects_split_hi_and_cin(host, prog):
    # four objects, each with its own start row, Cin block and single shape, together the whole GradInput
    got, want, _ = dx_case(host, prog, 1, 0, split=2, hin=11, cin=30, batches=1)
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=4e-2)


def test_several_blocks_per_round(host, prog):
    # Hi * Wi = 400 > baseM and Cin = 150 > baseN: rounds of several Iterate blocks, tails in M and N
    got, want, t = dx_case(host, prog, 1, 0, batches=1, cin=150, cout=16, din=2, hin=20, win=20, k=(1, 3, 3),
                           pads=(0, 0, 1, 1, 1, 1), stride=(1, 1, 1), dil=(1, 1, 1))
    assert t["baseM"] < 400 and t["baseN"] < 150
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=4e-2)


@pytest.mark.api("Conv3DBackpropInput Kernel侧接口/Init", "Conv3DBackpropInput Kernel侧接口/End",
                 "Conv3DBackpropInput Kernel侧接口/Iterate", "Conv3DBackpropInput Kernel侧接口/GetTensorC",
                 "Conv3DBackpropInput Kernel侧接口/SetSingleShape",
                 "Conv3DBackpropInput Kernel侧接口/SetStartPosition")
def test_documented_misuse_is_a_violation(host, prog):
    _, t, _, _ = host.get()
    fields = [t[f] for f in FIELDS]
    x = np.zeros(4096, np.float16)
    base = (*fields, 1, 1, 0)
    assert "tiling pointer is null" in prog.violation(3, x, x, extra=base)
    assert "not a Conv3DBackpropInput tiling" in prog.violation(4, x, x, extra=base)
    assert "Init must be called first" in prog.violation(5, x, x, extra=base)
    assert "within Hi * Wi" in prog.violation(6, x, x, extra=base)
    assert "K of one KD tap" in prog.violation(7, x, x, extra=base)
    assert "within the GradInput" in prog.violation(8, x, x, extra=base)
    assert "within the GradInput" in prog.violation(9, x, x, extra=base)
    assert "exceeds Hi * Wi" in prog.violation(10, x, x, extra=base)
    assert "SetWeight was not called" in prog.violation(11, x, x, extra=base)
    for field, value in (("c0", 8), ("cout1", 1), ("baseK", 0)):     # one field off a GetTiling tiling
        bad = [value if f == field else t[f] for f in FIELDS]
        assert "not a Conv3DBackpropInput tiling" in prog.violation(1, x, x, extra=(*bad, 1, 1, 0)), field
    s = SHAPE
    od, oh, ow = t["dout"], t["ho"], t["wo"]
    dy = to_ndc1hwc0(np.zeros((1, s["cout"], od, oh, ow), np.float16))
    w = to_fractal_z_3d(np.zeros((s["cout"], s["cin"], *s["k"]), np.float16))
    assert "ctx.isFirstIter_ = true" in prog.violation(1, dy, w, extra=(*fields, 1, 1, 1))
    assert "SetGradOutput was not called" in prog.violation(1, dy, w, extra=(*fields, 1, 1, 2))
    assert "End is called after Iterate and GetTensorC" in prog.violation(1, dy, w, extra=(*fields, 1, 1, 3))
    assert "called only once" in prog.violation(1, dy, w, extra=(*fields, 1, 1, 4))
    assert "GetTensorC is called after an Iterate" in prog.violation(1, dy, w, extra=(*fields, 1, 1, 5))
    # a weight tensor too small for the tiling's shape is an out-of-bounds GM read
    assert "VIOLATION" in prog.violation(1, dy, w[:2].copy(), extra=(*fields, 1, 1, 0))


def test_defaults_without_single_shape_and_start_position(host, prog):
    # SetStartPosition / SetSingleShape left out: depth 0, the first row, the tiling's singleCoreM x singleCoreCin
    _, t, _, _ = host.get(n=1)
    od, oh, ow = t["dout"], t["ho"], t["wo"]
    s = SHAPE
    dy = RNG.uniform(-1, 1, (1, s["cout"], od, oh, ow)).astype(np.float16)
    w = RNG.uniform(-1, 1, (s["cout"], s["cin"], *s["k"])).astype(np.float16)
    d = prog.ok(1, to_ndc1hwc0(dy), to_fractal_z_3d(w), extra=(*[t[f] for f in FIELDS], 1, 1, 6))
    want = conv3d_bp_input_ref(dy.astype(np.float64), w.astype(np.float64), (6, 9, 10), s["pads"], s["stride"],
                               s["dil"])
    got = output(d, 0, np.float16).astype(np.float32).reshape(1, 6, 2, 9, 10, 16)
    np.testing.assert_allclose(from_ndc1hwc0(got, s["cin"])[:, :, 0], want[:, :, 0], rtol=2e-3, atol=4e-2)


def dx_syntax_errors(statement: str, workdir: Path) -> str:
    src = ('#include "kernel_operator.h"\n#include "lib/conv_backprop/conv3d_bp_input_api.h"\n'
           "using namespace AscendC;\nvoid f() { " + statement + " }\n")
    return syntax_check(src, workdir).stderr


TYPES = ("using SZ = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::ND, int32_t>; "
         "using WH = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D, "
         "half>; using GH = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, "
         "ConvCommonApi::ConvFormat::NDC1HWC0, half>; using GB = ConvBackpropApi::ConvType<"
         "ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, bfloat16_t>; "
         "using GN = ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NCDHW, half>; ")


def test_documented_types_only(tmp_path):
    ok = TYPES + ("ConvBackpropApi::Conv3DBackpropInput<WH, SZ, GH, GH> c; GlobalTensor<half> g; "
                  "while (c.Iterate()) { c.GetTensorC(g); } c.ctx.isFirstIter_ = true; c.End(); "
                  "static_assert(ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, "
                  "ConvCommonApi::ConvFormat::ND, int32_t>::format == ConvCommonApi::ConvFormat::ND);")
    assert dx_syntax_errors(ok, tmp_path / "ok") == ""
    assert "type combinations" in dx_syntax_errors(TYPES + "ConvBackpropApi::Conv3DBackpropInput<WH, SZ, GB, GB> c;",
                                                   tmp_path / "a")
    assert "GradInput is NDC1HWC0" in dx_syntax_errors(
        TYPES + "ConvBackpropApi::Conv3DBackpropInput<WH, SZ, GH, GN> c;", tmp_path / "b")
    assert "Weight is FRACTAL_Z_3D" in dx_syntax_errors(
        TYPES + "ConvBackpropApi::Conv3DBackpropInput<GH, SZ, GH, GH> c;", tmp_path / "c")


def test_a_kernel_may_include_both_sides(tmp_path):
    src = ('#include "kernel_operator.h"\n#include "tiling/tiling_api.h"\n'
           '#include "lib/conv_backprop/conv3d_bp_input_api.h"\n#include "lib/conv/conv3d/conv3d_api.h"\n'
           "void f() { ConvBackpropApi::PlatformInfo i{}; ConvBackpropApi::Conv3DBpInputTiling t(i);\n"
           "  t.SetWeightType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,\n"
           "                  ConvCommonApi::ConvDtype::FLOAT16); }\n")
    assert syntax_check(src, tmp_path).stderr == ""


# ---- host side ---------------------------------------------------------------------------------------

@pytest.mark.api("Conv3DBackpropInput Tiling侧接口/Conv3DBackpropInput Tiling构造函数",
                 "Conv3DBackpropInput Tiling侧接口/GetTiling",
                 "Conv3DBackpropInput Tiling侧接口/TConv3DBackpropInputTiling结构体",
                 "Conv3DBackpropInput Tiling侧接口/SetWeightShape", "Conv3DBackpropInput Tiling侧接口/SetInputShape",
                 "Conv3DBackpropInput Tiling侧接口/SetGradOutputShape", "Conv3DBackpropInput Tiling侧接口/SetPadding",
                 "Conv3DBackpropInput Tiling侧接口/SetStride", "Conv3DBackpropInput Tiling侧接口/SetDilation",
                 "Conv3DBackpropInput Tiling侧接口/SetWeightType", "Conv3DBackpropInput Tiling侧接口/SetInputType",
                 "Conv3DBackpropInput Tiling侧接口/SetGradOutputType")
def test_tiling_fills_the_documented_fields(host):
    pads, stride, dil = (1, 2, 0, 1, 2, 0), (2, 1, 3), (1, 2, 1)
    ret, t, forms, sets = host.get(pads=pads, stride=stride, dil=dil)
    assert ret == 0 and sets == [1, 1, 1, -1]
    od, oh, ow = out_shape((6, 9, 10), (3, 3, 3), pads, stride, dil)
    assert (t["batch"], t["cin"], t["cout"], t["cout1"], t["cin1"], t["c0"], t["c0Bits"]) == (2, 20, 24, 2, 2, 16, 4)
    assert (t["dout"], t["ho"], t["wo"], t["di"], t["hi"], t["wi"]) == (od, oh, ow, 6, 9, 10)
    assert (t["dk"], t["hk"], t["wk"], t["group"]) == (3, 3, 3, 1)
    assert (t["strideD"], t["strideH"], t["strideW"]) == stride
    assert (t["dilationD"], t["dilationH"], t["dilationW"]) == dil
    assert tuple(t[f] for f in ("padFront", "padBack", "padUp", "padDown", "padLeft", "padRight")) == pads
    # the grad output's padding in the transposed convolution: dilation * (k - 1) - pad
    assert (t["backpropPadTail"], t["backpropPadUp"], t["backpropPadDown"], t["backpropPadLeft"],
            t["backpropPadRight"]) == (2 - 2, 4 - 0, 4 - 1, 2 - 2, 2 - 0)
    assert (t["singleCoreCin"], t["singleCoreCout"], t["singleCoreM"], t["singleCoreDin"]) == (20, 24, 90, 6)
    assert (t["singleCoreCin1"], t["singleCoreCout1"], t["singleCoreHo"], t["singleCoreBatch"]) == (2, 2, oh, 2)
    # the split: baseK a multiple of C0 dividing Cout1 * KH * KW * C0; the blocks fit L0A / L0B / L0C
    assert t["baseK"] % 16 == 0 and (2 * 9 * 16) % t["baseK"] == 0
    assert t["baseM"] % 16 == 0 and t["baseN"] % 16 == 0 and t["baseM"] * t["baseN"] * 4 * 2 <= 131072
    assert t["baseM"] * t["baseK"] * 2 * 2 <= 65536 and t["baseN"] * t["baseK"] * 2 * 2 <= 65536
    assert t["stepKa"] == t["stepKb"] >= 1
    assert forms == "forms 0 272 272 1"    # the optiling class serialises to the kernel struct's bytes


def test_small_l1_gets_smaller_k_steps_and_too_small_fails(host):
    big = {"cin": 64, "cout": 512, "din": 4, "hin": 32, "win": 32, "pads": (1,) * 6, "stride": (1, 1, 1),
           "dil": (1, 1, 1)}
    ret, t, _, _ = host.get(**big)
    ret2, t2, _, _ = host.get(**big, l1=100000)
    assert ret == 0 and ret2 == 0 and t2["stepKa"] * t2["baseK"] < t["stepKa"] * t["baseK"]
    assert (t2["baseM"] + t2["baseN"]) * t2["baseK"] * t2["stepKa"] * 4 <= 100000
    assert host.get(**big, l1=1024)[0] == -1


@pytest.mark.api("Conv3DBackpropInput Tiling侧接口/SetOutputPadding", "Conv3DBackpropInput Tiling侧接口/GetTiling")
def test_conv3d_transpose_without_input_shape(host):
    # Conv3DTranspose: no SetInputShape; the output (GradInput) shape follows from the output padding
    pads, stride, dil = (1, 0, 1, 1, 0, 2), (2, 2, 3), (1, 1, 1)
    go = (1, 24, 4, 5, 6)
    ret, t, _, sets = host.get(go=go, pads=pads, stride=stride, dil=dil, outpad=(1, 0, 2), skip=1 | 32)
    assert ret == 0 and sets == [1, -1, 1, 1]
    want = [(go[2 + i] - 1) * stride[i] - pads[2 * i] - pads[2 * i + 1] + 2 + (1, 0, 2)[i] + 1 for i in range(3)]
    assert [t["di"], t["hi"], t["wi"]] == want and t["batch"] == 1 and t["cin"] == 20
    assert out_shape(tuple(want), (3, 3, 3), pads, stride, dil) == go[2:]
    # an output padding as large as the stride gives an input whose forward output is not the grad output
    assert host.get(go=go, pads=pads, stride=stride, dil=dil, outpad=(2, 0, 0), skip=1 | 32)[0] == -1
    # with SetInputShape the output padding has no meaning (ignored)
    assert host.get(outpad=(1, 1, 1), skip=32)[0] == 0


def test_setters_refuse_non_positive_shapes(host):
    sets = host.get(k=(0, 3, 3), din=-1, go=(2, 24, 0, 5, 6), outpad=(-1, 0, 0), skip=32)[3]
    assert sets == [0, 0, 0, 0]


@pytest.mark.api("Conv3DBackpropInput Tiling侧接口/GetTiling", "Conv3DBackpropInput Tiling侧接口/SetWeightType",
                 "Conv3DBackpropInput Tiling侧接口/SetInputType", "Conv3DBackpropInput Tiling侧接口/SetGradOutputType",
                 "Conv3DBackpropInput Tiling侧接口/SetWeightShape",
                 "Conv3DBackpropInput Tiling侧接口/SetGradOutputShape",
                 "Conv3DBackpropInput Tiling侧接口/SetInputShape")
@pytest.mark.parametrize("what,kw", [
    ("weight shape missing", {"skip": 2}), ("grad output shape missing", {"skip": 4}),
    ("weight not in GM", {"bad": 1}), ("weight not FRACTAL_Z_3D", {"bad": 2}), ("grad output NCDHW", {"bad": 3}),
    ("input not in GM", {"bad": 4}), ("mixed dtypes", {"bad": 5}), ("float32", {"bad": 6}),
    ("input format ND", {"bad": 7}), ("grad output in VECIN", {"bad": 8}), ("input dtype differs", {"bad": 9}),
    ("stride 0", {"stride": (0, 1, 1)}), ("dilation 0", {"dil": (1, 0, 1)}),
    ("negative pad", {"pads": (0, 0, -1, 0, 0, 0)}),
    ("grad output channels not the weight's cout", {"go": (2, 23, 6, 5, 8)}),
    ("grad output batch not the input's", {"go": (3, 24, 6, 5, 8)}),
    ("weight cin not the input's", {"wcin": 21}),
    ("grad output depth not the forward output", {"go": (2, 24, 5, 5, 8)}),
    ("grad output width not the forward output", {"go": (2, 24, 6, 5, 9)}),
])
def test_tiling_constraints_return_minus_one(host, what, kw):
    assert host.get()[0] == 0 and host.get()[1]["wo"] == 8
    assert host.get(**kw)[0] == -1, what


def test_defaults_are_the_documented_ones(host):
    # Set*Type left out: half FRACTAL_Z_3D / NDC1HWC0 / NDC1HWC0 in GM; the no-argument constructor works
    ret, t, _, _ = host.get(skip=8 | 16)
    assert ret == 0 and t["c0"] == 16


def cycles_of(host, prog, **shape) -> float:
    s = {**SHAPE, **shape}
    ret, t, _, _ = host.get(n=1, cin=s["cin"], din=s["din"], hin=s["hin"], win=s["win"], cout=s["cout"], k=s["k"],
                            pads=s["pads"], stride=s["stride"], dil=s["dil"])
    assert ret == 0
    dy = np.zeros((1, s["cout"], t["dout"], t["ho"], t["wo"]), np.float16)
    w = np.zeros((s["cout"], s["cin"], *s["k"]), np.float16)
    ran, _ = prog.run(1, to_ndc1hwc0(dy), to_fractal_z_3d(w), extra=(*[t[f] for f in FIELDS], 1, 1, 0))
    assert ran.returncode == 0, ran.stderr[-2000:]
    return float(next(ln.split()[1] for ln in ran.stdout.splitlines() if ln.startswith("cycles ")))


def test_cube_time_estimate_grows_with_the_work(host, prog):
    base = cycles_of(host, prog)
    assert base > 0
    assert cycles_of(host, prog, din=12) > base * 1.5        # twice the depths: twice the rounds
    assert cycles_of(host, prog, cout=96) > base * 1.5       # four times the K of each block
    assert cycles_of(host, prog, cin=150) > base * 1.5       # more N blocks (more Iterate calls)
