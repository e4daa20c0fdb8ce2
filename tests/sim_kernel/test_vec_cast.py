"""Cast (类型转换) of the Memory-vector API: every (src, dst) pair of the Atlas A2/A3 table with its round
modes, checked on the examples of the precision-conversion page (integer -> floating rounding, floating ->
integer rounding and saturation, int4b_t packing), the mask form of a widening pair, and the warning for
a round mode a pair does not list."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

MODES = ("CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC")

# (src numpy type, src C++ type, dst numpy type, dst C++ type, modes)
PAIRS = [
    (np.int16, "int16_t", np.float16, "half", MODES),
    (np.int32, "int32_t", np.float32, "float", MODES),
    (np.int64, "int64_t", np.float32, "float", MODES),
    (np.uint16, "bfloat16_t", np.int32, "int32_t", MODES),        # bfloat16 passed as raw bits
    (np.float16, "half", np.int8, "int8_t", MODES),
    (np.float16, "half", np.uint8, "uint8_t", MODES),
    (np.float16, "half", np.int16, "int16_t", MODES),
    (np.float16, "half", np.int32, "int32_t", MODES),
    (np.float32, "float", np.int16, "int16_t", MODES),
    (np.float32, "float", np.uint16, "bfloat16_t", MODES),
    (np.float32, "float", np.int64, "int64_t", MODES),
    (np.float32, "float", np.float32, "float", MODES),
    (np.float32, "float", np.int32, "int32_t", MODES),
    (np.int32, "int32_t", np.int16, "int16_t", ("CAST_NONE",)),
    (np.int32, "int32_t", np.int64, "int64_t", ("CAST_NONE",)),
    (np.int64, "int64_t", np.int32, "int32_t", ("CAST_NONE",)),
    (np.int8, "int8_t", np.float16, "half", ("CAST_NONE",)),
    (np.uint8, "uint8_t", np.float16, "half", ("CAST_NONE",)),
    (np.int16, "int16_t", np.float32, "float", ("CAST_NONE",)),
    (np.float16, "half", np.float32, "float", ("CAST_NONE",)),
    (np.uint16, "bfloat16_t", np.float32, "float", ("CAST_NONE",)),
]
N = 32


def _program() -> str:
    calls = []
    for i, (_, s, _, d, modes) in enumerate(PAIRS):
        mode_list = ", ".join(f"RoundMode::{m}" for m in modes)
        calls.append(f"  {{ const RoundMode m[] = {{{mode_list}}}; run<{d}, {s}>({i}, m, {len(modes)}); }}")
    text = """
