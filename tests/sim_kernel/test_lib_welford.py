"""WelfordUpdate and WelfordFinalize from their API pages: the running update of one block (float and
half input, the isInplace config for the columns beyond abComputeLength), the final fold with counts,
with head / tail counts and without a tail, and the pages' use of the pair: a long reduce axis split into
blocks (with a partial last block) gives numpy's mean and variance of the whole row. Constraints as
violations: rnLength, abLength alignment, abComputeLength, head + tail lengths, tailCount 0 with a tail
length, overlaps (operands and sharedTmpBuffer), a work buffer below the minimum."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params

BODY = r"""
template <typename T, const WelfordUpdateConfig& C> static void upd() {
  const uint32_t ab = P[3];
  const int mode = P[6];
  Ub u;
  const uint32_t minb = npukb_lib::WelfordUpdateBytes(ab, sizeof(T));
  LocalTensor<T> x = in<T>(u, 1, ab);
  LocalTensor<float> mi = in<float>(u, 2, ab), vi = in<float>(u, 3, ab);
  LocalTensor<uint8_t> big = u.get<uint8_t>(minb + 32 * ab);
  LocalTensor<float> mo = mode == 5 ? mi : in<float>(u, 4, ab), vo = in<float>(u, 5, ab);
  if (mode == 7) mo = big[minb - 32].template ReinterpretCast<float>();
  WelfordUpdateParam para{static_cast<uint32_t>(P[2]), ab, static_cast<uint32_t>(P[4]), pf(5)};
  if (mode == 1) {
    WelfordUpdate<T, float, false, C>(mo, vo, mi, vi, x, para);
  } else {
    LocalTensor<uint8_t> tmp = mode == 2 ? u.get<uint8_t>(minb - 32) : big;
    WelfordUpdate<T, float, false, C>(mo, vo, mi, vi, x, tmp, para);
  }
  out(0, mo, ab); out(1, vo, ab);
}

static void fin() {
  const uint32_t ab = P[3];
  const int mode = P[10];
  Ub u;
  const uint32_t minb = npukb_lib::WelfordFinalizeBytes(ab);
  LocalTensor<float> mi = in<float>(u, 1, ab), vi = in<float>(u, 2, ab);
  LocalTensor<int32_t> counts = in<int32_t>(u, 3, ab);
  LocalTensor<float> mo = mode == 5 ? mi : u.get<float>(8), vo = u.get<float>(8);
  WelfordFinalizePara para{static_cast<uint32_t>(P[2]), ab, static_cast<uint32_t>(P[4]), static_cast<uint32_t>(P[5]),
                           static_cast<uint32_t>(P[6]), static_cast<uint32_t>(P[7]), pf(8), pf(9), 0.0f};
  if (mode == 2) {
    WelfordFinalize(mo, vo, mi, vi, para);
  } else if (mode == 3) {
    WelfordFinalize(mo, vo, mi, vi, counts, para);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 4 ? minb - 32 : minb);
    if (mode == 1) WelfordFinalize<false>(mo, vo, mi, vi, counts, tmp, para);
    else WelfordFinalize<false>(mo, vo, mi, vi, tmp, para);
  }
  out(0, mo, 1); out(1, vo, 1);
}

// A row of R elements in blocks of ab (the last one with lastK valid columns): WelfordUpdate per block
// (ping-pong buffers, isInplace so that a partial block carries the other columns over), then
// WelfordFinalize with head / tail counts or with a counts tensor.
template <typename T> static void chain() {
  const uint32_t R = P[2], ab = P[3], blocks = P[4], last = P[5];
  const int with_counts = P[6];
  Ub u;
  LocalTensor<T> x = in<T>(u, 1, blocks * ab);
  LocalTensor<float> m[2] = {u.get<float>(ab), u.get<float>(ab)}, v[2] = {u.get<float>(ab), u.get<float>(ab)};
  Duplicate(m[0], 0.0f, ab);
  Duplicate(v[0], 0.0f, ab);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(npukb_lib::WelfordUpdateBytes(ab, sizeof(T)));
  for (uint32_t i = 0; i < blocks; ++i) {
    WelfordUpdateParam para{1, ab, i + 1 == blocks ? last : ab, 1.0f / static_cast<float>(i + 1)};
    const uint32_t s = i % 2, t = (i + 1) % 2;
    WelfordUpdate<T, float, false, WELFORD_UPDATE_ENABLE_INPLACE_CFG>(m[t], v[t], m[s], v[s], x[i * ab], tmp, para);
  }
  const uint32_t f = blocks % 2;
  LocalTensor<float> mo = u.get<float>(8), vo = u.get<float>(8);
  LocalTensor<uint8_t> tmp2 = u.get<uint8_t>(npukb_lib::WelfordFinalizeBytes(ab));
  const bool tail = last != ab;
  WelfordFinalizePara fp{blocks, ab, blocks, last, tail ? blocks - 1 : 0, ab - last, 1.0f / ab, 1.0f / R, 0.0f};
  if (with_counts) {
    LocalTensor<int32_t> counts = u.get<int32_t>(ab);
    for (uint32_t j = 0; j < ab; ++j) counts.SetValue(j, static_cast<int32_t>(j < last ? blocks : blocks - 1));
    WelfordFinalize<false>(mo, vo, m[f], v[f], counts, tmp2, fp);
  } else {
    WelfordFinalize<false>(mo, vo, m[f], v[f], tmp2, fp);
  }
  out(0, mo, 1); out(1, vo, 1);
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    if (dt == 0) upd<float, WFUPDATE_DEFAULT_CFG>();
    if (dt == 1) upd<half, WFUPDATE_DEFAULT_CFG>();
    if (dt == 2) upd<float, WELFORD_UPDATE_ENABLE_INPLACE_CFG>();
  }
  if (api == 1) fin();
  if (api == 2) { if (dt == 0) chain<float>(); else chain<half>(); }
}
void run_test() { run_params(body); }
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("welford"), sim_cache)


