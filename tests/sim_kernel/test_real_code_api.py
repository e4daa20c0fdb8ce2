"""Kernel APIs and device built-ins that real (expert) AscendC kernels use, each checked against numpy:
function-pointer template arguments, pipe-pair flags, vcadd with the accumulate register, the
reduce-register getters, PairReduceSum, Copy, SoftmaxFlashV2 with ShapeInfo, TransDataTo5HD and the
VA-register form, vtranspose, vor, vector_dup, copy_ubuf_to_ubuf, BroadCast, FusedMulAdd / MulAddDst,
SetDeqScale, InitGlobalMemory, Sum / Mean, the block_idx built-in, integer Compare masks. Kernels written
for these tests."""

from __future__ import annotations

import numpy as np
import pytest

HEAD = """
static LocalTensor<float> fbuf(TPipe& pipe, TBuf<TPosition::VECCALC>& b, int n) {
  pipe.InitBuffer(b, n * 4);
  return b.Get<float>();
}
"""

# ---- function pointers as template arguments ------------------------------------------------------
FNPTR = """
template <typename T> using ScalarOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T> using UnaryOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T> using MaskOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                                           uint64_t, const uint8_t, const BinaryRepeatParams&);
template <typename T> using HlOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);
template <typename T, ScalarOp<T>* op> struct ApplyScalar {
  void run(const LocalTensor<T>& d, const LocalTensor<T>& s) { op(d, s, T(2), 64); }
};
template <typename T, UnaryOp<T>* op> struct ApplyUnary {
  void run(const LocalTensor<T>& d, const LocalTensor<T>& s) { op(d, s, 64); }
};
template <typename T, MaskOp<T>* op> struct ApplyMask {
  void run(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b) {
    op(d, a, b, 64, 1, BinaryRepeatParams());
  }
};
template <typename T, HlOp<T>* op> struct ApplyHl {
  void run(const LocalTensor<T>& d, const LocalTensor<T>& s) { op(d, s, 64); }
};

static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 6 * 64 * 4), 6 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  LocalTensor<float> x = fbuf(pipe, bx, 64), z = fbuf(pipe, bz, 64);
  DataCopy(x, a, 64);
  ApplyScalar<float, Muls>().run(z, x); DataCopy(o[0], z, 64);
  ApplyUnary<float, Exp>().run(z, x); DataCopy(o[64], z, 64);
  ApplyMask<float, Sub>().run(z, x, x); DataCopy(o[128], z, 64);
  ApplyHl<float, Sin<float, false>>().run(z, x); DataCopy(o[192], z, 64);
  Exp<float, 15, false>(z, x, 64); DataCopy(o[256], z, 64);   // the high-level Exp overload
  Exp<float>(z, x, 64); DataCopy(o[320], z, 64);              // the basic instruction
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_apis_passed_as_function_pointer_template_arguments(prog) -> None:
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + FNPTR)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(6, 64)
    np.testing.assert_allclose(got[0], x * 2, rtol=1e-6)
    np.testing.assert_allclose(got[4], np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(got[5], np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(got[1], np.exp(x), rtol=1e-6)
    np.testing.assert_array_equal(got[2], np.zeros(64, np.float32))
    np.testing.assert_allclose(got[3], np.sin(x), rtol=1e-5, atol=1e-6)


FNPTR_VIOLATION = """
template <typename T> using ScalarOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T, ScalarOp<T>* op> struct Apply {
  void run(const LocalTensor<T>& d, const LocalTensor<T>& s) { op(d, s, T(1), 65536); }   // past UB's end
};
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx;
  LocalTensor<float> x = fbuf(pipe, bx, 64);
  Apply<float, Adds>().run(x, x);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_violation_through_a_function_pointer_is_still_reported(prog) -> None:
    """The report names the kernel line of the call through the pointer (the call stack's first line in
    the kernel's own source)."""
    ran = prog.run(HEAD + FNPTR_VIOLATION)
    assert ran.returncode != 0
    source = (prog.workdir / "prog.cpp").read_text().splitlines()
    line = next(i for i, text in enumerate(source, 1) if "op(d, s, T(1), 65536)" in text)
    assert "Adds" in ran.stderr and f"prog.cpp:{line})" in ran.stderr, ran.stderr


