// register/op_impl_registry.h -- gert::OpImplRegisterV2 and IMPL_OP / IMPL_OP_OPTILING /
// IMPL_OP_INFERSHAPE: how op_host code registers its Tiling, TilingParse, InferShape, InferDataType
// and InferShapeRange functions by op type. Part of the ascendc-sim clean-room simulator.
//
// Registrations of one op type merge (a _proto file may register InferShape and a _tiling file
// Tiling + TilingParse). The launcher looks the case's op type up here when the OpDef does not set
// the function itself (OpDef::AICore().SetTiling / SetInferShape / SetInferDataType), runs
// InferShape and InferDataType and checks them against the task's outputs, runs TilingParse once
// with a fresh compile-info object and then Tiling with that object (TilingContext::GetCompileInfo).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "graph/types.h"

namespace gert {

using TilingKernelFunc = uint32_t (*)(TilingContext*);
using TilingParseFunc = uint32_t (*)(TilingParseContext*);
using InferShapeKernelFunc = uint32_t (*)(InferShapeContext*);
using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext*);
using InferShapeRangeKernelFunc = uint32_t (*)(InferShapeRangeContext*);

// A private attribute (OpImplRegisterV2::PrivateAttr): appended after the OpDef's attributes in the
// contexts' RuntimeAttrs, with its default value. kind: 'b' bool, 'i' int64, 'f' float, 's' string,
// 'I' list of int64, 'F' list of float; value: the bytes RuntimeAttrs stores.
struct NpukbPrivateAttr {
  std::string name;
  char kind;
  std::vector<uint8_t> value;
};

// Everything registered for one op type (launcher side).
struct NpukbOpImpl {
  using CompileInfoCreator = void* (*)();
  using CompileInfoDeleter = void (*)(void*);
  TilingKernelFunc tiling = nullptr;
  size_t max_tiling_data_size = 0;
  TilingParseFunc tiling_parse = nullptr;
  CompileInfoCreator create_compile_info = nullptr;
  CompileInfoDeleter delete_compile_info = nullptr;
  InferShapeKernelFunc infer_shape = nullptr;
  InferDataTypeKernelFunc infer_datatype = nullptr;
  InferShapeRangeKernelFunc infer_shape_range = nullptr;
  std::vector<int32_t> inputs_data_dependency;
  std::vector<int32_t> tiling_inputs_data_dependency;
  std::vector<NpukbPrivateAttr> private_attrs;
};

std::map<std::string, NpukbOpImpl>& NpukbOpImplRegistry();   // runtime/host_api.cpp

class OpImplRegisterV2 {
 public:
  using TilingKernelFunc = ::gert::TilingKernelFunc;
  using TilingParseFunc = ::gert::TilingParseFunc;
  using InferShapeKernelFunc = ::gert::InferShapeKernelFunc;
  using InferDataTypeKernelFunc = ::gert::InferDataTypeKernelFunc;
  using InferShapeRangeKernelFunc = ::gert::InferShapeRangeKernelFunc;
  using CompileInfoCreatorFunc = void* (*)();
  using CompileInfoDeleterFunc = void (*)(void*);

  explicit OpImplRegisterV2(const char* op_type);
  OpImplRegisterV2(const OpImplRegisterV2& other);
  OpImplRegisterV2& operator=(const OpImplRegisterV2& other);
  ~OpImplRegisterV2();

  OpImplRegisterV2& Tiling(TilingKernelFunc tiling_func, size_t max_tiling_data_size = 2048);
  template <typename T>
  OpImplRegisterV2& TilingParse(TilingParseFunc const tiling_parse_func) {
    return NpukbTilingParse(tiling_parse_func, &NpukbCreate<T>, &NpukbDelete<T>);
  }
  OpImplRegisterV2& InferShape(InferShapeKernelFunc infer_shape_func);
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc infer_datatype_func);
  OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc infer_shape_range_func);
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs);
  OpImplRegisterV2& InferOutDataTypeSameWithFirstInput();
  // Private attributes: not part of the operator's IR, seen by its implementation functions after the
  // IR attributes (GetAttrs()->GetXxx(index)), with the value given here.
  OpImplRegisterV2& PrivateAttr(const char* private_attr, bool private_attr_val);
  OpImplRegisterV2& PrivateAttr(const char* private_attr, int64_t private_attr_val);
  OpImplRegisterV2& PrivateAttr(const char* private_attr, float private_attr_val);
  OpImplRegisterV2& PrivateAttr(const char* private_attr, const char* private_attr_val);
  OpImplRegisterV2& PrivateAttr(const char* private_attr, const std::vector<int64_t>& private_attr_val);
  OpImplRegisterV2& PrivateAttr(const char* private_attr, const std::vector<float>& private_attr_val);

 private:
  template <typename T>
  static void* NpukbCreate() {
    return new T();
  }
  template <typename T>
  static void NpukbDelete(void* object) {
    delete static_cast<T*>(object);
  }
  OpImplRegisterV2& NpukbTilingParse(TilingParseFunc func, CompileInfoCreatorFunc create,
                                     CompileInfoDeleterFunc destroy);
  NpukbOpImpl& NpukbEntry();
  std::string op_type_;
};

}  // namespace gert

#define NPUKB_IMPL_OP_CAT2(a, b) a##b
#define NPUKB_IMPL_OP_CAT(a, b) NPUKB_IMPL_OP_CAT2(a, b)
#define IMPL_OP(op_type)                                                                             \
  static ::gert::OpImplRegisterV2 NPUKB_IMPL_OP_CAT(g_npukb_op_impl_, __COUNTER__)                  \
      __attribute__((unused)) = ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
