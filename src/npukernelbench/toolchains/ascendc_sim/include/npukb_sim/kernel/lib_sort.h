// npukb_sim/kernel/lib_sort.h -- the sort family for the Atlas A2 / A3 training series: the basic
// sort instructions Sort32, MrgSort (MrgSortSrcList, MrgSort4Info) and GetMrgSortResult, and the
// high-level Concat, Sort, Extract, MrgSort, GetSortLen, GetSortOffset and TopK. Clean-room part of
// ascendc-sim, written from the API pages' layouts, tie rules and constraints.
//
// Sorted data (the A2 / A3 layout, "排布方式一"): one 8-byte (score, index) pair per element, the score in
// the low bytes (float: bytes 0-3; half: bytes 0-1, bytes 2-3 reserved and written as 0) and the uint32
// index in bytes 4-7. Scores sort in descending order; equal scores keep their input order (the earlier
// one first); a NaN sorts before every number (TopK documents it first in both directions, and TopK is
// built on Sort32). Sort32 sorts each repeat of 32 independently; MrgSort merges up to four sorted
// lists (equal scores: the earlier list first), optionally stopping when one list is exhausted
// (GetMrgSortResult then reports how many of each were taken). The high-level Sort sorts its repeats
// (isFullSort: all repeatTime * 32 elements as one list), Concat copies the scores (on A2 / A3, Sort
// takes the scores as they are), Extract splits sorted pairs into values and indices. GetSortLen and
// GetSortOffset count elements of T: the page says bytes, but its MrgSort example indexes a
// LocalTensor<T> with GetSortOffset's result, which is n * 8 / sizeof(T).
//
// TopK (normal and small mode) sorts each row of inner elements (the padding beyond n included, as the
// page says the caller must pad with values that cannot win), takes the first k, and for the k smallest
// sorts the negated data (the same stable order, NaN still first). Indices are srcIndexLocal's
// (isInitIndex) or 0 .. inner - 1; a finished row (isHasfinish) reports index n. Rows of the normal
// mode's outputs are k rounded up to 32 bytes long; the small mode's are k long.
//
// The Sort overloads with a SortConfig and a TopKConfig other than defaultTopKConfig are documented for
// the Ascend 950PR / 950DT only: they are declared and fail to compile with that explanation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/sort_types.h"

namespace AscendC {

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T> src1In, const LocalTensor<T> src2In, const LocalTensor<T> src3In,
                 const LocalTensor<T> src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const std::uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const std::uint16_t validBitIn,
               const std::uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  std::uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  std::uint16_t validBit = 0;
  std::uint16_t repeatTimes = 1;
};

struct TopKInfo {
  std::int32_t outter = 1;
  std::int32_t inner = 0;
  std::int32_t n = 0;
};

