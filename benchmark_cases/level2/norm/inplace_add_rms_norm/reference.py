"""Semantics of InplaceAddRmsNorm: AddRmsNorm whose y lands in x1's buffer and x = x1 + x2 in x2's."""

import torch


def reference(x1, x2, gamma, epsilon=1e-6):
    x = x1.float() + x2.float()
    xd = x.double()
    rstd = torch.rsqrt(xd.pow(2).mean(dim=-1, keepdim=True) + epsilon)
    y = xd * rstd * gamma.double()
    return y.float(), rstd.float(), x


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    eps = draw(st.sampled_from([1e-6, 1e-5]))
    return {"shapes": {"x1": [*lead, d], "x2": [*lead, d], "gamma": [d]}, "types": types, "attrs": {"epsilon": eps}}
