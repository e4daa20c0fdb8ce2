// npukb_sim/kernel/tensor.h -- LocalTensor / GlobalTensor, and the tensors of a TensorTrait (the tensors
// without ShapeInfo, LocalTensor<TensorTrait<T, pos, LayoutType>> and GlobalTensor<...>): a partial
// specialisation derived from the tensor of the LiteType T, so that an API taking `const LocalTensor<T>&`
// (`GlobalTensor<T>`) deduces T as the LiteType. Such a tensor's PrimType, GetValue, SetValue and
// operator() are in the LiteType; operator[] gives a tensor of the TensorTrait again; SetShapeInfo and
// GetShapeInfo do not exist on it (deleted: calling them does not compile). As the TensorTrait page says,
// a tensor of a TensorTrait and one of a basic type are not copy-constructed or assigned from each other
// (deleted constructors and assignments, both ways). LocalTensor<TensorTrait<...>>(addr) is the
// static-tensor constructor of the TensorTrait: its position is the trait's pos, its element count the
// size of the trait's (static) Shape. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "npukb_sim/kernel/positions.h"
#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/tensor_layout.h"
#include "npukb_sim/kernel/types.h"
#include "npukb_sim/kernel/vec_traits.h"

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

// One element as the debug printers show it: floating types with %f, integers in decimal.
template <typename T>
inline std::string value_text(const T& v) {
  char buf[64];
  int n;
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    n = __builtin_snprintf(buf, sizeof buf, "%f", static_cast<double>(static_cast<float>(v)));
  } else if constexpr (std::is_signed_v<T>) {
    n = __builtin_snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else {
    n = __builtin_snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  }
  return std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
}

// The element type a tensor of T holds: T itself, or the LiteType of a TensorTrait (the queues and
// allocators size the tensors they hand out with it).
template <typename T>
struct lite_of { using type = T; };
template <typename T, TPosition pos, typename LayoutType>
struct lite_of<TensorTrait<T, pos, LayoutType>> { using type = T; };
template <typename T>
using lite_t = typename lite_of<T>::type;
// PrimT<TensorTrait<T, ...>> is the LiteType T (PrimT: vec_traits.h)
template <typename T, TPosition pos, typename LayoutType>
struct prim_of<TensorTrait<T, pos, LayoutType>, void> { using type = T; };

