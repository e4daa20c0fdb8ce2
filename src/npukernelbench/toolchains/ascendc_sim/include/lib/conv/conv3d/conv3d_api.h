// lib/conv/conv3d/conv3d_api.h -- the Conv3D high-level API, kernel side (Conv3dApi::Conv3D).
//
// Model: one call of IterateAll computes, for one batch, the single-core block of the output
// (singleCoreCo x singleCoreDo x singleCoreM, M = Hout * Wout flattened) of a 3-D convolution with the
// tiling's padding, stride and dilation, plus the bias when SetBias was called:
//   out[co][do][m] = bias[co] + sum_{kd, ci, kh, kw} in[di][ci][hi][wi] * w[co][ci][kd][kh][kw]
// with di = diStartPos + do * strideD + kd * dilationD - padHead, (ho, wo) = divmod(mStartPos + m, Wout),
// hi = ho * strideH + kh * dilationH - padUp, wi = wo * strideW + kw * dilationW - padLeft (taps outside
// the input read 0). Formats: Input NDC1HWC0 [Din][Cin1][Hin][Win][C0] of the original shape, addressed
// from the tensor given to SetInput (the batch's start); Weight FRACTAL_Z_3D [KD * Cin1 * KH * KW]
// [Cout1][16][C0] (row stride the original Cout1), addressed from the tensor given to SetWeight (offset to
// the core's first Cout); Output NDC1HWC0 [Dout][Cout1][Hout * Wout][C0] of the original shape, written
// from the tensor given to IterateAll (the core's first output element); Bias ND [singleCoreCo]. C0 is 16
// (32 bytes of half / bfloat16_t). Products accumulate in float in K order (KD, Cin1, KH, KW, C0); the
// result is rounded once to the output type. Only the real channels are written (the C0 lanes past Cout
// keep what GM holds). The cube time charged is an estimate from the tiling's L0 / L1 blocks (the Matmul
// server's accounting, lib/matmul/matmul_server.h). Clean-room part of ascendc-sim, written from the
// public API documentation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/conv_common_types.h"
#include "lib/matmul/matmul_server.h"

// The pages' examples name ConvFormat unqualified.
using ConvCommonApi::ConvFormat;

namespace ConvApi {

template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename TYPE>
struct ConvType {
  constexpr static AscendC::TPosition pos = POSITION;
  constexpr static ConvCommonApi::ConvFormat format = FORMAT;
  using T = TYPE;
};

struct ConvParam {
  __aicore__ inline ConvParam() {}
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class OUTPUT_TYPE, class BIAS_TYPE, class CONV_CFG>
struct ConvDataType {
  using SrcAType = INPUT_TYPE;
  using SrcBType = WEIGHT_TYPE;
  using DstType = OUTPUT_TYPE;
  using BiasType = BIAS_TYPE;
  using ConvParam = CONV_CFG;
};

template <class ConvDataType>
struct ConvConfig {
  using SrcAType = typename ConvDataType::SrcAType;
  using SrcBType = typename ConvDataType::SrcBType;
  using DstType = typename ConvDataType::DstType;
  using BiasType = typename ConvDataType::BiasType;
  using SrcAT = typename SrcAType::T;
  using SrcBT = typename SrcBType::T;
  using DstT = typename DstType::T;
  using BiasT = typename BiasType::T;
  using L0cT = float;
  using ConvParam = typename ConvDataType::ConvParam;
  struct ContextData {
    __aicore__ inline ContextData() {}
  };
};

}  // namespace ConvApi

namespace Conv3dApi {

struct Conv3dParam : public ConvApi::ConvParam {
  __aicore__ inline Conv3dParam() {}
};

template <class ConvDataType>
struct Conv3dCfg : public ConvApi::ConvConfig<ConvDataType> {
 public:
  __aicore__ inline Conv3dCfg() {}
  using ContextData = struct _ : public ConvApi::ConvConfig<ConvDataType>::ContextData {
    __aicore__ inline _() {}
  };
};

namespace sim {
// The bias type of a Conv3D without a bias (BIAS_TYPE left out): SetBias does not compile.
struct NoBias {
  constexpr static AscendC::TPosition pos = AscendC::TPosition::GM;
  constexpr static ConvCommonApi::ConvFormat format = ConvCommonApi::ConvFormat::ND;
  using T = float;
};

inline std::string num(std::uint64_t v) { return std::to_string(v); }
}  // namespace sim

template <typename Intf, class Config, bool OutputOrder>
class Conv3dApiImpl {
 public:
  using InputT = typename Config::SrcAT;
  using WeightT = typename Config::SrcBT;
  using OutputT = typename Config::DstT;
  using BiasT = typename Config::BiasT;
  using InputType = typename Config::SrcAType;
  using WeightType = typename Config::SrcBType;
  using OutputType = typename Config::DstType;
  using BiasType = typename Config::BiasType;
  static constexpr bool kHasBiasType = !std::is_same_v<BiasType, sim::NoBias>;

