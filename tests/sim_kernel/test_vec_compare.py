"""The compare-and-select family of the Memory-vector API (比较与选择), from the reference pages: Compare
and Compares compute whole 256-byte repeats and ignore their (reserved) mask argument, int32_t compares
for equality only, the comparison operators, the CMPMASK register (Compare into it, GetCmpMask,
SetCmpMask) and the three Select modes in their mask, count and register forms."""

from __future__ import annotations

import numpy as np
import pytest

CMP = """
static void body(void*) {
  GlobalTensor<float> a, b; GlobalTensor<half> ah; GlobalTensor<int32_t> ai; GlobalTensor<uint8_t> o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 128);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2), 256);
  ai.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(3), 128);
  o.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_output(0, 10 * 32), 10 * 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bh, bi, bm;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bh, 512); pipe.InitBuffer(bi, 512);
  pipe.InitBuffer(bm, 32);
  LocalTensor<float> x = ba.Get<float>(), y = bb.Get<float>();
  LocalTensor<half> xh = bh.Get<half>();
  LocalTensor<int32_t> xi = bi.Get<int32_t>();
  LocalTensor<uint8_t> m = bm.Get<uint8_t>();
  LocalTensor<int8_t> ms = bm.Get<int8_t>();
  DataCopy(x, a, 128); DataCopy(y, b, 128); DataCopy(xh, ah, 256); DataCopy(xi, ai, 128);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 32], m, 32); ++k; };
  // 0: the mask of a tensor form is reserved: all 64 floats of each of 2 repeats are compared
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compare(m, x, y, CMPMODE::GT, 1, 2, BinaryRepeatParams()); out_();
  uint64_t bits[2] = {1, 0};
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compare(ms, x, y, CMPMODE::LE, bits, 2, BinaryRepeatParams());
  out_();
  // 2: NaN compares unequal to everything (half, count form)
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compare(m, xh, xh, CMPMODE::NE, 256); out_();
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compare(m, xh, xh, CMPMODE::EQ, 256); out_();
  // 4: int32_t: equality
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compare(m, xi, xi[64], CMPMODE::EQ, 64); out_();
  // 5: Compares / CompareScalar against a scalar, count and mask forms
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); Compares(m, x, 0.0f, CMPMODE::GE, 128); out_();
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16);
  Compares(m, xh, (half)0.5, CMPMODE::LT, 64, 2, UnaryRepeatParams()); out_();
  Duplicate(m.ReinterpretCast<half>(), (half)0, 16); CompareScalar(m, xi, 7, CMPMODE::EQ, 64); out_();
  // 8: the operators compare src0.GetSize() elements
  m = x < y; out_();
  m = x != y; out_();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def _bits(b: np.ndarray, n: int) -> np.ndarray:
    return np.unpackbits(b, bitorder="little")[:n].astype(bool)


@pytest.mark.api("比较与选择/Compare", "比较与选择/Compares")
def test_compare_whole_repeats_and_operators(prog) -> None:
    rng = np.random.default_rng(51)
    x = rng.standard_normal(128).astype(np.float32)
    y = rng.standard_normal(128).astype(np.float32)
    y[5] = x[5]
    xh = rng.standard_normal(256).astype(np.float16)
    xh[3] = np.nan
    xi = rng.integers(0, 4, 128, dtype=np.int32)
    xi[:64][xi[:64] == 3] = 7
    prog.inputs(x, y, xh, xi)
    ran = prog.run(CMP)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.uint8).reshape(10, 32)
    np.testing.assert_array_equal(_bits(o[0], 128), x > y)
    np.testing.assert_array_equal(_bits(o[1], 128), x <= y)
    np.testing.assert_array_equal(_bits(o[2], 256), xh != xh)
    assert _bits(o[2], 256)[3] and not _bits(o[3], 256)[3]
    np.testing.assert_array_equal(_bits(o[3], 256), xh == xh)
    np.testing.assert_array_equal(_bits(o[4], 64), xi[:64] == xi[64:])
    assert not o[4][8:].any()
    np.testing.assert_array_equal(_bits(o[5], 128), x >= 0)
    np.testing.assert_array_equal(_bits(o[6], 256), xh < np.float16(0.5))
    np.testing.assert_array_equal(_bits(o[7], 64), xi[:64] == 7)
    np.testing.assert_array_equal(_bits(o[8], 128), x < y)
    np.testing.assert_array_equal(_bits(o[9], 128), x != y)


SEL = """
static void body(void*) {
  GlobalTensor<float> a, b, o; GlobalTensor<uint8_t> gm; GlobalTensor<uint8_t> om;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 128);
  gm.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_input(2), 32);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 7 * 128 * 4), 7 * 128);
  om.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_output(1, 32), 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bz, bm, bc, bd;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bz, 512); pipe.InitBuffer(bm, 32);
  pipe.InitBuffer(bc, 32); pipe.InitBuffer(bd, 32);
  LocalTensor<float> x = ba.Get<float>(), y = bb.Get<float>(), z = bz.Get<float>();
  LocalTensor<uint8_t> sel = bm.Get<uint8_t>(), cm = bc.Get<uint8_t>();
  LocalTensor<uint64_t> addr = bd.Get<uint64_t>();
  LocalTensor<float> sc = bd.Get<float>();
  DataCopy(x, a, 128); DataCopy(y, b, 128); DataCopy(sel, gm, 32);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 128], z, 128); ++k; };
  // 0: Compare into the CMPMASK register (one repeat; the mask selects 32 elements), read back with GetCmpMask
  Compare(x, y, CMPMODE::LT, 32, BinaryRepeatParams());
  Duplicate(cm.ReinterpretCast<half>(), (half)0, 16); GetCmpMask(cm); DataCopy(om, cm, 32);
  // ... and used by the register form of mode 0: the same 64 bits in both repeats, under SetVectorMask
  Duplicate(z, 9.0f, 128);
  SetVectorMask<float>(0, 0xFFFFull);
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(z, x, y, 2, BinaryRepeatParams());
  ResetMask(); out_();
  // 1: SetCmpMask loads a selection mask for mode 0
  SetCmpMask(sel);
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(z, x, y, 2, BinaryRepeatParams()); out_();
  // 2: mode 2 register form: the register holds the selection mask's address; bits are consumed per repeat
  addr.SetValue(0, (uint64_t)sel.GetPhyAddr()); addr.SetValue(1, (uint64_t)0);
  SetCmpMask(addr);
  Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(z, x, y, 2, BinaryRepeatParams()); out_();
  // 3: mode 1 register form: the scalar is the first element of the tensor SetCmpMask loaded
  sc.SetValue(0, -5.0f);
  SetCmpMask(sc);
  Select<float, uint8_t>(z, sel, x, 2, BinaryRepeatParams()); out_();
  // 4: mask forms filter the selection: masked-out elements keep dst
  Duplicate(z, 9.0f, 128); Select(z, sel, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 16, 2, BinaryRepeatParams()); out_();
  uint64_t hb[2] = {0xFFFF0000ull, 0};
  Duplicate(z, 9.0f, 128); Select(z, sel, x, 1.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, hb, 2, BinaryRepeatParams());
  out_();
  // 6: mode 0 with a selection tensor: the first 64 bits serve every repeat (count form)
  Select(z, sel, x, y, SELMODE::VSEL_CMPMASK_SPR, 128); out_();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("比较与选择/Select", "比较与选择/Compare（结果存入寄存器）", "比较与选择/GetCmpMask(ISASI)",
                 "比较与选择/SetCmpMask(ISASI)")
