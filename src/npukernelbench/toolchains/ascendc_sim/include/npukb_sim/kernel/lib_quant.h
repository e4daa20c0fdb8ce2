// npukb_sim/kernel/lib_quant.h -- AscendQuant, AscendDequant and AscendAntiQuant for the Atlas A2 / A3
// training series. Clean-room part of ascendc-sim, written from the API pages' formulas, data-type
// tables and constraints.
//
// AscendQuant (int8_t output; PER_TENSOR and PER_CHANNEL): computed in half as the page describes: the
// source, scale and offset are converted to half, dst = cast_int8(round(half(half(src * scale) + offset)))
// with round-half-to-even and saturation to [-128, 127]; PER_CHANNEL takes scale[i % scaleCount] and
// offset[i % offsetCount]. AscendDequant: an int32 [m, n] source converted to fp32, the first calCount
// columns of each row multiplied by the fp32 deqScale (vector: element j; scalar; uint64_t: its low 32
// bits are the float), the result rounded once to dstT; a dst row is n rounded up to 32 bytes of dstT;
// columns calCount..n hold the converted source unscaled (the page calls them undefined), the rest are
// left alone. DEQUANT_WITH_SINGLE_ROW reads {1, n, calCount} as {n / calCount, calCount, calCount} when
// calCount is a multiple of 32 / sizeof(dstT) dividing n. AscendAntiQuant (int8_t / int4b_t source,
// half / bfloat16_t output): dst = scale * (src + offset) per tensor, or per channel with the offset /
// scale row (non-transposed src [K, N]: offset[i / groupSize][j]) or column (transposed src [N, K]:
// offset[i][j / groupSize]); half outputs are computed in half (convert, Add, Mul), bfloat16_t outputs in
// fp32 and rounded once. int4b_t holds two elements per byte, the even one in the low nibble.
// The Ascend 950-only forms (AscendQuant<dstT, srcT> with any destination type; the PER_TOKEN / PER_GROUP
// forms of all three with their config, policy and param types; AscendAntiQuant's PER_GROUP float4 form
// with an fp8_e8m0_t scale) are declared as their pages write them and fail to compile with that
// explanation, as they would on the A2 / A3 series.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