# ---- pipe-pair flags, block_idx ------------------------------------------------------------------
FLAGS = """
static void body(void*) {
  GlobalTensor<float> o;
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 4), 8);
  set_flag(PIPE_V, PIPE_S, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_S, EVENT_ID1);
  SetFlag<HardEvent::MTE2_V>(2);            // the HardEvent form and the pipe-pair form share the flag
  wait_flag(PIPE_MTE2, PIPE_V, 2);
  o.SetValue(0, (float)block_idx);
  o.SetValue(1, (float)get_block_idx());
  o.SetValue(2, (float)get_block_num());
  int64_t block_idx = 7;                    // a kernel may still declare its own variable of that name
  o.SetValue(3, (float)block_idx);
#ifdef BAD_WAIT
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
#endif
#ifdef BAD_PAIR
  set_flag(PIPE_S, PIPE_S, EVENT_ID0);
#endif
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_pipe_pair_flags_and_block_builtins(prog) -> None:
    ran = prog.run(HEAD + FLAGS)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    assert list(got[:4]) == [0.0, 0.0, 1.0, 7.0]


def test_wait_flag_without_set_is_a_hang(prog) -> None:
    ran = prog.run(HEAD + FLAGS, defines=("BAD_WAIT",))
    assert ran.returncode != 0 and "hang" in ran.stderr and "WaitFlag" in ran.stderr


def test_set_flag_between_pipes_without_a_flag_is_rejected(prog) -> None:
    ran = prog.run(HEAD + FLAGS, defines=("BAD_PAIR",))
    assert ran.returncode != 0 and "no hardware flag runs from PIPE_S to PIPE_S" in ran.stderr


# ---- vcadd, the accumulate register, reduce registers, PairReduceSum -------------------------------
REDUCE = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 512 * 4), 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  LocalTensor<float> x = fbuf(pipe, bx, 256), z = fbuf(pipe, bz, 256);
  DataCopy(x, a, 256);
  Duplicate(z, 0.0f, 256);
  // per-repeat sums of 4 repeats of 64 floats, masked to the first 10 elements of each repeat
  AscendCUtils::SetMask<float>(10);
  vcadd((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(), 4, 1, 1, 8, false);
  // accumulate mode: the sum of every repeat into the register (counter mode, 200 elements)
  set_mask_count();
  set_vector_mask(0, 200);
  vcadd(nullptr, (__ubuf__ float*)x.GetPhyAddr(), 1, 1, 1, 8, true);
  set_mask_norm();
  ResetMask();
  set_flag(PIPE_V, PIPE_S, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
  uint64_t acc = GetAccVal();
  z.SetValue(8, *reinterpret_cast<float*>(&acc));
  // WholeReduceMax in counter mode over 150 elements (the mode set through AscendCUtils), then the
  // extreme and its index from the register
  AscendCUtils::SetMaskCount<float>();
  SetVectorMask<float, MaskMode::COUNTER>(0, 150);
  WholeReduceMax<float, false>(z[64], x, MASK_PLACEHOLDER, 1, 1, 1, 8);
  AscendCUtils::SetMaskNorm<float>();
  ResetMask();
  float val = 0, idx = 0;
  GetReduceMaxMinCount<float>(val, idx);
  z.SetValue(9, val);
  z.SetValue(10, (float)*reinterpret_cast<uint32_t*>(&idx));
  // PairReduceSum of 2 repeats, all 64 lanes
  PairReduceSum(z[128], x, 2, 64, 1, 1, 8);
  DataCopy(o, z, 256);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_vcadd_accumulate_register_reduce_registers_and_pair_reduce(prog) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal(256).astype(np.float32)
    x[137] = 50.0                              # the maximum of the first 150 elements
    prog.inputs(x)
    ran = prog.run(HEAD + REDUCE)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    np.testing.assert_allclose(got[:4], x.reshape(4, 64)[:, :10].sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(got[8], x[:200].sum(), rtol=1e-5)
    assert got[9] == 50.0 and got[10] == 137.0
    np.testing.assert_allclose(got[128:192], x[:128].reshape(64, 2).sum(axis=1), rtol=1e-6)


def test_vcadd_without_destination_needs_the_accumulate_mode(prog) -> None:
    body = REDUCE.replace("vcadd(nullptr, (__ubuf__ float*)x.GetPhyAddr(), 1, 1, 1, 8, true);",
                          "vcadd(nullptr, (__ubuf__ float*)x.GetPhyAddr(), 1, 1, 1, 8, false);")
    prog.inputs(np.zeros(256, np.float32))
    ran = prog.run(HEAD + body)
    assert ran.returncode != 0 and "vcadd" in ran.stderr and "accumulate" in ran.stderr


def test_raw_pointer_outside_the_unified_buffer_is_rejected(prog) -> None:
    body = REDUCE.replace("vcadd((__ubuf__ float*)z.GetPhyAddr(),", "float host[64]; vcadd(host,")
    prog.inputs(np.zeros(256, np.float32))
    ran = prog.run(HEAD + body)
    assert ran.returncode != 0 and "not an address in the unified buffer" in ran.stderr


# ---- data movement inside UB ------------------------------------------------------------------------
MOVES = """
static void body(void*) {
  GlobalTensor<half> a, o;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 1024);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 5 * 1024 * 2), 5 * 1024);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  pipe.InitBuffer(bx, 2048); pipe.InitBuffer(bz, 2048);
  LocalTensor<half> x = bx.Get<half>(), z = bz.Get<half>();
  DataCopy(x, a, 1024);
  // TransDataTo5HD, 16-bit: 16 rows of 16 -> transposed
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) { s[i] = x[16 * i].GetPhyAddr(); d[i] = z[16 * i].GetPhyAddr(); }
  TransDataTo5HD<half>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
  DataCopy(o[0], z, 256);
  // the same through the VA registers and scatter_vnchwconv_b16
  uint64_t va0[8], va1[8], va2[8], va3[8];
  for (int i = 0; i < 8; ++i) {
    va0[i] = z[16 * i].GetPhyAddr(); va1[i] = z[16 * (i + 8)].GetPhyAddr();
    va2[i] = x[16 * i + 256].GetPhyAddr(); va3[i] = x[16 * (i + 8) + 256].GetPhyAddr();
  }
  set_va_reg_sb(VA0, va0); set_va_reg_sb(VA1, va1); set_va_reg_sb(VA2, va2); set_va_reg_sb(VA3, va3);
  scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
  DataCopy(o[256], z, 256);
  // vtranspose of the third 16 x 16 tile
  vtranspose((__ubuf__ uint16_t*)z.GetPhyAddr(), (__ubuf__ uint16_t*)x[512].GetPhyAddr());
  DataCopy(o[512], z, 256);
  // vector_dup (mask 16 lanes, 2 repeats), vor and copy_ubuf_to_ubuf on int16
  LocalTensor<int16_t> zi = z.ReinterpretCast<int16_t>(), xi = x.ReinterpretCast<int16_t>();
  set_vector_mask(0, 0xffff);
  vector_dup((__ubuf__ int16_t*)zi.GetPhyAddr(), (int16_t)7, 2, 1, 1, (uint8_t)8, (uint8_t)8);
  ResetMask();
  vor((__ubuf__ int16_t*)zi[256].GetPhyAddr(), (__ubuf__ int16_t*)xi.GetPhyAddr(),
      (__ubuf__ int16_t*)xi[128].GetPhyAddr(),
      1, 1, 1, 1, 8, 8, 8);
  copy_ubuf_to_ubuf((__ubuf__ void*)zi[512].GetPhyAddr(), (__ubuf__ void*)xi[768].GetPhyAddr(), 0, 2, 2, 2, 0);
  DataCopy(o[768], z, 1024);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_transposes_dup_or_and_ub_copies(prog) -> None:
    bits = np.arange(1024, dtype=np.uint16) * 3 + 1
    prog.inputs(bits.view(np.float16))
    ran = prog.run(MOVES)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.uint16)
    tiles = bits.reshape(4, 16, 16)
    np.testing.assert_array_equal(got[0:256].reshape(16, 16), tiles[0].T)
    np.testing.assert_array_equal(got[256:512].reshape(16, 16), tiles[1].T)
    np.testing.assert_array_equal(got[512:768].reshape(16, 16), tiles[2].T)
    z = got[768:]
    seven = np.full(16, 7, np.uint16)
    np.testing.assert_array_equal(z[0:16], seven)
    np.testing.assert_array_equal(z[128:144], seven)
    np.testing.assert_array_equal(z[256:384], bits[:128] | bits[128:256])
    # two bursts of 2 blocks (32 elements) with a source gap of 2 blocks
    np.testing.assert_array_equal(z[512:544], bits[768:800])
    np.testing.assert_array_equal(z[544:576], bits[832:864])