// The element count of a TensorTrait's Shape, known from its type (Std::Int leaves): the size of the
// tensor LocalTensor<TensorTrait>(addr) and LocalMemAllocator::Alloc<TensorTrait>() give.
template <typename Trait>
constexpr std::uint32_t trait_shape_size() {
  using ShapeType = std::decay_t<decltype(std::declval<const typename Trait::LiteLayoutType&>().GetShape())>;
  static_assert(Std::tuple_size<ShapeType>::value > 0,
                "the TensorTrait's Shape gives the element count: it needs a Shape of at least one mode");
  using SizeType = decltype(lay::size(std::declval<const ShapeType&>()));
  static_assert(lay::is_static<SizeType>::value,
                "the TensorTrait's Shape gives the element count: its elements must be Std::Int (compile-time) values");
  return static_cast<std::uint32_t>(SizeType::value);
}
}  // namespace sim

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  // not from (or to) a tensor of a TensorTrait: the TensorTrait page rules it out
  template <typename P, TPosition p, typename L>
  LocalTensor(const LocalTensor<TensorTrait<P, p, L>>&) = delete;
  template <typename P, TPosition p, typename L>
  LocalTensor& operator=(const LocalTensor<TensorTrait<P, p, L>>&) = delete;
  // Static-tensor programming: a tensor of tileSize elements at byte address addr of pos's hardware
  // buffer (32-byte aligned; it must fit in that buffer).
  LocalTensor(TPosition pos, std::uint32_t addr, std::uint32_t tileSize) {
    NPUKB_CALLER;
    const Hardware hw = sim::hardware_of(pos);
    if (hw == Hardware::GM) npukb::violation("LocalTensor", "a LocalTensor cannot live in GM", file, line);
    sim::hw_region(hw, loc_.base, loc_.region_bytes);
    if (addr % 32 != 0) {
      npukb::violation("LocalTensor", "start address " + npukb::kern::num(addr) + " is not 32-byte aligned", file, line);
    }
    const std::uint64_t end = static_cast<std::uint64_t>(addr) + static_cast<std::uint64_t>(tileSize) * sizeof(T);
    if (end > loc_.region_bytes) {
      npukb::violation("LocalTensor", "address " + npukb::kern::num(addr) + " + " +
                       npukb::kern::num(static_cast<long long>(end - addr)) + " bytes exceeds the " +
                       npukb::kern::num(loc_.region_bytes) + "-byte buffer", file, line);
    }
    loc_.addr = addr;
    loc_.hw = hw;
    loc_.pos = pos;
    size_ = tileSize;
  }

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

  T GetValue(const std::uint32_t index) const { NPUKB_CALLER;
    check_index("LocalTensor::GetValue", index, file, line);
    if (loc_.hw == Hardware::UB) npukb::kern::scalar_ub_access(loc_.addr + index * sizeof(T), false);
    T v;
    std::memcpy(&v, ptr() + index, sizeof(T));
    return v;
  }

  template <typename T1>
  void SetValue(const std::uint32_t index, const T1 value) const { NPUKB_CALLER;
    check_index("LocalTensor::SetValue", index, file, line);
    if (loc_.hw == Hardware::UB) npukb::kern::scalar_ub_access(loc_.addr + index * sizeof(T), true);
    const T v = static_cast<T>(value);
    std::memcpy(ptr() + index, &v, sizeof(T));
  }

  // The element is then read or written by the kernel's own code: a raw access, costed where it
  // happens (raw_access.h), so the reference itself costs nothing.
  T& operator()(const std::uint32_t index) const {
    check_index("LocalTensor::operator()", index, nullptr, 0);
    return ptr()[index];
  }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> r;
    r.loc_ = loc_;
    r.size_ = static_cast<std::uint32_t>(static_cast<std::uint64_t>(size_) * sizeof(T) / sizeof(sim::lite_t<U>));
    return r;
  }

  std::uint32_t GetSize() const { return size_; }
  void SetSize(const std::uint32_t size) { size_ = size; }
  std::uint32_t GetLength() const { return size_ * static_cast<std::uint32_t>(sizeof(T)); }
  std::uint64_t GetPhyAddr() const { return reinterpret_cast<std::uint64_t>(ptr()); }
  std::uint64_t GetPhyAddr(const std::uint32_t offset) const { return reinterpret_cast<std::uint64_t>(ptr() + offset); }
  std::int32_t GetPosition() const { return static_cast<std::int32_t>(loc_.pos); }
  void SetUserTag(const TTagType tag) { tag_ = tag; }
  TTagType GetUserTag() const { return tag_; }
  // The length in elements of the buffer the tensor is a view of (a hint for the device compiler): the
  // tensor's element count here.
  void SetBufferLen(std::uint32_t dataLen) { size_ = dataLen; }
  // CPU-debug helpers: Print writes the elements to the log, one 32-byte DataBlock per line; ToFile
  // writes no file here (a kernel run has no file system) and returns non-zero (failure).
  void Print() { Print(size_); }
  // Each line: the index of its first element (4 digits) and one 32-byte DataBlock of values.
  void Print(std::uint32_t len) {
    std::string text;
    const std::uint32_t per_line = 32 / sizeof(T) > 0 ? static_cast<std::uint32_t>(32 / sizeof(T)) : 1u;
    for (std::uint32_t i = 0; i < len; ++i) {
      T v;
      __builtin_memcpy(&v, ptr() + i, sizeof(T));
      if (i % per_line == 0) {
        char head[16];
        __builtin_snprintf(head, sizeof head, "%04u:", i);
        text += head;
      }
      text += " " + sim::value_text(v);
      if ((i + 1) % per_line == 0 || i + 1 == len) text += "\n";
    }
    npukb::kern::state();
    npukb::kernel_log(text);
  }
  std::int32_t ToFile(const std::string& fileName) const {
    (void)fileName;
    return 1;
  }
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }
  // offset counts elements of src (T1); the tensor covers the rest of src's bytes after it.
  template <typename T1>
  void SetAddrWithOffset(LocalTensor<T1>& src, std::uint32_t offset) {
    loc_ = src.loc_;
    loc_.addr += offset * static_cast<std::uint32_t>(sizeof(T1));
    const std::uint64_t left = offset <= src.size_ ? static_cast<std::uint64_t>(src.size_ - offset) * sizeof(T1) : 0;
    size_ = static_cast<std::uint32_t>(left / sizeof(T));
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
  TTagType tag_ = 0;
  ShapeInfo shape_info_{};
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;
  // not from (or to) a tensor of a TensorTrait: the TensorTrait page rules it out
  template <typename P, TPosition p, typename L>
  GlobalTensor(const GlobalTensor<TensorTrait<P, p, L>>&) = delete;
  template <typename P, TPosition p, typename L>
  GlobalTensor& operator=(const GlobalTensor<TensorTrait<P, p, L>>&) = delete;

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
  // The L2 cache is not modelled: the hint is recorded and has no effect on the run or its estimate.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode) { cache_mode_ = mode; }
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }
  template <typename CAST_T>
  GlobalTensor<CAST_T> ReinterpretCast() const {
    GlobalTensor<CAST_T> r;
    r.addr_ = reinterpret_cast<__gm__ sim::lite_t<CAST_T>*>(addr_);
    r.size_ = size_ * sizeof(T) / sizeof(sim::lite_t<CAST_T>);
    r.home_ = home_;
    r.cache_mode_ = cache_mode_;
    r.shape_info_ = shape_info_;
    return r;
  }

  GlobalTensor operator[](const std::uint64_t offset) const {
    GlobalTensor r(*this);
    r.addr_ = addr_ + offset;
    r.size_ = offset <= size_ ? size_ - offset : 0;
    return r;
  }

  T GetValue(const std::uint64_t offset) const { NPUKB_CALLER;
    check_access(addr_ + offset, sizeof(T), false, "GlobalTensor::GetValue", file, line);
    npukb::kern::scalar_gm_access(sizeof(T), false);
    T v;
    std::memcpy(&v, addr_ + offset, sizeof(T));
    return v;
  }

  void SetValue(const std::uint64_t offset, PrimType value) const { NPUKB_CALLER;
    check_access(addr_ + offset, sizeof(T), true, "GlobalTensor::SetValue", file, line);
    npukb::kern::scalar_gm_access(sizeof(T), true);
    const T v = value;
    std::memcpy(addr_ + offset, &v, sizeof(T));
  }

  T& operator()(const std::uint64_t offset) const {   // costed where the kernel uses it (raw access)
    check_access(addr_ + offset, sizeof(T), true, "GlobalTensor::operator()", nullptr, 0);
    return addr_[offset];
  }

  // ---- simulator internals (not part of the AscendC API) ----
  // An access through this tensor must stay inside the GM tensor its buffer was bound to.
  void check_access(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) const {
    npukb::check_gm_home(home_, addr, bytes, write, api, file, line);
  }

 private:
  template <typename U> friend class GlobalTensor;
  __gm__ T* addr_ = nullptr;
  std::uint64_t size_ = 0;
  const void* home_ = nullptr;  // start of the GM tensor SetGlobalBuffer's buffer lies in (npukb::gm_home)
  CacheMode cache_mode_ = CacheMode::CACHE_MODE_NORMAL;
  ShapeInfo shape_info_{};
};