  static_assert(InputType::pos == AscendC::TPosition::GM && WeightType::pos == AscendC::TPosition::GM &&
                    OutputType::pos == AscendC::TPosition::GM && BiasType::pos == AscendC::TPosition::GM,
                "Conv3D: Input, Weight, Bias and Output are in TPosition::GM");
  static_assert(InputType::format == ConvCommonApi::ConvFormat::NDC1HWC0, "Conv3D: Input is NDC1HWC0");
  static_assert(WeightType::format == ConvCommonApi::ConvFormat::FRACTAL_Z_3D, "Conv3D: Weight is FRACTAL_Z_3D");
  static_assert(OutputType::format == ConvCommonApi::ConvFormat::NDC1HWC0, "Conv3D: Output is NDC1HWC0");
  static_assert(BiasType::format == ConvCommonApi::ConvFormat::ND, "Conv3D: Bias is ND");
  static_assert((std::is_same_v<InputT, half> && std::is_same_v<WeightT, half> && std::is_same_v<OutputT, half> &&
                 (!kHasBiasType || std::is_same_v<BiasT, half>)) ||
                    (std::is_same_v<InputT, bfloat16_t> && std::is_same_v<WeightT, bfloat16_t> &&
                     std::is_same_v<OutputT, bfloat16_t> && (!kHasBiasType || std::is_same_v<BiasT, float>)),
                "Conv3D: the Atlas A2/A3 type combinations are half/half/half bias/half and "
                "bfloat16_t/bfloat16_t/float bias/bfloat16_t (Input/Weight/Bias/Output)");

  static constexpr std::uint64_t kC0 = 32 / sizeof(InputT);

  void Init(const void* __restrict cubeTiling) { NPUKB_CALLER;
    if (init_) npukb::violation("Conv3D::Init", "Init is called only once", file, line);
    if (AscendC::GetTPipePtr() == nullptr) {
      npukb::violation("Conv3D::Init", "a TPipe must be initialised before Init", file, line);
    }
    if (cubeTiling == nullptr) npukb::violation("Conv3D::Init", "the tiling pointer is null", file, line);
    std::memcpy(&t_, cubeTiling, sizeof(t_));
    check_tiling(file, line);
    init_ = true;
    single_co_ = t_.singleCoreCo;
    single_do_ = t_.singleCoreDo;
    single_m_ = t_.singleCoreM;
  }
  void SetInput(const AscendC::GlobalTensor<InputT>& input) { NPUKB_CALLER;
    need_init("SetInput", file, line);
    input_ = input.GetPhyAddr();
  }
  void SetWeight(const AscendC::GlobalTensor<WeightT>& weight) { NPUKB_CALLER;
    need_init("SetWeight", file, line);
    weight_ = weight.GetPhyAddr();
  }
  void SetBias(const AscendC::GlobalTensor<BiasT>& bias) { NPUKB_CALLER;
    static_assert(kHasBiasType, "Conv3D::SetBias: the Conv3D object was declared without a BIAS_TYPE");
    need_init("SetBias", file, line);
    bias_ = bias.GetPhyAddr();
  }
  void SetInputStartPosition(int64_t diStartPos, int64_t mStartPos) { NPUKB_CALLER;
    need_init("SetInputStartPosition", file, line);
    if (mStartPos < 0) {
      npukb::violation("Conv3D::SetInputStartPosition", "mStartPos is negative (" + std::to_string(mStartPos) + ")",
                       file, line);
    }
    di_start_ = diStartPos;
    m_start_ = mStartPos;
  }
  void SetSingleOutputShape(uint64_t singleCo, uint64_t singleDo, uint64_t singleM) { NPUKB_CALLER;
    need_init("SetSingleOutputShape", file, line);
    if (singleCo == 0 || singleDo == 0 || singleM == 0 || singleCo > t_.orgCo || singleDo > t_.orgDo ||
        singleM > t_.orgHo * t_.orgWo) {
      npukb::violation("Conv3D::SetSingleOutputShape", "the single-core output (Co " + sim::num(singleCo) + ", Do " +
                       sim::num(singleDo) + ", M " + sim::num(singleM) + ") must be non-empty and within the "
                       "original output (Co " + sim::num(t_.orgCo) + ", Do " + sim::num(t_.orgDo) + ", M " +
                       sim::num(t_.orgHo * t_.orgWo) + ")", file, line);
    }
    single_co_ = singleCo;
    single_do_ = singleDo;
    single_m_ = singleM;
  }
  void IterateAll(const AscendC::GlobalTensor<OutputT>& output, bool enPartialSum = false) { NPUKB_CALLER;
    (void)enPartialSum;   // reserved by the pages
    need_init("IterateAll", file, line);
    if (input_ == nullptr) npukb::violation("Conv3D::IterateAll", "SetInput was not called", file, line);
    if (weight_ == nullptr) npukb::violation("Conv3D::IterateAll", "SetWeight was not called", file, line);
    if (m_start_ + single_m_ > t_.orgHo * t_.orgWo) {
      npukb::violation("Conv3D::IterateAll", "mStartPos + singleM (" + sim::num(m_start_ + single_m_) +
                       ") exceeds Hout * Wout (" + sim::num(t_.orgHo * t_.orgWo) + ")", file, line);
    }
    compute(output.GetPhyAddr(), file, line);
    const double end = matmul::sim::charge(cost());
    matmul::sim::wait_until(end);
    iterated_ = true;
  }
  void End() { NPUKB_CALLER;
    if (!iterated_) npukb::violation("Conv3D::End", "End is called after IterateAll", file, line);
    iterated_ = false;
  }

