"""LayerNorm (both interface forms), LayerNormGrad and LayerNormGradBeta against numpy, from the API
pages' formulas: float and half, H padded to 32 bytes (statistics over the original H), the
framework-allocated temporary buffer, and the documented constraints as violations (a work buffer below
the minimum or below what the tiling was planned for, UB left for the framework buffer, forbidden
overlaps, unaligned H, an empty tiling, the data format) and as compile errors (dtypes, configs)."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params
from simkit import syntax_check

BODY = r"""
static constexpr LayerNormConfig CFG_NO_GAMMA_BETA = {true, true, false, true};
static constexpr LayerNormConfig CFG_NO_BETA = {true, false, false, true};

template <typename T> static void ln_bsh() {
  const uint32_t B = P[2], S = P[3], H = P[4], OH = P[5];
  const int mode = P[6];
  const float eps = pf(7);
  Ub u;
  const uint32_t n = B * S * H, rows = B * S;
  const uint32_t minb = npukb_lib::LayerNormRowBytes(H, sizeof(T), false);
  LayerNormTiling t;
  npukb_norm::FillLayerNorm(B, S, H, OH, mode == 3 ? 4 * minb : minb, sizeof(T), false, t);
  if (mode == 6) t = LayerNormTiling{};
  LocalTensor<T> x = in<T>(u, 1, n), g = in<T>(u, 2, H), b = in<T>(u, 3, H);
  LocalTensor<T> y = mode == 7 ? x : u.get<T>(n);
  LocalTensor<T> mean = mode == 5 ? x : u.get<T>(rows), var = u.get<T>(rows);
  if (mode == 1 || mode == 4) {
    if (mode == 4) u.get<uint8_t>(u.left() - 32);
    LayerNorm<T>(y, mean, var, x, g, b, static_cast<T>(eps), t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    LayerNorm<T>(y, mean, var, x, g, b, tmp, static_cast<T>(eps), t);
  }
  out(0, y, n); out(1, mean, rows); out(2, var, rows);
}

template <typename U, typename T, const LayerNormConfig& C> static void ln_ar() {
  const uint32_t A = P[2], R = P[3], RP = P[4];
  const int mode = P[5];
  const float eps = pf(6);
  Ub u;
  const uint32_t minb = npukb_lib::LayerNormRstdRowBytes(RP, sizeof(T));
  LayerNormSeparateTiling t;
  npukb_norm::FillLayerNormSeparate(P[7], RP, minb, sizeof(T), t);
  LocalTensor<T> x = in<T>(u, 1, A * RP);
  LocalTensor<U> g = in<U>(u, 2, RP), b = in<U>(u, 3, RP);
  LocalTensor<T> y = mode == 5 ? x : u.get<T>(A * RP);
  LocalTensor<float> mean = u.get<float>(A), rstd = u.get<float>(A);
  LayerNormPara para{A, R, RP};
  if (mode == 6) para = LayerNormPara(A, RP);   // the two-value form: R = the padded R
  if (mode == 1) {
    LayerNorm<U, T, false, C>(y, mean, rstd, x, g, b, eps, para, t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    LayerNorm<U, T, false, C>(y, mean, rstd, x, g, b, eps, tmp, para, t);
  }
  out(0, y, A * RP); out(1, mean, A); out(2, rstd, A);
}

template <typename T> static void ln_grad() {
  const uint32_t B = P[2], S = P[3], H = P[4], OH = P[5];
  const int mode = P[6];
  const float eps = pf(7);
  Ub u;
  const uint32_t n = B * S * H, rows = B * S;
  const uint32_t minb = npukb_lib::LayerNormGradRowBytes(H, sizeof(T), false);
  LayerNormGradTiling t;
  npukb_norm::FillLayerNormGrad(B, S, H, OH, minb / sizeof(T), sizeof(T), false, t);
  LocalTensor<T> dy = in<T>(u, 1, n), x = in<T>(u, 2, n), var = in<T>(u, 3, rows), mean = in<T>(u, 4, rows),
                 g = in<T>(u, 5, H);
  LocalTensor<T> pdx = mode == 7 ? dy : u.get<T>(n), res = mode == 7 ? x : u.get<T>(n);
  LayerNormGradShapeInfo si;
  if (mode == 5) si.dataFormat = DataFormat::NZ;
  if (mode == 1) {
    LayerNormGrad<T>(pdx, res, dy, x, var, mean, g, static_cast<T>(eps), t, si);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    LayerNormGrad<T>(pdx, res, dy, x, var, mean, g, tmp, static_cast<T>(eps), t, si);
  }
  out(0, pdx, n); out(1, res, n);
}

template <typename T> static void ln_grad_beta() {
  const uint32_t B = P[2], S = P[3], H = P[4], OH = P[5];
  const int mode = P[6];
  Ub u;
  const uint32_t n = B * S * H;
  const uint32_t minb = npukb_lib::LayerNormGradBetaFixedBytes(H) + npukb_lib::LayerNormGradBetaRowBytes(H, sizeof(T));
  LayerNormGradBetaTiling t;
  npukb_norm::FillLayerNormGradBeta(B, S, H, OH, minb / sizeof(T), sizeof(T), t);
  LocalTensor<T> res = in<T>(u, 1, n), dy = in<T>(u, 2, n);
  LocalTensor<T> pg = u.get<T>(H), pb = u.get<T>(H);
  if (mode == 1) {
    LayerNormGradBeta<T>(pg, pb, res, dy, t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    LayerNormGradBeta<T>(pg, pb, res, dy, tmp, t);
  }
  out(0, pg, H); out(1, pb, H);
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) { if (dt == 0) ln_bsh<float>(); else ln_bsh<half>(); }
  if (api == 1) {
    if (dt == 0) ln_ar<float, float, LNCFG_NORM>();
    if (dt == 1) ln_ar<half, half, LNCFG_NORM>();
    if (dt == 2) ln_ar<float, half, LNCFG_NORM>();
    if (dt == 3) ln_ar<float, float, CFG_NO_GAMMA_BETA>();
    if (dt == 4) ln_ar<half, half, CFG_NO_BETA>();
  }
  if (api == 2) { if (dt == 0) ln_grad<float>(); else ln_grad<half>(); }
  if (api == 3) { if (dt == 0) ln_grad_beta<float>(); else ln_grad_beta<half>(); }
}
void run_test() { run_params(body); }
"""

DT = {np.float32: 0, np.float16: 1}
TOL = {np.float32: dict(rtol=2e-5, atol=2e-5), np.float16: dict(rtol=4e-3, atol=4e-3)}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("layernorm"), sim_cache)


def _rows(rng, rows: int, h: int, valid: int, dtype) -> np.ndarray:
    x = (rng.standard_normal((rows, h)) * 2 + 0.5).astype(dtype)
    x[:, valid:] = 0   # the page: padding must be zeros
    return x


def _layernorm_ref(x, g, b, valid, eps):
    xf = x.astype(np.float32)[:, :valid]
    mean = xf.mean(axis=1)
    var = ((xf - mean[:, None]) ** 2).mean(axis=1)
    y = (x.astype(np.float32) - mean[:, None]) / np.sqrt(var[:, None] + eps)
    y = y * g.astype(np.float32) + b.astype(np.float32)
    return y, mean, var


# ---- LayerNorm [B, S, H] ----------------------------------------------------------------------------


@pytest.mark.api("LayerNorm", "LayerNorm Tiling")
@pytest.mark.parametrize("dtype,h,valid,mode", [(np.float32, 16, 13, 0), (np.float32, 24, 24, 1),
                                                (np.float16, 32, 27, 0), (np.float16, 16, 16, 7)])
def test_layernorm_bsh_mean_variance_and_output(prog, dtype, h, valid, mode) -> None:
    rng = np.random.default_rng(h + valid)
    b_, s_ = 2, 3
    x = _rows(rng, b_ * s_, h, valid, dtype)
    g = rng.uniform(0.5, 1.5, h).astype(dtype)
    b = rng.uniform(-1, 1, h).astype(dtype)
    d = prog.ok(params(0, DT[dtype], b_, s_, h, valid, mode, 1e-5), x, g, b)
    y, mean, var = _layernorm_ref(x, g, b, valid, 1e-5)
    got = output(d, 0, dtype).reshape(b_ * s_, h).astype(np.float32)
    np.testing.assert_allclose(got[:, :valid], y[:, :valid], **TOL[dtype])
    np.testing.assert_allclose(output(d, 1, dtype).astype(np.float32), mean, **TOL[dtype])
    np.testing.assert_allclose(output(d, 2, dtype).astype(np.float32), var, **TOL[dtype])


LN_VIOLATIONS = {
    "tmp_below_minimum": (params(0, 0, 2, 3, 16, 16, 2, 1e-5),
                          "LayerNorm: sharedTmpBuffer of 224 bytes is smaller than the 256 bytes"),
    "tmp_below_plan": (params(0, 0, 2, 3, 16, 16, 3, 1e-5), "was planned for"),
    "framework_no_ub_left": (params(0, 0, 2, 3, 16, 16, 4, 1e-5), "needs 256 bytes of unallocated UB"),
    "mean_overlaps_input": (params(0, 0, 2, 3, 16, 16, 5, 1e-5), "outputMean and inputX overlap"),
    "empty_tiling": (params(0, 0, 2, 3, 16, 16, 6, 1e-5), "the tiling has no shape"),
    "h_unaligned": (params(0, 0, 2, 3, 12, 12, 0, 1e-5), "H = 12 is not 32-byte aligned"),
}


@pytest.mark.api("LayerNorm")
@pytest.mark.parametrize("case", sorted(LN_VIOLATIONS))
def test_layernorm_bsh_constraints(prog, case) -> None:
    p, expected = LN_VIOLATIONS[case]
    h = int(p[4])
    x = np.ones((6, h), np.float32)
    line = prog.violation(p, x, np.ones(h, np.float32), np.zeros(h, np.float32))
    assert expected in line, line
    assert "prog.cpp:" in line, line


# ---- LayerNorm [A, R] -------------------------------------------------------------------------------


@pytest.mark.api("LayerNorm", "LayerNorm Tiling")
@pytest.mark.parametrize("code,tdt,udt,r,rp,mode", [
    (0, np.float32, np.float32, 13, 16, 0),   # float, padded R
    (1, np.float16, np.float16, 27, 32, 1),   # half, framework buffer
    (2, np.float16, np.float32, 32, 32, 0),   # half x with float gamma / beta
    (3, np.float32, np.float32, 16, 16, 0),   # isNoGamma + isNoBeta
    (4, np.float16, np.float16, 20, 32, 0),   # isNoBeta
    (0, np.float32, np.float32, 16, 16, 6),   # LayerNormPara(A, R) two-value form
])
def test_layernorm_ar_mean_rstd_and_output(prog, code, tdt, udt, r, rp, mode) -> None:
    rng = np.random.default_rng(code * 10 + r)
    a = 5
    x = _rows(rng, a, rp, r, tdt)
    g = rng.uniform(0.5, 1.5, rp).astype(udt)
    b = rng.uniform(-1, 1, rp).astype(udt)
    d = prog.ok(params(1, code, a, r, rp, mode, 1e-4, a), x, g, b)
    xf = x.astype(np.float32)[:, :r]
    mean = xf.mean(axis=1)
    rstd = 1 / np.sqrt(((xf - mean[:, None]) ** 2).mean(axis=1) + 1e-4)
    y = (x.astype(np.float32) - mean[:, None]) * rstd[:, None]
    if code != 3:
        y = y * g.astype(np.float32)
    if code not in (3, 4):
        y = y + b.astype(np.float32)
    got = output(d, 0, tdt).reshape(a, rp).astype(np.float32)
    np.testing.assert_allclose(got[:, :r], y[:, :r], **TOL[tdt])
    np.testing.assert_allclose(output(d, 1, np.float32), mean, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(output(d, 2, np.float32), rstd, rtol=1e-4)


AR_VIOLATIONS = {
    "tmp_below_minimum": (params(1, 0, 4, 16, 16, 2, 1e-5, 4), "LayerNorm: sharedTmpBuffer of"),
    "a_above_tiling": (params(1, 0, 4, 16, 16, 0, 1e-5, 2), "para.aLength 4 exceeds the A of the tiling (2)"),
    "output_overlaps_input": (params(1, 0, 4, 16, 16, 5, 1e-5, 4), "output and inputX overlap"),
    "r_above_padding": (params(1, 0, 4, 20, 16, 0, 1e-5, 4), "rLength 20 exceeds rLengthWithPadding 16"),
    "padding_unaligned": (params(1, 0, 4, 10, 12, 0, 1e-5, 4), "rLengthWithPadding 12 is not 32-byte aligned"),
}


@pytest.mark.api("LayerNorm")
@pytest.mark.parametrize("case", sorted(AR_VIOLATIONS))
def test_layernorm_ar_constraints(prog, case) -> None:
    p, expected = AR_VIOLATIONS[case]
    rp = int(p[4])
    line = prog.violation(p, np.ones((4, rp), np.float32), np.ones(rp, np.float32), np.zeros(rp, np.float32))
    assert expected in line, line


# ---- LayerNormGrad / LayerNormGradBeta --------------------------------------------------------------


def _grad_ref(dy, x, var, mean, g, valid, eps):
    """The page's formulas, reduced over the valid H."""
    dy, x, g = dy.astype(np.float32), x.astype(np.float32), g.astype(np.float32)
    var, mean = var.astype(np.float32)[:, None], mean.astype(np.float32)[:, None]
    x1 = dy * g
    x2 = x - mean
    pd_var = np.sum((-0.5 * x1 * x2 * np.power(var + eps, -1.5))[:, :valid], axis=1, keepdims=True)
    pd_mean = np.sum((-1.0 * x1 * np.power(var + eps, -0.5))[:, :valid], axis=1, keepdims=True) + \
        pd_var * (1.0 / valid) * np.sum((-2.0 * x2)[:, :valid], axis=1, keepdims=True)
    pd_x = x1 * np.power(var + eps, -0.5) + pd_var * (2.0 / valid) * x2 + pd_mean * (1.0 / valid)
    return pd_x, x2 * np.power(var + eps, -0.5)


@pytest.mark.api("LayerNormGrad", "LayerNormGrad Tiling")
@pytest.mark.parametrize("dtype,h,valid,mode", [(np.float32, 16, 13, 0), (np.float32, 8, 8, 7),
                                                (np.float16, 32, 30, 1)])
def test_layernorm_grad_formulas(prog, dtype, h, valid, mode) -> None:
    rng = np.random.default_rng(7 + h)
    rows = 6
    x = _rows(rng, rows, h, valid, dtype)
    dy = _rows(rng, rows, h, valid, dtype)
    g = rng.uniform(0.5, 1.5, h).astype(dtype)
    xf = x.astype(np.float32)[:, :valid]
    mean = xf.mean(axis=1).astype(dtype)
    var = xf.var(axis=1).astype(dtype)
    d = prog.ok(params(2, DT[dtype], 2, 3, h, valid, mode, 1e-5), dy, x, var, mean, g)
    pd_x, res = _grad_ref(dy, x, var, mean, g, valid, 1e-5)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-2, atol=1e-2)
    got_x = output(d, 0, dtype).reshape(rows, h).astype(np.float32)
    got_res = output(d, 1, dtype).reshape(rows, h).astype(np.float32)
    np.testing.assert_allclose(got_x[:, :valid], pd_x[:, :valid], **tol)
    np.testing.assert_allclose(got_res[:, :valid], res[:, :valid], **tol)


@pytest.mark.api("LayerNormGradBeta", "LayerNormGradBeta Tiling")
@pytest.mark.parametrize("dtype,mode", [(np.float32, 0), (np.float16, 1)])
def test_layernorm_grad_beta_sums_over_rows(prog, dtype, mode) -> None:
    rng = np.random.default_rng(3)
    rows, h = 6, 16
    res = rng.standard_normal((rows, h)).astype(dtype)
    dy = rng.standard_normal((rows, h)).astype(dtype)
    d = prog.ok(params(3, DT[dtype], 2, 3, h, h, mode), res, dy)
    tol = TOL[dtype] if dtype == np.float32 else dict(rtol=5e-3, atol=5e-3)
    np.testing.assert_allclose(output(d, 0, dtype).astype(np.float32),
                               (dy.astype(np.float32) * res.astype(np.float32)).sum(axis=0), **tol)
    np.testing.assert_allclose(output(d, 1, dtype).astype(np.float32), dy.astype(np.float32).sum(axis=0), **tol)


@pytest.mark.api("LayerNormGrad", "LayerNormGradBeta")
@pytest.mark.parametrize("p,expected", [
    (params(2, 0, 2, 3, 16, 16, 2, 1e-5), "LayerNormGrad: sharedTmpBuffer of"),
    (params(2, 0, 2, 3, 16, 16, 5, 1e-5), "LayerNormGrad: only the ND data format"),
    (params(2, 0, 2, 3, 16, 17, 0, 1e-5), "originalHLength 17 is outside (0, hLength = 16]"),
    (params(3, 0, 2, 3, 16, 16, 2), "LayerNormGradBeta: sharedTmpBuffer of"),
])
def test_layernorm_grad_constraints(prog, p, expected) -> None:
    ones = np.ones(96, np.float32)
    line = prog.violation(p, ones, ones, ones[:6], ones[:6], ones[:16])
    assert expected in line, line


# ---- compile-time constraints ----------------------------------------------------------------------

STATIC = {
    "dtype": ("LocalTensor<int32_t> a; LocalTensor<uint8_t> t; LayerNormTiling tl; "
              "LayerNorm<int32_t>(a, a, a, a, a, a, t, 1, tl);", "LayerNorm: unsupported data type"),
    "reuse_half": ("LocalTensor<half> a; LocalTensor<uint8_t> t; LayerNormTiling tl; "
                   "LayerNorm<half, true>(a, a, a, a, a, a, t, (half)1, tl);",
                   "isReuseSource is supported for float only"),
    "gamma_less_precise": ("LocalTensor<float> a; LocalTensor<half> h; LocalTensor<uint8_t> t; "
                           "LayerNormSeparateTiling s; LayerNormPara p{1, 8, 8}; "
                           "LayerNorm<half, float>(a, a, a, a, h, h, 1.0f, t, p, s);",
                           "at least as precise as inputX"),
    "variance_output": ("static constexpr LayerNormConfig V = {false, false, false, false}; LocalTensor<float> a; "
                        "LayerNormSeparateTiling s; LayerNormPara p{1, 8, 8}; "
                        "LayerNorm<float, float, false, V>(a, a, a, a, a, a, 1.0f, p, s);", "Ascend 950 only"),
    "grad_dtype": ("LocalTensor<int16_t> a; LayerNormGradTiling tl; "
                   "LayerNormGrad<int16_t>(a, a, a, a, a, a, a, (int16_t)1, tl);",
                   "LayerNormGrad: unsupported data type"),
}


@pytest.mark.api("LayerNorm", "LayerNormGrad")
@pytest.mark.parametrize("case", sorted(STATIC))
def test_layernorm_compile_time_constraints(tmp_path, case) -> None:
    code, expected = STATIC[case]
    src = '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n'
    comp = syntax_check(src, tmp_path)
    assert not comp.ok
    assert expected in comp.stderr, comp.stderr[-2000:]
