"""The high-level math library (SIMD-API/高阶API/数学计算) on the simulator, each API checked against a numpy
reference written from its doc page: every documented overload (with and without sharedTmpBuffer, with
and without calCount) in every documented dtype, a calCount that is not a whole number of blocks (the
elements past it stay untouched), the special values and examples the pages give, and the documented
constraints as violations. Kernels written for these tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from lib_cases import SEG, TAIL, Case, check

RNG = np.random.default_rng(24)


def uni(lo: float, hi: float, n: int = SEG) -> np.ndarray:
    return RNG.uniform(lo, hi, n)


def forms(api: str, ref, x, y=None, tmpl: str = "", two: bool = False) -> list[Case]:
    """The four documented forms of an API: (dst, src, tmp, calCount), (dst, src, calCount), (dst, src, tmp),
    (dst, src); `two`: a second source y."""
    src = "x, y" if two else "x"
    fn = f"{api}{tmpl}"
    return [Case(f"{api} tmp+count", f"{fn}(z, {src}, t, N)", ref, x, y),
            Case(f"{api} count", f"{fn}(z, {src}, N)", ref, x, y),
            Case(f"{api} tmp", f"{fn}(z, {src}, t)", ref, x, y, count=SEG),
            Case(f"{api} whole", f"{fn}(z, {src})", ref, x, y, count=SEG)]


def count_forms(api: str, ref, x, tmpl: str = "") -> list[Case]:
    """The two documented forms of the APIs without a whole-tensor overload."""
    return [Case(f"{api} tmp+count", f"{api}{tmpl}(z, x, t, N)", ref, x),
            Case(f"{api} count", f"{api}{tmpl}(z, x, N)", ref, x)]


def digamma(x: np.ndarray) -> np.ndarray:
    import torch

    return torch.special.digamma(torch.from_numpy(np.asarray(x, np.float64))).numpy()


def lgamma(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(v) if not (v <= 0 and v == math.floor(v)) else math.inf for v in x])


def taylor_exp(level: int):
    def ref(x: np.ndarray, _y: np.ndarray) -> np.ndarray:
        whole = np.floor(x)
        frac = x - whole
        total = sum(frac ** k / math.factorial(k) for k in range(level + 1))
        return np.exp(whole) * total
    return ref


def int_power(x, y):
    """int32_t Power with a negative exponent: the truncated real result (+-1 for a base of +-1, else 0)."""
    neg = np.where(x == 1, 1, np.where(x == -1, (-1) ** np.abs(y), 0))
    return np.where(y >= 0, x ** np.abs(y), neg)


def bit_xor(x, y):
    return np.bitwise_xor(x.astype(np.int64), y.astype(np.int64))


def fmod(x, y):
    return np.fmod(x, y)


def round_half_even(x, _y):
    return np.rint(x)


def sign(x, _y):
    return np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0))


def unary_cases() -> list[Case]:
    cases: list[Case] = []
    cases += forms("Sin", lambda x, _: np.sin(x), uni(-10, 10))
    cases += forms("Cos", lambda x, _: np.cos(x), uni(-10, 10))
    cases += forms("Tan", lambda x, _: np.tan(x), uni(-1.4, 1.4))
    cases += forms("Asin", lambda x, _: np.arcsin(x), uni(-1, 1))
    cases += forms("Acos", lambda x, _: np.arccos(x), uni(-1, 1))
    cases += forms("Atan", lambda x, _: np.arctan(x), uni(-10, 10))
    cases += forms("Sinh", lambda x, _: np.sinh(x), uni(-5, 5))
    cases += forms("Cosh", lambda x, _: np.cosh(x), uni(-5, 5))
    cases += forms("Tanh", lambda x, _: np.tanh(x), uni(-5, 5))
    cases += forms("Asinh", lambda x, _: np.arcsinh(x), uni(-50, 50))
    cases += forms("Acosh", lambda x, _: np.arccosh(x), uni(1, 50))
    cases += forms("Atanh", lambda x, _: np.arctanh(x), uni(-0.99, 0.99))
    cases += forms("Erf", lambda x, _: np.vectorize(math.erf)(x), uni(-3, 3))
    cases += forms("Erfc", lambda x, _: np.vectorize(math.erfc)(x), uni(-3, 3))
    cases += count_forms("Digamma", lambda x, _: digamma(x), np.concatenate([uni(0.2, 10, 96), uni(-3.9, -0.1, 32)]))
    cases += count_forms("Lgamma", lambda x, _: lgamma(x), np.concatenate([uni(0.2, 10, 96), uni(-3.9, -0.1, 32)]))
    cases += [Case("Log count", "Log(z, x, N)", lambda x, _: np.log(x), uni(0.01, 100)),
              Case("Log whole", "Log(z, x)", lambda x, _: np.log(x), uni(0.01, 100), count=SEG)]
    cases += forms("Log2", lambda x, _: np.log2(x), uni(0.01, 100))
    cases += [Case("Log10 count", "Log10(z, x, N)", lambda x, _: np.log10(x), uni(0.01, 100)),
              Case("Log10 whole", "Log10(z, x)", lambda x, _: np.log10(x), uni(0.01, 100), count=SEG)]
    cases += count_forms("Exp", taylor_exp(12), uni(-5, 5), "<T, 12>")
    cases += count_forms("Exp", lambda x, _: np.exp(x), uni(-5, 5), "<T, 0>")
    cases += count_forms("Round", round_half_even, np.round(uni(-20, 20) * 4) / 4)   # quarters: ties included
    cases += count_forms("Floor", lambda x, _: np.floor(x), uni(-10, 10))
    cases += count_forms("Ceil", lambda x, _: np.ceil(x), uni(-10, 10))
    cases += forms("Trunc", lambda x, _: np.trunc(x), uni(-10, 10))
    cases += forms("Frac", lambda x, _: x - np.trunc(x), uni(-10, 10))
    cases += forms("Sign", sign, np.concatenate([uni(-3, 3, 120), np.zeros(8)]))
    cases += forms("Fmod", fmod, uni(-5, 5), uni(0.5, 3) * np.sign(uni(-1, 1)), two=True)
    cases += forms("Power", lambda x, y: np.power(x, y), uni(0.1, 4), uni(-2, 2), two=True)
    cases += [Case("Power tensor^scalar tmp+count", "Power(z, x, (T)2.5, t, N)", lambda x, _: x ** 2.5, uni(0.1, 4)),
              Case("Power tensor^scalar count", "Power(z, x, (T)-1.5, N)", lambda x, _: x ** -1.5, uni(0.1, 4)),
              Case("Power tensor^scalar tmp", "Power(z, x, (T)2, t)", lambda x, _: x ** 2, uni(-4, 4), count=SEG),
              Case("Power tensor^scalar whole", "Power(z, x, (T)3)", lambda x, _: x ** 3, uni(-4, 4), count=SEG),
              Case("Power scalar^tensor tmp+count", "Power(z, (T)2, x, t, N)", lambda x, _: 2.0 ** x, uni(-4, 4)),
              Case("Power scalar^tensor count", "Power(z, (T)0.5, x, N)", lambda x, _: 0.5 ** x, uni(-4, 4)),
              Case("Power scalar^tensor tmp", "Power(z, (T)3, x, t)", lambda x, _: 3.0 ** x, uni(-2, 2), count=SEG),
              Case("Power scalar^tensor whole", "Power(z, (T)1.5, x)", lambda x, _: 1.5 ** x, uni(-2, 2), count=SEG)]
    cases += [Case("ClampMax tmp", "ClampMax(z, x, t, (T)2, N)", lambda x, _: np.minimum(x, 2), np.arange(SEG) - 50.0),
              Case("ClampMax", "ClampMax(z, x, (T)-3, N)", lambda x, _: np.minimum(x, -3), uni(-10, 10)),
              Case("ClampMin tmp", "ClampMin(z, x, t, (T)2, N)", lambda x, _: np.maximum(x, 2), np.arange(SEG) - 50.0),
              Case("ClampMin", "ClampMin(z, x, (T)-3, N)", lambda x, _: np.maximum(x, -3), uni(-10, 10))]
    return cases


@pytest.mark.api("Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh", "Erf",
                 "Erfc", "Digamma", "Lgamma", "Log接口/Log", "Exp接口/Exp", "Round", "Floor", "Ceil", "Trunc", "Frac",
                 "Sign", "Fmod", "Power", "ClampMax", "ClampMin")
@pytest.mark.parametrize("ctype, rtol, atol", [("float", 2e-5, 2e-6), ("half", 2e-3, 2e-3)])
def test_every_form_of_the_elementwise_math_apis(prog, ctype, rtol, atol) -> None:
    check(prog, ctype, unary_cases(), rtol, atol)


@pytest.mark.api("Power", "Xor接口/Xor")
def test_integer_power_and_xor(prog, tmp_path, sim_cache) -> None:
    # The Power page's examples (int32_t): tensor ^ tensor, scalar ^ tensor, tensor ^ scalar.
    base = np.array([2, 3, 4, 5, 6, 7, 8, 9])
    ex = np.array([4, 3, 2, 1, 4, 3, 2, 1])
    cases = [Case("Power doc tensor^tensor", "Power(z, x, y, t, 8)", lambda x, y: x ** y, base, ex, count=8),
             Case("Power doc scalar^tensor", "Power(z, (T)2, x, 8)", lambda x, _: 2 ** x, ex, count=8),
             Case("Power doc tensor^scalar", "Power(z, x, (T)4, t, 8)", lambda x, _: x ** 4, base, count=8),
             Case("Power negative exponent", "Power(z, x, y, N)", int_power, RNG.integers(-3, 4, SEG),
                  RNG.integers(-3, 6, SEG)),
             Case("Power whole", "Power(z, x, y)", lambda x, y: x ** y, RNG.integers(-5, 6, SEG),
                  RNG.integers(0, 9, SEG), count=SEG)]
    check(prog, "int32_t", cases, 0, 0)
    x16 = RNG.integers(-30000, 30000, SEG)
    y16 = RNG.integers(-30000, 30000, SEG)
    xor_cases = [Case("Xor doc", "Xor(z, x, y, t, 8)", bit_xor, np.array([2, 3, 5, 7, 11, 13, 17, 19]), np.arange(1, 9),
                      count=8),
                 *forms("Xor", bit_xor, x16, y16, two=True)]
    check(prog, "int16_t", xor_cases, 0, 0)
    prog2 = type(prog)(tmp_path / "u16", sim_cache)
    u16 = forms("Xor", bit_xor, RNG.integers(0, 65535, SEG), RNG.integers(0, 65535, SEG), two=True)
    check(prog2, "uint16_t", u16, 0, 0)


@pytest.mark.api("Sign", "Round", "Floor", "Ceil", "Trunc", "Frac", "Fmod", "Acosh", "Atanh", "Lgamma", "Digamma",
                 "Asin", "Acos", "Erfc", "ClampMax", "ClampMin")
def test_documented_special_values_and_examples(prog) -> None:
    inf, nan = np.inf, np.nan
    trunc_in = [9.33, -8.07, -6.38, 8.45, 5.83, 6.46, 4.18, 1.93]
    asin_in = [0.0, 0.001, 0.252, 0.253, -1.0, 1.0, 1.5, -2.0]
    clamp_in = [0.0, 1.0, 2.0, 126.0, 127.0, nan, -inf, inf]

    def ex(name: str, call: str, ref, values, y=None) -> Case:
        return Case(name, call, ref, np.array(values, np.float64), y, count=8)

    cases = [
        # Sign: -0, 0 and NaN give 0 (the page's example)
        ex("Sign", "Sign(z, x, t, 8)", sign, [-inf, -2.0, -0.0, 0.0, nan, -nan, 2.0, inf]),
        # Round: halves go to the even neighbour
        ex("Round", "Round(z, x, t, 8)", round_half_even, [0.5, 1.5, 2.5, -0.5, -2.5, 3.5, 0.49999997, -1.5]),
        ex("Floor", "Floor(z, x, 8)", lambda x, _: np.floor(x), [-1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5]),
        ex("Ceil", "Ceil(z, x, 8)", lambda x, _: np.ceil(x), [-1.1, 0.0, 0.9, 1.9, 2.9, 3.9, 4.9, 5.9]),
        ex("Trunc", "Trunc(z, x, 8)", lambda x, _: np.trunc(x), trunc_in),
        ex("Frac", "Frac(z, x, 8)", lambda x, _: x - np.trunc(x), trunc_in),
        # Fmod keeps the dividend's sign
        ex("Fmod", "Fmod(z, x, y, 8)", fmod, [-2.56, -2.55, -0.01, 0.0, 0.01, 2.53, 2.54, 2.55], np.full(8, 2.0)),
        # out of the documented domains: the function's own value (NaN, inf)
        ex("Acosh", "Acosh(z, x, 8)", lambda x, _: np.arccosh(x), [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.5, 1e4]),
        ex("Atanh", "Atanh(z, x, 8)", lambda x, _: np.arctanh(x), [0.0, 0.01, 0.02, 0.99, 1.0, 1.01, -1.0, -0.5]),
        ex("Asin", "Asin(z, x, 8)", lambda x, _: np.arcsin(x), asin_in),
        ex("Acos", "Acos(z, x, 8)", lambda x, _: np.arccos(x), asin_in),
        ex("Lgamma", "Lgamma(z, x, 8)", lambda x, _: lgamma(x), [0.0, 0.01, 0.02, 0.03, 0.04, -1.0, -2.5, 1.0]),
        ex("Digamma", "Digamma(z, x, 8)", lambda x, _: digamma(x),
           [5.3675685, 0.26528683, -2.872628, 2.9387941, 9.001339, 0.0, -1.0, 1.0]),
        ex("Erfc", "Erfc(z, x, 8)", lambda x, _: np.vectorize(math.erfc)(x), [0.0, 1.0, 2.0, 3.0, -inf, inf, 10, -10]),
        ex("ClampMax", "ClampMax(z, x, (T)2, 8)", lambda x, _: np.where(np.isnan(x), x, np.minimum(x, 2)), clamp_in),
        ex("ClampMin", "ClampMin(z, x, (T)2, 8)", lambda x, _: np.where(np.isnan(x), x, np.maximum(x, 2)), clamp_in),
    ]
    check(prog, "float", cases, 2e-6, 1e-7)
    got = prog.output(0, np.float32)
    assert list(got[0:8]) == [-1, -1, 0, 0, 0, 0, 1, 1]
    assert list(got[SEG:SEG + 8]) == [0, 2, 2, 0, -2, 4, 0, -2]


@pytest.mark.api("Exp接口/Exp")
def test_high_level_exp_evaluates_the_documented_taylor_form(prog) -> None:
    # exp(floor(x)) times the Taylor series of the fractional part: two terms are visibly less precise
    x = np.linspace(-3, 3, SEG)
    cases = [Case("Exp level 2", "Exp<T, 2>(z, x, t, N)", taylor_exp(2), x),
             Case("Exp level 15", "Exp<T, 15, false>(z, x, N)", lambda v, _: np.exp(v), x)]
    check(prog, "float", cases, 2e-6, 1e-6)
    got = prog.output(0, np.float32)[:TAIL]
    assert np.max(np.abs(got / np.exp(x[:TAIL]) - 1)) > 1e-2   # a 2-term series is not exp


@pytest.mark.api("Axpy接口/Axpy")
def test_high_level_axpy_in_its_three_precision_combinations(prog) -> None:
    body = """