 private:
  void need_init(const char* api, const char* file, int line) const {
    if (!init_) npukb::violation((std::string("Conv3D::") + api).c_str(), "Init must be called first", file, line);
  }
  void check_tiling(const char* file, int line) const {
    const bool dims = t_.orgCo > 0 && t_.orgCi > 0 && t_.orgDi > 0 && t_.orgHi > 0 && t_.orgWi > 0 && t_.orgDo > 0 &&
                      t_.orgHo > 0 && t_.orgWo > 0 && t_.kernelD > 0 && t_.kernelH > 0 && t_.kernelW > 0;
    const bool steps = t_.strideD > 0 && t_.strideH > 0 && t_.strideW > 0 && t_.dilationD > 0 && t_.dilationH > 0 &&
                       t_.dilationW > 0;
    if (!dims || !steps || t_.groups != 1 || t_.mL0 == 0 || t_.nL0 == 0 || t_.kL0 == 0) {
      npukb::violation("Conv3D::Init", "the tiling is not a Conv3D tiling (zero shapes, strides, dilations or L0 "
                       "blocks, or groups other than 1): fill it with Conv3dTiling::GetTiling", file, line);
    }
  }
  std::uint64_t cin1() const { return (t_.orgCi + kC0 - 1) / kC0; }
  std::uint64_t cout1() const { return (t_.orgCo + 15) / 16; }

