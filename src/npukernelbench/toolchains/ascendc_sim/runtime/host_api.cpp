// runtime/host_api.cpp -- out-of-line members of the host-side API (register/op_def.h,
// register/op_impl_registry.h, register/tilingdata_base.h, exe_graph/runtime/*.h,
// platform/platform_info.h, platform/platform_infos_def.h, tiling/context/context_builder.h).
// Part of the ascendc-sim clean-room simulator. Compiled once per machine together with the launcher,
// so that an operator's host TU does not instantiate the container code behind these classes.
#include <cstdio>
#include <cstring>
#include <new>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_info.h"
#include "platform/platform_infos_def.h"
#include "npukb_sim/soc.h"
#include "register/op_config_registry.h"
#include "register/op_def.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/context/context_builder.h"

// ---------------------------------------------------------------------------------------------- ops
namespace ops {

namespace {
template <typename Def>
Def& find_or_add(std::vector<Def>& defs, const char* name) {
  for (auto& d : defs) {
    if (d.NpukbName() == name) return d;
  }
  defs.emplace_back(name);
  return defs.back();
}
}  // namespace

OpParamDef::OpParamDef(const char* name) : name_(name) {}
OpParamDef::OpParamDef(const OpParamDef& other) = default;
OpParamDef::OpParamDef(OpParamDef&& other) noexcept = default;
OpParamDef& OpParamDef::operator=(const OpParamDef& other) = default;
OpParamDef& OpParamDef::operator=(OpParamDef&& other) noexcept = default;
OpParamDef::~OpParamDef() = default;

OpParamDef& OpParamDef::DataType(std::vector<ge::DataType> types) {
  data_types_ = std::move(types);
  data_type_list_ = false;
  return *this;
}
OpParamDef& OpParamDef::DataTypeList(std::vector<ge::DataType> types) {
  data_types_ = std::move(types);
  data_type_list_ = true;
  return *this;
}
OpParamDef& OpParamDef::Format(std::vector<ge::Format> formats) {
  formats_ = std::move(formats);
  return *this;
}
OpParamDef& OpParamDef::FormatList(std::vector<ge::Format> formats) {
  formats_ = std::move(formats);
  format_list_ = true;
  return *this;
}
OpParamDef& OpParamDef::DataTypeForBinQuery(std::vector<ge::DataType> types) {
  bin_query_types_ = std::move(types);
  return *this;
}
OpParamDef& OpParamDef::FormatForBinQuery(std::vector<ge::Format> formats) {
  bin_query_formats_ = std::move(formats);
  return *this;
}
OpParamDef& OpParamDef::To(const char* name) {
  to_name_ = name == nullptr ? "" : name;
  return *this;
}
// InitValue(uint64_t) zeroes the output (0 is the only value it takes); the ScalarVar forms give a typed
// value for every column or one per DataType column.
OpParamDef& OpParamDef::InitValue(uint64_t value) {
  init_values_.assign(1, ScalarVar(ScalarType::UINT64, value));
  return *this;
}
OpParamDef& OpParamDef::InitValue(const ScalarVar& value) {
  init_values_.assign(1, value);
  return *this;
}
OpParamDef& OpParamDef::InitValue(const std::vector<ScalarVar>& value) {
  init_values_ = value;
  return *this;
}
bool OpParamDef::NpukbInitValue(std::size_t column, ScalarVar* value) const {
  if (init_values_.empty()) return false;
  if (init_values_.size() == 1) {
    *value = init_values_[0];
    return true;
  }
  if (column >= init_values_.size()) return false;
  *value = init_values_[column];
  return true;
}
OpParamDef& OpParamDef::UnknownShapeFormat(std::vector<ge::Format> formats) {
  unknown_shape_formats_ = std::move(formats);
  return *this;
}

OpAttrDef::OpAttrDef(const char* name) : name_(name) {}
OpAttrDef::OpAttrDef(const OpAttrDef& other) = default;
OpAttrDef::OpAttrDef(OpAttrDef&& other) noexcept = default;
OpAttrDef& OpAttrDef::operator=(const OpAttrDef& other) = default;
OpAttrDef& OpAttrDef::operator=(OpAttrDef&& other) noexcept = default;
OpAttrDef::~OpAttrDef() = default;

ge::AscendString& OpAttrDef::GetName(void) const {
  ascend_name_ = ge::AscendString(name_.c_str());
  return ascend_name_;
}
OpAttrDef& OpAttrDef::String(const char* value) {
  str_ = value;
  return SetDefault(Kind::STR);
}
OpAttrDef& OpAttrDef::ListBool(std::vector<bool> value) {
  list_bool_ = std::move(value);
  return SetDefault(Kind::LIST_BOOL);
}
OpAttrDef& OpAttrDef::ListFloat(std::vector<float> value) {
  list_float_ = std::move(value);
  return SetDefault(Kind::LIST_FLOAT);
}
OpAttrDef& OpAttrDef::ListInt(std::vector<int64_t> value) {
  list_int_ = std::move(value);
  return SetDefault(Kind::LIST_INT);
}
OpAttrDef& OpAttrDef::ListListInt(std::vector<std::vector<int64_t>> /*value*/) {
  return SetDefault(Kind::LIST_LIST_INT);
}

OpAICoreConfig::OpAICoreConfig() = default;
OpAICoreConfig::OpAICoreConfig(const char* /*soc*/) {}
OpAICoreConfig::OpAICoreConfig(const OpAICoreConfig& other) = default;
OpAICoreConfig& OpAICoreConfig::operator=(const OpAICoreConfig& other) = default;
OpAICoreConfig::~OpAICoreConfig() = default;
OpParamDef& OpAICoreConfig::Input(const char* name) { return find_or_add(inputs_, name); }
OpParamDef& OpAICoreConfig::Output(const char* name) { return find_or_add(outputs_, name); }

OpAICoreDef::OpAICoreDef() = default;
OpAICoreDef::OpAICoreDef(const OpAICoreDef& other) = default;
OpAICoreDef& OpAICoreDef::operator=(const OpAICoreDef& other) = default;
OpAICoreDef::~OpAICoreDef() = default;
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc) {
  socs_.emplace_back(soc);
  return *this;
}
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, OpAICoreConfig& aicore_config) {
  socs_.emplace_back(soc);
  configs_[soc] = aicore_config;
  return *this;
}
const OpAICoreConfig* OpAICoreDef::NpukbConfig(const std::string& soc) const {
  auto it = configs_.find(soc);
  return it == configs_.end() ? nullptr : &it->second;
}

