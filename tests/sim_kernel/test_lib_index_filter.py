"""The index and data-filter libraries against numpy, from the API pages: Arange (and its older name
ArithProgression) for int16_t / half / int32_t / float with the rounding of the page's three steps
(SetValue for 8, Adds to 64, Adds beyond); the high-level Select with a bytes mask (tensor / scalar in
either position, every mask type, isReuseMask gathering the mask in place); DropOut in the byte and bit
modes with and without dirty mask data (the mode inferred from the shape or given). Constraints are
violations: count > 0, diffValue >= 0, Select's aligned axes and tmp buffer, keepProb in (0, 1), the
dirty modes' even valid counts."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params
from simkit import syntax_check

BODY = r"""
// Arange: P[2] count, P[3] form (0 Arange, 1 ArithProgression), first / diff as floats in P[4], P[5].
template <typename T> static void arange() {
  const int32_t count = P[2];
  const T first = static_cast<T>(pf(4)), diff = static_cast<T>(pf(5));
  Ub u;
  LocalTensor<T> dst = in<T>(u, 1, 512);
  if (P[3] == 0) Arange<T>(dst, first, diff, count); else ArithProgression(dst, first, diff, count);
  out(0, dst, 512);
}

// Select: P[2] first, P[3] srcLast, P[4] maskLast, P[5] form, P[6] reuse, P[7] case, scalar pf(8).
template <typename T, typename U, bool reuse> static void select() {
  const uint32_t first = P[2], sl = P[3], ml = P[4];
  const int form = P[5], c = P[7];
  const T scalar = static_cast<T>(pf(8));
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, first * sl), dst = in<T>(u, 2, first * sl + 32);
  LocalTensor<U> mask = in<U>(u, 3, first * ml);
  const uint32_t need = npukb_lib::SelectMinTmpBytes(first, sl, ml, sizeof(U), reuse);
  LocalTensor<uint8_t> tmp = c == 2 ? src.template ReinterpretCast<uint8_t>()
                                    : u.get<uint8_t>(c == 1 ? need - 32 : need);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = first;
  info.srcLastAxis = sl;
  info.maskLastAxis = ml;
  LocalTensor<T> d = c == 3 ? src : dst;
  if (form == 0) Select<T, U, reuse>(d, src, scalar, mask, tmp, info);
  else Select<T, U, reuse>(d, scalar, src, mask, tmp, info);
  out(0, d, first * sl);
  out(1, mask, first * ml);
}
template <typename T, bool reuse> static void select_u() {
  switch (P[9]) {
    case 0: select<T, bool, reuse>(); break;
    case 1: select<T, int8_t, reuse>(); break;
    case 2: select<T, uint8_t, reuse>(); break;
    case 3: select<T, int16_t, reuse>(); break;
    case 4: select<T, uint16_t, reuse>(); break;
    case 5: select<T, int32_t, reuse>(); break;
    case 6: select<T, uint32_t, reuse>(); break;
  }
}

