// aclnn/opdev/op_log.h -- logging macros of the CANN operator-development (opdev) library.
// Part of the ascendc-sim clean-room simulator: messages go to stderr (npukb_sim/host_log.h).
#pragma once
#include <cstdio>

#include "npukb_sim/host_log.h"

#define OP_LOGD(...) ::npukb_host_log::log("DEBUG", __VA_ARGS__)
#define OP_LOGI(...) ::npukb_host_log::log("INFO", __VA_ARGS__)
#define OP_LOGW(...) ::npukb_host_log::log("WARNING", __VA_ARGS__)
#define OP_LOGE(...) ::npukb_host_log::log("ERROR", __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(...) ::npukb_host_log::log("ERROR", __VA_ARGS__)
