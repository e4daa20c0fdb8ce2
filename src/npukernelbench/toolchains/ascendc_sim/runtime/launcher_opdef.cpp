// launcher_opdef.cpp -- the OpDef checks of a run: the 910B configuration, the case's parameters
// against the OpDef's inputs, outputs and DataType columns, output initial values, and the attributes
// in OpDef order. Part of the ascendc-sim clean-room simulator (launcher_internal.h lists the launcher's
// files).
#include <cctype>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {

// ---------------------------------------------------------------------------------------------
// OpDef checks

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string option_name(ops::Option o) {
  switch (o) {
    case ops::REQUIRED: return "REQUIRED";
    case ops::OPTIONAL: return "OPTIONAL";
    case ops::DYNAMIC: return "DYNAMIC";
    default: return "IGNORE";
  }
}

// The ascend910b AI Core configuration of an OpDef: added with AICore().AddConfig (its OpAICoreConfig
// or none), else registered with REGISTER_OP_AICORE_CONFIG (whose configuration is kept here). False
// when the OpDef has none for the 910B.
bool config_910b(const ops::OpDef& def, const ops::OpAICoreConfig** cfg) {
  *cfg = nullptr;
  bool found = false;
  for (const auto& s : def.NpukbAICore().NpukbSocs()) {
    if (lower(s).rfind("ascend910b", 0) == 0) {
      found = true;
      *cfg = def.NpukbAICore().NpukbConfig(s);
    }
  }
  if (found) return true;
  auto& registry = ops::NpukbAICoreConfigRegistry();
  auto op = registry.find(def.NpukbType());
  if (op == registry.end()) return false;
  static std::map<std::string, ops::OpAICoreConfig> kept;
  for (const auto& [soc, func] : op->second) {
    if (lower(soc).rfind("ascend910b", 0) == 0 && func != nullptr) {
      auto slot = kept.emplace(def.NpukbType(), func()).first;
      *cfg = &slot->second;
      return true;
    }
  }
  return false;
}

// Checks the case's parameters against the OpDef and returns the DataType column they use.
std::size_t check_params(const ops::OpDef& def, const std::vector<ParamReq>& params) {
  const ops::OpAICoreConfig* cfg = nullptr;
  bool has_910b = config_910b(def, &cfg);
  if (!has_910b) {
    launch_error("OpDef " + def.NpukbType() + " declares no AI Core configuration for ascend910b: add "
                 "this->AICore().AddConfig(\"ascend910b\") to its constructor");
  }
  std::vector<const ops::OpParamDef*> declared;
  std::vector<std::string> roles;
  for (const auto* list : {&def.NpukbInputs(), &def.NpukbOutputs()}) {
    for (const auto& p : *list) {
      const ops::OpParamDef* chosen = &p;
      if (cfg != nullptr) {
        const auto& over = list == &def.NpukbInputs() ? cfg->NpukbInputs() : cfg->NpukbOutputs();
        for (const auto& q : over) {
          if (q.NpukbName() == p.NpukbName() && !q.NpukbDataTypes().empty()) chosen = &q;
        }
      }
      declared.push_back(chosen);
      roles.push_back(list == &def.NpukbInputs() ? "input" : "output");
    }
  }
  auto names = [&](const std::string& role) {
    std::string s;
    for (std::size_t i = 0; i < declared.size(); ++i) {
      if (roles[i] == role) s += (s.empty() ? "" : ", ") + declared[i]->NpukbName();
    }
    for (const auto& p : params) {
      (void)p;
    }
    return "(" + s + ")";
  };
  auto case_names = [&](const std::string& role) {
    std::string s;
    for (const auto& p : params) {
      if (p.role == role) s += (s.empty() ? "" : ", ") + p.name;
    }
    return "(" + s + ")";
  };
  bool same = declared.size() == params.size();
  for (std::size_t i = 0; same && i < params.size(); ++i) {
    same = declared[i]->NpukbName() == params[i].name && roles[i] == params[i].role;
  }
  if (!same) {
    launch_error("OpDef " + def.NpukbType() + " declares inputs " + names("input") + " and outputs " + names("output") +
                 " but the task has inputs " + case_names("input") + " and outputs " + case_names("output") +
                 ": declare them with this->Input(...) / this->Output(...) in the task's order and names");
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string want = params[i].ptype;
    std::string got = option_name(declared[i]->NpukbParamType());
    if (want != got && !(want == "REQUIRED" && got == "OPTIONAL")) {
      launch_error("OpDef " + def.NpukbType() + " declares " + params[i].role + " '" + params[i].name + "' as " + got +
                   " but the task passes it as " + want + ": use .ParamType(" + want + ")");
    }
  }
  // Data type combinations: column j of every DataType list must give the case's dtypes.
  std::size_t columns = 0;
  for (const auto* d : declared) {
    if (!d->NpukbDataTypeList()) columns = std::max(columns, d->NpukbDataTypes().size());
  }
  auto matches = [&](std::size_t j) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const auto& types = declared[i]->NpukbDataTypes();
      if (types.empty()) continue;
      if (declared[i]->NpukbDataTypeList()) {
        if (std::find(types.begin(), types.end(), params[i].ge) == types.end()) return false;
      } else if (j >= types.size() || types[j] != params[i].ge) {
        return false;
      }
    }
    return true;
  };
  bool ok = columns == 0 ? matches(0) : false;
  std::size_t column = 0;
  for (std::size_t j = 0; j < columns && !ok; ++j) {
    ok = matches(j);
    column = j;
  }
  if (!ok) {
    std::string want;
    for (const auto& p : params) want += (want.empty() ? "" : ", ") + p.name + "=" + ge_name(p.ge);
    launch_error("OpDef " + def.NpukbType() + " supports no data type combination (" + want +
                 "): add it as one column of the DataType({...}) lists of every input and output");
  }
  return column;
}

