"""Layout transforms, fills and gathers of the Memory-vector API (数据排布转换, 数据填充, 离散与聚合), from
the reference pages: Transpose (16x16 and the NCHW <-> NHWC forms of TransposeParamsExt),
TransDataTo5HD with address tensors and the single-repeat stride rule, Duplicate/Brcb/CreateVecIndex in
their mask forms, Gather (count and mask forms) and Gatherb."""

from __future__ import annotations

import numpy as np
import pytest

TRANSPOSE = """
static void body(void*) {
  GlobalTensor<half> a, o; GlobalTensor<float> af, of; GlobalTensor<uint16_t> ou;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 256);
  af.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 2 * 3 * 4 * 8);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 256 * 2), 256);
  ou.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_output(1, 256 * 2), 256);
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(2, 2 * 192 * 4), 2 * 192);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo, bf, bg, bt;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bo, 512); pipe.InitBuffer(bf, 768); pipe.InitBuffer(bg, 768);
  pipe.InitBuffer(bt, 8192);
  LocalTensor<half> x = ba.Get<half>(), z = bo.Get<half>();
  LocalTensor<float> xf = bf.Get<float>(), zf = bg.Get<float>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(x, a, 256); DataCopy(xf, af, 192);
  Transpose(z, x); DataCopy(o, z, 256);
  Transpose(x, x);                                  // in place
  TransposeParamsExt p16(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16);
  Transpose(z.ReinterpretCast<uint16_t>(), x.ReinterpretCast<uint16_t>(), tmp, p16);   // back again
  DataCopy(ou, z.ReinterpretCast<uint16_t>(), 256);
  // [N=2, C=3, H=4, W=8] -> [N, H, W, C] and back
  TransposeParamsExt p(2, 3, 4, 8, TransposeType::TRANSPOSE_NCHW2NHWC);
  Transpose(zf, xf, tmp, p); DataCopy(of, zf, 192);
  p.transposeType = TransposeType::TRANSPOSE_NHWC2NCHW;
  Transpose(xf, zf, tmp, p); DataCopy(of[192], xf, 192);
  TransposeParamsExt none(2, 3, 4, 8, TransposeType::TRANSPOSE_TYPE_NONE);
  Transpose(xf, zf, tmp, none);                     // no-op
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据排布转换/Transpose")
def test_transpose_forms(prog) -> None:
    rng = np.random.default_rng(81)
    x = rng.standard_normal(256).astype(np.float16)
    xf = rng.standard_normal(192).astype(np.float32)
    prog.inputs(x, xf)
    ran = prog.run(TRANSPOSE)
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_array_equal(prog.output(0, np.float16), x.reshape(16, 16).T.ravel())
    np.testing.assert_array_equal(prog.output(1, np.uint16), x.view(np.uint16))
    of = prog.output(2, np.float32).reshape(2, 192)
    nchw = xf.reshape(2, 3, 4, 8)
    np.testing.assert_array_equal(of[0], np.transpose(nchw, (0, 2, 3, 1)).ravel())
    np.testing.assert_array_equal(of[1], xf)


T5HD = """
static void body(void*) {
  GlobalTensor<half> a, o;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 512);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 3 * 512 * 2), 3 * 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo, bl;
  pipe.InitBuffer(ba, 1024); pipe.InitBuffer(bo, 1024); pipe.InitBuffer(bl, 256);
  LocalTensor<half> x = ba.Get<half>(), z = bo.Get<half>();
  LocalTensor<uint64_t> dl = bl.Get<uint64_t>(), sl = bl.Get<uint64_t>()[16];
  DataCopy(x, a, 512);
  // address tensors: source block i = x[16 i], destination block j = z[16 j]; two repeats, strides of 16 blocks
  for (int i = 0; i < 16; ++i) { sl.SetValue(i, x[16 * i].GetPhyAddr()); dl.SetValue(i, z[16 * i].GetPhyAddr()); }
  Duplicate(z, (half)0, 512);
  TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 2, 16, 16)); DataCopy(o, z, 512);
  // one repeat: it starts one stride after the listed addresses
  Duplicate(z, (half)0, 512);
  TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 1, 16, 16)); DataCopy(o[512], z, 512);
  Duplicate(z, (half)0, 512);
  TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0)); DataCopy(o[1024], z, 512);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据排布转换/TransDataTo5HD")
def test_transdata_address_tensors_and_single_repeat_stride(prog) -> None:
    x = np.arange(512).astype(np.float16)
    prog.inputs(x)
    ran = prog.run(T5HD)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float16).reshape(3, 512)
    blk = x.reshape(2, 16, 16)                       # repeat r reads blocks 16 r .. 16 r + 15
    np.testing.assert_array_equal(o[0], np.concatenate([blk[0].T.ravel(), blk[1].T.ravel()]))
    np.testing.assert_array_equal(o[1], np.concatenate([np.zeros(256, np.float16), blk[1].T.ravel()]))
    np.testing.assert_array_equal(o[2], np.concatenate([blk[0].T.ravel(), np.zeros(256, np.float16)]))


