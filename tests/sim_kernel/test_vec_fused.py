"""The composite family of the Memory-vector API (复合计算), from the reference pages: AddRelu/SubRelu,
the converting AddReluCast/SubReluCast/MulCast (arithmetic in the source type, round to nearest even,
saturate), AddDeqRelu and CastDequant with the DEQSCALE register (SetDeqScale's three forms, halfBlock,
the 10-bit mantissa of the b8 scale, the sign mode), FusedMulAdd/MulAddRelu/MulAddDst/Axpy including
the half-source float-dst forms and their no-overlap rule."""

from __future__ import annotations

import numpy as np
import pytest

FUSED = """
static void body(void*) {
  GlobalTensor<half> ah, bh; GlobalTensor<int16_t> ai, bi; GlobalTensor<float> af, bf;
  GlobalTensor<int8_t> o8; GlobalTensor<uint8_t> ou8; GlobalTensor<half> oh; GlobalTensor<int16_t> oi;
  GlobalTensor<float> of;
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 256);
  bh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 256);
  ai.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_input(2), 256);
  bi.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_input(3), 256);
  af.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(4), 128);
  bf.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(5), 128);
  o8.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_output(0, 4 * 256), 4 * 256);
  ou8.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_output(1, 256), 256);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(2, 2 * 128 * 2), 2 * 128);
  oi.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_output(3, 2 * 256 * 2), 2 * 256);
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(4, 2 * 128 * 4), 2 * 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, b1, b2, b3, b4, b5, b6, b7, b8, b9;
  pipe.InitBuffer(b0, 512); pipe.InitBuffer(b1, 512); pipe.InitBuffer(b2, 512); pipe.InitBuffer(b3, 512);
  pipe.InitBuffer(b4, 512); pipe.InitBuffer(b5, 512); pipe.InitBuffer(b6, 256); pipe.InitBuffer(b7, 256);
  pipe.InitBuffer(b8, 512); pipe.InitBuffer(b9, 512);
  LocalTensor<half> xh = b0.Get<half>(), yh = b1.Get<half>(), zh = b8.Get<half>();
  LocalTensor<int16_t> xi = b2.Get<int16_t>(), yi = b3.Get<int16_t>(), zi = b9.Get<int16_t>();
  LocalTensor<float> xf = b4.Get<float>(), yf = b5.Get<float>(), zf = b9.Get<float>();
  LocalTensor<int8_t> z8 = b6.Get<int8_t>();
  LocalTensor<uint8_t> zu8 = b7.Get<uint8_t>();
  DataCopy(xh, ah, 256); DataCopy(yh, bh, 256); DataCopy(xi, ai, 256); DataCopy(yi, bi, 256);
  DataCopy(xf, af, 128); DataCopy(yf, bf, 128);
  // AddReluCast / SubReluCast half -> int8_t (count), int16_t -> int8_t (mask form, dstRepStride 4 blocks)
  AddReluCast(z8, xh, yh, 256); DataCopy(o8, z8, 256);
  SubReluCast(z8, xh, yh, 256); DataCopy(o8[256], z8, 256);
  AddReluCast(z8, xi, yi, 128, 2, BinaryRepeatParams(1, 1, 1, 4, 8, 8)); DataCopy(o8[512], z8, 256);
  MulCast(z8, xh, yh, 256); DataCopy(o8[768], z8, 256);
  MulCast<uint8_t, half, true>(zu8, xh, yh, 128, 2, BinaryRepeatParams(1, 1, 1, 4, 8, 8)); DataCopy(ou8, zu8, 256);
  // float -> half
  AddReluCast(zh, xf, yf, 128); DataCopy(oh, zh, 128);
  SubReluCast(zh, xf, yf, 64, 2, BinaryRepeatParams(1, 1, 1, 4, 8, 8)); DataCopy(oh[128], zh, 128);
  // AddRelu / SubRelu int16_t wrap before the Relu
  AddRelu(zi, xi, yi, 256); DataCopy(oi, zi, 256);
  SubRelu(zi, xi, yi, 128, 2, BinaryRepeatParams()); DataCopy(oi[256], zi, 256);
  // FusedMulAdd (dst = src0 * dst + src1) and MulAddRelu on float
  DataCopy(zf, yf, 128); FusedMulAdd(zf, xf, yf, 128); DataCopy(of, zf, 128);
  DataCopy(zf, yf, 128); MulAddRelu(zf, xf, yf, 64, 2, BinaryRepeatParams()); DataCopy(of[128], zf, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def _to_int(v: np.ndarray, lo: int, hi: int) -> np.ndarray:
    return np.clip(np.rint(v.astype(np.float64)), lo, hi).astype(np.int64)


@pytest.mark.api("复合计算/AddReluCast", "复合计算/SubReluCast", "复合计算/MulCast", "复合计算/AddRelu",
                 "复合计算/SubRelu", "复合计算/FusedMulAdd", "复合计算/MulAddRelu")
def test_fused_casts_saturate_and_relu(prog) -> None:
    rng = np.random.default_rng(31)
    xh = (rng.standard_normal(256) * 80).astype(np.float16)
    yh = (rng.standard_normal(256) * 80).astype(np.float16)
    xh[:4] = [2.5, 3.5, 300, -300]                 # ties to even; saturation
    yh[:4] = [0, 0, 0, 0]
    xi = rng.integers(-2**15, 2**15, 256, dtype=np.int16)
    yi = rng.integers(-2**15, 2**15, 256, dtype=np.int16)
    xf = (rng.standard_normal(128) * 100).astype(np.float32)
    yf = (rng.standard_normal(128) * 100).astype(np.float32)
    xf[0], yf[0] = 70000.0, 1.0                     # beyond half's range: inf under round-to-nearest
    prog.inputs(xh, yh, xi, yi, xf, yf)
    ran = prog.run(FUSED)
    assert ran.returncode == 0, ran.stderr
    o8 = prog.output(0, np.int8).reshape(4, 256).astype(np.int64)
    hsum = (xh.astype(np.float32) + yh.astype(np.float32)).astype(np.float16).astype(np.float32)
    hdif = (xh.astype(np.float32) - yh.astype(np.float32)).astype(np.float16).astype(np.float32)
    hmul = (xh.astype(np.float32) * yh.astype(np.float32)).astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(o8[0], _to_int(np.maximum(hsum, 0), -128, 127))
    assert o8[0][:4].tolist() == [2, 4, 127, 0]
    np.testing.assert_array_equal(o8[1], _to_int(np.maximum(hdif, 0), -128, 127))
    isum = (xi.astype(np.int64) + yi) & 0xFFFF
    isum = np.where(isum >= 2**15, isum - 2**16, isum)
    np.testing.assert_array_equal(o8[2], np.clip(np.maximum(isum, 0), -128, 127))
    np.testing.assert_array_equal(o8[3], _to_int(hmul, -128, 127))
    np.testing.assert_array_equal(prog.output(1, np.uint8).astype(np.int64), _to_int(hmul, 0, 255))
    oh = prog.output(2, np.float16).reshape(2, 128)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(oh[0], np.maximum(xf + yf, 0).astype(np.float16))
        np.testing.assert_array_equal(oh[1], np.maximum(xf - yf, 0).astype(np.float16))
    assert np.isinf(oh[0][0])
    oi = prog.output(3, np.int16).reshape(2, 256).astype(np.int64)
    np.testing.assert_array_equal(oi[0], np.maximum(isum, 0))
    idif = (xi.astype(np.int64) - yi) & 0xFFFF
    idif = np.where(idif >= 2**15, idif - 2**16, idif)
    np.testing.assert_array_equal(oi[1], np.maximum(idif, 0))
    of = prog.output(4, np.float32).reshape(2, 128)
    fma = (xf.astype(np.float64) * yf + yf).astype(np.float32)
    np.testing.assert_array_equal(of[0], fma)
    np.testing.assert_array_equal(of[1], np.maximum(fma, 0))


DEQ = """
static void body(void*) {
  GlobalTensor<int32_t> a, b; GlobalTensor<int16_t> s; GlobalTensor<uint8_t> init;
  GlobalTensor<half> oh; GlobalTensor<int8_t> o8; GlobalTensor<uint8_t> ou8;
  a.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(1), 128);
  s.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_input(2), 256);
  init.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_input(3), 512);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 4 * 128 * 2), 4 * 128);
  o8.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_output(1, 2 * 512), 2 * 512);
  ou8.SetGlobalBuffer((__gm__ uint8_t*)npukb_test::gm_output(2, 512), 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bs, bh, b8, bv;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bb, 512); pipe.InitBuffer(bs, 512); pipe.InitBuffer(bh, 256);
  pipe.InitBuffer(b8, 512); pipe.InitBuffer(bv, 128);
  LocalTensor<int32_t> x = ba.Get<int32_t>(), y = bb.Get<int32_t>();
  LocalTensor<int16_t> xs = bs.Get<int16_t>();
  LocalTensor<half> zh = bh.Get<half>();
  LocalTensor<int8_t> z8 = b8.Get<int8_t>();
  LocalTensor<uint64_t> vdeq = bv.Get<uint64_t>();
  DataCopy(x, a, 128); DataCopy(y, b, 128); DataCopy(xs, s, 256);
  SetDeqScale((half)0.5);
  AddDeqRelu(zh, x, y, 128); DataCopy(oh, zh, 128);
  uint64_t m[2] = {0xFFFFFFFFull, 0};
  Duplicate(zh, (half)9, 128); AddDeqRelu(zh, x, y, m, 2, BinaryRepeatParams(1, 1, 1, 4, 8, 8));
  DataCopy(oh[128], zh, 128);
  CastDequant<half, int32_t>(zh, x, 128); DataCopy(oh[256], zh, 128);
  Cast(zh, x, RoundMode::CAST_FLOOR, 128); DataCopy(oh[384], zh, 128);   // roundMode has no effect for int32_t -> half
  // int16_t -> int8_t, per tensor: (src * scale) + offset; the scale keeps 10 mantissa bits;
  // halfBlock false: bytes 16-31
  DataCopy(z8.ReinterpretCast<uint8_t>(), init, 512);
  SetDeqScale(1.5f + 1.0f / 4096, (int16_t)-3, true);
  CastDequant<int8_t, int16_t, false, false>(z8, xs, 256); DataCopy(o8, z8, 512);
  DataCopy(z8.ReinterpretCast<uint8_t>(), init, 512);
  CastDequant<int8_t, int16_t, true, false, true>(z8, xs, 128, 2, UnaryRepeatParams());   // halfBlock true: bytes 0-15
  DataCopy(o8[512], z8, 512);
  // vector mode: one parameter set per element position of a block, uint8_t results
  float sc[16]; int16_t off[16]; bool sg[16];
  for (int i = 0; i < 16; ++i) { sc[i] = 0.5f * (i + 1); off[i] = (int16_t)(i - 8); sg[i] = false; }
  SetDeqScale<uint64_t>(vdeq, VdeqInfo(sc, off, sg));
  DataCopy(z8.ReinterpretCast<uint8_t>(), init, 512);
  CastDequant<uint8_t, int16_t, true, true>(z8.ReinterpretCast<uint8_t>(), xs, 256);
  DataCopy(ou8, z8.ReinterpretCast<uint8_t>(), 512);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("复合计算/AddDeqRelu", "复合计算/CastDequant", "类型转换辅助配置接口/SetDeqScale")