namespace sim {

template <typename T>
constexpr bool sort_types = one_of<T, half, float>;
template <typename T>
constexpr bool sort_false = false;

// The cost of the sort instructions (estimates): Sort32 runs a 32-element sorting network per repeat,
// MrgSort emits about four pairs per cycle.
constexpr double kSort32RepeatCycles = 16.0;
constexpr double kMrgSortPairCycles = 0.25;

// Descending order with NaN first; stable sorts keep equal scores in input order.
inline bool sorts_before(float a, float b) {
  const bool na = __builtin_isnan(a), nb = __builtin_isnan(b);
  if (na || nb) return na && !nb;
  return a > b;
}

struct SortPair {
  float score;
  std::uint8_t raw[4];   // the score's bytes as stored
  std::uint32_t index;
};

template <typename T>
inline SortPair pair_of(T score, std::uint32_t index) {
  SortPair p{static_cast<float>(score), {0, 0, 0, 0}, index};
  std::memcpy(p.raw, &score, sizeof(T));
  return p;
}
template <typename T>
inline SortPair load_pair(const std::uint8_t* at) {
  T score;
  std::memcpy(&score, at, sizeof(T));
  SortPair p{static_cast<float>(score), {0, 0, 0, 0}, 0};
  std::memcpy(p.raw, at, sizeof(T));
  std::memcpy(&p.index, at + 4, 4);
  return p;
}
template <typename T>
inline void store_pair(std::uint8_t* at, const SortPair& p) {
  std::memset(at, 0, npukb_lib::kSortPairBytes);
  std::memcpy(at, p.raw, sizeof(T));
  std::memcpy(at + 4, &p.index, 4);
}
inline void stable_sort_pairs(std::vector<SortPair>& v) {
  std::stable_sort(v.begin(), v.end(), [](const SortPair& a, const SortPair& b) { return sorts_before(a.score, b.score); });
}

inline void check_repeat_range(const char* api, const char* what, long long v, long long lo, const char* file, int line) {
  if (v < lo || v > 255) {
    npukb::violation(api, std::string(what) + " " + npukb::kern::num(v) + " is outside [" + npukb::kern::num(lo) +
                     ", 255]", file, line);
  }
}

// A local operand whose start the page requires aligned to `align` bytes, beyond the 32 bytes of every
// operand (checked by check_local). A warning, not a violation: real kernels (a cann-ops TopK) run
// Sort32 on buffers TPipe placed at 32-byte offsets only, which the device evidently accepts.
template <typename T>
inline void check_start_align(const char* api, const char* what, const LocalTensor<T>& t, std::uint32_t align,
                              const char* file, int line) {
  if (t.loc().base != nullptr && t.loc().addr % align != 0) {
    npukb::warning(api, std::string(what) + " starts at UB offset " + npukb::kern::num(t.loc().addr) +
                   ", which is not " + npukb::kern::num(align) + "-byte aligned as the page requires", file, line);
  }
}

// Sort32 over `repeats` groups of 32: src0 scores, src1 uint32 indices -> dst pairs.
template <typename T>
inline void sort32_run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                       const LocalTensor<std::uint32_t>& src1, std::uint32_t repeats, const char* file, int line) {
  if (repeats == 0) return;
  const std::uint64_t n = static_cast<std::uint64_t>(repeats) * npukb_lib::kSortRepeatElems;
  check_local(api, "src0", src0, n * sizeof(T), true, file, line);
  check_local(api, "src1", src1, n * 4, true, file, line);
  check_local(api, "dst", dst, n * npukb_lib::kSortPairBytes, true, file, line);
  std::vector<SortPair> all(n);
  for (std::uint64_t i = 0; i < n; ++i) all[i] = pair_of<T>(src0.ptr()[i], src1.ptr()[i]);
  auto* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t r = 0; r < repeats; ++r) {
    std::vector<SortPair> part(all.begin() + r * 32, all.begin() + (r + 1) * 32);
    stable_sort_pairs(part);
    for (std::uint32_t i = 0; i < 32; ++i) store_pair<T>(d + (static_cast<std::uint64_t>(r) * 32 + i) * 8, part[i]);
  }
  const npukb::kern::Span sp[2] = {vspan(src0, n * sizeof(T)), vspan(src1, n * 4)};
  const npukb::kern::Span dp = vspan(dst, n * 8);
  vec_cost(kSort32RepeatCycles, repeats, sp, 2, &dp, 1);
}

// The counts of the last MrgSort with ifExhaustedSuspension (GetMrgSortResult), per core.
inline std::uint16_t* mrg_sort_counts() {
  static thread_local std::uint16_t counts[4] = {0, 0, 0, 0};
  return counts;
}

