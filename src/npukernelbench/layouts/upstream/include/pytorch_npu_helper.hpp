// pytorch_npu_helper.hpp -- npukernelbench's own (clean-room) stand-in for the helper header that the
// public NPUKernelBench tasks' validation/pybind.cpp files include.
//
// On Ascend hardware, EXEC_NPU_CMD(aclnnX, args...) converts every argument to its aclnn type and
// calls the generated aclnn API of the custom operator (op inputs, then attributes, then outputs, in
// OpDef order). Here it converts every argument to a tagged Python value and hands the call to the
// harness (npukernelbench.layouts.upstream.op_call.exec_npu_cmd), which binds the arguments onto the candidate's
// own OpDef, runs the candidate kernel on the simulator in a child process and copies the outputs back
// into the tensors this file allocated. Nothing else of the aclnn API exists here.
//
// Argument kinds handed to Python, as (kind, value[, dtype]) tuples:
//   tensor       at::Tensor, c10::optional<at::Tensor> (None when undefined or absent)
//   tensor_list  at::TensorList, std::vector<at::Tensor>
//   scalar       at::Scalar, aclScalar* (value, dtype name)
//   scalar_list  at::ArrayRef<at::Scalar>, std::vector<at::Scalar>
//   int_array    at::IntArrayRef, std::vector<int64_t>, aclIntArray*
//   float_array  std::vector<double|float>, at::ArrayRef<double|float>
//   bool_array   std::vector<bool>, at::ArrayRef<bool>
//   int, float, bool, str, none
#pragma once

#include <torch/extension.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#define NPUKB_PYTORCH_NPU_HELPER_VERSION 1

// aclnn handle types a pybind.cpp may name. Values made by ConvertType / ConvertTensorToAclScaler
// live until the end of the process (a handful per call, as on hardware where they are leaked too).
struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<double> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclScalar {
  at::Scalar value;
};
struct aclTensor {
  at::Tensor tensor;
};
struct aclTensorList {
  std::vector<at::Tensor> tensors;
};
struct aclScalarList {
  std::vector<at::Scalar> scalars;
};

namespace npukb_helper {

namespace py = pybind11;

template <typename T>
T* keep(T* value) {
  static std::vector<std::unique_ptr<T>> pool;
  pool.emplace_back(value);
  return value;
}

inline const char* scalar_dtype(const at::Scalar& s) {
  if (s.isBoolean()) return "bool";
  if (s.isIntegral(false)) return "int64";
  if (s.isComplex()) return "complex128";
  return "float64";
}

inline py::object scalar_value(const at::Scalar& s) {
  if (s.isBoolean()) return py::bool_(s.toBool());
  if (s.isIntegral(false)) return py::int_(s.toLong());
  if (s.isComplex()) {
    auto c = s.toComplexDouble();
    return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(c.real(), c.imag()));
  }
  return py::float_(s.toDouble());
}

inline py::tuple tag(const char* kind, py::object value) { return py::make_tuple(kind, value); }

inline py::object tensor_or_none(const at::Tensor& t) {
  if (!t.defined()) return py::none();
  return py::cast(t);
}

inline py::tuple arg(const at::Tensor& t) { return tag("tensor", tensor_or_none(t)); }
inline py::tuple arg(const c10::optional<at::Tensor>& t) {
  return tag("tensor", t.has_value() ? tensor_or_none(*t) : py::none());
}
inline py::tuple arg(const aclTensor* t) { return tag("tensor", t ? tensor_or_none(t->tensor) : py::none()); }

inline py::tuple tensors(const at::Tensor* data, std::size_t n) {
  py::list items;
  for (std::size_t i = 0; i < n; ++i) items.append(tensor_or_none(data[i]));
  return tag("tensor_list", items);
}
inline py::tuple arg(at::TensorList ts) { return tensors(ts.data(), ts.size()); }
inline py::tuple arg(const std::vector<at::Tensor>& ts) { return tensors(ts.data(), ts.size()); }
inline py::tuple arg(const aclTensorList* ts) {
  return ts ? tensors(ts->tensors.data(), ts->tensors.size()) : tag("none", py::none());
}

inline py::tuple arg(const at::Scalar& s) { return py::make_tuple("scalar", scalar_value(s), scalar_dtype(s)); }
inline py::tuple arg(const aclScalar* s) { return s ? arg(s->value) : tag("none", py::none()); }
inline py::tuple scalars(const at::Scalar* data, std::size_t n) {
  py::list items;
  for (std::size_t i = 0; i < n; ++i) items.append(py::make_tuple(scalar_value(data[i]), scalar_dtype(data[i])));
  return tag("scalar_list", items);
}
inline py::tuple arg(at::ArrayRef<at::Scalar> s) { return scalars(s.data(), s.size()); }
inline py::tuple arg(const std::vector<at::Scalar>& s) { return scalars(s.data(), s.size()); }
inline py::tuple arg(const aclScalarList* s) {
  return s ? scalars(s->scalars.data(), s->scalars.size()) : tag("none", py::none());
}

