"""The data-movement family of the Memory-vector API (数据搬运 and 数据搬运辅助配置接口), from the reference
pages: DataCopy's count form (rounded down to 32 bytes) and DataCopyParams form (block gaps; blockLen 0 is
a no-op) between GM and UB and UB -> UB, DataCopyPad with unaligned extents in both directions (left and
right padding, the dummy bytes up to the 32-byte boundary, paddingValue, SetPadValue), the slice copy
(the page's example), NZ -> ND on the way out, ND -> NZ on the way in, and Copy's counter mode."""

from __future__ import annotations

import numpy as np
import pytest

POISON16 = np.frombuffer(b"\xa5\xa5", dtype=np.float16)[0]

COPIES = """
static void body(void*) {
  GlobalTensor<half> a, o, o2, o3;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 512);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 4 * 256 * 2), 4 * 256);
  o2.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 100 * 2), 100);
  o3.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(2, 64 * 2), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, 1024); pipe.InitBuffer(by, 1024);
  LocalTensor<half> x = bx.Get<half>(), y = by.Get<half>();
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 256], y, 256); ++k; };
  // 0: 100 halves = 200 bytes: the count form moves 192 bytes (96 halves)
  Duplicate(y, (half)-1, 256); DataCopy(y, a, 100); out_();
  // 1: DataCopyParams: 3 blocks of 2 x 32 bytes, source gap 1 block, destination gap 2 blocks
  Duplicate(y, (half)-1, 256); DataCopy(y, a, DataCopyParams(3, 2, 1, 2)); out_();
  // 2: UB -> UB, count and DataCopyParams forms; blockLen 0 is a no-op
  DataCopy(x, a, 512);
  Duplicate(y, (half)-1, 256); DataCopy(y, x[64], 64); DataCopy(y[128], x, DataCopyParams(2, 1, 1, 0));
  DataCopy(y, x, DataCopyParams(4, 0, 0, 0)); out_();
  // 3: UB -> GM with a destination gap
  DataCopy(o[3 * 256], x, DataCopyParams(2, 1, 0, 3)); ++k;
  // UB -> GM unaligned: 100 halves written exactly (the tail of the last 32-byte block is not)
  DataCopyPad(o2, x, DataCopyExtParams(1, 200, 0, 0, 0));
  // two blocks of 20 halves with a UB gap of 1 block and a GM gap of 24 bytes
  DataCopyPad(o3, x, DataCopyExtParams(2, 40, 1, 24, 0));
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据搬运/DataCopy（GM与UB-连续数据搬运）", "数据搬运/DataCopy（GM与UB-高维切分数据搬运）",
                 "数据搬运/DataCopy（UB -> UB-连续数据搬运）", "数据搬运/DataCopy（UB -> UB-高维切分数据搬运）",
                 "数据搬运/DataCopyPad（UB -> GM-非对齐数据搬运）")
def test_datacopy_forms_and_unaligned_store(prog) -> None:
    a = np.arange(512).astype(np.float16)
    prog.inputs(a)
    ran = prog.run(COPIES)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float16).reshape(4, 256)
    w = np.full(256, -1, np.float16)
    w[:96] = a[:96]
    np.testing.assert_array_equal(o[0], w)
    w = np.full(256, -1, np.float16)
    for i in range(3):                                   # 32 halves per block of 2 x 32 bytes
        w[64 * i: 64 * i + 32] = a[48 * i: 48 * i + 32]  # source step 3 blocks, destination step 4 blocks
    np.testing.assert_array_equal(o[1], w)
    w = np.full(256, -1, np.float16)
    w[:64] = a[64:128]
    w[128:144], w[144:160] = a[0:16], a[32:48]
    np.testing.assert_array_equal(o[2], w)
    w = np.full(256, POISON16)
    w[:16], w[64:80] = a[:16], a[16:32]
    np.testing.assert_array_equal(o[3].view(np.uint16), w.view(np.uint16))
    np.testing.assert_array_equal(prog.output(1, np.float16), a[:100])
    o3 = prog.output(2, np.float16)
    w = np.full(64, POISON16)
    w[:20] = a[:20]
    w[32:52] = a[48:68]                                  # UB: 2 blocks + a gap of 1; GM: 40 + 24 bytes on
    np.testing.assert_array_equal(o3.view(np.uint16), w.view(np.uint16))


PAD = """
static void body(void*) {
  GlobalTensor<half> a; GlobalTensor<half> o; GlobalTensor<int32_t> ai, oi;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 128);
  ai.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(1), 64);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 5 * 64 * 2), 5 * 64);
  oi.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(1, 32 * 4), 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> by, bi;
  pipe.InitBuffer(by, 128); pipe.InitBuffer(bi, 128);
  LocalTensor<half> y = by.Get<half>();
  LocalTensor<int32_t> yi = bi.Get<int32_t>();
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 64], y, 64); ++k; };
  // 0: 2 blocks of 10 halves from GM element 3, GM gap 4 bytes: each fills a 32-byte block; no padding:
  //    the 6 dummy halves repeat the block's first element
  Duplicate(y, (half)-1, 64);
  DataCopyPad(y, a[3], DataCopyExtParams(2, 20, 4, 0, 0), DataCopyPadExtParams<half>(false, 0, 0, 0)); out_();
  // 1: left 2 / right 3 halves of paddingValue 7 around 9 halves, dummies also 7; UB gap 1 block
  Duplicate(y, (half)-1, 64);
  DataCopyPad(y, a, DataCopyExtParams(2, 18, 0, 1, 0), DataCopyPadExtParams<half>(true, 2, 3, (half)7)); out_();
  // 2: padding requested without isPad: padding and dummies left as they were
  Duplicate(y, (half)-1, 64);
  DataCopyPad(y, a, DataCopyExtParams(1, 18, 0, 0, 0), DataCopyPadExtParams<half>(false, 2, 3, (half)7)); out_();
  // 3: SetPadValue supplies the value when isPad is false
  SetPadValue((half)5);
  Duplicate(y, (half)-1, 64);
  DataCopyPad(y, a, DataCopyExtParams(1, 18, 0, 0, 0), DataCopyPadExtParams<half>(false, 2, 3, (half)7)); out_();
  // 4: blockCount 0 and blockLen 0 are no-ops
  Duplicate(y, (half)-1, 64);
  DataCopyPad(y, a, DataCopyExtParams(0, 18, 0, 0, 0), DataCopyPadExtParams<half>());
  DataCopyPad(y, a, DataCopyExtParams(2, 0, 0, 0, 0), DataCopyPadExtParams<half>()); out_();
  // int32_t: the older DataCopyParams / DataCopyPadParams form
  Duplicate(yi, -1, 32);
  DataCopyPad(yi, ai, DataCopyParams(2, 12, 4, 0), DataCopyPadParams(true, 1, 0, 9)); DataCopy(oi, yi, 32);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据搬运/DataCopyPad（GM -> UB-非对齐数据搬运）", "数据搬运辅助配置接口/SetPadValue(ISASI)")
def test_datacopypad_padding_and_dummies(prog) -> None:
    a = (np.arange(128) + 100).astype(np.float16)
    ai = np.arange(64, dtype=np.int32) + 1000
    prog.inputs(a, ai)
    ran = prog.run(PAD)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float16).reshape(5, 64)
    w = np.full(64, -1, np.float16)
    for i, start in enumerate((3, 3 + 12)):             # 20 bytes + 4 bytes gap = 12 halves per step
        w[16 * i: 16 * i + 10] = a[start: start + 10]
        w[16 * i + 10: 16 * i + 16] = a[start]
    np.testing.assert_array_equal(o[0], w)
    w = np.full(64, -1, np.float16)
    for i, row in enumerate((0, 2)):                     # 2 + 9 + 3 = 14 halves in one block, then a gap block
        blk = np.full(16, 7, np.float16)
        blk[2:11] = a[9 * i: 9 * i + 9]
        w[16 * row: 16 * row + 16] = blk
    np.testing.assert_array_equal(o[1], w)
    w = np.full(64, -1, np.float16)
    w[2:11] = a[:9]
    np.testing.assert_array_equal(o[2], w)
    w = np.full(64, -1, np.float16)
    w[:16] = 5
    w[2:11] = a[:9]
    np.testing.assert_array_equal(o[3], w)
    np.testing.assert_array_equal(o[4], np.full(64, -1, np.float16))
    oi = prog.output(1, np.int32)
    w = np.full(32, -1, np.int32)
    for i, start in enumerate((0, 4)):                   # 12 bytes + 4 bytes gap = 4 ints per step
        blk = np.full(8, 9, np.int32)
        blk[1:4] = ai[start: start + 3]
        w[8 * i: 8 * i + 8] = blk
    np.testing.assert_array_equal(oi, w)