// One merge of up to four sorted lists (pairs) into dst; returns the pairs written and the counts
// taken from each list. exhausted_stop: stop as soon as one list runs out.
struct MergeResult {
  std::uint64_t written = 0;
  std::uint32_t taken[4] = {0, 0, 0, 0};
};
template <typename T>
inline MergeResult merge_lists(std::uint8_t* dst, const std::uint8_t* const src[4], const std::uint32_t len[4], int lists,
                               bool exhausted_stop) {
  std::vector<SortPair> heads[4];
  for (int l = 0; l < lists; ++l) {
    heads[l].resize(len[l]);
    for (std::uint32_t i = 0; i < len[l]; ++i) heads[l][i] = load_pair<T>(src[l] + static_cast<std::uint64_t>(i) * 8);
  }
  MergeResult res;
  std::vector<SortPair> out;
  while (true) {
    int pick = -1;
    bool any_empty = false;
    for (int l = 0; l < lists; ++l) {
      if (res.taken[l] >= len[l]) { any_empty = true; continue; }
      if (pick < 0 || sorts_before(heads[l][res.taken[l]].score, heads[pick][res.taken[pick]].score)) pick = l;
    }
    if (pick < 0 || (exhausted_stop && any_empty)) break;
    out.push_back(heads[pick][res.taken[pick]++]);
  }
  for (std::uint64_t i = 0; i < out.size(); ++i) store_pair<T>(dst + i * 8, out[i]);
  res.written = out.size();
  return res;
}

inline int valid_lists(const char* api, std::uint32_t validBit, const char* file, int line) {
  if (validBit == 3) return 2;
  if (validBit == 7) return 3;
  if (validBit == 15) return 4;
  npukb::violation(api, "validBit " + npukb::kern::num(validBit) + " is not 0b11, 0b111 or 0b1111 (2 to 4 lists)", file,
                   line);
}