OpMC2Def& OpMC2Def::HcclGroup(const char* value) {
  groups_.assign(1, value == nullptr ? "" : value);
  return *this;
}
OpMC2Def& OpMC2Def::HcclGroup(std::vector<const char*> value) {
  groups_.clear();
  for (const char* v : value) groups_.emplace_back(v == nullptr ? "" : v);
  return *this;
}
void OpMC2Def::HcclServerType(enum HcclServerType type, const char* soc) {
  server_types_[soc == nullptr ? "" : soc] = type;
}

std::map<std::string, std::map<std::string, OpAICoreConfigFunc>>& NpukbAICoreConfigRegistry() {
  static std::map<std::string, std::map<std::string, OpAICoreConfigFunc>> registry;
  return registry;
}
OpAICoreConfigRegisterer::OpAICoreConfigRegisterer(const char* op_type, const char* soc, OpAICoreConfigFunc func) {
  NpukbAICoreConfigRegistry()[op_type][soc] = func;
}

OpDef::OpDef(const char* type) : type_(type) {}
OpDef::OpDef(const OpDef& other) = default;
OpDef& OpDef::operator=(const OpDef& other) = default;
OpDef::~OpDef() = default;
OpParamDef& OpDef::Input(const char* name) { return find_or_add(inputs_, name); }
OpParamDef& OpDef::Output(const char* name) { return find_or_add(outputs_, name); }
OpAttrDef& OpDef::Attr(const char* name) { return find_or_add(attrs_, name); }

std::map<std::string, OpDefFactory>& NpukbOpRegistry() {
  static std::map<std::string, OpDefFactory> registry;
  return registry;
}

OpDefRegisterer::OpDefRegisterer(const char* type, OpDefFactory factory) { NpukbOpRegistry()[type] = factory; }

}  // namespace ops

// ----------------------------------------------------------------------------------------- optiling
namespace optiling {

std::size_t& NpukbTilingOverflowBytes() {
  static std::size_t bytes = 0;
  return bytes;
}

TilingDef::TilingDef() = default;
// A copy owns its bytes, even when the original writes into a buffer given by SetDataPtr.
TilingDef::TilingDef(const TilingDef& other)
    : class_name_(other.class_name_),
      data_(other.NpukbData(), other.NpukbData() + other.data_.size()),
      fields_(other.fields_),
      size_(other.size_),
      align_(other.align_) {}
TilingDef& TilingDef::operator=(const TilingDef& other) {
  if (this != &other) {
    std::vector<std::uint8_t> bytes(other.NpukbData(), other.NpukbData() + other.data_.size());
    if (external_ != nullptr && bytes.size() == data_.size()) {
      std::memcpy(external_, bytes.data(), bytes.size());   // still writes where SetDataPtr pointed it
    } else {
      data_ = std::move(bytes);
      external_ = nullptr;
    }
    class_name_ = other.class_name_;
    fields_ = other.fields_;
    size_ = other.size_;
    align_ = other.align_;
  }
  return *this;
}
TilingDef::~TilingDef() = default;

void TilingDef::SetDataPtr(void* dataPtr) {
  external_ = static_cast<std::uint8_t*>(dataPtr);
  for (const NpukbField& f : fields_) {
    if (f.kind == 2) {
      TilingDef* nested = reinterpret_cast<TilingDef*>(reinterpret_cast<char*>(this) + f.nested_at);
      nested->SetDataPtr(external_ == nullptr ? nullptr : external_ + f.offset);
    }
  }
}

void TilingDef::SaveToBuffer(void* pdata, std::size_t capacity) const {
  std::vector<std::uint8_t> bytes = NpukbBytes();
  if (bytes.size() > capacity) {
    NpukbTilingOverflowBytes() = bytes.size();
    return;
  }
  std::memcpy(pdata, bytes.data(), bytes.size());
}

std::vector<std::uint8_t> TilingDef::NpukbBytes() const {
  std::vector<std::uint8_t> bytes(GetDataSize(), 0);
  std::memcpy(bytes.data(), NpukbData(), data_.size() < bytes.size() ? data_.size() : bytes.size());
  for (const NpukbField& f : fields_) {
    if (f.kind == 2) {
      std::vector<std::uint8_t> inner = NpukbNested(f)->NpukbBytes();
      std::memcpy(bytes.data() + f.offset, inner.data(), inner.size());
    }
  }
  return bytes;
}

std::size_t TilingDef::NpukbAddField(const char* type, const char* name, std::size_t elem_size, std::size_t align,
                                     std::size_t count, int kind, const TilingDef* nested) {
  NpukbField f;
  f.type = type;
  f.name = name;
  f.kind = kind;
  f.count = count;
  if (kind == 2) {
    elem_size = nested->GetDataSize();
    align = nested->NpukbAlign();
    f.nested_at = reinterpret_cast<const char*>(nested) - reinterpret_cast<const char*>(this);
  }
  f.elem_size = elem_size;
  if (align == 0) align = 1;
  f.offset = (size_ + align - 1) / align * align;
  size_ = f.offset + elem_size * count;
  if (align > align_) align_ = align;
  data_.resize(GetDataSize(), 0);
  fields_.push_back(f);
  return f.offset;
}

void TilingDef::NpukbSetClassName(const char* name) { class_name_ = name; }

std::map<std::string, NpukbTilingClass>& NpukbTilingRegistry() {
  static std::map<std::string, NpukbTilingClass> registry;
  return registry;
}

NpukbTilingRegisterer::NpukbTilingRegisterer(const char* op_type, const char* class_name,
                                             NpukbTilingFactory factory) {
  NpukbTilingRegistry()[op_type] = NpukbTilingClass{class_name, factory};
}

}  // namespace optiling

// ------------------------------------------------------------------------------------------- gert
namespace gert {

NpukbIoTable::NpukbIoTable() = default;
NpukbIoTable::NpukbIoTable(const NpukbIoTable& other) = default;
NpukbIoTable& NpukbIoTable::operator=(const NpukbIoTable& other) = default;
NpukbIoTable::~NpukbIoTable() = default;
const Tensor* NpukbIoTable::Input(size_t i) const { return i < inputs.size() ? &inputs[i] : nullptr; }
const Tensor* NpukbIoTable::Output(size_t i) const { return i < outputs.size() ? &outputs[i] : nullptr; }
Tensor* NpukbIoTable::MutableOutput(size_t i) { return i < outputs.size() ? &outputs[i] : nullptr; }
const Tensor* NpukbIoTable::InputIr(size_t ir_index, size_t relative) const {
  if (ir_index >= input_ir.size() || relative >= input_ir[ir_index].size()) return nullptr;
  return &inputs[static_cast<size_t>(input_ir[ir_index][relative])];
}
size_t NpukbIoTable::InputCount() const { return inputs.size(); }
size_t NpukbIoTable::OutputCount() const { return outputs.size(); }
const char* NpukbIoTable::NodeName() const { return node_name.c_str(); }
const char* NpukbIoTable::NodeType() const { return node_type.c_str(); }

TilingContext::TilingContext(NpukbIoTable* io, TilingData* raw, fe::PlatFormInfos* platform,
                             const void* compile_info)
    : ExtendedKernelContext(io), raw_(raw), platform_(platform), compile_info_(compile_info) {}
TilingContext::~TilingContext() = default;
size_t* TilingContext::GetWorkspaceSizes(size_t workspace_count) {
  if (external_workspace_ != nullptr) {
    if (workspace_count > external_workspace_->GetCapacity()) return nullptr;
    if (workspace_count > external_workspace_->GetSize()) {
      size_t* sizes = static_cast<size_t*>(external_workspace_->MutableData());
      for (size_t i = external_workspace_->GetSize(); i < workspace_count; ++i) sizes[i] = 0;
      external_workspace_->SetSize(workspace_count);
    }
    return static_cast<size_t*>(external_workspace_->MutableData());
  }
  if (workspace_count > workspace_.size()) workspace_.resize(workspace_count, 0);
  return workspace_.data();
}

RuntimeAttrs::RuntimeAttrs() = default;
RuntimeAttrs::RuntimeAttrs(const RuntimeAttrs& other) = default;
RuntimeAttrs& RuntimeAttrs::operator=(const RuntimeAttrs& other) = default;
RuntimeAttrs::~RuntimeAttrs() = default;
void RuntimeAttrs::NpukbAppend(const void* data, size_t bytes) {
  std::vector<uint64_t> words((bytes + 7) / 8 + 1, 0);
  std::memcpy(words.data(), data, bytes);
  values_.push_back(std::move(words));
}
void RuntimeAttrs::NpukbAppendAbsent() { values_.emplace_back(); }

}  // namespace gert

// ------------------------------------------------------------------------------ gert: op impl registry
namespace gert {

std::map<std::string, NpukbOpImpl>& NpukbOpImplRegistry() {
  static std::map<std::string, NpukbOpImpl> registry;
  return registry;
}

OpImplRegisterV2::OpImplRegisterV2(const char* op_type) : op_type_(op_type) { NpukbEntry(); }
OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2& other) = default;
OpImplRegisterV2& OpImplRegisterV2::operator=(const OpImplRegisterV2& other) = default;
OpImplRegisterV2::~OpImplRegisterV2() = default;

NpukbOpImpl& OpImplRegisterV2::NpukbEntry() { return NpukbOpImplRegistry()[op_type_]; }