FILL = """
static void body(void*) {
  GlobalTensor<float> a, o; GlobalTensor<int16_t> oi; GlobalTensor<half> oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 256 * 4), 3 * 256);
  oi.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_output(1, 2 * 256 * 2), 2 * 256);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(2, 256 * 2), 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bz, bi, bh;
  pipe.InitBuffer(ba, 256); pipe.InitBuffer(bz, 1024); pipe.InitBuffer(bi, 512); pipe.InitBuffer(bh, 512);
  LocalTensor<float> x = ba.Get<float>(), z = bz.Get<float>();
  LocalTensor<int16_t> zi = bi.Get<int16_t>();
  LocalTensor<half> zh = bh.Get<half>();
  DataCopy(x, a, 64);
  // Duplicate mask forms: 16 of 64 floats per repeat, dst block stride 2, repeat stride 16 blocks
  Duplicate(z, -1.0f, 256); Duplicate(z, 3.0f, 16, 2, 2, 16); DataCopy(o, z, 256);
  // Brcb: element j of a repeat's 8 fills block j (block stride 1, repeat stride 8)
  Brcb(z, x, 4, BrcbRepeatParams(1, 8)); DataCopy(o[256], z, 256);
  uint64_t m[2] = {0xFFFF0000FFFFull, 0};
  Duplicate(z, -1.0f, 256); Duplicate<float>(z, 5.0f, m, 4, 1, 8); DataCopy(o[512], z, 256);
  // CreateVecIndex: element k of repeat r = firstValue + r * 128 + k (int16), mask forms
  Duplicate(zi, (int16_t)-1, 256); CreateVecIndex(zi, (int16_t)10, 64, 2, 1, 8); DataCopy(oi, zi, 256);
  uint64_t mi[2] = {0, ~0ull};
  Duplicate(zi, (int16_t)-1, 256); CreateVecIndex(zi, (int16_t)-100, mi, 2, 1, 8); DataCopy(oi[256], zi, 256);
  CreateVecIndex(zh, (half)0.5, 256); DataCopy(oh, zh, 256);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据填充/Duplicate", "数据填充/Brcb", "数据填充/CreateVecIndex")
def test_fill_mask_forms(prog) -> None:
    x = np.arange(64, dtype=np.float32) + 0.5
    prog.inputs(x)
    ran = prog.run(FILL)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(3, 256)
    w = np.full(256, -1.0, np.float32)
    for r in range(2):
        for b in range(2):                           # 16 floats = blocks 0 and 1, at block stride 2
            w[128 * r + 16 * b: 128 * r + 16 * b + 8] = 3.0
    np.testing.assert_array_equal(o[0], w)
    np.testing.assert_array_equal(o[1], np.repeat(x[:32], 8))
    w = np.full(256, -1.0, np.float32)
    sel = np.array([(0xFFFF0000FFFF >> k) & 1 for k in range(64)], bool)
    for r in range(4):
        w[64 * r: 64 * r + 64][sel] = 5.0
    np.testing.assert_array_equal(o[2], w)
    oi = prog.output(1, np.int16).reshape(2, 256)
    w = np.full(256, -1, np.int16)
    for r in range(2):
        w[128 * r: 128 * r + 64] = 10 + 128 * r + np.arange(64)
    np.testing.assert_array_equal(oi[0], w)
    w = np.full(256, -1, np.int16)
    for r in range(2):
        w[128 * r + 64: 128 * r + 128] = -100 + 128 * r + np.arange(64, 128)
    np.testing.assert_array_equal(oi[1], w)
    np.testing.assert_array_equal(prog.output(2, np.float16), (0.5 + np.arange(256)).astype(np.float16))


GATHER = """
static void body(void*) {
  GlobalTensor<float> a, o; GlobalTensor<uint32_t> ao, ab; GlobalTensor<uint16_t> au, ou;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  ao.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(1), 128);
  au.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_input(2), 512);
  ab.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(3), 16);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 256 * 4), 3 * 256);
  ou.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_output(1, 512 * 2), 512);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo, bz, bu, bb, bw;
  pipe.InitBuffer(ba, 1024); pipe.InitBuffer(bo, 512); pipe.InitBuffer(bz, 1024); pipe.InitBuffer(bu, 1024);
  pipe.InitBuffer(bb, 64); pipe.InitBuffer(bw, 1024);
  LocalTensor<float> x = ba.Get<float>(), z = bz.Get<float>();
  LocalTensor<uint32_t> off = bo.Get<uint32_t>(), boff = bb.Get<uint32_t>();
  LocalTensor<uint16_t> xu = bu.Get<uint16_t>(), zu = bw.Get<uint16_t>();
  DataCopy(x, a, 256); DataCopy(off, ao, 128); DataCopy(xu, au, 512); DataCopy(boff, ab, 16);
  Duplicate(z, -1.0f, 256); Gather(z, x, off, 0, 100); DataCopy(o, z, 256);
  // mask form: 16 of 64 elements per repeat, repeat r writes dstRepStride = 16 blocks after r - 1, offsets from 64 r
  Duplicate(z, -1.0f, 256); Gather(z, x, off, (uint32_t)16, 16, 2, 16); DataCopy(o[256], z, 256);
  uint64_t m[2] = {0x8000000000000001ull, 0};
  Duplicate(z, -1.0f, 256); Gather(z, x, off, (uint32_t)0, m, 2, 8); DataCopy(o[512], z, 256);
  // Gatherb: block j of repeat i from byte offset boff[8 i + j]; dstBlkStride 0 acts as 1
  Duplicate(zu, (uint16_t)0, 512); Gatherb(zu, xu, boff, 2, GatherRepeatParams(0, 16)); DataCopy(ou, zu, 512);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("离散与聚合/Gather", "离散与聚合/Gatherb(ISASI)")
