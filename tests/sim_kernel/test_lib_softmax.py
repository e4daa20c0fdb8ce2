"""The SoftMax family of the library (SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2, SoftmaxFlashV3,
SoftmaxGrad, SoftmaxGradFront, AdjustSoftMaxRes, LogSoftMax) on the simulator, each checked against the
python formula of its doc page: every documented overload (same-type and half/float statistics, with and
without sharedTmpBuffer), ND rows with padding (oriSrcK < srcK), NZ data, the non-broadcast output mode,
and the documented constraints as violations. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(7)

HEAD = """
template <typename T>
static LocalTensor<T> buf(TPipe& pipe, TBuf<TPosition::VECCALC>& b, int n) {
  pipe.InitBuffer(b, n * sizeof(T));
  return b.Get<T>();
}
"""

# Eight buffers of float (s: statistics, 8 per row), a half source / dst, a 16 KiB sharedTmpBuffer.
FRAME = HEAD + """
static void body(void*) {
  GlobalTensor<float> a, g, o;
  GlobalTensor<half> ah, oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 1024);
  g.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 1024);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2), 1024);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 16 * 1024 * 4), 16 * 1024);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 4 * 1024 * 2), 4 * 1024);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, b1, b2, b3, b4, b5, b6, b7, bh0, bh1, bh2, bt;
  LocalTensor<float> x = buf<float>(pipe, b0, 1024), gr = buf<float>(pipe, b1, 1024), z = buf<float>(pipe, b2, 1024);
  LocalTensor<float> s = buf<float>(pipe, b3, 256), m = buf<float>(pipe, b4, 256), e = buf<float>(pipe, b5, 256);
  LocalTensor<float> s2 = buf<float>(pipe, b6, 256), m2 = buf<float>(pipe, b7, 256);
  LocalTensor<half> xh = buf<half>(pipe, bh0, 1024), zh = buf<half>(pipe, bh1, 1024), eh = buf<half>(pipe, bh2, 256);
  pipe.InitBuffer(bt, 16384);
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, a, 1024); DataCopy(gr, g, 1024); DataCopy(xh, ah, 1024);
  SoftMaxTiling tiling{};
  int at = 0, ath = 0;
#define OUT(T) do { DataCopy(o[at], T, 1024 > T.GetSize() ? T.GetSize() : 1024); at += 1024; } while (0)
#define OUTH(T) do { DataCopy(oh[ath], T, T.GetSize()); ath += 1024; } while (0)
  BODY
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def run(prog, body: str, x=None, g=None, xh=None):
    x = RNG.standard_normal(1024).astype(np.float32) if x is None else x
    g = RNG.standard_normal(1024).astype(np.float32) if g is None else g
    xh = RNG.standard_normal(1024).astype(np.float16) if xh is None else xh
    prog.inputs(x, g, xh)
    ran = prog.run(FRAME.replace("BODY", body))
    assert ran.returncode == 0, ran.stderr
    return x, g, xh, prog.output(0, np.float32).reshape(16, 1024), prog.output(1, np.float16).reshape(4, 1024)


def softmax_rows(x: np.ndarray, valid: int):
    """The page's python: max and sum over the valid columns; exp(x - max) / sum over the whole row."""
    mx = x[:, :valid].max(axis=1, keepdims=True)
    total = np.exp(x[:, :valid] - mx).sum(axis=1, keepdims=True)
    return np.exp(x - mx) / total, mx, total


def blocks(v: np.ndarray, per: int = 8) -> np.ndarray:
    return np.repeat(v.reshape(-1, 1), per, axis=1).reshape(-1)


