// aclnn/aclnn_base.h -- the benchmark's stand-in (see acl/acl.h): what a generated aclnn header includes.
#pragma once

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
