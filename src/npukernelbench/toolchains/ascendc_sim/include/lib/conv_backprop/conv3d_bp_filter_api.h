// lib/conv_backprop/conv3d_bp_filter_api.h -- the Conv3DBackpropFilter high-level API, kernel side
// (ConvBackpropApi::Conv3DBackpropFilter): the gradient of a 3-D convolution with respect to its weight.
//
// Model (matrix view of the pages: M = Cout, N = Cin * Dk * Hk * Wk, K = Ho * Wo): an object computes the
// block of GradWeight of singleCoreM output channels and singleCoreN / (Dk * Hk * Wk) input channels
// (SetSingleShape; the tiling's singleCoreM / singleCoreN / singleCoreK by default),
//   dW[co][kd][ci][kh][kw] = sum_{b < singleCoreBatch} sum_{do < Dout} sum_{p in [hoStartIdx * Wo, hoStartIdx * Wo + K)}
//                            dY[b][do][co][p / Wo][p % Wo] * X[b][di][ci][hi][wi]
// with di = do * strideD + kd * dilationD - padFront, hi = (p / Wo) * strideH + kh * dilationH - padUp,
// wi = (p % Wo) * strideW + kw * dilationW - padLeft (taps outside the input read 0). Formats: Input
// NDC1HWC0 [N][Di][Cin1][Hi][Wi][C0] of the original shape, addressed from the tensor given to SetInput
// (the first batch's element of the core's first Cin1 block); GradOutput NDC1HWC0 [N][Dout][Cout1][Ho][Wo]
// [C0], addressed from the tensor given to SetGradOutput (the first batch's element of the core's first
// Cout1 block; a core's Cout starts at a multiple of 16); GradWeight FRACTAL_Z_3D float
// [Dk * Cin1 * Hk * Wk][Cout1][16][C0] of the original shape, written from the tensor given to GetTensorC
// (the core's first row and Cout). C0 is 16. Each Iterate computes the next baseM x baseN block (M blocks
// first) of the padded M x N of the core's shape into an L0C buffer; GetTensorC moves that block to GM,
// added to what GM holds when enAtomic is 1 (the default: the AtomicAdd the pages' multi-core splits
// over the batch / Ho rely on; the output must start zeroed) and overwriting it when enAtomic is 0. Only
// the real channels are written. Products accumulate in float. The cube time charged is an estimate from
// the tiling's L0 blocks (the Matmul server's accounting, lib/matmul/matmul_server.h). Clean-room part of
// ascendc-sim, written from the public API documentation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/conv_common_types.h"
#include "lib/conv_backprop/conv_bp_common.h"
#include "lib/matmul/matmul_server.h"

namespace ConvBackpropApi {

template <class A, class B, class C, class D>
struct Conv3DBpFilterCfg : public ConvBpContext<A, B, C, D> {
  using InputType = A;
  using WeightSizeType = B;
  using GradOutputType = C;
  using GradWeightType = D;
  using SrcT = typename A::Type;
  using DstT = typename D::Type;
  using L0cT = float;
  __aicore__ inline Conv3DBpFilterCfg() {}
};

template <typename Intf, class Config>
class Conv3DBpFilterImpl {
 public:
  using InputType = typename Config::InputType;
  using WeightSizeType = typename Config::WeightSizeType;
  using GradOutputType = typename Config::GradOutputType;
  using GradWeightType = typename Config::GradWeightType;
  using SrcT = typename InputType::Type;
  using DstT = typename GradWeightType::Type;

  static_assert(InputType::pos == AscendC::TPosition::GM && WeightSizeType::pos == AscendC::TPosition::GM &&
                    GradOutputType::pos == AscendC::TPosition::GM && GradWeightType::pos == AscendC::TPosition::GM,
                "Conv3DBackpropFilter: Input, WeightSize, GradOutput and GradWeight are in TPosition::GM");
  static_assert(InputType::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                "Conv3DBackpropFilter: Input is NDC1HWC0");
  static_assert(WeightSizeType::format == ConvCommonApi::ConvFormat::ND, "Conv3DBackpropFilter: WeightSize is ND");
  static_assert(GradOutputType::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                "Conv3DBackpropFilter: GradOutput is NDC1HWC0");
  static_assert(GradWeightType::format == ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                "Conv3DBackpropFilter: GradWeight is FRACTAL_Z_3D");
  static_assert((std::is_same_v<SrcT, half> || std::is_same_v<SrcT, bfloat16_t>) &&
                    std::is_same_v<typename GradOutputType::Type, SrcT> &&
                    std::is_same_v<typename WeightSizeType::Type, int32_t> && std::is_same_v<DstT, float>,
                "Conv3DBackpropFilter: the Atlas A2/A3 type combinations are half/int32_t/half/float and "
                "bfloat16_t/int32_t/bfloat16_t/float (Input/WeightSize/GradOutput/GradWeight)");

