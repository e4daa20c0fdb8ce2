"""Auxiliary data structures (辅助数据结构) Coordinate, Layout and TensorTrait, each checked against its doc
page: Coord / MakeCoord and Crd2Idx (both forms, the page's examples and a run-time layout against a numpy-side
reference of the page's formula: the sum of coordinate * stride over the modes, an integer coordinate
delinearised column-major first), Layout (constructor, layout(), GetShape / GetStride, operator(), MakeShape /
MakeStride / MakeLayout, is_layout), TensorTrait (its members, MakeTensorTrait, is_tensorTrait) and TransData
taking MakeLayout's layouts as its page shows. What the pages rule out does not compile. Kernels written for
these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


def run_ok(prog, body: str, n: int, *inputs: np.ndarray) -> list[int]:
    """Run `body` (it writes n int32 values to output 0 through `o`, reads int32 input 0 as `P`)."""
    if inputs:
        prog.inputs(*inputs)
    src = ("static void body(void*) {\n  GlobalTensor<int32_t> o;\n"
           f"  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, {n} * 4), {n});\n"
           + ("  const int32_t* P = (const int32_t*)npukb_test::gm_input(0);\n" if inputs else "")
           + body + "\n}" + RUN)
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    return prog.output(0, np.int32).tolist()


# ---- the page's formula, on the Python side ------------------------------------------------------------
def size(s) -> int:
    return int(np.prod([size(x) for x in s])) if isinstance(s, tuple) else s


def crd2idx(c, s, d) -> int:
    """Crd2Idx's page: a tuple coordinate sums its modes; an integer against a tuple shape is delinearised
    column-major (c % size(mode), then c / size(mode)), the last mode taking the rest."""
    if isinstance(c, tuple):
        assert isinstance(s, tuple) and len(c) == len(s) == len(d)
        return sum(crd2idx(ci, si, di) for ci, si, di in zip(c, s, d, strict=True))
    if isinstance(s, tuple):
        total = 0
        for k, (si, di) in enumerate(zip(s, d, strict=True)):
            if k == len(s) - 1:
                total += crd2idx(c, si, di)
            else:
                total += crd2idx(c % size(si), si, di)
                c //= size(si)
        return total
    return c * d


def test_reference_formula_matches_the_page() -> None:
    assert crd2idx((11, 12), ((2, 4), (3, 5)), ((3, 6), (1, 24))) == 129
    assert crd2idx((20, 30), ((13, 0), (14, 0)), ((14, 182), (1, 154))) == 590
    assert crd2idx((0, 12), ((13, 13), (14, 14)), ((15, 15), (16, 16))) == 192
    assert crd2idx((1, 2, 3), (3, 4, 5), (20, 5, 1)) == 33


# ---- Coordinate: MakeCoord, Crd2Idx, Layout's operator() ---------------------------------------------------
# layout A: the page's ((2, 4), (3, 5)) : ((3, 6), (1, 24)), from run-time values;
# layout B: (Int<3>, (P8, P9), P10) : (P11, (P12, Int<1>), P13), static and run-time elements mixed.
SHAPE_A, STRIDE_A = ((2, 4), (3, 5)), ((3, 6), (1, 24))
SHAPE_B, STRIDE_B = (3, (2, 4), 2), (5, (40, 1), 100)
PARAMS = np.array([2, 4, 3, 5, 3, 6, 1, 24, 2, 4, 2, 5, 40, 100], np.int32)

COORD = r"""
  // MakeCoord packs its arguments into a Coord, an alias of Std::tuple
  auto blockCoordM = Std::Int<11>{};
  auto blockCoordN = Std::Int<12>{};
  auto coord = AscendC::MakeCoord(blockCoordM, blockCoordN);
  static_assert(Std::is_same_v<decltype(coord), Coord<Std::Int<11>, Std::Int<12>>>, "MakeCoord type");
  static_assert(Std::is_same_v<Coord<size_t, int>, Std::tuple<size_t, int>>, "Coord is a tuple");
  static_assert(Std::is_same_v<decltype(MakeCoord()), Coord<>>, "empty Coord");
  static_assert(Std::tuple_size<decltype(coord)>::value == 2, "rank");
  auto rc = MakeCoord((size_t)4, 9);
  o.SetValue(0, (int32_t)Std::get<0>(rc));
  o.SetValue(1, Std::get<1>(rc));

  // the Crd2Idx page's examples: all Std::Int, the index a compile-time Std::Int
  {
    constexpr int M = 11; constexpr int N = 12; constexpr int blockM = 13; constexpr int blockN = 14;
    auto coord = AscendC::MakeCoord(AscendC::Std::Int<20>{}, AscendC::Std::Int<30>{});
    auto shape = AscendC::MakeShape(AscendC::MakeShape(AscendC::Std::Int<blockM>{}, AscendC::Std::Int<M/blockM>{}),
                                    AscendC::MakeShape(AscendC::Std::Int<blockN>{}, AscendC::Std::Int<N/blockN>{}));
    auto stride = AscendC::MakeStride(
        AscendC::MakeStride(AscendC::Std::Int<blockN>{}, AscendC::Std::Int<blockM*blockN>{}),
                                      AscendC::MakeStride(AscendC::Std::Int<1>{}, AscendC::Std::Int<M*blockN>{}));
    auto layout = AscendC::MakeLayout(shape, stride);
    auto index = layout(coord);
    static_assert(decltype(index)::value == 590, "operator() of the page's layout");
    index = AscendC::Crd2Idx(coord, layout);
    static_assert(Std::is_same_v<decltype(index), Std::Int<590>>, "Crd2Idx(coord, layout)");
    o.SetValue(2, (int32_t)index);
  }
  {
    auto blockCoordN = AscendC::Std::Int<12>{};
    auto baseShapeM = AscendC::Std::Int<13>{};
    auto baseShapeN = AscendC::Std::Int<14>{};
    auto basestrideM = AscendC::Std::Int<15>{};
    auto basestrideN = AscendC::Std::Int<16>{};
    auto coord = AscendC::MakeCoord(AscendC::Std::Int<0>{}, blockCoordN);
    auto shape = AscendC::MakeShape(AscendC::MakeShape(baseShapeM, baseShapeM),
                                    AscendC::MakeShape(baseShapeN, baseShapeN));
    auto stride = AscendC::MakeStride(AscendC::MakeStride(basestrideM, basestrideM),
                                      AscendC::MakeStride(basestrideN, basestrideN));
    auto index = AscendC::Crd2Idx(coord, shape, stride);
    static_assert(decltype(index)::value == 192, "Crd2Idx(coord, shape, stride)");
    o.SetValue(3, (int32_t)index);
  }
  // the formula's example: Shape (3, 4, 5), Stride (20, 5, 1), Coordinate (1, 2, 3) -> 33, at compile time
  constexpr auto flat = MakeLayout(MakeShape(3, 4, 5), MakeStride(20, 5, 1));
  static_assert(flat(MakeCoord(1, 2, 3)) == 33, "constexpr layout");
  static_assert(Crd2Idx(MakeCoord(1, 2, 3), flat) == 33, "constexpr Crd2Idx");
  static_assert(Std::is_same_v<decltype(flat(MakeCoord(1, 2, 3))), int>, "run-time elements: an integer index");
  static_assert(Std::is_same_v<decltype(Crd2Idx(Std::Int<2>{}, Std::Int<7>{}, Std::Int<3>{})), Std::Int<6>>,
                "integer mode");

  // run-time layouts against the reference
  auto la = MakeLayout(MakeShape(MakeShape(P[0], P[1]), MakeShape(P[2], P[3])),
                       MakeStride(MakeStride(P[4], P[5]), MakeStride(P[6], P[7])));
  auto sb = MakeShape(Std::Int<3>{}, MakeShape(P[8], P[9]), P[10]);
  auto db = MakeStride(P[11], MakeStride(P[12], Std::Int<1>{}), P[13]);
  auto lb = MakeLayout(sb, db);
  int k = 4;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 15; ++j) o.SetValue(k++, (int32_t)la(MakeCoord(i, j)));       // (i, j)
  for (int c = 0; c < 120; ++c) o.SetValue(k++, (int32_t)Crd2Idx(c, la));              // c
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 5; ++d)                                                      // ((a, b), (c, d))
          o.SetValue(k++, (int32_t)la(MakeCoord(MakeCoord(a, b), MakeCoord(c, d))));
  for (int c = 0; c < 48; ++c) o.SetValue(k++, (int32_t)Crd2Idx(c, sb, db));             // c
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j)
      for (int m = 0; m < 2; ++m)                                                        // (i, j, m)
        o.SetValue(k++, (int32_t)lb(MakeCoord(Std::Int<0>{} + i, j, m)));
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 4; ++b)                                                        // (i, (a, b), 1)
        o.SetValue(k++, (int32_t)Crd2Idx(MakeCoord(i, MakeCoord(a, b), Std::Int<1>{}), sb, db));
