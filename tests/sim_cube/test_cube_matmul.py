"""The cube path end to end on one AI cube core: GM -> L1 (ND2NZ), L1 -> L0A/L0B (LoadData, with and
without transpose), Mmad, bias table, Fixpipe back to GM; compared with numpy."""

from __future__ import annotations

import numpy as np
import pytest

# One tile: A [M, K] and B [K, N] in GM (row-major), C [M, N] out. L1 holds A and B in NZ with rows
# padded to 16 (K padded to the C0 of the type); L0A in zZ, L0B in nZ.
F16_BODY = r"""
constexpr uint32_t M = %(m)d, K = %(k)d, N = %(n)d;
constexpr uint32_t C0 = 16, M1 = (M + 15) / 16, K1 = (K + 15) / 16, N1 = (N + 15) / 16;
static void body(void*) {
  GlobalTensor<half> a, b, bias;
  GlobalTensor<%(out_t)s> c;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), M * K);
  b.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), K * N);
  bias.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2), N);
  c.SetGlobalBuffer((__gm__ %(out_t)s*)npukb_test::gm_output(0, M * N * sizeof(%(out_t)s)), M * N);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::C1> c1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  TBuf<TPosition::C2> bt;
  pipe.InitBuffer(a1, M1 * 16 * K1 * 16 * 2);
  pipe.InitBuffer(b1, K1 * 16 * N1 * 16 * 2);
  pipe.InitBuffer(c1, (N1 * 16 * 2 + 63) / 64 * 64);
  pipe.InitBuffer(a2, M1 * K1 * 512);
  pipe.InitBuffer(b2, K1 * N1 * 512);
  pipe.InitBuffer(co1, M1 * N1 * 256 * 4);
  pipe.InitBuffer(bt, (N1 * 16 * 2 + 63) / 64 * 128);
  LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), lc1 = c1.Get<half>();
  LocalTensor<half> la2 = a2.Get<half>(), lb2 = b2.Get<half>();
  LocalTensor<float> lc = co1.Get<float>(), lbt = bt.Get<float>();
  // GM -> L1: ND -> NZ (column blocks of 16 halves, M1 * 16 rows each)
  DataCopy(la1, a, Nd2NzParams(1, M, K, 0, K, M1 * 16, 1, 0));
  DataCopy(lb1, b, Nd2NzParams(1, K, N, 0, N, K1 * 16, 1, 0));
  // L1 -> L0A: fractal (mb, kb) of the NZ source is mb + kb * M1; zZ wants row mb contiguous
  for (uint32_t mb = 0; mb < M1; ++mb) {
    LoadData(la2[mb * K1 * 256], la1, LoadData2DParams(mb, K1, M1, 0, 0, false, 0));
  }
  // L1 -> L0B with a transpose of each fractal: NZ fractal (nb, kb) is nb * K1 + kb
  for (uint32_t kb = 0; kb < K1; ++kb) {
    LoadData(lb2[kb * N1 * 256], lb1, LoadData2DParams(kb, N1, K1, 0, 0, true, 0));
  }
  MmadParams mp;
  mp.m = M; mp.n = N; mp.k = K;
  if (%(bias)d) {
    DataCopy(lc1, bias, Nd2NzParams(1, 1, N, 0, N, 1, 0, 0));
    DataCopy(lbt, lc1, DataCopyParams(1, (N1 * 16 * 2 + 63) / 64, 0, 0));
    Mmad(lc, la2, lb2, lbt, mp);
  } else {
    Mmad(lc, la2, lb2, mp);
  }
  FixpipeParamsV220 fp(N, M, M1 * 16, N, %(relu)d);
  fp.quantPre = %(quant)s;
  Fixpipe<%(out_t)s, float, CFG_ROW_MAJOR>(c, lc, fp);
}
void run_test() {
  npukb_test::run_blocks_on(npukb::CORE_AIC, 1, body, nullptr);
  npukb_test::print_cycles(npukb_test::last_figures().finish_cycles);
}
"""


def _inputs(m: int, k: int, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float16)
    return a, b, bias


