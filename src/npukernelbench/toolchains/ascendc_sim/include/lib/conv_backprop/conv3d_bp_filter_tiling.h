// lib/conv_backprop/conv3d_bp_filter_tiling.h -- host-side Conv3DBackpropFilter tiling: the tiling-data
// classes optiling::TConv3DBpFilterTiling and optiling::Conv3DBackpropFilterTilingData (its dwTiling; same
// byte layouts as the kernel structs in npukb_sim/conv_bp_filter_tiling_structs.h) and the calculator
// ConvBackpropApi::Conv3dBpFilterTiling (Conv3dBpFilterTilingBase). GetTiling checks the documented
// constraints (the three shapes set; positions, formats and dtypes the pages allow, Input and GradOutput
// of one dtype; strides and dilations >= 1, pads >= 0; the GradOutput shape the forward convolution of
// Input with Weight gives, its batch the Input's, its channels the Weight's Cout, the Input's channels the
// Weight's Cin) and returns -1 when one fails or no split fits the cube core's L1 / L0 buffers. The
// matrix view: M = Cout, N = Cin * Dk * Hk * Wk (FRACTAL_Z_3D order), K = Ho * Wo, summed over batches and
// Dout. The split (baseM / baseN / baseK, stepKa / stepKb, the ping-pong flags) is this simulator's choice,
// described in docs/simulator.md. Header-only. Clean-room part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/conv_common_types.h"
#include "lib/conv_backprop/conv_bp_tiling_common.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TConv3DBpFilterTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, cin1G);
  TILING_DATA_FIELD_DEF(uint32_t, cout1G);
  TILING_DATA_FIELD_DEF(uint32_t, dout);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, di);
  TILING_DATA_FIELD_DEF(uint32_t, hi);
  TILING_DATA_FIELD_DEF(uint32_t, wi);
  TILING_DATA_FIELD_DEF(uint32_t, dk);
  TILING_DATA_FIELD_DEF(uint32_t, hk);
  TILING_DATA_FIELD_DEF(uint32_t, wk);
  TILING_DATA_FIELD_DEF(uint32_t, group);
  TILING_DATA_FIELD_DEF(uint32_t, strideD);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padFront);
  TILING_DATA_FIELD_DEF(uint32_t, padBack);
  TILING_DATA_FIELD_DEF(uint32_t, padUp);
  TILING_DATA_FIELD_DEF(uint32_t, padDown);
  TILING_DATA_FIELD_DEF(uint32_t, padLeft);
  TILING_DATA_FIELD_DEF(uint32_t, padRight);
  TILING_DATA_FIELD_DEF(uint32_t, dilationD);
  TILING_DATA_FIELD_DEF(uint32_t, dilationH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationW);
  TILING_DATA_FIELD_DEF(uint32_t, channelSize);
  TILING_DATA_FIELD_DEF(uint32_t, al0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, bl0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, cl0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, al1Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, bl1Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, baseM);
  TILING_DATA_FIELD_DEF(uint32_t, baseK);
  TILING_DATA_FIELD_DEF(uint32_t, baseN);
  TILING_DATA_FIELD_DEF(uint32_t, m0);
  TILING_DATA_FIELD_DEF(uint32_t, k0);
  TILING_DATA_FIELD_DEF(uint32_t, n0);
  TILING_DATA_FIELD_DEF(uint32_t, stepM);
  TILING_DATA_FIELD_DEF(uint32_t, stepN);
  TILING_DATA_FIELD_DEF(uint32_t, stepKa);
  TILING_DATA_FIELD_DEF(uint32_t, stepKb);
  TILING_DATA_FIELD_DEF(uint32_t, iterateOrder);
  TILING_DATA_FIELD_DEF(uint64_t, bl1Bound);
  TILING_DATA_FIELD_DEF(uint32_t, hf32Flag);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreDK);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreGroup);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCout);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreHo);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreBatch);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCin);
  TILING_DATA_FIELD_DEF(uint64_t, totalL1Size);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreM);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreN);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreK);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(Conv3DBackpropFilterTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TConv3DBpFilterTiling, dwTiling);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;
}  // namespace optiling

