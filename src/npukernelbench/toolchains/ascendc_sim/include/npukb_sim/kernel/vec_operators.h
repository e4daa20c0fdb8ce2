// npukb_sim/kernel/vec_operators.h -- the whole-tensor operator forms of the vector API:
// `dst = src0 + src1` (Add), `-` (Sub), `*` (Mul), `/` (Div), `&` (And), `|` (Or), and the comparisons
// `dst = src0 < src1` (Compare LT; likewise >, <=, >=, ==, !=). The operator builds an expression
// object; LocalTensor's assignment from it (tensor.h) runs the instruction into dst. As documented,
// an arithmetic or logic expression computes dst.GetSize() elements (the destination's whole length);
// a comparison writes one bit per element of src0 (src0.GetSize() elements, whose bytes must be a
// whole number of 256-byte repeats). Types and checks are those of the named API. Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/compare_select.h"
#include "npukb_sim/kernel/vec_binary.h"

namespace AscendC {
namespace sim {

enum class TensorOp { Add, Sub, Mul, Div, And, Or };

// An arithmetic or logic expression of two LocalTensors of T.
template <typename T, TensorOp op>
struct TensorBinaryExpr {
  using npukb_tensor_expr = void;
  LocalTensor<T> a, b;
  template <typename D>
  void assign_to(const LocalTensor<D>& dst) const {
    static_assert(std::is_same_v<D, T>, "LocalTensor operator: the destination's element type must be the operands'");
    const std::int32_t n = static_cast<std::int32_t>(dst.GetSize());
    if constexpr (op == TensorOp::Add) Add<T>(dst, a, b, n);
    else if constexpr (op == TensorOp::Sub) Sub<T>(dst, a, b, n);
    else if constexpr (op == TensorOp::Mul) Mul<T>(dst, a, b, n);
    else if constexpr (op == TensorOp::Div) Div<T>(dst, a, b, n);
    else if constexpr (op == TensorOp::And) And<T>(dst, a, b, n);
    else Or<T>(dst, a, b, n);
  }
};

// A comparison of two LocalTensors of T into a bit-mask LocalTensor.
template <typename T, CMPMODE mode>
struct TensorCompareExpr {
  using npukb_tensor_expr = void;
  LocalTensor<T> a, b;
  template <typename U>
  void assign_to(const LocalTensor<U>& dst) const {
    Compare<T, U>(dst, a, b, mode, a.GetSize());
  }
};
}  // namespace sim

#define NPUKB_TENSOR_BINOP(SYM, OP)                                                                  \
  template <typename T>                                                                             \
  inline sim::TensorBinaryExpr<T, sim::TensorOp::OP> operator SYM(const LocalTensor<T>& src0,        \
                                                                 const LocalTensor<T>& src1) {      \
    return sim::TensorBinaryExpr<T, sim::TensorOp::OP>{src0, src1};                                 \
  }
NPUKB_TENSOR_BINOP(+, Add)
NPUKB_TENSOR_BINOP(-, Sub)
NPUKB_TENSOR_BINOP(*, Mul)
NPUKB_TENSOR_BINOP(/, Div)
NPUKB_TENSOR_BINOP(&, And)
NPUKB_TENSOR_BINOP(|, Or)
#undef NPUKB_TENSOR_BINOP

#define NPUKB_TENSOR_CMPOP(SYM, MODE)                                                                \
  template <typename T>                                                                             \
  inline sim::TensorCompareExpr<T, CMPMODE::MODE> operator SYM(const LocalTensor<T>& src0,           \
                                                              const LocalTensor<T>& src1) {         \
    return sim::TensorCompareExpr<T, CMPMODE::MODE>{src0, src1};                                    \
  }
NPUKB_TENSOR_CMPOP(<, LT)
NPUKB_TENSOR_CMPOP(>, GT)
NPUKB_TENSOR_CMPOP(<=, LE)
NPUKB_TENSOR_CMPOP(>=, GE)
NPUKB_TENSOR_CMPOP(==, EQ)
NPUKB_TENSOR_CMPOP(!=, NE)
#undef NPUKB_TENSOR_CMPOP

}  // namespace AscendC
