// ascendc/host_api/tiling/template_argument.h -- Tiling模板编程: the template-parameter definitions
// (ASCENDC_TPL_*_DECL / ASCENDC_TPL_*_SEL, ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_ARGS_SEL / ASCENDC_TPL_SEL),
// GET_TPL_TILING_KEY (AscendC::EncodeTilingKey) and ASCENDC_TPL_SEL_PARAM. Clean-room part of ascendc-sim.
//
// An op's tiling-key header (included by its host tiling and by its kernel) declares the template
// parameters and the combinations its kernel is built for. On the host the macros build ParamStruct lists
// (g_tilingDeclareParams, g_tilingSelectParams) and the key is encoded from them. The key (the simulator's
// encoding, see docs/simulator.md): each template parameter in declaration order, its value written in its
// bit width (DTYPE / DATATYPE / FORMAT / KERNEL_TYPE 8 bits, BOOL 1, UINT the declared width), the first
// parameter in the lowest bits. EncodeTilingKey checks its arguments against the declarations (the number of
// values, each a declared value that fits its width) and that one ASCENDC_TPL_ARGS_SEL combination allows
// them; a failed check is printed and the key is ~0ull (no kernel instantiation is built for it).
// In a kernel TU (device code has no allocator) they are compile-time tables instead, from which the build
// instantiates a template kernel per selected combination (npukb_sim/tiling_template_kernel.h).
#pragma once
#include <cstdint>

// Parameter kinds (ParamStruct::paramType).
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_DETERMINISTIC 5
#define ASCENDC_TPL_SHARED_KERNEL_TYPE 6
// Bit widths.
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_8_BW 8
// UINT value modes: ranges (a count, then [start, end] pairs), a list, or ranges then a list.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
// A DATATYPE / FORMAT parameter given as "the one of input / output x" (only the first such value counts).
#define ASCENDC_TPL_INPUT(x) (0x100000000ull | static_cast<uint64_t>(x))
#define ASCENDC_TPL_OUTPUT(x) (0x200000000ull | static_cast<uint64_t>(x))
// Kernel types (the KERNEL_TYPE_* values of KERNEL_TASK_TYPE_DEFAULT).
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 2
#define ASCENDC_TPL_MIX_AIC_1_0 3
#define ASCENDC_TPL_MIX_AIC_1_1 4
#define ASCENDC_TPL_MIX_AIC_1_2 5
#define ASCENDC_TPL_AICORE 6
#define ASCENDC_TPL_VECTORCORE 7
#define ASCENDC_TPL_MIX_AICORE 8
#define ASCENDC_TPL_MIX_VECTOR_CORE 9
// Native data types and formats (the ge::DataType / ge::Format values).
#define C_DT_FLOAT 0
#define C_DT_FLOAT16 1
#define C_DT_INT8 2
#define C_DT_INT32 3
#define C_DT_UINT8 4
#define C_DT_INT16 6
#define C_DT_UINT16 7
#define C_DT_UINT32 8
#define C_DT_INT64 9
#define C_DT_UINT64 10
#define C_DT_DOUBLE 11
#define C_DT_BOOL 12
#define C_DT_COMPLEX64 16
#define C_DT_BF16 27
#define C_DT_INT4 29
#define C_DT_UINT1 30
#define C_DT_INT2 31
#define C_DT_COMPLEX32 33
#define C_FORMAT_NCHW 0
#define C_FORMAT_NHWC 1
#define C_FORMAT_ND 2
#define C_FORMAT_NC1HWC0 3
#define C_FORMAT_FRACTAL_Z 4
#define C_FORMAT_NC1C0HWPAD 5
#define C_FORMAT_NHWC1C0 6
#define C_FORMAT_FSR_NCHW 7
#define C_FORMAT_FRACTAL_DECONV 8
#define C_FORMAT_C1HWNC0 9
#define C_FORMAT_FRACTAL_DECONV_TRANSPOSE 10
#define C_FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS 11
#define C_FORMAT_NC1HWC0_C04 12
#define C_FORMAT_FRACTAL_Z_C04 13
#define C_FORMAT_CHWN 14
#define C_FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS 15
#define C_FORMAT_HWCN 16
#define C_FORMAT_NC1KHKWHWC0 17
#define C_FORMAT_BN_WEIGHT 18
#define C_FORMAT_FILTER_HWCK 19
#define C_FORMAT_HASHTABLE_LOOKUP_LOOKUPS 20
#define C_FORMAT_HASHTABLE_LOOKUP_KEYS 21
#define C_FORMAT_HASHTABLE_LOOKUP_VALUE 22
#define C_FORMAT_HASHTABLE_LOOKUP_OUTPUT 23
#define C_FORMAT_HASHTABLE_LOOKUP_HITS 24
#define C_FORMAT_MD 26
#define C_FORMAT_NDHWC 27
#define C_FORMAT_FRACTAL_ZZ 28
#define C_FORMAT_FRACTAL_NZ 29
#define C_FORMAT_NCDHW 30
#define C_FORMAT_DHWCN 31
#define C_FORMAT_NDC1HWC0 32
#define C_FORMAT_FRACTAL_Z_3D 33
#define C_FORMAT_CN 34
#define C_FORMAT_NC 35
#define C_FORMAT_DHWNC 36
#define C_FORMAT_FRACTAL_Z_3D_TRANSPOSE 37
#define C_FORMAT_FRACTAL_ZN_LSTM 38
#define C_FORMAT_FRACTAL_Z_G 39
#define C_FORMAT_RESERVED 40
#define C_FORMAT_ALL 41
#define C_FORMAT_NULL 42
#define C_FORMAT_ND_RNN_BIAS 43
#define C_FORMAT_FRACTAL_ZN_RNN 44
#define C_FORMAT_NYUV 45
#define C_FORMAT_NYUV_A 46
#define C_FORMAT_NCL 47

