"""AscendQuant, AscendDequant and AscendAntiQuant against numpy, from the API pages: every 910B form
(per tensor / per channel, scalar or tensor offset, with and without calCount and sharedTmpBuffer; the
deqScale tensor or scalar with each documented dtype combination, the DequantParams and the deprecated
forms, DEQUANT_WITH_SINGLE_ROW / MULTI_ROW; int8_t and int4b_t sources, half and bfloat16_t outputs,
transposed or not, shape info given or read from the tensors), the precision the pages describe (half
arithmetic with round-half-even and int8 saturation; fp32 scaling rounded once), and the documented
constraints as violations and compile errors. The Ascend 950-only forms (any AscendQuant destination type,
PER_TOKEN / PER_GROUP, the fp8_e8m0_t scale) fail to compile with their reason; the config structs take
the pages' initialisers."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, bf16_round, from_bf16_bits, output, params, to_bf16_bits
from simkit import syntax_check

BODY = r"""
static constexpr AscendQuantConfig QCFG_CONST = {64, 0, 0, 1024};
static constexpr AscendQuantConfig QCFG_BIG_WORK = {64, 0, 0, 100000};

template <typename T, const AscendQuantConfig& C> static void quant() {
  const uint32_t n = P[2], sc = P[6], cal = P[7];
  const int form = P[3], mode = P[8];
  const float scale = pf(4), offset = pf(5);
  Ub u;
  LocalTensor<T> x = in<T>(u, 1, n), st = in<T>(u, 2, sc), ot = in<T>(u, 3, sc);
  LocalTensor<int8_t> dst = mode == 7 ? x.template ReinterpretCast<int8_t>() : in<int8_t>(u, 4, n);
  const uint32_t minb = npukb_lib::AscendQuantMinBytes(cal, sizeof(T));
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? minb - 32 : 2048);
  const T off = static_cast<T>(offset);
  switch (form) {
    case 0: AscendQuant<T, false, C>(dst, x, tmp, scale, offset, cal); break;
    case 1: AscendQuant<T, false, C>(dst, x, tmp, scale, offset); break;
    case 2: AscendQuant<T, false, C>(dst, x, scale, offset, cal); break;
    case 3: AscendQuant<T, false, C>(dst, x, scale, offset); break;
    case 4: AscendQuant<T, false, C>(dst, x, tmp, st, off, sc, cal); break;
    case 5: AscendQuant<T, false, C>(dst, x, tmp, st, ot, sc, static_cast<uint32_t>(P[9]), cal); break;
    case 6: AscendQuant<T, false, C>(dst, x, tmp, st, off); break;
    case 7: AscendQuant<T, false, C>(dst, x, tmp, st, ot); break;
    case 8: AscendQuant<T, false, C>(dst, x, st, off, sc, cal); break;
    case 9: AscendQuant<T, false, C>(dst, x, st, ot, sc, static_cast<uint32_t>(P[9]), cal); break;
    case 10: AscendQuant<T, false, C>(dst, x, st, off); break;
    case 11: AscendQuant<T, false, C>(dst, x, st, ot); break;
  }
  out(0, dst, n);
}

template <typename D, typename S, DeQuantMode M> static void deq() {
  const uint32_t m = P[2], n = P[3], cal = P[4], scale_n = P[8], dst_n = P[9];
  const int form = P[5], mode = P[7];
  Ub u;
  LocalTensor<int32_t> src = in<int32_t>(u, 1, m * n);
  LocalTensor<S> sc = in<S>(u, 2, scale_n);
  LocalTensor<D> dst = mode == 5 ? src.template ReinterpretCast<D>() : in<D>(u, 3, dst_n);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? npukb_lib::AscendDequantMinBytes(n) - 32 : 4096);
  const S s = static_cast<S>(pf(6));
  DequantParams dp{m, n, cal};
  if constexpr (std::is_same_v<S, uint64_t>) {
    switch (form) {
      case 0: AscendDequant<D, S, M>(dst, src, sc, tmp, dp); break;
      case 1: AscendDequant<D, S, M>(dst, src, sc, dp); break;
    }
  } else {
    switch (form) {
      case 0: AscendDequant<D, S, M>(dst, src, sc, tmp, dp); break;
      case 1: AscendDequant<D, S, M>(dst, src, sc, dp); break;
      case 2: AscendDequant<D, S, M>(dst, src, s, tmp, dp); break;
      case 3: AscendDequant<D, S, M>(dst, src, s, dp); break;
      case 4: AscendDequant<D, S, M>(dst, src, sc, tmp, m * n); break;
      case 5: AscendDequant<D, S, M>(dst, src, sc, tmp); break;
      case 6: AscendDequant<D, S, M>(dst, src, sc, m * n); break;
      case 7: AscendDequant<D, S, M>(dst, src, sc); break;
    }
  }
  out(0, dst, dst_n);
}

