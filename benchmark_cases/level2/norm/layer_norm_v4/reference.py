"""Semantics of LayerNormV4: statistics over the trailing len(normalized_shape) dims (biased
variance), y = (x - mean) * rstd [* gamma] [+ beta]; mean and rstd keep the normalized dims as 1."""

import torch


def reference(x, gamma=None, beta=None, normalized_shape=(), epsilon=1e-5):
    k = len(normalized_shape)
    dims = tuple(range(x.dim() - k, x.dim()))
    xd = x.double()
    mean = xd.mean(dim=dims, keepdim=True)
    rstd = torch.rsqrt((xd - mean).pow(2).mean(dim=dims, keepdim=True) + epsilon)
    y = (xd - mean) * rstd
    if gamma is not None:
        y = y * gamma.double()
    if beta is not None:
        y = y + beta.double()
    return y.float(), mean.float(), rstd.float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    norm = draw(st.lists(st.integers(1, 64), min_size=1, max_size=2))
    d = 1
    for n in norm:
        d *= n
    if d > 4096:
        norm = [max(1, 4096 // norm[-1]), norm[-1]]
        d = norm[0] * norm[1]
    rows = draw(st.integers(1, max(1, min(4096, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    shapes = {"x": [*lead, *norm]}
    for name in ("gamma", "beta"):
        if draw(st.booleans()):
            shapes[name] = list(norm)
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": shapes, "types": types,
            "attrs": {"normalized_shape": list(norm), "epsilon": draw(st.sampled_from([1e-5, 1e-6]))}}
