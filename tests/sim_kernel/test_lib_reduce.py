"""The reduction library against numpy, from the API pages: Sum and Mean over the last axis (the pairwise
order the pages describe: within each 256-byte repeat, then across repeats; Mean's accType float for a
half source), ReduceXorSum (int16_t, saturated), and the pattern reductions ReduceSum / ReduceMean /
ReduceMax / ReduceMin / ReduceAny / ReduceAll / ReduceProd with the AR and RA patterns in every documented
data type, beside the basic ReduceSum of the same name. Constraints (inner by the page's formula,
srcInnerPad = true, 0 / 1 sources of Any / All, the temporary buffer's size and overlap, no dst / src
overlap) are violations; unsupported types and patterns fail to compile."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params
from simkit import syntax_check

BODY = r"""
// Sum / Mean: P[2] outter, P[3] inner, P[4] n, P[5] form, P[6] case.
template <typename T, typename A> static void sum_mean() {
  const uint32_t outter = P[2], inner = P[3], n = P[4];
  const int form = P[5], c = P[6];
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, outter * inner);
  LocalTensor<T> dst = in<T>(u, 2, 64);
  const bool mean = form >= 2;
  const uint32_t need = mean ? npukb_lib::MeanTmpBytes(n, sizeof(T), sizeof(A)) : npukb_lib::SumTmpBytes(n, sizeof(T));
  LocalTensor<uint8_t> tmp = c == 3 ? src.template ReinterpretCast<uint8_t>()
                                    : u.get<uint8_t>(c == 1 ? need - 32 : need);
  LocalTensor<T> d = c == 2 ? src : dst;
  const bool fw = form % 2 == 1;
  if (!mean) {
    SumParams p{outter, inner, n};
    if (fw) Sum(d, src, p); else Sum(d, src, tmp, p);
  } else {
    MeanParams p{outter, inner, n};
    if (fw) Mean<T, A>(d, src, p); else Mean<T, A>(d, src, tmp, p);
  }
  out(0, dst, 64);
}

// ReduceXorSum: P[2] n, P[3] form, P[4] reuse, P[5] case.
template <bool reuse> static void xor_sum() {
  const uint32_t n = P[2];
  const int form = P[3], c = P[5];
  Ub u;
  LocalTensor<int16_t> a = in<int16_t>(u, 1, n), b = in<int16_t>(u, 2, n);
  LocalTensor<int16_t> dst = in<int16_t>(u, 3, 16);
  const uint32_t need = npukb_lib::ReduceXorSumTmpBytes(n, reuse);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? need - 32 : need);
  LocalTensor<int16_t> d = c == 3 ? a : dst;
  const uint32_t cal = c == 2 ? n + 16 : n;
  if (form == 0) ReduceXorSum<int16_t, reuse>(d, a, b, tmp, cal); else ReduceXorSum<int16_t, reuse>(d, a, b, cal);
  out(0, dst, 16);
}

// The pattern reductions: P[2] op, P[3] pattern, P[4] d0, P[5] d1, P[6] form, P[7] reuse, P[8] case.
template <typename T, class Pat, bool reuse> static void pattern_op(const LocalTensor<T>& d, const LocalTensor<T>& s,
                                                                   const LocalTensor<uint8_t>& t, bool fw, bool pad) {
  const uint32_t shape[2] = {(uint32_t)P[4], (uint32_t)P[5]};
  constexpr bool f = std::is_same_v<T, float>, h = std::is_same_v<T, half>, b = std::is_same_v<T, uint8_t>;
#define PAT_CALL(NAME) if (fw) NAME<T, Pat, reuse>(d, s, shape, pad); else NAME<T, Pat, reuse>(d, s, t, shape, pad)
  switch (P[2]) {
    case 0: if constexpr (f) { PAT_CALL(ReduceSum); } break;
    case 1: if constexpr (f) { PAT_CALL(ReduceMean); } break;
    case 2: if constexpr (f || h) { PAT_CALL(ReduceMax); } break;
    case 3: if constexpr (f || h) { PAT_CALL(ReduceMin); } break;
    case 4: if constexpr (f || b) { PAT_CALL(ReduceAny); } break;
    case 5: if constexpr (f || b) { PAT_CALL(ReduceAll); } break;
    case 6: if constexpr (f) { PAT_CALL(ReduceProd); } break;
  }
}
template <typename T> static void pattern() {
  const uint32_t d0 = P[4], d1 = P[5];
  const bool ar = P[3] == 0, fw = P[6] != 0, reuse = P[7] != 0;
  const int c = P[8];
  const uint32_t stride = npukb_lib::ReduceRowStride(d1, sizeof(T));
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, d0 * stride);
  LocalTensor<T> dst = in<T>(u, 2, 256);
  const uint32_t need = npukb_lib::ReducePatternTmpBytes(d0, d1, sizeof(T), ar, reuse);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? need - 32 : need);
  LocalTensor<T> d = c == 3 ? src : dst;
  const bool pad = c != 2;
  if (ar) {
    if (reuse) pattern_op<T, Pattern::Reduce::AR, true>(d, src, tmp, fw, pad);
    else pattern_op<T, Pattern::Reduce::AR, false>(d, src, tmp, fw, pad);
  } else {
    if (reuse) pattern_op<T, Pattern::Reduce::RA, true>(d, src, tmp, fw, pad);
    else pattern_op<T, Pattern::Reduce::RA, false>(d, src, tmp, fw, pad);
  }
  out(0, dst, 256);
}

