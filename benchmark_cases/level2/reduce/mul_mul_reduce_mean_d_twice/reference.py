"""Semantics of MulMulReduceMeanDTwice: t = x1 * x2 * x3 (float32, left to right); over the last
dim m = mean(t), v = mean((t - m)^2); y = (t - m) / sqrt(v + epsilon) * gamma + beta."""

import torch


def reference(x1, x2, x3, gamma, beta, epsilon=1e-5):
    t = (x1.float() * x2.float() * x3.float()).double()
    m = t.mean(dim=-1, keepdim=True)
    v = (t - m).pow(2).mean(dim=-1, keepdim=True)
    return ((t - m) * torch.rsqrt(v + epsilon) * gamma.double() + beta.double()).float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    shapes = {**{n: [*lead, d] for n in ("x1", "x2", "x3")}, "gamma": [d], "beta": [d]}
    return {"shapes": shapes, "types": types, "attrs": {"epsilon": draw(st.sampled_from([1e-5, 1e-6]))}}
