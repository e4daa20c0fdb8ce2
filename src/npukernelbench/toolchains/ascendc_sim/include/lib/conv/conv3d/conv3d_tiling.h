// lib/conv/conv3d/conv3d_tiling.h -- host-side Conv3D tiling: optiling::TConv3DApiTiling (the tiling-data
// class of TConv3DApiTiling, same byte layout as the kernel struct in npukb_sim/conv_tiling_structs.h)
// and the calculator Conv3dTilingApi::Conv3dTiling (Conv3dTilingBase). GetTiling checks the documented
// constraints (required setters called; positions, formats and dtype combinations the Atlas A2/A3
// Conv3D takes; groups 1; strides and dilations >= 1; a non-empty output; single-core shapes within the
// original ones) and returns -1 when one fails or no split fits the cube core's L1 / L0 buffers. The
// split itself (mL0 / nL0 / kL0, the L1 panels, full-load flags, the MN order) is this simulator's choice,
// described in docs/simulator.md. Header-only. Clean-room part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/conv_common_types.h"
#include "npukb_sim/conv_geometry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TConv3DApiTiling)
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreDo);
  TILING_DATA_FIELD_DEF(uint32_t, singleCoreCo);
  TILING_DATA_FIELD_DEF(uint64_t, singleCoreM);
  TILING_DATA_FIELD_DEF(uint64_t, orgDo);
  TILING_DATA_FIELD_DEF(uint32_t, orgCo);
  TILING_DATA_FIELD_DEF(uint64_t, orgHo);
  TILING_DATA_FIELD_DEF(uint64_t, orgWo);
  TILING_DATA_FIELD_DEF(uint32_t, orgCi);
  TILING_DATA_FIELD_DEF(uint64_t, orgDi);
  TILING_DATA_FIELD_DEF(uint64_t, orgHi);
  TILING_DATA_FIELD_DEF(uint64_t, orgWi);
  TILING_DATA_FIELD_DEF(uint32_t, kernelD);
  TILING_DATA_FIELD_DEF(uint32_t, kernelH);
  TILING_DATA_FIELD_DEF(uint32_t, kernelW);
  TILING_DATA_FIELD_DEF(uint32_t, strideD);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, dilationD);
  TILING_DATA_FIELD_DEF(uint32_t, dilationH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationW);
  TILING_DATA_FIELD_DEF(uint32_t, padHead);
  TILING_DATA_FIELD_DEF(uint32_t, padTail);
  TILING_DATA_FIELD_DEF(uint32_t, padUp);
  TILING_DATA_FIELD_DEF(uint32_t, padDown);
  TILING_DATA_FIELD_DEF(uint32_t, padLeft);
  TILING_DATA_FIELD_DEF(uint32_t, padRight);
  TILING_DATA_FIELD_DEF(uint32_t, mL0);
  TILING_DATA_FIELD_DEF(uint32_t, kL0);
  TILING_DATA_FIELD_DEF(uint32_t, nL0);
  TILING_DATA_FIELD_DEF(uint32_t, kAL1);
  TILING_DATA_FIELD_DEF(uint32_t, kBL1);
  TILING_DATA_FIELD_DEF(uint32_t, nBL1);
  TILING_DATA_FIELD_DEF(uint32_t, mAL1);
  TILING_DATA_FIELD_DEF(uint8_t, al1FullLoad);
  TILING_DATA_FIELD_DEF(uint8_t, bl1FullLoad);
  TILING_DATA_FIELD_DEF(uint8_t, iterateMNOrder);
  TILING_DATA_FIELD_DEF(uint8_t, biasFullLoadFlag);

 public:
  bool NpukbBuiltin() const override { return true; }
END_TILING_DATA_DEF;
}  // namespace optiling

namespace Conv3dTilingApi {

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
  uint64_t btSize = 0;
  uint64_t fbSize = 0;
};

