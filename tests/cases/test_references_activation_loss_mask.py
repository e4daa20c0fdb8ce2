"""Reviews the references of the level-2 Activation / Linalg / Loss / Mask cases against torch.

Each reference is loaded from its case folder and compared with the matching torch function (or
autograd of the torch forward for gradients) on random float32 inputs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level2"


def rand(*shape, scale=3.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g) * scale


def close(got, want, rtol=1e-5, atol=1e-5):
    torch.testing.assert_close(got.double(), want.double(), rtol=rtol, atol=atol)


def grad_of(fn, x, dy):
    x = x.detach().double().requires_grad_(True)
    (fn(x) * dy.double()).sum().backward()
    return x.grad


def test_gelu_matches_torch_tanh_gelu(case_reference):
    x = rand(4, 300)
    close(case_reference("activation/gelu").reference(x), F.gelu(x, approximate="tanh"))


def test_gelu_grad_matches_autograd(case_reference):
    x, dy = rand(1000), rand(1000, seed=1)
    want = grad_of(lambda v: F.gelu(v, approximate="tanh"), x, dy)
    close(case_reference("activation/gelu_grad").reference(dy, x), want)


def test_fast_gelu_is_x_times_sigmoid(case_reference):
    x = rand(1000)
    close(case_reference("activation/fast_gelu").reference(x), x * torch.sigmoid(1.702 * x))


def test_fast_gelu_grad_matches_autograd(case_reference):
    x, dy = rand(1000), rand(1000, seed=1)
    want = grad_of(lambda v: v * torch.sigmoid(1.702 * v), x, dy)
    close(case_reference("activation/fast_gelu_grad").reference(dy, x), want)


@pytest.mark.parametrize("scale", [1.0, 1.702, 0.5])
def test_swish_matches_silu(scale, case_reference):
    x = rand(1000)
    want = F.silu(x) if scale == 1.0 else x * torch.sigmoid(scale * x)
    close(case_reference("activation/swish").reference(x, scale=scale), want)


def test_mul_sigmoid_formula(case_reference):
    x1, x2 = rand(2000, scale=2.0), rand(2000, seed=1)
    s = 1.0 / (1.0 + torch.exp(-(x1 * 0.8)))
    want = torch.where(s < 0.3, 2 * s, s) * x2 * 2.5
    got = case_reference("activation/mul_sigmoid").reference(x1, x2, t1=0.8, t2=0.3, t3=2.5)
    close(got, want)
    assert (s < 0.3).any() and (s >= 0.3).any()  # both branches are exercised


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_swi_glu_matches_silu_gate(dim, case_reference):
    x = rand(6, 10, 8)
    a, b = x.chunk(2, dim=dim)
    close(case_reference("activation/swi_glu").reference(x, dim=dim), F.silu(a) * b)


@pytest.mark.parametrize("dim", [-1, 1])
def test_swi_glu_grad_matches_autograd(dim, case_reference):
    x = rand(6, 10, 8)
    dy = rand(*case_reference("activation/swi_glu").reference(x, dim=dim).shape, seed=1)

    def fwd(v):
        a, b = v.chunk(2, dim=dim)
        return F.silu(a) * b

    close(case_reference("activation/swi_glu_grad").reference(dy, x, dim=dim), grad_of(fwd, x, dy))


@pytest.mark.parametrize("approximate", [0, 1])
@pytest.mark.parametrize("left", [False, True])
def test_ge_glu_v2_matches_torch_gelu(approximate, left, case_reference):
    x = rand(5, 12)
    a, b = x.chunk(2, dim=-1)
    gate, other = (a, b) if left else (b, a)
    gelu = F.gelu(gate, approximate="tanh" if approximate else "none")
    y, g = case_reference("activation/ge_glu_v2").reference(x, dim=-1, approximate=approximate, activate_left=left)
    close(g, gelu)
    close(y, other * gelu)


@pytest.mark.parametrize("approximate", [0, 1])
@pytest.mark.parametrize("left", [False, True])
def test_ge_glu_grad_v2_matches_autograd(approximate, left, case_reference):
    x = rand(5, 12)
    mode = "tanh" if approximate else "none"

    def fwd(v):
        a, b = v.chunk(2, dim=-1)
        gate, other = (a, b) if left else (b, a)
        return other * F.gelu(gate, approximate=mode)

    dy = rand(5, 6, seed=1)
    a, b = x.chunk(2, dim=-1)
    gelu = F.gelu(a if left else b, approximate=mode)
    got = case_reference("activation/ge_glu_grad_v2").reference(dy, x, gelu, dim=-1, approximate=approximate,
                                                       activate_left=left)
    close(got, grad_of(fwd, x, dy))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_matches_torch(reduction, case_reference):
    p, y = rand(7, 33), rand(7, 33, seed=1)
    got = case_reference("loss/mse_loss").reference(p, y, reduction=reduction)
    close(got, F.mse_loss(p.double(), y.double(), reduction=reduction))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_grad_v2_matches_autograd(reduction, case_reference):
    p, y = rand(7, 33), rand(7, 33, seed=1)
    if reduction == "none":
        dout = rand(7, 33, seed=2)
        want = grad_of(lambda v: F.mse_loss(v, y.double(), reduction="none"), p, dout)
    else:
        dout = torch.full((7, 33), 1.7)
        want = grad_of(lambda v: F.mse_loss(v, y.double(), reduction=reduction), p, torch.tensor(1.7))
    close(case_reference("loss/mse_loss_grad_v2").reference(p, y, dout, reduction=reduction), want)


@pytest.mark.parametrize("kernel", ["tril", "triu"])
@pytest.mark.parametrize("diagonal", [0, 3, -5, 100, -100])
def test_triangles_match_torch(kernel, diagonal, case_reference):
    x = rand(3, 9, 13)
    fn = getattr(torch, kernel)
    assert torch.equal(case_reference(f"mask/{kernel}").reference(x, diagonal=diagonal), fn(x, diagonal=diagonal))
    # independent formulation: an index mask
    i = torch.arange(9).view(9, 1)
    j = torch.arange(13).view(1, 13)
    keep = (j <= i + diagonal) if kernel == "tril" else (j >= i + diagonal)
    assert torch.equal(case_reference(f"mask/{kernel}").reference(x, diagonal=diagonal), torch.where(keep, x, 0.0))


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_cross_matches_independent_formula(dim, case_reference):
    shape = [4, 5, 6]
    shape[dim] = 3
    a, b = rand(*shape), rand(*shape, seed=1)
    got = case_reference("linalg/cross").reference(a, b, dim=dim)
    a0, a1, a2 = a.unbind(dim)
    b0, b1, b2 = b.unbind(dim)
    want = torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim=dim)
    close(got, want)


def _ce_inputs(n=40, c=17, ignore=-100, seed=0):
    logits = rand(n, c, scale=2.0, seed=seed)
    g = torch.Generator().manual_seed(seed + 1)
    target = torch.randint(0, c, (n,), generator=g)
    target[torch.rand(n, generator=g) < 0.2] = ignore
    return logits, target


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore", [-100, 3])
def test_cross_entropy_loss_matches_torch(reduction, ignore, case_reference):
    logits, target = _ce_inputs(ignore=ignore)
    loss, log_prob = case_reference("loss/cross_entropy_loss").reference(logits, target, reduction=reduction,
                                                              ignore_index=ignore)
    close(log_prob, F.log_softmax(logits, dim=1))
    close(loss, F.cross_entropy(logits.double(), target, reduction=reduction, ignore_index=ignore))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_loss_grad_matches_autograd(reduction, case_reference):
    logits, target = _ce_inputs()
    grad_loss = rand(40, seed=5).abs() if reduction == "none" else torch.tensor(1.3)
    want = grad_of(lambda v: F.cross_entropy(v, target, reduction=reduction), logits, grad_loss)
    log_prob = F.log_softmax(logits.double(), dim=1)
    got = case_reference("loss/cross_entropy_loss_grad").reference(grad_loss, log_prob, target, reduction=reduction)
    close(got, want)


def test_cross_entropy_make_inputs_hook_gives_valid_targets(case_reference):
    from types import SimpleNamespace

    case = SimpleNamespace(shapes={"input": [50, 9], "target": [50]}, attrs={"ignore_index": -100})
    made = case_reference("loss/cross_entropy_loss").make_inputs(case, 7)
    t = made["target"]
    assert ((t >= 0) & (t < 9) | (t == -100)).all() and (t == -100).any() and (t >= 0).any()


def test_cross_entropy_loss_grad_all_ignored_mean_is_zero_like_torch(case_reference):
    logits = rand(5, 7, seed=3)
    target = torch.full((5,), -100)
    want = grad_of(lambda v: F.cross_entropy(v, target, reduction="mean"), logits, torch.tensor(1.0))
    log_prob = F.log_softmax(logits.double(), dim=1)
    reference = case_reference("loss/cross_entropy_loss_grad").reference
    got = reference(torch.tensor(1.0), log_prob, target, reduction="mean")
    assert torch.equal(got, torch.zeros_like(got)) and torch.equal(want, torch.zeros_like(want))


@pytest.mark.parametrize("shape", [[7], [3, 11], [2, 3, 64]])
def test_inplace_attn_softmax_matches_torch(shape, case_reference):
    x = rand(*shape, seed=4)
    close(case_reference("activation/inplace_attn_softmax").reference(x), torch.softmax(x, dim=-1))


def test_gelu_quant_matches_torch_gelu_and_independent_quantization(case_reference):
    x = rand(6, 50, seed=6)
    q, scale = case_reference("activation/gelu_quant").reference(x)
    g = F.gelu(x.double(), approximate="tanh")
    amax = g.abs().amax(dim=-1)
    close(scale, (amax / 127).float(), rtol=1e-6, atol=0)
    # independent formulation: numpy round-half-even of g / scale
    import numpy as np

    want = np.clip(np.rint(g.numpy() / (amax.numpy()[:, None] / 127)), -127, 127).astype(np.int8)
    assert np.array_equal(q.numpy(), want)
    assert q.dtype == torch.int8 and (q.abs().amax(dim=-1) == 127).all()


def test_dequant_swiglu_quant_matches_torch_silu_and_independent_quantization(case_reference):
    import numpy as np

    g = torch.Generator().manual_seed(8)
    x = torch.randint(-600, 600, (5, 2, 24), generator=g, dtype=torch.int32)
    w = torch.rand(24, generator=g) * 0.01 + 0.002
    act = torch.rand(5, 2, generator=g) + 0.5
    y, scale = case_reference("activation/dequant_swiglu_quant").reference(x, w, act)
    xf = x.double() * w.double() * act.double().unsqueeze(-1)
    s = F.silu(xf[..., :12]) * xf[..., 12:]
    amax = s.abs().amax(dim=-1)
    close(scale, (amax / 127).float(), rtol=1e-6, atol=0)
    want = np.clip(np.rint(s.numpy() / (amax.numpy()[..., None] / 127)), -127, 127).astype(np.int8)
    assert y.shape == (5, 2, 12) and np.array_equal(y.numpy(), want)


def test_masked_select_v3_matches_boolean_indexing(case_reference):
    x = rand(3, 7, 33, seed=9)
    g = torch.Generator().manual_seed(10)
    mask = torch.rand(3, 7, 33, generator=g) < 0.3
    got = case_reference("mask/masked_select_v3").reference(x, mask)
    assert got.dim() == 1 and got.numel() == int(mask.sum())
    assert torch.equal(got, x[mask])  # independent formulation: boolean indexing, row-major order


def test_masked_select_v3_make_inputs_selects_at_least_one(case_reference):
    from types import SimpleNamespace

    ref = case_reference("mask/masked_select_v3")
    case = SimpleNamespace(shapes={"x": [5], "mask": [5]}, types={"T": "float16"}, key=lambda: "k")
    for seed in range(6):
        inputs = ref.make_inputs(case, seed)
        assert inputs["mask"].shape == (5,) and inputs["mask"].any()


def test_inplace_fused_matmul_softmax_grad_matches_autograd_of_softmax(case_reference):
    logits = rand(2, 3, 5, 24, seed=11)
    y = torch.softmax(logits.double(), dim=-1)
    go, v = rand(2, 3, 5, 16, seed=12), rand(2, 3, 24, 16, seed=13)
    dy = go.double() @ v.double().transpose(-1, -2)
    want = grad_of(lambda t: torch.softmax(t, dim=-1), logits, dy)  # d softmax / d logits applied to dy
    got = case_reference("activation/inplace_fused_matmul_softmax_grad").reference(y.float(), go, v)
    close(got, want, rtol=1e-5, atol=1e-6)
