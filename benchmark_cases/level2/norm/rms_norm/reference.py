"""Semantics of RmsNorm: rstd = 1 / sqrt(mean(x^2) + eps) over the last dim; y = x * rstd * gamma."""

import torch


def reference(x, gamma, epsilon=1e-6):
    xf = x.double()
    rstd = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + epsilon)
    y = xf * rstd * gamma.double()
    return y.float(), rstd.float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    lead = draw(st.lists(st.integers(1, 64), min_size=1, max_size=2))
    rows = 1
    for n in lead:
        rows *= n
    if rows * d > 1 << 20:
        lead = [max(1, (1 << 20) // d)]
    types = draw(st.sampled_from([{"T": "float16"}, {"T": "bfloat16"}, {"T": "float32"}]))
    eps = draw(st.sampled_from([1e-6, 1e-5]))
    return {"shapes": {"x": [*lead, d], "gamma": [d]}, "types": types, "attrs": {"epsilon": eps}}