LAYOUT = """
static void body(void*) {
  GlobalTensor<float> a, o; GlobalTensor<half> ah, oh, onz;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 3 * 87);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 2 * 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 87 * 4), 3 * 87);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 2 * 4 * 160 * 2), 2 * 4 * 160);
  onz.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(2, 2 * 256 * 2), 2 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bh, bn;
  pipe.InitBuffer(bx, 1024); pipe.InitBuffer(bh, 1024); pipe.InitBuffer(bn, 1024);
  LocalTensor<float> x = bx.Get<float>();
  LocalTensor<half> h = bh.Get<half>(), nz = bn.Get<half>();
  // the slice page's example: rows 0 and 2 of a [3, 87] tensor, elements 16-39 and 47-70 of each, into [2, 48]
  SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
  SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
  Duplicate(x, -1.0f, 256);
  DataCopy(x, a, dst, src, 2);
  DataCopy(o, x, src, dst, 2);                        // and back to the same places
  // NZ -> ND on the way out (the NZ2ND page's half example): 2 NZ matrices of 4 x 32
  DataCopy(h, ah, 512);
  Nz2NdParamsFull p(2, 4, 32, 1, 4, 160, 48);
  DataCopy(oh, h, p);
  // ND -> NZ on the way in: 2 ND matrices of 2 x 24 halves (rows 48 apart), zero-filled to 32-byte columns
  Duplicate(nz, (half)-1, 512);
  Nd2NzParams q(2, 2, 24, 144, 48, 11, 2, 96);
  DataCopy(nz, ah, q);
  DataCopy(onz, nz, 512);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据搬运/DataCopy（GM与UB-切片数据搬运）", "数据搬运/DataCopy（UB -> GM-随路转换NZ2ND搬运）",
                 "数据搬运/DataCopy（GM -> UB-随路转换ND2NZ搬运）")
def test_slice_nz2nd_nd2nz(prog) -> None:
    a = np.arange(3 * 87, dtype=np.float32)
    ah = np.arange(512).astype(np.float16)
    prog.inputs(a, ah)
    ran = prog.run(LAYOUT)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32)
    sel = np.zeros((3, 87), bool)
    sel[[0, 2], 16:40] = True
    sel[[0, 2], 47:71] = True
    assert np.all(o.reshape(3, 87)[sel] == a.reshape(3, 87)[sel])
    assert np.all(o.reshape(3, 87)[~sel].view(np.uint32) == 0xA5A5A5A5), "only the slices are written"
    oh = prog.output(1, np.float16)
    want = np.full(2 * 4 * 160, POISON16)
    for m in range(2):
        for r in range(4):
            for c in range(32):
                want[m * 48 + r * 160 + c] = ah[m * 256 + (c // 16) * 64 + r * 16 + c % 16]
    np.testing.assert_array_equal(oh.view(np.uint16), want.view(np.uint16))
    onz = prog.output(2, np.float16)
    want = np.full(512, np.float16(-1))
    for m in range(2):
        for r in range(2):
            for c in range(32):                         # 24 data halves, then zeros to the 16-element column
                v = ah[m * 144 + r * 48 + c] if c < 24 else 0
                want[m * 96 + (c // 16) * 11 * 16 + r * 2 * 16 + c % 16] = v
    np.testing.assert_array_equal(onz, want)


COPY = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 2 * 256 * 4), 2 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, 1024); pipe.InitBuffer(by, 1024);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>();
  DataCopy(x, a, 256);
  // counter mode: the mask is the count of every repeat and repeatTime counts (unlike other instructions)
  Duplicate(y, -1.0f, 256);
  SetMaskCount(); Copy(y, x, 20, 3, CopyRepeatParams(1, 1, 8, 8)); SetMaskNorm(); ResetMask();
  DataCopy(o, y, 256);
  // normal mode, block strides of 2 on the destination
  Duplicate(y, -1.0f, 256); Copy(y, x, 16, 2, CopyRepeatParams(2, 1, 16, 8)); DataCopy(o[256], y, 256);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据搬运/Copy（UB -> UB-掩码式高维数据搬运）")
def test_copy_counter_mode_counts_per_repeat(prog) -> None:
    a = np.arange(256, dtype=np.float32)
    prog.inputs(a)
    ran = prog.run(COPY)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(2, 256)
    w = np.full(256, -1.0, np.float32)
    for r in range(3):
        w[64 * r: 64 * r + 20] = a[64 * r: 64 * r + 20]
    np.testing.assert_array_equal(o[0], w)
    w = np.full(256, -1.0, np.float32)
    for r in range(2):
        for b in range(2):
            w[128 * r + 16 * b: 128 * r + 16 * b + 8] = a[64 * r + 8 * b: 64 * r + 8 * b + 8]
    np.testing.assert_array_equal(o[1], w)


GAPS = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 3 * 256 * 4), 3 * 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, 1024); pipe.InitBuffer(by, 1024);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>();
  // the page's field-by-field form: 4 blocks of 1 x 32 bytes, a source gap of 1 block, a destination gap of 2
  DataCopyParams p;
  p.blockCount = 4; p.blockLen = 1; p.srcGap = 1; p.dstGap = 2;
  Duplicate(y, -1.0f, 256); DataCopy(y, a, p); DataCopy(o, y, 256);
  // one field, two names: the stride names read what the gap names wrote, and the other way round
  DataCopyParams q(2, 2, 0, 0);
  q.srcGap = 3; q.dstStride = 1;
  if (q.srcStride != 3 || q.dstGap != 1) return;
  DataCopy(x, a, 256);
  Duplicate(y, -1.0f, 256); DataCopy(y, x, q); DataCopy(o[256], y, 256);
  // UB -> GM with the gap names
  DataCopyParams r;
  r.blockCount = 2; r.blockLen = 1; r.srcGap = 0; r.dstGap = 1;
  DataCopy(o[512], x, r);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("数据搬运/DataCopy（GM与UB-高维切分数据搬运）", "数据搬运/DataCopy（UB -> UB-高维切分数据搬运）")
def test_datacopy_params_gap_names(prog) -> None:
    """The current pages name DataCopyParams' gaps srcGap/dstGap; code written earlier says srcStride/dstStride."""
    a = np.arange(256, dtype=np.float32)
    prog.inputs(a)
    ran = prog.run(GAPS)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(3, 256)
    w = np.full(256, -1.0, np.float32)
    for i in range(4):                                   # 8 floats per block; source step 2 blocks, destination 3
        w[24 * i: 24 * i + 8] = a[16 * i: 16 * i + 8]
    np.testing.assert_array_equal(o[0], w)
    w = np.full(256, -1.0, np.float32)
    for i in range(2):                                   # 2 blocks each; source step 5 blocks, destination 3
        w[24 * i: 24 * i + 16] = a[40 * i: 40 * i + 16]
    np.testing.assert_array_equal(o[1], w, err_msg="srcStride and srcGap (dstStride and dstGap) are one field")
    w = np.full(256, POISON16.view(np.uint16).astype(np.uint32) * 0x10001, np.uint32)
    w[0:8], w[16:24] = a[0:8].view(np.uint32), a[8:16].view(np.uint32)
    np.testing.assert_array_equal(o[2].view(np.uint32), w)