TRANS32 = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 128 * 4), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  LocalTensor<float> x = fbuf(pipe, bx, 128), z = fbuf(pipe, bz, 128);
  DataCopy(x, a, 128);
  __ubuf__ float* src[16]; __ubuf__ float* dst[16];
  for (int i = 0; i < 16; ++i) {
    src[i] = (__ubuf__ float*)x[8 * i].GetPhyAddr();
    dst[i] = (__ubuf__ float*)z[8 * i].GetPhyAddr();
  }
  TransDataTo5HDImpl(dst, src, TransDataTo5HDParams(false, false, 1, 0, 0));
  DataCopy(o, z, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("TransDataTo5HD")
def test_trans_data_to_5hd_32_bit(prog) -> None:
    x = np.arange(128, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + TRANS32)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(16, 8)
    src = x.reshape(16, 8)
    # element j of the 16 source blocks fills destination blocks 2j (sources 0..7) and 2j+1 (8..15)
    for j in range(8):
        np.testing.assert_array_equal(got[2 * j], src[:8, j])
        np.testing.assert_array_equal(got[2 * j + 1], src[8:, j])


# ---- Copy, BroadCast, FusedMulAdd, MulAddDst, Sum, Mean, SetDeqScale, InitGlobalMemory ------------
MISC = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 256 * 4), 8 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, bt;
  LocalTensor<float> x = fbuf(pipe, bx, 256), z = fbuf(pipe, bz, 256);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(x, a, 256);
  int k = 0;
  auto out = [&]() { DataCopy(o[k * 256], z, 256); ++k; };
  Duplicate(z, 0.0f, 256); Copy(z, x, 16, 2, CopyRepeatParams(1, 1, 8, 8)); out();
  const uint32_t d2[2] = {4, 16}, s0[2] = {1, 16}, s1[2] = {4, 1};
  Duplicate(z, 0.0f, 256); BroadCast<float, 2, 0>(z, x, d2, s0, tmp); out();
  Duplicate(z, 0.0f, 256); BroadCast<float, 2, 1>(z, x, d2, s1); out();
  DataCopy(z, x, 256); FusedMulAdd(z, x[64], x[128], 64); out();       // z = x[64:] * z + x[128:]
  DataCopy(z, x, 256); MulAddDst(z, x[64], x[128], 64); out();         // z = x[64:] * x[128:] + z
  Duplicate(z, 0.0f, 256);
  Sum(z, x, SumParams{2, 16, 10}); Mean(z[8], x, MeanParams{2, 16, 10}); out();
  GlobalTensor<float> g = o[k * 256];
  InitGlobalMemory(g, 100, 2.5f);
  InitOutput<float>(o[k * 256 + 100], 20);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_copy_broadcast_fused_ops_sum_mean_and_gm_init(prog) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(256).astype(np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + MISC)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(8, 256)
    want = np.zeros(256, np.float32)
    want[0:16], want[64:80] = x[0:16], x[64:80]
    np.testing.assert_array_equal(got[0], want)
    np.testing.assert_array_equal(got[1][:64], np.tile(x[:16], 4))
    np.testing.assert_array_equal(got[2][:64], np.repeat(x[:4], 16))
    np.testing.assert_allclose(got[3][:64], x[64:128] * x[:64] + x[128:192], rtol=1e-6)
    np.testing.assert_allclose(got[4][:64], x[64:128] * x[128:192] + x[:64], rtol=1e-6)
    rows = x[:32].reshape(2, 16)[:, :10]
    np.testing.assert_allclose(got[5][:2], rows.sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(got[5][8:10], rows.mean(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(got[6][:100], np.full(100, 2.5, np.float32))
    np.testing.assert_array_equal(got[6][100:120], np.zeros(20, np.float32))


DEQ = """
static void body(void*) {
  GlobalTensor<int32_t> a;
  GlobalTensor<half> o;
  a.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(0), 64);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 128 * 2), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(bz, 256);
  LocalTensor<int32_t> x = bx.Get<int32_t>();
  LocalTensor<half> z = bz.Get<half>();
  DataCopy(x, a, 64);
  Cast(z, x, RoundMode::CAST_NONE, 64);           // DEQSCALE 1.0 until set
  SetDeqScale((half)0.5);
  Cast(z[64], x, RoundMode::CAST_NONE, 64);
  DataCopy(o, z, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SetDeqScale")
def test_set_deq_scale_scales_int32_to_half_casts(prog) -> None:
    x = np.arange(-32, 32, dtype=np.int32) * 3
    prog.inputs(x)
    ran = prog.run(DEQ)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).astype(np.float32)
    np.testing.assert_array_equal(got[:64], x.astype(np.float32))
    np.testing.assert_array_equal(got[64:], (x * 0.5).astype(np.float16).astype(np.float32))


MASK_DTYPE = """
static void body(void*) {
  GlobalTensor<float> a, b;
  GlobalTensor<int8_t> o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 64);
  o.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_output(0, 32), 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bm;
  LocalTensor<float> x = fbuf(pipe, bx, 64), y = fbuf(pipe, by, 64);
  pipe.InitBuffer(bm, 32);
  LocalTensor<int8_t> m = bm.Get<int8_t>();
  DataCopy(x, a, 64); DataCopy(y, b, 64);
  Compare(m, x, y, CMPMODE::LT, 64);           // an int8_t mask, as real kernels pass it
  Select(x, m, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
  DataCopy(o, m, 32);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_compare_and_select_accept_a_signed_mask_tensor(prog) -> None:
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    prog.inputs(x, y)
    ran = prog.run(HEAD + MASK_DTYPE)
    assert ran.returncode == 0, ran.stderr
    bits = np.unpackbits(prog.output(0, np.uint8)[:8], bitorder="little")
    np.testing.assert_array_equal(bits.astype(bool), x < y)


# ---- overlapping operands -------------------------------------------------------------------------
OVERLAP = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 256 * 4), 3 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx;
  LocalTensor<float> x = fbuf(pipe, bx, 256);
  // dst 8 elements (one block) ahead of src, 64 elements = one repeat: read before written
  DataCopy(x, a, 256);
  Adds(x[8], x, 1.0f, 64);
  DataCopy(o[0], x, 256);
  // the same over 3 repeats: each repeat reads its sources before it writes
  DataCopy(x, a, 256);
  Adds(x[64], x, 1.0f, 192);
  DataCopy(o[256], x, 256);
  // a high-level API reads its whole source first: Sigmoid with dst shifted by GetWithOffset
  TBuf<TPosition::VECCALC> bc;
  pipe.InitBuffer(bc, 2 * 256 * 4);
  LocalTensor<float> c1 = bc.Get<float>(128);
  LocalTensor<float> c2 = bc.GetWithOffset<float>(128, 128);   // bytes: starts at element 32 of c1
  DataCopy(c1, a, 128);
  Sigmoid(c2, c1, 128);
  DataCopy(o[512], c2, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_overlapping_operands_give_the_hardware_result(prog) -> None:
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + OVERLAP)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(3, 256)
    want = x.copy()
    want[8:72] = x[0:64] + 1
    np.testing.assert_array_equal(got[0], want)
    want = x.copy()
    for r in range(3):                       # repeat r reads x[64r:64r+64] as left by repeat r-1
        want[64 * (r + 1):64 * (r + 2)] = want[64 * r:64 * (r + 1)] + 1
    np.testing.assert_array_equal(got[1], want)
    np.testing.assert_allclose(got[2][:128], 1 / (1 + np.exp(-x[:128])), rtol=1e-6)


# ---- repeats that accumulate into one destination (mask form, zero repeat strides) ----------------
ACCUMULATE = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 2 * 64 * 4), 2 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bw, bd;
  LocalTensor<float> x = fbuf(pipe, bx, 256);
  LocalTensor<float> w = fbuf(pipe, bw, 64);
  LocalTensor<float> d = fbuf(pipe, bd, 64);
  DataCopy(x, a, 256);
  Duplicate(w, 0.0f, 64);
  Duplicate(d, 0.0f, 64);
  pipe_barrier(PIPE_V);
  // w += x[64r .. 64r+63] for r = 0..3: every repeat reads what the previous one wrote (RmsNorm's idiom)
  Add(w, x, w, 64, 4, BinaryRepeatParams(1, 1, 1, 0, 8, 0));
  pipe_barrier(PIPE_V);
  AscendCUtils::SetMask<float>(64);
  vcadd((__ubuf__ float*)d.GetPhyAddr(), (__ubuf__ float*)w.GetPhyAddr(), 1, 0, 1, 0, false);
  pipe_barrier(PIPE_V);
  DataCopy(o, w, 64);
  DataCopy(o[64], d, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_repeats_accumulating_into_one_destination_see_each_others_results(prog) -> None:
    x = np.arange(256, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + ACCUMULATE)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    want = x.reshape(4, 64).sum(axis=0)
    np.testing.assert_array_equal(got[:64], want)       # element 0 of every repeat too
    assert got[64] == want.sum()


# ---- GM: reads into a tensor's 512-byte allocation granule, writes into its last 32-byte block ------
GM_TAIL = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 100);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 100 * 4), 100);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx;
  LocalTensor<float> x = fbuf(pipe, bx, 160);
  Duplicate(x, 0.0f, 160);
  DataCopy(x, a, READ_COUNT);   // 100 floats = 400 bytes; the 512-byte granule ends at 128 floats
  DataCopy(o, x, WRITE_COUNT);  // the last 32-byte block ends at 104 floats
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_gm_read_into_the_allocation_granule_is_legal(prog) -> None:
    x = np.arange(100, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + GM_TAIL, defines=("READ_COUNT=128", "WRITE_COUNT=104"))
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_array_equal(prog.output(0, np.float32)[:100], x)