// The page documents two shapes of AscendQuantConfig: {calcCount, offsetCount, scaleCount, workLocalSize}
// for the PER_TENSOR / PER_CHANNEL forms and {hasOffset, kDim, roundMode} for the (Ascend 950-only)
// PER_TOKEN / PER_GROUP forms. One struct holds both; its two constructors take the page's two brace
// initialisers ({0, 0, 0, 0}; {hasOffset, 1} or {hasOffset, 1, RoundMode::CAST_ROUND}).
struct AscendQuantConfig {
  constexpr AscendQuantConfig() = default;
  constexpr AscendQuantConfig(std::uint32_t calcCountIn, std::uint32_t offsetCountIn, std::uint32_t scaleCountIn,
                              std::uint32_t workLocalSizeIn)
      : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
  constexpr AscendQuantConfig(bool hasOffsetIn, std::int32_t kDimIn = 1, RoundMode roundModeIn = RoundMode::CAST_RINT)
      : hasOffset(hasOffsetIn), kDim(kDimIn), roundMode(roundModeIn) {}
  std::uint32_t calcCount = 0;
  std::uint32_t offsetCount = 0;
  std::uint32_t scaleCount = 0;
  std::uint32_t workLocalSize = 0;
  bool hasOffset = false;
  std::int32_t kDim = 1;
  RoundMode roundMode = RoundMode::CAST_RINT;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

// The PER_TOKEN / PER_GROUP types of the three APIs (their forms are Ascend 950 only).
enum class AscendQuantPolicy : std::int32_t {
  PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP, PER_CHANNEL_PER_GROUP, PER_TOKEN_PER_GROUP
};
struct AscendQuantParam {
  std::uint32_t m;
  std::uint32_t n;
  std::uint32_t calCount;
  std::uint32_t groupSize = 0;
};
struct AscendDeQuantConfig {
  bool hasOffset;
  std::int32_t kDim = 1;
};
enum class AscendDeQuantPolicy : std::int32_t { PER_TOKEN, PER_GROUP, PER_CHANNEL_PER_GROUP, PER_TOKEN_PER_GROUP };
struct AscendDeQuantParam {
  std::uint32_t m;
  std::uint32_t n;
  std::uint32_t calCount;
  std::uint32_t groupSize = 0;
};
struct AscendAntiQuantConfig {
  bool hasOffset;
  bool isTranspose;
  std::int32_t kDim = 1;
};
enum class AscendAntiQuantPolicy : std::int32_t {
  PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP, PER_CHANNEL_PER_GROUP, PER_TOKEN_PER_GROUP
};
struct AscendAntiQuantParam {
  std::uint32_t m;
  std::uint32_t n;
  std::uint32_t calCount;
  std::uint32_t groupSize = 0;
};

enum class DeQuantMode : std::uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

struct DequantParams {
  std::uint32_t m;
  std::uint32_t n;
  std::uint32_t calCount;
};

struct AntiQuantShapeInfo {
  std::uint32_t offsetHeight{0};
  std::uint32_t offsetWidth{0};
  std::uint32_t scaleHeight{0};
  std::uint32_t scaleWidth{0};
};

namespace sim {

// ---- AscendQuant --------------------------------------------------------------------------------
inline std::int8_t quant_to_int8(half v) {
  const float r = __builtin_nearbyintf(static_cast<float>(v));   // round half to even
  return static_cast<std::int8_t>(r > 127.0f ? 127.0f : (r < -128.0f ? -128.0f : r));
}

// One element: everything in half, each operation rounded to half.
inline std::int8_t quant_one(float src, float scale, float offset) {
  const half x = static_cast<half>(src), s = static_cast<half>(scale), o = static_cast<half>(offset);
  const half t1 = static_cast<half>(static_cast<float>(x) * static_cast<float>(s));
  const half t2 = static_cast<half>(static_cast<float>(t1) + static_cast<float>(o));
  return quant_to_int8(t2);
}

// scale_at / offset_at: the quantization parameters of element i.
template <typename T, typename S, typename O>
inline void quant_run(const char* api, const LocalTensor<std::int8_t>& dst, const LocalTensor<T>& src,
                      const LocalTensor<std::uint8_t>* tmp, std::uint32_t work_local_size, std::uint32_t count,
                      S scale_at, O offset_at, const char* file, int line) {
  check_local(api, "srcTensor", src, static_cast<std::uint64_t>(count) * sizeof(T), true, file, line);
  check_local(api, "dstTensor", dst, count, true, file, line);
  const std::uint64_t need = npukb_lib::AscendQuantMinBytes(count, sizeof(T));
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "AscendQuant needs (GetAscendQuantMaxMinTmpSize's minimum)", file, line);
    if (work_local_size > tmp->GetSize()) {
      npukb::violation(api, "AscendQuantConfig.workLocalSize " + npukb::kern::num(work_local_size) +
                       " exceeds the sharedTmpBuffer of " + npukb::kern::num(tmp->GetSize()) + " bytes", file, line);
    }
  } else {
    check_framework_tmp(api, need, "GetAscendQuantMaxMinTmpSize's minimum", file, line);
  }
  std::vector<std::int8_t> out(count);   // source and destination may share memory
  for (std::uint32_t i = 0; i < count; ++i) out[i] = quant_one(static_cast<float>(src.ptr()[i]), scale_at(i), offset_at(i));
  if (count != 0) std::memcpy(dst.ptr(), out.data(), count);
  const npukb::kern::Span sp = vspan(src, static_cast<std::uint64_t>(count) * sizeof(T)), dp = vspan(dst, count);
  lib_cost(1, 5, (sizeof(T) == 4 ? 5 : 4) * kLibSimple, count, &sp, 1, &dp, 1);
}

// The runtime counts, or the config's when the page's conditions for compile-time constants hold.
struct QuantCounts {
  std::uint32_t cal = 0, scale = 0, offset = 0, work = 0;
};
template <const AscendQuantConfig& config>
inline QuantCounts quant_counts(bool with_scale_count, bool with_tmp, std::uint32_t cal, std::uint32_t scale,
                                std::uint32_t offset) {
  QuantCounts c{cal, scale, offset, with_tmp ? config.workLocalSize : 0};
  const bool constant = with_scale_count
                            ? (config.scaleCount != 0 && config.calcCount != 0 && config.workLocalSize != 0)
                            : (config.calcCount != 0 && config.workLocalSize != 0);
  if (constant && with_tmp) {
    c.cal = config.calcCount;
    if (with_scale_count) {
      c.scale = config.scaleCount;
      c.offset = config.offsetCount != 0 ? config.offsetCount : config.scaleCount;
    }
  }
  return c;
}

