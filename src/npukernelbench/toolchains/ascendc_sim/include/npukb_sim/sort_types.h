// npukb_sim/sort_types.h -- the configuration types of the sort family that host tiling helpers and
// kernel APIs share: TopKMode, TopKConfig (TopKAlgo, TopKOrder, defaultTopKConfig) and SortConfig
// (SortType, DEFAULT_SORT_CONFIG), with the documented enumerators, fields and defaults. Part of the
// ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

namespace AscendC {

// TopK: the normal mode (any inner that is a multiple of 32, up to 4096) or the small mode (inner = 32).
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };

enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
  TopKAlgo algo = TopKAlgo::MERGE_SORT;
  TopKOrder order = TopKOrder::UNSET;
  bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

// Sort with a SortConfig (documented for the Ascend 950PR / 950DT only).
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC
