// register/op_def.h -- ops::OpDef and friends: the operator prototype registered with OP_ADD.
// Part of the ascendc-sim clean-room simulator. The launcher instantiates the OpDef registered for the
// case's op type, checks the case's parameters and dtypes against it and runs its TilingFunc.
// Member functions that touch containers are defined in runtime/host_api.cpp (compiled once per
// machine), so that an operator's host TU compiles fast.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

using TilingKernelFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeKernelFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

class OpParamDef {
 public:
  explicit OpParamDef(const char* name);
  OpParamDef(const OpParamDef& other);
  OpParamDef(OpParamDef&& other) noexcept;
  OpParamDef& operator=(const OpParamDef& other);
  OpParamDef& operator=(OpParamDef&& other) noexcept;
  ~OpParamDef();
  OpParamDef& ParamType(Option type) {
    param_type_ = type;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types);
  OpParamDef& DataTypeList(std::vector<ge::DataType> types);
  OpParamDef& Format(std::vector<ge::Format> formats);
  OpParamDef& FormatList(std::vector<ge::Format> formats);
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats);
  OpParamDef& ValueDepend(Option value_depend) {
    value_depend_ = value_depend;
    return *this;
  }
  OpParamDef& ValueDepend(Option value_depend, int /*depend_scope*/) { return ValueDepend(value_depend); }
  OpParamDef& IgnoreContiguous() { return *this; }
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& Scalar() {
    scalar_ = true;
    return *this;
  }
  OpParamDef& ScalarList() {
    scalar_ = true;
    return *this;
  }
  OpParamDef& Follow(const char* /*param*/) { return *this; }
  OpParamDef& Follow(const char* /*param*/, FollowType /*type*/) { return *this; }
  OpParamDef& InitValue(uint64_t /*value*/) { return *this; }
  OpParamDef& OutputShapeDependOnCompute() { return *this; }
  OpParamDef& Comment(const char* /*text*/) { return *this; }

  const std::string& NpukbName() const { return name_; }
  Option NpukbParamType() const { return param_type_; }
  const std::vector<ge::DataType>& NpukbDataTypes() const { return data_types_; }
  bool NpukbDataTypeList() const { return data_type_list_; }
  Option NpukbValueDepend() const { return value_depend_; }

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> data_types_;
  bool data_type_list_ = false;
  std::vector<ge::Format> formats_;
  std::vector<ge::Format> unknown_shape_formats_;
  Option value_depend_ = IGNORE;
  bool scalar_ = false;
};

class OpAttrDef {
 public:
  enum class Kind { NONE, BOOL, FLOAT, INT, STR, LIST_BOOL, LIST_FLOAT, LIST_INT, LIST_LIST_INT };

  explicit OpAttrDef(const char* name);
  OpAttrDef(const OpAttrDef& other);
  OpAttrDef(OpAttrDef&& other) noexcept;
  OpAttrDef& operator=(const OpAttrDef& other);
  OpAttrDef& operator=(OpAttrDef&& other) noexcept;
  ~OpAttrDef();
  OpAttrDef& AttrType(Option type) {
    attr_type_ = type;
    return *this;
  }
  OpAttrDef& Bool() { return Set(Kind::BOOL); }
  OpAttrDef& Bool(bool value) {
    bool_ = value;
    return SetDefault(Kind::BOOL);
  }
  OpAttrDef& Float() { return Set(Kind::FLOAT); }
  OpAttrDef& Float(float value) {
    float_ = value;
    return SetDefault(Kind::FLOAT);
  }
  OpAttrDef& Int() { return Set(Kind::INT); }
  OpAttrDef& Int(int64_t value) {
    int_ = value;
    return SetDefault(Kind::INT);
  }
  OpAttrDef& String() { return Set(Kind::STR); }
  OpAttrDef& String(const char* value);
  OpAttrDef& ListBool() { return Set(Kind::LIST_BOOL); }
  OpAttrDef& ListBool(std::vector<bool> value);
  OpAttrDef& ListFloat() { return Set(Kind::LIST_FLOAT); }
  OpAttrDef& ListFloat(std::vector<float> value);
  OpAttrDef& ListInt() { return Set(Kind::LIST_INT); }
  OpAttrDef& ListInt(std::vector<int64_t> value);
  OpAttrDef& ListListInt() { return Set(Kind::LIST_LIST_INT); }
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> value);
  OpAttrDef& Version(uint32_t /*version*/) { return *this; }
  OpAttrDef& Comment(const char* /*text*/) { return *this; }

  const std::string& NpukbName() const { return name_; }
  Option NpukbAttrType() const { return attr_type_; }
  Kind NpukbKind() const { return kind_; }
  bool NpukbHasDefault() const { return has_default_; }
  bool NpukbBool() const { return bool_; }
  float NpukbFloat() const { return float_; }
  int64_t NpukbInt() const { return int_; }
  const std::string& NpukbStr() const { return str_; }
  const std::vector<bool>& NpukbListBool() const { return list_bool_; }
  const std::vector<float>& NpukbListFloat() const { return list_float_; }
  const std::vector<int64_t>& NpukbListInt() const { return list_int_; }

 private:
  OpAttrDef& Set(Kind kind) {
    kind_ = kind;
    return *this;
  }
  OpAttrDef& SetDefault(Kind kind) {
    kind_ = kind;
    has_default_ = true;
    return *this;
  }
  std::string name_;
  Option attr_type_ = REQUIRED;
  Kind kind_ = Kind::NONE;
  bool has_default_ = false;
  bool bool_ = false;
  float float_ = 0.0f;
  int64_t int_ = 0;
  std::string str_;
  std::vector<bool> list_bool_;
  std::vector<float> list_float_;
  std::vector<int64_t> list_int_;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig();
  explicit OpAICoreConfig(const char* soc);
  OpAICoreConfig(const OpAICoreConfig& other);
  OpAICoreConfig& operator=(const OpAICoreConfig& other);
  ~OpAICoreConfig();
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAICoreConfig& DynamicCompileStaticFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool /*flag*/) { return *this; }
  OpAICoreConfig& ExtendCfgInfo(const char* /*key*/, const char* /*value*/) { return *this; }

  const std::vector<OpParamDef>& NpukbInputs() const { return inputs_; }
  const std::vector<OpParamDef>& NpukbOutputs() const { return outputs_; }

 private:
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
};

