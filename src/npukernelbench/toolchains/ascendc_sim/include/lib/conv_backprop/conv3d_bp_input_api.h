// lib/conv_backprop/conv3d_bp_input_api.h -- the Conv3DBackpropInput high-level API, kernel side
// (ConvBackpropApi::Conv3DBackpropInput): the gradient of a 3-D convolution with respect to its input
// (the same computation as a Conv3DTranspose).
//
// Model: one round (Iterate until it returns false) computes, for one batch and one GradInput depth di
// (SetStartPosition's curDinStartIdx), the single-core block M x N of GradInput, M = singleShapeM
// positions of Hi * Wi flattened from hiStart * Wi, N = singleShapeN input channels:
//   dx[ci][di][hi][wi] = sum_{co, kd, kh, kw} dy[co][do][ho][wo] * w[co][ci][kd][kh][kw]
// over the taps with di + padFront - kd * dilationD = do * strideD (and the same for H and W) inside the
// grad output. hiStart = curHoStartIdx + backpropPadUp: curHoStartIdx is the row of the stride-dilated
// grad output (backpropPadUp rows of padding above it) where the core's first GradInput row starts, and
// may be negative. singleShapeK is the whole K of one KD tap, Cout1 * KH * KW * C0. Formats: GradOutput
// NDC1HWC0 [Dout][Cout1][Ho][Wo][C0] addressed from the tensor given to SetGradOutput (the batch's
// start); Weight FRACTAL_Z_3D [KD * Cin1 * KH * KW][Cout1][16][C0] (the forward weight, C0 the input
// channels) addressed from the tensor given to SetWeight (offset to the core's first Cin1 block);
// GradInput NDC1HWC0 [Di][Cin1][Hi * Wi][C0] written from the tensor given to GetTensorC (the core's first
// element: depth di, its first channel, M start). C0 is 16. Each Iterate computes the next baseM x baseN
// block (N blocks inside M blocks) in float, accumulated in K order (KD, Cout1, KH, KW, C0); GetTensorC
// rounds it once to the GradInput type and writes its real channels (C0 lanes past singleShapeN keep what
// GM holds). After a round, ctx.isFirstIter_ = true starts the next one. The cube time charged is an
// estimate from the tiling's blocks (the Matmul server's accounting, lib/matmul/matmul_server.h).
// Clean-room part of ascendc-sim, written from the public API documentation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv_backprop/conv_bp_common.h"
#include "lib/matmul/matmul_server.h"

namespace ConvBackpropApi {

template <class WEIGHT_TYPE, class INPUT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_INPUT_TYPE,
          const Conv3dConfig& CONV3D_CONFIG = CONV3D_CFG_DEFAULT>
struct Conv3DBpInputCfg : public ConvBpContext<WEIGHT_TYPE, INPUT_TYPE, GRAD_OUTPUT_TYPE, GRAD_INPUT_TYPE> {
  using WeightType = WEIGHT_TYPE;
  using InputSizeType = INPUT_TYPE;
  using GradOutputType = GRAD_OUTPUT_TYPE;
  using GradInputType = GRAD_INPUT_TYPE;
  using SrcT = typename GRAD_OUTPUT_TYPE::Type;
  using DstT = typename GRAD_INPUT_TYPE::Type;
  using L0cT = float;
  struct ContextData {
    bool isFirstIter_ = true;   // set true again after a round to start the next one
  };
};

template <typename Intf, class Config>
class Conv3DBpInputImpl {
 public:
  using SrcT = typename Config::SrcT;
  using DstT = typename Config::DstT;
  using WeightType = typename Config::WeightType;
  using InputSizeType = typename Config::InputSizeType;
  using GradOutputType = typename Config::GradOutputType;
  using GradInputType = typename Config::GradInputType;
  using Ctx = typename Config::ContextData;

