"""Semantics of MatmulBias: C = A @ B + bias (row broadcast), float32 accumulation, one rounding."""


def reference(a, b, bias):
    return (a.double() @ b.double() + bias.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 600))
    k = draw(st.integers(1, 600))
    n = draw(st.integers(1, 600))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [m, k], "b": [k, n], "bias": [n]}, "types": types}