"""


@pytest.mark.api("Coordinate/MakeCoord", "Coordinate/Crd2Idx", "Layout/运算符重载")
def test_coordinates_to_indices(prog) -> None:
    n = 4 + 120 + 120 + 120 + 48 + 48 + 24
    got = run_ok(prog, COORD, n, PARAMS)
    want = [4, 9, 590, 192]
    want += [crd2idx((i, j), SHAPE_A, STRIDE_A) for i in range(8) for j in range(15)]
    want += [crd2idx(c, SHAPE_A, STRIDE_A) for c in range(120)]
    want += [crd2idx(((a, b), (c, d)), SHAPE_A, STRIDE_A)
             for a in range(2) for b in range(4) for c in range(3) for d in range(5)]
    want += [crd2idx(c, SHAPE_B, STRIDE_B) for c in range(48)]
    want += [crd2idx((i, j, m), SHAPE_B, STRIDE_B) for i in range(3) for j in range(8) for m in range(2)]
    want += [crd2idx((i, (a, b), 1), SHAPE_B, STRIDE_B) for i in range(3) for a in range(2) for b in range(4)]
    assert got == want


# ---- Layout -----------------------------------------------------------------------------------------------
LAYOUT = r"""
  // the pages' examples
  AscendC::Shape<int,int,int> shape = AscendC::MakeShape(10, 20, 30);
  AscendC::Stride<int,int,int> stride = AscendC::MakeStride(1, 100, 200);
  auto layoutMake = AscendC::MakeLayout(shape, stride);
  AscendC::Layout<AscendC::Shape<int, int, int>, AscendC::Stride<int, int, int>> layoutInit(shape, stride);
  static_assert(Std::is_same_v<decltype(layoutMake), decltype(layoutInit)>, "MakeLayout's type");
  static_assert(Std::is_same_v<Shape<int, int, int>, Std::tuple<int, int, int>>, "Shape is a tuple");
  static_assert(Std::is_same_v<Stride<int, size_t>, Std::tuple<int, size_t>>, "Stride is a tuple");
  static_assert(Std::is_same_v<decltype(MakeShape(10, (size_t)20)), Shape<int, size_t>>, "MakeShape's type");
  static_assert(Std::is_same_v<decltype(MakeStride()), Stride<>>, "MakeStride()");
  static_assert(Std::is_same_v<decltype(MakeShape(MakeShape(1, 2), Std::Int<3>{})),
                               Shape<Shape<int, int>, Std::Int<3>>>, "nested MakeShape");
  int value = AscendC::Std::get<0>(layoutMake.GetShape());
  o.SetValue(0, value);
  o.SetValue(1, AscendC::Std::get<1>(layoutMake.GetShape()));
  o.SetValue(2, AscendC::Std::get<2>(layoutMake.GetShape()));
  o.SetValue(3, AscendC::Std::get<0>(layoutInit.GetStride()));
  o.SetValue(4, AscendC::Std::get<1>(layoutInit.GetStride()));
  o.SetValue(5, AscendC::Std::get<2>(layoutInit.GetStride()));
  // is_layout
  static_assert(!AscendC::is_layout<decltype(shape)>::value && !AscendC::is_layout<decltype(stride)>::value, "");
  static_assert(AscendC::is_layout<decltype(layoutMake)>::value && AscendC::is_layout<decltype(layoutInit)>::value, "");
  static_assert(!AscendC::is_layout<int>::value && !AscendC::is_layout<Std::tuple<Shape<>, Stride<>>>::value, "");
  o.SetValue(6, AscendC::is_layout<decltype(layoutInit)>::value ? 1 : 0);
  // GetShape / GetStride / layout(): references to the layout's own parts
  static_assert(Std::is_same_v<decltype(layoutInit.GetShape()), Shape<int, int, int>&>, "GetShape");
  static_assert(Std::is_same_v<decltype(static_cast<const decltype(layoutInit)&>(layoutInit).GetStride()),
                               const Stride<int, int, int>&>, "GetStride const");
  static_assert(Std::is_same_v<decltype(layoutInit.layout()), decltype(layoutInit)&>, "layout()");
  static_assert(Std::is_same_v<decltype(static_cast<const decltype(layoutInit)&>(layoutInit).layout()),
                               const decltype(layoutInit)&>, "layout() const");
  auto& same = layoutInit.layout();
  o.SetValue(7, &same == &layoutInit ? 1 : 0);
  Std::get<1>(layoutInit.GetShape()) = 21;
  Std::get<2>(layoutInit.layout().GetStride()) = 201;
  o.SetValue(8, Std::get<1>(layoutInit.GetShape()));
  o.SetValue(9, Std::get<2>(layoutInit.GetStride()));
  o.SetValue(10, Std::get<1>(layoutMake.GetShape()));    // a copy: unchanged
  // the constructor's defaults: value-initialised shape and stride
  Layout<Shape<int, int>, Stride<int, int>> empty;
  o.SetValue(11, Std::get<0>(empty.GetShape()) + Std::get<1>(empty.GetStride()));
  Layout<Shape<int, int>, Stride<int, int>> half_init(MakeShape(6, 7));
  o.SetValue(12, Std::get<1>(half_init.GetShape()) * 100 + Std::get<0>(half_init.GetStride()));
  // a Layout is not usable as its tuple (a private base)
  static_assert(!Std::is_convertible<decltype(layoutInit),
                                     Std::tuple<Shape<int, int, int>, Stride<int, int, int>>>::value, "");
  // the TransData page's form: class template argument deduction, ranks of shape and stride differing
  AscendC::Layout ncdhw = AscendC::MakeLayout(AscendC::MakeShape(1, 32, 2, 2, 8), AscendC::MakeStride());
  static_assert(Std::is_same_v<decltype(ncdhw), Layout<Shape<int, int, int, int, int>, Stride<>>>, "CTAD");
  o.SetValue(13, Std::get<1>(ncdhw.GetShape()));
  // operator() on the examples' layout: 1 * 3 + 100 * 2 + 201 * 1
  o.SetValue(14, layoutInit(MakeCoord(3, 2, 1)));
