// kernel_operator_list_tensor_intf.h -- tensor lists (AscendC::ListTensorDesc, TensorDesc) under the real
// include name. Part of the ascendc-sim clean-room simulator: everything is in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
