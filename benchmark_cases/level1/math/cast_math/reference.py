"""Semantics of CastMath: dtype conversion; float -> int truncates toward zero."""
import torch


def reference(x, dst_type):
    target = getattr(torch, dst_type)
    if not target.is_floating_point and x.is_floating_point():
        x = torch.trunc(x)
    return x.to(target)


def draw_case(draw, spec):
    """A type pair from the spec's combos, dst_type tied to it, and an element count up to 1M."""
    from hypothesis import strategies as st

    combo = draw(st.sampled_from(list(spec.type_combos)))
    rank = draw(st.integers(1, 3))
    shape, budget = [], 1_000_000
    for _ in range(rank):
        d = draw(st.integers(1, max(1, min(8192, budget))))
        shape.append(d)
        budget = max(1, budget // d)
    return {"shapes": {"x": shape}, "types": dict(combo), "attrs": {"dst_type": combo["TO"]}}