def test_dequant_register_forms(prog) -> None:
    rng = np.random.default_rng(41)
    x = rng.integers(-5000, 5000, 128, dtype=np.int32)
    y = rng.integers(-5000, 5000, 128, dtype=np.int32)
    xs = rng.integers(-300, 300, 256, dtype=np.int16)
    xs[0] = 5                                       # 5 * 1.5 - 3 = 4.5 rounds to 4; with the full scale it would be 5
    init = np.full(512, 0x11, np.uint8)
    prog.inputs(x, y, xs, init)
    ran = prog.run(DEQ)
    assert ran.returncode == 0, ran.stderr
    oh = prog.output(0, np.float16).reshape(4, 128)
    deq = ((x.astype(np.float64) + y) * 0.5).astype(np.float16)
    np.testing.assert_array_equal(oh[0], np.maximum(deq, np.float16(0)))
    w = np.full(128, np.float16(9))
    w[:32] = np.maximum(deq[:32], 0)
    w[64:96] = np.maximum(deq[64:96], 0)
    np.testing.assert_array_equal(oh[1], w)
    np.testing.assert_array_equal(oh[2], (x * 0.5).astype(np.float16))
    np.testing.assert_array_equal(oh[3], (x * 0.5).astype(np.float16))
    o8 = prog.output(1, np.int8).reshape(2, 16, 32).astype(np.int64)
    q = np.clip(np.rint(xs.astype(np.float64) * 1.5 - 3), -128, 127).reshape(16, 16)
    assert q[0, 0] == 4
    np.testing.assert_array_equal(o8[0][:, 16:], q)
    assert np.all(o8[0][:, :16] == 0x11), "the other half of each block is left as it was"
    np.testing.assert_array_equal(o8[1][:, :16], q)
    assert np.all(o8[1][:, 16:] == 0x11)
    ou8 = prog.output(2, np.uint8).reshape(16, 32).astype(np.int64)
    j = np.arange(16)
    qv = np.clip(np.rint(xs.reshape(16, 16).astype(np.float64) * (0.5 * (j + 1)) + (j - 8)), 0, 255)
    np.testing.assert_array_equal(ou8[:, :16], qv)
    assert np.all(ou8[:, 16:] == 0x11)