"""


@pytest.mark.api("Layout/Layout构造函数", "Layout/layout", "Layout/GetShape", "Layout/GetStride", "Layout/MakeShape",
                 "Layout/MakeStride", "Layout/MakeLayout", "Layout/is_layout", "Layout/运算符重载")
def test_layout_members(prog) -> None:
    got = run_ok(prog, LAYOUT, 15)
    assert got == [10, 20, 30, 1, 100, 200, 1, 1, 21, 201, 20, 0, 700, 32, 3 + 200 + 201]


# ---- TensorTrait ------------------------------------------------------------------------------------------
TRAIT = r"""
  // the constructor page's example
  AscendC::Shape<int,int,int> shape = AscendC::MakeShape(10, 20, 30);
  AscendC::Stride<int,int,int> stride = AscendC::MakeStride(1, 100, 200);
  auto layoutMake = AscendC::MakeLayout(shape, stride);
  auto tensorTraitMake = AscendC::MakeTensorTrait<float, AscendC::TPosition::VECIN>(layoutMake);
  int k = 0;
  auto put = [&](int v) { o.SetValue(k++, v); };
  put(AscendC::Std::get<0>(tensorTraitMake.GetLayout().GetShape()));
  put(AscendC::Std::get<1>(tensorTraitMake.GetLayout().GetShape()));
  put(AscendC::Std::get<2>(tensorTraitMake.GetLayout().GetShape()));
  put(AscendC::Std::get<0>(tensorTraitMake.GetLayout().GetStride()));
  put(AscendC::Std::get<1>(tensorTraitMake.GetLayout().GetStride()));
  put(AscendC::Std::get<2>(tensorTraitMake.GetLayout().GetStride()));
  using TensorTraitType = AscendC::TensorTrait<half, AscendC::TPosition::VECCALC,
      AscendC::Layout<AscendC::Shape<int, int, int>, AscendC::Stride<int, int, int>>>;
  TensorTraitType tensorTraitInit(layoutMake);
  put(AscendC::Std::get<2>(tensorTraitInit.GetLayout().GetShape()));
  put(AscendC::Std::get<0>(tensorTraitInit.GetShape()));
  put(AscendC::Std::get<1>(tensorTraitInit.GetStride()));
  TensorTraitType tensorTraitSet;
  put(AscendC::Std::get<0>(tensorTraitSet.GetLayout().GetShape()));   // default: a value-initialised layout
  tensorTraitSet.SetLayout(layoutMake);
  put(AscendC::Std::get<1>(tensorTraitSet.GetLayout().GetShape()));
  put(AscendC::Std::get<2>(tensorTraitSet.GetLayout().GetStride()));
  // GetLayout returns the trait's own layout; SetLayout copies
  tensorTraitSet.GetLayout().GetShape() = MakeShape(4, 5, 6);
  put(AscendC::Std::get<2>(tensorTraitSet.GetLayout().GetShape()));
  put(AscendC::Std::get<2>(layoutMake.GetShape()));
  const TensorTraitType& ct = tensorTraitSet;
  put(AscendC::Std::get<0>(ct.GetLayout().GetShape()));
  put(ct.GetLayout()(MakeCoord(1, 1, 1)));   // 1 + 100 + 200
  // the structure: LiteType, LiteLayoutType, tPos; the defaults GM and Layout<Shape<>, Stride<>>
  static_assert(Std::is_same_v<decltype(tensorTraitMake),
                               TensorTrait<float, TPosition::VECIN, decltype(layoutMake)>>, "");
  static_assert(Std::is_same_v<TensorTraitType::LiteType, half>, "LiteType");
  static_assert(Std::is_same_v<TensorTraitType::LiteLayoutType, decltype(layoutMake)>, "LiteLayoutType");
  static_assert(TensorTraitType::tPos == TPosition::VECCALC, "tPos");
  static_assert(TensorTrait<int16_t>::tPos == TPosition::GM, "default pos");
  static_assert(Std::is_same_v<TensorTrait<int16_t>::LiteLayoutType, Layout<Shape<>, Stride<>>>, "default layout");
  static_assert(Std::is_same_v<decltype(ct.GetLayout()), const decltype(layoutMake)&>, "GetLayout const");
  static_assert(Std::is_same_v<decltype(tensorTraitSet.GetLayout()), decltype(layoutMake)&>, "GetLayout");
  static_assert(Std::is_same_v<decltype(tensorTraitSet.SetLayout(layoutMake)), void>, "SetLayout");
  TensorTrait<int16_t> plain;
  (void)plain;
  TensorTrait<int4b_t> i4; TensorTrait<bfloat16_t> bf; TensorTrait<uint64_t> u64;
  (void)i4; (void)bf; (void)u64;
  // is_tensorTrait
  static_assert(!AscendC::is_tensorTrait<decltype(shape)>::value, "");
  static_assert(!AscendC::is_tensorTrait<decltype(stride)>::value, "");
  static_assert(!AscendC::is_tensorTrait<decltype(layoutMake)>::value, "");
  static_assert(AscendC::is_tensorTrait<decltype(tensorTraitMake)>::value, "");
  static_assert(AscendC::is_tensorTrait<TensorTrait<int16_t>>::value && !AscendC::is_tensorTrait<int16_t>::value, "");
  put(AscendC::is_tensorTrait<decltype(tensorTraitMake)>::value ? 1 : 0);