  static constexpr std::uint64_t kC0 = 16;

  void Init(const TConv3DBpFilterTiling* __restrict tiling) { NPUKB_CALLER;
    npukb::convbp::init_tiling(init_, tiling, t_, "Conv3DBackpropFilter", file, line);
    check_tiling(file, line);
    init_ = true;
    single_m_ = t_.singleCoreM;
    single_n_ = t_.singleCoreN;
    single_k_ = t_.singleCoreK;
  }
  void SetInput(const AscendC::GlobalTensor<SrcT>& input) { NPUKB_CALLER;
    need_init("SetInput", file, line);
    input_ = input.GetPhyAddr();
  }
  void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput) { NPUKB_CALLER;
    need_init("SetGradOutput", file, line);
    grad_output_ = gradOutput.GetPhyAddr();
  }
  void SetSingleShape(uint64_t singleCoreM, uint64_t singleCoreN, uint64_t singleCoreK) { NPUKB_CALLER;
    need_init("SetSingleShape", file, line);
    const std::uint64_t kernel = kernel_points();
    if (singleCoreM == 0 || singleCoreN == 0 || singleCoreK == 0 || singleCoreM > t_.cout ||
        singleCoreN > static_cast<std::uint64_t>(t_.cin) * kernel || singleCoreN % kernel != 0 ||
        singleCoreK > static_cast<std::uint64_t>(t_.ho) * t_.wo) {
      npukb::violation("Conv3DBackpropFilter::SetSingleShape", "the single-core shape (M " + npukb::convbp::num(singleCoreM) +
                       ", N " + npukb::convbp::num(singleCoreN) + ", K " + npukb::convbp::num(singleCoreK) + ") must be non-empty, "
                       "N a multiple of Dk * Hk * Wk (" + npukb::convbp::num(kernel) + "), and within the original shape "
                       "(M " + npukb::convbp::num(t_.cout) + ", N " + npukb::convbp::num(t_.cin * kernel) + ", K " +
                       npukb::convbp::num(static_cast<std::uint64_t>(t_.ho) * t_.wo) + ")", file, line);
    }
    single_m_ = singleCoreM;
    single_n_ = singleCoreN;
    single_k_ = singleCoreK;
  }
  void SetStartPosition(uint32_t hoStartIdx) { NPUKB_CALLER;
    need_init("SetStartPosition", file, line);
    if (hoStartIdx >= t_.ho) {
      npukb::violation("Conv3DBackpropFilter::SetStartPosition", "hoStartIdx (" + npukb::convbp::num(hoStartIdx) +
                       ") is not below Ho (" + npukb::convbp::num(t_.ho) + ")", file, line);
    }
    ho_start_ = hoStartIdx;
  }
  bool Iterate(npukb::convbp::BpFilterContext& ctx, bool enPartialSum) { NPUKB_CALLER;
    (void)enPartialSum;   // reserved by the pages
    need_init("Iterate", file, line);
    if (ctx.isFirstIter_) {
      if (input_ == nullptr) npukb::violation("Conv3DBackpropFilter::Iterate", "SetInput was not called", file, line);
      if (grad_output_ == nullptr) {
        npukb::violation("Conv3DBackpropFilter::Iterate", "SetGradOutput was not called", file, line);
      }
      const std::uint64_t k0 = static_cast<std::uint64_t>(ho_start_) * t_.wo;
      if (k0 + single_k_ > static_cast<std::uint64_t>(t_.ho) * t_.wo) {
        npukb::violation("Conv3DBackpropFilter::Iterate", "hoStartIdx * Wo + singleCoreK (" +
                         npukb::convbp::num(k0 + single_k_) + ") exceeds Ho * Wo (" +
                         npukb::convbp::num(static_cast<std::uint64_t>(t_.ho) * t_.wo) + ")", file, line);
      }
      check_reads(file, line);
      ctx.isFirstIter_ = false;
      block_ = 0;
    } else {
      pending_ = false;
      if (block_ >= blocks()) return false;   // the single shape is done: ctx.isFirstIter_ starts the next one
      ++block_;
      if (block_ >= blocks()) return false;
    }
    compute();
    const double end = matmul::sim::charge(cost());
    matmul::sim::wait_until(end);
    pending_ = true;
    iterated_ = true;
    return true;
  }
  void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic, bool enSequentialWrite) { NPUKB_CALLER;
    (void)enSequentialWrite;   // reserved by the pages
    need_init("GetTensorC", file, line);
    if (!pending_) {
      npukb::violation("Conv3DBackpropFilter::GetTensorC", "GetTensorC follows an Iterate that returned true", file,
                       line);
    }
    write(output.GetPhyAddr(), enAtomic != 0, file, line);
    pending_ = false;
  }
  void End() { NPUKB_CALLER;
    if (!iterated_) npukb::violation("Conv3DBackpropFilter::End", "End is called after Iterate and GetTensorC", file, line);
    iterated_ = false;
  }

 private:
  void need_init(const char* api, const char* file, int line) const {
    npukb::convbp::need_init(init_, "Conv3DBackpropFilter", api, file, line);
  }
  void check_tiling(const char* file, int line) const {
    const bool blocks = t_.baseM > 0 && t_.baseN > 0 && t_.baseK > 0 && t_.baseM % 16 == 0 && t_.baseN % 16 == 0 &&
                        t_.channelSize == kC0;
    if (!npukb::convbp::geometry_nonzero(t_) || !blocks || t_.singleCoreBatch == 0 || t_.singleCoreBatch > t_.batch) {
      npukb::violation("Conv3DBackpropFilter::Init", "the tiling is not a Conv3DBackpropFilter tiling (zero shapes, "
                       "strides, dilations or base blocks, channelSize other than 16): fill it with "
                       "Conv3dBpFilterTiling::GetTiling", file, line);
    }
  }
  std::uint64_t kernel_points() const { return static_cast<std::uint64_t>(t_.dk) * t_.hk * t_.wk; }
  std::uint64_t org_cin1() const { return (t_.cin + kC0 - 1) / kC0; }
  std::uint64_t org_cout1() const { return (t_.cout + kC0 - 1) / kC0; }
  std::uint64_t single_cin() const { return single_n_ / kernel_points(); }
  std::uint64_t single_cin1() const { return (single_cin() + kC0 - 1) / kC0; }
  // The padded block grid of the core's shape: M = Cout rounded to 16, N = Dk * Cin1 * Hk * Wk rows x C0.
  std::uint64_t m_pad() const { return (single_m_ + 15) / 16 * 16; }
  std::uint64_t n_pad() const { return kernel_points() * single_cin1() * kC0; }
  std::uint64_t m_blocks() const { return (m_pad() + t_.baseM - 1) / t_.baseM; }
  std::uint64_t blocks() const { return m_blocks() * ((n_pad() + t_.baseN - 1) / t_.baseN); }
  std::uint64_t x_batch() const { return static_cast<std::uint64_t>(t_.di) * org_cin1() * t_.hi * t_.wi * kC0; }
  std::uint64_t dy_batch() const {
    return static_cast<std::uint64_t>(t_.dout) * org_cout1() * t_.ho * t_.wo * kC0;
  }

  void check_reads(const char* file, int line) const {
    const std::uint64_t hiwi = static_cast<std::uint64_t>(t_.hi) * t_.wi, howo = static_cast<std::uint64_t>(t_.ho) * t_.wo;
    const std::uint64_t x_elems = (t_.singleCoreBatch - 1) * x_batch() +
                                  ((t_.di - 1) * org_cin1() + single_cin1()) * hiwi * kC0;
    const std::uint64_t co_blocks = m_pad() / 16;
    const std::uint64_t dy_elems = (t_.singleCoreBatch - 1) * dy_batch() +
                                   ((t_.dout - 1) * org_cout1() + co_blocks - 1) * howo * kC0 +
                                   (static_cast<std::uint64_t>(ho_start_) * t_.wo + single_k_) * kC0;
    npukb::check_gm(input_, x_elems * sizeof(SrcT), false, "Conv3DBackpropFilter::Iterate (input)", file, line);
    npukb::check_gm(grad_output_, dy_elems * sizeof(SrcT), false, "Conv3DBackpropFilter::Iterate (gradOutput)", file,
                    line);
  }

  // The current block's rows: (kd, c1, kh, kw) of the core's local Cin1 blocks, in FRACTAL_Z_3D order.
  void block_ranges(std::uint64_t& m0, std::uint64_t& m1, std::uint64_t& n0, std::uint64_t& n1) const {
    const std::uint64_t mb = block_ % m_blocks(), nb = block_ / m_blocks();
    m0 = mb * t_.baseM;
    m1 = std::min<std::uint64_t>(m0 + t_.baseM, m_pad());
    n0 = nb * t_.baseN;
    n1 = std::min<std::uint64_t>(n0 + t_.baseN, n_pad());
  }

  void compute() {
    std::uint64_t m0, m1, n0, n1;
    block_ranges(m0, m1, n0, n1);
    const std::uint64_t bm = m1 - m0, bn = n1 - n0;
    l0c_.assign(bm * bn, 0.0f);
    const std::uint64_t sc1 = single_cin1(), hk = t_.hk, wk = t_.wk, ci1 = org_cin1(), co1 = org_cout1();
    const std::uint64_t howo = static_cast<std::uint64_t>(t_.ho) * t_.wo;
    const std::uint64_t k_start = static_cast<std::uint64_t>(ho_start_) * t_.wo;
    std::vector<float> g(bm);
    for (std::uint64_t b = 0; b < t_.singleCoreBatch; ++b) {
      const SrcT* xb = input_ + b * x_batch();
      const SrcT* dyb = grad_output_ + b * dy_batch();
      for (std::uint64_t od = 0; od < t_.dout; ++od) {
        for (std::uint64_t p = k_start; p < k_start + single_k_; ++p) {
          const int64_t ho = static_cast<int64_t>(p / t_.wo), wo = static_cast<int64_t>(p % t_.wo);
          for (std::uint64_t m = 0; m < bm; ++m) {
            const std::uint64_t co = m0 + m;
            g[m] = co < single_m_ ? static_cast<float>(dyb[((od * co1 + co / 16) * howo + p) * kC0 + co % 16]) : 0.0f;
          }
          for (std::uint64_t r = n0 / kC0; r < n1 / kC0; ++r) {
            const std::uint64_t kw = r % wk, kh = (r / wk) % hk, c1 = (r / (wk * hk)) % sc1, kd = r / (wk * hk * sc1);
            const int64_t di = static_cast<int64_t>(od * t_.strideD + kd * t_.dilationD) - t_.padFront;
            const int64_t hi = ho * t_.strideH + static_cast<int64_t>(kh * t_.dilationH) - t_.padUp;
            const int64_t wi = wo * t_.strideW + static_cast<int64_t>(kw * t_.dilationW) - t_.padLeft;
            if (di < 0 || di >= static_cast<int64_t>(t_.di) || hi < 0 || hi >= static_cast<int64_t>(t_.hi) || wi < 0 ||
                wi >= static_cast<int64_t>(t_.wi)) {
              continue;
            }
            const SrcT* x = xb + (((static_cast<std::uint64_t>(di) * ci1 + c1) * t_.hi + static_cast<std::uint64_t>(hi)) *
                                  t_.wi + static_cast<std::uint64_t>(wi)) * kC0;
            float xv[kC0];
            for (std::uint64_t l = 0; l < kC0; ++l) xv[l] = c1 * kC0 + l < single_cin() ? static_cast<float>(x[l]) : 0.0f;
            const std::uint64_t col = r * kC0 - n0;
            for (std::uint64_t m = 0; m < bm; ++m) {
              if (g[m] == 0.0f) continue;
              float* acc = &l0c_[m * bn + col];
              for (std::uint64_t l = 0; l < kC0; ++l) acc[l] += g[m] * xv[l];
            }
          }
        }
      }
    }
  }

  void write(DstT* out, bool atomic, const char* file, int line) const {
    std::uint64_t m0, m1, n0, n1;
    block_ranges(m0, m1, n0, n1);
    const std::uint64_t bn = n1 - n0, sc1 = single_cin1(), hk = t_.hk, wk = t_.wk;
    const std::uint64_t row_stride = org_cout1() * 16 * kC0;
    const std::uint64_t m_real = std::min<std::uint64_t>(m1, single_m_);
    if (m_real <= m0) return;
    for (std::uint64_t r = n0 / kC0; r < n1 / kC0; ++r) {
      const std::uint64_t kw = r % wk, kh = (r / wk) % hk, c1 = (r / (wk * hk)) % sc1, kd = r / (wk * hk * sc1);
      if (c1 * kC0 >= single_cin()) continue;
      const std::uint64_t lanes = std::min<std::uint64_t>(kC0, single_cin() - c1 * kC0);
      DstT* row = out + ((kd * org_cin1() + c1) * hk * wk + kh * wk + kw) * row_stride;
      npukb::check_gm(row + m0 * kC0, ((m_real - m0 - 1) * kC0 + lanes) * sizeof(DstT), true,
                      "Conv3DBackpropFilter::GetTensorC", file, line);
      for (std::uint64_t co = m0; co < m_real; ++co) {
        const float* src = &l0c_[(co - m0) * bn + r * kC0 - n0];
        for (std::uint64_t l = 0; l < lanes; ++l) {
          DstT& d = row[co * kC0 + l];
          d = atomic ? d + src[l] : src[l];
        }
      }
    }
    const double end = matmul::sim::charge(fix_cost(m_real - m0, bn));
    matmul::sim::wait_until(end);
  }

  // The estimate of one block: baseM x baseN x (batches * Dout * K) in 16 x 16 x 16 Mmad fractals, one Mmad
  // per baseK slice of each (batch, depth); the GradOutput rows and the Input rows behind the block read
  // from GM (MTE2).
  matmul::sim::ServerCost cost() const {
    std::uint64_t m0, m1, n0, n1;
    block_ranges(m0, m1, n0, n1);
    matmul::sim::ServerCost c;
    const std::uint64_t slices = t_.singleCoreBatch * t_.dout;
    const std::uint64_t k16 = (single_k_ + 15) / 16, kb = (single_k_ + t_.baseK - 1) / t_.baseK;
    c.cube = static_cast<double>(slices) * (static_cast<double>(kb) * (npukb::kern::kMmadStartCycles / 4) +
                                            static_cast<double>((m1 - m0) / 16 * ((n1 - n0) / 16) * k16));
    const std::uint64_t planes = std::min<std::uint64_t>((n1 - n0) / kC0, t_.dk * single_cin1());
    const std::uint64_t rows = std::min<std::uint64_t>((single_k_ + t_.wo - 1) / t_.wo + 1, t_.ho);
    const std::uint64_t hrows = std::min<std::uint64_t>(t_.hi, (rows - 1) * t_.strideH + (t_.hk - 1) * t_.dilationH + 1);
    const std::uint64_t a_bytes = slices * (m1 - m0) * single_k_ * sizeof(SrcT);
    const std::uint64_t b_bytes = slices * planes * hrows * t_.wi * kC0 * sizeof(SrcT);
    c.read = a_bytes + b_bytes;
    c.mte2 = npukb::kern::dma_cycles(c.read, static_cast<std::uint32_t>(slices * ((m1 - m0) / 16 + planes * hrows)),
                                     false, true);
    return c;
  }
  matmul::sim::ServerCost fix_cost(std::uint64_t m, std::uint64_t n) const {
    matmul::sim::ServerCost c;
    c.written = m * n * sizeof(DstT);
    c.fix = npukb::kern::dma_cycles(c.written, static_cast<std::uint32_t>(n / kC0), true, true);
    return c;
  }

  TConv3DBpFilterTiling t_{};
  bool init_ = false;
  bool iterated_ = false;
  bool pending_ = false;
  const SrcT* input_ = nullptr;
  const SrcT* grad_output_ = nullptr;
  std::uint32_t ho_start_ = 0;
  std::uint64_t single_m_ = 0, single_n_ = 0, single_k_ = 0;
  std::uint64_t block_ = 0;
  std::vector<float> l0c_;
};