// The basic ReduceSum (count form) in the same translation unit.
static void basic_sum() {
  Ub u;
  LocalTensor<float> src = in<float>(u, 1, 256), dst = u.get<float>(8), work = u.get<float>(64);
  ReduceSum<float>(dst, src, work, 200);
  out(0, dst, 8);
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    const int form = P[5];
    if (dt == 0) sum_mean<float, float>();
    else if (form >= 4) sum_mean<half, float>();
    else sum_mean<half, half>();
  }
  if (api == 1) { if (P[4]) xor_sum<true>(); else xor_sum<false>(); }
  if (api == 2) {
    if (dt == 0) pattern<float>();
    if (dt == 1) pattern<half>();
    if (dt == 2) pattern<uint8_t>();
  }
  if (api == 3) basic_sum();
}
void run_test() { run_params(body); }
"""

DT = {0: np.float32, 1: np.float16, 2: np.uint8}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("reduce"), sim_cache)


def pairwise(v: list, identity, op):
    if not v:
        return identity
    p = 1
    while p < len(v):
        p *= 2
    v = v + [identity] * (p - len(v))
    while len(v) > 1:
        v = [op(v[2 * i], v[2 * i + 1]) for i in range(len(v) // 2)]
    return v[0]


def repeat_tree(x, per: int, identity, op):
    parts = [pairwise(list(x[s:s + per]), identity, op) for s in range(0, len(x), per)]
    return pairwise(parts, identity, op)


def add_in(dtype):
    """a + b rounded to dtype (the vector unit rounds each step to the element type)."""
    return lambda a, b: dtype(np.float32(a) + np.float32(b))


def mul_in(dtype):
    return lambda a, b: dtype(np.float32(a) * np.float32(b))


# ---- Sum / Mean ---------------------------------------------------------------------------------------

SUM_SHAPES = [(1, 8), (3, 10), (2, 70), (4, 130)]    # (outter, n)


@pytest.mark.api("Sum", "Mean", "GetSumMaxMinTmpSize", "GetMeanMaxMinTmpSize")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("form", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("shape", SUM_SHAPES)
def test_sum_mean_pairwise(prog, dt, form, shape) -> None:
    if dt == 0 and form >= 4:
        pytest.skip("accType float differs from T for half sources only")
    outter, n = shape
    inner = -(-n * np.dtype(DT[dt]).itemsize // 32) * 32 // np.dtype(DT[dt]).itemsize
    rng = np.random.default_rng(outter * 100 + n + form)
    src = rng.uniform(-4, 4, (outter, inner)).astype(DT[dt])
    src[:, n:] = 1000   # padding: never read
    d = prog.ok(params(0, dt, outter, inner, n, form, 0), src.ravel(), np.full(64, 7, DT[dt]))
    got = output(d, 0, DT[dt])
    acc = np.float32 if form >= 4 or dt == 0 else np.float16
    want = []
    for r in range(outter):
        s = repeat_tree([acc(x) for x in src[r, :n]], 256 // np.dtype(acc).itemsize, acc(0), add_in(acc))
        want.append(DT[dt](np.float32(s) / np.float32(n)) if form >= 2 else DT[dt](s))
    np.testing.assert_array_equal(got[:outter], np.array(want, DT[dt]))
    assert np.all(got[outter:] == 7)


@pytest.mark.api("Sum", "Mean")
@pytest.mark.parametrize("form,case,inner,needle", [
    (0, 1, 16, "smaller than"), (2, 1, 16, "smaller than"), (0, 2, 16, "overlap"), (2, 3, 16, "overlap"),
    (0, 0, 24, "is not n = 10 rounded up to 32 bytes"), (3, 0, 16, None)])
def test_sum_mean_constraints(prog, form, case, inner, needle) -> None:
    p = params(0, 0, 2, inner, 10, form, case)
    if needle is None:      # the framework form needs no buffer of the caller
        prog.ok(p, np.ones(2 * inner, np.float32), np.zeros(64, np.float32))
        return
    assert needle in prog.violation(p, np.ones(2 * inner, np.float32), np.zeros(64, np.float32))


# ---- ReduceXorSum -------------------------------------------------------------------------------------

@pytest.mark.api("ReduceXorSum", "GetReduceXorSumMaxMinTmpSize")
@pytest.mark.parametrize("form", [0, 1])
@pytest.mark.parametrize("reuse", [0, 1])
@pytest.mark.parametrize("n,lo,hi", [(32, 0, 2), (100, -300, 300), (256, 20000, 32767), (256, -32768, -20000)])
def test_reduce_xor_sum_saturates(prog, form, reuse, n, lo, hi) -> None:
    rng = np.random.default_rng(n + abs(lo))
    a = rng.integers(lo, hi, n).astype(np.int16)
    b = rng.integers(lo, hi, n).astype(np.int16)
    d = prog.ok(params(1, 0, n, form, reuse, 0), a, b, np.full(16, 5, np.int16))
    total = int(np.sum((a ^ b).astype(np.int64)))
    got = output(d, 0, np.int16)
    assert got[0] == max(-32768, min(32767, total))
    assert np.all(got[1:] == 5)


@pytest.mark.api("ReduceXorSum")
@pytest.mark.parametrize("case,needle", [(1, "smaller than"), (2, "calCount 48 exceeds"), (3, "overlap")])
def test_reduce_xor_sum_constraints(prog, case, needle) -> None:
    line = prog.violation(params(1, 0, 32, 0, 0, case), np.ones(32, np.int16), np.ones(32, np.int16),
                          np.zeros(16, np.int16))
    assert needle in line


# ---- the pattern reductions ---------------------------------------------------------------------------

OPS = {0: "ReduceSum", 1: "ReduceMean", 2: "ReduceMax", 3: "ReduceMin", 4: "ReduceAny", 5: "ReduceAll", 6: "ReduceProd"}
OP_TYPES = {0: [0], 1: [0], 2: [0, 1], 3: [0, 1], 4: [0, 2], 5: [0, 2], 6: [0]}
CASES = [(op, dt) for op, dts in OP_TYPES.items() for dt in dts]


def pattern_ref(op: int, x: np.ndarray, ar: bool, dtype):
    d0, d1 = x.shape
    outs = []
    for o in range(d0 if ar else d1):
        v = list(x[o, :] if ar else x[:, o])
        per = 256 // np.dtype(dtype).itemsize if ar else 1
        if op in (0, 1):
            r = repeat_tree(v, per, dtype(0), add_in(dtype))
            if op == 1:
                r = dtype(np.float32(r) / np.float32(len(v)))
        elif op == 6:
            r = repeat_tree(v, per, dtype(1), mul_in(dtype))
        elif op in (2, 4):
            r = max(v)
        else:
            r = min(v)
        outs.append(r)
    return np.array(outs, dtype)


def _pattern_src(op: int, dt: int, d0: int, d1: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if op in (4, 5):
        x = rng.integers(0, 2, (d0, d1))
        if op == 5:
            x = np.where(rng.random((d0, d1)) < 0.9, 1, x)   # some all-ones rows / columns
    elif op == 6:
        x = rng.uniform(0.8, 1.25, (d0, d1))
    else:
        x = rng.uniform(-10, 10, (d0, d1))
    x = x.astype(DT[dt])
    stride = -(-d1 * np.dtype(DT[dt]).itemsize // 32) * 32 // np.dtype(DT[dt]).itemsize
    mem = np.full((d0, stride), 77, DT[dt])      # the row padding is never read
    mem[:, :d1] = x
    return x, mem


@pytest.mark.api("ReduceSum接口/ReduceSum", "ReduceMean", "ReduceMax接口/ReduceMax", "ReduceMin接口/ReduceMin",
                 "ReduceAny", "ReduceAll", "ReduceProd", "GetReduceSumMaxMinTmpSize", "GetReduceMeanMaxMinTmpSize",
                 "GetReduceMaxMaxMinTmpSize",
                 "GetReduceMinMaxMinTmpSize", "GetReduceAnyMaxMinTmpSize", "GetReduceAllMaxMinTmpSize",
                 "GetReduceProdMaxMinTmpSize")
@pytest.mark.parametrize("op,dt", CASES)
@pytest.mark.parametrize("ar", [True, False])
@pytest.mark.parametrize("shape,form,reuse", [((2, 8), 0, 0), ((5, 37), 1, 0), ((3, 200), 0, 1), ((70, 3), 1, 1)])
def test_pattern_reductions(prog, op, dt, ar, shape, form, reuse) -> None:
    d0, d1 = shape
    x, mem = _pattern_src(op, dt, d0, d1, op * 10 + d0)
    d = prog.ok(params(2, dt, op, 0 if ar else 1, d0, d1, form, reuse, 0), mem.ravel(), np.full(256, 9, DT[dt]))
    got = output(d, 0, DT[dt])
    outs = d0 if ar else d1
    np.testing.assert_array_equal(got[:outs], pattern_ref(op, x, ar, DT[dt]))
    assert np.all(got[outs:] == 9)


def test_pattern_reduction_documented_examples(prog) -> None:
    """The pages' examples: shape (2, 8), AR."""
    x = np.array([[0, 4, 2, 0, -1, 2, -1, 7], [0, 1, -9, 2, 2, 2, 8, 3]], np.float32)
    want = {0: [13, 9], 1: [1.625, 1.125], 2: [7, 8], 3: [-1, -9]}
    for op, w in want.items():
        d = prog.ok(params(2, 0, op, 0, 2, 8, 0, 1, 0), x.ravel(), np.zeros(256, np.float32))
        np.testing.assert_array_equal(output(d, 0, np.float32)[:2], np.array(w, np.float32))
    p = np.array([[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 0.5, 4, 0.5, 0.5, 5, 6]], np.float32)
    d = prog.ok(params(2, 0, 6, 0, 2, 8, 0, 1, 0), p.ravel(), np.zeros(256, np.float32))
    np.testing.assert_array_equal(output(d, 0, np.float32)[:2], np.array([40320, 30], np.float32))