"""


@pytest.mark.api("TensorTrait/TensorTrait构造函数", "TensorTrait/GetLayout", "TensorTrait/SetLayout",
                 "TensorTrait/MakeTensorTrait", "TensorTrait/is_tensorTrait")
def test_tensor_trait_members(prog) -> None:
    got = run_ok(prog, TRAIT, 17)
    assert got == [10, 20, 30, 1, 100, 200, 30, 10, 100, 0, 20, 200, 6, 30, 4, 301, 1]


# ---- TransData takes MakeLayout's layouts ---------------------------------------------------------------------
TRANSDATA = r"""
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 1024 * 2);
  pipe.InitBuffer(b, 1024 * 2);
  LocalTensor<half> srcLocal = a.Get<half>(), dstLocal = b.Get<half>();
  std::memcpy(srcLocal.ptr(), npukb_test::gm_input(0), 1024 * 2);
  // the TransData page's example: NCDHW (1, 32, 2, 2, 8) -> NDC1HWC0 (1, 2, 2, 2, 8, 16)
  AscendC::Layout ncdhwLayout = AscendC::MakeLayout(AscendC::MakeShape(1, 32, 2, 2, 8), AscendC::MakeStride());
  AscendC::Layout ndc1hwc0Layout = AscendC::MakeLayout(AscendC::MakeShape(1, 2, 2, 2, 8, 16), AscendC::MakeStride());
  static constexpr AscendC::TransDataConfig config = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
  AscendC::TransDataParams<decltype(ncdhwLayout), decltype(ndc1hwc0Layout)> params = {ncdhwLayout, ndc1hwc0Layout};
  AscendC::TransData<config>(dstLocal, srcLocal, params);
  std::memcpy(npukb_test::gm_output(0, 1024 * 2), dstLocal.ptr(), 1024 * 2);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Layout/MakeLayout", "Layout/MakeShape", "Layout/MakeStride", "TransData")
