// npukb_sim/host_log.h -- the log sink behind the CANN logging and error-reporting macros host code
// includes (opdev/op_log.h, error_manager.h). Part of the ascendc-sim clean-room simulator.
//
// Messages go to the simulator process's stderr as "[LEVEL] ..." lines. The macros accept the
// argument conventions real code uses: (fmt, args...), (node_name, fmt, args...) and
// (error_code, fmt, args...). Two leading strings are told apart by the first containing a '%'
// (then it is the format) or not (then it is a name printed before the format).
#pragma once
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace npukb_host_log {

template <typename... Args>
inline void emit(const char* level, const char* prefix, const char* fmt, Args... args) {
  std::fprintf(stderr, "[%s] ", level);
  if (prefix != nullptr) std::fprintf(stderr, "%s: ", prefix);
  if (fmt != nullptr) std::fprintf(stderr, fmt, args...);
  std::fputc('\n', stderr);
}

inline void log(const char* level, const char* text) { emit(level, nullptr, "%s", text ? text : ""); }

template <typename... Args>
inline void log(const char* level, const char* first, const char* second, Args... args) {
  if (first != nullptr && std::strchr(first, '%') != nullptr) {
    emit(level, nullptr, first, second, args...);
  } else {
    emit(level, first, second, args...);
  }
}

template <typename T, typename... Args,
          typename = std::enable_if_t<!std::is_convertible<T, const char*>::value>>
inline void log(const char* level, const char* fmt, T value, Args... args) {
  emit(level, nullptr, fmt, value, args...);
}

// (error_code, fmt, args...)
template <typename Code, typename... Args,
          typename = std::enable_if_t<std::is_integral<Code>::value || std::is_enum<Code>::value>>
inline void log(const char* level, Code code, const char* fmt, Args... args) {
  std::fprintf(stderr, "[%s] [%lld] ", level, static_cast<long long>(code));
  std::fprintf(stderr, fmt, args...);
  std::fputc('\n', stderr);
}

}  // namespace npukb_host_log
