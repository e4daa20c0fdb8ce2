// npukb_sim/kernel/cube_load3d.h -- LoadData (convolution data movement, "Load3D"): img2col of an
// NC1HWC0 feature map in L1 into L0A (zZ, optionally transposed) or L0B (always transposed, nZ), and
// the registers it reads: SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary, SetLoadDataRepeat.
// Load3Dv2 and Load3Dv2Pro run on Atlas A2/A3; Load3Dv1 does not exist there (a violation).
//
// The img2col matrix (the simulator's reading of the documentation, docs/simulator.md): with C0 = 32
// bytes of elements, C1 = channelSize / C0, a filter Kh x Kw (+256 per filterSize flag), strides sh, sw,
// dilations dh, dw and padding (left, right, top, bottom), the output has Ho x Wo pixels; row m =
// ho * Wo + wo, column k = ((c1 * Kh + kh) * Kw + kw) * C0 + c0, value fm[c1][ho*sh + kh*dh - top]
// [wo*sw + kw*dw - left][c0], or the padding value outside the map. The instruction moves the window
// [mStartPt, +mExtension) x [kStartPt, +kExtension) (repeated along M or K by SetLoadDataRepeat, the
// repeats forming one larger window). Window positions past the img2col matrix read as the padding value;
// fractal positions outside the window are written as zero.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "npukb_sim/kernel/cube_copy.h"
#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/prim_type.h"