template <typename T>
inline void check_channel_counts(const char* api, const LocalTensor<T>& scale, const LocalTensor<T>* offset,
                                 std::uint32_t scale_count, std::uint32_t offset_count, std::uint32_t cal_count,
                                 const char* file, int line) {
  if (scale_count == 0 || scale_count % 32 != 0) {
    npukb::violation(api, "scaleCount " + npukb::kern::num(scale_count) + " is not a positive multiple of 32", file, line);
  }
  if (offset != nullptr && offset_count != scale_count) {
    npukb::violation(api, "offsetCount " + npukb::kern::num(offset_count) + " differs from scaleCount " +
                     npukb::kern::num(scale_count), file, line);
  }
  if (cal_count % scale_count != 0) {
    npukb::violation(api, "calCount " + npukb::kern::num(cal_count) + " is not a multiple of scaleCount " +
                     npukb::kern::num(scale_count), file, line);
  }
  check_local(api, "scaleTensor", scale, static_cast<std::uint64_t>(scale_count) * sizeof(T), true, file, line);
  if (offset != nullptr) check_local(api, "offsetTensor", *offset, static_cast<std::uint64_t>(offset_count) * sizeof(T), true, file, line);
}

// The page: a float scale keeps half's range (it is converted to half). A scale outside it would become
// an infinity in the half computation.
constexpr float kHalfMax = 65504.0f;
inline void check_quant_scale(const char* api, const std::string& what, float v, const char* file, int line) {
  if (!(v >= -kHalfMax && v <= kHalfMax)) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", static_cast<double>(v));
    npukb::violation(api, what + " " + text + " is outside the half range [-65504, 65504] "
                     "(a float scale keeps half's range)", file, line);
  }
}

template <typename T, const AscendQuantConfig& config>
inline void quant_tensor(const LocalTensor<std::int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp,
                         float scale, float offset, std::uint32_t cal, const char* file, int line) {
  const QuantCounts c = quant_counts<config>(false, tmp != nullptr, cal, 0, 0);
  check_quant_scale("AscendQuant", "scale", scale, file, line);
  quant_run("AscendQuant", dst, src, tmp, c.work, c.cal, [scale](std::uint32_t) { return scale; },
            [offset](std::uint32_t) { return offset; }, file, line);
}

template <typename T, const AscendQuantConfig& config>
inline void quant_channel(const LocalTensor<std::int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp,
                          const LocalTensor<T>& scale, const LocalTensor<T>* offset_t, T offset_s, std::uint32_t scale_count,
                          std::uint32_t offset_count, std::uint32_t cal, const char* file, int line) {
  const char* api = "AscendQuant";
  const QuantCounts c = quant_counts<config>(true, tmp != nullptr, cal, scale_count, offset_count);
  check_channel_counts(api, scale, offset_t, c.scale, c.offset, c.cal, file, line);
  if (c.scale > dst.GetSize()) {
    npukb::violation(api, "scaleCount " + npukb::kern::num(c.scale) + " exceeds the dstTensor's " +
                     npukb::kern::num(dst.GetSize()) + " elements", file, line);
  }
  const std::vector<T> sv(scale.ptr(), scale.ptr() + c.scale);
  for (std::uint32_t i = 0; i < c.scale; ++i) {
    if (!(static_cast<float>(sv[i]) >= -kHalfMax && static_cast<float>(sv[i]) <= kHalfMax)) {
      check_quant_scale(api, "scaleTensor[" + npukb::kern::num(i) + "]", static_cast<float>(sv[i]), file, line);
      break;
    }
  }
  std::vector<T> ov;
  if (offset_t != nullptr) ov.assign(offset_t->ptr(), offset_t->ptr() + c.offset);
  const std::uint32_t sc = c.scale, oc = c.offset;
  const float os = static_cast<float>(offset_s);
  quant_run(api, dst, src, tmp, c.work, c.cal, [&sv, sc](std::uint32_t i) { return static_cast<float>(sv[i % sc]); },
            [&ov, oc, os](std::uint32_t i) { return ov.empty() ? os : static_cast<float>(ov[i % oc]); }, file, line);
}

template <typename T>
constexpr bool quant_types = one_of<T, half, float>;
template <typename T>
constexpr bool quant_false = false;   // a static_assert that fails only when its form is used

// ---- AscendDequant ------------------------------------------------------------------------------
template <typename S>
inline float dequant_scale_value(S v) {
  if constexpr (std::is_same_v<S, std::uint64_t>) {
    const std::uint32_t low = static_cast<std::uint32_t>(v & 0xffffffffull);
    float f;
    std::memcpy(&f, &low, 4);
    return f;
  } else {
    return static_cast<float>(v);
  }
}

template <typename D, typename S>
constexpr bool dequant_vector_types = (std::is_same_v<D, half> && std::is_same_v<S, std::uint64_t>) ||
                                      (std::is_same_v<D, float> && one_of<S, float, bfloat16_t>) ||
                                      (std::is_same_v<D, bfloat16_t> && one_of<S, float, bfloat16_t>);
template <typename D, typename S>
constexpr bool dequant_scalar_types = one_of<D, float, bfloat16_t> && one_of<S, float, bfloat16_t>;