@pytest.mark.parametrize(("m", "k", "n"), [(32, 32, 32), (40, 50, 33), (16, 160, 48), (1, 16, 1)])
@pytest.mark.api("DataCopy（GMToL1随路转换-ND2NZ搬运）", "LoadData（2D矩阵搬运）", "Mmad", "Fixpipe（L0C到GM数据搬运）")
def test_half_matmul_matches_numpy(prog, m, k, n):
    a, b, bias = _inputs(m, k, n)
    prog.inputs(a, b, bias)
    ran = prog.run(F16_BODY % dict(m=m, k=k, n=n, out_t="float", bias=0, relu=0, quant="QuantMode_t::NoQuant"))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(m, n)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    cycles = float(ran.stdout.split("cycles ")[1].split()[0])
    assert cycles > 0


def test_bias_relu_and_half_output(prog):
    m, k, n = 48, 64, 40
    a, b, bias = _inputs(m, k, n, seed=3)
    prog.inputs(a, b, bias)
    ran = prog.run(F16_BODY % dict(m=m, k=k, n=n, out_t="half", bias=1, relu=1, quant="QuantMode_t::F322F16"))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float16).reshape(m, n)
    ref = np.maximum(a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32), 0).astype(np.float16)
    np.testing.assert_array_equal(got, ref)


INT8_BODY = r"""
constexpr uint32_t M = %(m)d, K = %(k)d, N = %(n)d;
constexpr uint32_t M1 = (M + 15) / 16, K32 = (K + 31) / 32, N32 = (N + 31) / 32, N1 = N32 * 2;
static void body(void*) {
  GlobalTensor<int8_t> a, b;
  GlobalTensor<int32_t> c;
  a.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_input(0), M * K);
  b.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_input(1), K * N);
  c.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, M * N * 4), M * N);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a1, M1 * 16 * K32 * 32);
  pipe.InitBuffer(b1, K32 * 32 * N32 * 32);
  pipe.InitBuffer(a2, M1 * K32 * 512);
  pipe.InitBuffer(b2, K32 * N1 * 512);
  pipe.InitBuffer(co1, M1 * N1 * 256 * 4);
  LocalTensor<int8_t> la1 = a1.Get<int8_t>(), lb1 = b1.Get<int8_t>(), la2 = a2.Get<int8_t>(), lb2 = b2.Get<int8_t>();
  LocalTensor<int32_t> lc = co1.Get<int32_t>();
  DataCopy(la1, a, Nd2NzParams(1, M, K, 0, K, M1 * 16, 1, 0));
  DataCopy(lb1, b, Nd2NzParams(1, K, N, 0, N, K32 * 32, 1, 0));
  for (uint32_t mb = 0; mb < M1; ++mb) {
    LoadData(la2[mb * K32 * 512], la1, LoadData2DParams(mb, K32, M1, 0, 0, false, 0));
  }
  // B: two 16 x 32 fractals (k rows) of one 32-column block form a square; transposed they are the
  // L0B fractals (kb, 2j) and (kb, 2j + 1).
  for (uint32_t kb = 0; kb < K32; ++kb) {
    LoadDataWithTranspose(lb2[kb * N1 * 512], lb1, LoadData2dTransposeParams(kb, N32, K32, 1, 0));
  }
  MmadParams mp;
  mp.m = M; mp.n = N1 * 16; mp.k = K;   // whole 32-column blocks were loaded: their L0B rows hold N1 fractals
  Mmad(lc, la2, lb2, mp);
  Fixpipe(c, lc, FixpipeParamsV220(N, M, M1 * 16, N, false));
}
void run_test() { npukb_test::run_blocks_on(npukb::CORE_AIC, 1, body, nullptr); }
"""


@pytest.mark.parametrize(("m", "k", "n"), [(32, 64, 64), (20, 70, 40)])
def test_int8_matmul_is_exact(prog, m, k, n):
    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    prog.inputs(a, b)
    ran = prog.run(INT8_BODY % dict(m=m, k=k, n=n))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.int32).reshape(m, n)
    np.testing.assert_array_equal(got, a.astype(np.int32) @ b.astype(np.int32))
