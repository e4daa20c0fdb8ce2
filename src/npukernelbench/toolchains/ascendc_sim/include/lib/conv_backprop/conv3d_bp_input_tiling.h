// lib/conv_backprop/conv3d_bp_input_tiling.h -- host-side Conv3DBackpropInput tiling: the tiling-data
// classes optiling::TConv3DBackpropInputTiling / optiling::Conv3DBackpropInputTilingData (same byte layout
// as the kernel structs in npukb_sim/conv_bp_input_tiling_structs.h) and the calculator
// ConvBackpropApi::Conv3DBpInputTiling (Conv3DBpInputTilingBase). GetTiling checks the documented
// constraints (SetWeightShape and SetGradOutputShape called; positions GM; formats FRACTAL_Z_3D weight,
// NDC1HWC0 grad output and input; one dtype, FLOAT16 or BF16, for all three; strides and dilations >= 1,
// paddings >= 0; channels and batch consistent; the grad output the forward output of the input shape)
// and returns -1 when one fails or no split fits the cube core's L1 / L0 buffers. Without SetInputShape
// the input shape is the Conv3DTranspose output (grad output, strides, paddings, dilations and
// SetOutputPadding); with it, SetOutputPadding is ignored. The split itself (baseM / baseN / baseK,
// stepKa / stepKb) is this simulator's choice, described in docs/simulator.md. Header-only. Clean-room
// part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/conv_common_types.h"
#include "lib/conv_backprop/conv_bp_tiling_common.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TConv3DBackpropInputTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, cout1);
  TILING_DATA_FIELD_DEF(uint32_t, cin1);
  TILING_DATA_FIELD_DEF(uint32_t, cout1G);
  TILING_DATA_FIELD_DEF(uint32_t, cin1G);
  TILING_DATA_FIELD_DEF(uint32_t, c0);
  TILING_DATA_FIELD_DEF(uint32_t, c0Bits);
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
  TILING_DATA_FIELD_DEF(int32_t, backpropPadTail);
  TILING_DATA_FIELD_DEF(int32_t, backpropPadUp);
  TILING_DATA_FIELD_DEF(int32_t, backpropPadDown);
  TILING_DATA_FIELD_DEF(int32_t, backpropPadLeft);
  TILING_DATA_FIELD_DEF(int32_t, backpropPadRight);
  TILING_DATA_FIELD_DEF(uint32_t, dilationD);
  TILING_DATA_FIELD_DEF(uint32_t, dilationH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationW);
  TILING_DATA_FIELD_DEF(uint32_t, al0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, bl0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, cl0Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, al1Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, bl1Pbuffer);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreGroup);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCout);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCout1);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCin1);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreDin);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreHo);
  TILING_DATA_FIELD_DEF(uint32_t, baseM);
  TILING_DATA_FIELD_DEF(uint32_t, baseK);
  TILING_DATA_FIELD_DEF(uint32_t, baseN);
  TILING_DATA_FIELD_DEF(uint32_t, baseD);
  TILING_DATA_FIELD_DEF(uint32_t, baseBatch);
  TILING_DATA_FIELD_DEF(uint32_t, baseGroup);
  TILING_DATA_FIELD_DEF(uint32_t, stepM);
  TILING_DATA_FIELD_DEF(uint32_t, stepN);
  TILING_DATA_FIELD_DEF(uint32_t, stepKa);
  TILING_DATA_FIELD_DEF(uint32_t, stepKb);
  TILING_DATA_FIELD_DEF(uint32_t, stepBatch);
  TILING_DATA_FIELD_DEF(uint32_t, stepGroup);
  TILING_DATA_FIELD_DEF(uint32_t, iterateOrder);
  TILING_DATA_FIELD_DEF(uint32_t, hf32Flag);
  TILING_DATA_FIELD_DEF(uint32_t, initOutputFlag);
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreBatch);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreM);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCin);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(Conv3DBackpropInputTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TConv3DBackpropInputTiling, conv3DDxTiling);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;
}  // namespace optiling

