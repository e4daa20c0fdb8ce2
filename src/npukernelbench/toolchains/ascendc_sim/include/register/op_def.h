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
#include "graph/ascend_string.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"

namespace ge {
class Operator;
}  // namespace ge

namespace optiling {
// Callbacks of OpAICoreDef::SetCheckSupport / SetOpSelectFormat / SetOpSupportInfo / SetOpSpecInfo and
// SetParamGeneralize (accepted and kept; graph-mode only, never called on the single-operator path).
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator& op, const ge::AscendString& generalize_config,
                                                  ge::AscendString& generalized_op_params);
}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class CommentSection : uint32_t { CATEGORY = 0, BRIEF, CONSTRAINTS, RESTRICTIONS, SEE, THIRDPARTYFWKCOMPAT,
                                       SECTION_NUM };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT, MAX };
enum HcclServerType : uint32_t { AICPU = 0, AICORE, CCU, MAX };

// Type and value of an output's initial value (OpParamDef::InitValue): the framework fills the
// output's GM with it before the kernel runs (the launcher does, see runtime/launcher_opdef.cpp).
enum class ScalarType : uint32_t {
  UINT64 = 0,
  INT64 = 1,
  UINT32 = 2,
  INT32 = 3,
  UINT16 = 4,
  INT16 = 5,
  UINT8 = 6,
  INT8 = 7,
  FLOAT32 = 8,
  FLOAT16 = 9,
  INVALID_DTYPE = static_cast<uint32_t>(-1),
};
union ScalarNum {
  uint64_t value_u64;
  int64_t value_i64;
  float value_f32;
  ScalarNum() : value_u64(0) {}
  explicit ScalarNum(uint64_t value) : value_u64(value) {}
  explicit ScalarNum(int64_t value) : value_i64(value) {}
  explicit ScalarNum(float value) : value_f32(value) {}
};
struct ScalarVar {
  ScalarType scalar_type;
  ScalarNum scalar_num;
  ScalarVar() : scalar_type(ScalarType::INVALID_DTYPE), scalar_num() {}
  ScalarVar(ScalarType type, uint64_t num) : scalar_type(type), scalar_num(Num(type, static_cast<double>(num), num)) {}
  ScalarVar(ScalarType type, int64_t num)
      : scalar_type(type), scalar_num(Num(type, static_cast<double>(num), static_cast<uint64_t>(num))) {}
  ScalarVar(ScalarType type, int num)
      : scalar_type(type), scalar_num(Num(type, static_cast<double>(num), static_cast<uint64_t>(int64_t{num}))) {}
  ScalarVar(ScalarType type, unsigned int num)
      : scalar_type(type), scalar_num(Num(type, static_cast<double>(num), uint64_t{num})) {}
  ScalarVar(ScalarType type, float num)
      : scalar_type(type), scalar_num(Num(type, static_cast<double>(num), static_cast<uint64_t>(static_cast<int64_t>(num)))) {}
  ScalarVar(ScalarType type, double num)
      : scalar_type(type), scalar_num(Num(type, num, static_cast<uint64_t>(static_cast<int64_t>(num)))) {}
  bool operator==(const ScalarVar& other) const {
    return scalar_type == other.scalar_type && scalar_num.value_u64 == other.scalar_num.value_u64;
  }

 private:
  // A float type keeps the value as float (value_f32); an integer type as its 64-bit pattern.
  static ScalarNum Num(ScalarType type, double as_float, uint64_t as_int) {
    if (type == ScalarType::FLOAT32 || type == ScalarType::FLOAT16) return ScalarNum(static_cast<float>(as_float));
    return ScalarNum(as_int);
  }
};