// MrgSort (both forms): lengths in pairs, validBit, repeat (the page's conditions for repeat > 1
// checked), suspension. Writes the counts of the (last) merge to taken_out.
template <typename T>
inline void mrg_sort_run(const char* api, const LocalTensor<T>& dst, const MrgSortSrcList<T>& list, const std::uint16_t lens[4],
                         std::uint32_t validBit, long long repeat, long long min_repeat, bool suspend,
                         std::uint32_t taken_out[4], const char* file, int line) {
  check_repeat_range(api, "repeatTime", repeat, min_repeat, file, line);
  const int lists = valid_lists(api, validBit, file, line);
  const LocalTensor<T>* srcs[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
  std::uint32_t len[4] = {0, 0, 0, 0};
  for (int l = 0; l < lists; ++l) {
    if (lens[l] > 4095) {
      npukb::violation(api, "elementCountList[" + npukb::kern::num(l) + "] " + npukb::kern::num(lens[l]) +
                       " is outside [0, 4095]", file, line);
    }
    len[l] = lens[l];
  }
  if (repeat == 0) return;
  if (repeat > 1) {
    const bool same = lists == 4 && len[0] == len[1] && len[1] == len[2] && len[2] == len[3];
    bool contiguous = same;
    for (int l = 1; l < 4 && contiguous; ++l) {
      contiguous = srcs[l]->loc().base == srcs[0]->loc().base &&
                   srcs[l]->loc().addr == srcs[0]->loc().addr + static_cast<std::uint64_t>(l) * len[0] * 8;
    }
    if (!contiguous || suspend) {
      npukb::violation(api, "repeatTime " + npukb::kern::num(repeat) + " > 1 takes effect only with four valid lists "
                       "(validBit 0b1111) of equal length stored one after the other and no exhausted suspension", file,
                       line);
    }
  }
  std::uint64_t per_repeat = 0;
  for (int l = 0; l < lists; ++l) per_repeat += len[l];
  check_local(api, "dst", dst, static_cast<std::uint64_t>(repeat) * per_repeat * 8, true, file, line);
  const std::uint8_t* base[4] = {nullptr, nullptr, nullptr, nullptr};
  npukb::kern::Span sp[4];
  int nsp = 0;
  for (int l = 0; l < lists; ++l) {
    // with repeats, list 1 starts the contiguous block of every repeat's lists
    const std::uint64_t bytes = (repeat > 1 && l == 0) ? static_cast<std::uint64_t>(repeat) * per_repeat * 8 : len[l] * 8ull;
    check_local(api, "a source list", *srcs[l], bytes, false, file, line);
    if (srcs[l]->loc().addr % 8 != 0) {
      npukb::violation(api, "source list " + npukb::kern::num(l + 1) + " starts at UB offset " +
                       npukb::kern::num(srcs[l]->loc().addr) + ", which is not 8-byte aligned", file, line);
    }
    check_no_overlap(api, "dst", dst, static_cast<std::uint64_t>(repeat) * per_repeat * 8, "a source list", *srcs[l], bytes,
                     file, line);
    base[l] = reinterpret_cast<const std::uint8_t*>(srcs[l]->ptr());
    sp[nsp++] = vspan(*srcs[l], bytes);
  }
  auto* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  MergeResult res;
  std::uint64_t written = 0;
  for (long long r = 0; r < repeat; ++r) {
    const std::uint8_t* src[4];
    for (int l = 0; l < lists; ++l) src[l] = base[l] + static_cast<std::uint64_t>(r) * per_repeat * 8;
    res = merge_lists<T>(d + static_cast<std::uint64_t>(r) * per_repeat * 8, src, len, lists, suspend);
    written += res.written;
  }
  for (int l = 0; l < 4; ++l) taken_out[l] = res.taken[l];
  std::uint16_t* counts = mrg_sort_counts();
  for (int l = 0; l < 4; ++l) counts[l] = static_cast<std::uint16_t>(res.taken[l]);
  const npukb::kern::Span dp = vspan(dst, written * 8);
  vec_cost(kMrgSortPairCycles * static_cast<double>(written), 1, sp, nsp, &dp, 1);
}

// The high-level Sort: Sort32 per repeat, then (full sort) the 4-way merge passes.
template <typename T, bool isFullSort>
inline void sort_run(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<std::uint32_t>& index,
                     const LocalTensor<T>& tmp, std::int32_t repeatTime, const char* file, int line) {
  const char* api = "Sort";
  check_repeat_range(api, "repeatTime", repeatTime, 0, file, line);
  if (repeatTime == 0) return;
  const auto repeats = static_cast<std::uint32_t>(repeatTime);
  const std::uint64_t n = static_cast<std::uint64_t>(repeats) * 32;
  check_local(api, "concat", concat, n * sizeof(T), true, file, line);
  check_local(api, "index", index, n * 4, true, file, line);
  check_local(api, "dst", dst, n * 8, true, file, line);
  check_no_overlap(api, "dst", dst, n * 8, "concat", concat, n * sizeof(T), file, line);
  check_no_overlap(api, "dst", dst, n * 8, "index", index, n * 4, file, line);
  if (isFullSort && repeats > 1) {
    const std::uint64_t need = npukb_lib::SortTmpBytes(static_cast<std::uint32_t>(n));
    check_local(api, "tmp", tmp, 0, true, file, line);
    if (static_cast<std::uint64_t>(tmp.GetSize()) * sizeof(T) < need) {
      npukb::violation(api, "tmp of " + npukb::kern::num(static_cast<long long>(tmp.GetSize() * sizeof(T))) +
                       " bytes is smaller than the " + npukb::kern::num(static_cast<long long>(need)) +
                       " bytes a full sort of " + npukb::kern::num(static_cast<long long>(n)) +
                       " elements needs (GetSortTmpSize)", file, line);
    }
    check_no_overlap(api, "tmp", tmp, need, "dst", dst, n * 8, file, line);
    check_no_overlap(api, "tmp", tmp, need, "concat", concat, n * sizeof(T), file, line);
  }
  std::vector<SortPair> all(n);
  for (std::uint64_t i = 0; i < n; ++i) all[i] = pair_of<T>(concat.ptr()[i], index.ptr()[i]);
  const std::uint64_t group = isFullSort ? n : 32;
  auto* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint64_t g = 0; g < n; g += group) {
    std::vector<SortPair> part(all.begin() + g, all.begin() + g + group);
    stable_sort_pairs(part);
    for (std::uint64_t i = 0; i < group; ++i) store_pair<T>(d + (g + i) * 8, part[i]);
  }
  std::uint32_t passes = 0;
  for (std::uint64_t run = 32; isFullSort && run < n; run *= 4) ++passes;
  const npukb::kern::Span sp[2] = {vspan(concat, n * sizeof(T)), vspan(index, n * 4)};
  const npukb::kern::Span dp = vspan(dst, n * 8);
  vec_cost(kSort32RepeatCycles + kMrgSortPairCycles * 32.0 * passes, repeats, sp, 2, &dp, 1);
}

}  // namespace sim

