// log/ops_log.h -- the logging and checking macros of CANN's operator repositories (op_host code):
//   OPS_LOG_D / OPS_LOG_I / OPS_LOG_W / OPS_LOG_E (op name, fmt, args...) print; OPS_LOG_E also reports
//     the error (REPORT_INNER_ERR_MSG), OPS_LOG_E_WITHOUT_REPORT only prints;
//   OPS_CHECK(cond, log_statement, action): when cond holds, runs the log statement, then the action
//     (typically "return ge::GRAPH_FAILED");
//   OPS_CHECK_NULL_WITH_CONTEXT(context, ptr): a null ptr is reported and the function returns
//     ge::GRAPH_FAILED; OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) returns ret instead.
// Part of the ascendc-sim clean-room simulator: messages go to stderr (npukb_sim/host_log.h).
// Brings toolchain/slog.h (log levels, CheckLogLevel) and, as the operator repositories' log header
// does for its thread-id prefix, <unistd.h> and <sys/syscall.h> (syscall(__NR_gettid)). tiling/tiling_base.h includes this header, as
// template-style tiling code relies on.
#pragma once
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

#include "base/err_msg.h"
#include "npukb_sim/host_log.h"
#include "toolchain/slog.h"

namespace npukb_host_log {
// The operator an OPS_LOG_* line is about: a name, or a context (its node name).
inline const char* op_name(const char* name) { return name == nullptr ? "" : name; }
inline const char* op_name(const std::string& name) { return name.c_str(); }
template <typename Context, typename = decltype(std::declval<const Context&>().GetNodeName())>
inline const char* op_name(const Context* context) {
  return context == nullptr ? "" : context->GetNodeName();
}
template <typename Context, typename = decltype(std::declval<const Context&>().GetNodeName())>
inline const char* op_name(Context* context) {
  return context == nullptr ? "" : context->GetNodeName();
}
}  // namespace npukb_host_log

#define OPS_LOG_D(opname, ...) ::npukb_host_log::emit("DEBUG", ::npukb_host_log::op_name(opname), __VA_ARGS__)
#define OPS_LOG_I(opname, ...) ::npukb_host_log::emit("INFO", ::npukb_host_log::op_name(opname), __VA_ARGS__)
#define OPS_LOG_W(opname, ...) ::npukb_host_log::emit("WARNING", ::npukb_host_log::op_name(opname), __VA_ARGS__)
#define OPS_LOG_E_WITHOUT_REPORT(opname, ...) \
  ::npukb_host_log::emit("ERROR", ::npukb_host_log::op_name(opname), __VA_ARGS__)
#define OPS_LOG_E(opname, ...)                                                              \
  do {                                                                                      \
    ::npukb_host_log::emit("ERROR", ::npukb_host_log::op_name(opname), __VA_ARGS__);        \
    ErrorManager::GetInstance().ReportInterErrMessage("EZ9999", ::npukb_host_log::op_name(opname)); \
  } while (0)

#define OPS_CHECK(cond, log_func, expr) \
  do {                                  \
    if (cond) {                         \
      log_func;                         \
      expr;                             \
    }                                   \
  } while (0)

#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr)                                                   \
  do {                                                                                              \
    if ((ptr) == nullptr) {                                                                         \
      ::npukb_host_log::emit("ERROR", ::npukb_host_log::op_name(context), "%s is nullptr!", #ptr);  \
      REPORT_INNER_ERR_MSG("EZ9999", "op[%s], %s is nullptr!", ::npukb_host_log::op_name(context), #ptr); \
      return ge::GRAPH_FAILED;                                                                      \
    }                                                                                               \
  } while (0)

#define OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret)                                          \
  do {                                                                                              \
    if ((ptr) == nullptr) {                                                                         \
      ::npukb_host_log::emit("ERROR", ::npukb_host_log::op_name(context), "%s is nullptr!", #ptr);  \
      REPORT_INNER_ERR_MSG("EZ9999", "op[%s], %s is nullptr!", ::npukb_host_log::op_name(context), #ptr); \
      return ret;                                                                                   \
    }                                                                                               \
  } while (0)