  void compute(OutputT* out, const char* file, int line) const {
    const std::uint64_t ci1 = cin1(), co1 = cout1(), wo = t_.orgWo, howo = t_.orgHo * t_.orgWo;
    const std::uint64_t kd = t_.kernelD, kh = t_.kernelH, kw = t_.kernelW;
    const std::uint64_t in_elems = t_.orgDi * ci1 * t_.orgHi * t_.orgWi * kC0;
    const std::uint64_t w_row = co1 * 16 * kC0;
    const std::uint64_t w_rows = kd * ci1 * kh * kw;
    const std::uint64_t co_blocks = (single_co_ + 15) / 16;
    // The weight rows this core reads: its Cout1 blocks of each K row (the last row ends at its block).
    const std::uint64_t w_elems = (w_rows - 1) * w_row + co_blocks * 16 * kC0;
    const std::uint64_t out_elems = ((single_do_ - 1) * co1 + (co_blocks - 1)) * howo * 16 + single_m_ * 16;
    npukb::check_gm(input_, in_elems * sizeof(InputT), false, "Conv3D::IterateAll (input)", file, line);
    npukb::check_gm(weight_, w_elems * sizeof(WeightT), false, "Conv3D::IterateAll (weight)", file, line);
    npukb::check_gm(out, out_elems * sizeof(OutputT), true, "Conv3D::IterateAll (output)", file, line);
    if (bias_ != nullptr) {
      npukb::check_gm(bias_, single_co_ * sizeof(BiasT), false, "Conv3D::IterateAll (bias)", file, line);
    }
    for (std::uint64_t od = 0; od < single_do_; ++od) {
      for (std::uint64_t ml = 0; ml < single_m_; ++ml) {
        const std::uint64_t m = m_start_ + ml;
        const int64_t ho = static_cast<int64_t>(m / wo), wo_i = static_cast<int64_t>(m % wo);
        for (std::uint64_t co = 0; co < single_co_; ++co) {
          float acc = 0.0f;
          for (std::uint64_t a = 0; a < kd; ++a) {
            const int64_t di = di_start_ + static_cast<int64_t>(od * t_.strideD + a * t_.dilationD) - t_.padHead;
            if (di < 0 || di >= static_cast<int64_t>(t_.orgDi)) continue;
            for (std::uint64_t c1 = 0; c1 < ci1; ++c1) {
              for (std::uint64_t b = 0; b < kh; ++b) {
                const int64_t hi = ho * t_.strideH + static_cast<int64_t>(b * t_.dilationH) - t_.padUp;
                if (hi < 0 || hi >= static_cast<int64_t>(t_.orgHi)) continue;
                for (std::uint64_t c = 0; c < kw; ++c) {
                  const int64_t wi = wo_i * t_.strideW + static_cast<int64_t>(c * t_.dilationW) - t_.padLeft;
                  if (wi < 0 || wi >= static_cast<int64_t>(t_.orgWi)) continue;
                  const InputT* x = input_ + (((static_cast<std::uint64_t>(di) * ci1 + c1) * t_.orgHi +
                                               static_cast<std::uint64_t>(hi)) * t_.orgWi +
                                              static_cast<std::uint64_t>(wi)) * kC0;
                  const WeightT* w = weight_ + (((a * ci1 + c1) * kh + b) * kw + c) * w_row + co * kC0;
                  for (std::uint64_t l = 0; l < kC0 && c1 * kC0 + l < t_.orgCi; ++l) {
                    acc += static_cast<float>(x[l]) * static_cast<float>(w[l]);
                  }
                }
              }
            }
          }
          if (bias_ != nullptr) acc += static_cast<float>(bias_[co]);
          out[((od * co1 + co / 16) * howo + ml) * 16 + co % 16] = static_cast<OutputT>(acc);
        }
      }
    }
  }

  // The estimate: the img2col matrix (M x K per output depth) times the weight (K x N) in mL0 x nL0 x kL0
  // Mmad blocks; GM traffic of the input rows the core needs (again per N panel unless the input panel is
  // fully loaded) and of the weight (again per M panel and output depth unless fully loaded); the output
  // written through the FIXPIPE.
  matmul::sim::ServerCost cost() const {
    matmul::sim::ServerCost c;
    const std::uint64_t k = t_.kernelD * cin1() * t_.kernelH * t_.kernelW * kC0;
    const std::uint64_t m16 = (single_m_ + 15) / 16, n16 = (single_co_ + 15) / 16, k0 = (k + kC0 - 1) / kC0;
    const std::uint64_t mb = (single_m_ + t_.mL0 - 1) / t_.mL0, nb = (single_co_ + t_.nL0 - 1) / t_.nL0;
    const std::uint64_t kb = (k + t_.kL0 - 1) / t_.kL0;
    c.cube = static_cast<double>(single_do_) *
             (static_cast<double>(mb * nb * kb) * (npukb::kern::kMmadStartCycles / 4) + static_cast<double>(m16 * n16 * k0));
    const std::uint64_t in_d = std::min<std::uint64_t>(t_.orgDi, (single_do_ - 1) * t_.strideD +
                                                                     (t_.kernelD - 1) * t_.dilationD + 1);
    const std::uint64_t rows = (single_m_ + t_.orgWo - 1) / t_.orgWo + 1;
    const std::uint64_t in_h = std::min<std::uint64_t>(t_.orgHi, (rows - 1) * t_.strideH + (t_.kernelH - 1) * t_.dilationH + 1);
    const std::uint64_t a_bytes = in_d * cin1() * in_h * t_.orgWi * kC0 * sizeof(InputT);
    const std::uint64_t b_bytes = k * n16 * 16 * sizeof(WeightT);
    const std::uint64_t m_panels = (single_m_ + std::max<std::uint64_t>(t_.mAL1, 1) - 1) / std::max<std::uint64_t>(t_.mAL1, 1);
    const std::uint64_t n_panels = (single_co_ + std::max<std::uint64_t>(t_.nBL1, 1) - 1) / std::max<std::uint64_t>(t_.nBL1, 1);
    const std::uint64_t a_read = a_bytes * (t_.al1FullLoad ? 1 : n_panels);
    const std::uint64_t b_read = b_bytes * (t_.bl1FullLoad ? 1 : single_do_ * m_panels);
    const std::uint64_t bias_read = bias_ != nullptr ? single_co_ * sizeof(BiasT) : 0;
    c.read = a_read + b_read + bias_read;
    c.mte2 = npukb::kern::dma_cycles(c.read, static_cast<std::uint32_t>(in_d * cin1() * in_h + k / kC0), false, true);
    c.written = single_do_ * single_m_ * n16 * 16 * sizeof(OutputT);
    c.fix = npukb::kern::dma_cycles(c.written, static_cast<std::uint32_t>(single_do_ * n16), true, true);
    return c;
  }