// ---- basic sort instructions ---------------------------------------------------------------------

template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<std::uint32_t>& src1,
                   const std::int32_t repeatTime) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Sort32<PrimT<T>>(sim::lite(dst), sim::lite(src0), src1, repeatTime);
  } else {
    static_assert(sim::sort_types<T>, "Sort32: unsupported data type (half, float)");
    sim::check_repeat_range("Sort32", "repeatTime", repeatTime, 0, file, line);
    if (repeatTime == 0) return;
    sim::check_start_align("Sort32", "src0", src0, 32 * sizeof(T), file, line);
    sim::check_start_align("Sort32", "src1", src1, 128, file, line);
    sim::check_start_align("Sort32", "dst", dst, 256, file, line);
    sim::sort32_run("Sort32", dst, src0, src1, static_cast<std::uint32_t>(repeatTime), file, line);
  }
}

template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) { NPUKB_CALLER;
  static_assert(sim::sort_types<T>, "MrgSort: unsupported data type (half, float)");
  std::uint32_t taken[4];
  sim::mrg_sort_run("MrgSort", dst, src, params.elementLengths, params.validBit, params.repeatTimes, 0,
                    params.ifExhaustedSuspension, taken, file, line);
}

inline void GetMrgSortResult(std::uint16_t& mrgSortList1, std::uint16_t& mrgSortList2, std::uint16_t& mrgSortList3,
                             std::uint16_t& mrgSortList4) {
  const std::uint16_t* c = sim::mrg_sort_counts();
  mrgSortList1 = c[0];
  mrgSortList2 = c[1];
  mrgSortList3 = c[2];
  mrgSortList4 = c[3];
}

// ---- high-level sort APIs ------------------------------------------------------------------------

template <typename T>
inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const std::int32_t repeatTime) { NPUKB_CALLER;
  static_assert(sim::sort_types<T>, "Concat: unsupported data type (half, float)");
  (void)tmp;   // GetConcatTmpSize: no work buffer on the A2 / A3 layout
  sim::check_repeat_range("Concat", "repeatTime", repeatTime, 0, file, line);
  if (repeatTime == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(repeatTime) * 16 * sizeof(T);
  sim::check_local("Concat", "src", src, bytes, true, file, line);
  sim::check_local("Concat", "concat", concat, bytes, true, file, line);
  std::memmove(concat.ptr(), src.ptr(), bytes);
  const npukb::kern::Span sp = sim::vspan(src, bytes), dp = sim::vspan(concat, bytes);
  sim::vec_cost(kCostSimple, static_cast<std::uint32_t>((bytes + 255) / 256), &sp, 1, &dp, 1);
}

template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<std::uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                    const std::int32_t repeatTime) { NPUKB_CALLER;
  static_assert(sim::sort_types<T>, "Extract: unsupported data type (half, float)");
  sim::check_repeat_range("Extract", "repeatTime", repeatTime, 0, file, line);
  if (repeatTime == 0) return;
  const std::uint64_t n = static_cast<std::uint64_t>(repeatTime) * 32;   // 256 bytes of pairs per repeat
  sim::check_local("Extract", "sorted", sorted, n * 8, true, file, line);
  sim::check_local("Extract", "dstValue", dstValue, n * sizeof(T), true, file, line);
  sim::check_local("Extract", "dstIndex", dstIndex, n * 4, true, file, line);
  const auto* s = reinterpret_cast<const std::uint8_t*>(sorted.ptr());
  std::vector<sim::SortPair> pairs(n);
  for (std::uint64_t i = 0; i < n; ++i) pairs[i] = sim::load_pair<T>(s + i * 8);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::memcpy(dstValue.ptr() + i, pairs[i].raw, sizeof(T));
    dstIndex.ptr()[i] = pairs[i].index;
  }
  const npukb::kern::Span sp = sim::vspan(sorted, n * 8);
  const npukb::kern::Span dp[2] = {sim::vspan(dstValue, n * sizeof(T)), sim::vspan(dstIndex, n * 4)};
  sim::vec_cost(2 * kCostSimple, static_cast<std::uint32_t>(repeatTime), &sp, 1, dp, 2);
}

