// base/err_msg.h -- the error-message reporting macros of CANN's error manager: REPORT_INNER_ERR_MSG
// (an internal error of a component), REPORT_USER_ERR_MSG (an error in what the user passed) and
// REPORT_PREDEFINED_ERR_MSG (a predefined error code with its argument names and values).
// Part of the ascendc-sim clean-room simulator: reports go to stderr as "[ERROR] [code] ..." lines
// (npukb_sim/host_log.h) and are counted by ErrorManager.
#pragma once
#include "common/util/error_manager/error_manager.h"
