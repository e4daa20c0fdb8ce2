// platform/platform_infos_def.h -- fe::PlatFormInfos, the opaque platform handle of TilingContext.
// Part of the ascendc-sim clean-room simulator: it always describes the simulated Ascend 910B.
#pragma once
#include <cstdint>
#include <string>

namespace fe {

class PlatFormInfos {
 public:
  PlatFormInfos();
  PlatFormInfos(const PlatFormInfos& other);
  PlatFormInfos& operator=(const PlatFormInfos& other);
  ~PlatFormInfos();
  const std::string& NpukbSocVersion() const { return soc_version_; }
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const;
  uint32_t GetCoreNum() const { return 48; }

 private:
  std::string soc_version_ = "Ascend910B1";
};

}  // namespace fe