template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<std::uint32_t>& index,
                 LocalTensor<T>& tmp, const std::int32_t repeatTime) { NPUKB_CALLER;
  static_assert(sim::sort_types<T>, "Sort: unsupported data type (half, float)");
  sim::sort_run<T, isFullSort>(dst, concat, index, tmp, repeatTime, file, line);
}

// The SortConfig forms (Ascend 950PR / 950DT only).
#define NPUKB_SORT_950_ONLY(T)                                                                                         \
  static_assert(sim::sort_false<T>, "Sort with a SortConfig is documented for the Ascend 950PR / 950DT only; on the "   \
                "Atlas A2 / A3 series use Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime) with Extract")
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<std::uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<std::uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_SORT_950_ONLY(T);
}
#undef NPUKB_SORT_950_ONLY

// Sorted data of elemCount elements / the offset of element elemOffset, in elements of T.
template <typename T>
inline std::uint32_t GetSortLen(const std::uint32_t elemCount) {
  static_assert(sim::sort_types<T>, "GetSortLen: unsupported data type (half, float)");
  return elemCount * npukb_lib::kSortPairBytes / static_cast<std::uint32_t>(sizeof(T));
}
template <typename T>
inline std::uint32_t GetSortOffset(const std::uint32_t elemOffset) {
  static_assert(sim::sort_types<T>, "GetSortOffset: unsupported data type (half, float)");
  return elemOffset * npukb_lib::kSortPairBytes / static_cast<std::uint32_t>(sizeof(T));
}

template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const std::uint16_t elementCountList[4],
                    std::uint32_t sortedNum[4], std::uint16_t validBit, const std::int32_t repeatTime) { NPUKB_CALLER;
  static_assert(sim::sort_types<T>, "MrgSort: unsupported data type (half, float)");
  std::uint32_t taken[4];
  sim::mrg_sort_run("MrgSort", dst, sortList, elementCountList, validBit, repeatTime, 1, isExhaustedSuspension, taken,
                    file, line);
  if (isExhaustedSuspension) {
    for (int l = 0; l < 4; ++l) sortedNum[l] = taken[l];
  }
}