using TilingKernelFunc = gert::OpImplRegisterV2::TilingKernelFunc;
using InferShapeKernelFunc = gert::OpImplRegisterV2::InferShapeKernelFunc;
using InferDataTypeKernelFunc = gert::OpImplRegisterV2::InferDataTypeKernelFunc;
using InferShapeRangeKernelFunc = gert::OpImplRegisterV2::InferShapeRangeKernelFunc;

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
  OpParamDef& ValueDepend(Option value_depend, DependScope scope) {
    depend_scope_ = scope;
    return ValueDepend(value_depend);
  }
  OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> types);
  OpParamDef& FormatForBinQuery(std::vector<ge::Format> formats);
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
  OpParamDef& InitValue(uint64_t value);
  OpParamDef& InitValue(const ScalarVar& value);
  OpParamDef& InitValue(const std::vector<ScalarVar>& value);
  OpParamDef& To(const ge::DataType type) {
    to_type_ = type;
    return *this;
  }
  OpParamDef& To(const char* name);
  OpParamDef& OutputShapeDependOnCompute() { return *this; }
  OpParamDef& Version(uint32_t version) {
    version_ = version;
    return *this;
  }
  OpParamDef& Comment(const char* /*comment*/) { return *this; }

  const std::string& NpukbName() const { return name_; }
  Option NpukbParamType() const { return param_type_; }
  const std::vector<ge::DataType>& NpukbDataTypes() const { return data_types_; }
  bool NpukbDataTypeList() const { return data_type_list_; }
  Option NpukbValueDepend() const { return value_depend_; }
  const std::vector<ge::Format>& NpukbFormats() const { return formats_; }
  bool NpukbFormatList() const { return format_list_; }
  // The initial value of this output for DataType column ``column`` (false: none declared).
  bool NpukbInitValue(std::size_t column, ScalarVar* value) const;

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> data_types_;
  bool data_type_list_ = false;
  std::vector<ge::Format> formats_;
  bool format_list_ = false;
  std::vector<ge::Format> unknown_shape_formats_;
  std::vector<ge::DataType> bin_query_types_;
  std::vector<ge::Format> bin_query_formats_;
  Option value_depend_ = IGNORE;
  DependScope depend_scope_ = DependScope::ALL;
  bool scalar_ = false;
  ge::DataType to_type_ = ge::DT_UNDEFINED;
  std::string to_name_;
  uint32_t version_ = 0;
  std::vector<ScalarVar> init_values_;   // one value for every column, or one per column
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
  OpAttrDef& Comment(const char* /*comment*/) { return *this; }
  ge::AscendString& GetName(void) const;
  bool IsRequired(void) { return attr_type_ == REQUIRED; }

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
  mutable ge::AscendString ascend_name_;
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
  OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func) {
    tiling_ = func;
    return *this;
  }
  OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC func) {
    check_support_ = func;
    return *this;
  }
  OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC func) {
    select_format_ = func;
    return *this;
  }
  OpAICoreDef& SetOpSupportInfo(optiling::OP_CHECK_FUNC func) {
    support_info_ = func;
    return *this;
  }
  OpAICoreDef& SetOpSpecInfo(optiling::OP_CHECK_FUNC func) {
    spec_info_ = func;
    return *this;
  }
  OpAICoreDef& SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func) {
    generalize_ = func;
    return *this;
  }
  OpAICoreDef& LaunchWithZeroEleOutputTensors(bool launchFlag) {
    launch_zero_ele_ = launchFlag;
    return *this;
  }
  // The documentation shows these returning void; CANN's own operators chain them
  // (AddConfig("ascend310p").AddConfig("ascend910b")), so they return the OpAICoreDef as the real
  // headers' do.
  OpAICoreDef& AddConfig(const char* soc);
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& aicore_config);

  TilingKernelFunc NpukbTiling() const { return tiling_; }
  const std::vector<std::string>& NpukbSocs() const { return socs_; }
  const OpAICoreConfig* NpukbConfig(const std::string& soc) const;

 private:
  TilingKernelFunc tiling_ = nullptr;
  optiling::OP_CHECK_FUNC check_support_ = nullptr;
  optiling::OP_CHECK_FUNC select_format_ = nullptr;
  optiling::OP_CHECK_FUNC support_info_ = nullptr;
  optiling::OP_CHECK_FUNC spec_info_ = nullptr;
  optiling::PARAM_GENERALIZE_FUNC generalize_ = nullptr;
  bool launch_zero_ele_ = true;
  std::vector<std::string> socs_;
  std::map<std::string, OpAICoreConfig> configs_;
};