template <typename I, typename O, bool TR> static void anti() {
  const uint32_t k = P[2], n = P[3], groups = P[5];
  const int form = P[4], shape_src = P[6], mode = P[9];
  Ub u;
  const uint32_t elems = k * n;
  const uint32_t src_n = std::is_same_v<I, int4b_t> ? (elems + 1) / 2 : elems;
  LocalTensor<I> src = in<I>(u, 1, src_n);
  const uint32_t ph = TR ? n : groups, pw = TR ? groups : n;
  LocalTensor<O> off = in<O>(u, 2, ph * pw), sc = in<O>(u, 3, ph * pw);
  LocalTensor<O> dst = mode == 5 ? src.template ReinterpretCast<O>() : u.get<O>(elems);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(mode == 2 ? 32 : 8192);
  AntiQuantShapeInfo si = {};
  if (shape_src == 0) si = {ph, pw, ph, pw};
  if (shape_src == 3) si = {ph, pw, ph + 1, pw};
  if (shape_src == 1) {
    uint32_t dims[2] = {ph, pw};
    off.SetShapeInfo(ShapeInfo(2, dims, DataFormat::ND));
    sc.SetShapeInfo(ShapeInfo(2, dims, DataFormat::ND));
  }
  const O os = static_cast<O>(pf(7)), ss = static_cast<O>(pf(8));
  switch (form) {
    case 0: AscendAntiQuant<I, O, TR>(dst, src, off, sc, tmp, k, si); break;
    case 1: AscendAntiQuant<I, O, TR>(dst, src, sc, tmp, k, si); break;
    case 2: AscendAntiQuant<I, O, TR>(dst, src, os, ss, tmp, k); break;
    case 3: AscendAntiQuant<I, O, TR>(dst, src, ss, tmp, k); break;
    case 4: AscendAntiQuant<I, O, TR>(dst, src, off, sc, k, si); break;
    case 5: AscendAntiQuant<I, O, TR>(dst, src, os, ss, k); break;
    case 6: AscendAntiQuant<I, O, TR>(dst, src, off, sc, tmp, k); break;   // shape info left out
  }
  out(0, dst, elems);
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    if (dt == 0) quant<float, ASCEND_QUANT_DEFAULT_CFG>();
    if (dt == 1) quant<half, ASCEND_QUANT_DEFAULT_CFG>();
    if (dt == 2) quant<half, QCFG_CONST>();
    if (dt == 3) quant<float, QCFG_BIG_WORK>();
  }
  if (api == 1) {
    constexpr DeQuantMode SR = DeQuantMode::DEQUANT_WITH_SINGLE_ROW, MR = DeQuantMode::DEQUANT_WITH_MULTI_ROW;
    if (dt == 0) deq<float, float, SR>();
    if (dt == 1) deq<half, uint64_t, SR>();
    if (dt == 2) deq<bfloat16_t, bfloat16_t, SR>();
    if (dt == 3) deq<bfloat16_t, float, SR>();
    if (dt == 4) deq<float, bfloat16_t, SR>();
    if (dt == 5) deq<float, float, MR>();
  }
  if (api == 2) {
    if (dt == 0) anti<int8_t, half, false>();
    if (dt == 1) anti<int8_t, bfloat16_t, true>();
    if (dt == 2) anti<int4b_t, half, false>();
    if (dt == 3) anti<int4b_t, bfloat16_t, true>();
    if (dt == 4) anti<int8_t, half, true>();
    if (dt == 5) anti<int8_t, bfloat16_t, false>();
  }
}
void run_test() { run_params(body); }
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("quant"), sim_cache)


def _h(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


# ---- AscendQuant ------------------------------------------------------------------------------------


def _quant_ref(x, scale, offset):
    """The page's sequence in half: convert, Mul(s), Add(s), round half to even, saturate to int8."""
    t1 = _h(_h(x) * _h(scale))
    t2 = _h(t1 + _h(offset))
    return np.clip(np.rint(t2), -128, 127).astype(np.int8)


QUANT_FORMS = [(0, 96), (1, 128), (2, 96), (3, 128), (4, 64), (5, 128), (6, 128), (7, 128), (8, 64), (9, 128),
               (10, 128), (11, 128)]


@pytest.mark.api("AscendQuant", "GetAscendQuantMaxMinTmpSize")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("form,cal", QUANT_FORMS)
def test_ascend_quant_every_form(prog, dt, form, cal) -> None:
    dtype = np.float32 if dt == 0 else np.float16
    n, sc = 128, 32
    rng = np.random.default_rng(form * 2 + dt)
    # odd multiples of 0.5 after scaling: ties to even; large values: saturation
    x = np.concatenate([np.arange(-15, 17, 1.0), rng.uniform(-300, 300, n - 32)]).astype(dtype)
    st = rng.uniform(0.25, 2.0, sc).astype(dtype)
    ot = rng.uniform(-3, 3, sc).astype(dtype)
    sentinel = np.full(n, 99, np.int8)
    scale, offset = 0.5, 0.0 if form < 4 else 1.5
    d = prog.ok(params(0, dt, n, form, scale, offset, sc, cal, 0, sc), x, st, ot, sentinel)
    got = output(d, 0, np.int8)
    count = n if form in (1, 3, 6, 7, 10, 11) else cal
    idx = np.arange(count)
    if form < 4:
        ref = _quant_ref(x[:count], scale, offset)
    else:
        s = st[idx % sc].astype(np.float32)
        o = ot[idx % sc].astype(np.float32) if form in (5, 7, 9, 11) else np.float32(offset)
        ref = _quant_ref(x[:count], s, o)
    np.testing.assert_array_equal(got[:count], ref)
    np.testing.assert_array_equal(got[count:], sentinel[count:])


@pytest.mark.api("AscendQuant")
def test_ascend_quant_config_constants_override_the_count_and_dst_may_alias_src(prog) -> None:
    n = 128
    x = np.linspace(-40, 40, n).astype(np.float16)
    # QCFG_CONST {calcCount 64, workLocalSize 1024}: the constant count wins over the runtime 128
    d = prog.ok(params(0, 2, n, 0, 0.5, 0.0, 32, n, 0, 32), x, x[:32], x[:32], np.full(n, 99, np.int8))
    got = output(d, 0, np.int8)
    np.testing.assert_array_equal(got[:64], _quant_ref(x[:64], 0.5, 0.0))
    np.testing.assert_array_equal(got[64:], np.full(64, 99, np.int8))
    # in place: dst is the source's own memory
    d = prog.ok(params(0, 1, n, 1, 0.25, 2.0, 32, n, 7, 32), x, x[:32], x[:32], np.zeros(n, np.int8))
    np.testing.assert_array_equal(output(d, 0, np.int8), _quant_ref(x, 0.25, 2.0))


QUANT_VIOLATIONS = {
    "scale_count_not_32": (params(0, 0, 128, 4, 1.0, 0.0, 16, 128, 0, 16),
                           "scaleCount 16 is not a positive multiple of 32"),
    "offset_count_differs": (params(0, 0, 128, 5, 1.0, 0.0, 32, 128, 0, 64),
                             "offsetCount 64 differs from scaleCount 32"),
    "cal_not_multiple": (params(0, 0, 128, 4, 1.0, 0.0, 32, 100, 0, 32),
                         "calCount 100 is not a multiple of scaleCount 32"),
    "tmp_below_minimum": (params(0, 0, 128, 0, 1.0, 0.0, 32, 128, 2, 32), "AscendQuant: sharedTmpBuffer of 480 bytes"),
    "work_local_size": (params(0, 3, 128, 0, 1.0, 0.0, 32, 128, 0, 32),
                        "workLocalSize 100000 exceeds the sharedTmpBuffer"),
}


@pytest.mark.api("AscendQuant")
@pytest.mark.parametrize("case", sorted(QUANT_VIOLATIONS))
def test_ascend_quant_constraints(prog, case) -> None:
    p, expected = QUANT_VIOLATIONS[case]
    ones = np.ones(128, np.float32)
    line = prog.violation(p, ones, ones, ones, np.zeros(128, np.int8))
    assert expected in line, line


@pytest.mark.api("AscendQuant")
def test_ascend_quant_float_scale_keeps_the_half_range(prog) -> None:
    """The page: a float scale keeps half's range. 65504 (the half maximum) is accepted; beyond it the scalar
    scale, or an element of a float scale tensor, is a violation."""
    n = 128
    x = np.linspace(-0.002, 0.002, n).astype(np.float32)   # x * 65504 reaches +-131: saturates near the ends
    d = prog.ok(params(0, 0, n, 1, 65504.0, 0.0, 32, n, 0, 32), x, x[:32], x[:32], np.zeros(n, np.int8))
    want = _quant_ref(x, 65504.0, 0.0)
    assert want.min() == -128 and want.max() == 127
    np.testing.assert_array_equal(output(d, 0, np.int8), want)
    ones = np.ones(n, np.float32)
    line = prog.violation(params(0, 0, n, 0, 70000.0, 0.0, 32, n, 0, 32), ones, ones, ones, np.zeros(n, np.int8))
    assert "AscendQuant: scale 70000 is outside the half range" in line, line
    st = np.ones(32, np.float32)
    st[3] = -1e5
    line = prog.violation(params(0, 0, n, 4, 1.0, 0.0, 32, n, 0, 32), ones, st, ones, np.zeros(n, np.int8))
    assert "scaleTensor[3] -100000 is outside the half range" in line, line


# ---- AscendDequant ----------------------------------------------------------------------------------

DEQ_TYPES = {0: (np.float32, "f32"), 1: (np.float16, "u64"), 2: ("bf16", "bf16"), 3: ("bf16", "f32"),
             4: (np.float32, "bf16"), 5: (np.float32, "f32")}


def _scale_input(kind, values):
    if kind == "f32":
        return values.astype(np.float32), values.astype(np.float32)
    if kind == "bf16":
        v = bf16_round(values)
        return to_bf16_bits(v), v
    # uint64_t: the low 32 bits hold the float, the high ones are control bits the API ignores
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64) | (np.uint64(0xABCD) << np.uint64(40))
    return bits, values.astype(np.float32)