  AscendC::tiling::TConv3DApiTiling t_{};
  bool init_ = false;
  bool iterated_ = false;
  const InputT* input_ = nullptr;
  const WeightT* weight_ = nullptr;
  const BiasT* bias_ = nullptr;
  int64_t di_start_ = 0;
  std::uint64_t m_start_ = 0;
  std::uint64_t single_co_ = 0, single_do_ = 0, single_m_ = 0;
};

template <class Config, template <typename, class, bool> class Impl>
struct Conv3dIntf {
  using InputT = typename Config::SrcAT;
  using WeightT = typename Config::SrcBT;
  using OutputT = typename Config::DstT;
  using BiasT = typename Config::BiasT;
  using L0cT = typename Config::L0cT;
  using ConvParam = typename Config::ConvParam;
  static_assert(std::is_base_of_v<ConvApi::ConvParam, ConvParam>, "Conv3D: CONV_CFG derives from ConvApi::ConvParam");
  __aicore__ inline Conv3dIntf() {}

  __aicore__ inline void Init(const void* __restrict cubeTiling) { impl_.Init(cubeTiling); }
  __aicore__ inline void SetInput(const AscendC::GlobalTensor<InputT>& input) { impl_.SetInput(input); }
  __aicore__ inline void SetWeight(const AscendC::GlobalTensor<WeightT>& weight) { impl_.SetWeight(weight); }
  __aicore__ inline void SetBias(const AscendC::GlobalTensor<BiasT>& bias) { impl_.SetBias(bias); }
  __aicore__ inline void SetInputStartPosition(int64_t diStartPos, int64_t mStartPos) {
    impl_.SetInputStartPosition(diStartPos, mStartPos);
  }
  __aicore__ inline void SetSingleOutputShape(uint64_t singleCo, uint64_t singleDo, uint64_t singleM) {
    impl_.SetSingleOutputShape(singleCo, singleDo, singleM);
  }
  __aicore__ inline void IterateAll(const AscendC::GlobalTensor<OutputT>& output, bool enPartialSum = false) {
    impl_.IterateAll(output, enPartialSum);
  }
  void End() { impl_.End(); }

 private:
  Impl<Conv3dIntf, Config, false> impl_;
};

template <class Conv3dCfg, template <typename, class, bool> class Impl = Conv3dApiImpl,
          template <class, template <typename, class, bool> class> class Intf = Conv3dIntf>
struct Conv3dIntfExt : public Intf<Conv3dCfg, Impl> {
  __aicore__ inline Conv3dIntfExt() {}
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class OUTPUT_TYPE, class BIAS_TYPE = sim::NoBias,
          class CONV_CFG = Conv3dParam>
using Conv3D = Conv3dIntfExt<Conv3dCfg<ConvApi::ConvDataType<INPUT_TYPE, WEIGHT_TYPE, OUTPUT_TYPE, BIAS_TYPE, CONV_CFG>>,
                             Conv3dApiImpl, Conv3dIntf>;

}  // namespace Conv3dApi
