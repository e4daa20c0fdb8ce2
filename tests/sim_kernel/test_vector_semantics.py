"""Per-API semantics of the simulator's kernel side, checked against numpy/torch expectations."""

from __future__ import annotations

import numpy as np
import pytest

POISON32 = np.frombuffer(b"\xa5" * 4, dtype=np.float32)[0]

ELEMENTWISE = """
static void body(void*) {
  const int N = 1000, P = 1024;  // 1000 valid elements, buffers of 1024
  GlobalTensor<float> a, b, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), P);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), P);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 20 * P * 4), 20 * P);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bo;
  pipe.InitBuffer(ba, P * 4); pipe.InitBuffer(bb, P * 4); pipe.InitBuffer(bo, P * 4);
  LocalTensor<float> x = ba.Get<float>(), y = bb.Get<float>(), z = bo.Get<float>();
  DataCopy(x, a, P); DataCopy(y, b, P);
  int k = 0;
  auto out = [&]() { DataCopy(o[k * P], z, P); ++k; };
  Duplicate(z, 0.0f, P); Add(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Sub(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Mul(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Div(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Max(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Min(z, x, y, N); out();
  Duplicate(z, 0.0f, P); Adds(z, x, 1.5f, N); out();
  Duplicate(z, 0.0f, P); Muls(z, x, -2.0f, N); out();
  Duplicate(z, 0.0f, P); Maxs(z, x, 0.25f, N); out();
  Duplicate(z, 0.0f, P); Mins(z, x, 0.25f, N); out();
  Duplicate(z, 0.0f, P); Exp(z, x, N); out();
  Duplicate(z, 0.0f, P); Abs(z, x, N); out();
  Duplicate(z, 0.0f, P); Abs(z, x, N); Ln(z, z, N); out();
  Duplicate(z, 0.0f, P); Abs(z, x, N); Sqrt(z, z, N); out();
  Duplicate(z, 0.0f, P); Relu(z, x, N); out();
  Duplicate(z, 0.0f, P); LeakyRelu(z, x, 0.1f, N); out();
  Duplicate(z, 0.0f, P); Duplicate(z, 3.0f, N); out();
  Duplicate(z, 0.0f, P); DataCopy(z, y, P); Axpy(z, x, 0.5f, N); out();
  Duplicate(z, 0.0f, P); Reciprocal(z, y, N); out();
  Duplicate(z, 0.0f, P); Abs(z, x, N); Rsqrt(z, z, N); out();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api(
    "Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Maxs", "Mins", "基础算术/Exp", "Abs", "Ln", "Sqrt",
    "Relu", "LeakyRelu", "Duplicate", "复合计算/Axpy", "Reciprocal", "Rsqrt",
)
def test_elementwise_count_form_float(prog) -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(1024).astype(np.float32)
    y = (rng.standard_normal(1024) + 3).astype(np.float32)
    prog.inputs(x, y)
    ran = prog.run(ELEMENTWISE)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(20, 1024)
    n = 1000
    xs, ys = x[:n], y[:n]
    ax = np.abs(xs)
    want = [xs + ys, xs - ys, xs * ys, xs / ys, np.maximum(xs, ys), np.minimum(xs, ys), xs + 1.5, xs * -2.0,
            np.maximum(xs, 0.25), np.minimum(xs, 0.25), np.exp(xs), ax, np.log(ax), np.sqrt(ax),
            np.maximum(xs, 0), np.where(xs >= 0, xs, xs * 0.1), np.full(n, 3.0), xs * 0.5 + ys, 1 / ys, 1 / np.sqrt(ax)]
    for i, w in enumerate(want):
        np.testing.assert_allclose(got[i, :n], w.astype(np.float32), rtol=1e-6, atol=1e-6, err_msg=f"op {i}")
        # the tail beyond calCount is untouched
        if i != 17:  # op 17 starts from a full copy of y
            assert np.all(got[i, n:] == 0.0), f"op {i} wrote past calCount"


MASKS = """
static void body(void*) {
  GlobalTensor<half> a, o;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 512);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 7 * 512 * 2), 7 * 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo;
  pipe.InitBuffer(ba, 1024); pipe.InitBuffer(bo, 1024);
  LocalTensor<half> x = ba.Get<half>(), z = bo.Get<half>();
  DataCopy(x, a, 512);
  BinaryRepeatParams rp;  // 1,1,1,8,8,8
  int k = 0;
  auto out = [&]() { DataCopy(o[k * 512], z, 512); ++k; };
  const half seven = 7;
  // continuous mask 100, 2 repeats
  Duplicate(z, seven, 512); Add(z, x, x, 100, 2, rp); out();
  // bit mask: even elements of the low 64, element 64 of the high word
  uint64_t bits[2] = {0x5555555555555555ull, 1ull};
  Duplicate(z, seven, 512); Add(z, x, x, bits, 1, rp); out();
  // counter mode: 300 elements over 3 repeats
  Duplicate(z, seven, 512);
  SetMaskCount(); SetVectorMask<half, MaskMode::COUNTER>(0, 300);
  Add<half, false>(z, x, x, MASK_PLACEHOLDER, 1, rp);
  SetMaskNorm(); ResetMask(); out();
  // repeat strides: dst repeat stride 16 blocks (skip a repeat), src repeat stride 8
  BinaryRepeatParams rs(1, 1, 1, 16, 8, 8);
  Duplicate(z, seven, 512); Add(z, x, x, 128, 2, rs); out();
  // block stride 2 on dst: elements of block b go to block 2b
  BinaryRepeatParams bs(2, 1, 1, 8, 8, 8);
  Duplicate(z, seven, 512); Add(z, x, x, 64, 1, bs); out();
  // zero mask: dst unchanged
  uint64_t none[2] = {0, 0};
  Duplicate(z, seven, 512); Add(z, x, x, none, 2, rp); out();
  // unary mask form with isSetMask=false after SetVectorMask (normal mode, 16 elements)
  Duplicate(z, seven, 512); SetVectorMask<half>(0, 0xFFFF);
  Muls<half, false>(z, x, (half)2, MASK_PLACEHOLDER, 1, UnaryRepeatParams()); ResetMask(); out();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Add", "Muls", "SetMaskCount", "SetMaskNorm", "SetVectorMask", "ResetMask", "BinaryRepeatParams")
