// toolchain/slog.h -- log levels and module ids of CANN's device log (slog), and the level checks host
// code makes before building an expensive debug message: CheckLogLevel(module, level) and
// AlogCheckDebugLevel(module, level) return 1 when messages of that level are printed;
// AlogRecord(module, type, level, fmt, ...) prints a record of an enabled level.
// Part of the ascendc-sim clean-room simulator: the level is that of ASCEND_GLOBAL_LOG_LEVEL (default
// DLOG_ERROR, as on the device), which the confined simulator process never sets, so debug, info and
// warning messages are off. The module ids' values are the simulator's own.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4

// Log types of AlogRecord: the debug log and the run log.
#define DLOG_TYPE_DEBUG 0
#define DLOG_TYPE_RUN 1

enum {
  SLOG = 0,
  IDEDD,
  IDEDH,
  HCCL,
  FMK,
  HIAIENGINE,
  DVPP,
  RUNTIME,
  CCE,
  HDC,
  DRV,
  GE = 45,
  OP = 46,
  INVLID_MOUDLE_ID = 255
};

inline int32_t CheckLogLevel(int32_t /*moduleId*/, int32_t logLevel) {
  const char* env = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  int32_t level = env != nullptr ? std::atoi(env) : DLOG_ERROR;
  return logLevel >= level && logLevel < DLOG_NULL ? 1 : 0;
}

inline int32_t AlogCheckDebugLevel(int32_t moduleId, int32_t logLevel) { return CheckLogLevel(moduleId, logLevel); }

// One log record (printf-style): printed to stderr when its level is enabled.
inline void AlogRecord(int32_t moduleId, int32_t /*logType*/, int32_t level, const char* fmt, ...) {
  if (fmt == nullptr || CheckLogLevel(moduleId, level) != 1) return;
  static const char* const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  std::fprintf(stderr, "[%s] ", level >= 0 && level < DLOG_NULL ? names[level] : "LOG");
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
}