// DropOut: P[2] first, P[3] srcLast, P[4] maskLast, P[5] form, P[6] mode, P[7] case, keepProb pf(8).
template <typename T, uint32_t M> static void dropout() {
  const uint32_t first = P[2], sl = P[3], ml = P[4], mask_bytes = P[9];
  const int form = P[5], c = P[7];
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, first * sl), dst = u.get<T>(first * sl);
  LocalTensor<uint8_t> mask = in<uint8_t>(u, 2, mask_bytes);
  const uint32_t need = npukb_lib::DropOutRowBytes(sl, sizeof(T));
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? need - 32 : need);
  DropOutShapeInfo info;
  info.firstAxis = first;
  info.srcLastAxis = sl;
  info.maskLastAxis = ml;
  LocalTensor<T> d = c == 2 ? src : dst;   // in place: allowed
  if (form == 0) DropOut<T, false, M>(d, src, mask, tmp, pf(8), info);
  else DropOut<T, true, M>(d, src, mask, pf(8), info);
  out(0, d, first * sl);
  out(1, mask, mask_bytes);
}
template <typename T> static void dropout_m() {
  switch (P[6]) {
    case 0: dropout<T, 0>(); break;
    case 1: dropout<T, 1>(); break;
    case 2: dropout<T, 2>(); break;
    case 3: dropout<T, 3>(); break;
    case 4: dropout<T, 4>(); break;
    default: dropout<T, 5>(); break;
  }
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    if (dt == 0) arange<float>();
    if (dt == 1) arange<half>();
    if (dt == 2) arange<int32_t>();
    if (dt == 3) arange<int16_t>();
  }
  if (api == 1) {
    const bool reuse = P[6] != 0;
    if (dt == 0) { if (reuse) select_u<float, true>(); else select_u<float, false>(); }
    else { if (reuse) select_u<half, true>(); else select_u<half, false>(); }
  }
  if (api == 2) { if (dt == 0) dropout_m<float>(); else dropout_m<half>(); }
}
void run_test() { run_params(body); }
"""

DT = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.int16}
MASK_T = {0: np.bool_, 1: np.int8, 2: np.uint8, 3: np.int16, 4: np.uint16, 5: np.int32, 6: np.uint32}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("index_filter"), sim_cache)


# ---- Arange -------------------------------------------------------------------------------------------

def arange_ref(dtype, first: float, diff: float, count: int) -> np.ndarray:
    """The page's three steps, each rounded to the element type."""
    f32 = np.float32
    integral = np.issubdtype(dtype, np.integer)
    if integral:
        return (np.int64(int(first)) + np.int64(int(diff)) * np.arange(count)).astype(dtype)
    t_first, t_diff = dtype(first), dtype(diff)
    v = np.zeros(count, dtype)
    for i in range(min(count, 8)):
        v[i] = dtype(f32(t_first) + f32(t_diff) * f32(i))
    for i in range(8, min(count, 64)):
        v[i] = dtype(f32(v[i % 8]) + f32(dtype(f32(t_diff) * f32(8 * (i // 8)))))
    for i in range(64, count):
        v[i] = dtype(f32(v[i % 64]) + f32(dtype(f32(t_diff) * f32(64 * (i // 64)))))
    return v


@pytest.mark.api("Arange", "GetArangeMaxMinTmpSize")
@pytest.mark.parametrize("dt,first,diff", [(0, 0.1, 0.3), (1, -3.5, 0.37), (2, -7.0, 3.0), (3, 100.0, 2.0),
                                           (0, 5.0, 0.0)])
@pytest.mark.parametrize("count", [5, 40, 300])
@pytest.mark.parametrize("form", [0, 1])
def test_arange(prog, dt, first, diff, count, form) -> None:
    d = prog.ok(params(0, dt, count, form, float(first), float(diff)), np.full(512, 9, DT[dt]))
    got = output(d, 0, DT[dt])
    np.testing.assert_array_equal(got[:count], arange_ref(DT[dt], first, diff, count))
    assert np.all(got[count:] == 9)


@pytest.mark.api("Arange")
@pytest.mark.parametrize("count,diff,needle", [(0, 1.0, "count 0 must be greater than 0"),
                                               (8, -1.0, "must be at least 0")])
def test_arange_constraints(prog, count, diff, needle) -> None:
    assert needle in prog.violation(params(0, 0, count, 0, 0.0, diff), np.zeros(512, np.float32))


@pytest.mark.api("Arange")
def test_arange_types_are_checked_at_compile_time(tmp_path) -> None:
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                        'void f() { LocalTensor<uint8_t> a; Arange<uint8_t>(a, 0, 1, 8); }\n', tmp_path)
    assert not comp.ok and "Arange: unsupported data type" in comp.stderr


# ---- Select -------------------------------------------------------------------------------------------

@pytest.mark.api("数据过滤/Select", "GetSelectMaxMinTmpSize")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("ut", sorted(MASK_T))
@pytest.mark.parametrize("form", [0, 1])
@pytest.mark.parametrize("reuse", [0, 1])
def test_select_bytes_mask(prog, dt, ut, form, reuse) -> None:
    first = 3
    sl = 32 // np.dtype(DT[dt]).itemsize * 2           # two blocks
    mu = np.dtype(MASK_T[ut]).itemsize
    ml = max(sl, 32 // mu) + (32 // mu if ut % 2 == 0 else 0)   # half the mask types: rows longer than the data's
    ml = -(-ml // 16) * 16
    rng = np.random.default_rng(dt * 100 + ut * 10 + form * 2 + reuse)
    src = rng.uniform(-9, 9, first * sl).astype(DT[dt])
    mask = (rng.random((first, ml)) < 0.5).astype(MASK_T[ut])
    if ut != 0:
        mask = mask * rng.integers(1, 3, (first, ml)).astype(MASK_T[ut])   # any nonzero selects
    d = prog.ok(params(1, dt, first, sl, ml, form, reuse, 0, 2.5, ut), src, np.zeros(first * sl + 32, DT[dt]),
                mask.ravel())
    m = mask[:, :sl].ravel() != 0
    scalar = DT[dt](2.5)
    want = np.where(m, scalar, src) if form == 0 else np.where(m, src, scalar)
    np.testing.assert_array_equal(output(d, 0, DT[dt]), want)
    got_mask = output(d, 1, MASK_T[ut])
    if reuse and ml != sl:      # gathered to [first, srcLastAxis] in place
        np.testing.assert_array_equal(got_mask[:first * sl], mask[:, :sl].ravel())
    else:
        np.testing.assert_array_equal(got_mask, mask.ravel())


@pytest.mark.api("数据过滤/Select")
@pytest.mark.parametrize("sl,ml,case,needle", [
    (8, 32, 0, "srcLastAxis 8 is not a whole number of 32-byte blocks"),
    (16, 8, 0, "maskLastAxis 8 must be"),
    (16, 32, 1, "smaller than"),
    (16, 32, 2, "overlap"),
])
def test_select_constraints(prog, sl, ml, case, needle) -> None:
    line = prog.violation(params(1, 1, 2, sl, ml, 0, 1, case, 1.0, 2), np.zeros(64, np.float16),
                          np.zeros(96, np.float16), np.zeros(64, np.uint8))
    assert needle in line


@pytest.mark.api("数据过滤/Select")
def test_select_dst_may_be_the_source(prog) -> None:
    src = np.arange(32, dtype=np.float32)
    mask = np.tile(np.array([1, 0], np.uint8), 16)
    d = prog.ok(params(1, 0, 1, 32, 32, 0, 1, 3, -1.0, 2), src, np.zeros(64, np.float32), mask)
    np.testing.assert_array_equal(output(d, 0, np.float32), np.where(mask != 0, -1.0, src).astype(np.float32))


# ---- DropOut ------------------------------------------------------------------------------------------

def dropout_ref(src: np.ndarray, keep: np.ndarray, kp: float, dtype) -> np.ndarray:
    scale = dtype(np.float32(1) / np.float32(kp))
    return np.where(keep, (src.astype(np.float32) * np.float32(scale)).astype(dtype), dtype(0)).astype(dtype)


def bits_of(mask_bytes: np.ndarray) -> np.ndarray:
    """Bit i of the mask bytes, least significant bit first (the Select instruction's order)."""
    return np.unpackbits(mask_bytes, bitorder="little").astype(bool)


DROP_CASES = [
    # name, first, srcLast, maskLast, mode given
    ("byte", 3, 32, 32, 0), ("byte_dirty", 3, 32, 64, 0), ("bit", 3, 64, 8, 0), ("bit_dirty", 2, 64, 32, 0),
    ("byte_given", 2, 16, 16, 2), ("byte_dirty_given", 2, 16, 32, 1), ("bit_given", 2, 128, 16, 3),
    ("bit_dirty_given", 2, 128, 32, 4),
]


@pytest.mark.api("DropOut", "GetDropOutMaxMinTmpSize")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("form", [0, 1])
@pytest.mark.parametrize("kp", [0.5, 0.7])
@pytest.mark.parametrize("case", DROP_CASES, ids=[c[0] for c in DROP_CASES])
def test_dropout_modes(prog, dt, form, kp, case) -> None:
    name, first, sl, ml, mode = case
    rng = np.random.default_rng(len(name) + sl)
    src = rng.uniform(-4, 4, (first, sl)).astype(DT[dt])
    bit = "bit" in name
    dirty = "dirty" in name
    nbytes = first * ml if (dirty or not bit) else first * sl // 8
    mask = rng.integers(0, 256 if bit else 2, nbytes).astype(np.uint8)
    d = prog.ok(params(2, dt, first, sl, ml, form, mode, 0, kp, nbytes), src.ravel(), mask)
    if not bit:
        keep = mask.reshape(first, ml)[:, :sl] != 0
        valid = mask.reshape(first, ml)[:, :sl]
    elif dirty:
        valid = mask.reshape(first, ml)[:, :sl // 8]
        keep = np.stack([bits_of(valid[r]) for r in range(first)])
    else:
        keep = bits_of(mask).reshape(first, sl)
        valid = None
    np.testing.assert_array_equal(output(d, 0, DT[dt]).reshape(first, sl), dropout_ref(src, keep, kp, DT[dt]))
    got_mask = output(d, 1, np.uint8)
    if dirty:       # the GatherMask step leaves the valid mask bytes compacted at the front
        np.testing.assert_array_equal(got_mask[:valid.size], valid.ravel())
    else:
        np.testing.assert_array_equal(got_mask, mask)


@pytest.mark.api("DropOut")
def test_dropout_documented_example(prog) -> None:
    """The page's bit-mode example, read with the Select instruction's bit order: the mask byte 169 keeps
    elements 0, 3, 5 and 7 (the page prints the byte most-significant bit first)."""
    src = np.arange(1, 33, dtype=np.float32)
    mask = np.array([169, 0, 255, 1], np.uint8)
    d = prog.ok(params(2, 0, 1, 32, 4, 0, 0, 0, 0.5, 4), src, mask)
    keep = bits_of(mask)
    np.testing.assert_array_equal(output(d, 0, np.float32), np.where(keep, src * 2, 0).astype(np.float32))


@pytest.mark.api("DropOut")
@pytest.mark.parametrize("first,sl,ml,mode,kp,case,needle", [
    (2, 16, 16, 0, 1.0, 0, "keepProb"),
    (2, 16, 16, 0, 0.0, 0, "keepProb"),
    (0, 16, 16, 0, 0.5, 0, "greater than 0"),
    (2, 16, 16, 5, 0.5, 0, "dropOutMode 5"),
    (2, 16, 16, 3, 0.5, 0, "maskLastAxis * 8 = srcLastAxis"),
    (2, 16, 16, 0, 0.5, 1, "smaller than"),
    (2, 23, 32, 1, 0.5, 0, "an even number"),      # byte mode, dirty: 23 valid mask bytes per row
    (2, 8, 32, 4, 0.5, 0, "an even number"),       # bit mode, dirty: 1 valid mask byte per row
])
def test_dropout_constraints(prog, first, sl, ml, mode, kp, case, needle) -> None:
    p = params(2, 0, first, sl, ml, 0, mode, case, kp, 128)
    assert needle in prog.violation(p, np.zeros(128, np.float32), np.zeros(128, np.uint8))
