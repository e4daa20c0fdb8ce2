// lib/conv_backprop/conv_bp_tiling_common.h -- the host-side pieces the convolution backprop tilings share:
// ConvBackpropApi::PlatformInfo (the per-core memory sizes a tiling object may be built from) and the
// simulator's npukb::convbp::TilingCommon, the base of Conv3dBpFilterTilingBase and Conv3DBpInputTilingBase
// holding what they have in common: the platform's sizes, the three shapes (Weight, Input, GradOutput),
// the three tensors' positions / formats / dtypes with their setters, the padding / stride / dilation
// setters, and the checks on them (strides and dilations >= 1, pads >= 0, the GradOutput extents the
// forward convolution gives). Header-only. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "lib/conv/conv_common_types.h"
#include "npukb_sim/conv_geometry.h"
#include "tiling/platform/platform_ascendc.h"

namespace ConvBackpropApi {
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};
}  // namespace ConvBackpropApi

namespace npukb {
namespace convbp {
using npukb::conv::align_up;
using npukb::conv::ceil_div;
using npukb::conv::out_len;
using npukb::conv::TypeDesc;

// The state and setters both backprop tiling calculators share. Shapes are [N or Cout, C or Cin, D, H, W];
// pads [front, back, up, down, left, right]; strides and dilations [D, H, W].
class TilingCommon {
 public:
  virtual ~TilingCommon() = default;

  void SetWeightType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format, ConvCommonApi::ConvDtype dtype) {
    weight_ = {pos, format, dtype};
  }
  void SetInputType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format, ConvCommonApi::ConvDtype dtype) {
    input_ = {pos, format, dtype};
  }
  void SetGradOutputType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format,
                         ConvCommonApi::ConvDtype dtype) {
    grad_output_ = {pos, format, dtype};
  }
  void SetPadding(int64_t padFront, int64_t padBack, int64_t padUp, int64_t padDown, int64_t padLeft,
                  int64_t padRight) {
    pad_[0] = padFront; pad_[1] = padBack; pad_[2] = padUp; pad_[3] = padDown; pad_[4] = padLeft; pad_[5] = padRight;
  }
  void SetStride(int64_t strideD, int64_t strideH, int64_t strideW) {
    stride_[0] = strideD; stride_[1] = strideH; stride_[2] = strideW;
  }
  void SetDilation(int64_t dilationD, int64_t dilationH, int64_t dilationW) {
    dil_[0] = dilationD; dil_[1] = dilationH; dil_[2] = dilationW;
  }

 protected:
  // `weight_dtype`: the Weight's default dtype (the other two default to FLOAT16 NDC1HWC0 in GM).
  TilingCommon(ConvCommonApi::ConvDtype weight_dtype, const platform_ascendc::PlatformAscendC& p) : TilingCommon(weight_dtype) {
    platform_.socVersion = p.GetSocVersion();
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, platform_.l1Size);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, platform_.l0ASize);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, platform_.l0BSize);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, platform_.l0CSize);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, platform_.ubSize);
  }
  TilingCommon(ConvCommonApi::ConvDtype weight_dtype, const ConvBackpropApi::PlatformInfo& platform)
      : TilingCommon(weight_dtype) {
    platform_ = platform;
  }

  static bool AllPositive(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e) {
    return a > 0 && b > 0 && c > 0 && d > 0 && e > 0;
  }
  static void Store(int64_t (&dst)[5], bool& set, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e) {
    dst[0] = a; dst[1] = b; dst[2] = c; dst[3] = d; dst[4] = e; set = true;
  }
  // Strides and dilations >= 1, pads >= 0.
  bool StridesPadsDilationsValid() const {
    for (int i = 0; i < 3; ++i) {
      if (stride_[i] < 1 || dil_[i] < 1) return false;
    }
    for (int i = 0; i < 6; ++i) {
      if (pad_[i] < 0) return false;
    }
    return true;
  }
  // The forward output extent of spatial axis `axis` (0 D, 1 H, 2 W) of an input extent `in` and kernel `k`.
  int64_t ForwardOutLen(int axis, int64_t in, int64_t k) const {
    return out_len(in, pad_[2 * axis], pad_[2 * axis + 1], k, dil_[axis], stride_[axis]);
  }

  // The tiling fields both tilings have with the same meaning: the kernel extents, one group, the strides,
  // the paddings and the dilations.
  template <class T>
  void FillKernelStridesPadsDilations(T& t) const {
    t.dk = static_cast<uint32_t>(w_[2]);
    t.hk = static_cast<uint32_t>(w_[3]);
    t.wk = static_cast<uint32_t>(w_[4]);
    t.group = 1;
    t.strideD = static_cast<uint32_t>(stride_[0]);
    t.strideH = static_cast<uint32_t>(stride_[1]);
    t.strideW = static_cast<uint32_t>(stride_[2]);
    t.padFront = static_cast<uint32_t>(pad_[0]);
    t.padBack = static_cast<uint32_t>(pad_[1]);
    t.padUp = static_cast<uint32_t>(pad_[2]);
    t.padDown = static_cast<uint32_t>(pad_[3]);
    t.padLeft = static_cast<uint32_t>(pad_[4]);
    t.padRight = static_cast<uint32_t>(pad_[5]);
    t.dilationD = static_cast<uint32_t>(dil_[0]);
    t.dilationH = static_cast<uint32_t>(dil_[1]);
    t.dilationW = static_cast<uint32_t>(dil_[2]);
  }

  ConvBackpropApi::PlatformInfo platform_{};
  int64_t w_[5] = {0, 0, 0, 0, 0};    // Weight [Cout, Cin, Dk, Hk, Wk]
  int64_t x_[5] = {0, 0, 0, 0, 0};    // Input [N, Cin, Di, Hi, Wi]
  int64_t dy_[5] = {0, 0, 0, 0, 0};   // GradOutput [N, Cout, Dout, Ho, Wo]
  bool weight_shape_set_ = false, input_shape_set_ = false, grad_output_shape_set_ = false;
  TypeDesc weight_;
  TypeDesc input_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, ConvCommonApi::ConvDtype::FLOAT16};
  TypeDesc grad_output_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,
                        ConvCommonApi::ConvDtype::FLOAT16};
  int64_t pad_[6] = {0, 0, 0, 0, 0, 0};
  int64_t stride_[3] = {1, 1, 1};
  int64_t dil_[3] = {1, 1, 1};

 private:
  explicit TilingCommon(ConvCommonApi::ConvDtype weight_dtype)
      : weight_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D, weight_dtype} {}
};
}  // namespace convbp
}  // namespace npukb