OpImplRegisterV2& OpImplRegisterV2::Tiling(TilingKernelFunc tiling_func, size_t max_tiling_data_size) {
  NpukbEntry().tiling = tiling_func;
  NpukbEntry().max_tiling_data_size = max_tiling_data_size;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::NpukbTilingParse(TilingParseFunc func, CompileInfoCreatorFunc create,
                                                     CompileInfoDeleterFunc destroy) {
  NpukbOpImpl& e = NpukbEntry();
  e.tiling_parse = func;
  e.create_compile_info = create;
  e.delete_compile_info = destroy;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferShape(InferShapeKernelFunc infer_shape_func) {
  NpukbEntry().infer_shape = infer_shape_func;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc infer_datatype_func) {
  NpukbEntry().infer_datatype = infer_datatype_func;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferShapeRange(InferShapeRangeKernelFunc infer_shape_range_func) {
  NpukbEntry().infer_shape_range = infer_shape_range_func;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
  NpukbEntry().inputs_data_dependency.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingInputsDataDependency(std::initializer_list<int32_t> inputs) {
  NpukbEntry().tiling_inputs_data_dependency.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::OutputShapeDependOnCompute(std::initializer_list<int32_t> /*outputs*/) {
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferOutDataTypeSameWithFirstInput() { return *this; }

namespace {
template <typename T>
std::vector<uint8_t> bytes_of(const T* data, std::size_t count) {
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  return std::vector<uint8_t>(p, p + count * sizeof(T));
}
}  // namespace

OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, bool private_attr_val) {
  NpukbEntry().private_attrs.push_back({private_attr, 'b', bytes_of(&private_attr_val, 1)});
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, int64_t private_attr_val) {
  NpukbEntry().private_attrs.push_back({private_attr, 'i', bytes_of(&private_attr_val, 1)});
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, float private_attr_val) {
  NpukbEntry().private_attrs.push_back({private_attr, 'f', bytes_of(&private_attr_val, 1)});
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, const char* private_attr_val) {
  std::string s = private_attr_val == nullptr ? "" : private_attr_val;
  NpukbEntry().private_attrs.push_back({private_attr, 's', bytes_of(s.c_str(), s.size() + 1)});
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, const std::vector<int64_t>& private_attr_val) {
  NpukbEntry().private_attrs.push_back({private_attr, 'I', bytes_of(private_attr_val.data(), private_attr_val.size())});
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const char* private_attr, const std::vector<float>& private_attr_val) {
  NpukbEntry().private_attrs.push_back({private_attr, 'F', bytes_of(private_attr_val.data(), private_attr_val.size())});
  return *this;
}

// Shapes are static in the simulator: every range is [shape, shape].
InferShapeRangeContext::InferShapeRangeContext(NpukbIoTable* io) : ExtendedKernelContext(io) {
  inputs_.reserve(io->inputs.size());
  for (auto& t : io->inputs) {
    Shape* s = &t.MutableShape().MutableOriginShape();
    inputs_.emplace_back(s, s);
  }
  outputs_.reserve(io->outputs.size());
  for (auto& t : io->outputs) {
    Shape* s = &t.MutableShape().MutableOriginShape();
    outputs_.emplace_back(s, s);
  }
}
InferShapeRangeContext::~InferShapeRangeContext() = default;
const Range<Shape>* InferShapeRangeContext::Find(const Tensor* t) const {
  if (t == nullptr) return nullptr;
  for (std::size_t i = 0; i < io_->inputs.size(); ++i) {
    if (&io_->inputs[i] == t) return &inputs_[i];
  }
  return nullptr;
}
const Range<Shape>* InferShapeRangeContext::GetInputShapeRange(size_t index) const { return Find(io_->Input(index)); }
const Range<Shape>* InferShapeRangeContext::GetOptionalInputShapeRange(size_t ir_index) const {
  return Find(io_->InputIr(ir_index, 0));
}
const Range<Shape>* InferShapeRangeContext::GetDynamicInputShapeRange(size_t ir_index, size_t relative_index) const {
  return Find(io_->InputIr(ir_index, relative_index));
}
Range<Shape>* InferShapeRangeContext::GetOutputShapeRange(size_t index) {
  return index < outputs_.size() ? &outputs_[index] : nullptr;
}

}  // namespace gert

// --------------------------------------------------------------------------------------------- fe
namespace fe {

namespace {
// The run's SoC profile (npukb_sim/soc.h), as its platform configuration describes it (docs/cost-model.md,
// "Hardware figures"; docs/simulator.md, "SoC profiles"): names and core counts follow the profile.
std::map<std::string, std::map<std::string, std::string>> ascend910b_resources() {
  const npukb::SocInfo soc = npukb::soc_info();
  const std::string aic = std::to_string(soc.cube_cores), aiv = std::to_string(soc.vector_cores);
  return {
      {"version", {{"SoC_version", soc.name}, {"Short_SoC_version", soc.short_name},
                   {"AIC_version", "AIC-C-220"}, {"CCEC_AIC_version", "dav-c220-cube"},
                   {"CCEC_AIV_version", "dav-c220-vec"}}},
      {"SoCInfo", {{"ai_core_cnt", aic}, {"cube_core_cnt", aic}, {"vector_core_cnt", aiv},
                   {"ai_cpu_cnt", "6"}, {"memory_type", ""}, {"memory_size", "68719476736"},
                   {"l2_type", "0"}, {"l2_size", "201326592"}, {"l2_page_num", "64"}}},
      {"AICoreSpec", {{"cube_freq", "1850"}, {"ub_size", "196608"}, {"l1_size", "524288"},
                      {"l0_a_size", "65536"}, {"l0_b_size", "65536"}, {"l0_c_size", "131072"},
                      {"ubblock_size", "32"}, {"ubbank_size", "4096"}, {"ubbank_num", "64"},
                      {"ubburst_in_one_block", "32"}, {"ubbank_group_num", "16"}}},
      {"AICoreMemoryRates", {{"ddr_rate", "17"}, {"ddr_read_rate", "17"}, {"ddr_write_rate", "17"},
                             {"l2_rate", "114"}, {"l2_read_rate", "114"}, {"l2_write_rate", "114"},
                             {"l1_to_l0_a_rate", "512"}, {"l1_to_l0_b_rate", "256"}, {"l1_to_ub_rate", "128"},
                             {"l0_c_to_ub_rate", "256"}, {"ub_to_l2_rate", "114"}, {"ub_to_ddr_rate", "17"},
                             {"ub_to_l1_rate", "128"}}},
  };
}

uint64_t to_u64(const std::string& text) {
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') break;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}
}  // namespace

PlatFormInfos::PlatFormInfos()
    : res_(ascend910b_resources()), core_num_(static_cast<uint32_t>(npukb::vector_cores())) {}
PlatFormInfos::PlatFormInfos(const PlatFormInfos& other) = default;
PlatFormInfos& PlatFormInfos::operator=(const PlatFormInfos& other) = default;
PlatFormInfos::~PlatFormInfos() = default;

bool PlatFormInfos::Init() {
  res_ = ascend910b_resources();
  core_num_ = static_cast<uint32_t>(npukb::vector_cores());
  return true;
}
bool PlatFormInfos::GetPlatformRes(const std::string& label, const std::string& key, std::string& value) {
  auto l = res_.find(label);
  if (l == res_.end()) return false;
  auto k = l->second.find(key);
  if (k == l->second.end()) return false;
  value = k->second;
  return true;
}
bool PlatFormInfos::GetPlatformRes(const std::string& label, std::map<std::string, std::string>& values) {
  auto l = res_.find(label);
  if (l == res_.end()) return false;
  values = l->second;
  return true;
}
bool PlatFormInfos::GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) {
  return GetPlatformRes(label, key, value);
}
bool PlatFormInfos::GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& values) {
  return GetPlatformRes(label, values);
}
void PlatFormInfos::SetPlatformRes(const std::string& label, std::map<std::string, std::string>& values) {
  res_[label] = values;
}
void PlatFormInfos::SetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& values) {
  SetPlatformRes(label, values);
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetAICoreIntrinsicDtype() { return {}; }
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetVectorCoreIntrinsicDtype() { return {}; }
uint32_t PlatFormInfos::GetCoreNum() const { return core_num_; }
void PlatFormInfos::SetCoreNum(const uint32_t& core_num) { core_num_ = core_num; }
uint32_t PlatFormInfos::GetCoreNumByType(const std::string& core_type) {
  std::string v;
  if (core_type == "VectorCore" && GetPlatformRes("SoCInfo", "vector_core_cnt", v)) return static_cast<uint32_t>(to_u64(v));
  if (core_type == "CubeCore" && GetPlatformRes("SoCInfo", "cube_core_cnt", v)) return static_cast<uint32_t>(to_u64(v));
  if (GetPlatformRes("SoCInfo", "ai_core_cnt", v)) return static_cast<uint32_t>(to_u64(v));
  return 0;
}
void PlatFormInfos::SetCoreNumByCoreType(const std::string& core_type) { core_num_ = GetCoreNumByType(core_type); }
void PlatFormInfos::GetLocalMemSize(const LocalMemType& mem_type, uint64_t& size) {
  static const char* keys[] = {"l0_a_size", "l0_b_size", "l0_c_size", "l1_size", "", "ub_size", ""};
  std::string v;
  int i = static_cast<int>(mem_type);
  if (mem_type == LocalMemType::L2 && GetPlatformRes("SoCInfo", "l2_size", v)) {
    size = to_u64(v);
  } else if (mem_type == LocalMemType::HBM && GetPlatformRes("SoCInfo", "memory_size", v)) {
    size = to_u64(v);
  } else if (i >= 0 && i < 7 && *keys[i] && GetPlatformRes("AICoreSpec", keys[i], v)) {
    size = to_u64(v);
  } else {
    size = 0;
  }
}
void PlatFormInfos::GetLocalMemBw(const LocalMemType& mem_type, uint64_t& bw_size) {
  std::string v;
  const char* key = mem_type == LocalMemType::L2 ? "l2_rate" : mem_type == LocalMemType::HBM ? "ddr_rate" : "";
  bw_size = *key && GetPlatformRes("AICoreMemoryRates", key, v) ? to_u64(v) : 0;
}

OptionalInfos::OptionalInfos() = default;
OptionalInfos::OptionalInfos(const OptionalInfos& other) = default;
OptionalInfos& OptionalInfos::operator=(const OptionalInfos& other) = default;
OptionalInfos::~OptionalInfos() = default;
bool OptionalInfos::Init() {
  soc_version_ = npukb::soc_info().name;
  core_type_ = "AiCore";
  ai_core_num_ = static_cast<uint32_t>(npukb::cube_cores());
  l1_fusion_flag_ = "false";
  return true;
}
std::string OptionalInfos::GetSocVersion() const { return soc_version_; }
std::string OptionalInfos::GetCoreType() const { return core_type_; }
uint32_t OptionalInfos::GetAICoreNum() const { return ai_core_num_; }
std::string OptionalInfos::GetL1FusionFlag() const { return l1_fusion_flag_; }
void OptionalInfos::SetSocVersion(std::string soc_version) { soc_version_ = std::move(soc_version); }
void OptionalInfos::SetCoreType(std::string core_type) { core_type_ = std::move(core_type); }
void OptionalInfos::SetAICoreNum(uint32_t ai_core_num) { ai_core_num_ = ai_core_num; }
void OptionalInfos::SetL1FusionFlag(std::string l1_fusion_flag) { l1_fusion_flag_ = std::move(l1_fusion_flag); }

PlatformInfoManager::PlatformInfoManager() = default;
PlatformInfoManager::~PlatformInfoManager() = default;
PlatformInfoManager& PlatformInfoManager::Instance() {
  static PlatformInfoManager manager;
  return manager;
}
PlatformInfoManager& PlatformInfoManager::GeInstance() { return Instance(); }
uint32_t PlatformInfoManager::InitializePlatformInfo() {
  initialized_ = true;
  return 0;
}
uint32_t PlatformInfoManager::Finalize() {
  initialized_ = false;
  return 0;
}
uint32_t PlatformInfoManager::GetPlatformInfos(const std::string /*soc_version*/, PlatFormInfos& platform_infos,
                                               OptionalInfos& optional_infos) {
  platform_infos.Init();
  optional_infos.Init();
  return 0;
}
uint32_t PlatformInfoManager::GetPlatformInfoWithOutSocVersion(PlatFormInfos& platform_infos,
                                                               OptionalInfos& optional_infos) {
  return GetPlatformInfos(npukb::soc_info().name, platform_infos, optional_infos);
}
uint32_t PlatformInfoManager::InitRuntimePlatformInfos(const std::string& /*soc_version*/) {
  return InitializePlatformInfo();
}
uint32_t PlatformInfoManager::GetRuntimePlatformInfosByDevice(const uint32_t& /*device_id*/,
                                                              PlatFormInfos& platform_infos, bool /*need_deep_copy*/) {
  platform_infos.Init();
  return 0;
}

}  // namespace fe

// ------------------------------------------------------------------------ context_ascendc (Tiling调测)
namespace context_ascendc {

namespace {

template <typename T>
std::vector<uint8_t> bytes_of(const T* data, std::size_t count) {
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  return std::vector<uint8_t>(p, p + count * sizeof(T));
}

void report(const char* level, const std::string& what) { std::fprintf(stderr, "[%s] %s\n", level, what.c_str()); }

// IEEE binary32 -> binary16 / bfloat16, rounding to nearest even (NaN stays NaN).
uint16_t to_half(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000U;
  const uint32_t exp = (f >> 23) & 0xFFU;
  uint32_t man = f & 0x7FFFFFU;
  if (exp == 0xFFU) return static_cast<uint16_t>(sign | 0x7C00U | (man != 0 ? 0x200U : 0U));
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00U);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000U;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = man >> shift;
    const uint32_t rest = man & ((1U << shift) - 1U), mid = 1U << (shift - 1U);
    if (rest > mid || (rest == mid && (half & 1U) != 0)) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  const uint32_t rest = man & 0x1FFFU;
  if (rest > 0x1000U || (rest == 0x1000U && (half & 1U) != 0)) ++half;   // may carry into the exponent: inf
  return static_cast<uint16_t>(sign | half);
}

uint16_t to_bf16(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  if ((f & 0x7F800000U) == 0x7F800000U && (f & 0x7FFFFFU) != 0) return static_cast<uint16_t>((f >> 16) | 0x40U);
  f += 0x7FFFU + ((f >> 16) & 1U);
  return static_cast<uint16_t>(f >> 16);
}

// A list attribute as RuntimeAttrs keeps it: a ContinuousVector header and then the elements.
std::vector<uint8_t> continuous(std::size_t count, const void* data, std::size_t bytes) {
  std::vector<uint8_t> buf(sizeof(gert::ContinuousVector) + bytes, 0);
  auto* cv = reinterpret_cast<gert::ContinuousVector*>(buf.data());
  cv->Init(count);
  cv->SetSize(count);
  if (bytes != 0) std::memcpy(cv->MutableData(), data, bytes);
  return buf;
}

struct TensorTd {
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format origin = ge::FORMAT_ND;
  ge::Format storage = ge::FORMAT_ND;
  gert::StorageShape shape;
  bool has_data = false;
  std::vector<uint8_t> data;
};

}  // namespace

class NpukbBuilderState {
 public:
  std::vector<void*> inputs;
  std::vector<void*> outputs;
  bool io_declared = false;
  std::size_t ir_inputs = 0;
  std::size_t ir_outputs = 0;
  bool instances_declared = false;
  std::vector<uint32_t> instances;
  std::string op_name;
  std::string op_type;
  std::map<int32_t, TensorTd> input_tds;
  std::map<int32_t, TensorTd> output_tds;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> attrs;
  void* compile_info = nullptr;
  void* platform = nullptr;          // PlatformInfo(p)
  bool own_platform = false;         // AddPlatformInfo(...): the holder's own fe::PlatFormInfos
  void* tiling_data = nullptr;
  gert::ContinuousVector* workspace = nullptr;
  std::vector<std::string> errors;

  void fail(const std::string& what) {
    report("ERROR", "ContextBuilder: " + what);
    errors.push_back(what);
  }
  void add_attr(const std::string& name, std::vector<uint8_t> bytes) {
    for (const auto& a : attrs) {
      if (a.first == name) {
        report("ERROR", "ContextBuilder::AddAttr: attribute '" + name + "' is already added (the first value stays)");
        errors.push_back("attribute '" + name + "' added twice");
        return;
      }
    }
    attrs.emplace_back(name, std::move(bytes));
  }
  bool declared_for(const char* api) {
    if (io_declared && instances_declared) return true;
    fail(std::string(api) + " before NodeIoNum and IrInstanceNum (the documentation requires them first)");
    return false;
  }
};

class ValueHolderImpl {
 public:
  gert::NpukbIoTable io;
  std::vector<void*> inputs;
  std::vector<void*> outputs;
  std::vector<std::vector<uint8_t>> data;     // input values (AddInputTd with constValues)
  fe::PlatFormInfos platform;                 // AddPlatformInfo
  std::unique_ptr<gert::TilingContext> tiling;
  std::unique_ptr<gert::TilingParseContext> parse;
};

KernelRunContextHolder::KernelRunContextHolder() = default;
KernelRunContextHolder::~KernelRunContextHolder() = default;

ContextBuilder::ContextBuilder() : state_(new NpukbBuilderState()) {}
ContextBuilder::ContextBuilder(const ContextBuilder& other) : state_(new NpukbBuilderState(*other.state_)) {}
ContextBuilder& ContextBuilder::operator=(const ContextBuilder& other) {
  if (this != &other) *state_ = *other.state_;
  return *this;
}
ContextBuilder::~ContextBuilder() = default;

ContextBuilder& ContextBuilder::Inputs(std::vector<void*> inputs) {
  state_->inputs = std::move(inputs);
  return *this;
}
ContextBuilder& ContextBuilder::Outputs(std::vector<void*> outputs) {
  state_->outputs = std::move(outputs);
  return *this;
}
ContextBuilder& ContextBuilder::NodeIoNum(size_t inputNum, size_t outputNum) {
  state_->io_declared = true;
  state_->ir_inputs = inputNum;
  state_->ir_outputs = outputNum;
  return *this;
}
ContextBuilder& ContextBuilder::SetOpNameType(const std::string& opName, const std::string& opType) {
  state_->op_name = opName;
  state_->op_type = opType;
  return *this;
}
ContextBuilder& ContextBuilder::IrInstanceNum(std::vector<uint32_t> instanceNum) {
  state_->instances_declared = true;
  state_->instances = std::move(instanceNum);
  return *this;
}

namespace {
TensorTd describe(ge::DataType dtype, ge::Format origin, ge::Format storage, const gert::StorageShape& shape) {
  TensorTd td;
  td.dtype = dtype;
  td.origin = origin;
  td.storage = storage;
  td.shape = shape;
  return td;
}
}  // namespace

ContextBuilder& ContextBuilder::AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat,
                                           ge::Format storageFormat, gert::StorageShape storageShape) {
  if (!state_->declared_for("AddInputTd")) return *this;
  if (index < 0) {
    state_->fail("AddInputTd: negative input index " + std::to_string(index));
    return *this;
  }
  state_->input_tds[index] = describe(dtype, originFormat, storageFormat, storageShape);
  return *this;
}
// The values are the tensor's elements in its dtype, except float16 / bfloat16: floats, converted here.
ContextBuilder& ContextBuilder::AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat,
                                           ge::Format storageFormat, gert::StorageShape storageShape,
                                           void* constValues) {
  const std::size_t errors = state_->errors.size();
  AddInputTd(index, dtype, originFormat, storageFormat, storageShape);
  if (state_->errors.size() != errors) return *this;
  TensorTd& td = state_->input_tds[index];
  int64_t count = storageShape.GetStorageShape().GetShapeSize();
  if (count < 0) count = 0;
  const int elem = ge::GetSizeByDataType(dtype);
  if (elem <= 0) {
    state_->fail("AddInputTd: input " + std::to_string(index) + " has a data type without a fixed element size");
    return *this;
  }
  if (constValues == nullptr && count != 0) {
    state_->fail("AddInputTd: input " + std::to_string(index) + " gets a null constValues pointer");
    return *this;
  }
  td.data.assign(static_cast<std::size_t>(count) * static_cast<std::size_t>(elem), 0);
  if (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16) {
    const float* src = static_cast<const float*>(constValues);
    for (int64_t i = 0; i < count; ++i) {
      const uint16_t v = dtype == ge::DT_FLOAT16 ? to_half(src[i]) : to_bf16(src[i]);
      std::memcpy(td.data.data() + i * 2, &v, 2);
    }
  } else if (!td.data.empty()) {
    std::memcpy(td.data.data(), constValues, td.data.size());
  }
  td.has_data = true;
  return *this;
}
ContextBuilder& ContextBuilder::AddInputTd(int32_t index, ge::DataType dtype, ge::Format originFormat,
                                           ge::Format storageFormat, gert::StorageShape storageShape,
                                           const std::string& filePath) {
  const std::size_t errors = state_->errors.size();
  AddInputTd(index, dtype, originFormat, storageFormat, storageShape);
  if (state_->errors.size() == errors) {
    report("WARNING", "ContextBuilder::AddInputTd: input " + std::to_string(index) + ": host code opens no files "
           "in the simulator, so '" + filePath + "' is not read and the input has no data; pass the values "
           "with AddInputTd(..., void* constValues)");
  }
  return *this;
}
ContextBuilder& ContextBuilder::AddOutputTd(int32_t index, ge::DataType dtype, ge::Format originFormat,
                                            ge::Format storageFormat, gert::StorageShape storageShape) {
  if (!state_->declared_for("AddOutputTd")) return *this;
  if (index < 0) {
    state_->fail("AddOutputTd: negative output index " + std::to_string(index));
    return *this;
  }
  state_->output_tds[index] = describe(dtype, originFormat, storageFormat, storageShape);
  return *this;
}

ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, int64_t attrValue) {
  state_->add_attr(attrName, bytes_of(&attrValue, 1));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, bool attrValue) {
  state_->add_attr(attrName, bytes_of(&attrValue, 1));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, const std::string& attrValue) {
  state_->add_attr(attrName, bytes_of(attrValue.c_str(), attrValue.size() + 1));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, float attrValue) {
  state_->add_attr(attrName, bytes_of(&attrValue, 1));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, const std::vector<float>& attrValue) {
  state_->add_attr(attrName, continuous(attrValue.size(), attrValue.data(), attrValue.size() * sizeof(float)));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, const std::vector<bool>& attrValue) {
  std::vector<uint8_t> flags(attrValue.begin(), attrValue.end());
  state_->add_attr(attrName, continuous(flags.size(), flags.data(), flags.size()));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, const std::vector<int64_t>& attrValue) {
  state_->add_attr(attrName, continuous(attrValue.size(), attrValue.data(), attrValue.size() * sizeof(int64_t)));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName, const std::vector<std::string>& attrValue) {
  std::string joined;
  for (const auto& s : attrValue) joined.append(s.c_str(), s.size() + 1);
  state_->add_attr(attrName, continuous(attrValue.size(), joined.data(), joined.size()));
  return *this;
}
ContextBuilder& ContextBuilder::AddAttr(const std::string& attrName,
                                        const std::vector<std::vector<int64_t>>& attrValue) {
  const std::size_t n = attrValue.size();
  std::size_t bytes = sizeof(gert::ContinuousVectorVector) + n * sizeof(std::size_t);
  std::vector<std::size_t> offsets;
  for (const auto& row : attrValue) {
    offsets.push_back(bytes);
    bytes += sizeof(gert::ContinuousVector) + row.size() * sizeof(int64_t);
  }
  std::vector<uint8_t> buf(bytes, 0);
  auto* outer = reinterpret_cast<gert::ContinuousVectorVector*>(buf.data());
  outer->Init(n);
  outer->SetSize(n);
  if (n != 0) std::memcpy(buf.data() + sizeof(gert::ContinuousVectorVector), offsets.data(), n * sizeof(std::size_t));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint8_t> row = continuous(attrValue[i].size(), attrValue[i].data(), attrValue[i].size() * sizeof(int64_t));
    std::memcpy(buf.data() + offsets[i], row.data(), row.size());
  }
  state_->add_attr(attrName, std::move(buf));
  return *this;
}

