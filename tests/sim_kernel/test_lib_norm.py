"""RmsNorm, BatchNorm, DeepNorm, Normalize and GroupNorm against numpy, from the API pages' formulas:
float and half, padded shapes (statistics over the valid part), the framework-allocated buffer, the
documented configs, and the documented constraints as violations (work buffer, basic-block shapes,
forbidden overlaps, H limits, group counts, config / parameter mismatches) and compile errors."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params
from simkit import syntax_check

BODY = r"""
static constexpr NormalizeConfig NCFG_NO_GAMMA = {ReducePattern::AR, -1, false, true, false};
static constexpr NormalizeConfig NCFG_NO_BETA_A4 = {ReducePattern::AR, 4, true, false, false};

template <typename T, bool basic> static void rms() {
  const uint32_t B = P[2], S = P[3], H = P[4], OH = P[5];
  const int mode = P[6];
  Ub u;
  const uint32_t n = B * S * H, minb = npukb_lib::RmsNormRowBytes(H, sizeof(T));
  RmsNormTiling t;
  npukb_norm::FillRmsNorm(B, S, H, OH, mode == 3 ? 3 * minb : minb, sizeof(T), t);
  LocalTensor<T> x = in<T>(u, 1, n), g = in<T>(u, 2, H);
  LocalTensor<T> y = mode == 5 ? g : u.get<T>(n);
  if (mode == 1) {
    RmsNorm<T, basic>(y, x, g, static_cast<T>(pf(7)), t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    RmsNorm<T, basic>(y, x, g, tmp, static_cast<T>(pf(7)), t);
  }
  out(0, y, n);
}

template <typename T, bool basic> static void batch() {
  const uint32_t B = P[2], OB = P[3], SH = P[4];
  const int mode = P[5];
  Ub u;
  const uint32_t n = B * SH;
  const uint32_t minb = npukb_lib::BatchNormColumnBytes(B) * npukb_lib::BatchNormMinColumns(SH, sizeof(T));
  BatchNormTiling t;
  npukb_norm::FillBatchNorm(B, OB, SH, minb, sizeof(T), t);
  LocalTensor<T> x = in<T>(u, 1, n), g = in<T>(u, 2, B), b = in<T>(u, 3, B);
  LocalTensor<T> y = mode == 7 ? x : u.get<T>(n), mean = u.get<T>(SH), var = u.get<T>(SH);
  if (mode == 1) {
    BatchNorm<T, false, basic>(y, mean, var, x, g, b, static_cast<T>(pf(6)), t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    BatchNorm<T, false, basic>(y, mean, var, x, g, b, tmp, static_cast<T>(pf(6)), t);
  }
  out(0, y, n); out(1, mean, SH); out(2, var, SH);
}

template <typename T, bool reuse, bool basic> static void deep() {
  const uint32_t B = P[2], S = P[3], H = P[4], OH = P[5];
  const int mode = P[6];
  Ub u;
  const uint32_t n = B * S * H, rows = B * S, minb = npukb_lib::LayerNormRowBytes(H, sizeof(T), reuse);
  DeepNormTiling t;
  npukb_norm::FillLayerNorm(B, S, H, OH, minb, sizeof(T), reuse, t);
  LocalTensor<T> x = in<T>(u, 1, n), gx = in<T>(u, 2, n), beta = in<T>(u, 3, H), gamma = in<T>(u, 4, H);
  LocalTensor<T> y = mode == 7 ? x : u.get<T>(n), mean = u.get<T>(rows), var = u.get<T>(rows);
  if (mode == 1) {
    DeepNorm<T, reuse, basic>(y, mean, var, x, gx, beta, gamma, static_cast<T>(pf(7)), static_cast<T>(pf(8)), t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    DeepNorm<T, reuse, basic>(y, mean, var, x, gx, beta, gamma, tmp, static_cast<T>(pf(7)), static_cast<T>(pf(8)), t);
  }
  out(0, y, n); out(1, mean, rows); out(2, var, rows);
}

template <typename U, typename T, const NormalizeConfig& C> static void norm() {
  const uint32_t A = P[2], R = P[3], RP = P[4];
  const int mode = P[5];
  Ub u;
  const uint32_t minb = npukb_lib::NormalizeFixedBytes(RP, sizeof(U)) + npukb_lib::NormalizeRowBytes(RP, sizeof(T));
  LocalTensor<T> x = in<T>(u, 1, A * RP);
  LocalTensor<float> mean = in<float>(u, 2, A), var = in<float>(u, 3, A);
  LocalTensor<U> g = in<U>(u, 4, RP), b = in<U>(u, 5, RP);
  LocalTensor<T> y = mode == 5 ? x : u.get<T>(A * RP);
  LocalTensor<float> rstd = u.get<float>(A);
  NormalizePara para{A, R, RP};
  if (mode == 1) {
    Normalize<U, T, false, C>(y, rstd, mean, var, x, g, b, pf(6), para);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    Normalize<U, T, false, C>(y, rstd, mean, var, x, g, b, tmp, pf(6), para);
  }
  out(0, y, A * RP); out(1, rstd, A);
}

template <typename T> static void group() {
  const uint32_t N = P[2], C = P[3], HW = P[4], G = P[5];
  const int mode = P[6];
  Ub u;
  const uint32_t n = N * C * HW, groups = N * G;
  const uint32_t minb = G == 0 ? 0 : npukb_lib::GroupNormGroupBytes(C / G, HW);
  GroupNormTiling t;
  npukb_norm::FillGroupNorm(N, C, HW, G, minb, sizeof(T), t);
  LocalTensor<T> x = in<T>(u, 1, n), g = in<T>(u, 2, C), b = in<T>(u, 3, C);
  LocalTensor<T> y = u.get<T>(n), mean = u.get<T>(groups), var = u.get<T>(groups);
  if (mode == 1) {
    GroupNorm<T>(y, mean, var, x, g, b, static_cast<T>(pf(7)), t);
  } else {
    LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : minb);
    GroupNorm<T>(y, mean, var, x, g, b, tmp, static_cast<T>(pf(7)), t);
  }
  out(0, y, n); out(1, mean, groups); out(2, var, groups);
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    if (dt == 0) rms<float, false>();
    if (dt == 1) rms<half, false>();
    if (dt == 2) rms<float, true>();
  }
  if (api == 1) {
    if (dt == 0) batch<float, false>();
    if (dt == 1) batch<half, false>();
    if (dt == 2) batch<float, true>();
  }
  if (api == 2) {
    if (dt == 0) deep<float, false, false>();
    if (dt == 1) deep<half, false, false>();
    if (dt == 2) deep<float, true, false>();
    if (dt == 3) deep<float, false, true>();
  }
  if (api == 3) {
    if (dt == 0) norm<float, float, NLCFG_NORM>();
    if (dt == 1) norm<half, half, NLCFG_NORM>();
    if (dt == 2) norm<float, half, NCFG_NO_GAMMA>();
    if (dt == 3) norm<float, float, NCFG_NO_BETA_A4>();
  }
  if (api == 4) { if (dt == 0) group<float>(); else group<half>(); }
}
void run_test() { run_params(body); }
"""

TOL = {np.float32: dict(rtol=2e-5, atol=2e-5), np.float16: dict(rtol=4e-3, atol=4e-3)}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("norm"), sim_cache)


def _padded(rng, rows, h, valid, dtype, scale=1.0, shift=0.0):
    x = (rng.standard_normal((rows, h)) * scale + shift).astype(dtype)
    x[:, valid:] = 0
    return x


def _f(a):
    return np.asarray(a).astype(np.float32)


# ---- RmsNorm ----------------------------------------------------------------------------------------


@pytest.mark.api("RmsNorm", "RmsNorm Tiling")
@pytest.mark.parametrize("code,dtype,b,s,h,valid,mode", [
    (0, np.float32, 2, 3, 16, 13, 0), (1, np.float16, 1, 5, 32, 25, 1), (2, np.float32, 2, 4, 64, 64, 0),
    (0, np.float32, 2, 3, 24, 24, 0)])
def test_rmsnorm(prog, code, dtype, b, s, h, valid, mode) -> None:
    rng = np.random.default_rng(h + valid)
    x = _padded(rng, b * s, h, valid, dtype, 2.0, 0.3)
    g = rng.uniform(0.5, 1.5, h).astype(dtype)
    d = prog.ok(params(0, code, b, s, h, valid, mode, 1e-6), x, g)
    ms = (_f(x)[:, :valid] ** 2).mean(axis=1, keepdims=True)
    ref = _f(x) / np.sqrt(ms + 1e-6) * _f(g)
    np.testing.assert_allclose(_f(output(d, 0, dtype)).reshape(b * s, h)[:, :valid], ref[:, :valid], **TOL[dtype])


@pytest.mark.api("RmsNorm")
@pytest.mark.parametrize("p,expected", [
    (params(0, 0, 2, 3, 16, 16, 2, 1e-6), "RmsNorm: sharedTmpBuffer of 64 bytes is smaller than the 96 bytes"),
    (params(0, 2, 2, 3, 16, 16, 0, 1e-6), "isBasicBlock needs H a multiple of 64 below 2048"),
    (params(0, 0, 2, 3, 16, 16, 5, 1e-6), "dstLocal and gammaLocal overlap"),
    (params(0, 0, 2, 3, 16, 16, 3, 1e-6), "bytes the tiling was planned for"),
])
def test_rmsnorm_constraints(prog, p, expected) -> None:
    line = prog.violation(p, np.ones(96, np.float32), np.ones(16, np.float32))
    assert expected in line, line


# ---- BatchNorm --------------------------------------------------------------------------------------


@pytest.mark.api("BatchNorm", "BatchNorm Tiling")
@pytest.mark.parametrize("code,dtype,b,ob,sh,mode", [(0, np.float32, 8, 6, 16, 0), (1, np.float16, 4, 4, 32, 1),
                                                     (2, np.float32, 8, 8, 64, 7)])
def test_batchnorm_normalizes_each_feature_over_the_batch(prog, code, dtype, b, ob, sh, mode) -> None:
    rng = np.random.default_rng(b * sh)
    x = (rng.standard_normal((b, sh)) * 3 + 1).astype(dtype)
    g = rng.uniform(0.5, 1.5, b).astype(dtype)    # gamma and beta are [B]: one per batch row
    beta = rng.uniform(-1, 1, b).astype(dtype)
    d = prog.ok(params(1, code, b, ob, sh, mode, 1e-5), x, g, beta)
    xv = _f(x)[:ob]
    mean = xv.mean(axis=0)
    var = xv.var(axis=0)
    ref = _f(g)[:ob, None] * (xv - mean) / np.sqrt(var + 1e-5) + _f(beta)[:ob, None]
    np.testing.assert_allclose(_f(output(d, 0, dtype)).reshape(b, sh)[:ob], ref, **TOL[dtype])
    np.testing.assert_allclose(_f(output(d, 1, dtype)), mean, **TOL[dtype])
    np.testing.assert_allclose(_f(output(d, 2, dtype)), var, rtol=TOL[dtype]["rtol"], atol=1e-2)


@pytest.mark.api("BatchNorm")
@pytest.mark.parametrize("p,expected", [
    (params(1, 0, 8, 8, 16, 2, 1e-5), "BatchNorm: sharedTmpBuffer of"),
    (params(1, 2, 8, 6, 64, 0, 1e-5), "isBasicBlock needs originB a multiple of 8"),
    (params(1, 0, 8, 8, 12, 0, 1e-5), "S * H = 12 is not 32-byte aligned"),
])
def test_batchnorm_constraints(prog, p, expected) -> None:
    ones = np.ones(8 * 64, np.float32)
    line = prog.violation(p, ones, ones[:8], ones[:8])
    assert expected in line, line


# ---- DeepNorm ---------------------------------------------------------------------------------------


@pytest.mark.api("DeepNorm", "DeepNorm Tiling")
@pytest.mark.parametrize("code,dtype,h,valid,mode", [(0, np.float32, 16, 11, 0), (1, np.float16, 32, 32, 1),
                                                     (2, np.float32, 8, 8, 7), (3, np.float32, 64, 64, 0)])
def test_deepnorm_is_layernorm_of_the_scaled_residual(prog, code, dtype, h, valid, mode) -> None:
    rng = np.random.default_rng(h * 3 + code)
    b, s, alpha = 2, 4, 1.75
    x = _padded(rng, b * s, h, valid, dtype)
    gx = _padded(rng, b * s, h, valid, dtype)
    beta = rng.uniform(-1, 1, h).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, h).astype(dtype)
    d = prog.ok(params(2, code, b, s, h, valid, mode, alpha, 1e-5), x, gx, beta, gamma)
    z = alpha * _f(x) + _f(gx)
    if dtype == np.float16:
        z = _f(np.float16(alpha)) * _f(x) + _f(gx)
    mean = z[:, :valid].mean(axis=1)
    var = z[:, :valid].var(axis=1)
    ref = (z - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * _f(gamma) + _f(beta)
    np.testing.assert_allclose(_f(output(d, 0, dtype)).reshape(b * s, h)[:, :valid], ref[:, :valid], **TOL[dtype])
    np.testing.assert_allclose(_f(output(d, 1, dtype)), mean, **TOL[dtype])
    # rstdLocal holds the variance
    np.testing.assert_allclose(_f(output(d, 2, dtype)), var, rtol=TOL[dtype]["rtol"], atol=1e-2)


@pytest.mark.api("DeepNorm")
@pytest.mark.parametrize("p,expected", [
    (params(2, 0, 1, 1, 2048, 2048, 0, 1.0, 1e-5), "DeepNorm: H = 2048 exceeds 2040"),
    (params(2, 0, 2, 4, 16, 16, 7, 1.0, 1e-5), "dstLocal and srcLocal (isReuseSrc is false) overlap"),
    (params(2, 3, 2, 4, 32, 32, 0, 1.0, 1e-5), "isBasicBlock needs H a multiple of 64"),
    (params(2, 0, 2, 4, 16, 16, 2, 1.0, 1e-5), "DeepNorm: sharedTmpBuffer of"),
])
def test_deepnorm_constraints(prog, p, expected) -> None:
    ones = np.ones(2048, np.float32)
    line = prog.violation(p, ones, ones, ones, ones)
    assert expected in line, line


# ---- Normalize --------------------------------------------------------------------------------------


@pytest.mark.api("Normalize", "Normalize Tiling")
@pytest.mark.parametrize("code,tdt,udt,a,r,rp,mode", [
    (0, np.float32, np.float32, 3, 13, 16, 0), (1, np.float16, np.float16, 4, 32, 32, 1),
    (2, np.float16, np.float32, 2, 20, 32, 0), (3, np.float32, np.float32, 4, 8, 8, 0)])
def test_normalize_from_given_mean_and_variance(prog, code, tdt, udt, a, r, rp, mode) -> None:
    rng = np.random.default_rng(code + r)
    x = _padded(rng, a, rp, r, tdt, 2.0, 1.0)
    mean = rng.uniform(-1, 1, a).astype(np.float32)
    var = rng.uniform(0.2, 3, a).astype(np.float32)
    g = rng.uniform(0.5, 1.5, rp).astype(udt)
    b = rng.uniform(-1, 1, rp).astype(udt)
    d = prog.ok(params(3, code, a, r, rp, mode, 1e-3), x, mean, var, g, b)
    rstd = 1 / np.sqrt(var + 1e-3)
    y = (_f(x) - mean[:, None]) * rstd[:, None]
    if code != 2:
        y = y * _f(g)          # NCFG_NO_GAMMA leaves gamma out
    if code != 3:
        y = y + _f(b)          # NCFG_NO_BETA_A4 leaves beta out
    np.testing.assert_allclose(_f(output(d, 0, tdt)).reshape(a, rp)[:, :r], y[:, :r], **TOL[tdt])
    np.testing.assert_allclose(output(d, 1, np.float32), rstd, rtol=1e-5)


@pytest.mark.api("Normalize")
@pytest.mark.parametrize("p,expected", [
    (params(3, 3, 3, 8, 8, 0, 1e-3), "NormalizeConfig.aLength 4 differs from para.aLength 3"),
    (params(3, 0, 3, 8, 8, 5, 1e-3), "output and inputX overlap"),
    (params(3, 0, 3, 8, 8, 2, 1e-3), "Normalize: sharedTmpBuffer of"),
])
def test_normalize_constraints(prog, p, expected) -> None:
    ones = np.ones(64, np.float32)
    line = prog.violation(p, ones, ones[:8], ones[:8], ones[:8], ones[:8])
    assert expected in line, line


# ---- GroupNorm --------------------------------------------------------------------------------------


@pytest.mark.api("GroupNorm", "GroupNorm Tiling")
@pytest.mark.parametrize("dtype,n,c,hw,g,mode", [(np.float32, 2, 6, 5, 3, 0), (np.float16, 2, 8, 8, 4, 1),
                                                 (np.float32, 1, 4, 16, 1, 0)])
def test_groupnorm_normalizes_groups_of_channels(prog, dtype, n, c, hw, g, mode) -> None:
    rng = np.random.default_rng(c * hw)
    x = (rng.standard_normal((n, c, hw)) * 2 + 1).astype(dtype)
    gamma = rng.uniform(-2, 2, c).astype(dtype)
    beta = rng.uniform(-1, 1, c).astype(dtype)
    d = prog.ok(params(4, int(dtype == np.float16), n, c, hw, g, mode, 1e-5), x, gamma, beta)
    xg = _f(x).reshape(n, g, -1)
    mean = xg.mean(axis=2)
    var = xg.var(axis=2)
    norm = ((xg - mean[..., None]) / np.sqrt(var[..., None] + 1e-5)).reshape(n, c, hw)
    ref = norm * _f(gamma)[None, :, None] + _f(beta)[None, :, None]
    np.testing.assert_allclose(_f(output(d, 0, dtype)).reshape(n, c, hw), ref, **TOL[dtype])
    np.testing.assert_allclose(_f(output(d, 1, dtype)).reshape(n, g), mean, **TOL[dtype])
    np.testing.assert_allclose(_f(output(d, 2, dtype)).reshape(n, g), var, rtol=TOL[dtype]["rtol"], atol=1e-2)


@pytest.mark.api("GroupNorm")
@pytest.mark.parametrize("p,expected", [
    (params(4, 0, 2, 6, 5, 4, 0, 1e-5), "C = 6 is not a multiple of groupNum 4"),
    (params(4, 0, 2, 6, 5, 3, 2, 1e-5), "GroupNorm: sharedTmpBuffer of"),
])
def test_groupnorm_constraints(prog, p, expected) -> None:
    ones = np.ones(60, np.float32)
    line = prog.violation(p, ones, ones[:6], ones[:6])
    assert expected in line, line


STATIC = {
    "rms_dtype": ("LocalTensor<int32_t> a; RmsNormTiling t; RmsNorm<int32_t>(a, a, a, 1, t);",
                  "RmsNorm: unsupported data type"),
    "deep_reuse_half": ("LocalTensor<half> a; DeepNormTiling t; "
                        "DeepNorm<half, true>(a, a, a, a, a, a, a, (half)1, (half)1, t);", "isReuseSrc is supported"),
    "normalize_pattern": ("static constexpr NormalizeConfig C = {ReducePattern::RA, -1, false, false, false}; "
                          "LocalTensor<float> a; NormalizePara p{1, 8, 8}; "
                          "Normalize<float, float, false, C>(a, a, a, a, a, a, a, 1.0f, p);", "only ReducePattern::AR"),
    "group_dtype": ("LocalTensor<bfloat16_t> a; GroupNormTiling t; "
                    "GroupNorm<bfloat16_t>(a, a, a, a, a, a, bfloat16_t(1.0f), t);",
                    "GroupNorm: unsupported data type"),
}


@pytest.mark.api("RmsNorm", "DeepNorm", "Normalize", "GroupNorm")
@pytest.mark.parametrize("case", sorted(STATIC))
def test_norm_compile_time_constraints(tmp_path, case) -> None:
    code, expected = STATIC[case]
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n', tmp_path)
    assert not comp.ok
    assert expected in comp.stderr, comp.stderr[-2000:]
