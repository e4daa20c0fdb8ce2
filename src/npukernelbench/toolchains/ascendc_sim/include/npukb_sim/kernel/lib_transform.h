// npukb_sim/kernel/lib_transform.h -- the tensor-transform library of the Atlas A2 / A3 training series:
// Pad / UnPad of a 2-D tensor's width (PadParams, UnPadParams, PadTiling, UnPadTiling), the high-level
// Transpose (ConfusionTranspose scenarios 1 to 7, ConfusionTransposeTiling), TransData (NCDHW to and from
// NDC1HWC0 / FRACTAL_Z_3D) and Fill of Global Memory. Broadcast is in broadcast.h. Clean-room part of ascendc-sim, written from the API pages.
//
// Pad reads [srcHeight, srcWidth] and the valid width srcOriWidth from the PadTiling (PadTilingFunc).
// Scenario 1, a width not 32-byte aligned: each dense source row becomes a destination row of the
// aligned width, leftPad padValue columns, the row, rightPad padValue columns (left + width + right at
// most the aligned width; the columns beyond are left alone). Scenario 2, an aligned width with
// redundant columns (srcOriWidth < srcWidth): rightPad columns after the valid ones take padValue, only
// on the right. UnPad drops rightPad (< 32 bytes) columns of an aligned [srcHeight, srcWidth] tensor
// (leftPad has no effect, as documented): dst is [srcHeight, srcWidth - rightPad], dense.
// Transpose, with srcShape [B, N, S, H/N] from the tiling (K = H/N; NZ data store 16 x 16 fractals,
// [K/16, S/16, 16, 16] per matrix, dims not a multiple of 16 padded up): 1 NZ [B, N, S, K] -> ND
// [B, S, N, K]; 2 -> NZ of [B, S, N, K] (per (b, s) an [N, K] fractal matrix); 3 NZ [B, S, H] -> NZ
// [B, N, S, K]; 4 -> ND [B, N, S, K] (rows K rounded up to 16); 5 NZ [B, N, S, K] -> ND [B, S, H] (rows
// H rounded up to 16); 6 -> NZ [B, S, H]; 7 ND [H, W] -> [W, H] (H, W multiples of 16). Scenarios 13 to 16
// are documented for the Ascend 950 only, 8 to 12 as not supported. TransData (16-bit types) reads the
// shapes of params.srcLayout / dstLayout through GetShape() and get<i> (a tuple-like Shape, as MakeShape
// builds); NCDHW data store the merged H * W axis padded to 32 bytes, NDC1HWC0 is [N, D, C/16, H, W, 16]
// and FRACTAL_Z_3D [D, C/16, H, W, N/16, 16, 16] (N0 by C0 fractals) with the padded channels and batches
// written as 0; the padding of an NCDHW result is left alone. Fill writes size copies of value to a
// GlobalTensor and, as the page says, may only run before the kernel's first InitBuffer (it uses UB).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace AscendC {

struct PadParams {
  std::uint16_t leftPad = 0;
  std::uint16_t rightPad = 0;
  std::int32_t padValue = 0;
};
struct UnPadParams {
  std::uint16_t leftPad = 0;
  std::uint16_t rightPad = 0;
};

namespace sim {

template <typename T>
constexpr bool pad_types = one_of<T, std::int16_t, std::uint16_t, half, std::int32_t, std::uint32_t, float>;

// A caller's work buffer against the simulator's minimum and the buffer the tiling was planned for.
inline void check_planned_tmp(const char* api, const LocalTensor<std::uint8_t>* tmp, std::uint64_t need,
                              std::uint32_t planned, const char* helper, const char* file, int line) {
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, helper, file, line);
    if (planned > tmp->GetSize()) {
      npukb::violation(api, "the tiling was planned for a work buffer of " + npukb::kern::num(planned) +
                       " bytes, but sharedTmpBuffer has " + npukb::kern::num(tmp->GetSize()), file, line);
    }
  } else {
    check_framework_tmp(api, need > planned ? need : planned, helper, file, line);
  }
}

