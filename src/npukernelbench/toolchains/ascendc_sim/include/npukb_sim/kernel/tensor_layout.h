// npukb_sim/kernel/tensor_layout.h -- the auxiliary data structures Coordinate, Layout and TensorTrait
// (基础API/辅助数据结构), written from their pages:
//  - Coord<...>, Shape<...>, Stride<...>: aliases of Std::tuple; MakeCoord / MakeShape / MakeStride pack
//    their arguments into one (elements: integers or Std::Int, nested tuples for hierarchical modes);
//  - Layout<ShapeType, StrideType>: privately a Std::tuple<ShapeType, StrideType>, with layout(),
//    GetShape(), GetStride() and operator()(coord) (= Crd2Idx(coord, *this)); MakeLayout; is_layout;
//  - Crd2Idx(coord, layout) / Crd2Idx(coord, shape, stride): the index of a coordinate, the sum over the
//    modes of coordinate * stride. A tuple coordinate must have the rank of the shape and the stride
//    there (a compile error otherwise); an integer coordinate against a tuple shape is delinearised
//    column-major first: c_i = c % size(shape_i), c /= size(shape_i), the last mode taking the rest
//    (the page's ((2, 4), (3, 5)) : ((3, 6), (1, 24)) at (11, 12) is 129). The leaves take integers or
//    Std::Int (integral_constant) values; where every leaf involved is an integral_constant the result
//    is one too (decltype(index)::value is the index, computed at compile time), otherwise a run-time
//    integer. A Layout whose shape and stride ranks differ (TransData's MakeStride()) can be built and
//    read; only Crd2Idx on it fails to compile.
//  - TensorTrait<T, pos = TPosition::GM, LayoutType = Layout<Shape<>, Stride<>>>: LiteType,
//    LiteLayoutType, tPos, the constructor from a layout, GetLayout / SetLayout (and the GetShape /
//    GetStride of the layout, as the constructor page's example reads them); MakeTensorTrait;
//    is_tensorTrait.
// LocalTensor / GlobalTensor of a TensorTrait (the tensors without ShapeInfo) are in tensor.h. Clean-room
// part of ascendc-sim.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "npukb_sim/kernel/std_library.h"
#include "npukb_sim/kernel/types.h"

namespace AscendC {

// ---- Coord, Shape, Stride ------------------------------------------------------------------------
template <typename... Coords>
using Coord = Std::tuple<Coords...>;
template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;

template <typename... Ts>
inline constexpr Coord<Ts...> MakeCoord(Ts const&... t) {
  return Coord<Ts...>(t...);
}
template <typename... Ts>
inline constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <typename... Ts>
inline constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}

template <typename ShapeType, typename StrideType>
struct Layout;

// ---- Crd2Idx ------------------------------------------------------------------------------------
namespace sim {
namespace lay {

template <typename T>
struct is_tuple : std::false_type {};
template <typename... Ts>
struct is_tuple<Std::tuple<Ts...>> : std::true_type {};

template <typename T>
struct is_static : std::false_type {};
template <typename V, V v>
struct is_static<Std::integral_constant<V, v>> : std::true_type {};

template <typename T, typename... Us>
inline constexpr bool trait_type = (std::is_same<T, Us>::value || ...);

template <typename T>
inline constexpr bool is_leaf = std::is_integral<T>::value || is_static<T>::value;

template <std::size_t N, typename... Ts>
inline constexpr const auto& at(const Std::tuple<Ts...>& t) {
  return Std::sim_detail::tuple_access::at<N>(t);
}

// a leaf's run-time value
template <typename T>
inline constexpr auto val(const T& x) {
  if constexpr (is_static<T>::value) {
    return T::value;
  } else {
    return x;
  }
}

template <typename A, typename B>
inline constexpr auto add(const A& a, const B& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    return Std::integral_constant<decltype(A::value + B::value), A::value + B::value>{};
  } else {
    return val(a) + val(b);
  }
}
template <typename A, typename B>
inline constexpr auto mul(const A& a, const B& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    return Std::integral_constant<decltype(A::value * B::value), A::value * B::value>{};
  } else {
    return val(a) * val(b);
  }
}
template <typename A, typename B>
inline constexpr auto div(const A& a, const B& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    static_assert(B::value != 0, "AscendC::Crd2Idx: a mode of the shape other than the last has size 0");
    return Std::integral_constant<decltype(A::value / B::value), A::value / B::value>{};
  } else {
    return val(a) / val(b);
  }
}
template <typename A, typename B>
inline constexpr auto mod(const A& a, const B& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    static_assert(B::value != 0, "AscendC::Crd2Idx: a mode of the shape other than the last has size 0");
    return Std::integral_constant<decltype(A::value % B::value), A::value % B::value>{};
  } else {
    return val(a) % val(b);
  }
}

