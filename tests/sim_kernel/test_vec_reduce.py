"""The reduction family of the Memory-vector API (归约计算 and its register helpers), from the reference
pages: sums as binary trees in the element type (ReduceDataBlock, ReduceRepeat, ReduceSum; the count form
of ReduceSum adds the repeat results in order, its mask form as a tree again), the value/index orders of
ReduceRepeat with the lowest index on ties, ReducePairElem's pairs under a mask, masked-out blocks and
pairs left as they were, ReduceSum/Max/Min beyond 255 repeats, and the GetReduceRepeatSumSpr /
GetReduceRepeatMaxMinSpr registers."""

from __future__ import annotations

import numpy as np
import pytest
from tree_sum import tree_sum

BLOCKS = """
static void body(void*) {
  GlobalTensor<half> ah, oh; GlobalTensor<float> af, of;
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 256);
  af.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 128);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 3 * 16 * 2), 3 * 16);
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 4 * 24 * 4), 4 * 24);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bh, bf, bdh, bdf;
  pipe.InitBuffer(bh, 512); pipe.InitBuffer(bf, 512); pipe.InitBuffer(bdh, 32); pipe.InitBuffer(bdf, 96);
  LocalTensor<half> xh = bh.Get<half>(), dh = bdh.Get<half>();
  LocalTensor<float> xf = bf.Get<float>(), df = bdf.Get<float>();
  DataCopy(xh, ah, 256); DataCopy(xf, af, 128);
  // half: one result per 32-byte block, 8 per repeat, 2 repeats (dstRepStride 1 = 8 halves)
  ReduceDataBlock<ReduceType::SUM, half, half>(dh, xh, 128, 2, 1, 1, 8); DataCopy(oh, dh, 16);
  ReduceDataBlock<ReduceType::MAX, half, half>(dh, xh, 128, 2, 1, 1, 8); DataCopy(oh[16], dh, 16);
  BlockReduceMin<half>(dh, xh, 2, 128, 1, 1, 8); DataCopy(oh[32], dh, 16);
  // float: mask 32 covers blocks 0-3 only; blocks 4-7 leave dst as it was; dstRepStride 2 (16 floats)
  for (int k = 0; k < 4; ++k) {
    Duplicate(df, -7.0f, 24);
    if (k == 0) ReduceDataBlock<ReduceType::SUM, float, float>(df, xf, 32, 2, 2, 1, 8);
    if (k == 1) ReduceDataBlock<ReduceType::MIN, float, float>(df, xf, 32, 2, 2, 1, 8);
    uint64_t m[2] = {0x00000000FFFFFFFFull, 0};
    if (k == 2) ReduceDataBlock<ReduceType::MAX, float, float, true>(df, xf, m, 2, 2, 1, 8);
    if (k == 3) BlockReduceSum<float>(df, xf, 2, 64, 2, 1, 8);
    DataCopy(of[k * 24], df, 24);
  }
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("归约计算/ReduceDataBlock")
def test_reduce_data_block_tree_sum_and_masked_blocks(prog) -> None:
    rng = np.random.default_rng(71)
    xh = rng.standard_normal(256).astype(np.float16)
    xh[:16] = [2048] + [1] * 15                      # in order this would stay 2048; as a tree it is 2062
    xf = rng.standard_normal(128).astype(np.float32)
    prog.inputs(xh, xf)
    ran = prog.run(BLOCKS)
    assert ran.returncode == 0, ran.stderr
    oh = prog.output(0, np.float16).reshape(3, 16)
    bh = xh.reshape(16, 16)
    np.testing.assert_array_equal(oh[0], [tree_sum(b, np.float16) for b in bh])
    assert oh[0][0] == 2062
    np.testing.assert_array_equal(oh[1], bh.max(axis=1))
    np.testing.assert_array_equal(oh[2], bh.min(axis=1))
    of = prog.output(1, np.float32).reshape(4, 24)
    bf = xf.reshape(16, 8)
    for k, red in enumerate((lambda b: tree_sum(b, np.float32), np.min, np.max, lambda b: tree_sum(b, np.float32))):
        w = np.full(24, -7.0, np.float32)
        for r in range(2):
            nblk = 8 if k == 3 else 4
            for b in range(nblk):
                w[16 * r + b] = red(bf[8 * r + b])
        np.testing.assert_array_equal(of[k], w, err_msg=f"case {k}")


REPEAT = """
static void body(void*) {
  GlobalTensor<float> a, o; GlobalTensor<half> ah, oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 6 * 8 * 4), 6 * 8);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 2 * 16 * 2), 2 * 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bh, bd, be;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bh, 512); pipe.InitBuffer(bd, 32); pipe.InitBuffer(be, 32);
  LocalTensor<float> x = ba.Get<float>(), d = bd.Get<float>(), v = be.Get<float>();
  LocalTensor<half> xh = bh.Get<half>(), dh = be.Get<half>();
  DataCopy(x, a, 128); DataCopy(xh, ah, 256);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 8], d, 8); ++k; };
  Duplicate(d, 0.0f, 8); ReduceRepeat<ReduceType::SUM, float, float>(d, x, 64, 2, 1, 1, 8); out_();
  Duplicate(d, 0.0f, 8); ReduceRepeat<ReduceType::MAX, float, float>(d, x, 64, 2, 1, 1, 8); out_();
  float mv, mi; GetReduceRepeatMaxMinSpr<float>(mv, mi);
  v.SetValue(0, mv); v.SetValue(1, mi);
  Duplicate(d, 0.0f, 8);
  ReduceRepeat<ReduceType::MIN, float, float>(d, x, 64, 2, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE); out_();
  Duplicate(d, 0.0f, 8);
  ReduceRepeat<ReduceType::MAX, float, float>(d, x, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); out_();
  Duplicate(d, 0.0f, 8);
  uint64_t m[2] = {0xFFFFFFFFull, 0};
  ReduceRepeat<ReduceType::MAX, float, float>(d, x, m, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX); out_();
  DataCopy(d, v, 8); out_();
  // half: the register index is flat over both repeats; WholeReduceMax is the older name
  WholeReduceMax<half>(dh, xh, 128, 2, 1, 1, 8); DataCopy(oh, dh, 16);
  half hv, hi; GetReduceRepeatMaxMinSpr<half>(hv, hi);
  Duplicate(dh, (half)0, 16); dh.SetValue(0, hv); dh.SetValue(1, hi); DataCopy(oh[16], dh, 16);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("归约计算/ReduceRepeat", "归约计算辅助配置接口/GetReduceRepeatMaxMinSpr(ISASI)")
