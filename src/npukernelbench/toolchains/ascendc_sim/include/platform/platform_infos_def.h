// platform/platform_infos_def.h -- fe::PlatFormInfos, the opaque platform handle of TilingContext.
// Part of the ascendc-sim clean-room simulator: it always describes the simulated Ascend 910B.
#pragma once
#include <cstdint>
#include <string>

namespace fe {

class PlatFormInfos {
 public:
  const std::string& NpukbSocVersion() const { return soc_version_; }
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
    if (label == "version" && key == "Short_SoC_version") {
      value = "Ascend910B";
      return true;
    }
    if (label == "version" && key == "SoC_version") {
      value = soc_version_;
      return true;
    }
    if (label == "SoCInfo" && key == "ai_core_cnt") {
      value = "24";
      return true;
    }
    if (label == "SoCInfo" && key == "vector_core_cnt") {
      value = "48";
      return true;
    }
    return false;
  }
  uint32_t GetCoreNum() const { return 48; }

 private:
  std::string soc_version_ = "Ascend910B1";
};

}  // namespace fe