template <typename T>
inline void pad_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
                    const LocalTensor<std::uint8_t>* tmp, const PadTiling& t, const char* file, int line) {
  const char* api = "Pad";
  const std::uint32_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth;
  if (h == 0 || w == 0) npukb::violation(api, "the PadTiling is empty (fill it with PadTilingFunc)", file, line);
  if (static_cast<std::uint64_t>(h) * w * sizeof(T) % 32 != 0) {
    npukb::violation(api, "the source holds " + npukb::kern::num(static_cast<long long>(h) * w * sizeof(T)) +
                     " bytes, not a whole number of 32-byte blocks (the page requires it)", file, line);
  }
  const bool aligned = w * sizeof(T) % 32 == 0;
  const std::uint32_t aw = npukb_lib::PadAlignedWidth(w, sizeof(T));
  if (aligned) {
    if (ow == 0 || ow >= w) {
      npukb::violation(api, "the width " + npukb::kern::num(w) + " is already 32-byte aligned and holds no redundant "
                       "columns (srcOriWidth " + npukb::kern::num(ow) + "): the page does not support padding it", file, line);
    }
    if (p.leftPad != 0) {
      npukb::violation(api, "padding an aligned width with redundant columns supports only rightPad (leftPad " +
                       npukb::kern::num(p.leftPad) + ")", file, line);
    }
    if (ow + p.rightPad > w) {
      npukb::violation(api, "srcOriWidth " + npukb::kern::num(ow) + " + rightPad " + npukb::kern::num(p.rightPad) +
                       " exceeds the width " + npukb::kern::num(w), file, line);
    }
  } else {
    if (ow != w) {
      npukb::violation(api, "a width that is not 32-byte aligned (" + npukb::kern::num(w) + ") cannot carry redundant "
                       "columns: oriSrcShape must equal srcShape", file, line);
    }
    if (p.leftPad + w + p.rightPad > aw) {
      npukb::violation(api, "leftPad " + npukb::kern::num(p.leftPad) + " + width " + npukb::kern::num(w) + " + rightPad " +
                       npukb::kern::num(p.rightPad) + " exceeds the 32-byte aligned width " + npukb::kern::num(aw), file, line);
    }
  }
  const std::uint64_t sbytes = static_cast<std::uint64_t>(h) * w * sizeof(T);
  const std::uint64_t dbytes = static_cast<std::uint64_t>(h) * aw * sizeof(T);
  check_local(api, "srcTensor", src, sbytes, true, file, line);
  check_local(api, "dstTensor", dst, dbytes, true, file, line);
  check_planned_tmp(api, tmp, npukb_lib::PadTmpBytes(h, w, sizeof(T), false), t.tmpBufferSize,
                    "Pad needs (GetPadMaxMinTmpSize's minimum)", file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + static_cast<std::uint64_t>(h) * w);
  T* d = dst.ptr();
  const T pv = static_cast<T>(p.padValue);
  for (std::uint64_t r = 0; r < h; ++r) {
    T* row = d + r * aw;
    if (aligned) {
      for (std::uint32_t c = 0; c < w; ++c) row[c] = (c >= ow && c < ow + p.rightPad) ? pv : in[r * w + c];
    } else {
      for (std::uint32_t c = 0; c < p.leftPad; ++c) row[c] = pv;
      for (std::uint32_t c = 0; c < w; ++c) row[p.leftPad + c] = in[r * w + c];
      for (std::uint32_t c = 0; c < p.rightPad; ++c) row[p.leftPad + w + c] = pv;
    }
  }
  const npukb::kern::Span sp = vspan(src, sbytes), dp = vspan(dst, dbytes);
  lib_cost(aligned ? 1 : (h + 15) / 16, aligned ? 2 : 3, kLibSimple * 2, dbytes / 4, &sp, 1, &dp, 1);
}