def _dst_cast(dst, values):
    if dst == "bf16":
        return bf16_round(values)
    return values.astype(dst).astype(np.float32)


def _read_dst(d, dst, count):
    if dst == "bf16":
        return from_bf16_bits(output(d, 0, np.uint16))[:count]
    return output(d, 0, dst).astype(np.float32)[:count]


# every documented dtype combination: deqScale tensor (forms 0, 1) and scalar (forms 2, 3)
DEQ_CASES = [(code, form) for code in (0, 1, 2, 3, 4) for form in (0, 1)] + \
    [(code, form) for code in (0, 2, 3, 4) for form in (2, 3)]


@pytest.mark.api("AscendDequant", "GetAscendDequantMaxMinTmpSize")
@pytest.mark.parametrize("code,form", DEQ_CASES)
def test_ascend_dequant_rows(prog, code, form) -> None:
    dst, kind = DEQ_TYPES[code]
    m, n, cal = 3, 8, 6
    rng = np.random.default_rng(code * 4 + form)
    src = rng.integers(-2000, 2000, (m, n)).astype(np.int32)
    scale_in, scale = _scale_input(kind, rng.uniform(-2, 2, 16).astype(np.float32))
    scalar = float(bf16_round(np.array([1.375], np.float32))[0])
    dsize = 2 if dst in ("bf16", np.float16) else 4
    n_dst = (n * dsize + 31) // 32 * 32 // dsize
    sentinel = np.full(m * n_dst + 16, 0x7B7B, np.uint16).view(np.float16) if dsize == 2 else \
        np.full(m * n_dst + 16, -5.0, np.float32)
    d = prog.ok(params(1, code, m, n, cal, form, scalar, 0, 16, m * n_dst + 16), src, scale_in, sentinel)
    got = _read_dst(d, dst, m * n_dst).reshape(m, n_dst)
    sv = scale[:cal] if form < 2 else np.float32(scalar)
    want = src.astype(np.float32).copy()
    want[:, :cal] = want[:, :cal] * sv
    np.testing.assert_allclose(got[:, :cal], _dst_cast(dst, want)[:, :cal], rtol=0, atol=0)
    # columns cal..n: the converted source (unscaled); beyond n (the 32-byte padding): not written
    np.testing.assert_allclose(got[:, cal:n], _dst_cast(dst, want)[:, cal:n], rtol=0, atol=0)
    if n_dst > n:
        pad = output(d, 0, np.uint16 if dsize == 2 else np.float32).reshape(-1)[: m * n_dst].reshape(m, n_dst)[:, n:]
        assert (pad == (0x7B7B if dsize == 2 else -5.0)).all()


