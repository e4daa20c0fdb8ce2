"""Semantics of DeepNorm: s = alpha * x + gx (float32); mean / rstd of s over the last dim (biased
variance); y = (s - mean) * rstd * gamma + beta. Outputs in the order mean, rstd, y."""

import torch


def reference(x, gx, beta, gamma, alpha=0.3, epsilon=1e-6):
    s = x.float() * alpha + gx.float()
    y, mean, rstd = _layer_norm(s, gamma, beta, epsilon)
    return mean, rstd, y


def _layer_norm(x, gamma, beta, eps):
    """float64 layer norm over the last dim: (y, mean, rstd) with biased variance."""
    xd = x.double()
    mean = xd.mean(dim=-1, keepdim=True)
    rstd = torch.rsqrt((xd - mean).pow(2).mean(dim=-1, keepdim=True) + eps)
    y = (xd - mean) * rstd * gamma.double() + beta.double()
    return y.float(), mean.float(), rstd.float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    eps = draw(st.sampled_from([1e-6, 1e-5]))
    shapes = {**{n: [*lead, d] for n in ['x', 'gx']}, **{n: [d] for n in ['beta', 'gamma']}}
    alpha = draw(st.sampled_from([0.3, 1.0, 2.5]))
    return {"shapes": shapes, "types": types, "attrs": {"epsilon": eps, "alpha": alpha}}