@pytest.mark.api("ReduceSum接口/ReduceSum", "ReduceAny")
@pytest.mark.parametrize("op,case,needle", [(0, 1, "smaller than"), (0, 2, "srcInnerPad = false"), (2, 3, "overlap"),
                                            (4, 0, "neither 0 nor 1")])
def test_pattern_reduction_constraints(prog, op, case, needle) -> None:
    x = np.full(16, 2.0, np.float32)
    line = prog.violation(params(2, 0, op, 0, 2, 8, 0, 0, case), x, np.zeros(256, np.float32))
    assert needle in line


@pytest.mark.api("归约计算/ReduceSum")
def test_basic_reduce_sum_coexists_with_the_pattern_form(prog) -> None:
    x = np.arange(256, dtype=np.float32)
    d = prog.ok(params(3, 0), x)
    assert output(d, 0, np.float32)[0] == np.float32(np.sum(x[:200]))


STATIC = {
    "sum_half_pattern": ("LocalTensor<half> a; LocalTensor<uint8_t> t; uint32_t s[2] = {1, 16};"
                         "ReduceSum<half, Pattern::Reduce::AR>(a, a, t, s, true);", "unsupported data type (float)"),
    "any_half": ("LocalTensor<half> a; uint32_t s[2] = {1, 16}; ReduceAny<half, Pattern::Reduce::RA>(a, a, s, true);",
                 "unsupported data type (uint8_t, float)"),
    "max_bad_pattern": ("LocalTensor<float> a; uint32_t s[2] = {1, 16}; ReduceMax<float, int>(a, a, s, true);",
                        "pattern must be"),
    "mean_acc_lower": ("LocalTensor<float> a; Mean<float, half>(a, a, MeanParams{1, 8, 8});", "accType"),
    "xor_int32": ("LocalTensor<int32_t> a; ReduceXorSum(a, a, a, 8u);", "unsupported data type (int16_t)"),
}


@pytest.mark.api("ReduceSum接口/ReduceSum", "ReduceAny", "ReduceMax接口/ReduceMax", "Mean", "ReduceXorSum")
@pytest.mark.parametrize("case", sorted(STATIC))
def test_reduce_compile_time_constraints(tmp_path, case) -> None:
    code, expected = STATIC[case]
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n', tmp_path)
    assert not comp.ok
    assert expected in comp.stderr, comp.stderr[-2000:]
