"""Review of the level-1 case references against torch (or an independent formulation where torch has
no counterpart): each case's reference.py is imported by path and run on random inputs."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

LEVEL1 = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1"


def reference_of(case: str):
    path = LEVEL1 / case / "reference.py"
    spec = importlib.util.spec_from_file_location(f"ref_{case.replace('/', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rand(*shape, low=-5.0, high=5.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g, dtype=torch.float32) * (high - low) + low


UNARY = {
    "math/abs_math": (torch.abs, -5, 5),
    "math/neg": (torch.neg, -5, 5),
    "math/sqrt": (torch.sqrt, 0, 50),
    "math/rsqrt": (torch.rsqrt, 0.01, 50),
    "math/cos_math": (torch.cos, -12, 12),
    "math/sin_math": (torch.sin, -12, 12),
    "math/tanh_math": (torch.tanh, -4, 4),
}


@pytest.mark.parametrize("case", sorted(UNARY))
def test_unary(case):
    fn, low, high = UNARY[case]
    x = rand(7, 33, low=low, high=high)
    torch.testing.assert_close(reference_of(case).reference(x), fn(x), rtol=0, atol=0)


def test_abs_and_neg_int32():
    x = torch.tensor([-(2**31), -3, 0, 5, 2**31 - 1], dtype=torch.int32)
    assert torch.equal(reference_of("math/abs_math").reference(x), torch.abs(x))
    assert torch.equal(reference_of("math/neg").reference(x), torch.neg(x))


def test_muls_and_sscal():
    x = rand(100)
    torch.testing.assert_close(reference_of("math/muls").reference(x, value=-2.5), torch.mul(x, -2.5))
    torch.testing.assert_close(reference_of("math/sscal").reference(x, alpha=0.75), torch.mul(x, 0.75))


def test_binary_and_ternary():
    a, b, c = rand(5, 17, seed=1), rand(5, 17, seed=2), rand(5, 17, low=0.5, high=4, seed=3)
    torch.testing.assert_close(reference_of("math/unalign_add").reference(a, b), torch.add(a, b))
    torch.testing.assert_close(reference_of("math/addcdiv").reference(a, b, c, value=0.5),
                               torch.addcdiv(a, b, c, value=0.5))
    torch.testing.assert_close(reference_of("math/addcmul").reference(a, b, c, value=-1.5),
                               torch.addcmul(a, b, c, value=-1.5))
    w = rand(5, 17, low=0, high=1, seed=4)
    torch.testing.assert_close(reference_of("math/lerp").reference(a, b, w), torch.lerp(a, b, w))


def test_clip_by_value_scalar_and_tensor_bounds():
    x = rand(9, 40, low=-10, high=10)
    ref = reference_of("math/clip_by_value").reference
    lo, hi = torch.tensor([-2.0]), torch.tensor([3.0])
    torch.testing.assert_close(ref(x, lo, hi), torch.clamp(x, -2.0, 3.0))
    lo_t, hi_t = rand(9, 40, low=-6, high=-1, seed=5), rand(9, 40, low=1, high=6, seed=6)
    torch.testing.assert_close(ref(x, lo_t, hi_t), torch.clamp(x, lo_t, hi_t))


@pytest.mark.parametrize("src,dst", [("float32", "float16"), ("float32", "bfloat16"), ("float32", "int32"),
                                     ("float16", "int8"), ("int32", "float32"), ("int8", "float16")])
def test_cast(src, dst):
    ref = reference_of("math/cast_math").reference
    x = rand(200, low=-120, high=120)
    if src in ("int32", "int8"):
        x = x.round().to(getattr(torch, src))
    elif src == "float16":
        x = x.half().float()  # the harness hands float16 inputs over upcast to float32
    got = ref(x, dst_type=dst)
    want = x.to(getattr(torch, dst))  # torch's own conversion: RNE for floats, truncation for ints
    assert got.dtype == want.dtype
    assert torch.equal(got, want)
    if dst in ("int32", "int8"):
        assert torch.equal(got.to(torch.float64), torch.trunc(x.double()))


def test_complex():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(6, 9, dtype=torch.complex64, generator=g)
    y = torch.randn(6, 9, dtype=torch.complex64, generator=g)
    assert torch.equal(reference_of("math/ccopy").reference(x.flatten()), x.flatten())
    got = reference_of("math/complex_mat_dot").reference(x, y)
    xr, xi, yr, yi = x.real.double(), x.imag.double(), y.real.double(), y.imag.double()
    torch.testing.assert_close(got.real.double(), xr * yr - xi * yi, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(got.imag.double(), xr * yi + xi * yr, rtol=1e-5, atol=1e-6)


def test_rotate_half():
    x = rand(3, 4, 10)
    got = reference_of("math/strideslice_neg_concat_v2").reference(x)
    want = torch.empty_like(x)
    want[..., :5] = -x[..., 5:]
    want[..., 5:] = x[..., :5]
    assert torch.equal(got, want)


@pytest.mark.parametrize("case,fn", [("comparison/equal", torch.eq), ("comparison/less", torch.lt),
                                     ("comparison/less_equal", torch.le)])
def test_comparisons(case, fn):
    values = torch.tensor([-2.0, -1.5, -1.0, 0.0, 0.5, 1.0, 2.0])
    g = torch.Generator().manual_seed(1)
    a = values[torch.randint(0, 7, (500,), generator=g)]
    b = values[torch.randint(0, 7, (500,), generator=g)]
    got = reference_of(case).reference(a, b)
    assert got.dtype == torch.bool and torch.equal(got, fn(a, b))
    assert got.any() and not got.all()


def test_is_finite_is_inf():
    x = torch.tensor([0.0, 1.5, float("nan"), float("inf"), -float("inf"), -3.0])
    assert torch.equal(reference_of("condition/is_finite").reference(x), torch.isfinite(x))
    assert torch.equal(reference_of("condition/is_inf").reference(x), torch.isinf(x))


def test_blas_sums():
    x = rand(10001, low=-10, high=10, seed=7)
    torch.testing.assert_close(reference_of("math/sasum").reference(x), torch.abs(x).sum().reshape(1),
                               rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(reference_of("math/snrm2").reference(x), torch.linalg.vector_norm(x).reshape(1),
                               rtol=1e-5, atol=1e-5)


def _first_arg(values: list[float], best) -> int:
    """Independent formulation: a plain loop keeping the first extreme, 1-based (BLAS)."""
    pos = 0
    for i, v in enumerate(values):
        if best(v, values[pos]):
            pos = i
    return pos + 1


def test_blas_argmax_argmin_with_ties():
    x = torch.tensor([0.5, -3.0, 2.0, 3.0, -0.25, 0.25, 1.0])
    for case, best in (("math/isamax", lambda a, b: a > b), ("math/isamin", lambda a, b: a < b)):
        got = reference_of(case).reference(x)
        assert got.dtype == torch.int32 and got.shape == (1,)
        assert int(got[0]) == _first_arg(x.abs().tolist(), best)
    assert int(reference_of("math/isamax").reference(x)[0]) == 2  # |-3| ties |3|: the first one
    assert int(reference_of("math/isamin").reference(x)[0]) == 5
    g = torch.Generator().manual_seed(3)
    c = torch.complex(torch.randn(300, generator=g), torch.randn(300, generator=g))
    mag = (c.real.abs() + c.imag.abs()).tolist()
    assert int(reference_of("math/icamax").reference(c)[0]) == _first_arg(mag, lambda a, b: a > b)
    assert int(reference_of("math/icamin").reference(c)[0]) == _first_arg(mag, lambda a, b: a < b)


def test_non_finite_check():
    ref = reference_of("condition/non_finite_check_op").reference
    x = rand(1000)
    assert ref(x).tolist() == [0.0]
    for special in (float("nan"), float("inf"), -float("inf")):
        y = x.clone()
        y[777] = special
        assert ref(y).tolist() == [float((~torch.isfinite(y)).any())] == [1.0]


def test_tensor_creation():
    start, step = torch.tensor([2.5]), torch.tensor([-0.5])
    torch.testing.assert_close(reference_of("tensorcreation/arange").reference(start, step, size=9),
                               torch.arange(9) * -0.5 + 2.5)
    istart, istep = torch.tensor([-3], dtype=torch.int32), torch.tensor([2], dtype=torch.int32)
    got = reference_of("tensorcreation/arange").reference(istart, istep, size=5)
    assert got.dtype == torch.int32 and got.tolist() == torch.arange(-3, 7, 2).tolist()
    x = rand(2, 3, 5)
    want = torch.stack([torch.eye(3, 5), torch.eye(3, 5)])
    assert torch.equal(reference_of("tensorcreation/eye").reference(x), want)
    got = reference_of("tensorcreation/fill").reference(torch.tensor([1.25]), dims=[3, 4])
    assert torch.equal(got, torch.full((3, 4), 1.25))


SPENCE_X = torch.cat([torch.linspace(0.02, 8.0, 400, dtype=torch.float64),
                     torch.tensor([0.0, 0.5, 1.0, 2.0, 50.0], dtype=torch.float64)])


def test_spence_against_quadrature():
    """Independent of scipy: spence(x) = integral_1^x log(t) / (1 - t) dt (Simpson's rule), plus known values."""
    ref = reference_of("math/spence").reference
    for value in (0.1, 0.7, 3.0):
        t = np.linspace(1.0, value, 20001)
        f = np.where(np.abs(1 - t) < 1e-12, -1.0, np.log(t) / np.where(np.abs(1 - t) < 1e-12, 1.0, 1 - t))
        h = (value - 1.0) / 20000
        simpson = h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())
        assert abs(ref(torch.tensor([value], dtype=torch.float64)).item() - simpson) < 1e-9
    known = ref(torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64)).numpy()
    np.testing.assert_allclose(known, [np.pi ** 2 / 6, 0.0, -np.pi ** 2 / 12], rtol=1e-12, atol=1e-14)
    assert np.isfinite(ref(SPENCE_X).numpy()).all()