inline py::tuple arg(at::IntArrayRef v) { return tag("int_array", py::cast(v.vec())); }
inline py::tuple arg(const std::vector<int64_t>& v) { return tag("int_array", py::cast(v)); }
inline py::tuple arg(const aclIntArray* v) { return v ? tag("int_array", py::cast(v->values)) : tag("none", py::none()); }
inline py::tuple arg(const c10::optional<at::IntArrayRef>& v) {
  return v.has_value() ? arg(*v) : tag("none", py::none());
}
inline py::tuple arg(at::ArrayRef<double> v) { return tag("float_array", py::cast(v.vec())); }
inline py::tuple arg(const std::vector<double>& v) { return tag("float_array", py::cast(v)); }
inline py::tuple arg(at::ArrayRef<float> v) { return tag("float_array", py::cast(std::vector<double>(v.begin(), v.end()))); }
inline py::tuple arg(const std::vector<float>& v) {
  return tag("float_array", py::cast(std::vector<double>(v.begin(), v.end())));
}
inline py::tuple arg(const aclFloatArray* v) { return v ? tag("float_array", py::cast(v->values)) : tag("none", py::none()); }
inline py::tuple arg(at::ArrayRef<bool> v) { return tag("bool_array", py::cast(std::vector<bool>(v.begin(), v.end()))); }
inline py::tuple arg(const std::vector<bool>& v) { return tag("bool_array", py::cast(v)); }
inline py::tuple arg(const aclBoolArray* v) { return v ? tag("bool_array", py::cast(v->values)) : tag("none", py::none()); }

inline py::tuple arg(const char* s) { return s ? tag("str", py::str(s)) : tag("none", py::none()); }
inline py::tuple arg(const std::string& s) { return tag("str", py::str(s)); }
inline py::tuple arg(std::nullptr_t) { return tag("none", py::none()); }
inline py::tuple arg(bool v) { return tag("bool", py::bool_(v)); }
inline py::tuple arg(at::ScalarType t) { return tag("int", py::int_(static_cast<int>(t))); }

template <typename T>
inline py::tuple arg(const c10::optional<T>& v) {
  return v.has_value() ? arg(*v) : tag("none", py::none());
}

// Plain numbers: every integral type (int, int64_t, uint32_t, char, ...) and every floating type.
template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
inline py::tuple arg(T v) {
  return tag("int", py::int_(static_cast<long long>(v)));
}
template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
inline py::tuple arg(T v) {
  return tag("float", py::float_(static_cast<double>(v)));
}

template <typename... Args>
py::list pack(const Args&... args) {
  py::list out;
  (out.append(arg(args)), ...);
  return out;
}

inline void exec(const char* api, const py::list& args) {
  py::module_ dispatcher = py::module_::import("npukernelbench.layouts.upstream.op_call");
  dispatcher.attr("exec_npu_cmd")(py::str(api), args);
}

}  // namespace npukb_helper

inline aclIntArray* ConvertType(at::IntArrayRef v) { return npukb_helper::keep(new aclIntArray{v.vec()}); }
inline aclIntArray* ConvertType(const std::vector<int64_t>& v) { return npukb_helper::keep(new aclIntArray{v}); }
inline aclScalar* ConvertType(const at::Scalar& s) { return npukb_helper::keep(new aclScalar{s}); }
inline aclTensor* ConvertType(const at::Tensor& t) { return npukb_helper::keep(new aclTensor{t}); }
inline aclTensorList* ConvertType(at::TensorList ts) { return npukb_helper::keep(new aclTensorList{ts.vec()}); }
inline aclScalarList* ConvertType(at::ArrayRef<at::Scalar> s) { return npukb_helper::keep(new aclScalarList{s.vec()}); }
inline aclFloatArray* ConvertType(at::ArrayRef<double> v) { return npukb_helper::keep(new aclFloatArray{v.vec()}); }

// A 0-d or 1-element tensor as an aclScalar of the tensor's dtype.
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
  TORCH_CHECK(t.defined() && t.numel() == 1, "ConvertTensorToAclScaler: expected a one-element tensor");
  return npukb_helper::keep(new aclScalar{t.item()});
}

#define EXEC_NPU_CMD(aclnn_api, ...)                                               \
  do {                                                                             \
    ::npukb_helper::exec(#aclnn_api, ::npukb_helper::pack(__VA_ARGS__));           \
  } while (false)