def test_reduce_repeat_orders_and_register(prog) -> None:
    rng = np.random.default_rng(73)
    x = rng.standard_normal(128).astype(np.float32)
    x[10] = x[40] = 9.0                               # a tie: the lower index wins
    x[64 + 5] = x[64 + 60] = -9.0
    xh = rng.standard_normal(256).astype(np.float16)
    xh[200] = 8.0
    prog.inputs(x, xh)
    ran = prog.run(REPEAT)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(6, 8)
    r = x.reshape(2, 64)
    np.testing.assert_array_equal(o[0][:2], [tree_sum(r[0], np.float32), tree_sum(r[1], np.float32)])
    idx = o[1].view(np.uint32)
    assert o[1][0] == 9.0 and idx[1] == 10 and o[1][2] == r[1].max() and idx[3] == r[1].argmax()
    idx = o[2].view(np.uint32)
    assert idx[0] == r[0].argmin() and o[2][1] == r[0].min() and idx[2] == 5 and o[2][3] == -9.0
    np.testing.assert_array_equal(o[3][:2], r.max(axis=1))
    assert o[4].view(np.uint32)[:2].tolist() == [r[0][:32].argmax(), r[1][:32].argmax()]
    assert o[5][0] == 9.0 and o[5].view(np.uint32)[1] == 10      # the extreme of all repeats, flat index
    oh = prog.output(1, np.float16).reshape(2, 16)
    rh = xh.reshape(2, 128)
    assert oh[0][0] == rh[0].max() and oh[0][1:2].view(np.uint16)[0] == rh[0].argmax()
    assert oh[0][2] == 8.0 and oh[0][3:4].view(np.uint16)[0] == 200 - 128
    assert oh[1][0] == 8.0 and oh[1][1:2].view(np.uint16)[0] == 200