static void body(void*) {
  GlobalTensor<float> a, o;
  GlobalTensor<half> ah, oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 128);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 256 * 4), 256);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 128 * 2), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bf, bd, bh, bdh, bt;
  pipe.InitBuffer(bf, 512); pipe.InitBuffer(bd, 512); pipe.InitBuffer(bh, 256); pipe.InitBuffer(bdh, 256);
  pipe.InitBuffer(bt, 4096);
  LocalTensor<float> x = bf.Get<float>(), d = bd.Get<float>();
  LocalTensor<half> xh = bh.Get<half>(), dh = bdh.Get<half>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, a, 128); DataCopy(xh, ah, 128);
  Duplicate(d, 1.0f, 128);
  Axpy<float, float>(d, x, 2.0f, t, 100);            // float: d = x * 2 + 1
  DataCopy(o, d, 128);
  Duplicate(d, 1.0f, 128);
  Axpy<float, half>(d, xh, (half)0.5, t, 100);       // mixed: half source and scalar, float dst
  DataCopy(o[128], d, 128);
  Duplicate(dh, (half)1.0, 128);
  Axpy<half, half>(dh, xh, (half)-3.0, t, 100);      // half
  DataCopy(oh, dh, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""
    x = RNG.uniform(-4, 4, 128).astype(np.float32)
    xh = RNG.uniform(-4, 4, 128).astype(np.float16)
    prog.inputs(x, xh)
    ran = prog.run(body)
    assert ran.returncode == 0, ran.stderr
    got, goth = prog.output(0, np.float32), prog.output(1, np.float16)
    np.testing.assert_allclose(got[:100], x[:100] * 2 + 1, rtol=1e-6)
    np.testing.assert_allclose(got[128:228], xh[:100].astype(np.float32) * 0.5 + 1, rtol=1e-6)
    np.testing.assert_allclose(goth[:100].astype(np.float32), (xh[:100].astype(np.float32) * -3 + 1).astype(np.float16),
                               rtol=2e-3, atol=2e-3)
    assert np.all(got[100:128] == 1) and np.all(goth[100:] == 1)


CUMSUM = """
static void body(void*) {
  GlobalTensor<T> a, o;
  a.SetGlobalBuffer((__gm__ T*)npukb_test::gm_input(0), 4 * W);
  o.SetGlobalBuffer((__gm__ T*)npukb_test::gm_output(0, 4 * (4 * W + 32) * sizeof(T)), 4 * (4 * W + 32));
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, bl, bt;
  pipe.InitBuffer(bx, 4 * W * sizeof(T)); pipe.InitBuffer(bz, 4 * W * sizeof(T));
  pipe.InitBuffer(bl, 32 * sizeof(T)); pipe.InitBuffer(bt, TMP);
  LocalTensor<T> x = bx.Get<T>(), z = bz.Get<T>(), l = bl.Get<T>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, a, 4 * W);
  static constexpr CumSumConfig lastAxis{true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  static constexpr CumSumConfig firstAxis{false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  static constexpr CumSumConfig noLastRow{false, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  const CumSumInfo info{OUTTER, W};
  int at = 0;
  Duplicate(l, (T)-7, 32);
  CumSum<T, lastAxis>(z, l, x, t, info);
  DataCopy(o[at], z, 4 * W); DataCopy(o[at + 4 * W], l, 32); at += 4 * W + 32;
  Duplicate(l, (T)-7, 32);
  CumSum<T, firstAxis>(z, l, x, info);
  DataCopy(o[at], z, 4 * W); DataCopy(o[at + 4 * W], l, 32); at += 4 * W + 32;
  Duplicate(l, (T)-7, 32);
  CumSum<T, noLastRow>(z, l, x, t, info);
  DataCopy(o[at], z, 4 * W); DataCopy(o[at + 4 * W], l, 32); at += 4 * W + 32;
  CumSum<T>(z, l, x, info);   // the default config: last axis, no last row
  DataCopy(o[at], z, 4 * W);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("CumSum")
@pytest.mark.parametrize("ctype, dt, width", [("float", np.float32, 8), ("half", np.float16, 16)])
def test_cumsum_along_either_axis_with_the_last_row(prog, ctype, dt, width) -> None:
    outter = 4
    x = RNG.integers(-4, 5, outter * width).astype(dt)
    prog.inputs(x)
    ran = prog.run(f"using T = {ctype};\n#define W {width}\n#define OUTTER {outter}\n#define TMP 8192\n" + CUMSUM)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, dt).astype(np.float64)
    m = x.astype(np.float64).reshape(outter, width)
    seg = 4 * width + 32
    last = np.cumsum(m, axis=1)
    first = np.cumsum(m, axis=0)
    np.testing.assert_array_equal(got[:4 * width].reshape(outter, width), last)
    np.testing.assert_array_equal(got[4 * width:4 * width + outter], last[:, -1])        # the last column
    np.testing.assert_array_equal(got[seg:seg + 4 * width].reshape(outter, width), first)
    np.testing.assert_array_equal(got[seg + 4 * width:seg + 5 * width], first[-1])       # the last row
    np.testing.assert_array_equal(got[2 * seg + 4 * width:2 * seg + 4 * width + 32], np.full(32, -7.0))  # not written
    np.testing.assert_array_equal(got[3 * seg:3 * seg + 4 * width].reshape(outter, width), last)


@pytest.mark.api("CumSum")
def test_cumsum_doc_example(prog) -> None:
    # The page's example: [4, 8] ones along the last axis -> 1..8 per row, last column [8, 8, 8, 8].
    prog.inputs(np.ones(32, np.float32))
    ran = prog.run("using T = float;\n#define W 8\n#define OUTTER 4\n#define TMP 8192\n" + CUMSUM)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    assert list(got[:32]) == list(range(1, 9)) * 4
    assert list(got[32:36]) == [8, 8, 8, 8]
    assert list(got[64:96]) == [1] * 8 + [2] * 8 + [3] * 8 + [4] * 8 and list(got[96:104]) == [4] * 8


@pytest.mark.api("Sin", "Cos", "Exp接口/Exp", "Digamma", "Lgamma")
def test_is_reuse_source_lets_a_float_source_be_overwritten(prog) -> None:
    # The docs let Sin, Cos, Exp, Digamma and Lgamma use a float source as work space when isReuseSource
    # is true: the result is right and the source is no longer the input. A half source stays.
    body = """
static void body(void*) {
  GlobalTensor<float> a, o;
  GlobalTensor<half> ah, oh;
  a.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 128);
  ah.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(1), 128);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 4 * 128 * 4), 4 * 128);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 128 * 2), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz, bh, bt;
  pipe.InitBuffer(bx, 512); pipe.InitBuffer(bz, 512); pipe.InitBuffer(bh, 256); pipe.InitBuffer(bt, 8192);
  LocalTensor<float> x = bx.Get<float>(), z = bz.Get<float>();
  LocalTensor<half> xh = bh.Get<half>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, a, 128);
  Sin<float, true>(z, x, t, 128);
  DataCopy(o, z, 128); DataCopy(o[128], x, 128);
  DataCopy(x, a, 128);
  Exp<float, 12, true>(z, x, 128);
  DataCopy(o[256], z, 128); DataCopy(o[384], x, 128);
  DataCopy(xh, ah, 128);
  LocalTensor<half> zh = bz.Get<half>();
  Sin<half, true>(zh, xh, t, 128);
  DataCopy(oh, xh, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""
    x = RNG.uniform(-6, 6, 128).astype(np.float32)
    xh = RNG.uniform(-6, 6, 128).astype(np.float16)
    prog.inputs(x, xh)
    ran = prog.run(body)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32).reshape(4, 128)
    np.testing.assert_allclose(got[0], np.sin(x), rtol=1e-5, atol=1e-6)
    assert np.mean(got[1] != x) > 0.5                                # the source holds an intermediate now
    np.testing.assert_allclose(got[2], np.exp(x), rtol=1e-5)
    np.testing.assert_allclose(got[3], x - np.floor(x), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(prog.output(1, np.float16), xh)    # a half source is left alone


# ---- constraints ----------------------------------------------------------------------------------
VIOLATION = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bt;
  pipe.InitBuffer(bx, 512); pipe.InitBuffer(by, 512); pipe.InitBuffer(bz, 512); pipe.InitBuffer(bt, 8192);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  LocalTensor<int16_t> xi = bx.Get<int16_t>(), zi = bz.Get<int16_t>();
  Duplicate(x, 0.5f, 128); Duplicate(y, 2.0f, 128);
  CALL;
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Acos", "Tanh", "Xor接口/Xor", "Power", "CumSum", "Fmod", "Sin")
@pytest.mark.parametrize("call, message", [
    # a sharedTmpBuffer below the minimum, or overlapping an operand
    ("LocalTensor<uint8_t> s = t; s.SetSize(64); Acos(z, x, s, 100)", "fewer than"),
    ("Tanh(z, x, bz.Get<uint8_t>(), 64)", "sharedTmpBuffer overlaps dstTensor"),
    ("Tanh(z, x, bx.Get<uint8_t>(), 64)", "sharedTmpBuffer overlaps srcTensor"),
    # Xor: calCount within every operand
    ("Xor(zi, xi, xi, 300)", "calCount 300 exceeds"),
    # whole-tensor forms need equal sizes
    ("Power(z, x, y[8])", "without calCount the sources must have the same size"),
    ("Fmod(z, x, y[8], t)", "without calCount the sources must have the same size"),
    # CumSum: a positive shape whose rows are whole 32-byte blocks and fit the tensors
    ("CumSum(z, z, x, CumSumInfo{2, 12})", "not a multiple of 32"),
    ("CumSum(z, z, x, CumSumInfo{0, 8})", "must both be greater than 0"),
    ("CumSum(z, z, x, CumSumInfo{32, 8})", "exceeds the elements"),
])
def test_documented_constraints_are_violations(prog, call, message) -> None:
    ran = prog.run(VIOLATION.replace("CALL", call))
    assert ran.returncode != 0 and message in ran.stderr, ran.stderr


@pytest.mark.api("Sin")
def test_sin_beyond_its_a2_input_range_warns(prog) -> None:
    ran = prog.run(VIOLATION.replace("CALL", "x.SetValue(3, 70000.0f); Sin(z, x, t, 8)"))
    assert ran.returncode == 0, ran.stderr
    assert "outside the documented input range [-65504, 65504]" in ran.stderr


@pytest.mark.parametrize("snippet, message", [
    ("LocalTensor<int32_t> a; Acos(a, a, 8);", "Acos: unsupported data type (half, float)"),
    ("LocalTensor<float> a; Xor(a, a, a, 8);", "Xor: unsupported data type (int16_t, uint16_t)"),
    ("LocalTensor<int16_t> a; Power(a, a, a, 8);", "Power: unsupported data type (half, float, int32_t)"),
    ("LocalTensor<bfloat16_t> a; Sign(a, a, 8);", "Sign: unsupported data type (half, float)"),
    ("LocalTensor<half> a; LocalTensor<int32_t> b; LocalTensor<uint8_t> t; Axpy<int32_t, half>(b, a, (half)1, t, 8);",
     "Axpy: supported (dst, src) types"),
])
def test_undocumented_data_types_do_not_compile(tmp_path, snippet, message) -> None:
    from simkit import syntax_check

    src = '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + snippet + ' }\n'
    res = syntax_check(src, tmp_path)
    assert not res.ok and message in res.stderr, res.stderr[-2000:]