// ---- the tensors of a TensorTrait (without ShapeInfo) ------------------------------------------------
template <typename T, TPosition pos, typename LayoutType>
class LocalTensor<TensorTrait<T, pos, LayoutType>> : public LocalTensor<T> {
  using Base = LocalTensor<T>;
  using Trait = TensorTrait<T, pos, LayoutType>;

 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(const LocalTensor& other) : Base(static_cast<const Base&>(other)) {}
  LocalTensor& operator=(const LocalTensor& other) {
    Base::operator=(static_cast<const Base&>(other));
    return *this;
  }
  // not from (or to) a tensor of a basic type: the TensorTrait page rules it out
  LocalTensor(const Base&) = delete;
  LocalTensor& operator=(const Base&) = delete;
  // Static-tensor programming: the tensor of the TensorTrait at byte address addr (32-byte aligned) of
  // the trait's position, with the size of the trait's Shape in elements.
  LocalTensor(std::uint32_t addr) : Base(pos, addr, sim::trait_shape_size<Trait>()) {
    static_assert(pos != TPosition::GM, "LocalTensor(addr): the TensorTrait's position must be a local one, not GM");
  }
  template <typename E, typename = typename E::npukb_tensor_expr>
  LocalTensor& operator=(const E& expr) {
    expr.assign_to(*this);
    return *this;
  }