template <class Config_, template <typename, class> class Impl>
struct Conv3DBpFilterIntf {
  using Config = Config_;
  using SrcT = typename Config::SrcT;
  using DstT = typename Config::DstT;
  using L0cT = typename Config::L0cT;
  __aicore__ inline Conv3DBpFilterIntf() {}

  __aicore__ inline void Init(const TConv3DBpFilterTiling* __restrict tiling) { impl_.Init(tiling); }
  __aicore__ inline void SetInput(const AscendC::GlobalTensor<SrcT>& input) { impl_.SetInput(input); }
  __aicore__ inline void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput) {
    impl_.SetGradOutput(gradOutput);
  }
  __aicore__ inline void SetSingleShape(uint64_t singleCoreM, uint64_t singleCoreN, uint64_t singleCoreK) {
    impl_.SetSingleShape(singleCoreM, singleCoreN, singleCoreK);
  }
  __aicore__ inline void SetStartPosition(uint32_t hoStartIdx) { impl_.SetStartPosition(hoStartIdx); }
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false) {
    return impl_.Iterate(ctx, enPartialSum);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic = 1,
                                    bool enSequentialWrite = false) {
    impl_.GetTensorC(output, enAtomic, enSequentialWrite);
  }
  __aicore__ inline void End() { impl_.End(); }

  npukb::convbp::BpFilterContext ctx;

 private:
  Impl<Conv3DBpFilterIntf, Config> impl_;
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_WEIGHT_TYPE>
using Conv3DBackpropFilter =
    Conv3DBpFilterIntf<Conv3DBpFilterCfg<INPUT_TYPE, WEIGHT_TYPE, GRAD_OUTPUT_TYPE, GRAD_WEIGHT_TYPE>, Conv3DBpFilterImpl>;

}  // namespace ConvBackpropApi