# ---- WelfordUpdate ----------------------------------------------------------------------------------


@pytest.mark.api("WelfordUpdate", "WelfordUpdate Tiling")
@pytest.mark.parametrize("code,xdt,k,mode", [(0, np.float32, 40, 0), (1, np.float16, 64, 1), (2, np.float32, 35, 0)])
def test_welford_update_one_block(prog, code, xdt, k, mode) -> None:
    rng = np.random.default_rng(k)
    ab = 64
    x = rng.standard_normal(ab).astype(xdt)
    mi = rng.standard_normal(ab).astype(np.float32)
    vi = rng.uniform(0, 2, ab).astype(np.float32)
    sentinel_m = np.full(ab, -7.0, np.float32)
    sentinel_v = np.full(ab, -9.0, np.float32)
    n_rec = 1.0 / 3
    d = prog.ok(params(0, code, 1, ab, k, n_rec, mode), x, mi, vi, sentinel_m, sentinel_v)
    xf = x.astype(np.float32)
    mo = mi + (xf - mi) * np.float32(n_rec)
    vo = vi + (xf - mi) * (xf - mo)
    got_m, got_v = output(d, 0, np.float32), output(d, 1, np.float32)
    np.testing.assert_allclose(got_m[:k], mo[:k], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got_v[:k], vo[:k], rtol=1e-5, atol=1e-6)
    if code == 2:   # isInplace: the columns beyond abComputeLength take the inputs
        np.testing.assert_array_equal(got_m[k:], mi[k:])
        np.testing.assert_array_equal(got_v[k:], vi[k:])
    else:           # otherwise they are not written
        np.testing.assert_array_equal(got_m[k:], sentinel_m[k:])
        np.testing.assert_array_equal(got_v[k:], sentinel_v[k:])


@pytest.mark.api("WelfordUpdate")
@pytest.mark.parametrize("p,expected", [
    (params(0, 0, 2, 64, 64, 0.5, 0), "para.rnLength is 2; only 1 is supported"),
    (params(0, 0, 1, 60, 60, 0.5, 0), "para.abLength 60 is not a positive multiple of 8"),
    (params(0, 1, 1, 40, 40, 0.5, 0), "para.abLength 40 is not a positive multiple of 16"),
    (params(0, 0, 1, 64, 0, 0.5, 0), "para.abComputeLength 0 is outside (0, abLength = 64]"),
    (params(0, 0, 1, 64, 64, 0.5, 2), "WelfordUpdate: sharedTmpBuffer of 480 bytes is smaller than the 512 bytes"),
    (params(0, 0, 1, 64, 64, 0.5, 5), "outputMean and inputMean overlap"),
    (params(0, 0, 1, 64, 64, 0.5, 7), "sharedTmpBuffer and outputMean overlap"),
])
def test_welford_update_constraints(prog, p, expected) -> None:
    ones = np.ones(64, np.float32)
    line = prog.violation(p, ones, ones, ones, ones, ones)
    assert expected in line, line


# ---- WelfordFinalize --------------------------------------------------------------------------------


def _finalize_ref(mi, vi, w, r_rec):
    mean = r_rec * np.sum(w * mi)
    return mean, r_rec * (np.sum(vi) + np.sum(w * (mi - mean) ** 2))