def test_mask_modes_and_strides(prog) -> None:
    x = (np.arange(512) % 50).astype(np.float16)
    prog.inputs(x)
    ran = prog.run(MASKS)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(7, 512)
    two = (x * 2).astype(np.float16)
    seven = np.full(512, 7, np.float16)

    w = seven.copy()
    w[:100] = two[:100]
    w[128:228] = two[128:228]
    np.testing.assert_array_equal(got[0], w)
    w = seven.copy()
    w[0:64:2] = two[0:64:2]
    w[64] = two[64]
    np.testing.assert_array_equal(got[1], w)
    w = seven.copy()
    w[:300] = two[:300]
    np.testing.assert_array_equal(got[2], w)
    w = seven.copy()
    w[0:128] = two[0:128]
    w[256:384] = two[128:256]
    np.testing.assert_array_equal(got[3], w)
    w = seven.copy()
    for blk in range(4):  # 64 halves = 4 blocks of 16
        w[32 * blk:32 * blk + 16] = two[16 * blk:16 * blk + 16]
    np.testing.assert_array_equal(got[4], w)
    np.testing.assert_array_equal(got[5], seven)
    w = seven.copy()
    w[:16] = two[:16]
    np.testing.assert_array_equal(got[6], w)


CAST = """
static void body(void*) {
  GlobalTensor<float> a; GlobalTensor<int32_t> oi; GlobalTensor<half> oh; GlobalTensor<float> of;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  oi.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 5 * 64 * 4), 5 * 64);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 7 * 64 * 2), 7 * 64);
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(2, 3 * 64 * 4), 3 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bi, bh, bf;
  pipe.InitBuffer(ba, 256); pipe.InitBuffer(bi, 256); pipe.InitBuffer(bh, 128); pipe.InitBuffer(bf, 256);
  LocalTensor<float> x = ba.Get<float>(), f = bf.Get<float>();
  LocalTensor<int32_t> i = bi.Get<int32_t>();
  LocalTensor<half> h = bh.Get<half>();
  DataCopy(x, a, 64);
  const RoundMode im[5] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                          RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
  for (int k = 0; k < 5; ++k) { Cast(i, x, im[k], 64); DataCopy(oi[k * 64], i, 64); }
  const RoundMode hm[7] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                           RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
  for (int k = 0; k < 7; ++k) { Cast(h, x, hm[k], 64); DataCopy(oh[k * 64], h, 64); }
  Cast(f, x, RoundMode::CAST_ROUND, 64); DataCopy(of[0], f, 64);
  Cast(h, x, RoundMode::CAST_NONE, 64); Cast(f, h, RoundMode::CAST_NONE, 64); DataCopy(of[64], f, 64);
  Cast(i, x, RoundMode::CAST_TRUNC, 64); Cast(f, i, RoundMode::CAST_NONE, 64); DataCopy(of[128], f, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def _round_away(v: np.ndarray) -> np.ndarray:
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


@pytest.mark.api("Cast")
def test_cast_every_round_mode(prog) -> None:
    tie = 1 + 2.0**-11   # halfway between two halves: 1 and 1 + 2^-10
    below = 1 + 2.0**-12
    vals = [2.5, -2.5, 0.5, -0.5, 1.49999, 3.5, -3.5, 1e10, -1e10, float("nan"), 0.0, 7.0, tie, -tie, below, -below]
    x = np.zeros(64, np.float32)
    x[: len(vals)] = vals
    prog.inputs(x)
    ran = prog.run(CAST)
    assert ran.returncode == 0, ran.stderr
    gi = prog.output(0, np.int32).reshape(5, 64)
    gh = prog.output(1, np.float16).reshape(7, 64)
    gf = prog.output(2, np.float32).reshape(3, 64)
    # float -> int32 in RINT, FLOOR, CEIL, ROUND, TRUNC; saturating, NaN -> 0
    assert gi[0, :7].tolist() == [2, -2, 0, 0, 1, 4, -4]
    assert gi[1, :7].tolist() == [2, -3, 0, -1, 1, 3, -4]
    assert gi[2, :7].tolist() == [3, -2, 1, 0, 2, 4, -3]
    assert gi[3, :7].tolist() == [3, -3, 1, -1, 1, 4, -4]
    assert gi[4, :7].tolist() == [2, -2, 0, 0, 1, 3, -3]
    for row in gi:
        assert row[7] == 2**31 - 1 and row[8] == -(2**31) and row[9] == 0
    # float -> half: NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD at the tie 1 + 2^-11 and below it
    up = np.float16(1 + 2.0**-10)
    t = len(vals) - 4
    assert gh[0, t] == 1 and gh[1, t] == 1          # round half to even
    assert gh[2, t] == 1 and gh[3, t] == up           # floor / ceil
    assert gh[4, t] == up and gh[5, t] == 1           # round half away / trunc
    assert gh[6, t] == up                             # odd: the neighbour with an odd mantissa
    assert gh[2, t + 1] == -up and gh[3, t + 1] == -1 and gh[4, t + 1] == -up and gh[5, t + 1] == -1
    assert gh[1, t + 2] == 1 and gh[3, t + 2] == up and gh[4, t + 2] == 1 and gh[6, t + 2] == up
    assert np.isinf(gh[1, 7]) and np.isnan(gh[1, 9])
    assert gh[2, 7] == np.float16(65504)               # floor of an overflow is the largest half
    # float -> float CAST_ROUND rounds to integral values
    np.testing.assert_array_equal(gf[0, :7], _round_away(x[:7]))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(gf[1, :16], x[:16].astype(np.float16).astype(np.float32))
    assert gf[2, :7].tolist() == [2, -2, 0, 0, 1, 3, -3]


COMPARE = """
static void body(void*) {
  GlobalTensor<float> a, b, o; GlobalTensor<uint8_t> m;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 128);
  m.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_output(0, 64), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 3 * 128 * 4), 3 * 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bm, bo;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bm, 64); pipe.InitBuffer(bo, 512);
  LocalTensor<float> x = ba.Get<float>(), y = bb.Get<float>(), z = bo.Get<float>();
  LocalTensor<uint8_t> mk = bm.Get<uint8_t>();
  DataCopy(x, a, 128); DataCopy(y, b, 128);
  Compare(mk, x, y, CMPMODE::LT, 100);  // 400 bytes: one 256-byte repeat, the 36-element tail is ignored
  DataCopy(m, mk, 32);
  Compare(mk, x, y, CMPMODE::GE, 128);
  Select(z, mk, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 128); DataCopy(o[0], z, 128);
  Select(z, mk, x, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128); DataCopy(o[128], z, 128);
  CompareScalar(mk, x, 0.0f, CMPMODE::GT, 128);
  Select(z, mk, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128); DataCopy(o[256], z, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Compare", "比较与选择/Select")
def test_compare_tail_ignored_and_select(prog) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(128).astype(np.float32)
    y = rng.standard_normal(128).astype(np.float32)
    prog.inputs(x, y)
    ran = prog.run(COMPARE)
    assert ran.returncode == 0, ran.stderr
    m = prog.output(0, np.uint8)
    bits = np.unpackbits(m[:8], bitorder="little").astype(bool)
    np.testing.assert_array_equal(bits, x[:64] < y[:64])
    assert np.all(m[8:32] == 0xA5), "Compare must leave the bits of the ignored tail untouched (poison)"
    o = prog.output(1, np.float32).reshape(3, 128)
    np.testing.assert_array_equal(o[0], np.where(x >= y, x, y))
    np.testing.assert_array_equal(o[1], np.where(x >= y, x, -1.0).astype(np.float32))
    np.testing.assert_array_equal(o[2], np.maximum(x, 0))


REDUCE = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 1024);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 64 * 4), 8 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bw, bo;
  pipe.InitBuffer(ba, 4096); pipe.InitBuffer(bw, 4096); pipe.InitBuffer(bo, 256);
  LocalTensor<float> x = ba.Get<float>(), w = bw.Get<float>(), z = bo.Get<float>();
  DataCopy(x, a, 1024);
  auto out = [&](int k) { DataCopy(o[k * 64], z, 64); };
  Duplicate(z, 0.0f, 64); ReduceSum(z, x, w, 1000); out(0);
  Duplicate(z, 0.0f, 64); ReduceMax(z, x, w, 1000, true); out(1);
  Duplicate(z, 0.0f, 64); ReduceMin(z, x, w, 1000, true); out(2);
  Duplicate(z, 0.0f, 64); WholeReduceSum(z, x, 64, 16, 1, 1, 8); out(3);              // 16 rows of 64
  Duplicate(z, 0.0f, 64); WholeReduceMax(z, x, 64, 8, 1, 1, 8); out(4);               // value/index pairs
  Duplicate(z, 0.0f, 64); BlockReduceSum(z, x, 2, 64, 1, 1, 8); out(5);               // 8 sums per repeat
  Duplicate(z, 0.0f, 64); Brcb(z, x, 1, BrcbRepeatParams(1, 8)); out(6);              // 8 elements -> 8 blocks
  Duplicate(z, 0.0f, 64); WholeReduceMin(z, x, 64, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); out(7);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("归约计算/ReduceSum", "归约计算/ReduceMax", "归约计算/ReduceMin", "Brcb")
