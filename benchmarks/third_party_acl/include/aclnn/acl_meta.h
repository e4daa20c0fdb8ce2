// aclnn/acl_meta.h -- the benchmark's stand-in: the aclnn tensor, array and scalar handles the cann-ops
// examples create (see acl/acl.h).
#pragma once

#include <cstdint>

typedef int32_t aclnnStatus;

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
} aclDataType;

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
} aclFormat;

typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef struct aclOpExecutor aclOpExecutor;

#ifdef __cplusplus
extern "C" {
#endif

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclScalar* aclCreateScalar(void* value, aclDataType dataType);
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size);
aclnnStatus aclDestroyTensor(const aclTensor* tensor);
aclnnStatus aclDestroyScalar(const aclScalar* scalar);
aclnnStatus aclDestroyIntArray(const aclIntArray* array);
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
aclnnStatus aclDestroyTensorList(const aclTensorList* array);
aclnnStatus aclDestroyScalarList(const aclScalarList* array);
aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum);
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);

#ifdef __cplusplus
}
#endif
