// npukb_sim/tiling_template_kernel.h -- the kernel side of Tiling模板编程. In a kernel TU an op's tiling-key
// header (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL) defines g_tilingDeclareParams and g_tilingSelectParams as
// compile-time tables (device code does not allocate), from which the build instantiates a template kernel
// (`template <...> __global__ __aicore__ void op(...)`) once per selected combination and launches the
// instantiation whose key is the launch's tiling key. The key is the host's encoding
// (AscendC::EncodeTilingKey): each template parameter in declaration order, its value in its bit width, the
// first parameter in the lowest bits. A parameter a combination does not name takes every declared value.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "npukb_sim/runtime.h"
#include "npukb_sim/tiling_template_values.h"

namespace npukb {
namespace tpl {

inline constexpr std::size_t kMaxRaw = 32;      // raw entries of one DECL / SEL (UINT: mode, ranges, list)
inline constexpr std::size_t kMaxParams = 12;   // parameters of one declaration or combination
inline constexpr std::size_t kMaxCombos = 32;   // ASCENDC_TPL_ARGS_SEL combinations

// Parameter kinds, as ASCENDC_TPL_DTYPE ... ASCENDC_TPL_SHARED_KERNEL_TYPE number them.
inline constexpr std::uint32_t kUint = ASCENDC_TPL_UINT;
inline constexpr std::uint32_t kKernelType = ASCENDC_TPL_KERNEL_TYPE;
inline constexpr std::uint32_t kDeterministic = ASCENDC_TPL_DETERMINISTIC;

struct Param {
  const char* name = "";
  std::uint32_t type = 0;
  std::uint8_t bw = 0;
  std::uint64_t raw[kMaxRaw] = {};
  std::size_t n = 0;             // raw entries given (may exceed kMaxRaw: too many, refused below)
  constexpr Param() = default;
  constexpr Param(const char* nm, std::uint32_t t, std::uint8_t b, std::initializer_list<std::uint64_t> v,
                  const char* /*macroType*/)
      : name(nm), type(t), bw(b) {
    for (std::uint64_t x : v) {
      if (n < kMaxRaw) raw[n] = x;
      ++n;
    }
  }
  // KERNEL_TYPE_SEL and DETERMINISTIC_SEL configure a combination; they are not template arguments.
  constexpr bool argument() const { return type != kKernelType && type != kDeterministic; }
};

struct Params {
  Param p[kMaxParams] = {};
  std::size_t n = 0;
  constexpr Params() = default;
  constexpr Params(std::initializer_list<Param> ps) {
    for (const Param& x : ps) {
      if (n < kMaxParams) p[n] = x;
      ++n;
    }
  }
};

struct Selection {
  Params c[kMaxCombos] = {};
  std::size_t n = 0;
  constexpr Selection(std::initializer_list<Params> cs) {
    for (const Params& x : cs) {
      if (n < kMaxCombos) c[n] = x;
      ++n;
    }
  }
};

constexpr bool same(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// The values an entry allows, as a sequence: `count` of them, the i-th by `value`. An ASCENDC_TPL_INPUT /
// _OUTPUT value ("the dtype of input x") has no finite list: `open` says so.
constexpr bool open(const Param& p) {
  if (p.type == kUint) return false;
  for (std::size_t i = 0; i < p.n && i < kMaxRaw; ++i)
    if ((p.raw[i] >> 32) != 0) return true;
  return false;
}
constexpr std::size_t raw_n(const Param& p) { return p.n < kMaxRaw ? p.n : kMaxRaw; }
constexpr std::size_t count(const Param& p) {
  return p.type == kUint ? uint_count(p.raw, raw_n(p)) : p.n;
}
constexpr std::uint64_t value(const Param& p, std::size_t i) {
  return p.type == kUint ? uint_value(p.raw, i) : p.raw[i];
}

// Why the tables cannot be instantiated: 0 when they can, else a code the build's static_asserts name
// (PROBLEMS in the builder: kept in step with these codes).
constexpr int problem(const Params& decl, const Selection& sel) {
  if (decl.n > kMaxParams) return 1;           // more than kMaxParams template parameters
  if (sel.n > kMaxCombos) return 2;            // more than kMaxCombos combinations
  if (sel.n == 0) return 3;                    // no combination selected
  for (std::size_t c = 0; c <= sel.n; ++c) {
    const Params& ps = c < sel.n ? sel.c[c] : decl;
    if (ps.n > kMaxParams) return 1;
    for (std::size_t i = 0; i < ps.n; ++i) {
      const Param& p = ps.p[i];
      if (p.n > kMaxRaw) return 4;             // more than kMaxRaw raw values in one entry
      if (p.type != kUint) continue;
      const UintForm form = uint_form(p.raw, p.n);
      if (form == UintForm::kNoMode || form == UintForm::kUnknownMode) return 5;   // UINT without a mode
      if (form != UintForm::kOk) return 6;     // ranges incomplete, reversed or followed by values
    }
  }
  for (std::size_t c = 0; c < sel.n; ++c) {
    for (std::size_t i = 0; i < sel.c[c].n; ++i) {
      const Param& s = sel.c[c].p[i];
      if (!s.argument()) continue;
      bool declared = false;
      for (std::size_t d = 0; d < decl.n; ++d) declared = declared || same(decl.p[d].name, s.name);
      if (!declared) return 7;                 // a selected parameter is not declared
    }
  }
  return 0;
}

// The entry of combination `c` that gives declared parameter `d` its values (the declaration's own when
// the combination does not name it).
constexpr const Param& source(const Params& decl, const Params& combo, std::size_t d) {
  for (std::size_t i = 0; i < combo.n; ++i)
    if (combo.p[i].argument() && same(combo.p[i].name, decl.p[d].name)) return combo.p[i];
  return decl.p[d];
}

constexpr std::size_t combo_size(const Params& decl, const Params& combo) {
  std::size_t total = 1;
  for (std::size_t d = 0; d < decl.n; ++d) {
    const Param& s = source(decl, combo, d);
    total *= open(s) ? 0 : count(s);
  }
  return total;
}

constexpr std::size_t instances(const Params& decl, const Selection& sel) {
  if (problem(decl, sel) != 0) return 0;
  std::size_t total = 0;
  for (std::size_t c = 0; c < sel.n; ++c) total += combo_size(decl, sel.c[c]);
  return total;
}

// Whether some combination leaves a parameter open (only "the dtype of input x"): nothing to instantiate.
constexpr bool any_open(const Params& decl, const Selection& sel) {
  for (std::size_t c = 0; c < sel.n && c < kMaxCombos; ++c)
    for (std::size_t d = 0; d < decl.n && d < kMaxParams; ++d)
      if (open(source(decl, sel.c[c], d))) return true;
  return false;
}

struct Instance {
  std::uint64_t v[kMaxParams] = {};
  std::uint64_t key = 0;
};

// The i-th instantiation: combinations in order, each as a mixed-radix count over its parameters (the
// first declared parameter fastest).
constexpr Instance instance(const Params& decl, const Selection& sel, std::size_t i) {
  Instance out;
  std::size_t c = 0;
  while (c < sel.n && i >= combo_size(decl, sel.c[c])) i -= combo_size(decl, sel.c[c++]);
  unsigned shift = 0;
  for (std::size_t d = 0; d < decl.n; ++d) {
    const Param& s = source(decl, sel.c[c], d);
    const std::size_t k = count(s);
    out.v[d] = value(s, i % k);
    i /= k;
    out.key |= out.v[d] << shift;
    shift += decl.p[d].bw;
  }
  return out;
}

// A launch whose tiling key no instantiation has: the tiling function set a key no selected combination
// has (~0, printed as -1: GET_TPL_TILING_KEY refused its values).
[[noreturn]] inline void no_instance(std::uint64_t key, std::size_t instances) {
  ::npukb::violation("kernel launch", "tiling key " + std::to_string(static_cast<long long>(key)) +
                     " matches none of the template kernel's " + std::to_string(instances) +
                     " instantiations (ASCENDC_TPL_SEL): the tiling function set a key no selected combination has "
                     "(-1: GET_TPL_TILING_KEY refused its values)", nullptr, 0);
}

}  // namespace tpl
}  // namespace npukb