PAIRS = """
static void body(void*) {
  GlobalTensor<half> a, o;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 256);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 2 * 128 * 2), 2 * 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bd;
  pipe.InitBuffer(ba, 512); pipe.InitBuffer(bd, 256);
  LocalTensor<half> x = ba.Get<half>(), d = bd.Get<half>();
  DataCopy(x, a, 256);
  Duplicate(d, (half)-7, 128); ReducePairElem<ReduceType::SUM, half, half>(d, x, 128, 2, 1, 1, 8); DataCopy(o, d, 128);
  // pair 0: both elements; pair 1: only its first; pair 2: neither (left as it was); pair 3: only its second
  uint64_t m[2] = {0b10000111ull, 0};
  Duplicate(d, (half)-7, 128); PairReduceSum<half>(d, x, 2, m, 1, 1, 8); DataCopy(o[128], d, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("归约计算/ReducePairElem")
def test_reduce_pair_elem_under_a_mask(prog) -> None:
    rng = np.random.default_rng(75)
    x = rng.standard_normal(256).astype(np.float16)
    prog.inputs(x)
    ran = prog.run(PAIRS)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float16).reshape(2, 128)
    np.testing.assert_array_equal(o[0], (x[0::2].astype(np.float32) + x[1::2]).astype(np.float16))
    w = np.full(128, np.float16(-7))
    for r in range(2):
        b = 128 * r
        w[64 * r + 0] = np.float16(np.float32(x[b]) + x[b + 1])
        w[64 * r + 1] = x[b + 2]
        w[64 * r + 3] = x[b + 7]
    np.testing.assert_array_equal(o[1], w)


ALL = """
static void body(void*) {
  GlobalTensor<float> a, o;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 300 * 64);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 8 * 4), 8 * 8);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bw, bd, bv;
  pipe.InitBuffer(ba, 300 * 256); pipe.InitBuffer(bw, 4096); pipe.InitBuffer(bd, 32); pipe.InitBuffer(bv, 32);
  LocalTensor<float> x = ba.Get<float>(), w = bw.Get<float>(), d = bd.Get<float>(), v = bv.Get<float>();
  DataCopy(x, a, 300 * 64);
  int k = 0;
  auto out_ = [&]() { DataCopy(o[k * 8], d, 8); ++k; };
  // count form: tree per repeat, repeat results in order; the sum stays in the register
  Duplicate(d, 0.0f, 8); ReduceSum(d, x, w, 1000); out_();
  Duplicate(v, 0.0f, 8); v.SetValue(0, GetReduceRepeatSumSpr<float>()); DataCopy(d, v, 8); out_();
  // mask form with 300 repeats (more than 255 is allowed): repeat results summed as a tree of repeats
  Duplicate(d, 0.0f, 8); ReduceSum(d, x, w, 64, 300, 8); out_();
  Duplicate(d, 0.0f, 8); ReduceMax(d, x, w, 1000, true); out_();
  Duplicate(d, 0.0f, 8); ReduceMin(d, x, w, 64, 300, 8, true); out_();
  uint64_t m[2] = {0xFFull, 0};
  Duplicate(d, 0.0f, 8); ReduceMax(d, x, w, m, 3, 8); out_();
  // isSetMask = false: the count comes from the mask register in counter mode
  Duplicate(d, 0.0f, 8);   // (a count form itself: it leaves normal mode, so the mode is set after it)
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(0, 200);
  ReduceSum<float, false>(d, x, w, 1); out_();
  SetMaskNorm(); ResetMask();
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("归约计算/ReduceSum", "归约计算/ReduceMax", "归约计算/ReduceMin",
                 "归约计算辅助配置接口/GetReduceRepeatSumSpr(ISASI)")
def test_reduce_whole_input(prog) -> None:
    rng = np.random.default_rng(77)
    x = rng.standard_normal(300 * 64).astype(np.float32)
    x[500] = x[900] = 50.0
    prog.inputs(x)
    ran = prog.run(ALL)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32).reshape(8, 8)

    def ordered(v: np.ndarray) -> np.float32:
        acc = None
        for i in range(0, len(v), 64):
            t = tree_sum(v[i:i + 64], np.float32)
            acc = t if acc is None else np.float32(acc + t)
        return acc

    def tree_of_repeats(v: np.ndarray) -> np.float32:
        part = [tree_sum(v[i:i + 64], np.float32) for i in range(0, len(v), 64)]
        while len(part) > 1:
            part = [tree_sum(np.array(part[i:i + 64], np.float32), np.float32) for i in range(0, len(part), 64)]
        return part[0]

    assert o[0][0] == ordered(x[:1000])
    assert o[1][0] == o[0][0]
    assert o[2][0] == tree_of_repeats(x)
    assert o[3][0] == 50.0 and o[3][1:2].view(np.uint32)[0] == 500
    assert o[4][0] == x.min() and o[4][1:2].view(np.uint32)[0] == x.argmin()
    sel = np.concatenate([x[64 * r:64 * r + 8] for r in range(3)])
    assert o[5][0] == sel.max()
    assert o[6][0] == ordered(x[:200])