  static_assert(WeightType::pos == TPosition::GM && InputSizeType::pos == TPosition::GM &&
                    GradOutputType::pos == TPosition::GM && GradInputType::pos == TPosition::GM,
                "Conv3DBackpropInput: Weight, InputSize, GradOutput and GradInput are in TPosition::GM");
  static_assert(WeightType::format == ConvFormat::FRACTAL_Z_3D, "Conv3DBackpropInput: Weight is FRACTAL_Z_3D");
  static_assert(InputSizeType::format == ConvFormat::ND, "Conv3DBackpropInput: InputSize is ND");
  static_assert(GradOutputType::format == ConvFormat::NDC1HWC0, "Conv3DBackpropInput: GradOutput is NDC1HWC0");
  static_assert(GradInputType::format == ConvFormat::NDC1HWC0, "Conv3DBackpropInput: GradInput is NDC1HWC0");
  static_assert(std::is_same_v<typename InputSizeType::Type, int32_t>, "Conv3DBackpropInput: InputSize is int32_t");
  static_assert((std::is_same_v<SrcT, half> || std::is_same_v<SrcT, bfloat16_t>) &&
                    std::is_same_v<typename WeightType::Type, SrcT> && std::is_same_v<DstT, SrcT>,
                "Conv3DBackpropInput: the Atlas A2/A3 type combinations are half/half/int32_t/half and "
                "bfloat16_t/bfloat16_t/int32_t/bfloat16_t (Weight/GradOutput/InputSize/GradInput)");

  static constexpr std::uint64_t kC0 = 16;

