// acl/acl.h -- the benchmark's stand-in for the ACL runtime that the cann-ops examples (main.cpp) call.
//
// Only for benchmarks/third_party.py: device memory is host memory (aclrtMalloc is malloc, every
// aclrtMemcpy a memcpy), streams are tokens, the device is the simulator. The operator calls
// themselves go through the generated aclnn header of the operator (see aclnn_shim.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aclnn/acl_meta.h"

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
typedef uint16_t aclFloat16;

#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_FAILURE 500001

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

#ifdef __cplusplus
extern "C" {
#endif

aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDevice(int32_t* deviceId);
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeDevice();
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFree(void* devPtr);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
float aclFloat16ToFloat(aclFloat16 value);
aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif
