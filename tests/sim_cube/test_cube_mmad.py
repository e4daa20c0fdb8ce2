"""Mmad and its configuration registers, MmadWithSparse with LoadDataWithSparse, and the L0C copy-out
(DataCopy with DataCopyCO12DstParams and the fixpipe registers, Fixpipe to L1), each against numpy from
the API pages. Operands are placed straight into L0A/L0B/L0C (test plumbing) so that each case checks one
API; the documented limits are violations and the documented dtype tables compile-time errors."""

from __future__ import annotations

import numpy as np
import pytest
from cube_program import CubeProgram, densify, from_nz_c, output, pack_index, syntax_errors, to_nz_b, to_zz

BODY = r"""
static MmadParams mp3(int m, int n, int k) { MmadParams p; p.m = m; p.n = n; p.k = k; return p; }
static void body(void*) {
  Bufs b(false);
  switch (P[0]) {
    case 1: {  // Mmad half -> float: A (in1) in L0A, B (in2) in L0B; m, n, k = P[2..4]
      load(b.L0A<half>(), 1, 32768);
      load(b.L0B<half>(), 2, 32768);
      Mmad(b.L0C<float>(), b.L0A<half>(), b.L0B<half>(), mp3(P[2], P[3], P[4]));
      dump(0, b.L0C<float>(), P[5]);
      break;
    }
    case 2: {  // float inputs, kDirectionAlign = P[5]; HF32 mode P[6] (0 off, 1 even, 2 to zero; 3 even,
               // 4 to zero through the bool forms of the names before CANN 8.5)
      load(b.L0A<float>(), 1, 16384);
      load(b.L0B<float>(), 2, 16384);
      if (P[6] == 1 || P[6] == 2) {
        SetHF32Mode(HF32Mode::ENABLE);
        SetHF32TransMode(P[6] == 2 ? HF32TransMode::NEAREST_ZERO : HF32TransMode::NEAREST_EVEN);
      } else if (P[6] >= 3) {
        SetHF32Mode(true);
        SetHF32TransMode(P[6] == 4);
      }
      MmadParams p = mp3(P[2], P[3], P[4]);
      p.kDirectionAlign = P[5] != 0;
      Mmad(b.L0C<float>(), b.L0A<float>(), b.L0B<float>(), p);
      SetHF32Mode(HF32Mode::DISABLE);
      dump(0, b.L0C<float>(), P[7]);
      break;
    }
    case 3: {  // int8 with an int32 bias (in3) in BT, then accumulate a second product (P[5])
      load(b.L0A<int8_t>(), 1, 65536);
      load(b.L0B<int8_t>(), 2, 65536);
      load(b.BT<int32_t>(), 3, 256);
      Mmad(b.L0C<int32_t>(), b.L0A<int8_t>(), b.L0B<int8_t>(), b.BT<int32_t>(), mp3(P[2], P[3], P[4]));
      if (P[5]) {
        MmadParams p = mp3(P[2], P[3], P[4]);
        p.cmatrixInitVal = false;
        Mmad(b.L0C<int32_t>(), b.L0A<int8_t>(), b.L0B<int8_t>(), p);
      }
      dump(0, b.L0C<int32_t>(), P[6]);
      break;
    }
    case 4: {  // int4b_t (packed bytes) -> int32
      load(b.L0A<int4b_t>(), 1, 65536);
      load(b.L0B<int4b_t>(), 2, 65536);
      Mmad(b.L0C<int32_t>(), b.L0A<int4b_t>(), b.L0B<int4b_t>(), mp3(P[2], P[3], P[4]));
      dump(0, b.L0C<int32_t>(), P[5]);
      break;
    }
    case 5: {  // half with a float bias
      load(b.L0A<half>(), 1, 32768);
      load(b.L0B<half>(), 2, 32768);
      load(b.BT<float>(), 3, 256);
      Mmad(b.L0C<float>(), b.L0A<half>(), b.L0B<half>(), b.BT<float>(), mp3(P[2], P[3], P[4]));
      dump(0, b.L0C<float>(), P[5]);
      break;
    }
    case 6: {  // violations: dst offset P[2] floats, unitFlag P[3], cmatrixSource without a bias (P[4])
      MmadParams p = mp3(16, 16, 16);
      p.unitFlag = P[3];
      if (P[4]) { p.cmatrixInitVal = false; p.cmatrixSource = true; }
      Mmad(b.L0C<float>()[P[2]], b.L0A<half>(), b.L0B<half>(), p);
      break;
    }
    case 7: {  // SetMMColumnMajor / SetMMRowMajor around the same Mmad
      load(b.L0A<half>(), 1, 32768);
      load(b.L0B<half>(), 2, 32768);
      if (P[5] == 2) SetMMLayoutTransform(true); else if (P[5] == 3) SetMMLayoutTransform(false);
      else if (P[5]) SetMMRowMajor(); else SetMMColumnMajor();
      Mmad(b.L0C<float>(), b.L0A<half>(), b.L0B<half>(), mp3(P[2], P[3], P[4]));
      dump(0, b.L0C<float>(), P[6]);
      break;
    }
    case 10: {  // LoadDataWithSparse (B dense in1, index in2, in L1) + MmadWithSparse with A (in3) in L0A
      LocalTensor<int8_t> bl1 = b.L1<int8_t>();
      LocalTensor<uint8_t> il1 = b.L1<uint8_t>()[256 * 1024];
      load(bl1, 1, 65536);
      load(il1, 2, 16384);
      load(b.L0A<int8_t>(), 3, 65536);
      LoadDataWithSparse(b.L0B<int8_t>(), bl1, il1, LoadData2dParams(P[5], P[6], 0, 0, 0, false, 0));
      if (P[7] == 0) MmadWithSparse(b.L0C<int32_t>(), b.L0A<int8_t>(), b.L0B<int8_t>(), mp3(P[2], P[3], P[4]));
      else MmadWithSparse(b.L0C<int32_t>(), b.L0A<int8_t>(), b.L0B<int8_t>()[P[7]], mp3(P[2], P[3], P[4]));
      dump(0, b.L0C<int32_t>(), P[8]);
      break;
    }
    case 20: {  // DataCopy CO1 -> GM, float C (in1, NZ in L0C), NZ2ND via SetFixpipeNz2ndFlag; relu P[5]
      load(b.L0C<float>(), 1, 32768);
      if (P[6]) SetFixpipeNz2ndFlag(1, 0, 0);
      DataCopyCO12DstParams p(P[2], P[3], P[2], (P[3] + 15) / 16 * 16, QuantMode_t::NoQuant, P[5], false, true);
      DataCopy(gout<float>(0, P[2] * P[3]), b.L0C<float>(), p);
      break;
    }
    case 21: {  // int32 C -> half, DEQF16 with SetFixpipePreQuantFlag(P[5..6] as the word), ND
      load(b.L0C<int32_t>(), 1, 32768);
      SetFixpipeNz2ndFlag(1, 0, 0);
      uint64_t word = (uint32_t)P[5];
      SetFixpipePreQuantFlag(word);
      DataCopyCO12DstParams p(P[2], P[3], P[2], (P[3] + 15) / 16 * 16, QuantMode_t::DEQF16, 0, false, true);
      DataCopy(gout<half>(0, P[2] * P[3]), b.L0C<int32_t>(), p);
      break;
    }
    case 22: {  // int32 C -> half, VDEQF16: per-column scales (in2) L1 -> FB, SetFixPipeConfig (P[5]: skip it)
      load(b.L0C<int32_t>(), 1, 32768);
      LocalTensor<uint64_t> q = b.L1<uint64_t>();
      load(q, 2, 256);
      DataCopy(b.FB<uint64_t>(), q, DataCopyParams(1, (P[2] * 8 + 127) / 128, 0, 0));
      if (!P[5]) SetFixPipeConfig<uint64_t>(b.FB<uint64_t>());
      SetFixpipeNz2ndFlag(1, 0, 0);
      DataCopyCO12DstParams p(P[2], P[3], P[2], (P[3] + 15) / 16 * 16, QuantMode_t::VDEQF16, 0, false, true);
      DataCopy(gout<half>(0, P[2] * P[3]), b.L0C<int32_t>(), p);
      break;
    }
    case 23: {  // CO1 -> GM NZ (float -> half F322F16): dstStride P[5] blocks between Z columns
      load(b.L0C<float>(), 1, 32768);
      DataCopyCO12DstParams p(P[2], P[3], P[5], (P[3] + 15) / 16 * 16, QuantMode_t::F322F16, 0, false, false);
      DataCopy(gout<half>(0, P[6]), b.L0C<float>(), p);
      break;
    }
    case 24: {  // SetFixpipeNz2ndFlag with ndNum 2 (P[5]: srcNdStride, P[6]: dstNdStride)
      load(b.L0C<float>(), 1, 32768);
      SetFixpipeNz2ndFlag(2, P[5], P[6]);
      DataCopyCO12DstParams p(P[2], P[3], P[2], (P[3] + 15) / 16 * 16, QuantMode_t::NoQuant, 0, false, true);
      DataCopy(gout<float>(0, P[7]), b.L0C<float>(), p);
      break;
    }
    case 25: {  // CO1 -> L1 (DataCopy): float -> half F322F16 (P[5] = 0) or NoQuant (P[5] = 1)
      load(b.L0C<float>(), 1, 32768);
      QuantMode_t q = P[5] ? QuantMode_t::NoQuant : QuantMode_t::F322F16;
      DataCopyCO12DstParams p(P[2], P[3], P[4], (P[3] + 15) / 16 * 16, q, 0, false, false);
      DataCopy(b.L1<half>(), b.L0C<float>(), p);
      dump(0, b.L1<half>(), 8192);
      break;
    }
    case 30: {  // CO1 -> GM NZ, float out with channelSplit (P[5]) -> 16 x 8 Z blocks, dstStride P[4]
      load(b.L0C<float>(), 1, 32768);
      DataCopyCO12DstParams p(P[2], P[3], P[4], (P[3] + 15) / 16 * 16, QuantMode_t::NoQuant, 0, P[5] != 0, false);
      DataCopy(gout<float>(0, P[6]), b.L0C<float>(), p);
      break;
    }
    case 26: {  // Fixpipe CO1 -> L1: float -> half (F322F16), always NZ, dstStride P[4] blocks
      load(b.L0C<float>(), 1, 32768);
      FixpipeParamsV220 fp(P[2], P[3], (P[3] + 15) / 16 * 16, P[4], false);
      fp.quantPre = QuantMode_t::F322F16;
      Fixpipe(b.L1<half>(), b.L0C<float>(), fp);
      dump(0, b.L1<half>(), 8192);
      break;
    }
    case 27: {  // Fixpipe CO1 -> L1: int32 -> int8 with per-column scales (VREQ8, cbufWorkspace in2 in L1)
      load(b.L0C<int32_t>(), 1, 32768);
      LocalTensor<uint64_t> q = b.L1<uint64_t>()[32768];
      load(q, 2, 256);
      FixpipeParamsV220 fp(P[2], P[3], (P[3] + 15) / 16 * 16, P[4], false);
      fp.quantPre = QuantMode_t::VREQ8;
      Fixpipe(b.L1<int8_t>(), b.L0C<int32_t>(), q, fp);
      dump(0, b.L1<int8_t>(), 8192);
      break;
    }
    case 28: {  // Fixpipe CO1 -> L1 with NoQuant (rejected: this path always converts)
      FixpipeParamsV220 fp(16, 16, 16, 1, false);
      Fixpipe(b.L1<half>(), b.L0C<float>(), fp);
      break;
    }
    case 29: {  // Fixpipe with the Ascend 950 parameter block
      FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> fp;
      fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16;
      Fixpipe(gout<float>(0, 256), b.L0C<float>(), fp);
      break;
    }
  }
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("cube_mmad"), sim_cache)


RNG = np.random.default_rng(5)


def half_mat(r, c):
    return RNG.uniform(-1, 1, (r, c)).astype(np.float16)


def c_size(m, n):
    return -(-m // 16) * -(-n // 16) * 256


@pytest.mark.api("Mmad")
def test_mmad_gemv_reads_a_as_contiguous_k(prog):
    m, k, n = 1, 64, 32
    a = half_mat(1, k)
    b = half_mat(k, n)
    la = np.zeros(4 * 256, np.float16)
    la[:k] = a[0]                             # GEMV: A is k contiguous halves, not a zZ fractal row
    d = prog.ok(1, la, to_nz_b(b, 16), extra=(m, n, k, c_size(m, n)))
    got = from_nz_c(output(d, 0, np.float32), 16, n)
    np.testing.assert_allclose(got[0], (a.astype(np.float32) @ b.astype(np.float32))[0], rtol=1e-5, atol=1e-5)
    # m = 2 is not GEMV: the same L0A bytes are read as zZ fractals
    a2 = half_mat(2, k)
    d = prog.ok(1, to_zz(a2, 16, 16), to_nz_b(b, 16), extra=(2, n, k, c_size(2, n)))
    got = from_nz_c(output(d, 0, np.float32), 2, n)
    np.testing.assert_allclose(got, a2.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-5)


@pytest.mark.api("Mmad")
def test_mmad_float_kdirectionalign(prog):
    m, k, n = 32, 36, 32
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float32)
    b = RNG.uniform(-1, 1, (k, n)).astype(np.float32)
    want = a @ b
    # kDirectionAlign: K laid out to ceil(36 / 16) * 16 = 48 (six 16 x 8 fractals per row of A)
    a48 = np.zeros((m, 48), np.float32)
    a48[:, :k] = a
    b48 = np.zeros((48, n), np.float32)
    b48[:k] = b
    args = (to_zz(a48, 16, 8), to_nz_b(b48, 8))
    got = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 1, 0, c_size(m, n))), 0, np.float32), m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # without it K is laid out to 40 (five fractals); reading the 48 layout that way mixes the rows
    got = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 0, c_size(m, n))), 0, np.float32), m, n)
    assert not np.allclose(got, want, rtol=1e-3, atol=1e-3)
    a40 = np.zeros((m, 40), np.float32)
    a40[:, :k] = a
    b40 = np.zeros((40, n), np.float32)
    b40[:k] = b
    got = from_nz_c(output(prog.ok(2, to_zz(a40, 16, 8), to_nz_b(b40, 8), extra=(m, n, k, 0, 0, c_size(m, n))), 0,
                           np.float32),
                    m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Mmad")
def test_mmad_int8_bias_and_accumulate(prog):
    m, k, n = 20, 64, 32
    a = RNG.integers(-128, 128, (m, k), dtype=np.int8)
    b = RNG.integers(-128, 128, (k, n), dtype=np.int8)
    bias = RNG.integers(-1000, 1000, 256, dtype=np.int32)
    prod = a.astype(np.int32) @ b.astype(np.int32)
    d = prog.ok(3, to_zz(a, 16, 32), to_nz_b(b, 32), bias, extra=(m, n, k, 0, c_size(m, n)))
    np.testing.assert_array_equal(from_nz_c(output(d, 0, np.int32), m, n), prod + bias[:n])
    d = prog.ok(3, to_zz(a, 16, 32), to_nz_b(b, 32), bias, extra=(m, n, k, 1, c_size(m, n)))
    np.testing.assert_array_equal(from_nz_c(output(d, 0, np.int32), m, n), 2 * prod + bias[:n])


def pack_int4(v: np.ndarray) -> np.ndarray:
    u = (v.astype(np.int16) & 0xF).astype(np.uint8).reshape(-1)
    return (u[0::2] | (u[1::2] << 4)).astype(np.uint8)


@pytest.mark.api("Mmad")
def test_mmad_int4(prog):
    m, k, n = 16, 128, 16
    a = RNG.integers(-8, 8, (m, k), dtype=np.int8)
    b = RNG.integers(-8, 8, (k, n), dtype=np.int8)
    d = prog.ok(4, pack_int4(to_zz(a, 16, 64)), pack_int4(to_nz_b(b, 64)), extra=(m, n, k, 256))
    np.testing.assert_array_equal(from_nz_c(output(d, 0, np.int32), m, n), a.astype(np.int32) @ b.astype(np.int32))


@pytest.mark.api("Mmad")
def test_mmad_half_with_float_bias(prog):
    m, k, n = 17, 40, 24
    a, b = half_mat(m, k), half_mat(k, n)
    bias = RNG.uniform(-1, 1, 256).astype(np.float32)
    d = prog.ok(5, to_zz(a, 16, 16), to_nz_b(b, 16), bias, extra=(m, n, k, c_size(m, n)))
    want = a.astype(np.float32) @ b.astype(np.float32) + bias[:n]
    np.testing.assert_allclose(from_nz_c(output(d, 0, np.float32), m, n), want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Mmad")
def test_mmad_limits(prog):
    assert "1024-byte aligned" in prog.violation(6, extra=(64, 0, 0))     # 256 bytes into L0C
    prog.ok(6, extra=(256, 0, 0))                                          # 1024 bytes: fine
    assert "unitFlag" in prog.violation(6, extra=(0, 1, 0))
    assert "cmatrixSource" in prog.violation(6, extra=(0, 0, 1))


def hf32(x: np.ndarray, ties_to_even: bool) -> np.ndarray:
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    low = u & 0xFFF
    base = u & ~np.uint64(0xFFF)
    up = (low > 0x800) | ((low == 0x800) & bool(ties_to_even) & ((base & 0x1000) != 0))
    return (base + up.astype(np.uint64) * np.uint64(0x1000)).astype(np.uint32).view(np.float32)


@pytest.mark.api("SetHF32Mode", "SetHF32TransMode")
def test_hf32_rounds_float_inputs(prog):
    m, k, n = 16, 16, 16
    # values on the rounding ties of HF32 (11 mantissa bits): low 12 bits exactly 0x800, both parities
    base = np.array([1.0, 1.5, 3.25, -2.0], np.float32).view(np.uint32)
    ties = np.concatenate([base | 0x800, (base | 0x1000) | 0x800]).view(np.float32)
    a = RNG.choice(ties, (m, k)).astype(np.float32)
    b = RNG.choice(ties, (k, n)).astype(np.float32)
    args = (to_zz(a, 16, 8), to_nz_b(b, 8))
    full = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 0, 256)), 0, np.float32), m, n)
    even = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 1, 256)), 0, np.float32), m, n)
    zero = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 2, 256)), 0, np.float32), m, n)
    # float32 accumulation of 16 products of magnitude up to ~50: absolute error up to ~1e-5 where sums
    # cancel; HF32 rounding moves results by ~1e-2, far beyond that
    np.testing.assert_allclose(full, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(even, hf32(a, True).astype(np.float64) @ hf32(b, True), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(zero, hf32(a, False).astype(np.float64) @ hf32(b, False), rtol=1e-5, atol=1e-4)
    assert not np.allclose(even, zero, rtol=1e-5) and not np.allclose(even, full, rtol=1e-5)
    # the bool forms of the names before CANN 8.5: SetHF32Mode(true), SetHF32TransMode(false / true)
    old_even = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 3, 256)), 0, np.float32), m, n)
    old_zero = from_nz_c(output(prog.ok(2, *args, extra=(m, n, k, 0, 4, 256)), 0, np.float32), m, n)
    np.testing.assert_array_equal(old_even, even)
    np.testing.assert_array_equal(old_zero, zero)


@pytest.mark.api("SetMMColumnMajor/SetMMRowMajor")
def test_mm_major_order_keeps_the_values(prog):
    m, k, n = 32, 32, 48
    a, b = half_mat(m, k), half_mat(k, n)
    want = a.astype(np.float32) @ b.astype(np.float32)
    for row_major in (0, 1, 2, 3):  # 2, 3: SetMMLayoutTransform(true / false), the name before CANN 8.5
        d = prog.ok(7, to_zz(a, 16, 16), to_nz_b(b, 16), extra=(m, n, k, row_major, c_size(m, n)))
        np.testing.assert_allclose(from_nz_c(output(d, 0, np.float32), m, n), want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("LoadDataWithSparse", "MmadWithSparse")
def test_sparse_mmad_matches_dense_product(prog):
    m, k, n = 16, 128, 32
    b = np.zeros((k, n), np.int8)
    for j in range(n):
        for g in range(k // 4):
            cnt = RNG.integers(0, 3)
            pos = RNG.choice(4, cnt, replace=False)
            b[4 * g + pos, j] = RNG.integers(1, 100, cnt) * RNG.choice([-1, 1], cnt)
    a = RNG.integers(-128, 128, (m, k), dtype=np.int8)
    dense, idx = densify(b)
    bl1 = to_nz_b(dense, 32)
    il1 = pack_index(to_nz_b(idx, 32))
    fracs = bl1.size // 512
    d = prog.ok(10, bl1, il1, to_zz(a, 16, 32), extra=(m, n, k, 0, fracs, 0, c_size(m, n)))
    np.testing.assert_array_equal(from_nz_c(output(d, 0, np.int32), m, n), a.astype(np.int32) @ b.astype(np.int32))
    # a B fractal whose index was never loaded
    assert "LoadDataWithSparse" in prog.violation(10, bl1, il1, to_zz(a, 16, 32),
                                                  extra=(m, n, k, 0, fracs, 4096, c_size(m, n)))


def nz_c(c: np.ndarray) -> np.ndarray:
    """m x n (m, n multiples of 16) -> the L0C NZ layout."""
    m, n = c.shape
    return c.reshape(m, n // 16, 16).transpose(1, 0, 2).reshape(-1)


@pytest.mark.api("DataCopy（L0C到GM数据搬运）", "SetFixpipeNz2ndFlag")
def test_copy_out_nz2nd_and_relu(prog):
    m, n = 32, 48
    c = RNG.uniform(-2, 2, (m, n)).astype(np.float32)
    got = output(prog.ok(20, nz_c(c), extra=(n, m, 0, 0, 1)), 0, np.float32).reshape(m, n)
    np.testing.assert_array_equal(got, c)
    got = output(prog.ok(20, nz_c(c), extra=(n, m, 0, 1, 1)), 0, np.float32).reshape(m, n)
    np.testing.assert_array_equal(got, np.maximum(c, 0))
    assert "SetFixpipeNz2ndFlag" in prog.violation(20, nz_c(c), extra=(n, m, 0, 0, 0))


def scale_word(s: float) -> int:
    return int(np.array([s], np.float32).view(np.uint32)[0])


def hw_scale(s) -> np.ndarray:
    """The hardware's 1-8-10 float: the low 13 mantissa bits of the scale are dropped."""
    return (np.asarray(s, np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32)


@pytest.mark.api("DataCopy（L0C到GM数据搬运）", "SetFixpipePreQuantFlag")
def test_copy_out_deq_scalar_from_register(prog):
    m, n = 16, 32
    c = RNG.integers(-5000, 5000, (m, n), dtype=np.int32)
    s = 0.0123
    got = output(prog.ok(21, nz_c(c), extra=(n, m, 0, scale_word(s))), 0, np.float16).reshape(m, n)
    np.testing.assert_array_equal(got, (c.astype(np.float32) * hw_scale(s)).astype(np.float16))


@pytest.mark.api("DataCopy（L0C到GM数据搬运）", "SetFixPipeConfig")
def test_copy_out_per_channel_scales_from_fixpipe_buffer(prog):
    m, n = 16, 32
    c = RNG.integers(-5000, 5000, (m, n), dtype=np.int32)
    scales = RNG.uniform(0.001, 0.01, 256).astype(np.float32)
    words = scales.view(np.uint32).astype(np.uint64)
    got = output(prog.ok(22, nz_c(c), words, extra=(n, m, 0, 0)), 0, np.float16).reshape(m, n)
    np.testing.assert_array_equal(got, (c.astype(np.float32) * hw_scale(scales[:n])).astype(np.float16))
    assert "SetFixPipeConfig" in prog.violation(22, nz_c(c), words, extra=(n, m, 0, 1))


@pytest.mark.api("DataCopy（L0C到GM数据搬运）")
def test_copy_out_nz_keeps_fractals(prog):
    m, n = 32, 32
    c = RNG.uniform(-2, 2, (m, n)).astype(np.float32)
    # NZ out, F322F16: Z columns (16 wide, m rows of 32 bytes) 3 DataBlocks... here 40 blocks apart
    total = 40 * 16 + m * 16
    got = output(prog.ok(23, nz_c(c), extra=(n, m, 0, 40, total)), 0, np.float16)
    for nb in range(n // 16):
        col = got[nb * 40 * 16: nb * 40 * 16 + m * 16].reshape(m, 16)
        np.testing.assert_array_equal(col, c[:, nb * 16: nb * 16 + 16].astype(np.float16))
    assert "multiple of 16" in prog.violation(23, nz_c(c), extra=(24, m, 0, 40, total))


@pytest.mark.api("SetFixpipeNz2ndFlag")
def test_nz2nd_register_two_matrices(prog):
    m, n = 16, 16
    two = RNG.uniform(-2, 2, (2, m, n)).astype(np.float32)
    l0c = np.concatenate([nz_c(two[0]), nz_c(two[1])])     # 1024 bytes apart: srcNdStride 1
    got = output(prog.ok(24, l0c, extra=(n, m, 0, 1, 300, 300 + m * n)), 0, np.float32)
    np.testing.assert_array_equal(got[: m * n].reshape(m, n), two[0])
    np.testing.assert_array_equal(got[300: 300 + m * n].reshape(m, n), two[1])
    assert "[1, 512]" in prog.violation(24, l0c, extra=(n, m, 0, 0, 300, 600))


@pytest.mark.api("DataCopy（L0C到L1数据搬运）")
def test_copy_out_to_l1_converts_into_nz(prog):
    m, n = 32, 32
    c = RNG.uniform(-2, 2, (m, n)).astype(np.float32)
    # dstStride = m DataBlocks: the Z columns (m rows of 16 halves) follow each other
    got = output(prog.ok(25, nz_c(c), extra=(n, m, m, 0)), 0, np.float16)
    np.testing.assert_array_equal(got[: m * n], nz_c(c).astype(np.float16))
    assert "NoQuant" in prog.violation(25, nz_c(c), extra=(n, m, m, 1))


@pytest.mark.api("Fixpipe（L0C到L1数据搬运）")
def test_fixpipe_to_l1_is_nz_and_converts(prog):
    m, n = 32, 48
    c = RNG.uniform(-2, 2, (m, n)).astype(np.float32)
    got = output(prog.ok(26, nz_c(c), extra=(n, m, m + 4)), 0, np.float16)   # Z columns m + 4 blocks apart
    for nb in range(n // 16):
        col = got[nb * (m + 4) * 16: nb * (m + 4) * 16 + m * 16].reshape(m, 16)
        np.testing.assert_array_equal(col, c[:, nb * 16: nb * 16 + 16].astype(np.float16))
    assert "NoQuant" in prog.violation(28)


@pytest.mark.api("Fixpipe（L0C到L1数据搬运）")
def test_fixpipe_to_l1_per_channel_requant_merges_int8_channels(prog):
    m, n = 16, 48
    c = RNG.integers(-20000, 20000, (m, n), dtype=np.int32)
    scales = RNG.uniform(0.001, 0.02, 256).astype(np.float32)
    got = output(prog.ok(27, nz_c(c), scales.view(np.uint32).astype(np.uint64), extra=(n, m, m)), 0, np.int8)
    want = np.clip(np.rint(c.astype(np.float32) * hw_scale(scales[:n])), -128, 127).astype(np.int8)
    # int8 channel merge: columns 0..31 form one 16 x 32 Z block, the odd last 16 columns stay 16 wide
    np.testing.assert_array_equal(got[: m * 32].reshape(m, 32), want[:, :32])
    np.testing.assert_array_equal(got[m * 32: m * 32 + m * 16].reshape(m, 16), want[:, 32:])


@pytest.mark.api("DataCopy（L0C到GM数据搬运）")
def test_copy_out_float_channel_split(prog):
    m, n = 16, 24
    c = RNG.uniform(-2, 2, (m, 32)).astype(np.float32)
    total = 3 * 16 * 8
    got = output(prog.ok(30, nz_c(c), extra=(n, m, m * 8 * 4 // 32, 1, total)), 0, np.float32)
    for blk in range(3):                      # 16 x 8 Z blocks, m rows of 8 floats each
        np.testing.assert_array_equal(got[blk * m * 8: (blk + 1) * m * 8].reshape(m, 8), c[:, blk * 8: blk * 8 + 8])
    assert "multiple of 16" in prog.violation(30, nz_c(c), extra=(n, m, 4, 0, total))


@pytest.mark.api("Fixpipe（L0C到GM数据搬运）")
def test_fixpipe_other_chip_parameter_block_is_rejected(prog):
    assert "FixpipeParamsV220 only" in prog.violation(29)


COMPILE_FAIL = {
    "Mmad uint8 inputs": "Mmad(b.L0C<int32_t>(), b.L0A<uint8_t>(), b.L0B<uint8_t>(), MmadParams());",
    "Mmad int4 with a bias":
        "Mmad(b.L0C<int32_t>(), b.L0A<int4b_t>(), b.L0B<int4b_t>(), b.BT<int32_t>(), MmadParams());",
    "Fill int8": "Fill(b.L1<int8_t>(), InitConstValueParams<int8_t>(1, 1, 0, 0));",
    "Fixpipe float to float into L1": "Fixpipe(b.L1<float>(), b.L0C<float>(), FixpipeParamsV220());",
    "Fixpipe int32 to bfloat16": "Fixpipe(gout<bfloat16_t>(0, 1), b.L0C<int32_t>(), FixpipeParamsV220());",
    "MmadWithSparse half": "MmadWithSparse(b.L0C<int32_t>(), b.L0A<half>(), b.L0B<half>(), MmadParams());",
}
SUPPORTED = "Mmad(b.L0C<float>(), b.L0A<half>(), b.L0B<half>(), MmadParams());"


@pytest.mark.api("Mmad", "矩阵搬入辅助配置接口/Fill", "Fixpipe（L0C到L1数据搬运）", "MmadWithSparse")
@pytest.mark.parametrize("what", sorted(COMPILE_FAIL))
def test_dtype_tables_are_compile_errors(tmp_path, what):
    err = syntax_errors(COMPILE_FAIL[what], tmp_path / "bad")
    assert "error" in err, what
    assert syntax_errors(SUPPORTED, tmp_path / "good") == ""      # the check is the dtype, not the snippet