@pytest.mark.api("AscendDequant")
@pytest.mark.parametrize("code", [0, 5])
def test_ascend_dequant_single_row_mode(prog, code) -> None:
    # {1, 64, 16}: SINGLE_ROW reads it as {4, 16, 16} (16 is a multiple of 32 / sizeof(float), 64 % 16 == 0)
    src = np.arange(-32, 32, dtype=np.int32)
    scale = np.linspace(0.5, 2.0, 16).astype(np.float32)
    d = prog.ok(params(1, code, 1, 64, 16, 0, 1.0, 0, 16, 64), src, scale, np.zeros(64, np.float32))
    got = output(d, 0, np.float32)
    if code == 0:
        want = (src.reshape(4, 16).astype(np.float32) * scale).reshape(-1)
    else:   # MULTI_ROW: one row of 64, the first 16 scaled
        want = src.astype(np.float32)
        want[:16] *= scale
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("AscendDequant")
@pytest.mark.parametrize("form", [4, 5, 6, 7])
def test_ascend_dequant_deprecated_forms_scale_rows_of_the_scale_length(prog, form) -> None:
    m, n = 4, 16
    src = np.arange(m * n, dtype=np.int32) - 30
    scale = np.linspace(-1, 1, n).astype(np.float32)
    d = prog.ok(params(1, 0, m, n, n, form, 1.0, 0, n, m * n), src, scale, np.zeros(m * n, np.float32))
    np.testing.assert_array_equal(output(d, 0, np.float32), (src.reshape(m, n) * scale).reshape(-1).astype(np.float32))


DEQ_VIOLATIONS = {
    "n_unaligned": (params(1, 0, 2, 6, 6, 0, 1.0, 0, 16, 64),
                    "DequantParams.n 6 int32 elements are not a whole number"),
    "cal_above_n": (params(1, 0, 2, 8, 9, 0, 1.0, 0, 16, 64), "DequantParams.calCount 9 is outside [1, n = 8]"),
    "cal_above_scale": (params(1, 0, 2, 16, 12, 0, 1.0, 0, 8, 64), "exceeds the deqScale's 8 elements"),
    "tmp_below_minimum": (params(1, 0, 2, 8, 8, 0, 1.0, 2, 16, 64), "AscendDequant: sharedTmpBuffer of 32 bytes"),
    "dst_overlaps_src": (params(1, 0, 2, 8, 8, 0, 1.0, 5, 16, 64), "dstTensor and srcTensor overlap"),
    "deprecated_count": (params(1, 0, 3, 8, 8, 4, 1.0, 0, 16, 64),
                         "calCount 24 is not a multiple of the deqScale's 16"),
}


@pytest.mark.api("AscendDequant")
@pytest.mark.parametrize("case", sorted(DEQ_VIOLATIONS))
def test_ascend_dequant_constraints(prog, case) -> None:
    p, expected = DEQ_VIOLATIONS[case]
    line = prog.violation(p, np.ones(64, np.int32), np.ones(16, np.float32), np.zeros(64, np.float32))
    assert expected in line, line


# ---- AscendAntiQuant --------------------------------------------------------------------------------

ANTI_TYPES = {0: (np.int8, np.float16, False), 1: (np.int8, "bf16", True), 2: ("int4", np.float16, False),
              3: ("int4", "bf16", True), 4: (np.int8, np.float16, True), 5: (np.int8, "bf16", False)}


def _pack_int4(v):
    u = (v.astype(np.int16) & 0xF).astype(np.uint8)
    return (u[0::2] | (u[1::2] << 4)).astype(np.uint8)


def _anti_ref(x, off, sc, out):
    if out == "bf16":
        return bf16_round((x + off) * sc)
    return _h(_h(_h(x) + off) * sc)


