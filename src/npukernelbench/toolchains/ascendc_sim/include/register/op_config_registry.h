// register/op_config_registry.h -- REGISTER_OP_AICORE_CONFIG: an AI Core configuration of an operator
// for one AI processor, registered apart from its OpDef. A configuration the OpDef itself adds with
// AICore().AddConfig for the same processor takes precedence. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <map>
#include <string>

#include "register/op_def.h"

namespace ops {

using OpAICoreConfigFunc = OpAICoreConfig (*)();

// op type -> processor (as written, e.g. "ascend910b") -> the function giving its configuration
std::map<std::string, std::map<std::string, OpAICoreConfigFunc>>& NpukbAICoreConfigRegistry();

struct OpAICoreConfigRegisterer {
  OpAICoreConfigRegisterer(const char* op_type, const char* soc, OpAICoreConfigFunc func);
};

}  // namespace ops

#define NPUKB_OP_CONFIG_CAT2(a, b) a##b
#define NPUKB_OP_CONFIG_CAT(a, b) NPUKB_OP_CONFIG_CAT2(a, b)
#define REGISTER_OP_AICORE_CONFIG(opType, socVersion, opFunc)                                          \
  static ::ops::OpAICoreConfigRegisterer NPUKB_OP_CONFIG_CAT(g_npukb_aicore_config_, __COUNTER__)       \
      __attribute__((unused))(#opType, #socVersion, opFunc)
