// tiling/platform/platform_ascendc.h -- platform_ascendc::PlatformAscendC as seen by tiling code.
// Part of the ascendc-sim clean-room simulator: the platform is always an Ascend 910B
// (20 AI Cube + 40 AI Vector cores, UB 196,608 bytes per vector core; docs/cost-model.md).
#pragma once
#include <cstdint>

#include "platform/platform_infos_def.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND910_93,
  ASCEND910_95,
  ASCEND310P,
  ASCEND310B,
  ASCEND610,
  ASCEND310,
  ASCEND610LITE,
  ASCEND910_55,
  KIRINX90,
  KIRIN9030,
  MC61AM21A,
  RESERVED_VERSION = 99999
};

class PlatformAscendC {
 public:
  PlatformAscendC() = default;
  explicit PlatformAscendC(const fe::PlatFormInfos* /*platform_info*/) {}

  uint32_t GetCoreNum() const { return kAiv; }
  uint32_t GetCoreNumAic() const { return kAic; }
  uint32_t GetCoreNumAiv() const { return kAiv; }
  uint32_t GetCoreNumVector() const { return 0; }   // no separate Vector Core on 910B
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  void GetCoreMemSize(const CoreMemType& mem_type, uint64_t& size) const {
    switch (mem_type) {
      case CoreMemType::UB: size = 196608; break;
      case CoreMemType::L1: size = 524288; break;
      case CoreMemType::L0_A: size = 65536; break;
      case CoreMemType::L0_B: size = 65536; break;
      case CoreMemType::L0_C: size = 131072; break;
      case CoreMemType::L2: size = 201326592ULL; break;
      case CoreMemType::HBM: size = 68719476736ULL; break;
      default: size = 0; break;
    }
  }
  // Bandwidth in bytes per cycle (first-order figures of the simulator's cost model).
  void GetCoreMemBw(const CoreMemType& mem_type, uint64_t& bw_size) const {
    switch (mem_type) {
      case CoreMemType::HBM: bw_size = 864; break;   // ~1.6 TB/s at 1.85 GHz
      case CoreMemType::L2: bw_size = 2048; break;
      case CoreMemType::UB: bw_size = 256; break;
      default: bw_size = 0; break;
    }
  }
  // System workspace the AscendC library needs (SyncAll, Matmul, ...): 16 MiB.
  uint32_t GetLibApiWorkSpaceSize() const { return 16U * 1024U * 1024U; }
  uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
  uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
  // Block dim for a mixed Cube/Vector kernel: one block per AI core, ratio = AIV cores per AIC core.
  uint32_t CalcTschBlockDim(uint32_t slice_num, uint32_t aic_core_num, uint32_t aiv_core_num) const {
    if (aic_core_num == 0 || aiv_core_num == 0 || aic_core_num > aiv_core_num) {
      return slice_num;
    }
    uint32_t ratio = aiv_core_num / aic_core_num;
    return (slice_num + ratio - 1) / ratio;
  }
  void ReserveLocalMemory(int /*size*/) const {}

 private:
  static constexpr uint32_t kAic = 20;
  static constexpr uint32_t kAiv = 40;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC instance;
    return &instance;
  }
  static PlatformAscendC* GetInstance(const char* /*custom_soc_version*/) { return GetInstance(); }

 private:
  PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