template <typename D, typename S, DeQuantMode mode>
inline void dequant_run(const LocalTensor<D>& dst, const LocalTensor<std::int32_t>& src, const LocalTensor<S>* scale_t,
                        S scale_s, const LocalTensor<std::uint8_t>* tmp, DequantParams params, const char* file, int line) {
  const char* api = "AscendDequant";
  if (params.n == 0 || params.m == 0) {
    npukb::violation(api, "DequantParams has an empty shape (m " + npukb::kern::num(params.m) + ", n " +
                     npukb::kern::num(params.n) + ")", file, line);
  }
  if (params.n * 4 % 32 != 0) {
    npukb::violation(api, "DequantParams.n " + npukb::kern::num(params.n) + " int32 elements are not a whole number of "
                     "32-byte blocks", file, line);
  }
  if (params.calCount == 0 || params.calCount > params.n) {
    npukb::violation(api, "DequantParams.calCount " + npukb::kern::num(params.calCount) + " is outside [1, n = " +
                     npukb::kern::num(params.n) + "]", file, line);
  }
  if (scale_t != nullptr && params.calCount > scale_t->GetSize()) {
    npukb::violation(api, "DequantParams.calCount " + npukb::kern::num(params.calCount) + " exceeds the deqScale's " +
                     npukb::kern::num(scale_t->GetSize()) + " elements", file, line);
  }
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && params.m == 1 && params.calCount % (32 / sizeof(D)) == 0 &&
      params.n % params.calCount == 0) {
    params = DequantParams{params.n / params.calCount, params.calCount, params.calCount};
  }
  const std::uint32_t m = params.m, n = params.n, cal = params.calCount;
  const std::uint32_t n_dst = npukb_lib::AlignUp(static_cast<std::uint32_t>(n * sizeof(D)), 32) / static_cast<std::uint32_t>(sizeof(D));
  const std::uint64_t sb = static_cast<std::uint64_t>(m) * n * 4, db = static_cast<std::uint64_t>(m) * n_dst * sizeof(D);
  check_local(api, "srcTensor", src, sb, true, file, line);
  check_local(api, "dstTensor", dst, db, true, file, line);
  if (scale_t != nullptr) check_local(api, "deqScale", *scale_t, static_cast<std::uint64_t>(cal) * sizeof(S), true, file, line);
  check_no_overlap(api, "dstTensor", dst, db, "srcTensor", src, sb, file, line);
  const std::uint64_t need = npukb_lib::AscendDequantMinBytes(n);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "AscendDequant needs for one row (GetAscendDequantMaxMinTmpSize's minimum)", file, line);
  } else {
    check_framework_tmp(api, need, "GetAscendDequantMaxMinTmpSize's minimum", file, line);
  }
  std::vector<float> sc(cal, dequant_scale_value(scale_s));
  if (scale_t != nullptr) for (std::uint32_t j = 0; j < cal; ++j) sc[j] = dequant_scale_value(scale_t->ptr()[j]);
  for (std::uint32_t r = 0; r < m; ++r) {
    const std::int32_t* s = src.ptr() + static_cast<std::uint64_t>(r) * n;
    D* d = dst.ptr() + static_cast<std::uint64_t>(r) * n_dst;
    for (std::uint32_t j = 0; j < n; ++j) {
      const float v = static_cast<float>(s[j]);
      d[j] = static_cast<D>(j < cal ? v * sc[j] : v);
    }
  }
  const npukb::kern::Span sp = vspan(src, sb), dp = vspan(dst, db);
  lib_cost(m, 3, 3 * kLibSimple, static_cast<std::uint64_t>(m) * n, &sp, 1, &dp, 1);
}

// The deprecated forms: rows of deqScale.GetSize() columns, every column scaled.
template <typename S>
inline DequantParams dequant_rows(const char* api, const LocalTensor<S>& deq_scale, std::uint32_t count, const char* file,
                                  int line) {
  const std::uint32_t n = deq_scale.GetSize();
  if (n == 0 || count % n != 0) {
    npukb::violation(api, "calCount " + npukb::kern::num(count) + " is not a multiple of the deqScale's " +
                     npukb::kern::num(n) + " elements", file, line);
  }
  return DequantParams{count / n, n, n};
}

// ---- AscendAntiQuant ----------------------------------------------------------------------------
template <typename I>
inline std::uint64_t antiquant_bytes(std::uint64_t elems) {
  return std::is_same_v<I, int4b_t> ? (elems + 1) / 2 : elems * sizeof(I);
}
template <typename I>
inline std::uint64_t antiquant_elems(const LocalTensor<I>& src) {
  return std::is_same_v<I, int4b_t> ? static_cast<std::uint64_t>(src.GetSize()) * 2 : src.GetSize();
}
template <typename I>
inline float antiquant_load(const LocalTensor<I>& src, std::uint64_t i) {
  if constexpr (std::is_same_v<I, int4b_t>) {
    const std::uint8_t byte = reinterpret_cast<const std::uint8_t*>(src.ptr())[i / 2];
    const int nib = (i % 2 == 0) ? (byte & 0xF) : (byte >> 4);
    return static_cast<float>(nib >= 8 ? nib - 16 : nib);
  } else {
    return static_cast<float>(src.ptr()[i]);
  }
}