@pytest.mark.api("AscendAntiQuant", "GetAscendAntiQuantMaxMinTmpSize")
@pytest.mark.parametrize("code", sorted(ANTI_TYPES))
@pytest.mark.parametrize("form,shape_src", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 0), (5, 2), (6, 2)])
def test_ascend_antiquant(prog, code, form, shape_src) -> None:
    src_t, out_t, tr = ANTI_TYPES[code]
    k, n, groups = 64, 32, 2
    if form == 6:
        groups = 1   # no shape info anywhere: one row (or column) of offset / scale
    rng = np.random.default_rng(code * 10 + form)
    lo, hi = (-8, 8) if src_t == "int4" else (-128, 128)
    x = rng.integers(lo, hi, k * n).astype(np.int8)
    rows, cols = (n, k) if tr else (k, n)
    ph, pw = (n, groups) if tr else (groups, n)
    gs = k // groups
    off_v = (rng.integers(-8, 8, ph * pw) * 0.5).astype(np.float32)
    sc_v = (rng.integers(1, 16, ph * pw) * 0.125).astype(np.float32)
    os_, ss = -1.5, 0.375
    if out_t == "bf16":
        off_in, sc_in, obytes = to_bf16_bits(off_v), to_bf16_bits(sc_v), np.uint16
    else:
        off_in, sc_in, obytes = off_v.astype(np.float16), sc_v.astype(np.float16), np.float16
    src_in = _pack_int4(x) if src_t == "int4" else x
    d = prog.ok(params(2, code, k, n, form, groups, shape_src, os_, ss, 0), src_in, off_in, sc_in)
    raw = output(d, 0, obytes)
    got = from_bf16_bits(raw) if out_t == "bf16" else raw.astype(np.float32)
    xm = x.astype(np.float32).reshape(rows, cols)
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    if form in (2, 3, 5):
        off = np.float32(os_) if form in (2, 5) else np.float32(0)
        sc = np.float32(ss)
    else:
        at = i * pw + j // gs if tr else (i // gs) * pw + j
        sc = sc_v[at]
        off = off_v[at] if form != 1 else np.float32(0)
    np.testing.assert_array_equal(got.reshape(rows, cols), _anti_ref(xm, off, sc, out_t))


ANTI_VIOLATIONS = {
    "transposed_k_unaligned": (params(2, 1, 48, 32, 0, 2, 0, 0.0, 1.0, 0), "with isTranspose, k = 48 must be 32-byte"),
    "k_not_multiple_of_groups": (params(2, 0, 64, 32, 0, 3, 0, 0.0, 1.0, 0), "k = 64 is not a multiple of the scale"),
    "shapes_differ": (params(2, 0, 64, 32, 0, 2, 3, 0.0, 1.0, 0),
                      "the offset shape [2, 32] differs from the scale shape"),
    "data_unaligned": (params(2, 0, 4, 4, 2, 1, 2, 0.0, 1.0, 0), "is not 32-byte aligned"),
    "dst_overlaps_src": (params(2, 0, 64, 32, 2, 1, 2, 0.0, 1.0, 5), "dst and src overlap"),
    "tmp_below_minimum": (params(2, 0, 64, 32, 2, 1, 2, 0.0, 1.0, 2), "AscendAntiQuant: sharedTmpBuffer of 32 bytes"),
}


@pytest.mark.api("AscendAntiQuant")
@pytest.mark.parametrize("case", sorted(ANTI_VIOLATIONS))
def test_ascend_antiquant_constraints(prog, case) -> None:
    p, expected = ANTI_VIOLATIONS[case]
    line = prog.violation(p, np.ones(4096, np.int8), np.ones(128, np.float16), np.ones(128, np.float16))
    assert expected in line, line


STATIC = {
    "quant_dtype": ("LocalTensor<int8_t> d; LocalTensor<int16_t> s; AscendQuant<int16_t>(d, s, 1.0f, 0.0f);",
                    "AscendQuant: unsupported source data type"),
    "dequant_half_float_vector": ("LocalTensor<half> d; LocalTensor<int32_t> s; LocalTensor<float> c; "
                                  "AscendDequant(d, s, c, DequantParams{1, 8, 8});", "AscendDequant: unsupported"),
    "dequant_half_scalar": ("LocalTensor<half> d; LocalTensor<int32_t> s; "
                            "AscendDequant(d, s, 1.0f, DequantParams{1, 8, 8});", "with a scalar deqScale"),
    "antiquant_float_out": ("LocalTensor<float> d; LocalTensor<int8_t> s; "
                            "AscendAntiQuant<int8_t, float, false>(d, s, 1.0f, 2.0f, 64);",
                            "AscendAntiQuant: unsupported data types"),
}


@pytest.mark.api("AscendQuant", "AscendDequant", "AscendAntiQuant")
@pytest.mark.parametrize("case", sorted(STATIC))
def test_quant_compile_time_constraints(tmp_path, case) -> None:
    code, expected = STATIC[case]
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n', tmp_path)
    assert not comp.ok
    assert expected in comp.stderr, comp.stderr[-2000:]