ContextBuilder& ContextBuilder::CompileInfo(void* compileInfo) {
  state_->compile_info = compileInfo;
  return *this;
}
ContextBuilder& ContextBuilder::PlatformInfo(void* platformInfo) {
  state_->platform = platformInfo;
  state_->own_platform = false;
  return *this;
}
// nullptr: the current platform; any name: the simulator has one platform, the Ascend 910B, whatever
// processor is named (as fe::PlatformInfoManager::GetPlatformInfos).
ContextBuilder& ContextBuilder::AddPlatformInfo(const char* customSocVersion) {
  (void)customSocVersion;
  state_->platform = nullptr;
  state_->own_platform = true;
  return *this;
}
ContextBuilder& ContextBuilder::TilingData(void* tilingData) {
  state_->tiling_data = tilingData;
  return *this;
}
ContextBuilder& ContextBuilder::Workspace(gert::ContinuousVector* workspace) {
  state_->workspace = workspace;
  return *this;
}

namespace {
// The node table of a holder from the builder's description; false (reported) when it is inconsistent.
bool fill_node(NpukbBuilderState& st, ValueHolderImpl& v) {
  v.io.node_name = st.op_name;
  v.io.node_type = st.op_type;
  if (st.io_declared != st.instances_declared) {
    st.fail(st.io_declared ? "NodeIoNum without IrInstanceNum" : "IrInstanceNum without NodeIoNum");
  }
  if (st.io_declared && st.instances_declared && st.instances.size() != st.ir_inputs) {
    st.fail("IrInstanceNum declares " + std::to_string(st.instances.size()) + " inputs, NodeIoNum " +
            std::to_string(st.ir_inputs));
  }
  std::size_t total = 0;
  v.io.input_ir.assign(st.instances.size(), {});
  for (std::size_t ir = 0; ir < st.instances.size(); ++ir) {
    for (uint32_t k = 0; k < st.instances[ir]; ++k) v.io.input_ir[ir].push_back(static_cast<int>(total++));
  }
  v.io.inputs.assign(total, gert::Tensor());
  v.io.outputs.assign(st.io_declared ? st.ir_outputs : 0, gert::Tensor());
  v.io.output_ir.clear();
  for (std::size_t o = 0; o < v.io.outputs.size(); ++o) v.io.output_ir.push_back({static_cast<int>(o)});
  v.data.reserve(st.input_tds.size());
  auto place = [&](gert::Tensor& t, const TensorTd& td, const void* data, std::size_t bytes) {
    t.NpukbSet(td.shape, td.dtype, data, bytes);
    t.NpukbDesc().SetOriginFormat(td.origin);
    t.NpukbDesc().SetStorageFormat(td.storage);
  };
  for (const auto& kv : st.input_tds) {
    if (static_cast<std::size_t>(kv.first) >= total) {
      st.fail("AddInputTd: input index " + std::to_string(kv.first) + " beyond the " + std::to_string(total) +
              " input instances IrInstanceNum declares");
      continue;
    }
    const void* data = nullptr;
    std::size_t bytes = 0;
    if (kv.second.has_data) {
      v.data.push_back(kv.second.data);
      data = v.data.back().data();
      bytes = v.data.back().size();
    }
    place(v.io.inputs[static_cast<std::size_t>(kv.first)], kv.second, data, bytes);
  }
  for (const auto& kv : st.output_tds) {
    if (static_cast<std::size_t>(kv.first) >= v.io.outputs.size()) {
      st.fail("AddOutputTd: output index " + std::to_string(kv.first) + " beyond the " +
              std::to_string(v.io.outputs.size()) + " outputs NodeIoNum declares");
      continue;
    }
    place(v.io.outputs[static_cast<std::size_t>(kv.first)], kv.second, nullptr, 0);
  }
  for (const auto& a : st.attrs) v.io.attrs.NpukbAppend(a.second.data(), a.second.size());
  v.inputs = st.inputs;
  v.outputs = st.outputs;
  return st.errors.empty();
}

std::shared_ptr<KernelRunContextHolder> new_holder(NpukbBuilderState& st, std::unique_ptr<ValueHolderImpl>& v) {
  auto holder = std::make_shared<KernelRunContextHolder>();
  holder->computeNodeExtendHolder.reset(new uint8_t[sizeof(gert::ComputeNodeInfo)]);
  new (holder->computeNodeExtendHolder.get()) gert::ComputeNodeInfo(&v->io, st.io_declared ? st.ir_inputs : 0,
                                                                    st.io_declared ? st.ir_outputs : 0);
  holder->valueHolder = std::move(v);
  return holder;
}
}  // namespace