def test_reductions(prog) -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal(1024).astype(np.float32)
    prog.inputs(x)
    ran = prog.run(REDUCE)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(8, 64)
    np.testing.assert_allclose(o[0, 0], x[:1000].sum(), rtol=1e-5)
    assert o[1, 0] == x[:1000].max() and o[1, 1:2].view(np.uint32)[0] == np.argmax(x[:1000])
    assert o[2, 0] == x[:1000].min() and o[2, 1:2].view(np.uint32)[0] == np.argmin(x[:1000])
    np.testing.assert_allclose(o[3, :16], x[:1024].reshape(16, 64).sum(1), rtol=1e-5)
    rows = x[:512].reshape(8, 64)
    np.testing.assert_array_equal(o[4, 0:16:2], rows.max(1))
    np.testing.assert_array_equal(o[4, 1:16:2].view(np.uint32), rows.argmax(1))
    np.testing.assert_allclose(o[5, :16], x[:128].reshape(16, 8).sum(1), rtol=1e-6)
    np.testing.assert_array_equal(o[6], np.repeat(x[:8], 8))
    np.testing.assert_array_equal(o[7, :4], x[:256].reshape(4, 64).min(1))


COPY = """
static void body(void*) {
  GlobalTensor<float> a, o1, o2, o3, o4;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o1.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 32 * 4), 32);
  o2.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 48 * 4), 48);
  o3.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(2, 15 * 4), 15);
  o4.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(3, 64 * 4), 64);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  LocalTensor<float> x = q.AllocTensor<float>();
  // DataCopy of 20 floats (80 bytes) copies 64 bytes: elements 16..19 keep the UB poison
  DataCopy(x, a, 20);
  DataCopy(o1, x, 32);
  // DataCopyParams: 3 blocks of 1 x 32 bytes, source gap 1 block, destination gap 0
  DataCopy(x, a, DataCopyParams(3, 1, 1, 0));
  DataCopy(o2, x, 48);
  // DataCopyPad: 3 rows of 5 floats (20 bytes), GM row stride 8 floats (gap 12 bytes), each row padded to
  // 32 bytes in UB with 3 floats of -1
  DataCopyExtParams pin{3, 20, 12, 0, 0};
  DataCopyPadExtParams<float> pad{true, 0, 3, -1.0f};
  DataCopyPad(x, a, pin, pad);
  DataCopy(o4, x, 64);
  // back to GM packed: 3 rows of 20 bytes, no gaps
  DataCopyExtParams pout{3, 20, 0, 0, 0};
  DataCopyPad(o3, x, pout);
  q.EnQue(x);
  LocalTensor<float> y = q.DeQue<float>();
  q.FreeTensor(y);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api(
    "DataCopy（GM与UB-连续数据搬运）", "DataCopy（GM与UB-高维切分数据搬运）", "DataCopyPad（GM -> UB-非对齐数据搬运）",
    "DataCopyPad（UB -> GM-非对齐数据搬运）",
)
def test_datacopy_round_down_and_pad(prog) -> None:
    x = np.arange(256, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(COPY)
    assert ran.returncode == 0, ran.stderr
    o1 = prog.output(0, np.float32)
    np.testing.assert_array_equal(o1[:16], x[:16])
    assert np.all(o1[16:].view(np.uint32) == 0xA5A5A5A5)
    o2 = prog.output(1, np.float32)
    np.testing.assert_array_equal(o2[:8], x[0:8])
    np.testing.assert_array_equal(o2[8:16], x[16:24])
    np.testing.assert_array_equal(o2[16:24], x[32:40])
    o4 = prog.output(3, np.float32).reshape(8, 8)
    for r in range(3):
        np.testing.assert_array_equal(o4[r, :5], x[8 * r:8 * r + 5])
        np.testing.assert_array_equal(o4[r, 5:8], [-1, -1, -1])
    o3 = prog.output(2, np.float32)
    np.testing.assert_array_equal(o3, np.concatenate([x[0:5], x[8:13], x[16:21]]))


ATOMIC = """
static uint8_t *ga, *go;
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)ga, 64);
  o.SetGlobalBuffer((__gm__ float*)go, 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  LocalTensor<float> x = b.Get<float>();
  DataCopy(x, a, 64);
  SetAtomicAdd<float>();
  DataCopy(o, x, 64);
  DataCopyPad(o, x, DataCopyExtParams{1, 40, 0, 0, 0});
  SetAtomicNone();
}
void run_test() {
  ga = npukb_test::gm_input(0);
  go = npukb_test::gm_input(1);
  npukb_test::run_blocks(3, body, nullptr);
  npukb_test::save_input_as_output(1);
}
"""


@pytest.mark.api("SetAtomicAdd")
def test_atomic_add_accumulates_across_blocks(prog) -> None:
    x = np.arange(64, dtype=np.float32)
    base = np.full(64, 100.0, np.float32)
    prog.inputs(x, base)
    ran = prog.run(ATOMIC)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(1, np.float32)
    want = base + 3 * x
    want[:10] += 3 * x[:10]
    np.testing.assert_array_equal(got, want)