// the number of elements of a shape (the product of its leaves)
template <typename S>
inline constexpr auto size(const S& s);
template <std::size_t I, typename... Ts>
inline constexpr auto size_from(const Std::tuple<Ts...>& s) {
  if constexpr (sizeof...(Ts) == 0) {
    return Std::Int<1>{};
  } else if constexpr (I + 1 == sizeof...(Ts)) {
    return size(at<I>(s));
  } else {
    return mul(size(at<I>(s)), size_from<I + 1>(s));
  }
}
template <typename S>
inline constexpr auto size(const S& s) {
  if constexpr (is_tuple<S>::value) {
    return size_from<0>(s);
  } else {
    static_assert(is_leaf<S>, "AscendC::Crd2Idx: shape elements must be integers (size_t) or Std::Int");
    return s;
  }
}

template <typename C, typename S, typename D>
inline constexpr auto crd2idx(const C& c, const S& s, const D& d);

// a tuple coordinate: the sum over the modes
template <std::size_t I, typename C, typename S, typename D>
inline constexpr auto sum_modes(const C& c, const S& s, const D& d) {
  if constexpr (Std::tuple_size<C>::value == 0) {
    return Std::Int<0>{};
  } else if constexpr (I + 1 == Std::tuple_size<C>::value) {
    return crd2idx(at<I>(c), at<I>(s), at<I>(d));
  } else {
    return add(crd2idx(at<I>(c), at<I>(s), at<I>(d)), sum_modes<I + 1>(c, s, d));
  }
}
// an integer coordinate against a tuple shape: delinearised column-major, the last mode takes the rest
template <std::size_t I, typename C, typename S, typename D>
inline constexpr auto delinearize(const C& c, const S& s, const D& d) {
  constexpr std::size_t n = Std::tuple_size<S>::value;
  if constexpr (n == 0) {
    return Std::Int<0>{};
  } else if constexpr (I + 1 == n) {
    return crd2idx(c, at<I>(s), at<I>(d));
  } else {
    const auto m = size(at<I>(s));
    return add(crd2idx(mod(c, m), at<I>(s), at<I>(d)), delinearize<I + 1>(div(c, m), s, d));
  }
}

template <typename C, typename S, typename D>
inline constexpr auto crd2idx(const C& c, const S& s, const D& d) {
  if constexpr (is_tuple<C>::value) {
    static_assert(is_tuple<S>::value && is_tuple<D>::value,
                  "AscendC::Crd2Idx: a tuple coordinate needs a tuple shape and stride there");
    static_assert(Std::tuple_size<C>::value == Std::tuple_size<S>::value &&
                      Std::tuple_size<S>::value == Std::tuple_size<D>::value,
                  "AscendC::Crd2Idx: the coordinate, the shape and the stride must have the same rank");
    return sum_modes<0>(c, s, d);
  } else {
    static_assert(is_leaf<C>, "AscendC::Crd2Idx: coordinate elements must be integers (size_t) or Std::Int");
    if constexpr (is_tuple<S>::value) {
      static_assert(is_tuple<D>::value && Std::tuple_size<S>::value == Std::tuple_size<D>::value,
                    "AscendC::Crd2Idx: the shape and the stride must have the same rank");
      return delinearize<0>(c, s, d);
    } else {
      static_assert(!is_tuple<D>::value, "AscendC::Crd2Idx: an integer mode of the shape needs an integer stride");
      static_assert(is_leaf<S> && is_leaf<D>,
                    "AscendC::Crd2Idx: shape and stride elements must be integers (size_t) or Std::Int");
      return mul(c, d);
    }
  }
}

}  // namespace lay
}  // namespace sim