namespace sim {
using npukb::conv::align_up;
using npukb::conv::ceil_div;
using npukb::conv::out_len;
using npukb::conv::TypeDesc;
inline uint64_t dtype_bytes(ConvCommonApi::ConvDtype d) {
  return d == ConvCommonApi::ConvDtype::FLOAT32 ? 4 : 2;
}
}  // namespace sim

class Conv3dTilingBase {
 public:
  explicit Conv3dTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
    platform_.socVersion = ascendcPlatform.GetSocVersion();
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, platform_.l1Size);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, platform_.l0ASize);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, platform_.l0BSize);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, platform_.l0CSize);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, platform_.ubSize);
    platform_.btSize = 1024;
    platform_.fbSize = 2048;
  }
  explicit Conv3dTilingBase(const PlatformInfo& platform) : platform_(platform) {}
  virtual ~Conv3dTilingBase() = default;

  virtual int64_t GetTiling(AscendC::tiling::TConv3DApiTiling& tiling) {
    AscendC::tiling::TConv3DApiTiling t{};
    if (!Compute(t)) return -1;
    tiling = t;
    return 0;
  }
  virtual int64_t GetTiling(optiling::TConv3DApiTiling& tiling) {
    AscendC::tiling::TConv3DApiTiling t{};
    if (!Compute(t)) return -1;
    tiling.set_groups(t.groups);
    tiling.set_singleCoreDo(t.singleCoreDo);
    tiling.set_singleCoreCo(t.singleCoreCo);
    tiling.set_singleCoreM(t.singleCoreM);
    tiling.set_orgDo(t.orgDo);
    tiling.set_orgCo(t.orgCo);
    tiling.set_orgHo(t.orgHo);
    tiling.set_orgWo(t.orgWo);
    tiling.set_orgCi(t.orgCi);
    tiling.set_orgDi(t.orgDi);
    tiling.set_orgHi(t.orgHi);
    tiling.set_orgWi(t.orgWi);
    tiling.set_kernelD(t.kernelD);
    tiling.set_kernelH(t.kernelH);
    tiling.set_kernelW(t.kernelW);
    tiling.set_strideD(t.strideD);
    tiling.set_strideH(t.strideH);
    tiling.set_strideW(t.strideW);
    tiling.set_dilationD(t.dilationD);
    tiling.set_dilationH(t.dilationH);
    tiling.set_dilationW(t.dilationW);
    tiling.set_padHead(t.padHead);
    tiling.set_padTail(t.padTail);
    tiling.set_padUp(t.padUp);
    tiling.set_padDown(t.padDown);
    tiling.set_padLeft(t.padLeft);
    tiling.set_padRight(t.padRight);
    tiling.set_mL0(t.mL0);
    tiling.set_kL0(t.kL0);
    tiling.set_nL0(t.nL0);
    tiling.set_kAL1(t.kAL1);
    tiling.set_kBL1(t.kBL1);
    tiling.set_nBL1(t.nBL1);
    tiling.set_mAL1(t.mAL1);
    tiling.set_al1FullLoad(t.al1FullLoad);
    tiling.set_bl1FullLoad(t.bl1FullLoad);
    tiling.set_iterateMNOrder(t.iterateMNOrder);
    tiling.set_biasFullLoadFlag(t.biasFullLoadFlag);
    return 0;
  }

  void SetOrgWeightShape(int64_t orgCo, int64_t orgKd, int64_t orgKh, int64_t orgKw) {
    org_co_ = orgCo; kd_ = orgKd; kh_ = orgKh; kw_ = orgKw; org_weight_set_ = true;
  }
  void SetOrgInputShape(int64_t orgCi, int64_t orgDi, int64_t orgHi, int64_t orgWi) {
    org_ci_ = orgCi; org_di_ = orgDi; org_hi_ = orgHi; org_wi_ = orgWi; org_input_set_ = true;
  }
  void SetSingleWeightShape(int64_t singleCi, int64_t singleKd, int64_t singleKh, int64_t singleKw) {
    single_ci_ = singleCi; single_kd_ = singleKd; single_kh_ = singleKh; single_kw_ = singleKw; single_weight_set_ = true;
  }
  void SetSingleOutputShape(int64_t singleCo, int64_t singleDo, int64_t singleM) {
    single_co_ = singleCo; single_do_ = singleDo; single_m_ = singleM; single_output_set_ = true;
  }
  void SetInputType(const ConvCommonApi::TPosition pos, const ConvCommonApi::ConvFormat format,
                    const ConvCommonApi::ConvDtype dtype) { input_ = {pos, format, dtype}; }
  void SetWeightType(const ConvCommonApi::TPosition pos, const ConvCommonApi::ConvFormat format,
                     const ConvCommonApi::ConvDtype dtype) { weight_ = {pos, format, dtype}; }
  void SetBiasType(const ConvCommonApi::TPosition pos, const ConvCommonApi::ConvFormat format,
                   const ConvCommonApi::ConvDtype dtype) { bias_ = {pos, format, dtype}; has_bias_ = true; }
  void SetOutputType(const ConvCommonApi::TPosition pos, const ConvCommonApi::ConvFormat format,
                     const ConvCommonApi::ConvDtype dtype) { output_ = {pos, format, dtype}; }
  void SetPadding(int64_t padHead, int64_t padTail, int64_t padUp, int64_t padDown, int64_t padLeft, int64_t padRight) {
    pad_[0] = padHead; pad_[1] = padTail; pad_[2] = padUp; pad_[3] = padDown; pad_[4] = padLeft; pad_[5] = padRight;
  }
  void SetDilation(int64_t dilationD, int64_t dilationH, int64_t dilationW) {
    dil_[0] = dilationD; dil_[1] = dilationH; dil_[2] = dilationW;
  }
  void SetStride(int64_t strideD, int64_t strideH, int64_t strideW) {
    stride_[0] = strideD; stride_[1] = strideH; stride_[2] = strideW;
  }
  void SetGroups(int64_t groups) { groups_ = groups; }

 protected:
  // Fills `t` (a kernel-layout struct); false when a documented constraint fails or nothing fits.
  bool Compute(AscendC::tiling::TConv3DApiTiling& t) const {
    using ConvCommonApi::ConvDtype;
    using ConvCommonApi::ConvFormat;
    using ConvCommonApi::TPosition;
    if (!org_input_set_ || !org_weight_set_ || !single_weight_set_ || !single_output_set_) return false;
    if (input_.pos != TPosition::GM || input_.format != ConvFormat::NDC1HWC0) return false;
    if (weight_.pos != TPosition::GM || weight_.format != ConvFormat::FRACTAL_Z_3D) return false;
    if (output_.pos != TPosition::CO1 || output_.format != ConvFormat::NDC1HWC0) return false;
    if (has_bias_ && (bias_.pos != TPosition::GM || bias_.format != ConvFormat::ND)) return false;
    const bool f16 = input_.dtype == ConvDtype::FLOAT16 && weight_.dtype == ConvDtype::FLOAT16 &&
                     output_.dtype == ConvDtype::FLOAT16 && (!has_bias_ || bias_.dtype == ConvDtype::FLOAT16);
    const bool bf16 = input_.dtype == ConvDtype::BF16 && weight_.dtype == ConvDtype::BF16 &&
                      output_.dtype == ConvDtype::BF16 && (!has_bias_ || bias_.dtype == ConvDtype::FLOAT32);
    if (!f16 && !bf16) return false;
    if (groups_ != 1) return false;
    for (int i = 0; i < 3; ++i) {
      if (stride_[i] < 1 || dil_[i] < 1) return false;
    }
    for (int i = 0; i < 6; ++i) {
      if (pad_[i] < 0) return false;
    }
    const int64_t dims[] = {org_ci_, org_di_, org_hi_, org_wi_, org_co_, kd_, kh_, kw_, single_ci_, single_kd_,
                            single_kh_, single_kw_, single_co_, single_do_, single_m_};
    for (int64_t v : dims) {
      if (v <= 0) return false;
    }
    const int64_t od = sim::out_len(org_di_, pad_[0], pad_[1], kd_, dil_[0], stride_[0]);
    const int64_t oh = sim::out_len(org_hi_, pad_[2], pad_[3], kh_, dil_[1], stride_[1]);
    const int64_t ow = sim::out_len(org_wi_, pad_[4], pad_[5], kw_, dil_[2], stride_[2]);
    if (od <= 0 || oh <= 0 || ow <= 0) return false;
    if (single_ci_ != org_ci_ || single_kd_ != kd_ || single_kh_ != kh_ || single_kw_ != kw_) return false;
    if (single_co_ > org_co_ || single_do_ > od || single_m_ > oh * ow) return false;

    // The split: C0 = 32 bytes of the input type; K = KD * Cin1 * KH * KW * C0.
    const uint64_t esz = sim::dtype_bytes(input_.dtype);
    const uint64_t c0 = 32 / esz;
    const uint64_t cin1 = sim::ceil_div(static_cast<uint64_t>(org_ci_), c0);
    const uint64_t khw = static_cast<uint64_t>(kh_ * kw_);
    const uint64_t n16 = sim::align_up(static_cast<uint64_t>(single_co_), 16);
    const uint64_t m16 = sim::align_up(static_cast<uint64_t>(single_m_), 16);
    uint64_t nl0 = std::min<uint64_t>(n16, 128);
    uint64_t ml0 = std::min<uint64_t>(m16, 128);
    // L0C holds mL0 x nL0 float partial sums, double-buffered.
    while (ml0 * nl0 * 4 * 2 > platform_.l0CSize && ml0 > 16) ml0 -= 16;
    const uint64_t bias_bytes = has_bias_ ? n16 * 4 : 0;
    // L1: one input panel (mAL1 rows of the img2col matrix, kAL1 wide) and one weight panel (nBL1 x kBL1),
    // double-buffered, plus the bias. Cin1InL1 is the largest divisor of KD * Cin1 that fits.
    const uint64_t mal1 = ml0, nbl1 = nl0;
    const uint64_t kdcin1 = static_cast<uint64_t>(kd_) * cin1;
    uint64_t cin1_l1 = 0;
    for (uint64_t c = kdcin1; c >= 1; --c) {
      if (kdcin1 % c != 0) continue;
      const uint64_t k = c * khw * c0;
      if ((mal1 + nbl1) * k * esz * 2 + bias_bytes <= platform_.l1Size) { cin1_l1 = c; break; }
    }
    if (cin1_l1 == 0) return false;
    const uint64_t kl1 = cin1_l1 * khw * c0;
    // kL0: the largest multiple of C0 dividing kAL1 whose A and B blocks fit half of L0A / L0B.
    uint64_t kl0 = 0;
    for (uint64_t g = kl1 / c0; g >= 1; --g) {
      if ((kl1 / c0) % g != 0) continue;
      const uint64_t k = g * c0;
      if (ml0 * k * esz * 2 <= platform_.l0ASize && nl0 * k * esz * 2 <= platform_.l0BSize) { kl0 = k; break; }
    }
    if (kl0 == 0) return false;
    const uint64_t k_total = kdcin1 * khw * c0;

    t = AscendC::tiling::TConv3DApiTiling{};
    t.groups = static_cast<uint32_t>(groups_);
    t.singleCoreDo = static_cast<uint64_t>(single_do_);
    t.singleCoreCo = static_cast<uint32_t>(single_co_);
    t.singleCoreM = static_cast<uint64_t>(single_m_);
    t.orgDo = static_cast<uint64_t>(od);
    t.orgCo = static_cast<uint32_t>(org_co_);
    t.orgHo = static_cast<uint64_t>(oh);
    t.orgWo = static_cast<uint64_t>(ow);
    t.orgCi = static_cast<uint32_t>(org_ci_);
    t.orgDi = static_cast<uint64_t>(org_di_);
    t.orgHi = static_cast<uint64_t>(org_hi_);
    t.orgWi = static_cast<uint64_t>(org_wi_);
    t.kernelD = static_cast<uint32_t>(kd_);
    t.kernelH = static_cast<uint32_t>(kh_);
    t.kernelW = static_cast<uint32_t>(kw_);
    t.strideD = static_cast<uint32_t>(stride_[0]);
    t.strideH = static_cast<uint32_t>(stride_[1]);
    t.strideW = static_cast<uint32_t>(stride_[2]);
    t.dilationD = static_cast<uint32_t>(dil_[0]);
    t.dilationH = static_cast<uint32_t>(dil_[1]);
    t.dilationW = static_cast<uint32_t>(dil_[2]);
    t.padHead = static_cast<uint32_t>(pad_[0]);
    t.padTail = static_cast<uint32_t>(pad_[1]);
    t.padUp = static_cast<uint32_t>(pad_[2]);
    t.padDown = static_cast<uint32_t>(pad_[3]);
    t.padLeft = static_cast<uint32_t>(pad_[4]);
    t.padRight = static_cast<uint32_t>(pad_[5]);
    t.mL0 = static_cast<uint32_t>(ml0);
    t.kL0 = static_cast<uint32_t>(kl0);
    t.nL0 = static_cast<uint32_t>(nl0);
    t.kAL1 = static_cast<uint32_t>(kl1);
    t.kBL1 = static_cast<uint32_t>(kl1);
    t.nBL1 = static_cast<uint32_t>(nbl1);
    t.mAL1 = static_cast<uint32_t>(mal1);
    t.al1FullLoad = (kl1 == k_total && mal1 >= m16) ? 1 : 0;
    t.bl1FullLoad = (kl1 == k_total && nbl1 >= n16) ? 1 : 0;
    // M first when the output has more M blocks than N blocks (the weight panel then stays in L1).
    t.iterateMNOrder = m16 >= n16 ? 0 : 1;
    t.biasFullLoadFlag = (has_bias_ && bias_bytes <= platform_.btSize) ? 1 : 0;
    return true;
  }

  PlatformInfo platform_{};
  int64_t org_co_ = 0, kd_ = 0, kh_ = 0, kw_ = 0;
  int64_t org_ci_ = 0, org_di_ = 0, org_hi_ = 0, org_wi_ = 0;
  int64_t single_ci_ = 0, single_kd_ = 0, single_kh_ = 0, single_kw_ = 0;
  int64_t single_co_ = 0, single_do_ = 0, single_m_ = 0;
  bool org_weight_set_ = false, org_input_set_ = false, single_weight_set_ = false, single_output_set_ = false;
  sim::TypeDesc input_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, ConvCommonApi::ConvDtype::FLOAT16};
  sim::TypeDesc weight_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                        ConvCommonApi::ConvDtype::FLOAT16};
  sim::TypeDesc bias_{ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::ND, ConvCommonApi::ConvDtype::FLOAT16};
  sim::TypeDesc output_{ConvCommonApi::TPosition::CO1, ConvCommonApi::ConvFormat::NDC1HWC0,
                        ConvCommonApi::ConvDtype::FLOAT16};
  bool has_bias_ = false;
  int64_t pad_[6] = {0, 0, 0, 0, 0, 0};
  int64_t dil_[3] = {1, 1, 1};
  int64_t stride_[3] = {1, 1, 1};
  int64_t groups_ = 1;
};

class Conv3dTiling : public Conv3dTilingBase {
 public:
  explicit Conv3dTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform) : Conv3dTilingBase(ascendcPlatform) {}
  explicit Conv3dTiling(const PlatformInfo& platform) : Conv3dTilingBase(platform) {}
  ~Conv3dTiling() override = default;
};

}  // namespace Conv3dTilingApi
