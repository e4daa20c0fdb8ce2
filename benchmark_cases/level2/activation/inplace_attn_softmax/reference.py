"""Semantics of InplaceAttnSoftmax: softmax over the last axis (float64), result written into x."""
import torch


def reference(x):
    return torch.softmax(x.double(), dim=-1).to(x.dtype)


def draw_case(draw, spec):
    """1-3 leading dims, last axis in [1, 8192], at most 1e6 elements."""
    from hypothesis import strategies as st

    d = draw(st.integers(1, 8192))
    rows = draw(st.integers(1, max(1, min(8192, 1000000 // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"x": [*lead, d]}, "types": types}