std::shared_ptr<KernelRunContextHolder> ContextBuilder::BuildKernelRunContext() {
  auto v = std::make_unique<ValueHolderImpl>();
  if (!fill_node(*state_, *v)) {
    report("ERROR", "ContextBuilder::BuildKernelRunContext: the context is not built (errors above)");
    return nullptr;
  }
  // Laid out as a TilingParse function reads it: input 0 the compiled JSON, input 1 the platform,
  // output 0 the compile-info object.
  const char* json = v->inputs.size() > 0 ? static_cast<const char*>(v->inputs[0]) : nullptr;
  auto* platform = v->inputs.size() > 1 ? static_cast<fe::PlatFormInfos*>(v->inputs[1]) : nullptr;
  void* info = v->outputs.empty() ? nullptr : v->outputs[0];
  v->parse = std::make_unique<gert::TilingParseContext>(&v->io, json, info, platform);
  v->parse->NpukbSetValues(v->inputs.data(), v->inputs.size(), v->outputs.data(), v->outputs.size());
  gert::TilingParseContext* ctx = v->parse.get();
  auto holder = new_holder(*state_, v);
  holder->context = reinterpret_cast<KernelRunContext*>(ctx);
  return holder;
}

std::shared_ptr<KernelRunContextHolder> ContextBuilder::BuildTilingContext() {
  auto v = std::make_unique<ValueHolderImpl>();
  if (!fill_node(*state_, *v)) {
    report("ERROR", "ContextBuilder::BuildTilingContext: the context is not built (errors above)");
    return nullptr;
  }
  fe::PlatFormInfos* platform = state_->own_platform ? &v->platform
                                                     : static_cast<fe::PlatFormInfos*>(state_->platform);
  v->tiling = std::make_unique<gert::TilingContext>(&v->io, static_cast<gert::TilingData*>(state_->tiling_data),
                                                    platform, state_->compile_info);
  v->tiling->NpukbSetWorkspace(state_->workspace);
  v->tiling->NpukbSetValues(v->inputs.data(), v->inputs.size(), v->outputs.data(), v->outputs.size());
  gert::TilingContext* ctx = v->tiling.get();
  auto holder = new_holder(*state_, v);
  holder->context = reinterpret_cast<KernelRunContext*>(ctx);
  return holder;
}