def test_select_modes_and_the_cmpmask_register(prog) -> None:
    rng = np.random.default_rng(53)
    x = rng.standard_normal(128).astype(np.float32)
    y = rng.standard_normal(128).astype(np.float32)
    sel = rng.integers(0, 256, 32, dtype=np.uint8)
    prog.inputs(x, y, sel)
    ran = prog.run(SEL)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(7, 128)
    cm = prog.output(1, np.uint8)
    reg = np.zeros(128, bool)
    reg[:32] = x[:32] < y[:32]                       # masked-out elements of the register compare are 0
    np.testing.assert_array_equal(_bits(cm[:16], 128), reg)
    s = _bits(sel, 256)
    w = np.full(128, 9.0, np.float32)
    for r in range(2):
        ks = np.arange(16)
        w[64 * r + ks] = np.where(reg[ks], x[64 * r + ks], y[64 * r + ks])
    np.testing.assert_array_equal(o[0], w)
    reuse = np.concatenate([s[:64], s[:64]])
    np.testing.assert_array_equal(o[1], np.where(reuse, x, y))
    np.testing.assert_array_equal(o[2], np.where(s[:128], x, y))
    np.testing.assert_array_equal(o[3], np.where(s[:128], x, np.float32(-5.0)))
    w = np.full(128, 9.0, np.float32)
    for r in range(2):
        i = 64 * r + np.arange(16)
        w[i] = np.where(s[i], x[i], y[i])
    np.testing.assert_array_equal(o[4], w)
    w = np.full(128, 9.0, np.float32)
    for r in range(2):
        i = 64 * r + np.arange(16, 32)
        w[i] = np.where(s[i], x[i], np.float32(1.5))
    np.testing.assert_array_equal(o[5], w)
    np.testing.assert_array_equal(o[6], np.where(reuse, x, y))


MISUSE = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b, m;
  pipe.InitBuffer(b, 512); pipe.InitBuffer(m, 64);
  LocalTensor<int32_t> i = b.Get<int32_t>();
  LocalTensor<float> f = b.Get<float>();
  LocalTensor<uint8_t> d = m.Get<uint8_t>();
#if CASE == 0
  Compare(d, i, i, CMPMODE::LT, 64);                 // int32_t: EQ only
#elif CASE == 1
  Select(f, d, f, f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);   // mode 1 takes a scalar src1
#else
  SetCmpMask(d[8]);                                  // 16-byte alignment
#endif
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("比较与选择/Compare", "比较与选择/Select", "比较与选择/SetCmpMask(ISASI)")
@pytest.mark.parametrize("case, message", [
    (0, "Compare: int32_t operands support CMPMODE::EQ only"),
    (1, "Select: SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1) takes a scalar src1"),
    (2, "SetCmpMask: unaligned UB address: src starts at UB offset"),
])
def test_compare_select_misuse_is_reported(prog, case: int, message: str) -> None:
    ran = prog.run(MISUSE, defines=(f"CASE={case}",))
    assert ran.returncode == 3, ran.stderr
    assert message in ran.stderr
