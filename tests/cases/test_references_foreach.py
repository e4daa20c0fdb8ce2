"""Review of the Foreach references (benchmark_cases/level2/foreach): each case's reference.py against
torch's own foreach kernels (torch._foreach_*, torch._amp_foreach_non_finite_check_and_unscale_) on
ragged lists drawn from the case's own input distributions, or, where torch has no counterpart,
against an independent formulation."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from npukernelbench.inputs import make_inputs
from npukernelbench.reference_runner import load_module, to_torch
from npukernelbench.spec import load_spec

FOREACH = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level2" / "foreach"
SHAPES = [[3, 7], [1], [40], [2, 2, 9], [129]]

F = torch


def _round_half_away(t: torch.Tensor) -> torch.Tensor:
    return torch.where(t >= 0, torch.floor(t + 0.5), torch.ceil(t - 0.5))


ROUND = {1: torch.round, 2: torch.floor, 3: torch.ceil, 4: _round_half_away, 5: torch.trunc}

# case -> torch formulation on (lists..., scalar values...)
EXPECTED: dict[str, Callable[..., list[torch.Tensor]]] = {
    "foreach_abs": lambda x: F._foreach_abs(x),
    "foreach_acos": lambda x: F._foreach_acos(x),
    "foreach_asin": lambda x: F._foreach_asin(x),
    "foreach_atan": lambda x: F._foreach_atan(x),
    "foreach_copy": lambda x: F._foreach_add([torch.empty_like(t).zero_() for t in x], x),
    "foreach_cos": lambda x: F._foreach_cos(x),
    "foreach_cosh": lambda x: F._foreach_cosh(x),
    "foreach_erf": lambda x: F._foreach_erf(x),
    "foreach_erfc": lambda x: F._foreach_erfc(x),
    "foreach_exp": lambda x: F._foreach_exp(x),
    "foreach_expm1": lambda x: F._foreach_expm1(x),
    "foreach_log": lambda x: F._foreach_log(x),
    "foreach_log10": lambda x: F._foreach_log10(x),
    "foreach_log1p": lambda x: F._foreach_log1p(x),
    "foreach_log2": lambda x: F._foreach_log2(x),
    "foreach_neg": lambda x: F._foreach_neg(x),
    "foreach_reciprocal": lambda x: F._foreach_reciprocal(x),
    "foreach_sigmoid": lambda x: F._foreach_sigmoid(x),
    "foreach_sign": lambda x: F._foreach_sign(x),
    "foreach_sin": lambda x: F._foreach_sin(x),
    "foreach_sinh": lambda x: F._foreach_sinh(x),
    "foreach_sqrt": lambda x: F._foreach_sqrt(x),
    "foreach_tan": lambda x: F._foreach_tan(x),
    "foreach_tanh": lambda x: F._foreach_tanh(x),
    "foreach_add_list": lambda a, b, alpha: F._foreach_add(a, b, alpha=alpha),
    "foreach_sub_list": lambda a, b, alpha: F._foreach_sub(a, b, alpha=alpha),
    "foreach_mul_list": lambda a, b: F._foreach_mul(a, b),
    "foreach_div_list": lambda a, b: F._foreach_div(a, b),
    "foreach_maximum_list": lambda a, b: F._foreach_maximum(a, b),
    "foreach_minimum_list": lambda a, b: F._foreach_minimum(a, b),
    "foreach_lerp_scalar": lambda a, b, w: F._foreach_lerp(a, b, w),
    "foreach_add_scalar": lambda x, s: F._foreach_add(x, s),
    "foreach_sub_scalar": lambda x, s: F._foreach_sub(x, s),
    "foreach_mul_scalar": lambda x, s: F._foreach_mul(x, s),
    "foreach_div_scalar": lambda x, s: F._foreach_div(x, s),
    "foreach_maximum_scalar": lambda x, s: F._foreach_maximum(x, s),
    "foreach_minimum_scalar": lambda x, s: F._foreach_minimum(x, s),
    "foreach_pow_scalar": lambda x, s: F._foreach_pow(x, s),
    "foreach_pow_scalar_and_tensor": lambda x, s: F._foreach_pow(s, x),
    "foreach_add_scalar_list": lambda x, s: F._foreach_add(x, s),
    "foreach_sub_scalar_list": lambda x, s: F._foreach_sub(x, s),
    "foreach_mul_scalar_list": lambda x, s: F._foreach_mul(x, s),
    "foreach_div_scalar_list": lambda x, s: F._foreach_div(x, s),
    "foreach_addcdiv_scalar": lambda a, b, c, s: F._foreach_addcdiv(a, b, c, s),
    "foreach_addcdiv_scalar_list": lambda a, b, c, s: F._foreach_addcdiv(a, b, c, s),
    "foreach_addcdiv_list": lambda a, b, c, s: F._foreach_addcdiv(a, b, c, torch.tensor(s)),
    "foreach_addcmul_scalar": lambda a, b, c, s: F._foreach_addcmul(a, b, c, s),
    "foreach_addcmul_scalar_list": lambda a, b, c, s: F._foreach_addcmul(a, b, c, s),
    "foreach_addcmul_list": lambda a, b, c, s: F._foreach_addcmul(a, b, c, torch.tensor(s)),
    "foreach_round_off_number": lambda x, mode: [ROUND[int(mode)](t) for t in x],
    "foreach_zero_inplace": lambda x: (lambda c: (F._foreach_zero_(c), c)[1])([t.clone() for t in x]),
    "foreach_norm": lambda x, p: [n.reshape(1) for n in F._foreach_norm([t.double() for t in x], p)],
}


def _inputs(name: str, seed: int):
    spec = load_spec(FOREACH / name)
    first = spec.inputs[0].name
    shapes = {first: SHAPES}
    for d in spec.inputs[1:]:
        shapes[d.name] = SHAPES if d.kind == "list" else [1] if d.kind == "scalar" else [len(SHAPES)]
    arrays = make_inputs(spec.inputs, shapes, {"T": "float32"}, seed)
    dtypes = {d.name: d.dtype if d.dtype != "T" else "float32" for d in spec.inputs}
    return spec, {n: to_torch(a, dtypes[n]) for n, a in arrays.items()}


def _scalar_value(decl_kind: str, t: torch.Tensor):
    return t.tolist() if decl_kind == "scalar_list" else t.item()


def test_every_foreach_case_is_reviewed():
    cases = sorted(p.name for p in FOREACH.iterdir() if (p / "case.toml").is_file())
    assert len(cases) == 53
    assert set(cases) == set(EXPECTED) | {"foreach_non_finite_check_and_unscale"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("seed", [0, 1])
def test_reference_matches_torch_foreach(name, seed):
    spec, inputs = _inputs(name, seed)
    module = load_module(spec.reference.path)
    args = [inputs[d.name] for d in spec.inputs]
    got = module.reference(*[a.clone() if isinstance(a, torch.Tensor) else [t.clone() for t in a] for a in args])
    torch_args = [a if d.kind == "list" else _scalar_value(d.kind, a) for d, a in zip(spec.inputs, args, strict=True)]
    want = EXPECTED[name](*torch_args)
    assert isinstance(got, list) and len(got) == len(SHAPES)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert tuple(g.shape) == tuple(w.shape), f"tensor {i}"
        torch.testing.assert_close(g.double(), w.double(), rtol=1e-5, atol=1e-6, equal_nan=True,
                                   msg=lambda m, i=i: f"{name} tensor {i}: {m}")
    if spec.inputs[0].distribution.kind != "int":         # the drawn domain yields finite results
        assert all(bool(torch.isfinite(g).all()) for g in got), f"{name}: non-finite reference values"


def test_round_off_number_modes_differ_on_ties():
    _, inputs = _inputs("foreach_round_off_number", 0)
    module = load_module(FOREACH / "foreach_round_off_number" / "reference.py")
    x = [torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7])]
    results = {m: module.reference(x, torch.tensor([m], dtype=torch.int8))[0].tolist() for m in range(1, 6)}
    assert results[1] == [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 3.0, -3.0]
    assert results[2] == [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 2.0, -3.0]
    assert results[3] == [-2.0, -1.0, -0.0, 1.0, 2.0, 3.0, 3.0, -2.0]
    assert results[4] == [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 3.0, -3.0]
    assert results[5] == [-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 2.0, -2.0]
    assert inputs["round_mode"].dtype == torch.int8


@pytest.mark.parametrize("poison", [None, math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("flag", [0.0, 1.0])
def test_non_finite_check_and_unscale_matches_torch_amp(poison, flag):
    module = load_module(FOREACH / "foreach_non_finite_check_and_unscale" / "reference.py")
    rng = np.random.default_rng(5)
    grads = [torch.from_numpy(rng.uniform(-1000, 1000, size=s).astype(np.float32)) for s in SHAPES]
    if poison is not None:
        grads[2][17] = poison
    found, inv = torch.tensor([flag]), torch.tensor([0.125])
    got, got_flag = module.reference([g.clone() for g in grads], found.clone(), inv)
    want = [g.clone() for g in grads]
    want_flag = found.clone()
    torch._amp_foreach_non_finite_check_and_unscale_(want, want_flag, inv)
    assert got_flag.tolist() == want_flag.tolist()
    for g, w in zip(got, want, strict=True):
        torch.testing.assert_close(g, w, equal_nan=True)


def test_non_finite_inputs_hook_covers_both_outcomes():
    module = load_module(FOREACH / "foreach_non_finite_check_and_unscale" / "reference.py")
    spec = load_spec(FOREACH / "foreach_non_finite_check_and_unscale")
    from npukernelbench.shapes import static_cases

    case = static_cases(spec)[1]
    outcomes = set()
    for seed in range(6):
        drawn = module.make_inputs(case, seed)
        finite = all(np.isfinite(g).all() for g in drawn["scaled_grads"])
        outcomes.add((finite, float(drawn["found_inf"][0])))
    assert outcomes == {(True, 0.0), (False, 0.0), (True, 1.0)}
