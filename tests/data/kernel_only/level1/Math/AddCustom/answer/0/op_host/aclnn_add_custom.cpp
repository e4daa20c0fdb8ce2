// The operator-API library source of the op (aclnn), which CANN builds into its op API library, not
// into the tiling library: it is not compiled here (and would not compile).
#include "aclnn/acl_meta.h"

aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor* x, const aclTensor* y, aclTensor* z,
                                           uint64_t* workspaceSize, aclOpExecutor** executor);
