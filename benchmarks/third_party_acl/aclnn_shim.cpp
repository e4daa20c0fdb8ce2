// aclnn_shim.cpp -- the ACL runtime and the aclnn call recorder behind benchmarks/third_party.py's
// cann-ops runs. A cann-ops example (main.cpp) is compiled unchanged against include/ and run twice:
//
//   NPUKB_ACL_MODE=record: every aclnn<Op>GetWorkspaceSize call writes its inputs (raw bytes), shapes,
//     dtypes and attributes to NPUKB_ACL_DIR/calls.txt and NPUKB_ACL_DIR/callN_*.bin; aclnn<Op> does
//     nothing. The benchmark then runs the recorded calls on the simulator.
//   NPUKB_ACL_MODE=replay: aclnn<Op> copies the simulator's outputs (callN_<name>.result.bin) into the
//     output tensors, so main.cpp writes them where its verify_result.py looks.
//
// Device memory is host memory. Not a model of the ACL runtime beyond what the examples call.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "npukb_aclnn_shim.h"

struct aclTensor {
  std::vector<int64_t> dims;
  aclDataType dtype;
  aclFormat format;
  int64_t offset;
  void* data;
};
struct aclScalar {
  double value;
  aclDataType dtype;
};
struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<const aclTensor*> tensors;
};
struct aclScalarList {
  std::vector<const aclScalar*> scalars;
};
struct aclOpExecutor {
  int call;
  std::vector<std::pair<std::string, const aclTensor*>> outputs;   // file stem -> tensor
};

