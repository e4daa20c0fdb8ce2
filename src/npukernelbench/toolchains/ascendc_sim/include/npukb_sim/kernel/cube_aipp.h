// npukb_sim/kernel/cube_aipp.h -- AI Core image pre-processing (AIPP): SetAippFunctions stores the source
// image (GM) and the processing parameters; LoadImageToLocal crops that image into L1 (A1/B1) as
// [rows][columns][channels] pixels of the output type, applying in order: channel swaps, colour-space
// conversion, data-type conversion, spatial padding and channel padding. Single-line mode reads one row.
//
// Where the documentation's formulas are figures, the simulator's reading (docs/simulator.md, "AIPP"):
// CSC RGB -> YUV: out_i = ((sum_j M_ij in_j) >> 8) + cscBiasIn_i; YUV -> RGB: out_i = (sum_j M_ij (in_j -
// cscBiasOut_j)) >> 8 (arithmetic shift), clamped to [0, 255]. Padding mode 2 copies the crop's pixels
// next to the edge (pad column j of the left pad takes crop column j), mode 3 mirrors them (the pad
// pixel d from the edge takes crop pixel d - 1). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "npukb_sim/kernel/cube_copy.h"
#include "npukb_sim/kernel/cube_operand.h"

namespace AscendC {

enum class AippInputFormat : std::uint8_t {
  YUV420SP_U8 = 0,
  XRGB8888_U8 = 1,
  RGB888_U8 = 4,
  YUV400_U8 = 9,
};

template <typename T>
struct AippPaddingParams {
  std::uint32_t paddingMode = 0;
  T paddingValueCh0 = 0;
  T paddingValueCh1 = 0;
  T paddingValueCh2 = 0;
  T paddingValueCh3 = 0;
};

struct AippSwapParams {
  bool isSwapRB = false;
  bool isSwapUV = false;
  bool isSwapAX = false;
};

struct AippSingleLineParams {
  bool isSingleLineCopy = false;
};

struct AippDataTypeConvParams {
  std::uint8_t dtcMeanCh0{0};
  std::uint8_t dtcMeanCh1{0};
  std::uint8_t dtcMeanCh2{0};
  half dtcMinCh0{0};
  half dtcMinCh1{0};
  half dtcMinCh2{0};
  half dtcVarCh0{1.0};
  half dtcVarCh1{1.0};
  half dtcVarCh2{1.0};
  std::uint32_t dtcRoundMode{0};
};

template <typename T>
struct AippChannelPaddingParams {
  std::uint32_t cPaddingMode = 0;
  T cPaddingValue = 0;
};

struct AippColorSpaceConvParams {
  bool isEnableCsc = false;
  std::int16_t cscMatrixR0C0 = 0;
  std::int16_t cscMatrixR0C1 = 0;
  std::int16_t cscMatrixR0C2 = 0;
  std::int16_t cscMatrixR1C0 = 0;
  std::int16_t cscMatrixR1C1 = 0;
  std::int16_t cscMatrixR1C2 = 0;
  std::int16_t cscMatrixR2C0 = 0;
  std::int16_t cscMatrixR2C1 = 0;
  std::int16_t cscMatrixR2C2 = 0;
  std::uint8_t cscBiasIn0 = 0;
  std::uint8_t cscBiasIn1 = 0;
  std::uint8_t cscBiasIn2 = 0;
  std::uint8_t cscBiasOut0 = 0;
  std::uint8_t cscBiasOut1 = 0;
  std::uint8_t cscBiasOut2 = 0;
};

template <typename T>
struct AippParams {
  AippPaddingParams<T> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<T> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};

struct LoadImageToLocalParams {
  LoadImageToLocalParams() = default;
  LoadImageToLocalParams(std::uint16_t horizSizeIn, std::uint16_t vertSizeIn, std::uint16_t horizStartPosIn,
                         std::uint16_t vertStartPosIn, std::uint16_t srcHorizSizeIn, std::uint8_t topPadSizeIn,
                         std::uint8_t botPadSizeIn, std::uint16_t leftPadSizeIn, std::uint16_t rightPadSizeIn)
      : horizSize(horizSizeIn), vertSize(vertSizeIn), horizStartPos(horizStartPosIn), vertStartPos(vertStartPosIn),
        srcHorizSize(srcHorizSizeIn), topPadSize(topPadSizeIn), botPadSize(botPadSizeIn), leftPadSize(leftPadSizeIn),
        rightPadSize(rightPadSizeIn) {}
  std::uint16_t horizSize = 0;
  std::uint16_t vertSize = 0;
  std::uint16_t horizStartPos = 0;
  std::uint16_t vertStartPos = 0;
  std::uint16_t srcHorizSize = 0;
  std::uint8_t topPadSize = 0;
  std::uint8_t botPadSize = 0;
  std::uint16_t leftPadSize = 0;
  std::uint16_t rightPadSize = 0;
  std::uint8_t sid = 0;
};

namespace sim {

// The AIPP registers of a core (kept in the kernel-side API state: one set per block).
struct AippState {
  bool set = false;
  AippInputFormat format = AippInputFormat::YUV400_U8;
  const std::uint8_t* src0 = nullptr;
  const std::uint8_t* src1 = nullptr;
  int out_bytes = 1;           // sizeof(U)
  bool out_half = false;       // U is half
  bool out_signed = false;     // U is int8_t
  AippSwapParams swap;
  bool single_line = false;
  AippDataTypeConvParams dtc;
  AippColorSpaceConvParams csc;
  std::uint32_t pad_mode = 0;
  float pad_value[4] = {0, 0, 0, 0};
  std::uint32_t cpad_mode = 0;
  float cpad_value = 0;
};

// Kept in the block's cube register storage (launcher-owned, like the other cube registers).
static_assert(sizeof(AippState) <= sizeof(npukb::kern::CubeRegs::aipp), "AippState outgrew CubeRegs::aipp");
inline AippState& aipp_state() {
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  if (!regs.aipp_init) {
    new (regs.aipp) AippState();
    regs.aipp_init = true;
  }
  return *reinterpret_cast<AippState*>(regs.aipp);
}

inline int aipp_channels(AippInputFormat f) { return f == AippInputFormat::YUV400_U8 ? 1 : 3; }
inline bool aipp_is_yuv(AippInputFormat f) { return f == AippInputFormat::YUV420SP_U8 || f == AippInputFormat::YUV400_U8; }

// Channel values (0..255) of source pixel (x, y) after the swaps.
inline void aipp_pixel(const AippState& st, std::uint32_t src_w, std::uint32_t x, std::uint32_t y, int v[3]) {
  switch (st.format) {
    case AippInputFormat::YUV400_U8:
      v[0] = st.src0[static_cast<std::uint64_t>(y) * src_w + x];
      v[1] = v[2] = 0;
      return;
    case AippInputFormat::YUV420SP_U8: {
      v[0] = st.src0[static_cast<std::uint64_t>(y) * src_w + x];
      const std::uint64_t uv = static_cast<std::uint64_t>(y / 2) * src_w + (x / 2) * 2;
      v[1] = st.src1[uv];
      v[2] = st.src1[uv + 1];
      if (st.swap.isSwapUV) std::swap(v[1], v[2]);
      return;
    }
    case AippInputFormat::RGB888_U8: {
      const std::uint8_t* p = st.src0 + (static_cast<std::uint64_t>(y) * src_w + x) * 3;
      v[0] = p[0];
      v[1] = p[1];
      v[2] = p[2];
      break;
    }
    case AippInputFormat::XRGB8888_U8: {
      const std::uint8_t* p = st.src0 + (static_cast<std::uint64_t>(y) * src_w + x) * 4;
      const int off = st.swap.isSwapAX ? 1 : 0;   // XRGB -> RGBX, then the fourth channel is dropped
      v[0] = p[off];
      v[1] = p[off + 1];
      v[2] = p[off + 2];
      break;
    }
  }
  if (st.swap.isSwapRB) std::swap(v[0], v[2]);
}

inline void aipp_csc(const AippState& st, int v[3]) {
  const AippColorSpaceConvParams& c = st.csc;
  const int m[3][3] = {{c.cscMatrixR0C0, c.cscMatrixR0C1, c.cscMatrixR0C2},
                       {c.cscMatrixR1C0, c.cscMatrixR1C1, c.cscMatrixR1C2},
                       {c.cscMatrixR2C0, c.cscMatrixR2C1, c.cscMatrixR2C2}};
  const int bin[3] = {c.cscBiasIn0, c.cscBiasIn1, c.cscBiasIn2};
  const int bout[3] = {c.cscBiasOut0, c.cscBiasOut1, c.cscBiasOut2};
  int o[3];
  const bool yuv_to_rgb = aipp_is_yuv(st.format);
  for (int i = 0; i < 3; ++i) {
    long long acc = 0;
    for (int j = 0; j < 3; ++j) acc += static_cast<long long>(m[i][j]) * (yuv_to_rgb ? v[j] - bout[j] : v[j]);
    long long r = acc >> 8;
    if (!yuv_to_rgb) r += bin[i];
    o[i] = static_cast<int>(r < 0 ? 0 : (r > 255 ? 255 : r));
  }
  for (int i = 0; i < 3; ++i) v[i] = o[i];
}

// Data-type conversion of channel ch (0..255 in) to the output value.
inline float aipp_dtc(const AippState& st, int ch, int x) {
  if (st.out_bytes == 1 && !st.out_signed) return static_cast<float>(x);   // uint8_t out: no conversion
  const AippDataTypeConvParams& d = st.dtc;
  const int mean = ch == 0 ? d.dtcMeanCh0 : ch == 1 ? d.dtcMeanCh1 : d.dtcMeanCh2;
  if (st.out_signed) {
    const int r = x - mean;
    return static_cast<float>(r < -128 ? -128 : (r > 127 ? 127 : r));
  }
  const float mn = static_cast<float>(ch == 0 ? d.dtcMinCh0 : ch == 1 ? d.dtcMinCh1 : d.dtcMinCh2);
  const float var = static_cast<float>(ch == 0 ? d.dtcVarCh0 : ch == 1 ? d.dtcVarCh1 : d.dtcVarCh2);
  return (static_cast<float>(x - mean) - mn) * var;
}

}  // namespace sim

// ---- SetAippFunctions ------------------------------------------------------------------------------
template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T>& src0, AippInputFormat format, AippParams<U> config);
template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T>& src0, const GlobalTensor<T>& src1, AippInputFormat format,
                             AippParams<U> config);

