// register/device_op_impl_registry.h -- Tiling下沉 (tiling sinking): DEVICE_IMPL_OP_OPTILING(optype) makes the
// registration object of an op type, whose Tiling(func) registers the tiling function to run on the device.
// Clean-room part of ascendc-sim.
//
// The simulator has no device-side tiling stage: the launcher runs the op's TilingFunc on the host either
// way. The registration is kept (one entry per op type, a later Tiling call replacing an earlier one) and
// can be looked up with npukb::sink_tiling_func, so a registered function can be called and checked.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/ge_error_codes.h"

#ifndef VAR_UNUSED
#define VAR_UNUSED __attribute__((unused))
#endif

namespace optiling {

using SinkTilingFunc = std::function<ge::graphStatus(gert::TilingContext* context)>;

class DeviceOpImplRegisterImpl {
 public:
  explicit DeviceOpImplRegisterImpl(const char* opType) : op_type_(opType == nullptr ? "" : opType) {}
  const std::string& op_type() const { return op_type_; }

 private:
  std::string op_type_;
};

}  // namespace optiling

namespace npukb {
// The sink tiling functions registered so far, by op type.
inline std::map<std::string, optiling::SinkTilingFunc>& sink_tiling_registry() {
  static std::map<std::string, optiling::SinkTilingFunc> registry;
  return registry;
}
// The function DEVICE_IMPL_OP_OPTILING(opType).Tiling(...) registered, or nullptr.
inline const optiling::SinkTilingFunc* sink_tiling_func(const char* opType) {
  auto& r = sink_tiling_registry();
  auto it = r.find(opType == nullptr ? "" : opType);
  return it == r.end() ? nullptr : &it->second;
}
}  // namespace npukb

namespace optiling {

class DeviceOpImplRegister {
 public:
  DeviceOpImplRegister(const char* opType) : impl_(new DeviceOpImplRegisterImpl(opType)) {}
  ~DeviceOpImplRegister() = default;
  DeviceOpImplRegister(DeviceOpImplRegister&& other) noexcept : impl_(std::move(other.impl_)) {}
  DeviceOpImplRegister(const DeviceOpImplRegister& other)
      : impl_(other.impl_ ? new DeviceOpImplRegisterImpl(*other.impl_) : nullptr) {}
  DeviceOpImplRegister& operator=(const DeviceOpImplRegister&) = delete;
  DeviceOpImplRegister& operator=(DeviceOpImplRegister&&) = delete;
  DeviceOpImplRegister& Tiling(SinkTilingFunc func) {
    if (impl_) ::npukb::sink_tiling_registry()[impl_->op_type()] = std::move(func);
    return *this;
  }

 private:
  std::unique_ptr<DeviceOpImplRegisterImpl> impl_;
};

}  // namespace optiling

#define DEVICE_IMPL_OP_OPTILING(optype) \
  static optiling::DeviceOpImplRegister VAR_UNUSED g_deviceOpImplRegister##optype = \
      optiling::DeviceOpImplRegister(#optype)
