"""The tensors of a TensorTrait (LocalTensor<TensorTrait<T>>, GlobalTensor<TensorTrait<T>>: the tensors without
ShapeInfo), checked against the TensorTrait pages (简介 and 更多样例), the LocalTensor / GlobalTensor pages (the
PrimType of GetValue, SetValue, operator(), SetGlobalBuffer; the LocalTensor(addr) constructor of the
static-tensor programming), LocalMemAllocator::Alloc (its prototype 3, Alloc<TensorTraitType>()) and the API
pages that add a template parameter U for the scalar when the operands are of a TensorTrait (Adds, Muls, Maxs,
Mins, LeakyRelu, ShiftLeft, ShiftRight; Fill, Load3D, Fixpipe's cbufWorkspace), with AddDeqRelu's form of two
tensor types. The vector and the cube examples of 更多样例 run as the page writes them and their results are
compared with numpy; what the pages rule out (a scalar of another type than the LiteType, ShapeInfo on such a
tensor, copies between a TensorTrait tensor and one of a basic type, both kinds in one call, Alloc's
prototype rules) does not compile. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


# ---- 更多样例: the vector example (Adds through the queues, every tensor of a TensorTrait) ---------------------
VECTOR_EXAMPLE = r"""
class KernelBinaryScalarTrait {
 public:
  __aicore__ inline KernelBinaryScalarTrait() {}
  __aicore__ inline void Init(__gm__ uint8_t* src, __gm__ uint8_t* dstGm) {
    srcGlobal.SetGlobalBuffer((__gm__ int16_t*)src);
    dstGlobal.SetGlobalBuffer((__gm__ int16_t*)dstGm);
    pipe.InitBuffer(inQueueSrc, 1, 512 * sizeof(int16_t));
    pipe.InitBuffer(outQueueDst, 1, 512 * sizeof(int16_t));
  }
  __aicore__ inline void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<AscendC::TensorTrait<int16_t>> srcLocal =
        inQueueSrc.AllocTensor<AscendC::TensorTrait<int16_t>>();
    AscendC::DataCopy(srcLocal, srcGlobal, 512);
    inQueueSrc.EnQue(srcLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<AscendC::TensorTrait<int16_t>> srcLocal = inQueueSrc.DeQue<AscendC::TensorTrait<int16_t>>();
    AscendC::LocalTensor<AscendC::TensorTrait<int16_t>> dstLocal =
        outQueueDst.AllocTensor<AscendC::TensorTrait<int16_t>>();
    uint64_t mask = 128;
    int16_t scalar = SCALAR;
    // 4 repeats of 128 elements, blocks and repeats without gaps
    AscendC::Adds(dstLocal, srcLocal, scalar, mask, 4, {1, 1, 8, 8});
    outQueueDst.EnQue(dstLocal);
    inQueueSrc.FreeTensor(srcLocal);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<AscendC::TensorTrait<int16_t>> dstLocal = outQueueDst.DeQue<AscendC::TensorTrait<int16_t>>();
    AscendC::DataCopy(dstGlobal, dstLocal, 512);
    outQueueDst.FreeTensor(dstLocal);
  }
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueSrc;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueDst;
  AscendC::GlobalTensor<AscendC::TensorTrait<int16_t>> srcGlobal, dstGlobal;
};
extern "C" __global__ __aicore__ void binary_scalar_trait_kernel(__gm__ uint8_t* src, __gm__ uint8_t* dstGm) {
  KernelBinaryScalarTrait op;
  op.Init(src, dstGm);
  op.Process();
}
static void body(void*) {
  binary_scalar_trait_kernel(npukb_test::gm_input(0), npukb_test::gm_output(0, 512 * 2));
}
"""


@pytest.mark.api("基础算术/Adds", "TQueBind/AllocTensor", "TQueBind/EnQue", "TQueBind/DeQue",
                 "TQueBind/FreeTensor", "GlobalTensor/SetGlobalBuffer")
@pytest.mark.parametrize("scalar", [2, -3])
def test_vector_example_adds_through_the_queues(prog, scalar: int) -> None:
    """The page's kernel: 512 int16_t through VECIN / VECOUT queues of TensorTrait tensors, Adds of the scalar
    (the page's 2, and a negative one), the sum wrapping as int16_t."""
    x = np.random.default_rng(7).integers(-32768, 32767, 512, dtype=np.int16)
    x[:4] = [32767, -32768, 0, -1]
    prog.inputs(x)
    ran = prog.run(VECTOR_EXAMPLE.replace("SCALAR", str(scalar)) + RUN)
    assert ran.returncode == 0, ran.stderr
    want = (x.astype(np.int64) + scalar).astype(np.int16)    # wraps
    np.testing.assert_array_equal(prog.output(0, np.int16), want)


# ---- the scalar-type-U forms on tensors of a TensorTrait ---------------------------------------------------------
SCALAR_APIS = r"""
template <typename T>
static void run_all(GlobalTensor<TensorTrait<T>>& in, GlobalTensor<TensorTrait<T>>& out, TBuf<TPosition::VECCALC>& bx,
                    TBuf<TPosition::VECCALC>& by) {
  using TT = TensorTrait<T>;
  LocalTensor<TT> x = bx.Get<TT>(), y = by.Get<TT>();
  DataCopy(x, in, 128);
  uint32_t k = 0;
  auto put = [&]() { DataCopy(out[k * 128], y, 128); ++k; };
  BODY
}
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, 512);
  pipe.InitBuffer(by, 512);
  GlobalTensor<TensorTrait<DTYPE>> in, out;
  in.SetGlobalBuffer((__gm__ DTYPE*)npukb_test::gm_input(0), 128);
  out.SetGlobalBuffer((__gm__ DTYPE*)npukb_test::gm_output(0, NOUT * 128 * sizeof(DTYPE)), NOUT * 128);
  run_all<DTYPE>(in, out, bx, by);
}
"""

INT16_BODY = r"""
  const T s = (T)3;
  Adds(y, x, s, 128); put();
  Muls(y, x, s, 128); put();
  Maxs(y, x, (T)-5, 128); put();
  Mins(y, x, (T)-5, 128); put();
  ShiftLeft(y, x, (T)2, 128); put();
  ShiftRight(y, x, (T)3, 128); put();
  // the mask forms (continuous and bit-wise), explicit template arguments as the pages write them
  Duplicate(y.template ReinterpretCast<T>(), (T)0, 128);
  Adds<TT, T, true>(y, x, s, 64, 1, {1, 1, 8, 8}); put();
  uint64_t bits[2] = {0x00000000FFFFFFFFull, 0};
  Duplicate(y.template ReinterpretCast<T>(), (T)0, 128);
  Muls(y, x, s, bits, 1, {1, 1, 8, 8}); put();
  ShiftRight(y, x, (T)3, 128, 1, {1, 1, 8, 8}, true); put();
  // tensors of a TensorTrait from operator[]
  Duplicate(y.template ReinterpretCast<T>(), (T)0, 128);
  Adds(y[64], x[64], s, 64); put();
"""

HALF_BODY = r"""
  LeakyRelu(y, x, (T)0.5, 128); put();
  Muls(y, x, (T)0.25, 128); put();
  LeakyRelu<TT, T, true>(y, x, (T)2, 128, 1, {1, 1, 8, 8}); put();
"""


@pytest.mark.api("基础算术/Adds", "基础算术/Muls", "基础算术/Maxs", "基础算术/Mins", "基础算术/LeakyRelu",
                 "逻辑计算/ShiftLeft", "逻辑计算/ShiftRight", "TBuf/Get")
def test_scalar_forms_take_a_scalar_of_the_lite_type(prog) -> None:
    """Every tensor a LocalTensor<TensorTrait<T>> (TBuf::Get<TensorTrait<T>>, operator[]), the scalar a T: the
    pages' U overloads, count and mask forms, against numpy."""
    x = np.random.default_rng(3).integers(-3000, 3000, 128, dtype=np.int16)
    prog.inputs(x)
    src = SCALAR_APIS.replace("BODY", INT16_BODY).replace("DTYPE", "int16_t").replace("NOUT", "10")
    ran = prog.run(src + RUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.int16).reshape(10, 128)
    w = x.astype(np.int64)
    low = np.zeros(128, np.int64)
    low[:64] = w[:64] + 3
    bits = np.zeros(128, np.int64)
    bits[:32] = w[:32] * 3
    sign = np.where(w < 0, -(1 << 15), 0)
    shl = sign | ((w << 2) & 0x7FFF)
    rnd = (w >> 3) + ((w >> 2) & 1)
    high = np.zeros(128, np.int64)
    high[64:] = w[64:] + 3
    wants = [w + 3, w * 3, np.maximum(w, -5), np.minimum(w, -5), shl, w >> 3, low, bits, rnd, high]
    for i, want in enumerate(wants):
        np.testing.assert_array_equal(got[i], want.astype(np.int16), err_msg=str(i))

    h = (np.random.default_rng(4).standard_normal(128) * 4).astype(np.float16)
    prog.inputs(h)
    src = SCALAR_APIS.replace("BODY", HALF_BODY).replace("DTYPE", "half").replace("NOUT", "3")
    ran = prog.run(src + RUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(3, 128)
    np.testing.assert_array_equal(got[0], np.where(h >= 0, h, h * np.float16(0.5)))
    np.testing.assert_array_equal(got[1], h * np.float16(0.25))
    np.testing.assert_array_equal(got[2], np.where(h >= 0, h, h * np.float16(2)))


DEQ = r"""
static void body(void*) {
  using I = TensorTrait<int32_t>;
  using H = TensorTrait<half>;
  GlobalTensor<I> a, b;
  GlobalTensor<H> o;
  a.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(1), 128);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 2 * 128 * 2), 2 * 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bh;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bh, 256);
  LocalTensor<I> x = ba.Get<I>(), y = bb.Get<I>();
  LocalTensor<H> z = bh.Get<H>();
  DataCopy(x, a, 128); DataCopy(y, b, 128);
  SetDeqScale((half)0.5);
  AddDeqRelu<H, I>(z, x, y, 128);
  DataCopy(o, z, 128);
  Duplicate(z.ReinterpretCast<half>(), (half)9, 128);
  AddDeqRelu<H, I, true>(z, x, y, 64, 1, {1, 1, 1, 8, 8, 8});
  DataCopy(o[128], z, 128);
}
"""


@pytest.mark.api("复合计算/AddDeqRelu")
def test_add_deq_relu_with_tensor_trait_operands(prog) -> None:
    """AddDeqRelu<T, U>: the form its page gives for TensorTrait operands (half destination, int32_t sources)."""
    rng = np.random.default_rng(5)
    x = rng.integers(-5000, 5000, 128, dtype=np.int32)
    y = rng.integers(-5000, 5000, 128, dtype=np.int32)
    prog.inputs(x, y)
    ran = prog.run(DEQ + RUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(2, 128)
    deq = np.maximum(((x.astype(np.float64) + y) * 0.5).astype(np.float16), np.float16(0))
    np.testing.assert_array_equal(got[0], deq)
    w = np.full(128, np.float16(9))
    w[:64] = deq[:64]
    np.testing.assert_array_equal(got[1], w)


# ---- the other APIs of the TensorTrait page's list -----------------------------------------------------------------
MORE_APIS = r"""
static void body(void*) {
  using H = TensorTrait<half>;
  using F = TensorTrait<float>;
  using B = TensorTrait<uint8_t>;
  using I8 = TensorTrait<int8_t>;
  GlobalTensor<H> a, b, oh;
  GlobalTensor<F> of;
  GlobalTensor<I8> o8;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 128);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 6 * 128 * 2), 6 * 128);
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 128 * 4), 128);
  o8.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_output(2, 128), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bw, bf, bm, b8;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(by, 256); pipe.InitBuffer(bz, 256); pipe.InitBuffer(bw, 256);
  pipe.InitBuffer(bf, 512); pipe.InitBuffer(bm, 32); pipe.InitBuffer(b8, 128);
  LocalTensor<H> x = bx.Get<H>(), y = by.Get<H>(), z = bz.Get<H>(), w = bw.Get<H>();
  LocalTensor<F> f = bf.Get<F>();
  LocalTensor<B> m = bm.Get<B>();
  LocalTensor<I8> i8 = b8.Get<I8>();
  DataCopy(x, a, 128); DataCopy(y, b, 128);
  Cast(f, x, RoundMode::CAST_NONE, 128); DataCopy(of, f, 128);                           // float(x)
  Compare(m, x, y, CMPMODE::LT, 128);
  Select(z, m, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 128); DataCopy(oh, z, 128);      // min(x, y)
  Duplicate(z.ReinterpretCast<half>(), (half)0, 128);
  ReduceSum(z, x, w, 128); ReduceMax(z[16], x, w, 128, false); DataCopy(oh[128], z, 128);
  Copy(z, x, 128, 1, {1, 1, 8, 8});
  FusedMulAdd(z, y, x, 128); DataCopy(oh[256], z, 128);                                 // y * x + x
  Brcb(z, x, 1, {1, 8}); DataCopy(oh[384], z, 128);                                     // x[j] over block j
  Duplicate(z.ReinterpretCast<half>(), (half)0, 128);
  WholeReduceSum(z, x, 128, 1, 1, 1, 8); DataCopy(oh[512], z, 128);
  Duplicate(z.ReinterpretCast<half>(), (half)0, 128);
  BlockReduceMax(z, x, 1, 128, 1, 1, 8); DataCopy(oh[640], z, 128);
  AddReluCast(i8, x, y, 128); DataCopy(o8, i8, 128);                                    // relu(x + y) as int8_t
}
"""


@pytest.mark.api("类型转换/Cast", "比较与选择/Compare", "比较与选择/Select", "归约计算/ReduceSum", "归约计算/ReduceMax",
                 "数据搬运/Copy（UB -> UB-掩码式高维数据搬运）", "数据填充/Brcb", "复合计算/AddReluCast")
def test_more_apis_take_tensor_trait_operands(prog) -> None:
    """Cast, Compare + Select, the reductions, Copy, FusedMulAdd, Brcb and AddReluCast with every tensor of a
    TensorTrait (small integers in half: every result exact), against numpy."""
    rng = np.random.default_rng(9)
    x = rng.integers(-8, 9, 128).astype(np.float16)
    y = rng.integers(-8, 9, 128).astype(np.float16)
    prog.inputs(x, y)
    ran = prog.run(MORE_APIS + RUN)
    assert ran.returncode == 0, ran.stderr
    oh = prog.output(0, np.float16).reshape(6, 128)
    np.testing.assert_array_equal(prog.output(1, np.float32), x.astype(np.float32))
    np.testing.assert_array_equal(oh[0], np.minimum(x, y))
    assert oh[1][0] == x.astype(np.float32).sum()
    assert oh[1][16] == x.max()
    np.testing.assert_array_equal(oh[2], y * x + x)
    np.testing.assert_array_equal(oh[3], np.repeat(x[:8], 16))
    assert oh[4][0] == x.astype(np.float32).sum() and not oh[4][1:].any()
    np.testing.assert_array_equal(oh[5][:8], x.reshape(8, 16).max(axis=1))
    np.testing.assert_array_equal(prog.output(2, np.int8), np.maximum(x + y, 0).astype(np.int8))


# ---- the tensors' members ------------------------------------------------------------------------------------------
MEMBERS = r"""
static void body(void*) {
  using TT = TensorTrait<int32_t>;
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 64 * 4), 64);
  GlobalTensor<TT> g;
  g.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(0), 16);
  static_assert(Std::is_same_v<GlobalTensor<TT>::PrimType, int32_t>, "GlobalTensor PrimType");
  static_assert(Std::is_same_v<LocalTensor<TT>::PrimType, int32_t>, "LocalTensor PrimType");
  static_assert(Std::is_same_v<PrimT<TT>, int32_t> && Std::is_same_v<PrimT<int32_t>, int32_t>, "PrimT");
  static_assert(Std::is_same_v<decltype(g.GetValue(0)), int32_t>, "GetValue");
  static_assert(Std::is_same_v<decltype(g(0)), int32_t&>, "operator()");
  static_assert(Std::is_same_v<decltype(g[1]), GlobalTensor<TT>>, "GlobalTensor operator[]");
  int32_t k = 0;
  o.SetValue(k++, (int32_t)g.GetSize());
  o.SetValue(k++, g.GetValue(3));
  o.SetValue(k++, g(4));
  o.SetValue(k++, g[5].GetValue(1));             // element 6
  o.SetValue(k++, (int32_t)g[5].GetSize());
  o.SetValue(k++, (int32_t)(g.GetPhyAddr(2) - g.GetPhyAddr()));
  GlobalTensor<TT> g2;
  g2.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(0));
  o.SetValue(k++, (int32_t)g2.GetSize());        // 0 without a size
  g2 = g;                                        // same kind: copy assignment
  o.SetValue(k++, g2.GetValue(7));
  auto gh = g.ReinterpretCast<TensorTrait<int16_t>>();
  static_assert(Std::is_same_v<decltype(gh), GlobalTensor<TensorTrait<int16_t>>>, "GlobalTensor ReinterpretCast");
  o.SetValue(k++, (int32_t)gh.GetSize());
  o.SetValue(k++, (int32_t)gh.GetValue(2));      // low half of element 1

  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<TT> t = buf.Get<TT>();
  static_assert(Std::is_same_v<decltype(t.GetValue(0)), int32_t>, "LocalTensor GetValue");
  static_assert(Std::is_same_v<decltype(t(0)), int32_t&>, "LocalTensor operator()");
  static_assert(Std::is_same_v<decltype(t[8]), LocalTensor<TT>>, "LocalTensor operator[]");
  o.SetValue(k++, (int32_t)t.GetSize());
  for (int32_t i = 0; i < 16; ++i) t.SetValue(i, 100 + i);
  t(2) = 200;
  o.SetValue(k++, t.GetValue(2));
  o.SetValue(k++, t(3));
  LocalTensor<TT> u = t[10];
  o.SetValue(k++, u.GetValue(1));                // element 11
  o.SetValue(k++, (int32_t)u.GetSize());
  o.SetValue(k++, (int32_t)(u.GetPhyAddr() - t.GetPhyAddr()));
  auto h = t.ReinterpretCast<TensorTrait<int16_t>>();
  static_assert(Std::is_same_v<decltype(h), LocalTensor<TensorTrait<int16_t>>>, "LocalTensor ReinterpretCast");
  o.SetValue(k++, (int32_t)h.GetSize());
  o.SetValue(k++, (int32_t)h.GetValue(6));       // low half of element 3
  o.SetValue(k++, t.GetPosition() == (int32_t)TPosition::VECCALC);
  LocalTensor<TT> v;
  v = u;                                         // same kind: copy assignment
  o.SetValue(k++, v.GetValue(0));
}
"""


@pytest.mark.api("GlobalTensor/SetGlobalBuffer", "GlobalTensor/GetValue", "GlobalTensor/SetValue",
                 "GlobalTensor/operator()", "GlobalTensor/operator[]", "LocalTensor/GetValue", "LocalTensor/SetValue",
                 "LocalTensor/operator()", "LocalTensor/operator[]", "LocalTensor/ReinterpretCast")
def test_tensor_members_work_in_the_lite_type(prog) -> None:
    """GetValue / SetValue / operator() in the LiteType (the pages' PrimType = PrimT<T>), operator[] and
    ReinterpretCast giving tensors of a TensorTrait again, GlobalTensor's two SetGlobalBuffer forms."""
    g = np.arange(1000, 1016, dtype=np.int32)
    prog.inputs(g)
    ran = prog.run(MEMBERS + RUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.int32)
    want = [16, 1003, 1004, 1006, 11, 2, 0, 1007, 32, 1001,
            64, 200, 103, 111, 54, 40, 128, 103, 1, 110]
    assert got[: len(want)].tolist() == want


# ---- static-tensor programming: LocalTensor<TensorTrait>(addr) and Alloc<TensorTraitType>() ---------------
STATIC = r"""
template <uint32_t v>
using UIntImm = Std::integral_constant<uint32_t, v>;
static void body(void*) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 16 * 4), 16);
  // the constructor page's example: VECIN, float, 16 * 16 * 16 elements at address 128
  auto shape = AscendC::MakeShape(UIntImm<16>{}, UIntImm<16>{}, UIntImm<16>{});
  auto stride = AscendC::MakeStride(UIntImm<0>{}, UIntImm<0>{}, UIntImm<0>{});
  auto layoutMake = AscendC::MakeLayout(shape, stride);
  auto tensorTraitMake = AscendC::MakeTensorTrait<float, AscendC::TPosition::VECIN>(layoutMake);
  uint32_t addr = 128;
  auto tensor1 = AscendC::LocalTensor<decltype(tensorTraitMake)>(addr);
  static_assert(Std::is_same_v<decltype(tensor1)::PrimType, float>, "PrimType");
  int32_t k = 0;
  o.SetValue(k++, (int32_t)tensor1.GetSize());
  o.SetValue(k++, tensor1.GetPosition() == (int32_t)TPosition::VECIN);
  tensor1.SetValue(4095, 2.5f);
  o.SetValue(k++, (int32_t)(tensor1.GetValue(4095) * 2));
  // the same bytes seen through a tensor of a basic type at address 0
  LocalTensor<float> whole(TPosition::VECCALC, 0, 128 / 4 + 4096);
  o.SetValue(k++, (int32_t)(whole.GetValue(32 + 4095) * 2));

  // LocalMemAllocator, prototype 3: the trait's position and Shape size; then prototype 1 after it
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> allocator;
  auto tensor3 = allocator.Alloc<decltype(tensorTraitMake)>();
  static_assert(Std::is_same_v<decltype(tensor3), LocalTensor<decltype(tensorTraitMake)>>, "Alloc type");
  o.SetValue(k++, (int32_t)tensor3.GetSize());
  o.SetValue(k++, tensor3.GetPosition() == (int32_t)TPosition::VECIN);
  o.SetValue(k++, (int32_t)allocator.GetCurAddr());
  auto tensor4 = allocator.Alloc<float, 8>();
  o.SetValue(k++, (int32_t)(tensor4.GetPhyAddr() - tensor3.GetPhyAddr()));
  // an L1 allocator takes an A1 trait; the layout may be hierarchical
  using L1Trait = TensorTrait<half, TPosition::A1,
                              Layout<Shape<Shape<UIntImm<2>, UIntImm<4>>, UIntImm<8>>, Stride<Stride<int, int>, int>>>;
  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
  auto t5 = l1.Alloc<L1Trait>();
  o.SetValue(k++, (int32_t)t5.GetSize());
  o.SetValue(k++, t5.GetPosition() == (int32_t)TPosition::A1);
  o.SetValue(k++, (int32_t)l1.GetCurAddr());
}
"""


@pytest.mark.api("LocalTensor构造函数", "LocalMemAllocator/Alloc", "LocalMemAllocator/GetCurAddr")
def test_static_tensors_of_a_tensor_trait(prog) -> None:
    """LocalTensor<TensorTrait>(addr) (the constructor page's example) and Alloc<TensorTraitType>(): the
    trait's position, as many elements as its Shape has."""
    ran = prog.run(STATIC + RUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.int32)[:11].tolist()
    assert got == [4096, 1, 5, 5, 4096, 1, 4096 * 4, 4096 * 4, 64, 1, 128]


# ---- 更多样例: the cube example (Fill, LoadData, Mmad, Fixpipe on tensors of a TensorTrait) ------------------------
CUBE_EXAMPLE = r"""
constexpr int32_t g_coreType = AscendC::AIC;
template <typename dst_T, typename fmap_T, typename weight_T, typename dstCO1_T, typename bias_T>
class KernelMatmul {
 public:
  __aicore__ inline KernelMatmul(uint16_t mIn, uint8_t kIn, uint8_t nIn, bool initl1In, bool initl0In) {
    m = mIn; k = kIn; n = nIn;
    aSize = m * k; bSize = k * n; cSize = m * n;
    initl0 = initl0In; initl1 = initl1In;
  }
  __aicore__ inline void Init(__gm__ uint8_t* a, __gm__ uint8_t* b, __gm__ uint8_t* c) {
    aGM.SetGlobalBuffer((__gm__ fmap_T*)a);
    bGM.SetGlobalBuffer((__gm__ weight_T*)b);
    cGM.SetGlobalBuffer((__gm__ dstCO1_T*)c);
    pipe.InitBuffer(inQueueA1, 1, aSize * sizeof(fmap_T));
    pipe.InitBuffer(inQueueA2, 1, aSize * sizeof(fmap_T));
    pipe.InitBuffer(inQueueB1, 1, bSize * sizeof(weight_T));
    pipe.InitBuffer(inQueueB2, 2, bSize * sizeof(weight_T));
    pipe.InitBuffer(outQueueCO1, 1, cSize * sizeof(dstCO1_T));
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<AscendC::TensorTrait<fmap_T>> a1Local = inQueueA1.AllocTensor<AscendC::TensorTrait<fmap_T>>();
    AscendC::LocalTensor<AscendC::TensorTrait<weight_T>> b1Local =
        inQueueB1.AllocTensor<AscendC::TensorTrait<weight_T>>();
    if (initl1 == true) {
      AscendC::Fill(a1Local, {static_cast<uint16_t>(m * k * sizeof(fmap_T) / 32), 1, 0, 1});
      AscendC::Fill(b1Local, {static_cast<uint16_t>(k * n * sizeof(weight_T) / 32), 1, 0, 1});
    } else {
      AscendC::DataCopy(a1Local, aGM, aSize);
      AscendC::DataCopy(b1Local, bGM, bSize);
    }
    inQueueA1.EnQue(a1Local);
    inQueueB1.EnQue(b1Local);
  }
  __aicore__ inline void SplitA() {
    AscendC::LocalTensor<AscendC::TensorTrait<fmap_T>> a1Local = inQueueA1.DeQue<AscendC::TensorTrait<fmap_T>>();
    AscendC::LocalTensor<AscendC::TensorTrait<fmap_T>> a2Local = inQueueA2.AllocTensor<AscendC::TensorTrait<fmap_T>>();
    AscendC::LoadData2dParams loadL0AParams;
    loadL0AParams.repeatTimes = m * k * sizeof(fmap_T) / 512;
    loadL0AParams.srcStride = 1;
    loadL0AParams.dstGap = 0;
    if (initl0 == true) {
      AscendC::Fill(a2Local, {static_cast<uint16_t>(m * k * sizeof(fmap_T) / 512), 1, 0, 1});
    } else {
      AscendC::LoadData(a2Local, a1Local, loadL0AParams);
    }
    inQueueA2.EnQue<AscendC::TensorTrait<fmap_T>>(a2Local);
    inQueueA1.FreeTensor(a1Local);
  }
  __aicore__ inline void SplitB() {
    AscendC::LocalTensor<AscendC::TensorTrait<weight_T>> b1Local = inQueueB1.DeQue<AscendC::TensorTrait<weight_T>>();
    AscendC::LocalTensor<AscendC::TensorTrait<weight_T>> b2Local =
        inQueueB2.AllocTensor<AscendC::TensorTrait<weight_T>>();
    AscendC::LoadData2dParams loadL0BParams;
    loadL0BParams.repeatTimes = k * n * sizeof(weight_T) / 512;
    loadL0BParams.srcStride = 1;
    loadL0BParams.dstGap = 0;
    if (initl0 == true) {
      AscendC::Fill(b2Local, {static_cast<uint16_t>(k * n * sizeof(weight_T) / 512), 1, 0, 1});
    } else {
      AscendC::LoadData(b2Local, b1Local, loadL0BParams);
    }
    inQueueB1.FreeTensor(b1Local);
    inQueueB2.EnQue<AscendC::TensorTrait<weight_T>>(b2Local);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<AscendC::TensorTrait<fmap_T>> a2Local = inQueueA2.DeQue<AscendC::TensorTrait<fmap_T>>();
    AscendC::LocalTensor<AscendC::TensorTrait<weight_T>> b2Local = inQueueB2.DeQue<AscendC::TensorTrait<weight_T>>();
    AscendC::LocalTensor<AscendC::TensorTrait<dstCO1_T>> c1Local =
        outQueueCO1.AllocTensor<AscendC::TensorTrait<dstCO1_T>>();
    mmadParams.isBias = false;
    mmadParams.m = m;
    mmadParams.n = n;
    mmadParams.k = k;
    AscendC::Mmad(c1Local, a2Local, b2Local, mmadParams);
    outQueueCO1.EnQue<AscendC::TensorTrait<dstCO1_T>>(c1Local);
    inQueueA2.FreeTensor(a2Local);
    inQueueB2.FreeTensor(b2Local);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<AscendC::TensorTrait<dstCO1_T>> c1Local = outQueueCO1.DeQue<AscendC::TensorTrait<dstCO1_T>>();
    AscendC::FixpipeParamsV220 fixpipeParams;
    fixpipeParams.nSize = n;
    fixpipeParams.mSize = m;
    fixpipeParams.srcStride = m;
    fixpipeParams.dstStride = n;
    fixpipeParams.ndNum = 1;
    fixpipeParams.srcNdStride = 0;
    fixpipeParams.dstNdStride = 0;
    AscendC::Fixpipe(cGM, c1Local, fixpipeParams);
    outQueueCO1.FreeTensor(c1Local);
  }
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
  AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
  AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
  AscendC::GlobalTensor<AscendC::TensorTrait<fmap_T>> aGM;
  AscendC::GlobalTensor<AscendC::TensorTrait<weight_T>> bGM;
  AscendC::GlobalTensor<AscendC::TensorTrait<dst_T>> cGM;
  uint16_t m, k, n;
  bool initl0, initl1;
  uint16_t aSize, bSize, cSize, b2Size;
  AscendC::MmadParams mmadParams;
};
extern "C" __global__ __aicore__ void cube_trait_kernel(__gm__ uint8_t* a, __gm__ uint8_t* b, __gm__ uint8_t* c) {
  if ASCEND_IS_AIV {
    return;
  }
  KernelMatmul<float, half, half, float, half> op(16, 32, 16, INITL1, false);
  op.Init(a, b, c);
  op.Process();
}
static void body(void*) {
  cube_trait_kernel(npukb_test::gm_input(0), npukb_test::gm_input(1), npukb_test::gm_output(0, 16 * 16 * 4));
}
void run_test() { npukb_test::run_blocks_on(npukb::CORE_AIC, 1, body, nullptr); }
"""


@pytest.mark.api("矩阵搬入辅助配置接口/Fill", "LoadData（2D矩阵搬运）", "Mmad",
                 "Fixpipe（L0C到GM数据搬运）", "DataCopy（GMToL1连续数据搬运）")
@pytest.mark.parametrize("initl1", [True, False])
def test_cube_example_matmul_of_tensor_trait_tensors(prog, initl1: bool) -> None:
    """The page's KernelMatmul<float, half, half, float, half>(16, 32, 16, initl1, false): with initl1 (the
    page's case) L1 is filled with 1 and every element of C is k = 32; without it, A and B come from GM
    already in their fractal layouts (A: 16 x 16 fractals row-major, column blocks in turn; B: each 16 x 16
    fractal holding 16 columns of B as rows) and C is A @ B (float accumulation), written row-major."""
    rng = np.random.default_rng(11)
    a = rng.integers(-4, 5, (16, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 16)).astype(np.float16)
    a_gm = a.reshape(16, 2, 16).transpose(1, 0, 2).copy()      # [kb][row][col]
    b_gm = b.reshape(2, 16, 16).transpose(0, 2, 1).copy()      # [kb][n][k]
    prog.inputs(a_gm, b_gm)
    ran = prog.run(CUBE_EXAMPLE.replace("INITL1", "true" if initl1 else "false"))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(16, 16)
    want = np.full((16, 16), 32.0, np.float32) if initl1 else a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_array_equal(got, want)


# ---- what the pages rule out does not compile ------------------------------------------------------------------------
PRE = """
#include "kernel_operator.h"
using namespace AscendC;
using TI = TensorTrait<int16_t>;
using TH = TensorTrait<half>;
"""
BAD = {
    # the scalar's type U must be the LiteType (Adds ... pages: std::enable_if on PrimT<T> and U)
    "adds_scalar": ("void F(LocalTensor<TI> d, LocalTensor<TI> s) { Adds(d, s, (int32_t)2, 128); }",
                    "the scalar's type U must be the operand's element type"),
    "muls_mask": ("void F(LocalTensor<TH> d, LocalTensor<TH> s) { Muls(d, s, 2.0f, 128, 1, {1, 1, 8, 8}); }",
                  "the scalar's type U must be the operand's element type"),
    "shift_right": ("void F(LocalTensor<TI> d, LocalTensor<TI> s) { ShiftRight(d, s, (uint16_t)2, 128); }",
                    "the scalar's type U must be the operand's element type"),
    "leaky_relu": ("void F(LocalTensor<TH> d, LocalTensor<TH> s) { LeakyRelu(d, s, 0.5f, 128); }",
                   "the scalar's type U must be the operand's element type"),
    # Fill / Load3D: U must be the LiteType of the tensor
    "fill": ("void F(LocalTensor<TH> d) { Fill(d, InitConstValueParams<float>(1, 1, 0, 1.0f)); }",
             "no matching function for call to"),
    "load3d": ("void F(LocalTensor<TH> d, LocalTensor<TH> s) { LoadData(d, s, LoadData3DParamsV2<float>()); }",
               "no matching function for call to"),
    # Fixpipe: cbufWorkspace's LiteType must be uint64_t
    "fixpipe_s": ("void F(GlobalTensor<TensorTrait<float>> d, LocalTensor<TensorTrait<float>> s, "
                  "LocalTensor<TensorTrait<int64_t>> w) { Fixpipe(d, s, w, FixpipeParamsV220()); }",
                  "no matching function for call to"),
    # a tensor of a TensorTrait carries no ShapeInfo
    "local_set_shape": ("void F(LocalTensor<TI> t, ShapeInfo s) { t.SetShapeInfo(s); }", "deleted function"),
    "local_get_shape": ("ShapeInfo F(LocalTensor<TI> t) { return t.GetShapeInfo(); }", "deleted function"),
    "global_set_shape": ("void F(GlobalTensor<TI> t, ShapeInfo s) { t.SetShapeInfo(s); }", "deleted function"),
    "global_get_shape": ("ShapeInfo F(GlobalTensor<TI> t) { return t.GetShapeInfo(); }", "deleted function"),
    # no copy construction or assignment between a TensorTrait tensor and one of a basic type
    "local_from_plain": ("void F(LocalTensor<int16_t> a) { LocalTensor<TI> b = a; (void)b; }", "deleted function"),
    "local_to_plain": ("void F(LocalTensor<TI> a) { LocalTensor<int16_t> b(a); (void)b; }", "deleted function"),
    "local_assign_plain": ("void F(LocalTensor<TI> a, LocalTensor<int16_t> b) { a = b; }", "deleted function"),
    "local_assign_trait": ("void F(LocalTensor<TI> a, LocalTensor<int16_t> b) { b = a; }", "deleted function"),
    "global_from_plain": ("void F(GlobalTensor<float> a) { GlobalTensor<TensorTrait<float>> b = a; (void)b; }",
                          "deleted function"),
    "global_to_plain": ("void F(GlobalTensor<TensorTrait<float>> a) { GlobalTensor<float> b = a; (void)b; }",
                        "deleted function"),
    # one call does not take both kinds of tensor
    "mixed_add": ("void F(LocalTensor<TH> d, LocalTensor<half> s) { Add(d, s, s, 128); }",
                  "no matching function for call to"),
    "mixed_copy": ("void F(LocalTensor<TH> d, GlobalTensor<half> s) { DataCopy(d, s, 128); }",
                   "no matching function for call to"),
    "mixed_cast": ("void F(LocalTensor<TensorTrait<float>> d, LocalTensor<half> s) "
                   "{ Cast(d, s, RoundMode::CAST_NONE, 64); }", "not both"),
    "mixed_mmad": ("void F(LocalTensor<TensorTrait<float>> c, LocalTensor<TH> a, LocalTensor<half> b) "
                   "{ Mmad(c, a, b, MmadParams()); }", "not both"),
    "mixed_fixpipe": ("void F(GlobalTensor<TensorTrait<float>> d, LocalTensor<TensorTrait<float>> s, "
                      "LocalTensor<uint64_t> w) { Fixpipe(d, s, w, FixpipeParamsV220()); }", "not both"),
    # the slice DataCopy needs ShapeInfo (TensorTrait简介: not for tensors of a TensorTrait)
    "slice_copy": ("void F(LocalTensor<TH> d, GlobalTensor<TH> s) { SliceInfo i[2]; DataCopy(d, s, i, i, 2); }",
                   "needs the tensors' ShapeInfo"),
    # LocalTensor(pos, addr, tileSize) takes basic types only, LocalTensor(addr) TensorTrait types only
    "pos_addr_size": ("void F() { LocalTensor<TH> t(TPosition::VECIN, 0, 16); }", "no matching function for call to"),
    "addr_plain": ("void F() { LocalTensor<half> t((uint32_t)0); }", "no matching function for call to"),
    # LocalTensor(addr): the trait's Shape gives the size (Std::Int elements), its position is a local one
    "addr_dynamic_shape": ("void F() { LocalTensor<TensorTrait<half, TPosition::VECIN, "
                           "Layout<Shape<int>, Stride<int>>>> t(0); }", "must be Std::Int"),
    "addr_gm": ("void F() { LocalTensor<TensorTrait<half, TPosition::GM, Layout<Shape<Std::Int<16>>, "
                "Stride<Std::Int<1>>>>> t(0); }", "must be a local one"),
    # Alloc: prototypes 1 and 2 take basic types, prototype 3 TensorTrait types in the allocator's memory
    "alloc_trait_size": ("void F() { LocalMemAllocator<Hardware::UB> a; auto t = a.Alloc<TH, 16>(); }",
                         "must be a basic data type"),
    "alloc_trait_arg": ("void F() { LocalMemAllocator<Hardware::UB> a; auto t = a.Alloc<TH>(16); }",
                        "must be a basic data type"),
    "alloc_plain": ("void F() { LocalMemAllocator<Hardware::UB> a; auto t = a.Alloc<half>(); }",
                    "takes a TensorTrait type only"),
    "alloc_memory": ("void F() { LocalMemAllocator<Hardware::UB> a; auto t = a.Alloc<TensorTrait<half, "
                     "TPosition::A1, Layout<Shape<Std::Int<16>>, Stride<Std::Int<1>>>>>(); }", "another memory"),
}


@pytest.mark.api("基础算术/Adds", "基础算术/Muls", "逻辑计算/ShiftRight", "基础算术/LeakyRelu",
                 "矩阵搬入辅助配置接口/Fill", "LoadData（卷积数据搬运）", "Fixpipe（L0C到GM数据搬运）",
                 "LocalTensor构造函数", "LocalMemAllocator/Alloc")
@pytest.mark.parametrize("name", sorted(BAD))
def test_what_the_pages_rule_out_does_not_compile(tmp_path, name: str) -> None:
    """One translation unit per case, checked for the case's reason; the same code with the rule respected
    compiles (a check that the reason is the rule, not the snippet)."""
    code, reason = BAD[name]
    result = syntax_check(PRE + code + "\n", tmp_path / name)
    assert not result.ok, name
    assert reason in result.stderr, (name, result.stderr[-2000:])


GOOD = r"""
template <uint32_t v>
using UIntImm = Std::integral_constant<uint32_t, v>;
void F(LocalTensor<TI> d, LocalTensor<TI> s, LocalTensor<TH> dh, LocalTensor<TH> sh, GlobalTensor<TensorTrait<float>> g,
       LocalTensor<TensorTrait<float>> c, LocalTensor<TensorTrait<uint64_t>> w, LocalTensor<int16_t> p) {
  Adds(d, s, (int16_t)2, 128);
  Muls(dh, sh, (half)2, 128, 1, {1, 1, 8, 8});
  ShiftRight(d, s, (int16_t)2, 128);
  LeakyRelu(dh, sh, (half)0.5, 128);
  Fill(dh, InitConstValueParams<half>(1, 1, 0, (half)1));
  LoadData(dh, sh, LoadData3DParamsV2<half>());
  Fixpipe(g, c, w, FixpipeParamsV220());
  LocalTensor<TI> b = d;
  b = s;
  LocalTensor<int16_t> q = p;
  q = p;
  LocalTensor<half> t(TPosition::VECIN, 0, 16);
  LocalTensor<TensorTrait<half, TPosition::VECIN, Layout<Shape<Std::Int<16>>, Stride<Std::Int<1>>>>> u(0);
  LocalMemAllocator<Hardware::UB> a;
  auto t1 = a.Alloc<half, 16>();
  auto t2 = a.Alloc<half>(16);
  auto t3 = a.Alloc<TensorTrait<half, TPosition::VECCALC, Layout<Shape<UIntImm<16>>, Stride<UIntImm<1>>>>>();
  Add(dh, sh, sh, 128);
  // the other DataCopy forms of the cube path take them too
  GlobalTensor<TH> gh;
  DataCopy(dh, gh, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  DataCopy(dh, sh, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  DataCopy(g, c, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::NoQuant, 0, false, false));
  DataCopy(dh, c, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, false));
  DataCopy(gh, sh, Nz2NdParamsFull());
  ShapeInfo si;
  p.SetShapeInfo(si);
  si = p.GetShapeInfo();
}
"""


def test_the_rules_respected_compile(tmp_path) -> None:
    """The counterpart of each case above, written as the pages allow: compiles."""
    result = syntax_check(PRE + GOOD, tmp_path / "good")
    assert result.ok, result.stderr[-3000:]
