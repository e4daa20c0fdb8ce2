// npukb_sim/kernel/tensor.h -- LocalTensor / GlobalTensor. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/types.h"

namespace AscendC {

template <typename T> class LocalTensor;
template <typename T> class GlobalTensor;

namespace sim {
struct QueueBase;  // pipe.h
// Where a LocalTensor lives.
struct LocalLoc {
  std::uint8_t* base = nullptr;     // start of the hardware buffer (UB, L1, ...)
  std::uint32_t region_bytes = 0;   // size of that hardware buffer
  std::uint32_t addr = 0;           // byte offset of element 0 inside it
  Hardware hw = Hardware::UB;
  TPosition pos = TPosition::VECCALC;
  QueueBase* owner = nullptr;       // queue the buffer was allocated from (nullptr for TBuf)
  std::int32_t buf_idx = -1;
};
}  // namespace sim

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;

  // `dst = src0 + src1` and the other whole-tensor operator forms: the expression of vec_operators.h
  // runs its instruction into this tensor.
  template <typename E, typename = typename E::npukb_tensor_expr>
  LocalTensor& operator=(const E& expr) {
    expr.assign_to(*this);
    return *this;
  }

  LocalTensor operator[](const std::uint32_t offset) const {
    LocalTensor r(*this);
    r.loc_.addr = loc_.addr + offset * static_cast<std::uint32_t>(sizeof(T));
    r.size_ = offset <= size_ ? size_ - offset : 0;
    return r;
  }

  T GetValue(const std::uint32_t index, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    check_index("LocalTensor::GetValue", index, file, line);
    if (loc_.hw == Hardware::UB) npukb::kern::scalar_ub_access(loc_.addr + index * sizeof(T), false);
    T v;
    std::memcpy(&v, ptr() + index, sizeof(T));
    return v;
  }

  template <typename T1>
  void SetValue(const std::uint32_t index, const T1 value, const char* file = __builtin_FILE(),
                int line = __builtin_LINE()) const {
    check_index("LocalTensor::SetValue", index, file, line);
    if (loc_.hw == Hardware::UB) npukb::kern::scalar_ub_access(loc_.addr + index * sizeof(T), true);
    const T v = static_cast<T>(value);
    std::memcpy(ptr() + index, &v, sizeof(T));
  }

  // The element is then read or written by the kernel's own code: a raw access, costed where it
  // happens (raw_access.h), so the reference itself costs nothing.
  T& operator()(const std::uint32_t index) const {
    check_index("LocalTensor::operator()", index, "<kernel>", 0);
    return ptr()[index];
  }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> r;
    r.loc_ = loc_;
    r.size_ = static_cast<std::uint32_t>(static_cast<std::uint64_t>(size_) * sizeof(T) / sizeof(U));
    return r;
  }

  std::uint32_t GetSize() const { return size_; }
  void SetSize(const std::uint32_t size) { size_ = size; }
  std::uint32_t GetLength() const { return size_ * static_cast<std::uint32_t>(sizeof(T)); }
  std::uint64_t GetPhyAddr() const { return reinterpret_cast<std::uint64_t>(ptr()); }
  std::uint64_t GetPhyAddr(const std::uint32_t offset) const { return reinterpret_cast<std::uint64_t>(ptr() + offset); }
  TPosition GetPosition() const { return loc_.pos; }
  void SetUserTag(std::int32_t tag) { tag_ = tag; }
  std::int32_t GetUserTag() const { return tag_; }
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }
  template <typename T1>
  void SetAddrWithOffset(LocalTensor<T1>& src, std::uint32_t offset) {
    loc_ = src.loc_;
    loc_.addr += offset * static_cast<std::uint32_t>(sizeof(T1));
  }

  // ---- simulator internals (not part of the AscendC API) ----
  T* ptr() const { return reinterpret_cast<T*>(loc_.base + loc_.addr); }
  const sim::LocalLoc& loc() const { return loc_; }
  static LocalTensor make(const sim::LocalLoc& loc, std::uint32_t elems) {
    LocalTensor r;
    r.loc_ = loc;
    r.size_ = elems;
    return r;
  }

 private:
  template <typename U> friend class LocalTensor;
  void check_index(const char* api, std::uint32_t index, const char* file, int line) const {
    if (loc_.base == nullptr) npukb::violation(api, "the LocalTensor was never allocated (AllocTensor/Get missing)", file, line);
    if (index >= size_) {
      const std::string what = "index " + npukb::kern::num(index) + " is outside the LocalTensor of " +
                               npukb::kern::num(size_) + " elements";
      const std::uint64_t end = static_cast<std::uint64_t>(loc_.addr) + (static_cast<std::uint64_t>(index) + 1) * sizeof(T);
      if (loc_.hw != Hardware::UB || end > loc_.region_bytes) npukb::violation(api, what, file, line);
      // inside UB: the device reads or writes those bytes (whatever buffer they belong to)
      npukb::warning(api, what + " (inside UB: the device accesses the bytes there)", file, line);
    }
  }
  sim::LocalLoc loc_{};
  std::uint32_t size_ = 0;
  std::int32_t tag_ = 0;
  ShapeInfo shape_info_{};
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, std::uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
    home_ = npukb::gm_home(buffer);
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    addr_ = buffer;
    size_ = 0;
    home_ = npukb::gm_home(buffer);
  }
  __gm__ T* GetPhyAddr() const { return addr_; }
  __gm__ T* GetPhyAddr(const std::uint64_t offset) const { return addr_ + offset; }
  std::uint64_t GetSize() const { return size_; }
  void SetL2CacheHint(CacheMode) {}
  template <CacheMode mode>
  void SetL2CacheHint() {}

  GlobalTensor operator[](const std::uint64_t offset) const {
    GlobalTensor r(*this);
    r.addr_ = addr_ + offset;
    r.size_ = offset <= size_ ? size_ - offset : 0;
    return r;
  }

  T GetValue(const std::uint64_t offset, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    check_access(addr_ + offset, sizeof(T), false, "GlobalTensor::GetValue", file, line);
    npukb::kern::scalar_gm_access(sizeof(T), false);
    T v;
    std::memcpy(&v, addr_ + offset, sizeof(T));
    return v;
  }

  template <typename T1>
  void SetValue(const std::uint64_t offset, const T1 value, const char* file = __builtin_FILE(),
                int line = __builtin_LINE()) const {
    check_access(addr_ + offset, sizeof(T), true, "GlobalTensor::SetValue", file, line);
    npukb::kern::scalar_gm_access(sizeof(T), true);
    const T v = static_cast<T>(value);
    std::memcpy(addr_ + offset, &v, sizeof(T));
  }

  T& operator()(const std::uint64_t offset) const {   // costed where the kernel uses it (raw access)
    check_access(addr_ + offset, sizeof(T), true, "GlobalTensor::operator()", "<kernel>", 0);
    return addr_[offset];
  }

  // ---- simulator internals (not part of the AscendC API) ----
  // An access through this tensor must stay inside the GM tensor its buffer was bound to.
  void check_access(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) const {
    npukb::check_gm_home(home_, addr, bytes, write, api, file, line);
  }

 private:
  __gm__ T* addr_ = nullptr;
  std::uint64_t size_ = 0;
  const void* home_ = nullptr;  // start of the GM tensor SetGlobalBuffer's buffer lies in (npukb::gm_home)
};

}  // namespace AscendC