def test_spence_against_scipy():
    scipy_special = pytest.importorskip("scipy.special")
    got = reference_of("math/spence").reference(SPENCE_X).numpy()
    np.testing.assert_allclose(got, scipy_special.spence(SPENCE_X.numpy()), rtol=1e-12, atol=1e-14)


def test_gather_v3():
    g = torch.Generator().manual_seed(4)
    x = rand(4, 6, 5)
    for dim in (0, 1, 2, -1):
        shape = list(x.shape)
        shape[dim] = 7
        index = torch.randint(0, x.shape[dim], shape, generator=g, dtype=torch.int32)
        got = reference_of("index/gather_v3").reference(x, index, dim=dim)
        want = torch.empty(shape)
        for pos in np.ndindex(*shape):
            src = list(pos)
            src[dim] = int(index[pos])
            want[pos] = x[tuple(src)]
        assert torch.equal(got, want)


def test_scatter_list():
    var = [rand(3, 10, 4, seed=s) for s in (1, 2)]
    updates = rand(2, 3, 2, 4, seed=9)
    indices = torch.tensor([0, 8, 3], dtype=torch.int32)
    got = reference_of("index/scatter_list").reference([v.clone() for v in var], indices, updates)
    for layer, tensor in enumerate(var):
        want = tensor.clone()
        want.index_put_((torch.arange(3)[:, None], indices.long()[:, None] + torch.arange(2)), updates[layer])
        assert torch.equal(got[layer], want)


