"""Semantics of AddLayerNorm: x = x1 + x2 (float32); mean / rstd over the last dim (biased variance);
y = (x - mean) * rstd * gamma + beta."""

import torch


def reference(x1, x2, gamma, beta, epsilon=1e-5):
    x = x1.float() + x2.float()
    y, mean, rstd = _layer_norm(x, gamma, beta, epsilon)
    return y, mean, rstd, x


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
    shapes = {**{n: [*lead, d] for n in ['x1', 'x2']}, **{n: [d] for n in ['gamma', 'beta']}}
    return {"shapes": shapes, "types": types, "attrs": {"epsilon": eps}}
