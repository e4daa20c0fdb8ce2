// npukb_sim/norm_host_shape.h -- how the normalization host helpers read the ge::Shape they are given:
// [B, S, H] rows (with an optional fourth dim, the original H before 32-byte padding), [A, R] rows,
// [N, C, H, W] groups and [B, S*H] batch columns. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "graph/tensor.h"

namespace npukb_norm {

inline uint32_t Dim(const ge::Shape& s, size_t i) {
  const int64_t d = s.GetDim(i);
  return d < 0 ? 0 : static_cast<uint32_t>(d);
}

inline uint32_t Product(const ge::Shape& s, size_t from, size_t to) {
  uint32_t p = 1;
  for (size_t i = from; i < to && i < s.GetDimNum(); ++i) p *= Dim(s, i);
  return p;
}

struct Bsh {
  uint32_t b = 0, s = 0, h = 0, origin_h = 0;
  uint32_t rows() const { return b * s; }
  bool empty() const { return b == 0 || s == 0 || h == 0; }
};

// {B, S, storageH, originH} (the LayerNorm-family form), {B, S, H}, {S, H} or {H}.
inline Bsh ReadBsh(const ge::Shape& shape) {
  Bsh r;
  const size_t n = shape.GetDimNum();
  if (n >= 4) {
    r.b = Dim(shape, 0);
    r.s = Dim(shape, 1);
    r.h = Dim(shape, 2);
    r.origin_h = Dim(shape, 3);
  } else if (n == 3) {
    r.b = Dim(shape, 0);
    r.s = Dim(shape, 1);
    r.h = r.origin_h = Dim(shape, 2);
  } else if (n == 2) {
    r.b = 1;
    r.s = Dim(shape, 0);
    r.h = r.origin_h = Dim(shape, 1);
  } else if (n == 1) {
    r.b = r.s = 1;
    r.h = r.origin_h = Dim(shape, 0);
  }
  return r;
}

// [A, R]: A = the product of the leading dims, R = the last dim.
inline void ReadRows(const ge::Shape& shape, uint32_t& a, uint32_t& r) {
  const size_t n = shape.GetDimNum();
  a = n == 0 ? 0 : Product(shape, 0, n - 1);
  r = n == 0 ? 0 : Dim(shape, n - 1);
}

}  // namespace npukb_norm