def test_gm_read_past_the_allocation_granule_is_rejected(prog) -> None:
    prog.inputs(np.arange(100, dtype=np.float32))
    ran = prog.run(HEAD + GM_TAIL, defines=("READ_COUNT=136", "WRITE_COUNT=104"))
    assert ran.returncode != 0 and "DataCopy" in ran.stderr and "out of bounds" in ran.stderr


def test_gm_write_past_the_last_32_byte_block_is_rejected(prog) -> None:
    prog.inputs(np.arange(100, dtype=np.float32))
    ran = prog.run(HEAD + GM_TAIL, defines=("READ_COUNT=104", "WRITE_COUNT=112"))
    assert ran.returncode != 0 and "DataCopy" in ran.stderr and "out of bounds" in ran.stderr


# ---- SoftMax -----------------------------------------------------------------------------------
SOFTMAX = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 64 * 4), 3 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bs, bm;
  LocalTensor<float> x = fbuf(pipe, bx, 64), s = fbuf(pipe, bs, 64), m = fbuf(pipe, bm, 64);
  DataCopy(x, a, 64);
  Duplicate(s, 0.0f, 64); Duplicate(m, 0.0f, 64);
  SoftMaxTiling tiling{};
  SoftMax<float>(x, s, m, x, tiling, SoftMaxShapeInfo{4, 16, 4, 10});   // in place, 10 valid of 16
  DataCopy(o[0], x, 64); DataCopy(o[64], s, 64); DataCopy(o[128], m, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SoftMax")
def test_softmax_rows_with_sum_and_max_outputs(prog) -> None:
    rng = np.random.default_rng(11)
    x = rng.standard_normal(64).astype(np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + SOFTMAX)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(3, 64)
    rows = x.reshape(4, 16)[:, :10]
    mx = rows.max(axis=1, keepdims=True)
    e = np.exp(rows - mx)
    np.testing.assert_allclose(got[0].reshape(4, 16)[:, :10], e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    # the padding takes part in the elementwise steps (the docs: its results overwrite it), not the reductions
    pad = x.reshape(4, 16)[:, 10:]
    np.testing.assert_allclose(got[0].reshape(4, 16)[:, 10:], np.exp(pad - mx) / e.sum(axis=1, keepdims=True),
                               rtol=1e-5)
    np.testing.assert_allclose(got[1][:32].reshape(4, 8), np.repeat(e.sum(axis=1, keepdims=True), 8, axis=1), rtol=1e-5)
    np.testing.assert_array_equal(got[2][:32].reshape(4, 8), np.repeat(mx, 8, axis=1))


# ---- SoftmaxFlashV2: FlashAttention-2's running softmax over two key blocks ------------------------
FLASH_V2 = """
static_assert(IsSameType<Conditional<true, float, int>::type, float>::value, "Conditional picks A");
static_assert(IsSameType<Conditional<false, float, int>::type, int>::value, "Conditional picks B");
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 5 * 64 * 4), 5 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b1, b2, bs, bm, be, bt;
  LocalTensor<float> x1 = fbuf(pipe, b1, 64), x2 = fbuf(pipe, b2, 64), s = fbuf(pipe, bs, 32),
                     m = fbuf(pipe, bm, 32), e = fbuf(pipe, be, 32);
  pipe.InitBuffer(bt, 4096);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(x1, a, 64); DataCopy(x2, a[64], 64);
  Duplicate(s, -1.0f, 32); Duplicate(m, -1.0f, 32); Duplicate(e, -1.0f, 32);
  uint32_t shape[] = {4, 16}, valid[] = {4, 12};
  x1.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));             // the first key block: 16 valid columns
  x2.SetShapeInfo(ShapeInfo(2, shape, 2, valid, DataFormat::ND));   // the second: 12 of 16
  SoftMaxTiling t1 = SoftMaxFlashV2TilingFuncImpl(4, 16, 4, 4, tmp.GetSize() / 4, false, true);
  SoftmaxFlashV2<float, false, true>(x1, s, m, x1, e, s, m, tmp, t1);       // in place, no update
  DataCopy(o[0], x1, 64);
  SoftMaxTiling t2 = SoftMaxFlashV2TilingFuncImpl(4, 16, 4, 4, tmp.GetSize() / 4, true, false);
  SoftmaxFlashV2<float, true>(x2, s, m, x2, e, s, m, tmp, t2);    // the running sum and max in place
  DataCopy(o[64], x2, 64); DataCopy(o[128], s, 32); DataCopy(o[160], m, 32); DataCopy(o[192], e, 32);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SoftmaxFlashV2")
def test_softmax_flash_v2_folds_a_second_key_block_into_the_running_max_and_sum(prog) -> None:
    rng = np.random.default_rng(5)
    x = (3 * rng.standard_normal(128)).astype(np.float32)
    prog.inputs(x)
    ran = prog.run(HEAD + FLASH_V2)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    first, second = x[:64].reshape(4, 16), x[64:].reshape(4, 16)[:, :12]
    max1 = first.max(axis=1, keepdims=True)
    np.testing.assert_allclose(got[:64].reshape(4, 16), np.exp(first - max1), rtol=1e-5)
    whole = np.concatenate([first, second], axis=1)
    final = whole.max(axis=1, keepdims=True)
    out2 = got[64:128].reshape(4, 16)
    np.testing.assert_allclose(out2[:, :12], np.exp(second - final), rtol=1e-5)
    np.testing.assert_allclose(out2[:, 12:], np.exp(x[64:].reshape(4, 16)[:, 12:] - final), rtol=1e-5)  # padding: exp
    # the running sum is the whole row's (both blocks, each against the final max)
    np.testing.assert_allclose(got[128:160].reshape(4, 8), np.repeat(np.exp(whole - final).sum(axis=1, keepdims=True),
                                                                      8, axis=1), rtol=1e-5)
    np.testing.assert_array_equal(got[160:192].reshape(4, 8), np.repeat(final, 8, axis=1))
    # expMax rescales what the first block contributed (the previous output)
    np.testing.assert_allclose(got[192:224].reshape(4, 8), np.repeat(np.exp(max1 - final), 8, axis=1), rtol=1e-6)


FLASH_V2_HALF = """
static void body(void*) {
  GlobalTensor<half> a, o;
  GlobalTensor<float> f;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 64);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 96 * 2), 96);
  f.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 32 * 4), 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bs, bm, be;
  pipe.InitBuffer(bx, 64 * 2); pipe.InitBuffer(be, 32 * 2);
  LocalTensor<half> x = bx.Get<half>(), e = be.Get<half>();
  LocalTensor<float> s = fbuf(pipe, bs, 16), m = fbuf(pipe, bm, 16);
  DataCopy(x, a, 64);
  SoftMaxTiling tiling{};
  SoftMaxShapeInfo rows{2, 16, 2, 16};
  SoftmaxFlashV2<half>(x, s, m, x, e, s, m, tiling, rows);                  // the first block: x[0:32]
  DataCopy(o[0], x, 32);
  SoftmaxFlashV2<half, true>(x[32], s, m, x[32], e, s, m, tiling, rows);    // the second: x[32:64]
  DataCopy(o[32], x[32], 32); DataCopy(o[64], e, 32); DataCopy(f[0], s, 16); DataCopy(f[16], m, 16);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SoftmaxFlashV2")