namespace ConvBackpropApi {

class Conv3dBpFilterTilingBase : public npukb::convbp::TilingCommon {
 public:
  Conv3dBpFilterTilingBase() : Conv3dBpFilterTilingBase(platform_ascendc::PlatformAscendC(nullptr)) {}
  explicit Conv3dBpFilterTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : TilingCommon(ConvCommonApi::ConvDtype::FLOAT32, ascendcPlatform) {}
  explicit Conv3dBpFilterTilingBase(const PlatformInfo& platform)
      : TilingCommon(ConvCommonApi::ConvDtype::FLOAT32, platform) {}
  virtual ~Conv3dBpFilterTilingBase() = default;

  int64_t GetTiling(optiling::Conv3DBackpropFilterTilingData& tiling) {
    AscendC::tiling::TConv3DBpFilterTiling t{};
    if (!Compute(t)) return -1;
    Fill(tiling.dwTiling, t);
    return 0;
  }
  int64_t GetTiling(AscendC::tiling::Conv3DBackpropFilterTilingData& tiling) {
    AscendC::tiling::TConv3DBpFilterTiling t{};
    if (!Compute(t)) return -1;
    tiling.dwTiling = t;
    return 0;
  }

  void SetWeightShape(int64_t cout, int64_t cin, int64_t d, int64_t h, int64_t w) {
    Store(w_, weight_shape_set_, cout, cin, d, h, w);
  }
  void SetInputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) {
    Store(x_, input_shape_set_, n, c, d, h, w);
  }
  void SetGradOutputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) {
    Store(dy_, grad_output_shape_set_, n, c, d, h, w);
  }

 protected:
  static void Fill(optiling::TConv3DBpFilterTiling& tiling, const AscendC::tiling::TConv3DBpFilterTiling& t) {
    tiling.set_batch(t.batch);
    tiling.set_cin(t.cin);
    tiling.set_cout(t.cout);
    tiling.set_cin1G(t.cin1G);
    tiling.set_cout1G(t.cout1G);
    tiling.set_dout(t.dout);
    tiling.set_ho(t.ho);
    tiling.set_wo(t.wo);
    tiling.set_di(t.di);
    tiling.set_hi(t.hi);
    tiling.set_wi(t.wi);
    tiling.set_dk(t.dk);
    tiling.set_hk(t.hk);
    tiling.set_wk(t.wk);
    tiling.set_group(t.group);
    tiling.set_strideD(t.strideD);
    tiling.set_strideH(t.strideH);
    tiling.set_strideW(t.strideW);
    tiling.set_padFront(t.padFront);
    tiling.set_padBack(t.padBack);
    tiling.set_padUp(t.padUp);
    tiling.set_padDown(t.padDown);
    tiling.set_padLeft(t.padLeft);
    tiling.set_padRight(t.padRight);
    tiling.set_dilationD(t.dilationD);
    tiling.set_dilationH(t.dilationH);
    tiling.set_dilationW(t.dilationW);
    tiling.set_channelSize(t.channelSize);
    tiling.set_al0Pbuffer(t.al0Pbuffer);
    tiling.set_bl0Pbuffer(t.bl0Pbuffer);
    tiling.set_cl0Pbuffer(t.cl0Pbuffer);
    tiling.set_al1Pbuffer(t.al1Pbuffer);
    tiling.set_bl1Pbuffer(t.bl1Pbuffer);
    tiling.set_baseM(t.baseM);
    tiling.set_baseK(t.baseK);
    tiling.set_baseN(t.baseN);
    tiling.set_m0(t.m0);
    tiling.set_k0(t.k0);
    tiling.set_n0(t.n0);
    tiling.set_stepM(t.stepM);
    tiling.set_stepN(t.stepN);
    tiling.set_stepKa(t.stepKa);
    tiling.set_stepKb(t.stepKb);
    tiling.set_iterateOrder(t.iterateOrder);
    tiling.set_bl1Bound(t.bl1Bound);
    tiling.set_hf32Flag(t.hf32Flag);
    tiling.set_singleCoreDK(t.singleCoreDK);
    tiling.set_singleCoreGroup(t.singleCoreGroup);
    tiling.set_singleCoreCout(t.singleCoreCout);
    tiling.set_singleCoreHo(t.singleCoreHo);
    tiling.set_singleCoreBatch(t.singleCoreBatch);
    tiling.set_singleCoreCin(t.singleCoreCin);
    tiling.set_totalL1Size(t.totalL1Size);
    tiling.set_singleCoreM(t.singleCoreM);
    tiling.set_singleCoreN(t.singleCoreN);
    tiling.set_singleCoreK(t.singleCoreK);
  }

  // Fills `t` (a kernel-layout struct); false when a documented constraint fails or nothing fits.
  bool Compute(AscendC::tiling::TConv3DBpFilterTiling& t) const {
    using ConvCommonApi::ConvDtype;
    using ConvCommonApi::ConvFormat;
    using ConvCommonApi::TPosition;
    if (!weight_shape_set_ || !input_shape_set_ || !grad_output_shape_set_) return false;
    if (input_.pos != TPosition::GM || input_.format != ConvFormat::NDC1HWC0) return false;
    if (grad_output_.pos != TPosition::GM || grad_output_.format != ConvFormat::NDC1HWC0) return false;
    // GradWeight: the pages' GM (the Tiling usage page's example writes CO1, taken as well).
    if ((weight_.pos != TPosition::GM && weight_.pos != TPosition::CO1) || weight_.format != ConvFormat::FRACTAL_Z_3D ||
        weight_.dtype != ConvDtype::FLOAT32) {
      return false;
    }
    if (input_.dtype != ConvDtype::FLOAT16 && input_.dtype != ConvDtype::BF16) return false;
    if (grad_output_.dtype != input_.dtype) return false;
    if (!StridesPadsDilationsValid()) return false;
    if (!AllPositive(w_[0], w_[1], w_[2], w_[3], w_[4]) || !AllPositive(x_[0], x_[1], x_[2], x_[3], x_[4]) ||
        !AllPositive(dy_[0], dy_[1], dy_[2], dy_[3], dy_[4])) {
      return false;
    }
    if (dy_[0] != x_[0] || dy_[1] != w_[0] || x_[1] != w_[1]) return false;
    const int64_t od = ForwardOutLen(0, x_[2], w_[2]);
    const int64_t oh = ForwardOutLen(1, x_[3], w_[3]);
    const int64_t ow = ForwardOutLen(2, x_[4], w_[4]);
    if (od != dy_[2] || oh != dy_[3] || ow != dy_[4]) return false;

    // The split. C0 = 16 (32 bytes of half / bfloat16_t).
    const uint64_t c0 = 16, esz = 2;
    const uint64_t cout = static_cast<uint64_t>(w_[0]), cin = static_cast<uint64_t>(w_[1]);
    const uint64_t dk = static_cast<uint64_t>(w_[2]), hk = static_cast<uint64_t>(w_[3]), wk = static_cast<uint64_t>(w_[4]);
    const uint64_t cin1 = npukb::convbp::ceil_div(cin, c0), cout1 = npukb::convbp::ceil_div(cout, c0);
    const uint64_t m16 = cout1 * c0;                       // M, padded
    const uint64_t n16 = dk * cin1 * hk * wk * c0;         // N, padded (FRACTAL_Z_3D rows x C0)
    const uint64_t howo = static_cast<uint64_t>(oh * ow);
    const uint64_t k16 = npukb::convbp::align_up(howo, c0);
    uint64_t base_m = std::min<uint64_t>(m16, 128);
    uint64_t base_n = std::min<uint64_t>(n16, 128);
    // L0C holds baseM x baseN float sums (double-buffered when both fit).
    while (base_m * base_n * 4 > platform_.l0CSize && base_n > 16) base_n -= 16;
    if (base_m * base_n * 4 > platform_.l0CSize) return false;
    const uint32_t cl0 = base_m * base_n * 4 * 2 <= platform_.l0CSize ? 2 : 1;
    // baseK: the largest multiple of 16 (at most 128 and K) whose double-buffered A / B blocks fit L0A / L0B.
    uint64_t base_k = std::min<uint64_t>(k16, 128);
    while (base_k > 16 && (base_m * base_k * esz * 2 > platform_.l0ASize || base_n * base_k * esz * 2 > platform_.l0BSize)) {
      base_k -= 16;
    }
    if (base_m * base_k * esz * 2 > platform_.l0ASize || base_n * base_k * esz * 2 > platform_.l0BSize) return false;
    // L1: the GradOutput panel (baseM x stepKa * baseK) and the Input rows behind one B panel (the
    // (depth, Cin1) planes of baseN, the Hi rows stepKb * baseK output positions reach), both double-buffered.
    const uint64_t k_blocks = npukb::convbp::ceil_div(howo, base_k);
    const uint64_t planes = std::min<uint64_t>(dk * cin1, npukb::convbp::ceil_div(base_n, hk * wk * c0));
    const uint64_t hi = static_cast<uint64_t>(x_[3]), wi = static_cast<uint64_t>(x_[4]);
    const auto b_elems = [&](uint64_t step) {
      const uint64_t rows = std::min<uint64_t>(npukb::convbp::ceil_div(step * base_k, static_cast<uint64_t>(ow)) + 1,
                                               static_cast<uint64_t>(oh));
      const uint64_t hrows = std::min<uint64_t>(hi, (rows - 1) * stride_[1] + (hk - 1) * dil_[1] + 1);
      return planes * hrows * wi * c0;
    };
    uint64_t step = 0;
    for (uint64_t s = k_blocks; s >= 1; --s) {
      if ((base_m * s * base_k + b_elems(s)) * esz * 2 <= platform_.l1Size) { step = s; break; }
    }
    if (step == 0) return false;

    t = AscendC::tiling::TConv3DBpFilterTiling{};
    t.batch = static_cast<uint32_t>(x_[0]);
    t.cin = static_cast<uint32_t>(cin);
    t.cout = static_cast<uint32_t>(cout);
    t.cin1G = static_cast<uint32_t>(cin1);
    t.cout1G = static_cast<uint32_t>(cout1);
    t.dout = static_cast<uint32_t>(od);
    t.ho = static_cast<uint32_t>(oh);
    t.wo = static_cast<uint32_t>(ow);
    t.di = static_cast<uint32_t>(x_[2]);
    t.hi = static_cast<uint32_t>(x_[3]);
    t.wi = static_cast<uint32_t>(x_[4]);
    FillKernelStridesPadsDilations(t);
    t.channelSize = static_cast<uint32_t>(c0);
    t.al0Pbuffer = 2;
    t.bl0Pbuffer = 2;
    t.cl0Pbuffer = cl0;
    t.al1Pbuffer = 2;
    t.bl1Pbuffer = 2;
    t.baseM = static_cast<uint32_t>(base_m);
    t.baseK = static_cast<uint32_t>(base_k);
    t.baseN = static_cast<uint32_t>(base_n);
    t.m0 = 16;
    t.k0 = 16;
    t.n0 = 16;
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = static_cast<uint32_t>(step);
    t.stepKb = static_cast<uint32_t>(step);
    t.iterateOrder = 0;
    t.bl1Bound = base_m * step * base_k;
    t.hf32Flag = 0;
    t.singleCoreDK = static_cast<uint32_t>(dk);
    t.singleCoreGroup = 1;
    t.singleCoreCout = static_cast<uint32_t>(cout);
    t.singleCoreHo = static_cast<uint32_t>(oh);
    t.singleCoreBatch = static_cast<uint64_t>(x_[0]);
    t.singleCoreCin = static_cast<uint32_t>(cin);
    t.totalL1Size = platform_.l1Size;
    t.singleCoreM = cout;
    t.singleCoreN = cin * dk * hk * wk;
    t.singleCoreK = howo;
    (void)n16;
    return true;
  }
};

class Conv3dBpFilterTiling : public Conv3dBpFilterTilingBase {
 public:
  Conv3dBpFilterTiling() : Conv3dBpFilterTilingBase() {}
  explicit Conv3dBpFilterTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : Conv3dBpFilterTilingBase(ascendcPlatform) {}
  explicit Conv3dBpFilterTiling(const PlatformInfo& platform) : Conv3dBpFilterTilingBase(platform) {}
  ~Conv3dBpFilterTiling() override = default;
};

}  // namespace ConvBackpropApi

// The tiling constructor page's example names the calculator and the formats through
// Convolution3DBackprop:: as well.
namespace ConvBackpropApi {
using ConvCommonApi::ConvFormat;
}  // namespace ConvBackpropApi
namespace Convolution3DBackprop = ConvBackpropApi;