template <typename T>
inline void unpad_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& p,
                      const LocalTensor<std::uint8_t>* tmp, const UnPadTiling& t, const char* file, int line) {
  const char* api = "UnPad";
  const std::uint32_t h = t.srcHeight, w = t.srcWidth;
  if (h == 0 || w == 0) npukb::violation(api, "the UnPadTiling is empty (fill it with UnPadTilingFunc)", file, line);
  if (w * sizeof(T) % 32 != 0) {
    npukb::violation(api, "the width " + npukb::kern::num(w) + " is not 32-byte aligned: the page supports UnPad of "
                     "aligned widths only", file, line);
  }
  if (p.rightPad == 0 || p.rightPad * sizeof(T) >= 32) {
    npukb::violation(api, "rightPad " + npukb::kern::num(p.rightPad) + " must be greater than 0 and less than 32 bytes (" +
                     npukb::kern::num(32 / sizeof(T)) + " elements)", file, line);
  }
  const std::uint32_t dw = w - p.rightPad;
  const std::uint64_t sbytes = static_cast<std::uint64_t>(h) * w * sizeof(T);
  const std::uint64_t dbytes = static_cast<std::uint64_t>(h) * dw * sizeof(T);
  check_local(api, "srcTensor", src, sbytes, true, file, line);
  check_local(api, "dstTensor", dst, dbytes, true, file, line);
  check_planned_tmp(api, tmp, npukb_lib::UnPadTmpBytes(h, w, sizeof(T), false), t.tmpBufferSize,
                    "UnPad needs (GetUnPadMaxMinTmpSize's minimum)", file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + static_cast<std::uint64_t>(h) * w);
  for (std::uint64_t r = 0; r < h; ++r) std::memcpy(dst.ptr() + r * dw, in.data() + r * w, dw * sizeof(T));
  const npukb::kern::Span sp = vspan(src, sbytes), dp = vspan(dst, dbytes);
  lib_cost((h + 15) / 16, 3, kLibSimple * 2, sbytes / 4, &sp, 1, &dp, 1);
}

}  // namespace sim

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<std::uint8_t>& sharedTmpBuffer, PadTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::pad_types<T>, "Pad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  sim::pad_run(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, file, line);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams, PadTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::pad_types<T>, "Pad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  sim::pad_run(dstTensor, srcTensor, padParams, nullptr, tiling, file, line);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<std::uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::pad_types<T>, "UnPad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  sim::unpad_run(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, file, line);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::pad_types<T>, "UnPad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  sim::unpad_run(dstTensor, srcTensor, unPadParams, nullptr, tiling, file, line);
}