template <typename O>
inline O antiquant_one(float x, float offset, float scale) {
  if constexpr (std::is_same_v<O, half>) {
    const half a = static_cast<half>(static_cast<float>(static_cast<half>(x)) + offset);
    return static_cast<half>(static_cast<float>(a) * scale);
  } else {
    return static_cast<O>((x + offset) * scale);
  }
}

// The [height, width] of a per-channel offset / scale: the explicit shape info, else the tensor's
// ShapeInfo, else one row (non-transposed) or one column (transposed) of its elements.
template <typename O>
inline void antiquant_param_shape(const LocalTensor<O>& t, std::uint32_t h_in, std::uint32_t w_in, bool transpose,
                                  std::uint32_t& h, std::uint32_t& w) {
  h = h_in;
  w = w_in;
  if (h != 0 && w != 0) return;
  const ShapeInfo info = t.GetShapeInfo();
  if (info.shapeDim >= 2) {
    h = info.shape[info.shapeDim - 2];
    w = info.shape[info.shapeDim - 1];
  } else if (transpose) {
    h = t.GetSize();
    w = 1;
  } else {
    h = 1;
    w = t.GetSize();
  }
}

template <typename I, typename O, bool kTranspose>
inline void antiquant_run(const LocalTensor<O>& dst, const LocalTensor<I>& src, const LocalTensor<O>* offset_t,
                          const LocalTensor<O>* scale_t, O offset_s, O scale_s, const LocalTensor<std::uint8_t>* tmp,
                          std::uint32_t k, const AntiQuantShapeInfo& shape, const char* file, int line) {
  const char* api = "AscendAntiQuant";
  if (k == 0) npukb::violation(api, "k is 0", file, line);
  if (kTranspose && antiquant_bytes<I>(k) % 32 != 0) {
    npukb::violation(api, "with isTranspose, k = " + npukb::kern::num(k) + " must be 32-byte aligned", file, line);
  }
  const bool per_channel = scale_t != nullptr;
  std::uint32_t oh = 1, ow = 1, sh_ = 1, sw = 1, n = 0;
  if (per_channel) {
    antiquant_param_shape(*scale_t, shape.scaleHeight, shape.scaleWidth, kTranspose, sh_, sw);
    if (offset_t != nullptr) {
      antiquant_param_shape(*offset_t, shape.offsetHeight, shape.offsetWidth, kTranspose, oh, ow);
      if (oh != sh_ || ow != sw) {
        npukb::violation(api, "the offset shape [" + npukb::kern::num(oh) + ", " + npukb::kern::num(ow) +
                         "] differs from the scale shape [" + npukb::kern::num(sh_) + ", " + npukb::kern::num(sw) + "]",
                         file, line);
      }
    }
    n = kTranspose ? sh_ : sw;
  } else {
    n = static_cast<std::uint32_t>(antiquant_elems(src) / k);
  }
  const std::uint32_t groups = kTranspose ? sw : sh_;
  if (per_channel && (groups == 0 || k % groups != 0)) {
    npukb::violation(api, "k = " + npukb::kern::num(k) + " is not a multiple of the scale / offset's " +
                     npukb::kern::num(groups) + (kTranspose ? " columns" : " rows"), file, line);
  }
  const std::uint32_t gs = per_channel ? k / groups : 1;
  const std::uint32_t rows = kTranspose ? n : k, cols = kTranspose ? k : n;
  const std::uint64_t elems = static_cast<std::uint64_t>(rows) * cols;
  if (elems == 0) npukb::violation(api, "the source is empty (N = 0)", file, line);
  const std::uint64_t sb = antiquant_bytes<I>(elems), db = elems * sizeof(O);
  if (sb % 32 != 0 || db % 32 != 0) {
    npukb::violation(api, "the data length (" + npukb::kern::num(static_cast<long long>(sb)) + " source bytes, " +
                     npukb::kern::num(static_cast<long long>(db)) + " destination bytes) is not 32-byte aligned", file, line);
  }
  check_local(api, "src", src, sb, true, file, line);
  check_local(api, "dst", dst, db, true, file, line);
  const std::uint64_t pb = static_cast<std::uint64_t>(sh_) * sw * sizeof(O);
  if (scale_t != nullptr) check_local(api, "scale", *scale_t, pb, true, file, line);
  if (offset_t != nullptr) check_local(api, "offset", *offset_t, pb, true, file, line);
  check_no_overlap(api, "dst", dst, db, "src", src, sb, file, line);
  const bool bf16 = std::is_same_v<O, bfloat16_t>;
  const std::uint64_t need = npukb_lib::AscendAntiQuantMinBytes(cols, bf16);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "AscendAntiQuant needs for one row (GetAscendAntiQuantMaxMinTmpSize's minimum)", file, line);
  } else {
    check_framework_tmp(api, need, "GetAscendAntiQuantMaxMinTmpSize's minimum", file, line);
  }
  for (std::uint32_t i = 0; i < rows; ++i) {
    for (std::uint32_t j = 0; j < cols; ++j) {
      float off = static_cast<float>(offset_s), sc = static_cast<float>(scale_s);
      if (per_channel) {
        const std::uint64_t at = kTranspose ? static_cast<std::uint64_t>(i) * sw + j / gs
                                            : static_cast<std::uint64_t>(i / gs) * sw + j;
        sc = static_cast<float>(scale_t->ptr()[at]);
        off = offset_t != nullptr ? static_cast<float>(offset_t->ptr()[at]) : 0.0f;
      }
      const std::uint64_t idx = static_cast<std::uint64_t>(i) * cols + j;
      dst.ptr()[idx] = antiquant_one<O>(antiquant_load(src, idx), off, sc);
    }
  }
  const npukb::kern::Span sp = vspan(src, sb), dp = vspan(dst, db);
  lib_cost(1, bf16 ? 6 : 3, (bf16 ? 6 : 3) * kLibSimple, elems, &sp, 1, &dp, 1);
}

