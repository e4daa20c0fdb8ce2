// experiment/metadef/common/util/error_manager/error_manager.h -- the error manager under the include
// path CANN's metadef package also installs it at. Part of the ascendc-sim clean-room simulator.
#pragma once
#include "common/util/error_manager/error_manager.h"
