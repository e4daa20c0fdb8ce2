// utils/log/asc_cpu_log.h -- ASC_CPU_LOG_ERROR / _WARNING / _INFO / _DEBUG(format, ...): host-side log
// lines of a TilingFunc (the documented host log API). Part of the ascendc-sim clean-room simulator:
// each prints one "[LEVEL] file:line function: message" line to the simulator process's stderr.
#pragma once
#include <cstdio>

#define NPUKB_ASC_CPU_LOG(level, format, ...)                                              \
  do {                                                                                      \
    std::fprintf(stderr, "[%s] %s:%d %s: ", level, __FILE__, __LINE__, __func__);           \
    std::fprintf(stderr, format, ##__VA_ARGS__);                                            \
    std::fputc('\n', stderr);                                                               \
  } while (0)
#define ASC_CPU_LOG_ERROR(format, ...) NPUKB_ASC_CPU_LOG("ERROR", format, ##__VA_ARGS__)
#define ASC_CPU_LOG_WARNING(format, ...) NPUKB_ASC_CPU_LOG("WARNING", format, ##__VA_ARGS__)
#define ASC_CPU_LOG_INFO(format, ...) NPUKB_ASC_CPU_LOG("INFO", format, ##__VA_ARGS__)
#define ASC_CPU_LOG_DEBUG(format, ...) NPUKB_ASC_CPU_LOG("DEBUG", format, ##__VA_ARGS__)