class OpAICoreDef {
 public:
  OpAICoreDef();
  OpAICoreDef(const OpAICoreDef& other);
  OpAICoreDef& operator=(const OpAICoreDef& other);
  ~OpAICoreDef();
  OpAICoreDef& SetTiling(TilingKernelFunc func) {
    tiling_ = func;
    return *this;
  }
  template <typename F>
  OpAICoreDef& SetCheckSupport(F /*func*/) { return *this; }
  template <typename F>
  OpAICoreDef& SetOpSelectFormat(F /*func*/) { return *this; }
  template <typename F>
  OpAICoreDef& SetOpSupportInfo(F /*func*/) { return *this; }
  template <typename F>
  OpAICoreDef& SetOpSpecInfo(F /*func*/) { return *this; }
  OpAICoreDef& AddConfig(const char* soc);
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& config);

  TilingKernelFunc NpukbTiling() const { return tiling_; }
  const std::vector<std::string>& NpukbSocs() const { return socs_; }
  const OpAICoreConfig* NpukbConfig(const std::string& soc) const;

 private:
  TilingKernelFunc tiling_ = nullptr;
  std::vector<std::string> socs_;
  std::map<std::string, OpAICoreConfig> configs_;
};

class OpMC2Def {
 public:
  OpMC2Def& HcclGroup(const char* /*group*/) { return *this; }
  OpMC2Def& HcclGroup(std::vector<const char*> groups);
};

class OpDef {
 public:
  explicit OpDef(const char* type);
  OpDef(const OpDef& other);
  OpDef& operator=(const OpDef& other);
  virtual ~OpDef();

  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAttrDef& Attr(const char* name);
  OpDef& SetInferShape(InferShapeKernelFunc func) {
    infer_shape_ = func;
    return *this;
  }
  template <typename F>
  OpDef& SetInferShapeRange(F /*func*/) { return *this; }
  OpDef& SetInferDataType(InferDataTypeKernelFunc func) {
    infer_dtype_ = func;
    return *this;
  }
  OpDef& Comment(const char* /*text*/) { return *this; }
  OpAICoreDef& AICore() { return aicore_; }
  OpMC2Def& MC2() { return mc2_; }

  const std::string& NpukbType() const { return type_; }
  const std::vector<OpParamDef>& NpukbInputs() const { return inputs_; }
  const std::vector<OpParamDef>& NpukbOutputs() const { return outputs_; }
  const std::vector<OpAttrDef>& NpukbAttrs() const { return attrs_; }
  const OpAICoreDef& NpukbAICore() const { return aicore_; }
  InferShapeKernelFunc NpukbInferShape() const { return infer_shape_; }
  InferDataTypeKernelFunc NpukbInferDataType() const { return infer_dtype_; }

 private:
  std::string type_;
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
  std::vector<OpAttrDef> attrs_;
  OpAICoreDef aicore_;
  OpMC2Def mc2_;
  InferShapeKernelFunc infer_shape_ = nullptr;
  InferDataTypeKernelFunc infer_dtype_ = nullptr;
};

// Registry: op type -> factory (filled by OP_ADD at static-initialisation time). The factory returns
// a new OpDef owned by the caller.
using OpDefFactory = OpDef* (*)(const char* type);

std::map<std::string, OpDefFactory>& NpukbOpRegistry();

struct OpDefRegisterer {
  OpDefRegisterer(const char* type, OpDefFactory factory);
};

}  // namespace ops

#define OP_ADD(opType, ...)                                                                            \
  static ::ops::OpDefRegisterer g_npukb_op_def_##opType(                                            \
      #opType, [](const char* npukb_type) -> ::ops::OpDef* { return new opType(npukb_type); })