MAD = """
static void body(void*) {
  GlobalTensor<half> a, b; GlobalTensor<float> c, o;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 128);
  c.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(2), 128);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 128 * 4), 3 * 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bc;
  pipe.InitBuffer(ba, 256); pipe.InitBuffer(bb, 256); pipe.InitBuffer(bc, 512);
  LocalTensor<half> x = ba.Get<half>(), y = bb.Get<half>();
  LocalTensor<float> z = bc.Get<float>();
  DataCopy(x, a, 128); DataCopy(y, b, 128);
  DataCopy(z, c, 128); MulAddDst(z, x, y, 100); DataCopy(o, z, 128);
  // mask form: 64 elements per repeat (the wider float dst); src repeat stride 4 blocks of half
  DataCopy(z, c, 128); MulAddDst<float, half, true>(z, x, y, 64, 2, BinaryRepeatParams(1, 1, 1, 8, 4, 4));
  DataCopy(o[128], z, 128);
  uint64_t m[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
  DataCopy(z, c, 128); Axpy(z, x, (half)0.25, m, 2, UnaryRepeatParams(1, 1, 8, 4)); DataCopy(o[256], z, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("复合计算/MulAddDst", "复合计算/Axpy")
def test_half_sources_accumulate_into_float(prog) -> None:
    rng = np.random.default_rng(43)
    x = rng.standard_normal(128).astype(np.float16)
    y = rng.standard_normal(128).astype(np.float16)
    c = rng.standard_normal(128).astype(np.float32)
    prog.inputs(x, y, c)
    ran = prog.run(MAD)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(3, 128)
    mad = (x.astype(np.float64) * y + c).astype(np.float32)
    w = c.copy()
    w[:100] = mad[:100]
    np.testing.assert_array_equal(o[0], w)
    np.testing.assert_array_equal(o[1], mad)
    sel = np.array([(0xF0F0F0F0F0F0F0F0 >> k) & 1 for k in range(64)] * 2, bool)
    w = np.where(sel, (x.astype(np.float32) * np.float32(0.25) + c).astype(np.float32), c)
    np.testing.assert_array_equal(o[2], w)


MISUSE = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b, v;
  pipe.InitBuffer(b, 1024); pipe.InitBuffer(v, 128);
  LocalTensor<half> h = b.Get<half>();
  LocalTensor<float> f = b.Get<float>();
  LocalTensor<int16_t> s = b.Get<int16_t>();
  LocalTensor<int8_t> d = v.Get<int8_t>();
#if CASE == 0
  MulAddDst(f, h[64], h[64], 64);                // float dst over its half sources
#elif CASE == 1
  SetDeqScale(1.0f, (int16_t)0, false);          // unsigned sign mode, int8_t dst
  CastDequant<int8_t, int16_t, false, false>(d, s, 64);
#else
  CastDequant<int8_t, int16_t, true, true>(d, s, 64);   // vector mode without SetDeqScale(vdeq, info)
#endif
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("复合计算/MulAddDst", "复合计算/CastDequant")
@pytest.mark.parametrize("case, message", [
    (0, "MulAddDst: dst overlaps src0"),
    (1, "CastDequant: the sign mode of SetDeqScale (false) does not match dst's type"),
    (2, "CastDequant: isVecDeq = true needs the quantization tensor"),
])
def test_fused_misuse_is_reported(prog, case: int, message: str) -> None:
    ran = prog.run(MISUSE, defines=(f"CASE={case}",))
    assert ran.returncode == 3, ran.stderr
    assert message in ran.stderr
