// common/util/error_manager/error_manager.h -- ErrorManager, the REPORT_*_ERROR and REPORT_*_ERR_MSG macros CANN
// components use to report errors to the user. Part of the ascendc-sim clean-room simulator:
// reports go to stderr (npukb_sim/host_log.h) and are counted.
#pragma once
#include <cstdint>
#include <cstdio>
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
  // (error_code, printf-style format, args...): printed and counted.
  template <typename... Args>
  int NpukbReport(const char* error_code, const char* fmt, Args... args) {
    int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0) std::snprintf(&text[0], text.size() + 1, fmt, args...);
    return ReportInterErrMessage(error_code == nullptr ? "" : error_code, text);
  }

 private:
  ErrorManager() = default;
  size_t reported_ = 0;
};

#define REPORT_INNER_ERR_MSG(error_code, fmt, ...) \
  ErrorManager::GetInstance().NpukbReport(error_code, fmt, ##__VA_ARGS__)
#define REPORT_USER_ERR_MSG(error_code, fmt, ...) \
  ErrorManager::GetInstance().NpukbReport(error_code, fmt, ##__VA_ARGS__)
#define REPORT_PREDEFINED_ERR_MSG(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
#define REPORT_INNER_ERROR(error_code, ...) ::npukb_host_log::log("ERROR", error_code, __VA_ARGS__)
#define REPORT_CALL_ERROR(error_code, ...) ::npukb_host_log::log("ERROR", error_code, __VA_ARGS__)
#define REPORT_ENV_ERROR(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
#define REPORT_INPUT_ERROR(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
