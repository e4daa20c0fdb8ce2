"""Semantics of Cross: torch.linalg.cross along `dim` (float64)."""
import torch


def reference(x1, x2, dim=-1):
    return torch.linalg.cross(x1.double(), x2.double(), dim=dim).to(x1.dtype)


def draw_case(draw, spec):
    """Rank 1-4 shapes with one dimension of size 3 (the `dim` attribute)."""
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 4))
    dim = draw(st.sampled_from([-1, -1] + list(range(-rank, rank))))
    axis = dim % rank
    budget = 300000
    shape = []
    for i in range(rank):
        if i == axis:
            shape.append(3)
            continue
        d = draw(st.integers(1, max(1, min(4096 if i == rank - 1 else 300, budget))))
        shape.append(d)
        budget = max(1, budget // d)
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"x1": shape, "x2": shape}, "types": types, "attrs": {"dim": dim}}