// Fills an output buffer with the initial value its OpDef declares (OpParamDef::InitValue), as the
// memset the framework inserts before the kernel does. The value's type gives the element size.
void fill_init_value(std::uint8_t* gm, std::size_t bytes, const ops::ScalarVar& v) {
  std::uint8_t pattern[8] = {};
  std::size_t size = 8;
  const auto& n = v.scalar_num;
  switch (v.scalar_type) {
    case ops::ScalarType::UINT64: case ops::ScalarType::INT64: std::memcpy(pattern, &n.value_u64, 8); break;
    case ops::ScalarType::UINT32: case ops::ScalarType::INT32: {
      std::uint32_t x = static_cast<std::uint32_t>(n.value_u64); std::memcpy(pattern, &x, 4); size = 4; break;
    }
    case ops::ScalarType::UINT16: case ops::ScalarType::INT16: {
      std::uint16_t x = static_cast<std::uint16_t>(n.value_u64); std::memcpy(pattern, &x, 2); size = 2; break;
    }
    case ops::ScalarType::UINT8: case ops::ScalarType::INT8: pattern[0] = static_cast<std::uint8_t>(n.value_u64); size = 1; break;
    case ops::ScalarType::FLOAT32: std::memcpy(pattern, &n.value_f32, 4); size = 4; break;
    case ops::ScalarType::FLOAT16: {
      _Float16 h = static_cast<_Float16>(n.value_f32); std::memcpy(pattern, &h, 2); size = 2; break;
    }
    default: return;
  }
  for (std::size_t i = 0; i + size <= bytes; i += size) std::memcpy(gm + i, pattern, size);
}

// ---------------------------------------------------------------------------------------------
// Attributes in OpDef order

