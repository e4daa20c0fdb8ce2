// launcher_describe.cpp -- `launcher describe <so>`: the registered tiling classes and OpDefs of a
// host-only build, printed for builder.py. Part of the ascendc-sim clean-room simulator
// (launcher_internal.h lists the launcher's files).
#include <iostream>
#include <memory>
#include <string>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {

// ---------------------------------------------------------------------------------------------

// One line per class, nested classes first:
//   class <name> <size> <align> <builtin 0|1>
//   field <name> <scalar|array|struct> <offset> <elem_size> <count> <type...>
//   end
void describe_class(const optiling::TilingDef& def, std::ostream& out) {
  for (const auto& f : def.NpukbFields()) {
    if (f.kind == 2) describe_class(*def.NpukbNested(f), out);
  }
  out << "class " << def.GetTilingClassName() << ' ' << def.GetDataSize() << ' ' << def.NpukbAlign() << ' '
      << (def.NpukbBuiltin() ? 1 : 0) << '\n';
  static const char* kinds[] = {"scalar", "array", "struct"};
  for (const auto& f : def.NpukbFields()) {
    out << "field " << f.name << ' ' << kinds[f.kind] << ' ' << f.offset << ' ' << f.elem_size << ' ' << f.count << ' '
        << f.type << '\n';
  }
  out << "end\n";
}

// The signature of one OpDef, as the aclnn API generated for it orders its arguments (inputs, then
// attributes, then outputs, each in declaration order):
//   param <input|output> <name> <REQUIRED|OPTIONAL|DYNAMIC> <per_column|any> <ge dtype>...
//   attr <name> <kind> <REQUIRED|OPTIONAL> <default|-> <value>...      (str values: hex of UTF-8)
// The DataType lists are those of the ascend910b AI Core configuration where it overrides them;
// "any" marks a DataTypeList (one list for every column).
const char* attr_kind_name(ops::OpAttrDef::Kind kind) {
  using K = ops::OpAttrDef::Kind;
  switch (kind) {
    case K::BOOL: return "bool";
    case K::FLOAT: return "float";
    case K::INT: return "int";
    case K::STR: return "str";
    case K::LIST_BOOL: return "list_bool";
    case K::LIST_FLOAT: return "list_float";
    case K::LIST_INT: return "list_int";
    case K::LIST_LIST_INT: return "list_list_int";
    default: return "none";
  }
}

std::string hex_of(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out.empty() ? "-" : out;
}

void describe_signature(const ops::OpDef& def, std::ostream& out) {
  const ops::OpAICoreConfig* cfg = nullptr;
  config_910b(def, &cfg);
  for (const auto* list : {&def.NpukbInputs(), &def.NpukbOutputs()}) {
    bool inputs = list == &def.NpukbInputs();
    for (const auto& p : *list) {
      const ops::OpParamDef* chosen = &p;
      if (cfg != nullptr) {
        for (const auto& q : inputs ? cfg->NpukbInputs() : cfg->NpukbOutputs()) {
          if (q.NpukbName() == p.NpukbName() && !q.NpukbDataTypes().empty()) chosen = &q;
        }
      }
      out << "param " << (inputs ? "input" : "output") << ' ' << p.NpukbName() << ' '
          << option_name(p.NpukbParamType()) << ' ' << (chosen->NpukbDataTypeList() ? "any" : "per_column");
      for (auto dt : chosen->NpukbDataTypes()) out << ' ' << ge_name(dt);
      out << '\n';
      if (inputs && p.NpukbValueDepend() != ops::IGNORE) {
        out << "depend input " << p.NpukbName() << ' ' << option_name(p.NpukbValueDepend()) << '\n';
      }
      const ops::OpParamDef* formats = chosen->NpukbFormats().empty() ? &p : chosen;
      if (!formats->NpukbFormats().empty()) {
        out << "format " << (inputs ? "input" : "output") << ' ' << p.NpukbName() << ' '
            << (formats->NpukbFormatList() ? "any" : "per_column");
        for (auto f : formats->NpukbFormats()) out << ' ' << static_cast<int>(f);
        out << '\n';
      }
    }
  }
  using K = ops::OpAttrDef::Kind;
  for (const auto& a : def.NpukbAttrs()) {
    out << "attr " << a.NpukbName() << ' ' << attr_kind_name(a.NpukbKind()) << ' '
        << (a.NpukbAttrType() == ops::REQUIRED ? "REQUIRED" : "OPTIONAL");
    if (!a.NpukbHasDefault()) {
      out << " -\n";
      continue;
    }
    out << " default";
    char buf[64];
    switch (a.NpukbKind()) {
      case K::BOOL: out << ' ' << (a.NpukbBool() ? 1 : 0); break;
      case K::FLOAT: std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(a.NpukbFloat())); out << ' ' << buf; break;
      case K::INT: out << ' ' << a.NpukbInt(); break;
      case K::STR: out << ' ' << hex_of(a.NpukbStr()); break;
      case K::LIST_BOOL: for (bool v : a.NpukbListBool()) out << ' ' << (v ? 1 : 0); break;
      case K::LIST_FLOAT:
        for (float v : a.NpukbListFloat()) {
          std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
          out << ' ' << buf;
        }
        break;
      case K::LIST_INT: for (auto v : a.NpukbListInt()) out << ' ' << v; break;
      default: break;
    }
    out << '\n';
  }
}

int describe() {
  auto& reg = optiling::NpukbTilingRegistry();
  for (const auto& kv : reg) {
    std::cout << "register " << kv.first << ' ' << kv.second.class_name << '\n';
    std::unique_ptr<optiling::TilingDef> obj(kv.second.factory());
    describe_class(*obj, std::cout);
  }
  for (const auto& kv : ops::NpukbOpRegistry()) {
    std::cout << "opdef " << kv.first << '\n';
    std::unique_ptr<ops::OpDef> def(kv.second(kv.first.c_str()));
    describe_signature(*def, std::cout);
    std::cout << "endop\n";
  }
  return 0;
}

}  // namespace launcher
}  // namespace npukb