namespace ConvBackpropApi {

class Conv3DBpInputTilingBase : public npukb::convbp::TilingCommon {
 public:
  Conv3DBpInputTilingBase() : Conv3DBpInputTilingBase(platform_ascendc::PlatformAscendC(nullptr)) {}
  explicit Conv3DBpInputTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : TilingCommon(ConvCommonApi::ConvDtype::FLOAT16, ascendcPlatform) {}
  explicit Conv3DBpInputTilingBase(const PlatformInfo& platform)
      : TilingCommon(ConvCommonApi::ConvDtype::FLOAT16, platform) {}
  virtual ~Conv3DBpInputTilingBase() = default;

  int64_t GetTiling(optiling::Conv3DBackpropInputTilingData& tiling) {
    AscendC::tiling::TConv3DBackpropInputTiling t{};
    if (!Compute(t)) return -1;
    optiling::TConv3DBackpropInputTiling& o = tiling.conv3DDxTiling;
    o.set_batch(t.batch);
    o.set_cin(t.cin);
    o.set_cout(t.cout);
    o.set_cout1(t.cout1);
    o.set_cin1(t.cin1);
    o.set_cout1G(t.cout1G);
    o.set_cin1G(t.cin1G);
    o.set_c0(t.c0);
    o.set_c0Bits(t.c0Bits);
    o.set_dout(t.dout);
    o.set_ho(t.ho);
    o.set_wo(t.wo);
    o.set_di(t.di);
    o.set_hi(t.hi);
    o.set_wi(t.wi);
    o.set_dk(t.dk);
    o.set_hk(t.hk);
    o.set_wk(t.wk);
    o.set_group(t.group);
    o.set_strideD(t.strideD);
    o.set_strideH(t.strideH);
    o.set_strideW(t.strideW);
    o.set_padFront(t.padFront);
    o.set_padBack(t.padBack);
    o.set_padUp(t.padUp);
    o.set_padDown(t.padDown);
    o.set_padLeft(t.padLeft);
    o.set_padRight(t.padRight);
    o.set_backpropPadTail(t.backpropPadTail);
    o.set_backpropPadUp(t.backpropPadUp);
    o.set_backpropPadDown(t.backpropPadDown);
    o.set_backpropPadLeft(t.backpropPadLeft);
    o.set_backpropPadRight(t.backpropPadRight);
    o.set_dilationD(t.dilationD);
    o.set_dilationH(t.dilationH);
    o.set_dilationW(t.dilationW);
    o.set_al0Pbuffer(t.al0Pbuffer);
    o.set_bl0Pbuffer(t.bl0Pbuffer);
    o.set_cl0Pbuffer(t.cl0Pbuffer);
    o.set_al1Pbuffer(t.al1Pbuffer);
    o.set_bl1Pbuffer(t.bl1Pbuffer);
    o.set_singleCoreGroup(t.singleCoreGroup);
    o.set_singleCoreCout(t.singleCoreCout);
    o.set_singleCoreCout1(t.singleCoreCout1);
    o.set_singleCoreCin1(t.singleCoreCin1);
    o.set_singleCoreDin(t.singleCoreDin);
    o.set_singleCoreHo(t.singleCoreHo);
    o.set_baseM(t.baseM);
    o.set_baseK(t.baseK);
    o.set_baseN(t.baseN);
    o.set_baseD(t.baseD);
    o.set_baseBatch(t.baseBatch);
    o.set_baseGroup(t.baseGroup);
    o.set_stepM(t.stepM);
    o.set_stepN(t.stepN);
    o.set_stepKa(t.stepKa);
    o.set_stepKb(t.stepKb);
    o.set_stepBatch(t.stepBatch);
    o.set_stepGroup(t.stepGroup);
    o.set_iterateOrder(t.iterateOrder);
    o.set_hf32Flag(t.hf32Flag);
    o.set_initOutputFlag(t.initOutputFlag);
    o.set_reserved(t.reserved);
    o.set_singleCoreBatch(t.singleCoreBatch);
    o.set_singleCoreM(t.singleCoreM);
    o.set_singleCoreCin(t.singleCoreCin);
    return 0;
  }
  int64_t GetTiling(AscendC::tiling::Conv3DBackpropInputTilingData& tiling) {
    AscendC::tiling::TConv3DBackpropInputTiling t{};
    if (!Compute(t)) return -1;
    tiling.conv3DDxTiling = t;
    return 0;
  }