  LocalTensor operator[](const std::uint32_t offset) const { return make(Base::operator[](offset)); }

  // no ShapeInfo on a tensor of a TensorTrait
  void SetShapeInfo(const ShapeInfo& shapeInfo) = delete;
  ShapeInfo GetShapeInfo() const = delete;

  // ---- simulator internals (not part of the AscendC API) ----
  static LocalTensor make(const sim::LocalLoc& loc, std::uint32_t elems) { return make(Base::make(loc, elems)); }

 private:
  static LocalTensor make(const Base& b) {
    LocalTensor r;
    static_cast<Base&>(r) = b;
    return r;
  }
};

template <typename T, TPosition pos, typename LayoutType>
class GlobalTensor<TensorTrait<T, pos, LayoutType>> : public GlobalTensor<T> {
  using Base = GlobalTensor<T>;

 public:
  using PrimType = T;
  GlobalTensor() = default;
  GlobalTensor(const GlobalTensor& other) : Base(static_cast<const Base&>(other)) {}
  GlobalTensor& operator=(const GlobalTensor& other) {
    Base::operator=(static_cast<const Base&>(other));
    return *this;
  }
  // not from (or to) a tensor of a basic type: the TensorTrait page rules it out
  GlobalTensor(const Base&) = delete;
  GlobalTensor& operator=(const Base&) = delete;

  GlobalTensor operator[](const std::uint64_t offset) const {
    GlobalTensor r;
    static_cast<Base&>(r) = Base::operator[](offset);
    return r;
  }

  // no ShapeInfo on a tensor of a TensorTrait
  void SetShapeInfo(const ShapeInfo& shapeInfo) = delete;
  ShapeInfo GetShapeInfo() const = delete;
};

namespace sim {
// An API template whose tensors are of a TensorTrait (T deduced as the TensorTrait) runs the form of
// the LiteType: `if constexpr (sim::has_trait<T, ...>)` then the same call on sim::lite(tensor), the
// tensor seen as the tensor of its LiteType. The operand types named must be all of a TensorTrait or
// none (the TensorTrait page: one call does not take both kinds).
template <typename... Ts>
constexpr bool trait_operands() {
  constexpr bool any = (is_tensorTrait<Ts>::value || ...);
  static_assert(!any || (is_tensorTrait<Ts>::value && ...),
                "a call takes tensors of a TensorTrait or tensors of basic types, not both (TensorTrait page)");
  return any;
}
template <typename... Ts>
constexpr bool has_trait = trait_operands<Ts...>();
template <typename T>
constexpr bool dependent_false = false;
template <typename T>
inline const LocalTensor<lite_t<T>>& lite(const LocalTensor<T>& t) { return t; }
template <typename T>
inline const GlobalTensor<lite_t<T>>& lite(const GlobalTensor<T>& t) { return t; }
}  // namespace sim

}  // namespace AscendC
