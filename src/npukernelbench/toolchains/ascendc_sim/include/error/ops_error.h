// error/ops_error.h -- error reporting of CANN's operator repositories: OPS_REPORT_VECTOR_INNER_ERR and
// OPS_REPORT_CUBE_INNER_ERR (op name, fmt, args...) print the error and report it to the error
// manager; the logging and checking macros of log/ops_log.h come with it.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include "log/ops_log.h"

#define OPS_REPORT_VECTOR_INNER_ERR(opname, ...) OPS_LOG_E(opname, __VA_ARGS__)
#define OPS_REPORT_CUBE_INNER_ERR(opname, ...) OPS_LOG_E(opname, __VA_ARGS__)