def test_softmax_flash_v2_on_half_scores_keeps_a_float_sum_and_max(prog) -> None:
    x = np.linspace(-3, 3, 64).astype(np.float16)
    prog.inputs(x)
    ran = prog.run(HEAD + FLASH_V2_HALF)
    assert ran.returncode == 0, ran.stderr
    got, sums = prog.output(0, np.float16).astype(np.float32), prog.output(1, np.float32)
    first, second = x[:32].astype(np.float32).reshape(2, 16), x[32:].astype(np.float32).reshape(2, 16)
    max1 = first.max(axis=1, keepdims=True)
    final = np.maximum(max1, second.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got[:32].reshape(2, 16), np.exp(first - max1), rtol=1e-3)
    np.testing.assert_allclose(got[32:64].reshape(2, 16), np.exp(second - final), rtol=1e-3)
    np.testing.assert_allclose(got[64:96].reshape(2, 16), np.repeat(np.exp(max1 - final), 16, axis=1), rtol=1e-3)
    total = np.exp(first - final).sum(axis=1, keepdims=True) + np.exp(second - final).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(sums[:16].reshape(2, 8), np.repeat(total, 8, axis=1), rtol=1e-5)
    np.testing.assert_array_equal(sums[16:].reshape(2, 8), np.repeat(final, 8, axis=1))


