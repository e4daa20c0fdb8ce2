// graph/ascend_string.h -- ge::AscendString, the string type of the GE API (OpAttrDef::GetName, the
// check-support and generalisation callbacks of OpAICoreDef). Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace ge {

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* name) : name_(name == nullptr ? nullptr : std::make_shared<std::string>(name)) {}  // NOLINT
  AscendString(const char* name, std::size_t length)
      : name_(name == nullptr ? nullptr : std::make_shared<std::string>(name, length)) {}
  ~AscendString() = default;

  const char* GetString() const { return name_ == nullptr ? "" : name_->c_str(); }
  std::size_t GetLength() const { return name_ == nullptr ? 0 : name_->size(); }
  std::size_t Hash() const { return std::hash<std::string>()(name_ == nullptr ? std::string() : *name_); }

  bool operator<(const AscendString& d) const { return Compare(d) < 0; }
  bool operator>(const AscendString& d) const { return Compare(d) > 0; }
  bool operator<=(const AscendString& d) const { return Compare(d) <= 0; }
  bool operator>=(const AscendString& d) const { return Compare(d) >= 0; }
  bool operator==(const AscendString& d) const { return Compare(d) == 0; }
  bool operator!=(const AscendString& d) const { return Compare(d) != 0; }

 private:
  int Compare(const AscendString& d) const { return std::string(GetString()).compare(d.GetString()); }
  std::shared_ptr<std::string> name_;
};

}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
  size_t operator()(const ge::AscendString& name) const { return name.Hash(); }
};
}  // namespace std
