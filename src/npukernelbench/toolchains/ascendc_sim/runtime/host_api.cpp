// runtime/host_api.cpp -- out-of-line members of the host-side API (register/op_def.h,
// register/tilingdata_base.h, exe_graph/runtime/*.h, platform/platform_infos_def.h).
// Part of the ascendc-sim clean-room simulator. Compiled once per machine together with the launcher,
// so that an operator's host TU does not instantiate the container code behind these classes.
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_infos_def.h"
#include "register/op_def.h"
#include "register/tilingdata_base.h"

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
  return *this;
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
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, OpAICoreConfig& config) {
  socs_.emplace_back(soc);
  configs_[soc] = config;
  return *this;
}
const OpAICoreConfig* OpAICoreDef::NpukbConfig(const std::string& soc) const {
  auto it = configs_.find(soc);
  return it == configs_.end() ? nullptr : &it->second;
}

OpMC2Def& OpMC2Def::HcclGroup(std::vector<const char*> /*groups*/) { return *this; }

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
TilingDef::TilingDef(const TilingDef& other) = default;
TilingDef& TilingDef::operator=(const TilingDef& other) = default;
TilingDef::~TilingDef() = default;

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
  std::memcpy(bytes.data(), data_.data(), data_.size() < bytes.size() ? data_.size() : bytes.size());
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

TilingContext::TilingContext(NpukbIoTable* io, TilingData* raw, fe::PlatFormInfos* platform)
    : io_(io), raw_(raw), platform_(platform) {}
TilingContext::~TilingContext() = default;
size_t* TilingContext::GetWorkspaceSizes(size_t workspace_count) {
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

// --------------------------------------------------------------------------------------------- fe
namespace fe {

PlatFormInfos::PlatFormInfos() = default;
PlatFormInfos::PlatFormInfos(const PlatFormInfos& other) = default;
PlatFormInfos& PlatFormInfos::operator=(const PlatFormInfos& other) = default;
PlatFormInfos::~PlatFormInfos() = default;

bool PlatFormInfos::GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
  if (label == "version" && key == "Short_SoC_version") {
    value = "Ascend910B";
    return true;
  }
  if (label == "version" && key == "SoC_version") {
    value = soc_version_;
    return true;
  }
  if (label == "SoCInfo" && key == "ai_core_cnt") {
    value = "24";
    return true;
  }
  if (label == "SoCInfo" && key == "vector_core_cnt") {
    value = "48";
    return true;
  }
  return false;
}

}  // namespace fe