// ---- Transpose (ConfusionTranspose) --------------------------------------------------------------
namespace sim {

struct NzDims {
  std::uint64_t b, n, s, k, h, k1, h1;
};
// Offsets (elements) of the layouts the scenarios read and write.
inline std::uint64_t nz4(const NzDims& d, std::uint64_t b, std::uint64_t n, std::uint64_t s, std::uint64_t k) {
  return (b * d.n + n) * d.k1 * 16 * d.s + ((k / 16) * d.s + s) * 16 + k % 16;
}
inline std::uint64_t nz3(const NzDims& d, std::uint64_t b, std::uint64_t s, std::uint64_t h) {
  return b * d.h1 * 16 * d.s + ((h / 16) * d.s + s) * 16 + h % 16;
}

template <typename T>
inline void confusion_transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp,
                                TransposeType type, const ConfusionTransposeTiling& t, const char* file, int line) {
  const char* api = "Transpose";
  const auto ty = static_cast<std::uint32_t>(type);
  if (ty >= 13 && ty <= 16) {
    npukb::violation(api, "transposeType " + npukb::kern::num(ty) + " (scenarios 13 to 16) is documented for the Ascend "
                     "950PR / 950DT only", file, line);
  }
  if (ty < 1 || ty > 7) {
    npukb::violation(api, "transposeType " + npukb::kern::num(ty) + " is not supported (the A2 / A3 series take "
                     "scenarios 1 to 7)", file, line);
  }
  if (t.transposeType != ty || t.typeSize != sizeof(T)) {
    npukb::violation(api, "the ConfusionTransposeTiling was computed for transposeType " +
                     npukb::kern::num(t.transposeType) + " and typeSize " + npukb::kern::num(t.typeSize) +
                     " (GetTransposeTilingInfo), but the call has " + npukb::kern::num(ty) + " and " +
                     npukb::kern::num(sizeof(T)), file, line);
  }
  const std::uint64_t need = npukb_lib::TransposeTmpBytes(ty, t.srcDim2, sizeof(T));
  check_planned_tmp(api, tmp, need, t.tmpBufferSize, "Transpose needs (GetTransposeMaxMinTmpSize)", file, line);
  if (ty == 7) {
    const std::uint64_t hh = t.srcDim0, ww = t.srcDim1;
    if (t.shapeDimNum != 2 || hh == 0 || ww == 0 || hh % 16 != 0 || ww % 16 != 0) {
      npukb::violation(api, "the two-dimensional transpose needs srcShape [H, W] with H and W positive multiples of 16",
                       file, line);
    }
    const std::uint64_t bytes = hh * ww * sizeof(T);
    check_local(api, "src", src, bytes, true, file, line);
    check_local(api, "dst", dst, bytes, true, file, line);
    const std::vector<T> in(src.ptr(), src.ptr() + hh * ww);
    for (std::uint64_t r = 0; r < hh; ++r)
      for (std::uint64_t c = 0; c < ww; ++c) dst.ptr()[c * hh + r] = in[r * ww + c];
    const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
    lib_cost(1, 1, kLibSimple, bytes / 4, &sp, 1, &dp, 1);
    return;
  }
  NzDims d{t.srcDim0, t.srcDim1, t.srcDim2, t.srcDim3, 0, 0, 0};
  if (t.shapeDimNum != 4 || d.b == 0 || d.n == 0 || d.s == 0 || d.k == 0 || d.s % 16 != 0) {
    npukb::violation(api, "scenarios 1 to 6 need srcShape [B, N, S, H/N] with positive dims and S a multiple of 16", file,
                     line);
  }
  d.h = d.n * d.k;
  d.k1 = (d.k + 15) / 16;
  d.h1 = (d.h + 15) / 16;
  const std::uint64_t n1 = (d.n + 15) / 16;
  const bool from_bsh = ty == 3 || ty == 4;   // the source is NZ [B, S, H]
  const std::uint64_t src_elems = from_bsh ? d.b * d.h1 * 16 * d.s : d.b * d.n * d.k1 * 16 * d.s;
  std::uint64_t dst_elems = 0;
  switch (ty) {
    case 1: dst_elems = d.b * d.s * d.n * d.k; break;
    case 2: dst_elems = d.b * d.s * d.k1 * n1 * 256; break;
    case 3: dst_elems = d.b * d.n * d.k1 * 16 * d.s; break;
    case 4: dst_elems = d.b * d.n * d.s * ((d.k + 15) / 16 * 16); break;
    case 5: dst_elems = d.b * d.s * d.h1 * 16; break;
    default: dst_elems = d.b * d.h1 * 16 * d.s; break;
  }
  check_local(api, "src", src, src_elems * sizeof(T), true, file, line);
  check_local(api, "dst", dst, dst_elems * sizeof(T), true, file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + src_elems);
  T* o = dst.ptr();
  for (std::uint64_t b = 0; b < d.b; ++b) {
    for (std::uint64_t n = 0; n < d.n; ++n) {
      for (std::uint64_t s = 0; s < d.s; ++s) {
        for (std::uint64_t k = 0; k < d.k; ++k) {
          const std::uint64_t h = n * d.k + k;
          const T v = in[from_bsh ? nz3(d, b, s, h) : nz4(d, b, n, s, k)];
          switch (ty) {
            case 1: o[((b * d.s + s) * d.n + n) * d.k + k] = v; break;
            case 2: o[(b * d.s + s) * d.k1 * n1 * 256 + ((k / 16) * n1 * 16 + n) * 16 + k % 16] = v; break;
            case 3: o[nz4(d, b, n, s, k)] = v; break;
            case 4: o[((b * d.n + n) * d.s + s) * ((d.k + 15) / 16 * 16) + k] = v; break;
            case 5: o[(b * d.s + s) * d.h1 * 16 + h] = v; break;
            default: o[nz3(d, b, s, h)] = v; break;
          }
        }
      }
    }
  }
  const npukb::kern::Span sp = vspan(src, src_elems * sizeof(T)), dp = vspan(dst, dst_elems * sizeof(T));
  lib_cost(static_cast<std::uint32_t>(d.b * (from_bsh ? 1 : d.n)), ty <= 2 ? 2 : 3, kLibSimple * 2,
           (src_elems + dst_elems) * sizeof(T) / 4, &sp, 1, &dp, 1);
}

template <typename T>
constexpr bool confusion_transpose_types =
    one_of<T, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t, std::uint32_t, float>;

}  // namespace sim

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      TransposeType transposeType, ConfusionTransposeTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::confusion_transpose_types<T>, "Transpose: unsupported data type");
  if (!sim::pad_types<T>) {
    npukb::violation("Transpose", "scenarios 1 to 7 take int16_t, uint16_t, half, int32_t, uint32_t or float (the other "
                     "types are for the Ascend 950-only scenarios 13 to 16)", file, line);
  }
  sim::confusion_transpose(dst, src, &sharedTmpBuffer, transposeType, tiling, file, line);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                      ConfusionTransposeTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::confusion_transpose_types<T>, "Transpose: unsupported data type");
  if (!sim::pad_types<T>) {
    npukb::violation("Transpose", "scenarios 1 to 7 take int16_t, uint16_t, half, int32_t, uint32_t or float (the other "
                     "types are for the Ascend 950-only scenarios 13 to 16)", file, line);
  }
  sim::confusion_transpose(dst, src, nullptr, transposeType, tiling, file, line);
}