  void Init(const TConv3DBackpropInputTiling* __restrict tiling) { NPUKB_CALLER;
    npukb::convbp::init_tiling(init_, tiling, t_, "Conv3DBackpropInput", file, line);
    check_tiling(file, line);
    init_ = true;
    single_m_ = t_.singleCoreM;
    single_n_ = t_.singleCoreCin;
  }
  void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput) { NPUKB_CALLER;
    need_init("SetGradOutput", file, line);
    grad_out_ = gradOutput.GetPhyAddr();
  }
  void SetWeight(const AscendC::GlobalTensor<SrcT>& weight) { NPUKB_CALLER;
    need_init("SetWeight", file, line);
    weight_ = weight.GetPhyAddr();
  }
  void SetSingleShape(uint64_t singleShapeM, uint64_t singleShapeK, uint32_t singleShapeN) { NPUKB_CALLER;
    need_init("SetSingleShape", file, line);
    const std::uint64_t hiwi = static_cast<std::uint64_t>(t_.hi) * t_.wi;
    if (singleShapeM == 0 || singleShapeM > hiwi || singleShapeN == 0 || singleShapeN > t_.cin) {
      npukb::violation("Conv3DBackpropInput::SetSingleShape", "the single-core shape (M " + num(singleShapeM) +
                       ", N " + num(singleShapeN) + ") must be non-empty and within Hi * Wi (" + num(hiwi) +
                       ") and Cin (" + num(t_.cin) + ")", file, line);
    }
    if (singleShapeK != k_tap()) {
      npukb::violation("Conv3DBackpropInput::SetSingleShape", "singleShapeK (" + num(singleShapeK) +
                       ") must be the K of one KD tap, Cout1 * KH * KW * C0 = " + num(k_tap()), file, line);
    }
    single_m_ = singleShapeM;
    single_n_ = singleShapeN;
  }
  void SetStartPosition(uint32_t curDinStartIdx, int32_t curHoStartIdx) { NPUKB_CALLER;
    need_init("SetStartPosition", file, line);
    const int64_t hi_start = static_cast<int64_t>(curHoStartIdx) + t_.backpropPadUp;
    if (curDinStartIdx >= t_.di || hi_start < 0 || hi_start >= static_cast<int64_t>(t_.hi)) {
      npukb::violation("Conv3DBackpropInput::SetStartPosition", "the start (Din " + num(curDinStartIdx) +
                       ", Hi = curHoStartIdx + backpropPadUp = " + std::to_string(hi_start) +
                       ") must be within the GradInput (Di " + num(t_.di) + ", Hi " + num(t_.hi) + ")", file, line);
    }
    din_ = curDinStartIdx;
    m_start_ = static_cast<std::uint64_t>(hi_start) * t_.wi;
  }
  bool Iterate(Ctx& ctx, bool enPartialSum) { NPUKB_CALLER;
    (void)enPartialSum;   // reserved by the pages
    need_init("Iterate", file, line);
    if (grad_out_ == nullptr) {
      npukb::violation("Conv3DBackpropInput::Iterate", "SetGradOutput was not called", file, line);
    }
    if (weight_ == nullptr) npukb::violation("Conv3DBackpropInput::Iterate", "SetWeight was not called", file, line);
    if (ctx.isFirstIter_) {
      if (m_start_ + single_m_ > static_cast<std::uint64_t>(t_.hi) * t_.wi) {
        npukb::violation("Conv3DBackpropInput::Iterate", "the M start + singleShapeM (" + num(m_start_ + single_m_) +
                         ") exceeds Hi * Wi (" + num(static_cast<std::uint64_t>(t_.hi) * t_.wi) + ")", file, line);
      }
      ctx.isFirstIter_ = false;
      block_ = 0;
      finished_ = false;
      check_inputs(file, line);
    } else if (finished_) {
      npukb::violation("Conv3DBackpropInput::Iterate", "the single shape is done: set ctx.isFirstIter_ = true "
                       "before the next round", file, line);
    } else {
      ++block_;
    }
    const std::uint64_t nb = blocks_n(), mb = (single_m_ + t_.baseM - 1) / t_.baseM;
    if (block_ >= mb * nb) {
      finished_ = true;
      pending_ = false;
      return false;
    }
    m0_ = (block_ / nb) * t_.baseM;
    n0_ = (block_ % nb) * t_.baseN;
    bm_ = std::min<std::uint64_t>(t_.baseM, single_m_ - m0_);
    bn_ = std::min<std::uint64_t>(t_.baseN, single_n_ - n0_);
    compute_block();
    const double end = matmul::sim::charge(cost());
    matmul::sim::wait_until(end);
    pending_ = true;
    iterated_ = true;
    return true;
  }
  void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic, bool enSequentialWrite) { NPUKB_CALLER;
    (void)enAtomic;            // reserved by the pages
    (void)enSequentialWrite;   // reserved by the pages
    need_init("GetTensorC", file, line);
    if (!pending_) {
      npukb::violation("Conv3DBackpropInput::GetTensorC", "GetTensorC is called after an Iterate that returned true",
                       file, line);
    }
    DstT* out = output.GetPhyAddr();
    const std::uint64_t hiwi = static_cast<std::uint64_t>(t_.hi) * t_.wi;
    const std::uint64_t last_n = n0_ + bn_ - 1, last_m = m0_ + bm_ - 1;
    const std::uint64_t span = ((last_n / kC0) * hiwi + last_m) * kC0 + last_n % kC0 + 1;
    npukb::check_gm(out, span * sizeof(DstT), true, "Conv3DBackpropInput::GetTensorC (GradInput)", file, line);
    for (std::uint64_t m = 0; m < bm_; ++m) {
      for (std::uint64_t n = 0; n < bn_; ++n) {
        const std::uint64_t ci = n0_ + n;
        out[((ci / kC0) * hiwi + m0_ + m) * kC0 + ci % kC0] = static_cast<DstT>(l0c_[m * t_.baseN + n]);
      }
    }
    pending_ = false;
    got_ = true;
  }
  void End() { NPUKB_CALLER;
    if (!iterated_ || !got_) {
      npukb::violation("Conv3DBackpropInput::End", "End is called after Iterate and GetTensorC", file, line);
    }
    iterated_ = false;
    got_ = false;
  }

 private:
  static std::string num(std::uint64_t v) { return npukb::convbp::num(v); }
  void need_init(const char* api, const char* file, int line) const {
    npukb::convbp::need_init(init_, "Conv3DBackpropInput", api, file, line);
  }
  void check_tiling(const char* file, int line) const {
    const bool split = t_.baseM > 0 && t_.baseN > 0 && t_.baseK > 0 && t_.c0 == kC0 &&
                       t_.cout1 == (t_.cout + kC0 - 1) / kC0 && t_.cin1 == (t_.cin + kC0 - 1) / kC0;
    if (!npukb::convbp::geometry_nonzero(t_) || !split) {
      npukb::violation("Conv3DBackpropInput::Init", "the tiling is not a Conv3DBackpropInput tiling (zero shapes, "
                       "strides, dilations or base blocks, C0 other than 16): fill it with "
                       "Conv3DBpInputTiling::GetTiling", file, line);
    }
  }
  std::uint64_t k_tap() const { return static_cast<std::uint64_t>(t_.cout1) * t_.hk * t_.wk * kC0; }
  std::uint64_t blocks_n() const { return (single_n_ + t_.baseN - 1) / t_.baseN; }

  // The GM the round reads: the batch's grad output and the weight rows of the core's Cin1 blocks.
  void check_inputs(const char* file, int line) const {
    const std::uint64_t go = static_cast<std::uint64_t>(t_.dout) * t_.cout1 * t_.ho * t_.wo * kC0;
    const std::uint64_t row = static_cast<std::uint64_t>(t_.cout1) * 16 * kC0;
    const std::uint64_t n1 = (single_n_ + kC0 - 1) / kC0;
    const std::uint64_t dk = t_.dk, hk = t_.hk, wk = t_.wk;
    const std::uint64_t last_row = (((dk - 1) * t_.cin1 + (n1 - 1)) * hk + hk - 1) * wk + wk - 1;
    npukb::check_gm(grad_out_, go * sizeof(SrcT), false, "Conv3DBackpropInput::Iterate (GradOutput)", file, line);
    npukb::check_gm(weight_, (last_row + 1) * row * sizeof(SrcT), false, "Conv3DBackpropInput::Iterate (Weight)",
                    file, line);
  }

  // One axis: the grad-output index of GradInput index `i` through tap `k`, or -1 when none.
  static int64_t tap(int64_t i, int64_t k, uint32_t pad, uint32_t dil, uint32_t stride, uint32_t len) {
    const int64_t p = i + pad - k * static_cast<int64_t>(dil);
    if (p < 0 || p % stride != 0) return -1;
    const int64_t o = p / stride;
    return o < static_cast<int64_t>(len) ? o : -1;
  }

  void compute_block() {
    l0c_.assign(static_cast<std::size_t>(t_.baseM) * t_.baseN, 0.0f);
    const std::uint64_t row = static_cast<std::uint64_t>(t_.cout1) * 16 * kC0;
    for (std::uint64_t a = 0; a < t_.dk; ++a) {
      const int64_t od = tap(din_, static_cast<int64_t>(a), t_.padFront, t_.dilationD, t_.strideD, t_.dout);
      if (od < 0) continue;
      for (std::uint64_t m = 0; m < bm_; ++m) {
        const std::uint64_t mm = m_start_ + m0_ + m;
        const int64_t hi = static_cast<int64_t>(mm / t_.wi), wi = static_cast<int64_t>(mm % t_.wi);
        float* acc = l0c_.data() + m * t_.baseN;
        for (std::uint64_t c1 = 0; c1 < t_.cout1; ++c1) {
          for (std::uint64_t b = 0; b < t_.hk; ++b) {
            const int64_t oh = tap(hi, static_cast<int64_t>(b), t_.padUp, t_.dilationH, t_.strideH, t_.ho);
            if (oh < 0) continue;
            for (std::uint64_t c = 0; c < t_.wk; ++c) {
              const int64_t ow = tap(wi, static_cast<int64_t>(c), t_.padLeft, t_.dilationW, t_.strideW, t_.wo);
              if (ow < 0) continue;
              const std::uint64_t dy_row = (static_cast<std::uint64_t>(od) * t_.cout1 + c1) * t_.ho +
                                           static_cast<std::uint64_t>(oh);
              const SrcT* dy = grad_out_ + (dy_row * t_.wo + static_cast<std::uint64_t>(ow)) * kC0;
              for (std::uint64_t l = 0; l < kC0 && c1 * kC0 + l < t_.cout; ++l) {
                const float g = static_cast<float>(dy[l]);
                for (std::uint64_t n = 0; n < bn_; ++n) {
                  const std::uint64_t ci = n0_ + n;
                  const SrcT* w = weight_ + (((a * t_.cin1 + ci / kC0) * t_.hk + b) * t_.wk + c) * row +
                                  (c1 * 16 + l) * kC0 + ci % kC0;
                  acc[n] += g * static_cast<float>(*w);
                }
              }
            }
          }
        }
      }
    }
  }

  // The estimate of one baseM x baseN block: GradOutput (baseM x K) times Weight (K x baseN) for each KD
  // tap, in baseK Mmads; GM traffic of the grad-output rows the block's GradInput rows need and of the
  // block's weight columns; the block written through the FIXPIPE.
  matmul::sim::ServerCost cost() const {
    matmul::sim::ServerCost c;
    const std::uint64_t k = k_tap() * t_.dk;
    const std::uint64_t m16 = (bm_ + 15) / 16, n16 = (bn_ + 15) / 16, k0 = k / kC0;
    const std::uint64_t kb = (k + t_.baseK - 1) / t_.baseK;
    c.cube = static_cast<double>(kb) * (npukb::kern::kMmadStartCycles / 4) + static_cast<double>(m16 * n16 * k0);
    const std::uint64_t rows_hi = (bm_ + t_.wi - 1) / t_.wi + 1;
    const std::uint64_t span_h = static_cast<std::uint64_t>(t_.hk - 1) * t_.dilationH;
    const std::uint64_t rows_ho =
        std::min<std::uint64_t>(t_.ho, (rows_hi + t_.strideH - 1) / t_.strideH + span_h / t_.strideH + 1);
    const std::uint64_t taps_d = std::min<std::uint64_t>(t_.dk, t_.dout);
    const std::uint64_t a_bytes = taps_d * t_.cout1 * rows_ho * t_.wo * kC0 * sizeof(SrcT);
    const std::uint64_t b_bytes = k * n16 * 16 * sizeof(SrcT);
    c.read = a_bytes + b_bytes;
    c.mte2 = npukb::kern::dma_cycles(c.read, static_cast<std::uint32_t>(taps_d * t_.cout1 * rows_ho + k / kC0), false,
                                     true);
    c.written = bm_ * n16 * 16 * sizeof(DstT);
    c.fix = npukb::kern::dma_cycles(c.written, static_cast<std::uint32_t>(n16), true, true);
    return c;
  }

  TConv3DBackpropInputTiling t_{};
  bool init_ = false, iterated_ = false, got_ = false, pending_ = false, finished_ = false;
  const SrcT* grad_out_ = nullptr;
  const SrcT* weight_ = nullptr;
  std::uint64_t din_ = 0, m_start_ = 0, single_m_ = 0, single_n_ = 0;
  std::uint64_t block_ = 0, m0_ = 0, n0_ = 0, bm_ = 0, bn_ = 0;
  std::vector<float> l0c_;
};

