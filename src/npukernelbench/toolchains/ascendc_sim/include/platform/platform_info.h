// platform/platform_info.h -- fe::PlatformInfoManager, the process-wide source of platform
// descriptions, plus fe::PlatFormInfos (platform/platform_infos_def.h).
// Part of the ascendc-sim clean-room simulator: every SoC version resolves to the simulated
// Ascend 910B. Like CANN's header it makes std::map, std::string and std::vector visible unqualified
// (global using-declarations), which real host code relies on.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "platform/platform_infos_def.h"

using std::map;
using std::string;
using std::vector;

namespace fe {

class PlatformInfoManager {
 public:
  PlatformInfoManager(const PlatformInfoManager& other) = delete;
  PlatformInfoManager& operator=(const PlatformInfoManager& other) = delete;
  static PlatformInfoManager& Instance();
  static PlatformInfoManager& GeInstance();
  // 0 on success, as in CANN.
  uint32_t InitializePlatformInfo();
  uint32_t Finalize();
  uint32_t GetPlatformInfos(const std::string soc_version, PlatFormInfos& platform_infos,
                            OptionalInfos& optional_infos);
  uint32_t GetPlatformInfoWithOutSocVersion(PlatFormInfos& platform_infos, OptionalInfos& optional_infos);
  uint32_t InitRuntimePlatformInfos(const std::string& soc_version);
  uint32_t GetRuntimePlatformInfosByDevice(const uint32_t& device_id, PlatFormInfos& platform_infos,
                                           bool need_deep_copy = false);

 private:
  PlatformInfoManager();
  ~PlatformInfoManager();
  bool initialized_ = false;
};

}  // namespace fe