template <typename I, typename O>
constexpr bool antiquant_types = one_of<I, std::int8_t, int4b_t> && one_of<O, half, bfloat16_t>;

}  // namespace sim

// ---- AscendQuant --------------------------------------------------------------------------------
#define NPUKB_QUANT_TEMPLATE template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
#define NPUKB_QUANT_CHECK static_assert(sim::quant_types<T>, "AscendQuant: unsupported source data type (half, float)")

NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_tensor<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, calCount, file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale, const float offset) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_tensor<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, srcTensor.GetSize(), file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_tensor<T, config>(dstTensor, srcTensor, nullptr, scale, offset, calCount, file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_tensor<T, config>(dstTensor, srcTensor, nullptr, scale, offset, srcTensor.GetSize(), file, line);
}

NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                        const std::uint32_t scaleCount, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset, scaleCount, 0,
                                calCount, file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor, const std::uint32_t scaleCount, const std::uint32_t offsetCount,
                        const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T(0), scaleCount,
                                offsetCount, calCount, file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset,
                                scaleTensor.GetSize(), 0, srcTensor.GetSize(), file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T(0),
                                scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<T>& scaleTensor, const T offset, const std::uint32_t scaleCount,
                        const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset, scaleCount, 0, calCount, file,
                                line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const std::uint32_t scaleCount,
                        const std::uint32_t offsetCount, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T(0), scaleCount, offsetCount,
                                calCount, file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<T>& scaleTensor, const T offset) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset, scaleTensor.GetSize(), 0,
                                srcTensor.GetSize(), file, line);
}
NPUKB_QUANT_TEMPLATE
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) { NPUKB_CALLER;
  NPUKB_QUANT_CHECK;
  sim::quant_channel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T(0), scaleTensor.GetSize(),
                                offsetTensor.GetSize(), srcTensor.GetSize(), file, line);
}
#undef NPUKB_QUANT_CHECK
#undef NPUKB_QUANT_TEMPLATE

// The forms with any destination type (Ascend 950PR / 950DT only).
#define NPUKB_QUANT_950_TEMPLATE template <typename dstT, typename srcT, bool isReuseSource = false>
#define NPUKB_QUANT_950_ONLY                                                                                         \
  static_assert(sim::quant_false<dstT>, "AscendQuant<dstT, srcT> (any destination type) is documented for the "      \
                "Ascend 950PR / 950DT only; on the Atlas A2 / A3 series use AscendQuant<T>(dstTensor, ...) with an " \
                "int8_t dstTensor")
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale, const float offset) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor, const float scale,
                        const float offset, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor, const float scale,
                        const float offset) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                        const srcT offset, const std::uint32_t scaleCount, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                        const LocalTensor<srcT>& offsetTensor, const std::uint32_t scaleCount,
                        const std::uint32_t offsetCount, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                        const srcT offset) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                        const LocalTensor<srcT>& offsetTensor) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<srcT>& scaleTensor, const srcT offset, const std::uint32_t scaleCount,
                        const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor,
                        const std::uint32_t scaleCount, const std::uint32_t offsetCount, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<srcT>& scaleTensor, const srcT offset) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