template <class Config_, template <typename, class> class Impl>
struct Conv3DBpInputIntf {
  using SrcT = typename Config_::SrcT;
  using DstT = typename Config_::DstT;
  __aicore__ inline Conv3DBpInputIntf() {}

  __aicore__ inline void Init(const TConv3DBackpropInputTiling* __restrict tiling) { impl_.Init(tiling); }
  __aicore__ inline void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput) {
    impl_.SetGradOutput(gradOutput);
  }
  __aicore__ inline void SetWeight(const AscendC::GlobalTensor<SrcT>& weight) { impl_.SetWeight(weight); }
  __aicore__ inline void SetSingleShape(uint64_t singleShapeM, uint64_t singleShapeK, uint32_t singleShapeN) {
    impl_.SetSingleShape(singleShapeM, singleShapeK, singleShapeN);
  }
  __aicore__ inline void SetStartPosition(uint32_t curDinStartIdx, int32_t curHoStartIdx) {
    impl_.SetStartPosition(curDinStartIdx, curHoStartIdx);
  }
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false) {
    return impl_.Iterate(ctx, enPartialSum);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    impl_.GetTensorC(output, enAtomic, enSequentialWrite);
  }
  __aicore__ inline void End() { impl_.End(); }

  typename Config_::ContextData ctx;

 private:
  Impl<Conv3DBpInputIntf, Config_> impl_;
};

template <class WEIGHT_TYPE, class INPUT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_INPUT_TYPE>
using Conv3DBackpropInput =
    Conv3DBpInputIntf<Conv3DBpInputCfg<WEIGHT_TYPE, INPUT_TYPE, GRAD_OUTPUT_TYPE, GRAD_INPUT_TYPE, CONV3D_CFG_DEFAULT>,
                      Conv3DBpInputImpl>;

}  // namespace ConvBackpropApi
