// register/tilingdata_base.h -- legacy tiling data classes (BEGIN_TILING_DATA_DEF & co.).
// Part of the ascendc-sim clean-room simulator.
//
// A tiling class is a byte buffer with named fields laid out like a C struct (natural alignment, in
// declaration order, total size rounded to the largest alignment). SaveToBuffer writes those bytes
// into the raw tiling buffer. The build runs the host code once in "describe" mode to list every
// registered class (fields, C++ types, array lengths, nested classes, offsets) and generates the
// kernel-side struct that GET_TILING_DATA declares, with the same byte layout. Member functions that
// touch containers are defined in runtime/host_api.cpp (compiled once per machine).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiling {

class TilingDef;

struct NpukbField {
  std::string type;          // C++ element type as written in the macro
  std::string name;
  std::size_t offset = 0;
  std::size_t elem_size = 0;
  std::size_t count = 1;     // array length (1 for scalars and structs)
  int kind = 0;              // 0 scalar, 1 array, 2 nested tiling struct
  std::ptrdiff_t nested_at = 0;   // nested object's address relative to the owner (kind 2)
};

// Set when SaveToBuffer was asked to write more bytes than the buffer's capacity.
std::size_t& NpukbTilingOverflowBytes();

class TilingDef {
 public:
  TilingDef();
  TilingDef(const TilingDef& other);
  TilingDef& operator=(const TilingDef& other);
  virtual ~TilingDef();

  std::size_t GetDataSize() const { return (size_ + align_ - 1) / align_ * align_; }
  const char* GetTilingClassName() const { return class_name_.c_str(); }

  void SaveToBuffer(void* pdata, std::size_t capacity) const;
  // From now on the fields live at dataPtr (usually the raw tiling buffer): setters write there,
  // getters read there, nested tiling structs move along at their offsets. Values set before are not
  // carried over (the buffer's own bytes are what the fields hold).
  void SetDataPtr(void* dataPtr);

  // The serialized bytes (own scalars and arrays plus every nested struct at its offset).
  std::vector<std::uint8_t> NpukbBytes() const;
  std::size_t NpukbAlign() const { return align_; }
  const std::vector<NpukbField>& NpukbFields() const { return fields_; }
  const TilingDef* NpukbNested(const NpukbField& f) const {
    return reinterpret_cast<const TilingDef*>(reinterpret_cast<const char*>(this) + f.nested_at);
  }
  // Classes the kernel-side headers define themselves (e.g. TCubeTiling) say so here.
  virtual bool NpukbBuiltin() const { return false; }

  std::size_t NpukbAddField(const char* type, const char* name, std::size_t elem_size, std::size_t align,
                            std::size_t count, int kind, const TilingDef* nested);

 protected:
  void NpukbSetClassName(const char* name);
  void NpukbWrite(std::size_t offset, const void* src, std::size_t bytes) {
    std::memcpy(NpukbData() + offset, src, bytes);
  }
  void NpukbRead(std::size_t offset, void* dst, std::size_t bytes) const {
    std::memcpy(dst, NpukbData() + offset, bytes);
  }
  void* NpukbAt(std::size_t offset) { return NpukbData() + offset; }

 private:
  std::uint8_t* NpukbData() { return external_ != nullptr ? external_ : data_.data(); }
  const std::uint8_t* NpukbData() const { return external_ != nullptr ? external_ : data_.data(); }

  std::string class_name_;
  std::vector<std::uint8_t> data_;
  std::uint8_t* external_ = nullptr;   // set by SetDataPtr
  std::vector<NpukbField> fields_;
  std::size_t size_ = 0;
  std::size_t align_ = 1;
};

// Registers one field with its owner while the owner's members are being initialised (declaration
// order = layout order).
struct NpukbFieldReg {
  std::size_t offset;
  NpukbFieldReg(TilingDef* owner, const char* type, const char* name, std::size_t size, std::size_t align,
                std::size_t count, int kind, const TilingDef* nested)
      : offset(owner->NpukbAddField(type, name, size, align, count, kind, nested)) {}
};

// Returns a new object owned by the caller.
using NpukbTilingFactory = TilingDef* (*)();

struct NpukbTilingClass {
  std::string class_name;
  NpukbTilingFactory factory;
};

// op type (or "<op type>_<tiling key>") -> registered tiling class.
std::map<std::string, NpukbTilingClass>& NpukbTilingRegistry();

struct NpukbTilingRegisterer {
  NpukbTilingRegisterer(const char* op_type, const char* class_name, NpukbTilingFactory factory);
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                          \
  class class_name : public ::optiling::TilingDef {                \
   public:                                                         \
    class_name() { NpukbSetClassName(#class_name); }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                    \
 public:                                                                                              \
  void set_##field_name(data_type npukb_value) {                                                       \
    NpukbWrite(npukb_##field_name.offset, &npukb_value, sizeof(data_type));                            \
  }                                                                                                    \
  data_type get_##field_name() const {                                                                 \
    data_type npukb_value;                                                                             \
    NpukbRead(npukb_##field_name.offset, &npukb_value, sizeof(data_type));                             \
    return npukb_value;                                                                                \
  }                                                                                                    \
                                                                                                       \
 private:                                                                                              \
  ::optiling::NpukbFieldReg npukb_##field_name{this, #data_type, #field_name, sizeof(data_type),       \
                                               alignof(data_type), 1, 0, nullptr};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                       \
 public:                                                                                              \
  void set_##field_name(const arr_type* npukb_values) {                                               \
    NpukbWrite(npukb_##field_name.offset, npukb_values, sizeof(arr_type) * (arr_size));               \
  }                                                                                                    \
  arr_type* get_##field_name() { return static_cast<arr_type*>(NpukbAt(npukb_##field_name.offset)); } \
                                                                                                       \
 private:                                                                                              \
  ::optiling::NpukbFieldReg npukb_##field_name{this, #arr_type, #field_name, sizeof(arr_type),         \
                                               alignof(arr_type), (arr_size), 1, nullptr};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                           \
 public:                                                                                              \
  struct_type field_name;                                                                              \
                                                                                                       \
 private:                                                                                              \
  ::optiling::NpukbFieldReg npukb_##field_name{this, #struct_type, #field_name, 0, 0, 1, 2, &field_name};

#define END_TILING_DATA_DEF \
  }                         \
  ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                \
  static ::optiling::NpukbTilingRegisterer g_npukb_tiling_##op_type##_##class_name(                    \
      #op_type, #class_name,                                                                           \
      []() -> ::optiling::TilingDef* { return new class_name(); });