  bool SetWeightShape(int64_t cout, int64_t cin, int64_t d, int64_t h, int64_t w) {
    if (!AllPositive(cout, cin, d, h, w)) return false;
    Store(w_, weight_shape_set_, cout, cin, d, h, w);
    return true;
  }
  bool SetInputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) {
    if (!AllPositive(n, c, d, h, w)) return false;
    Store(x_, input_shape_set_, n, c, d, h, w);
    return true;
  }
  bool SetGradOutputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) {
    if (!AllPositive(n, c, d, h, w)) return false;
    Store(dy_, grad_output_shape_set_, n, c, d, h, w);
    return true;
  }
  bool SetOutputPadding(int64_t outputPadD, int64_t outputPadH, int64_t outputPadW) {
    if (outputPadD < 0 || outputPadH < 0 || outputPadW < 0) return false;
    out_pad_[0] = outputPadD; out_pad_[1] = outputPadH; out_pad_[2] = outputPadW;
    return true;
  }

 protected:
  // Fills `t`; false when a documented constraint fails or nothing fits.
  bool Compute(AscendC::tiling::TConv3DBackpropInputTiling& t) const {
    using ConvCommonApi::ConvDtype;
    using ConvCommonApi::ConvFormat;
    using ConvCommonApi::TPosition;
    if (!weight_shape_set_ || !grad_output_shape_set_) return false;
    if (weight_.pos != TPosition::GM || weight_.format != ConvFormat::FRACTAL_Z_3D) return false;
    if (grad_output_.pos != TPosition::GM || grad_output_.format != ConvFormat::NDC1HWC0) return false;
    if (input_.pos != TPosition::GM || input_.format != ConvFormat::NDC1HWC0) return false;
    if (weight_.dtype != ConvDtype::FLOAT16 && weight_.dtype != ConvDtype::BF16) return false;
    if (grad_output_.dtype != weight_.dtype || input_.dtype != weight_.dtype) return false;
    if (!StridesPadsDilationsValid()) return false;
    if (w_[0] != dy_[1]) return false;
    const int64_t k[3] = {w_[2], w_[3], w_[4]};
    int64_t in[5];
    if (input_shape_set_) {
      for (int i = 0; i < 5; ++i) in[i] = x_[i];
    } else {   // Conv3DTranspose: the input shape follows from the grad output and the output padding
      in[0] = dy_[0];
      in[1] = w_[1];
      for (int i = 0; i < 3; ++i) {
        in[2 + i] = (dy_[2 + i] - 1) * stride_[i] - pad_[2 * i] - pad_[2 * i + 1] + dil_[i] * (k[i] - 1) +
                    out_pad_[i] + 1;
        if (in[2 + i] <= 0) return false;
      }
    }
    if (in[0] != dy_[0] || in[1] != w_[1]) return false;
    for (int i = 0; i < 3; ++i) {
      if (ForwardOutLen(i, in[2 + i], k[i]) != dy_[2 + i]) {
        return false;
      }
    }

    // The split. GradInput (M = Hi * Wi of one depth, N = Cin) = GradOutput (M x K) x Weight (K x N),
    // K = Cout1 * KH * KW * C0 for each KD tap; C0 = 16 (half / bfloat16_t).
    constexpr uint64_t c0 = 16, esz = 2;
    const uint64_t cout1 = npukb::convbp::ceil_div(static_cast<uint64_t>(dy_[1]), c0);
    const uint64_t cin1 = npukb::convbp::ceil_div(static_cast<uint64_t>(in[1]), c0);
    const uint64_t m = static_cast<uint64_t>(in[3] * in[4]);
    const uint64_t k_blocks = cout1 * static_cast<uint64_t>(w_[3] * w_[4]);   // C0-wide K blocks of one KD tap
    uint64_t base_n = std::min<uint64_t>(cin1 * c0, 128);
    uint64_t base_m = std::min<uint64_t>(npukb::convbp::align_up(m, 16), 128);
    while (base_m * base_n * 4 * 2 > platform_.l0CSize && base_m > 16) base_m -= 16;   // L0C, double-buffered
    if (base_m * base_n * 4 * 2 > platform_.l0CSize) return false;
    // baseK: the largest multiple of C0 dividing the K of one tap whose A and B blocks fit half of L0A / L0B
    // and whose A and B panels fit L1, double-buffered.
    uint64_t base_k = 0;
    for (uint64_t g = k_blocks; g >= 1; --g) {
      if (k_blocks % g != 0) continue;
      const uint64_t kk = g * c0;
      if (base_m * kk * esz * 2 <= platform_.l0ASize && base_n * kk * esz * 2 <= platform_.l0BSize &&
          (base_m + base_n) * kk * esz * 2 <= platform_.l1Size) {
        base_k = kk;
        break;
      }
    }
    if (base_k == 0) return false;
    // stepKa = stepKb: the most baseK panels of A and B that fit L1, double-buffered.
    const uint64_t k_steps = k_blocks * c0 / base_k;
    uint64_t step_k = 0;
    for (uint64_t s = k_steps; s >= 1; --s) {
      if (k_steps % s != 0) continue;
      if ((base_m + base_n) * base_k * s * esz * 2 <= platform_.l1Size) {
        step_k = s;
        break;
      }
    }
    if (step_k == 0) return false;

    t = AscendC::tiling::TConv3DBackpropInputTiling{};
    t.batch = static_cast<uint32_t>(dy_[0]);
    t.cin = static_cast<uint32_t>(in[1]);
    t.cout = static_cast<uint32_t>(dy_[1]);
    t.cout1 = static_cast<uint32_t>(cout1);
    t.cin1 = static_cast<uint32_t>(cin1);
    t.cout1G = t.cout1;
    t.cin1G = t.cin1;
    t.c0 = static_cast<uint32_t>(c0);
    t.c0Bits = 4;
    t.dout = static_cast<uint32_t>(dy_[2]);
    t.ho = static_cast<uint32_t>(dy_[3]);
    t.wo = static_cast<uint32_t>(dy_[4]);
    t.di = static_cast<uint32_t>(in[2]);
    t.hi = static_cast<uint32_t>(in[3]);
    t.wi = static_cast<uint32_t>(in[4]);
    FillKernelStridesPadsDilations(t);
    // The padding of the (stride-dilated) grad output in the transposed convolution: the dilated kernel
    // span minus one, less the forward padding.
    t.backpropPadTail = static_cast<int32_t>(dil_[0] * (w_[2] - 1) - pad_[1]);
    t.backpropPadUp = static_cast<int32_t>(dil_[1] * (w_[3] - 1) - pad_[2]);
    t.backpropPadDown = static_cast<int32_t>(dil_[1] * (w_[3] - 1) - pad_[3]);
    t.backpropPadLeft = static_cast<int32_t>(dil_[2] * (w_[4] - 1) - pad_[4]);
    t.backpropPadRight = static_cast<int32_t>(dil_[2] * (w_[4] - 1) - pad_[5]);
    t.al0Pbuffer = 2;
    t.bl0Pbuffer = 2;
    t.cl0Pbuffer = 2;
    t.al1Pbuffer = 2;
    t.bl1Pbuffer = 2;
    t.singleCoreGroup = 1;
    t.singleCoreCout = t.cout;
    t.singleCoreCout1 = t.cout1;
    t.singleCoreCin1 = t.cin1;
    t.singleCoreDin = t.di;
    t.singleCoreHo = t.ho;
    t.baseM = static_cast<uint32_t>(base_m);
    t.baseK = static_cast<uint32_t>(base_k);
    t.baseN = static_cast<uint32_t>(base_n);
    t.baseD = 1;
    t.baseBatch = 1;
    t.baseGroup = 1;
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = static_cast<uint32_t>(step_k);
    t.stepKb = static_cast<uint32_t>(step_k);
    t.stepBatch = 1;
    t.stepGroup = 1;
    t.iterateOrder = 0;
    t.hf32Flag = 0;
    t.initOutputFlag = 0;
    t.reserved = 0;
    t.singleCoreBatch = t.batch;
    t.singleCoreM = m;
    t.singleCoreCin = t.cin;
    return true;
  }

  int64_t out_pad_[3] = {0, 0, 0};
};

class Conv3DBpInputTiling : public Conv3DBpInputTilingBase {
 public:
  Conv3DBpInputTiling() = default;
  explicit Conv3DBpInputTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : Conv3DBpInputTilingBase(ascendcPlatform) {}
  explicit Conv3DBpInputTiling(const PlatformInfo& platform) : Conv3DBpInputTilingBase(platform) {}
  ~Conv3DBpInputTiling() override = default;
};

}  // namespace ConvBackpropApi
