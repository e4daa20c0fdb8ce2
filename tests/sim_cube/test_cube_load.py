"""The cube family's data movement into L1 / L0A / L0B, each API against numpy from its documentation page:
GM -> L1 (DataCopy count and DataCopyParams forms, ND2NZ, LoadData 2D), UB -> L1 (count, DataCopyParams,
ND2NZ, DataCopyPad + ND2NZ), L1 -> L0A/L0B (LoadData 2D, LoadDataWithTranspose), Fill, L1 -> bias table
and L1 -> fixpipe buffer, L1 -> GM. One program, one run per case; the documented limits as violations."""

from __future__ import annotations

import numpy as np
import pytest
from cube_program import CubeProgram, output

BODY = r"""
static void body(void*) {
  Bufs b(P[1] == 2);
  switch (P[0]) {
    case 1: {  // GM -> L1, count form: P[2] elements of half
      LocalTensor<half> l1 = b.L1<half>();
      DataCopy(l1, gin<half>(1), (uint32_t)P[2]);
      dump(0, l1, 64);
      break;
    }
    case 2: {  // GM -> L1, DataCopyParams (blockCount, blockLen, srcGap, dstGap) = P[2..5]
      LocalTensor<half> l1 = b.L1<half>();
      DataCopy(l1, gin<half>(1), DataCopyParams(P[2], P[3], P[4], P[5]));
      dump(0, l1, 256);
      break;
    }
    case 3: {  // GM -> L1, ND2NZ with the parameters P[2..9]
      LocalTensor<half> l1 = b.L1<half>();
      DataCopy(l1, gin<half>(1), Nd2NzParams(P[2], P[3], P[4], P[5], P[6], P[7], P[8], P[9]));
      dump(0, l1, P[10]);
      break;
    }
    case 4: {  // GM -> L1, LoadData 2D: (startIndex, repeatTimes, srcStride, dstGap, addrMode) = P[2..6], float
      LocalTensor<float> l1 = b.L1<float>();
      LoadData(l1, gin<float>(1), LoadData2DParams(P[2], P[3], P[4], 0, P[5], P[7] != 0, P[6]));
      dump(0, l1, 128 * 16);
      break;
    }
    case 5: {  // UB -> L1 on a vector core, count form (int16)
      LocalTensor<int16_t> ub = b.UB<int16_t>(), l1 = b.L1<int16_t>();
      load(ub, 1, 256);
      DataCopy(l1, ub, (uint32_t)P[2]);
      dump(0, l1, 256);
      break;
    }
    case 6: {  // UB -> L1, DataCopyParams
      LocalTensor<int16_t> ub = b.UB<int16_t>(), l1 = b.L1<int16_t>();
      load(ub, 1, 512);
      DataCopy(l1, ub, DataCopyParams(P[2], P[3], P[4], P[5]));
      dump(0, l1, 512);
      break;
    }
    case 7: {  // UB -> L1 ND2NZ (half)
      LocalTensor<half> ub = b.UB<half>(), l1 = b.L1<half>();
      load(ub, 1, 4096);
      DataCopy(l1, ub, Nd2NzParams(P[2], P[3], P[4], P[5], P[6], P[7], P[8], P[9]));
      dump(0, l1, P[10]);
      break;
    }
    case 8: {  // DataCopyPad UB -> L1: DataCopyExtParams P[2..5] + Nd2NzParams P[6..13]
      LocalTensor<half> ub = b.UB<half>(), l1 = b.L1<half>();
      load(ub, 1, 4096);
      DataCopyExtParams c(P[2], P[3], P[4], P[5], 0);
      DataCopyPad(l1, ub, c, Nd2NzParams(P[6], P[7], P[8], P[9], P[10], P[11], P[12], P[13]));
      dump(0, l1, P[14]);
      break;
    }
    case 9: {  // L1 -> L0A / L0B (P[8]) LoadData 2D, half; P[2..7]: start, repeat, srcStride, dstGap, trans, addrMode
      LocalTensor<half> l1 = b.L1<half>();
      load(l1, 1, 16 * 256);
      LocalTensor<half> dst = P[8] ? b.L0B<half>() : b.L0A<half>();
      LoadData(dst, l1, LoadData2DParams(P[2], P[3], P[4], 0, P[5], P[6] != 0, P[7]));
      dump(0, dst, 16 * 256);
      break;
    }
    case 10: {  // L1 -> L0A LoadData 2D, float, ifTranspose = P[2]
      LocalTensor<float> l1 = b.L1<float>();
      load(l1, 1, 1024);
      LoadData(b.L0A<float>(), l1, LoadData2DParams(0, 2, 1, 0, 0, P[2] != 0, 0));
      dump(0, b.L0A<float>(), 256);
      break;
    }
    case 11: {  // GM -> L0B LoadData 2D (half)
      LoadData(b.L0B<half>(), gin<half>(1), LoadData2DParams(P[2], P[3], P[4], 0, P[5], false, 0));
      dump(0, b.L0B<half>(), 8 * 256);
      break;
    }
    case 20: {  // LoadDataWithTranspose, half: (start, repeat, srcStride, dstGap, fracGap) = P[2..6]
      LocalTensor<half> l1 = b.L1<half>();
      load(l1, 1, 8 * 256);
      LoadDataWithTranspose(b.L0A<half>(), l1, LoadData2dTransposeParams(P[2], P[3], P[4], P[5], P[6]));
      dump(0, b.L0A<half>(), 8 * 256);
      break;
    }
    case 21: {  // LoadDataWithTranspose, int8; P[7]: into L0B, P[8]: addrMode
      LocalTensor<int8_t> l1 = b.L1<int8_t>();
      load(l1, 1, 8 * 512);
      LocalTensor<int8_t> dst = P[7] ? b.L0B<int8_t>() : b.L0A<int8_t>();
      LoadDataWithTranspose(dst, l1, LoadData2dTransposeParams(P[2], P[3], P[4], P[5], P[6], P[8]));
      dump(0, dst, 12 * 512);
      break;
    }
    case 22: {  // LoadDataWithTranspose, float
      LocalTensor<float> l1 = b.L1<float>();
      load(l1, 1, 8 * 128);
      LoadDataWithTranspose(b.L0B<float>(), l1, LoadData2dTransposeParams(P[2], P[3], P[4], P[5], P[6]));
      dump(0, b.L0B<float>(), 12 * 128);
      break;
    }
    case 23: {  // LoadDataWithTranspose, int4b_t (bytes), into L0B (P[7] = 0) or L0A (P[7] = 1)
      LocalTensor<int4b_t> l1 = b.L1<int4b_t>();
      load(l1, 1, 4 * 2048);
      LocalTensor<int4b_t> dst = P[7] ? b.L0A<int4b_t>() : b.L0B<int4b_t>();
      LoadDataWithTranspose(dst, l1, LoadData2dTransposeParams(P[2], P[3], P[4], P[5], P[6]));
      dump(0, dst, 16 * 512);
      break;
    }
    case 30: {  // Fill L1 (32-byte blocks) with float P[5]: repeat, blockNum, dstGap = P[2..4]
      LocalTensor<float> l1 = b.L1<float>();
      Fill(l1, InitConstValueParams<float>(P[2], P[3], P[4], pf(5)));
      dump(0, l1, 512);
      break;
    }
    case 31: {  // Fill L0A (512-byte blocks) with half P[5]
      LocalTensor<half> a = b.L0A<half>();
      Fill(a, InitConstValueParams<half>(P[2], P[3], P[4], (half)pf(5)));
      dump(0, a, 8 * 256);
      break;
    }
    case 32: {  // Fill L0B with int32 at a 512-byte offset, and at a misaligned one (P[2])
      LocalTensor<int32_t> t = b.L0B<int32_t>();
      Fill(t[P[2]], InitConstValueParams<int32_t>(1, 1, 0, 7));
      dump(0, t, 512);
      break;
    }
    case 33: {  // Fill of UB: not a cube buffer
      LocalTensor<float> u = b.UB<float>();
      Fill(u, InitConstValueParams<float>(1, 1, 0, 1.0f));
      break;
    }
    case 40: {  // L1 -> BT, half -> float (blockCount, blockLen, srcGap, dstGap) = P[2..5]
      LocalTensor<half> l1 = b.L1<half>();
      load(l1, 1, 512);
      DataCopy(b.BT<float>(), l1, DataCopyParams(P[2], P[3], P[4], P[5]));
      dump(0, b.BT<float>(), 256);
      break;
    }
    case 41: {  // L1 -> BT, float -> float, count form
      LocalTensor<float> l1 = b.L1<float>();
      load(l1, 1, 256);
      DataCopy(b.BT<float>(), l1, (uint32_t)P[2]);
      dump(0, b.BT<float>(), 256);
      break;
    }
    case 42: {  // L1 -> FB (uint64_t): (blockCount, blockLen, srcGap, dstGap) = P[2..5]
      LocalTensor<uint64_t> l1 = b.L1<uint64_t>();
      load(l1, 1, 512);
      DataCopy(b.FB<uint64_t>(), l1, DataCopyParams(P[2], P[3], P[4], P[5]));
      dump(0, b.FB<uint64_t>(), 512);
      break;
    }
    case 43: {  // L1 -> FB count form
      LocalTensor<uint64_t> l1 = b.L1<uint64_t>();
      load(l1, 1, 512);
      DataCopy(b.FB<uint64_t>(), l1, (uint32_t)P[2]);
      dump(0, b.FB<uint64_t>(), 512);
      break;
    }
    case 50: {  // L1 -> GM count form (int32)
      LocalTensor<int32_t> l1 = b.L1<int32_t>();
      load(l1, 1, 256);
      GlobalTensor<int32_t> g = gout<int32_t>(0, 256);
      InitGlobalMemory(g, 256, (int32_t)-1);
      DataCopy(g, l1, (uint32_t)P[2]);
      break;
    }
    case 51: {  // L1 -> GM DataCopyParams
      LocalTensor<int32_t> l1 = b.L1<int32_t>();
      load(l1, 1, 256);
      GlobalTensor<int32_t> g = gout<int32_t>(0, 256);
      InitGlobalMemory(g, 256, (int32_t)-1);
      DataCopy(g, l1, DataCopyParams(P[2], P[3], P[4], P[5]));
      break;
    }
  }
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("cube_load"), sim_cache)


RNG = np.random.default_rng(11)


def halfs(n: int) -> np.ndarray:
    return RNG.uniform(-4, 4, n).astype(np.float16)


POISON16 = np.frombuffer(b"\xa5\xa5", dtype=np.float16)[0]


@pytest.mark.api("DataCopy（GMToL1连续数据搬运）")
def test_gm_to_l1_count_rounds_down_to_32_bytes(prog):
    src = halfs(64)
    d = prog.ok(1, src, extra=(40,))        # 80 bytes -> 64 bytes (32 halves)
    got = output(d, 0, np.float16)
    np.testing.assert_array_equal(got[:32], src[:32])
    assert np.all(got[32:].view(np.uint16) == 0xA5A5)   # untouched beyond the rounded-down amount


@pytest.mark.api("DataCopy（GMToL1高维切分数据搬运）")
def test_gm_to_l1_blocks_with_gaps(prog):
    # the page's example: half, 2 blocks of 3 DataBlocks, srcGap 1, dstGap 2
    src = halfs(256)
    got = output(prog.ok(2, src, extra=(2, 3, 1, 2)), 0, np.float16)
    np.testing.assert_array_equal(got[:48], src[:48])
    np.testing.assert_array_equal(got[80:128], src[64:112])
    assert np.all(got[48:80].view(np.uint16) == 0xA5A5)


@pytest.mark.api("DataCopy（GMToL1随路转换-ND2NZ搬运）")
def test_gm_nd2nz_two_matrices_noncontinuous(prog):
    # the page's example: ndNum 2, nValue 8, dValue 23, srcNdMatrixStride 384, srcDValue 32,
    # dstNzC0Stride 37, dstNzNStride 2, dstNzMatrixStride 320
    src = halfs(2 * 384)
    n_out = 320 + 37 * 16 + 16 * 16
    got = output(prog.ok(3, src, extra=(2, 8, 23, 384, 32, 37, 2, 320, n_out)), 0, np.float16)
    for nd in range(2):
        for r in range(8):
            row = src[nd * 384 + r * 32: nd * 384 + r * 32 + 23]
            for blk in range(2):
                at = nd * 320 + r * 2 * 16 + blk * 37 * 16
                want = np.zeros(16, np.float16)
                part = row[blk * 16: blk * 16 + 16]
                want[: len(part)] = part
                np.testing.assert_array_equal(got[at: at + 16], want)


@pytest.mark.api("DataCopy（GMToL1随路转换-ND2NZ搬运）")
def test_gm_nd2nz_range_checks(prog):
    src = halfs(256)
    assert "dstNzNStride" in prog.violation(3, src, extra=(1, 4, 16, 0, 16, 4, 0, 0, 64))
    assert "srcDValue" in prog.violation(3, src, extra=(1, 4, 16, 0, 0, 4, 1, 0, 64))


@pytest.mark.api("LoadData（GMToL1-2D矩阵搬运）")
def test_gm_to_l1_load2d_fractals(prog):
    src = RNG.uniform(-1, 1, 16 * 128).astype(np.float32)        # 16 float fractals of 128 elements
    got = output(prog.ok(4, src, extra=(1, 4, 2, 2, 0, 0)), 0, np.float32).reshape(-1, 128)
    for r in range(4):                    # fractal 1 + 2r -> destination fractal 3r
        np.testing.assert_array_equal(got[3 * r], src.reshape(-1, 128)[1 + 2 * r])
    # addrMode 1 counts down: the page's example, startIndex 6, srcStride 2, 4 repeats, dstGap 2
    got = output(prog.ok(4, src, extra=(6, 4, 2, 2, 1, 0)), 0, np.float32).reshape(-1, 128)
    for r in range(4):
        np.testing.assert_array_equal(got[3 * r], src.reshape(-1, 128)[6 - 2 * r])
    assert "not from GM" in prog.violation(4, src, extra=(0, 1, 1, 0, 0, 1))


@pytest.mark.api("DataCopy（UBToL1连续数据搬运）")
def test_ub_to_l1_count(prog):
    src = RNG.integers(-1000, 1000, 256, dtype=np.int16)
    got = output(prog.ok(5, src, vector=True, extra=(100,)), 0, np.int16)   # 200 bytes -> 192
    np.testing.assert_array_equal(got[:96], src[:96])
    assert np.all(got[96:].view(np.uint16) == 0xA5A5)


@pytest.mark.api("DataCopy（UBToL1高维切分数据搬运）")
def test_ub_to_l1_blocks(prog):
    src = RNG.integers(-1000, 1000, 512, dtype=np.int16)
    # the page's figure: 2 blocks of 8 DataBlocks, no source gap, destination gap 1
    got = output(prog.ok(6, src, vector=True, extra=(2, 8, 0, 1)), 0, np.int16)
    np.testing.assert_array_equal(got[:128], src[:128])
    np.testing.assert_array_equal(got[144:272], src[128:256])


def nd2nz_ref(src, nd, n, dv, src_nd, src_d, c0s, ns, dst_nd, total, c0=16):
    out = np.full(total, POISON16, dtype=np.float16)
    for i in range(nd):
        for r in range(n):
            row = src[i * src_nd + r * src_d: i * src_nd + r * src_d + dv]
            for blk in range(-(-dv // c0)):
                at = i * dst_nd + r * ns * c0 + blk * c0s * c0
                want = np.zeros(c0, np.float16)
                part = row[blk * c0: blk * c0 + c0]
                want[: len(part)] = part
                out[at: at + c0] = want
    return out


@pytest.mark.api("DataCopy（UBToL1随路转换-ND2NZ搬运）")
def test_ub_to_l1_nd2nz(prog):
    src = halfs(4096)
    # the page's example shape with ndNum 1: nValue 2, dValue 24, srcDValue 48, dstNzC0Stride 11, dstNzNStride 2
    total = 11 * 16 + 2 * 16 + 16
    got = output(prog.ok(7, src, vector=True, extra=(1, 2, 24, 0, 48, 11, 2, 0, total)), 0, np.float16)
    want = nd2nz_ref(src, 1, 2, 24, 0, 48, 11, 2, 0, total)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    # the page's own example has ndNum 2, which this path rejects (ndNum must be 1)
    assert "ndNum = 1" in prog.violation(7, src, vector=True, extra=(2, 2, 24, 144, 48, 11, 2, 96, total))
    assert "nValue and dValue" in prog.violation(7, src, vector=True, extra=(1, 0, 24, 0, 48, 11, 2, 0, total))


@pytest.mark.api("DataCopyPad（UBToL1非对齐数据搬运）")
def test_datacopypad_ub_to_l1_through_gm(prog):
    # the page's example: half; 3 blocks of 192 bytes, 1 DataBlock apart in UB, 64 bytes apart in GM;
    # then ND2NZ: nValue 3, dValue 96, srcDValue 128, dstNzC0Stride 7, dstNzNStride 2
    src = halfs(4096)
    total = 5 * 7 * 16 + 2 * 2 * 16 + 16
    got = output(prog.ok(8, src, vector=True, extra=(3, 192, 1, 64, 1, 3, 96, 0, 128, 7, 2, 0, total)), 0, np.float16)
    staged = np.zeros(3 * 128, np.float16)        # GM rows: 96 halves of data then 32 of gap
    for i in range(3):
        staged[i * 128: i * 128 + 96] = src[i * 112: i * 112 + 96]
    want = nd2nz_ref(staged, 1, 3, 96, 0, 128, 7, 2, 0, total)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    assert "sizeof(T)" in prog.violation(8, src, vector=True, extra=(3, 191, 1, 64, 1, 3, 95, 0, 128, 7, 2, 0, total))


@pytest.mark.api("LoadData（2D矩阵搬运）")
def test_l1_to_l0_load2d_strides_and_start(prog):
    l1 = halfs(16 * 256)
    fr = l1.reshape(16, 256)
    # the page's example: startIndex 1, 4 repeats, srcStride 2, dstGap 2
    got = output(prog.ok(9, l1, extra=(1, 4, 2, 2, 0, 0, 0)), 0, np.float16).reshape(16, 256)
    for r in range(4):
        np.testing.assert_array_equal(got[3 * r], fr[1 + 2 * r])
    # srcStride 0 re-reads the same fractal; into L0B
    got = output(prog.ok(9, l1, extra=(5, 3, 0, 0, 0, 0, 1)), 0, np.float16).reshape(16, 256)
    for r in range(3):
        np.testing.assert_array_equal(got[r], fr[5])


@pytest.mark.api("LoadData（2D矩阵搬运）")
def test_l1_to_l0_load2d_transpose_b16(prog):
    l1 = halfs(16 * 256)
    fr = l1.reshape(16, 16, 16)
    got = output(prog.ok(9, l1, extra=(0, 2, 2, 2, 1, 0, 0)), 0, np.float16).reshape(16, 16, 16)
    np.testing.assert_array_equal(got[0], fr[0].T)
    np.testing.assert_array_equal(got[3], fr[2].T)


@pytest.mark.api("LoadData（2D矩阵搬运）")
def test_load2d_constraints(prog):
    l1 = RNG.uniform(-1, 1, 1024).astype(np.float32)
    got = output(prog.ok(10, l1, extra=(0,)), 0, np.float32)
    np.testing.assert_array_equal(got, l1[:256])
    assert "16-bit" in prog.violation(10, l1, extra=(1,))          # float cannot be transposed here
    assert "addrMode" in prog.violation(9, halfs(4096), extra=(3, 2, 1, 0, 0, 1, 0))


@pytest.mark.api("LoadData（2D矩阵搬运）")
def test_gm_to_l0b_load2d(prog):
    src = halfs(8 * 256)
    got = output(prog.ok(11, src, extra=(2, 3, 2, 1)), 0, np.float16).reshape(8, 256)
    for r in range(3):
        np.testing.assert_array_equal(got[2 * r], src.reshape(8, 256)[2 + 2 * r])


@pytest.mark.api("LoadDataWithTranspose")
def test_load_with_transpose_b16(prog):
    l1 = halfs(8 * 256)
    fr = l1.reshape(8, 16, 16)
    got = output(prog.ok(20, l1, extra=(1, 3, 2, 1, 0)), 0, np.float16).reshape(8, 16, 16)
    for r in range(3):                      # block 1 + 2r -> fractal 2r (dstGap 1)
        np.testing.assert_array_equal(got[2 * r], fr[1 + 2 * r].T)


@pytest.mark.api("LoadDataWithTranspose")
def test_load_with_transpose_b8_square_blocks(prog):
    l1 = RNG.integers(-128, 128, 8 * 512, dtype=np.int8)
    sq = l1.reshape(4, 32, 32)              # two 16 x 32 fractals stacked = one 32 x 32 block
    # 2 repeats, srcStride 1, dstGap 1, dstFracGap 2 (the page's second b8 figure shape)
    got = output(prog.ok(21, l1, extra=(0, 2, 1, 1, 2, 0, 0)), 0, np.int8).reshape(12, 16, 32)
    for r in range(2):
        t = sq[r].T
        first = r * 2                        # (1 + dstGap) fractals per repeat
        np.testing.assert_array_equal(got[first], t[:16])
        np.testing.assert_array_equal(got[first + 3], t[16:])   # 1 + dstFracGap after the first
    # into L0B, addrMode 1 counts the blocks down
    got = output(prog.ok(21, l1, extra=(3, 2, 1, 1, 0, 1, 1)), 0, np.int8).reshape(12, 16, 32)
    np.testing.assert_array_equal(got[0], sq[3].T[:16])
    np.testing.assert_array_equal(got[2], sq[2].T[:16])


@pytest.mark.api("LoadDataWithTranspose")
def test_load_with_transpose_b32_side_by_side(prog):
    l1 = RNG.uniform(-1, 1, 8 * 128).astype(np.float32)
    fr = l1.reshape(8, 16, 8)
    got = output(prog.ok(22, l1, extra=(1, 1, 1, 0, 1)), 0, np.float32).reshape(12, 16, 8)
    sq = np.concatenate([fr[2], fr[3]], axis=1)          # block 1 = fractals 2 and 3 side by side
    t = sq.T
    np.testing.assert_array_equal(got[0], t[:, :8])
    np.testing.assert_array_equal(got[2], t[:, 8:])       # dstFracGap 1


def nibbles(b: np.ndarray) -> np.ndarray:
    b = b.astype(np.uint8)
    out = np.empty(b.size * 2, np.uint8)
    out[0::2] = b & 0xF
    out[1::2] = b >> 4
    return out


@pytest.mark.api("LoadDataWithTranspose")
def test_load_with_transpose_b4_into_l0b_only(prog):
    l1 = RNG.integers(0, 256, 4 * 2048, dtype=np.uint8)
    got = output(prog.ok(23, l1, extra=(1, 1, 1, 0, 0, 0)), 0, np.uint8)
    block = nibbles(l1[2048: 4096]).reshape(64, 64)         # block 1: 4 fractals of 16 x 64
    t = block.T.reshape(-1)
    np.testing.assert_array_equal(nibbles(got[:2048]), t)
    assert "L0B only" in prog.violation(23, l1, extra=(0, 1, 1, 0, 0, 1))


@pytest.mark.api("矩阵搬入辅助配置接口/Fill")
def test_fill_l1_blocks_and_gaps(prog):
    # the page's figure: 5 repeats of 3 blocks, 5 blocks apart (here 2 x 32-byte blocks, gap 1)
    got = output(prog.ok(30, extra=(3, 2, 1, 2.5)), 0, np.float32)
    blocks = got.reshape(-1, 8)
    for r in range(3):
        for k in range(2):
            assert np.all(blocks[3 * r + k] == 2.5)
        if r < 2:
            assert np.all(blocks[3 * r + 2].view(np.uint32) == 0xA5A5A5A5)
    assert np.all(blocks[8:].view(np.uint32) == 0xA5A5A5A5)


@pytest.mark.api("矩阵搬入辅助配置接口/Fill")
def test_fill_l0a_512_byte_blocks(prog):
    got = output(prog.ok(31, extra=(2, 2, 1, -1.5)), 0, np.float16).reshape(8, 256)
    for f in (0, 1, 3, 4):
        assert np.all(got[f] == -1.5)
    assert np.all(got[2].view(np.uint16) == 0xA5A5) and np.all(got[5].view(np.uint16) == 0xA5A5)


@pytest.mark.api("矩阵搬入辅助配置接口/Fill")
def test_fill_alignment_and_position(prog):
    got = output(prog.ok(32, extra=(128,)), 0, np.int32)            # 512-byte offset in L0B
    assert np.all(got[128:256] == 7)
    assert "512-byte aligned" in prog.violation(32, extra=(8,))      # 32 bytes: not a fractal boundary
    assert "must be in L1 or L0A or L0B" in prog.violation(33)


@pytest.mark.api("DataCopy（L1ToBiasTable-Buffer数据搬运）")
def test_l1_to_bias_table_converts_half(prog):
    src = halfs(512)
    # 2 blocks of 64 source bytes (32 halves), 1 source DataBlock gap, 1 table unit (64 bytes) gap
    got = output(prog.ok(40, src, extra=(2, 1, 1, 1)), 0, np.float32)
    np.testing.assert_array_equal(got[:32], src[:32].astype(np.float32))
    np.testing.assert_array_equal(got[48:80], src[48:80].astype(np.float32))
    fl = RNG.uniform(-1, 1, 256).astype(np.float32)
    np.testing.assert_array_equal(output(prog.ok(41, fl, extra=(64,)), 0, np.float32)[:64], fl[:64])


@pytest.mark.api("DataCopy（L1ToFixpipe-Buffer数据搬运）")
def test_l1_to_fixpipe_buffer_head_to_head_gaps(prog):
    src = RNG.integers(0, 2**62, 512, dtype=np.uint64)
    # 2 blocks of 128 bytes (16 words); sources 8 DataBlocks (64 words) apart, destinations 2 x 128 bytes
    got = output(prog.ok(42, src, extra=(2, 1, 8, 2)), 0, np.uint64)
    np.testing.assert_array_equal(got[:16], src[:16])
    np.testing.assert_array_equal(got[32:48], src[32:48])
    got = output(prog.ok(43, src, extra=(40,)), 0, np.uint64)
    np.testing.assert_array_equal(got[:40], src[:40])


@pytest.mark.api("DataCopy（L1ToGM连续数据搬运）")
def test_l1_to_gm_count(prog):
    src = RNG.integers(-9, 9, 256, dtype=np.int32)
    got = output(prog.ok(50, src, extra=(20,)), 0, np.int32)     # 80 bytes -> 64 bytes
    np.testing.assert_array_equal(got[:16], src[:16])
    assert np.all(got[16:] == -1)


@pytest.mark.api("DataCopy（L1ToGM高维切分数据搬运）")
def test_l1_to_gm_blocks(prog):
    src = RNG.integers(-9, 9, 256, dtype=np.int32)
    got = output(prog.ok(51, src, extra=(2, 3, 1, 2)), 0, np.int32)   # the page's non-continuous example
    np.testing.assert_array_equal(got[:24], src[:24])
    np.testing.assert_array_equal(got[40:64], src[32:56])
    assert np.all(got[24:40] == -1)