NPUKB_QUANT_950_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor) { NPUKB_CALLER;
  NPUKB_QUANT_950_ONLY;
}
#undef NPUKB_QUANT_950_ONLY
#undef NPUKB_QUANT_950_TEMPLATE

// PER_TOKEN / PER_GROUP (Ascend 950PR / 950DT only).
#define NPUKB_QUANT_TOKEN_TEMPLATE                                                                                 \
  template <typename dstT, typename srcT, typename scaleT, bool isReuseSource = false,                            \
            const AscendQuantConfig& config, const AscendQuantPolicy& policy>
#define NPUKB_QUANT_TOKEN_ONLY                                                                                     \
  static_assert(sim::quant_false<dstT>, "AscendQuant PER_TOKEN / PER_GROUP (AscendQuantPolicy, AscendQuantParam) is " \
                "documented for the Ascend 950PR / 950DT only; the Atlas A2 / A3 series have PER_TENSOR and "        \
                "PER_CHANNEL")
NPUKB_QUANT_TOKEN_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<scaleT>& scaleTensor,
                        const LocalTensor<scaleT>& offsetTensor, const AscendQuantParam& para) { NPUKB_CALLER;
  NPUKB_QUANT_TOKEN_ONLY;
}
NPUKB_QUANT_TOKEN_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LocalTensor<scaleT>& scaleTensor,
                        const scaleT offset, const AscendQuantParam& para) { NPUKB_CALLER;
  NPUKB_QUANT_TOKEN_ONLY;
}
NPUKB_QUANT_TOKEN_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                        const AscendQuantParam& para) { NPUKB_CALLER;
  NPUKB_QUANT_TOKEN_ONLY;
}
NPUKB_QUANT_TOKEN_TEMPLATE
inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                        const LocalTensor<scaleT>& scaleTensor, const scaleT offset, const AscendQuantParam& para) { NPUKB_CALLER;
  NPUKB_QUANT_TOKEN_ONLY;
}
#undef NPUKB_QUANT_TOKEN_ONLY
#undef NPUKB_QUANT_TOKEN_TEMPLATE

// ---- AscendDequant ------------------------------------------------------------------------------
#define NPUKB_DEQUANT_TEMPLATE \
  template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define NPUKB_DEQUANT_VECTOR_CHECK                                                                          \
  static_assert(sim::dequant_vector_types<dstT, scaleT>,                                                     \
                "AscendDequant: unsupported dstTensor / deqScale data types with a deqScale tensor (half / uint64_t, " \
                "float / float, float / bfloat16_t, bfloat16_t / bfloat16_t, bfloat16_t / float)")
#define NPUKB_DEQUANT_SCALAR_CHECK                                                                          \
  static_assert(sim::dequant_scalar_types<dstT, scaleT>,                                                     \
                "AscendDequant: unsupported dstTensor / deqScale data types with a scalar deqScale (float or "     \
                "bfloat16_t each)")

NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          DequantParams params) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), &sharedTmpBuffer, params, file, line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, DequantParams params) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), nullptr, params, file, line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const scaleT deqScale, const LocalTensor<std::uint8_t>& sharedTmpBuffer, DequantParams params) { NPUKB_CALLER;
  NPUKB_DEQUANT_SCALAR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, deqScale, &sharedTmpBuffer, params, file, line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const scaleT deqScale, DequantParams params) { NPUKB_CALLER;
  NPUKB_DEQUANT_SCALAR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, deqScale, nullptr, params, file, line);
}
// The deprecated forms (rows of deqScale.GetSize() columns; all of srcTensor without calCount).
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), &sharedTmpBuffer,
                                       sim::dequant_rows("AscendDequant", deqScale, calCount, file, line), file, line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), &sharedTmpBuffer,
                                       sim::dequant_rows("AscendDequant", deqScale, srcTensor.GetSize(), file, line), file,
                                       line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), nullptr,
                                       sim::dequant_rows("AscendDequant", deqScale, calCount, file, line), file, line);
}
NPUKB_DEQUANT_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale) { NPUKB_CALLER;
  NPUKB_DEQUANT_VECTOR_CHECK;
  sim::dequant_run<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT(0), nullptr,
                                       sim::dequant_rows("AscendDequant", deqScale, srcTensor.GetSize(), file, line), file,
                                       line);
}
#undef NPUKB_DEQUANT_SCALAR_CHECK
#undef NPUKB_DEQUANT_VECTOR_CHECK
#undef NPUKB_DEQUANT_TEMPLATE

// PER_TOKEN / PER_GROUP (Ascend 950PR / 950DT only).
#define NPUKB_DEQUANT_TOKEN_TEMPLATE                                                                               \
  template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,                      \
            const AscendDeQuantPolicy& policy>
