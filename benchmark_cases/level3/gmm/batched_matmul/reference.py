"""Semantics of BatchedMatmul: C[i] = A[i] @ B[i] (torch.bmm), float32 accumulation, one rounding."""
import torch


def reference(a, b):
    return torch.bmm(a.double(), b.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    batch = draw(st.integers(1, 8))
    m = draw(st.integers(1, 300))
    k = draw(st.integers(1, 300))
    n = draw(st.integers(1, 300))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [batch, m, k], "b": [batch, k, n]}, "types": types}