# ---- SelectWithBytesMask -----------------------------------------------------------------------
BYTES_MASK = """
static void body(void*) {
  GlobalTensor<float> a;
  GlobalTensor<uint8_t> m;
  GlobalTensor<float> o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 32);
  m.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_input(1), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, bm, bt;
  LocalTensor<float> x = fbuf(pipe, bx, 32), z = fbuf(pipe, bz, 64);
  pipe.InitBuffer(bm, 64); pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> mk = bm.Get<uint8_t>(), tmp = bt.Get<uint8_t>();
  DataCopy(x, a, 32); DataCopy(mk, m, 64);
  SelectWithBytesMaskShapeInfo info{2, 16, 32};   // rows of 16 floats, mask rows of 32 bytes
  SelectWithBytesMask(z, x, -1.0f, mk, tmp, info);
  SelectWithBytesMask(z[32], -1.0f, x, mk, tmp, info);
  DataCopy(o, z, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("比较与选择/Select")
def test_select_with_bytes_mask(prog) -> None:
    rng = np.random.default_rng(13)
    x = rng.standard_normal(32).astype(np.float32)
    mask = rng.integers(0, 2, 64).astype(np.uint8)
    prog.inputs(x, mask)
    ran = prog.run(HEAD + BYTES_MASK)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    used = mask.reshape(2, 32)[:, :16].reshape(-1) != 0
    np.testing.assert_array_equal(got[:32], np.where(used, -1.0, x).astype(np.float32))
    np.testing.assert_array_equal(got[32:], np.where(used, x, -1.0).astype(np.float32))


# ---- scalar bit patterns, the raw Duplicate layer, the max/min count register ----------------------
BITS = """
static_assert(GetScalarBitcodeValue(-2.0f) == 0xc0000000ull, "constexpr bit pattern");
static void body(void*) {
  GlobalTensor<float> a;
  GlobalTensor<int32_t> o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 512 * 4), 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, bw, bi;
  LocalTensor<float> x = fbuf(pipe, bx, 256), w = fbuf(pipe, bw, 256), r = fbuf(pipe, bz, 256);
  pipe.InitBuffer(bi, 1024);
  LocalTensor<int32_t> z = bi.Get<int32_t>();
  DataCopy(x, a, 256);
  // the counter form over 100 int16 lanes, then the mask form over 16 lanes of 2 repeats (stride 8 blocks)
  LocalTensor<int16_t> zh = z.ReinterpretCast<int16_t>();
  DuplicateImpl<int32_t>((__ubuf__ int32_t*)z.GetPhyAddr(), 0, 256);
  DuplicateImpl<int16_t>((__ubuf__ int16_t*)zh.GetPhyAddr(), 5, 100);
  DuplicateImpl<int16_t>((__ubuf__ int16_t*)zh[128].GetPhyAddr(), (int16_t)-3, (uint64_t)16, 2, 1, 8);
  // bit patterns
  z.SetValue(200, (int32_t)GetScalarBitcodeValue((half)1.0));
  z.SetValue(201, (int32_t)GetScalarBitcodeValue(1.5f));
  float ninf = GetScalarBitcodeValue<uint32_t, float>(0xff800000u);
  z.SetValue(202, ninf < -3.0e38f && ninf * 0.0f != ninf * 0.0f ? 1 : 0);
  z.SetValue(203, GetScalarBitcodeValue<float, int32_t>(-0.0f));
  // ReduceMax with its index over 200 elements, read back from the count register
  ReduceMax<float>(r, x, w, 200, true);
  set_flag(PIPE_V, PIPE_S, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
  uint64_t cnt = get_max_min_cnt();
  uint32_t low = (uint32_t)(cnt & 0xffffffffull);
  z.SetValue(210, *reinterpret_cast<int32_t*>(&low));
  z.SetValue(211, (int32_t)(cnt >> 32));
  DataCopy(o, z, 256);
  // raw-address bursts: 2 blocks GM -> UB, UB -> UB (1 block gap in the source), UB -> GM
  GlobalTensor<float> o2;
  o2.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 64 * 4), 64);
  Duplicate(r, 0.0f, 64);
  Duplicate(w, 0.0f, 64);
  DataCopyGM2UBImpl((__ubuf__ float*)r.GetPhyAddr(), (__gm__ float*)a[8].GetPhyAddr(), {1, 2, 0, 0});
  DataCopyUB2UBImpl((__ubuf__ float*)w.GetPhyAddr(), (__ubuf__ float*)r.GetPhyAddr(), {2, 1, 1, 0});
  DataCopyUB2GMImpl((__gm__ float*)o2.GetPhyAddr(), (__ubuf__ float*)w.GetPhyAddr(), {1, 8, 0, 0});
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Duplicate")
def test_bitcode_values_duplicate_impl_and_max_min_count_register(prog) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(256).astype(np.float32)
    x[171] = 9.5                               # the maximum of the first 200 elements
    prog.inputs(x)
    ran = prog.run(HEAD + BITS)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.int32)
    lanes = got[:128].view(np.int16)
    assert (lanes[:100] == 5).all() and (lanes[100:128] == 0).all()
    block = got[64:192].view(np.int16)         # int16 lanes 128..383
    assert (block[:16] == -3).all() and (block[16:128] == 0).all()
    assert (block[128:144] == -3).all() and (block[144:] == 0).all()
    assert got[200] == 0x3C00 and got[201] == np.float32(1.5).view(np.int32)
    assert got[202] == 1 and got[203] == np.int32(-2**31)
    assert got[210:211].view(np.float32)[0] == np.float32(9.5) and got[211] == 171
    moved = prog.output(1, np.float32)
    np.testing.assert_array_equal(moved[:8], x[8:16])          # the first block of the two read
    np.testing.assert_array_equal(moved[8:16], np.zeros(8))    # the gap's block was skipped
    np.testing.assert_array_equal(moved[16:], np.zeros(48))


def test_raw_data_copy_past_the_gm_tensor_is_rejected(prog) -> None:
    body = BITS.replace("(__gm__ float*)o2.GetPhyAddr(), (__ubuf__ float*)w.GetPhyAddr(), {1, 8, 0, 0}",
                        "(__gm__ float*)o2.GetPhyAddr(), (__ubuf__ float*)w.GetPhyAddr(), {1, 16, 0, 0}")
    prog.inputs(np.zeros(256, np.float32))
    ran = prog.run(HEAD + body)
    assert ran.returncode != 0 and "DataCopy" in ran.stderr, ran.stderr


def test_duplicate_impl_past_the_unified_buffer_is_rejected(prog) -> None:
    body = BITS.replace("DuplicateImpl<int16_t>((__ubuf__ int16_t*)zh.GetPhyAddr(), 5, 100);",
                        "DuplicateImpl<int16_t>((__ubuf__ int16_t*)zh.GetPhyAddr(), 5, 200000);")
    prog.inputs(np.zeros(256, np.float32))
    ran = prog.run(HEAD + body)
    assert ran.returncode != 0 and "Duplicate" in ran.stderr, ran.stderr
