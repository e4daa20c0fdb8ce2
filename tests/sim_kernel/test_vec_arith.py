"""The arithmetic family of the Memory-vector API (基础算术), checked against the reference pages:
integer dtypes wrap, the count / bit-mask / continuous-mask forms, isSetMask with counter mode, the
scalar-type-U overloads, the precision-config template forms, the whole-tensor operators and
BilinearInterpolation's documented example."""

from __future__ import annotations

import numpy as np
import pytest

INT_BINARY = """
template <typename T>
static void run(int in0, int in1, int out) {
  const int N = 200, P = 256;
  GlobalTensor<T> a, b, o;
  a.SetGlobalBuffer((__gm__ T*)npukb_test::gm_input(in0), P);
  b.SetGlobalBuffer((__gm__ T*)npukb_test::gm_input(in1), P);
  o.SetGlobalBuffer((__gm__ T*)npukb_test::gm_output(out, 10 * P * sizeof(T)), 10 * P);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bo;
  pipe.InitBuffer(ba, P * sizeof(T)); pipe.InitBuffer(bb, P * sizeof(T)); pipe.InitBuffer(bo, P * sizeof(T));
  LocalTensor<T> x = ba.Get<T>(), y = bb.Get<T>(), z = bo.Get<T>();
  DataCopy(x, a, P); DataCopy(y, b, P);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * P], z, P); ++k; };
  const T zero = 0, three = 3, big = (T)(sizeof(T) == 2 ? 30000 : 2000000000);
  Duplicate(z, zero, P); Add(z, x, y, N); out_();
  Duplicate(z, zero, P); Sub(z, x, y, N); out_();
  Duplicate(z, zero, P); Mul(z, x, y, N); out_();
  Duplicate(z, zero, P); Max(z, x, y, N); out_();
  Duplicate(z, zero, P); Min(z, x, y, N); out_();
  Duplicate(z, zero, P); Adds(z, x, big, N); out_();
  Duplicate(z, zero, P); Muls(z, x, three, N); out_();
  Duplicate(z, zero, P); Maxs(z, x, big, N); out_();
  Duplicate(z, zero, P); Mins(z, x, (T)(-big), N); out_();
  Duplicate(z, zero, P); z = x + y; out_();   // the operator form computes dst.GetSize() elements
}
static void body(void*) { run<int16_t>(0, 1, 0); run<int32_t>(2, 3, 1); }
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("基础算术/Add", "基础算术/Sub", "基础算术/Mul", "基础算术/Max", "基础算术/Min", "基础算术/Adds",
                 "基础算术/Muls", "基础算术/Maxs", "基础算术/Mins")
def test_integer_dtypes_wrap_and_compare_exactly(prog) -> None:
    rng = np.random.default_rng(7)
    n, p = 200, 256
    x16 = rng.integers(-2**15, 2**15, p, dtype=np.int16)
    y16 = rng.integers(-2**15, 2**15, p, dtype=np.int16)
    # int32 values beyond 2^24 (not exact in float): max/min must compare the integers
    x32 = rng.integers(-2**31, 2**31, p, dtype=np.int64).astype(np.int32)
    y32 = (x32.astype(np.int64) + rng.integers(-3, 4, p)).clip(-2**31, 2**31 - 1).astype(np.int32)
    prog.inputs(x16, y16, x32, y32)
    ran = prog.run(INT_BINARY)
    assert ran.returncode == 0, ran.stderr
    for out, (x, y, t, big) in enumerate(((x16, y16, np.int16, 30000), (x32, y32, np.int32, 2000000000))):
        got = prog.output(out, t).reshape(10, p)
        xs, ys = x[:n].astype(np.int64), y[:n].astype(np.int64)
        bits = np.iinfo(t).bits

        def wrap(v, bits=bits, t=t):
            v = np.asarray(v, np.int64) & ((1 << bits) - 1)
            return np.where(v >= 1 << (bits - 1), v - (1 << bits), v).astype(t)

        want = [wrap(xs + ys), wrap(xs - ys), wrap(xs * ys), np.maximum(xs, ys).astype(t), np.minimum(xs, ys).astype(t),
                wrap(xs + big), wrap(xs * 3), np.maximum(xs, big).astype(t), np.minimum(xs, -big).astype(t)]
        for i, w in enumerate(want):
            np.testing.assert_array_equal(got[i, :n], w, err_msg=f"{t.__name__} op {i}")
            assert np.all(got[i, n:] == 0), f"{t.__name__} op {i} wrote past count"
        np.testing.assert_array_equal(got[9], wrap(x.astype(np.int64) + y.astype(np.int64)))


MASK_FORMS = """
static void body(void*) {
  GlobalTensor<float> a, b, o; GlobalTensor<half> ah, oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 256);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2), 512);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 256 * 4), 8 * 256);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 4 * 512 * 2), 4 * 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bo, bh, bz;
  pipe.InitBuffer(ba, 1024); pipe.InitBuffer(bb, 1024); pipe.InitBuffer(bo, 1024);
  pipe.InitBuffer(bh, 1024); pipe.InitBuffer(bz, 1024);
  LocalTensor<float> x = ba.Get<float>(), y = bb.Get<float>(), z = bo.Get<float>();
  LocalTensor<half> xh = bh.Get<half>(), zh = bz.Get<half>();
  DataCopy(x, a, 256); DataCopy(y, b, 256); DataCopy(xh, ah, 512);
  int k = 0, kh = 0;
  auto out_ = [&]() { DataCopy(o[k * 256], z, 256); ++k; };
  auto outh = [&]() { DataCopy(oh[kh * 512], zh, 512); ++kh; };
  const float s = 7.0f;
  // 0: continuous mask 100 > 64 floats per repeat acts as a whole repeat; 2 repeats
  Duplicate(z, s, 256); Add(z, x, y, 100, 2, BinaryRepeatParams()); out_();
  // 1: mask 0 and repeatTime 0 are no-ops
  const uint64_t none = 0;  // (a literal 0 would also be a null mask[] pointer: ambiguous, as with the real API)
  Duplicate(z, s, 256); Sub(z, x, y, none, 2, BinaryRepeatParams()); Sub(z, x, y, 64, 0, BinaryRepeatParams()); out_();
  // 2: the scalar-type-U overload, bit mask (elements 0, 3, 63) with src repeat stride 0 (the same 64 inputs twice)
  uint64_t bits[2] = {(1ull << 0) | (1ull << 3) | (1ull << 63), 0};
  Duplicate(z, s, 256); Muls<float, float, true>(z, x, 2.0f, bits, 2, UnaryRepeatParams(1, 1, 8, 0)); out_();
  // 3: the precision-config template forms (no effect on A2/A3)
  static constexpr ExpConfig ec = {ExpAlgo::PRECISION_1ULP_FTZ_FALSE};
  static constexpr DivConfig dc = {DivAlgo::DIFF_COMPENSATION};
  Duplicate(z, s, 256); Exp<float, ec>(z, x, 64); Div<float, false, dc>(z[64], x[64], y[64], MASK_PLACEHOLDER, 1,
                                                                       BinaryRepeatParams()); out_();
  // 4: operator forms over the whole destination
  z = x - y; out_();
  z = x * y; out_();
  z = x / y; out_();
  // 7: a dst block stride of 2 spreads the 8 blocks of a repeat
  Duplicate(z, s, 256); Maxs(z, x, 0.0f, 64, 1, UnaryRepeatParams(2, 1, 8, 8)); out_();
  // half: counter mode with the mask register (isSetMask = false on the count form and on a mask form)
  Duplicate(zh, (half)s, 512);
  SetMaskCount(); SetVectorMask<half, MaskMode::COUNTER>(0, 130);
  Adds<half, false>(zh, xh, (half)1, 1);
  SetMaskNorm(); ResetMask(); outh();
  Duplicate(zh, (half)s, 512);
  SetMaskCount(); SetVectorMask<half, MaskMode::COUNTER>(0, 300);
  Mins<half, false>(zh, xh, (half)0, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
  SetMaskNorm(); ResetMask(); outh();
  // the count form with isSetMask = true leaves normal mode: a mask form afterwards masks per repeat
  Duplicate(zh, (half)s, 512); Adds(zh, xh, (half)1, 10);
  Adds(zh[256], xh[256], (half)1, 16, 2, UnaryRepeatParams()); outh();
  // bit mask with only the high word (elements 64..127) for half
  uint64_t hi[2] = {0, ~0ull};
  Duplicate(zh, (half)s, 512); LeakyRelu(zh, xh, (half)0.5, hi, 1, UnaryRepeatParams()); outh();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("基础算术/Add", "基础算术/Sub", "基础算术/Muls", "基础算术/Exp", "基础算术/Div", "基础算术/Mul",
                 "基础算术/Maxs", "基础算术/Adds", "基础算术/Mins", "基础算术/LeakyRelu")
def test_mask_forms_counter_mode_and_operators(prog) -> None:
    rng = np.random.default_rng(11)
    x = rng.standard_normal(256).astype(np.float32)
    y = (rng.standard_normal(256) + 4).astype(np.float32)
    xh = rng.standard_normal(512).astype(np.float16)
    prog.inputs(x, y, xh)
    ran = prog.run(MASK_FORMS)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(8, 256)
    s = np.float32(7.0)
    w = np.full(256, s, np.float32)
    w[:128] = x[:128] + y[:128]
    np.testing.assert_array_equal(got[0], w)
    np.testing.assert_array_equal(got[1], np.full(256, s, np.float32))
    w = np.full(256, s, np.float32)
    for r in range(2):
        for k in (0, 3, 63):
            w[r * 64 + k] = x[k] * 2
    np.testing.assert_array_equal(got[2], w)
    w = np.full(256, s, np.float32)
    w[:64] = np.exp(x[:64])
    w[64:128] = x[64:128] / y[64:128]
    np.testing.assert_allclose(got[3], w, rtol=1e-6)
    np.testing.assert_array_equal(got[4], x - y)
    np.testing.assert_array_equal(got[5], x * y)
    np.testing.assert_allclose(got[6], x / y, rtol=1e-6)
    w = np.full(256, s, np.float32)
    for blk in range(8):
        w[16 * blk:16 * blk + 8] = np.maximum(x[8 * blk:8 * blk + 8], 0)
    np.testing.assert_array_equal(got[7], w)
    gh = prog.output(1, np.float16).reshape(4, 512)
    sh = np.float16(7)
    w = np.full(512, sh, np.float16)
    w[:130] = xh[:130] + np.float16(1)
    np.testing.assert_array_equal(gh[0], w)
    w = np.full(512, sh, np.float16)
    w[:300] = np.minimum(xh[:300], np.float16(0))
    np.testing.assert_array_equal(gh[1], w)
    w = np.full(512, sh, np.float16)
    w[:10] = xh[:10] + np.float16(1)
    w[256:272] = xh[256:272] + np.float16(1)
    w[384:400] = xh[384:400] + np.float16(1)
    np.testing.assert_array_equal(gh[2], w)
    w = np.full(512, sh, np.float16)
    seg = xh[64:128]
    w[64:128] = np.where(seg >= 0, seg, (seg.astype(np.float32) * np.float32(0.5)).astype(np.float16))
    np.testing.assert_array_equal(gh[3], w)


UNARY_HALF = """
static void body(void*) {
  GlobalTensor<half> a, o; GlobalTensor<int32_t> ai, oi;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 256);
  ai.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(1), 64);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 7 * 256 * 2), 7 * 256);
  oi.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(1, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo, bi;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bo, 512); pipe.InitBuffer(bi, 256);
  LocalTensor<half> x = ba.Get<half>(), z = bo.Get<half>();
  LocalTensor<int32_t> xi = bi.Get<int32_t>();
  DataCopy(x, a, 256); DataCopy(xi, ai, 64);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 256], z, 256); ++k; };
  Abs(z, x, 256); out_();
  Abs(z, x, 256); Ln<half>(z, z, 256); out_();
  Abs(z, x, 256); Sqrt<half, DEFAULT_SQRT_CONFIG>(z, z, 256); out_();
  Abs(z, x, 256); Rsqrt(z, z, 128, 2, UnaryRepeatParams()); out_();
  Reciprocal(z, x, 256); out_();
  Relu(z, x, 256); out_();
  Exp(z, x, 256); out_();
  Relu(xi, xi, 64);
  DataCopy(oi, xi, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("基础算术/Abs", "基础算术/Ln", "基础算术/Sqrt", "基础算术/Rsqrt", "基础算术/Reciprocal",
                 "基础算术/Relu", "基础算术/Exp")
def test_unary_half_rounds_once_and_relu_int32(prog) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(256) * 3).astype(np.float16)
    xi = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    prog.inputs(x, xi)
    ran = prog.run(UNARY_HALF)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(7, 256)
    xf = x.astype(np.float32)
    ax = np.abs(xf)
    with np.errstate(divide="ignore"):
        want = [ax, np.log(ax), np.sqrt(ax), 1 / np.sqrt(ax), 1 / xf, np.maximum(xf, 0), np.exp(xf)]
    for i, w in enumerate(want):
        # computed in float and rounded once to half
        np.testing.assert_array_equal(got[i], w.astype(np.float16), err_msg=f"op {i}")
    np.testing.assert_array_equal(prog.output(1, np.int32), np.maximum(xi, 0))


BILINEAR = """
static void body(void*) {
  GlobalTensor<half> a0, a1, o; GlobalTensor<uint32_t> ao;
  a0.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 512);
  ao.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(1), 32);
  a1.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2), 32);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 2 * 256 * 2), 2 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, bo, b1, bd, bt;
  pipe.InitBuffer(b0, 1024); pipe.InitBuffer(bo, 128); pipe.InitBuffer(b1, 64); pipe.InitBuffer(bd, 512);
  pipe.InitBuffer(bt, 512 * 32 + 32 * 32);
  LocalTensor<half> s0 = b0.Get<half>(), s1 = b1.Get<half>(), d = bd.Get<half>();
  LocalTensor<uint32_t> off = bo.Get<uint32_t>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(s0, a0, 512); DataCopy(off, ao, 32); DataCopy(s1, a1, 32);
  Duplicate(d, (half)0, 256);
  BilinearInterpolation(d, s0, off, s1, 128, 2, false, 1, 128, 2, tmp);   // the page's example
  DataCopy(o, d, 256);
  uint64_t m[2] = {~0ull, ~0ull};
  Duplicate(d, (half)0, 256);
  BilinearInterpolation(d, s0, off, s1, m, 2, true, 1, 128, 2, tmp);    // repeatMode: one weight per block
  DataCopy(o[256], d, 256);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("基础算术/BilinearInterpolation(ISASI)")
def test_bilinear_interpolation_page_example(prog) -> None:
    src0 = np.arange(1, 513).astype(np.float16)
    off = (np.arange(32) * 32).astype(np.uint32)           # byte offsets of the 32 blocks, in order
    src1 = np.arange(2, 34).astype(np.float16)
    prog.inputs(src0, off, src1)
    ran = prog.run(BILINEAR)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(2, 256)
    blocks = src0.reshape(4, 128)                           # iteration i gathers 8 blocks = 128 halves

    def h(v):
        return np.asarray(v, np.float32).astype(np.float16)

    prod = [h(blocks[i].astype(np.float32) * np.float32(src1[i])) for i in range(4)]
    want = np.concatenate([h(prod[0].astype(np.float32) + prod[1]), h(prod[2].astype(np.float32) + prod[3])])
    np.testing.assert_array_equal(got[0], want)
    w = src1.astype(np.float32)
    prod = [h(blocks[i].astype(np.float32) * np.repeat(w[8 * i:8 * i + 8], 16)) for i in range(4)]
    want = np.concatenate([h(prod[0].astype(np.float32) + prod[1]), h(prod[2].astype(np.float32) + prod[3])])
    np.testing.assert_array_equal(got[1], want)