void append_attr(gert::RuntimeAttrs& attrs, const ops::OpAttrDef& decl, const AttrReq* given) {
  using K = ops::OpAttrDef::Kind;
  std::string name = decl.NpukbName();
  K kind = decl.NpukbKind();
  auto kind_of = [](const std::string& t) {
    if (t == "float") return K::FLOAT;
    if (t == "int") return K::INT;
    if (t == "bool") return K::BOOL;
    if (t == "str") return K::STR;
    if (t == "list_int") return K::LIST_INT;
    if (t == "list_float") return K::LIST_FLOAT;
    if (t == "list_bool") return K::LIST_BOOL;
    request_error("unknown attribute type " + t);
  };
  auto list = [&](std::size_t count, std::size_t elem, auto fill) {
    std::vector<std::uint8_t> buf(sizeof(gert::ContinuousVector) + count * elem + 8, 0);
    auto* cv = reinterpret_cast<gert::ContinuousVector*>(buf.data());
    cv->Init(count);
    cv->SetSize(count);
    fill(static_cast<std::uint8_t*>(cv->MutableData()));
    attrs.NpukbAppend(buf.data(), buf.size());
  };
  if (given == nullptr) {
    if (!decl.NpukbHasDefault()) {
      if (decl.NpukbAttrType() == ops::REQUIRED) {
        launch_error("OpDef attribute '" + name + "' is REQUIRED but the task passes no value for it");
      }
      attrs.NpukbAppendAbsent();
      return;
    }
    switch (kind) {
      case K::BOOL: { bool v = decl.NpukbBool(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::FLOAT: { float v = decl.NpukbFloat(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::INT: { int64_t v = decl.NpukbInt(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::STR: attrs.NpukbAppend(decl.NpukbStr().c_str(), decl.NpukbStr().size() + 1); return;
      case K::LIST_INT: {
        const auto& v = decl.NpukbListInt();
        list(v.size(), 8, [&](std::uint8_t* d) { std::memcpy(d, v.data(), v.size() * 8); });
        return;
      }
      case K::LIST_FLOAT: {
        const auto& v = decl.NpukbListFloat();
        list(v.size(), 4, [&](std::uint8_t* d) { std::memcpy(d, v.data(), v.size() * 4); });
        return;
      }
      case K::LIST_BOOL: {
        const auto& v = decl.NpukbListBool();
        list(v.size(), 1, [&](std::uint8_t* d) { for (std::size_t i = 0; i < v.size(); ++i) d[i] = v[i]; });
        return;
      }
      default: attrs.NpukbAppendAbsent(); return;
    }
  }
  K want = kind_of(given->type);
  if (kind != K::NONE && kind != want) {
    launch_error("OpDef attribute '" + name + "' has a different type than the task's " + given->type +
                 " attribute: declare it with the matching Attr(...) type");
  }
  const auto& vals = given->values;
  switch (want) {
    case K::FLOAT: { float v = std::stof(vals.at(0)); attrs.NpukbAppend(&v, sizeof v); return; }
    case K::INT: { int64_t v = std::stoll(vals.at(0)); attrs.NpukbAppend(&v, sizeof v); return; }
    case K::BOOL: { bool v = vals.at(0) == "1"; attrs.NpukbAppend(&v, sizeof v); return; }
    case K::STR: {
      std::string s = vals.empty() ? std::string() : unhex(vals[0]);
      attrs.NpukbAppend(s.c_str(), s.size() + 1);
      return;
    }
    case K::LIST_INT:
      list(vals.size(), 8, [&](std::uint8_t* d) {
        for (std::size_t i = 0; i < vals.size(); ++i) { int64_t v = std::stoll(vals[i]); std::memcpy(d + 8 * i, &v, 8); }
      });
      return;
    case K::LIST_FLOAT:
      list(vals.size(), 4, [&](std::uint8_t* d) {
        for (std::size_t i = 0; i < vals.size(); ++i) { float v = std::stof(vals[i]); std::memcpy(d + 4 * i, &v, 4); }
      });
      return;
    case K::LIST_BOOL:
      list(vals.size(), 1, [&](std::uint8_t* d) { for (std::size_t i = 0; i < vals.size(); ++i) d[i] = vals[i] == "1"; });
      return;
    default: attrs.NpukbAppendAbsent();
  }
}

}  // namespace launcher
}  // namespace npukb
