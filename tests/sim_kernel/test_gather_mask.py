"""GatherMask: user-pattern and built-in-pattern forms, normal and counter mode, strides, rsvdCnt, violations."""

from __future__ import annotations

import numpy as np
import pytest

GATHER = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bsrcA, bpatA, bdstA, bsrcB, bpatB, bdstB, bsrcC, bpatC, bdstC, bsrcD, bdstD, bcnt, bdstE;
  pipe.InitBuffer(bsrcA, 192 * 4); pipe.InitBuffer(bpatA, 24 * 4); pipe.InitBuffer(bdstA, 192 * 4);
  pipe.InitBuffer(bsrcB, 256 * 2); pipe.InitBuffer(bpatB, 16 * 2); pipe.InitBuffer(bdstB, 256 * 2);
  pipe.InitBuffer(bsrcC, 128 * 4); pipe.InitBuffer(bpatC, 8 * 4); pipe.InitBuffer(bdstC, 256 * 4);
  pipe.InitBuffer(bsrcD, 256 * 2); pipe.InitBuffer(bdstD, 256 * 2); pipe.InitBuffer(bcnt, 16 * 4);
  pipe.InitBuffer(bdstE, 128 * 4);
  GlobalTensor<float> inA; GlobalTensor<uint32_t> inPA; GlobalTensor<half> inB; GlobalTensor<uint16_t> inPB;
  GlobalTensor<int32_t> inC; GlobalTensor<uint32_t> inPC; GlobalTensor<uint16_t> inD;
  inA.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0));
  inPA.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(1));
  inB.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(2));
  inPB.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_input(3));
  inC.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(4));
  inPC.SetGlobalBuffer((__gm__ uint32_t*)npukb_test::gm_input(5));
  inD.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_input(6));
  GlobalTensor<float> oA; GlobalTensor<half> oB; GlobalTensor<int32_t> oC; GlobalTensor<uint16_t> oD;
  GlobalTensor<int32_t> oCnt; GlobalTensor<float> oE;
  oA.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 192 * 4), 192);
  oB.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 256 * 2), 256);
  oC.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(2, 256 * 4), 256);
  oD.SetGlobalBuffer((__gm__ uint16_t*)npukb_test::gm_output(3, 8 * 256 * 2), 8 * 256);
  oCnt.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(4, 16 * 4), 16);
  oE.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(5, 128 * 4), 128);
  LocalTensor<float> sA = bsrcA.Get<float>(), dA = bdstA.Get<float>();
  LocalTensor<uint32_t> pA = bpatA.Get<uint32_t>();
  LocalTensor<half> sB = bsrcB.Get<half>(), dB = bdstB.Get<half>();
  LocalTensor<uint16_t> pB = bpatB.Get<uint16_t>();
  LocalTensor<int32_t> sC = bsrcC.Get<int32_t>(), dC = bdstC.Get<int32_t>();
  LocalTensor<uint32_t> pC = bpatC.Get<uint32_t>();
  LocalTensor<uint16_t> sD = bsrcD.Get<uint16_t>(), dD = bdstD.Get<uint16_t>();
  LocalTensor<int32_t> cnt = bcnt.Get<int32_t>();
  LocalTensor<float> dE = bdstE.Get<float>();
  DataCopy(sA, inA, 192); DataCopy(pA, inPA, 24); DataCopy(sB, inB, 256); DataCopy(pB, inPB, 16);
  DataCopy(sC, inC, 128); DataCopy(pC, inPC, 8); DataCopy(sD, inD, 256);
  Duplicate(cnt, (int32_t)-1, 16);
  uint64_t rsvd = 0;
  // A: float, user pattern, normal mode, 3 repeats, pattern rows one block (32 bytes) apart
  Duplicate(dA, 0.0f, 192);
  GatherMask(dA, sA, pA, false, 0, {1, 3, 8, 1}, rsvd);
  cnt.SetValue(0, (int32_t)rsvd); DataCopy(oA, dA, 192);
  // B: half, user pattern, normal mode, 2 repeats reusing the same pattern (src1RepeatStride 0)
  Duplicate(dB, (half)0, 256);
  GatherMaskParams pb; pb.repeatTimes = 2; pb.src0BlockStride = 1; pb.src0RepeatStride = 8; pb.src1RepeatStride = 0;
  GatherMask<half, uint16_t>(dB, sB, pB, false, 0, pb, rsvd);
  cnt.SetValue(1, (int32_t)rsvd); DataCopy(oB, dB, 256);
  // C: int32, counter mode: 70 elements per repeat, 2 repeats, src0 repeats 4 blocks apart, same pattern
  Duplicate(dC, (int32_t)0, 256);
  SetMaskCount();
  GatherMask(dC, sC, pC, true, 70, {1, 2, 4, 0}, rsvd);
  cnt.SetValue(2, (int32_t)rsvd); DataCopy(oC, dC, 256);
  // D: uint16, built-in patterns 1..7, normal mode, 2 repeats with src0BlockStride 1
  for (uint8_t p = 1; p <= 7; ++p) {
    Duplicate(dD, (uint16_t)0, 256);
    GatherMask(dD, sD, p, false, 0, {1, 2, 8, 0}, rsvd);
    cnt.SetValue(2 + p, (int32_t)rsvd); DataCopy(oD[(p - 1) * 256], dD, 256);
  }
  // D': bfloat16 through the same bits, pattern 2 (odd elements), one repeat
  Duplicate(dD, (uint16_t)0, 256);
  GatherMask(dD.ReinterpretCast<bfloat16_t>(), sD.ReinterpretCast<bfloat16_t>(), (uint8_t)2, false, 0,
             {1, 1, 8, 0}, rsvd);
  cnt.SetValue(10, (int32_t)rsvd); DataCopy(oD[7 * 256], dD, 256);
  // E: float, built-in pattern 6 (4th of every four), counter mode, 100 elements in one repeat
  Duplicate(dE, 0.0f, 128);
  GatherMask(dE, sA, (uint8_t)6, true, 100, {1, 1, 8, 0}, rsvd);
  cnt.SetValue(11, (int32_t)rsvd); DataCopy(oE, dE, 128);
  // F: src0BlockStride 2 (every other 32-byte block), built-in pattern 7, float, normal mode, one repeat
  GatherMask(dA, sA, (uint8_t)7, false, 0, {2, 1, 8, 0}, rsvd);
  cnt.SetValue(12, (int32_t)rsvd);
  cnt.SetValue(13, (int32_t)(dA.GetValue(8) == sA.GetValue(16) && dA.GetValue(63) == sA.GetValue(16 * 7 + 7)));
  DataCopy(oCnt, cnt, 16);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def _bits(words: np.ndarray) -> np.ndarray:
    """Little-endian bit stream of a pattern array (bit k of the stream = element k)."""
    return np.unpackbits(words.view(np.uint8), bitorder="little").astype(bool)


@pytest.mark.api("GatherMask")
def test_gather_mask_semantics(prog) -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal(192).astype(np.float32)
    pa = rng.integers(0, 2**32, 24, dtype=np.uint64).astype(np.uint32)
    b = rng.standard_normal(256).astype(np.float16)
    pb = rng.integers(0, 2**16, 16, dtype=np.uint32).astype(np.uint16)
    c = rng.integers(-(2**31), 2**31 - 1, 128, dtype=np.int64).astype(np.int32)
    pc = rng.integers(0, 2**32, 8, dtype=np.uint64).astype(np.uint32)
    d = rng.integers(0, 2**16, 256, dtype=np.uint32).astype(np.uint16)
    prog.inputs(a, pa, b, pb, c, pc, d)
    ran = prog.run(GATHER)
    assert ran.returncode == 0, ran.stderr
    cnt = prog.output(4, np.int32)

    # A: repeat r uses the 64 pattern bits starting at byte 32 * r
    bits_a = _bits(pa)
    exp_a = np.concatenate([a[64 * r: 64 * r + 64][bits_a[256 * r: 256 * r + 64]] for r in range(3)])
    assert cnt[0] == exp_a.size
    np.testing.assert_array_equal(prog.output(0, np.float32)[: exp_a.size], exp_a)

    # B: both repeats use the first 128 pattern bits
    bits_b = _bits(pb)[:128]
    exp_b = np.concatenate([b[:128][bits_b], b[128:][bits_b]])
    assert cnt[1] == exp_b.size
    np.testing.assert_array_equal(prog.output(1, np.float16)[: exp_b.size], exp_b)

    # C: counter mode, 70 elements per repeat, repeat 1 starts at element 32 (4 blocks), same 70 bits
    bits_c = _bits(pc)[:70]
    exp_c = np.concatenate([c[0:70][bits_c], c[32:102][bits_c]])
    assert cnt[2] == exp_c.size
    np.testing.assert_array_equal(prog.output(2, np.int32)[: exp_c.size], exp_c)

    # D: built-in patterns on 2 repeats of 128 uint16
    od = prog.output(3, np.uint16).reshape(8, 256)
    k = np.arange(128)
    sel = {1: k % 2 == 0, 2: k % 2 == 1, 3: k % 4 == 0, 4: k % 4 == 1, 5: k % 4 == 2, 6: k % 4 == 3, 7: k >= 0}
    for p, s in sel.items():
        exp = np.concatenate([d[:128][s], d[128:][s]])
        assert cnt[2 + p] == exp.size, p
        np.testing.assert_array_equal(od[p - 1, : exp.size], exp)
    # bfloat16, pattern 2, one repeat: the odd elements of the first 128
    assert cnt[10] == 64
    np.testing.assert_array_equal(od[7, :64], d[1:128:2])

    # E: counter mode, 100 float elements, every fourth starting at index 3
    exp_e = a[:100][np.arange(100) % 4 == 3]
    assert cnt[11] == exp_e.size == 25
    np.testing.assert_array_equal(prog.output(5, np.float32)[:25], exp_e)

    # F: block stride 2 reads blocks 0, 2, 4, ... of src0
    assert cnt[12] == 64 and cnt[13] == 1


VIOLATIONS = {
    "repeat": ("GatherMask(d, s, (uint8_t)7, false, 0, {1, 256, 8, 0}, r);", "repeatTimes 256"),
    "pattern_overrun": ("GatherMask(d, s, pat, false, 0, {1, 2, 8, 1}, r);", "UB overflow: src1Pattern"),
    "bad_builtin": ("GatherMask(d, s, (uint8_t)8, false, 0, {1, 1, 8, 0}, r);", "built-in src1Pattern 8"),
    "counter_mask_zero": ("GatherMask(d, s, (uint8_t)7, true, 0, {1, 1, 8, 0}, r);", "mask 0"),
}


@pytest.mark.parametrize("case", sorted(VIOLATIONS))
def test_gather_mask_violations(prog, case: str) -> None:
    call, expected = VIOLATIONS[case]
    body = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bs, bd, bp, bsm;
  pipe.InitBuffer(bs, 128 * 4); pipe.InitBuffer(bd, 128 * 4); pipe.InitBuffer(bp, 8); pipe.InitBuffer(bsm, 32);
  LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>(), small = bsm.Get<float>();
  LocalTensor<uint32_t> pat = bp.Get<uint32_t>();
  Duplicate(s, 1.0f, 128); Duplicate(pat, (uint32_t)0xFFFFFFFFu, 2);
  uint64_t r = 0;
  CALL
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
""".replace("CALL", call)
    ran = prog.run(body)
    assert ran.returncode == 3, (ran.returncode, ran.stderr)
    line = ran.stderr.strip().splitlines()[-1]
    assert line.startswith("VIOLATION: GatherMask:"), line
    assert expected in line, line


def test_gather_mask_overruns_inside_ub_are_warnings(prog) -> None:
    """src0 read and dst written past their LocalTensors, inside UB: the device does it; a warning each."""
    body = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bs, bd, bsm;
  pipe.InitBuffer(bs, 128 * 4); pipe.InitBuffer(bd, 128 * 4); pipe.InitBuffer(bsm, 32);
  LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>(), small = bsm.Get<float>();
  Duplicate(s, 1.0f, 128);
  uint64_t r = 0;
  GatherMask(d, s, (uint8_t)1, false, 0, {1, 3, 8, 0}, r);
  GatherMask(small, s, (uint8_t)7, false, 0, {1, 1, 8, 0}, r);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""
    ran = prog.run(body)
    assert ran.returncode == 0, ran.stderr
    warned = [ln for ln in ran.stderr.splitlines() if ln.startswith("WARNING: GatherMask: UB overflow")]
    assert any("src0" in w for w in warned) and any("dst" in w for w in warned), ran.stderr
