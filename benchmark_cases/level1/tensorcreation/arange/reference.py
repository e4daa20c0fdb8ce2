"""Semantics of Arange: out[i] = start + step * i."""
import torch


def reference(start, step, size):
    i = torch.arange(size, dtype=torch.float64)
    if not start.is_floating_point():
        return (start.to(torch.int64) + step.to(torch.int64) * torch.arange(size)).to(start.dtype)
    return (start.double() + step.double() * i).to(start.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    types = draw(st.sampled_from(list(spec.type_combos)))
    # float16 cannot hold large values: keep |start + step * i| small there.
    top = 8192 if types["T"] in ("float16", "bfloat16") else 2_000_000
    size = draw(st.integers(1, top))
    return {"shapes": {"start": [1], "step": [1]}, "types": dict(types), "attrs": {"size": size}}
