// common/util/error_manager/error_manager.h -- ErrorManager and the REPORT_*_ERROR macros CANN
// components use to report errors to the user. Part of the ascendc-sim clean-room simulator:
// reports go to stderr (npukb_sim/host_log.h) and are counted.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "npukb_sim/host_log.h"

class ErrorManager {
 public:
  static ErrorManager& GetInstance() {
    static ErrorManager instance;
    return instance;
  }
  int ReportInterErrMessage(const std::string& error_code, const std::string& error_msg) {
    ::npukb_host_log::log("ERROR", error_code.c_str(), "%s", error_msg.c_str());
    ++reported_;
    return 0;
  }
  int ReportErrMessage(const std::string& error_code, const std::map<std::string, std::string>& args) {
    std::string text;
    for (const auto& kv : args) text += (text.empty() ? "" : ", ") + kv.first + "=" + kv.second;
    return ReportInterErrMessage(error_code, text);
  }
  void ATCReportErrMessage(const std::string& error_code, const std::vector<std::string>& key = {},
                           const std::vector<std::string>& value = {}) {
    std::map<std::string, std::string> args;
    for (size_t i = 0; i < key.size() && i < value.size(); ++i) args[key[i]] = value[i];
    ReportErrMessage(error_code, args);
  }
  size_t NpukbReported() const { return reported_; }

 private:
  ErrorManager() = default;
  size_t reported_ = 0;
};

#define REPORT_INNER_ERROR(error_code, ...) ::npukb_host_log::log("ERROR", error_code, __VA_ARGS__)
#define REPORT_CALL_ERROR(error_code, ...) ::npukb_host_log::log("ERROR", error_code, __VA_ARGS__)
#define REPORT_ENV_ERROR(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
#define REPORT_INPUT_ERROR(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