namespace AscendC {
namespace sim {

template <typename T>
constexpr std::uint32_t elem_bits() {
  if constexpr (std::is_same_v<T, int4b_t>) return 4;
  else return 8 * sizeof(T);
}

// Element `i` of `bits` width from a byte buffer (int4b_t: element 2j in the low nibble of byte j).
inline std::uint64_t get_elem(const std::uint8_t* base, std::uint64_t i, std::uint32_t bits) {
  if (bits == 4) return i % 2 == 0 ? base[i / 2] & 0xfu : base[i / 2] >> 4;
  std::uint64_t v = 0;
  std::memcpy(&v, base + i * (bits / 8), bits / 8);
  return v;
}
inline void set_elem(std::uint8_t* base, std::uint64_t i, std::uint32_t bits, std::uint64_t v) {
  if (bits == 4) {
    std::uint8_t& b = base[i / 2];
    b = i % 2 == 0 ? static_cast<std::uint8_t>((b & 0xf0u) | (v & 0xfu)) : static_cast<std::uint8_t>((b & 0x0fu) | ((v & 0xfu) << 4));
    return;
  }
  std::memcpy(base + i * (bits / 8), &v, bits / 8);
}

// One Load3Dv2 instruction, with every register value resolved.
struct Load3dJob {
  std::uint32_t h = 0, w = 0, channels = 0;
  std::uint8_t pad[4] = {0, 0, 0, 0};   // left, right, top, bottom
  std::uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  std::uint32_t m_start = 0, k_start = 0, m_ext = 0, k_ext = 0;
  bool transpose = false;
  std::uint64_t pad_value = 0;
};

inline std::string load3d_types_hint() {
  return "L0A (A2) takes int4b_t, int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t and float; L0B (B2) half, "
         "bfloat16_t, int32_t, uint32_t and float";
}

template <typename T>
inline void load3d(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const Load3dJob& j,
                   const char* file, int line) {
  static_assert(std::is_same_v<T, int4b_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
                    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>,
                "LoadData (Load3D) supports int4b_t, int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t and float");
  require_cube_core(api, file, line);
  if (j.h == 0 || j.w == 0 || j.channels == 0 || j.k_ext == 0 || j.m_ext == 0 || j.kh == 0 || j.kw == 0) return;
  const npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  const std::uint32_t rep_time = regs.repeat_set ? regs.repeat_time : 1;
  if (rep_time == 0) return;
  constexpr std::uint32_t bits = elem_bits<T>();
  constexpr std::uint32_t c0 = 256 / bits;   // elements of 32 bytes
  const Hardware hw = dst.loc().hw;
  const bool to_b = hw == Hardware::L0B;
  if (to_b && bits <= 8) {
    npukb::violation(api, "L1 -> L0B does not take 8- or 4-bit data (" + load3d_types_hint() + ")", file, line);
  }
  if (!to_b && j.transpose && bits <= 8) {
    npukb::violation(api, "enTranspose into L0A needs 16- or 32-bit data (b8/b4 cannot be transposed)", file, line);
  }
  if (j.channels % c0 != 0) {
    npukb::violation(api, "channelSize " + npukb::kern::num(j.channels) + " is not a multiple of C0 = " +
                     npukb::kern::num(c0) + " elements: the small-channel layouts (channelSize % C0 in {4, 8, 16}) "
                     "are not modelled by the simulator", file, line);
  }
  if (j.sh == 0 || j.sw == 0 || j.dh == 0 || j.dw == 0) {
    npukb::violation(api, "strideW/strideH and dilationFilterW/dilationFilterH must be at least 1", file, line);
  }
  if (j.k_start % c0 != 0) {
    npukb::violation(api, "kStartPt " + npukb::kern::num(j.k_start) + " must be a multiple of " + npukb::kern::num(c0) +
                     " (32 bytes of the type)", file, line);
  }
  const long long span_w = static_cast<long long>(j.w) + j.pad[0] + j.pad[1] - static_cast<long long>(j.dw) * (j.kw - 1) - 1;
  const long long span_h = static_cast<long long>(j.h) + j.pad[2] + j.pad[3] - static_cast<long long>(j.dh) * (j.kh - 1) - 1;
  const std::uint64_t wo = span_w < 0 ? 0 : static_cast<std::uint64_t>(span_w / j.sw + 1);
  const std::uint64_t ho = span_h < 0 ? 0 : static_cast<std::uint64_t>(span_h / j.sh + 1);
  const std::uint64_t big_m = static_cast<std::uint64_t>(ho) * wo;
  const std::uint64_t big_k = static_cast<std::uint64_t>(j.channels) * j.kh * j.kw;
  // the window must cover whole fractals unless it reaches the matrix's last row / column of fractals
  if (j.m_ext % 16 != 0 && bits != 32 && j.m_start + j.m_ext < big_m) {
    npukb::violation(api, "mExtension " + npukb::kern::num(j.m_ext) + " must be a multiple of 16 unless the window "
                     "reaches the last row of the img2col matrix (" + npukb::kern::num(static_cast<long long>(big_m)) +
                     " rows)", file, line);
  }
  if (j.k_ext % c0 != 0 && j.k_start + j.k_ext < big_k) {
    npukb::violation(api, "kExtension " + npukb::kern::num(j.k_ext) + " must be a multiple of " + npukb::kern::num(c0) +
                     " unless the window reaches the last column of the img2col matrix (" +
                     npukb::kern::num(static_cast<long long>(big_k)) + " columns)", file, line);
  }
  const bool along_k = regs.repeat_set && regs.repeat_mode == 1;
  const std::uint64_t step = static_cast<std::uint64_t>(regs.repeat_set ? regs.repeat_stride : 0) * c0;
  const std::uint64_t rows = static_cast<std::uint64_t>(j.m_ext) * (along_k ? 1 : rep_time);
  const std::uint64_t cols = static_cast<std::uint64_t>(j.k_ext) * (along_k ? rep_time : 1);
  // destination grid: A no transpose rows x cols in 16 x c0 fractals; A transposed cols x rows in 16 x c0
  // fractals; B rows x cols in c0 x 16 fractals (stored as 16 columns of c0)
  std::uint64_t fr_rows, fr_cols;
  if (to_b) {
    fr_rows = (rows + c0 - 1) / c0;
    fr_cols = (cols + 15) / 16;
  } else if (j.transpose) {
    fr_rows = (cols + 15) / 16;
    fr_cols = (rows + c0 - 1) / c0;
  } else {
    fr_rows = (rows + 15) / 16;
    fr_cols = (cols + c0 - 1) / c0;
  }
  const std::uint64_t dst_bytes = fr_rows * fr_cols * 512;
  check_cube_operand(api, "dst", dst, dst_bytes, {Hardware::L0A, Hardware::L0B}, file, line);
  check_cube_operand(api, "src", src, 0, {Hardware::L1}, file, line);
  const LocalLoc& sl = src.loc();
  if (regs.boundary != 0 && sl.addr >= regs.boundary) {
    npukb::violation(api, "the source starts at L1 offset " + npukb::kern::num(sl.addr) + ", outside the boundary " +
                     npukb::kern::num(regs.boundary) + " set by SetLoadDataBoundary", file, line);
  }
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  std::memset(d, 0, dst_bytes);
  const std::uint64_t kk = static_cast<std::uint64_t>(j.kh) * j.kw * c0;   // columns per C1 plane
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      const std::uint64_t q = along_k ? c / j.k_ext : r / j.m_ext;
      const std::uint64_t m = j.m_start + (along_k ? r : r % j.m_ext + q * step);
      const std::uint64_t k = j.k_start + (along_k ? c % j.k_ext + q * step : c);
      const std::uint64_t oh = m / (wo == 0 ? 1 : wo), ow = m % (wo == 0 ? 1 : wo);
      const std::uint64_t c1 = k / kk, rem = k % kk;
      const std::uint64_t fh = rem / (static_cast<std::uint64_t>(j.kw) * c0), fw = (rem / c0) % j.kw, cc = k % c0;
      const long long hi = static_cast<long long>(oh * j.sh + fh * j.dh) - j.pad[2];
      const long long wi = static_cast<long long>(ow * j.sw + fw * j.dw) - j.pad[0];
      std::uint64_t v = j.pad_value;   // padding, and window positions past the img2col matrix
      if (m < big_m && k < big_k && hi >= 0 && hi < static_cast<long long>(j.h) && wi >= 0 &&
          wi < static_cast<long long>(j.w)) {
        const std::uint64_t idx = ((c1 * j.h + static_cast<std::uint64_t>(hi)) * j.w + static_cast<std::uint64_t>(wi)) * c0 + cc;
        // element index from the start of L1 (the source start is 32-byte aligned)
        std::uint64_t e = static_cast<std::uint64_t>(sl.addr) * 8 / bits + idx;
        std::uint64_t byte = e * bits / 8;
        if (regs.boundary != 0 && byte >= regs.boundary) {     // reads past the boundary wrap to the start of L1
          byte %= regs.boundary;
          e = byte * 8 / bits + (bits == 4 ? e % 2 : 0);
        }
        if (byte + (bits + 7) / 8 > sl.region_bytes) {
          npukb::violation(api, "L1 overflow: the img2col read of element " + npukb::kern::num(static_cast<long long>(idx)) +
                           " of the feature map lies past the end of L1", file, line);
        }
        v = get_elem(sl.base, e, bits);
      }
      std::uint64_t di;
      if (to_b) {
        di = ((r / c0) * fr_cols + c / 16) * 16 * c0 + (c % 16) * c0 + r % c0;
      } else if (j.transpose) {
        di = ((c / 16) * fr_cols + r / c0) * 16 * c0 + (c % 16) * c0 + r % c0;
      } else {
        di = ((r / 16) * fr_cols + c / c0) * 16 * c0 + (r % 16) * c0 + c % c0;
      }
      set_elem(d, di, bits, v);
    }
  }
  cost_mte1(cube_span(src, 0, 0), cube_span(dst, 0, dst_bytes), dst_bytes);
}

template <typename T>
inline std::uint64_t pad_bits_of(const T& v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// The feature map and padding of a Load3Dv2 call: its own fields (writing the registers) or the registers.
template <typename T, const IsResetLoad3dConfig& cfg>
inline void resolve_v2(Load3dJob& j, const LoadData3DParamsV2<T>& p, const char* file, int line) {
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  const int side = p.fMatrixCtrl ? 1 : 0;
  if (cfg.isSetFMatrix) {
    regs.fm_h[side] = p.l1H;
    regs.fm_w[side] = p.l1W;
    std::memcpy(regs.fm_pad[side], p.padList, 4);
    regs.fm_set[side] = true;
  } else if (!regs.fm_set[side]) {
    npukb::violation("LoadData", "isSetFMatrix = false but SetFmatrix was never called for the " +
                     std::string(side ? "right" : "left") + " feature-map register", file, line);
  }
  if (cfg.isSetPadding) {
    regs.pad_bits = pad_bits_of(p.padValue);
    regs.pad_bytes = sizeof(T);
  }
  j.h = regs.fm_h[side];
  j.w = regs.fm_w[side];
  std::memcpy(j.pad, regs.fm_pad[side], 4);
  j.pad_value = regs.pad_bits;
}

}  // namespace sim

// ---- registers ------------------------------------------------------------------------------------
inline void SetFmatrix(std::uint16_t l1H, std::uint16_t l1W, const std::uint8_t padList[4], const FmatrixMode& fmatrixMode) { NPUKB_CALLER;
  if (l1H == 0 || l1H > 32767 || l1W == 0 || l1W > 32767) {
    npukb::violation("SetFmatrix", "l1H and l1W must lie in [1, 32767] (got " + npukb::kern::num(l1H) + ", " +
                     npukb::kern::num(l1W) + ")", file, line);
  }
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  const int side = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
  regs.fm_h[side] = l1H;
  regs.fm_w[side] = l1W;
  std::memcpy(regs.fm_pad[side], padList, 4);
  regs.fm_set[side] = true;
}

template <typename T>
inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int16_t> ||
                    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>,
                "SetLoadDataPaddingValue supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, "
                "uint32_t and float");
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  regs.pad_bits = sim::pad_bits_of(padValue);
  regs.pad_bytes = sizeof(T);
}

// Load3D reads past this L1 byte offset wrap to the start of L1 (0: no boundary).
inline void SetLoadDataBoundary(std::uint32_t boundaryValue) { NPUKB_CALLER;
  if (boundaryValue != 0 && boundaryValue < 1024) {
    npukb::violation("SetLoadDataBoundary", "a boundary of " + npukb::kern::num(boundaryValue) + " bytes is undefined "
                     "behaviour: use 0 (no boundary) or at least 1024", file, line);
  }
  npukb::kern::cube_regs().boundary = boundaryValue;
}

inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) { NPUKB_CALLER;
  if (repeatParams.repeatMode > 1) {
    npukb::violation("SetLoadDataRepeat", "repeatMode must be 0 (height) or 1 (width)", file, line);
  }
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  regs.repeat_set = true;
  regs.repeat_stride = repeatParams.repeatStride;
  regs.repeat_time = repeatParams.repeatTime;
  regs.repeat_mode = repeatParams.repeatMode;
}

// ---- LoadData (Load3D) ----------------------------------------------------------------------------
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = PrimT<T>,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV1<U>& loadDataParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    LoadData<PrimT<T>, defaultConfig>(sim::lite(dst), sim::lite(src), loadDataParams);
  } else {
    (void)dst;
    (void)src;
    (void)loadDataParams;
    npukb::violation("LoadData", "Load3Dv1 (LoadData3DParamsV1) does not exist on Atlas A2/A3 training products: use "
                     "LoadData3DParamsV2 or LoadData3DParamsV2Pro", file, line);
  }
}

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = PrimT<T>,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& loadDataParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    LoadData<PrimT<T>, defaultConfig>(sim::lite(dst), sim::lite(src), loadDataParams);
  } else {
    const LoadData3DParamsV2<U>& p = loadDataParams;
    if (p.enSmallK) npukb::violation("LoadData", "enSmallK is no longer supported (must be false)", file, line);
    sim::Load3dJob j;
    sim::resolve_v2<U, defaultConfig>(j, p, file, line);
    j.channels = p.channelSize;
    j.kw = p.filterW + (p.filterSizeW ? 256u : 0u);
    j.kh = p.filterH + (p.filterSizeH ? 256u : 0u);
    j.sw = p.strideW;
    j.sh = p.strideH;
    j.dw = p.dilationFilterW;
    j.dh = p.dilationFilterH;
    j.m_start = p.mStartPt;
    j.k_start = p.kStartPt;
    j.m_ext = p.mExtension;
    j.k_ext = p.kExtension;
    j.transpose = p.enTranspose && dst.loc().hw == Hardware::L0A;
    sim::load3d("LoadData", dst, src, j, file, line);
  }
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& loadDataParams) { NPUKB_CALLER;
  const LoadData3DParamsV2Pro& p = loadDataParams;
  if (p.enSmallK) npukb::violation("LoadData", "enSmallK is no longer supported (must be false)", file, line);
  const npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  const int side = p.fMatrixCtrl ? 1 : 0;
  if (!regs.fm_set[side]) {
    npukb::violation("LoadData", "LoadData3DParamsV2Pro reads the feature map from the registers: call SetFmatrix first",
                     file, line);
  }
  sim::Load3dJob j;
  j.h = regs.fm_h[side];
  j.w = regs.fm_w[side];
  std::memcpy(j.pad, regs.fm_pad[side], 4);
  j.pad_value = regs.pad_bits;
  j.channels = p.channelSize;
  j.m_start = static_cast<std::uint32_t>((p.extConfig >> 48) & 0xffffu);
  j.k_start = static_cast<std::uint32_t>((p.extConfig >> 32) & 0xffffu);
  j.m_ext = static_cast<std::uint32_t>((p.extConfig >> 16) & 0xffffu);
  j.k_ext = static_cast<std::uint32_t>(p.extConfig & 0xffffu);
  j.dh = static_cast<std::uint32_t>((p.filterConfig >> 40) & 0xffu);
  j.dw = static_cast<std::uint32_t>((p.filterConfig >> 32) & 0xffu);
  j.kh = static_cast<std::uint32_t>((p.filterConfig >> 24) & 0xffu) + (p.filterSizeH ? 256u : 0u);
  j.kw = static_cast<std::uint32_t>((p.filterConfig >> 16) & 0xffu) + (p.filterSizeW ? 256u : 0u);
  j.sh = static_cast<std::uint32_t>((p.filterConfig >> 8) & 0xffu);
  j.sw = static_cast<std::uint32_t>(p.filterConfig & 0xffu);
  j.transpose = p.enTranspose && dst.loc().hw == Hardware::L0A;
  sim::load3d("LoadData", dst, src, j, file, line);
}
// tensors of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition pos, typename LayoutType>
inline void LoadData(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
                     const LocalTensor<TensorTrait<T, pos, LayoutType>>& src, const LoadData3DParamsV2Pro& loadDataParams) {
  LoadData(sim::lite(dst), sim::lite(src), loadDataParams);
}

}  // namespace AscendC