template <typename CoordType, typename ShapeType, typename StrideType>
inline constexpr auto Crd2Idx(const CoordType& coord, const ShapeType& shape, const StrideType& stride) {
  return sim::lay::crd2idx(coord, shape, stride);
}

template <typename CoordType, typename ShapeType, typename StrideType>
inline constexpr auto Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout) {
  return sim::lay::crd2idx(coord, layout.GetShape(), layout.GetStride());
}

// ---- Layout ---------------------------------------------------------------------------------------
template <typename ShapeType, typename StrideType>
struct Layout : private Std::tuple<ShapeType, StrideType> {
  inline constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
      : Std::tuple<ShapeType, StrideType>(shape, stride) {}

  inline constexpr decltype(auto) layout() { return *this; }
  inline constexpr decltype(auto) layout() const { return *this; }

  inline constexpr decltype(auto) GetShape() { return Std::sim_detail::tuple_access::at<0>(base()); }
  inline constexpr decltype(auto) GetShape() const {
    return Std::sim_detail::tuple_access::at<0>(base());
  }
  inline constexpr decltype(auto) GetStride() { return Std::sim_detail::tuple_access::at<1>(base()); }
  inline constexpr decltype(auto) GetStride() const {
    return Std::sim_detail::tuple_access::at<1>(base());
  }

  template <typename CoordType>
  inline constexpr auto operator()(const CoordType& coord) const {
    return Crd2Idx(coord, GetShape(), GetStride());
  }

 private:
  constexpr Std::tuple<ShapeType, StrideType>& base() { return *this; }
  constexpr const Std::tuple<ShapeType, StrideType>& base() const { return *this; }
};

template <typename ShapeType, typename StrideType>
inline constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
  return Layout<ShapeType, StrideType>(shape, stride);
}

template <typename T>
struct is_layout : Std::false_type {};
template <typename ShapeType, typename StrideType>
struct is_layout<Layout<ShapeType, StrideType>> : Std::true_type {};

// ---- TensorTrait ------------------------------------------------------------------------------------
template <typename T, TPosition pos = TPosition::GM, typename LayoutType = Layout<Shape<>, Stride<>>>
struct TensorTrait {
  using LiteType = T;
  using LiteLayoutType = LayoutType;
  static constexpr const TPosition tPos = pos;  // reserved for later use, as the page says

 public:
  inline TensorTrait(const LayoutType& t = {}) : layout_(t) {}
  inline LayoutType& GetLayout() { return layout_; }
  inline const LayoutType& GetLayout() const { return layout_; }
  inline void SetLayout(const LayoutType& t) { layout_ = t; }
  // the layout's shape and stride (the constructor page's example reads them from the trait)
  inline constexpr decltype(auto) GetShape() { return layout_.GetShape(); }
  inline constexpr decltype(auto) GetShape() const { return layout_.GetShape(); }
  inline constexpr decltype(auto) GetStride() { return layout_.GetStride(); }
  inline constexpr decltype(auto) GetStride() const { return layout_.GetStride(); }

 private:
  static_assert(sim::lay::trait_type<T, int4b_t, std::uint8_t, std::int8_t, std::int16_t, std::uint16_t, bfloat16_t,
                              std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, half>,
                "AscendC::TensorTrait: T must be one of int4b_t, uint8_t, int8_t, int16_t, uint16_t, bfloat16_t, "
                "int32_t, uint32_t, int64_t, uint64_t, float, half");
  LayoutType layout_;
};

template <typename T, TPosition pos, typename LayoutType>
inline constexpr auto MakeTensorTrait(const LayoutType& t) {
  return TensorTrait<T, pos, LayoutType>(t);
}

template <typename T>
struct is_tensorTrait : Std::false_type {};
template <typename T, TPosition pos, typename LayoutType>
struct is_tensorTrait<TensorTrait<T, pos, LayoutType>> : Std::true_type {};

}  // namespace AscendC
