// platform/platform_infos_def.h -- fe::PlatFormInfos, the platform handle of TilingContext and
// TilingParseContext, and fe::OptionalInfos. Part of the ascendc-sim clean-room simulator: the
// platform is the run's SoC profile (default Ascend910B3: 20 AI Cube + 40 AI Vector cores; --npukb-soc),
// UB 196,608 bytes.
//
// Resources are kept as the CANN platform configuration keeps them: label -> key -> string value
// (labels "version", "SoCInfo", "AICoreSpec", "AICoreMemoryRates"); GetLocalMemSize / GetCoreNum read
// the same table.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
 public:
  PlatFormInfos();   // the simulated Ascend 910B
  PlatFormInfos(const PlatFormInfos& other);
  PlatFormInfos& operator=(const PlatFormInfos& other);
  ~PlatFormInfos();

  bool Init();
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value);
  bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& values);
  bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value);
  bool GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& values);
  void SetPlatformRes(const std::string& label, std::map<std::string, std::string>& values);
  void SetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& values);
  std::map<std::string, std::vector<std::string>> GetAICoreIntrinsicDtype();
  std::map<std::string, std::vector<std::string>> GetVectorCoreIntrinsicDtype();

  // Cores an AscendC vector kernel may use (AI Vector cores on the 910B).
  uint32_t GetCoreNum() const;
  void SetCoreNum(const uint32_t& core_num);
  // "AiCore" / "VectorCore" / "CubeCore".
  uint32_t GetCoreNumByType(const std::string& core_type);
  void SetCoreNumByCoreType(const std::string& core_type);
  void GetLocalMemSize(const LocalMemType& mem_type, uint64_t& size);
  void GetLocalMemBw(const LocalMemType& mem_type, uint64_t& bw_size);

 private:
  std::map<std::string, std::map<std::string, std::string>> res_;
  uint32_t core_num_ = 0;
};

class OptionalInfos {
 public:
  OptionalInfos();
  OptionalInfos(const OptionalInfos& other);
  OptionalInfos& operator=(const OptionalInfos& other);
  ~OptionalInfos();
  bool Init();
  std::string GetSocVersion() const;
  std::string GetCoreType() const;
  uint32_t GetAICoreNum() const;
  std::string GetL1FusionFlag() const;
  void SetSocVersion(std::string soc_version);
  void SetCoreType(std::string core_type);
  void SetAICoreNum(uint32_t ai_core_num);
  void SetL1FusionFlag(std::string l1_fusion_flag);

 private:
  std::string soc_version_;
  std::string core_type_;
  uint32_t ai_core_num_ = 0;
  std::string l1_fusion_flag_;
};

}  // namespace fe
