// npukb_sim/tiling_template_values.h -- the values an ASCENDC_TPL_UINT entry of Tiling模板编程 allows, in
// constexpr form: one expansion that the host's GET_TPL_TILING_KEY checks (AscendC::tpl::allowed_values) and
// the kernel build's compile-time tables (npukb_sim/tiling_template_kernel.h) both use. An entry is a mode
// (ASCENDC_TPL_UI_RANGE: a count, then [start, end] pairs; ASCENDC_TPL_UI_LIST: the values; ASCENDC_TPL_UI_MIX:
// ranges, then a list) followed by its raw values. Needs the ASCENDC_TPL_UI_* macros of template_argument.h.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstddef>
#include <cstdint>

namespace npukb {
namespace tpl {

// Whether the raw values of a UINT entry are well formed, and if not, why.
enum class UintForm : int {
  kOk = 0,
  kNoMode,              // no values at all
  kUnknownMode,         // the first value is not a UI mode
  kNoRangeCount,        // RANGE / MIX without the count of ranges
  kRangesShort,         // fewer [start, end] pairs than the count announces
  kRangeReversed,       // a range ends before it starts
  kValuesAfterRanges,   // RANGE mode with values after its ranges (MIX was meant)
};

constexpr bool uint_has_ranges(const std::uint64_t* v) {
  return v[0] == ASCENDC_TPL_UI_RANGE || v[0] == ASCENDC_TPL_UI_MIX;
}

constexpr UintForm uint_form(const std::uint64_t* v, std::size_t n) {
  if (n == 0) return UintForm::kNoMode;
  if (v[0] != ASCENDC_TPL_UI_RANGE && v[0] != ASCENDC_TPL_UI_LIST && v[0] != ASCENDC_TPL_UI_MIX) {
    return UintForm::kUnknownMode;
  }
  if (!uint_has_ranges(v)) return UintForm::kOk;
  if (n < 2) return UintForm::kNoRangeCount;
  if (v[1] > (n - 2) / 2) return UintForm::kRangesShort;
  for (std::size_t r = 0; r < v[1]; ++r)
    if (v[2 + 2 * r] > v[3 + 2 * r]) return UintForm::kRangeReversed;
  if (v[0] == ASCENDC_TPL_UI_RANGE && 2 + 2 * v[1] != n) return UintForm::kValuesAfterRanges;
  return UintForm::kOk;
}

// For a well-formed entry: the index of its first list value, how many values it allows, and the i-th.
constexpr std::size_t uint_list_start(const std::uint64_t* v) {
  return uint_has_ranges(v) ? 2 + 2 * static_cast<std::size_t>(v[1]) : 1;
}

constexpr std::size_t uint_count(const std::uint64_t* v, std::size_t n) {
  std::size_t total = n - uint_list_start(v);
  if (uint_has_ranges(v))
    for (std::size_t r = 0; r < v[1]; ++r) total += static_cast<std::size_t>(v[3 + 2 * r] - v[2 + 2 * r] + 1);
  return total;
}

constexpr std::uint64_t uint_value(const std::uint64_t* v, std::size_t i) {
  if (uint_has_ranges(v)) {
    for (std::size_t r = 0; r < v[1]; ++r) {
      const std::uint64_t lo = v[2 + 2 * r], span = v[3 + 2 * r] - lo + 1;
      if (i < span) return lo + i;
      i -= static_cast<std::size_t>(span);
    }
  }
  return v[uint_list_start(v) + i];
}

}  // namespace tpl
}  // namespace npukb
