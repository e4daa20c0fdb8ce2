"""CreateVecIndex (count form): dst[i] = firstValue + i for half, float, int16_t and int32_t."""

from __future__ import annotations

import numpy as np
import pytest

INDEX = """
static void body(void*) {
  const int P = 1024, N = 1000;  // 1000 indices written into buffers of 1024 pre-filled with 7
  GlobalTensor<float> of; GlobalTensor<half> oh; GlobalTensor<int16_t> os; GlobalTensor<int32_t> oi;
  of.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 2 * P * 4), 2 * P);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, P * 2), P);
  os.SetGlobalBuffer((__gm__ int16_t*)npukb_test::gm_output(2, P * 2), P);
  oi.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(3, P * 4), P);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bf, bh, bs, bi;
  pipe.InitBuffer(bf, P * 4); pipe.InitBuffer(bh, P * 2); pipe.InitBuffer(bs, P * 2); pipe.InitBuffer(bi, P * 4);
  LocalTensor<float> f = bf.Get<float>();
  LocalTensor<half> h = bh.Get<half>();
  LocalTensor<int16_t> s = bs.Get<int16_t>();
  LocalTensor<int32_t> i = bi.Get<int32_t>();
  Duplicate(f, 7.0f, P); CreateVecIndex(f, 0.0f, N); DataCopy(of, f, P);
  Duplicate(f, 7.0f, P); CreateVecIndex(f, -2.5f, N); DataCopy(of[P], f, P);
  Duplicate(h, (half)7, P); CreateVecIndex(h, (half)-100, N); DataCopy(oh, h, P);
  Duplicate(s, (int16_t)7, P); CreateVecIndex(s, (int16_t)-300, N); DataCopy(os, s, P);
  Duplicate(i, (int32_t)7, P); CreateVecIndex(i, (int32_t)100000, N); DataCopy(oi, i, P);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("CreateVecIndex")
def test_create_vec_index_every_type(prog) -> None:
    ran = prog.run(INDEX)
    assert ran.returncode == 0, ran.stderr
    n, p = 1000, 1024
    ramp = np.arange(n)
    f = prog.output(0, np.float32).reshape(2, p)
    np.testing.assert_array_equal(f[0, :n], ramp.astype(np.float32))
    np.testing.assert_array_equal(f[1, :n], (ramp - 2.5).astype(np.float32))
    h = prog.output(1, np.float16)
    np.testing.assert_array_equal(h[:n], (ramp - 100).astype(np.float16))
    np.testing.assert_array_equal(prog.output(2, np.int16)[:n], (ramp - 300).astype(np.int16))
    np.testing.assert_array_equal(prog.output(3, np.int32)[:n], (ramp + 100000).astype(np.int32))
    # elements beyond calCount are untouched
    for arr in (f[0], f[1], h, prog.output(2, np.int16), prog.output(3, np.int32)):
        assert np.all(arr[n:] == 7)


OVERRUN = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  LocalTensor<float> t = b.Get<float>();
  CreateVecIndex(t, 0.0f, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_create_vec_index_past_the_buffer_is_a_warning(prog) -> None:
    """Past its LocalTensor but inside UB: the device writes on (a warning names the line)."""
    ran = prog.run(OVERRUN)
    assert ran.returncode == 0, (ran.returncode, ran.stderr)
    line = ran.stderr.strip().splitlines()[-1]
    assert line.startswith("WARNING: CreateVecIndex: UB overflow"), line