// ---- TopK ----------------------------------------------------------------------------------------
namespace sim {

struct TopKShape {
  std::uint32_t outter = 0, inner = 0, n = 0, k = 0, kpad = 0, kpad_index = 0;
};

template <typename T>
inline TopKShape topk_shape(const TopKInfo& info, std::int32_t k, bool small, const TopkTiling& tiling, const char* file,
                            int line) {
  const char* api = "TopK";
  if (info.outter < 1 || info.inner < 32 || info.inner % 32 != 0) {
    npukb::violation(api, "topKInfo {outter " + npukb::kern::num(info.outter) + ", inner " + npukb::kern::num(info.inner) +
                     "}: outter must be at least 1 and inner a positive multiple of 32", file, line);
  }
  if (small && info.inner != 32) {
    npukb::violation(api, "the small mode (TOPK_NSMALL) needs topKInfo.inner = 32, not " + npukb::kern::num(info.inner),
                     file, line);
  }
  if (!small && info.inner > 4096) {
    npukb::violation(api, "topKInfo.inner " + npukb::kern::num(info.inner) + " exceeds the normal mode's maximum 4096",
                     file, line);
  }
  if (info.n < 1 || info.n > info.inner) {
    npukb::violation(api, "topKInfo.n " + npukb::kern::num(info.n) + " is outside [1, inner = " +
                     npukb::kern::num(info.inner) + "]", file, line);
  }
  if (k < 1 || k > info.n) {
    npukb::violation(api, "k " + npukb::kern::num(k) + " is outside [1, n = " + npukb::kern::num(info.n) + "]", file, line);
  }
  TopKShape s;
  s.outter = static_cast<std::uint32_t>(info.outter);
  s.inner = static_cast<std::uint32_t>(info.inner);
  s.n = static_cast<std::uint32_t>(info.n);
  s.k = static_cast<std::uint32_t>(k);
  s.kpad = small ? s.k : npukb_lib::AlignUp(s.k, 32 / sizeof(T));
  s.kpad_index = small ? s.k : npukb_lib::AlignUp(s.k, 8);
  const auto k4 = static_cast<std::int32_t>(npukb_lib::AlignUp(s.k, 8));
  const auto k2 = static_cast<std::int32_t>(npukb_lib::AlignUp(s.k, 16));
  if (tiling.innerDataSize != info.inner || tiling.kAlignFourBytes != k4 || tiling.kAlignTwoBytes != k2) {
    npukb::violation(api, "the TopkTiling was computed for inner " + npukb::kern::num(tiling.innerDataSize) +
                     " and k aligned to " + npukb::kern::num(tiling.kAlignFourBytes) + " (TopKTilingFunc), but the call "
                     "has inner " + npukb::kern::num(info.inner) + " and k " + npukb::kern::num(k), file, line);
  }
  return s;
}

template <typename T, bool isInitIndex, bool isHasfinish, bool small>
inline void topk_run(const LocalTensor<T>& dstValue, const LocalTensor<std::int32_t>& dstIndex, const LocalTensor<T>& src,
                     const LocalTensor<std::int32_t>& srcIndex, const LocalTensor<bool>& finish,
                     const LocalTensor<std::uint8_t>* tmp, std::int32_t k, const TopkTiling& tiling,
                     const TopKInfo& info, bool isLargest, const char* file, int line) {
  const char* api = "TopK";
  const TopKShape s = topk_shape<T>(info, k, small, tiling, file, line);
  const std::uint64_t src_n = static_cast<std::uint64_t>(s.outter) * s.inner;
  check_local(api, "srcLocal", src, src_n * sizeof(T), true, file, line);
  if (isInitIndex) check_local(api, "srcIndexLocal", srcIndex, (small ? src_n : s.inner) * 4, true, file, line);
  if (isHasfinish) check_local(api, "finishLocal", finish, s.outter, true, file, line);
  const std::uint64_t dv = static_cast<std::uint64_t>(s.outter) * s.kpad * sizeof(T);
  const std::uint64_t di = static_cast<std::uint64_t>(s.outter) * s.kpad_index * 4;
  check_local(api, "dstValueLocal", dstValue, dv, true, file, line);
  check_local(api, "dstIndexLocal", dstIndex, di, true, file, line);
  check_no_overlap(api, "dstValueLocal", dstValue, dv, "srcLocal", src, src_n * sizeof(T), file, line);
  check_no_overlap(api, "dstIndexLocal", dstIndex, di, "srcLocal", src, src_n * sizeof(T), file, line);
  if (isInitIndex) {
    check_no_overlap(api, "dstIndexLocal", dstIndex, di, "srcIndexLocal", srcIndex, (small ? src_n : s.inner) * 4, file,
                     line);
  }
  const std::uint64_t need = npukb_lib::TopKMinTmpBytes(s.inner, s.outter, isInitIndex, small, isLargest, sizeof(T));
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "TopK needs (GetTopKMaxMinTmpSize's minimum)", file, line);
    if (tmp->GetPosition() != static_cast<std::int32_t>(TPosition::VECCALC)) {
      npukb::violation(api, "tmpLocal must be a VECCALC tensor (the page allows no other position)", file, line);
    }
    check_no_overlap(api, "tmpLocal", *tmp, need, "srcLocal", src, src_n * sizeof(T), file, line);
    check_no_overlap(api, "tmpLocal", *tmp, need, "dstValueLocal", dstValue, dv, file, line);
    check_no_overlap(api, "tmpLocal", *tmp, need, "dstIndexLocal", dstIndex, di, file, line);
  } else {
    check_framework_tmp(api, need, "GetTopKMaxMinTmpSize's minimum", file, line);
  }
  std::vector<SortPair> row(s.inner);
  for (std::uint32_t r = 0; r < s.outter; ++r) {
    for (std::uint32_t j = 0; j < s.inner; ++j) {
      const T v = src.ptr()[static_cast<std::uint64_t>(r) * s.inner + j];
      const std::uint32_t idx = !isInitIndex ? j
                                : static_cast<std::uint32_t>(srcIndex.ptr()[(small ? static_cast<std::uint64_t>(r) * s.inner : 0) + j]);
      row[j] = pair_of<T>(v, idx);
      if (!isLargest) row[j].score = -row[j].score;   // the negated data sort the same way (exactly)
    }
    stable_sort_pairs(row);
    const bool done = isHasfinish && finish.ptr()[r];
    for (std::uint32_t j = 0; j < s.k; ++j) {
      std::memcpy(dstValue.ptr() + static_cast<std::uint64_t>(r) * s.kpad + j, row[j].raw, sizeof(T));
      dstIndex.ptr()[static_cast<std::uint64_t>(r) * s.kpad_index + j] =
          done ? static_cast<std::int32_t>(s.n) : static_cast<std::int32_t>(row[j].index);
    }
  }
  std::uint32_t passes = 0;
  for (std::uint32_t run = 32; run < s.inner; run *= 4) ++passes;
  const double per_row = (s.inner / 32) * kSort32RepeatCycles + kMrgSortPairCycles * s.inner * passes +
                         (isLargest ? 0.0 : 2.0 * kCostSimple * ((s.inner * sizeof(T) + 255) / 256)) + 2.0 * kCostSimple;
  const npukb::kern::Span sp = vspan(src, src_n * sizeof(T));
  const npukb::kern::Span dp[2] = {vspan(dstValue, dv), vspan(dstIndex, di)};
  vec_cost(per_row, s.outter, &sp, 1, dp, 2);
}

}  // namespace sim