OpTilingRegistry::OpTilingRegistry() = default;
OpTilingRegistry::~OpTilingRegistry() = default;

TilingFunc OpTilingRegistry::GetTilingFunc(const char* opType) const {
  if (opType == nullptr) return nullptr;
  TilingFunc func = nullptr;
  auto& defs = ops::NpukbOpRegistry();
  auto def = defs.find(opType);
  if (def != defs.end()) {
    std::unique_ptr<ops::OpDef> made(def->second(opType));
    if (made != nullptr) func = made->NpukbAICore().NpukbTiling();
  }
  if (func == nullptr) {
    auto& impls = gert::NpukbOpImplRegistry();
    auto impl = impls.find(opType);
    if (impl != impls.end()) func = impl->second.tiling;
  }
  if (func == nullptr) report("ERROR", std::string("OpTilingRegistry::GetTilingFunc: no Tiling function for op type ") + opType);
  return func;
}

bool OpTilingRegistry::LoadTilingLibrary(const char* tilingSoPath) const {
  if (tilingSoPath == nullptr || *tilingSoPath == '\0') {
    report("ERROR", "OpTilingRegistry::LoadTilingLibrary: no library path");
    return false;
  }
  bool any = false;
  for (const auto& kv : gert::NpukbOpImplRegistry()) any |= kv.second.tiling != nullptr;
  for (const auto& kv : ops::NpukbOpRegistry()) {
    if (any) break;
    std::unique_ptr<ops::OpDef> made(kv.second(kv.first.c_str()));
    any = made != nullptr && made->NpukbAICore().NpukbTiling() != nullptr;
  }
  report(any ? "INFO" : "ERROR", std::string("OpTilingRegistry::LoadTilingLibrary(") + tilingSoPath +
         "): the simulator loads no shared objects; the Tiling functions are those compiled into this program" +
         (any ? "" : ", and it registers none"));
  return any;
}

}  // namespace context_ascendc