def test_trans_data_reads_a_layouts_shape(prog) -> None:
    x = (np.arange(1024) % 1000 + 1).astype(np.float16)
    prog.inputs(x)
    ran = prog.run(TRANSDATA)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16)
    # NDC1HWC0[n, d, c1, hw, c0] = NCDHW[n, c1 * 16 + c0, d, hw]
    want = x.reshape(1, 2, 16, 2, 16).transpose(0, 3, 1, 4, 2).reshape(-1)
    np.testing.assert_array_equal(got, want)


# ---- what the pages rule out does not compile -------------------------------------------------------------------
BAD = {
    # Crd2Idx: a tuple coordinate of another rank than the shape's
    "rank": ("auto F() { return AscendC::Crd2Idx(AscendC::MakeCoord(1, 2), AscendC::MakeShape(1, 2, 3), "
             "AscendC::MakeStride(1, 2, 3)); }", "the same rank"),
    # Crd2Idx: elements are integers or Std::Int
    "float": ("auto F() { return AscendC::Crd2Idx(1.5f, 4, 1); }", "must be integers"),
    # a shape and a stride of different ranks can be built (TransData) but not indexed
    "stride_rank": ("auto F() { auto l = AscendC::MakeLayout(AscendC::MakeShape(2, 3), AscendC::MakeStride()); "
                    "return l(1); }", "the same rank"),
    # TensorTrait's T: the page's data types only
    "trait_type": ("void F() { AscendC::TensorTrait<double> t; (void)t; }", "T must be one of"),
    # a Layout's tuple is a private base
    "private": ("int F() { auto l = AscendC::MakeLayout(AscendC::MakeShape(2), AscendC::MakeStride(1)); "
                "return AscendC::Std::get<0>(AscendC::Std::get<0>(l)); }", "inaccessible"),
    # (the tensors of a TensorTrait and what their pages rule out: test_tensor_trait_tensors.py)
}


@pytest.mark.api("Coordinate/Crd2Idx", "TensorTrait/TensorTrait构造函数", "Layout/Layout构造函数")
def test_what_the_pages_rule_out_does_not_compile(tmp_path) -> None:
    """One translation unit per case (each must fail on its own), checked for the case's reason."""
    for name, (code, reason) in BAD.items():
        result = syntax_check('#include "kernel_operator.h"\n' + code + "\n", tmp_path / name)
        assert not result.ok, name
        assert reason in result.stderr, (name, result.stderr[-2000:])