@pytest.mark.api("WelfordFinalize", "WelfordFinalize Tiling")
@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_welford_finalize_folds_the_partial_results(prog, mode) -> None:
    rng = np.random.default_rng(mode)
    ab, rn = 32, 5
    mi = rng.standard_normal(ab).astype(np.float32)
    vi = rng.uniform(0, 4, ab).astype(np.float32)
    with_counts = mode in (1, 3)
    if with_counts:     # a counts tensor: any per-column counts
        counts = rng.integers(1, 9, ab).astype(np.int32)
        r = float(counts.sum())
        p = params(1, 0, rn, ab, 0, 0, 0, 0, 1.0 / ab, 1.0 / r, mode)
        mean, var = _finalize_ref(mi, vi, counts.astype(np.float32), np.float32(1.0 / r))
    else:               # headCount for the first 20 columns, tailCount for the other 12
        counts = np.zeros(ab, np.int32)
        r = 20 * rn + 12 * (rn - 1)
        p = params(1, 0, rn, ab, rn, 20, rn - 1, 12, 1.0 / ab, 1.0 / r, mode)
        w = np.array([rn] * 20 + [rn - 1] * 12, np.float32)
        mean, var = _finalize_ref(mi, vi, w, np.float32(1.0 / r))
    d = prog.ok(p, mi, vi, counts)
    np.testing.assert_allclose(output(d, 0, np.float32)[0], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output(d, 1, np.float32)[0], var, rtol=1e-5)


@pytest.mark.api("WelfordFinalize")
def test_welford_finalize_without_a_tail_uses_rn_and_ab(prog) -> None:
    rng = np.random.default_rng(11)
    ab, rn = 16, 3
    mi = rng.standard_normal(ab).astype(np.float32)
    vi = rng.uniform(0, 4, ab).astype(np.float32)
    # headCount left 0: without a tail the page's formula uses abRec and rnLength
    d = prog.ok(params(1, 0, rn, ab, 0, ab, 0, 0, 1.0 / ab, 1.0 / (rn * ab), 0), mi, vi, np.zeros(ab, np.int32))
    mean = np.float32(1.0 / ab) * mi.sum()
    var = np.float32(1.0 / (rn * ab)) * (vi.sum() + rn * ((mi - mean) ** 2).sum())
    np.testing.assert_allclose(output(d, 0, np.float32)[0], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output(d, 1, np.float32)[0], var, rtol=1e-5)


@pytest.mark.api("WelfordFinalize")
@pytest.mark.parametrize("p,expected", [
    (params(1, 0, 2, 12, 2, 12, 0, 0, 0.1, 0.1, 0), "para.abLength 12 is not a positive multiple of 8"),
    (params(1, 0, 2, 16, 2, 10, 1, 4, 0.1, 0.1, 0), "headCountLength + para.tailCountLength (10 + 4) differs"),
    (params(1, 0, 2, 16, 2, 10, 0, 6, 0.1, 0.1, 0), "tailCountLength must be 0 when para.tailCount is 0"),
    (params(1, 0, 2, 16, 2, 16, 0, 0, 0.1, 0.1, 4), "WelfordFinalize: sharedTmpBuffer of"),
    (params(1, 0, 2, 16, 2, 16, 0, 0, 0.1, 0.1, 5), "outputMean and inputMean overlap"),
])
def test_welford_finalize_constraints(prog, p, expected) -> None:
    ones = np.ones(16, np.float32)
    line = prog.violation(p, ones, ones, np.ones(16, np.int32))
    assert expected in line, line


# ---- the pair: a split reduce axis ------------------------------------------------------------------


@pytest.mark.api("WelfordUpdate", "WelfordFinalize")
@pytest.mark.parametrize("xdt,blocks,last,with_counts", [(np.float32, 4, 64, 0), (np.float32, 4, 40, 0),
                                                         (np.float16, 3, 24, 1), (np.float32, 5, 64, 1)])
def test_welford_over_blocks_gives_the_whole_rows_statistics(prog, xdt, blocks, last, with_counts) -> None:
    ab = 64
    r = (blocks - 1) * ab + last
    rng = np.random.default_rng(r)
    row = (rng.standard_normal(blocks * ab) * 3 + 2).astype(xdt)
    d = prog.ok(params(2, int(xdt == np.float16), r, ab, blocks, last, with_counts), row)
    data = row.astype(np.float64)[:r]
    np.testing.assert_allclose(output(d, 0, np.float32)[0], data.mean(), rtol=1e-5)
    np.testing.assert_allclose(output(d, 1, np.float32)[0], data.var(), rtol=1e-4)