@pytest.mark.api("SoftMax")
def test_softmax_every_overload(prog) -> None:
    body = """
  SoftMaxShapeInfo rows{8, 64, 8, 50};                       // 8 rows of 64, 50 valid
  SoftMax<float>(z, s, m, x, tiling, rows); OUT(z); OUT(s); OUT(m);
  SoftMax<float>(z, s, m, x, t, tiling, rows); OUT(z);
  SoftMax<float>(z, x, tiling, rows); OUT(z);
  SoftMax<float>(z, x, t, tiling, rows); OUT(z);
  SoftMaxShapeInfo hrows(8, 64, 8, 64);                      // the pages' parenthesised form
  SoftMax<half>(zh, s, m, xh, tiling, hrows); OUTH(zh); OUT(s); OUT(m);   // half data, float statistics
  SoftMax<half>(zh, s, m, xh, t, tiling, hrows); OUTH(zh);
  LocalTensor<half> sh = bh2.Get<half>(), mh = bh2.Get<half>()[128];
  SoftMax<half>(zh, sh, mh, xh, t, tiling, hrows); OUTH(zh); OUTH(eh);    // half statistics
"""
    x, _, xh, got, goth = run(prog, body)
    want, mx, total = softmax_rows(x[:512].reshape(8, 64), 50)
    for i in (0, 3, 4, 5):
        np.testing.assert_allclose(got[i][:512].reshape(8, 64), want, rtol=1e-5, err_msg=f"output {i}")
    np.testing.assert_allclose(got[1][:64], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(got[2][:64], blocks(mx), rtol=0)
    wh, mxh, toth = softmax_rows(xh[:512].astype(np.float32).reshape(8, 64), 64)
    for i in range(3):
        np.testing.assert_allclose(goth[i][:512].astype(np.float32).reshape(8, 64), wh, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(got[6][:64], blocks(toth), rtol=1e-5)
    np.testing.assert_allclose(got[7][:64], blocks(mxh), rtol=0)
    stats = goth[3][:256].astype(np.float32)
    np.testing.assert_allclose(stats[:128], blocks(toth, 16), rtol=2e-3)        # 16 halves per 32-byte block
    np.testing.assert_allclose(stats[128:256], blocks(mxh, 16), rtol=1e-3)


@pytest.mark.api("SoftMax", "SimpleSoftMax", "LogSoftMax")
def test_softmax_on_nz_data_simple_softmax_and_log_softmax(prog) -> None:
    body = """
  SoftMaxShapeInfo nz{16, 32, 16, 32};                       // 16 x 32 floats as 4 fractal columns of 16 x 8
  SoftMax<float, false, false, true>(z, s, m, x, tiling, nz); OUT(z); OUT(s); OUT(m);
  SoftMaxShapeInfo rows{8, 64, 8, 64};
  SimpleSoftMax<float>(z, gr, gr[512], x, tiling, rows); OUT(z);            // sum and max are inputs
  SimpleSoftMax<half>(zh, gr, gr[512], xh, t, tiling, rows); OUTH(zh);
  LogSoftMaxTiling lt{};
  LogSoftMax<float>(z, s, m, x, t, lt, rows); OUT(z); OUT(s); OUT(m);
"""
    x, g, xh, got, goth = run(prog, body)
    mat = x[:512].reshape(16, 32)
    nz = np.ascontiguousarray(x[:512].reshape(4, 16, 8).transpose(1, 0, 2).reshape(16, 32))   # (r, c) of the NZ layout
    want, mx, total = softmax_rows(nz, 32)
    got_nz = got[0][:512].reshape(4, 16, 8).transpose(1, 0, 2).reshape(16, 32)
    np.testing.assert_allclose(got_nz, want, rtol=1e-5)
    np.testing.assert_allclose(got[1][:128], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(got[2][:128], blocks(mx), rtol=0)
    assert not np.allclose(softmax_rows(mat, 32)[0], want)               # the layout matters
    # SimpleSoftMax: exp(x - inMax) / inSum with each row's first element of the 8-float blocks
    rows = x[:512].reshape(8, 64)
    in_sum, in_max = g[0:64:8].reshape(8, 1), g[512:576:8].reshape(8, 1)
    np.testing.assert_allclose(got[3][:512].reshape(8, 64), np.exp(rows - in_max) / in_sum, rtol=1e-5)
    rh = xh[:512].astype(np.float32).reshape(8, 64)
    np.testing.assert_allclose(goth[0][:512].astype(np.float32).reshape(8, 64),
                               (np.exp(rh - in_max) / in_sum).astype(np.float16).astype(np.float32), rtol=2e-3,
                               atol=1e-3)
    # LogSoftMax: log10 of the softmax (the page's python and its step 8)
    want, mx, total = softmax_rows(rows, 64)
    np.testing.assert_allclose(got[4][:512].reshape(8, 64), np.log10(want), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[5][:64], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(got[6][:64], blocks(mx), rtol=0)


def flash(x, valid, in_max=None, in_sum=None, v1=False):
    """SoftmaxFlash / SoftmaxFlashV2 per their pages' python (update when in_max is given)."""
    row_max = x[:, :valid].max(axis=1, keepdims=True)
    hi = row_max if in_max is None else np.maximum(in_max, row_max)
    e = np.exp(x - hi)
    total = e[:, :valid].sum(axis=1, keepdims=True)
    exp_max = None
    if in_max is not None:
        exp_max = np.exp(in_max - hi)
        total = exp_max * in_sum + total
        if v1:
            exp_max = exp_max * in_sum / total
    return (e / total if v1 else e), hi, total, exp_max, row_max


@pytest.mark.api("SoftmaxFlash")
def test_softmax_flash_with_and_without_update(prog) -> None:
    body = """
  SoftMaxShapeInfo rows{8, 64, 8, 64};
  Duplicate(s2, 3.0f, 64); Duplicate(m2, 1.0f, 64);                       // the previous block's sum and max
  SoftmaxFlash<float>(z, s, m, x, e, s2, m2, tiling, false, rows); OUT(z); OUT(s); OUT(m);
  SoftmaxFlash<float>(z, s, m, x, e, s2, m2, t, tiling, true, rows); OUT(z); OUT(s); OUT(m); OUT(e);
  SoftmaxFlash<half>(zh, s, m, xh, eh, s2, m2, tiling, true, rows); OUTH(zh); OUT(s); OUT(m); OUTH(eh);
"""
    x, _, xh, got, goth = run(prog, body)
    rows = x[:512].reshape(8, 64)
    d, hi, total, _, _ = flash(rows, 64, v1=True)
    np.testing.assert_allclose(got[0][:512].reshape(8, 64), d, rtol=1e-5)
    np.testing.assert_allclose(got[1][:64], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(got[2][:64], blocks(hi), rtol=0)
    in_max, in_sum = np.ones((8, 1)), np.full((8, 1), 3.0)
    d, hi, total, exp_max, _ = flash(rows, 64, in_max, in_sum, v1=True)
    np.testing.assert_allclose(got[3][:512].reshape(8, 64), d, rtol=1e-5)
    np.testing.assert_allclose(got[4][:64], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(got[5][:64], blocks(hi), rtol=0)
    np.testing.assert_allclose(got[6][:64], blocks(exp_max), rtol=1e-5)
    rh = xh[:512].astype(np.float32).reshape(8, 64)
    d, hi, total, exp_max, _ = flash(rh, 64, in_max, in_sum, v1=True)
    np.testing.assert_allclose(goth[0][:512].astype(np.float32).reshape(8, 64), d, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(got[7][:64], blocks(total), rtol=1e-5)
    np.testing.assert_allclose(goth[1][:128].astype(np.float32), blocks(exp_max, 16), rtol=2e-3)


@pytest.mark.api("SoftmaxFlashV2")
def test_softmax_flash_v2_without_broadcast_and_with_the_reduce_max_output(prog) -> None:
    body = """
  SoftMaxShapeInfo rows{8, 64, 8, 64};
  static constexpr SoftmaxConfig noBrc = {true, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
  static constexpr SoftmaxConfig normal = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
  Duplicate(s, -1.0f, 256); Duplicate(m, -1.0f, 256); Duplicate(e, -1.0f, 256);
  Duplicate(s2, 2.0f, 256); Duplicate(m2, 0.5f, 256);
  for (int r = 0; r < 8; ++r) { s2.SetValue(r, 2.0f + r); m2.SetValue(r, 0.25f * r); }   // [8, 1] incoming
  SoftmaxFlashV2<float, true, false, false, false, noBrc>(z, s, m, x, e, s2, m2, tiling, rows);
  OUT(z); OUT(s); OUT(m); OUT(e);
  Duplicate(z, -1.0f, 512); Duplicate(gr, -1.0f, 256);
  SoftmaxFlashV2<float, true, false, false, false, noBrc>(z, gr, s, m, x, e, s2, m2, t, tiling, rows);
  OUT(z); OUT(gr);
  Duplicate(z, -1.0f, 512);
  SoftmaxFlashV2<float, true, false, false, false, normal>(z, gr, s, m, x, e, s2, m2, tiling, rows);   // not executed
  OUT(z);
"""
    x, _, _, got, _ = run(prog, body)
    rows = x[:512].reshape(8, 64)
    in_sum, in_max = (2.0 + np.arange(8)).reshape(8, 1), (0.25 * np.arange(8)).reshape(8, 1)
    d, hi, total, exp_max, row_max = flash(rows, 64, in_max, in_sum)
    np.testing.assert_allclose(got[0][:512].reshape(8, 64), d, rtol=1e-5)
    np.testing.assert_allclose(got[1][:8], total.ravel(), rtol=1e-5)        # [8, 1]: one element per row
    np.testing.assert_array_equal(got[1][8:16], np.full(8, -1.0))
    np.testing.assert_allclose(got[2][:8], hi.ravel(), rtol=0)
    np.testing.assert_allclose(got[3][:8], exp_max.ravel(), rtol=1e-6)
    np.testing.assert_allclose(got[4][:512].reshape(8, 64), d, rtol=1e-5)
    np.testing.assert_allclose(got[5][:8], row_max.ravel(), rtol=0)        # the first reduce-max
    np.testing.assert_array_equal(got[6][:512], np.full(512, -1.0))        # SOFTMAX_NORMAL: the call does nothing


def pasa(x, alpha, loop_cnt=1, in_mean=None, in_max=None, in_sum=None):
    """SoftmaxFlashV3 per its page: shift each column by (rowMean - localMean_j) * alpha / (1 - alpha), local
    means over the 8 blocks of every 64-element repeat; update with the running mean, max and sum."""
    m, k = x.shape
    scalar = alpha / (1 - alpha)
    group = (np.arange(k) % 64) // 8
    local = np.stack([x[:, group == j].sum(axis=1) for j in range(8)], axis=1) / (k / 8)
    row_mean = x.mean(axis=1, keepdims=True)
    xs = x - (row_mean - local[:, group]) * scalar
    max_tmp = xs.max(axis=1, keepdims=True)
    if in_mean is None:
        return np.exp(xs - max_tmp), max_tmp, np.exp(xs - max_tmp).sum(axis=1, keepdims=True), row_mean, None
    new_mean = (row_mean + in_mean * (loop_cnt - 1)) / loop_cnt
    shift_curr = (row_mean - new_mean) * scalar
    shift_prev = (in_mean - new_mean) * scalar
    new_max = np.maximum(shift_curr + max_tmp, shift_prev + in_max)
    d = np.exp(xs - (new_max - shift_curr))
    exp_max = np.exp(in_max - new_max + shift_prev)
    return d, new_max, exp_max * in_sum + d.sum(axis=1, keepdims=True), new_mean, exp_max


FLASH_V3 = HEAD + """
static void body(void*) {
  GlobalTensor<half> ah, oh;
  GlobalTensor<float> o;
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 4096);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(0, 3 * 4096 * 2), 3 * 4096);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 6 * 64 * 4), 6 * 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, be, bmean, bs, bm, bim, bis, bin, bt;
  LocalTensor<half> x = buf<half>(pipe, bx, 4096), z = buf<half>(pipe, bz, 4096), e = buf<half>(pipe, be, 128);
  LocalTensor<float> mean = buf<float>(pipe, bmean, 64), s = buf<float>(pipe, bs, 64), m = buf<float>(pipe, bm, 64);
  LocalTensor<float> im = buf<float>(pipe, bim, 64), is = buf<float>(pipe, bis, 64), in = buf<float>(pipe, bin, 64);
  pipe.InitBuffer(bt, 65536);
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, ah, 4096);
  Duplicate(im, 0.1f, 64); Duplicate(is, 5.0f, 64); Duplicate(in, 2.0f, 64);
  SoftMaxTiling tiling{};
  SoftmaxFlashV3<half, float>(z, mean, s, m, x, e, im, is, in, tiling, SoftMaxParams{8, 512, 8, 512, 1, 8, 0.9375f});
  DataCopy(oh, z, 4096); DataCopy(o, mean, 64); DataCopy(o[64], s, 64); DataCopy(o[128], m, 64);
  SoftmaxFlashV3<half, float, true>(z, mean, s, m, x, e, im, is, in, t, tiling,
                                    SoftMaxParams{8, 512, 8, 512, 3, 8, 0.9375f});
  DataCopy(oh[4096], z, 4096); DataCopy(o[192], mean, 64); DataCopy(o[256], s, 64); DataCopy(o[320], m, 64);
  DataCopy(oh[8192], e, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SoftmaxFlashV3")
def test_softmax_flash_v3_pasa(prog) -> None:
    xh = (3 * RNG.standard_normal(4096)).astype(np.float16)
    prog.inputs(xh)
    ran = prog.run(FLASH_V3)
    assert ran.returncode == 0, ran.stderr
    goth = prog.output(0, np.float16).astype(np.float64)
    got = prog.output(1, np.float32).reshape(6, 64)
    rows = xh.astype(np.float64).reshape(8, 512)
    d, mx, total, mean, _ = pasa(rows, 0.9375)
    np.testing.assert_allclose(goth[:4096], d.ravel(), rtol=3e-3, atol=1e-3)
    np.testing.assert_allclose(got[0], blocks(mean), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], blocks(total), rtol=1e-4)
    np.testing.assert_allclose(got[2], blocks(mx), rtol=1e-5)
    running = (np.full((8, 1), 0.1), np.full((8, 1), 2.0), np.full((8, 1), 5.0))      # mean, max, sum
    d, mx, total, mean, exp_max = pasa(rows, 0.9375, 3, *running)
    np.testing.assert_allclose(goth[4096:8192], d.ravel(), rtol=3e-3, atol=1e-3)
    np.testing.assert_allclose(got[3], blocks(mean), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[4], blocks(total), rtol=1e-4)
    np.testing.assert_allclose(got[5], blocks(mx), rtol=1e-5)
    np.testing.assert_allclose(goth[8192:8320], blocks(exp_max, 16).astype(np.float16), rtol=2e-3, atol=1e-7)


@pytest.mark.api("SoftmaxGrad", "SoftmaxGradFront")
def test_softmax_grad_and_grad_front(prog) -> None:
    body = """
  SoftMaxShapeInfo rows{8, 64, 8, 40};
  SoftmaxGrad<float>(z, gr, x, tiling, false, rows); OUT(z);
  SoftmaxGrad<float>(s, gr, x, t, tiling, true, rows); OUT(s);
  SoftmaxGradFront<float>(m, gr, x, tiling, rows); OUT(m);
  SoftMaxShapeInfo hrows(8, 64, 8, 64);                      // the pages' parenthesised form
  SoftmaxGrad<half>(zh, xh, xh, t, tiling, false, hrows); OUTH(zh);
  SoftmaxGradFront<half>(eh, xh, xh, t, tiling, hrows); OUTH(eh);
"""
    x, g, xh, got, goth = run(prog, body)
    y, dy = x[:512].reshape(8, 64), g[:512].reshape(8, 64)
    s = (dy[:, :40] * y[:, :40]).sum(axis=1, keepdims=True)        # the valid columns
    np.testing.assert_allclose(got[0][:512].reshape(8, 64), (dy - s) * y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[1][:64], blocks(s), rtol=1e-5)
    np.testing.assert_allclose(got[2][:64], blocks(s), rtol=1e-5)
    yh = xh[:512].astype(np.float32).reshape(8, 64)
    sh = (yh * yh).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(goth[0][:512].astype(np.float32).reshape(8, 64),
                               ((yh - sh) * yh).astype(np.float16).astype(np.float32), rtol=2e-3, atol=2e-2)
    np.testing.assert_allclose(goth[1][:128].astype(np.float32), blocks(sh, 16).astype(np.float16), rtol=2e-3)


@pytest.mark.api("AdjustSoftMaxRes")
def test_adjust_softmax_res_rows_whose_max_matches(prog) -> None:
    body = """
  for (int r = 0; r < 8; ++r) for (int j = 0; j < 8; ++j) m.SetValue(r * 8 + j, 7.0f + 8 * r);   // the page's maxima
  m.SetValue(3 * 8, -3.4028234663852886e38f);                     // row 3's max is 0xFF7FFFFF (-FLT_MAX)
  DataCopy(z, x, 512);
  bool hit = AdjustSoftMaxRes<float, float>(z, m, 0xFF7FFFFFu, 0.0f, SoftMaxShapeInfo{8, 64, 8, 64});
  bool miss = AdjustSoftMaxRes<float, float>(z, m, 0x3F800000u, 5.0f, SoftMaxShapeInfo{8, 64, 8, 64});   // 1.0: none
  OUT(z);
  for (int r = 0; r < 8; ++r) s.SetValue(r, r == 5 ? 1.0f : 0.0f);   // stepSizeMode 1: one element per row
  DataCopy(gr, x, 512);
  bool one = AdjustSoftMaxRes<float, float, false, 1>(gr, s, 0x3F800000u, -2.0f, SoftMaxShapeInfo{8, 64, 8, 64});
  OUT(gr);
  e.SetValue(0, hit ? 1.0f : 0.0f); e.SetValue(1, miss ? 1.0f : 0.0f); e.SetValue(2, one ? 1.0f : 0.0f);
  OUT(e);
"""
    x, _, _, got, _ = run(prog, body)
    want = x[:512].reshape(8, 64).copy()
    want[3] = 0
    np.testing.assert_array_equal(got[0][:512].reshape(8, 64), want)
    want = x[:512].reshape(8, 64).copy()
    want[5] = -2
    np.testing.assert_array_equal(got[1][:512].reshape(8, 64), want)
    assert list(got[2][:3]) == [1.0, 0.0, 1.0]


@pytest.mark.api("SoftmaxFlashV2")
def test_kernel_side_flash_v2_tiling_of_a_shape_info(prog) -> None:
    body = """
  SoftMaxTiling a1 = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{6, 64, 6, 64}, 4, 4, 4 * 352, true, true);
  SoftMaxTiling a2 = SoftMaxFlashV2TilingFuncImpl(6, 64, 4, 4, 352, true, true);
  const uint32_t* p1 = reinterpret_cast<const uint32_t*>(&a1);
  const uint32_t* p2 = reinterpret_cast<const uint32_t*>(&a2);
  for (int i = 0; i < 16; ++i) { s.SetValue(i, (float)p1[i]); s.SetValue(16 + i, (float)p2[i]); }
  OUT(s);
"""
    _, _, _, got, _ = run(prog, body)
    # [6, 64] float rows, (64 + 8 + 16) * 4 = 352 bytes per row with update: 4 rows per pass of 1408 bytes
    assert list(got[0][:16]) == [6, 64, 384, 6, 8, 48, 4, 64, 256, 4, 8, 32, 1, 2, 128, 16]
    assert list(got[0][16:32]) == list(got[0][:16])


VIOLATION = HEAD + """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, b1, b2, b3, bh, bt;
  LocalTensor<float> x = buf<float>(pipe, b0, 1024), z = buf<float>(pipe, b1, 1024), s = buf<float>(pipe, b2, 256),
                     m = buf<float>(pipe, b3, 256);
  LocalTensor<half> xh = buf<half>(pipe, bh, 4096);
  pipe.InitBuffer(bt, 16384);
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  Duplicate(x, 0.5f, 1024);
  SoftMaxTiling tiling{};
  CALL;
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("SoftMax", "SoftmaxFlashV2", "SoftmaxFlashV3", "SoftmaxGrad", "LogSoftMax")
@pytest.mark.parametrize("call, message", [
    ("static constexpr SoftmaxConfig cfg = {false, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};"
     "SoftMax<float, false, false, false, cfg>(z, s, m, x, tiling, SoftMaxShapeInfo{8, 64, 8, 64})",
     "isCheckTiling is false"),
    ("SoftMax<float, false, true>(z, s, m, x, tiling, SoftMaxShapeInfo{4, 64, 4, 64})", "is not a basic block"),
    ("SoftMax<float>(z, s, m, x, tiling, SoftMaxShapeInfo{8, 20, 8, 20})", "not a whole number of 32-byte blocks"),
    ("SoftMax<float, false, false, true>(z, s, m, x, tiling, SoftMaxShapeInfo{8, 32, 8, 32})", "16-row fractals"),
    ("LocalTensor<uint8_t> small = t; small.SetSize(200); SoftMax<float>(z, s, m, x, small, tiling, "
     "SoftMaxShapeInfo{8, 64, 8, 64})", "fewer than"),
    ("SoftmaxFlashV2<float>(z, s, m, x, z, s, m, z.ReinterpretCast<uint8_t>(), tiling, SoftMaxShapeInfo{8, 64, 8, 64})",
     "sharedTmpBuffer overlaps"),
    ("LocalTensor<uint8_t> small = m.ReinterpretCast<uint8_t>(); small.SetSize(512); "
     "SoftmaxGrad<float>(z, x, x, small, tiling, false, SoftMaxShapeInfo{8, 64, 8, 64})", "fewer than"),
    ("LogSoftMaxTiling lt{}; LogSoftMax<float>(z, s, m, x, t, lt, SoftMaxShapeInfo{8, 64, 8, 80})",
     "oriSrcK exceeds srcK"),
    ("SoftmaxFlashV3<half, float>(xh, s, s, m, xh, xh, s, s, m, tiling, SoftMaxParams{8, 256, 8, 256, 1, 8, 0.9f})",
     "srcK >= 512"),
    ("SoftmaxFlashV3<half, float>(xh, s, s, m, xh, xh, s, s, m, tiling, SoftMaxParams{8, 512, 8, 512, 1, 4, 0.9f})",
     "only 8 is supported"),
    ("SoftmaxFlashV3<half, float>(xh, s, s, m, xh, xh, s, s, m, tiling, SoftMaxParams{8, 512, 8, 500, 1, 8, 0.9f})",
     "does not support padded shapes"),
])
def test_softmax_constraints_are_violations(prog, call, message) -> None:
    ran = prog.run(VIOLATION.replace("CALL", call))
    assert ran.returncode != 0 and message in ran.stderr, ran.stderr


@pytest.mark.parametrize("snippet, message", [
    ("LocalTensor<int32_t> a; SoftMaxTiling t{}; SoftMax<int32_t>(a, a, a, a, t);", "SoftMax: unsupported data type"),
    ("LocalTensor<float> a; SoftMaxTiling t{};\n"
     "SoftmaxFlashV3<float, float>(a, a, a, a, a, a, a, a, a, t, SoftMaxParams{});",
     "SoftmaxFlashV3: T (source, dst, expMax) must be half"),
    ("LocalTensor<float> a; AdjustSoftMaxRes<float, float, true>(a, a, 0u, 0.0f, SoftMaxShapeInfo{});",
     "AdjustSoftMaxRes: the docs support ND data only"),
])
def test_undocumented_softmax_types_do_not_compile(tmp_path, snippet, message) -> None:
    from simkit import syntax_check

    src = '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + snippet + ' }\n'
    res = syntax_check(src, tmp_path)
    assert not res.ok and message in res.stderr, res.stderr[-2000:]
