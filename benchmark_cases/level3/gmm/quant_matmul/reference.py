"""Semantics of QuantMatmul: out = float(int32(a) @ int32(b)) * scale[None, :] * per_token_scale[:, None]."""
import torch


def reference(a, b, scale, per_token_scale):
    acc = a.to(torch.int64) @ b.to(torch.int64)
    return (acc.double() * scale.double()[None, :] * per_token_scale.double()[:, None]).to(torch.float16)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 300))
    k = draw(st.integers(1, 1200))
    n = draw(st.integers(1, 300))
    return {"shapes": {"a": [m, k], "b": [k, n], "scale": [n], "per_token_scale": [m]}}
