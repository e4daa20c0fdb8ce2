// tiling/platform/platform_ascendc.h -- platform_ascendc::PlatformAscendC as seen by tiling code.
// Part of the ascendc-sim clean-room simulator: the platform is the run's SoC profile (--npukb-soc:
// core counts and SoC version; docs/simulator.md, "SoC profiles"); every profile has the 910B / 910_93
// AI core memories (UB 196,608 bytes per vector core; docs/cost-model.md).
#pragma once
#include <cstdint>

#include "platform/platform_infos_def.h"
#include "platform/soc_spec.h"
#include "npukb_sim/soc.h"

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

// UB space a kernel keeps for itself (ReserveLocalMemory): 8, 16 or 32 KiB.
enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}

  uint32_t GetCoreNum() const { return static_cast<uint32_t>(npukb::vector_cores()); }
  uint32_t GetCoreNumAic() const { return static_cast<uint32_t>(npukb::cube_cores()); }
  uint32_t GetCoreNumAiv() const { return static_cast<uint32_t>(npukb::vector_cores()); }
  uint32_t GetCoreNumVector() const { return 0; }   // no separate Vector Core on 910B / 910_93
  SocVersion GetSocVersion() const { return static_cast<SocVersion>(npukb::soc_info().soc_version); }
  void GetCoreMemSize(const CoreMemType& mem_type, uint64_t& size) const {
    switch (mem_type) {
      case CoreMemType::UB: size = 196608; size -= reserved_ub_; break;   // less what ReserveLocalMemory keeps
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
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) {
      return sliceNum;
    }
    uint32_t ratio = aivCoreNum / aicCoreNum;
    return (sliceNum + ratio - 1) / ratio;
  }
  // The earlier name of CalcTschNumBlocks.
  uint32_t CalcTschBlockDim(uint32_t slice_num, uint32_t aic_core_num, uint32_t aiv_core_num) const {
    return CalcTschNumBlocks(slice_num, aic_core_num, aiv_core_num);
  }
  NpuArch GetCurNpuArch(void) const { return NpuArch::DAV_2201; }   // Atlas A2 / A3 training series
  uint32_t GetVecRegLen(void) const { return 0; }                    // not a RegBase architecture
  // Keeps UB space for the kernel itself; GetCoreMemSize(UB) then reports the rest (last call wins).
  void ReserveLocalMemory(ReservedSize size) {
    reserved_ub_ = size == ReservedSize::RESERVED_SIZE_8K ? 8192U : size == ReservedSize::RESERVED_SIZE_16K ? 16384U
                                                                                                          : 32768U;
  }

 private:
  fe::PlatFormInfos* platformInfo_ = nullptr;
  uint32_t reserved_ub_ = 0;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC instance(nullptr);
    return &instance;
  }
  static PlatformAscendC* GetInstance(const char* /*custom_soc_version*/) { return GetInstance(); }

 private:
  PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