// ---- TransData -----------------------------------------------------------------------------------
template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

namespace sim {

template <typename S, std::size_t... I>
inline std::vector<std::uint64_t> tuple_dims(const S& shape, std::index_sequence<I...>) {
  using std::get;  // a std::tuple; AscendC::Std::get (found by ADL) for the Shape of MakeShape
  return {static_cast<std::uint64_t>(get<I>(shape))...};
}
template <typename S>
struct shape_rank : std::tuple_size<S> {};
template <typename... Ts>
struct shape_rank<Std::tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
// The dims of a layout: its GetShape(), a tuple-like shape (an AscendC::Layout's Shape, or a std::tuple).
template <typename L>
inline std::vector<std::uint64_t> layout_dims(const L& layout) {
  const auto& shape = layout.GetShape();
  using S = std::decay_t<decltype(shape)>;
  return tuple_dims(shape, std::make_index_sequence<shape_rank<S>::value>{});
}

inline std::string dims_text(const std::vector<std::uint64_t>& d) {
  std::string out = "[";
  for (std::size_t i = 0; i < d.size(); ++i) out += (i ? ", " : "") + npukb::kern::num(static_cast<long long>(d[i]));
  return out + "]";
}

template <typename T>
inline void trans_data_run(DataFormat from, DataFormat to, const std::vector<std::uint64_t>& sd,
                           const std::vector<std::uint64_t>& dd, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<std::uint8_t>* tmp, const char* file, int line) {
  const char* api = "TransData";
  const bool to_fz = to == DataFormat::FRACTAL_Z_3D || from == DataFormat::FRACTAL_Z_3D;
  const bool forward = from == DataFormat::NCDHW;
  const std::vector<std::uint64_t>& nc = forward ? sd : dd;     // the NCDHW side
  const std::vector<std::uint64_t>& other = forward ? dd : sd;
  bool ok = nc.size() == 5 && other.size() == (to_fz ? 7u : 6u);
  std::uint64_t n = 0, c = 0, d = 0, h = 0, w = 0;
  if (ok) {
    n = nc[0]; c = nc[1]; d = nc[2]; h = nc[3]; w = nc[4];
    const std::uint64_t c1 = (c + 15) / 16, n1 = (n + 15) / 16;
    ok = n && c && d && h && w &&
         (to_fz ? (other[0] == d && other[1] == c1 && other[2] == h && other[3] == w && other[4] == n1 && other[5] == 16 &&
                   other[6] == 16)
                : (other[0] == n && other[1] == d && other[2] == c1 && other[3] == h && other[4] == w && other[5] == 16));
  }
  if (!ok) {
    npukb::violation(api, "the layouts' shapes " + dims_text(sd) + " -> " + dims_text(dd) + " do not match the formats: "
                     "NCDHW [N, C, D, H, W], NDC1HWC0 [N, D, C/16, H, W, 16], FRACTAL_Z_3D [D, C/16, H, W, N/16, 16, 16]",
                     file, line);
  }
  const std::uint64_t hw = h * w, hwp = (hw + 15) / 16 * 16, c1 = (c + 15) / 16, n1 = (n + 15) / 16;
  const std::uint64_t nc_elems = n * c * d * hwp;
  const std::uint64_t other_elems = to_fz ? d * c1 * hw * n1 * 256 : n * d * c1 * hw * 16;
  const std::uint64_t sbytes = (forward ? nc_elems : other_elems) * sizeof(T);
  const std::uint64_t dbytes = (forward ? other_elems : nc_elems) * sizeof(T);
  check_local(api, "srcTensor", src, sbytes, true, file, line);
  check_local(api, "dstTensor", dst, dbytes, true, file, line);
  check_no_overlap(api, "dstTensor", dst, dbytes, "srcTensor", src, sbytes, file, line);
  const std::uint64_t need = npukb_lib::TransDataTmpBytes(static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(c),
                                                          static_cast<std::uint32_t>(d), static_cast<std::uint32_t>(hw),
                                                          sizeof(T), to_fz);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "TransData needs (GetTransDataMaxMinTmpSize)", file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "srcTensor", src, sbytes, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "dstTensor", dst, dbytes, file, line);
  } else {
    check_framework_tmp(api, need, "GetTransDataMaxMinTmpSize's minimum", file, line);
  }
  auto nc_at = [&](std::uint64_t in, std::uint64_t ic, std::uint64_t id, std::uint64_t ihw) {
    return ((in * c + ic) * d + id) * hwp + ihw;
  };
  auto other_at = [&](std::uint64_t in, std::uint64_t ic, std::uint64_t id, std::uint64_t ihw) {
    return to_fz ? ((((id * c1 + ic / 16) * hw + ihw) * n1 + in / 16) * 16 + in % 16) * 16 + ic % 16
                 : (((in * d + id) * c1 + ic / 16) * hw + ihw) * 16 + ic % 16;
  };
  const T* s = src.ptr();
  T* o = dst.ptr();
  const std::uint64_t nn = to_fz ? n1 * 16 : n, cc = c1 * 16;
  for (std::uint64_t in = 0; in < nn; ++in) {
    for (std::uint64_t ic = 0; ic < cc; ++ic) {
      for (std::uint64_t id = 0; id < d; ++id) {
        for (std::uint64_t ihw = 0; ihw < hw; ++ihw) {
          const bool real = in < n && ic < c;
          if (forward) {
            o[other_at(in, ic, id, ihw)] = real ? s[nc_at(in, ic, id, ihw)] : static_cast<T>(0);
          } else if (real) {
            o[nc_at(in, ic, id, ihw)] = s[other_at(in, ic, id, ihw)];
          }
        }
      }
    }
  }
  const npukb::kern::Span sp = vspan(src, sbytes), dp = vspan(dst, dbytes);
  lib_cost(static_cast<std::uint32_t>(d * (to_fz ? 1 : n)), 2, kLibSimple * 2, (sbytes + dbytes) / 4, &sp, 1, &dp, 1);
}

template <const TransDataConfig& config>
constexpr bool trans_data_config_ok =
    (config.srcFormat == DataFormat::NCDHW &&
     (config.dstFormat == DataFormat::NDC1HWC0 || config.dstFormat == DataFormat::FRACTAL_Z_3D)) ||
    (config.dstFormat == DataFormat::NCDHW &&
     (config.srcFormat == DataFormat::NDC1HWC0 || config.srcFormat == DataFormat::FRACTAL_Z_3D));

}  // namespace sim

#define NPUKB_TRANS_DATA_CHECKS                                                                                        \
  static_assert(sim::one_of<T, std::int16_t, std::uint16_t, half, bfloat16_t>,                                       \
                "TransData: unsupported data type (int16_t, uint16_t, half, bfloat16_t)");                            \
  static_assert(sim::trans_data_config_ok<config>, "TransData: config must be NCDHW -> NDC1HWC0, NDC1HWC0 -> NCDHW, "  \
                "NCDHW -> FRACTAL_Z_3D or FRACTAL_Z_3D -> NCDHW")
template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) { NPUKB_CALLER;
  NPUKB_TRANS_DATA_CHECKS;
  sim::trans_data_run(config.srcFormat, config.dstFormat, sim::layout_dims(params.srcLayout),
                      sim::layout_dims(params.dstLayout), dstTensor, srcTensor, &sharedTmpBuffer, file, line);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params) { NPUKB_CALLER;
  NPUKB_TRANS_DATA_CHECKS;
  sim::trans_data_run(config.srcFormat, config.dstFormat, sim::layout_dims(params.srcLayout),
                      sim::layout_dims(params.dstLayout), dstTensor, srcTensor, nullptr, file, line);
}
#undef NPUKB_TRANS_DATA_CHECKS

// ---- Fill (Global Memory) ------------------------------------------------------------------------
template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const std::uint64_t size, const T value) { NPUKB_CALLER;
  static_assert(sim::one_of<T, std::uint16_t, std::int16_t, half, std::uint32_t, std::int32_t, float>,
                "Fill: unsupported data type (uint16_t, int16_t, half, uint32_t, int32_t, float)");
  const auto* pipe = static_cast<const TPipe*>(npukb::kern::state().live_pipe);
  if (pipe != nullptr && pipe->used_bytes(Hardware::UB) != 0) {
    npukb::violation("Fill", "Fill stages its value through the Unified Buffer and may only be called before the "
                     "kernel's first InitBuffer (TPipe has already allocated " +
                     npukb::kern::num(static_cast<long long>(pipe->used_bytes(Hardware::UB))) + " bytes of UB)", file, line);
  }
  sim::fill_gm("Fill", gmWorkspaceAddr, size, value, file, line);
}

}  // namespace AscendC