template <typename D, typename S>
static void run(int i, const RoundMode* modes, int nm) {
  GlobalTensor<S> in; GlobalTensor<D> out;
  in.SetGlobalBuffer((__gm__ S*)npukb_test::gm_input(i), %(n)d);
  out.SetGlobalBuffer((__gm__ D*)npukb_test::gm_output(i, nm * %(n)d * sizeof(D)), nm * %(n)d);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, %(n)d * sizeof(S)); pipe.InitBuffer(bd, %(n)d * sizeof(D));
  LocalTensor<S> s = bs.Get<S>();
  LocalTensor<D> d = bd.Get<D>();
  DataCopy(s, in, %(n)d);
  for (int k = 0; k < nm; ++k) { Cast(d, s, modes[k], %(n)d); DataCopy(out[k * %(n)d], d, %(n)d); }
}
static void body(void*) {
%(calls)s
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""
    return text.replace("%(n)d", str(N)).replace("%(calls)s", "\n".join(calls))


def _bf16_bits(v: np.ndarray) -> np.ndarray:
    return (np.asarray(v, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(61)
    ins = []
    for st, cs, _, _, _ in PAIRS:
        if cs == "bfloat16_t":
            v = _bf16_bits(np.concatenate([[64.5, -64.5, 1.5, 2.5], rng.standard_normal(N - 4) * 50]))
        elif np.issubdtype(st, np.integer):
            info = np.iinfo(st)
            v = rng.integers(max(info.min, -2**40), min(info.max, 2**40), N, dtype=np.int64).astype(st)
        else:
            v = (rng.standard_normal(N) * 50).astype(st)
        ins.append(v)
    # the examples of the precision-conversion page
    ins[0][:2] = [2**12 + 2, -(2**12 + 2)]
    ins[1][:2] = [2**25 + 3, -(2**25 + 3)]
    ins[2][:2] = [2**35 + 2**12 + 2**11, -(2**35 + 2**12 + 2**11)]
    ins[4][:4] = [2**7 - 0.5, -200, 2.5, -2.5]
    ins[5][:4] = [1.75, -3, 300, 0.5]
    ins[6][:3] = [2**7 - 0.5, 1e4, -1.5]
    ins[7][:3] = [-1.5, 2.5, -2.5]
    ins[8][:3] = [2**22 + 0.5, -1e9, 2.5]
    ins[9][:2] = [0.5 + 2**-9 + 2**-11, -(0.5 + 2**-9 + 2**-11)]
    ins[10][:2] = [2**22 + 0.5, -2.5]
    ins[11][:4] = [0.5, -0.5, 1.5, -2.5]
    ins[12][:3] = [2**22 + 0.5, np.nan, 3e9]
    ins[13][:2] = [2**31 - 1, -(2**31)]
    ins[15][:2] = [2**31, -(2**31) - 1]
    return ins


def _round(v: np.ndarray, mode: str) -> np.ndarray:
    v = v.astype(np.float64)
    return {"CAST_RINT": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil, "CAST_TRUNC": np.trunc,
            "CAST_ROUND": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), "CAST_NONE": np.rint}[mode](v)


def _neighbours(x: Fraction, kind: str) -> tuple[float, float, bool]:
    """The representable values of `kind` (float16, float32, bfloat16) around x, and whether lo is even."""
    if kind == "bf16":
        b = int(np.array(np.float32(float(x))).view(np.uint32)) >> 16
        cands = [(float(_bf16_value(np.array([c], np.uint16))[0]), c & 1 == 0) for c in (b - 1, b, b + 1)]
    else:
        t = np.dtype(kind).type
        c = t(float(x))
        cands = []
        for v in (np.nextafter(c, t(-np.inf)), c, np.nextafter(c, t(np.inf))):
            bits = int(np.array(v).view(np.uint16 if kind == "float16" else np.uint32))
            cands.append((float(v), bits & 1 == 0))
    lo = max((c for c in cands if Fraction(c[0]) <= x), key=lambda c: c[0])
    hi = min((c for c in cands if Fraction(c[0]) >= x), key=lambda c: c[0])
    return lo[0], hi[0], lo[1]


def _to_float_type(v: np.ndarray, mode: str, kind: str) -> np.ndarray:
    """Round exact values (integers or float64) to float16/float32/bfloat16 under a round mode."""
    out = []
    for x in v:
        fx = Fraction(int(x)) if np.issubdtype(v.dtype, np.integer) else Fraction(float(x))
        lo, hi, lo_even = _neighbours(fx, kind)
        if lo == hi:
            out.append(lo)
            continue
        dl, dh = fx - Fraction(lo), Fraction(hi) - fx
        if mode == "CAST_FLOOR":
            out.append(lo)
        elif mode == "CAST_CEIL":
            out.append(hi)
        elif mode == "CAST_TRUNC":
            out.append(lo if fx > 0 else hi)
        elif mode == "CAST_ROUND":
            out.append(lo if dl < dh else hi if dh < dl else (hi if fx > 0 else lo))
        else:   # CAST_RINT / CAST_NONE: nearest, ties to the even neighbour
            out.append(lo if dl < dh else hi if dh < dl else (lo if lo_even else hi))
    return np.array(out)


@pytest.mark.api("类型转换/Cast")
def test_every_documented_pair_and_round_mode(prog) -> None:
    ins = _inputs()
    prog.inputs(*ins)
    ran = prog.run(_program())
    assert ran.returncode == 0, ran.stderr
    assert "WARNING" not in ran.stderr, ran.stderr
    for i, (_st, cs, dt, cd, modes) in enumerate(PAIRS):
        got = prog.output(i, dt).reshape(len(modes), N)
        src = _bf16_value(ins[i]) if cs == "bfloat16_t" else ins[i]
        for k, mode in enumerate(modes):
            msg = f"{cs} -> {cd} {mode}"
            if cd in ("half", "float", "bfloat16_t") and not (cs == "float" and cd == "float"):
                exact = src.astype(np.int64) if np.issubdtype(src.dtype, np.integer) else src.astype(np.float64)
                kind = {"half": "float16", "float": "float32", "bfloat16_t": "bf16"}[cd]
                want = _to_float_type(exact, mode, kind).astype(np.float32)
                have = _bf16_value(got[k]) if cd == "bfloat16_t" else got[k].astype(np.float32)
                np.testing.assert_array_equal(have, want, err_msg=msg)
            elif cd == "float":
                np.testing.assert_array_equal(got[k], _round(src, mode).astype(np.float32), err_msg=msg)
            else:   # integer destination: round (floating source), saturate, NaN -> 0
                info = np.iinfo(dt)
                v = _round(src, mode) if np.issubdtype(src.dtype, np.floating) else src.astype(np.float64)
                v = np.nan_to_num(v, nan=0.0)
                want = np.clip(v, info.min, info.max).astype(np.int64)
                np.testing.assert_array_equal(got[k].astype(np.int64), want, err_msg=msg)
    # spot checks against the page's numbers
    g = prog.output(0, np.float16).reshape(5, N)
    assert g[:, 0].tolist() == [4096, 4096, 4100, 4100, 4096]
    g = prog.output(2, np.float32).reshape(5, N)
    assert g[:, 0].tolist() == [2**35 + 2**13, 2**35 + 2**12, 2**35 + 2**13, 2**35 + 2**13, 2**35 + 2**12]
    g = prog.output(3, np.int32).reshape(5, N)
    assert g[:, 0].tolist() == [64, 64, 65, 65, 64]
    g = prog.output(6, np.int16).reshape(5, N)
    assert g[:, 0].tolist() == [128, 127, 128, 128, 127]
    g = prog.output(12, np.int32).reshape(5, N)
    assert g[:, 1].tolist() == [0] * 5 and g[:, 2].tolist() == [2**31 - 1] * 5
    assert prog.output(15, np.int32)[:2].tolist() == [2**31 - 1, -(2**31)]


INT4 = """
static void body(void*) {
  GlobalTensor<half> a, o; GlobalTensor<int8_t> o4; GlobalTensor<int32_t> oi;
  a.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(0), 64);
  o4.SetGlobalBuffer((__gm__ int8_t*)npukb_test::gm_output(0, 5 * 32), 5 * 32);
  o.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 2 * 64 * 2), 2 * 64);
  oi.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(2, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bh, b4, bz, bi;
  pipe.InitBuffer(bh, 128); pipe.InitBuffer(b4, 32); pipe.InitBuffer(bz, 128); pipe.InitBuffer(bi, 256);
  LocalTensor<half> x = bh.Get<half>(), z = bz.Get<half>();
  LocalTensor<int8_t> p = b4.Get<int8_t>();
  LocalTensor<int32_t> zi = bi.Get<int32_t>();
  DataCopy(x, a, 64);
  const RoundMode m[5] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL, RoundMode::CAST_ROUND,
                          RoundMode::CAST_TRUNC};
  for (int k = 0; k < 5; ++k) { Cast(p.ReinterpretCast<int4b_t>(), x, m[k], 64); DataCopy(o4[k * 32], p, 32); }
  Cast(z, p.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 64); DataCopy(o, z, 64);
  Cast(z, p.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 64, 1, UnaryRepeatParams(1, 1, 8, 2));
  DataCopy(o[64], z, 64);
  // the widening mask form: 64 elements per repeat by the wider type, dstRepStride 8 / srcRepStride 4 blocks
  Cast(zi, x, RoundMode::CAST_RINT, 64, 1, UnaryRepeatParams(1, 1, 8, 4)); DataCopy(oi, zi, 64);
  Cast(z.ReinterpretCast<float>(), x, RoundMode::CAST_RINT, 32);   // half -> float lists CAST_NONE only: a warning
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("类型转换/Cast")
def test_int4_packing_mask_form_and_round_mode_warning(prog) -> None:
    x = np.linspace(-9, 9, 64).astype(np.float16)
    x[:4] = [1.5, -1.5, 2.5, 9]
    prog.inputs(x)
    ran = prog.run(INT4)
    assert ran.returncode == 0, ran.stderr
    o4 = prog.output(0, np.uint8).reshape(5, 32)
    for k, mode in enumerate(MODES):
        q = np.clip(_round(x, mode), -8, 7).astype(np.int64)
        lo, hi = o4[k] & 0xF, o4[k] >> 4                  # element 2i in the low nibble
        got = np.empty(64, np.int64)
        got[0::2], got[1::2] = lo, hi
        got = np.where(got >= 8, got - 16, got)
        np.testing.assert_array_equal(got, q, err_msg=mode)
    assert o4[0][0] & 0xF == 2 and o4[1][0] & 0xF == 1  # 1.5: RINT 2, FLOOR 1
    back = prog.output(1, np.float16).reshape(2, 64)
    q = np.clip(_round(x, "CAST_TRUNC"), -8, 7).astype(np.float16)
    np.testing.assert_array_equal(back[0], q)
    np.testing.assert_array_equal(back[1], q)
    np.testing.assert_array_equal(prog.output(2, np.int32), np.rint(x.astype(np.float64)).astype(np.int32))
    assert "WARNING" in ran.stderr and "Cast: roundMode 1 is not documented for this (dst, src) pair" in ran.stderr