namespace {

size_t element_size(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

size_t tensor_bytes(const aclTensor* t) {
  size_t n = 1;
  for (int64_t d : t->dims) n *= static_cast<size_t>(d < 0 ? 0 : d);
  return n * element_size(t->dtype);
}

const char* mode() {
  const char* m = std::getenv("NPUKB_ACL_MODE");
  return m ? m : "record";
}

std::string folder() {
  const char* d = std::getenv("NPUKB_ACL_DIR");
  return d ? d : ".";
}

int g_calls = 0;

bool write_bytes(const std::string& path, const void* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

bool read_bytes(const std::string& path, void* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  bool ok = size == 0 || std::fread(data, 1, size, f) == size;
  std::fclose(f);
  return ok;
}

std::string tensor_line(const char* kind, const char* role, const char* name, const aclTensor* t,
                        const std::string& file) {
  std::string line = std::string(kind) + " " + role + " " + name + " " + std::to_string(static_cast<int>(t->dtype)) +
                     " " + std::to_string(static_cast<int>(t->format)) + " " + std::to_string(t->dims.size());
  for (int64_t d : t->dims) line += " " + std::to_string(d);
  return line + " " + file + "\n";
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

namespace npukb_acl {

aclnnStatus get_workspace(const char* op, const Arg* args, size_t count, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  if (workspaceSize) *workspaceSize = 0;   // the simulator's launch allocates the operator's workspace
  auto* ex = new aclOpExecutor{g_calls++, {}};
  if (executor) *executor = ex;
  const std::string dir = folder();
  const std::string prefix = "call" + std::to_string(ex->call) + "_";
  const bool record = std::strcmp(mode(), "record") == 0;
  std::string text = "call " + std::to_string(ex->call) + " " + op + "\n";
  for (size_t a = 0; a < count; ++a) {
    const Arg& arg = args[a];
    const std::string stem = prefix + arg.role + "_" + arg.name;
    switch (arg.kind) {
      case TENSOR: {
        auto* t = static_cast<const aclTensor*>(arg.handle);
        if (!t) { text += std::string("absent ") + arg.role + " " + arg.name + "\n"; break; }
        const char* base = static_cast<const char*>(t->data) + t->offset * element_size(t->dtype);
        if (record && !write_bytes(dir + "/" + stem + ".bin", base, tensor_bytes(t))) return ACL_ERROR_INTERNAL_ERROR;
        text += tensor_line("tensor", arg.role, arg.name, t, stem + ".bin");
        if (std::strcmp(arg.role, "output") == 0) ex->outputs.emplace_back(stem, t);
        break;
      }
      case TENSOR_LIST: {
        auto* l = static_cast<const aclTensorList*>(arg.handle);
        if (!l) { text += std::string("absent ") + arg.role + " " + arg.name + "\n"; break; }
        text += std::string("list ") + arg.role + " " + arg.name + " " + std::to_string(l->tensors.size()) + "\n";
        for (size_t k = 0; k < l->tensors.size(); ++k) {
          const aclTensor* t = l->tensors[k];
          const std::string item = stem + "_" + std::to_string(k);
          const char* base = static_cast<const char*>(t->data) + t->offset * element_size(t->dtype);
          if (record && !write_bytes(dir + "/" + item + ".bin", base, tensor_bytes(t))) return ACL_ERROR_INTERNAL_ERROR;
          text += tensor_line("item", arg.role, arg.name, t, item + ".bin");
          if (std::strcmp(arg.role, "output") == 0) ex->outputs.emplace_back(item, t);
        }
        break;
      }
      case ATTR_INT: text += std::string("int attr ") + arg.name + " " + std::to_string(arg.i) + "\n"; break;
      case ATTR_FLOAT: text += std::string("float attr ") + arg.name + " " + number(arg.f) + "\n"; break;
      case ATTR_BOOL: text += std::string("bool attr ") + arg.name + " " + (arg.i ? "1" : "0") + "\n"; break;
      case ATTR_STR: {
        std::string s = arg.s ? arg.s : "";
        text += std::string("str attr ") + arg.name + " " + std::to_string(s.size()) + " " + s + "\n";
        break;
      }
      case ATTR_LIST_INT: {
        auto* v = static_cast<const aclIntArray*>(arg.handle);
        text += std::string("list_int attr ") + arg.name + " " + std::to_string(v ? v->values.size() : 0);
        if (v) for (int64_t x : v->values) text += " " + std::to_string(x);
        text += "\n";
        break;
      }
      case ATTR_LIST_FLOAT: {
        auto* v = static_cast<const aclFloatArray*>(arg.handle);
        text += std::string("list_float attr ") + arg.name + " " + std::to_string(v ? v->values.size() : 0);
        if (v) for (float x : v->values) text += " " + number(x);
        text += "\n";
        break;
      }
      case ATTR_LIST_BOOL: {
        auto* v = static_cast<const aclBoolArray*>(arg.handle);
        text += std::string("list_bool attr ") + arg.name + " " + std::to_string(v ? v->values.size() : 0);
        if (v) for (bool x : v->values) text += x ? " 1" : " 0";
        text += "\n";
        break;
      }
    }
  }
  text += "end\n";
  if (record) {
    FILE* f = std::fopen((dir + "/calls.txt").c_str(), "ab");
    if (!f) return ACL_ERROR_INTERNAL_ERROR;
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  return ACL_SUCCESS;
}

aclnnStatus execute(aclOpExecutor* ex) {
  if (!ex) return ACL_ERROR_INVALID_PARAM;
  if (std::strcmp(mode(), "replay") != 0) return ACL_SUCCESS;
  for (auto& [stem, t] : ex->outputs) {
    char* base = static_cast<char*>(t->data) + t->offset * element_size(t->dtype);
    if (!read_bytes(folder() + "/" + stem + ".result.bin", base, tensor_bytes(t))) {
      std::fprintf(stderr, "npukb aclnn shim: no simulator result for %s\n", stem.c_str());
      return ACL_ERROR_INTERNAL_ERROR;
    }
  }
  return ACL_SUCCESS;
}

}  // namespace npukb_acl

extern "C" {

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtGetDevice(int32_t* id) { if (id) *id = 0; return ACL_SUCCESS; }
aclError aclrtCreateContext(aclrtContext* c, int32_t) { static int token; if (c) *c = &token; return ACL_SUCCESS; }
aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
aclError aclrtSetCurrentContext(aclrtContext) { return ACL_SUCCESS; }
aclError aclrtCreateStream(aclrtStream* s) { static int token; if (s) *s = &token; return ACL_SUCCESS; }
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
  if (!p) return ACL_ERROR_INVALID_PARAM;
  *p = std::calloc(size ? size : 1, 1);
  return *p ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
aclError aclrtMallocHost(void** p, size_t size) { return aclrtMalloc(p, size, ACL_MEM_MALLOC_HUGE_FIRST); }
aclError aclrtFree(void* p) { std::free(p); return ACL_SUCCESS; }
aclError aclrtFreeHost(void* p) { std::free(p); return ACL_SUCCESS; }
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
  if (count > destMax) return ACL_ERROR_INVALID_PARAM;
  if (count) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void* p, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount) return ACL_ERROR_INVALID_PARAM;
  std::memset(p, value, count);
  return ACL_SUCCESS;
}

float aclFloat16ToFloat(aclFloat16 h) {
  uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(man), -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(man | 0x400u), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

aclFloat16 aclFloatToFloat16(float f) {
  _Float16 h = static_cast<_Float16>(f);
  aclFloat16 bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t*,
                           int64_t offset, aclFormat format, const int64_t*, uint64_t, void* tensorData) {
  return new aclTensor{std::vector<int64_t>(viewDims, viewDims + viewDimsNum), dataType, format, offset, tensorData};
}
aclScalar* aclCreateScalar(void* value, aclDataType dtype) {
  double v = 0;
  switch (dtype) {
    case ACL_FLOAT: v = *static_cast<float*>(value); break;
    case ACL_DOUBLE: v = *static_cast<double*>(value); break;
    case ACL_FLOAT16: v = aclFloat16ToFloat(*static_cast<aclFloat16*>(value)); break;
    case ACL_INT32: v = *static_cast<int32_t*>(value); break;
    case ACL_INT64: v = static_cast<double>(*static_cast<int64_t*>(value)); break;
    case ACL_INT8: v = *static_cast<int8_t*>(value); break;
    case ACL_UINT8: case ACL_BOOL: v = *static_cast<uint8_t*>(value); break;
    default: break;
  }
  return new aclScalar{v, dtype};
}
aclIntArray* aclCreateIntArray(const int64_t* v, uint64_t n) { return new aclIntArray{std::vector<int64_t>(v, v + n)}; }
aclFloatArray* aclCreateFloatArray(const float* v, uint64_t n) { return new aclFloatArray{std::vector<float>(v, v + n)}; }
aclBoolArray* aclCreateBoolArray(const bool* v, uint64_t n) { return new aclBoolArray{std::vector<bool>(v, v + n)}; }
aclTensorList* aclCreateTensorList(const aclTensor* const* v, uint64_t n) {
  return new aclTensorList{std::vector<const aclTensor*>(v, v + n)};
}
aclScalarList* aclCreateScalarList(const aclScalar* const* v, uint64_t n) {
  return new aclScalarList{std::vector<const aclScalar*>(v, v + n)};
}
aclnnStatus aclDestroyTensor(const aclTensor* t) { delete t; return ACL_SUCCESS; }
aclnnStatus aclDestroyScalar(const aclScalar* s) { delete s; return ACL_SUCCESS; }
aclnnStatus aclDestroyIntArray(const aclIntArray* a) { delete a; return ACL_SUCCESS; }
aclnnStatus aclDestroyFloatArray(const aclFloatArray* a) { delete a; return ACL_SUCCESS; }
aclnnStatus aclDestroyBoolArray(const aclBoolArray* a) { delete a; return ACL_SUCCESS; }
aclnnStatus aclDestroyTensorList(const aclTensorList* l) { delete l; return ACL_SUCCESS; }
aclnnStatus aclDestroyScalarList(const aclScalarList* l) { delete l; return ACL_SUCCESS; }
aclnnStatus aclGetViewShape(const aclTensor* t, int64_t** dims, uint64_t* n) {
  if (!t || !dims || !n) return ACL_ERROR_INVALID_PARAM;
  *dims = new int64_t[t->dims.size() ? t->dims.size() : 1];
  for (size_t i = 0; i < t->dims.size(); ++i) (*dims)[i] = t->dims[i];
  *n = t->dims.size();
  return ACL_SUCCESS;
}
aclnnStatus aclGetDataType(const aclTensor* t, aclDataType* d) {
  if (!t || !d) return ACL_ERROR_INVALID_PARAM;
  *d = t->dtype;
  return ACL_SUCCESS;
}

}  // extern "C"