def _reviewed_cases() -> set[str]:
    """Cases whose reference a test function of this file runs: string arguments of ``reference_of(...)``
    calls, and the parametrize values (resolved through module-level names) of tests that call
    ``reference_of`` on a parameter. Names in comments, docstrings or other strings do not count."""
    tree = ast.parse(Path(__file__).read_text())
    assigned = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)}

    def strings(node: ast.AST, seen: frozenset[str] = frozenset()) -> set[str]:
        found = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                found.add(sub.value)
            elif isinstance(sub, ast.Name) and sub.id in assigned and sub.id not in seen:
                found |= strings(assigned[sub.id], seen | {sub.id})
        return found

    reviewed: set[str] = set()
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_")):
            continue
        calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                 and c.func.id == "reference_of" and c.args]
        reviewed |= {c.args[0].value for c in calls if isinstance(c.args[0], ast.Constant)}
        if any(isinstance(c.args[0], ast.Name) for c in calls):
            for deco in fn.decorator_list:
                if isinstance(deco, ast.Call) and ast.unparse(deco.func) == "pytest.mark.parametrize":
                    reviewed |= strings(deco.args[1]) if len(deco.args) > 1 else set()
    return reviewed


def test_case_folders_have_a_reference_review():
    """Every level-1 case folder's reference is run and checked by some test in this file."""
    reviewed = _reviewed_cases()
    missing = []
    for folder in sorted(p for p in LEVEL1.glob("*/*") if (p / "case.toml").is_file()):
        case = f"{folder.parent.name}/{folder.name}"
        if case != "math/add_custom" and case not in reviewed:
            missing.append(case)
    assert missing == [], f"no reference review in {Path(__file__).name} for {missing}"
    assert "math/spence" in reviewed and "comparison/less" in reviewed and "math/sqrt" in reviewed