namespace sim {
template <typename T, typename U>
inline void set_aipp(const GlobalTensor<T>* src0, const GlobalTensor<T>* src1, AippInputFormat format,
                     const AippParams<U>& c, const char* file, int line) {
  static_assert(std::is_same_v<T, std::uint8_t>, "SetAippFunctions: the source image is uint8_t (the *_U8 formats)");
  static_assert(std::is_same_v<U, std::uint8_t> || std::is_same_v<U, std::int8_t> || std::is_same_v<U, half>,
                "SetAippFunctions: the output type is uint8_t (no conversion), int8_t or half");
  if (format != AippInputFormat::YUV420SP_U8 && format != AippInputFormat::XRGB8888_U8 &&
      format != AippInputFormat::RGB888_U8 && format != AippInputFormat::YUV400_U8) {
    npukb::violation("SetAippFunctions", "unknown AippInputFormat", file, line);
  }
  const bool two_planes = format == AippInputFormat::YUV420SP_U8;
  if (two_planes != (src1 != nullptr)) {
    npukb::violation("SetAippFunctions", two_planes ? "YUV420SP needs the Y plane (src0) and the UV plane (src1)"
                                                    : "only YUV420SP takes a second plane (src1)", file, line);
  }
  const std::uintptr_t a0 = reinterpret_cast<std::uintptr_t>(src0->GetPhyAddr());
  if ((two_planes && (a0 % 2 != 0 || reinterpret_cast<std::uintptr_t>(src1->GetPhyAddr()) % 2 != 0)) ||
      (format == AippInputFormat::XRGB8888_U8 && a0 % 4 != 0)) {
    npukb::violation("SetAippFunctions", "source address misaligned (YUV420SP planes 2 bytes, XRGB8888 4 bytes)", file,
                     line);
  }
  if (c.paddingParams.paddingMode > 3) npukb::violation("SetAippFunctions", "paddingMode must lie in [0, 3]", file, line);
  if (c.cPaddingParams.cPaddingMode > 1) npukb::violation("SetAippFunctions", "cPaddingMode must be 0 or 1", file, line);
  if (c.dtcParams.dtcRoundMode != 0) {
    npukb::violation("SetAippFunctions", "dtcRoundMode is configurable on Atlas 200I/500 A2 only (keep 0)", file, line);
  }
  AippState& st = aipp_state();
  st.set = true;
  st.format = format;
  st.src0 = reinterpret_cast<const std::uint8_t*>(src0->GetPhyAddr());
  st.src1 = src1 != nullptr ? reinterpret_cast<const std::uint8_t*>(src1->GetPhyAddr()) : nullptr;
  st.out_bytes = sizeof(U);
  st.out_half = std::is_same_v<U, half>;
  st.out_signed = std::is_same_v<U, std::int8_t>;
  st.swap = c.swapParams;
  st.single_line = c.singleLineParams.isSingleLineCopy;
  st.dtc = c.dtcParams;
  st.csc = c.cscParams;
  st.pad_mode = c.paddingParams.paddingMode;
  st.pad_value[0] = static_cast<float>(c.paddingParams.paddingValueCh0);
  st.pad_value[1] = static_cast<float>(c.paddingParams.paddingValueCh1);
  st.pad_value[2] = static_cast<float>(c.paddingParams.paddingValueCh2);
  st.pad_value[3] = static_cast<float>(c.paddingParams.paddingValueCh3);
  st.cpad_mode = c.cPaddingParams.cPaddingMode;
  st.cpad_value = static_cast<float>(c.cPaddingParams.cPaddingValue);
}
}  // namespace sim

template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T>& src0, AippInputFormat format, AippParams<U> config) { NPUKB_CALLER;
  sim::set_aipp<T, U>(&src0, nullptr, format, config, file, line);
}
template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T>& src0, const GlobalTensor<T>& src1, AippInputFormat format,
                             AippParams<U> config) { NPUKB_CALLER;
  sim::set_aipp<T, U>(&src0, &src1, format, config, file, line);
}

// ---- LoadImageToLocal -----------------------------------------------------------------------------
template <typename T>
inline void LoadImageToLocal(const LocalTensor<T>& dst, const LoadImageToLocalParams& loadDataParams) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::int8_t> || std::is_same_v<T, half> || std::is_same_v<T, std::uint8_t>,
                "LoadImageToLocal supports int8_t and half (uint8_t without data-type conversion)");
  const char* api = "LoadImageToLocal";
  sim::require_cube_core(api, file, line);
  const sim::AippState& st = sim::aipp_state();
  if (!st.set) npukb::violation(api, "SetAippFunctions was never called", file, line);
  if (st.out_bytes != static_cast<int>(sizeof(T)) || st.out_half != std::is_same_v<T, half> ||
      st.out_signed != std::is_same_v<T, std::int8_t>) {
    npukb::violation(api, "the destination type differs from the output type U set by SetAippFunctions", file, line);
  }
  const LoadImageToLocalParams& p = loadDataParams;
  auto range = [&](const char* name, long long v, long long lo, long long hi) {
    if (v < lo || v > hi) {
      npukb::violation(api, std::string(name) + " = " + npukb::kern::num(v) + " is outside [" + npukb::kern::num(lo) +
                       ", " + npukb::kern::num(hi) + "]", file, line);
    }
  };
  range("horizSize", p.horizSize, 2, 4095);
  range("vertSize", p.vertSize, 2, 4095);
  range("horizStartPos", p.horizStartPos, 0, 4095);
  range("vertStartPos", p.vertStartPos, 0, 4095);
  range("srcHorizSize", p.srcHorizSize, 2, 4095);
  range("topPadSize", p.topPadSize, 0, 32);
  range("botPadSize", p.botPadSize, 0, 32);
  range("leftPadSize", p.leftPadSize, 0, 32);
  range("rightPadSize", p.rightPadSize, 0, 32);
  if (p.horizStartPos % 2 != 0) npukb::violation(api, "horizStartPos must be even", file, line);
  if (st.format == AippInputFormat::YUV420SP_U8 && (p.vertStartPos % 2 != 0 || p.srcHorizSize % 2 != 0)) {
    npukb::violation(api, "YUV420SP needs an even vertStartPos and srcHorizSize", file, line);
  }
  if (p.horizStartPos + p.horizSize > p.srcHorizSize) {
    npukb::violation(api, "the crop (horizStartPos + horizSize = " + npukb::kern::num(p.horizStartPos + p.horizSize) +
                     ") runs past the source width " + npukb::kern::num(p.srcHorizSize), file, line);
  }
  const std::uint32_t rows = st.single_line ? 1u : p.vertSize, cols = p.horizSize;
  if (st.pad_mode == 0 && (p.topPadSize != 0 || p.botPadSize != 0)) {
    npukb::violation(api, "constant padding (paddingMode 0) pads left and right only: topPadSize and botPadSize must "
                     "be 0", file, line);
  }
  if (st.pad_mode >= 2 && (p.leftPadSize > cols || p.rightPadSize > cols || p.topPadSize > rows || p.botPadSize > rows)) {
    npukb::violation(api, "block padding (modes 2, 3) needs pads no larger than the crop", file, line);
  }
  const int channels = sim::aipp_channels(st.format);
  const int cpad = st.cpad_mode == 1 ? 4 : static_cast<int>(32 / sizeof(T));
  const std::uint32_t out_h = rows + p.topPadSize + p.botPadSize, out_w = cols + p.leftPadSize + p.rightPadSize;
  const std::uint64_t bytes = static_cast<std::uint64_t>(out_h) * out_w * cpad * sizeof(T);
  sim::check_cube_operand(api, "dst", dst, bytes, {Hardware::L1}, file, line);
  // source rows read (GM bounds)
  const std::uint32_t pix = st.format == AippInputFormat::RGB888_U8 ? 3 : st.format == AippInputFormat::XRGB8888_U8 ? 4 : 1;
  for (std::uint32_t y = 0; y < rows; ++y) {
    const std::uint64_t row = static_cast<std::uint64_t>(p.vertStartPos + y) * p.srcHorizSize;
    npukb::check_gm(st.src0 + (row + p.horizStartPos) * pix, static_cast<std::uint64_t>(cols) * pix, false, api, file, line);
    if (st.src1 != nullptr) {
      npukb::check_gm(st.src1 + static_cast<std::uint64_t>((p.vertStartPos + y) / 2) * p.srcHorizSize + p.horizStartPos,
                      cols, false, api, file, line);
    }
  }
  T* d = dst.ptr();
  // crop index of padded coordinate q (pad before, size, pad2 after); -1: the constant
  auto map = [&](long long q, long long pad, long long size, long long pad2) -> long long {
    if (q >= pad && q < pad + size) return q - pad;
    if (st.pad_mode == 0) return -1;
    if (st.pad_mode == 1) return q < pad ? 0 : size - 1;                 // nearest edge pixel
    if (st.pad_mode == 2) return q < pad ? q : size - pad2 + (q - pad - size);   // the block at the edge, as is
    return q < pad ? pad - q - 1 : size - 1 - (q - pad - size);          // the block at the edge, mirrored
  };
  for (std::uint32_t oy = 0; oy < out_h; ++oy) {
    const long long sy = map(oy, p.topPadSize, rows, p.botPadSize);
    for (std::uint32_t ox = 0; ox < out_w; ++ox) {
      const long long sx = map(ox, p.leftPadSize, cols, p.rightPadSize);
      T* px = d + (static_cast<std::uint64_t>(oy) * out_w + ox) * cpad;
      float out[4] = {st.cpad_value, st.cpad_value, st.cpad_value, st.cpad_value};
      if (sy < 0 || sx < 0) {
        for (int c = 0; c < channels; ++c) out[c] = st.pad_value[c];
      } else {
        int v[3];
        sim::aipp_pixel(st, p.srcHorizSize, static_cast<std::uint32_t>(p.horizStartPos + sx),
                        static_cast<std::uint32_t>(p.vertStartPos + sy), v);
        if (st.csc.isEnableCsc && channels == 3) sim::aipp_csc(st, v);
        for (int c = 0; c < channels; ++c) out[c] = sim::aipp_dtc(st, c, v[c]);
      }
      for (int c = 0; c < cpad; ++c) {
        const float f = c < channels ? out[c] : st.cpad_value;
        px[c] = static_cast<T>(f);
      }
    }
  }
  npukb::kern::state().blk->gm_read_bytes += static_cast<std::uint64_t>(rows) * cols * pix;
  const npukb::kern::CubeSpan out_span = sim::cube_span(dst, 0, bytes);
  npukb::kern::schedule_cube(npukb::PIPE_ID_MTE2, npukb::kern::dma_cycles(bytes, rows, false, false), nullptr, 0,
                             &out_span, 1);
}
// a tensor of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition pos, typename LayoutType>
inline void LoadImageToLocal(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
                             const LoadImageToLocalParams& loadDataParams) {
  LoadImageToLocal(sim::lite(dst), loadDataParams);
}

}  // namespace AscendC
