"""Semantics of SwiGluGrad: d/dx of silu(a) * b, a, b = chunk(x, 2, dim) (float64)."""
import torch


def extra_attrs(draw, st):
    return {}


def shapes_for(full, half):
    return {"dy": half, "x": full}


def reference(dy, x, dim=-1):
    a, b = torch.chunk(x.double(), 2, dim=dim)
    g = dy.double()
    s = torch.sigmoid(a)
    da = g * b * s * (1.0 + a * (1.0 - s))
    db = g * a * s
    return torch.cat([da, db], dim=dim).to(dy.dtype)


def draw_case(draw, spec):
    """Shapes for the dynamic check: rank 1-3, one dim of even size split by `dim`."""
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 3))
    dim = draw(st.sampled_from([-1, -1, -1] + list(range(-rank, rank))))
    axis = dim % rank
    budget = 1000000
    shape = []
    for i in range(rank):
        hi = max(1, min(8192 if i == rank - 1 else 512, budget // 2 if i == axis else budget))
        d = draw(st.integers(1, hi))
        if i == axis:
            d = 2 * max(1, min(d, hi // 2 if hi > 1 else 1))
        shape.append(d)
        budget = max(1, budget // d)
    half = list(shape)
    half[axis] //= 2
    types = draw(st.sampled_from(list(spec.type_combos)))
    attrs = extra_attrs(draw, st)
    attrs["dim"] = dim
    return {"shapes": shapes_for(shape, half), "types": types, "attrs": attrs}
