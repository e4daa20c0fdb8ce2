"""The elementwise activations of the library (SIMD-API/高阶API/激活函数) on the simulator, each checked
against the formula and the example its doc page gives: every documented overload in every documented
dtype (half, float; ReGlu also bfloat16_t), a calCount that is not a whole number of blocks, and the
constraints as violations. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from lib_cases import SEG, Case, check

RNG = np.random.default_rng(42)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def gelu(x):
    return x / (1 + np.exp(-1.5957691216 * (x + 0.044715 * x ** 3)))


def faster_gelu(x):
    return x / (1 + np.exp(-1.702 * x))


def faster_gelu_v2(x):
    a, b, c = -0.1444, -1.769, 0.7071
    t = np.minimum(np.abs(x) * c, -b)
    return x * (np.sign(x) * (a * (t + b) ** 2 + 0.5) + 0.5)


def cases() -> list[Case]:
    x = RNG.uniform(-6, 6, SEG)
    y = RNG.uniform(-4, 4, SEG)
    out = [Case("Sigmoid tmp+count", "Sigmoid(z, x, t, N)", lambda v, _: sigmoid(v), x),
           Case("Sigmoid count", "Sigmoid(z, x, N)", lambda v, _: sigmoid(v), x),
           Case("Sigmoid tmp", "Sigmoid(z, x, t)", lambda v, _: sigmoid(v), x, count=SEG),
           Case("Sigmoid whole", "Sigmoid(z, x)", lambda v, _: sigmoid(v), x, count=SEG),
           Case("Silu", "Silu(z, x, N)", lambda v, _: v * sigmoid(v), x),
           Case("Swish", "Swish(z, x, N, (T)-1.702)", lambda v, _: v / (1 + np.exp(-1.702 * v)), x),
           Case("Swish beta 0.5", "Swish(z, x, N, (T)0.5)", lambda v, _: v / (1 + np.exp(0.5 * v)), x)]
    for api, fn in (("Gelu", gelu), ("FasterGelu", faster_gelu), ("FasterGeluV2", faster_gelu_v2)):
        for flags in ("", "<T, true, false>", "<T, false, true>"):
            out.append(Case(f"{api}{flags} tmp", f"{api}{flags}(z, x, t, N)", lambda v, _, f=fn: f(v), x))
            out.append(Case(f"{api}{flags}", f"{api}{flags}(z, x, N)", lambda v, _, f=fn: f(v), x))
    glu = {"GeGLU": (lambda a, b: a * gelu(b), ""), "SwiGLU": (lambda a, b: a * b * sigmoid(0.7 * b), "0.7f, ")}
    for api, (fn, beta) in glu.items():
        out += [Case(f"{api} tmp+count", f"{api}(z, x, y, {beta}t, N)", fn, x, y),
                Case(f"{api} count", f"{api}(z, x, y, {beta}N)", fn, x, y),
                Case(f"{api} tmp", f"{api}(z, x, y, {beta}t)", fn, x, y, count=SEG),
                Case(f"{api} whole", f"{api}(z, x, y{', ' + beta[:-2] if beta else ''})", fn, x, y, count=SEG)]
    out += [Case("ReGlu tmp+count", "ReGlu(z, x, y, t, N)", lambda a, b: a * np.maximum(b, 0), x, y),
            Case("ReGlu count", "ReGlu(z, x, y, N)", lambda a, b: a * np.maximum(b, 0), x, y)]
    return out


@pytest.mark.api("Sigmoid", "Silu", "Swish", "Gelu", "FasterGelu", "FasterGeluV2", "GeGLU", "SwiGLU", "ReGlu")
@pytest.mark.parametrize("ctype, rtol, atol", [("float", 2e-5, 2e-6), ("half", 2e-3, 2e-3)])
def test_every_form_of_the_activations(prog, ctype, rtol, atol) -> None:
    check(prog, ctype, cases(), rtol, atol)


@pytest.mark.api("Sigmoid", "Silu", "Swish", "GeGLU", "ReGlu", "SwiGLU", "FasterGelu", "FasterGeluV2", "Gelu")
def test_the_doc_pages_examples(prog) -> None:
    # The inputs and outputs printed on each page (the GLU forms activate their second source).
    sig_in = np.array([-100, -50, -20, -10, -5, -4, -3, -2, -1, -0.5, -0.4, -0.3, -0.2, -0.1, -0.01, 0.0,
                       0.0, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 1, 2, 3, 4, 5, 10, 20, 50, 100])
    sig_out = [0, 0, 0, 0.0000454, 0.00669285, 0.01798621, 0.04742587, 0.11920292, 0.26894142, 0.37754067, 0.40131234,
               0.42555748, 0.450166, 0.47502081, 0.49750002, 0.5, 0.5, 0.50249998, 0.52497919, 0.549834, 0.57444252,
               0.59868766, 0.62245933, 0.73105858, 0.88079708, 0.95257413, 0.98201379, 0.99330715, 0.9999546, 1, 1, 1]
    silu_out = [-0.0, -0.0, -0.00000004, -0.00045398, -0.03346425, -0.07194484, -0.14227761, -0.23840587, -0.2689414,
                -0.18877034, -0.16052495, -0.12766725, -0.0900332, -0.04750208, -0.004975, 0, 0, 0.005025, 0.05249792,
                0.10996681, 0.17233276, 0.23947507, 0.31122968, 0.7310586, 1.761594, 2.8577225, 3.928055, 4.9665356,
                9.999546, 20, 50, 100]
    lin = np.linspace(-4, 4, 32)
    swish_out = [-0.00441472, -0.00640367, -0.00924141, -0.01325663, -0.01887952, -0.02665107, -0.03720944,
                 -0.05122496, -0.06923404, -0.09129371, -0.11635891, -0.14131825, -0.15980731, -0.16135658, -0.13200021,
                 -0.05746017, 0.07157208, 0.25509655, 0.48380467, 0.74341846, 1.019972, 1.3029958, 1.5861256, 1.8662498,
                 2.1423235, 2.4144034, 2.6830263, 2.9488626, 3.2125497, 3.4746296, 3.735532, 3.995585]
    swiglu_out = [-1.2449187, -1.1646013, -1.084284, -1.0039667, -0.9236493, -0.843332, -0.7630147, -0.68269736,
                  -0.60238, -0.52206266, -0.4417453, -0.361428, -0.28111064, -0.20079333, -0.12047599, -0.04015867,
                  0.04015867, 0.12047599, 0.20079333, 0.28111064, 0.361428, 0.4417453, 0.52206266, 0.60238, 0.68269736,
                  0.7630147, 0.843332, 0.9236493, 1.0039667, 1.084284, 1.1646013, 1.2449187]
    relu_in = np.arange(-16, 16) / 10.0
    table = [
        Case("Sigmoid", "Sigmoid(z, x, t, 32)", lambda v, _: np.array(sig_out), sig_in, count=32),
        Case("Silu", "Silu(z, x, 32)", lambda v, _: np.array(silu_out), sig_in, count=32),
        Case("Swish", "Swish(z, x, 32, (T)-1.702)", lambda v, _: np.array(swish_out), lin, count=32),
        Case("SwiGLU", "SwiGLU(z, x, y, 1.0f, 32)", lambda v, _: np.array(swiglu_out), lin, np.full(32, 0.5), count=32),
        Case("ReGlu", "ReGlu(z, x, y, t, 30)", lambda a, b: a * np.maximum(b, 0), np.full(32, 2.0), relu_in,
             count=30),
    ]
    check(prog, "float", table, 1e-5, 1e-6)
    got = prog.output(0, np.float32)
    np.testing.assert_allclose(got[4 * SEG:4 * SEG + 30], [0.0] * 17 + [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8,
                                                                       2.0, 2.2, 2.4, 2.6], atol=1e-6)


@pytest.mark.api("GeGLU", "Gelu", "FasterGelu", "FasterGeluV2")
def test_the_half_examples_of_the_gelu_pages(prog) -> None:
    # Half-precision examples: GeGLU(src0, 2), Gelu, FasterGelu and FasterGeluV2 (an output printed to
    # fewer digits than half carries is compared to its printed precision).
    gelu_in = np.array([-2.56, -2.395, -2.23, -2.066, -1.9, -1.735, -1.571, -1.406, -1.241, -1.076, -0.9116, -0.7466,
                        -0.582, -0.417, -0.2522, -0.0874, 0.0774, 0.2423, 0.407, 0.572, 0.737, 0.902, 1.066, 1.231,
                        1.396, 1.561, 1.726, 1.891, 2.055, 2.22, 2.385, 2.55])
    gelu_out = [-0.01295471, -0.01953125, -0.02836609, -0.03991699, -0.05453491, -0.07196045, -0.09130859, -0.11254883,
                -0.13342285, -0.15185547, -0.16516113, -0.17004395, -0.16320801, -0.14111328, -0.10101318, -0.04067993,
                0.04107666, 0.14428711, 0.26782227, 0.40942383, 0.56689453, 0.7363281, 0.9135742, 1.0966797, 1.2822266,
                1.4677734, 1.6533203, 1.8349609, 2.0136719, 2.1914062, 2.3632812, 2.5390625]
    fg_in = np.array([-1.83887, -3.60742, 3.12891, -0.620605, 2.0625, -2.77344, -0.04422, -3.54297, -3.16211, 2.67383,
                      1.3291, -1.57617, -0.0123901, 3.77539, -1.61621, -0.616699])
    fg_out = [-0.0769653, -0.00775528, 3.11328, -0.160034, 2.00195, -0.0244446, -0.021286, -0.00849152, -0.0144653,
              2.64453, 1.20312, -0.100769, -0.00613022, 3.76758, -0.0969238, -0.159912]
    v2_in = np.array([-1.251, 1.074, -6.137, -9.67, -5.066, -9.44, -3.588, -5.758, -7.484, -5.35, -9.62, -4.33, -6.66,
                      -3.732, 0.0841, -8.59, -6.3, -4.62, -3.059, -8.34, -8.24, -7.617, -7.93, -3.592, -3.268, -5.406,
                      -9.49, 5.633, -5.3, -9.36, -6.715, -5.727])
    v2_out = [-0.1411, 0.916] + [0.0] * 12 + [0.0486] + [0.0] * 12 + [5.633] + [0.0] * 4
    geglu_in = np.array([-2.56, -2.55, -2.54, 2.53, 2.54, 2.55])
    geglu_out = [-5.004, -4.984, -4.96, 4.94, 4.96, 4.984]
    table = [
        Case("Gelu", "Gelu<T, false>(z, x, t, 32)", lambda v, _: np.array(gelu_out), gelu_in, count=32),
        Case("FasterGelu", "FasterGelu(z, x, 16)", lambda v, _: np.array(fg_out), fg_in, count=16),
        Case("FasterGeluV2", "FasterGeluV2<T, false, true>(z, x, 32)", lambda v, _: np.array(v2_out), v2_in, count=32),
        Case("GeGLU", "GeGLU<T, false>(z, x, y, t, 6)", lambda a, _: np.array(geglu_out), geglu_in, np.full(6, 2.0),
             count=6),
    ]
    check(prog, "half", table, 2e-3, 2e-3)


BF16 = """
static void body(void*) {
  GlobalTensor<bfloat16_t> a, b, o;
  a.SetGlobalBuffer((__gm__ bfloat16_t*)npukb_test::gm_input(0), 128);
  b.SetGlobalBuffer((__gm__ bfloat16_t*)npukb_test::gm_input(1), 128);
  o.SetGlobalBuffer((__gm__ bfloat16_t*)npukb_test::gm_output(0, 256 * 2), 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bt;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(by, 256); pipe.InitBuffer(bz, 256); pipe.InitBuffer(bt, 4096);
  LocalTensor<bfloat16_t> x = bx.Get<bfloat16_t>(), y = by.Get<bfloat16_t>(), z = bz.Get<bfloat16_t>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  DataCopy(x, a, 128); DataCopy(y, b, 128);
  ReGlu(z, x, y, t, 100);
  DataCopy(o, z, 128);
  ReGlu<bfloat16_t>(z, y, x, 128);
  DataCopy(o[128], z, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def to_bf16(v: np.ndarray) -> np.ndarray:
    bits = np.asarray(v, np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.api("ReGlu")
def test_reglu_in_bfloat16(prog) -> None:
    # bfloat16_t is documented for ReGlu on A2 / A3: computed in fp32, rounded to bfloat16.
    x, y = to_bf16(RNG.uniform(-4, 4, 128)), to_bf16(RNG.uniform(-4, 4, 128))
    prog.inputs(x, y)
    ran = prog.run(BF16)
    assert ran.returncode == 0, ran.stderr
    got = from_bf16(prog.output(0, np.uint16))
    xf, yf = from_bf16(x), from_bf16(y)
    np.testing.assert_array_equal(got[:100], from_bf16(to_bf16(xf[:100] * np.maximum(yf[:100], 0))))
    np.testing.assert_array_equal(got[128:], from_bf16(to_bf16(yf * np.maximum(xf, 0))))


VIOLATION = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bt;
  pipe.InitBuffer(bx, 512); pipe.InitBuffer(by, 512); pipe.InitBuffer(bz, 512); pipe.InitBuffer(bt, 8192);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
  Duplicate(x, 0.5f, 128); Duplicate(y, 2.0f, 128);
  CALL;
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("Gelu", "SwiGLU", "GeGLU", "Sigmoid")
@pytest.mark.parametrize("call, message", [
    ("LocalTensor<uint8_t> s = t; s.SetSize(32); Gelu(z, x, s, 128)", "fewer than"),
    ("Sigmoid(z, x, bz.Get<uint8_t>(), 64)", "sharedTmpBuffer overlaps dstTensor"),
    ("SwiGLU(z, x, y, 1.0f, bx.Get<uint8_t>(), 64)", "sharedTmpBuffer overlaps srcTensor0"),
    ("GeGLU(z, x, y[16])", "without calCount the sources must have the same size"),
])
def test_activation_constraints_are_violations(prog, call, message) -> None:
    ran = prog.run(VIOLATION.replace("CALL", call))
    assert ran.returncode != 0 and message in ran.stderr, ran.stderr


@pytest.mark.parametrize("snippet, message", [
    ("LocalTensor<int32_t> a; Sigmoid(a, a, 8);", "Sigmoid: unsupported data type (half, float)"),
    ("LocalTensor<bfloat16_t> a; GeGLU(a, a, a, 8);", "GeGLU: unsupported data type (half, float)"),
    ("LocalTensor<int16_t> a; ReGlu(a, a, a, 8);", "ReGlu: unsupported data type (half, bfloat16_t, float)"),
])
def test_undocumented_activation_types_do_not_compile(tmp_path, snippet, message) -> None:
    from simkit import syntax_check

    src = '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + snippet + ' }\n'
    res = syntax_check(src, tmp_path)
    assert not res.ok and message in res.stderr, res.stderr[-2000:]