def test_gather_forms(prog) -> None:
    rng = np.random.default_rng(83)
    x = rng.standard_normal(256).astype(np.float32)
    off = (rng.integers(0, 240, 128) * 4).astype(np.uint32)      # byte offsets into src
    xu = np.arange(512, dtype=np.uint16)
    boff = (rng.permutation(32)[:16] * 32).astype(np.uint32)     # whole 32-byte blocks
    prog.inputs(x, off, xu, boff)
    ran = prog.run(GATHER)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(3, 256)
    w = np.full(256, -1.0, np.float32)
    w[:100] = x[off[:100] // 4]
    np.testing.assert_array_equal(o[0], w)
    w = np.full(256, -1.0, np.float32)
    for r in range(2):
        w[128 * r: 128 * r + 16] = x[(16 + off[64 * r: 64 * r + 16]) // 4]
    np.testing.assert_array_equal(o[1], w)
    w = np.full(256, -1.0, np.float32)
    for r in range(2):
        for k in (0, 63):
            w[64 * r + k] = x[off[64 * r + k] // 4]
    np.testing.assert_array_equal(o[2], w)
    ou = prog.output(1, np.uint16).reshape(32, 16)
    w = np.zeros((32, 16), np.uint16)
    for i in range(2):
        for j in range(8):
            w[16 * i + j] = xu.reshape(32, 16)[boff[8 * i + j] // 32]
    np.testing.assert_array_equal(ou, w)


GATHER_IN_PLACE = """
static void body(void*) {
  GlobalTensor<float> a, o; GlobalTensor<uint32_t> ao;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 64);
  ao.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(1), 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bo;
  pipe.InitBuffer(ba, 256); pipe.InitBuffer(bo, 256);
  LocalTensor<float> x = ba.Get<float>();
  LocalTensor<uint32_t> off = bo.Get<uint32_t>();
  DataCopy(x, a, 64); DataCopy(off, ao, 64);
  Gather(x, x, off, 0, 64);   // IN-PLACE-LINE
  DataCopy(o, x, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("离散与聚合/Gather")
def test_gather_in_place_reads_its_sources_first_and_warns(prog) -> None:
    """The page does not support dst overlapping src; hardware-checked kernels broadcast a row's value
    over its block in place. Every source element is read before the first write (element 8 gets
    x[1], not the x[0] a sequential copy would have left there), and the kernel gets a warning."""
    x = np.arange(1, 65, dtype=np.float32)
    off = ((np.arange(64) // 8) * 4).astype(np.uint32)
    prog.inputs(x, off)
    ran = prog.run(GATHER_IN_PLACE)
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_array_equal(prog.output(0, np.float32), x[np.arange(64) // 8])
    assert "WARNING: Gather: dst overlaps src" in ran.stderr


MISUSE = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b, c, t;
  pipe.InitBuffer(b, 1024); pipe.InitBuffer(c, 1024); pipe.InitBuffer(t, 4096);
  LocalTensor<float> x = b.Get<float>(), y = c.Get<float>();
  LocalTensor<uint32_t> off = c.Get<uint32_t>();
  LocalTensor<uint8_t> tmp = t.Get<uint8_t>();
#if CASE == 0
  Duplicate(off, (uint32_t)6, 8);
  Gather(y, x, off, 0, 8);                         // byte offset 6: not aligned to float
#elif CASE == 1
  TransposeParamsExt p(1, 3, 2, 3, TransposeType::TRANSPOSE_NCHW2NHWC);   // H * W * 4 = 24 bytes
  Transpose(y, x, tmp, p);
#elif CASE == 2
  Brcb(x, x[8], 1, BrcbRepeatParams(1, 8));       // dst over src
#else
  TransposeParamsExt p(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_ONLY);
  Transpose(y, x, tmp, p);
#endif
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("离散与聚合/Gather", "数据排布转换/Transpose", "数据填充/Brcb")
@pytest.mark.parametrize("case, message", [
    (0, "Gather: offset[0] = 6 bytes is not 4-byte aligned"),
    (1, "Transpose: hSize * wSize * sizeof(T) = 24 bytes is not a whole number of 32-byte blocks"),
    (2, "Brcb: dst overlaps src"),
    (3, "Transpose: transposeType 7 is not supported"),
])
def test_layout_misuse_is_reported(prog, case: int, message: str) -> None:
    ran = prog.run(MISUSE, defines=(f"CASE={case}",))
    assert ran.returncode == 3, ran.stderr
    assert message in ran.stderr