#include "npukb_sim/tiling_template_values.h"

#if defined(__CCE_AICORE__)
// Kernel TU: compile-time tables (npukb_sim/tiling_template_kernel.h) the build instantiates a template
// kernel from, one instantiation per selected combination.
#include "npukb_sim/tiling_template_kernel.h"
#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) \
  ::npukb::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
  ::npukb::tpl::Param{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) \
  ::npukb::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_UINT_SEL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::npukb::tpl::Param{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
  ::npukb::tpl::Param{"kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
  ::npukb::tpl::Param{"deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
  ::npukb::tpl::Param{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_ARGS_DECL(x, ...) static constexpr ::npukb::tpl::Params g_tilingDeclareParams{ __VA_ARGS__ }
#define ASCENDC_TPL_ARGS_SEL(...) ::npukb::tpl::Params{ __VA_ARGS__ }
#define ASCENDC_TPL_SEL(...) static constexpr ::npukb::tpl::Selection g_tilingSelectParams{ __VA_ARGS__ }
#else
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

struct ParamStruct {
  const char* name;
  uint32_t paramType;
  uint8_t bitWidth;
  std::vector<uint64_t> vals;
  const char* macroType;
  ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth, std::vector<uint64_t> inVals,
              const char* inMacroType)
      : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)), macroType(inMacroType) {}
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ParamStruct{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
  ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DTYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_UINT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
// Names the tiling struct of a combination: not a template parameter and not part of the key.
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
  ParamStruct{"kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
  ParamStruct{"deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
  ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{ __VA_ARGS__ }
#define ASCENDC_TPL_ARGS_SEL(...) { __VA_ARGS__}
#define ASCENDC_TPL_SEL(...) static TilingSelectParams g_tilingSelectParams{ __VA_ARGS__ }

namespace AscendC {
namespace tpl {

// The values a DECL / SEL entry allows: UINT entries are a mode then ranges and/or a list; an
// ASCENDC_TPL_INPUT / _OUTPUT entry allows any value. `error` is set when the entry is malformed.
inline bool allowed_values(const ParamStruct& p, bool* any, std::vector<uint64_t>* out, std::string* error) {
  *any = false;
  out->clear();
  const std::vector<uint64_t>& v = p.vals;
  if (p.paramType != ASCENDC_TPL_UINT) {
    for (uint64_t x : v) {
      if (x >> 32) { *any = true; return true; }       // ASCENDC_TPL_INPUT(x) / ASCENDC_TPL_OUTPUT(x)
      out->push_back(x);
    }
    return true;
  }
  const std::string name(p.name);
  switch (::npukb::tpl::uint_form(v.data(), v.size())) {
    case ::npukb::tpl::UintForm::kOk: break;
    case ::npukb::tpl::UintForm::kNoMode: *error = name + ": a UINT parameter needs a mode and values"; return false;
    case ::npukb::tpl::UintForm::kUnknownMode: *error = name + ": unknown UINT mode " + std::to_string(v[0]); return false;
    case ::npukb::tpl::UintForm::kNoRangeCount: *error = name + ": the range mode needs a range count"; return false;
    case ::npukb::tpl::UintForm::kRangesShort:
      *error = name + ": " + std::to_string(v[1]) + " ranges announced, fewer given";
      return false;
    case ::npukb::tpl::UintForm::kRangeReversed: *error = name + ": a range ends before it starts"; return false;
    case ::npukb::tpl::UintForm::kValuesAfterRanges:
      *error = name + ": values after the announced ranges (use ASCENDC_TPL_UI_MIX)";
      return false;
  }
  const std::size_t n = ::npukb::tpl::uint_count(v.data(), v.size());
  for (std::size_t i = 0; i < n; ++i) out->push_back(::npukb::tpl::uint_value(v.data(), i));
  return true;
}

inline bool contains(const std::vector<uint64_t>& v, uint64_t x) {
  for (uint64_t y : v) if (y == x) return true;
  return false;
}

// The parameters that are kernel template arguments (and key fields): KERNEL_TYPE_SEL and
// DETERMINISTIC_SEL configure a combination without being either.
inline bool is_template_argument(const ParamStruct& p) {
  return p.paramType != ASCENDC_TPL_KERNEL_TYPE && p.paramType != ASCENDC_TPL_DETERMINISTIC;
}

inline uint64_t fail(const std::string& what) {
  std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY: %s\n", what.c_str());
  return ~0ull;
}

}  // namespace tpl

inline uint64_t EncodeTilingKey(TilingDeclareParams declareParams, TilingSelectParams selectParamsVec,
                                std::vector<uint64_t> tilingParams) {
  if (tilingParams.size() != declareParams.size()) {
    return tpl::fail(std::to_string(tilingParams.size()) + " values for " + std::to_string(declareParams.size()) +
                     " declared template parameters");
  }
  uint64_t key = 0;
  unsigned shift = 0;
  std::vector<uint64_t> vals;
  bool any = false;
  std::string error;
  for (std::size_t i = 0; i < declareParams.size(); ++i) {
    const ParamStruct& d = declareParams[i];
    const uint64_t x = tilingParams[i];
    const unsigned bw = d.bitWidth;
    if (bw == 0 || bw > 64 || shift + bw > 64) {
      return tpl::fail(std::string(d.name) + ": bit width " + std::to_string(bw) + " does not fit the 64-bit key");
    }
    if (!tpl::allowed_values(d, &any, &vals, &error)) return tpl::fail(error);
    if (!any && !tpl::contains(vals, x)) {
      return tpl::fail(std::string(d.name) + " = " + std::to_string(x) + " is not a declared value");
    }
    if (bw < 64 && (x >> bw) != 0) {
      return tpl::fail(std::string(d.name) + " = " + std::to_string(x) + " does not fit its " + std::to_string(bw) +
                       "-bit width");
    }
    key |= x << shift;
    shift += bw;
  }
  // One ASCENDC_TPL_ARGS_SEL combination must allow every value (a parameter it does not name: any value).
  for (const std::vector<ParamStruct>& combo : selectParamsVec) {
    bool ok = true;
    for (const ParamStruct& s : combo) {
      if (!tpl::is_template_argument(s)) continue;
      std::size_t i = 0;
      while (i < declareParams.size() && std::string(declareParams[i].name) != s.name) ++i;
      if (i == declareParams.size()) return tpl::fail(std::string(s.name) + " is selected but not declared");
      if (!tpl::allowed_values(s, &any, &vals, &error)) return tpl::fail(error);
      if (!any && !tpl::contains(vals, tilingParams[i])) { ok = false; break; }
    }
    if (ok) return key;
  }
  return tpl::fail("no ASCENDC_TPL_ARGS_SEL combination allows these values");
}

}  // namespace AscendC

#define GET_TPL_TILING_KEY(...) AscendC::EncodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)             \
  do {                                                  \
    uint64_t key = GET_TPL_TILING_KEY({__VA_ARGS__});   \
    context->SetTilingKey(key);                         \
  } while (0)
#endif