#define NPUKB_TOPK_CHECKS                                                                                              \
  static_assert(sim::sort_types<T>, "TopK: unsupported data type (half, float)");                                      \
  static_assert(!(topkMode == TopKMode::TOPK_NSMALL && isHasfinish),                                                   \
                "TopK: the small mode (TOPK_NSMALL) supports isHasfinish = false only");                              \
  static_assert(config.algo == TopKAlgo::MERGE_SORT && config.order == TopKOrder::UNSET && config.sorted,              \
                "TopK: a TopKConfig other than defaultTopKConfig (RADIX_SELECT, order, sorted) is documented for the " \
                "Ascend 950PR / 950DT only")

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<std::int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<std::int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const std::int32_t k, const TopkTiling& tilling,
                 const TopKInfo& topKInfo, const bool isLargest = true) { NPUKB_CALLER;
  NPUKB_TOPK_CHECKS;
  sim::topk_run<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, nullptr, k, tilling, topKInfo, isLargest, file,
      line);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<std::int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<std::int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const LocalTensor<std::uint8_t>& tmpLocal, const std::int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) { NPUKB_CALLER;
  NPUKB_TOPK_CHECKS;
  sim::topk_run<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, &tmpLocal, k, tilling, topKInfo, isLargest,
      file, line);
}
#undef NPUKB_TOPK_CHECKS

}  // namespace AscendC