# ---- the Ascend 950-only forms and the config structs ---------------------------------------------

# Every form the pages document for the Ascend 950PR / 950DT only, called once: each fails to compile with
# its family's explanation (one static assertion per call).
FORMS_950 = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr static bool has_offset = true;
constexpr static AscendQuantConfig qcfg = {has_offset, 1, RoundMode::CAST_ROUND};
constexpr static AscendQuantPolicy qpol = AscendQuantPolicy::PER_GROUP;
constexpr static AscendDeQuantConfig dcfg = {has_offset, -1};
constexpr static AscendDeQuantPolicy dpol = AscendDeQuantPolicy::PER_TOKEN;
constexpr static AscendAntiQuantConfig acfg = {has_offset, false, -1};
constexpr static AscendAntiQuantPolicy apol = AscendAntiQuantPolicy::PER_TOKEN;
void f() {
  LocalTensor<int8_t> q; LocalTensor<half> x, s, o; LocalTensor<float> fs, fo; LocalTensor<uint8_t> t;
  LocalTensor<int32_t> i32; LocalTensor<fp8_e8m0_t> e8;
  const half h = 1;
  // AscendQuant<dstT, srcT>: PER_TENSOR (4) and PER_CHANNEL (8)
  AscendQuant<int8_t, half>(q, x, t, 0.5f, 0.0f, 64);
  AscendQuant<int8_t, half>(q, x, t, 0.5f, 0.0f);
  AscendQuant<int8_t, half>(q, x, 0.5f, 0.0f, 64);
  AscendQuant<int8_t, half>(q, x, 0.5f, 0.0f);
  AscendQuant<int8_t, half>(q, x, t, s, h, 32, 64);
  AscendQuant<int8_t, half>(q, x, t, s, o, 32, 32, 64);
  AscendQuant<int8_t, half>(q, x, t, s, h);
  AscendQuant<int8_t, half>(q, x, t, s, o);
  AscendQuant<int8_t, half>(q, x, s, h, 32, 64);
  AscendQuant<int8_t, half>(q, x, s, o, 32, 32, 64);
  AscendQuant<int8_t, half>(q, x, s, h);
  AscendQuant<int8_t, half>(q, x, s, o);
  // PER_TOKEN / PER_GROUP (4)
  AscendQuantParam qp; qp.m = 2; qp.n = 32; qp.calCount = 64; qp.groupSize = 32;
  AscendQuant<int8_t, half, float, false, qcfg, qpol>(q, x, t, fs, fo, qp);
  AscendQuant<int8_t, half, float, false, qcfg, qpol>(q, x, t, fs, 1.0f, qp);
  AscendQuant<int8_t, half, float, false, qcfg, qpol>(q, x, fs, fo, qp);
  AscendQuant<int8_t, half, float, false, qcfg, qpol>(q, x, fs, 1.0f, qp);
  // AscendDequant PER_TOKEN / PER_GROUP (2)
  AscendDeQuantParam dp{2, 32, 64};
  AscendDequant<float, int32_t, float, dcfg, dpol>(fs, i32, fs, fo, t, dp);
  AscendDequant<float, int32_t, float, dcfg, dpol>(fs, i32, fs, fo, dp);
  // AscendAntiQuant: PER_GROUP float4 with an fp8_e8m0_t scale (2), PER_TOKEN / PER_GROUP (2)
  AscendAntiQuant<int8_t, half, false>(x, q, e8, t, 64);
  AscendAntiQuant<int8_t, half, false>(x, q, e8, 64, AntiQuantShapeInfo{});
  AscendAntiQuantParam ap{2, 32, 64};
  AscendAntiQuant<half, int8_t, half, acfg, apol>(x, q, s, o, t, ap);
  AscendAntiQuant<half, int8_t, half, acfg, apol>(x, q, s, o, ap);
}
"""
MESSAGES_950 = {
    "AscendQuant<dstT, srcT> (any destination type) is documented for the Ascend 950PR / 950DT only": 12,
    "AscendQuant PER_TOKEN / PER_GROUP (AscendQuantPolicy, AscendQuantParam) is documented for the Ascend 950PR": 4,
    "AscendDequant PER_TOKEN / PER_GROUP (AscendDeQuantPolicy, AscendDeQuantParam) is documented for the Ascend "
    "950PR": 2,
    "AscendAntiQuant with an fp8_e8m0_t scale (PER_GROUP float4) is documented for the Ascend 950PR": 2,
    "AscendAntiQuant PER_TOKEN / PER_GROUP (AscendAntiQuantPolicy, AscendAntiQuantParam) is documented for the "
    "Ascend 950PR": 2,
}


@pytest.mark.api("AscendQuant", "AscendDequant", "AscendAntiQuant")
def test_ascend_950_only_forms_fail_to_compile_with_the_reason(tmp_path) -> None:
    comp = syntax_check(FORMS_950, tmp_path)
    assert not comp.ok
    errors = [ln for ln in comp.stderr.splitlines() if "error:" in ln]
    for msg, count in MESSAGES_950.items():
        assert sum(msg in ln for ln in errors) == count, (msg, comp.stderr[-3000:])
    assert len(errors) == sum(MESSAGES_950.values()), "\n".join(errors)   # nothing else failed (no ambiguity)


# The config structs take the pages' initialisers, and the A2 / A3 forms resolve as before next to the
# Ascend 950 declarations (the int8_t form is the more specialised; braced DequantParams still convert).
CONFIGS = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr static bool has_offset = true;
constexpr static AscendQuantConfig token_cfg = {has_offset, 1};
constexpr static AscendQuantConfig round_cfg = {has_offset, 1, RoundMode::CAST_ROUND};
constexpr static AscendQuantConfig count_cfg = {64, 32, 32, 1024};
static_assert(ASCEND_QUANT_DEFAULT_CFG.calcCount == 0 && ASCEND_QUANT_DEFAULT_CFG.workLocalSize == 0, "");
static_assert(token_cfg.hasOffset && token_cfg.kDim == 1 && token_cfg.roundMode == RoundMode::CAST_RINT, "");
static_assert(round_cfg.roundMode == RoundMode::CAST_ROUND && round_cfg.calcCount == 0, "");
static_assert(count_cfg.calcCount == 64 && count_cfg.offsetCount == 32 && count_cfg.scaleCount == 32 &&
              count_cfg.workLocalSize == 1024 && !count_cfg.hasOffset, "");
constexpr static AscendDeQuantConfig dcfg = {has_offset, -1};
static_assert(dcfg.hasOffset && dcfg.kDim == -1 && AscendDeQuantConfig{false}.kDim == 1, "");
constexpr static AscendAntiQuantConfig acfg = {has_offset, true, -1};
static_assert(acfg.isTranspose && AscendAntiQuantConfig{false, false}.kDim == 1, "");
static_assert(AscendQuantParam{2, 32, 64}.groupSize == 0 && AscendDeQuantParam{2, 32, 64}.groupSize == 0 &&
              AscendAntiQuantParam{2, 32, 64}.groupSize == 0, "");
static_assert(static_cast<int>(AscendQuantPolicy::PER_TOKEN_PER_GROUP) == 5 &&
              static_cast<int>(AscendDeQuantPolicy::PER_GROUP) == 1 &&
              static_cast<int>(AscendAntiQuantPolicy::PER_GROUP) == 3, "");
static_assert(sizeof(fp8_e8m0_t) == 1, "");
void f() {
  LocalTensor<int8_t> q; LocalTensor<half> x, s, o; LocalTensor<uint8_t> t; LocalTensor<float> fd, fs;
  LocalTensor<int32_t> i32;
  AscendQuant(q, x, t, 0.5f, 0.0f, 64);
  AscendQuant(q, x, s, o);
  AscendQuant<half>(q, x, s, o, 32, 32, 64);
  AscendQuant<half, false, count_cfg>(q, x, t, s, o, 32, 32, 64);
  AscendQuant<half, false, token_cfg>(q, x, 0.5f, 0.0f);
  AscendDequant(fd, i32, fs, t, {4, 8, 6});
  AscendDequant(fd, i32, fs, {4, 8, 6});
  AscendDequant(fd, i32, 2.2f, t, {4, 8, 6});
  AscendDequant(fd, i32, 2.2f, {4, 8, 6});
  AscendAntiQuant<int8_t, half, false>(x, q, s, t, 64);
  AscendAntiQuant<int8_t, half, false>(x, q, o, s, 64, AntiQuantShapeInfo{1, 64, 1, 64});
}
"""


@pytest.mark.api("AscendQuant", "AscendDequant", "AscendAntiQuant")
def test_quant_config_structs_take_the_documented_initialisers(tmp_path) -> None:
    comp = syntax_check(CONFIGS, tmp_path)
    assert comp.ok, comp.stderr[-3000:]
