"""The logic family of the Memory-vector API (逻辑计算): Not/And/Or on int16_t/uint16_t (count, mask and
operator forms), ShiftLeft/ShiftRight with the page's examples (logical shifts for unsigned types,
arithmetic shifts that keep the sign bit for signed types, roundEn), and the shift-amount range."""

from __future__ import annotations

import numpy as np
import pytest

LOGIC = """
static void body(void*) {
  GlobalTensor<int16_t> a, b, o; GlobalTensor<uint16_t> au, ou; GlobalTensor<int32_t> a32, o32;
  GlobalTensor<uint32_t> ou32;
  a.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_input(0), 256);
  b.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_input(1), 256);
  au.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_input(2), 256);
  a32.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(3), 64);
  o.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_output(0, 9 * 256 * 2), 9 * 256);
  ou.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_output(1, 3 * 256 * 2), 3 * 256);
  o32.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(2, 3 * 64 * 4), 3 * 64);
  ou32.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_output(3, 2 * 64 * 4), 2 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bo, bu, bz, bi, bj, bk;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bo, 512); pipe.InitBuffer(bu, 512);
  pipe.InitBuffer(bz, 512); pipe.InitBuffer(bi, 256); pipe.InitBuffer(bj, 256); pipe.InitBuffer(bk, 256);
  LocalTensor<int16_t> x = ba.Get<int16_t>(), y = bb.Get<int16_t>(), z = bo.Get<int16_t>();
  LocalTensor<uint16_t> xu = bu.Get<uint16_t>(), zu = bz.Get<uint16_t>();
  LocalTensor<int32_t> x32 = bi.Get<int32_t>(), z32 = bj.Get<int32_t>();
  LocalTensor<uint32_t> zu32 = bk.Get<uint32_t>();
  DataCopy(x, a, 256); DataCopy(y, b, 256); DataCopy(xu, au, 256); DataCopy(x32, a32, 64);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 256], z, 256); ++k; };
  Duplicate(z, (int16_t)0, 256); Not(z, x, 200); out_();
  Duplicate(z, (int16_t)0, 256); And(z, x, y, 128, 2, BinaryRepeatParams()); out_();
  Duplicate(z, (int16_t)0, 256); uint64_t ev[2] = {0x5555555555555555ull, 0};
  Or(z, x, y, ev, 2, BinaryRepeatParams()); out_();
  z = x & y; out_();
  z = x | y; out_();
  // signed shifts of the pages' example 0b1010101010101010 (x[0]) and of the data
  ShiftLeft(z, x, (int16_t)1, 256); out_();
  ShiftLeft(z, x, (int16_t)3, 128, 2, UnaryRepeatParams()); out_();
  ShiftRight(z, x, (int16_t)3, 256); out_();
  ShiftRight(z, x, (int16_t)5, 128, 2, UnaryRepeatParams(), true); out_();   // roundEn
  // unsigned: logical shifts; the amount may be the full width
  ShiftLeft(zu, xu, (uint16_t)1, 256); DataCopy(ou, zu, 256);
  ShiftRight<uint16_t, uint16_t, true>(zu, xu, (uint16_t)1, 128, 2, UnaryRepeatParams(), true);
  DataCopy(ou[256], zu, 256);
  ShiftRight(zu, xu, (uint16_t)16, 256); DataCopy(ou[512], zu, 256);
  ShiftLeft(z32, x32, 31, 64); DataCopy(o32, z32, 64);
  ShiftRight(z32, x32, 32, 64); DataCopy(o32[64], z32, 64);
  ShiftRight(z32, x32, 4, 64, 1, UnaryRepeatParams(), true); DataCopy(o32[128], z32, 64);
  ShiftLeft(zu32, x32.ReinterpretCast<uint32_t>(), 4u, 64); DataCopy(ou32, zu32, 64);
  ShiftRight(zu32, x32.ReinterpretCast<uint32_t>(), 31u, 64); DataCopy(ou32[64], zu32, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def _shl_signed(x: np.ndarray, n: int, bits: int) -> np.ndarray:
    u = x.astype(np.int64) & ((1 << bits) - 1)
    sign = u & (1 << (bits - 1))
    body = (u << n) & ((1 << (bits - 1)) - 1) if n < bits else 0
    r = sign | body
    return np.where(r >= 1 << (bits - 1), r - (1 << bits), r)


@pytest.mark.api("逻辑计算/Not", "逻辑计算/And", "逻辑计算/Or", "逻辑计算/ShiftLeft", "逻辑计算/ShiftRight")
def test_logic_and_shifts(prog) -> None:
    rng = np.random.default_rng(21)
    x = rng.integers(-2**15, 2**15, 256, dtype=np.int16)
    x[0] = np.int16(np.uint16(0b1010101010101010).view(np.int16))
    x[1] = 17                                    # the roundEn example: 17 >> 5 rounds up to 1
    y = rng.integers(-2**15, 2**15, 256, dtype=np.int16)
    xu = rng.integers(0, 2**16, 256, dtype=np.uint16)
    xu[0] = 0b1010101010101010
    x32 = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    prog.inputs(x, y, xu, x32)
    ran = prog.run(LOGIC)
    assert ran.returncode == 0, ran.stderr
    g = prog.output(0, np.int16).reshape(9, 256)
    w = np.zeros(256, np.int16)
    w[:200] = ~x[:200]
    np.testing.assert_array_equal(g[0], w)
    np.testing.assert_array_equal(g[1], x & y)
    w = np.zeros(256, np.int16)
    w[0:64:2] = (x | y)[0:64:2]
    w[128:192:2] = (x | y)[128:192:2]
    np.testing.assert_array_equal(g[2], w)
    np.testing.assert_array_equal(g[3], x & y)
    np.testing.assert_array_equal(g[4], x | y)
    np.testing.assert_array_equal(g[5], _shl_signed(x, 1, 16).astype(np.int16))
    assert np.uint16(g[5][0].view(np.uint16)) == 0b1101010101010100          # the page's example, 1 bit
    np.testing.assert_array_equal(g[6], _shl_signed(x, 3, 16).astype(np.int16))
    assert np.uint16(g[6][0].view(np.uint16)) == 0b1101010101010000          # ... and 3 bits
    np.testing.assert_array_equal(g[7], (x.astype(np.int64) >> 3).astype(np.int16))
    assert np.uint16(g[7][0].view(np.uint16)) == 0b1111010101010101          # arithmetic: the sign bit is copied
    xs = x.astype(np.int64)
    np.testing.assert_array_equal(g[8], ((xs >> 5) + ((xs >> 4) & 1)).astype(np.int16))
    assert g[8][1] == 1
    gu = prog.output(1, np.uint16).reshape(3, 256)
    np.testing.assert_array_equal(gu[0], (xu.astype(np.uint32) << 1).astype(np.uint16))
    assert gu[0][0] == 0b0101010101010100
    np.testing.assert_array_equal(gu[1], xu >> 1)                # roundEn has no effect on unsigned types
    np.testing.assert_array_equal(gu[2], np.zeros(256, np.uint16))
    g32 = prog.output(2, np.int32).reshape(3, 64)
    np.testing.assert_array_equal(g32[0], _shl_signed(x32, 31, 32).astype(np.int32))
    np.testing.assert_array_equal(g32[1], np.where(x32 < 0, -1, 0))
    x64 = x32.astype(np.int64)
    np.testing.assert_array_equal(g32[2], ((x64 >> 4) + ((x64 >> 3) & 1)).astype(np.int32))
    gu32 = prog.output(3, np.uint32).reshape(2, 64)
    xu32 = x32.view(np.uint32)
    np.testing.assert_array_equal(gu32[0], (xu32.astype(np.uint64) << 4).astype(np.uint32))
    np.testing.assert_array_equal(gu32[1], xu32 >> 31)


SHIFT_RANGE = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 512);
  LocalTensor<int16_t> t = b.Get<int16_t>();
  ShiftLeft(t, t, (int16_t)17, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("逻辑计算/ShiftLeft")
def test_shift_amount_outside_the_type_width_is_a_violation(prog) -> None:
    ran = prog.run(SHIFT_RANGE)
    assert ran.returncode == 3, ran.stderr
    assert "ShiftLeft: scalarValue (the shift amount) 17 is outside [0, 16]" in ran.stderr
