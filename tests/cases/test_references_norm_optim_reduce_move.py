"""Review of the level-2 Norm / Optim / Reduce / TensorMove references against torch.

Every case's ``reference.py`` is compared with the matching torch function (or, where torch has
none, with an independent straightforward formulation) on random inputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level2"


def close(a, b, rtol=1e-5, atol=1e-6):
    torch.testing.assert_close(a.double(), b.double(), rtol=rtol, atol=atol)


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(1234)


def randn(gen, *shape, scale=1.0):
    return torch.randn(*shape, generator=gen) * scale


# ----------------------------------------------------------------------------- Norm: RMS family
def test_rms_norm(gen, case_reference):
    x, g = randn(gen, 6, 7, 33), randn(gen, 33)
    y, rstd = case_reference("norm/rms_norm").reference(x, g, epsilon=1e-5)
    close(y, F.rms_norm(x, (33,), g, eps=1e-5))
    close(rstd, torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5))


def _add_rms(x1, x2, g, eps):
    x = x1 + x2
    return F.rms_norm(x, (x.shape[-1],), g, eps=eps), torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps), x


@pytest.mark.parametrize("case", ["norm/add_rms_norm", "norm/inplace_add_rms_norm"])
def test_add_rms_norm(gen, case, case_reference):
    x1, x2, g = randn(gen, 5, 40), randn(gen, 5, 40), randn(gen, 40)
    got = case_reference(case).reference(x1, x2, g, epsilon=1e-6)
    for a, b in zip(got, _add_rms(x1, x2, g, 1e-6), strict=True):
        close(a, b)


def test_add_rms_norm_cast(gen, case_reference):
    x1, x2, g = randn(gen, 3, 17), randn(gen, 3, 17), randn(gen, 17)
    y1, y2, rstd, x = case_reference("norm/add_rms_norm_cast").reference(x1, x2, g)
    y, r, s = _add_rms(x1, x2, g, 1e-6)
    close(y1, y)
    close(y2, y)
    close(rstd, r)
    close(x, s)


def test_add_rms_norm_quant(gen, case_reference):
    module = case_reference("norm/add_rms_norm_quant")
    x1, x2, g = randn(gen, 4, 64), randn(gen, 4, 64), randn(gen, 64)
    scale, zp = torch.rand(64, generator=gen) * 0.03 + 0.02, torch.randn(64, generator=gen) * 4
    q, x = module.reference(x1, x2, g, scale, zp, epsilon=1e-6)
    y, _, _ = _add_rms(x1, x2, g, 1e-6)
    # independent formulation in float64 numpy: rint (half to even), then clip to int8
    expect = torch.from_numpy(np.clip(np.rint(y.double().numpy() / scale.double().numpy() + zp.double().numpy()),
                                      -128, 127).astype(np.int8))
    assert q.dtype == torch.int8 and torch.equal(x, x1 + x2)
    assert (q.int() - expect.int()).abs().max() <= 1   # float32 vs float64 scaling at .5 boundaries
    assert (q != expect).float().mean() < 0.01
    q2 = q
    assert module.check({"y1": q2.numpy(), "x": x.numpy()}, {"y1": q2.numpy(), "x": x.numpy()},
                        type("Case", (), {"types": {"T": "float16"}})())


# ----------------------------------------------------------------------------- Norm: LayerNorm family
def _ln(x, g, b, eps):
    mean = x.mean(-1, keepdim=True)
    rstd = torch.rsqrt(x.var(-1, unbiased=False, keepdim=True) + eps)
    return F.layer_norm(x, (x.shape[-1],), g, b, eps=eps), mean, rstd


def test_layer_norm_v4(gen, case_reference):
    module = case_reference("norm/layer_norm_v4")
    x, g, b = randn(gen, 3, 5, 4, 6), randn(gen, 4, 6), randn(gen, 4, 6)
    y, mean, rstd = module.reference(x, g, b, normalized_shape=[4, 6], epsilon=1e-5)
    close(y, F.layer_norm(x, (4, 6), g, b, eps=1e-5))
    close(mean, x.mean(dim=(-2, -1), keepdim=True))
    close(rstd, torch.rsqrt(x.var(dim=(-2, -1), unbiased=False, keepdim=True) + 1e-5))
    y, _, _ = module.reference(x, None, None, normalized_shape=[6], epsilon=1e-6)
    close(y, F.layer_norm(x, (6,), eps=1e-6))


@pytest.mark.parametrize("case", ["norm/add_layer_norm", "norm/inplace_add_layer_norm"])
def test_add_layer_norm(gen, case, case_reference):
    x1, x2, g, b = randn(gen, 7, 50), randn(gen, 7, 50), randn(gen, 50), randn(gen, 50)
    y, mean, rstd, x = case_reference(case).reference(x1, x2, g, b, epsilon=1e-5)
    ey, emean, erstd = _ln(x1 + x2, g, b, 1e-5)
    close(y, ey)
    close(mean, emean)
    close(rstd, erstd)
    close(x, x1 + x2)


def test_pre_layer_norm(gen, case_reference):
    x, y, g, b = randn(gen, 4, 3, 31), randn(gen, 4, 3, 31), randn(gen, 31), randn(gen, 31)
    reference = case_reference("norm/pre_layer_norm").reference
    close(reference(x, y, g, b, epsilon=1e-5), F.layer_norm(x + y, (31,), g, b, eps=1e-5))


def test_deep_norm(gen, case_reference):
    x, gx, b, g = randn(gen, 6, 64), randn(gen, 6, 64), randn(gen, 64), randn(gen, 64)
    mean, rstd, y = case_reference("norm/deep_norm").reference(x, gx, b, g, alpha=0.7, epsilon=1e-6)
    ey, emean, erstd = _ln(0.7 * x + gx, g, b, 1e-6)
    close(y, ey)
    close(mean, emean)
    close(rstd, erstd)


# ----------------------------------------------------------------------------- Reduce
def test_add_sigmoid_mul_reduce_sum_d(gen, case_reference):
    x1, x2, x3 = randn(gen, 3, 4, 21), randn(gen, 3, 4, 21), randn(gen, 3, 4, 21)
    close(case_reference("reduce/add_sigmoid_mul_reduce_sum_d").reference(x1, x2, x3),
          torch.sum(torch.sigmoid(x1 + x2) * x3, dim=-1))


def test_mul_mul_reduce_mean_d_twice(gen, case_reference):
    x1, x2, x3 = randn(gen, 5, 30), randn(gen, 5, 30), randn(gen, 5, 30)
    g, b = randn(gen, 30), randn(gen, 30)
    got = case_reference("reduce/mul_mul_reduce_mean_d_twice").reference(x1, x2, x3, g, b, epsilon=1e-5)
    close(got, F.layer_norm(x1 * x2 * x3, (30,), g, b, eps=1e-5), rtol=1e-4)


def test_mul_sigmoid_mul_add_custom(gen, case_reference):
    x, a, b, c = (randn(gen, 100) for _ in range(4))
    close(case_reference("reduce/mul_sigmoid_mul_add_custom").reference(x, a, b, c), torch.sigmoid(x * a) * b + c)


def test_masked_softmax(gen, case_reference):
    module = case_reference("reduce/select_reduce_max_d_sub_exp_reduce_sum_d_real_div")
    x = randn(gen, 6, 9)
    mask = torch.rand(6, 9, generator=gen) < 0.5
    mask[:, 0] = True
    close(module.reference(mask, x), torch.softmax(x.masked_fill(~mask, float("-inf")), dim=-1))
    case = type("Case", (), {"shapes": {"mask": [40, 3], "x": [40, 3]}, "key": lambda self: "k"})()
    drawn = module.make_inputs(case, 0)
    assert drawn["mask"].any(axis=-1).all()


# ----------------------------------------------------------------------------- Optim
@pytest.mark.parametrize(("amsgrad", "maximize"), [(False, False), (True, False), (True, True)])
def test_apply_adam_w_v2_matches_torch_adamw(gen, amsgrad, maximize, case_reference):
    """Two AdamW steps with torch.optim.AdamW; the reference replays the second one from the
    optimizer state after the first."""
    p0 = randn(gen, 50).double()
    g1, g2 = randn(gen, 50).double(), randn(gen, 50).double()
    param = torch.nn.Parameter(p0.clone())
    opt = torch.optim.AdamW([param], lr=0.01, betas=(0.8, 0.99), eps=1e-8, weight_decay=0.1, amsgrad=amsgrad,
                            maximize=maximize)
    param.grad = g1.clone()
    opt.step()
    st = opt.state[param]
    var, m, v = param.detach().clone(), st["exp_avg"].clone(), st["exp_avg_sq"].clone()
    vmax = st["max_exp_avg_sq"].clone() if amsgrad else torch.zeros(50, dtype=torch.float64)
    param.grad = g2.clone()
    opt.step()
    got = case_reference("optim/apply_adam_w_v2").reference(var, m, v, vmax, g2, torch.tensor([2]), lr=0.01, beta1=0.8,
                                                 beta2=0.99, weight_decay=0.1, eps=1e-8, amsgrad=amsgrad,
                                                 maximize=maximize)
    close(got[0], param.detach())
    close(got[1], st["exp_avg"])
    close(got[2], st["exp_avg_sq"])
    if amsgrad:
        close(got[3], st["max_exp_avg_sq"])
    else:
        close(got[3], vmax)


@pytest.mark.parametrize("mode", [0, 1])
def test_apply_fused_ema_adam(gen, mode, case_reference):
    """mode 1 is torch.optim.AdamW's update; mode 0 is torch.optim.Adam's (L2 decay). The EMA is
    checked against its definition on the updated parameter."""
    p0, g = randn(gen, 40).double(), randn(gen, 40).double()
    m, v, s = randn(gen, 40).double() * 0.1, torch.rand(40, generator=gen).double(), randn(gen, 40).double()
    param = torch.nn.Parameter(p0.clone())
    cls = torch.optim.AdamW if mode == 1 else torch.optim.Adam
    # one step from a given state: step count 2 already taken -> this is step 3
    opt = cls([param], lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.05)
    opt.state[param] = {"step": torch.tensor(2.0), "exp_avg": m.clone(), "exp_avg_sq": v.clone()}
    param.grad = g.clone()
    opt.step()
    reference = case_reference("optim/apply_fused_ema_adam").reference
    var2, m2, v2, s2 = reference(g, p0, m, v, s, torch.tensor([3]), lr=0.01,
                                 ema_decay=0.9, mode=mode, weight_decay=0.05)
    close(var2, param.detach())
    close(m2, opt.state[param]["exp_avg"])
    close(v2, opt.state[param]["exp_avg_sq"])
    close(s2, 0.9 * s + 0.1 * param.detach())


# ----------------------------------------------------------------------------- TensorMove
def test_expand_v2(gen, case_reference):
    x = randn(gen, 7, 1, 5)
    got = case_reference("tensormove/expand_v2").reference(x, shape=[3, 7, 4, -1])
    assert torch.equal(got, torch.broadcast_to(x, (3, 7, 4, 5)))


@pytest.mark.parametrize(("seq_dim", "batch_dim"), [(1, 0), (0, 1)])
def test_reverse_sequence(gen, seq_dim, batch_dim, case_reference):
    """Independent formulation: an explicit index map per element."""
    b, s = 4, 6
    shape = (b, s, 3) if batch_dim == 0 else (s, b, 3)
    x = randn(gen, *shape)
    lengths = torch.tensor([0, 1, 4, 6], dtype=torch.int32)
    got = case_reference("tensormove/reverse_sequence").reference(x, lengths, seq_dim=seq_dim, batch_dim=batch_dim)
    xn = x.numpy()
    expect = np.empty_like(xn)
    for bi in range(b):
        n = int(lengths[bi])
        for si in range(s):
            src = n - 1 - si if si < n else si
            if batch_dim == 0:
                expect[bi, si] = xn[bi, src]
            else:
                expect[si, bi] = xn[src, bi]
    assert np.array_equal(got.numpy(), expect)


# ----------------------------------------------------------------------------- CASES-L2B2: norm grads
def _autograd(fn, *tensors):
    leaves = [t.detach().double().requires_grad_(True) for t in tensors]
    out = fn(*leaves)
    return out, leaves


def test_rms_norm_grad(gen, case_reference):
    x, g, dy = randn(gen, 6, 5, 33), randn(gen, 33), randn(gen, 6, 5, 33)
    eps = 1e-6
    rstd = torch.rsqrt(x.double().pow(2).mean(-1, keepdim=True) + eps).float()
    dx, dgamma = case_reference("norm/rms_norm_grad").reference(dy, x, rstd, g)
    y, (xl, gl) = _autograd(lambda a, b: F.rms_norm(a, (33,), b, eps=eps), x, g)
    y.backward(dy.double())
    close(dx, xl.grad, rtol=1e-5, atol=1e-5)
    close(dgamma, gl.grad, rtol=1e-5, atol=1e-5)


def test_add_layer_norm_grad(gen, case_reference):
    x1, x2, g, b = randn(gen, 4, 7, 40), randn(gen, 4, 7, 40), randn(gen, 40), randn(gen, 40)
    dy, dsum = randn(gen, 4, 7, 40), randn(gen, 4, 7, 40)
    eps = 1e-5
    x = (x1 + x2).double()
    mean = x.mean(-1, keepdim=True)
    rstd = torch.rsqrt((x - mean).pow(2).mean(-1, keepdim=True) + eps)
    reference = case_reference("norm/add_layer_norm_grad").reference
    dx, dgamma, dbeta = reference(dy, x1, x2, rstd.float(), mean.float(), g, dsum)

    def fwd(a, c, gamma, beta):
        s = a + c
        return F.layer_norm(s, (40,), gamma, beta, eps=eps), s

    (y, s), (al, cl, gl, bl) = _autograd(fwd, x1, x2, g, b)
    torch.autograd.backward([y, s], [dy.double(), dsum.double()])
    close(dx, al.grad, rtol=1e-4, atol=1e-5)
    close(dx, cl.grad, rtol=1e-4, atol=1e-5)
    close(dgamma, gl.grad, rtol=1e-5, atol=1e-5)
    close(dbeta, bl.grad, rtol=1e-5, atol=1e-5)


def test_deep_norm_grad(gen, case_reference):
    x, gx, g, b, dy = randn(gen, 9, 24), randn(gen, 9, 24), randn(gen, 24), randn(gen, 24), randn(gen, 9, 24)
    alpha, eps = 2.5, 1e-6
    s = (alpha * x + gx).double()
    mean = s.mean(-1, keepdim=True)
    rstd = torch.rsqrt((s - mean).pow(2).mean(-1, keepdim=True) + eps)
    got = case_reference("norm/deep_norm_grad").reference(dy, x, gx, g, mean.float(), rstd.float(), alpha=alpha)
    y, leaves = _autograd(lambda a, c, gamma, beta: F.layer_norm(alpha * a + c, (24,), gamma, beta, eps=eps),
                          x, gx, g, b)
    y.backward(dy.double())
    xl, gxl, gl, bl = leaves
    for a, e in zip(got, (xl.grad, gxl.grad, bl.grad, gl.grad), strict=True):
        close(a, e, rtol=1e-4, atol=1e-5)


# ----------------------------------------------------------------------------- CASES-L2B2: tensormove
def test_feeds_repeat(gen, case_reference):
    feeds = randn(gen, 7, 3, 2)
    times = torch.tensor([2, 0, 1, 3, 0, 1, 1], dtype=torch.int32)
    y = case_reference("tensormove/feeds_repeat").reference(feeds, times, output_feeds_size=12)
    rows = [feeds[i] for i, t in enumerate(times.tolist()) for _ in range(t)]
    expect = torch.stack(rows + [torch.zeros(3, 2)] * (12 - len(rows)))
    assert torch.equal(y, expect)


def test_coalesce_sparse(gen, case_reference):
    indices = torch.randint(0, 4, (50, 2), generator=gen, dtype=torch.int32)
    values = randn(gen, 50, 3)
    uniq, inverse = torch.unique(indices, dim=0, return_inverse=True)
    new_indices, new_values = case_reference("tensormove/coalesce_sparse").reference(inverse.int(), indices, values)
    coo = torch.sparse_coo_tensor(indices.long().t(), values.double(), (4, 4, 3), check_invariants=True).coalesce()
    assert torch.equal(new_indices.long(), coo.indices().t())
    assert torch.equal(new_indices, uniq)
    close(new_values, coo.values())


# ----------------------------------------------------------------------------- Norm: group norm (l2b3)
@pytest.mark.parametrize("swish, scale", [(True, 1.0), (True, 1.7), (False, 1.0)])
def test_group_norm_swish(gen, swish, scale, case_reference):
    x, g, b = randn(gen, 3, 12, 5, 7) + 0.5, randn(gen, 12), randn(gen, 12)
    y, mean, rstd = case_reference("norm/group_norm_swish").reference(x, g, b, num_groups=4, epsilon=1e-5,
                                                           activate_swish=swish, swish_scale=scale)
    z = F.group_norm(x, 4, g, b, eps=1e-5)
    close(y, z * torch.sigmoid(scale * z) if swish else z)
    xg = x.reshape(3, 4, -1)
    close(mean, xg.mean(-1))
    close(rstd, torch.rsqrt(xg.var(-1, unbiased=False) + 1e-5))


# ----------------------------------------------------------------------------- TensorMove: strided assign (l2b3)
def _slice_positions(b, e, s, size):
    b = b + size if b < 0 else b
    e = e + size if e < 0 else e
    b, e = min(max(b, 0), size), min(max(e, 0), size)
    return list(range(b, e, s))


@pytest.mark.parametrize("begin, end, strides", [([1, -5], [7, 100], [2, 3]), ([-6], [-1], [1]),
                                                 ([0, 2, 1], [9, 3, 4], [4, 1, 2])])
def test_strided_slice_assign_v2(gen, begin, end, strides, case_reference):
    var = randn(gen, 9, 11, 4)
    pos = [_slice_positions(b, e, s, var.shape[i]) for i, (b, e, s) in enumerate(zip(begin, end, strides, strict=True))]
    value = randn(gen, *[len(p) for p in pos], *var.shape[len(pos):])
    reference = case_reference("tensormove/strided_slice_assign_v2").reference
    got = reference(var, value, torch.tensor(begin), torch.tensor(end),
                    torch.tensor(strides))
    expect = var.numpy().copy()
    expect[np.ix_(*pos)] = value.numpy()
    assert torch.equal(got, torch.from_numpy(expect))
    assert not torch.equal(got, var)


# ----------------------------------------------------------------------------- Norm: batch norm (l2b3)
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_v3(gen, training, case_reference):
    x, w, b = randn(gen, 4, 6, 5, 3) + 1.0, randn(gen, 6), randn(gen, 6)
    rm, rv = randn(gen, 6), torch.rand(6, generator=gen) + 0.5
    reference = case_reference("norm/batch_norm_v3").reference
    y, rm_new, rv_new, mean, rstd = reference(x, w, b, rm, rv, epsilon=1e-5, momentum=0.2,
                                              is_training=training)
    trm, trv = rm.clone(), rv.clone()
    close(y, F.batch_norm(x, trm, trv, w, b, training=training, momentum=0.2, eps=1e-5))
    close(rm_new, trm)
    close(rv_new, trv)
    dims = (0, 2, 3)
    close(mean, x.mean(dims) if training else rm)
    close(rstd, torch.rsqrt((x.var(dims, unbiased=False) if training else rv) + 1e-5))


@pytest.mark.parametrize("scale", [1.0, 1.7])
def test_group_norm_swish_grad(gen, scale, case_reference):
    x = (randn(gen, 3, 8, 4, 5) + 0.5).double().requires_grad_()
    g = randn(gen, 8).double().requires_grad_()
    b = randn(gen, 8).double().requires_grad_()
    dy = randn(gen, 3, 8, 4, 5).double()
    z = F.group_norm(x, 2, g, b, eps=1e-5)
    (z * torch.sigmoid(scale * z)).backward(dy)
    xg = x.detach().reshape(3, 2, -1)
    mean, rstd = xg.mean(-1), torch.rsqrt(xg.var(-1, unbiased=False) + 1e-5)
    reference = case_reference("norm/group_norm_swish_grad").reference
    dx, dgamma, dbeta = reference(dy, mean, rstd, x.detach(), g.detach(), b.detach(),
                                  num_groups=2, swish_scale=scale)
    close(dx, x.grad, rtol=1e-4, atol=1e-5)
    close(dgamma, g.grad, rtol=1e-4, atol=1e-5)
    close(dbeta, b.grad, rtol=1e-4, atol=1e-5)
