"""Semantics of Fill: y = full(dims, value[0])."""
import torch


def reference(value, dims):
    return torch.full(tuple(dims), 0, dtype=value.dtype) + value.reshape(())


def draw_case(draw, spec):
    from hypothesis import strategies as st

    types = draw(st.sampled_from(list(spec.type_combos)))
    rank = draw(st.integers(1, 3))
    dims, budget = [], 1_000_000
    for _ in range(rank):
        d = draw(st.integers(1, max(1, min(8192, budget))))
        dims.append(d)
        budget = max(1, budget // d)
    return {"shapes": {"value": [1]}, "types": dict(types), "attrs": {"dims": dims}}