class OpMC2Def {
 public:
  OpMC2Def() = default;
  OpMC2Def(const OpMC2Def& mc2_def) = default;
  OpMC2Def& operator=(const OpMC2Def& def) = default;
  OpMC2Def& HcclGroup(const char* value);
  OpMC2Def& HcclGroup(std::vector<const char*> value);
  void HcclServerType(enum HcclServerType type, const char* soc = nullptr);

 private:
  std::vector<std::string> groups_;
  std::map<std::string, enum HcclServerType> server_types_;
};

// The AI CPU and host CPU kernel descriptions of an operator: recorded, never run (the simulator runs
// the AI Core kernel).
class OpAICPUDef {
 public:
  OpAICPUDef& FunctionName(const char* /*value*/) { return *this; }
  OpAICPUDef& KernelSo(const char* /*value*/) { return *this; }
  OpAICPUDef& UserDefined(bool /*flag*/) { return *this; }
  OpAICPUDef& FlagAsync(bool /*flag*/) { return *this; }
  OpAICPUDef& FlagPartial(bool /*flag*/) { return *this; }
  OpAICPUDef& ComputeCost(const char* /*value*/) { return *this; }
  OpAICPUDef& Engine(const char* /*value*/) { return *this; }
  OpAICPUDef& OpkernelLib(const char* /*value*/) { return *this; }
  OpAICPUDef& ExtendCfgInfo(const char* /*key*/, const char* /*value*/) { return *this; }
};

class OpHostCPUDef {
 public:
  OpHostCPUDef& FunctionName(const char* /*value*/) { return *this; }
  OpHostCPUDef& KernelSo(const char* /*value*/) { return *this; }
  OpHostCPUDef& UserDefined(bool /*flag*/) { return *this; }
  OpHostCPUDef& FlagAsync(bool /*flag*/) { return *this; }
  OpHostCPUDef& FlagPartial(bool /*flag*/) { return *this; }
  OpHostCPUDef& ComputeCost(const char* /*value*/) { return *this; }
  OpHostCPUDef& Engine(const char* /*value*/) { return *this; }
  OpHostCPUDef& OpkernelLib(const char* /*value*/) { return *this; }
  OpHostCPUDef& ExtendCfgInfo(const char* /*key*/, const char* /*value*/) { return *this; }
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
  OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func) {
    infer_shape_ = func;
    return *this;
  }
  OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func) {
    infer_shape_range_ = func;
    return *this;
  }
  OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func) {
    infer_dtype_ = func;
    return *this;
  }
  OpDef& Comment(CommentSection /*section*/, const char* /*comment*/) { return *this; }
  OpDef& EnableFallBack(void) {
    fallback_ = true;
    return *this;
  }
  OpDef& FormatMatchMode(FormatCheckOption option) {
    format_match_ = option;
    return *this;
  }
  OpAICoreDef& AICore(void) { return aicore_; }
  OpAICPUDef& AICPU(void) { return aicpu_; }
  OpHostCPUDef& HostCPU(void) { return hostcpu_; }
  OpMC2Def& MC2(void) { return mc2_; }

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
  OpAICPUDef aicpu_;
  OpHostCPUDef hostcpu_;
  OpMC2Def mc2_;
  InferShapeKernelFunc infer_shape_ = nullptr;
  InferShapeRangeKernelFunc infer_shape_range_ = nullptr;
  InferDataTypeKernelFunc infer_dtype_ = nullptr;
  bool fallback_ = false;
  FormatCheckOption format_match_ = FormatCheckOption::DEFAULT;
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
