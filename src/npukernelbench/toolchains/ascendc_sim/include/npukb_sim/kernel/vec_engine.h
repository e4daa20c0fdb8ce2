// npukb_sim/kernel/vec_engine.h -- the vector-unit execution model shared by every vector API:
// 256-byte repeats of 8 x 32-byte blocks, block/repeat strides, the mask register in normal (bit or
// continuous mask per repeat) and counter mode, and the cost of a vector instruction.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/data_copy.h"

namespace AscendC {
namespace sim {

template <typename T, typename... Ts>
constexpr bool one_of = (std::is_same_v<T, Ts> || ...);

// The repeatTimes argument: accepts any integer like the device's uint8_t parameter, but remembers the
// value so that a repeat count above 255 (which the hardware cannot encode) is reported.
struct RepeatArg {
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
  RepeatArg(I v) : value(static_cast<long long>(v)) {}  // NOLINT: implicit on purpose
  long long value;
};

struct Plan {
  std::uint32_t repeats = 0;
  std::uint32_t per_rep = 0;
  bool counter = false;
  std::uint64_t total = 0;   // counter mode: elements in all
  std::uint64_t m0 = 0, m1 = 0;
  bool empty() const { return repeats == 0 || (!counter && m0 == 0 && m1 == 0) || (counter && total == 0); }
  bool bit(std::uint32_t k) const { return k < 64 ? ((m0 >> k) & 1u) : ((m1 >> (k - 64)) & 1u); }
  std::uint32_t count_in(std::uint32_t r) const {  // counter mode: elements in repeat r
    const std::uint64_t left = total - static_cast<std::uint64_t>(r) * per_rep;
    return static_cast<std::uint32_t>(left < per_rep ? left : per_rep);
  }
  template <typename F>
  void each(F&& f) const {
    if (counter) {
      for (std::uint32_t r = 0; r < repeats; ++r) {
        const std::uint32_t n = count_in(r);
        for (std::uint32_t k = 0; k < n; ++k) f(r, k);
      }
    } else {
      for (std::uint32_t r = 0; r < repeats; ++r)
        for (std::uint32_t k = 0; k < per_rep; ++k)
          if (bit(k)) f(r, k);
    }
  }
  // Highest element index k used in any repeat (for extents).
  std::uint32_t kmax() const {
    if (counter) return (repeats > 1 ? per_rep : count_in(0)) - 1;
    if (m1 != 0 && per_rep > 64) return 127 - static_cast<std::uint32_t>(__builtin_clzll(m1));
    return 63 - static_cast<std::uint32_t>(__builtin_clzll(m0));
  }
};

inline std::uint64_t mask_low_bits(std::uint64_t n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

inline void check_repeat(const char* api, long long repeat, const char* file, int line) {
  if (repeat < 0 || repeat > 255) {
    npukb::violation(api, "repeatTimes " + npukb::kern::num(repeat) + " is outside [0, 255] (the hardware encodes 8 bits)", file, line);
  }
}

// Build the plan of a mask/repeat-form instruction. `bits` non-null selects the bit-mask form.
inline Plan make_plan(const char* api, bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                      std::uint32_t per_rep, const char* file, int line) {
  npukb::kern::KState& s = npukb::kern::state();
  Plan p;
  p.per_rep = per_rep;
  p.counter = s.counter_mode;
  if (p.counter) {
    std::uint64_t total = isSetMask ? (bits ? bits[0] : cont) : s.mask[0];
    if (isSetMask) { s.mask[0] = total; s.mask[1] = 0; }
    p.total = total;
    p.repeats = static_cast<std::uint32_t>((total + per_rep - 1) / per_rep);
    return p;
  }
  check_repeat(api, repeat, file, line);
  p.repeats = static_cast<std::uint32_t>(repeat);
  if (isSetMask) {
    if (bits) {
      p.m0 = bits[0];
      p.m1 = bits[1];
    } else {
      // Continuous mode: a mask beyond the repeat's element count acts as the maximum (one whole repeat);
      // a "negative" mask (a huge unsigned value) is undefined on the device.
      if (static_cast<std::int64_t>(cont) < 0) {
        npukb::violation(api, "mask " + npukb::kern::num(static_cast<long long>(cont)) +
                         " is negative (undefined on the device)", file, line);
      }
      if (cont > per_rep) cont = per_rep;
      p.m0 = mask_low_bits(cont);
      p.m1 = cont > 64 ? mask_low_bits(cont - 64) : 0;
    }
    s.mask[0] = p.m0;
    s.mask[1] = p.m1;
  } else {
    p.m0 = s.mask[0];
    p.m1 = s.mask[1];
  }
  if (per_rep <= 64) {
    p.m1 = 0;
    if (per_rep < 64) p.m0 &= mask_low_bits(per_rep);
  }
  return p;
}

// Plan of n elements in counter mode, the mask register and mode left alone.
inline Plan counter_plan(std::uint64_t n, std::uint32_t per_rep) {
  Plan p;
  p.per_rep = per_rep;
  p.counter = true;
  p.total = n;
  p.repeats = static_cast<std::uint32_t>((n + per_rep - 1) / per_rep);
  return p;
}

// Plan of a count-form API (internally counter mode; leaves the mask register reset and normal mode).
inline Plan count_plan(std::uint64_t count, std::uint32_t per_rep) {
  Plan p;
  p.per_rep = per_rep;
  p.counter = true;
  p.total = count;
  p.repeats = static_cast<std::uint32_t>((count + per_rep - 1) / per_rep);
  npukb::kern::KState& s = npukb::kern::state();
  s.counter_mode = false;
  s.mask[0] = s.mask[1] = ~0ull;
  return p;
}

// Element count of a count-form API. isSetMask = true: `count` (the API sets counter mode itself and
// leaves normal mode with a reset mask). isSetMask = false: the mask register set by SetVectorMask in
// counter mode (SetMaskCount) gives the count and `count` is ignored, as documented; a count form with
// an externally set mask in normal mode has no documented meaning and is reported.
inline std::uint64_t count_form_total(const char* api, bool isSetMask, long long count, const char* file, int line) {
  if (isSetMask) {
    if (count < 0) npukb::violation(api, "count " + npukb::kern::num(count) + " is negative", file, line);
    return static_cast<std::uint64_t>(count);
  }
  npukb::kern::KState& s = npukb::kern::state();
  if (!s.counter_mode) {
    npukb::violation(api, "isSetMask = false on the tensor-first-n form needs counter mode (SetMaskCount, then "
                     "SetVectorMask with the element count)", file, line);
  }
  return s.mask[0];
}
// After a count-form API: isSetMask = true restores normal mode and a full mask (what the API does
// internally); isSetMask = false leaves the mode and mask register to the caller.
inline void count_form_done(bool isSetMask, std::uint32_t per_rep, std::uint64_t total) {
  if (isSetMask) {
    npukb::kern::KState& s = npukb::kern::state();
    s.counter_mode = false;
    s.mask[0] = s.mask[1] = ~0ull;
  }
  (void)per_rep;
  (void)total;
}

// Element offset (in elements of size esz) of element k of repeat r.
inline std::uint64_t elem_off(std::uint32_t r, std::uint32_t k, std::uint32_t esz, std::uint32_t blk, std::uint32_t rep) {
  const std::uint32_t epb = 32u / esz;
  return static_cast<std::uint64_t>(r) * rep * epb + static_cast<std::uint64_t>(k / epb) * blk * epb + (k % epb);
}

// One operand of a strided instruction.
struct Opnd {
  std::uint8_t* p;
  std::uint32_t esz, blk, rep;
  std::uint64_t off(std::uint32_t r, std::uint32_t k) const { return elem_off(r, k, esz, blk, rep) * esz; }
  // Byte extent touched under plan (offset of the last element + its size).
  std::uint64_t extent(const Plan& pl) const {
    if (pl.empty()) return 0;
    const std::uint32_t km = pl.kmax();
    std::uint64_t e = off(pl.repeats - 1, pl.counter ? pl.count_in(pl.repeats - 1) - 1 : km) + esz;
    if (pl.repeats > 1) {
      const std::uint64_t e2 = off(pl.repeats - 2, km) + esz;
      if (e2 > e) e = e2;
    }
    return e;
  }
};

template <typename T>
inline Opnd opnd(const LocalTensor<T>& t, std::uint32_t blk, std::uint32_t rep) {
  return Opnd{reinterpret_cast<std::uint8_t*>(t.ptr()), static_cast<std::uint32_t>(sizeof(T)), blk, rep};
}

template <typename T>
inline T ld(const std::uint8_t* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
template <typename T>
inline void st(std::uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

// Results of one repeat, stored only when the repeat is complete: the vector unit reads every source
// element of a repeat before it writes the repeat's results, so a destination that overlaps a source
// (in place, or shifted through GetWithOffset / operator[]) gives the hardware's result rather than an
// element-by-element corruption.
template <typename T>
class RepeatWriter {
 public:
  // Call before reading any source element of repeat `r`: the previous repeat's results are stored
  // first, so a later repeat reads what an earlier one wrote (accumulating with a zero repeat stride).
  void at(std::uint32_t r) {
    if (r != cur_) flush();
    cur_ = r;
  }
  void put(std::uint32_t r, std::uint8_t* addr, T v) {
    at(r);
    addr_[n_] = addr;
    val_[n_] = v;
    ++n_;
  }
  void flush() {
    for (std::uint32_t i = 0; i < n_; ++i) st<T>(addr_[i], val_[i]);
    n_ = 0;
  }
  ~RepeatWriter() { flush(); }

 private:
  static constexpr std::uint32_t kMax = 256;  // elements of one 256-byte repeat (1-byte elements)
  std::uint32_t cur_ = ~0u;
  std::uint32_t n_ = 0;
  std::uint8_t* addr_[kMax];
  T val_[kMax];
};

// Elementwise count-form loop in the same order: results of each `per_rep`-element repeat are computed
// from the sources before any of them is stored.
template <typename D, typename F>
inline void per_repeat(D* dst, std::uint64_t count, std::uint32_t per_rep, F value_at) {
  D buf[256];
  for (std::uint64_t base = 0; base < count; base += per_rep) {
    const std::uint64_t n = count - base < per_rep ? count - base : per_rep;
    for (std::uint64_t i = 0; i < n; ++i) buf[i] = value_at(base + i);
    std::memcpy(dst + base, buf, n * sizeof(D));
  }
}

// Cost of a vector instruction: fixed start-up + repeats x cycles per repeat.
inline void vec_cost(double cpr, std::uint32_t repeats, const npukb::kern::Span* src, int nsrc, const npukb::kern::Span* dst, int ndst) {
  npukb::kern::schedule(npukb::PIPE_ID_V, npukb::kern::kVecStartCycles + cpr * repeats, src, nsrc, dst, ndst);
}

template <typename T>
inline npukb::kern::Span vspan(const LocalTensor<T>& t, std::uint64_t bytes) { return span_of(t, 0, bytes); }

}  // namespace sim
}  // namespace AscendC