#define NPUKB_DEQUANT_TOKEN_ONLY                                                                                   \
  static_assert(sim::quant_false<dstT>, "AscendDequant PER_TOKEN / PER_GROUP (AscendDeQuantPolicy, "               \
                "AscendDeQuantParam) is documented for the Ascend 950PR / 950DT only; on the Atlas A2 / A3 series "  \
                "use the DequantParams forms")
NPUKB_DEQUANT_TOKEN_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                          const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, const AscendDeQuantParam& para) { NPUKB_CALLER;
  NPUKB_DEQUANT_TOKEN_ONLY;
}
NPUKB_DEQUANT_TOKEN_TEMPLATE
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                          const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                          const AscendDeQuantParam& para) { NPUKB_CALLER;
  NPUKB_DEQUANT_TOKEN_ONLY;
}
#undef NPUKB_DEQUANT_TOKEN_ONLY
#undef NPUKB_DEQUANT_TOKEN_TEMPLATE

// ---- AscendAntiQuant ----------------------------------------------------------------------------
#define NPUKB_ANTIQUANT_TEMPLATE template <typename InputDataType, typename OutputDataType, bool isTranspose>
#define NPUKB_ANTIQUANT_CHECK                                                                              \
  static_assert(sim::antiquant_types<InputDataType, OutputDataType>,                                        \
                "AscendAntiQuant: unsupported data types (src int8_t or int4b_t; dst, offset, scale half or "  \
                "bfloat16_t)")

NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, OutputDataType(0),
                                                                 OutputDataType(0), &sharedTmpBuffer, k, shapeInfo, file, line);
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& scale, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            const std::uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, &scale, OutputDataType(0),
                                                                 OutputDataType(0), &sharedTmpBuffer, k, shapeInfo, file, line);
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                 &sharedTmpBuffer, k, shapeInfo, file, line);
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType scale, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            const std::uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, OutputDataType(0), scale,
                                                                 &sharedTmpBuffer, k, shapeInfo, file, line);
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const std::uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, OutputDataType(0),
                                                                 OutputDataType(0), nullptr, k, shapeInfo, file, line);
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_CHECK;
  sim::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale, nullptr, k,
                                                                 shapeInfo, file, line);
}

// PER_GROUP float4 with an fp8_e8m0_t scale (Ascend 950PR / 950DT only).
#define NPUKB_ANTIQUANT_FP4_ONLY                                                                                   \
  static_assert(sim::quant_false<InputDataType>, "AscendAntiQuant with an fp8_e8m0_t scale (PER_GROUP float4) is "  \
                "documented for the Ascend 950PR / 950DT only; the Atlas A2 / A3 series take int8_t / int4b_t "      \
                "sources with half / bfloat16_t offset and scale")
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<fp8_e8m0_t>& scale, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            const std::uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_FP4_ONLY;
}
NPUKB_ANTIQUANT_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<fp8_e8m0_t>& scale, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_FP4_ONLY;
}
#undef NPUKB_ANTIQUANT_FP4_ONLY

// PER_TOKEN / PER_GROUP b8 / float4 (Ascend 950PR / 950DT only).
#define NPUKB_ANTIQUANT_TOKEN_TEMPLATE                                                                             \
  template <typename dstT, typename srcT, typename scaleT, const AscendAntiQuantConfig& config,                    \
            const AscendAntiQuantPolicy& policy>
#define NPUKB_ANTIQUANT_TOKEN_ONLY                                                                                 \
  static_assert(sim::quant_false<dstT>, "AscendAntiQuant PER_TOKEN / PER_GROUP (AscendAntiQuantPolicy, "           \
                "AscendAntiQuantParam) is documented for the Ascend 950PR / 950DT only; on the Atlas A2 / A3 "       \
                "series use the PER_TENSOR / PER_CHANNEL forms (AscendAntiQuant<InputDataType, OutputDataType, "    \
                "isTranspose>)")
NPUKB_ANTIQUANT_TOKEN_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                            const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, const AscendAntiQuantParam& para) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_TOKEN_ONLY;
}
NPUKB_ANTIQUANT_TOKEN_TEMPLATE
inline void AscendAntiQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                            const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                            const AscendAntiQuantParam& para) { NPUKB_CALLER;
  NPUKB_ANTIQUANT_TOKEN_ONLY;
}
#undef NPUKB_ANTIQUANT_TOKEN_ONLY
#undef NPUKB_ANTIQUANT_TOKEN_TEMPLATE
#undef NPUKB_ANTIQUANT_CHECK
#undef NPUKB_ANTIQUANT_TEMPLATE

}  // namespace AscendC
